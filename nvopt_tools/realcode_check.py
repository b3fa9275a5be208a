"""Real-code check: compiles every .cu file under a directory (any CUDA code a user has) with
upstream LLVM, nvopt and, when installed, NVIDIA's nvcc, and prints per kernel the ptxas figures
(registers, spill stores and loads, stack frame), PTX facts (generic ld/st, calls, bar.sync, and
`ptxcheck`: findings of nvopt_tools/ptx_check.py's address-space lint in the kernel's function) and
SASS facts (most registers live at once, from nvdisasm when installed; resident warps per SM
that the registers allow) of each compiler, the .func count of each file, every failure, every
ptx_check finding, and a summary: geomeans against nvcc (else the first compiler) and totals.

  upstream  nvopt-cc --upstream: LLVM 22's default<On> and llc without the plugin
  nvopt     nvopt-cc: nvopt<LEVEL> and llc with the plugin
  nvcc      nvcc -ptx (device code only; skipped when nvcc is not installed)

Both LLVM columns go through the same driver, so they share the front end (clang-22 with the
CUDA headers of --cuda-path, NVOPT_CUDA_PATH or NVIDIA's wheels, scripts/cuda-path.sh), nvcc's
precision defaults and the codegen flags: only the optimizer and nvopt's codegen passes differ.
Python 3.11, standard library only. Exit status: 0; 1 when an nvopt compile failed or nvopt's PTX
has ptx_check findings (in any function); 2 on a usage error.

usage: python3 -m nvopt_tools.realcode_check DIR [--arch sm_90] [--level O3] [--compilers upstream,nvopt,nvcc]
       [--cuda-path DIR|none] [-I DIR] [-D M[=V]] [--jobs N] [--tsv FILE] [--keep DIR]
       [--knob NAME=V]...

--knob NAME=V (repeatable) reaches the nvopt column only (nvopt-cc --knob). For other tools
(nvopt_tools/corpus_eval.py imports this module) the steps are also functions: compile_cmd (the
command of one compiler), analyze_ptx (ptxas, nvdisasm and PTX facts of one PTX file) and
sass_counts (SASS instructions per function, NOPs left out; assemble adds it to each
function's figures as `sass`, which this script's own report does not print).
"""
import argparse
import concurrent.futures
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from nvopt_tools import paths
from nvopt_tools import ptx_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# $NVOPT_CC: another nvopt-cc (the tests use the built binary).
DRIVER = os.environ.get("NVOPT_CC") or os.path.join(ROOT, "scripts", "nvopt-cc")
COMPILERS = ("upstream", "nvopt", "nvcc")
STATE_SPACES = {"global", "shared", "local", "param", "const"}
FIGURES = ("regs", "spill_st", "spill_ld", "stack")
# ptxcheck: findings of nvopt_tools/ptx_check.py (address-space provenance) in the kernel's function.
FACTS = ("generic_ldst", "calls", "bar_sync", "ptxcheck")
# live: the most general registers live at once in the SASS (nvdisasm --print-life-ranges),
# the pressure ptxas met, as against `regs`, the registers it allocated (low-pressure kernels
# often get more than they need); warps: the resident warps per SM that `regs` allows.
SASS = ("live", "warps")
COLUMNS = FIGURES + FACTS + SASS
# Register file per SM, its allocation unit per warp and the most warps per SM, by sm_XX
# number (CUDA C Programming Guide, "Compute Capabilities"): `warps` ignores the block size.
REGS_PER_SM, REG_UNIT = 65536, 256
MAX_WARPS = {70: 64, 72: 64, 75: 32, 80: 64, 86: 48, 87: 48, 89: 48, 90: 64, 100: 64, 101: 48,
             103: 64, 110: 48, 120: 48, 121: 48}


# ---------------------------------------------------------------- tools

def nvidia_bin():
    """The folder with NVIDIA's nvcc and ptxas: $NVOPT_NVIDIA_BIN, PATH, or the wheels."""
    given = os.environ.get("NVOPT_NVIDIA_BIN")
    if given:
        return given
    on_path = shutil.which("ptxas")
    if on_path:
        return os.path.dirname(on_path)
    venv = os.path.join(ROOT, "build", "nvidia-venv", "lib")
    for py in sorted(os.listdir(venv)) if os.path.isdir(venv) else []:
        cand = os.path.join(venv, py, "site-packages", "nvidia", "cu13", "bin")
        if os.path.isdir(cand):
            return cand
    return None


