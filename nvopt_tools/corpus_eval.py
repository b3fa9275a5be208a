"""corpus_eval: judges nvopt's defaults on real CUDA code it was not tuned on.

  python3 -m nvopt_tools.corpus_eval --config FILE [--split tune|validate|all]
      [--compilers nvcc,upstream,nvopt] [--variant NAME:KNOB=V[,KNOB=V...]]...
      [--ablate [NAME,...]] [--jobs N] [--cache DIR] [--out DIR] [--corpora NAME,...]
      [--limit N] [--arch sm_90] [--level O3] [--nvopt-cc PATH] [--plugin PATH] [--check-bc N]
      [--list-ablations] [--timeout S]

The rule it serves: each corpus of public CUDA code is split by a hash of the file path into a
**tune** half and a **validate** half; a change to nvopt is accepted when validate improves and
no figure there gets worse beyond noise, and every place where nvopt departs from cicc's printed
pipeline or from upstream LLVM shows its ablation figure on validate (--ablate).

Config (JSON, kept outside the repository: no recipe that builds fetched code is committed):
  {"arch": "sm_90", "level": "O3",                        (optional)
   "corpora": [{"name": "rodinia", "root": DIR, "include": [DIR...], "define": ["M=V"...],
                "cuda_path": DIR or "none" (optional; default: nvopt-cc's)}, ...]}
(a bare list of corpora works too). Relative paths are taken from the config file's folder.
Every .cu file under `root` is compiled. The built-in corpus `bench` (bench/kernels, CUDA
compatibility header only) is used only when --corpora names it; its files always count as
tune (the bench kernels are what nvopt was tuned on).

Split: a file is tune or validate by the lowest bit of the first byte of
sha256("<corpus name>/<path relative to root>") (0 tune, 1 validate; `/` separators): stable
across machines and runs, and a new file never moves an old one.

Compilers (columns): nvcc (NVIDIA's, `nvcc -ptx`, when installed), upstream (`nvopt-cc
--upstream`: LLVM's default<On>), nvopt (`nvopt-cc`, default knobs), and one nvopt column per
--variant (nvopt with the variant's knobs). Each .cu goes through clang once: `nvopt-cc
--upstream --keep -v` gives the upstream PTX and the unoptimized device bitcode (clang's step
is the same for both LLVM columns); nvopt and every variant then compile that .bc (`nvopt-cc
FILE.bc`). The PTX nvopt-cc gives from the .bc is byte-identical to the PTX it gives from the
.cu: checked for the default flow with --check-bc on 24 files (12 of cuda-samples, 4 of
rodinia, 4 of llm.c, 4 bench kernels), all identical; --check-bc N repeats the check on the
first N files of a run.
ptxas -v and nvdisasm then give the figures of each PTX; their results are kept by the PTX's
sha256, so a variant whose PTX is byte-identical to the default's (or to any PTX seen before)
reuses its figures without running ptxas or nvdisasm again.

Cache (--cache, default build/eval-cache): the bitcode and upstream PTX per (file content,
corpus flags, driver md5, LLVM version, arch, level); nvopt results per (bitcode, knobs,
plugin md5, driver md5, LLVM version, arch, level); nvcc results per (file content, flags, nvcc
version); figures per (PTX sha256, ptxas and nvdisasm versions, arch). A second run computes
only what changed (`eval: N compiled, M from cache`). Headers are not hashed: after editing a
corpus's headers, use a new --cache. The nvopt build is copied first into build/eval-plugin/
(folder named by the md5s), so that a rebuild during a long run changes nothing; the md5s go
into summary.md.

Figures per kernel: registers, live registers (nvdisasm life ranges), spill-store and
spill-load bytes, stack bytes (ptxas -v), calls, generic ld/st, bar.sync (PTX), SASS
instructions (nvdisasm, NOPs left out), PTX-checker findings (nvopt_tools/ptx_check.py), and per
file compile failures and opt+llc time (the driver's -v times; nvcc has none). All parsing is
nvopt_tools/realcode_check.py's. Totals and geomeans are over the kernels that every compared
column compiled and assembled; PTX-checker findings (every function) and failures are over all
files of the split. One derived count: the kernels whose registers allow fewer or more resident
warps per SM than the reference column's (realcode_check.warps_per_sm: the register file only,
block size, launch bounds and shared memory ignored), a register figure read at occupancy steps.

--ablate [NAMES]: one nvopt variant per entry of ABLATIONS (all, or the named ones): the knobs
that turn off one place where nvopt departs from cicc's printed pipeline or from upstream
LLVM; every knob is checked against the plugin's own option list (`opt -load-pass-plugin=...
--help-hidden`) and tried once, so an unknown knob or value fails before anything runs.
--list-ablations prints the table.

Output (--out, default build/eval/<split>): summary.md (the command on its first line, the
builds and tools, counts per split and corpus, the summary table per split, the changed
kernels of each variant), kernels.tsv (per kernel: figures of every column), files.tsv (per
file: status and opt+llc time of every column), changed/<variant>.tsv (kernel, figure: default
-> variant) and, with --ablate, ablation.md. Exit status: 0; 1 when an nvopt compile (default
or a variant) failed or nvopt's PTX has PTX-checker findings; 2 on a usage error.
Python 3.11, standard library only.
"""
import argparse
import concurrent.futures
import dataclasses
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading

from nvopt_tools import realcode_check as rc

ROOT = rc.ROOT
LLVM_BIN = os.environ.get("NVOPT_LLVM_BIN", "/usr/lib/llvm-22/bin")
SPLITS = ("tune", "validate")
BENCH = "bench"
FIGS = ("regs", "live", "spill_st", "spill_ld", "stack", "calls", "generic_ldst", "bar_sync",
        "sass", "ptxcheck")
PTXAS_FIGS = {"regs", "live", "spill_st", "spill_ld", "stack", "sass"}  # need ptxas/nvdisasm
CACHE_VERSION = "1"
CHANGED_SHOWN = 40  # changed kernels of a --variant listed in summary.md (all in changed/)

