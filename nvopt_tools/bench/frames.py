# Calls, stack frames and local memory per kernel entry, from a bench run's work folder (issue
# 16, "Report calls and frames against nvcc per kernel"): for every entry and compiler, ptxas
# registers, spill bytes (stores + loads) and stack frame bytes, the PTX `call` instructions of
# the entry and the .func bodies it reaches, the `.func` bodies defined in the file, and the
# ld.local/st.local instructions of the entry and its callees. Prints a markdown table and the
# totals; registers as a geomean ratio against nvcc.
#
#   python3 -m nvopt_tools.bench --kernels register_tile --out /tmp/b   # compile first
#   python3 -m nvopt_tools.bench.frames /tmp/b [--kernels register_tile ...] [--tsv FILE]
import argparse
import fnmatch
import math
import os
import re
import sys

from nvopt_tools.bench import figures

COMPILERS = ("upstream", "nvopt", "nvidia")
CALL = re.compile(r"^(?:@!?%\w+\s+)?call(?:\.uni)?\b")
LOCAL = re.compile(r"^(?:@!?%\w+\s+)?(?:ld|st)\.local\b")


def ptx_facts(text):
    """{entry: {'calls', 'local_ldst'}} (entry plus reachable .func bodies) and the file's
    .func count."""
    funcs = figures.ptx_functions(text)
    out = {}
    for name, (kind, _, _) in funcs.items():
        if kind != "entry":
            continue
        body = [s for f in [name, *sorted(figures.callees(funcs, name))] for s in funcs[f][1]]
        out[name] = {"calls": sum(1 for s in body if CALL.match(s)),
                     "local_ldst": sum(1 for s in body if LOCAL.match(s))}
    return out, sum(1 for kind, _, _ in funcs.values() if kind == "func")


def collect(out_dir, pats):
    """[(file, entry, {compiler: figures})] for every kernel folder of a bench run."""
    work = os.path.join(out_dir, "work")
    rows = []
    for stem in sorted(os.listdir(work)):
        if pats and not any(fnmatch.fnmatch(stem, p) for p in pats):
            continue
        per = {}
        for c in COMPILERS:
            ptx = os.path.join(work, stem, f"{c}.ptx")
            if not os.path.exists(ptx):
                continue
            with open(ptx) as f:
                facts, nfunc = ptx_facts(f.read())
            info = {}
            rep = os.path.join(work, stem, f"{c}.ptxas.txt")
            if os.path.exists(rep):
                with open(rep) as f:
                    info = figures.ptxas_info(f.read())
            for entry, fx in facts.items():
                i = info.get(entry, {})
                per.setdefault(entry, {})[c] = {
                    "regs": i.get("regs"), "spill": i.get("spill_stores", 0) + i.get("spill_loads", 0),
                    "stack": i.get("stack"), "funcs": nfunc, **fx}
        rows += [(stem, e, per[e]) for e in sorted(per)]
    return rows


KEYS = [("regs", "regs"), ("spill", "spill B"), ("stack", "frame B"), ("calls", "calls"),
        ("funcs", ".func"), ("local_ldst", "local ld/st")]


def cell(per, key):
    return " / ".join("-" if per.get(c, {}).get(key) is None else str(per[c][key]) for c in COMPILERS)


def geomean_ratio(rows, a, b):
    xs = [per[a]["regs"] / per[b]["regs"] for _, _, per in rows
          if per.get(a, {}).get("regs") and per.get(b, {}).get("regs")]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def report(rows):
    lines = ["| file | entry | " + " | ".join(label for _, label in KEYS) + " |",
             "|---|---|" + "---|" * len(KEYS)]
    for stem, entry, per in rows:
        lines.append(f"| {stem} | {entry} | " + " | ".join(cell(per, k) for k, _ in KEYS) + " |")
    lines.append("")
    lines.append("cells: " + " / ".join(COMPILERS) + "; .func: per file")
    lines.append("")
    lines.append("| total | " + " | ".join(label for _, label in KEYS[1:]) + " | entries with a frame |")
    lines.append("|---|" + "---|" * len(KEYS))
    for c in COMPILERS:
        pc = [per[c] for _, _, per in rows if c in per]
        files = {stem: per[c]["funcs"] for stem, _, per in rows if c in per}
        tot = {k: sum(p[k] or 0 for p in pc) for k, _ in KEYS[1:]}
        tot["funcs"] = sum(files.values())
        lines.append(f"| {c} | " + " | ".join(str(tot[k]) for k, _ in KEYS[1:]) +
                     f" | {sum(1 for p in pc if p['stack'])} |")
    lines.append("")
    for a in ("upstream", "nvopt"):
        lines.append(f"registers geomean {a}/nvidia: {geomean_ratio(rows, a, 'nvidia'):.4f}")
    lines.append(f"registers geomean nvopt/upstream: {geomean_ratio(rows, 'nvopt', 'upstream'):.4f}")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description="calls, frames and local memory per kernel entry of a bench run")
    p.add_argument("out", help="a bench --out folder (with work/<kernel>/)")
    p.add_argument("--kernels", action="append", default=[], help="kernel file stems or globs")
    p.add_argument("--tsv", help="also write one row per entry and compiler here")
    args = p.parse_args(argv)
    rows = collect(args.out, args.kernels)
    if not rows:
        sys.exit(f"frames: no kernels under {os.path.join(args.out, 'work')}")
    print(report(rows))
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("file\tentry\tcompiler\t" + "\t".join(k for k, _ in KEYS) + "\n")
            for stem, entry, per in rows:
                for c in COMPILERS:
                    if c in per:
                        f.write(f"{stem}\t{entry}\t{c}\t" + "\t".join(str(per[c][k]) for k, _ in KEYS) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
