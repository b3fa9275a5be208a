"""reference: renders docs/RESULTS.md, nvopt's measured figures per capability, from the outputs
of the tools that measure them; no figure in it is typed by hand.

  python3 -m nvopt_tools.reference [--bench DIR]... [--eval DIR]... [--cost DIR]... [--log FILE]...
      [--out docs/RESULTS.md] [--command TEXT]
  python3 -m nvopt_tools.reference --record FILE -- COMMAND [ARG...]
  python3 -m nvopt_tools.reference --check docs/RESULTS.md

Inputs (each optional; a section without one says which command produces its data):
- --bench DIR: an output folder of `python3 -m nvopt_tools.bench` (its summary.md): geomean
  ratios nvopt/upstream, nvopt/nvidia, totals, the entries furthest behind nvcc.
- --eval DIR: an output folder of `python3 -m nvopt_tools.corpus_eval` (summary.md; ablation.md
  when it ran with --ablate): the corpora, the tune/validate/all tables, the ablation table.
- --cost DIR: an output folder of `python3 -m nvopt_tools.compile_cost` (summary.md): opt and
  llc CPU time and instructions, nvopt against upstream, per split of the corpora.
- --log FILE: a command's output recorded by --record: `python3 -m nvopt_tools.fidelity`
  (pipeline fidelity) and `python3 -m nvopt_tools.fuzz` / `python3 -m nvopt_tools.difftest`
  (robustness) are recognised by their command.

Each section gives what is measured, the exact command that produced its tables (as the tool
wrote it into its output; paths under the project root made relative), the tables, and the
build: the git commit and plugin md5 the bench and --record write, the plugin md5 corpus_eval
prints (tied to a commit when another input has the same md5). The header names the commit the
document was generated at; --check fails when a document names no commit or one that is not in
this repository's history. History is not kept here: CHANGELOG.md and the git log.
Python 3.11, standard library only.
"""
import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
import time

from nvopt_tools import paths

ROOT = paths.ROOT
SELF = "python3 -m nvopt_tools.reference"
GENERATED = re.compile(r"generated at commit ([0-9a-f]{7,40})")
FAILURES_SHOWN = 12
# The last version of the diary that docs/RESULTS.md replaced (issue 33).
DIARY = "371d2bc:bench/RESULTS.md"


def rel(text):
    """Paths under the project root, relative."""
    return text.replace(ROOT + "/", "")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def bullets(lines):
    """`- key: value` lines -> {key: value} (first occurrence)."""
    out = {}
    for line in lines:
        m = re.match(r"- ([^:]+): (.*)", line)
        if m and m.group(1) not in out:
            out[m.group(1)] = m.group(2)
    return out


def sections(lines, level="## "):
    """[(heading or None, [lines])] split at headings of the given level."""
    out = [(None, [])]
    for line in lines:
        if line.startswith(level):
            out.append((line[len(level):].strip(), []))
        else:
            out[-1][1].append(line)
    return out


def tables(lines):
    """The markdown tables of lines, each a list of lines."""
    out, cur = [], []
    for line in lines + [""]:
        if line.startswith("|"):
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out


def code(cmd):
    return ["```sh", rel(cmd), "```"]


# ---------------------------------------------------------------------------------- inputs


class Bench:
    def __init__(self, folder):
        self.folder = folder
        lines = read(os.path.join(folder, "summary.md"))
        self.title = lines[0].lstrip("# ").strip() if lines else folder
        self.meta = bullets(lines)
        self.secs = dict((h, body) for h, body in sections(lines) if h)
        self.md5 = self.meta.get("plugin md5")
        self.commit = self.meta.get("git commit") if self.meta.get("git commit") != "-" else None

    def section(self, prefix):
        for h, body in self.secs.items():
            if h.startswith(prefix):
                return h, body
        return None, []


