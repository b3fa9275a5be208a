# The bench's GPU mode (issue 3 "On a machine with an NVIDIA GPU", issue 7 likewise; never in
# CI): every bench kernel that scripts/difftest_kernels/bench.spec gives a launch for is run, as
# each column compiled it (upstream.ptx, nvopt.ptx, nvidia.ptx in the bench's work folder), on
# the same random inputs through the CUDA driver API (libcuda through ctypes: no Python package
# needed); by-value struct arguments get the bytes scripts/difftest_driver.c builds for the same
# seed (struct_bytes) and reach cuLaunchKernel as a pointer to them. Per kernel, seed and column it reports whether every buffer comes out byte-equal to
# upstream's, the largest float difference where not, and the kernel time (median of --reps
# launches timed with CUDA events). nvopt must match upstream (same front end; issue 7); NVIDIA's
# column is reported only (another front end and FMA contraction). Writes gpu.tsv and gpu.md into
# the bench's --out folder; exit 1 on a CUDA error or an nvopt/upstream difference, 2 without a
# driver (the message names libcuda and what failed).
#
#   python3 -m nvopt_tools.bench.gpu_run --out build/bench/O3 [--seeds 2] [--reps 20]
#   (bench.py --run runs the static bench first and then this on its folder)
import argparse
import ctypes
import math
import os
import random
import re
import statistics
import struct
import sys

from nvopt_tools import difftest
from nvopt_tools.bench import report as report_mod
from nvopt_tools.paths import ROOT

BENCH = os.path.join(ROOT, "bench")

COLUMNS = ["upstream", "nvopt", "nvidia"]
ELEM = {"f32": "f", "f64": "d", "i8": "b", "u8": "B", "i16": "h", "i32": "i", "u32": "I", "i64": "q"}
PARAM = {"f32": "f", "f64": "d", "u8": "B", "s8": "b", "b8": "B", "u16": "H", "s16": "h", "b16": "H",
         "u32": "I", "s32": "i", "b32": "I", "u64": "Q", "s64": "q", "b64": "Q"}


class CudaError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# Inputs, parameters, comparison (no GPU needed: nvopt_tools/tests/test_gpu_run.py)

def buffer_bytes(elem, count, mode, lo, hi, rng):
    """A buffer argument's random bytes, drawn as scripts/difftest_driver.c's dt_fill draws them
    (not the same numbers: Python's generator seeded per kernel and seed): floats k/256 for k in
    [-2048, 2048) (exact in every float type), or in [lo, hi) for a float fill `{LO..HI}` (mode
    fr); integers in [lo, hi] or the ramp i*lo."""
    code = ELEM[elem]
    if code in "fd":
        if mode == "fr":
            span = max((int(hi) - int(lo)) * 256, 1)
            vals = [(int(lo) * 256 + rng.randrange(span)) / 256.0 for _ in range(count)]
        else:
            vals = [(rng.randrange(4096) - 2048) / 256.0 for _ in range(count)]
    elif mode == "ramp":
        vals = [i * lo for i in range(count)]
    else:
        vals = [rng.randint(lo, hi) for _ in range(count)]
    if code in "bBhHiIqQ":
        bits = struct.calcsize(code) * 8
        vals = [_wrap(v, bits, code.islower()) for v in vals]
    return struct.pack(f"<{count}{code}", *vals)


def _wrap(v, bits, signed):
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


# By-value struct arguments (`byval(FIELD,...)`, nvopt_tools/difftest.py class Spec): difftest's
# Spec.instance lays the struct out (struct_layout) and describes it in the driver's argument
# form `v:SIZE:OFF:e|p:TYPE:COUNT:MODE:A:B/...`; struct_bytes reads that text and fills the
# bytes as scripts/difftest_driver.c's dt_struct and dt_fill do, with the same splitmix64
# generator and seeds, so a struct (and the buffers its pointer fields point to) holds the same
# bytes on the GPU as in difftest's host run of the same seed.
M64 = (1 << 64) - 1


def _strtoll(text):
    """C's strtoll(text, 0, 10) for the driver's number fields (0 where no digits lead)."""
    m = re.match(r"\s*([+-]?\d+)", str(text))
    return max(-(1 << 63), min(int(m.group(1)), (1 << 63) - 1)) if m else 0  # strtoll saturates


def driver_seed(seed, param, field):
    """dt_struct's generator state for field `field` of the struct at parameter `param`."""
    return (seed * 1000003 + param * 7919 + (field + 1) * 104729 + 1) & M64


