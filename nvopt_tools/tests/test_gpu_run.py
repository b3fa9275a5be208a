# Unit tests of the bench's GPU mode (nvopt_tools/bench/gpu_run.py) for everything that needs no GPU: PTX
# parameter lists, scalar packing, the random buffers, by-value struct arguments (their bytes
# against scripts/difftest_driver.c's, their packing and how Cuda.run hands them to
# cuLaunchKernel, through a fake driver), the comparison, the report and its failure rule, and
# the refusal without a CUDA driver. The CUDA calls themselves run only on a machine with a GPU.
# Run: python3 -m nvopt_tools.tests.test_gpu_run (plugin-tests/bench/gpu-run.test).
import ctypes
import io
import math
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
from contextlib import redirect_stderr

from nvopt_tools.bench import gpu_run
difftest = gpu_run.difftest

PTX = r"""
.visible .entry saxpy(
	.param .u32 saxpy_param_0,
	.param .f32 saxpy_param_1,
	.param .u64 .ptr .align 1 saxpy_param_2
)
{
	ret;
}
.visible .entry other(
	.param .u64 other_param_0
)
{
	ret;
}
.visible .entry window(
	.param .align 4 .b8 window_param_0[36],
	.param .u64 .ptr .align 1 window_param_1,
	.param .u32 window_param_2
)
{
	ret;
}
"""


class Params(unittest.TestCase):
    def test_entry_parameter_types(self):
        self.assertEqual(gpu_run.ptx_params(PTX, "saxpy"), ["u32", "f32", "u64"])
        self.assertEqual(gpu_run.ptx_params(PTX, "other"), ["u64"])
        self.assertEqual(gpu_run.ptx_params(PTX, "window"), ["b8[36]", "u64", "u32"])
        self.assertIsNone(gpu_run.ptx_params(PTX, "absent"))

    def test_scalars_pack_to_the_parameter_type(self):
        self.assertEqual(gpu_run.pack_scalar(1.5, "f32"), struct.pack("<f", 1.5))
        self.assertEqual(gpu_run.pack_scalar(-1, "u32"), b"\xff\xff\xff\xff")
        self.assertEqual(gpu_run.pack_scalar(7, "s64"), struct.pack("<q", 7))
        with self.assertRaises(gpu_run.CudaError):
            gpu_run.pack_scalar(0.5, "u32")
        with self.assertRaises(gpu_run.CudaError):
            gpu_run.pack_scalar(1, "pred")


class Inputs(unittest.TestCase):
    def test_buffers_are_exact_floats_ranges_and_ramps(self):
        rng = gpu_run.random.Random(1)
        floats = struct.unpack("<64f", gpu_run.buffer_bytes("f32", 64, "r", 0, 1000, rng))
        self.assertTrue(all(-8 <= v < 8 and v * 256 == int(v * 256) for v in floats))
        self.assertEqual(struct.unpack("<4i", gpu_run.buffer_bytes("i32", 4, "ramp", 3, 0, rng)), (0, 3, 6, 9))
        small = gpu_run.buffer_bytes("u8", 100, "r", 250, 255, rng)
        self.assertTrue(all(250 <= b <= 255 for b in small))
        self.assertEqual(len(gpu_run.buffer_bytes("f64", 5, "r", 0, 1, rng)), 40)
        ranged = struct.unpack("<200f", gpu_run.buffer_bytes("f32", 200, "fr", -10, 10, rng))
        self.assertTrue(all(-10 <= v < 10 and v * 256 == int(v * 256) for v in ranged))
        self.assertTrue(any(abs(v) >= 8 for v in ranged))

    def test_a_bench_launch_is_deterministic_and_sized_by_its_spec(self):
        specs = dict((s.kernel, s) for _, s in gpu_run.bench_specs())
        self.assertIn("saxpy_gridstride", specs)
        spec = specs["saxpy_gridstride"]
        a, b = gpu_run.launch_inputs(spec, 1), gpu_run.launch_inputs(spec, 1)
        self.assertEqual(a, b)
        grid, block, args = a
        n = args[0][1]
        self.assertEqual([x[0] for x in args], ["scalar", "scalar", "buf", "buf"])
        self.assertEqual(len(args[2][2]), 4 * n)
        self.assertNotEqual(gpu_run.launch_inputs(spec, 2)[2], args)

    def test_gpu_only_launches_name_kernels_of_their_sources_once(self):
        stems = [(stem, s.kernel) for stem, s in gpu_run.bench_specs()]
        self.assertEqual(len(stems), len(set(stems)), "a kernel launched by both spec files")
        gpu_only = gpu_run.gpu_only_specs()
        self.assertIn("bf16_row_norm", [s.kernel for _, s in gpu_only])
        for stem, spec in gpu_only:
            with open(spec.source) as f:
                self.assertRegex(f.read(), r"__global__ void " + spec.kernel + r"\(")
            for seed in (1, 2):
                grid, block, args = gpu_run.launch_inputs(spec, seed)
                self.assertTrue(all(g > 0 for g in grid) and all(b > 0 for b in block), spec.kernel)


