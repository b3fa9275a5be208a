"""Checks that two builds of the plugin produce the same output (issue 14: a refactor must not
change what nvopt emits). For every bench kernel and every difftest kernel at every nvopt level it
compiles clang's unoptimized device IR through `opt -passes='nvopt<LEVEL>'` and llc, each with
the base plugin and with the new one, and compares the PTX byte for byte; then it runs
nvopt_tools/difftest.py and nvopt_tools/fuzz.py once with each plugin and compares their outcomes
(difftest: every kept "after" module and the summary; fuzz: the outcome counts).

    python3 -m nvopt_tools.same_output --base OLD/libnvopt.so [--new target/release/libnvopt.so]
        [--work build/same-output] [--fuzz-count 300] [--difftest-seeds 1] [--no-difftest] [--no-fuzz]
        [--no-kernels] [--lit] [--bc-dir DIR [--bc-every N]] [--new-knob NAME=V]...

--lit compares the .ll and .cu inputs under plugin-tests/ the same way (every level; a .cu clang
cannot turn into device IR is left out and counted). --bc-dir compares every .bc file under DIR
(e.g. build/eval-cache/bc, the corpora's front-end bitcode) at O3 for sm_90 exactly as
corpus_eval compiles them: through the driver (--driver, default target/release/nvopt-cc) with
`--no-ptxas -arch=sm_90 -O3 --plugin P`, comparing each PTX's sha256; --bc-every N takes every
Nth file sorted by path (a deterministic subset). --new-knob NAME=V (repeatable) is passed to
the new plugin's opt and llc only (as -NAME=V; through the driver as --knob NAME=V): it turns
off what the new build added on purpose, so that what remains must be identical (issue 33).
difftest and fuzz take no knobs, so --new-knob needs --no-difftest --no-fuzz. A compile that
fails counts as the same when both plugins fail with the same message (paths of each side's
own files written as placeholders).

Prints one line per difference and a closing 'N passed, N failed' line; exit 1 on any difference.
"""
import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import subprocess
import sys
import time

from nvopt_tools import paths

LLVM = paths.LLVM_BIN


def run(argv, env=None):
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    return proc.returncode, proc.stdout, proc.stderr


def device_ir(cu, work):
    out = os.path.join(work, "ir", os.path.relpath(cu, paths.ROOT).replace(os.sep, "__") + ".bc")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    if not os.path.exists(out):
        rc, _, err = run(paths.device_ir_cmd(cu, out))
        if rc:
            raise RuntimeError(f"clang failed on {cu}: {err[-300:]}")
    return out


def parse_knob(spec):
    """'NAME=V' (a leading '-' allowed) -> (NAME, V)."""
    name, eq, value = spec.lstrip("-").partition("=")
    if not eq or not name or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        raise ValueError(f"bad knob {spec!r} (expected NAME=VALUE)")
    return name, value


def failed(step, err, *own):
    """An error line of one side, its own paths (output, plugin) written as placeholders so that
    the two sides' failures compare equal when they fail alike; of a crash, the message before
    LLVM's crash report (whose addresses differ from run to run)."""
    text = err.strip()
    for report in ("PLEASE submit a bug report", "Stack dump:"):
        if report in text:
            text = text.split(report)[0].strip() + " [crashed]"
    for i, p in enumerate(own):
        text = text.replace(p, f"<path{i}>")
    text = re.sub(r"nvopt-cc-\d+-\d+", "nvopt-cc-<tmp>", text)[-300:]
    return f"{step} failed: {text}"


def ptx(bc, level, plugin, out, knobs=()):
    """opt + llc with one plugin (knobs as -NAME=V to both); returns the PTX text or an error
    line."""
    flags = [f"-{k}={v}" for k, v in knobs]
    opt_out = out + ".opt.bc"
    rc, _, err = run([f"{LLVM}/opt", f"-load-pass-plugin={plugin}", f"-passes=nvopt<{level}>",
                      *flags, bc, "-o", opt_out])
    if rc:
        return failed("opt", err, opt_out, plugin)
    rc, _, err = run([f"{LLVM}/llc", f"--load-pass-plugin={plugin}", "-mcpu=sm_90",
                      paths.llc_opt_level(level), *flags, opt_out, "-o", out])
    if rc:
        return failed("llc", err, out, opt_out, plugin)
    return open(out).read()


def is_failure(result):
    return result.startswith(("opt failed: ", "llc failed: ", "driver failed: "))


def tally(pairs):
    """pairs: (name, base result, new result) -> (same, both-failed names, differing names).
    Equal results are the same (both failures alike included); anything else differs."""
    same, both_failed, differ = 0, [], []
    for name, base, new in pairs:
        if base != new:
            differ.append(name)
            continue
        same += 1
        if is_failure(base):
            both_failed.append(name)
    return same, both_failed, differ


def difference(name, base, new):
    """The line naming a difference, with the failure text of a side that failed."""
    why = [f"{side}: {r}" for side, r in (("base", base), ("new", new)) if is_failure(r)]
    return f"PTX differs: {name}" + (f" ({'; '.join(why)})" if why else "")