def driver_fill(elem, count, mode, a, b, state):
    """(bytes, state after): scripts/difftest_driver.c's dt_fill of `count` elements from the
    splitmix64 state `state` (dt_rng; dt_next advances it, then mixes). Modes: c = the constant A
    (strtod for floats, else strtoll truncated to the element), fr = floats k/256 for k in
    [A*256, B*256), r = floats k/256 for k in [-2048, 2048) or integers in [A, B], ramp = i*A
    (integers only; floats take r)."""
    code = ELEM[elem]
    ia, ib = _strtoll(a), _strtoll(b)
    vals = []
    for i in range(count):
        if mode == "c":
            vals.append(float(a) if code in "fd" else ia)
            continue
        if code in "fd" or mode != "ramp":
            state = (state + 0x9E3779B97F4A7C15) & M64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            z ^= z >> 31
        if code in "fd":
            if mode == "fr":
                span = (ib - ia) * 256
                k = ia * 256 + z % (span if span > 0 else 1)
            else:
                k = z % 4096 - 2048
            vals.append(k / 256.0)  # (float)k / 256.0f: k is exact, /256 scales exactly
        elif mode == "ramp":
            vals.append(i * ia)
        else:
            vals.append(ia + z % ((ib - ia + 1) & M64))
    if code not in "fd":
        bits = struct.calcsize(code) * 8
        vals = [_wrap(v, bits, code.islower()) for v in vals]
    return struct.pack(f"<{count}{code}", *vals), state


def struct_bytes(param, seed, text):
    """(the struct's bytes, [(offset, elem, bytes of the buffer)] for its pointer fields) of a
    by-value struct argument at parameter index `param` (its place among all the kernel's
    arguments, as the driver counts), from Spec.instance's `v:SIZE:FIELD/...` text. The pointer
    slots hold zeros here; Cuda.run writes the device addresses into them."""
    _, size, fields = text.split(":", 2)
    size = int(size)
    data, ptrs = bytearray(size), []
    for f, rec in enumerate(fields.split("/") if fields else []):
        off, kind, elem, count, mode, a, b = rec.split(":")
        off, count = int(off), int(count)
        raw, _ = driver_fill(elem, count, mode, a, b, driver_seed(seed, param, f))
        if kind == "p":
            ptrs.append((off, elem, raw))
        elif off + len(raw) > size:
            raise CudaError(f"struct field {f} past the struct's {size} bytes")
        else:
            data[off:off + len(raw)] = raw
    return bytes(data), ptrs


def launch_inputs(spec, seed):
    """(grid, block, args) for one seed of a spec; args are ("buf", elem, bytes),
    ("scalar", value) and ("byval", struct bytes, [(offset, elem, bytes)] of its pointer
    fields: see struct_bytes)."""
    grid, block, params, _ = spec.instance(seed)
    rng = random.Random(f"gpu:{spec.kernel}:{seed}")
    args = []
    for i, p in enumerate(params):
        if p[0] == "buf":
            _, elem, count, mode, lo, hi = p[1].split(":")
            args.append(("buf", elem, buffer_bytes(elem, int(count), mode, _strtoll(lo), _strtoll(hi), rng)))
        elif p[0] == "byval":
            args.append(("byval", *struct_bytes(i, seed, p[1])))
        else:
            args.append(("scalar", difftest.ev(p[1], p[2])))
    return grid, block, args


def output_elems(args):
    """The element type of each buffer Cuda.run reads back, in its order: the buffer arguments
    and the buffers of struct pointer fields, in argument and field order (the driver's)."""
    out = []
    for a in args:
        if a[0] == "buf":
            out.append(a[1])
        elif a[0] == "byval":
            out += [elem for _, elem, _ in a[2]]
    return out


def ptx_params(ptx, kernel):
    """The PTX parameter types of `.entry kernel` (e.g. ["u32", "f32", "u64"]; a by-value struct
    `.param .align 4 .b8 k_param_0[36]` as "b8[36]"), None if absent."""
    m = re.search(r"\.entry\s+" + re.escape(kernel) + r"\s*\((.*?)\)", ptx, re.S)
    if not m:
        return None
    out = []
    for decl in m.group(1).split(","):
        t = re.search(r"\.param\s+(?:\.align\s+\d+\s+)?\.(\w+)", decl)
        if t:
            arr = re.search(r"\[(\d+)\]\s*$", decl.strip())
            out.append(f"{t.group(1)}[{arr.group(1)}]" if arr else t.group(1))
    return out


