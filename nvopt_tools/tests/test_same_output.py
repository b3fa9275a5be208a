"""Unit tests of nvopt_tools/same_output.py's pure logic (no compiler needed): --new-knob
parsing, failure lines with each side's own paths as placeholders, the tally of base/new
results, and the deterministic every-Nth subset of --bc-every.
Run: python3 -m nvopt_tools.tests.test_same_output"""
import unittest

from nvopt_tools import same_output as so


class ParseKnob(unittest.TestCase):
    def test_name_and_value(self):
        self.assertEqual(so.parse_knob("nv-lsr-trial=1"), ("nv-lsr-trial", "1"))
        self.assertEqual(so.parse_knob("-nv-disable-load-hoist=1"), ("nv-disable-load-hoist", "1"))
        self.assertEqual(so.parse_knob("nv-maxreg="), ("nv-maxreg", ""))

    def test_refusals(self):
        for bad in ("nv-lsr-trial", "=1", "a b=1", ""):
            with self.assertRaises(ValueError, msg=bad):
                so.parse_knob(bad)


class Failed(unittest.TestCase):
    def test_own_paths_become_placeholders(self):
        base = so.failed("llc", "error: /w/k.base.ptx: bad\n", "/w/k.base.ptx", "/p/old.so")
        new = so.failed("llc", "error: /w/k.new.ptx: bad\n", "/w/k.new.ptx", "/p/new.so")
        self.assertEqual(base, new)
        self.assertEqual(base, "llc failed: error: <path0>: bad")
        self.assertTrue(so.is_failure(base))

    def test_driver_temp_folders(self):
        a = so.failed("driver", "in /tmp/nvopt-cc-12-345/x.bc")
        b = so.failed("driver", "in /tmp/nvopt-cc-67-890/x.bc")
        self.assertEqual(a, b)

    def test_crash_reports_left_out(self):
        a = so.failed("llc", "LLVM ERROR: Broken function\nPLEASE submit a bug report to x\n"
                      "Stack dump:\n #0 0x00007f71360b8786 llvm::sys::PrintStackTrace")
        b = so.failed("llc", "LLVM ERROR: Broken function\nPLEASE submit a bug report to x\n"
                      "Stack dump:\n #0 0x00007fa43784524a llvm::sys::PrintStackTrace")
        self.assertEqual(a, b)
        self.assertEqual(a, "llc failed: LLVM ERROR: Broken function [crashed]")

    def test_different_messages_stay_different(self):
        self.assertNotEqual(so.failed("opt", "error A"), so.failed("opt", "error B"))

    def test_keeps_the_end(self):
        self.assertEqual(len(so.failed("opt", "x" * 1000)), len("opt failed: ") + 300)


class Tally(unittest.TestCase):
    def test_counts(self):
        fail = so.failed("opt", "boom")
        same, both_failed, differ = so.tally([
            ("a", "ptx1", "ptx1"), ("b", "ptx1", "ptx2"), ("c", fail, fail),
            ("d", fail, "ptx3"), ("e", fail, so.failed("opt", "other"))])
        self.assertEqual(same, 2)
        self.assertEqual(both_failed, ["c"])
        self.assertEqual(differ, ["b", "d", "e"])

    def test_empty(self):
        self.assertEqual(so.tally([]), (0, [], []))


class EveryNth(unittest.TestCase):
    def test_sorted_stride(self):
        rels = ["c.bc", "a.bc", "e.bc", "b.bc", "d.bc"]
        self.assertEqual(so.every_nth(rels, 1), ["a.bc", "b.bc", "c.bc", "d.bc", "e.bc"])
        self.assertEqual(so.every_nth(rels, 2), ["a.bc", "c.bc", "e.bc"])
        self.assertEqual(so.every_nth(rels, 10), ["a.bc"])


if __name__ == "__main__":
    unittest.main(verbosity=2)
