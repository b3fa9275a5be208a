"""Optimizer compile time of nvopt pipelines against upstream default<O3> on the same inputs, in
one run: each .cu is compiled once to unoptimized device IR (clang-22, -O3 -disable-llvm-passes),
then opt runs each pipeline --repeat times; the median of the summed times over all inputs is
reported, with ratios to default<O3>."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from nvopt_tools.paths import LLVM_BIN as BIN, PLUGIN, cuda_files, device_ir_cmd


def run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"opt_time: {' '.join(cmd)} failed:\n{res.stderr}")


def timed(cmd):
    start = time.perf_counter()
    run(cmd)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*", help=".cu files (default: examples, test inputs, bench kernels)")
    ap.add_argument("--pipelines", default="default<O3>,nvopt<O3>,nvopt<Ofcmax>")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--plugin", default=PLUGIN)
    args = ap.parse_args()
    inputs = args.inputs or cuda_files("examples", "plugin-tests/Inputs", "bench/kernels")
    tmp = tempfile.mkdtemp(prefix="nvopt-time-")
    bcs = []
    for i, cu in enumerate(inputs):
        bc = os.path.join(tmp, f"{i}.bc")
        run(device_ir_cmd(cu, bc))
        bcs.append(bc)
    pipelines = args.pipelines.split(",") + ["verify"]  # verify alone: process start and I/O
    totals = {p: [] for p in pipelines}
    for _ in range(args.repeat):
        for p in pipelines:  # interleaved, so machine noise hits every pipeline alike
            totals[p].append(sum(timed([f"{BIN}/opt", f"-load-pass-plugin={args.plugin}", f"-passes={p}",
                                        bc, "-o", os.devnull]) for bc in bcs))
    base = statistics.median(totals[pipelines[0]])
    floor = statistics.median(totals["verify"])
    print(f"{len(bcs)} inputs, {args.repeat} runs each, median of summed opt wall time "
          f"(start-up and I/O = the verify-only run, {floor * 1000:.1f} ms)")
    for p in pipelines[:-1]:
        med = statistics.median(totals[p])
        print(f"{p:16s} {med * 1000:8.1f} ms   ratio to {pipelines[0]}: {med / base:.2f}   "
              f"without start-up: {(med - floor) / (base - floor):.2f}")


if __name__ == "__main__":
    main()