class Eval:
    def __init__(self, folder):
        self.folder = folder
        self.commit = None  # corpus_eval does not write one; compile_cost does (Cost)
        lines = read(os.path.join(folder, "summary.md"))
        self.command = lines[0] if lines else "?"
        self.title = next((l[2:] for l in lines if l.startswith("# ")), folder)
        self.meta = bullets(lines)
        self.md5s = dict((os.path.basename(p), m) for p, m in
                         re.findall(r"(\S+) md5 ([0-9a-f]{32})", self.meta.get(
                             "nvopt build (private copy)", "")))
        # The plugin copy keeps the name it was given (--plugin may name any .so file).
        self.md5 = self.md5s.get("libnvopt.so") or next(
            (m for n, m in self.md5s.items() if n.endswith(".so")), None)
        self.variants = [(k[len("variant "):], v) for k, v in self.meta.items()
                         if k.startswith("variant ")]
        head = sections(lines)
        self.corpora = tables(head[0][1])
        self.splits = [(h, body) for h, body in head[1:]]
        tail = head[-1][1] if len(head) > 1 else []
        self.failures = [l for l in tail if l.startswith("failures: ")]
        self.failure_items = [l for l in tail[tail.index(self.failures[0]):]
                              if l.startswith("- ")] if self.failures else []
        ab = os.path.join(folder, "ablation.md")
        self.ablation = read(ab) if os.path.exists(ab) else None


class Cost(Eval):
    """A compile_cost summary.md: the command, the build bullet and one table per split."""

    def __init__(self, folder):
        super().__init__(folder)
        lines = read(os.path.join(folder, "summary.md"))
        self.note = next((l for l in lines if l.startswith("- per file: ")), "")
        self.failed = next((l for l in lines if l.startswith("Failed in at least one column")), "")
        c = self.meta.get("git commit", "-")
        self.commit = None if c.startswith("-") else c


class Log:
    """A command's output recorded by --record: `$ COMMAND`, its output, `# exit ...`."""

    def __init__(self, path):
        self.path = path
        lines = read(path)
        if not lines or not lines[0].startswith("$ "):
            sys.exit(f"reference: {path}: not a recorded command (python3 -m "
                     "nvopt_tools.reference --record FILE -- COMMAND)")
        self.command = lines[0][2:]
        self.trailer = lines[-1] if lines[-1].startswith("# exit") else ""
        self.output = lines[1:-1] if self.trailer else lines[1:]
        m = re.search(r"plugin md5 ([0-9a-f]{32})", self.trailer)
        self.md5 = m.group(1) if m else None
        m = re.search(r"commit (.+?)(?:, plugin md5|, \d{4}-|$)", self.trailer)
        self.commit = m.group(1) if m and m.group(1) != "-" else None
        m = re.match(r"# (exit -?\d+, [\d.]+ s)", self.trailer)
        self.when = (m.group(1) if m else "exit status not recorded") + "".join(
            ", " + d for d in re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d", self.trailer))

    def tool(self):
        m = re.search(r"nvopt_tools[./](\w+)", self.command)
        return m.group(1) if m else None


def record(path, cmd):
    """Runs cmd from the project root; writes `$ cmd`, its output and `# exit` with the build:
    the plugin is the command's `--plugin X` / `--plugin=X`, else $NVOPT_PLUGIN (written before
    the command, as the tools read it), else target/release/libnvopt.so."""
    plugin, env_note = paths.PLUGIN, ""
    if os.environ.get("NVOPT_PLUGIN"):
        env_note = "NVOPT_PLUGIN=" + shlex.quote(rel(os.path.abspath(os.environ["NVOPT_PLUGIN"]))) + " "
    for i, a in enumerate(cmd):
        if a == "--plugin" and i + 1 < len(cmd):
            plugin = cmd[i + 1]
        elif a.startswith("--plugin="):
            plugin = a.split("=", 1)[1]
    commit = paths.git_state() or "-"
    if os.path.realpath(os.path.join(ROOT, plugin)) != os.path.realpath(
            os.path.join(ROOT, "target", "release", "libnvopt.so")):
        commit += " (the checkout's; the plugin is a copy, not its target/release build)"
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, env=paths.tool_env(), capture_output=True, text=True)
    took = time.perf_counter() - t0
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write("$ " + env_note + " ".join(shlex.quote(a) for a in cmd) + "\n")
        f.write(r.stdout + (r.stderr if r.returncode else ""))
        f.write(f"# exit {r.returncode}, {took:.1f} s, commit {commit}, "
                f"plugin md5 {paths.file_md5(os.path.join(ROOT, plugin)) or '-'}, "
                f"{datetime.datetime.now():%Y-%m-%d %H:%M}\n")
    sys.stdout.write(r.stdout)
    return r.returncode


# ---------------------------------------------------------------------------------- render


