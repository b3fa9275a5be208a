"""Unit tests of the tools; each runs as `python3 -m nvopt_tools.tests.test_NAME` (the lit tests
in plugin-tests/ run them and check their counts), or all at once with
`python3 -m unittest discover -s nvopt_tools/tests -t .`."""
