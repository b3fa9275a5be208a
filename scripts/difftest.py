#!/usr/bin/env python3
"""Differential execution of the plugin's IR passes (issue 7): each pipeline under test is applied
to NVPTX loop kernels; the module before and the module after are both "host-ified" the same way
and run with lli-22 on random inputs; all memory the kernel can touch must come out equal bit for
bit. A difference, a crash of lli on the "after" side only, or an opt crash / verifier failure is
a failure, kept as a reproducer under --keep.

Kernels: scripts/difftest_kernels/*.{cu,ll} (their `difftest:` comment lines give the launch) and
the bench kernels that sequential execution can model (scripts/difftest_kernels/bench.spec; no
barriers, shared memory or warp shuffles). Each .cu is compiled as bench/compilers.py does
(nvopt_paths.device_ir_cmd, plus -ffp-contract=off so the x86 JIT never fuses fmul+fadd on only
one side) and prepared two ways (PREPS): "early" (inlined, SROA'd, header-tested loops: where
nv-scev-sources sits in cicc's pipeline) and "O3" (after the whole nvopt<O3>).

A pipeline is a pass string P and an optional follow-up T (--then): before = T(prep),
after = T(P(prep)), both run by opt on the NVPTX-triple module (nv-scev-sources keys on the
triple and on the llvm.nvvm.read.ptx.sreg.* calls). T = default<O2> lets upstream passes exploit
the flags and ranges P adds, so a wrong nsw/nuw/range becomes a wrong result rather than a
silent fact. Host-ifying (host_ify): the host triple and data layout, no ptx_kernel calling
convention, no sm_90 target-cpu/features, every @llvm.nvvm.* function renamed to __dt_nvvm_*
(call-site range attributes stay: the driver honours them) and defined by
scripts/difftest_driver.c, or, for intrinsics a sequential host cannot model (barriers,
shuffles), stubbed with abort(); kernels that reach one are skipped. lli accepts addrspace(1)
pointers and addrspacecasts on x86-64 (checked: a no-op cast), so address spaces stay.

Launch shapes come from the spec and must respect the kernel's launch bounds (nvvm.reqntid
exactly, nvvm.maxntid as a thread count, as src/scev_sources/ranges.rs reads them) and the
hardware ranges; a spec that breaks them is an error, since the ranges nv-scev-sources attaches
would make the "after" module's behaviour undefined rather than wrong. A kernel whose "before"
run changes no output element, or writes outside its buffers, is a spec error too: the
comparison must mean something.

    python3 scripts/difftest.py [--passes P]... [--then T]... [--seeds 3] [--jobs 2] [--keep DIR]
        [--kernels SUBSTR]... [--preps early,O3] [--block BX[,BY[,BZ]]] [--work DIR] [--self-check]

--self-check replaces the first `fadd` of each kernel of every "after" module by `fsub`; the run
must then report mismatches (the harness can fail). Exit status 1 on any failure or error.
"""
import argparse
import concurrent.futures as cf
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvopt_paths  # noqa: E402

BIN = nvopt_paths.LLVM_BIN
OPT, LLI, LINK, CLANG = f"{BIN}/opt", f"{BIN}/lli", f"{BIN}/llvm-link", f"{BIN}/clang"
HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_DIR = os.path.join(HERE, "difftest_kernels")
BENCH_SPEC = os.path.join(KERNEL_DIR, "bench.spec")
DRIVER_C = os.path.join(HERE, "difftest_driver.c")

# The plugin's IR passes, as opt names them. Passes not registered (yet) are reported as
# "skipped: not registered" and join the default run as soon as the plugin has them.
PLUGIN_PASSES = ["nv-scev-sources", "nv-iv-start-widening", "nv-basr", "nv-cbe", "nv-scev-cgp", "codegenpreparescev", "nv-cssa", "nv-remat", "nv-iv-rewrite",
                 "nv-set-local-array-alignment", "nv-set-global-array-alignment", "nv-ipmsp", "nv-fold-const-calls"]
