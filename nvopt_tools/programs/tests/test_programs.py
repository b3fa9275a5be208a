"""Unit tests of the program-corpus tool: the config, and the device script's parsing of what
kerneltime.c and the runs record (no GPU, no CUDA needed)."""
import contextlib
import io
import json
import os
import re
import tempfile
import unittest

from .. import config, device, static


class KerneltimeParsing(unittest.TestCase):
    def write(self, text):
        fd, path = tempfile.mkstemp(suffix=".tsv")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.remove, path)
        return path

    def test_records_sorted_and_bad_lines_skipped(self):
        path = self.write("# nvopt-kerneltime 1 pid=7\n" + device.KT_HEADER + "\n"
                          "_Z1bv\t300\t400\t100\t1x1x1\t32x1x1\t8\t0\t7\t2\n"
                          "_Z1av\t100\t150\t50\t1x1x1\t32x1x1\t8\t0\t7\t1\n"
                          "_Z1cv\t500\tx\tnotanumber\n"
                          "_Z1cv\t123\n"
                          "# end records=2 dropped=0\n")
        self.assertEqual(device.parse_kerneltime(path), [("_Z1av", 100, 50), ("_Z1bv", 300, 100)])

    def test_missing_file_is_empty(self):
        self.assertEqual(device.parse_kerneltime("/nonexistent/k.tsv"), [])

    def test_first_launch_dropped_single_kept(self):
        recs = [("k", 1, 90), ("k", 2, 10), ("k", 3, 12), ("once", 4, 70)]
        self.assertEqual(device.launch_times(recs), {"k": ([10, 12], 1), "once": ([70], 0)})


class OutputChecks(unittest.TestCase):
    def test_numbers_and_compare(self):
        spec = {"regex": r"sum = ([-0-9.e+]+)", "rtol": 1e-3}
        a = device.numbers("sum = 1.0000\nsum = 2e3\n", spec)
        self.assertEqual(a, [1.0, 2000.0])
        self.assertIsNone(device.same_numbers(a, [1.0004, 2000.5], spec))
        self.assertIn("value 1", device.same_numbers(a, [1.0, 2100.0], spec))
        self.assertIn("2 numbers", device.same_numbers(a, [1.0], spec))

    def test_numbers_default_regex_and_max(self):
        self.assertEqual(device.numbers("a 1 b -2.5 c 3e2", {"max": 2}), [1.0, -2.5])

    def test_check_output(self):
        prog = {"check": "PASS", "fail": "FAIL|mismatch"}
        self.assertEqual(device.check_output(prog, 0, "Test PASSED... PASS"), [])
        why = device.check_output(prog, 1, "a mismatch")
        self.assertEqual(len(why), 3)
        self.assertEqual(device.check_output({}, "timeout", ""), ["timeout"])

    def test_order_alternates(self):
        orders = [device.order_for(r, 0) for r in range(4)]
        for o in orders:
            self.assertEqual(sorted(o), sorted(device.RUN_BUILDS))
        self.assertEqual(len({tuple(o) for o in orders}), 4)
        self.assertNotEqual(device.order_for(0, 0)[0], device.order_for(0, 1)[0])


class Waived(unittest.TestCase):
    class FakeRunner:
        """Answers each build's run with a scripted (rc, output)."""
        pack = "/nonexistent"

        def __init__(self, answers):
            self.answers = answers

        def left(self):
            return 1e9

        def run(self, prog, build, rnd):
            rc, text = self.answers[build]
            return rc, text, 0.1, build

    def statuses(self, answers):
        prog = {"name": "p", "check": "PASS", "workdir": "."}
        rows = device.run_round(self.FakeRunner(answers), {"programs": [prog]}, 0, reserve=1)
        return {r["build"]: r["status"] for r in rows}

    def test_waived_everywhere_is_not_wrong(self):
        w = (2, "needs two GPUs, Waiving execution")
        st = self.statuses({b: w for b in device.RUN_BUILDS})
        self.assertEqual(set(st.values()), {"waived"})

    def test_waived_only_in_nvopt_is_wrong(self):
        answers = {b: (0, "Test PASSED") for b in device.RUN_BUILDS}
        answers["nvopt"] = (2, "Waiving execution")
        st = self.statuses(answers)
        self.assertEqual(st["nvopt"], "WRONG")
        self.assertEqual(st["nvcc"], "ok")

    def test_exit_2_without_waiving_line_is_wrong(self):
        st = self.statuses({b: (2, "PASS") for b in device.RUN_BUILDS})
        self.assertEqual(set(st.values()), {"WRONG"})


