#!/usr/bin/env python3
"""Unit tests of scripts/realcode_check.py's SASS facts and summary (no NVIDIA tools needed):
the nvdisasm life-range parser, the register-limited warps per SM, and the summary's geomeans
and totals. Run: python3 scripts/test_realcode_check.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realcode_check as rc  # noqa: E402

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


if __name__ == "__main__":
    unittest.main(verbosity=2)