# One entry per place nvopt departs from cicc 13.5's printed pipeline or from upstream LLVM:
# (name, knobs that turn it off / restore cicc's or LLVM's behaviour, what it is).
ABLATIONS = [
    ("nv-local-array-unroll", "nv-disable-local-array-unroll=1",
     "full unrolling that lets SROA promote private arrays (O2/O3)"),
    ("nv-const-pointers", "nv-disable-const-pointers=1",
     "pointers loaded from __constant__ memory marked global (MemorySpaceOpt's slot)"),
    ("nv-phi-loads", "nv-disable-phi-loads=1",
     "loads through a PHI of a private object made in the predecessors (llc, before SROA)"),
    ("no-Sinking2", "nv-disable-sink=0",
     "cicc's Sinking2 slots left empty by default (=0 runs upstream sink there, the stand-in)"),
    ("nv-set-local-array-alignment", "nv-disable-set-local-array-alignment=1",
     "private arrays aligned for vector ld/st"),
    ("nv-set-global-array-alignment", "nv-disable-set-global-array-alignment=1",
     "__shared__ arrays aligned for vector ld/st"),
    ("nv-asm-convergence", "nv-disable-asm-convergence=1",
     "convergent taken off thread-local inline asm (not in cicc's table)"),
    ("nv-asm-convergence-sregs", "nv-asm-convergence-sregs=1",
     "nv-asm-convergence also on special-register reads (off by default)"),
    ("nv-stride-loop-unroll", "nv-disable-stride-loop-unroll=1",
     "runtime unroll of run-time-stride loops (not in cicc's table)"),
    ("nv-shuffle-loop-unroll", "nv-disable-shuffle-loop-unroll=1",
     "loops with a run-time-mask shuffle kept rolled (not in cicc's table)"),
    ("nv-texture-unroll-guard", "nv-disable-texture-unroll-guard=1",
     "nounroll on short texture loops (not in cicc's table)"),
    ("nv-pressure-unroll-guard", "nv-disable-pressure-unroll-guard=1",
     "nounroll on loops ptxas would unroll past a register cap (not in cicc's table)"),
    ("nv-pre-sink", "nv-disable-pre-sink=1", "nvopt's own llc pass"),
    ("nv-pred-remat", "nv-disable-pred-remat=1", "nvopt's own llc pass"),
    ("nv-remat", "do-remat=0", "cicc's IR remat as nvopt rebuilt it"),
    ("nv-remat-extend-operands", "nv-remat-extend-operands=0",
     "nvopt's own part of nv-remat: operands read past the end of their range"),
    ("nv-remat-derotate", "nv-remat-derotate=0", "nvopt's own part of nv-remat"),
    ("nv-remat-threads-only-target", "nv-remat-threads-only-target=0",
     "nv-remat: the 72-register cap on thread-count-only launch bounds (off: their whole share)"),
    ("nv-inline-advisor", "nv-disable-inline-advisor=1",
     "cicc's inline thresholds (off: LLVM's 225 x NVPTX's 11)"),
    ("inline-threshold-upstream",
     "nv-inline-threshold=250,nv-inline-threshold-multiplier=11,nv-inline-kernel-bonus=0,"
     "nv-inline-aggregate-arg-bonus=0",
     "the advisor at upstream default<O3>'s threshold (250 x 11), no cicc bonuses"),
    ("nv-fold-const-calls", "nv-disable-fold-const-calls=1",
     "calls with constant arguments evaluated (not in cicc's table)"),
    ("nv-post-inline-cse", "nv-post-inline-cse=0",
     "early-cse after the post-inline SROA (upstream's order, not in cicc's table)"),
    ("nv-phi-load-spaces", "nv-disable-phi-load-spaces=1",
     "loads feeding a PHI given their known space before the first instcombine (nvopt's own)"),
    ("hoist-common-insts-on", "nv-hoist-common-insts=1",
     "upstream's hoisting in the simplifycfg after adce (off by default)"),
    ("opt-side-lsv-removed", "nv-opt-load-store-vectorizer=1",
     "cicc's opt-side load-store-vectorizer (nvopt runs it in llc only)"),
    ("nv-dbe", "nv-dbe=0", "dead barrier elimination"),
    ("nv-dbe-dataflow", "nv-dbe-dataflow=0", "nv-dbe's dataflow form (nvopt's extension)"),
    ("nv-ipmsp", "do-ip-msp=0", "inter-procedural memory-space propagation"),
    ("BASR", "do-base-address-strength-reduce=0", "base-address strength reduction"),
    ("CBE/SCEV-CGP", "do-scev-cgp=0", "common-base elimination (and SCEV-CGP)"),
    ("nv-widen-iv-starts", "nv-widen-iv-starts=0", "IV-start widening for BASR (nvopt's own)"),
    ("infer-alignment", "nv-disable-propagate-alignment=1",
     "upstream infer-alignment in cicc's propagate-alignment slots"),
    ("nv-lower-struct-args", "nv-disable-lower-args=1",
     "nvopt's LowerStructArgs in place of upstream's nvptx-lower-args"),
    ("unroll-count-4", "nv-unroll-max-count=0",
     "runtime/partial unroll count 4 as nvcc (0: LLVM's 8)"),
    ("nv-sreg-order-off", "nv-disable-sreg-order=0",
     "nvopt's own llc pass, off by default (=0 runs it)"),
    ("nv-ext-reuse", "nv-disable-ext-reuse=1", "nvopt's own llc pass"),
    ("machine-sink", "nv-machine-sink=0",
     "upstream's MachineSink, which cicc's llc does not run (=0 leaves its place empty)"),
    ("nv-reuse-local-memory", "nv-disable-reuse-local-memory=1",
     "stand-in in cicc's reuse-local-memory slot: vprintf buffers given a lifetime"),
    ("nv-load-hoist", "nv-disable-load-hoist=1",
     "nvopt's own llc pass: loads machine-sink moved back next to their address inputs"),
    ("nv-param-opt", "nv-disable-param-opt=1", "cicc's param-opt as a machine pass"),
    ("nv-mul-wide-split", "nv-mul-wide-split-rule=0",
     "nvopt's own llc pass: mul.wide by a power of two onto a block-uniform base as cvt + shl"),
    ("nv-cssa", "cssa-coalesce=0", "PHI-operand (CSSA) coalescing"),
    ("nv-coalesce", "nv-disable-coalesce=1", "the NVPTX copy coalescer"),
    ("nv-iv-rewrite", "nv-disable-iv-rewrite=1", "integer IVs of one step moved onto one"),
    ("lsr-gates", "nv-lsr-gate=0", "every cicc LSR gate off (llc's LSR as upstream)"),
    ("lsr-trial-on", "nv-lsr-trial=1",
     "nvopt's own LSR pressure-growth gate, off by default (this entry turns it on)"),
    ("lsr-rp-limit-scale", "nv-lsr-rp-limit-scale=0",
     "lsr-rp-limit raised with the register target (nvopt's own)"),
    ("addr-signed-overflow", "ignore-signed-32-bit-overflow=1",
     "cicc's default (true) for signed index splitting; nvopt's is false"),
]