class RoundOrder(unittest.TestCase):
    def test_groups_interleaved_fewest_runs_first(self):
        progs = [{"name": n, "group": n[0]} for n in ("a1", "a2", "a3", "b1", "c1", "c2")]
        order = [p["name"] for p in device.round_order(progs, {})]
        self.assertEqual(order, ["a1", "b1", "c1", "a2", "c2", "a3"])
        order = [p["name"] for p in device.round_order(progs, {"a1": 4, "b1": 4, "c1": 2})]
        self.assertEqual(order, ["a2", "c2", "a3", "c1", "a1", "b1"])


class Scheduling(unittest.TestCase):
    def test_quick_unknown_slow(self):
        progs = [{"name": "s1", "group": "a", "observed_seconds": 44.0},
                 {"name": "u1", "group": "a"},
                 {"name": "q1", "group": "a", "observed_seconds": 0.5},
                 {"name": "s2", "group": "b", "observed_seconds": 9.0},
                 {"name": "q2", "group": "b", "observed_seconds": 0.4}]
        order = [p["name"] for p in device.round_order(progs, {})]
        self.assertEqual(order, ["q1", "q2", "u1", "s2", "s1"])
        # unknown programs of groups whose observed median is slow (a: 22 s, c) wait for
        # the others (d)
        progs += [{"name": "cq", "group": "c", "observed_seconds": 40.0},
                  {"name": "cu", "group": "c"}, {"name": "du", "group": "d"}]
        order = [p["name"] for p in device.round_order(progs, {})]
        self.assertEqual(order, ["q1", "q2", "du", "u1", "cu", "s2", "cq", "s1"])

    def test_fits(self):
        self.assertTrue(device.fits({"name": "u"}, 1, 10))
        self.assertFalse(device.fits({"observed_seconds": 44.0}, 150, 10))
        self.assertTrue(device.fits({"observed_seconds": 0.5}, 150, 10))

    def test_observed_seconds(self):
        from .. import pack
        fd, path = tempfile.mkstemp(suffix=".tsv")
        with os.fdopen(fd, "w") as f:
            f.write("round\tprogram\tbuild\tstatus\trc\tseconds\twhy\tnote\n"
                    "0\tp\tnvcc\tok\t0\t1.0\t\t\n0\tp\tnvopt\tok\t0\t3.0\t\t\n"
                    "0\tp\tupstream\tok\t0\t2.0\t\t\n"
                    "0\tslow\tnvcc\tWRONG\ttimeout\t60.2\ttimeout\t\n"
                    "0\tcut\tnvcc\tnot run (time)\t\t\t\t\n")
        self.addCleanup(os.remove, path)
        self.assertEqual(pack.observed_seconds([path]), {"p": 2.0, "slow": 60.2})


class Recheck(unittest.TestCase):
    def test_mended_check_and_dropped_program(self):
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        os.makedirs(os.path.join(d, "runs", "r0", "nvopt"))
        with open(os.path.join(d, "runs", "r0", "nvopt", "g__p.out"), "w") as f:
            f.write("keys: OK\n")
        runs = [{"round": "0", "program": "g/p", "build": "nvopt", "status": "WRONG", "rc": "0",
                 "why": "no match for check /PASS/ | compare: value 0: 1 != nvcc's 2"},
                {"round": "0", "program": "g/gone", "build": "nvopt", "status": "WRONG",
                 "rc": "timeout", "why": "timeout"}]
        manifest = {"programs": [{"name": "g/p", "check": "keys: OK"}]}
        out = device.recheck(manifest, d, runs)
        self.assertEqual([r["program"] for r in out], ["g/p"])
        self.assertEqual(out[0]["why"], ["compare: value 0: 1 != nvcc's 2"])
        self.assertEqual(out[0]["status"], "WRONG")
        runs[0]["why"] = "no match for check /PASS/"
        self.assertEqual(device.recheck(manifest, d, runs[:1])[0]["status"], "ok")