# A struct with every field form (nested array of structs with padding, f64, pointer fields,
# constants, a ramp, float ranges), after a scalar: its bytes for seed 3, as
# scripts/difftest_driver.c built them (the harness below, compiled with clang and run on that
# spec's driver arguments), pointer slots (offsets 32 and 56) zeroed; and the buffers its two
# pointer fields point to.
RICH = ("k n=5..9 grid=1 block=1 args=7,byval(i8{-100..100},(i16{-300..300},i32=n)[2],f64{-2..2},"
        "*f32[n]{-1..1},u8[3],i64{0..1000000},*i32[4]{ramp:3},f32=0.75,u32[2]{5..9},f32[2]),i32[3]")
RICH_SEED3 = ("0c000000f5ff0000090000000301000009000000000000000000000000e0ffbf0000000000000000"
              "b463dc0000000000862804000000000000000000000000000000403f0900000005000000004013c0"
              "00007cbe00000000")
RICH_SEED3_BUFS = [(32, "f32", "0000ea3e00005abf000006bf00006ebf00006d3f000054be00004e3f0000623f00007cbf"),
                   (56, "i32", "00000000030000000600000009000000")]
# Includes the driver and defines its dt_launch: prints each struct's bytes, then each buffer's
# name, address and bytes (once: the grid is one thread).
HARNESS = r"""
#include "difftest_driver.c"
static void dt_launch(int kernel, dt_arg *a) {
  (void)kernel;
  for (int i = 0; i < DT_MAX_PARAMS; ++i)
    if (dt_struct_bytes[i]) {
      printf("struct %d ", i);
      for (long long k = 0; k < dt_struct_bytes[i]; ++k) printf("%02x", ((unsigned char *)a[i].p)[k]);
      printf("\n");
    }
  for (int b = 0; b < dt_nbufs; ++b) {
    printf("buf %s %llx ", dt_bufs[b].name, (unsigned long long)(uintptr_t)(dt_bufs[b].base + DT_GUARD));
    for (long long k = 0; k < dt_bufs[b].count * dt_size(dt_bufs[b].type); ++k)
      printf("%02x", dt_bufs[b].base[DT_GUARD + k]);
    printf("\n");
  }
}
"""


def driver_argv(spec, seed):
    """The driver's arguments for a launch with integer scalars (difftest.launches' form)."""
    grid, block, params, _ = spec.instance(seed)
    return ["0", str(seed), *map(str, grid), *map(str, block)] + [
        p[1] if p[0] != "scalar" else f"s:{difftest.ev(p[1], p[2])}" for p in params]


