"""Bad input against the plugin (issue 7): every knob of the "nvopt options" category (read from
opt --help-hidden, so the check follows the knob table) given a non-numeric, a negative and a
huge value in opt and llc must fail with a message naming the knob, never crash; modules without
a triple, with a host triple and with one huge function (nvopt_tools/gen_scev_stress.py) must go
through every nvopt level without a crash, in bounded time (reported).

    python3 -m nvopt_tools.bad_input [--huge 20000]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from nvopt_tools import paths

OPT = f"{paths.LLVM_BIN}/opt"
LLC = f"{paths.LLVM_BIN}/llc"
PLUGIN = paths.PLUGIN
BAD_VALUES = ["abc", "-7", "99999999999"]


def knob_names():
    out = subprocess.run([OPT, f"-load-pass-plugin={PLUGIN}", "--help-hidden"], capture_output=True, text=True).stdout
    section = out.split("nvopt options:", 1)[1].split("\n\n", 2)[1]
    return re.findall(r"^  --([\w-]+)", section, re.M)


def crashed(p):
    return paths.llvm_crashed(p.returncode, p.stderr)


def check_knob(name, ll):
    """Returns a list of problems with the knob's bad values."""
    problems = []
    for value in BAD_VALUES:
        for tool in (
            [OPT, f"-load-pass-plugin={PLUGIN}", "-passes=nvopt<O1>", f"-{name}={value}", ll, "-disable-output"],
            [LLC, f"--load-pass-plugin={PLUGIN}", f"-{name}={value}", ll, "-o", os.devnull],
        ):
            p = subprocess.run(tool, capture_output=True, text=True)
            accepted = value == "-7" and p.returncode == 0
            if crashed(p):
                problems.append(f"{name}={value}: crash in {os.path.basename(tool[0])}")
            elif not accepted and (p.returncode == 0 or f"--{name} option" not in p.stderr):
                problems.append(f"{name}={value}: {os.path.basename(tool[0])} exit {p.returncode}: {p.stderr.strip()[:120]}")
    return problems


def timed_levels(label, ll):
    worst, problems = 0.0, []
    for level in paths.LEVELS:
        t0 = time.perf_counter()
        p = subprocess.run([OPT, f"-load-pass-plugin={PLUGIN}", f"-passes=nvopt<{level}>", ll, "-disable-output"],
                           capture_output=True, text=True, timeout=600)
        worst = max(worst, time.perf_counter() - t0)
        if crashed(p) or p.returncode != 0:
            problems.append(f"{label} nvopt<{level}>: exit {p.returncode}: {p.stderr.strip()[:160]}")
    return worst, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--huge", type=int, default=20000, help="address computations in the huge function (5 instructions each)")
    args = ap.parse_args()
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        ll = os.path.join(tmp, "k.ll")
        with open(ll, "w") as f:
            f.write('target triple = "nvptx64-nvidia-cuda"\ndefine ptx_kernel void @k() {\n  ret void\n}\n')
        names = knob_names()
        for name in names:
            problems += check_knob(name, ll)
        print(f"knobs: {len(names)} checked with {', '.join(BAD_VALUES)} in opt and llc")
        modules = {
            "no triple": "define void @f(ptr %p) {\n  store i32 1, ptr %p\n  ret void\n}\n",
            "host triple": 'target triple = "x86_64-pc-linux-gnu"\ndefine void @f(ptr %p) {\n  store i32 1, ptr %p\n  ret void\n}\n',
        }
        for label, text in modules.items():
            path = os.path.join(tmp, label.replace(" ", "_") + ".ll")
            with open(path, "w") as f:
                f.write(text)
            worst, found = timed_levels(label, path)
            problems += found
            print(f"{label}: 7 levels, slowest {worst:.2f} s")
        huge = os.path.join(tmp, "huge.ll")
        with open(huge, "w") as f:
            subprocess.run(paths.module_cmd("gen_scev_stress", args.huge), env=paths.tool_env(),
                           stdout=f, check=True)
        worst, found = timed_levels("huge function", huge)
        problems += found
        print(f"huge function ({5 * args.huge + 2} instructions): 7 levels, slowest {worst:.2f} s")
    for p in problems:
        print("PROBLEM:", p)
    print(f"bad input: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