class Builds:
    """md5 -> commit, from every input that knows both."""

    def __init__(self, inputs):
        self.commit = {}  # only from runs of the checkout's own build: a copy's is the checkout's
        for i in inputs:
            c = getattr(i, "commit", None)
            if getattr(i, "md5", None) and c and "the plugin is a copy" not in c:
                self.commit.setdefault(i.md5, c)
        self.md5s = []
        for i in inputs:
            if getattr(i, "md5", None) and i.md5 not in self.md5s:
                self.md5s.append(i.md5)

    def line(self, md5, commit=None, extra=""):
        parts = [f"plugin (libnvopt.so) md5 `{md5 or 'not recorded'}`"]
        if commit:
            parts.append(f"git commit {commit}")
        elif self.commit.get(md5):
            parts.append(f"git commit {self.commit[md5]} (recorded with the same plugin md5 by "
                         "another section's run)")
        else:
            parts.append("git commit not recorded by this output")
        return "Build: " + ", ".join(parts) + (f"; {extra}" if extra else "") + "."


def absent(what, produce):
    return [f"No data in this generation. {what}:", ""] + code(produce) + [""]


def bench_section(benches, builds):
    out = ["## Bench: nvopt against upstream LLVM 22 and nvcc", "",
           "Every `extern \"C\" __global__` entry of `bench/kernels` compiled for sm_90 by upstream "
           "LLVM 22 (`default<O3>`), nvopt (`nvopt<O3>` and its llc passes) and NVIDIA's nvcc; "
           "registers, spills and stack from `ptxas -v`, instruction counts from the PTX and "
           "cuobjdump's SASS, compile time as ratios in the same run (bench/README.md, "
           "\"Figures\"). Below 1: the first compiler is better.", ""]
    if not benches:
        return out + absent("Produce it with the bench, then pass `--bench build/bench/O3`",
                            "python3 -m nvopt_tools.bench --level O3")
    for b in benches:
        m = b.meta
        if len(benches) > 1:
            out += [f"### {b.title}", ""]
        out += code(m.get("command", "?")) + [""]
        out += [builds.line(b.md5, b.commit, f"LLVM: {m.get('LLVM', '?')}; nvidia: "
                            f"{m.get('nvidia', '?')}; knobs: {m.get('knobs', '?')}; register cap: "
                            f"{m.get('register cap', '?')}; {m.get('kernel files', '?')} kernel "
                            f"files, {m.get('repetitions', '?')} repetitions, host "
                            f"{m.get('host', '?')}, {m.get('date', '?')}"), ""]
        for prefix in ("Geometric means", "Totals over", "The ten entries"):
            h, body = b.section(prefix)
            if not h:
                continue
            out += [f"**{h}**", ""]
            for t in tables(body):
                out += t + [""]
            note = [l for l in body if l and not l.startswith("|")]
            out += (note + [""]) if note else []
        gpu = os.path.join(b.folder, "gpu.md")
        if os.path.exists(gpu):
            g = read(gpu)
            out += [f"**{g[0].lstrip('# ')}** (`--run`: kernel time of each column's code on the "
                    "GPU, outputs compared)", ""]
            out += [l for l in g if l.startswith(("Geometric mean", "Failures"))] + [""]
        else:
            out += ["GPU mode: this bench output has no `gpu.md`; `python3 -m nvopt_tools.bench "
                    "--level O3 --run` on a machine with an NVIDIA GPU adds kernel times.", ""]
        fails = [l for l in b.section("Failures")[1] if l.startswith("failures:")]
        finds = [l for l in b.section("PTX checker findings")[1] if l.startswith("findings:")]
        out += [f"PTX checker {finds[0] if finds else 'findings: not reported'}; "
                f"{fails[0] if fails else 'failures: not reported'} "
                f"(per-entry tables: `{rel(os.path.abspath(b.folder))}/summary.md`).", ""]
    return out


def eval_build(e, builds):
    drv = e.md5s.get("nvopt-cc")
    return builds.line(e.md5, e.commit, (f"driver nvopt-cc md5 `{drv}`; " if drv else "")
                       + e.meta.get("LLVM", "LLVM ?"))