# ---------------------------------------------------------------- config and split

@dataclasses.dataclass
class Corpus:
    name: str
    root: str
    include: list
    define: list
    cuda_path: str | None


def load_config(path):
    """(corpora, settings) from a config file; relative paths from the file's folder."""
    with open(path) as f:
        data = json.load(f)
    if isinstance(data, list):
        data = {"corpora": data}
    base = os.path.dirname(os.path.abspath(path))

    def here(p):
        return p if p in (None, "none") else os.path.normpath(os.path.join(base, p))

    corpora = []
    for c in data.get("corpora", []):
        if not isinstance(c, dict) or "name" not in c or "root" not in c:
            raise ValueError(f"{path}: each corpus needs a name and a root: {c!r}")
        if c["name"] == BENCH:
            raise ValueError(f"{path}: '{BENCH}' is the built-in corpus of bench/kernels")
        corpora.append(Corpus(c["name"], here(c["root"]), [here(i) for i in c.get("include", [])],
                              list(c.get("define", [])), here(c.get("cuda_path"))))
    names = [c.name for c in corpora]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: corpus names repeat: {names}")
    return corpora, {k: data[k] for k in ("arch", "level") if k in data}


def bench_corpus():
    return Corpus(BENCH, os.path.join(ROOT, "bench", "kernels"), [], [], "none")


def split_of(corpus, rel):
    """'tune' or 'validate' for a file `rel` (relative to its corpus root) of `corpus`."""
    if corpus == BENCH:
        return "tune"
    key = f"{corpus}/{rel.replace(os.sep, '/')}".encode()
    return SPLITS[hashlib.sha256(key).digest()[0] & 1]


def corpus_files(corpus):
    """Relative paths of the .cu files under a corpus root, sorted."""
    out = []
    for d, dirs, files in os.walk(corpus.root, followlinks=True):
        dirs.sort()
        out += [os.path.relpath(os.path.join(d, f), corpus.root) for f in files
                if f.endswith(".cu")]
    return sorted(out)


def pick_corpora(corpora, names, builtin=None):
    """The corpora `names` ("a,b") picks from the config's `corpora` (and the `builtin` one);
    ValueError naming the valid ones for an unknown name."""
    known = {c.name: c for c in corpora}
    if builtin:
        known[builtin.name] = builtin
    wanted = [n for n in names.split(",") if n]
    bad = [n for n in wanted if n not in known]
    if bad:
        raise ValueError(f"unknown corpus {', '.join(bad)}; the config has: "
                         f"{', '.join(c.name for c in corpora) or '(none)'}"
                         + (f" (and the built-in {builtin.name})" if builtin else ""))
    return [known[n] for n in wanted]


def split_work(corpora, splits, limit=None):
    """([(corpus, rel, split)] for the files of `splits`, the first `limit` of each corpus and
    split when given; {corpus name: {split: files}})."""
    counts, work = {}, []
    for c in corpora:
        per = {s: [] for s in SPLITS}
        for rel in corpus_files(c):
            per[split_of(c.name, rel)].append(rel)
        counts[c.name] = {s: len(per[s]) for s in SPLITS}
        for s in splits:
            work += [(c, rel, s) for rel in (per[s][:limit] if limit else per[s])]
    return work, counts


# ---------------------------------------------------------------- variants and knobs

def parse_knobs(text):
    """'a=1,b=2' -> (('a', '1'), ('b', '2')), sorted by name."""
    out = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, eq, value = item.partition("=")
        name = name.lstrip("-")
        if not name or not eq or not value:
            raise ValueError(f"knob {item!r}: expected NAME=VALUE")
        out[name] = value
    return tuple(sorted(out.items()))


def parse_variant(text):
    name, colon, knobs = text.partition(":")
    if not colon or not re.fullmatch(r"[\w.+/-]+", name) or name == "default":
        raise ValueError(f"--variant {text!r}: expected NAME:KNOB=V[,KNOB=V...]")
    return name, parse_knobs(knobs)


def help_options(text):
    """(options of the 'nvopt options' section, every option) in `--help-hidden` text."""
    names, nvopt, section = set(), set(), None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            section = line[:-1]
        m = re.match(r"\s+--?([\w.-]+)(?:=|\s|$)", line)
        if m:
            names.add(m.group(1))
            if section == "nvopt options":
                nvopt.add(m.group(1))
    return nvopt, names


def plugin_options(plugin):
    """(nvopt's knobs, every option opt knows) from `opt -load-pass-plugin=P --help-hidden`."""
    proc = subprocess.run([os.path.join(LLVM_BIN, "opt"), f"-load-pass-plugin={plugin}",
                           "--help-hidden"], capture_output=True, text=True)
    nvopt, names = help_options(proc.stdout)
    if not nvopt:
        raise SystemExit(f"corpus_eval: {plugin} lists no 'nvopt options' in opt --help-hidden:\n"
                         f"{proc.stderr[-2000:]}")
    return nvopt, names


def check_knobs(variants, plugin, nvopt_knobs, all_options, llvm_ok=True):
    """Fails loudly on a knob the plugin does not have (nor LLVM, when `llvm_ok`: a --variant
    may set LLVM's own options; an ablation entry only the plugin's), or a value it rejects."""
    for name, knobs in variants:
        unknown = [k for k, _ in knobs
                   if k not in nvopt_knobs and not (llvm_ok and k in all_options)]
        if unknown:
            raise SystemExit(f"corpus_eval: variant {name}: unknown knob(s) {', '.join(unknown)} "
                             f"(not in opt -load-pass-plugin={plugin} --help-hidden)")
        proc = subprocess.run([os.path.join(LLVM_BIN, "opt"), f"-load-pass-plugin={plugin}",
                               *[f"-{k}={v}" for k, v in knobs], "-passes=nvopt<O3>",
                               "-disable-output", "/dev/null"], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"corpus_eval: variant {name}: opt rejects its knobs:\n"
                             f"{proc.stderr.strip()[-2000:]}")


# ---------------------------------------------------------------- identities

