# Compiles one kernel file with every compiler, repeats the timed steps, checks the LLVM
# pipelines with -verify-each / -verify-machineinstrs, assembles each PTX with ptxas -v and
# disassembles it with cuobjdump -sass, runs nvopt_tools/ptx_check.py's address-space lint on it,
# and collects the per-entry figures (docs/ARCHITECTURE.md "Measuring"; failures are
# recorded, never skipped). Variant columns (nvopt:NAME) rerun only llc on the nvopt column's
# optimized IR with extra knobs.
import os
import statistics
from dataclasses import dataclass, field

from nvopt_tools.bench import compilers
from nvopt_tools.bench import figures
from nvopt_tools import ptx_check
from nvopt_tools.bench.compilers import CPU_SUFFIX, Outcome, Step, run_step


@dataclass
class FileResult:
    stem: str
    times: dict = field(default_factory=dict)     # compiler -> {step: median seconds}
    entries: dict = field(default_factory=dict)   # compiler -> {entry: figures dict}
    failures: list = field(default_factory=list)  # (compiler, step, message)
    findings: dict = field(default_factory=dict)  # compiler -> [ptx_check.Finding] of its PTX
    instrs: dict = field(default_factory=dict)    # compiler -> {step: instructions} (--count-instructions)


def compile_file(src, workdir, tools, level, comps, knobs, reps, verify_each, variants=(), maxreg=None,
                 valgrind=""):
    """Runs every compiler of `comps`, then every (name, knobs) of `variants` on nvopt.bc.
    `maxreg` (bench.py --maxreg) caps NVIDIA's optimizers and every column's ptxas; nvopt's
    share of the cap is a knob, already in `knobs`. With `valgrind` (bench.py
    --count-instructions) each LLVM column's steps run once more under callgrind, after the
    timed runs, and their instruction counts go to `instrs`."""
    stem = os.path.splitext(os.path.basename(src))[0]
    res = FileResult(stem)
    os.makedirs(workdir, exist_ok=True)
    front_step = compilers.clang_step(tools, src)
    front = timed([front_step], workdir, reps)
    if not front.ok:
        for c in comps:
            if c != "nvidia":
                res.failures.append((c, front.step, front.message))
        comps = [c for c in comps if c == "nvidia"]
    for c in comps:
        outcome = run_compiler(c, src, workdir, tools, level, knobs, reps, verify_each, maxreg)
        if front.ok and c != "nvidia":
            outcome.times.update(front.times)
        if not outcome.ok:
            res.failures.append((c, outcome.step, outcome.message))
            continue
        res.times[c] = {k: statistics.median(v) for k, v in outcome.times.items()}
        if valgrind and c in ("upstream", "nvopt"):
            err = count_steps(res, c, [front_step, *compilers.pipeline(c, tools, level, src, knobs, maxreg)],
                              workdir, valgrind)
            if err:
                continue
        entries, err, res.findings[c] = assemble(c, workdir, tools, maxreg)
        if err:
            res.failures.append((c, "ptxas", err))
            continue
        res.entries[c] = entries
    for name, vknobs in variants:
        run_variant(res, name, vknobs, workdir, tools, level, knobs, reps, verify_each, maxreg, valgrind)
    return res


def count_steps(res, c, steps, workdir, valgrind):
    """Counts each step's instructions under callgrind into res.instrs[c] (the steps rerun in
    order, so each reads what the one before it wrote); a failure is recorded and returned. The
    clang step is the same for every LLVM column: it is counted once, for the first."""
    counts = {}
    clang = next((i["clang"] for i in res.instrs.values() if "clang" in i), None)
    for step in steps:
        if step.name == "clang" and clang is not None:
            counts["clang"] = clang
            continue
        n, err = compilers.count_instructions(step, workdir, valgrind)
        if err:
            res.failures.append((c, "count instructions", err))
            return err
        counts[step.name] = n
    res.instrs[c] = counts
    return ""