class Structs(unittest.TestCase):
    def test_struct_bytes_match_the_c_driver_frozen(self):
        _, _, args = gpu_run.launch_inputs(difftest.Spec("t", RICH), 3)
        self.assertEqual([a[0] for a in args], ["scalar", "byval", "buf"])
        data, ptrs = args[1][1], args[1][2]
        self.assertEqual(data.hex(), RICH_SEED3)
        self.assertEqual([(o, e, raw.hex()) for o, e, raw in ptrs], RICH_SEED3_BUFS)
        self.assertEqual(gpu_run.output_elems(args), ["f32", "i32", "i32"])

    def test_struct_bytes_match_the_c_driver_compiled(self):
        cc = next((c for c in (difftest.CLANG, shutil.which("cc") or "") if c and os.path.exists(c)), None)
        if not cc:
            self.skipTest("no C compiler")
        scripts = os.path.dirname(difftest.DRIVER_C)
        specs = [difftest.Spec("t", RICH),
                 difftest.Spec("t", "k n=3..40 grid=1 block=1 args=byval(*f32[n],*f32[n],i32=n,f32{-2..2}),5"),
                 difftest.Spec("t", "k grid=1 block=1 args=byval(f32[17]{-4..4},f32=-8.0,f32=1.0),"
                                    "byval(u8[4],(i16,i8{-5..5})[3],i64{-9..9})")]
        with tempfile.TemporaryDirectory() as d:
            src, exe = os.path.join(d, "h.c"), os.path.join(d, "h")
            with open(src, "w") as f:
                f.write(HARNESS)
            subprocess.run([cc, "-O1", "-I", scripts, src, "-o", exe, "-lm"], check=True)
            for spec in specs:
                for seed in (1, 2, 3):
                    out = subprocess.run([exe, *driver_argv(spec, seed)], capture_output=True, text=True, check=True).stdout
                    c_structs = {int(m[1]): bytes.fromhex(m[2]) for m in (l.split() for l in out.splitlines() if l.startswith("struct "))}
                    c_bufs = {m[1]: (int(m[2], 16), bytes.fromhex(m[3]) if len(m) > 3 else b"")
                              for m in (l.split() for l in out.splitlines() if l.startswith("buf "))}
                    _, _, args = gpu_run.launch_inputs(spec, seed)
                    for i, a in enumerate(args):
                        if a[0] != "byval":
                            continue
                        got = bytearray(c_structs[i])
                        for f, (off, _, raw) in enumerate(a[2]):
                            name = next(n for n in c_bufs if n.startswith(f"buf{i}.") and
                                        c_bufs[n][0] == struct.unpack_from("<Q", got, off)[0])
                            self.assertEqual(c_bufs[name][1], raw, (spec.args, seed, name))
                            got[off:off + 8] = bytes(8)
                        self.assertEqual(bytes(got), a[1], (spec.args, seed, i))

    def test_a_hand_laid_out_struct(self):
        # struct { char c; struct { short s; int i; } in[2]; double d; float *p; int tail; }:
        # c at 0, in[] at 4 (its int's alignment) and 12, d at 24, p at 32, tail at 40, size 48.
        spec = difftest.Spec("t", "k grid=1 block=1 args=byval(i8=-1,(i16=2,i32=-3)[2],f64=0.5,*u8[5]{7..7},i32=9)")
        _, _, args = gpu_run.launch_inputs(spec, 1)
        data, ptrs = args[0][1], args[0][2]
        want = (b"\xff" + bytes(3) + struct.pack("<hxxi", 2, -3) * 2 + bytes(4) + struct.pack("<d", 0.5)
                + bytes(8) + struct.pack("<i", 9) + bytes(4))
        self.assertEqual(data, want)
        self.assertEqual(ptrs, [(32, "u8", b"\x07" * 5)])

    def test_struct_packing_for_the_ptx_parameter(self):
        data, ptrs = bytes(range(24)), [(0, "f32", b""), (8, "f32", b"")]
        packed = gpu_run.pack_struct(data, ptrs, [0x1122334455667788, 0xA0], "b8[24]")
        self.assertEqual(packed, struct.pack("<QQ", 0x1122334455667788, 0xA0) + bytes(range(16, 24)))
        with self.assertRaises(gpu_run.CudaError):
            gpu_run.pack_struct(data, [], [], "b8[28]")
        with self.assertRaises(gpu_run.CudaError):
            gpu_run.pack_struct(data, [], [], "u64")
        with self.assertRaises(gpu_run.CudaError):
            gpu_run.pack_scalar(1, "b8[24]")

    def test_byval_bench_kernels_are_launched_at_timing_sizes(self):
        # The launches' driver records (Spec.instance), not their millions of random elements.
        specs = dict((s.kernel, s) for stem, s in gpu_run.bench_specs() if stem == "byval_params")
        self.assertEqual(sorted(specs), ["byval_even_share_sum", "byval_ramp_lookup", "byval_stream_ptrs", "byval_window_scale"])
        for seed in (1, 2):
            for kernel, spec in specs.items():
                grid, block, params, env = spec.instance(seed)
                self.assertTrue(2000000 <= env["n"] <= 4000000, kernel)
                self.assertEqual(params[0][0], "byval", kernel)
            _, _, params, env = specs["byval_stream_ptrs"].instance(seed)
            n = env["n"]
            self.assertEqual(params[0][1], f"v:24:0:p:f32:{n}:r:0:1000/8:p:f32:{n}:r:0:1000/16:e:i32:1:c:{n}:0")
            grid, block, params, env = specs["byval_even_share_sum"].instance(seed)
            self.assertEqual(params[0][1], f"v:12:0:e:i32:1:c:{env['o']}:0/4:e:i32:1:c:{env['n']}:0/"
                                           f"8:e:i32:1:c:{grid[0] * block[0]}:0")
            self.assertEqual(params[2][1], f"b:u32:{grid[0]}:r:0:1000")
        data, ptrs = gpu_run.struct_bytes(0, 1, "v:24:0:p:f32:3:r:0:1000/8:p:f32:3:r:0:1000/16:e:i32:1:c:3:0")
        self.assertEqual(data, bytes(16) + struct.pack("<i", 3) + bytes(4))
        self.assertEqual([(o, e, len(raw)) for o, e, raw in ptrs], [(0, "f32", 12), (8, "f32", 12)])


