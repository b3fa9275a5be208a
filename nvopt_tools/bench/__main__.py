"""`python3 -m nvopt_tools.bench ARGS`: the bench (nvopt_tools.bench.bench)."""
import sys

from nvopt_tools.bench.bench import main

sys.exit(main())