def run_variant(res, name, vknobs, workdir, tools, level, knobs, reps, verify_each, maxreg=None, valgrind=""):
    """Column nvopt:NAME: llc with the variant's knobs on nvopt.bc; clang and opt times (and
    instruction counts) are the nvopt column's (the same IR, produced once), llc is timed here."""
    c = f"nvopt:{name}"
    if "nvopt" not in res.times:
        res.failures.append((c, "setup", "the nvopt column failed, so there is no nvopt.bc to reuse"))
        return
    step = compilers.variant_llc(tools, level, knobs, name, vknobs)
    outcome = timed([step], workdir, reps)
    if outcome.ok and verify_each:
        check = Step("llc -verify-machineinstrs", step.argv[:-2] + ["-verify-machineinstrs", "-o", os.devnull])
        ok, _, msg = run_step(check, workdir)
        if not ok:
            outcome = Outcome(False, check.name, msg)
    if not outcome.ok:
        res.failures.append((c, outcome.step, outcome.message))
        return
    times = {k: v for k, v in res.times["nvopt"].items() if k not in ("llc", "llc" + CPU_SUFFIX)}
    times.update({k: statistics.median(v) for k, v in outcome.times.items()})
    res.times[c] = times
    if valgrind and "nvopt" in res.instrs:
        res.instrs[c] = dict(res.instrs["nvopt"])
        n, err = compilers.count_instructions(step, workdir, valgrind)
        if err:
            res.failures.append((c, "count instructions", err))
            return
        res.instrs[c]["llc"] = n
    entries, err, res.findings[c] = assemble(c, workdir, tools, maxreg)
    if err:
        res.failures.append((c, "ptxas", err))
        return
    res.entries[c] = entries


def run_compiler(c, src, workdir, tools, level, knobs, reps, verify_each, maxreg=None):
    why = compilers.preconditions(c, tools)
    if why:
        return Outcome(False, "setup", why)
    if c == "nvvm-latest":
        err = compilers.make_nvvm_input(tools, workdir)
        if err:
            return Outcome(False, "nvvm input", err)
    outcome = timed(compilers.pipeline(c, tools, level, src, knobs, maxreg), workdir, reps)
    if outcome.ok and verify_each:
        for step in compilers.verify_steps(c, tools, level, knobs):
            ok, _, msg = run_step(step, workdir)
            if not ok:
                return Outcome(False, step.name, msg)
    return outcome


def timed(steps, workdir, reps):
    """Runs the steps in order `reps` times; the first failure ends it."""
    out = Outcome()
    for _ in range(reps):
        for step in steps:
            ok, secs, msg = run_step(step, workdir)
            if not ok:
                return Outcome(False, step.name, msg, out.times)
            out.times.setdefault(step.name, []).append(secs)
            out.times.setdefault(step.name + CPU_SUFFIX, []).append(compilers.LAST_CPU[0])
    return out


def assemble(c, workdir, tools, maxreg=None):
    """ptxas -v (-maxrregcount with --maxreg), cuobjdump -sass and ptx_check on <c>.ptx
    (nvopt-NAME.ptx for column nvopt:NAME); returns ({entry: figures}, error, [findings]).
    An entry's `ptxcheck` counts the findings in it and in the .func bodies it calls."""
    c = compilers.variant_file(c)
    ptx_path = os.path.join(workdir, f"{c}.ptx")
    with open(ptx_path) as f:
        text = f.read()
    counts = figures.ptx_counts(text)
    findings = ptx_check.check_text(text, os.path.join("work", os.path.basename(workdir), f"{c}.ptx"))
    if not counts:
        return {}, f"no .entry found in {c}.ptx", findings
    info, sass = {}, {}
    if tools.nvidia_bin:
        ok, _, msg = run_step(Step("ptxas", compilers.ptxas_cmd(tools, c, maxreg)), workdir)
        if not ok:
            return {}, f"ptxas rejected {c}.ptx: {msg}", findings
        with open(os.path.join(workdir, f"{c}.ptxas.txt"), "w") as f:
            f.write(msg)
        info = figures.ptxas_info(msg)
        ok, _, msg = run_step(Step("cuobjdump", [tools.nv("cuobjdump"), "-sass", f"{c}.cubin"],
                                   stdout=f"{c}.sass"), workdir)
        if not ok:
            return {}, f"cuobjdump -sass failed on {c}.cubin: {msg}", findings
        with open(os.path.join(workdir, f"{c}.sass")) as f:
            text = f.read()
        sass, sass_loop = figures.sass_counts(text), figures.sass_loop_counts(text)
    entries = {}
    for name, cnt in counts.items():
        fig = {"ptx_instrs": cnt["ptx_instrs"], "movs": cnt["movs"], "ptx_loop": cnt["ptx_loop"],
               "ptxcheck": sum(1 for f in findings if f.function in (name, *cnt["callees"]))}
        fig.update({k: v for k, v in info.get(name, {}).items()})
        if name in sass:
            fig["sass_instrs"] = sass[name]
            fig["sass_loop"] = sass_loop[name]
        entries[name] = fig
    return entries, "", findings
