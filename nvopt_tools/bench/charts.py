# PNG charts for the bench (docs/ARCHITECTURE.md "Measuring"). Reads results.tsv, writes into the
# output folder. Needs matplotlib: bench.py runs it with build/bench-venv's python.
# Usage: charts.py results.tsv OUTDIR
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

from nvopt_tools.bench.report import geomean, ratio

FIGS = [("regs", "registers", False), ("ptx_instrs", "PTX instructions", False),
        ("sass_instrs", "SASS instructions", False), ("movs", "reg-to-reg movs (+1)", True),
        ("spill", "spill bytes (+1)", True)]
COLORS = {"upstream": "#888888", "nvopt": "#2a7ab0", "nvvm-latest": "#9b59b6", "nvidia": "#76b900"}


def load(path):
    by = {}
    with open(path) as f:
        for r in csv.DictReader(f, delimiter="\t"):
            for k in ("regs", "ptx_instrs", "sass_instrs", "movs", "spill_stores", "spill_loads",
                      "opt_ms", "llc_ms", "total_ms"):
                r[k] = float(r[k]) if r.get(k) not in (None, "") else None
            if r["spill_stores"] is not None:
                r["spill"] = r["spill_stores"] + r["spill_loads"]
            by.setdefault(f"{r['file']}:{r['entry']}", {})[r["compiler"]] = r
    return by


def ratio_chart(by, key, label, plus1, ref, others, out):
    names = sorted(n for n in by if ref in by[n])
    fig, ax = plt.subplots(figsize=(max(8, 0.35 * len(names) * len(others)), 4.5))
    width = 0.8 / len(others)
    for j, c in enumerate(others):
        vals = [ratio(by[n].get(c, {}).get(key), by[n][ref].get(key), plus1) for n in names]
        xs = [i + j * width for i, v in enumerate(vals) if v]
        ax.bar(xs, [v for v in vals if v], width, label=f"{c}/{ref}", color=COLORS.get(c))
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(matplotlib.ticker.FormatStrFormatter("%g"))
    ax.set_ylabel(f"{label}, ratio to {ref} (log)")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))])
    ax.set_xticklabels(names, rotation=70, ha="right", fontsize=7)
    ax.legend(fontsize=8)
    ax.set_title(f"{label}: ratio to {ref} per kernel entry (below 1 is better)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def summary_chart(by, pairs, out):
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.8 / len(pairs)
    labels = [l for _, l, _ in FIGS] + ["compile time (per file)"]
    for j, (a, b) in enumerate(pairs):
        vals = [geomean([ratio(r[a].get(k), r[b].get(k), p) for r in by.values() if a in r and b in r])
                for k, _, p in FIGS]
        files = {}
        for r in by.values():
            if a in r and b in r:
                files[r[a]["file"]] = ratio(r[a]["total_ms"], r[b]["total_ms"], False)
        vals.append(geomean(list(files.values())))
        ax.bar([i + j * width for i in range(len(labels))], [v or 0 for v in vals], width,
               label=f"{a}/{b}", color=COLORS.get(a) if b == "nvidia" else None,
               hatch="//" if b != "nvidia" else None, edgecolor="white")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))])
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("geometric mean of ratios")
    ax.legend(fontsize=8)
    ax.set_title("Geometric means (below 1: first compiler better)")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    tsv, outdir = sys.argv[1], sys.argv[2]
    by = load(tsv)
    comps = {c for r in by.values() for c in r}
    written = []
    ref = "nvidia" if "nvidia" in comps else "upstream"
    others = [c for c in ("upstream", "nvopt", "nvvm-latest") if c in comps and c != ref]
    if others:
        for key, label, plus1 in FIGS:
            out = os.path.join(outdir, f"ratio_{key}.png")
            ratio_chart(by, key, label, plus1, ref, others, out)
            written.append(os.path.basename(out))
    pairs = [(a, b) for a, b in (("nvopt", "upstream"), ("nvopt", "nvidia"), ("upstream", "nvidia"))
             if a in comps and b in comps]
    if pairs:
        summary_chart(by, pairs, os.path.join(outdir, "geomeans.png"))
        written.append("geomeans.png")
    print("charts: " + ", ".join(written) if written else "charts: nothing to draw")


if __name__ == "__main__":
    main()