def tool(folder, name):
    path = os.path.join(folder, name) if folder else ""
    return path if path and os.access(path, os.X_OK) else None


# ---------------------------------------------------------------- PTX and ptxas facts

def ptx_functions(ptx):
    """{name: (is_entry, body)} for every function defined in a PTX file."""
    out = {}
    header = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.(entry|func)\s+(?:\([^)]*\)\s*)?"
                        r"([A-Za-z_$][\w$]*)\s*\(?")
    lines = ptx.splitlines()
    i = 0
    while i < len(lines):
        m = header.match(lines[i])
        if not m or lines[i].lstrip().startswith(".extern"):
            i += 1
            continue
        kind, name = m.group(1), m.group(2)
        j = i
        while j < len(lines) and lines[j].strip() != "{" and not lines[j].rstrip().endswith(";"):
            j += 1
        if j >= len(lines) or lines[j].rstrip().endswith(";"):  # a declaration (prototype)
            i = j + 1
            continue
        depth, k = 0, j
        while k < len(lines):
            depth += lines[k].count("{") - lines[k].count("}")
            if depth == 0:
                break
            k += 1
        out[name] = (kind == "entry", "\n".join(lines[j:k + 1]))
        i = k + 1
    return out


LDST = re.compile(r"^\s*(?:@!?%\w+\s+)?(ld|st)((?:\.[\w:]+)*)\s")
CALL = re.compile(r"^\s*(?:@!?%\w+\s+)?call(?:\.uni)?\b", re.M)
BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.sync\b")


def ptx_facts(body):
    generic = 0
    for line in body.splitlines():
        m = LDST.match(line)
        if m:
            parts = {p.split("::")[0] for p in m.group(2).split(".") if p}
            if not parts & STATE_SPACES:
                generic += 1
    return {"generic_ldst": generic, "calls": len(CALL.findall(body)),
            "bar_sync": len(BARRIER.findall(body))}


def ptxas_figures(report):
    """{function: {regs, spill_st, spill_ld, stack}} from `ptxas -v`."""
    figs, current = {}, None
    for line in report.splitlines():
        m = (re.search(r"Compiling entry function '([^']+)'", line)
             or re.search(r"Function properties for (\S+)", line))
        if m:
            current = figs.setdefault(m.group(1), {})
            continue
        if current is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                      line)
        if m:
            current["stack"], current["spill_st"], current["spill_ld"] = map(int, m.groups())
        m = re.search(r"Used (\d+) registers", line)
        if m:
            current["regs"] = int(m.group(1))
    return figs


# ---------------------------------------------------------------- compiling

def level_flags(level, compiler):
    if compiler == "nvcc":
        if level.startswith("Ofc"):
            return ["--Ofast-compile=" + level[3:]]
        return [] if level == "O3" else ["-Xcicc", "-" + level]
    return ["-Ofc=" + level[3:]] if level.startswith("Ofc") else ["-" + level]


def compile_cmd(compiler, src, ptx, args, nv_bin, extra=()):
    """The command compiling `src` (.cu; .ll/.bc for the LLVM columns) to `ptx`: nvcc -ptx, or
    nvopt-cc (--upstream for upstream) with `extra` before the input. args: arch, level,
    include, define, cuda_path."""
    pp = [f"-I{d}" for d in args.include] + [f"-D{d}" for d in args.define]
    if compiler == "nvcc":
        return [tool(nv_bin, "nvcc"), "-ptx", f"-arch={args.arch}",
                *level_flags(args.level, "nvcc"), f"-I{os.path.join(ROOT, 'include')}", *pp,
                src, "-o", ptx]
    cmd = [DRIVER, "--no-ptxas", f"-arch={args.arch}", *level_flags(args.level, compiler),
           *pp, *extra, src, "-o", ptx]
    if compiler == "upstream":
        cmd.insert(1, "--upstream")
    if args.cuda_path:
        cmd.insert(1, f"--cuda-path={args.cuda_path}")
    return cmd