def md5(path):
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def key_of(*parts):
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def version(cmd, first=False):
    """A tool's version text: its first line, or its last two (NVIDIA's tools)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return None
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()]
    if not lines:
        return None
    return lines[0].strip() if first else " / ".join(lines[-2:])


def private_build(driver, plugin):
    """Copies the driver and the plugin into build/eval-plugin/<md5s>/: (driver, plugin, md5s)."""
    sums = (md5(driver), md5(plugin))
    folder = os.path.join(ROOT, "build", "eval-plugin", f"{sums[1][:12]}-{sums[0][:12]}")
    os.makedirs(folder, exist_ok=True)
    out = []
    for src, want in zip((driver, plugin), sums):
        dst = os.path.join(folder, os.path.basename(src))
        if not os.path.exists(dst) or md5(dst) != want:
            tmp = dst + f".tmp{os.getpid()}"
            shutil.copy2(src, tmp)
            os.replace(tmp, dst)
        if md5(dst) != want:
            raise SystemExit(f"corpus_eval: {src} changed while it was copied; run again")
        out.append(dst)
    return out[0], out[1], sums


# ---------------------------------------------------------------- the cache

class Cache:
    def __init__(self, folder):
        self.folder = folder
        self.lock = threading.Lock()
        self.key_locks = {}
        self.counts = dict.fromkeys(("compiled", "cached", "assembled", "reused"), 0)

    def path(self, kind, key, ext=".json"):
        return os.path.join(self.folder, kind, key[:2], key + ext)

    def get(self, kind, key):
        try:
            with open(self.path(kind, key)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def put(self, kind, key, value):
        path = self.path(kind, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.tmp{os.getpid()}.{threading.get_ident()}"
        with open(tmp, "w") as f:
            json.dump(value, f, sort_keys=True)
        os.replace(tmp, path)

    def key_lock(self, key):
        with self.lock:
            return self.key_locks.setdefault(key, threading.Lock())

    def count(self, what):
        with self.lock:
            self.counts[what] += 1


# ---------------------------------------------------------------- compiling

TIME = re.compile(r"nvopt-cc: (opt|llc) \(.*?\) took ([0-9.]+) s")


def run(cmd, cwd, timeout):
    """subprocess.run; a command past `timeout` seconds counts as failed (exit 124)."""
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"error: timed out after {timeout} s")


def opt_llc_time(stderr):
    return round(sum(float(m.group(2)) for m in TIME.finditer(stderr)), 4)


class Evaluator:
    def __init__(self, cache, arch, level, nv_bin, driver, plugin, sums, timeout=900):
        self.timeout = timeout
        self.cache, self.arch, self.level, self.nv_bin = cache, arch, level, nv_bin
        self.driver, self.plugin = driver, plugin
        rc.DRIVER = driver
        self.llvm = version([os.path.join(LLVM_BIN, "clang++"), "--version"], first=True)
        def nv_version(name):
            return version([rc.tool(nv_bin, name), "--version"]) if rc.tool(nv_bin, name) else None
        self.ptxas, self.nvdisasm, self.nvcc = map(nv_version, ("ptxas", "nvdisasm", "nvcc"))
        self.sums = sums
        self.cuda_env = os.environ.get("NVOPT_CUDA_PATH")

    def args(self, corpus=None):
        return argparse.Namespace(
            arch=self.arch, level=self.level,
            include=corpus.include if corpus else [], define=corpus.define if corpus else [],
            cuda_path=corpus.cuda_path if corpus else None)

    # PTX -> figures, kept by the PTX's sha256
    def analyze(self, ptx_path, sha):
        key = key_of("ana", CACHE_VERSION, sha, self.ptxas, self.nvdisasm, self.arch)
        with self.cache.key_lock(key):
            got = self.cache.get("ana", key)
            if got is not None:
                self.cache.count("reused")
                return got
            res = rc.analyze_ptx(ptx_path, self.arch, self.nv_bin)
            got = {"kernels": res["kernels"], "funcs": list(res["funcs"]),
                   "findings": [str(f).split(":", 1)[1] for f in res["ptxcheck"]]}
            self.cache.put("ana", key, got)
            self.cache.count("assembled")
            return got

    def finish(self, kind, key, ptx, proc, extra=None):
        """The result of one compile: its error, or its PTX's sha256 and figures."""
        out = dict(extra or {})
        if proc.returncode != 0 or not os.path.exists(ptx):
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            lines = [line for line in lines if not line.startswith("nvopt-cc: ") or "error" in line]
            out["error"] = rc.failure_summary(lines, proc.returncode)
        else:
            out["ptx"] = sha256_file(ptx)
            out["time"] = opt_llc_time(proc.stderr)
            self.analyze(ptx, out["ptx"])
        self.cache.put(kind, key, out)
        return out

    def figures(self, result):
        """A compile result joined with its PTX's figures."""
        if result is None or "error" in result:
            return result
        key = key_of("ana", CACHE_VERSION, result["ptx"], self.ptxas, self.nvdisasm, self.arch)
        ana = self.cache.get("ana", key)
        if ana is None:
            return {"error": "figures missing from the cache (removed?): run again"}
        return {**result, **ana}

    def front_key(self, corpus, path):
        return key_of("front", CACHE_VERSION, sha256_file(path), corpus.include, corpus.define,
                      corpus.cuda_path, self.cuda_env, self.sums[0], self.llvm, self.arch,
                      self.level)

    def front(self, corpus, rel):
        """clang once, through `nvopt-cc --upstream --keep`: the device bitcode and the upstream
        column. Returns {"bc": path} or {"error"}, with "upstream": result."""
        path = os.path.join(corpus.root, rel)
        key = self.front_key(corpus, path)
        got = self.cache.get("front", key)
        bc = self.cache.path("bc", key, ".bc")
        if got is not None and ("error" in got or os.path.exists(bc)):
            self.cache.count("cached")
            return got
        with tempfile.TemporaryDirectory(prefix="eval-") as tmp:
            ptx = os.path.join(tmp, "upstream.ptx")
            cmd = rc.compile_cmd("upstream", path, ptx, self.args(corpus), self.nv_bin,
                                 ["--keep", "-v"])
            proc = run(cmd, tmp, self.timeout)
            m = re.search(r"intermediates kept in (\S+)", proc.stderr)
            kept = m.group(1) if m else None
            stem = os.path.splitext(os.path.basename(rel))[0]
            kept_bc = os.path.join(kept, stem + ".bc") if kept else None
            out = {}
            if kept_bc and os.path.exists(kept_bc) and "front end) failed" not in proc.stderr:
                os.makedirs(os.path.dirname(bc), exist_ok=True)
                shutil.move(kept_bc, bc + f".tmp{os.getpid()}")
                os.replace(bc + f".tmp{os.getpid()}", bc)
                out["bc_sha"] = sha256_file(bc)
                up_key = key_of("upstream", key)
                out["upstream"] = self.finish("upstream", up_key, ptx, proc)
            else:
                lines = [line for line in proc.stderr.strip().splitlines()
                         if not line.startswith("nvopt-cc: ") or "error" in line]
                out["error"] = rc.failure_summary(lines, proc.returncode)
            if kept and kept.startswith(tempfile.gettempdir()) and "nvopt-cc-" in kept:
                shutil.rmtree(kept, ignore_errors=True)
        self.cache.put("front", key, out)
        self.cache.count("compiled")
        return out

    def nvopt(self, front, front_key, knobs):
        """nvopt (with `knobs`) from the file's bitcode."""
        if "error" in front:
            return {"error": front["error"]}
        key = key_of("nvopt", CACHE_VERSION, front["bc_sha"], list(knobs), self.sums, self.llvm,
                     self.arch, self.level)
        got = self.cache.get("nvopt", key)
        if got is not None:
            self.cache.count("cached")
            return got
        bc = self.cache.path("bc", front_key, ".bc")
        with tempfile.TemporaryDirectory(prefix="eval-") as tmp:
            ptx = os.path.join(tmp, "nvopt.ptx")
            extra = ["-v", "--plugin", self.plugin] + [a for k, v in knobs
                                                         for a in ("--knob", f"{k}={v}")]
            cmd = rc.compile_cmd("nvopt", bc, ptx, self.args(), self.nv_bin, extra)
            proc = run(cmd, tmp, self.timeout)
            out = self.finish("nvopt", key, ptx, proc)
        self.cache.count("compiled")
        return out

    def nvcc_result(self, corpus, rel):
        path = os.path.join(corpus.root, rel)
        key = key_of("nvcc", CACHE_VERSION, sha256_file(path), corpus.include, corpus.define,
                     self.nvcc, self.arch, self.level)
        got = self.cache.get("nvcc", key)
        if got is not None:
            self.cache.count("cached")
            return got
        with tempfile.TemporaryDirectory(prefix="eval-") as tmp:
            ptx = os.path.join(tmp, "nvcc.ptx")
            cmd = rc.compile_cmd("nvcc", path, ptx, self.args(corpus), self.nv_bin)
            proc = run(cmd, tmp, self.timeout)
            out = self.finish("nvcc", key, ptx, proc)
            out.pop("time", None)
        self.cache.count("compiled")
        return out

    def check_bc(self, corpus, rel, front):
        """Whether nvopt's PTX from the .cu equals its PTX from the bitcode (default knobs)."""
        with tempfile.TemporaryDirectory(prefix="eval-") as tmp:
            ptx = os.path.join(tmp, "cu.ptx")
            cmd = rc.compile_cmd("nvopt", os.path.join(corpus.root, rel), ptx, self.args(corpus),
                                 self.nv_bin, ["--plugin", self.plugin])
            proc = run(cmd, tmp, self.timeout)
            if proc.returncode != 0:
                return None
            return sha256_file(ptx)


