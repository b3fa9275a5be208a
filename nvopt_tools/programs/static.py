"""Static figures of a pack's kernels, here, without a GPU (docs/PROGRAMS.md, "Static figures"):
per kernel and build, the registers, stack and local memory ptxas gave it and its SASS
instructions, read from the packed executables with the CUDA layout's cuobjdump
(`-res-usage`, `-sass`); per program group, the geomean of nvopt's figures against nvcc's and
upstream's, and of each variant build's against nvopt's (a departure turned off).

These are proxies: they say where to look when the device run's kernel times disagree, and
which departures change the code of real programs; the times decide.

    python3 -m nvopt_tools.programs static --pack PACK [--out FILE.tsv] [--cuda DIR]
"""
import os
import re
import subprocess

from .device import geomean
from .pack import sass_text

FUNC_RE = re.compile(r"^\s*Function\s*:?\s*(\S+?):?\s*$")
RES_RE = re.compile(r"REG:(\d+)\s+STACK:(\d+)\s+SHARED:(\d+)\s+LOCAL:(\d+)")
INSN_RE = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
FIGURES = ("regs", "stack", "local", "sass")


def res_usage_text(exe, cuobjdump):
    p = subprocess.run([cuobjdump, "-res-usage", exe], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else ""


def parse_res_usage(text):
    """{kernel: {regs, stack, local}} from `cuobjdump -res-usage`."""
    out, name = {}, None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            name = m.group(1)
            continue
        m = RES_RE.search(line)
        if m and name:
            out[name] = {"regs": int(m.group(1)), "stack": int(m.group(2)),
                         "local": int(m.group(4))}
            name = None
    return out


def parse_sass(text):
    """{kernel: SASS instructions} from `cuobjdump -sass`, padding NOPs left out."""
    out, name = {}, None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            name = m.group(1)
            out[name] = 0
            continue
        m = INSN_RE.match(line)
        if m and name and not m.group(1).startswith("NOP"):
            out[name] += 1
    return out


def kernel_figures(exe, cuobjdump):
    """{kernel: {regs, stack, local, sass}} of one executable."""
    res = parse_res_usage(res_usage_text(exe, cuobjdump))
    for k, n in parse_sass(sass_text(exe, cuobjdump) or "").items():
        res.setdefault(k, {"regs": None, "stack": None, "local": None})["sass"] = n
    return res


def collect(pack, manifest, cuobjdump):
    """[{program, group, kernel, build: figures, ...}] over every program and packed build."""
    rows = []
    for prog in manifest["programs"]:
        per = {}
        for build, info in prog["builds"].items():
            exe = os.path.join(pack, info["path"], prog["run"])
            per[build] = kernel_figures(exe, cuobjdump)
        for k in sorted(set().union(*[set(v) for v in per.values()])):
            rows.append({"program": prog["name"], "group": prog["group"], "kernel": k,
                         **{b: per[b].get(k) for b in per}})
    return rows


def ratio(row, num, den, figure):
    """num's figure over den's for one kernel; None when either lacks it. Zero over zero (no
    stack in either) is 1; a count over zero is left out (no ratio)."""
    a, b = (row.get(num) or {}).get(figure), (row.get(den) or {}).get(figure)
    if a is None or b is None:
        return None
    if b == 0:
        return 1.0 if a == 0 else None
    return a / b


def summarize(rows, pairs):
    """Per group and over all ('all'): kernels, and for each (num, den) pair the geomean of
    registers and SASS instructions, how many kernels have more registers, fewer, and the
    local-memory (spill) bytes summed."""
    out = {}
    for g in sorted({r["group"] for r in rows}) + ["all"]:
        sel = [r for r in rows if g == "all" or r["group"] == g]
        entry = {"kernels": len(sel)}
        for num, den in pairs:
            both = [r for r in sel if r.get(num) and r.get(den)]
            regs = [ratio(r, num, den, "regs") for r in both]
            entry[f"{num}/{den}"] = {
                "kernels": len(both),
                "regs": geomean(regs), "sass": geomean([ratio(r, num, den, "sass")
                                                        for r in both]),
                "more_regs": sum(1 for x in regs if x and x > 1),
                "fewer_regs": sum(1 for x in regs if x and x < 1),
                "local": (sum(r[num].get("local") or 0 for r in both),
                          sum(r[den].get("local") or 0 for r in both))}
        out[g] = entry
    return out


def pairs_of(manifest):
    variants = []
    for p in manifest["programs"]:
        variants += [v for v in p.get("variants", []) if v not in variants]
    return [("nvopt", "nvcc"), ("nvopt", "upstream"), ("upstream", "nvcc")] + \
        [(v, "nvopt") for v in variants]


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def text(summary, pairs):
    lines = []
    for num, den in pairs:
        lines.append(f"{num}/{den}: kernels, registers geomean, SASS instructions geomean, "
                     "kernels with more/fewer registers, local bytes (num, den)")
        for g, e in summary.items():
            x = e[f"{num}/{den}"]
            if not x["kernels"]:
                continue
            lines.append(f"  {g:14s} {x['kernels']:4d}  regs {fmt(x['regs'])}  sass "
                         f"{fmt(x['sass'])}  more {x['more_regs']:3d}  fewer "
                         f"{x['fewer_regs']:3d}  local {x['local'][0]} vs {x['local'][1]}")
    return "\n".join(lines)


def write_tsv(path, rows, builds):
    with open(path, "w") as f:
        f.write("\t".join(["group", "program", "kernel"] +
                          [f"{b}_{x}" for b in builds for x in FIGURES]) + "\n")
        for r in rows:
            f.write("\t".join([r["group"], r["program"], r["kernel"]] + [
                "" if (r.get(b) or {}).get(x) is None else str(r[b][x])
                for b in builds for x in FIGURES]) + "\n")
