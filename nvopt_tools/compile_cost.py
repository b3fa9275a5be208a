"""compile_cost: nvopt's compile cost against upstream LLVM on a corpus split, both columns in one
run, by CPU time and by instructions executed.

  python3 -m nvopt_tools.compile_cost --config FILE [--split tune|validate|all]
      [--corpora NAME,...] [--limit N] [--jobs N] [--reps N] [--no-count] [--valgrind PATH]
      [--cache DIR] [--out DIR] [--resume] [--nvopt-cc PATH] [--plugin PATH] [--timeout S]

Issue 31 asks for whole-flow compile time at most 1.1x upstream's on the validate split. The
bench (nvopt_tools/bench) times its own 52 kernels; this tool measures the corpora's files, the
split the targets are judged on, with the config, file list and split of corpus_eval.

Per file:
1. The unoptimized device bitcode corpus_eval keeps in its cache (clang once per file, made here
   when missing). clang's step is the same for both columns and is left out of every figure, so
   the ratios here are stricter than the whole flow's.
2. Each column's opt and llc, exactly as the driver runs them: `nvopt-cc -v --keep --no-ptxas
   FILE.bc` (with --upstream for the upstream column) prints its commands, which are parsed and
   rerun. A rerun's PTX must equal the driver's, or the file is reported as failed.
3. --reps times per column, the columns alternating, each step's CPU time (user + system, from
   the kernel's accounting of that child); the median of the reps is kept.
4. Unless --no-count, each step once more under valgrind's callgrind: the instructions it
   executes, the same on every run whatever the machine's load (they leave out the kernel's
   work for the process, the same for both columns).

Output (--out, default build/compile-cost/<split>): files.tsv (one row per file and column:
opt_cpu, llc_cpu in seconds, opt_ir, llc_ir) and summary.md: per split, the files both columns
compiled, the sums and the per-file geomeans of nvopt/upstream for opt, llc and opt+llc.
Files that fail in either column are listed and left out of the figures. Exit status 1 when a
file fails in one column only (a compile failure of nvopt's), else 0.

Each file's figures are appended to rows.jsonl in the output folder as soon as they are
measured. With --resume, the rows there measured with the same plugin, driver, reps and
counting are taken as they are and only the other files are measured, so a long run (the
whole validate split under callgrind takes hours on two cores) can be stopped and continued.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import threading

from nvopt_tools import corpus_eval as ce
from nvopt_tools import paths
from nvopt_tools import realcode_check as rc
from nvopt_tools.bench.compilers import LAST_CPU, Step, count_instructions, run_step

COLUMNS = ("upstream", "nvopt")
STEPS = ("opt", "llc")
KEPT = re.compile(r"intermediates kept in (\S+)")


def driver_steps(stderr, llvm_bin):
    """The opt and llc commands `nvopt-cc -v` printed (in order), as argv lists: the lines whose
    first word is `llvm_bin`/opt or `llvm_bin`/llc."""
    out = []
    for line in stderr.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if words and os.path.dirname(words[0]) == llvm_bin and os.path.basename(words[0]) in STEPS:
            out.append(words)
    return out


def output_of(argv):
    """The file a step writes (its -o argument)."""
    return argv[argv.index("-o") + 1]


class Measure:
    def __init__(self, ev, args):
        self.ev, self.args = ev, args

    def column(self, col, bc, tmp):
        """Runs the driver once for `col`; returns ({step: argv}, driver PTX path) or an error."""
        ptx = os.path.join(tmp, f"{col}.driver.ptx")
        extra = ["-v", "--keep"] + (["--plugin", self.ev.plugin] if col == "nvopt" else [])
        cmd = rc.compile_cmd(col, bc, ptx, self.ev.args(), self.ev.nv_bin, extra)
        proc = ce.run(cmd, tmp, self.args.timeout)
        m = KEPT.search(proc.stderr)
        if m:
            kept = os.path.join(tmp, f"{col}.kept")
            shutil.move(m.group(1), kept)
            proc_err = proc.stderr.replace(m.group(1), kept)
        else:
            proc_err = proc.stderr
        if proc.returncode != 0 or not os.path.exists(ptx):
            lines = [line for line in proc_err.strip().splitlines()
                     if not line.startswith("nvopt-cc: ") or "error" in line]
            return None, None, rc.failure_summary(lines, proc.returncode)
        steps = driver_steps(proc_err, ce.LLVM_BIN)
        if [os.path.basename(s[0]) for s in steps] != list(STEPS):
            return None, None, f"expected one opt and one llc command in nvopt-cc -v, got {steps}"
        opt, llc = steps
        llc[llc.index("-o") + 1] = os.path.join(tmp, f"{col}.ptx")
        return {"opt": opt, "llc": llc}, ptx, None

    def file(self, corpus, rel):
        """One file's figures: {col: {opt_cpu, llc_cpu, opt_ir, llc_ir}} or {"error": text}."""
        front = self.ev.front(corpus, rel)
        if "error" in front:
            return {"error": "front end: " + front["error"].splitlines()[0]}
        bc = self.ev.cache.path("bc", self.ev.front_key(corpus, os.path.join(corpus.root, rel)),
                                ".bc")
        out = {}
        with tempfile.TemporaryDirectory(prefix="cost-") as tmp:
            cmds = {}
            for col in COLUMNS:
                steps, ptx, err = self.column(col, bc, tmp)
                if err:
                    out[col] = {"error": err}
                    continue
                cmds[col] = (steps, ptx)
            cpu = {col: {s: [] for s in STEPS} for col in cmds}
            order = list(cmds)
            for rep in range(self.args.reps):
                for col in (order if rep % 2 == 0 else order[::-1]):
                    for s in STEPS:
                        ok, _, msg = run_step(Step(s, cmds[col][0][s]), tmp)
                        if not ok:
                            out[col] = {"error": f"{s}: {msg}"}
                            break
                        cpu[col][s].append(LAST_CPU[0])
            for col, (steps, ptx) in cmds.items():
                if "error" in out.get(col, {}):
                    continue
                with open(ptx, "rb") as a, open(output_of(steps["llc"]), "rb") as b:
                    if a.read() != b.read():
                        out[col] = {"error": "the rerun's PTX differs from the driver's"}
                        continue
                got = {f"{s}_cpu": round(statistics.median(cpu[col][s]), 5) for s in STEPS}
                for s in STEPS:
                    if self.args.no_count:
                        continue
                    n, err = count_instructions(Step(s, steps[s]), tmp, self.args.valgrind)
                    if err:
                        got = {"error": err}
                        break
                    got[f"{s}_ir"] = n
                out[col] = got
        return out