# ---------------------------------------------------------------- figures and tables

def geomean(pairs):
    pairs = [(v, r) for v, r in pairs if v and r]
    if not pairs:
        return None
    return math.exp(sum(math.log(v / r) for v, r in pairs) / len(pairs))


def common_kernels(kernels, cols, need_regs):
    """The kernel ids every column in `cols` compiled (and assembled, when ptxas ran)."""
    out = []
    for kid, per in kernels.items():
        if all(per.get(c) is not None and (not need_regs or "regs" in per[c]) for c in cols):
            out.append(kid)
    return sorted(out)


def total(kernels, ids, col, fig):
    return sum(kernels[k][col].get(fig, 0) for k in ids)


def fmt_ratio(x):
    return "-" if x is None else f"{x:.4f}"


def summary_table(kernels, files, cols, labels, ref, nvopt_cols, need_regs, arch="sm_90"):
    """The summary table (markdown lines) over `kernels` ({id: {col: figures}}) and `files`
    ({file id: {col: result}}): geomeans against `ref`, totals over the kernels every column
    has, PTX-checker findings and failures over every file; the resident warps per SM that
    each kernel's registers allow on `arch` (block size ignored), against `ref`'s."""
    ids = common_kernels(kernels, cols, need_regs)
    others = [c for c in cols if c not in nvopt_cols]
    avoid = " and ".join(labels[c].split()[0] for c in others)
    rows = []

    def row(name, cells):
        rows.append(f"| {name} | " + " | ".join(cells) + " |")

    geo = {c: geomean([(kernels[k][c].get("regs"), kernels[k][ref].get("regs")) for k in ids])
           for c in cols}
    row(f"registers, geomean against {labels[ref].split()[0]}",
        ["1" if c == ref else fmt_ratio(geo[c]) for c in cols])
    def tot(c, fig):
        return str(total(kernels, ids, c, fig)) if need_regs or fig not in PTXAS_FIGS else "-"

    def count(c, n):
        return "" if c not in nvopt_cols else str(n) if need_regs else "-"

    row("spill-store bytes", [tot(c, "spill_st") for c in cols])
    row("stack bytes", [tot(c, "stack") for c in cols])
    frame = {c: sum(1 for k in ids if kernels[k][c].get("stack", 0) > 0
                    and all(kernels[k][o].get("stack", 0) == 0 for o in others)) for c in cols}
    row(f"kernels with a frame that {avoid} {'both avoid' if len(others) > 1 else 'avoids'}",
        [count(c, frame[c]) for c in cols])
    def spills(k, c):
        return kernels[k][c].get("spill_st", 0) + kernels[k][c].get("spill_ld", 0)

    spill = {c: sum(1 for k in ids if spills(k, c) > 0 and spills(k, ref) == 0) for c in cols}
    row(f"kernels spilling where {labels[ref].split()[0]} does not",
        [count(c, spill[c]) for c in cols])
    row("call instructions", [tot(c, "calls") for c in cols])
    row("SASS instructions", [tot(c, "sass") for c in cols])
    cells = []
    for c in cols:
        findings = sum(len(r[c].get("findings", [])) for r in files.values() if c in r)
        failures = sum(1 for r in files.values() if c in r and "error" in r[c])
        cells.append(f"{total(kernels, ids, c, 'generic_ldst')}, "
                     f"{total(kernels, ids, c, 'bar_sync')}, {findings}, {failures}")
    row("generic ld/st, bar.sync, PTX-checker findings, failures", cells)
    head = ["| figure | " + " | ".join(labels[c] for c in cols) + " |",
            "|---|" + "---:|" * len(cols)]
    more = ["", "| more | " + " | ".join(labels[c] for c in cols) + " |",
            "|---|" + "---:|" * len(cols)]
    live = {c: geomean([(kernels[k][c].get("live"), kernels[k][ref].get("live")) for k in ids])
            for c in cols}
    more.append(f"| live registers, geomean against {labels[ref].split()[0]} | "
                + " | ".join("1" if c == ref else fmt_ratio(live[c]) for c in cols) + " |")
    more.append("| spill-load bytes | " + " | ".join(tot(c, "spill_ld") for c in cols) + " |")

    def occupancy(c):
        if c == ref:
            return ""
        w = [(rc.warps_per_sm(kernels[k][c].get("regs"), arch),
              rc.warps_per_sm(kernels[k][ref].get("regs"), arch)) for k in ids]
        w = [(a, b) for a, b in w if a is not None and b is not None]
        if not w:
            return "-"
        return f"{sum(1 for a, b in w if a < b)} / {sum(1 for a, b in w if a > b)}"

    more.append(f"| kernels whose registers allow fewer / more resident warps than "
                f"{labels[ref].split()[0]}'s | " + " | ".join(occupancy(c) for c in cols) + " |")
    more.append("| kernels compared | " + " | ".join(str(len(ids)) for _ in cols) + " |")
    times = []
    for c in cols:
        ts = [r[c]["time"] for r in files.values() if c in r and "time" in r[c]]
        times.append(f"{sum(ts):.1f}" if ts else "-")
    more.append("| opt+llc seconds, every file compiled | " + " | ".join(times) + " |")
    return head + rows + more, ids


