"""Unit tests of nvopt_tools/corpus_eval.py (no compiler or NVIDIA tool needed): the SASS
instruction count it added to realcode_check.py, the tune/validate
split (stable values, the corpus name in the hash, bench always tune, about half each), the
config file, knob and variant parsing, the plugin's option list, the ablation table's entries,
and the aggregation: geomeans, totals over the kernels every column compiled, the frame and
spill counts, failures and findings, the changed list and an ablation row.
Run: python3 -m nvopt_tools.tests.test_corpus_eval"""
import json
import os
import tempfile
import unittest

from nvopt_tools import corpus_eval as ce


LISTING = """\
\t.section\t.text.kern_a,"ax",@progbits
        /*0000*/                   LDC R1, c[0x0][0x28] ;     // |  1   ^    |
        /*0010*/               @P0 BRA `(.L_x_1) ;            // |  1   :    |
        /*0020*/              @!PT LDS RZ, [RZ] ;             // |  1   :    |
        /*0030*/                   EXIT ;                     // |  2 : :    |
        /*0040*/                   NOP;
\t.section\t.text.kern_b,"ax",@progbits
        /*0000*/                   EXIT ;
"""


class SassCount(unittest.TestCase):
    """realcode_check.sass_counts, the SASS instruction figure this tool added there."""
    def test_counts_per_function_without_nops(self):
        self.assertEqual(ce.rc.sass_counts(LISTING), {"kern_a": 4, "kern_b": 1})


class Split(unittest.TestCase):
    def test_stable_values(self):
        # sha256("tiny/axpy.cu")[0] is odd, sha256("tiny/stencil.cu")[0] even: fixed forever.
        self.assertEqual(ce.split_of("tiny", "axpy.cu"), "validate")
        self.assertEqual(ce.split_of("tiny", "local_sum.cu"), "validate")
        self.assertEqual(ce.split_of("tiny", "stencil.cu"), "tune")
        self.assertEqual(ce.split_of("tiny", "sub/scale.cu"), "tune")

    def test_corpus_name_is_part_of_the_key(self):
        self.assertEqual(ce.split_of("other", "local_sum.cu"), "tune")

    def test_separator_is_slash(self):
        self.assertEqual(ce.split_of("tiny", os.path.join("sub", "scale.cu")),
                         ce.split_of("tiny", "sub/scale.cu"))

    def test_bench_is_always_tune(self):
        self.assertEqual({ce.split_of("bench", f"k{i}.cu") for i in range(64)}, {"tune"})

    def test_about_half_each(self):
        n = sum(ce.split_of("c", f"dir/file{i}.cu") == "validate" for i in range(2000))
        self.assertTrue(900 < n < 1100, n)


class Config(unittest.TestCase):
    def write(self, data):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "c.json")
        with open(path, "w") as f:
            json.dump(data, f)
        return d, path

    def test_relative_paths_and_settings(self):
        d, path = self.write({"arch": "sm_80", "corpora": [
            {"name": "a", "root": "src", "include": ["inc", "/abs"], "define": ["X=1"]}]})
        corpora, settings = ce.load_config(path)
        self.assertEqual(settings, {"arch": "sm_80"})
        c = corpora[0]
        self.assertEqual((c.name, c.root, c.include, c.define, c.cuda_path),
                         ("a", os.path.join(d, "src"), [os.path.join(d, "inc"), "/abs"], ["X=1"],
                          None))

    def test_bare_list_and_none_cuda_path(self):
        _, path = self.write([{"name": "a", "root": "/r", "cuda_path": "none"}])
        corpora, _ = ce.load_config(path)
        self.assertEqual(corpora[0].cuda_path, "none")

    def test_errors(self):
        for bad in ([{"name": "a"}], [{"name": "a", "root": "x"}, {"name": "a", "root": "y"}],
                    [{"name": "bench", "root": "x"}]):
            _, path = self.write(bad)
            with self.assertRaises(ValueError):
                ce.load_config(path)

    def test_corpus_files_sorted_and_relative(self):
        d = tempfile.mkdtemp()
        for rel in ("b.cu", "a/z.cu", "a/y.h", "c.cuh"):
            os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
            open(os.path.join(d, rel), "w").close()
        files = ce.corpus_files(ce.Corpus("x", d, [], [], None))
        self.assertEqual(files, ["a/z.cu", "b.cu"])