def pack_scalar(value, ptype):
    """A scalar argument's bytes for a PTX parameter type."""
    code = PARAM.get(ptype)
    if code is None:
        raise CudaError(f"parameter type .{ptype} not supported")
    if code in "fd":
        return struct.pack("<" + code, float(value))
    if isinstance(value, float):
        raise CudaError(f"float {value} for an integer parameter .{ptype}")
    return struct.pack("<" + code, _wrap(int(value), struct.calcsize(code) * 8, code.islower()))


def pack_struct(data, ptrs, addrs, ptype):
    """A by-value struct argument's bytes for a PTX byte-array parameter (`b8[N]`, N its size):
    `data` with the device address addrs[k] stored at pointer field k's offset."""
    m = re.fullmatch(r"([busf])(\d+)\[(\d+)\]", ptype)
    if not m or int(m.group(2)) // 8 * int(m.group(3)) != len(data):
        raise CudaError(f"a {len(data)}-byte struct for parameter .{ptype}")
    out = bytearray(data)
    for (off, _, _), addr in zip(ptrs, addrs):
        out[off:off + 8] = struct.pack("<Q", addr)
    return bytes(out)


def difference(elem, ref, got):
    """None when the bytes are equal; else the largest absolute difference between differing
    floats (inf where one is NaN or infinite), or how many integers differ."""
    if ref == got:
        return None
    code = ELEM[elem]
    size = struct.calcsize(code)
    n = len(ref) // size
    pairs = [(x, y) for i, (x, y) in enumerate(zip(struct.unpack(f"<{n}{code}", ref), struct.unpack(f"<{n}{code}", got)))
             if ref[i * size:(i + 1) * size] != got[i * size:(i + 1) * size]]
    if code in "fd":
        return max(abs(x - y) if math.isfinite(x) and math.isfinite(y) else math.inf for x, y in pairs)
    return len(pairs)


# ---------------------------------------------------------------------------------------------
# The CUDA driver API through ctypes