def changed(kernels, ids, base, col):
    """[(kernel id, [(figure, base value, col value)])] for kernels whose figures differ."""
    out = []
    for k in ids:
        diffs = [(f, kernels[k][base].get(f), kernels[k][col].get(f)) for f in FIGS
                 if kernels[k][base].get(f) != kernels[k][col].get(f)]
        if diffs:
            out.append((k, diffs))
    return out


def better_worse(kernels, ids, base, col, fig):
    def val(k, c):
        f = kernels[k][c]
        return f.get("spill_st", 0) + f.get("spill_ld", 0) if fig == "spills" else f.get(fig, 0)
    better = sum(1 for k in ids if val(k, col) < val(k, base))
    worse = sum(1 for k in ids if val(k, col) > val(k, base))
    return better, worse


def ablation_table(kernels, files, entries, ref, labels, need_regs):
    """Markdown lines: one row per ablation entry (and nvopt's default first) over the kernels
    that the reference, nvopt and every entry compiled."""
    cols = [ref, "nvopt"] + [f"nvopt:{n}" for n, _ in entries]
    ids = common_kernels(kernels, cols, need_regs)
    out = [f"Over {len(ids)} kernels that {labels[ref].split()[0]}, nvopt and every entry "
           "compiled. better/worse: kernels whose figure is lower/higher with the departure "
           "turned off than with nvopt's defaults (registers; spill bytes stored and loaded; "
           "stack frame bytes), so `worse` counts kernels the departure helps.",
           "",
           f"| entry | knobs | registers, geomean against {labels[ref].split()[0]} | "
           "spill-store bytes | stack bytes | kernels changed | better/worse: registers, "
           "spills, frame | SASS instructions | opt+llc s | files with other PTX | failures |",
           "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"]
    for name, knobs in [("(nvopt defaults)", ())] + list(entries):
        col = "nvopt" if not knobs else f"nvopt:{name}"
        geo = geomean([(kernels[k][col].get("regs"), kernels[k][ref].get("regs")) for k in ids])
        diff = changed(kernels, ids, "nvopt", col)
        bw = [better_worse(kernels, ids, "nvopt", col, f) for f in ("regs", "spills", "stack")]
        ts = [r[col]["time"] for r in files.values() if col in r and "time" in r[col]]
        other = sum(1 for r in files.values() if col in r and "nvopt" in r
                    and r[col].get("ptx") != r["nvopt"].get("ptx"))
        fails = sum(1 for r in files.values() if col in r and "error" in r[col])
        knob_text = ",".join(f"{k}={v}" for k, v in knobs) or "-"
        def tot(fig):
            return str(total(kernels, ids, col, fig)) if need_regs else "-"
        out.append(f"| {name} | `{knob_text}` | {fmt_ratio(geo)} | {tot('spill_st')} | "
                   f"{tot('stack')} | {len(diff)} | "
                   + (", ".join(f"{b}/{w}" for b, w in bw) if need_regs else "-")
                   + f" | {tot('sass')} | {sum(ts):.1f} | {other} | {fails} |")
    return out


# ---------------------------------------------------------------- main

