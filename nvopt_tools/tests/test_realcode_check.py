"""Unit tests of nvopt_tools/realcode_check.py's SASS facts and summary (no NVIDIA tools needed):
the nvdisasm life-range parser, the register-limited warps per SM, the summary's geomeans and
totals, and the ptx_check figure (per kernel, listed, exit status 1 only for nvopt's findings).
Run: python3 -m nvopt_tools.tests.test_realcode_check"""
import contextlib
import io
import os
import tempfile
import unittest

from nvopt_tools import realcode_check as rc

LISTING = """\
\t.section\t.text.kern_a,"ax",@progbits
        /*0000*/                   LDC R1, c[0x0][0x28] ;     // |  1   ^    |
        /*0010*/                   S2R R0, SR_TID.X ;         // | 11 ^ :    |
        /*0020*/                   EXIT ;                     // |  2 : :    |
\t.section\t.text.kern_b,"ax",@progbits
        /*0000*/                   LDC R1, c[0x0][0x28] ;     // |  3   ^    | 1 ^ |
        /*0010*/                   EXIT ;                     // |  1   :    |
"""


class SassLive(unittest.TestCase):
    def test_max_per_function(self):
        self.assertEqual(rc.sass_live(LISTING), {"kern_a": 11, "kern_b": 3})

    def test_instruction_counts_leave_out_nops(self):
        listing = LISTING + "        /*0020*/                   NOP ;\n"
        listing += "        /*0030*/              @!P0 BRA 0x10 ;\n"
        self.assertEqual(rc.sass_counts(listing), {"kern_a": 3, "kern_b": 3})


class Warps(unittest.TestCase):
    def test_sm90_steps(self):
        # 256-register units per warp, 64K registers, at most 64 warps.
        self.assertEqual(rc.warps_per_sm(32, "sm_90"), 64)
        self.assertEqual(rc.warps_per_sm(33, "sm_90"), 51)
        self.assertEqual(rc.warps_per_sm(40, "sm_90"), 51)
        self.assertEqual(rc.warps_per_sm(64, "sm_90"), 32)
        self.assertEqual(rc.warps_per_sm(255, "sm_90"), 8)

    def test_smaller_warp_limit_and_unknown_arch(self):
        self.assertEqual(rc.warps_per_sm(16, "sm_86"), 48)
        self.assertIsNone(rc.warps_per_sm(16, "sm_35"))
        self.assertIsNone(rc.warps_per_sm(None, "sm_90"))


class Summary(unittest.TestCase):
    @staticmethod
    def row(*per_compiler):
        r = ["f.cu", "k"]
        for regs, live in per_compiler:
            vals = dict.fromkeys(rc.COLUMNS, "0")
            vals.update(regs=str(regs), live=str(live), warps=str(rc.warps_per_sm(regs, "sm_90")))
            r += [vals[c] for c in rc.COLUMNS]
        return r

    def test_geomeans_against_nvcc_and_missing_kernels(self):
        rows = [self.row((20, 10), (10, 10)), self.row((20, 10), (40, 20))]
        broken = self.row((10, 10), (10, 10))
        broken[2] = "-"  # nvopt did not assemble it: left out
        lines = rc.summary(rows + [broken], ["nvopt", "nvcc"])
        self.assertEqual(lines[0], "summary: 2 kernels assembled by every compiler")
        self.assertIn("  regs         geomean / nvcc's: nvopt 1.0000 (2)", lines)
        self.assertIn("  live         geomean / nvcc's: nvopt 0.7071 (2)", lines)
        self.assertIn("  calls        total: nvopt 0, nvcc 0", lines)

    def test_first_compiler_is_the_reference_without_nvcc(self):
        lines = rc.summary([self.row((20, 10), (10, 10))], ["upstream", "nvopt"])
        self.assertIn("  regs         geomean / upstream's: nvopt 0.5000 (1)", lines)

    def test_ptxcheck_total(self):
        row = self.row((20, 10), (10, 10))
        row[2 + rc.COLUMNS.index("ptxcheck")] = "3"
        lines = rc.summary([row, self.row((20, 10), (10, 10))], ["nvopt", "nvcc"])
        self.assertIn("  ptxcheck     total: nvopt 3, nvcc 0", lines)


# nvopt's PTX of a by-value struct kernel before its fix: ld.param through a cvta.param address.
BAD_PTX = """.version 8.0
.target sm_90
.address_size 64
.visible .entry k(
\t.param .align 4 .b8 k_param_0[16]
)
{
\t.reg .b32 \t%r<2>;
\t.reg .b64 \t%rd<3>;
\tmov.b64 \t%rd1, k_param_0;
\tcvta.param.u64 \t%rd2, %rd1;
\tld.param.b32 \t%r1, [%rd2+4];
\tret;
}
"""


class PtxCheck(unittest.TestCase):
    def run_main(self, bad_compiler):
        """realcode_check.main on one file, with `measure` reading BAD_PTX for `bad_compiler`
        and a clean kernel for the other: (exit status, output)."""
        good = BAD_PTX.replace("[%rd2+4]", "[%rd1+4]")
        saved = rc.measure, rc.nvidia_bin

        def measure(compiler, cu, out_dir, args, nv_bin):
            text = BAD_PTX if compiler == bad_compiler else good
            findings = rc.ptx_check.check_text(text, f"k.{compiler}.ptx")
            kernel = {**rc.ptx_facts(text), "ptxcheck": sum(1 for f in findings if f.function == "k")}
            return {"kernels": {"k": kernel}, "funcs": (0, 0), "ptxcheck": findings}

        rc.measure, rc.nvidia_bin = measure, lambda: None
        out = io.StringIO()
        try:
            with tempfile.TemporaryDirectory() as d:
                open(os.path.join(d, "k.cu"), "w").close()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                    code = rc.main([d, "--compilers", "upstream,nvopt"])
        finally:
            rc.measure, rc.nvidia_bin = saved
        return code, out.getvalue()

    def test_nvopt_findings_are_listed_and_fail(self):
        code, out = self.run_main("nvopt")
        self.assertEqual(code, 1)
        self.assertIn("  nvopt        -    -    -    - |    0    0    0    1 |    -    -", out)
        self.assertIn("ptx_check findings (nvopt_tools/ptx_check.py, every function): upstream 0, nvopt 1", out)
        self.assertIn("  [nvopt] k.nvopt.ptx:12: k: param-addr: ld.param through %rd2", out)

    def test_upstream_findings_are_reported_only(self):
        code, out = self.run_main("upstream")
        self.assertEqual(code, 0)
        self.assertIn("every function): upstream 1, nvopt 0", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