class Cuda:
    def __init__(self, lib=None):
        name = lib or os.environ.get("NVOPT_LIBCUDA", "libcuda.so.1")
        try:
            self.lib = ctypes.CDLL(name)
        except OSError as e:
            raise CudaError(f"cannot load the CUDA driver ({name}): {e}") from None
        self.call("cuInit", ctypes.c_uint(0))
        dev = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(dev), ctypes.c_int(0))
        self.ctx = ctypes.c_void_p()
        self.call("cuDevicePrimaryCtxRetain", ctypes.byref(self.ctx), dev)
        self.call("cuCtxSetCurrent", self.ctx)
        name_buf = ctypes.create_string_buffer(256)
        self.call("cuDeviceGetName", name_buf, ctypes.c_int(256), dev)
        self.device = name_buf.value.decode(errors="replace")

    def call(self, fn, *args):
        r = getattr(self.lib, fn)(*args)
        if r != 0:
            msg = ctypes.c_char_p()
            self.lib.cuGetErrorString(r, ctypes.byref(msg))
            raise CudaError(f"{fn}: error {r} ({(msg.value or b'?').decode()})")

    def load(self, image):
        """A module from a cubin's bytes or a PTX text (NUL-terminated for the driver's JIT)."""
        data = image if isinstance(image, bytes) else image.encode() + b"\0"
        mod = ctypes.c_void_p()
        self.call("cuModuleLoadData", ctypes.byref(mod), ctypes.c_char_p(data))
        return mod

    def function(self, mod, name):
        fn = ctypes.c_void_p()
        self.call("cuModuleGetFunction", ctypes.byref(fn), mod, name.encode())
        return fn

    def run(self, fn, grid, block, args, ptypes, reps):
        """Copies the buffers in, launches once (the result) and `reps` times more (timed), and
        returns (the bytes of the buffers after the first launch, in output_elems' order,
        [ms per timed launch]). A by-value struct goes into kernelParams as a pointer to its
        bytes (cuLaunchKernel copies each parameter's size from there, a struct's size being its
        .b8 array's), the device addresses of the buffers its pointer fields get written in."""
        if len(ptypes) != len(args):
            raise CudaError(f"{len(args)} spec arguments for {len(ptypes)} PTX parameters")
        ptrs, holders, outs_at = [], [], []

        def device_copy(data):
            p = ctypes.c_uint64()
            self.call("cuMemAlloc_v2", ctypes.byref(p), ctypes.c_size_t(max(len(data), 1)))
            ptrs.append(p)
            self.call("cuMemcpyHtoD_v2", p, data, ctypes.c_size_t(len(data)))
            outs_at.append((p, len(data)))
            return p.value

        try:
            for (kind, *rest), ptype in zip(args, ptypes):
                if kind == "buf":
                    holders.append(ctypes.c_uint64(device_copy(rest[1])))
                elif kind == "byval":
                    data, fields = rest
                    addrs = [device_copy(raw) for _, _, raw in fields]
                    holders.append(ctypes.create_string_buffer(pack_struct(data, fields, addrs, ptype)))
                else:
                    holders.append(ctypes.create_string_buffer(pack_scalar(rest[0], ptype)))
            params = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])

            def launch():
                self.call("cuLaunchKernel", fn, *map(ctypes.c_uint, grid), *map(ctypes.c_uint, block),
                          ctypes.c_uint(0), ctypes.c_void_p(), params, ctypes.c_void_p())
            launch()
            self.call("cuCtxSynchronize")
            outs = []
            for p, size in outs_at:
                data = ctypes.create_string_buffer(size)
                self.call("cuMemcpyDtoH_v2", data, p, ctypes.c_size_t(size))
                outs.append(data.raw[:size])
            return outs, [self.timed(launch) for _ in range(reps)]
        finally:
            for p in ptrs:
                self.lib.cuMemFree_v2(p)

    def timed(self, launch):
        start, stop, ms = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_float()
        self.call("cuEventCreate", ctypes.byref(start), ctypes.c_uint(0))
        self.call("cuEventCreate", ctypes.byref(stop), ctypes.c_uint(0))
        try:
            self.call("cuEventRecord", start, ctypes.c_void_p())
            launch()
            self.call("cuEventRecord", stop, ctypes.c_void_p())
            self.call("cuEventSynchronize", stop)
            self.call("cuEventElapsedTime", ctypes.byref(ms), start, stop)
            return ms.value
        finally:
            self.lib.cuEventDestroy_v2(start)
            self.lib.cuEventDestroy_v2(stop)


# ---------------------------------------------------------------------------------------------
# The run

GPU_SPEC = os.path.join(BENCH, "gpu.spec")