def load_rows(log, build):
    """{(corpus, file): result} of the rows in `log` measured with `build` (plugin and driver
    md5s, reps, counting); later rows win."""
    got = {}
    try:
        with open(log) as f:
            for line in f:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut short when a run was stopped
                if row.get("build") == build:
                    got[(row["corpus"], row["file"])] = row["result"]
    except OSError:
        pass
    return got


def geomean(ratios):
    ratios = [r for r in ratios if r > 0]
    return math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else float("nan")


def split_table(rows, counted):
    """Markdown rows for one split: rows = [(figures of upstream, of nvopt)] of the files both
    columns compiled."""
    kinds = [("cpu", "CPU seconds")] + ([("ir", "instructions")] if counted else [])
    lines = ["| figure | upstream | nvopt | nvopt/upstream, summed | nvopt/upstream, per-file "
             "geomean |", "|---|---:|---:|---:|---:|"]
    for kind, label in kinds:
        for name, parts in (("opt", ("opt",)), ("llc", ("llc",)), ("opt+llc", STEPS)):
            up = [sum(u[f"{p}_{kind}"] for p in parts) for u, _ in rows]
            nv = [sum(n[f"{p}_{kind}"] for p in parts) for _, n in rows]
            su, sn = sum(up), sum(nv)
            fmt = (lambda x: f"{x:.2f}") if kind == "cpu" else (lambda x: f"{x / 1e9:.3f}G")
            ratio = f"{sn / su:.3f}" if su else "-"
            per = geomean([n / u for u, n in zip(up, nv) if u])
            lines.append(f"| {name} {label} | {fmt(su)} | {fmt(sn)} | {ratio} | {per:.3f} |")
    return lines


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m nvopt_tools.compile_cost",
                                description=__doc__.splitlines()[0])
    p.add_argument("--config", required=True, help="corpus_eval's JSON list of corpora")
    p.add_argument("--split", default="validate", choices=("tune", "validate", "all"))
    p.add_argument("--corpora", help="comma-separated corpus names (default: all of the config)")
    p.add_argument("--limit", type=int, help="the first N files of each corpus (after the split)")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--reps", type=int, default=3, help="timed runs per column (default 3)")
    p.add_argument("--no-count", action="store_true", help="CPU time only (no callgrind runs)")
    p.add_argument("--valgrind", default="valgrind")
    p.add_argument("--cache", default=os.path.join(ce.ROOT, "build", "eval-cache"))
    p.add_argument("--out", help="default: build/compile-cost/<split>")
    p.add_argument("--resume", action="store_true",
                   help="reuse the rows of an earlier run of this build in the output folder")
    p.add_argument("--nvopt-cc", default=os.environ.get("NVOPT_CC")
                   or os.path.join(ce.ROOT, "target", "release", "nvopt-cc"))
    p.add_argument("--plugin", default=os.environ.get("NVOPT_PLUGIN")
                   or os.path.join(ce.ROOT, "target", "release", "libnvopt.so"))
    p.add_argument("--timeout", type=int, default=900,
                   help="seconds one driver run may take before it counts as failed")
    args = p.parse_args(argv)
    if args.reps < 1:
        p.error("--reps must be at least 1")
    try:
        corpora, settings = ce.load_config(args.config)
    except (OSError, ValueError) as e:
        p.error(str(e))
    if args.corpora:
        try:
            corpora = ce.pick_corpora(corpora, args.corpora)
        except ValueError as e:
            p.error(str(e))
    for c in corpora:
        if not os.path.isdir(c.root):
            p.error(f"corpus {c.name}: not a directory: {c.root}")
    for path in (args.nvopt_cc, args.plugin):
        if not os.path.exists(path):
            p.error(f"not built: {path} (run scripts/build.sh)")
    if not args.no_count and not shutil.which(args.valgrind):
        p.error(f"valgrind not found ({args.valgrind}); install it or pass --no-count")
    arch = settings.get("arch", "sm_90")
    level = settings.get("level", "O3")
    own = os.path.realpath(args.plugin) == os.path.realpath(
        os.path.join(ce.ROOT, "target", "release", "libnvopt.so"))
    commit = (paths.git_state() or "-") if own else "- (the plugin is not the checkout's build)"
    driver, plugin, sums = ce.private_build(args.nvopt_cc, args.plugin)
    ev = ce.Evaluator(ce.Cache(os.path.abspath(args.cache)), arch, level, rc.nvidia_bin(),
                      driver, plugin, sums, args.timeout)
    splits = ce.SPLITS if args.split == "all" else (args.split,)
    work, _ = ce.split_work(corpora, splits, args.limit)
    out = os.path.abspath(args.out or os.path.join(ce.ROOT, "build", "compile-cost", args.split))
    os.makedirs(out, exist_ok=True)
    log = os.path.join(out, "rows.jsonl")
    build = [sums[0], sums[1], args.reps, not args.no_count]
    done = load_rows(log, build) if args.resume else {}
    if not args.resume and os.path.exists(log):
        os.remove(log)
    elif os.path.exists(log) and os.path.getsize(log):
        with open(log, "rb+") as f:  # a row cut short ends its line before new rows follow
            f.seek(-1, os.SEEK_END)
            if f.read(1) != b"\n":
                f.write(b"\n")
    lock = threading.Lock()
    measure = Measure(ev, args)

    def one(w):
        key = (w[0].name, w[1])
        if key in done:
            return done[key]
        r = measure.file(w[0], w[1])
        with lock, open(log, "a") as f:
            f.write(json.dumps({"corpus": key[0], "file": key[1], "build": build, "result": r})
                    + "\n")
        return r

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(one, work))
    reused = sum(1 for c, rel, _ in work if (c.name, rel) in done)
    if args.resume:
        print(f"compile_cost: {reused} files from {log}, {len(work) - reused} measured",
              file=sys.stderr)
    keys = [f"{s}_{k}" for k in ("cpu", "ir") for s in STEPS]
    tsv = ["\t".join(["corpus", "file", "split", "column", *keys, "error"])]
    both = {s: [] for s in splits}
    failed, nvopt_only = [], 0
    for (c, rel, s), r in zip(work, results):
        for col in COLUMNS:
            got = r.get(col, {"error": r.get("error", "not run")})
            tsv.append("\t".join([c.name, rel, s, col, *[str(got.get(k, "")) for k in keys],
                                  got.get("error", "").replace("\n", " ")]))
        errs = [col for col in COLUMNS if "error" in r.get(col, {"error": 1})]
        if errs:
            failed.append((c.name, rel, ", ".join(errs) if "error" not in r else "front end"))
            nvopt_only += errs == ["nvopt"]
        else:
            both[s].append((r["upstream"], r["nvopt"]))
    with open(os.path.join(out, "files.tsv"), "w") as f:
        f.write("\n".join(tsv) + "\n")
    counted = not args.no_count
    md = ["python3 -m nvopt_tools.compile_cost " + " ".join(shlex.quote(a) for a in
                                                             (argv or sys.argv[1:])), "",
          f"# compile cost, nvopt against upstream: {arch} {level}, split {args.split}", "",
          f"- nvopt build (private copy): {plugin} md5 {sums[1]}, {driver} md5 {sums[0]}",
          f"- git commit: {commit}",
          f"- LLVM: {ev.llvm}",
          f"- per file: opt and llc as nvopt-cc runs them on the file's device bitcode (clang's "
          f"step, the same for both columns, left out); CPU time: median of {args.reps} runs"
          + ("; instructions: one run under callgrind" if counted else ""), ""]
    for s in splits:
        md += [f"## {s}: {len(both[s])} files compiled by both columns", ""]
        md += split_table(both[s], counted) if both[s] else ["(no files)"]
        md.append("")
    md.append(f"Failed in at least one column: {len(failed)} files"
              + (f" ({nvopt_only} in nvopt only)" if failed else "") + ".")
    md += [""] if failed else []
    md += [f"- {c}/{rel}: {cols}" for c, rel, cols in failed[:40]]
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    print(f"compile_cost: wrote {out}/summary.md and files.tsv", file=sys.stderr)
    return 1 if nvopt_only else 0


if __name__ == "__main__":
    sys.exit(main())
