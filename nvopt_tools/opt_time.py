"""Optimizer compile time of nvopt pipelines against upstream default<O3> on the same inputs, in
one run: each .cu is compiled once to unoptimized device IR (clang-22, -O3 -disable-llvm-passes;
a .bc input is used as it is, e.g. the device IR build/eval-cache/bc keeps for corpus files),
then opt runs each pipeline --repeat times; the median of the summed times over all inputs is
reported, with ratios to default<O3>. --whole times the whole device flow instead: opt, then
llc -O3 -mcpu=sm_90 on its output, with the plugin for nvopt pipelines (nvopt's codegen
insertions) and without it for upstream's (stock llc).

    python3 -m nvopt_tools.opt_time [--whole] [--repeat N] [--pipelines P,P] [--knob K=V]
        [FILE.cu|FILE.bc ...]
"""
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


def flow_time(pipeline, bc, args, tmp):
    """Seconds opt (and with --whole, llc on its output) take on `bc` for `pipeline`."""
    nvopt = pipeline.startswith("nvopt<")
    knobs = [f"-{k}" for k in args.knob] if nvopt else []
    plugin = [f"-load-pass-plugin={args.plugin}"]
    if not args.whole:
        return timed([f"{BIN}/opt", *plugin, *knobs, f"-passes={pipeline}", bc, "-o", os.devnull])
    out = os.path.join(tmp, "flow.bc")
    took = timed([f"{BIN}/opt", *plugin, *knobs, f"-passes={pipeline}", bc, "-o", out])
    llc = [f"{BIN}/llc", "-O3", "-mcpu=sm_90", out, "-o", os.devnull]
    return took + timed(llc + ([f"--load-pass-plugin={args.plugin}", *knobs] if nvopt else []))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*", help=".cu files (default: examples, test inputs, bench kernels)")
    ap.add_argument("--pipelines", default="default<O3>,nvopt<O3>,nvopt<Ofcmax>")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("--whole", action="store_true", help="opt and llc (the whole device flow)")
    ap.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE",
                    help="a plugin knob for nvopt pipelines' opt and llc (repeatable)")
    args = ap.parse_args()
    inputs = args.inputs or cuda_files("examples", "plugin-tests/Inputs", "bench/kernels")
    tmp = tempfile.mkdtemp(prefix="nvopt-time-")
    bcs = []
    for i, cu in enumerate(inputs):
        if cu.endswith(".bc"):
            bcs.append(cu)
            continue
        bc = os.path.join(tmp, f"{i}.bc")
        run(device_ir_cmd(cu, bc))
        bcs.append(bc)
    # verify alone: process start and I/O (opt only; with --whole, llc's work depends on the IR)
    pipelines = args.pipelines.split(",") + ([] if args.whole else ["verify"])
    totals = {p: [] for p in pipelines}
    for _ in range(args.repeat):
        for p in pipelines:  # interleaved, so machine noise hits every pipeline alike
            totals[p].append(sum(flow_time(p, bc, args, tmp) for bc in bcs))
    base = statistics.median(totals[pipelines[0]])
    if args.whole:
        print(f"{len(bcs)} inputs, {args.repeat} runs each, median of summed opt+llc wall time")
        for p in pipelines:
            med = statistics.median(totals[p])
            print(f"{p:16s} {med * 1000:8.1f} ms   ratio to {pipelines[0]}: {med / base:.2f}")
        return
    floor = statistics.median(totals["verify"])
    print(f"{len(bcs)} inputs, {args.repeat} runs each, median of summed opt wall time "
          f"(start-up and I/O = the verify-only run, {floor * 1000:.1f} ms)")
    for p in pipelines[:-1]:
        med = statistics.median(totals[p])
        print(f"{p:16s} {med * 1000:8.1f} ms   ratio to {pipelines[0]}: {med / base:.2f}   "
              f"without start-up: {(med - floor) / (base - floor):.2f}")


if __name__ == "__main__":
    main()