def compile_one(compiler, cu, out_dir, args, nv_bin):
    """Compiles one file; returns (ptx path or None, error text or None)."""
    stem = os.path.splitext(os.path.relpath(cu, args.dir))[0].replace(os.sep, "__")
    ptx = os.path.join(out_dir, f"{stem}.{compiler}.ptx")
    extra = []
    if compiler == "nvopt":
        extra = [a for k in getattr(args, "knob", None) or [] for a in ("--knob", k)]
    cmd = compile_cmd(compiler, cu, ptx, args, nv_bin, extra)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        return None, failure_summary((proc.stderr or proc.stdout).strip().splitlines(),
                                     proc.returncode)
    return ptx, None


def failure_summary(lines, code, keep=3, width=300):
    """The first error lines of a failed compile and its last line, each cut to `width`."""
    picked = [line for line in lines if "error" in line][:keep]
    if lines and lines[-1] not in picked:
        picked.append(lines[-1])
    return "\n".join(line[:width] for line in picked) or f"exit {code}"


SECTION = re.compile(r"\s*\.section\s+\.text\.([^,\s]+),")


def per_function(listing, fold):
    """{function: value} over an nvdisasm listing: each function's `.text` section starts at 0,
    and `fold(value, line)` takes in every later line of that section."""
    out, current = {}, None
    for line in listing.splitlines():
        m = SECTION.match(line)
        if m:
            current = m.group(1)
            out[current] = 0
        elif current:
            out[current] = fold(out[current], line)
    return out


LIVE = re.compile(r"/\*[0-9a-f]+\*/.*//\s*\|\s*(\d+)")


def sass_live(listing):
    """{function: most general registers live at once} from `nvdisasm -c -plr`."""
    def fold(most, line):
        m = LIVE.search(line)
        return max(most, int(m.group(1))) if m else most
    return per_function(listing, fold)


SASS_INSN = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def sass_counts(listing):
    """{function: SASS instructions (NOPs left out)} from an nvdisasm listing of a cubin."""
    def fold(count, line):
        m = SASS_INSN.match(line)
        return count + 1 if m and m.group(1) != "NOP" else count
    return per_function(listing, fold)


