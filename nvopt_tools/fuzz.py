"""Fuzzes the plugin (issue 7): random modules through every nvopt level and llc with the
plugin, under opt -verify-each and llc -verify-machineinstrs. Two sources, alternating:

- llvm-stress (LLVM 22) modules retargeted to nvptx64-nvidia-cuda with the ptx_kernel calling
  convention;
- mutations of the bench kernels: clang's device IR put through a random handful of upstream
  passes, then nvopt with random knob values.

Every module runs one nvopt level (round robin over the seven), print<nv-scev>, and llc at the
level's -O. Outcomes: ok; crash (a signal or LLVM's crash report); verifier failure; or a
rejection that the stock flow (default<O2>/llc without the plugin) also gives, which is LLVM's
NVPTX back end refusing the random input (counted as "upstream rejects", not ours). Crashing and
failing inputs are kept under --keep (default build/fuzz) for llvm-reduce.

    python3 -m nvopt_tools.fuzz --count 2000 [--seed 1] [--jobs 2]
"""
import argparse
import concurrent.futures as cf
import os
import random
import shutil
import subprocess
import sys
import tempfile

from nvopt_tools import paths

OPT = f"{paths.LLVM_BIN}/opt"
LLC = f"{paths.LLVM_BIN}/llc"
STRESS = f"{paths.LLVM_BIN}/llvm-stress"
TRIPLE = 'target triple = "nvptx64-nvidia-cuda"\n'
MUTATORS = ["instcombine<no-verify-fixpoint>", "simplifycfg", "loop(loop-rotate)", "loop-mssa(licm)", "loop(indvars)",
            "loop-unroll<O3>", "gvn", "sroa", "reassociate", "loop-simplify", "lcssa", "early-cse",
            "jump-threading", "sccp", "dse", "loop(loop-instsimplify)", "instsimplify", "mem2reg",
            "loop(loop-deletion)"]
RANDOM_KNOBS = [("scalar-evolution-complexity-control", [0, 1]), ("scalar-evolution-max-expr-size", [1, 8, 384]),
                ("scalar-evolution-max-expr-failures", [0, 2, 100]), ("scalar-evolution-max-recursion-depth", [0, 5, 100]),
                ("nv-disable-loop-rotate", [0, 1]), ("nv-disable-licm", [0, 1]), ("nv-loop-vectorize", [0, 1]),
                ("nv-feature-flags", [-1, 0, 7]), ("memory-space-opt", [0, 1]),
                ("do-ip-msp", [0, 1]), ("nv-ipmsp-max-clones", [0, 1, 4]),
                ("nv-maxreg", [0, 4, 24]), ("remat-maxreg-ceiling", [0, 8]),
                ("nv-fold-const-calls-max-steps", [1, 50, 10000])]
TIMEOUT = 120


def run(cmd, stdin=None):
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=TIMEOUT)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", f"timed out after {TIMEOUT}s"


def stress_module(seed, path):
    size = random.Random(seed).choice([20, 50, 100, 200])
    p = subprocess.run([STRESS, f"-seed={seed}", f"-size={size}"], capture_output=True, text=True, check=True)
    text = p.stdout.replace("define void @autogen", "define ptx_kernel void @autogen")
    with open(path, "w") as f:
        f.write(TRIPLE + text)


def kernel_irs(tmp):
    out = []
    for cu in paths.cuda_files("bench/kernels"):
        bc = os.path.join(tmp, os.path.basename(cu) + ".bc")
        subprocess.run(paths.device_ir_cmd(cu, bc), check=True, capture_output=True)
        out.append(bc)
    return out


def mutant_module(seed, kernels, path):
    rng = random.Random(seed)
    passes = "function(" + ",".join(rng.sample(MUTATORS, rng.randint(1, 4))) + ")"
    code, err = run([OPT, f"-passes={passes}", rng.choice(kernels), "-S", "-o", path])
    if code != 0:
        raise RuntimeError(f"mutation {passes} failed: {err[:200]}")


