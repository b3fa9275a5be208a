# nvopt bench: compiles every kernel in bench/kernels with upstream LLVM 22, nvopt and NVIDIA's
# nvcc (optionally cicc nvvm-latest on the same clang IR) and reports ptxas registers/spills,
# PTX/SASS instruction counts, register-to-register movs and compile-time ratios
# (docs/ARCHITECTURE.md "Measuring"). Writes results.tsv, summary.md, failures.tsv and PNG
# charts into --out (default build/bench/<level>/, <level>-quick/ with --quick, -maxregN appended
# with --maxreg N). Exits 1 when anything failed.
# `--variant NAME:KNOB=V,...` adds a column nvopt:NAME: nvopt's optimized IR through llc with
# those knobs (A/B of one codegen phase on the same IR; nvopt_tools/bench/ab.py prints the tables).
#
#   python3 -m nvopt_tools.bench --level O3            # full corpus
#   python3 -m nvopt_tools.bench --quick               # 5 kernels, for tests (plugin-tests/bench)
#   python3 -m nvopt_tools.bench --variant nocoal:nv-disable-coalesce=1   # + column nvopt:nocoal
#   python3 -m nvopt_tools.bench --maxreg 32           # register cap: build/bench/O3-maxreg32
import argparse
import datetime
import fnmatch
import glob
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

from nvopt_tools import paths
from nvopt_tools.bench import compilers
from nvopt_tools.bench import gpu_run
from nvopt_tools.bench import report
from nvopt_tools.bench import tools as toolmod
from nvopt_tools.bench.run_kernels import compile_file
from nvopt_tools.bench.tools import ROOT, log

KERNELS = os.path.join(ROOT, "bench", "kernels")
QUICK = ["gridstride_saxpy", "gemm_tiled", "reduce_shuffle", "many_access", "pathological_ivs"]
# The plugin knob that gives nvopt's passes the register cap of --maxreg (nvopt-cc
# -maxrregcount passes the same one).
MAXREG_KNOB = "nv-maxreg"


def parse_args(argv):
    p = argparse.ArgumentParser(description="nvopt bench: upstream vs nvopt vs nvidia on sm_90")
    p.add_argument("--level", default="O3", choices=list(compilers.LEVELS))
    p.add_argument("--out", help="output folder (default build/bench/<level>, <level>-quick with --quick, "
                                 "-maxregN appended with --maxreg N)")
    p.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    p.add_argument("--kernels", action="append", default=[],
                   help="kernel file stems or globs to run (repeatable; default all)")
    p.add_argument("--reps", type=int, default=3, help="timed repetitions, median taken (default 3)")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=VALUE",
                   help="passed as -NAME=VALUE to nvopt's opt and llc (repeatable)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME:KNOB=V[,KNOB=V...]",
                   help="add column nvopt:NAME: the nvopt column's optimized IR through llc with "
                        "-KNOB=V added (repeatable; needs the nvopt column)")
    p.add_argument("--compilers", default=",".join(compilers.DEFAULT_COMPILERS),
                   help="comma-separated subset of " + ",".join(compilers.COMPILERS))
    p.add_argument("--nvvm-latest", action="store_true",
                   help="add cicc's nvvm-latest back end on the clang IR as a fourth column")
    p.add_argument("--maxreg", type=int, metavar="N",
                   help=f"register cap per thread, as nvcc -maxrregcount N: nvopt gets -{MAXREG_KNOB}=N "
                        "(opt and llc), nvcc -maxrregcount N, cicc nvvm-latest -maxreg=N, and every "
                        "column's ptxas -maxrregcount=N (default out: build/bench/<level>-maxregN)")
    p.add_argument("--maxreg-ptxas-only", action="store_true",
                   help=f"with --maxreg: nvopt does not get -{MAXREG_KNOB} (only ptxas caps its PTX, "
                        "as for upstream)")
    p.add_argument("--plugin", default=os.environ.get(
        "NVOPT_PLUGIN", os.path.join(ROOT, "target", "release", "libnvopt.so")))
    p.add_argument("--opt", help="opt to use (default: $NVOPT_LLVM_BIN or /usr/lib/llvm-22/bin)")
    p.add_argument("--llc", help="llc to use")
    p.add_argument("--clang", help="clang++ to use")
    p.add_argument("--no-build", action="store_true", help="do not run scripts/build.sh")
    p.add_argument("--no-verify-each", action="store_true",
                   help="skip the extra opt -verify-each / llc -verify-machineinstrs run")
    p.add_argument("--count-instructions", action="store_true",
                   help="also run each LLVM column's clang, opt and llc once under valgrind's callgrind "
                        "and report the instructions they execute: a compile-cost figure that, unlike "
                        "time, does not move with the machine's load (needs valgrind)")
    p.add_argument("--no-charts", action="store_true", help="skip the PNG charts (no matplotlib)")
    p.add_argument("--run", action="store_true",
                   help="GPU mode (nvopt_tools/bench/gpu_run.py): then run each column's PTX of the kernels "
                        "bench.spec launches on random inputs: output equality and kernel time")
    args = p.parse_args(argv)
    args.plugin = os.path.abspath(args.plugin)  # the compilers run in other folders
    comps = [c.strip() for c in args.compilers.split(",") if c.strip()]
    if args.nvvm_latest and "nvvm-latest" not in comps:
        comps.append("nvvm-latest")
    bad = [c for c in comps if c not in compilers.COMPILERS]
    if bad:
        p.error(f"unknown compiler(s) {bad}; choose from {compilers.COMPILERS}")
    for k in args.knob:
        if "=" not in k or k.startswith("-"):
            p.error(f"--knob wants NAME=VALUE (no leading dash), got {k!r}")
    if args.reps < 1:
        p.error("--reps must be at least 1")
    if args.maxreg is not None and not 1 <= args.maxreg <= 255:
        p.error(f"--maxreg wants a register count from 1 to 255, got {args.maxreg}")
    if args.maxreg_ptxas_only and args.maxreg is None:
        p.error("--maxreg-ptxas-only needs --maxreg N")
    if args.maxreg and not args.maxreg_ptxas_only:
        # nvopt's share of the cap: a plugin knob in opt and llc, after any --knob.
        args.knob.append(f"{MAXREG_KNOB}={args.maxreg}")
    args.variants = [parse_variant(p, v) for v in args.variant]
    names = [n for n, _ in args.variants]
    if len(set(names)) != len(names):
        p.error(f"--variant names must differ, got {names}")
    if args.variants and "nvopt" not in comps:
        p.error("--variant reuses the nvopt column's IR: keep nvopt in --compilers")
    args.comps = comps
    args.valgrind = ""
    if args.count_instructions:
        args.valgrind = shutil.which("valgrind") or ""
        if not args.valgrind:
            p.error("--count-instructions needs valgrind on PATH (apt-get install valgrind)")
    args.columns = comps + [f"nvopt:{n}" for n in names]
    default = args.level + ("-quick" if args.quick else "") + maxreg_suffix(args)
    args.out = os.path.abspath(args.out or os.path.join(ROOT, "build", "bench", default))
    return args