class Variants(unittest.TestCase):
    def test_variant_runs_and_ratio(self):
        prog = {"name": "g/p", "group": "g", "variants": ["nvopt-no-x"]}
        self.assertEqual(device.run_builds(prog),
                         ("nvcc", "upstream", "nvopt", "nvopt-no-x", "nvcc2"))
        # round 0 reaches every program's three builds first; the variants join in round 1
        self.assertEqual(device.run_builds(prog, 0, 1), device.RUN_BUILDS)
        self.assertEqual(device.run_builds(prog, 1, 1), device.run_builds(prog))
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        us = {"nvcc": 100, "upstream": 100, "nvopt": 100, "nvopt-no-x": 90, "nvcc2": 100}
        for b, t in us.items():
            os.makedirs(os.path.join(d, "runs", "r0", b))
            with open(os.path.join(d, "runs", "r0", b, "g__p.tsv"), "w") as f:
                f.write(device.KT_HEADER + "\n")
                for i in range(3):  # the first launch is dropped
                    f.write(f"_Z1kv\t{i * 10**6}\t0\t{t * 1000 + (50000 if i == 0 else 0)}"
                            "\t1x1x1\t1x1x1\t8\t0\t7\t1\n")
        summary = device.report({"programs": [prog]}, d, d, runs=[], san=[])
        v = summary["variants"]["nvopt-no-x"]
        self.assertEqual((v["kernels_min_us"], v["faster"], v["slower"]), (1, 1, 0))
        self.assertAlmostEqual(v["geomean_min_us"], 0.9)
        with open(os.path.join(d, "kernels.md")) as f:
            self.assertIn("| nvopt-no-x | 1 | 0.900 |", f.read())


