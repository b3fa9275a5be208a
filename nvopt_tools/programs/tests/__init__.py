"""Unit tests of nvopt_tools.programs (run by lit plugin-tests/programs/unit.test):
python3 -m unittest nvopt_tools.programs.tests.test_programs"""