def main(argv):
    p = argparse.ArgumentParser(prog="python3 -m nvopt_tools.corpus_eval", description=__doc__.split("\n\n")[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", help="JSON list of corpora (see the module docstring)")
    p.add_argument("--split", default="validate", choices=("tune", "validate", "all"))
    p.add_argument("--compilers", default="nvcc,upstream,nvopt")
    p.add_argument("--variant", action="append", default=[], metavar="NAME:KNOB=V[,KNOB=V...]")
    p.add_argument("--ablate", nargs="?", const="all", metavar="NAME,...",
                   help="ablation variants: every entry, or the named ones")
    p.add_argument("--list-ablations", action="store_true")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--cache", default=os.path.join(ROOT, "build", "eval-cache"))
    p.add_argument("--out", help="default: build/eval/<split>")
    p.add_argument("--corpora", help="comma-separated corpus names (bench: the built-in one)")
    p.add_argument("--limit", type=int, help="the first N files of each corpus (after the split)")
    p.add_argument("--arch")
    p.add_argument("--level")
    p.add_argument("--nvopt-cc", default=os.environ.get("NVOPT_CC")
                   or os.path.join(ROOT, "target", "release", "nvopt-cc"))
    p.add_argument("--plugin", default=os.environ.get("NVOPT_PLUGIN")
                   or os.path.join(ROOT, "target", "release", "libnvopt.so"))
    p.add_argument("--timeout", type=int, default=900,
                   help="seconds one compile may take before it counts as failed (default 900)")
    p.add_argument("--check-bc", type=int, default=0, metavar="N",
                   help="also compile the first N files from .cu with nvopt and compare the PTX "
                        "with the PTX from their bitcode")
    args = p.parse_args(argv)
    if args.list_ablations:
        for name, knobs, why in ABLATIONS:
            print(f"{name}\t{knobs}\t{why}")
        if os.path.exists(args.plugin):
            nvopt_knobs, all_options = plugin_options(args.plugin)
            check_knobs([(n, parse_knobs(k)) for n, k, _ in ABLATIONS], args.plugin, nvopt_knobs,
                        all_options, llvm_ok=False)
            print(f"eval: {len(ABLATIONS)} ablation entries, every knob known to and accepted by "
                  f"{args.plugin}")
        return 0
    if not args.config and not (args.corpora and set(args.corpora.split(",")) == {BENCH}):
        p.error("--config is required (unless --corpora bench)")
    corpora, settings = ([], {})
    if args.config:
        try:
            corpora, settings = load_config(args.config)
        except (OSError, ValueError) as e:
            p.error(str(e))
    if args.corpora:
        try:
            corpora = pick_corpora(corpora, args.corpora, bench_corpus())
        except ValueError as e:
            p.error(str(e))
    for c in corpora:
        if not os.path.isdir(c.root):
            p.error(f"corpus {c.name}: not a directory: {c.root}")
    arch = args.arch or settings.get("arch", "sm_90")
    level = args.level or settings.get("level", "O3")
    compilers = [c for c in args.compilers.split(",") if c]
    bad = [c for c in compilers if c not in rc.COMPILERS]
    if bad or not compilers:
        p.error(f"unknown compiler(s) {', '.join(bad) or '(none)'}; valid: nvcc, upstream, nvopt")
    try:
        variants = [parse_variant(v) for v in args.variant]
    except ValueError as e:
        p.error(str(e))
    ablations = []
    if args.ablate:
        table = {n: parse_knobs(k) for n, k, _ in ABLATIONS}
        names = list(table) if args.ablate == "all" else [n for n in args.ablate.split(",") if n]
        bad = [n for n in names if n not in table]
        if bad:
            p.error(f"unknown ablation {', '.join(bad)}; --list-ablations lists them")
        ablations = [(n, table[n]) for n in names]
    if (variants or ablations) and "nvopt" not in compilers:
        p.error("--variant and --ablate need the nvopt column")
    names = [n for n, _ in variants] + [n for n, _ in ablations]
    if len(set(names)) != len(names):
        p.error(f"variant names repeat: {names}")
    for path in (args.nvopt_cc, args.plugin):
        if not os.path.exists(path):
            p.error(f"not built: {path} (run scripts/build.sh)")

    nv_bin = rc.nvidia_bin()
    if "nvcc" in compilers and not rc.tool(nv_bin, "nvcc"):
        print("eval: nvcc is not installed: no nvcc column", file=sys.stderr)
        compilers.remove("nvcc")
    need_regs = bool(rc.tool(nv_bin, "ptxas"))
    if not need_regs:
        print("eval: ptxas is not installed: no ptxas or SASS figures", file=sys.stderr)
    driver, plugin, sums = private_build(args.nvopt_cc, args.plugin)
    if "nvopt" in compilers:
        nvopt_knobs, all_options = plugin_options(plugin)
        check_knobs(variants, plugin, nvopt_knobs, all_options)
        check_knobs(ablations, plugin, nvopt_knobs, all_options, llvm_ok=False)
    cache = Cache(os.path.abspath(args.cache))
    ev = Evaluator(cache, arch, level, nv_bin, driver, plugin, sums, args.timeout)

    # files and the split
    splits = SPLITS if args.split == "all" else (args.split,)
    work, counts = split_work(corpora, splits, args.limit)
    if not work:
        print("eval: no files in the chosen split", file=sys.stderr)

    cols = [c for c in ("nvcc", "upstream", "nvopt") if c in compilers]
    var_cols = [(f"nvopt:{n}", k) for n, k in variants + ablations]
    labels = {"nvcc": "nvcc", "upstream": f"upstream {level}", "nvopt": f"nvopt {level}"}
    labels.update({f"nvopt:{n}": f"nvopt {level} {n}" for n, _ in variants + ablations})

    def pmap(fn, items):
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            return list(pool.map(fn, items))

    fid = [(c.name, rel) for c, rel, _ in work]
    results = {f: {} for f in fid}
    # phase 1: clang once per file (with the upstream column), nvcc
    jobs = [("front", w) for w in work] + ([("nvcc", w) for w in work] if "nvcc" in cols else [])
    done = pmap(lambda j: ev.front(j[1][0], j[1][1]) if j[0] == "front"
                else ev.nvcc_result(j[1][0], j[1][1]), jobs)
    fronts = {}
    for (kind, (c, rel, _)), r in zip(jobs, done):
        if kind == "front":
            fronts[(c.name, rel)] = (r, ev.front_key(c, os.path.join(c.root, rel)))
            if "upstream" in cols:
                results[(c.name, rel)]["upstream"] = r.get("upstream") or {"error": r.get("error")}
        else:
            results[(c.name, rel)]["nvcc"] = r
    # phase 2: nvopt's defaults, then every variant (identical PTX reuses the default's figures)
    if "nvopt" in cols:
        for col, knobs in [("nvopt", ())] + var_cols:
            done = pmap(lambda f: ev.nvopt(fronts[f][0], fronts[f][1], knobs), fid)
            for f, r in zip(fid, done):
                results[f][col] = r
    print(f"eval: {cache.counts['compiled']} compiled, {cache.counts['cached']} from cache; "
          f"{cache.counts['assembled']} PTX files measured, "
          f"{cache.counts['reused']} measurements reused")

    if args.check_bc and "nvopt" in cols:
        picked = [w for w in work if "error" not in fronts[(w[0].name, w[1])][0]][:args.check_bc]
        shas = pmap(lambda w: ev.check_bc(w[0], w[1], fronts[(w[0].name, w[1])][0]), picked)
        same = sum(1 for w, s in zip(picked, shas)
                   if s == results[(w[0].name, w[1])]["nvopt"].get("ptx"))
        print(f"eval: check-bc: nvopt's PTX from .cu equals its PTX from .bc in {same} of "
              f"{len(picked)} files")
        for w, s in zip(picked, shas):
            if s != results[(w[0].name, w[1])]["nvopt"].get("ptx"):
                print(f"  differs: {w[0].name}/{w[1]}")

    # per-kernel figures
    all_cols = cols + [c for c, _ in var_cols]
    files = {f: {c: ev.figures(results[f][c]) for c in all_cols if c in results[f]} for f in fid}
    kernels, split_of_file = {}, {(c.name, rel): s for c, rel, s in work}
    for f, per in files.items():
        for col, r in per.items():
            for name, figs in (r or {}).get("kernels", {}).items():
                kernels.setdefault((f[0], f[1], name), {})[col] = figs
    pretty = rc.demangle(sorted({k[2] for k in kernels}))

    out_dir = args.out or os.path.join(ROOT, "build", "eval", args.split)
    os.makedirs(os.path.join(out_dir, "changed"), exist_ok=True)
    command = "python3 -m nvopt_tools.corpus_eval " + " ".join(shlex.quote(a) for a in argv)
    md = [command, "", f"# corpus evaluation: {arch} {level}, split {args.split}", ""]
    md.append(f"- nvopt build (private copy): {driver} md5 {sums[0]}, {plugin} md5 {sums[1]}")
    md.append(f"- LLVM: {ev.llvm}; ptxas: {ev.ptxas}; nvcc: {ev.nvcc if 'nvcc' in cols else '-'}")
    md.append(f"- cache {cache.folder}: {cache.counts['compiled']} compiled, "
              f"{cache.counts['cached']} from cache; {cache.counts['assembled']} PTX files "
              f"measured, {cache.counts['reused']} measurements reused")
    for n, k in variants + ablations:
        md.append(f"- variant {n}: " + ",".join(f"{a}={b}" for a, b in k))
    md += ["", "| corpus | tune files | tune kernels | validate files | validate kernels |",
           "|---|---:|---:|---:|---:|"]
    print(f"eval: {len(work)} files, {len(kernels)} kernels; {arch} {level}; columns: "
          + ", ".join(labels[c] for c in all_cols))
    for c in corpora:
        cells = []
        for s in SPLITS:
            nk = (sum(1 for k in kernels if k[0] == c.name and split_of_file[(k[0], k[1])] == s)
                  if s in splits else "-")
            cells += [str(counts[c.name][s]), str(nk)]
        md.append(f"| {c.name} | " + " | ".join(cells) + " |")
        print(f"eval: {c.name}: tune {cells[0]} files {cells[1]} kernels, "
              f"validate {cells[2]} files {cells[3]} kernels")
    md.append("")
    summary_cols = cols + [f"nvopt:{n}" for n, _ in variants]
    nvopt_cols = [c for c in summary_cols if c.startswith("nvopt")]
    ref = cols[0]
    groups = list(splits) + (["all"] if len(splits) > 1 else [])
    ablation_md = []
    for g in groups:
        gk = {k: v for k, v in kernels.items() if g == "all" or split_of_file[(k[0], k[1])] == g}
        gf = {f: v for f, v in files.items() if g == "all" or split_of_file[f] == g}
        table, ids = summary_table(gk, gf, summary_cols, labels, ref, nvopt_cols, need_regs,
                                   arch)
        md += [f"## {g}: {sum(1 for _ in gf)} files", ""] + table + [""]
        print(f"\n## {g}: {len(gf)} files\n")
        print("\n".join(table))
        for col, _ in var_cols:
            if col.split(":", 1)[1] in dict(variants):
                diff = changed(gk, common_kernels(gk, ["nvopt", col], need_regs), "nvopt", col)
                md += ["", f"{labels[col]}: {len(diff)} kernels changed "
                           f"(changed/{col.split(':', 1)[1]}.tsv)"]
                md += [f"- {k[0]}/{k[1]}: {pretty.get(k[2], k[2])}: "
                       + "; ".join(f"{fig}: {a} -> {b}" for fig, a, b in d)
                       for k, d in diff[:CHANGED_SHOWN]]
                if len(diff) > CHANGED_SHOWN:
                    md.append(f"- ... {len(diff) - CHANGED_SHOWN} more")
                md.append("")
        if ablations:
            ablation_md += [f"## ablation, {g}: {len(gf)} files", ""]
            ablation_md += ablation_table(gk, gf, ablations, ref, labels, need_regs) + [""]
    md.append("")
    for col, _ in var_cols:
        ids = common_kernels(kernels, ["nvopt", col], need_regs)
        with open(os.path.join(out_dir, "changed", col.split(":", 1)[1].replace("/", "_") + ".tsv"),
                  "w") as f:
            f.write("split\tcorpus\tfile\tkernel\tchanges\n")
            for k, diffs in changed(kernels, ids, "nvopt", col):
                f.write(f"{split_of_file[(k[0], k[1])]}\t{k[0]}\t{k[1]}\t{pretty.get(k[2], k[2])}\t"
                        + "; ".join(f"{fig}: {a} -> {b}" for fig, a, b in diffs) + "\n")
    with open(os.path.join(out_dir, "kernels.tsv"), "w") as f:
        f.write("split\tcorpus\tfile\tkernel\tdemangled\t"
                + "\t".join(f"{c}:{fig}" for c in all_cols for fig in FIGS) + "\n")
        for k in sorted(kernels):
            cells = [str(kernels[k].get(c, {}).get(fig, "-")) if c in kernels[k] else "-"
                     for c in all_cols for fig in FIGS]
            f.write("\t".join([split_of_file[(k[0], k[1])], *k, pretty.get(k[2], k[2]), *cells])
                    + "\n")
    with open(os.path.join(out_dir, "files.tsv"), "w") as f:
        f.write("split\tcorpus\tfile\t"
                + "\t".join(f"{c}:status\t{c}:time" for c in all_cols) + "\n")
        for fi in fid:
            cells = []
            for c in all_cols:
                r = files[fi].get(c) or {}
                status = ("failed: " + r["error"].replace("\n", " | ")[:300] if "error" in r
                          else "ok")
                cells += [status, str(r.get("time", "-"))]
            f.write(f"{split_of_file[fi]}\t{fi[0]}\t{fi[1]}\t" + "\t".join(cells) + "\n")
    failures = [(fi, c, files[fi][c]["error"]) for fi in fid for c in all_cols
                if c in files[fi] and "error" in (files[fi][c] or {})]
    if failures:
        md += [f"failures: {len(failures)}", ""]
        # Paths under a corpus root are shown relative to it, so the text kept does not
        # depend on where the corpus lives.
        roots = {c.name: c.root.rstrip(os.sep) + os.sep for c in corpora}
        md += [f"- {fi[0]}/{fi[1]} [{labels[c]}]: "
               + e.replace(roots.get(fi[0], "\0"), "").replace("\n", " | ")[:300]
               for fi, c, e in failures]
    findings = [(fi, c, x) for fi in fid for c in all_cols
                for x in (files[fi].get(c) or {}).get("findings", [])]
    if findings:
        md += ["", f"PTX-checker findings: {len(findings)}", ""]
        md += [f"- {fi[0]}/{fi[1]} [{labels[c]}]: {x}" for fi, c, x in findings]
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    if ablations:
        with open(os.path.join(out_dir, "ablation.md"), "w") as f:
            f.write("\n".join([command, ""] + ablation_md))
        print()
        print("\n".join(ablation_md))
    print(f"eval: failures {len(failures)}, PTX-checker findings {len(findings)}; wrote {out_dir}")
    bad = any(c.startswith("nvopt") for _, c, _ in failures) or \
        any(c.startswith("nvopt") for _, c, _ in findings)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