def knobs_for(seed, mutant):
    if not mutant:
        return []
    rng = random.Random(seed * 7 + 1)
    return [f"-{k}={rng.choice(vs)}" for k, vs in rng.sample(RANDOM_KNOBS, 3)]


def crashed(code, err):
    return code == "timeout" or paths.llvm_crashed(code, err)


def verifier_failed(err):
    return "Broken module" in err or "Bad machine code" in err or "verification failed" in err.lower()


def upstream_rejects(path, llc_level):
    """Whether the stock flow (no plugin) also rejects the module."""
    with tempfile.TemporaryDirectory() as tmp:
        bc = os.path.join(tmp, "u.bc")
        code, _ = run([OPT, "-passes=default<O2>", path, "-o", bc])
        if code != 0:
            return True
        code, _ = run([LLC, "-mcpu=sm_90", llc_level, bc, "-o", os.devnull])
        return code != 0


def check(seed, path, level, knobs):
    plugin = paths.PLUGIN
    llc_level = paths.llc_opt_level(level)
    out = path + ".opt.bc"
    steps = [
        ("opt", [OPT, f"-load-pass-plugin={plugin}", f"-passes=nvopt<{level}>", "-verify-each", *knobs, path, "-o", out]),
        ("nv-scev", [OPT, f"-load-pass-plugin={plugin}", "-passes=print<nv-scev>", *knobs, path, "-disable-output"]),
        ("llc", [LLC, f"--load-pass-plugin={plugin}", "-mcpu=sm_90", llc_level, "-verify-machineinstrs", *knobs, out,
                 "-o", os.devnull]),
    ]
    for name, cmd in steps:
        code, err = run(cmd)
        if crashed(code, err):
            return "crash", name, err
        if verifier_failed(err):
            return "verifier", name, err
        if code != 0:
            if upstream_rejects(path, llc_level):
                return "upstream-rejects", name, err
            return "error", name, err
    return "ok", "", ""


def one(seed, kernels, tmp):
    path = os.path.join(tmp, f"m{seed}.ll")
    mutant = seed % 2 == 1
    try:
        (mutant_module(seed, kernels, path) if mutant else stress_module(seed, path))
    except (RuntimeError, subprocess.CalledProcessError) as e:
        return seed, "skipped-input", "gen", str(e)[:200], path, []
    level = paths.LEVELS[(seed // 2) % len(paths.LEVELS)]
    knobs = knobs_for(seed, mutant)
    outcome, step, err = check(seed, path, level, knobs)
    return seed, outcome, f"{step} nvopt<{level}> {' '.join(knobs)}".strip(), err, path, knobs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", default=os.path.join(paths.ROOT, "build", "fuzz"))
    args = ap.parse_args()
    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        kernels = kernel_irs(tmp)
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(one, s, kernels, tmp) for s in range(args.seed, args.seed + args.count)]
            for fut in cf.as_completed(futures):
                seed, outcome, what, err, path, _ = fut.result()
                counts[outcome] = counts.get(outcome, 0) + 1
                if outcome in ("crash", "verifier", "error"):
                    os.makedirs(args.keep, exist_ok=True)
                    kept = os.path.join(args.keep, f"{outcome}-{seed}.ll")
                    shutil.copy(path, kept)
                    print(f"FAIL seed {seed}: {outcome} in {what}; input kept as {kept}\n  " +
                          "\n  ".join(err.strip().splitlines()[:6]))
    total = sum(counts.values())
    print(f"fuzz: {total} modules (seeds {args.seed}..{args.seed + args.count - 1})")
    for k in ("ok", "upstream-rejects", "skipped-input", "crash", "verifier", "error"):
        print(f"  {k}: {counts.get(k, 0)}")
    bad = sum(counts.get(k, 0) for k in ("crash", "verifier", "error"))
    print(f"crashes: {counts.get('crash', 0)}, verifier failures: {counts.get('verifier', 0)}, "
          f"other plugin-only errors: {counts.get('error', 0)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