def corpora_section(evals, builds):
    out = ["## Public CUDA corpora: tune and validate", "",
           "Public CUDA code nvopt was not tuned on (the corpora in the table), each file put in the "
           "tune or the validate half by a hash of its path (`nvopt_tools/corpus_eval.py`); a "
           "change is accepted when validate improves. Registers: geomean against nvcc over the "
           "kernels every column compiled; the other rows are totals over them.", "",
           "The corpus config (JSON: each corpus's root, include folders and defines) is kept outside "
           "the repository, as no recipe that builds fetched code is committed; its format is in "
           "corpus_eval's docstring.", ""]
    runs = [e for e in evals if e.splits]
    if not runs:
        return out + absent("Produce it with the corpus evaluation, then pass `--eval DIR`",
                            "python3 -m nvopt_tools.corpus_eval --config CONFIG --split all "
                            "--compilers nvcc,upstream,nvopt --out build/eval/all")
    for e in runs:
        if len(runs) > 1:
            out += [f"### {e.title}", ""]
        out += code(e.command) + [""]
        out += [eval_build(e, builds), ""]
        for n, k in e.variants:
            out += [f"- variant `{n}`: `{k}`"]
        out += [""] if e.variants else []
        for t in e.corpora:
            out += t + [""]
        for h, body in e.splits:
            if h.startswith("ablation"):
                continue
            out += [f"**{h}**", ""]
            for t in tables(body):
                out += t + [""]
            changed = [l for l in body if re.search(r"kernels changed \(changed/", l)]
            out += [rel(l) + (f" in `{rel(os.path.abspath(e.folder))}`" if l.endswith(")") else "")
                    for l in changed] + ([""] if changed else [])
        if e.failures:
            out += [f"Compile {e.failures[0]} (each column's failure, as corpus_eval lists it):", ""]
            for l in e.failure_items[:FAILURES_SHOWN]:
                l = rel(l)
                out.append(l if len(l) <= 240 else l[:237] + "...")
            if len(e.failure_items) > FAILURES_SHOWN:
                out.append(f"- ... {len(e.failure_items) - FAILURES_SHOWN} more in "
                           f"`{rel(os.path.abspath(e.folder))}/summary.md`")
            out += [""]
    return out


def cost_section(costs, builds):
    out = ["## Compile cost on the corpora: nvopt against upstream", "",
           "Each file of a split through opt and llc as `nvopt-cc` runs them for each column, from "
           "the device bitcode corpus_eval keeps (`nvopt_tools/compile_cost.py`): CPU time "
           "(median of repeats) and instructions executed (once under valgrind's callgrind, the "
           "same on every run). clang's step is the same for both columns and is left out.", ""]
    if not costs:
        return out + absent("Produce it with the compile-cost tool, then pass `--cost DIR`",
                            "python3 -m nvopt_tools.compile_cost --config CONFIG --split validate "
                            "--jobs 2 --out build/compile-cost/validate")
    for c in costs:
        out += code(c.command) + [""] + [eval_build(c, builds), ""]
        out += ([c.note[2:], ""] if c.note else [])
        for h, body in c.splits:
            out += [f"**{h}**", ""]
            for t in tables(body):
                out += t + [""]
        out += [c.failed, ""] if c.failed else []
    return out


def ablation_section(evals, builds):
    out = ["## Ablation: each departure from cicc or upstream, turned off alone", "",
           "Every place nvopt departs from cicc 13.5's printed pipeline or from upstream LLVM "
           "(corpus_eval's ABLATIONS, `--list-ablations`) turned off by its knobs, one at a time, "
           "against nvopt's defaults (docs/DEPARTURES.md says why each one is there).", ""]
    runs = [e for e in evals if e.ablation]
    if not runs:
        return out + absent("Produce it with an ablation run of the corpus evaluation, then pass "
                            "its folder with `--eval`",
                            "python3 -m nvopt_tools.corpus_eval --config CONFIG --split validate "
                            "--ablate --out build/eval/ablate")
    for e in runs:
        lines = e.ablation
        cmd = lines[0] if lines and not lines[0].startswith(("#", "|")) else e.command
        out += code(cmd) + [""] + [eval_build(e, builds), ""]
        for h, body in sections(lines):
            if h is None:
                continue
            out += [f"**{h}**", ""]
            out += [l for l in body if l and not l.startswith("|")][:1] + [""]
            for t in tables(body):
                out += t + [""]
    return out


def log_sections(out, logs, builds, tools, missing, produce, body):
    """The sections made of recorded logs (fidelity, robustness, programs): each log of one of
    tools as its command, its build line and what body(log) makes of its output; without one,
    how to record it."""
    runs = [lg for lg in logs if lg.tool() in tools]
    if not runs:
        return out + absent(missing, produce)
    for lg in runs:
        out += code(lg.command) + [""] + [builds.line(lg.md5, lg.commit, lg.when), ""]
        out += body(lg)
    return out


