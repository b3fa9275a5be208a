#!/usr/bin/env python3
"""The device script of a program pack (docs/PROGRAMS.md): runs every program of the manifest in
its three builds on the GPU, checks every output, times every kernel, runs compute-sanitizer's
memcheck over nvopt's builds, and writes the per-kernel table. Standalone (Python 3 standard
library only): the pack carries a copy, run by PACK/run.sh. The repository's tool imports it to
parse recorded results (`python3 -m nvopt_tools.programs report`).

    python3 device.py --pack PACK --out RESULTS [--budget 450] [--sanitizer-budget 120]
                      [--parallel N]

Within --budget seconds (the script stops starting runs when it is spent):
  1. the injection library: kerneltime.c compiled with the machine's compiler against its CUPTI
     (PACK/device/kerneltime.so when that fails); without one, outputs are still checked;
  2. rounds: each program in the builds nvcc, upstream, nvopt and nvcc again (the noise run,
     `nvcc2`), and from round --variants-from-round on (default 1) the variant builds packed
     for it, their order rotated per program and per round; the programs with the fewest
     runs first, then by the run time earlier device runs observed (the manifest's
     observed_seconds: quick ones, unknown ones, slow ones), the program groups interleaved
     within each; a program whose four runs do not fit in what is left is not started (a round
     cut short by the budget, the first one leaving the memcheck box free, still covers every
     group); every run's output is checked
     (exit status, the program's own `check` regex, no `fail` match, the `compare` numbers equal
     to the nvcc build's of that round); kernel times come from the injection library's TSV;
     with --parallel N, N programs run side by side (each its builds in turn, OMP_NUM_THREADS
     the cores shared out): their CPU parts (references, setup) overlap, and every kernel
     launch that overlaps another process's GPU activity (kernels, copies, sets, on one
     CLOCK_REALTIME line from each TSV's clock pair) is left out of the times;
  3. after the first round, memcheck once over every nvopt build (time-boxed, --sanitizer-jobs
     at a time, nothing timed meanwhile), then more rounds while time is left; a program that
     waives (exit 2 and a 'Waiving' line, as cuda-samples do without a second GPU) in the nvcc
     build as well is reported waived, not wrong;
  4. RESULTS/kernels.tsv and kernels.md (per kernel: median GPU time per build, first launch of
     each process dropped, ratios), runs.tsv (every run), sanitizer.tsv, summary.json, and a
     summary on stdout: wrong outputs per build, sanitizer errors, geomeans per group over
     kernels of at least 20 us, the issue's targets.
"""
import argparse
import concurrent.futures
import glob
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

BUILDS = ("nvcc", "upstream", "nvopt")
RUN_BUILDS = ("nvcc", "upstream", "nvopt", "nvcc2")
MIN_US = 20.0  # kernels this long (nvcc's median) count for the targets
TARGETS = {"nvopt/nvcc": 0.97, "nvopt/upstream": 0.98, "slow_kernel": 0.10}
KT_HEADER = "kernel\tstart_ns\tend_ns\tduration_ns\tgrid\tblock\tregs\tsmem\tstream\tcorr"
NUM_RE = r"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
# The first round runs the three builds (and nvcc again) of every program; the variant builds
# join from this round on, so that a budget too short for everything still reaches every
# program's three builds (--variants-from-round).
VARIANTS_FROM_ROUND = 1


def safe(name):
    return name.replace("/", "__")


def recheck(manifest, results, runs):
    """Recorded runs (runs.tsv rows) judged again by the manifest's current check and fail
    patterns on each run's recorded output (a pattern mended after the run); the compare
    verdicts stay as recorded, and runs of programs the manifest no longer holds are dropped."""
    progs = {p["name"]: p for p in manifest["programs"]}
    out = []
    for r in runs:
        if r["program"] not in progs:
            continue
        rnd = str(r["round"])
        r["round"] = int(rnd) if rnd.isdigit() else rnd
        why = r.get("why", "")
        why = [w for w in why.split(" | ") if w] if isinstance(why, str) else list(why)
        path = os.path.join(results, "runs", f"r{r['round']}", r["build"],
                            safe(r["program"]) + ".out")
        if r.get("rc") not in (None, "") and os.path.exists(path):
            with open(path, errors="replace") as f:
                text = f.read()
            rc = str(r["rc"])
            rc = int(rc) if rc.lstrip("-").isdigit() else rc
            why = check_output(progs[r["program"]], rc, text) + \
                [w for w in why if w.startswith("compare")]
            if r.get("status") == "waived":
                why = []
            else:
                r["status"] = "ok" if not why else "WRONG"
        r["why"] = why
        out.append(r)
    return out


# ------------------------------------------------------------------------- parsing
def parse_kerneltime(path):
    """One process's launches: [(kernel, start_ns, duration_ns)], in start order. Lines that
    are not launches (comments, the header, a copy or set, a line cut off by a crash) are
    skipped."""
    return [(n, st, en - st) for n, st, en in parse_activity(path)[1] if not n.startswith("[")]


