"""Differential execution of the plugin's IR passes (issue 7): each pipeline under test is applied
to NVPTX loop kernels; the module before and the module after are both "host-ified" the same way
and run with lli-22 on random inputs; all memory the kernel can touch must come out equal bit for
bit. A difference, a crash of lli on the "after" side only, or an opt crash / verifier failure is
a failure, kept as a reproducer under --keep.

Kernels: scripts/difftest_kernels/*.{cu,ll} (their `difftest:` comment lines give the launch) and
the bench kernels that sequential execution can model (scripts/difftest_kernels/bench.spec; no
barriers, shared memory or warp shuffles). Each .cu is compiled as nvopt_tools/bench/compilers.py does
(paths.device_ir_cmd, plus -ffp-contract=off so the x86 JIT never fuses fmul+fadd on only
one side) and prepared (PREPS): "early" (inlined, SROA'd, header-tested loops: where
nv-scev-sources sits in cicc's pipeline), "O3" (after the whole nvopt<O3>) and, mostly for the
lowering mode, "up" (upstream's default<O3>, run without the plugin). A file's
`difftest-modes: lowering` line keeps it out of the opt mode's default kernel set (it joins when
--kernels names the file or a kernel): byval.cu, so that the quick opt run keeps its kernels.

A pipeline is a pass string P and an optional follow-up T (--then): before = T(prep),
after = T(P(prep)), both run by opt on the NVPTX-triple module (nv-scev-sources keys on the
triple and on the llvm.nvvm.read.ptx.sreg.* calls). T = default<O2> lets upstream passes exploit
the flags and ranges P adds, so a wrong nsw/nuw/range becomes a wrong result rather than a
silent fact. Host-ifying (host_ify): the host triple and data layout, no ptx_kernel calling
convention, no sm_90 target-cpu/features, every @llvm.nvvm.* function renamed to __dt_nvvm_*
(call-site range attributes stay: the driver honours them) and defined by
scripts/difftest_driver.c, or, for intrinsics a sequential host cannot model (barriers,
shuffles), stubbed with abort(); kernels that reach one are skipped. lli accepts addrspace(1)
pointers and addrspacecasts on x86-64 (checked: a no-op cast), so address spaces stay (1, 3, 5
and 101 are plain 64-bit pointers there; only 256-258 and 270-272 are special on x86-64).

By-value struct parameters (`ptr byval(%T) align N`, spec form `byval(FIELD,...)`, class Spec):
the host C ABI cannot pass one, so host_ify gives each such kernel an IR launcher
`__dt_launch_KERNEL(args)` (kernel_launcher) that the driver calls; it checks the spec's struct
size against the type's and passes `ptr byval(%T) align N`, so that each thread's call gets its
own copy of the struct, as each GPU thread does. Address spaces are modelled where lowering
relies on them (difftest_driver.c, "Address spaces"): at entry each kernel registers its byval
parameters; llvm.nvvm.internal.addrspace.wrap.p101.p0 ("this is the kernel's parameter, in
param space") must name one of the current call, else the run stops with `ADDRSPACE` (kind
`addrspace`); param -> generic casts (cvta.param) give a read-only mirror, a different address,
as on the GPU; generic -> local casts must stay on the thread's stack and generic -> global ones
off it. A module that stores to param space (addrspace 101) is a failure (`param-write`).

Lowering mode (--lowering): "after" is the code generator's IR just before instruction
selection, `llc -O3 -mcpu=sm_90 -stop-before=nvptx-isel` of the prep (the IR module of the MIR
output): after NVPTXLowerArgs, SROA, NVPTXLowerAlloca, InferAddressSpaces, LSR, CodeGenPrepare
and nvopt's llc IR passes (codegenpreparescev, nv-remat, ...), which the opt mode never sees;
"before" is the prep itself. Flows (LOWERINGS, --lowerings): llc-nvopt (llc with the plugin) on
the preps the plugin made (O3 by default; --preps early,O3 adds early), llc-upstream (llc without
it) on "up". In this mode the preps run the real flow (no -nv-maxreg/-remat knobs; --llc-arg
adds llc options). This mode found the double lowering of byval parameters (nvptx-lower-args in
opt, then again in llc): the second run turned the first one's wraps into wraps of a local copy
or of a cvta.param pointer, which the opt mode and plain lli could not see.

Launch shapes come from the spec and must respect the kernel's launch bounds (nvvm.reqntid
exactly, nvvm.maxntid as a thread count, as src/analysis/scev_sources/ranges.rs reads them) and the
hardware ranges; a spec that breaks them is an error, since the ranges nv-scev-sources attaches
would make the "after" module's behaviour undefined rather than wrong. A kernel whose "before"
run changes no output element, or writes outside its buffers, is a spec error too: the
comparison must mean something.

    python3 -m nvopt_tools.difftest [--passes P]... [--then T]... [--seeds 3] [--jobs 2] [--keep DIR]
        [--kernels SUBSTR]... [--preps early,O3] [--block BX[,BY[,BZ]]] [--work DIR]
        [--self-check[=fadd|wrap]]
    python3 -m nvopt_tools.difftest --lowering [--lowerings llc-nvopt,llc-upstream] [--preps O3,up]
        [--llc-arg OPT]... [--seeds 3] [--kernels SUBSTR]... (other options as above)

Output: a `FAIL KIND: ...` block per failure (kinds: mismatch, addrspace, param-write, lli-*,
opt-*/llc-*, verifier, link-error), `ERROR ...` per setup or spec problem, then per pipeline
(opt mode) or per flow (`difftest: lowering 'PREP -> FLOW': N runs, F failures`) and the total
`difftest: ... N runs, M mismatches, X other failures, E errors`.

--self-check replaces the first `fadd` of each kernel of every "after" module by `fsub`; the run
must then report mismatches (the harness can fail). --self-check=wrap makes the param-space
wraps of each kernel's byval parameters take a local copy instead (the double-lowering bug's
shape): the run must report `addrspace` failures. Exit status 1 on any failure or error.
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

from nvopt_tools import paths

BIN = paths.LLVM_BIN
OPT, LLI, LINK, CLANG = f"{BIN}/opt", f"{BIN}/lli", f"{BIN}/llvm-link", f"{BIN}/clang"
HERE = os.path.join(paths.ROOT, "scripts")  # the kernels, their launch specs and the host driver
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
    "up": "default<O3>",  # upstream's optimizer, run without the plugin
}
DEFAULT_PREPS = {"opt": "early,O3", "lowering": "O3,up"}
UPSTREAM_PREPS = {"up"}
# --lowering: the code generator's IR (llc -stop-before=nvptx-isel) of a prep; each lowering
# flow takes the preps of its own optimizer: nvopt's llc those the plugin made, upstream's llc
# (no plugin) upstream's default<O3>.
LLC = f"{BIN}/llc"
LLC_ARGS = ["-O3", "-mcpu=sm_90", "-stop-before=nvptx-isel"]
LOWERINGS = {"llc-nvopt": ("early", "O3"), "llc-upstream": ("up",)}
TIMEOUT = 120
# The hardware's launch limits (src/analysis/scev_sources/ranges.rs `hardware`).
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
    return code == "timeout" or paths.llvm_crashed(code, err)


def plugin_args():
    # remat-maxreg-ceiling=8 gives nv-remat (an llc pass, here run alone through opt) a target
    # that most kernels exceed, so that it rewrites; no other pass reads it. nv-maxreg=8 does the
    # same for the register rules of nv-iv-rewrite and BASR (codegenpreparescev, nv-basr).
    return [f"-load-pass-plugin={paths.PLUGIN}", "-remat-maxreg-ceiling=8", "-nv-maxreg=8"]


# ---------------------------------------------------------------------------------------------
# Kernel specs

class Spec:
    """One kernel's launch: `KERNEL [VAR=LO..HI]... grid=G[|G]... block=B[|B]... args=A,A,...`.
    G and B are 1-3 comma-separated integer expressions over the variables (G may use the chosen
    block's bx, by, bz); an arg is a buffer
    `TYPE[COUNT]` with an optional fill `{LO..HI}` or `{ramp:K}`, a scalar expression, or a
    by-value struct `byval(FIELD,FIELD,...)` (a `ptr byval(%T)` parameter). TYPE is f32 f64 i8
    u8 i16 i32 u32 i64; fills come from the seed: integers uniform in [LO, HI] (default 0..1000,
    u8 0..255), floats k/256 in [LO, HI) (default [-8, 8)). A FIELD is
      TYPE  TYPE{LO..HI}  TYPE[COUNT]  TYPE[COUNT]{fill}  one element or an array, in place;
      TYPE=EXPR                         one element of value EXPR;
      *TYPE[COUNT]{fill}                a pointer to a new buffer, checked like a buffer arg
                                        (printed as bufI.J: parameter I, field J);
      (FIELD,...)  (FIELD,...)[COUNT]   a nested struct, or an array of them.
    Fields are laid out by C's rules (each at its natural alignment: ptr, i64, f64 8; a nested
    struct at its largest member's; sizes rounded up to the alignment; padding bytes zero); the
    total must equal the size of the kernel's byval type, which the launcher checks at run time
    (write padding out as u8[K] fields where the type has more, e.g. __align__ structs). Example:
    `byval(f32[8]{-4..4},i32{1..9})` for `struct { float w[8]; int n; }`."""

    def __init__(self, source, line):
        self.source = source
        toks = line.split()
        if not toks:
            raise SpecError(f"{source}: empty difftest line")
        self.kernel = toks[0]
        self.modes = {"opt", "lowering"}
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
                mode, lo, hi = fill_of(m.group(1), m.group(3), env)
                params.append(("buf", f"b:{m.group(1)}:{count}:{mode}:{lo}:{hi}"))
            elif a.startswith("byval(") and a.endswith(")"):
                fields = []
                size, _ = struct_layout(a[6:-1], env, fields, f"{self.kernel}: {a}")
                params.append(("byval", f"v:{size}:" + "/".join(":".join(map(str, f)) for f in fields)))
            else:
                params.append(("scalar", a, env))
        return grid, block, params, env


SCALAR_SIZES = {"f32": 4, "f64": 8, "i8": 1, "u8": 1, "i16": 2, "i32": 4, "u32": 4, "i64": 8}


def fill_of(ty, fill, env):
    """(driver mode, A, B) of a buffer's or field's fill text (None: the default fill)."""
    mode, lo, hi = "r", 0, 255 if ty == "u8" else 1000
    if fill and fill.startswith("ramp:"):
        mode, lo = "ramp", ev(fill[5:], env)
    elif fill:
        lo, hi = (ev(x, env) for x in fill.split(".."))
        if ty in ("f32", "f64"):
            mode = "fr"
    return mode, lo, hi


def struct_layout(text, env, out, what):
    """Lays out a struct's `FIELD,...` by C's rules, appending the driver's field records
    (offset, e|p, type, count, mode, A, B) to `out`; returns (size, alignment)."""
    off, align = 0, 1
    for f in split_top(text):
        f = f.strip()
        m = re.fullmatch(r"\((.*)\)(?:\[(.+?)\])?", f)
        if m:
            sub = []
            size, al = struct_layout(m.group(1), env, sub, what)
            count = int(ev(m.group(2), env)) if m.group(2) else 1
            off = -(-off // al) * al
            for k in range(count):
                out += [(o + off + k * size, *rest) for o, *rest in sub]
            off += count * size
            align = max(align, al)
            continue
        m = re.fullmatch(r"(\*?)(f32|f64|i8|u8|i16|i32|u32|i64)(?:\[(.+?)\])?(?:\{(.+)\}|=(.+))?", f)
        if not m:
            raise SpecError(f"{what}: cannot read struct field {f!r}")
        ptr, ty, count, fill, const = m.groups()
        count = int(ev(count, env)) if count else 1
        if const is not None:
            if ptr:
                raise SpecError(f"{what}: a pointer field takes a fill, not a value: {f!r}")
            v = ev(const, env)
            mode, lo, hi = "c", repr(float(v)) if ty in ("f32", "f64") else int(v), 0
        else:
            mode, lo, hi = fill_of(ty, fill, env)
        size = 8 if ptr else SCALAR_SIZES[ty]
        off = -(-off // size) * size
        out.append((off, "p" if ptr else "e", ty, count, mode, lo, hi))
        off += size if ptr else size * count
        align = max(align, size)
    return -(-off // align) * align, align


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
    """[(source path, [Spec])] for the kernel folder's files and bench.spec. A file's
    `difftest-modes: opt,lowering` line names the modes whose default kernel set it joins (both
    when absent); see main."""
    out = []
    for path in sorted(glob.glob(os.path.join(KERNEL_DIR, "*.cu")) + glob.glob(os.path.join(KERNEL_DIR, "*.ll"))):
        with open(path) as f:
            text = f.read()
        specs = [Spec(path, m.group(1)) for m in re.finditer(r"^\s*(?://|;)\s*difftest:\s*(.+)$", text, re.M)]
        modes = re.search(r"^\s*(?://|;)\s*difftest-modes:\s*(.+)$", text, re.M)
        for sp in specs:
            sp.modes = {m.strip() for m in modes.group(1).split(",")} if modes else {"opt", "lowering"}
        out.append((path, specs))
    bench = {}
    with open(BENCH_SPEC) as f:
        lines = f.readlines()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            name, rest = line.split(None, 1)
            path = os.path.join(paths.ROOT, "bench", "kernels", name)
            bench.setdefault(path, []).append(Spec(path, rest))
    return out + sorted(bench.items())


# ---------------------------------------------------------------------------------------------
# IR handling

def kernel_signature(ir, name):
    """Parameter types (first token of each parameter; `byval` for a `ptr byval(%T)` one) and
    launch-bound attributes of a kernel."""
    m = re.search(r"^define [^@\n]*@" + re.escape(name) + r"\(", ir, re.M)
    if not m:
        raise SpecError(f"kernel {name} not defined in the module")
    depth, i = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(ir[i], 0)
        i += 1
    params = ir[m.end():i - 1]
    group = re.match(r"[^\n{]*?(#\d+)?\s*\{", ir[i:])
    types = ["byval" if re.search(r"\bbyval\(", p) else p.split()[0] for p in split_top(params) if p.strip()]
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


# Address-space casts host_ify turns into calls of the driver's checks (difftest_driver.c,
# "Address spaces"): (from, to) -> the driver's function; other casts stay no-ops on the host.
AS_CHECKS = {(101, 0): "__dt_as_param_to_gen", (0, 101): "__dt_as_gen_to_param",
             (0, 5): "__dt_as_gen_to_local", (0, 1): "__dt_as_gen_to_global"}
# NVVM intrinsics that convert between address spaces, modelled in IR by host_ify:
# name pattern -> (from, to, driver function or None for a plain cast).
AS_INTRINSICS = [(r"internal_addrspace_wrap_p101_p0", 0, 101, "__dt_as_wrap_param"),
                 (r"internal_addrspace_wrap_p(\d+)_p(\d+)", None, None, None),
                 (r"ptr_param_to_gen_p0_p101", 101, 0, "__dt_as_param_to_gen"),
                 (r"ptr_gen_to_param_p101_p0", 0, 101, "__dt_as_gen_to_param")]


def as_ty(n):
    return "ptr" if n == 0 else f"ptr addrspace({n})"


def as_convert_body(name, src, dst, check):
    """An IR function `dst-ptr name(src-ptr)` that converts through the driver's check."""
    body, v = [], "%p"
    if src:
        body.append(f"  %g = addrspacecast ptr addrspace({src}) %p to ptr")
        v = "%g"
    if check:
        body.append(f"  %c = call ptr @{check}(ptr {v})")
        v = "%c"
    if dst:
        body.append(f"  %r = addrspacecast ptr {v} to ptr addrspace({dst})")
        v = "%r"
    return (f"define internal {as_ty(dst)} @{name}({as_ty(src)} %p) {{\n" + "\n".join(body)
            + f"\n  ret {as_ty(dst)} {v}\n}}")


def define_params(line):
    """[(parameter text)] of a `define` line."""
    m = re.search(r"@[\w.$]+\(", line)
    depth, i = 1, m.end()
    while depth:
        depth += {"(": 1, ")": -1}.get(line[i], 0)
        i += 1
    return [p.strip() for p in split_top(line[m.end():i - 1]) if p.strip()]


def byval_of(param):
    """(byval type, alignment or None, value name) of a `ptr byval(%T) ...` parameter, else None."""
    m = re.search(r"\bbyval\(((?:[^()]|\([^()]*\))+)\)", param)
    if not m:
        return None
    al = re.search(r"\balign (\d+)", param)
    return m.group(1), al and int(al.group(1)), param.split()[-1]


def kernel_launcher(line):
    """The IR launcher `__dt_launch_K(ptr args)` for a kernel's define line: it reads the driver's
    argument array (8-byte slots: integers as i64, floats as double, pointers) and calls the
    kernel with `ptr byval(%T) align N` for each struct (after checking the spec's struct size
    against the type's). None when the kernel has no byval parameter."""
    params = define_params(line)
    if not any(byval_of(p) for p in params):
        return None
    name = re.search(r"@([\w.$]+)\(", line).group(1)
    body, args = [], []
    for i, p in enumerate(params):
        ty = p.split()[0]
        body.append(f"  %a{i} = getelementptr i64, ptr %args, i64 {i}")
        bv = byval_of(p)
        ext = " ".join(a for a in ("zeroext", "signext", "inreg") if re.search(rf"\b{a}\b", p))
        ext = ext + " " if ext else ""
        if bv:
            body += [f"  %v{i} = load ptr, ptr %a{i}",
                     f"  %z{i}p = getelementptr {bv[0]}, ptr null, i32 1",
                     f"  %z{i} = ptrtoint ptr %z{i}p to i64",
                     f"  call void @__dt_byval_check(i32 {i}, i64 %z{i})"]
            args.append(f"ptr byval({bv[0]}){f' align {bv[1]}' if bv[1] else ''} %v{i}")
        elif ty == "ptr":
            body.append(f"  %v{i} = load ptr, ptr %a{i}")
            args.append(f"ptr %v{i}")
        elif re.fullmatch(r"i\d+", ty):
            body.append(f"  %w{i} = load i64, ptr %a{i}")
            body.append(f"  %v{i} = trunc i64 %w{i} to {ty}" if ty != "i64" else f"  %v{i} = add i64 %w{i}, 0")
            args.append(f"{ty} {ext}%v{i}")
        elif ty in ("float", "double"):
            body.append(f"  %w{i} = load double, ptr %a{i}")
            body.append(f"  %v{i} = fptrunc double %w{i} to float" if ty == "float" else f"  %v{i} = fadd double %w{i}, 0.0")
            args.append(f"{ty} %v{i}")
        else:
            raise SpecError(f"{name}: parameter type {ty} is not supported")
    body.append(f"  call void @{name}({', '.join(args)})")
    return f"define void @__dt_launch_{name}(ptr %args) {{\n" + "\n".join(body) + "\n  ret void\n}"


def host_ify(ir, triple, layout, supported):
    """Host version of an NVPTX module's text. Returns (text, names of stubbed intrinsics).
    Besides the renames: each kernel with byval parameters registers them at entry
    (__dt_as_register) and gets an IR launcher (kernel_launcher); address-space casts and
    conversion intrinsics become calls of the driver's checks (AS_CHECKS, AS_INTRINSICS)."""
    ir = re.sub(r'^target datalayout = ".*"$', f'target datalayout = "{layout}"', ir, flags=re.M)
    ir = re.sub(r'^target triple = ".*"$', f'target triple = "{triple}"', ir, flags=re.M)
    stubs, lines, extra, casts, launchers, checks = [], [], [], set(), [], set()
    pending = None  # a kernel's define line whose byval registration comes next
    for line in ir.splitlines():
        if pending:
            label = re.match(r"^[-\w.$\"]+:", line)
            if label:
                lines.append(line)
            lines += entry_registration(pending)
            pending = None
            if label:
                continue
        if line.startswith("define") and re.search(r"\bptx_kernel ", line):
            launcher = kernel_launcher(line)
            if launcher:
                launchers.append(launcher)
                pending = line
        if line.startswith("declare") and "@llvm.nvvm." in line:
            m = re.match(r"declare (.*?)@llvm\.nvvm\.([\w.]+)\((.*)\)", line)
            name = "__dt_nvvm_" + m.group(2).replace(".", "_")
            model = next((x for x in AS_INTRINSICS if re.fullmatch(x[0], name[len("__dt_nvvm_"):])), None)
            if model:
                if model[1] is None:
                    mm = re.fullmatch(model[0], name[len("__dt_nvvm_"):])
                    dst, srcas, check = int(mm.group(1)), int(mm.group(2)), None
                else:
                    srcas, dst, check = model[1], model[2], model[3]
                if check:
                    checks.add(check)
                line = as_convert_body(name, srcas, dst, check)
            elif name in supported:
                line = f"declare {m.group(1)}@{name}({m.group(3)})"
            else:
                ret = [t for t in m.group(1).split() if not t.startswith(("noundef", "range", "zeroext", "signext"))
                       and not re.match(r"^-?\d+[,)]?$", t)]
                types = ", ".join(p.split()[0] for p in split_top(m.group(3)) if p.strip())
                stubs.append(name)
                line = (f"define {ret[-1]} @{name}({types}) {{\n  call void @abort()\n  unreachable\n}}")
        elif "@llvm.nvvm." in line:
            line = re.sub(r"(@llvm\.nvvm\.[\w.]+\(.*\)) #\d+$", r"\1", line)
        else:
            m = re.match(r"^(\s+%[-\w.$]+ = )addrspacecast (ptr(?: addrspace\((\d+)\))?) ([%@][-\w.$]+) "
                         r"to (ptr(?: addrspace\((\d+)\))?)\s*(?:,.*)?$", line)
            if m and (int(m.group(3) or 0), int(m.group(6) or 0)) in AS_CHECKS:
                key = (int(m.group(3) or 0), int(m.group(6) or 0))
                casts.add(key)
                line = f"{m.group(1)}call {m.group(5)} @__dt_asc_{key[0]}_{key[1]}({m.group(2)} {m.group(4)})"
        lines.append(line)
    ir = "\n".join(lines) + "\n"
    ir = re.sub(r"\bptx_kernel ", "", ir)
    ir = re.sub(r' "target-(cpu|features)"="[^"]*"', "", ir)
    # a group left empty (it held only the target attributes) does not parse: keep it valid
    ir = re.sub(r"^(attributes #\d+ = \{)\s*\}$", r'\1 "difftest-host" }', ir, flags=re.M)
    ir = re.sub(r"@llvm\.nvvm\.([\w.]+)", lambda m: "@__dt_nvvm_" + m.group(1).replace(".", "_"), ir)
    for key in sorted(casts):
        checks.add(AS_CHECKS[key])
        extra.append(as_convert_body(f"__dt_asc_{key[0]}_{key[1]}", key[0], key[1], AS_CHECKS[key]))
    extra += [f"declare ptr @{c}(ptr)" for c in sorted(checks)]
    if launchers:
        extra += launchers + ["declare void @__dt_as_register(ptr, i64)", "declare void @__dt_byval_check(i32, i64)"]
    if stubs and not re.search(r"^declare .*@abort\(", ir, re.M):
        extra.append("declare void @abort()")
    return ir + "".join(e + "\n" for e in extra), stubs


def entry_registration(define_line):
    """Instructions that register a kernel's byval parameters with the driver at entry."""
    out = []
    for k, p in enumerate(define_params(define_line)):
        bv = byval_of(p)
        if bv:
            out += [f"  %__dt_szp{k} = getelementptr {bv[0]}, ptr null, i32 1",
                    f"  %__dt_sz{k} = ptrtoint ptr %__dt_szp{k} to i64",
                    f"  call void @__dt_as_register(ptr {bv[2]}, i64 %__dt_sz{k})"]
    return out


PARAM_WRITE = re.compile(r"^\s*(?:store [^;]*, ptr addrspace\(101\) |.*@llvm\.mem(?:cpy|move|set)(?:\.inline)?\.p101\.)", re.M)


def param_writes(ir):
    """Lines of an NVPTX module that write kernel-parameter space (read-only on the GPU)."""
    return [m.group(0).strip() for m in PARAM_WRITE.finditer(ir) if not m.group(0).lstrip().startswith("declare")]


C_TYPES = {"i1": "_Bool", "i8": "signed char", "i16": "short", "i32": "int", "i64": "long long",
           "float": "float", "double": "double", "ptr": "void *"}


def driver_source(kernels):
    """The driver C text for [(kernel name, parameter types)]."""
    out = [open(DRIVER_C).read()]
    for name, types in kernels:
        if "byval" in types:  # called through the IR launcher host_ify adds (kernel_launcher)
            out.append(f"extern void __dt_launch_{name}(dt_arg *);")
        else:
            out.append(f"extern void {name}({', '.join(C_TYPES[t] for t in types) or 'void'});")
    out.append("static void dt_launch(int kernel, dt_arg *a) {\n  switch (kernel) {")
    for k, (name, types) in enumerate(kernels):
        if "byval" in types:
            out.append(f"  case {k}: __dt_launch_{name}(a); break;")
            continue
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


def setup_unit(u, triple_layout, supported, prep_args):
    """Device IR, prep, driver. Returns None or an error text (the unit is then not run)."""
    src = os.path.join(u.dir, "device.bc")
    if u.path.endswith(".cu"):
        cmd = paths.device_ir_cmd(u.path, src) + ["-ffp-contract=off"]
        code, _, err = run(cmd)
    else:
        code, _, err = run([f"{BIN}/llvm-as", u.path, "-o", src])
    if code != 0:
        return f"cannot compile {u.path}: {err.strip()[:300]}"
    u.input = os.path.join(u.dir, "input.ll")
    code, _, err = run([OPT, *prep_args, f"-passes={PREPS[u.prep]}", src, "-S", "-o", u.input])
    if code != 0:
        return f"prep {u.prep} failed on {u.path}: {err.strip()[:300]}"
    ir = open(u.input).read()
    try:
        host, stubs = host_ify(ir, *triple_layout, supported)
    except SpecError as e:
        return str(e)
    u.kernels, u.launch_attrs = [], {}
    for s in u.specs:
        types, attrs = kernel_signature(ir, s.kernel)
        blocked = [x for x in stubs if x in functions_reaching(host, s.kernel)]
        if blocked:
            return f"{s.kernel} calls {', '.join(blocked)}: sequential host execution cannot model it"
        if len(types) != len(s.args) or any((t == "ptr") != bool(re.match(r"\w+\[", a)) or
                                            (t == "byval") != a.startswith("byval(") for t, a in zip(types, s.args)):
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


def build_side(u, module, tag, triple_layout, supported, mutate=None):
    """Host-ifies an NVPTX module and links it with the unit's driver; returns the linked path."""
    ir = open(module).read()
    if mutate:
        ir = inject_bug(ir, [k for k, _ in u.kernels], mutate)
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


def inject_bug(ir, kernels, kind="fadd"):
    """Self-check: `fadd`: the first fadd of each kernel becomes an fsub; `wrap`: in each kernel,
    the param-space wraps (llvm.nvvm.internal.addrspace.wrap) of a byval parameter take a local
    copy of it instead, the shape of the double-lowering bug (the second NVPTXLowerArgs copies
    the parameter into an alloca and replaces the first one's wrap operand by it)."""
    def fadd(m):
        return m.group(0) if m.group(1) not in kernels else re.sub(r"= fadd ", "= fsub ", m.group(0), count=1)

    def wrap(m):
        text = m.group(0)
        if m.group(1) not in kernels:
            return text
        define, body = text.split("\n", 1)
        copy = []
        for k, p in enumerate(define_params(define)):
            bv = byval_of(p)
            if not bv:
                continue
            body, n = re.subn(r"(@llvm\.nvvm\.internal\.addrspace\.wrap\.p101\.p0\(ptr (?:nonnull )?)"
                              + re.escape(bv[2]) + r"\)", rf"\g<1>%__dt_bug{k})", body)
            if n:
                copy += [f"  %__dt_bug{k} = alloca {bv[0]}, align 16", f"  %__dt_bugv{k} = load {bv[0]}, ptr {bv[2]}",
                         f"  store {bv[0]} %__dt_bugv{k}, ptr %__dt_bug{k}"]
        label = re.match(r"^[-\w.$\"]+:[^\n]*\n", body)
        at = label.end() if label else 0
        return define + "\n" + body[:at] + "".join(c + "\n" for c in copy) + body[at:]
    return re.sub(r"^define [^@\n]*@([\w.$]+)\(.*?^\}", fadd if kind == "fadd" else wrap, ir, flags=re.M | re.S)


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
                argv.append(p[1] if p[0] in ("buf", "byval") else scalar_arg(p, t))
            out.append((k, s.kernel, seed, argv))
    return out


def mir_ir(text):
    """The LLVM IR module of a MIR file (its first YAML document, `--- |`, indented by two)."""
    m = re.search(r"^--- \|\n(.*?)^(?:\.\.\.|---)", text, re.M | re.S)
    if not m:
        return None
    return "\n".join(line[2:] if line.startswith("  ") else line.strip() for line in m.group(1).splitlines()) + "\n"


def llc_lower(flow, src, out, extra):
    """llc's IR just before instruction selection (LLC_ARGS), written to `out` as IR text;
    returns None or (kind, message)."""
    mir = out[:-3] + ".mir"
    load = [f"--load-pass-plugin={paths.PLUGIN}"] if flow == "llc-nvopt" else []
    code, _, err = run([LLC, *load, *LLC_ARGS, *extra, src, "-o", mir])
    if crashed(code, err):
        return "llc-crash", err
    if code != 0:
        return "llc-error", err
    ir = mir_ir(open(mir).read())
    if ir is None:
        return "llc-error", f"no IR module in {mir}"
    with open(out, "w") as f:
        f.write(ir)
    return None


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
    ap.add_argument("--keep", default=os.path.join(paths.ROOT, "build", "difftest"),
                    help="where failing cases are saved")
    ap.add_argument("--kernels", action="append", help="only kernels whose file or name contains this")
    ap.add_argument("--preps", help=f"comma list of {list(PREPS)}; default {DEFAULT_PREPS['opt']} "
                    f"({DEFAULT_PREPS['lowering']} with --lowering)")
    ap.add_argument("--work", help="keep every intermediate file in this folder (default: a temporary one)")
    ap.add_argument("--block", help="launch every kernel with this block shape (BX[,BY[,BZ]]) instead "
                    "of its spec's; a shape outside a kernel's launch bounds is an error")
    ap.add_argument("--self-check", nargs="?", const="fadd", choices=["fadd", "wrap"], help="inject a bug "
                    "into every 'after' module: the run must report failures (fadd: a wrong fadd->fsub; "
                    "wrap: param-space wraps of a local copy of the byval parameter)")
    ap.add_argument("--lowering", action="store_true", help="lowering mode: 'after' is llc's IR "
                    "before instruction selection (llc " + " ".join(LLC_ARGS) + ") of the prep; "
                    "no --passes/--then")
    ap.add_argument("--lowerings", default=",".join(LOWERINGS), help="lowering flows with --lowering "
                    f"(comma list of {list(LOWERINGS)})")
    ap.add_argument("--llc-arg", action="append", default=[], help="extra llc option in lowering mode "
                    "(repeatable), e.g. -remat-maxreg-ceiling=8")
    args = ap.parse_args()
    t0 = time.time()
    mode = "lowering" if args.lowering else "opt"

    if args.lowering:
        if args.passes or args.then:
            ap.error("--lowering takes no --passes or --then")
        passes = [f for f in args.lowerings.split(",") if f]
        bad = [f for f in passes if f not in LOWERINGS]
        if bad:
            ap.error(f"unknown lowering flow {bad[0]}; valid: {', '.join(LOWERINGS)}")
    elif args.passes:
        passes = args.passes
    else:
        passes = []
        for p in PLUGIN_PASSES:
            if registered(p):
                passes.append(p)
            else:
                print(f"difftest: {p}: skipped: not registered")
        passes += WHOLE_PIPELINES
    thens = [""] if args.lowering else args.then if args.then is not None else DEFAULT_THENS
    pipelines = [(p, t) for p in passes for t in thens]
    preps = [p for p in (args.preps or DEFAULT_PREPS[mode]).split(",") if p]
    if any(p not in PREPS for p in preps):
        ap.error(f"unknown prep in {preps}; valid: {', '.join(PREPS)}")
    if args.lowering:  # only the preps some flow lowers
        preps = [p for p in preps if any(p in LOWERINGS[f] for f in passes)]

    def applies(prep, passes):
        """Whether a pipeline runs on a prep (a lowering flow only on its own optimizer's)."""
        return not args.lowering or prep in LOWERINGS[passes]

    def prep_args(prep):
        if prep in UPSTREAM_PREPS:
            return []
        # the opt mode's knobs make the plugin's passes rewrite more; the lowering mode's
        # preps are the real flow's
        return [f"-load-pass-plugin={paths.PLUGIN}"] if args.lowering else plugin_args()
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))

    def wanted(path, s):
        """--kernels selects by file path or kernel name; a kernel outside this mode's default set
        (its file's difftest-modes line) joins only when --kernels names its file or itself."""
        named = args.kernels and any(k in os.path.basename(path) or k in s.kernel for k in args.kernels)
        return (not args.kernels or any(k in path or k in s.kernel for k in args.kernels)) and \
            (mode in s.modes or named)

    sources = [(path, [s for s in specs if wanted(path, s)]) for path, specs in read_specs()]
    sources = [(p, s) for p, s in sources if s]
    supported = supported_intrinsics()
    failures, errors, counts, changed_by, flows = [], [], {"runs": 0, "changed": 0, "modules": 0}, {}, {}

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
            for u, err in zip(units, pool.map(lambda u: setup_unit(u, tl, supported, prep_args(u.prep)), units)):
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
                writes = param_writes(open(mod).read())
                if writes:
                    return None, f"{u.name}: 'before' module writes param space: {writes[0]}"
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
            jobs = {pool.submit(before, u, t): (u.name, t) for u in units for t in thens
                    if any(applies(u.prep, p) for p, _ in pipelines)}
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
                if args.lowering:
                    bad = llc_lower(passes, u.input, mod, args.llc_arg)
                else:
                    bad = opt_pipeline(u, passes, u.input, mod)
                if not bad and then:
                    passed = os.path.join(u.dir, tag + ".p.ll")
                    os.replace(mod, passed)
                    bad = opt_pipeline(u, then, passed, mod)
                label = passes + (f" then {then}" if then else "")
                res = {"runs": 0, "changed": 0, "fails": [], "label": label, "flow": f"{u.prep} -> {passes}"}
                if bad:
                    res["fails"].append((bad[0], u, label, None, None, bad[1], base[0], mod, None, None))
                    return res
                writes = param_writes(open(mod).read())
                if writes:
                    res["fails"].append(("param-write", u, label, None, None, "writes param space:\n" +
                                         "\n".join(writes), base[0], mod, None, None))
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
                    elif code == 3 and "ADDRSPACE" in err:
                        kind = "addrspace"
                    elif code != 0:
                        kind = "lli-crash" if crashed(code, err) else "lli-error"
                    elif out != want:
                        kind = "mismatch"
                    if kind:
                        res["fails"].append((kind, u, label, kernel, seed, err or out, base[0], mod,
                                             (base[1], linked, argv), (want, out)))
                return res

            jobs = [pool.submit(after, u, p, t) for u in units for p, t in pipelines if applies(u.prep, p)]
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
                fl = flows.setdefault(res["flow"], [0, 0])
                fl[0] += res["runs"]
                fl[1] += len(res["fails"])
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
                    if args.lowering:
                        load = f"--load-pass-plugin={paths.PLUGIN} " if label == "llc-nvopt" else ""
                        f.write(f"# after.ll: the IR of {LLC} {load}{' '.join(LLC_ARGS + args.llc_arg)} "
                                "before.ll -o after.mir\n")
                    if args.self_check:
                        f.write(f"# --self-check={args.self_check}: after.host.ll carries the injected bug\n")
                    for side in ("before", "after"):
                        f.write(f"{LLI} --fp-contract=off {side}.linked.bc {' '.join(linked[2])} > {side}.out\n")
                    f.write("diff before.out after.out\n")
            print(f"FAIL {kind}: {u.name} {kernel or ''} seed {seed} pipeline '{label}'; kept in {where}")
            if outs and kind == "mismatch":
                for a, b in zip(outs[0].splitlines(), outs[1].splitlines()):
                    if a != b:
                        print(f"  before: {a}\n  after:  {b}")
            else:
                print("  " + "\n  ".join(msg.strip().splitlines()[:6]))

    for e in errors:
        print(f"ERROR {e}")
    nk = sum(len(u.specs) for u in units) // max(1, len(preps))
    mism = sum(1 for f in failures if f[0] == "mismatch")
    tail = (f"{counts['runs']} runs, {mism} mismatches, {len(failures) - mism} other failures, "
            f"{len(errors)} errors ({time.time() - t0:.0f} s)")
    if args.lowering:
        for flow, (runs, bad) in sorted(flows.items()):
            print(f"difftest: lowering '{flow}': {runs} runs, {bad} failures")
        print(f"difftest: {nk} kernels x {len(seeds)} seeds x {len(flows)} lowering flows "
              f"(llc {' '.join(LLC_ARGS + args.llc_arg)}): {tail}")
    else:
        for label, (ch, n) in sorted(changed_by.items()):
            print(f"difftest: pipeline '{label}': changed {ch} of {n} modules")
        print(f"difftest: {nk} kernels x {len(preps)} preps x {len(seeds)} seeds x {len(pipelines)} pipelines: {tail}")
    sys.exit(1 if failures or errors else 0)


if __name__ == "__main__":
    main()