def gpu_only_specs(path=GPU_SPEC):
    """[(file stem, Spec)] of bench/gpu.spec: launches of kernels difftest cannot model."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                name, rest = line.split(None, 1)
                src = os.path.join(BENCH, "kernels", name)
                out.append((os.path.splitext(name)[0], difftest.Spec(src, rest)))
    return out


def bench_specs():
    """[(file stem, Spec)] of the bench kernels bench.spec gives launches for, then those of
    bench/gpu.spec."""
    out, kernels = [], os.path.realpath(os.path.join(BENCH, "kernels"))
    for path, specs in difftest.read_specs():
        if os.path.dirname(os.path.realpath(path)) == kernels:
            out += [(os.path.splitext(os.path.basename(path))[0], s) for s in specs]
    return out + gpu_only_specs()


def module_image(ptx_path, ptx, load):
    """What the driver loads for a column: with load "cubin", the cubin the static bench's ptxas
    made beside the PTX (the code whose registers and SASS the bench reports; a driver older than
    the PTX ISA that NVIDIA's wheel writes could not JIT that PTX) where there is one; else the
    PTX itself, compiled by the driver's JIT."""
    cubin = os.path.splitext(ptx_path)[0] + ".cubin"
    if load == "cubin" and os.path.exists(cubin):
        with open(cubin, "rb") as f:
            return f.read()
    return ptx


def run_all(cuda, work, seeds, reps, load):
    """Rows (kernel, seed, column, status, difference to upstream, median ms)."""
    rows, modules = [], {}
    for stem, spec in bench_specs():
        for seed in range(1, seeds + 1):
            grid, block, args = launch_inputs(spec, seed)
            ref = None
            for col in COLUMNS:
                row = {"kernel": f"{stem}:{spec.kernel}", "seed": seed, "column": col, "status": "ok", "diff": "", "ms": ""}
                try:
                    path = os.path.join(work, stem, f"{col}.ptx")
                    if not os.path.exists(path):
                        raise CudaError(f"no {path} (run the static bench first)")
                    ptx = open(path).read()
                    if path not in modules:
                        modules[path] = cuda.load(module_image(path, ptx, load))
                    ptypes = ptx_params(ptx, spec.kernel)
                    if ptypes is None:
                        raise CudaError(f"no .entry {spec.kernel} in {path}")
                    outs, times = cuda.run(cuda.function(modules[path], spec.kernel), grid, block, args, ptypes, reps)
                    row["ms"] = f"{statistics.median(times):.4f}" if times else ""
                    if ref is None:
                        ref = outs
                    else:
                        diffs = [difference(e, r, o) for e, r, o in zip(output_elems(args), ref, outs)]
                        diffs = [d for d in diffs if d is not None]
                        row["diff"] = "equal" if not diffs else f"{max(diffs):g}"
                except CudaError as e:
                    row["status"] = f"error: {e}"
                rows.append(row)
    return rows


def report(rows, device, out, load):
    """gpu.tsv and gpu.md in `out`; returns the failures (CUDA errors, nvopt != upstream)."""
    keys = ["kernel", "seed", "column", "status", "diff", "ms"]
    with open(os.path.join(out, "gpu.tsv"), "w") as f:
        f.write("\t".join(keys) + "\n")
        f.writelines("\t".join(str(r[k]) for k in keys) + "\n" for r in rows)
    fails = [r for r in rows if r["status"] != "ok" or (r["column"] == "nvopt" and r["diff"] not in ("", "equal"))]
    by = {}
    for r in rows:
        by.setdefault((r["kernel"], r["seed"]), {})[r["column"]] = r
    lines = [f"# GPU run on {device}, each column loaded as its {load}", "", "| kernel | seed | upstream ms | nvopt ms | nvidia ms | nvopt/upstream | nvopt/nvidia | nvopt = upstream | nvidia = upstream |",
             "|---|---|---|---|---|---|---|---|---|"]
    ratios = {"upstream": [], "nvidia": []}
    for (kernel, seed), cols in by.items():
        ms = {c: float(cols[c]["ms"]) if c in cols and cols[c]["ms"] else None for c in COLUMNS}
        cells = []
        for other in ("upstream", "nvidia"):
            if ms["nvopt"] and ms[other]:
                ratios[other].append(ms["nvopt"] / ms[other])
                cells.append(f"{ms['nvopt'] / ms[other]:.3f}")
            else:
                cells.append("")
        lines.append(f"| {kernel} | {seed} | " + " | ".join(f"{ms[c]:.4f}" if ms[c] else cols.get(c, {}).get("status", "") for c in COLUMNS)
                     + f" | {cells[0]} | {cells[1]} | {cols.get('nvopt', {}).get('diff', '')} | {cols.get('nvidia', {}).get('diff', '')} |")
    lines.append("")
    for other, rs in ratios.items():
        if rs:
            lines.append(f"Geometric mean of kernel time nvopt/{other}: {report_mod.geomean(rs):.3f} over {len(rs)} launches.")
    lines.append(f"Failures (CUDA errors, nvopt output differing from upstream): {len(fails)}.")
    with open(os.path.join(out, "gpu.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return fails


def probe():
    """None when a CUDA device can be opened, else what failed."""
    try:
        Cuda()
        return None
    except CudaError as e:
        return str(e)


def main(argv=None):
    ap = argparse.ArgumentParser(description="run the bench's PTX on the GPU: output equality and kernel time")
    ap.add_argument("--out", required=True, help="the static bench's --out folder (its work/ holds the PTX)")
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--load", choices=["cubin", "ptx"], default="cubin",
                    help="load each column's ptxas cubin (default) or its PTX through the driver's JIT")
    args = ap.parse_args(argv)
    try:
        cuda = Cuda()
    except CudaError as e:
        print(f"bench --run: needs an NVIDIA GPU and its driver: {e}", file=sys.stderr)
        return 2
    rows = run_all(cuda, os.path.join(args.out, "work"), args.seeds, args.reps, args.load)
    fails = report(rows, cuda.device, args.out, args.load)
    for r in fails:
        print(f"bench --run: FAIL {r['kernel']} seed {r['seed']} {r['column']}: {r['status']} {r['diff']}", file=sys.stderr)
    print(f"bench --run: {len(rows)} runs on {cuda.device}, {len(fails)} failure(s); {os.path.join(args.out, 'gpu.md')}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