def parse_activity(path):
    """One process's GPU activity: (offset_ns, [(name, start_ns, end_ns)]) in start order,
    copies and sets named [memcpy]/[memset]. offset_ns maps CUPTI's clock to CLOCK_REALTIME
    (from the '# clock' line kerneltime.c writes; None in files without one)."""
    out, offset = [], None
    try:
        f = open(path, errors="replace")
    except OSError:
        return offset, out
    with f:
        for line in f:
            if line.startswith("# clock "):
                m = re.match(r"# clock cupti_ns=(\d+) realtime_ns=(\d+)", line)
                if m:
                    offset = int(m.group(2)) - int(m.group(1))
                continue
            if line.startswith("#") or line.startswith("kernel\t"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                continue
            try:  # the duration column is the record's (end is start plus it)
                start, dur = int(parts[1]), int(parts[3])
            except ValueError:
                continue
            out.append((parts[0], start, start + dur))
    out.sort(key=lambda r: r[1])
    return offset, out


# GPU activity of two processes closer than this (either side) counts as overlapping: it covers
# the error of mapping each process's CUPTI clock to CLOCK_REALTIME and the context switch.
OVERLAP_MARGIN_NS = 20_000


def shared_periods(files):
    """The periods (sorted, disjoint [t0, t1) in CLOCK_REALTIME ns) in which the GPU activity
    (kernels, copies, sets; each widened by OVERLAP_MARGIN_NS) of two or more processes
    overlaps. files: {path: (offset_ns, activity)}; files without a clock are left out."""
    events = []
    for path, (offset, acts) in files.items():
        if offset is None:
            continue
        # the process's own activity first merged into busy spans (back-to-back launches make
        # one span), so that the sweep sees few events
        spans = []
        for _, st, en in sorted(acts, key=lambda a: a[1]):
            st, en = st + offset - OVERLAP_MARGIN_NS, en + offset + OVERLAP_MARGIN_NS
            if spans and st <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], en)
            else:
                spans.append([st, en])
        for st, en in spans:
            events.append((st, 1, path))
            events.append((en, -1, path))
    events.sort(key=lambda e: (e[0], -e[1]))
    active, periods, since = {}, [], None
    for t, d, path in events:
        active[path] = active.get(path, 0) + d
        if not active[path]:
            del active[path]
        if len(active) >= 2 and since is None:
            since = t
        elif len(active) < 2 and since is not None:
            if t > since:
                periods.append((since, t))
            since = None
    return periods


def overlaps(periods, t0, t1):
    """Whether [t0, t1) meets any of the sorted, disjoint periods."""
    lo, hi = 0, len(periods)
    while lo < hi:  # the first period ending after t0
        mid = (lo + hi) // 2
        if periods[mid][1] <= t0:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(periods) and periods[lo][0] < t1


def launch_times(records, shared=None):
    """Per kernel, the durations (ns) of its launches after its first one; a kernel launched
    once keeps that launch (marked by the second value, the count of dropped launches).
    records: (kernel, start_ns, duration_ns[, overlapped]); a launch that overlapped another
    process's GPU activity is left out after the first launch is dropped (shared counts them
    per kernel when given)."""
    per = {}
    for rec in records:
        per.setdefault(rec[0], []).append((rec[2], len(rec) > 3 and rec[3]))
    out = {}
    for k, v in per.items():
        kept = v[1:] if len(v) > 1 else v
        if shared is not None:
            shared[k] = shared.get(k, 0) + sum(1 for _, o in kept if o)
        out[k] = ([d for d, o in kept if not o], 1 if len(v) > 1 else 0)
    return out


def numbers(text, compare):
    """The numbers a compare spec picks from a program's output (every group of every match;
    at most compare['max'] of them)."""
    rx = re.compile(compare.get("regex", NUM_RE))
    vals = []
    for m in rx.finditer(text):
        groups = m.groups() or (m.group(0),)
        for g in groups:
            if g is None:
                continue
            try:
                vals.append(float(g))
            except ValueError:
                vals.append(g)
    limit = compare.get("max")
    return vals[:limit] if limit else vals


def same_numbers(a, b, compare):
    """None when equal within rtol/atol, else a short reason."""
    if len(a) != len(b):
        return f"{len(a)} numbers, nvcc's output has {len(b)}"
    rtol = float(compare.get("rtol", 1e-6))
    atol = float(compare.get("atol", 0.0))
    for i, (x, y) in enumerate(zip(a, b)):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return f"value {i}: {x!r} != nvcc's {y!r}"
            continue
        if math.isnan(x) and math.isnan(y):
            continue
        if abs(x - y) > atol + rtol * abs(y):
            return f"value {i}: {x:g} != nvcc's {y:g} (rtol {rtol:g})"
    return None


WAIVED_RC = 2  # cuda-samples' EXIT_WAIVED: the machine lacks what the sample needs
WAIVED_RE = re.compile(r"\bwaiv", re.I)


def waived(rc, text):
    """A sample that declined to run on this machine (exit 2 and a 'Waiving' line, as
    cuda-samples do without a second GPU): not a wrong output when the nvcc build waives too."""
    return rc == WAIVED_RC and bool(WAIVED_RE.search(text))


def check_output(prog, rc, text):
    """Reasons the run's output is wrong (empty when right): exit status, the program's own
    check regex, its fail regex."""
    why = []
    if rc != 0:
        why.append("timeout" if rc == "timeout" else f"exit {rc}")
    if prog.get("check") and not re.search(prog["check"], text):
        why.append("no match for check /" + prog["check"] + "/")
    if prog.get("fail"):
        m = re.search(prog["fail"], text)
        if m:
            why.append(f"fail /{prog['fail']}/ matched {m.group(0)!r}")
    return why


def compare_text(prog, workdir, stdout):
    text = stdout
    for f in (prog.get("compare") or {}).get("files", []):
        try:
            with open(os.path.join(workdir, f), errors="replace") as fh:
                text += "\n" + fh.read()
        except OSError:
            text += f"\n<missing {f}>"
    return text


# ------------------------------------------------------------------------- environment
def find_cuda():
    cands = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        cands.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    cands += ["/usr/local/cuda"] + sorted(glob.glob("/usr/local/cuda-*"), reverse=True)
    for c in cands:
        if c and os.path.isdir(os.path.join(c, "include")):
            return c
    return None


def find_cupti(cuda):
    cands = [os.environ.get("CUPTI_ROOT")]
    if cuda:
        cands += [os.path.join(cuda, "extras", "CUPTI"), cuda,
                  os.path.join(cuda, "targets", "x86_64-linux")]
    for c in cands:
        if not c or not os.path.exists(os.path.join(c, "include", "cupti.h")):
            continue
        for lib in ("lib64", "lib"):
            if glob.glob(os.path.join(c, lib, "libcupti.so*")):
                return os.path.join(c, "include"), os.path.join(c, lib)
    return None, None