class FakeDriver:
    """libcuda's calls Cuda.run makes, on host memory; its kernel is byval_stream_ptrs
    (`struct { const float *in; float *out; int n; }` by value, then a float): out[i] = in[i] *
    scale + out[i] for i < n, read through the struct's pointers."""

    def __init__(self):
        self.mem, self.freed, self.launches = {}, [], 0

    def cuMemAlloc_v2(self, p, size):
        buf = ctypes.create_string_buffer(size.value)
        p._obj.value = ctypes.addressof(buf)
        self.mem[p._obj.value] = buf
        return 0

    def cuMemcpyHtoD_v2(self, p, data, size):
        ctypes.memmove(p.value, data, size.value)
        return 0

    def cuMemcpyDtoH_v2(self, data, p, size):
        ctypes.memmove(data, p.value, size.value)
        return 0

    def cuMemFree_v2(self, p):
        self.freed.append(p.value)
        return 0

    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        self.launches += 1
        src, dst, n = struct.unpack("<QQi", ctypes.string_at(params[0], 20))
        scale = struct.unpack("<f", ctypes.string_at(params[1], 4))[0]
        assert src in self.mem and dst in self.mem, "pointer fields hold the device buffers"
        x = (ctypes.c_float * n).from_address(src)
        y = (ctypes.c_float * n).from_address(dst)
        if self.launches == 1:
            for i in range(n):
                y[i] = x[i] * scale + y[i]
        return 0

    def cuCtxSynchronize(self):
        return 0

    def cuEventCreate(self, e, flags):
        return 0

    def cuEventRecord(self, e, stream):
        return 0

    def cuEventSynchronize(self, e):
        return 0

    def cuEventElapsedTime(self, ms, a, b):
        ms._obj.value = 0.25
        return 0

    def cuEventDestroy_v2(self, e):
        return 0