class Plan(unittest.TestCase):
    def test_plan_reaches_quick_programs_and_leaves_slow_ones(self):
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        progs = [{"name": f"q/{i}", "group": "q", "observed_seconds": 1.0, "workdir": "."}
                 for i in range(10)]
        progs += [{"name": "s/big", "group": "s", "observed_seconds": 50.0, "workdir": "."},
                  {"name": "s/unknown", "group": "s", "workdir": "."},
                  {"name": "s/small", "group": "s", "workdir": ".", "observed_seconds": 50.0}]
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump({"programs": progs}, f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            device.main(["--pack", d, "--out", os.path.join(d, "o"), "--plan", "--budget",
                         "150", "--sanitizer-budget", "20", "--skip", "s/small"])
        text = out.getvalue()
        # 10 quick programs x 4 runs = 40 s; s/big's 200 s never fits; s/unknown (its group is
        # slow, so it waits for the quick ones) takes 4 x 1 s
        self.assertIn("plan: 11 of 12 programs get at least one full round within 150 s; "
                      "without one: s/big", text)

    def test_parallel_lanes_fit_more(self):
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        progs = [{"name": f"q/{i}", "group": "q", "observed_seconds": 5.0, "workdir": "."}
                 for i in range(8)]
        with open(os.path.join(d, "manifest.json"), "w") as f:
            json.dump({"programs": progs}, f)

        def reach(parallel):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                device.main(["--pack", d, "--out", os.path.join(d, "o"), "--plan", "--budget",
                             "100", "--sanitizer-budget", "0", "--max-rounds", "1",
                             "--parallel", str(parallel)])
            return re.search(r"plan: (\d+) of 8", out.getvalue()).group(1)
        # 20 s a program (4 runs of 5 s, started only while 22 s are left beyond the 30 s
        # reserve of round 0): one lane fits 3 of 8 in 100 s, two lanes twice as many
        self.assertEqual((reach(1), reach(2)), ("3", "6"))


class Overlap(unittest.TestCase):
    """Programs run side by side (--parallel): a launch that overlaps another process's GPU
    activity, on the shared CLOCK_REALTIME line, is left out of the times."""

    def write(self, d, build, offset, lines):
        os.makedirs(os.path.join(d, "runs", "r0", build), exist_ok=True)
        with open(os.path.join(d, "runs", "r0", build, "g__p.tsv"), "w") as f:
            f.write("# nvopt-kerneltime 2 pid=1\n")
            if offset is not None:
                f.write(f"# clock cupti_ns=1000 realtime_ns={1000 + offset}\n")
            f.write(device.KT_HEADER + "\n")
            for name, start, dur in lines:
                f.write(f"{name}\t{start}\t{start + dur}\t{dur}\t1x1x1\t1x1x1\t8\t0\t7\t1\n")

    def test_overlapping_launches_left_out(self):
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        ms = 1_000_000
        # nvcc: launches at 0, 10, 20, 30 ms (the first dropped), 100 us each
        self.write(d, "nvcc", 0, [("k", i * 10 * ms, 100_000) for i in range(4)])
        # nvopt, another process whose clock is 5 ms behind: a copy at realtime 20 ms meets
        # nvcc's third launch; its own kernel at realtime 40 ms meets nothing
        self.write(d, "nvopt", 5 * ms, [("[memcpy]", 15 * ms + 50_000, 10_000),
                                         ("k", 35 * ms, 100_000), ("k", 45 * ms, 200_000)])
        manifest = {"programs": [{"name": "g/p", "group": "g"}]}
        shared = {}
        times = device.collect_times(manifest, d, shared)
        self.assertEqual(times["g/p"]["nvcc"]["k"], [100.0, 100.0])
        self.assertEqual(times["g/p"]["nvopt"]["k"], [200.0])
        self.assertEqual(shared, {"nvcc": 1, "nvopt": 0})
        self.assertEqual(device.parse_kerneltime(os.path.join(d, "runs", "r0", "nvopt",
                                                              "g__p.tsv")),
                         [("k", 35 * ms, 100_000), ("k", 45 * ms, 200_000)])

    def test_files_without_a_clock_are_not_compared(self):
        d = tempfile.mkdtemp()
        self.addCleanup(__import__("shutil").rmtree, d)
        self.write(d, "nvcc", None, [("k", 0, 100), ("k", 1000, 100)])
        self.write(d, "nvopt", None, [("k", 0, 100), ("k", 1000, 100)])
        shared = {}
        device.collect_times({"programs": [{"name": "g/p", "group": "g"}]}, d, shared)
        self.assertEqual(shared, {"nvcc": 0, "nvopt": 0})

    def test_periods(self):
        m = device.OVERLAP_MARGIN_NS
        files = {"a": (0, [("k", 0, 10 * m)]), "b": (0, [("k", 5 * m, 20 * m)]),
                 "c": (0, [("k", 100 * m, 110 * m)])}
        self.assertEqual(device.shared_periods(files), [(4 * m, 11 * m)])
        self.assertTrue(device.overlaps([(4 * m, 11 * m)], 10 * m, 12 * m))
        self.assertFalse(device.overlaps([(4 * m, 11 * m)], 11 * m, 12 * m))


class Static(unittest.TestCase):
    """programs static: cuobjdump's -res-usage and -sass read per kernel, ratios and geomeans."""
    RES = ("Resource usage:\n Common:\n  GLOBAL:0\n Function _Z1kv:\n"
           "  REG:22 STACK:8 SHARED:0 LOCAL:4 CONSTANT[0]:560 TEXTURE:0\n"
           " Function _Z1jv:\n  REG:10 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:556\n")
    SASS = ("\tcode for sm_90\n\t\tFunction : _Z1kv\n\t.headerflags\t@\"EF_CUDA_SM90\"\n"
            "        /*0000*/                   LDC R1, c[0x0][0x28] ;    /* 0x00000a00ff017b82 */\n"
            "                                                             /* 0x000fe20000000800 */\n"
            "        /*0010*/                   EXIT ;                    /* 0x000000000000794d */\n"
            "        /*0020*/                   BRA 0x20;                 /* 0x000fc00000000000 */\n"
            "        /*0030*/                   NOP;                      /* 0x0000000000007918 */\n"
            "\t\tFunction : _Z1jv\n        /*0000*/  EXIT ;  /* 0x0 */\n")

    def test_parsers(self):
        self.assertEqual(static.parse_res_usage(self.RES),
                         {"_Z1kv": {"regs": 22, "stack": 8, "local": 4},
                          "_Z1jv": {"regs": 10, "stack": 0, "local": 0}})
        self.assertEqual(static.parse_sass(self.SASS), {"_Z1kv": 3, "_Z1jv": 1})

    def test_ratios_and_summary(self):
        rows = [{"program": "p", "group": "g", "kernel": "a",
                 "nvcc": {"regs": 20, "stack": 0, "local": 0, "sass": 100},
                 "nvopt": {"regs": 10, "stack": 0, "local": 8, "sass": 200}},
                {"program": "p", "group": "h", "kernel": "b",
                 "nvcc": {"regs": 40, "stack": 0, "local": 0, "sass": 50},
                 "nvopt": {"regs": 40, "stack": 16, "local": 0, "sass": 50}}]
        self.assertEqual(static.ratio(rows[0], "nvopt", "nvcc", "stack"), 1.0)
        self.assertIsNone(static.ratio(rows[1], "nvopt", "nvcc", "stack"))
        s = static.summarize(rows, [("nvopt", "nvcc")])
        self.assertAlmostEqual(s["all"]["nvopt/nvcc"]["regs"], 0.5 ** 0.5)
        self.assertAlmostEqual(s["all"]["nvopt/nvcc"]["sass"], 2 ** 0.5)
        self.assertEqual((s["all"]["nvopt/nvcc"]["fewer_regs"], s["all"]["nvopt/nvcc"]["more_regs"],
                          s["g"]["nvopt/nvcc"]["local"]), (1, 0, (8, 0)))


class Summary(unittest.TestCase):
    def test_targets_and_slow_kernels(self):
        rows = []
        for k, (nv, up, no, nv2) in {"a": (100, 100, 90, 101), "b": (50, 50, 60, 50),
                                     "tiny": (5, 5, 9, 5)}.items():
            r = {"program": "p", "group": "g", "kernel": k, "nvcc": nv, "upstream": up,
                 "nvopt": no, "nvcc2": nv2}
            for num, den in (("nvopt", "nvcc"), ("nvopt", "upstream"), ("upstream", "nvcc"),
                             ("nvcc2", "nvcc")):
                r[f"{num}/{den}"] = r[num] / r[den]
            rows.append(r)
        s = device.summarize(rows, [], [])
        self.assertEqual(s["kernels_min_us"], 2)
        self.assertAlmostEqual(s["groups"]["g"]["nvopt/nvcc"], (0.9 * 1.2) ** 0.5)
        self.assertEqual([k["kernel"] for k in s["slow_kernels"]], ["b"])
        self.assertFalse(s["targets"]["no kernel >10% slower than nvcc beyond noise"])
        self.assertIsNone(s["sanitizer"])


class Config(unittest.TestCase):
    def test_defaults_and_relative_sources(self):
        cfg = config.parse({"programs": [{"name": "g/p", "build": "make", "outputs": ["p"],
                                          "copy": [["src", "s"]]}]}, base="/cfg")
        p = cfg["programs"][0]
        self.assertEqual(p["group"], "g")
        self.assertEqual(p["copy"], [("/cfg/src", "s")])
        self.assertEqual(cfg["defaults"]["arch_flags"], "-gencode arch=compute_90,code=sm_90")

    def test_errors(self):
        bad = [{"programs": [{"name": "x", "build": "b"}]},
               {"programs": [{"name": "../x", "build": "b", "outputs": ["x"]}]},
               {"programs": [{"name": "x", "build": "b", "outputs": ["x"], "color": 1}]},
               {"programs": [{"name": "x", "build": "b", "outputs": ["x"],
                              "copy": [["a", "/abs"]]}]},
               {"programs": [{"name": "x", "build": "b", "outputs": ["x"], "check": "("}]},
               {"programs": [{"name": "x", "build": "b", "outputs": ["x"]},
                             {"name": "x", "build": "b", "outputs": ["x"]}]},
               {"nothing": []}]
        for raw in bad:
            with self.assertRaises(config.ConfigError, msg=raw):
                config.parse(raw)


if __name__ == "__main__":
    unittest.main()
