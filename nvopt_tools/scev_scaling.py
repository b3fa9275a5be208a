"""Scaling of nv-scev (issue 4, 6b): time of `print<nv-scev>` on generated kernels with N address
computations (nvopt_tools/gen_scev_stress.py), complexity control on and off, against LLVM's own
`print<scalar-evolution>`; the growth exponent is the least-squares slope of log(time) over
log(N), time measured minus the same opt run with no pass (parsing and start-up).

    python3 -m nvopt_tools.scev_scaling [--sizes 500 1000 2000 4000] [--repeat 3]
"""
import argparse
import math
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from nvopt_tools import paths

CONFIGS = [
    ("nv-scev, complexity control on", ["-passes=print<nv-scev>"]),
    ("nv-scev, complexity control off", ["-passes=print<nv-scev>", "-scalar-evolution-complexity-control=0"]),
    ("nv-scev, off, no add-items limit",
     ["-passes=print<nv-scev>", "-scalar-evolution-complexity-control=0", "-scalar-evolution-max-add-items=2147483647"]),
    ("LLVM print<scalar-evolution>", ["-passes=print<scalar-evolution>"]),
]
BASELINE = ["-passes=no-op-function"]


def run_time(ll, args, repeat):
    cmd = [f"{paths.LLVM_BIN}/opt", f"-load-pass-plugin={paths.PLUGIN}", *args, "-disable-output", str(ll)]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def exponent(sizes, times):
    xs = [math.log(n) for n in sizes]
    ys = [math.log(max(t, 1e-4)) for t in times]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 4000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows = {name: [] for name, _ in CONFIGS}
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            ll = Path(tmp) / f"chain{n}.ll"
            ll.write_text(subprocess.run(paths.module_cmd("gen_scev_stress", n), env=paths.tool_env(), check=True, capture_output=True, text=True).stdout)
            base = run_time(ll, BASELINE, args.repeat)
            for name, cfg in CONFIGS:
                rows[name].append(max(run_time(ll, cfg, args.repeat) - base, 0.0))
    print("| configuration | " + " | ".join(f"N={n} (s)" for n in args.sizes) + " | growth exponent |")
    print("|---|" + "---:|" * (len(args.sizes) + 1))
    for name, times in rows.items():
        cells = " | ".join(f"{t:.3f}" for t in times)
        print(f"| {name} | {cells} | {exponent(args.sizes, times):.2f} |")


if __name__ == "__main__":
    main()
