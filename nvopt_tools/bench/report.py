# Turns the per-file results into the bench outputs (docs/ARCHITECTURE.md "Measuring": per kernel
# and as geometric means of ratios): results.tsv (one row per kernel entry and compiler), summary.md
# (geomean ratio table, totals, per-kernel table, the ten entries where nvopt is furthest behind,
# ptx_check findings, failures) and failures.tsv. Variant columns nvopt:NAME (bench.py --variant)
# are compared with nvopt; nvopt_tools/bench/ab.py prints their per-entry A/B tables.
import math
import os

from nvopt_tools.bench.compilers import CPU_SUFFIX

# (key, label, zero-able): zero-able figures use (a+1)/(b+1) so that 0 vs 0 is a ratio of 1.
FIGURES = [("regs", "registers", False), ("spill", "spill bytes (stores+loads)", True),
           ("stack", "stack frame bytes", True), ("ptx_instrs", "PTX instructions", False),
           ("movs", "reg-to-reg movs", True), ("sass_instrs", "SASS instructions", False),
           ("ptx_loop", "PTX instructions in loops", True),
           ("sass_loop", "SASS instructions in loops", True)]
TIMES = [("opt_ms", "opt time"), ("llc_ms", "llc time"),
         ("total_ms", "compile time, front end to PTX"),
         ("opt_cpu_ms", "opt CPU time"), ("llc_cpu_ms", "llc CPU time"),
         ("total_cpu_ms", "compile CPU time, front end to PTX")]
# Instructions executed (bench.py --count-instructions: each step once under callgrind), the
# compile-cost figure that does not move with the machine's load.
INSTRS = [("opt_ir", "opt instructions"), ("llc_ir", "llc instructions"),
          ("total_ir", "compile instructions, front end to PTX")]
COLUMNS = ["level", "file", "entry", "compiler", "regs", "spill_stores", "spill_loads", "stack",
           "ptx_instrs", "movs", "sass_instrs", "ptx_loop", "sass_loop", "ptxcheck", "clang_ms", "opt_ms", "llc_ms", "nvcc_ms",
           "cicc_ms", "total_ms", "clang_cpu_ms", "opt_cpu_ms", "llc_cpu_ms", "nvcc_cpu_ms", "cicc_cpu_ms",
           "total_cpu_ms", "clang_ir", "opt_ir", "llc_ir", "total_ir"]
SHORT = {"upstream": "up", "nvopt": "nvopt", "nvidia": "nv", "nvvm-latest": "nvl"}


def rows_from(results, level, comps):
    """Flat rows (dicts) for results.tsv; adds a failure for an entry one compiler lacks."""
    rows = []
    for res in results:
        names = sorted({e for c in res.entries for e in res.entries[c]})
        for c in comps:
            if c not in res.entries:
                continue
            t = {f"{k}_ms": 1000 * v for k, v in res.times.get(c, {}).items()}
            cpu = [k for k in t if k.endswith(f"{CPU_SUFFIX}_ms")]
            t["total_cpu_ms"] = sum(t[k] for k in cpu)
            t["total_ms"] = sum(v for k, v in t.items() if k not in cpu and k != "total_cpu_ms")
            n = res.instrs.get(c)
            if n:
                t.update({f"{k}_ir": v for k, v in n.items()})
                t["total_ir"] = sum(n.values())
            for e in names:
                fig = res.entries[c].get(e)
                if fig is None:
                    res.failures.append((c, "entries", f"entry {e} missing from {c}.ptx"))
                    continue
                row = {"level": level, "file": res.stem, "entry": e, "compiler": c, **fig, **t}
                if "spill_stores" in fig:
                    row["spill"] = fig["spill_stores"] + fig["spill_loads"]
                rows.append(row)
    return rows


def write_tsv(rows, path):
    with open(path, "w") as f:
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(fmt(r.get(k, "")) for k in COLUMNS) + "\n")


def fmt(v):
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def ratio(a, b, zeroable):
    if a is None or b is None or a == "" or b == "":
        return None
    if zeroable or a == 0 or b == 0:
        return (a + 1) / (b + 1)
    return a / b


def index(rows):
    """{(file, entry): {compiler: row}}"""
    out = {}
    for r in rows:
        out.setdefault((r["file"], r["entry"]), {})[r["compiler"]] = r
    return out