class Knobs(unittest.TestCase):
    def test_parse_knobs(self):
        self.assertEqual(ce.parse_knobs("b=2,-a=1, c=x"), (("a", "1"), ("b", "2"), ("c", "x")))
        for bad in ("a", "a=", "=1"):
            with self.assertRaises(ValueError):
                ce.parse_knobs(bad)

    def test_parse_variant(self):
        self.assertEqual(ce.parse_variant("nosink:nv-disable-sink=1"),
                         ("nosink", (("nv-disable-sink", "1"),)))
        for bad in ("nosink", "default:a=1", "a b:x=1"):
            with self.assertRaises(ValueError):
                ce.parse_variant(bad)

    def test_help_options(self):
        text = ("OPTIONS:\n\nGeneral options:\n\n  --unroll-max-count=<uint>   - x\n"
                "  -O1   - y\n\nnvopt options:\nKnobs of the nvopt plugin\n\n"
                "  --do-remat=<int>   - z\n  --nv-disable-sink   - w\n    =none  - v\n")
        nvopt, every = ce.help_options(text)
        self.assertEqual(nvopt, {"do-remat", "nv-disable-sink"})
        self.assertTrue({"unroll-max-count", "O1", "do-remat"} <= every)

    def test_ablation_entries(self):
        names = [n for n, _, _ in ce.ABLATIONS]
        self.assertEqual(len(names), len(set(names)))
        knobs = {n: dict(ce.parse_knobs(k)) for n, k, _ in ce.ABLATIONS}
        self.assertEqual(knobs["nv-remat"], {"do-remat": "0"})
        self.assertEqual(knobs["unroll-count-4"], {"nv-unroll-max-count": "0"})
        for required in ("nv-local-array-unroll", "no-Sinking2", "nv-dbe", "nv-ipmsp", "BASR",
                         "CBE/SCEV-CGP", "infer-alignment", "nv-lower-struct-args", "lsr-gates",
                         "nv-inline-advisor", "nv-cssa", "nv-coalesce", "nv-iv-rewrite"):
            self.assertIn(required, knobs)


def figs(regs, stack=0, spill_st=0, spill_ld=0, sass=100, calls=0, live=None):
    return {"regs": regs, "live": live or regs, "stack": stack, "spill_st": spill_st,
            "spill_ld": spill_ld, "sass": sass, "calls": calls, "generic_ldst": 1, "bar_sync": 2,
            "ptxcheck": 0}


LABELS = {"nvcc": "nvcc", "upstream": "upstream O3", "nvopt": "nvopt O3",
          "nvopt:off": "nvopt O3 off"}