def maxreg_suffix(args):
    """`-maxregN` (`-maxregN-ptxasonly` with --maxreg-ptxas-only) for the default output folder."""
    if args.maxreg is None:
        return ""
    return f"-maxreg{args.maxreg}" + ("-ptxasonly" if args.maxreg_ptxas_only else "")


def parse_variant(p, text):
    """`NAME:KNOB=V[,KNOB=V...]` -> (NAME, ['KNOB=V', ...])."""
    name, sep, rest = text.partition(":")
    knobs = [k.strip() for k in rest.split(",") if k.strip()]
    if not sep or not re.fullmatch(r"[A-Za-z0-9_.+-]+", name) or not knobs:
        p.error(f"--variant wants NAME:KNOB=V[,KNOB=V...] (NAME of letters, digits, _.+-), got {text!r}")
    for k in knobs:
        if "=" not in k or k.startswith("-"):
            p.error(f"--variant {name}: knobs are KNOB=V without a leading dash, got {k!r}")
    return name, knobs


def kernel_files(args):
    files = sorted(glob.glob(os.path.join(KERNELS, "*.cu")))
    pats = args.kernels or (QUICK if args.quick else ["*"])
    chosen = [f for f in files if any(fnmatch.fnmatch(os.path.basename(f)[:-3], p) for p in pats)]
    if not chosen:
        sys.exit(f"bench: no kernel matches {pats} in {KERNELS}")
    return chosen


def metadata(args, tools, files, elapsed):
    nv = tools.nv("nvcc") if tools.nvidia_bin else ""
    up_opt, nvcc_flags = compilers.LEVELS[args.level]
    nvcc_cap = ["-maxrregcount", str(args.maxreg)] if args.maxreg else []
    llc_level = compilers.llc_opt_level(args.level)
    meta = {
        "level": args.level,
        "command": "python3 -m nvopt_tools.bench " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "host": f"{platform.node()}, {os.cpu_count()} CPUs",
        "kernel files": f"{len(files)} ({'quick set' if args.quick else 'selected' if args.kernels else 'all'})",
        "repetitions": f"{args.reps} (median)",
        "instructions": (f"counted: each LLVM step once more under {args.valgrind} --tool=callgrind"
                         if args.valgrind else "not counted (--count-instructions)"),
        "knobs": " ".join(f"-{k}" for k in args.knob) or "none",
        "register cap": maxreg_note(args),
        "upstream": f"clang++ -O3 -Xclang -disable-llvm-passes → opt -passes='{up_opt}' → llc {llc_level} -mcpu=sm_90",
        "nvopt": f"same IR → opt -passes='nvopt<{args.level}>' → llc {llc_level} -mcpu=sm_90 (plugin loaded)",
        **{f"nvopt:{n}": f"nvopt.bc → llc {llc_level} -mcpu=sm_90 (plugin loaded) " + " ".join(f"-{k}" for k in ks)
           for n, ks in args.variants},
        "nvidia": f"nvcc -ptx -arch=sm_90 {' '.join(nvcc_flags + nvcc_cap)}".rstrip() + f" ({toolmod.which_version([nv, '--version']) if nv else 'unavailable'})",
        "LLVM": llvm_version(tools),
        "plugin": tools.plugin if not tools.plugin_error else f"unavailable: {tools.plugin_error}",
        "plugin md5": paths.file_md5(tools.plugin) or "-",
        "git commit": checkout_note(tools.plugin),
        "wall time": f"{elapsed:.1f} s",
    }
    if "nvvm-latest" in args.comps:
        meta["nvvm-latest"] = ("clang IR with NVVM datalayout + !nvvmir.version → cicc -libnvvm "
                               f"-arch=compute_90 -nvvm-version=nvvm-latest {' '.join(compilers.CICC_LEVEL[args.level])}"
                               + (f" -maxreg={args.maxreg}" if args.maxreg else ""))
    return meta


