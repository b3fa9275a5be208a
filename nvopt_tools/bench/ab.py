# A/B tables for bench variants (issue 5: "each phase on and off, on the same nvopt<O3> IR").
# Reads the results.tsv of a bench run made with `--variant NAME:KNOB=V,...` and prints, per
# variant, a markdown table per kernel entry (variant / base and the ratio for registers, spill
# bytes, PTX instructions, PTX instructions inside loops, SASS instructions, SASS instructions
# inside loops) and geometric means of the ratios over a chosen subset of entries, over the
# rest and over all, with the worst ratio of each figure.
#
#   python3 -m nvopt_tools.bench.ab build/bench/ab-test                       # every nvopt:* variant vs nvopt
#   python3 -m nvopt_tools.bench.ab OUT --variant nocoal --subset subset.txt  # subset: file, or a,b,c list
#
# Subset names are `file:entry` or `entry` (or a file stem), globs allowed; in a file they are
# separated by newlines, commas or blanks, `#` starts a comment. Unmatched names are reported.
import argparse
import csv
import fnmatch
import math
import os
import re
import sys

# (key, label, zero-able): zero-able figures use (a+1)/(b+1), as report.py does.
FIGS = [("regs", "regs", False), ("spill", "spill bytes (+1)", True),
        ("ptx_instrs", "PTX", False), ("ptx_loop", "PTX in loops (+1)", True),
        ("sass_instrs", "SASS", False), ("sass_loop", "SASS in loops (+1)", True)]
NUMERIC = ("regs", "spill_stores", "spill_loads", "stack", "ptx_instrs", "movs", "sass_instrs",
           "ptx_loop", "sass_loop", "llc_ms")


def load(path):
    """Rows of results.tsv with numbers converted and spill = stores + loads."""
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            for k in NUMERIC:
                v = r.get(k)
                r[k] = float(v) if v not in (None, "") else None
            if r.get("spill_stores") is not None and r.get("spill_loads") is not None:
                r["spill"] = r["spill_stores"] + r["spill_loads"]
            rows.append(r)
    return rows


def index(rows):
    """{'file:entry': {compiler: row}}"""
    out = {}
    for r in rows:
        out.setdefault(f"{r['file']}:{r['entry']}", {})[r["compiler"]] = r
    return out


def read_subset(arg):
    """Subset names from a file (when `arg` is one) or from a comma/blank separated list."""
    text = arg
    if os.path.isfile(arg):
        with open(arg) as f:
            text = "\n".join(line.split("#", 1)[0] for line in f)
    return [n for n in re.split(r"[\s,]+", text) if n]


def match_subset(patterns, names):
    """(set of names matched by any pattern, patterns that matched nothing). A pattern with
    ':' matches `file:entry`; one without matches the entry or the file stem."""
    picked, unmatched = set(), []
    for p in patterns:
        if ":" in p:
            hit = {n for n in names if fnmatch.fnmatch(n, p)}
        else:
            hit = {n for n in names if any(fnmatch.fnmatch(part, p) for part in n.split(":", 1))}
        if not hit:
            unmatched.append(p)
        picked |= hit
    return picked, unmatched


def ratio(a, b, zeroable):
    if a is None or b is None:
        return None
    if zeroable or a == 0 or b == 0:
        return (a + 1) / (b + 1)
    return a / b


def num(v):
    return "?" if v is None else f"{v:.0f}"


def entry_table(idx, var, base, names):
    """Markdown rows `variant / base (ratio)` per entry of `names` that both compilers have."""
    lines = ["| entry | " + " | ".join(label.replace(" (+1)", "") for _, label, _ in FIGS) + " |",
             "|---" * (len(FIGS) + 1) + "|"]
    for n in sorted(names):
        by = idx[n]
        if var not in by or base not in by:
            continue
        cells = []
        for key, _, z in FIGS:
            a, b = by[var].get(key), by[base].get(key)
            r = ratio(a, b, z)
            mark = "" if r is None or abs(r - 1) < 1e-9 else (" ▼" if r < 1 else " ▲")
            cells.append(f"{num(a)} / {num(b)}" + (f" ({r:.3f}){mark}" if r is not None else ""))
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def geomeans(idx, var, base, names):
    """{key: (geomean of var/base ratios, n, (worst ratio, entry))} over `names`."""
    out = {}
    for key, _, z in FIGS:
        vals = [(ratio(idx[n][var].get(key), idx[n][base].get(key), z), n) for n in sorted(names)
                if var in idx[n] and base in idx[n]]
        vals = [(r, n) for r, n in vals if r is not None and r > 0]
        g = math.exp(sum(math.log(r) for r, _ in vals) / len(vals)) if vals else None
        out[key] = (g, len(vals), max(vals) if vals else None)
    return out