class Aggregation(unittest.TestCase):
    def setUp(self):
        self.kernels = {
            ("c", "a.cu", "k1"): {"nvcc": figs(20), "upstream": figs(40), "nvopt": figs(10),
                                  "nvopt:off": figs(10)},
            # nvopt has a frame and spills that nvcc and upstream avoid
            ("c", "a.cu", "k2"): {"nvcc": figs(20), "upstream": figs(20, calls=1),
                                  "nvopt": figs(40, stack=16, spill_st=8, spill_ld=8),
                                  "nvopt:off": figs(30, sass=90)},
            # upstream did not compile it: left out of every total
            ("c", "b.cu", "k3"): {"nvcc": figs(99, stack=1000), "nvopt": figs(99),
                                  "nvopt:off": figs(99)},
        }
        self.files = {("c", "a.cu"): {"nvcc": {}, "upstream": {"time": 1.0},
                                      "nvopt": {"time": 2.0, "findings": ["x"], "ptx": "p"},
                                      "nvopt:off": {"time": 3.0, "ptx": "q"}},
                      ("c", "b.cu"): {"nvcc": {}, "upstream": {"error": "boom"},
                                      "nvopt": {"time": 0.5, "ptx": "r"},
                                      "nvopt:off": {"time": 0.5, "ptx": "r"}}}

    def test_geomean(self):
        self.assertAlmostEqual(ce.geomean([(10, 20), (40, 20)]), 1.0)
        self.assertAlmostEqual(ce.geomean([(10, 20), (None, 20), (5, 0)]), 0.5)
        self.assertIsNone(ce.geomean([]))

    def test_summary_rows(self):
        cols = ["nvcc", "upstream", "nvopt"]
        lines, ids = ce.summary_table(self.kernels, self.files, cols, LABELS, "nvcc", ["nvopt"],
                                      True)
        self.assertEqual(ids, [("c", "a.cu", "k1"), ("c", "a.cu", "k2")])
        self.assertEqual(lines[0], "| figure | nvcc | upstream O3 | nvopt O3 |")
        self.assertEqual(lines[1], "|---|---:|---:|---:|")
        self.assertIn("| registers, geomean against nvcc | 1 | 1.4142 | 1.0000 |", lines)
        self.assertIn("| spill-store bytes | 0 | 0 | 8 |", lines)
        self.assertIn("| stack bytes | 0 | 0 | 16 |", lines)
        self.assertIn("| kernels with a frame that nvcc and upstream both avoid |  |  | 1 |", lines)
        self.assertIn("| kernels spilling where nvcc does not |  |  | 1 |", lines)
        self.assertIn("| call instructions | 0 | 1 | 0 |", lines)
        self.assertIn("| SASS instructions | 200 | 200 | 200 |", lines)
        self.assertIn("| generic ld/st, bar.sync, PTX-checker findings, failures | 2, 4, 0, 0 | "
                      "2, 4, 0, 1 | 2, 4, 1, 0 |", lines)
        self.assertIn("| opt+llc seconds, every file compiled | - | 1.0 | 2.5 |", lines)
        self.assertIn("| kernels compared | 2 | 2 | 2 |", lines)
        # upstream: k1 at 40 registers (48 warps) against 20 (64); nvopt: k2 at 40 against 20
        self.assertIn("| kernels whose registers allow fewer / more resident warps than nvcc's |"
                      "  | 1 / 0 | 1 / 0 |", lines)

    def test_without_nvcc_the_first_column_is_the_reference(self):
        lines, _ = ce.summary_table(self.kernels, self.files, ["upstream", "nvopt"], LABELS,
                                    "upstream", ["nvopt"], True)
        self.assertIn("| registers, geomean against upstream | 1 | 0.7071 |", lines)
        self.assertIn("| kernels with a frame that upstream avoids |  | 1 |", lines)

    def test_without_ptxas_kernels_are_compared_by_presence(self):
        kernels = {k: {c: {"calls": 1} for c in v} for k, v in self.kernels.items()}
        lines, ids = ce.summary_table(kernels, self.files, ["upstream", "nvopt"], LABELS,
                                      "upstream", ["nvopt"], False)
        self.assertEqual(len(ids), 2)
        self.assertIn("| registers, geomean against upstream | 1 | - |", lines)
        self.assertIn("| SASS instructions | - | - |", lines)
        self.assertIn("| stack bytes | - | - |", lines)
        self.assertIn("| kernels spilling where upstream does not |  | - |", lines)
        self.assertIn("| call instructions | 2 | 2 |", lines)

    def test_changed_and_better_worse(self):
        ids = ce.common_kernels(self.kernels, ["nvopt", "nvopt:off"], True)
        diff = ce.changed(self.kernels, ids, "nvopt", "nvopt:off")
        self.assertEqual(diff, [(("c", "a.cu", "k2"), [
            ("regs", 40, 30), ("live", 40, 30), ("spill_st", 8, 0), ("spill_ld", 8, 0),
            ("stack", 16, 0), ("sass", 100, 90)])])
        self.assertEqual(ce.better_worse(self.kernels, ids, "nvopt", "nvopt:off", "regs"), (1, 0))
        self.assertEqual(ce.better_worse(self.kernels, ids, "nvopt", "nvopt:off", "spills"), (1, 0))

    def test_ablation_row(self):
        lines = ce.ablation_table(self.kernels, self.files, [("off", (("nv-x", "1"),))], "nvcc",
                                  LABELS, True)
        self.assertTrue(lines[0].startswith("Over 3 kernels that nvcc, nvopt and every entry"))
        self.assertIn("| (nvopt defaults) | `-` | 1.0000 | 8 | 16 | 0 | 0/0, 0/0, 0/0 | 300 | 2.5 "
                      "| 0 | 0 |", lines)
        self.assertIn("| off | `nv-x=1` | 0.9086 | 0 | 0 | 1 | 1/0, 1/0, 1/0 | 290 | 3.5 | 1 | 0 |",
                      lines)


if __name__ == "__main__":
    unittest.main(verbosity=2)