# Whole pipelines checked the same way; the second is llc's order around the address passes
# (IV-start widening, then SLSR, whose rewrite it prepares for, then codegenpreparescev); the
# last two are the inlining policy with the inliner it steers and the local-array unroll rule
# with the unroller and SROA that act on its metadata.
WHOLE_PIPELINES = ["nvopt<O3>", "function(nv-iv-start-widening,slsr,codegenpreparescev)",
                   "nv-inline-advisor,cgscc(inline)",
                   "function(nv-local-array-unroll,loop-unroll<O3>,sroa)",
                   "function(nv-stride-loop-unroll,loop-unroll<O3>)"]
# Follow-ups applied to both sides ("" = none): see the header.
DEFAULT_THENS = ["", "default<O2>"]
PREPS = {
    "early": "always-inline,function(sroa,early-cse<memssa>,simplifycfg,instcombine<no-verify-fixpoint>)",
    "O3": "nvopt<O3>",
}
TIMEOUT = 120
# The hardware's launch limits (src/scev_sources/ranges.rs `hardware`).
MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = (0x7fffffff, 0xffff, 0xffff)
MAX_THREADS = 1024


class SpecError(Exception):
    pass


def run(cmd, timeout=TIMEOUT):
    """(returncode or "timeout", stdout, stderr) of a command."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", f"timed out after {timeout}s"


def crashed(code, err):
    return code == "timeout" or nvopt_paths.llvm_crashed(code, err)


def plugin_args():
    # remat-maxreg-ceiling=8 gives nv-remat (an llc pass, here run alone through opt) a target
    # that most kernels exceed, so that it rewrites; no other pass reads it. nv-maxreg=8 does the
    # same for the register rules of nv-iv-rewrite and BASR (codegenpreparescev, nv-basr).
    return [f"-load-pass-plugin={nvopt_paths.PLUGIN}", "-remat-maxreg-ceiling=8", "-nv-maxreg=8"]


# ---------------------------------------------------------------------------------------------
# Kernel specs

class Spec:
    """One kernel's launch: `KERNEL [VAR=LO..HI]... grid=G[|G]... block=B[|B]... args=A,A,...`.
    G and B are 1-3 comma-separated integer expressions over the variables (G may use the chosen
    block's bx, by, bz); an arg is a buffer
    `TYPE[COUNT]` with an optional fill `{LO..HI}` or `{ramp:K}`, or a scalar expression."""

    def __init__(self, source, line):
        self.source = source
        toks = line.split()
        if not toks:
            raise SpecError(f"{source}: empty difftest line")
        self.kernel = toks[0]
        self.vars, self.grids, self.blocks, self.args = {}, None, None, None
        for t in toks[1:]:
            key, _, val = t.partition("=")
            if key == "grid":
                self.grids = val.split("|")
            elif key == "block":
                self.blocks = val.split("|")
            elif key == "args":
                self.args = split_top(val)
            elif ".." in val:
                lo, hi = val.split("..")
                self.vars[key] = (int(lo), int(hi))
            else:
                raise SpecError(f"{source}: {self.kernel}: cannot read {t!r}")
        if not (self.grids and self.blocks and self.args is not None):
            raise SpecError(f"{source}: {self.kernel}: needs grid=, block= and args=")

    def instance(self, seed):
        """The launch for one seed: (grid, block, params as driver arguments, env)."""
        rng = random.Random(f"{self.kernel}:{seed}")
        env = {k: rng.randint(lo, hi) for k, (lo, hi) in sorted(self.vars.items())}
        block = dims(rng.choice(self.blocks), env)
        env.update(bx=block[0], by=block[1], bz=block[2])
        grid = dims(rng.choice(self.grids), env)
        params = []
        for a in self.args:
            m = re.fullmatch(r"(f32|f64|i8|u8|i16|i32|u32|i64)\[(.+?)\](?:\{(.+)\})?", a)
            if m:
                count = ev(m.group(2), env)
                fill = m.group(3)
                mode, lo, hi = "r", 0, 1000
                if m.group(1) == "u8":
                    hi = 255
                if fill and fill.startswith("ramp:"):
                    mode, lo = "ramp", ev(fill[5:], env)
                elif fill:
                    lo, hi = (ev(x, env) for x in fill.split(".."))
                params.append(("buf", f"b:{m.group(1)}:{count}:{mode}:{lo}:{hi}"))
            else:
                params.append(("scalar", a, env))
        return grid, block, params, env


def split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        cur += ch
    if cur:
        out.append(cur)
    return out


def ev(expr, env):
    return eval(expr, {"__builtins__": {}, "max": max, "min": min}, dict(env))  # our own spec files


def dims(text, env):
    d = [int(ev(e, env)) for e in split_top(text)]
    return tuple(d + [1] * (3 - len(d)))


def read_specs():
    """[(source path, [Spec])] for the kernel folder's files and bench.spec."""
    out = []
    for path in sorted(glob.glob(os.path.join(KERNEL_DIR, "*.cu")) + glob.glob(os.path.join(KERNEL_DIR, "*.ll"))):
        with open(path) as f:
            text = f.read()
        specs = [Spec(path, m.group(1)) for m in re.finditer(r"^\s*(?://|;)\s*difftest:\s*(.+)$", text, re.M)]
        out.append((path, specs))
    bench = {}
    with open(BENCH_SPEC) as f:
        lines = f.readlines()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            name, rest = line.split(None, 1)
            path = os.path.join(nvopt_paths.ROOT, "bench", "kernels", name)
            bench.setdefault(path, []).append(Spec(path, rest))
    return out + sorted(bench.items())


# ---------------------------------------------------------------------------------------------
# IR handling

def kernel_signature(ir, name):
    """Parameter types (first token of each parameter) and launch-bound attributes of a kernel."""
    m = re.search(r"^define [^@\n]*@" + re.escape(name) + r"\(", ir, re.M)
    if not m:
        raise SpecError(f"kernel {name} not defined in the module")
    depth, i = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(ir[i], 0)
        i += 1
    params = ir[m.end():i - 1]
    group = re.match(r"[^\n{]*?(#\d+)?\s*\{", ir[i:])
    types = [p.split()[0] for p in split_top(params) if p.strip()]
    attrs = {}
    if group and group.group(1):
        g = re.search(r"^attributes " + group.group(1) + r" = \{(.*)\}$", ir, re.M)
        for k, v in re.findall(r'"(nvvm\.\w+)"="([^"]*)"', g.group(1) if g else ""):
            attrs[k] = v
    return types, attrs


def check_launch(spec, grid, block, attrs):
    """Raises SpecError when a launch breaks the hardware limits or the kernel's launch bounds."""
    what = f"{spec.kernel}: block {block} grid {grid}"
    if any(b < 1 or b > mx for b, mx in zip(block, MAX_BLOCK)) or block[0] * block[1] * block[2] > MAX_THREADS:
        raise SpecError(f"{what} exceeds the hardware's block limits")
    if any(g < 1 or g > mx for g, mx in zip(grid, MAX_GRID)):
        raise SpecError(f"{what} exceeds the hardware's grid limits")
    if "nvvm.reqntid" in attrs:
        req = [int(x) for x in attrs["nvvm.reqntid"].split(",")]
        req += [1] * (3 - len(req))
        if tuple(req) != block:
            raise SpecError(f"{what} differs from nvvm.reqntid={attrs['nvvm.reqntid']}")
    if "nvvm.maxntid" in attrs:
        mx = 1
        for x in attrs["nvvm.maxntid"].split(","):
            mx *= int(x)
        if block[0] * block[1] * block[2] > mx:
            raise SpecError(f"{what} exceeds nvvm.maxntid={attrs['nvvm.maxntid']}")


def functions_reaching(ir, name):
    """Names of the functions a function calls, transitively (by @name references)."""
    bodies = {m.group(1): m.group(2) for m in re.finditer(r"^define [^@\n]*@([\w.$]+)\(.*?\n(.*?)^\}", ir, re.M | re.S)}
    seen, todo = set(), [name]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo += [r for r in re.findall(r"@([\w.$]+)", bodies.get(f, "")) if r not in seen]
    return seen


def host_ify(ir, triple, layout, supported):
    """Host version of an NVPTX module's text. Returns (text, names of stubbed intrinsics)."""
    ir = re.sub(r'^target datalayout = ".*"$', f'target datalayout = "{layout}"', ir, flags=re.M)
    ir = re.sub(r'^target triple = ".*"$', f'target triple = "{triple}"', ir, flags=re.M)
    ir = re.sub(r"\bptx_kernel ", "", ir)
    ir = re.sub(r' "target-(cpu|features)"="[^"]*"', "", ir)
    stubs, lines = [], []
    for line in ir.splitlines():
        if line.startswith("declare") and "@llvm.nvvm." in line:
            m = re.match(r"declare (.*?)@llvm\.nvvm\.([\w.]+)\((.*)\)", line)
            name = "__dt_nvvm_" + m.group(2).replace(".", "_")
            if name in supported:
                line = f"declare {m.group(1)}@{name}({m.group(3)})"
            else:
                ret = [t for t in m.group(1).split() if not t.startswith(("noundef", "range", "zeroext", "signext"))
                       and not re.match(r"^-?\d+[,)]?$", t)]
                types = ", ".join(p.split()[0] for p in split_top(m.group(3)) if p.strip())
                stubs.append(name)
                line = (f"define {ret[-1]} @{name}({types}) {{\n  call void @abort()\n  unreachable\n}}")
        elif "@llvm.nvvm." in line:
            line = re.sub(r"(@llvm\.nvvm\.[\w.]+\(.*\)) #\d+$", r"\1", line)
        lines.append(line)
    ir = "\n".join(lines) + "\n"
    ir = re.sub(r"@llvm\.nvvm\.([\w.]+)", lambda m: "@__dt_nvvm_" + m.group(1).replace(".", "_"), ir)
    if stubs and not re.search(r"^declare .*@abort\(", ir, re.M):
        ir += "declare void @abort()\n"
    return ir, stubs


C_TYPES = {"i1": "_Bool", "i8": "signed char", "i16": "short", "i32": "int", "i64": "long long",
           "float": "float", "double": "double", "ptr": "void *"}


def driver_source(kernels):
    """The driver C text for [(kernel name, parameter types)]."""
    out = [open(DRIVER_C).read()]
    for name, types in kernels:
        out.append(f"extern void {name}({', '.join(C_TYPES[t] for t in types) or 'void'});")
    out.append("static void dt_launch(int kernel, dt_arg *a) {\n  switch (kernel) {")
    for k, (name, types) in enumerate(kernels):
        argv = []
        for i, t in enumerate(types):
            argv.append(f"a[{i}].p" if t == "ptr" else
                        f"({C_TYPES[t]})a[{i}].f" if t in ("float", "double") else f"({C_TYPES[t]})a[{i}].i")
        out.append(f"  case {k}: {name}({', '.join(argv)}); break;")
    out.append('  default: fprintf(stderr, "no kernel %d\\n", kernel); exit(2);\n  }\n}\n')
    return "\n".join(out)


def supported_intrinsics():
    return set(re.findall(r"\b(__dt_nvvm_\w+)\(", open(DRIVER_C).read())) | {
        f"__dt_nvvm_read_ptx_sreg_{r}_{d}" for r in ("tid", "ntid", "ctaid", "nctaid") for d in "xyz"}


def scalar_arg(param, ty):
    _, expr, env = param
    v = ev(expr, env)
    if ty in ("float", "double"):
        return "s:" + repr(float(v))
    if isinstance(v, float):
        raise SpecError(f"float {expr} for an integer parameter")
    return f"s:{int(v)}"


# ---------------------------------------------------------------------------------------------
# The run

class Unit:
    """One source file prepared one way: its kernels, driver and the linked "before" modules."""

    def __init__(self, path, specs, prep, work):
        self.path, self.specs, self.prep = path, specs, prep
        self.name = f"{os.path.splitext(os.path.basename(path))[0]}.{prep}"
        self.dir = os.path.join(work, self.name)
        os.makedirs(self.dir, exist_ok=True)


def setup_unit(u, triple_layout, supported):
    """Device IR, prep, driver. Returns None or an error text (the unit is then not run)."""
    src = os.path.join(u.dir, "device.bc")
    if u.path.endswith(".cu"):
        cmd = nvopt_paths.device_ir_cmd(u.path, src) + ["-ffp-contract=off"]
        code, _, err = run(cmd)
    else:
        code, _, err = run([f"{BIN}/llvm-as", u.path, "-o", src])
    if code != 0:
        return f"cannot compile {u.path}: {err.strip()[:300]}"
    u.input = os.path.join(u.dir, "input.ll")
    code, _, err = run([OPT, *plugin_args(), f"-passes={PREPS[u.prep]}", src, "-S", "-o", u.input])
    if code != 0:
        return f"prep {u.prep} failed on {u.path}: {err.strip()[:300]}"
    ir = open(u.input).read()
    host, stubs = host_ify(ir, *triple_layout, supported)
    u.kernels, u.launch_attrs = [], {}
    for s in u.specs:
        types, attrs = kernel_signature(ir, s.kernel)
        blocked = [x for x in stubs if x in functions_reaching(host, s.kernel)]
        if blocked:
            return f"{s.kernel} calls {', '.join(blocked)}: sequential host execution cannot model it"
        bufs = sum(1 for t in types if t == "ptr")
        if len(types) != len(s.args) or bufs != sum(1 for a in s.args if re.match(r"\w+\[", a)):
            return f"{s.kernel}: spec args {s.args} do not match parameters {types}"
        u.kernels.append((s.kernel, types))
        u.launch_attrs[s.kernel] = attrs
    c = os.path.join(u.dir, "driver.c")
    with open(c, "w") as f:
        f.write(driver_source(u.kernels))
    u.driver = os.path.join(u.dir, "driver.ll")
    code, _, err = run([CLANG, "-O1", "-fno-math-errno", "-emit-llvm", "-S", c, "-o", u.driver])
    if code != 0:
        return f"driver for {u.path} does not compile: {err.strip()[:300]}"
    return None


def build_side(u, module, tag, triple_layout, supported, mutate=False):
    """Host-ifies an NVPTX module and links it with the unit's driver; returns the linked path."""
    ir = open(module).read()
    if mutate:
        ir = inject_bug(ir, [k for k, _ in u.kernels])
    host, _ = host_ify(ir, *triple_layout, supported)
    hp = os.path.join(u.dir, f"{tag}.host.ll")
    with open(hp, "w") as f:
        f.write(host)
    linked = os.path.join(u.dir, f"{tag}.linked.bc")
    code, _, err = run([LINK, hp, u.driver, "-o", linked])
    if code != 0:
        raise RuntimeError(f"llvm-link failed for {hp}: {err.strip()[:400]}")
    return linked


def ir_body(path):
    """A module's text without comments (ModuleID, predecessor lists), to tell a real change."""
    return re.sub(r"\s*;.*$", "", open(path).read(), flags=re.M)


def inject_bug(ir, kernels):
    """Self-check: the first fadd of each kernel becomes an fsub."""
    def fix(m):
        return m.group(0) if m.group(1) not in kernels else re.sub(r"= fadd ", "= fsub ", m.group(0), count=1)
    return re.sub(r"^define [^@\n]*@([\w.$]+)\(.*?^\}", fix, ir, flags=re.M | re.S)


def launches(u, seeds, force_block=None):
    """[(kernel index, kernel, seed, driver argv)] for the unit (force_block: the --block text)."""
    out = []
    for k, s in enumerate(u.specs):
        types = u.kernels[k][1]
        for seed in seeds:
            grid, block, params, _ = s.instance(seed)
            if force_block:
                block = dims(force_block, {})
            check_launch(s, grid, block, u.launch_attrs[s.kernel])
            argv = [str(k), str(seed), *map(str, grid), *map(str, block)]
            for p, t in zip(params, types):
                argv.append(p[1] if p[0] == "buf" else scalar_arg(p, t))
            out.append((k, s.kernel, seed, argv))
    return out


def lli(linked, argv):
    return run([LLI, "--fp-contract=off", linked, *argv])


def opt_pipeline(u, passes, src, out):
    """opt under -verify-each; returns None or (kind, message)."""
    code, _, err = run([OPT, *plugin_args(), f"-passes={passes}", "-verify-each", src, "-S", "-o", out])
    if crashed(code, err):
        return "opt-crash", err
    if "Broken module" in err or "verification failed" in err.lower():
        return "verifier", err
    if code != 0:
        return "opt-error", err
    return None


def registered(name):
    """Whether opt with the plugin knows the pass name (any other complaint about the probe
    module still counts as registered: the real run then reports it)."""
    with tempfile.NamedTemporaryFile("w", suffix=".ll", delete=False) as f:
        f.write('target triple = "nvptx64-nvidia-cuda"\ndefine ptx_kernel void @k() {\n  ret void\n}\n')
    code, _, err = run([OPT, *plugin_args(), f"-passes={name}", f.name, "-disable-output"])
    os.unlink(f.name)
    return code == 0 or "unknown pass name" not in err.lower()


class _Keep:
    """A context manager that gives a folder and keeps it."""

    def __init__(self, path):
        self.path = os.path.abspath(path)

    def __enter__(self):
        return self.path

    def __exit__(self, *exc):
        return False


def slug(text):
    return re.sub(r"[^\w.-]+", "_", text).strip("_") or "none"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--passes", action="append", help="pipeline under test (repeatable); default: "
                    "every registered plugin pass of PLUGIN_PASSES and nvopt<O3>")
    ap.add_argument("--then", action="append", help="follow-up on both sides (repeatable, '' = none); "
                    f"default: {DEFAULT_THENS}")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", default=os.path.join(nvopt_paths.ROOT, "build", "difftest"),
                    help="where failing cases are saved")
    ap.add_argument("--kernels", action="append", help="only kernels whose file or name contains this")
    ap.add_argument("--preps", default=",".join(PREPS), help=f"comma list of {list(PREPS)}")
    ap.add_argument("--work", help="keep every intermediate file in this folder (default: a temporary one)")
    ap.add_argument("--block", help="launch every kernel with this block shape (BX[,BY[,BZ]]) instead "
                    "of its spec's; a shape outside a kernel's launch bounds is an error")
    ap.add_argument("--self-check", action="store_true", help="inject a wrong fadd->fsub into every "
                    "'after' module: the run must report mismatches")
    args = ap.parse_args()
    t0 = time.time()

    if args.passes:
        passes = args.passes
    else:
        passes = []
        for p in PLUGIN_PASSES:
            if registered(p):
                passes.append(p)
            else:
                print(f"difftest: {p}: skipped: not registered")
        passes += WHOLE_PIPELINES
    thens = args.then if args.then is not None else DEFAULT_THENS
    pipelines = [(p, t) for p in passes for t in thens]
    preps = [p for p in args.preps.split(",") if p]
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))

    sources = read_specs()
    if args.kernels:
        sources = [(path, [s for s in specs if any(k in path or k in s.kernel for k in args.kernels)])
                   for path, specs in sources]
    sources = [(p, s) for p, s in sources if s]
    supported = supported_intrinsics()
    failures, errors, counts, changed_by = [], [], {"runs": 0, "changed": 0, "modules": 0}, {}

    if args.work:
        os.makedirs(args.work, exist_ok=True)
    with (tempfile.TemporaryDirectory(prefix="difftest.") if not args.work else _Keep(args.work)) as work:
        # The host triple and data layout clang gives a C file on this machine.
        probe = os.path.join(work, "probe.c")
        open(probe, "w").write("int x;\n")
        _, text, _ = run([CLANG, "-emit-llvm", "-S", probe, "-o", "-"])
        layout = re.search(r'target datalayout = "(.*)"', text).group(1)
        triple = re.search(r'target triple = "(.*)"', text).group(1)
        tl = (triple, layout)

        units = [Unit(path, specs, prep, work) for path, specs in sources for prep in preps]
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            for u, err in zip(units, pool.map(lambda u: setup_unit(u, tl, supported), units)):
                if err:
                    errors.append(f"{u.name}: {err}")
            units = [u for u in units if not any(e.startswith(u.name + ":") for e in errors)]
            plan = {}
            for u in units:
                try:
                    plan[u.name] = launches(u, seeds, args.block)
                except SpecError as e:
                    errors.append(f"{u.name}: {e}")
            units = [u for u in units if u.name in plan]

            def before(u, then):
                """Linked "before" module and its outputs per launch (then = follow-up)."""
                mod = u.input
                if then:
                    mod = os.path.join(u.dir, f"before.{slug(then)}.ll")
                    bad = opt_pipeline(u, then, u.input, mod)
                    if bad:
                        return None, f"{u.name}: follow-up {then} alone fails ({bad[0]}): {bad[1].strip()[:300]}"
                try:
                    linked = build_side(u, mod, f"before.{slug(then)}", tl, supported)
                except RuntimeError as e:
                    return None, f"{u.name}: {e}"
                outs = {}
                for k, kernel, seed, argv in plan[u.name]:
                    code, out, err = lli(linked, argv)
                    if code != 0:
                        return None, f"{u.name}: {kernel} seed {seed}: 'before' run fails: {err.strip()[:300]}"
                    if "GUARD" in out or not re.search(r"changed [1-9]", out):
                        return None, f"{u.name}: {kernel} seed {seed}: spec problem (writes out of bounds " \
                                     f"or changes nothing):\n{out}"
                    outs[(kernel, seed)] = out
                return (mod, linked, outs), None

            befores = {}
            jobs = {pool.submit(before, u, t): (u.name, t) for u in units for t in thens}
            for fut in cf.as_completed(jobs):
                res, err = fut.result()
                if err:
                    errors.append(err)
                else:
                    befores[jobs[fut]] = res

            def after(u, passes, then):
                base = befores.get((u.name, then))
                if base is None:
                    return None
                tag = f"after.{slug(passes)}.{slug(then)}"
                mod = os.path.join(u.dir, tag + ".ll")
                bad = opt_pipeline(u, passes, u.input, mod)
                if not bad and then:
                    passed = os.path.join(u.dir, tag + ".p.ll")
                    os.replace(mod, passed)
                    bad = opt_pipeline(u, then, passed, mod)
                label = passes + (f" then {then}" if then else "")
                res = {"runs": 0, "changed": 0, "fails": [], "label": label}
                if bad:
                    res["fails"].append((bad[0], u, label, None, None, bad[1], base[0], mod, None, None))
                    return res
                res["changed"] = int(ir_body(mod) != ir_body(base[0]))
                try:
                    linked = build_side(u, mod, tag, tl, supported, mutate=args.self_check)
                except RuntimeError as e:
                    res["fails"].append(("link-error", u, label, None, None, str(e), base[0], mod, None, None))
                    return res
                for k, kernel, seed, argv in plan[u.name]:
                    res["runs"] += 1
                    code, out, err = lli(linked, argv)
                    want = base[2][(kernel, seed)]
                    kind = None
                    if code == "timeout":
                        kind = "lli-timeout"
                    elif code != 0:
                        kind = "lli-crash" if crashed(code, err) else "lli-error"
                    elif out != want:
                        kind = "mismatch"
                    if kind:
                        res["fails"].append((kind, u, label, kernel, seed, err or out, base[0], mod,
                                             (base[1], linked, argv), (want, out)))
                return res

            jobs = [pool.submit(after, u, p, t) for u in units for p, t in pipelines]
            for fut in cf.as_completed(jobs):
                res = fut.result()
                if res is None:
                    continue
                counts["runs"] += res["runs"]
                counts["changed"] += res["changed"]
                counts["modules"] += 1
                ch = changed_by.setdefault(res["label"], [0, 0])
                ch[0] += res["changed"]
                ch[1] += 1
                failures += res["fails"]

        for n, (kind, u, label, kernel, seed, msg, before_mod, after_mod, linked, outs) in enumerate(failures):
            where = os.path.join(args.keep, f"{kind}-{u.name}-{slug(label)}-{kernel or 'opt'}-s{seed}")
            os.makedirs(where, exist_ok=True)
            shutil.copy(before_mod, os.path.join(where, "before.ll"))
            if os.path.exists(after_mod):
                shutil.copy(after_mod, os.path.join(where, "after.ll"))
            shutil.copy(u.input, os.path.join(where, "input.ll"))
            shutil.copy(u.driver, os.path.join(where, "driver.ll"))
            if linked:
                shutil.copy(linked[0], os.path.join(where, "before.linked.bc"))
                shutil.copy(linked[1], os.path.join(where, "after.linked.bc"))
                for side, path in (("before", linked[0]), ("after", linked[1])):
                    shutil.copy(path.replace(".linked.bc", ".host.ll"), os.path.join(where, f"{side}.host.ll"))
                with open(os.path.join(where, "repro.sh"), "w") as f:
                    f.write(f"# {kind}: {u.path} prepared with {PREPS[u.prep]}, pipeline {label}\n"
                            "# input.ll -> before.ll / after.ll (NVPTX) -> *.host.ll -> linked with driver.ll\n")
                    if args.self_check:
                        f.write("# --self-check: after.host.ll carries the injected fadd->fsub\n")
                    for side in ("before", "after"):
                        f.write(f"{LLI} --fp-contract=off {side}.linked.bc {' '.join(linked[2])} > {side}.out\n")
                    f.write("diff before.out after.out\n")
            print(f"FAIL {kind}: {u.name} {kernel or ''} seed {seed} pipeline '{label}'; kept in {where}")
            if outs:
                for a, b in zip(outs[0].splitlines(), outs[1].splitlines()):
                    if a != b:
                        print(f"  before: {a}\n  after:  {b}")
            else:
                print("  " + "\n  ".join(msg.strip().splitlines()[:6]))

    for e in errors:
        print(f"ERROR {e}")
    nk = sum(len(u.specs) for u in units) // max(1, len(preps))
    mism = sum(1 for f in failures if f[0] == "mismatch")
    for label, (ch, n) in sorted(changed_by.items()):
        print(f"difftest: pipeline '{label}': changed {ch} of {n} modules")
    print(f"difftest: {nk} kernels x {len(preps)} preps x {len(seeds)} seeds x {len(pipelines)} pipelines: "
          f"{counts['runs']} runs, {mism} mismatches, {len(failures) - mism} other failures, "
          f"{len(errors)} errors ({time.time() - t0:.0f} s)")
    sys.exit(1 if failures or errors else 0)


if __name__ == "__main__":
    main()