def fidelity_section(logs, builds):
    out = ["## Pipeline fidelity", "",
           "Each level's upstream pass sequence (`nvopt<LEVEL>` with the knobs that put back cicc's "
           "table) against the pipeline cicc 13.5 prints: similarity is the longest common "
           "subsequence over the longer sequence (`nvopt_tools/fidelity.py`; the prints are kept "
           "outside the repository, docs/CICC-FACTS.md).", ""]

    def body(lg):
        rows = [re.match(r"(\S+)\s+nvopt\s+(\d+) upstream passes, cicc\s+(\d+), common\s+(\d+), "
                         r"similarity ([\d.]+)", l) for l in lg.output]
        rows = [m for m in rows if m]
        text = []
        if rows:
            text += ["| level | nvopt upstream passes | cicc passes | common | similarity |",
                     "|---|---:|---:|---:|---:|"]
            text += [f"| {m[1]} | {m[2]} | {m[3]} | {m[4]} | {m[5]} |" for m in rows] + [""]
        return text + [l for l in lg.output if l.startswith("lowest similarity")] + [""]
    return log_sections(out, logs, builds, ("fidelity",),
                        "Record it, then pass `--log build/reference/fidelity.txt`",
                        f"{SELF} --record build/reference/fidelity.txt -- "
                        "python3 -m nvopt_tools.fidelity", body)


ROBUST_LINE = re.compile(r"^(fuzz:|crashes:|difftest:|  [\w -]+: \d+$|FAIL|ERROR)")


def robustness_section(logs, builds):
    out = ["## Robustness: fuzzing and differential execution", "",
           "`nvopt_tools/fuzz.py`: random modules (llvm-stress, mutated bench kernels) through every "
           "level and llc under the verifiers. `nvopt_tools/difftest.py`: modules before and after "
           "nvopt's IR passes run with lli on random inputs, all memory compared bit for bit. "
           "Their summary lines:", ""]
    return log_sections(
        out, logs, builds, ("fuzz", "difftest"), "Record them, then pass each with `--log`",
        f"{SELF} --record build/reference/fuzz.txt -- python3 -m nvopt_tools.fuzz --count 200 "
        f"--seed 1 --jobs 2\n{SELF} --record build/reference/difftest.txt -- python3 -m "
        "nvopt_tools.difftest --jobs 2",
        lambda lg: ["```"] + [rel(l) for l in lg.output if ROBUST_LINE.match(l)][:40]
        + ["```", ""])


def static_logs(logs):
    return [lg for lg in logs if lg.tool() == "programs" and " static " in f" {lg.command} "]


def programs_static_section(logs, builds):
    out = ["## Real programs, statically: registers and SASS of the packed kernels", "",
           "The same pack read here, without a GPU (`programs static`, docs/PROGRAMS.md): per "
           "kernel and build the registers and local bytes ptxas gave it and its SASS "
           "instructions; geomeans per group of nvopt against nvcc and upstream, and of each "
           "variant build (nvopt with one departure off) against nvopt. Proxies: the device "
           "run's kernel times decide. The executables were built when the pack was (its first "
           "line names the nvopt commit they came from); the Build line below is the checkout "
           "that read them.", ""]
    return log_sections(out, static_logs(logs), builds, ("programs",),
                        "Record it, then pass it with `--log`",
                        f"{SELF} --record build/reference/programs-static.txt -- python3 -m "
                        "nvopt_tools.programs static --pack PACK",
                        lambda lg: ["```"] + [rel(l) for l in lg.output] + ["```", ""])


def programs_section(logs, builds):
    logs = [lg for lg in logs if lg not in static_logs(logs)]
    out = ["## Real programs on a GPU: kernel time, outputs, memcheck", "",
           "The program corpus (`docs/PROGRAMS.md`): each program built by nvcc, `nvopt-cc "
           "--upstream` and `nvopt-cc`, run on a GPU by the pack's device script (`bash "
           "PACK/run.sh`), every output checked, every kernel timed through CUPTI; the table "
           "is remade here from the device run's results folder:", ""]

    def body(lg):
        text = [rel(l) for l in lg.output]
        cut = next((i for i, l in enumerate(text) if l.startswith("## ")), len(text))
        return ["```"] + text[:cut] + ["```", ""] + [
            ("#" + l) if l.startswith("## ") else l for l in text[cut:]] + [""]
    return log_sections(out, logs, builds, ("programs",),
                        "Record the report of a device run, then pass it with `--log`",
                        f"{SELF} --record build/reference/programs.txt -- python3 -m "
                        "nvopt_tools.programs report --pack PACK --results RESULTS --markdown",
                        body)