def pair_ratios(idx, a, b, key, zeroable, per_file=False):
    seen, vals = set(), []
    for (file, _), by in sorted(idx.items()):
        if a not in by or b not in by or (per_file and file in seen):
            continue
        seen.add(file)
        vals.append(ratio(by[a].get(key), by[b].get(key), zeroable))
    return [v for v in vals if v is not None]


def short(c):
    return SHORT.get(c, c.replace("nvopt:", "v:"))


def pairs(comps):
    want = [("nvopt", "upstream"), ("nvopt", "nvidia"), ("upstream", "nvidia"),
            ("nvopt", "nvvm-latest"), ("upstream", "nvvm-latest")]
    want += [(c, "nvopt") for c in comps if c.startswith("nvopt:")]
    return [(a, b) for a, b in want if a in comps and b in comps]


def geomean_table(idx, comps):
    ps = pairs(comps)
    head = "| figure | " + " | ".join(f"{a}/{b}" for a, b in ps) + " |"
    lines = [head, "|---" * (len(ps) + 1) + "|"]
    for key, label, zeroable in FIGURES:
        cells = [cell(pair_ratios(idx, a, b, key, zeroable)) for a, b in ps]
        lines.append(f"| {label}{' (+1)' if zeroable else ''} | " + " | ".join(cells) + " |")
    counted = any(r.get("total_ir") for by in idx.values() for r in by.values())
    for key, label in TIMES + (INSTRS if counted else []):
        cells = [cell(pair_ratios(idx, a, b, key, False, per_file=True)) for a, b in ps]
        lines.append(f"| {label} (per file) | " + " | ".join(cells) + " |")
    return lines


def cell(vals):
    g = geomean(vals)
    return f"{g:.3f} (n={len(vals)})" if g is not None else "–"


