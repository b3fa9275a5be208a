"""The bench (bench/README.md): compile bench/kernels with each compiler, count, time and chart.
`python3 -m nvopt_tools.bench ...` runs nvopt_tools.bench.bench."""