def render(args, argv, benches, evals, logs, costs=()):
    builds = Builds(benches + evals + list(costs) + logs)
    cmd = args.command or SELF + " " + " ".join(shlex.quote(rel(os.path.abspath(a)))
                                                  if os.path.exists(a) else shlex.quote(a)
                                                  for a in argv)
    head = paths.git_state()
    out = ["# nvopt: measured results (reference)", "",
           "The current figures of each capability, each table as the tool above it printed it. "
           "Generated, not edited: rerun the commands, then", ""]
    out += code(cmd) + [""]
    out += [f"- generated at commit {head or 'unknown (not a git checkout)'} "
            f"(`git rev-parse HEAD` when this file was written)"]
    if builds.md5s:
        out.append(f"- builds measured: {len(builds.md5s)} (" + "; ".join(
            f"`{m}`" + (f" = commit {builds.commit[m]}" if m in builds.commit else "")
            for m in builds.md5s) + ")" + (": the sections below were measured on different "
                                          "builds" if len(builds.md5s) > 1 else ""))
    cur = paths.file_md5(paths.PLUGIN)
    if cur:
        out.append(f"- `target/release/libnvopt.so` at generation: md5 `{cur}`"
                   + (" (one of the builds measured)" if cur in builds.md5s else
                      " (not a build measured here)" if builds.md5s else ""))
    out += ["- history: `CHANGELOG.md`; the figures of earlier builds are in `git log -p -- "
            "docs/RESULTS.md bench/RESULTS.md`, and the sections that module headers cite by name (\"LSR gates\", "
            f"\"GPU mode\", ...) in the diary this file replaced, `git show {DIARY}`", ""]
    out += ["Sections: [bench](#bench-nvopt-against-upstream-llvm-22-and-nvcc), "
            "[corpora](#public-cuda-corpora-tune-and-validate), "
            "[compile cost](#compile-cost-on-the-corpora-nvopt-against-upstream), "
            "[ablation](#ablation-each-departure-from-cicc-or-upstream-turned-off-alone), "
            "[fidelity](#pipeline-fidelity), "
            "[robustness](#robustness-fuzzing-and-differential-execution), "
            "[real programs](#real-programs-on-a-gpu-kernel-time-outputs-memcheck), "
            "[real programs, statically](#real-programs-statically-registers-and-sass-of-the-"
            "packed-kernels).", ""]
    out += bench_section(benches, builds)
    out += corpora_section(evals, builds)
    out += cost_section(costs, builds)
    out += ablation_section(evals, builds)
    out += fidelity_section(logs, builds)
    out += robustness_section(logs, builds)
    out += programs_section(logs, builds)
    out += programs_static_section(logs, builds)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def check(path):
    """The document names the commit it was generated at, and that commit is in the history."""
    text = open(path, encoding="utf-8").read()
    m = GENERATED.search(text)
    if not m:
        print(f"reference: {path} names no commit ('generated at commit ...')")
        return 1
    r = subprocess.run(["git", "-C", ROOT, "merge-base", "--is-ancestor", m.group(1), "HEAD"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"reference: {path}: commit {m.group(1)} is not in this checkout's history")
        return 1
    print(f"reference: {path} was generated at commit {m.group(1)}, an ancestor of HEAD")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--record" in argv:
        i = argv.index("--record")
        if i + 2 >= len(argv) or argv[i + 2] != "--" or i + 3 >= len(argv):
            sys.exit(f"usage: {SELF} --record FILE -- COMMAND [ARG...]")
        return record(argv[i + 1], argv[i + 3:])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", action="append", default=[], metavar="DIR")
    ap.add_argument("--eval", action="append", default=[], metavar="DIR")
    ap.add_argument("--cost", action="append", default=[], metavar="DIR")
    ap.add_argument("--log", action="append", default=[], metavar="FILE")
    ap.add_argument("--out", help="write here (default: stdout)")
    ap.add_argument("--command", help="the generator command to print (default: this one)")
    ap.add_argument("--check", metavar="FILE", help="only check that FILE names its commit")
    args = ap.parse_args(argv)
    if args.check:
        return check(args.check)
    for d in args.bench + args.eval + args.cost:
        if not os.path.exists(os.path.join(d, "summary.md")):
            sys.exit(f"reference: {d}/summary.md is missing")
    text = render(args, argv, [Bench(d) for d in args.bench], [Eval(d) for d in args.eval],
                  [Log(p) for p in args.log], [Cost(d) for d in args.cost])
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"reference: wrote {args.out}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