def build_injection(pack, out, cuda, log):
    """kerneltime.so for this machine: compiled here, else the pack's precompiled copy."""
    src = os.path.join(pack, "device", "kerneltime.c")
    inc, lib = find_cupti(cuda)
    dest = os.path.join(out, "kerneltime.so")
    if inc:
        for cc in (shutil.which("cc"), shutil.which("gcc"), shutil.which("clang"),
                   cuda and os.path.join(cuda, "bin", "nvcc")):
            if not cc or not os.path.exists(cc):
                continue
            pic = ["-Xcompiler", "-fPIC"] if cc.endswith("nvcc") else ["-fPIC"]
            cmd = [cc, "-O2", "-shared", *pic, "-I" + inc, "-I" + os.path.join(cuda, "include"),
                   src, "-L" + lib, "-lcupti", "-Wl,-rpath," + lib, "-o", dest]
            if cc.endswith("nvcc"):
                cmd[cmd.index("-Wl,-rpath," + lib)] = "-Xlinker=-rpath," + lib
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode == 0:
                log(f"kerneltime: compiled with {cc} against {lib}")
                return dest, lib
            log(f"kerneltime: {cc} failed: {p.stderr.strip()[-300:]}")
    pre = os.path.join(pack, "device", "kerneltime.so")
    if os.path.exists(pre):
        log("kerneltime: using the pack's precompiled kerneltime.so" +
            (f" (CUPTI from {lib})" if lib else " (no CUPTI found: it may fail to load)"))
        return pre, lib
    log("kerneltime: no CUPTI and no precompiled library: outputs are checked, kernels not timed")
    return None, lib


def find_sanitizer(cuda):
    for c in (shutil.which("compute-sanitizer"), cuda and os.path.join(cuda, "bin",
                                                                         "compute-sanitizer"),
              cuda and os.path.join(cuda, "compute-sanitizer", "compute-sanitizer")):
        if c and os.path.exists(c):
            return c
    return None