def compare_files(args, failures, what, files, levels):
    """PTX of each .cu/.ll file at each level, base vs new (the knobs to new only)."""
    jobs, no_ir = [], []
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        for src in files:
            rel = os.path.relpath(src, paths.ROOT)
            if src.endswith(".cu"):
                try:
                    ir = device_ir(src, os.path.join(args.work, what))
                except RuntimeError:
                    no_ir.append(rel)
                    continue
            else:
                ir = src
            for level in levels:
                stem = os.path.join(args.work, what, "ptx", f"{rel.replace(os.sep, '__')}.{level}")
                os.makedirs(os.path.dirname(stem), exist_ok=True)
                jobs.append((f"{rel} at {level}",
                             pool.submit(ptx, ir, level, args.base, stem + ".base.ptx"),
                             pool.submit(ptx, ir, level, args.new, stem + ".new.ptx", args.knobs)))
        results = {n: (b.result(), c.result()) for n, b, c in jobs}
    same, both_failed, differ = tally((n, *r) for n, r in results.items())
    failures.extend(difference(n, *results[n]) for n in differ)
    left = f"; {len(no_ir)} .cu files without device IR left out" if no_ir else ""
    print(f"same_output: {what}: PTX identical for {same} of {len(jobs)} files x levels "
          f"({len(both_failed)} of them failing alike with both){left}", flush=True)
    return same, len(differ)


def compare_ptx(args, failures):
    kernels = paths.cuda_files("bench/kernels", "scripts/difftest_kernels")
    return compare_files(args, failures, "kernels", kernels, paths.LEVELS)


def lit_inputs():
    """The .ll and .cu files under plugin-tests/, sorted."""
    root = os.path.join(paths.ROOT, "plugin-tests")
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs
                  if f.endswith((".ll", ".cu")))


def compare_lit(args, failures):
    return compare_files(args, failures, "lit", lit_inputs(), paths.LEVELS)


def every_nth(rels, n):
    """Every nth of the paths sorted (the first, the n+1st, ...): a subset that is the same on
    every run."""
    return sorted(rels)[::n]


def bc_files(root):
    return [os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs
            if f.endswith(".bc")]


def driver_ptx(driver, bc, plugin, out, knobs=()):
    """The sha256 of the PTX nvopt-cc gives for one .bc at O3 for sm_90 (corpus_eval's flags),
    or an error line."""
    cmd = [driver, "--no-ptxas", "-arch=sm_90", "-O3", "--plugin", plugin,
           *[a for k, v in knobs for a in ("--knob", f"{k}={v}")], bc, "-o", out]
    rc, _, err = run(cmd)
    if rc or not os.path.exists(out):
        return failed("driver", err, out, plugin, bc)
    with open(out, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def compare_bc(args, failures):
    rels = every_nth(bc_files(args.bc_dir), args.bc_every)
    out_dir = os.path.join(args.work, "bc")
    os.makedirs(out_dir, exist_ok=True)
    with cf.ThreadPoolExecutor(args.jobs) as pool:
        jobs = []
        for rel in rels:
            bc = os.path.join(args.bc_dir, rel)
            stem = os.path.join(out_dir, rel.replace(os.sep, "__"))
            jobs.append((rel,
                         pool.submit(driver_ptx, args.driver, bc, args.base, stem + ".base.ptx"),
                         pool.submit(driver_ptx, args.driver, bc, args.new, stem + ".new.ptx",
                                     args.knobs)))
        results = {r: (b.result(), c.result()) for r, b, c in jobs}
    same, both_failed, differ = tally((r, *res) for r, res in results.items())
    failures.extend(difference(os.path.join(args.bc_dir, r), *results[r]) for r in differ)
    subset = f", every {args.bc_every}th file by path" if args.bc_every > 1 else ""
    print(f"same_output: bc: PTX identical for {same} of {len(jobs)} .bc files under "
          f"{args.bc_dir}{subset} ({len(both_failed)} of them failing alike with both)", flush=True)
    for r in both_failed:
        print(f"same_output: both fail alike: {os.path.join(args.bc_dir, r)}")
    return same, len(differ)


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
    ap.add_argument("--no-kernels", action="store_true",
                    help="leave out the bench and difftest kernels")
    ap.add_argument("--lit", action="store_true",
                    help="also the .ll and .cu inputs under plugin-tests/, every level")
    ap.add_argument("--bc-dir", help="also every .bc under this folder, at O3 through the driver")
    ap.add_argument("--bc-every", type=int, default=1, help="with --bc-dir: every Nth file")
    ap.add_argument("--driver", default=os.path.join(paths.ROOT, "target", "release", "nvopt-cc"),
                    help="the nvopt-cc that compiles the --bc-dir files")
    ap.add_argument("--new-knob", action="append", default=[], metavar="NAME=V",
                    help="passed to the new plugin's opt and llc only (repeatable)")
    args = ap.parse_args()
    try:
        args.knobs = [parse_knob(k) for k in args.new_knob]
    except ValueError as e:
        ap.error(str(e))
    if args.knobs and not (args.no_difftest and args.no_fuzz):
        ap.error("--new-knob reaches only the PTX comparisons: add --no-difftest --no-fuzz")
    if args.bc_every < 1:
        ap.error("--bc-every must be at least 1")
    for p in (args.base, args.new) + ((args.driver,) if args.bc_dir else ()):
        if not os.path.exists(p):
            sys.exit(f"same_output: no such file: {p}")
    if args.bc_dir and not os.path.isdir(args.bc_dir):
        sys.exit(f"same_output: no folder {args.bc_dir}")
    failures = []
    n_passed = n_failed = 0
    checks = ((not args.no_kernels, compare_ptx), (args.lit, compare_lit),
              (bool(args.bc_dir), compare_bc),
              (not args.no_difftest, compare_difftest), (not args.no_fuzz, compare_fuzz))
    for enabled, check in checks:
        if enabled:
            start = time.monotonic()
            p, f = check(args, failures)
            took = time.monotonic() - start
            print(f"same_output: {check.__name__} took {took:.0f} s", flush=True)
            n_passed, n_failed = n_passed + p, n_failed + f
    for line in failures:
        print(line)
    print(f"same_output: {n_passed} passed, {n_failed} failed")
    sys.exit(1 if n_failed else 0)


if __name__ == "__main__":
    main()