def checkout_note(plugin):
    """The checkout's commit (paths.git_state); said to be only the checkout's when the plugin is
    not this checkout's own build (a copy elsewhere, say corpus_eval's private one)."""
    state = paths.git_state() or "-"
    if os.path.realpath(plugin) == os.path.realpath(paths.PLUGIN):
        return state
    return f"{state} (the checkout's; the plugin is a copy, not its target/release build)"


def maxreg_note(args):
    if args.maxreg is None:
        return "none"
    n = args.maxreg
    nvopt = "ptxas only" if args.maxreg_ptxas_only else f"-{MAXREG_KNOB}={n} (opt, llc)"
    return (f"{n}: nvopt {nvopt}; nvidia nvcc -maxrregcount {n}; nvvm-latest cicc -maxreg={n}; "
            f"ptxas -maxrregcount={n} for every column")


def llvm_version(tools):
    out = subprocess.run([tools.llvm("llc"), "--version"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "LLVM version" in line:
            return line.strip()
    return "unknown"


def charts(args, rows_path, tools_notes):
    if args.no_charts:
        return "charts skipped (--no-charts)"
    py, err = toolmod.chart_python()
    if err:
        return f"no charts: {err}"
    proc = subprocess.run(paths.module_cmd("bench.charts", rows_path, args.out, python=py),
                          env=paths.tool_env(), capture_output=True, text=True)
    if proc.returncode != 0:
        return f"charts failed: {proc.stderr.strip()[-400:]}"
    return proc.stdout.strip()


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    if set(compilers.LEVELS) != set(paths.levels()):
        sys.exit(f"bench: compilers.LEVELS names {sorted(compilers.LEVELS)}, the plugin's levels "
                 f"are {list(paths.levels())}: give every plugin level its mapping")
    if args.run:
        # GPU mode (nvopt_tools/bench/gpu_run.py): refuse at once, before compiling, where there is no driver.
        problem = gpu_run.probe()
        if problem:
            print(f"bench --run: needs an NVIDIA GPU and its driver: {problem}", file=sys.stderr)
            return 2
    t0 = time.perf_counter()
    tools = toolmod.discover(args.plugin, not args.no_build, "nvopt" in args.comps,
                             {"opt": args.opt, "llc": args.llc, "clang++": args.clang})
    for note in tools.notes:
        log(note)
    if tools.plugin_error and "nvopt" in args.comps:
        log(f"nvopt column will fail: {tools.plugin_error}")
    files = kernel_files(args)
    os.makedirs(args.out, exist_ok=True)
    results = []
    for i, src in enumerate(files, 1):
        stem = os.path.basename(src)[:-3]
        t1 = time.perf_counter()
        res = compile_file(src, os.path.join(args.out, "work", stem), tools, args.level, args.comps,
                           args.knob, args.reps, not args.no_verify_each, args.variants, args.maxreg,
                           args.valgrind)
        status = "ok" if not res.failures else f"{len(res.failures)} failure(s)"
        log(f"[{i}/{len(files)}] {stem}: {status} ({time.perf_counter() - t1:.1f} s)")
        results.append(res)
    rows = report.rows_from(results, args.level, args.columns)
    rows_path = os.path.join(args.out, "results.tsv")
    report.write_tsv(rows, rows_path)
    meta = metadata(args, tools, files, time.perf_counter() - t0)
    failures = report.write_summary(os.path.join(args.out, "summary.md"), rows, results, args.columns, meta)
    report.write_failures(os.path.join(args.out, "failures.tsv"), failures)
    note = charts(args, rows_path, tools.notes)
    with open(os.path.join(args.out, "summary.md"), "a") as f:
        f.write(f"\n## Charts\n\n{note}\n")
    log(f"{len(rows)} rows, {len(failures)} failure(s), {time.perf_counter() - t0:.1f} s; "
        f"summary: {os.path.join(args.out, 'summary.md')}")
    for stem, c, step, msg in failures:
        log(f"FAILED {stem} [{c}] {step}: {msg.splitlines()[0] if msg else ''}")
    gpu = gpu_run.main(["--out", args.out]) if args.run else 0
    return 1 if failures or gpu else 0


if __name__ == "__main__":
    sys.exit(main())
