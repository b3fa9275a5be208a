"""Compiles every kernel of a corpus through every nvopt level: clang-22 device IR, opt with
`nvopt<LEVEL>` and -verify-each, llc with the plugin and -verify-machineinstrs (O0 codegen for O0
and the fast-compile levels, as cicc does), then ptxas when available. Prints one line per
failure and a closing 'N passed, M failed' line; exits 1 on any failure."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from nvopt_tools.paths import LEVELS, LLVM_BIN as BIN, PLUGIN, cuda_files, device_ir_cmd, llc_opt_level


def step(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    return None if res.returncode == 0 else (res.stderr.strip().splitlines() or ["(no output)"])[0]


def one(cu, level, args, tmp):
    stem = f"{os.path.splitext(os.path.basename(cu))[0]}.{level}"
    bc, obc, ptx = (os.path.join(tmp, stem + ext) for ext in (".bc", ".opt.bc", ".ptx"))
    plug = args.plugin
    steps = [("clang", device_ir_cmd(cu, bc)),
             ("opt", [f"{BIN}/opt", f"-load-pass-plugin={plug}", f"-passes=nvopt<{level}>", "-verify-each", bc, "-o", obc]),
             ("llc", [f"{BIN}/llc", f"--load-pass-plugin={plug}", "-mcpu=sm_90", llc_opt_level(level),
                      "-verify-machineinstrs", obc, "-o", ptx])]
    if args.ptxas:
        steps.append(("ptxas", [args.ptxas, "-arch=sm_90", ptx, "-o", os.devnull]))
    for name, cmd in steps:
        err = step(cmd)
        if err:
            return f"FAIL {os.path.basename(cu)} nvopt<{level}> at {name}: {err}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*")
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or
                    os.path.join(os.environ.get("NVOPT_NVIDIA_BIN", "/nonexistent"), "ptxas"))
    args = ap.parse_args()
    if not os.path.exists(args.ptxas):
        args.ptxas = None
    kernels = args.kernels or cuda_files("bench/kernels", "examples")
    tmp = tempfile.mkdtemp(prefix="nvopt-corpus-")
    jobs = [(cu, lvl) for cu in kernels for lvl in LEVELS]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(lambda j: one(j[0], j[1], args, tmp), jobs))
    shutil.rmtree(tmp, ignore_errors=True)
    failures = [r for r in results if r]
    for f in failures:
        print(f)
    print(f"{len(kernels)} kernels x {len(LEVELS)} levels, ptxas {'on' if args.ptxas else 'off'}")
    print(f"{len(jobs) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures or not jobs else 0


if __name__ == "__main__":
    sys.exit(main())