# ------------------------------------------------------------------------- running
class Runner:
    def __init__(self, pack, out, budget, log, inject=None, extra_libs=(), parallel=1,
                 variants_from=VARIANTS_FROM_ROUND):
        self.pack, self.out, self.log = pack, out, log
        self.parallel = max(1, parallel)
        self.variants_from = variants_from
        self.t0 = time.time()
        self.deadline = self.t0 + budget
        self.inject = inject
        libs = [os.path.join(pack, "lib"), *[x for x in extra_libs if x]]
        self.env = dict(os.environ)
        self.env["LD_LIBRARY_PATH"] = os.pathsep.join(
            libs + [x for x in [os.environ.get("LD_LIBRARY_PATH")] if x])
        self.env.pop("CUDA_INJECTION64_PATH", None)
        if self.parallel > 1 and "OMP_NUM_THREADS" not in self.env:
            # host OpenMP (llm.c's matmul references) shares the cores among the programs
            self.env["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // self.parallel))
        self.runs = []

    def left(self):
        return self.deadline - time.time()

    def now(self):
        return time.time()

    def begin_program(self):
        """Called before a program's runs in a sequential round (PlanRunner picks a lane)."""

    def barrier(self):
        """Called when a round's programs have all finished (PlanRunner joins its lanes)."""

    def run(self, prog, build, rnd, timed=True, wrapper=None, timeout=None):
        b = "nvcc" if build == "nvcc2" else build
        exe = os.path.join(self.pack, prog["builds"][b]["path"], prog["run"])
        wd = os.path.join(self.pack, prog["workdir"])
        args = [a.replace("{data}", wd) for a in prog.get("args", [])]
        rdir = os.path.join(self.out, "runs", f"r{rnd}", build)
        os.makedirs(rdir, exist_ok=True)
        base = os.path.join(rdir, safe(prog["name"]))
        env = dict(self.env)
        if timed and self.inject:
            env["CUDA_INJECTION64_PATH"] = self.inject
            env["NVOPT_KERNELTIME_OUT"] = base + ".tsv"
        timeout = min(timeout or prog.get("timeout", 30), max(1.0, self.left()))
        t = time.time()
        try:
            p = subprocess.run((wrapper or []) + [exe] + args, cwd=wd, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=timeout)
            rc, text = p.returncode, p.stdout.decode("utf-8", "replace")
        except subprocess.TimeoutExpired as e:
            rc, text = "timeout", (e.stdout or b"").decode("utf-8", "replace")
        except OSError as e:
            rc, text = "oserror", str(e)
        secs = time.time() - t
        with open(base + ".out", "w") as f:
            f.write(text)
        return rc, text, secs, base


def run_builds(prog, rnd=None, variants_from=0):
    """The runs of a program in a round: the three builds, the variant builds packed for it
    (nvopt with one departure off, where its SASS differs; in round rnd only from round
    variants_from on) and nvcc again."""
    variants = prog.get("variants", []) if rnd is None or rnd >= variants_from else []
    return ("nvcc", "upstream", "nvopt", *variants, "nvcc2")



def variants_of(manifest):
    seen = []
    for p in manifest["programs"]:
        seen += [v for v in p.get("variants", []) if v not in seen]
    return seen


def order_for(rnd, i, builds=RUN_BUILDS):
    """The build order of program i in round rnd: rotated, and reversed every other round."""
    k = (rnd + i) % len(builds)
    order = list(builds[k:] + builds[:k])
    return order[::-1] if rnd % 2 else order


QUICK_S = 5.0  # a run this short (observed_seconds) is "quick": scheduled first, every round


def tier(prog):
    """0: observed quick; 1: never observed; 2: observed slow (a long CPU reference, say)."""
    secs = prog.get("observed_seconds")
    return 1 if secs is None else 0 if secs <= QUICK_S else 2


def round_order(programs, done):
    """The programs of a round: those with the fewest finished runs first (so that the next
    round goes on where the last one stopped), then the quick ones, the unknown ones (those of
    groups whose observed median is slow after the others; within these tiers the groups
    interleave, one program of each group in turn, so that a round cut short by the budget
    still covers every group), and the slow ones, shortest first."""
    if not all("slow_group" in p for p in programs):
        mark_slow_groups(programs)
    slow_group = {p.get("group", "") for p in programs if p["slow_group"]}
    mixed = []
    # quick; unknown in groups not known to be slow; unknown in slow groups; slow
    for t in ((0, False), (1, False), (1, True), (2, True)):
        groups = {}
        for p in programs:
            if tier(p) == t[0] and (t[0] != 1 or (p.get("group", "") in slow_group) == t[1]):
                groups.setdefault(p.get("group", ""), []).append(p)
        if t[0] == 2:
            mixed += sorted((p for v in groups.values() for p in v),
                            key=lambda p: p["observed_seconds"])
            continue
        for k in range(max((len(v) for v in groups.values()), default=0)):
            mixed += [v[k] for v in groups.values() if k < len(v)]
    return sorted(mixed, key=lambda p: done.get(p["name"], 0))


def mark_slow_groups(programs):
    """Marks each program whose group's observed median run is slow (slow_group), before
    --only/--skip take programs out, so that leaving the slowest out does not make a slow group
    look quick."""
    seen = {}
    for p in programs:
        if p.get("observed_seconds") is not None:
            seen.setdefault(p.get("group", ""), []).append(p["observed_seconds"])
    slow = {g for g, v in seen.items() if statistics.median(v) > QUICK_S}
    for p in programs:
        p["slow_group"] = p.get("group", "") in slow


def fits(prog, left, reserve, builds=None):
    """Whether all of a program's runs in a round (builds, default run_builds(prog)) fit in
    what is left (known run time only)."""
    secs = prog.get("observed_seconds")
    n = len(builds if builds is not None else run_builds(prog))
    return secs is None or left - reserve >= n * secs + 2


def run_round(runner, manifest, rnd, reserve, done=None):
    """One run of every program in every build (program order: round_order); done counts
    each program's finished runs and is updated. With runner.parallel > 1 (a real Runner),
    that many programs run side by side, each its builds in turn; the launches that overlap
    another process's GPU activity are left out of the times (collect_times)."""
    rows = []
    done = {} if done is None else done
    order = round_order(manifest["programs"], done)
    if isinstance(runner, Runner) and runner.parallel > 1:
        with concurrent.futures.ThreadPoolExecutor(max_workers=runner.parallel) as ex:
            futures = [ex.submit(run_program, runner, prog, i, rnd, reserve, done)
                       for i, prog in enumerate(order)]
            for f in futures:
                rows += f.result()
    else:
        for i, prog in enumerate(order):
            getattr(runner, "begin_program", lambda: None)()
            rows += run_program(runner, prog, i, rnd, reserve, done)
        getattr(runner, "barrier", lambda: None)()
    nvcc_waived = {r["program"] for r in rows if r.get("build") == "nvcc" and r.get("waived")}
    for r in rows:
        if "why" not in r:
            continue
        if r.get("waived") and r["program"] in nvcc_waived:
            r["status"] = "waived"
            r["note"] = "waived by every build that ran it, nvcc's too (the machine lacks " \
                        "what the program needs)" if r["build"] != "nvcc" else "waived"
            r["why"] = []
        else:
            r["status"] = "ok" if not r["why"] else "WRONG"
    return rows


def run_program(runner, prog, i, rnd, reserve, done):
    """A program's runs of round rnd (its builds in order_for's order, if they fit in what is
    left) and the compare of their numbers with the nvcc build's: the rows."""
    rows, texts = [], {}
    builds = run_builds(prog, rnd, getattr(runner, "variants_from", 0))
    if not fits(prog, runner.left(), reserve, builds):
        return [{"round": rnd, "program": prog["name"], "build": b,
                 "status": "not run (time)"} for b in builds]
    for build in order_for(rnd, i, builds):
        if runner.left() < reserve:
            rows.append({"round": rnd, "program": prog["name"], "build": build,
                         "status": "not run (time)"})
            continue
        rc, text, secs, base = runner.run(prog, build, rnd)
        wd = os.path.join(runner.pack, prog["workdir"])
        texts[build] = compare_text(prog, wd, text) if prog.get("compare") else text
        why = check_output(prog, rc, text)
        rows.append({"round": rnd, "program": prog["name"], "build": build, "rc": rc,
                     "seconds": round(secs, 3), "why": why, "base": base,
                     "waived": waived(rc, text)})
        done[prog["name"]] = done.get(prog["name"], 0) + 1
    cmp = prog.get("compare")
    if cmp and "nvcc" in texts:
        ref = numbers(texts["nvcc"], cmp)
        unstable = "nvcc2" in texts and same_numbers(numbers(texts["nvcc2"], cmp), ref, cmp)
        for r in rows:
            if r["build"] not in texts or r["build"] in ("nvcc", "nvcc2"):
                continue
            d = same_numbers(numbers(texts[r["build"]], cmp), ref, cmp)
            if d and unstable:
                r["note"] = "compare skipped: the two nvcc runs differ (" + unstable + ")"
            elif d:
                r["why"].append("compare: " + d)
        if unstable:
            for r in rows:
                if r["build"] == "nvcc2":
                    r["note"] = "nvcc runs differ: " + unstable
    return rows


def sanitize(runner, manifest, sanitizer, box, log, runs=(), jobs=4):
    """memcheck over every nvopt build within box seconds, jobs processes at a time (no run is
    timed meanwhile): the programs whose nvopt runs were fastest first (so that a few slow ones
    do not use up the box), each allowed 50 times its run time (at least 20 s) or what is
    left."""
    end = time.time() + box
    secs_of = {}
    for r in runs:
        if r.get("build") == "nvopt" and isinstance(r.get("seconds"), float):
            secs_of[r["program"]] = max(secs_of.get(r["program"], 0.0), r["seconds"])
    for p in manifest["programs"]:
        if p["name"] not in secs_of and p.get("observed_seconds") is not None:
            secs_of[p["name"]] = p["observed_seconds"]
    progs = sorted(manifest["programs"], key=lambda p: secs_of.get(p["name"], 1e9))
    skip = {r["program"] for r in runs if r.get("build") == "nvopt" and
            r.get("status") == "waived"}

    def one(prog):
        left = min(end - time.time(), runner.left() - 10)
        if prog["name"] in skip:
            return {"program": prog["name"], "status": "waived"}
        if left < 5:
            return {"program": prog["name"], "status": "not run (time)"}
        cap = max(20.0, 50 * secs_of.get(prog["name"], prog.get("timeout", 30)))
        rc, text, secs, _ = runner.run(
            prog, "nvopt", "memcheck", timed=False, timeout=min(left, cap),
            wrapper=[sanitizer, "--tool", "memcheck", "--error-exitcode", "86",
                     "--print-limit", "10"])
        m = re.search(r"ERROR SUMMARY: (\d+) error", text)
        errors = int(m.group(1)) if m else None
        if rc == "timeout":
            status = "timeout"
        elif errors is None:
            status = f"no summary (exit {rc})"
        else:
            status = "ok" if errors == 0 else "ERRORS"
        return {"program": prog["name"], "status": status, "errors": errors,
                "seconds": round(secs, 1)}

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        rows = list(ex.map(one, progs))
    bad = sum(r["status"] == "ERRORS" for r in rows)
    log(f"memcheck: {sum(r['status'] == 'ok' for r in rows)} clean, {bad} with errors, "
        f"{len(rows) - bad - sum(r['status'] == 'ok' for r in rows)} not finished")
    return rows


# ------------------------------------------------------------------------- the table
def demangle(names):
    cf = shutil.which("c++filt") or shutil.which("llvm-cxxfilt")
    if not cf or not names:
        return {n: n for n in names}
    try:
        p = subprocess.run([cf], input="\n".join(names) + "\n", capture_output=True, text=True,
                           timeout=30)
        out = p.stdout.split("\n")
        return {n: (out[i] if i < len(out) and out[i] else n) for i, n in enumerate(names)}
    except (OSError, subprocess.SubprocessError):
        return {n: n for n in names}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def collect_times(manifest, results, shared=None):
    """{program: {build: {kernel: [durations_us]}}} from every round's TSVs. Launches that
    overlapped another process's GPU activity (programs run side by side, --parallel) are left
    out; shared, when given, gets {build: launches left out}."""
    paths = {}
    for prog in manifest["programs"]:
        for build in run_builds(prog):
            for path in sorted(glob.glob(os.path.join(results, "runs", "r*", build,
                                                      safe(prog["name"]) + ".tsv"))):
                paths[path] = (prog["name"], build)
    files = {path: parse_activity(path) for path in paths}
    periods = shared_periods(files)
    times = {p["name"]: {} for p in manifest["programs"]}
    for path, (name, build) in paths.items():
        offset, acts = files[path]
        recs = [(n, st, en - st, offset is not None and bool(periods) and
                 overlaps(periods, st + offset, en + offset))
                for n, st, en in acts if not n.startswith("[")]
        left_out = {}
        for k, (durs, _) in launch_times(recs, left_out).items():
            times[name].setdefault(build, {}).setdefault(k, []).extend(d / 1000.0 for d in durs)
        if shared is not None:
            shared[build] = shared.get(build, 0) + sum(left_out.values())
    return times


def kernel_rows(manifest, times):
    rows = []
    for prog in manifest["programs"]:
        per = times.get(prog["name"], {})
        names = sorted(set().union(*[set(v) for v in per.values()]) if per else set())
        for k in names:
            r = {"program": prog["name"], "group": prog["group"], "kernel": k,
                 "variants": list(prog.get("variants", []))}
            for b in run_builds(prog):
                d = per.get(b, {}).get(k)
                r[b] = statistics.median(d) if d else None
                r[b + "_n"] = len(d) if d else 0
            pairs = [("nvopt", "nvcc"), ("nvopt", "upstream"), ("upstream", "nvcc"),
                     ("nvcc2", "nvcc")] + [(v, "nvopt") for v in r["variants"]]
            for num, den in pairs:
                r[f"{num}/{den}"] = r[num] / r[den] if r[num] and r[den] else None
            rows.append(r)
    return rows


def summarize(rows, runs, san):
    big = [r for r in rows if r["nvcc"] and r["nvcc"] >= MIN_US]
    noise = sorted(abs(math.log(r["nvcc2/nvcc"])) for r in big if r["nvcc2/nvcc"])
    p90 = math.exp(noise[int(0.9 * (len(noise) - 1))]) - 1 if noise else None
    slow = []
    for r in big:
        q = r["nvopt/nvcc"]
        own = abs(r["nvcc2/nvcc"] - 1) if r["nvcc2/nvcc"] else 0.0
        floor = max(own, p90 or 0.0)
        r["noise"] = floor
        r["slow"] = bool(q and q > 1 + TARGETS["slow_kernel"] + floor)
        if r["slow"]:
            slow.append({"program": r["program"], "kernel": r["kernel"], "nvopt/nvcc": q,
                         "noise": floor})
    groups = {}
    for g in sorted({r["group"] for r in big}) + ["all"]:
        sel = [r for r in big if g == "all" or r["group"] == g]
        groups[g] = {"kernels": len(sel), **{key: geomean([r[key] for r in sel]) for key in
                                              ("nvopt/nvcc", "nvopt/upstream", "upstream/nvcc",
                                               "nvcc2/nvcc")}}
    wrong = {}
    for r in runs:
        if r.get("status") == "WRONG":
            wrong.setdefault(r["build"], []).append(f"r{r['round']} {r['program']}: "
                                                    + "; ".join(r["why"]))
    allg = groups["all"]
    variants = {}
    for v in sorted({v for r in rows for v in r.get("variants", [])}):
        timed = [r for r in rows if r.get(f"{v}/nvopt")]
        sel = [r for r in timed if r["nvcc"] and r["nvcc"] >= MIN_US]
        variants[v] = {"kernels_min_us": len(sel),
                       "geomean_min_us": geomean([r[f"{v}/nvopt"] for r in sel]),
                       "kernels": len(timed), "geomean": geomean([r[f"{v}/nvopt"] for r in timed]),
                       "faster": sum(r[f"{v}/nvopt"] < 1 - max(p90 or 0.0, 0.01) for r in sel),
                       "slower": sum(r[f"{v}/nvopt"] > 1 + max(p90 or 0.0, 0.01) for r in sel)}
    return {
        "runs": len([r for r in runs if "rc" in r]),
        "not_run": len([r for r in runs if r.get("status") == "not run (time)"]),
        "rounds": max([r["round"] for r in runs], default=-1) + 1,
        "wrong": wrong,
        "sanitizer": {"clean": sum(s["status"] == "ok" for s in san),
                      "errors": [s["program"] for s in san if s["status"] == "ERRORS"],
                      "unfinished": [f"{s['program']} ({s['status']})" for s in san
                                     if s["status"] not in ("ok", "ERRORS")]} if san else None,
        "kernels": len(rows), "kernels_min_us": len(big), "noise_p90": p90,
        "groups": groups, "slow_kernels": slow, "variants": variants,
        "targets": {
            "nvopt/nvcc <= 0.97": (None if allg["nvopt/nvcc"] is None else
                                   allg["nvopt/nvcc"] <= TARGETS["nvopt/nvcc"]),
            "nvopt/upstream <= 0.98": (None if allg["nvopt/upstream"] is None else
                                       allg["nvopt/upstream"] <= TARGETS["nvopt/upstream"]),
            "no kernel >10% slower than nvcc beyond noise": None if not big else not slow,
        },
    }


def fmt(x, spec=".3f"):
    return "-" if x is None else format(x, spec)


def report(manifest, results, out=None, runs=None, san=None):
    """The table and the summary from a results folder (runs.tsv, sanitizer.tsv and the
    kernel TSVs under runs/); writes kernels.tsv, kernels.md and summary.json into out."""
    out = out or results
    os.makedirs(out, exist_ok=True)
    if runs is None:
        runs = recheck(manifest, results, read_tsv(os.path.join(results, "runs.tsv")))
    if san is None:
        san = read_tsv(os.path.join(results, "sanitizer.tsv"))
    shared = {}
    rows = kernel_rows(manifest, collect_times(manifest, results, shared))
    summary = summarize(rows, runs, san)
    summary["overlap_left_out"] = shared
    names = demangle(sorted({r["kernel"] for r in rows}))
    cols = ["group", "program", "kernel", "nvcc_us", "upstream_us", "nvopt_us", "nvcc2_us",
            "nvopt/nvcc", "nvopt/upstream", "upstream/nvcc", "nvcc2/nvcc", "launches",
            "ge20us", "slow", "variants/nvopt", "demangled"]
    with open(os.path.join(out, "kernels.tsv"), "w") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join([r["group"], r["program"], r["kernel"], fmt(r["nvcc"], ".2f"),
                               fmt(r["upstream"], ".2f"), fmt(r["nvopt"], ".2f"),
                               fmt(r["nvcc2"], ".2f"), fmt(r["nvopt/nvcc"]),
                               fmt(r["nvopt/upstream"]), fmt(r["upstream/nvcc"]),
                               fmt(r["nvcc2/nvcc"]), str(r["nvopt_n"]),
                               "yes" if r["nvcc"] and r["nvcc"] >= MIN_US else "no",
                               "SLOW" if r.get("slow") else "",
                               ";".join(f"{v}={fmt(r.get(v + '/nvopt'))}"
                                        for v in r.get("variants", [])),
                               names.get(r["kernel"], r["kernel"])]) + "\n")
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(out, "kernels.md"), "w") as f:
        f.write(markdown(summary, rows, names))
    return summary