class FakeLaunch(unittest.TestCase):
    def test_a_struct_goes_to_the_kernel_as_its_bytes_with_device_pointers(self):
        spec = difftest.Spec("t", "byval_stream_ptrs n=5..50 grid=1 block=32 args=byval(*f32[n],*f32[n],i32=n),0.5")
        _, block, args = gpu_run.launch_inputs(spec, 2)
        cuda = gpu_run.Cuda.__new__(gpu_run.Cuda)
        cuda.lib = FakeDriver()
        outs, times = cuda.run(None, (1, 1, 1), block, args, ["b8[24]", "f32"], 3)
        (_, xin), (_, yin) = [(o, raw) for o, _, raw in args[0][2]]
        n = len(xin) // 4
        x, y = struct.unpack(f"<{n}f", xin), struct.unpack(f"<{n}f", yin)
        self.assertEqual(outs, [xin, struct.pack(f"<{n}f", *[a * 0.5 + b for a, b in zip(x, y)])])
        self.assertNotEqual(outs[1], yin)
        self.assertEqual(times, [0.25] * 3)
        self.assertEqual(cuda.lib.launches, 4)
        self.assertEqual(sorted(cuda.lib.freed), sorted(cuda.lib.mem))


class Compare(unittest.TestCase):
    def test_equal_float_nan_and_integer_differences(self):
        f = lambda *v: struct.pack(f"<{len(v)}f", *v)
        self.assertIsNone(gpu_run.difference("f32", f(1, 2), f(1, 2)))
        self.assertEqual(gpu_run.difference("f32", f(1, 2), f(1, 2.5)), 0.5)
        self.assertEqual(gpu_run.difference("f32", f(1, 2), f(math.nan, 2)), math.inf)
        i = lambda *v: struct.pack(f"<{len(v)}i", *v)
        self.assertEqual(gpu_run.difference("i32", i(1, 2, 3), i(1, 0, 0)), 2)


class Report(unittest.TestCase):
    def rows(self, nvopt_diff, nvidia_diff):
        r = lambda col, ms, diff: {"kernel": "k:k", "seed": 1, "column": col, "status": "ok", "diff": diff, "ms": ms}
        return [r("upstream", "2.0000", ""), r("nvopt", "1.0000", nvopt_diff), r("nvidia", "4.0000", nvidia_diff)]

    def test_only_nvopt_differing_from_upstream_fails(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(gpu_run.report(self.rows("equal", "0.5"), "GPU", d, "cubin"), [])
            with open(os.path.join(d, "gpu.md")) as f:
                md = f.read()
            self.assertIn("| k:k | 1 | 2.0000 | 1.0000 | 4.0000 | 0.500 | 0.250 | equal | 0.5 |", md)
            self.assertIn("nvopt/upstream: 0.500 over 1 launches", md)
            self.assertEqual(len(gpu_run.report(self.rows("3", "equal"), "GPU", d, "cubin")), 1)
            with open(os.path.join(d, "gpu.tsv")) as f:
                self.assertEqual(f.read().count("\n"), 4)

    def test_no_driver_is_refused_with_exit_2(self):
        os.environ["NVOPT_LIBCUDA"] = "/nonexistent/libcuda.so.1"
        err = io.StringIO()
        with redirect_stderr(err):
            self.assertEqual(gpu_run.main(["--out", "/nonexistent"]), 2)
        self.assertIn("needs an NVIDIA GPU and its driver: cannot load the CUDA driver (/nonexistent/libcuda.so.1)", err.getvalue())


if __name__ == "__main__":
    unittest.main(verbosity=2)
