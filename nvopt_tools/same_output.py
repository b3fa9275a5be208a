"""Checks that two builds of the plugin produce the same output (issue 14: a refactor must not
change what nvopt emits). For every bench kernel and every difftest kernel at every nvopt level it
compiles clang's unoptimized device IR through `opt -passes='nvopt<LEVEL>'` and llc, each with
the base plugin and with the new one, and compares the PTX byte for byte; then it runs
nvopt_tools/difftest.py and nvopt_tools/fuzz.py once with each plugin and compares their outcomes
(difftest: every kept "after" module and the summary; fuzz: the outcome counts).

    python3 -m nvopt_tools.same_output --base OLD/libnvopt.so [--new target/release/libnvopt.so]
        [--work build/same-output] [--fuzz-count 300] [--difftest-seeds 1] [--no-difftest] [--no-fuzz]

Prints one line per difference and a closing 'N passed, N failed' line; exit 1 on any difference.
"""
import argparse
import concurrent.futures as cf
import os
import re
import subprocess
import sys

from nvopt_tools import paths

LLVM = paths.LLVM_BIN


def run(argv, env=None):
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def device_ir(cu, work):
    out = os.path.join(work, "ir", os.path.basename(cu) + ".bc")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not os.path.exists(out):
        rc, _, err = run(paths.device_ir_cmd(cu, out))
        if rc:
            raise RuntimeError(f"clang failed on {cu}: {err[-300:]}")
    return out


def ptx(bc, level, plugin, out):
    """opt + llc with one plugin; returns the PTX text or an error line."""
    opt_out = out + ".opt.bc"
    rc, _, err = run([f"{LLVM}/opt", f"-load-pass-plugin={plugin}", f"-passes=nvopt<{level}>",
                      bc, "-o", opt_out])
    if rc:
        return f"opt failed: {err.strip()[-300:]}"
    rc, _, err = run([f"{LLVM}/llc", f"--load-pass-plugin={plugin}", "-mcpu=sm_90",
                      paths.llc_opt_level(level), opt_out, "-o", out])
    if rc:
        return f"llc failed: {err.strip()[-300:]}"
    return open(out).read()


def compare_ptx(args, failures):
    kernels = paths.cuda_files("bench/kernels", "scripts/difftest_kernels")
    jobs = []
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for cu in kernels:
            bc = device_ir(cu, args.work)
            for level in paths.LEVELS:
                stem = os.path.join(args.work, "ptx", f"{os.path.basename(cu)}.{level}")
                os.makedirs(os.path.dirname(stem), exist_ok=True)
                jobs.append(((cu, level), pool.submit(ptx, bc, level, args.base, stem + ".base.ptx"),
                             pool.submit(ptx, bc, level, args.new, stem + ".new.ptx")))
        same = 0
        for (cu, level), base, new in jobs:
            if base.result() == new.result():
                same += 1
            else:
                failures.append(f"PTX differs: {os.path.relpath(cu, paths.ROOT)} at {level}")
    print(f"same_output: PTX identical for {same} of {len(jobs)} kernel files x levels")
    return same, len(jobs) - same


def with_plugin(plugin):
    env = paths.tool_env()
    env["NVOPT_PLUGIN"] = plugin
    return env


def compare_difftest(args, failures):
    outs = {}
    for side, plugin in (("base", args.base), ("new", args.new)):
        work = os.path.join(args.work, "difftest", side)
        rc, out, err = run(paths.module_cmd("difftest",
                            "--seeds", str(args.difftest_seeds), "--jobs", str(args.jobs),
                            "--work", work), env=with_plugin(plugin))
        outs[side] = (rc, re.sub(r"\d+(\.\d+)? ?s\b", "", out.strip().splitlines()[-1] if out.strip() else err))
    if outs["base"] != outs["new"]:
        failures.append(f"difftest summary differs: base {outs['base']} / new {outs['new']}")
        return 0, 1
    base_dir, new_dir = (os.path.join(args.work, "difftest", s) for s in ("base", "new"))
    diffs = [p for p in after_modules(base_dir) if not same_file(base_dir, new_dir, p)]
    failures.extend(f"difftest module differs: {p}" for p in diffs)
    print(f"same_output: difftest {outs['new'][1]!r} with both; {len(diffs)} kept modules differ")
    return (0, 1) if diffs else (1, 0)


def after_modules(root):
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith(".ll"):
                yield os.path.relpath(os.path.join(d, f), root)


def same_file(a, b, rel):
    """Same module text once each side's own work folder (in the module ID and file names) is
    written as one placeholder."""
    pa, pb = os.path.join(a, rel), os.path.join(b, rel)
    if not os.path.exists(pb):
        return False
    return open(pa).read().replace(a, "<work>") == open(pb).read().replace(b, "<work>")


def compare_fuzz(args, failures):
    outs = {}
    for side, plugin in (("base", args.base), ("new", args.new)):
        rc, out, _ = run(paths.module_cmd("fuzz",
                          "--count", str(args.fuzz_count), "--jobs", str(args.jobs),
                          "--keep", os.path.join(args.work, "fuzz", side)), env=with_plugin(plugin))
        outs[side] = (rc, [l for l in out.splitlines() if l.startswith("  ")])
    if outs["base"] != outs["new"]:
        failures.append(f"fuzz outcomes differ: base {outs['base']} / new {outs['new']}")
        return 0, 1
    print(f"same_output: fuzz outcomes identical ({', '.join(l.strip() for l in outs['new'][1])})")
    return 1, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the plugin build to compare against")
    ap.add_argument("--new", default=paths.PLUGIN)
    ap.add_argument("--work", default=os.path.join(paths.ROOT, "build", "same-output"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--fuzz-count", type=int, default=300)
    ap.add_argument("--difftest-seeds", type=int, default=1)
    ap.add_argument("--no-difftest", action="store_true")
    ap.add_argument("--no-fuzz", action="store_true")
    args = ap.parse_args()
    for p in (args.base, args.new):
        if not os.path.exists(p):
            sys.exit(f"same_output: no plugin at {p}")
    failures = []
    passed, failed = compare_ptx(args, failures)
    for enabled, check in ((not args.no_difftest, compare_difftest), (not args.no_fuzz, compare_fuzz)):
        if enabled:
            p, f = check(args, failures)
            passed, failed = passed + p, failed + f
    for line in failures:
        print(line)
    print(f"same_output: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