def short(name, n=60):
    name = re.sub(r"\s+", " ", name)
    return name if len(name) <= n else name[:n - 3] + "..."


def markdown(summary, rows, names):
    lines = ["## Program corpus: kernel time (median GPU time per launch, first launch dropped)",
             "", f"{summary['kernels']} kernels, {summary['kernels_min_us']} of at least "
             f"{MIN_US:g} us (nvcc); noise floor (nvcc against nvcc, 90th percentile): "
             f"{fmt(summary['noise_p90'] and 100 * summary['noise_p90'], '.1f')}%.", "",
             "| group | kernels >= 20 us | nvopt/nvcc | nvopt/upstream | upstream/nvcc | "
             "nvcc/nvcc |", "|---|---:|---:|---:|---:|---:|"]
    for g, v in summary["groups"].items():
        lines.append(f"| {g} | {v['kernels']} | {fmt(v['nvopt/nvcc'])} | "
                     f"{fmt(v['nvopt/upstream'])} | {fmt(v['upstream/nvcc'])} | "
                     f"{fmt(v['nvcc2/nvcc'])} |")
    lines += ["", "Targets: " + "; ".join(f"{k}: {verdict(v)}"
                                          for k, v in summary["targets"].items()), ""]
    if summary.get("variants"):
        lines += ["Variants (nvopt with one departure off, run where it changes the SASS): "
                  "time against nvopt's; below 1 means the departure costs time.", "",
                  "| variant | kernels >= 20 us | geomean | faster | slower | all timed kernels "
                  "| geomean |", "|---|---:|---:|---:|---:|---:|---:|"]
        for v, x in summary["variants"].items():
            lines.append(f"| {v} | {x['kernels_min_us']} | {fmt(x['geomean_min_us'])} | "
                         f"{x['faster']} | {x['slower']} | {x['kernels']} | "
                         f"{fmt(x['geomean'])} |")
        lines.append("")
    lines += ["| program | kernel | nvcc us | upstream us | nvopt us | nvopt/nvcc | "
              "nvopt/upstream | nvcc/nvcc | |", "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        if not r["nvcc"] or r["nvcc"] < MIN_US:
            continue
        lines.append(f"| {r['program']} | `{short(names.get(r['kernel'], r['kernel']))}` | "
                     f"{fmt(r['nvcc'], '.1f')} | {fmt(r['upstream'], '.1f')} | "
                     f"{fmt(r['nvopt'], '.1f')} | {fmt(r['nvopt/nvcc'])} | "
                     f"{fmt(r['nvopt/upstream'])} | {fmt(r['nvcc2/nvcc'])} | "
                     f"{'SLOW' if r.get('slow') else ''} |")
    return "\n".join(lines) + "\n"


def verdict(v):
    return "no kernel timed" if v is None else "met" if v else "MISSED"


def summary_text(s):
    out = [f"runs: {s['runs']} in {s['rounds']} rounds ({s['not_run']} not run for time)"]
    for b in list(RUN_BUILDS) + list(s.get("variants", {})):
        w = s["wrong"].get(b, [])
        out.append(f"wrong outputs, {b}: {len(w)}" + "".join("\n    " + x for x in w[:20]))
    if s["sanitizer"] is None:
        out.append("compute-sanitizer memcheck (nvopt builds): not run")
    else:
        sz = s["sanitizer"]
        out.append(f"compute-sanitizer memcheck (nvopt builds): {sz['clean']} clean, "
                   f"{len(sz['errors'])} with errors"
                   + (f" ({', '.join(sz['errors'])})" if sz["errors"] else "")
                   + f", {len(sz['unfinished'])} unfinished"
                   + (f" ({', '.join(sz['unfinished'][:10])})" if sz["unfinished"] else ""))
    if any(s.get("overlap_left_out", {}).values()):
        out.append("launches left out for overlapping another program's GPU work: " +
                   ", ".join(f"{b} {n}" for b, n in s["overlap_left_out"].items()))
    out.append(f"kernels: {s['kernels']}, of at least {MIN_US:g} us: {s['kernels_min_us']}; "
               f"noise floor (p90 nvcc/nvcc): "
               f"{fmt(s['noise_p90'] and 100 * s['noise_p90'], '.1f')}%")
    for g, v in s["groups"].items():
        out.append(f"  {g:14s} n={v['kernels']:4d}  nvopt/nvcc {fmt(v['nvopt/nvcc'])}  "
                   f"nvopt/upstream {fmt(v['nvopt/upstream'])}  upstream/nvcc "
                   f"{fmt(v['upstream/nvcc'])}  nvcc/nvcc {fmt(v['nvcc2/nvcc'])}")
    for k in s["slow_kernels"][:30]:
        out.append(f"  SLOW {k['program']} {short(k['kernel'])}: nvopt/nvcc "
                   f"{k['nvopt/nvcc']:.3f} (noise {100 * k['noise']:.1f}%)")
    for k, v in s["targets"].items():
        out.append(f"target {k}: {verdict(v)}")
    for v, x in s.get("variants", {}).items():
        out.append(f"variant {v}: {v}/nvopt geomean {fmt(x['geomean_min_us'])} over "
                   f"{x['kernels_min_us']} kernels >= {MIN_US:g} us ({x['faster']} faster, "
                   f"{x['slower']} slower beyond noise); {fmt(x['geomean'])} over all "
                   f"{x['kernels']} timed")
    return "\n".join(out)


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [x.rstrip("\n") for x in f if x.strip()]
    if not lines:
        return []
    head = lines[0].split("\t")
    return [dict(zip(head, x.split("\t"))) for x in lines[1:]]


def write_runs(path, runs):
    with open(path, "w") as f:
        f.write("round\tprogram\tbuild\tstatus\trc\tseconds\twhy\tnote\n")
        for r in runs:
            f.write("\t".join(str(x).replace("\t", " ").replace("\n", " ") for x in (
                r["round"], r["program"], r["build"], r.get("status", ""), r.get("rc", ""),
                r.get("seconds", ""), " | ".join(r.get("why", [])), r.get("note", ""))) + "\n")


def write_sanitizer(path, san):
    with open(path, "w") as f:
        f.write("program\tstatus\terrors\tseconds\n")
        for s in san:
            f.write(f"{s['program']}\t{s['status']}\t{s.get('errors', '')}\t"
                    f"{s.get('seconds', '')}\n")


def schedule(runner, manifest, a, sanitizer, log, out=None, sanitize_fn=None):
    """The rounds and the memcheck box within the runner's budget (main's loop; --plan runs
    it on a simulated clock): returns (runs, sanitizer rows)."""
    sanitize_fn = sanitize_fn or sanitize
    runs, san, durations = [], [], []
    rnd = 0
    done = {}
    while rnd < a.max_rounds:
        # a round may be cut short by the budget (the next one goes on where it stopped);
        # the first leaves the memcheck box free
        if rnd >= 1 and runner.left() < 30:
            break
        reserve = 10 + (a.sanitizer_budget + 20 if rnd == 0 and sanitizer else 0)
        t = runner.now()
        rows = run_round(runner, manifest, rnd, reserve=reserve, done=done)
        runs += rows
        durations.append(runner.now() - t)
        bad = sum(r.get("status") == "WRONG" for r in rows)
        ran = sum("rc" in r for r in rows)
        log(f"round {rnd}: {ran} runs of {len(rows)} in {durations[-1]:.0f} s, {bad} wrong")
        if out:
            write_runs(os.path.join(out, "runs.tsv"), runs)
        rnd += 1
        if rnd == 1 and sanitizer and not san:
            box = min(a.sanitizer_budget, runner.left() - 20)
            if box > 10:
                log(f"memcheck over the nvopt builds ({box:.0f} s at most, "
                    f"{a.sanitizer_jobs} at a time)")
                san = sanitize_fn(runner, manifest, sanitizer, box, log, runs, a.sanitizer_jobs)
                if out:
                    write_sanitizer(os.path.join(out, "sanitizer.tsv"), san)
    if sanitizer and not san and runner.left() > 15:
        san = sanitize_fn(runner, manifest, sanitizer, min(a.sanitizer_budget,
                                                            runner.left() - 10), log, runs,
                          a.sanitizer_jobs)
        if out:
            write_sanitizer(os.path.join(out, "sanitizer.tsv"), san)
    return runs, san


class PlanRunner:
    """A Runner on a simulated clock for --plan: each run takes the program's observed
    seconds (or --assume seconds when none was observed) and passes its checks. With
    parallel > 1 it keeps that many lanes: each program goes to the lane that is free first,
    and a round ends when every lane has (as the real Runner's side-by-side runs do)."""
    pack = ""

    def __init__(self, budget, assume, parallel=1, variants_from=VARIANTS_FROM_ROUND):
        self.budget, self.assume = budget, assume
        self.parallel = max(1, parallel)
        self.variants_from = variants_from
        self.lanes, self.lane = [0.0] * self.parallel, 0

    @property
    def clock(self):
        return max(self.lanes)

    @clock.setter
    def clock(self, value):
        self.lanes = [value] * self.parallel

    def now(self):
        return self.lanes[self.lane]

    def left(self):
        return self.budget - self.lanes[self.lane]

    def begin_program(self):
        self.lane = self.lanes.index(min(self.lanes))

    def barrier(self):
        self.clock = self.clock
        self.lane = 0

    def secs(self, prog):
        s = prog.get("observed_seconds")
        return self.assume.get(prog.get("group"), self.assume.get("", 1.0)) if s is None else s

    def run(self, prog, build, rnd, **_):
        d = min(self.secs(prog), prog.get("timeout", 30), max(1.0, self.left()))
        self.lanes[self.lane] += d
        return 0, prog.get("plan_output", ""), d, ""


def plan(manifest, a, log):
    """What a run of this budget would reach, from observed run times: full rounds per program,
    when memcheck starts and how many programs it would cover (each taking 4x its run time,
    at least 2 s, sanitizer-jobs at a time)."""
    assume = {"": a.assume}
    for spec in a.assume_group:
        g, _, v = spec.partition("=")
        assume[g] = float(v)
    runner = PlanRunner(a.budget, assume, a.parallel, a.variants_from_round)
    for p in manifest["programs"]:
        p["plan_output"] = ""
        p.pop("check", None), p.pop("fail", None), p.pop("compare", None)

    def fake_sanitize(runner, manifest, sanitizer, box, log, runs, jobs):
        order = sorted(manifest["programs"], key=lambda p: runner.secs(p))
        lanes, rows = [0.0] * max(1, jobs), []
        for p in order:
            k = lanes.index(min(lanes))
            cost = max(2.0, 4 * runner.secs(p))
            ok = lanes[k] + cost <= box
            lanes[k] += cost if ok else 0
            rows.append({"program": p["name"], "status": "ok" if ok else "not run (time)"})
        runner.clock += max(lanes)
        log(f"memcheck would cover {sum(r['status'] == 'ok' for r in rows)} of {len(rows)} "
            f"programs, ending at {runner.clock:.0f} s")
        return rows
    runs, _ = schedule(runner, manifest, a, "planned", log, None, fake_sanitize)
    ran = {}
    for r in runs:
        if "rc" in r:
            ran.setdefault(r["program"], set()).add(r["build"])
    full = [p["name"] for p in manifest["programs"]
            if set(RUN_BUILDS) <= ran.get(p["name"], set())]
    log(f"plan: {len(full)} of {len(manifest['programs'])} programs get at least one full "
        f"round within {a.budget:.0f} s; without one: "
        + ", ".join(p["name"] for p in manifest["programs"] if p["name"] not in full))
    with_variants = [p for p in manifest["programs"] if p.get("variants")]
    if with_variants:
        done = [p for p in with_variants if set(p["variants"]) <= ran.get(p["name"], set())]
        log(f"plan: the variant builds run for {len(done)} of the {len(with_variants)} programs "
            f"that have them (from round {runner.variants_from} on)")
    return 0


# ------------------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--pack", default=os.path.dirname(here))
    ap.add_argument("--out", default="results")
    ap.add_argument("--budget", type=float, default=450.0, help="seconds for everything")
    ap.add_argument("--sanitizer-budget", type=float, default=120.0)
    ap.add_argument("--sanitizer-jobs", type=int, default=4,
                    help="memcheck processes at a time (untimed, after the first round)")
    ap.add_argument("--max-rounds", type=int, default=7)
    ap.add_argument("--variants-from-round", type=int, default=VARIANTS_FROM_ROUND, metavar="R",
                    help="the variant builds (nvopt with a departure off) run from round R on "
                         "(default 1: the first round reaches every program's three builds "
                         "first; 0: from the start)")
    ap.add_argument("--parallel", type=int, default=1, metavar="N",
                    help="programs run side by side (each its builds in turn); a kernel launch "
                         "that overlaps another process's GPU activity is left out of the "
                         "times (default 1: one run at a time)")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--skip", nargs="*", default=[],
                    help="programs or groups left out (e.g. those whose CPU reference takes "
                         "most of the budget)")
    ap.add_argument("--plan", action="store_true",
                    help="run nothing: print what this budget would reach, from the manifest's "
                         "observed run times")
    ap.add_argument("--assume", type=float, default=1.0,
                    help="--plan: seconds a run takes when none was observed")
    ap.add_argument("--assume-group", nargs="*", default=[], metavar="GROUP=SECONDS",
                    help="--plan: the same for one group's unobserved programs")
    a = ap.parse_args(argv)
    t0 = time.time()
    pack, out = os.path.abspath(a.pack), os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    logf = open(os.path.join(out, "device.log"), "a")

    def log(msg):
        line = f"[{time.time() - t0:6.1f}s] {msg}"
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    with open(os.path.join(pack, "manifest.json")) as f:
        manifest = json.load(f)
    mark_slow_groups(manifest["programs"])
    if a.only:
        manifest["programs"] = [p for p in manifest["programs"]
                                if p["name"] in a.only or p["group"] in a.only]
    if a.skip:
        manifest["programs"] = [p for p in manifest["programs"]
                                if p["name"] not in a.skip and p["group"] not in a.skip]
    log(f"pack {pack}: {len(manifest['programs'])} programs, nvopt {manifest.get('nvopt_git')}")
    if a.plan:
        return plan(manifest, a, log)
    smi = shutil.which("nvidia-smi")
    if smi:
        p = subprocess.run([smi, "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm",
                            "--format=csv,noheader"], capture_output=True, text=True)
        log("gpu: " + p.stdout.strip())
    else:
        log("gpu: nvidia-smi not found (no GPU here? every program will be run anyway)")
    cuda = find_cuda()
    log(f"CUDA installation: {cuda or 'not found'}")
    inject, cupti_lib = build_injection(pack, out, cuda, log)
    sanitizer = find_sanitizer(cuda)
    log(f"compute-sanitizer: {sanitizer or 'not found (memcheck skipped)'}")
    extra = [cupti_lib] + ([os.path.join(cuda, "lib64")] if cuda else [])
    runner = Runner(pack, out, a.budget - (time.time() - t0), log, inject, extra, a.parallel,
                    a.variants_from_round)
    if a.parallel > 1:
        log(f"{a.parallel} programs side by side (OMP_NUM_THREADS "
            f"{runner.env.get('OMP_NUM_THREADS')}); overlapping launches are left out of the times")
    runs, san = schedule(runner, manifest, a, sanitizer, log, out)
    summary = report(manifest, out, out, runs, san if sanitizer else None)
    text = summary_text(summary)
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write(text + "\n")
    print("\n==== summary ====\n" + text)
    log(f"done in {time.time() - t0:.0f} s; table: {out}/kernels.md, {out}/kernels.tsv")
    return 0 if not summary["wrong"] and not (summary["sanitizer"] or {}).get("errors") else 1


if __name__ == "__main__":
    sys.exit(main())