def totals_table(idx, comps):
    lines = ["| compiler | entries | registers | spill bytes | entries spilling | stack bytes | PTX instr | movs | SASS instr | PTX in loops | SASS in loops | compile ms | ptx_check findings |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    # A compiler with no rows at all (it failed everywhere, e.g. a variant with a bad knob) is
    # listed apart rather than emptying the common set.
    present = [c for c in comps if any(c in by for by in idx.values())]
    common = [k for k, by in idx.items() if all(c in by for c in present)]
    for c in comps:
        if c not in present:
            lines.append(f"| {c} | 0 (no results) |" + " |" * 11)
            continue
        rs = [idx[k][c] for k in common]
        files = {r["file"]: r.get("total_ms", 0) for r in rs}
        s = lambda key: sum(r.get(key, 0) or 0 for r in rs)
        lines.append(f"| {c} | {len(rs)} | {s('regs')} | {s('spill')} | "
                     f"{sum(1 for r in rs if r.get('spill'))} | {s('stack')} | {s('ptx_instrs')} | "
                     f"{s('movs')} | {s('sass_instrs')} | {s('ptx_loop')} | {s('sass_loop')} | "
                     f"{sum(files.values()):.0f} | {s('ptxcheck')} |")
    return lines, len(common)


def triple(by, comps, key):
    return " / ".join(str(by[c].get(key, "?")) if c in by else "✗" for c in comps)


def kernel_table(idx, comps):
    order = " / ".join(short(c) for c in comps)
    keys = ("regs", "spill", "ptx_instrs", "movs", "sass_instrs", "ptx_loop", "sass_loop", "ptxcheck")
    lines = [f"| kernel | registers ({order}) | spill bytes | PTX instr | movs | SASS instr | "
             "PTX in loops | SASS in loops | ptx_check findings |", "|---" * (len(keys) + 1) + "|"]
    for (file, entry), by in sorted(idx.items()):
        lines.append(f"| {file}:{entry} | " + " | ".join(triple(by, comps, k) for k in keys) + " |")
    return lines


def behind_score(a, b):
    """geomean of a/b over registers, spill bytes (+1), PTX and SASS instructions."""
    return geomean([ratio(a.get(k), b.get(k), z) for k, _, z in FIGURES
                    if k in ("regs", "spill", "ptx_instrs", "sass_instrs")])


def behind_table(idx, who, ref, n=10):
    scored = [(behind_score(by[who], by[ref]), file, entry, by) for (file, entry), by in idx.items()
              if who in by and ref in by]
    scored = [s for s in scored if s[0] is not None]
    scored.sort(key=lambda s: -s[0])
    lines = [f"| kernel | score {who}/{ref} | registers | spill bytes | PTX instr | SASS instr |",
             "|---|---|---|---|---|---|"]
    for score, file, entry, by in scored[:n]:
        lines.append(f"| {file}:{entry} | {score:.3f} | " + " | ".join(
            f"{by[who].get(k, '?')} vs {by[ref].get(k, '?')}"
            for k in ("regs", "spill", "ptx_instrs", "sass_instrs")) + " |")
    return lines


def findings_section(results, comps):
    """Every ptx_check finding (nvopt_tools/ptx_check.py) of each column's PTX, each counted once."""
    found = {c: [f for r in results for f in r.findings.get(c, [])] for c in comps}
    out = ["## PTX checker findings", "",
           "nvopt_tools/ptx_check.py: loads and stores of a state space (.param, .local, .shared) and "
           "cvta through an address of another space, which ptxas accepts and which computes "
           "garbage; per entry (with the .func bodies it calls) in the tables above.", "",
           "findings: " + ", ".join(f"{c} {len(found[c])}" for c in comps), ""]
    for c in comps:
        out += [f"- [{c}] {f}" for f in found[c]]
    return out + ([""] if any(found.values()) else [])


def instruction_totals(idx, comps):
    """With --count-instructions: each LLVM column's instructions summed over the files (clang,
    opt, llc), and the ratio of the sums, which weighs the large files as the geomean does not."""
    sums = {}
    for c in comps:
        per_file = {f: by[c]["total_ir"] for (f, _), by in idx.items() if by.get(c, {}).get("total_ir")}
        if per_file:
            sums[c] = sum(per_file.values())
    if not sums:
        return []
    text = ", ".join(f"{c} {n / 1e9:.3f}G" for c, n in sums.items())
    if "nvopt" in sums and "upstream" in sums:
        text += f"; nvopt/upstream {sums['nvopt'] / sums['upstream']:.3f}"
    return [f"Instructions executed, front end to PTX, summed over the files (each step once under "
            f"valgrind's callgrind): {text}.", ""]


def write_summary(path, rows, results, comps, meta):
    idx = index(rows)
    failures = [(r.stem, c, step, msg) for r in results for c, step, msg in r.failures]
    out = [f"# nvopt bench, level {meta['level']}", ""]
    out += [f"- {k}: {v}" for k, v in meta.items() if k != "level"]
    out += ["", "## Geometric means of ratios (below 1: the first compiler is better)", ""]
    out += geomean_table(idx, comps)
    out += ["", "Ratios per kernel entry; figures that can be 0 use (a+1)/(b+1). Times are medians "
            "over the repetitions, one ratio per kernel file, measured in the same run.", ""]
    out += instruction_totals(idx, comps)
    tot, ncommon = totals_table(idx, comps)
    out += [f"## Totals over the {ncommon} entries every compiler produced", ""] + tot + [""]
    who = "nvopt" if any("nvopt" in by for by in idx.values()) else "upstream"
    ref = "nvidia" if "nvidia" in comps else "upstream"
    if who != ref:
        out += [f"## The ten entries where {who} is furthest behind {ref}", ""]
        if who != "nvopt":
            out += ["(nvopt produced no results in this run; upstream shown instead.)", ""]
        out += ["Score: geomean of the ratios of registers, spill bytes (+1), PTX and SASS instructions.", ""]
        out += behind_table(idx, who, ref) + [""]
    out += ["## Per kernel entry", ""] + kernel_table(idx, comps) + [""]
    out += findings_section(results, comps)
    out += [f"## Failures", "", f"failures: {len(failures)}", ""]
    for stem, c, step, msg in failures:
        out.append(f"- {stem} [{c}] {step}: " + msg.replace("\n", "\n    "))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return failures


def write_failures(path, failures):
    with open(path, "w") as f:
        f.write("file\tcompiler\tstep\tmessage\n")
        for stem, c, step, msg in failures:
            f.write(f"{stem}\t{c}\t{step}\t{' | '.join(msg.splitlines())}\n")
