"""SCEV facts per bench kernel (issue 4, 6a): what upstream ScalarEvolution can say about the
loops of each bench/kernels/*.cu after `default<O3>`, after `nvopt<O3>`, and after `nvopt<O3>`
with `-nv-disable-scev-sources=1` (the nv-scev-sources pass's own effect is the difference of
the last two). Each optimized module goes through stock `opt -passes='print<scalar-evolution>'`,
and the script counts loops with a computable backedge-taken count (btc), a computable constant
max (cmax) and symbolic max (smax) backedge-taken count, and add recurrences carrying <nuw> and
<nsw>. Prints one table row per kernel and the totals."""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

from nvopt_tools.paths import LLVM_BIN, PLUGIN, ROOT, device_ir_cmd

CONFIGS = [
    ("upstream", "default<O3>", []),
    ("nvopt", "nvopt<O3>", []),
    ("nvopt-nosrc", "nvopt<O3>", ["-nv-disable-scev-sources=1"]),
]
FIELDS = ["loops", "btc", "cmax", "smax", "nuw", "nsw"]
LOOP = re.compile(r"^Loop %\S+: (?:<multiple exits> )?(Unpredictable )?(backedge-taken count|constant max|symbolic max)")


def addrec_flags(expr):
    """The flags of a SCEV printed as `{a,+,b}<nuw><nsw><%loop>` (top level only), or ''."""
    if not expr.startswith("{"):
        return ""
    depth = 0
    for i, ch in enumerate(expr):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return re.match(r"((?:<n[us]w>|<nw>)*)", expr[i + 1:]).group(1)
    return ""


def count(scev_text):
    c = dict.fromkeys(FIELDS, 0)
    for line in scev_text.splitlines():
        m = LOOP.match(line)
        if m:
            kind = {"backedge-taken count": "btc", "constant max": "cmax", "symbolic max": "smax"}[m.group(2)]
            c["loops"] += kind == "btc"
            c[kind] += m.group(1) is None
            continue
        s = line.strip()
        if s.startswith("-->"):
            flags = addrec_flags(s[3:].strip().split("\t")[0].split(" U: ")[0].strip())
            c["nuw"] += "<nuw>" in flags
            c["nsw"] += "<nsw>" in flags
    return c


def run(cmd):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"scev_facts: {' '.join(cmd)} failed:\n{res.stderr}")
    return res


def facts(opt, plugin, bc, pipeline, extra, tmp):
    out = os.path.join(tmp, "opt.bc")
    run([opt, f"-load-pass-plugin={plugin}", f"-passes={pipeline}", *extra, bc, "-o", out])
    res = run([opt, "-passes=print<scalar-evolution>", "-disable-output", out])
    return count(res.stderr + res.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opt", default=f"{LLVM_BIN}/opt")
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("--kernels", default=os.path.join(ROOT, "bench", "kernels"))
    ap.add_argument("--extra", action="append", default=[], help="extra opt flag for every run")
    args = ap.parse_args()
    totals = {name: dict.fromkeys(FIELDS, 0) for name, _, _ in CONFIGS}
    head = "".join(f" | {name} " + " ".join(f"{f:>5}" for f in FIELDS) for name, _, _ in CONFIGS)
    print(f"{'kernel':22s}{head}")
    with tempfile.TemporaryDirectory() as tmp:
        for cu in sorted(glob.glob(os.path.join(args.kernels, "*.cu"))):
            bc = os.path.join(tmp, "in.bc")
            run(device_ir_cmd(cu, bc))
            row = os.path.basename(cu)[:-3]
            line = f"{row:22s}"
            for name, pipeline, extra in CONFIGS:
                c = facts(args.opt, args.plugin, bc, pipeline, extra + args.extra, tmp)
                for f in FIELDS:
                    totals[name][f] += c[f]
                line += f" | {' ' * len(name)} " + " ".join(f"{c[f]:5d}" for f in FIELDS)
            print(line)
    line = f"{'TOTAL':22s}"
    for name, _, _ in CONFIGS:
        line += f" | {' ' * len(name)} " + " ".join(f"{totals[name][f]:5d}" for f in FIELDS)
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
