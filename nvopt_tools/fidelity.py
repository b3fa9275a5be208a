"""Pipeline fidelity: compares each nvopt<LEVEL>'s upstream pass sequence with the pipeline
NVIDIA's cicc 13.5 prints (docs/CICC-FACTS.md "The printed pipelines"; the prints, nvopt-LEVEL.txt,
are NVIDIA's output and not in the repository: that section says where --reference looks for them).

Leaf pass names only: adaptors, analyses (require<...>) and parameters are dropped; NVIDIA
placeholders (nv:...) are dropped from the reference. Similarity = longest common subsequence /
length of the longer sequence (issue 2). Prints one line per level; exits 1 when a level is below
--min (default 0.85)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile

from nvopt_tools.paths import LLVM_BIN, PLUGIN, ROOT, levels
ADAPTORS = {"function", "cgscc", "loop", "loop-mssa", "devirt", "module"}
# Knobs that put back a pass of cicc's table that nvopt leaves out by default
# (docs/DEPARTURES.md): fidelity is the table's, with them.
CICC_TABLE_KNOBS = ["-nv-opt-load-store-vectorizer", "-nv-disable-sink=0"]
MODULE = 'target triple = "nvptx64-nvidia-cuda"\ndefine void @f() {\n  ret void\n}\n'


def reference_leaves(path):
    out = []
    for line in open(path):
        if line.startswith("#"):
            continue
        item = line.split("  #")[0].strip()
        if not item or item in ADAPTORS or item.startswith("nv:"):
            continue
        out.append(item.split("<")[0])
    return out


def pipeline_leaves(text):
    """Upstream leaf names of an LLVM pipeline string such as `a,function(b<x;y>,loop(c))`:
    nvopt's own plugin passes (named `nv-...`, such as nv-scev-sources) are not upstream passes."""
    flat = re.sub(r"<[^<>]*>", "", text)
    while re.search(r"<[^<>]*>", flat):
        flat = re.sub(r"<[^<>]*>", "", flat)
    names = [t.strip() for t in re.split(r"[(),]", flat) if t.strip()]
    return [n for n in names if n not in ADAPTORS and not n.startswith(("require", "nv-"))]


def ours(opt, plugin, level, module):
    cmd = [opt, f"-load-pass-plugin={plugin}", f"-passes=nvopt<{level}>", *CICC_TABLE_KNOBS,
           "-print-pipeline-passes", "-disable-output", "-disable-verify", module]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"fidelity: {' '.join(cmd)} failed:\n{res.stderr}")
    # -disable-verify drops opt's own trailing verifier; the level's `verify` slot stays.
    return pipeline_leaves(res.stdout.strip())


def lcs(a, b):
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default=os.path.join(ROOT, "..", "shared", "reference", "cicc-pipelines"))
    ap.add_argument("--opt", default=f"{LLVM_BIN}/opt")
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("--min", type=float, default=0.85)
    ap.add_argument("--verbose", action="store_true", help="print both sequences")
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
        f.write(MODULE)
    worst = 1.0
    for level in levels():
        ref = reference_leaves(os.path.join(args.reference, f"nvopt-{level}.txt"))
        mine = ours(args.opt, args.plugin, level, f.name)
        common = lcs(mine, ref)
        sim = common / max(len(mine), len(ref))
        worst = min(worst, sim)
        print(f"{level:7s} nvopt {len(mine):3d} upstream passes, cicc {len(ref):3d}, "
              f"common {common:3d}, similarity {sim:.3f}")
        if args.verbose:
            print("  nvopt:", " ".join(mine))
            print("  cicc: ", " ".join(ref))
    os.unlink(f.name)
    print(f"lowest similarity {worst:.3f} (target >= {args.min})")
    return 0 if worst >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