def geomean_table(idx, var, base, groups):
    lines = ["| entries | n | " + " | ".join(label for _, label, _ in FIGS) + " |",
             "|---|---" + "|---" * len(FIGS) + "|"]
    worst = []
    for title, names in groups:
        g = geomeans(idx, var, base, names)
        n = max((v[1] for v in g.values()), default=0)
        lines.append(f"| {title} | {n} | " + " | ".join(
            f"{g[k][0]:.3f}" if g[k][0] is not None else "–" for k, _, _ in FIGS) + " |")
        worst.append(f"| worst in {title} | | " + " | ".join(worst_cell(g[k][2]) for k, _, _ in FIGS) + " |")
    return lines + worst


def worst_cell(w):
    """`ratio entry` for the highest ratio, the ratio alone when no entry is above 1."""
    if not w:
        return "–"
    return f"{w[0]:.3f} {w[1]}" if w[0] > 1 + 1e-9 else f"{w[0]:.3f}"


def report(idx, var, base, subset, path):
    both = [n for n, by in idx.items() if var in by and base in by]
    out = [f"## {var} vs {base}", "",
           f"Cells: {var} / {base} (ratio; ▼ the variant is lower, ▲ higher). "
           f"{len(both)} entries have both columns ({path}).", ""]
    if subset is not None:
        inside = [n for n in both if n in subset]
        rest = [n for n in both if n not in subset]
        groups = [("subset", inside), ("rest", rest), ("all", both)]
        out += [f"### Subset ({len(inside)} entries)", ""] + entry_table(idx, var, base, inside) + [""]
        out += [f"### Rest ({len(rest)} entries)", ""] + entry_table(idx, var, base, rest) + [""]
    else:
        groups = [("all", both)]
        out += ["### All entries", ""] + entry_table(idx, var, base, both) + [""]
    out += [f"### Geometric means of {var}/{base} (below 1: the variant is lower)", ""]
    out += geomean_table(idx, var, base, groups) + [""]
    missing = sorted(n for n, by in idx.items() if (var in by) != (base in by))
    if missing:
        out += [f"Entries in only one of the two columns: {', '.join(missing)}", ""]
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description="A/B tables of bench variants against a base column")
    p.add_argument("out", help="bench output folder (holding results.tsv) or the results.tsv itself")
    p.add_argument("--base", default="nvopt", help="base column (default nvopt)")
    p.add_argument("--variant", action="append", default=[],
                   help="variant column, NAME or nvopt:NAME (repeatable; default every nvopt:* column)")
    p.add_argument("--subset", help="entries to group apart: a file of names, or a comma-separated list")
    args = p.parse_args(argv)
    path = args.out if args.out.endswith(".tsv") else os.path.join(args.out, "results.tsv")
    if not os.path.exists(path):
        sys.exit(f"ab: no results at {path}")
    idx = index(load(path))
    cols = sorted({c for by in idx.values() for c in by})
    if args.base not in cols:
        sys.exit(f"ab: base column {args.base!r} not in {path} (columns: {', '.join(cols)})")
    variants = [v if v in cols or ":" in v else f"nvopt:{v}" for v in args.variant] or \
        [c for c in cols if c.startswith("nvopt:")]
    bad = [v for v in variants if v not in cols]
    if bad or not variants:
        sys.exit(f"ab: no variant column {bad or ''} in {path} (columns: {', '.join(cols)}); "
                 "run bench.py with --variant NAME:KNOB=V")
    subset = None
    if args.subset:
        subset, unmatched = match_subset(read_subset(args.subset), list(idx))
        if unmatched:
            print(f"ab: subset names matching no entry: {', '.join(unmatched)}", file=sys.stderr)
    out = []
    for v in variants:
        out += report(idx, v, args.base, subset, path)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
