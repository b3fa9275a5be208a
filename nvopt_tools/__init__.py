"""nvopt's Python tools, one package (README "Python tools"). Run them from the project root as
modules, `python3 -m nvopt_tools.ptx_check FILE.ptx`, or from anywhere with PYTHONPATH set to the
project root (the lit configuration does that for the plugin tests). Modules import each other
as package modules (`from nvopt_tools import paths`); the bench lives in `nvopt_tools.bench` and
the unit tests in `nvopt_tools.tests`."""