def warps_per_sm(regs, arch):
    """Resident warps per SM that `regs` registers per thread allow on `arch`, or None."""
    m = re.match(r"(?:sm|compute)_(\d+)", arch)
    most = MAX_WARPS.get(int(m.group(1))) if m else None
    if most is None or not regs:
        return None
    per_warp = -(-regs * 32 // REG_UNIT) * REG_UNIT
    return min(most, REGS_PER_SM // per_warp)


def assemble(ptx, arch, nv_bin):
    ptxas = tool(nv_bin, "ptxas")
    if not ptxas:
        return {}
    cubin = ptx + ".cubin"
    proc = subprocess.run([ptxas, f"-arch={arch}", "-v", ptx, "-o", cubin],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        if os.path.exists(cubin):
            os.unlink(cubin)
        return {}
    figs = ptxas_figures(proc.stdout + proc.stderr)
    nvdisasm = tool(nv_bin, "nvdisasm")
    if nvdisasm:
        listing = subprocess.run([nvdisasm, "-c", "-plr", cubin], capture_output=True,
                                 text=True).stdout
        for name, n in sass_live(listing).items():
            if name in figs:
                figs[name]["live"] = n
        for name, n in sass_counts(listing).items():
            if name in figs:
                figs[name]["sass"] = n
    os.unlink(cubin)
    for f in figs.values():
        warps = warps_per_sm(f.get("regs"), arch)
        if warps is not None:
            f["warps"] = warps
    return figs


def analyze_ptx(ptx, arch, nv_bin):
    """One PTX file's facts: {"kernels": {name: figures}, "funcs": (.func count, generic ld/st
    in them), "ptxcheck": [Finding]}; ptxas and nvdisasm figures when they are installed."""
    text = open(ptx).read()
    funcs = ptx_functions(text)
    figs = assemble(ptx, arch, nv_bin)
    findings = ptx_check.check_text(text, os.path.basename(ptx))
    kernels = {name: {**ptx_facts(body), "ptxcheck": sum(1 for f in findings if f.function == name),
                      **figs.get(name, {})}
               for name, (is_entry, body) in funcs.items() if is_entry}
    helpers = [body for is_entry, body in funcs.values() if not is_entry]
    generic = sum(ptx_facts(body)["generic_ldst"] for body in helpers)
    return {"kernels": kernels, "funcs": (len(helpers), generic), "ptxcheck": findings}


def measure(compiler, cu, out_dir, args, nv_bin):
    ptx, error = compile_one(compiler, cu, out_dir, args, nv_bin)
    if error:
        return {"error": error}
    return analyze_ptx(ptx, args.arch, nv_bin)


# ---------------------------------------------------------------- report

def demangle(names):
    cxxfilt = shutil.which("llvm-cxxfilt") or "/usr/lib/llvm-22/bin/llvm-cxxfilt"
    if not names or not os.access(cxxfilt, os.X_OK):
        return {n: n for n in names}
    proc = subprocess.run([cxxfilt], input="\n".join(names), capture_output=True, text=True)
    out = proc.stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def cell(k, key):
    return "-" if k is None or key not in k else str(k[key])


def report(files, results, compilers, args):
    rows, failures = [], []
    header = ["file", "kernel"] + [f"{c}:{f}" for c in compilers for f in COLUMNS]
    funcs_line = []
    for cu in files:
        rel = os.path.relpath(cu, args.dir)
        per = {c: results[(c, cu)] for c in compilers}
        for c, r in per.items():
            if "error" in r:
                failures.append((rel, c, r["error"]))
        funcs_line.append(rel + ": " + ", ".join(
            f"{c} {per[c]['funcs'][0]} ({per[c]['funcs'][1]} generic ld/st)" if "funcs" in per[c]
            else f"{c} failed" for c in compilers))
        names = sorted({n for r in per.values() for n in r.get("kernels", {})})
        for name in names:
            row = [rel, name]
            for c in compilers:
                k = per[c].get("kernels", {}).get(name)
                row += [cell(k, f) for f in COLUMNS]
            rows.append(row)
    pretty = demangle([r[1] for r in rows])
    print(f"real-code check: {len(files)} files, {len(rows)} kernels, {args.arch} {args.level}, "
          f"compilers: {', '.join(compilers)}")
    print("per kernel, for each compiler: regs spill_st spill_ld stack (ptxas -v) | "
          "generic_ldst calls bar_sync ptxcheck (PTX) | live (SASS) warps (per SM)")
    n, nf = len(COLUMNS), len(FIGURES)
    for r in rows:
        print(f"{r[0]}: {pretty.get(r[1], r[1])}")
        for i, c in enumerate(compilers):
            vals = r[2 + i * n: 2 + (i + 1) * n]
            print(f"  {c:9} {' '.join(f'{v:>4}' for v in vals[:nf])} | "
                  f"{' '.join(f'{v:>4}' for v in vals[nf:nf + len(FACTS)])} | "
                  f"{' '.join(f'{v:>4}' for v in vals[nf + len(FACTS):])}")
    print(".func definitions per file (and the generic ld/st in them):")
    for line in funcs_line:
        print("  " + line)
    print(f"failures: {len(failures)}")
    for rel, c, err in failures:
        print(f"  {rel} [{c}]:")
        for line in err.splitlines():
            print(f"    {line}")
    for line in ptxcheck_lines(files, results, compilers):
        print(line)
    for line in summary(rows, compilers):
        print(line)
    if args.tsv:
        with open(args.tsv, "w") as f:
            f.write("\t".join(header) + "\n")
            for r in rows:
                f.write("\t".join(r) + "\n")
    return failures


def ptxcheck_lines(files, results, compilers):
    """The ptx_check findings of every compiler's PTX (all functions, .func included)."""
    found = {c: [f for cu in files for f in results[(c, cu)].get("ptxcheck", [])] for c in compilers}
    out = ["ptx_check findings (nvopt_tools/ptx_check.py, every function): "
           + ", ".join(f"{c} {len(found[c])}" for c in compilers)]
    for c in compilers:
        out += [f"  [{c}] {f}" for f in found[c]]
    return out


def summary(rows, compilers):
    """Lines comparing the compilers over the kernels that every one of them assembled:
    geomeans of regs, live and warps against nvcc's (else the first compiler's), and totals."""
    n = len(COLUMNS)
    table = [{c: dict(zip(COLUMNS, r[2 + i * n: 2 + (i + 1) * n])) for i, c in enumerate(compilers)}
             for r in rows]
    table = [t for t in table if all(t[c]["regs"] != "-" for c in compilers)]
    ref = "nvcc" if "nvcc" in compilers else compilers[0]
    out = [f"summary: {len(table)} kernels assembled by every compiler"]
    if not table:
        return out
    for f in ("regs", "live", "warps"):
        pairs = [(t, int(t[ref][f])) for t in table if t[ref][f] not in ("-", "0")]
        ratios = []
        for c in compilers:
            vals = [(int(t[c][f]), r) for t, r in pairs if t[c][f] not in ("-", "0")]
            if c != ref and vals:
                geo = math.exp(sum(math.log(v / r) for v, r in vals) / len(vals))
                ratios.append(f"{c} {geo:.4f} ({len(vals)})")
        if ratios:
            out.append(f"  {f:12} geomean / {ref}'s: " + ", ".join(ratios))
    for f in ("spill_st", "stack") + FACTS:
        totals = [f"{c} {sum(int(t[c][f]) for t in table if t[c][f] != '-')}" for c in compilers]
        out.append(f"  {f:12} total: " + ", ".join(totals))
    return out


def main(argv):
    p = argparse.ArgumentParser(prog="python3 -m nvopt_tools.realcode_check", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", help="directory searched recursively for .cu files")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--level", default="O3", choices=paths.levels())
    p.add_argument("--compilers", default=",".join(COMPILERS),
                   help="comma-separated subset of upstream,nvopt,nvcc (default: all)")
    p.add_argument("--cuda-path", help="CUDA installation for clang, or none (default: the "
                   "driver's: NVOPT_CUDA_PATH, else NVIDIA's wheels)")
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="M[=V]")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tsv", help="also write the per-kernel table here")
    p.add_argument("--keep", help="write the PTX here (default: a temp dir, removed)")
    p.add_argument("--knob", action="append", default=[], metavar="NAME=V",
                   help="a plugin knob for the nvopt column (nvopt-cc --knob; repeatable)")
    args = p.parse_args(argv)
    compilers = [c for c in args.compilers.split(",") if c]
    bad = [c for c in compilers if c not in COMPILERS]
    if bad or not compilers:
        p.error(f"unknown compiler(s) {', '.join(bad) or '(none)'}; valid: {', '.join(COMPILERS)}")
    if not os.path.isdir(args.dir):
        p.error(f"not a directory: {args.dir}")
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.dir) for f in fs
                   if f.endswith(".cu"))
    if not files:
        p.error(f"no .cu files under {args.dir}")
    nv_bin = nvidia_bin()
    if "nvcc" in compilers and not tool(nv_bin, "nvcc"):
        print("real-code check: nvcc is not installed: no nvcc column "
              "(bash scripts/nvidia-tools.sh installs it)", file=sys.stderr)
        compilers.remove("nvcc")
    if not tool(nv_bin, "ptxas"):
        print("real-code check: ptxas is not installed: no ptxas figures", file=sys.stderr)
    out_dir = args.keep or tempfile.mkdtemp(prefix="realcode-")
    os.makedirs(out_dir, exist_ok=True)
    try:
        jobs = [(c, cu) for cu in files for c in compilers]
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            done = pool.map(lambda j: measure(j[0], j[1], out_dir, args, nv_bin), jobs)
            results = dict(zip(jobs, done))
        failures = report(files, results, compilers, args)
    finally:
        if not args.keep:
            shutil.rmtree(out_dir, ignore_errors=True)
    wrong = any(results[(c, cu)].get("ptxcheck") for c, cu in jobs if c == "nvopt")
    return 1 if wrong or any(c == "nvopt" for _, c, _ in failures) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
