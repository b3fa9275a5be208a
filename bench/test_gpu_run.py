#!/usr/bin/env python3
# Unit tests of the bench's GPU mode (bench/gpu_run.py) for everything that needs no GPU: PTX
# parameter lists, scalar packing, the random buffers, the comparison, the report and its
# failure rule, and the refusal without a CUDA driver. The CUDA calls themselves run only on a
# machine with a GPU. Run: python3 bench/test_gpu_run.py (plugin-tests/bench/gpu-run.test).
import io
import math
import os
import struct
import sys
import tempfile
import unittest
from contextlib import redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_run  # noqa: E402

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
"""


class Params(unittest.TestCase):
    def test_entry_parameter_types(self):
        self.assertEqual(gpu_run.ptx_params(PTX, "saxpy"), ["u32", "f32", "u64"])
        self.assertEqual(gpu_run.ptx_params(PTX, "other"), ["u64"])
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
