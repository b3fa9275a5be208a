"""Unit tests of nvopt_tools/ptx_check.py (the PTX address-space provenance lint): every rule on
the wrong forms (nvopt's by-value struct bug: ld.param through %SP or a cvta.param register)
and no finding on the forms upstream LLVM and nvcc write (call sequences, cvta.to.global of
loaded pointers, static and dynamic shared memory, the local depot, device functions, inline
asm blocks, cp.async, mapa). Run: python3 -m nvopt_tools.tests.test_ptx_check"""
import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

from nvopt_tools import ptx_check

HEAD = """.version 8.0
.target sm_90
.address_size 64
"""


def entry(body, params=".param .align 4 .b8 k_param_0[44],\n\t.param .u64 k_param_1", decls=""):
    return f"""{HEAD}{decls}
.visible .entry k(
\t{params}
)
{{
\t.local .align 4 .b8 \t__local_depot0[64];
\t.reg .b64 \t%SP;
\t.reg .b64 \t%SPL;
\t.reg .b32 \t%r<20>;
\t.reg .b64 \t%rd<20>;
{body}
\tret;
}}
"""


def rules(text):
    return [(f.rule, f.function) for f in ptx_check.check_text(text)]


class Bad(unittest.TestCase):
    def test_param_load_through_the_generic_stack_pointer(self):
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tld.param.b32 \t%r13, [%SP+32];""")
        found = ptx_check.check_text(text, "k.ptx")
        self.assertEqual(len(found), 1)
        f = found[0]
        self.assertEqual((f.file, f.function, f.rule), ("k.ptx", "k", "param-addr"))
        self.assertEqual(text.splitlines()[f.line - 1].strip(), "ld.param.b32 \t%r13, [%SP+32];")
        self.assertIn("generic address of local memory", f.message)
        self.assertEqual(f.instruction, "ld.param.b32 %r13, [%SP+32]")
        self.assertTrue(str(f).startswith(f"k.ptx:{f.line}: k: param-addr: ld.param through %SP"))

    def test_param_load_through_cvta_param(self):
        text = entry("""\tmov.b64 \t%rd3, k_param_0;
\tcvta.param.u64 \t%rd2, %rd3;
\tmov.u32 \t%r1, %tid.x;
\tmul.wide.u32 \t%rd5, %r1, 4;
\tadd.s64 \t%rd6, %rd2, %rd5;
\tld.param.b32 \t%r7, [%rd6];
\tld.param.b32 \t%r8, [%rd2+32];""")
        found = ptx_check.check_text(text)
        self.assertEqual([f.rule for f in found], ["param-addr", "param-addr"])
        self.assertEqual([f.instruction for f in found],
                         ["ld.param.b32 %r7, [%rd6]", "ld.param.b32 %r8, [%rd2+32]"])
        self.assertIn("cvta.param", found[0].message)
        self.assertLess(found[0].line, found[1].line)

    def test_param_load_through_a_loaded_pointer(self):
        text = entry("""\tld.param.b64 \t%rd1, [k_param_1];
\tld.param.b32 \t%r1, [%rd1+4];""")
        self.assertEqual(rules(text), [("param-addr", "k")])

    def test_store_to_the_kernels_own_parameter(self):
        text = entry("""\tst.param.b32 \t[k_param_0+4], %r1;
\tmov.b64 \t%rd1, k_param_0;
\tst.param.b32 \t[%rd1+8], %r1;""")
        self.assertEqual(rules(text), [("param-write", "k"), ("param-write", "k")])

    def test_local_access_through_generic_param_and_shared_addresses(self):
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tst.local.b32 \t[%SP+8], %r1;
\tmov.b64 \t%rd1, k_param_0;
\tld.local.b32 \t%r2, [%rd1];
\tld.local.b32 \t%r3, [smem+4];""", decls=".shared .align 4 .b8 smem[64];")
        found = ptx_check.check_text(text)
        self.assertEqual([f.rule for f in found], ["local-addr"] * 3)
        self.assertIn("generic address of local memory", found[0].message)
        self.assertIn("kernel parameter", found[1].message)
        self.assertIn("shared address", found[2].message)

    def test_shared_access_through_generic_local_and_global_addresses(self):
        text = entry("""\tmov.u64 \t%rd1, smem;
\tcvta.shared.u64 \t%rd2, %rd1;
\tst.shared.b32 \t[%rd2], %r1;
\tmov.b64 \t%SPL, __local_depot0;
\tatom.shared.add.u32 \t%r2, [%SPL+4], 1;
\tld.param.b64 \t%rd3, [k_param_1];
\tcvta.to.global.u64 \t%rd4, %rd3;
\tcp.async.ca.shared.global \t[%rd4], [%rd3], 16;
\tld.shared::cluster.u32 \t%r3, [%rd2+8];""", decls=".shared .align 4 .b8 smem[64];")
        found = ptx_check.check_text(text)
        self.assertEqual([f.rule for f in found], ["shared-addr"] * 4)
        self.assertIn("cvta.shared", found[0].message)
        self.assertIn("local address", found[1].message)
        self.assertIn("global address", found[2].message)
        self.assertIn("(shared operand)", found[2].message)

    def test_cvta_of_the_wrong_space(self):
        text = entry("""\tmov.b64 \t%rd1, k_param_0;
\tcvta.param.u64 \t%rd2, %rd1;
\tcvta.local.u64 \t%rd3, %rd2;
\tcvta.local.u64 \t%rd4, %rd1;
\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tcvta.to.shared.u64 \t%rd5, %SP;
\tcvta.to.shared.u64 \t%rd6, %SPL;""")
        found = ptx_check.check_text(text)
        self.assertEqual([f.rule for f in found], ["cvta-pair"] * 4)
        self.assertEqual([f.instruction.split()[0] for f in found],
                         ["cvta.local.u64", "cvta.local.u64", "cvta.to.shared.u64", "cvta.to.shared.u64"])

    def test_inline_asm_register_of_another_space(self):
        # block-scoped registers: only the third block's `t` is a local address read as shared
        text = entry("""\t{ .reg .u64 t; .reg .u32 s; cvta.to.shared.u64 t, %rd1; cvt.u32.u64 s, t; ld.shared.f32 %r1, [s]; }
\t{ .reg .u64 t; cvta.to.local.u64 t, %rd2; ld.local.f32 %r2, [t]; }
\t{ .reg .u64 t; cvta.to.local.u64 t, %rd2; ld.shared.f32 %r2, [t]; }""")
        found = ptx_check.check_text(text)
        self.assertEqual([(f.rule, f.message) for f in found],
                         [("shared-addr", "ld.shared through t, which may hold a local address")])
        self.assertEqual(found[0].instruction, "ld.shared.f32 %r2, [t]")

    def test_a_union_over_definitions_is_flagged(self):
        # a join: both definitions of %rd5 reach the load
        text = entry("""\tmov.b64 \t%rd1, k_param_0;
\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\t@%p1 bra \t$L__BB0_2;
\tadd.s64 \t%rd5, %rd1, 8;
\tbra.uni \t$L__BB0_3;
$L__BB0_2:
\tadd.s64 \t%rd5, %SP, 8;
$L__BB0_3:
\tld.param.b32 \t%r1, [%rd5];""")
        self.assertEqual(rules(text), [("param-addr", "k")])


class FlowSensitive(unittest.TestCase):
    """The kinds of a register are those of the definitions that reach the instruction: a
    definition kills the earlier ones on its path, a predicated one joins them."""

    def test_reuse_on_separate_paths_is_clean(self):
        # PTX of our llc with PHI elimination reusing %rd21: the %SP-based definition alone
        # reaches the cvta.to.local; the cvta.global one only the generic load after the join
        text = f"""{HEAD}
.visible .entry argmin_by_reference(
\t.param .u64 .ptr .align 1 argmin_by_reference_param_0,
\t.param .u64 .ptr .align 1 argmin_by_reference_param_1,
\t.param .u64 .ptr .align 1 argmin_by_reference_param_2,
\t.param .u32 argmin_by_reference_param_3,
\t.param .u32 argmin_by_reference_param_4
)
{{
\t.local .align 16 .b8 \t__local_depot0[16];
\t.reg .b64 \t%SP;
\t.reg .b64 \t%SPL;
\t.reg .pred \t%p<5>;
\t.reg .b32 \t%r<10>;
\t.reg .b64 \t%rd<22>;

// %bb.0:
\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tld.param.b64 \t%rd8, [argmin_by_reference_param_0];
\tld.param.b64 \t%rd9, [argmin_by_reference_param_2];
\tcvta.to.global.u64 \t%rd1, %rd9;
\tld.param.b64 \t%rd10, [argmin_by_reference_param_1];
\tcvta.to.global.u64 \t%rd2, %rd8;
\tcvta.to.global.u64 \t%rd3, %rd10;
\tld.param.b32 \t%r5, [argmin_by_reference_param_3];
\tadd.u64 \t%rd21, %SP, 0;
\tcvta.to.local.u64 \t%rd4, %rd21;
\tmov.u32 \t%r6, %ctaid.x;
\tmov.u32 \t%r7, %ntid.x;
\tmov.u32 \t%r8, %tid.x;
\tmad.lo.s32 \t%r1, %r6, %r7, %r8;
\tsetp.ge.s32 \t%p1, %r1, %r5;
\t@%p1 bra \t$L__BB0_7;
// %bb.1:
\tld.param.b32 \t%r4, [argmin_by_reference_param_4];
\tcvt.s64.s32 \t%rd5, %r1;
\tst.local.b64 \t[%rd4], %rd5;
\tmul.wide.s32 \t%rd11, %r1, 4;
\tadd.s64 \t%rd12, %rd2, %rd11;
\tld.global.b32 \t%r2, [%rd12];
\tst.local.b32 \t[%rd4+8], %r2;
\trem.s32 \t%r9, %r1, %r4;
\tmul.wide.s32 \t%rd13, %r9, 16;
\tadd.s64 \t%rd6, %rd3, %rd13;
\tcvta.global.u64 \t%rd7, %rd6;
\tld.global.b32 \t%r3, [%rd6+8];
\tsetp.lt.s32 \t%p2, %r2, %r3;
\tmov.b64 \t%rd20, %rd5;
\t@%p2 bra \t$L__BB0_6;
// %bb.2:
\tsetp.eq.b32 \t%p3, %r2, %r3;
\t@%p3 bra \t$L__BB0_4;
\tbra.uni \t$L__BB0_3;
$L__BB0_4:
\tld.global.b64 \t%rd19, [%rd6];
\tsetp.gt.s64 \t%p4, %rd19, %rd5;
\tmov.b64 \t%rd20, %rd5;
\t@%p4 bra \t$L__BB0_6;
\tbra.uni \t$L__BB0_5;
$L__BB0_3:                              // %._crit_edge
\tld.b64 \t%rd19, [%rd7];
$L__BB0_5:
\tmov.b64 \t%rd20, %rd19;
\tmov.b64 \t%rd21, %rd7;
$L__BB0_6:                              // %_Z7arg_minRK8KeyValueS1_.exit
\tshl.b64 \t%rd14, %rd20, 2;
\tld.s32 \t%rd15, [%rd21+8];
\tadd.s64 \t%rd16, %rd14, %rd15;
\tshl.b64 \t%rd17, %rd5, 3;
\tadd.s64 \t%rd18, %rd1, %rd17;
\tst.global.b64 \t[%rd18], %rd16;
$L__BB0_7:
\tret;
}}
"""
        self.assertEqual(ptx_check.check_text(text), [])
        # the same code with the cvta.to.local after the join: both definitions reach it
        moved = text.replace("\tcvta.to.local.u64 \t%rd4, %rd21;\n", "").replace(
            "\tld.s32 \t%rd15, [%rd21+8];", "\tcvta.to.local.u64 \t%rd4, %rd21;\n\tld.s32 \t%rd15, [%rd21+8];")
        found = ptx_check.check_text(moved)
        self.assertEqual([(f.rule, f.message) for f in found],
                         [("cvta-pair", "cvta.to.local of %rd21, which may hold a generic address of "
                                        "global memory (cvta.global)")])

    def test_a_later_definition_kills_the_earlier(self):
        self.assertEqual(rules(entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tadd.s64 \t%rd5, %SP, 8;
\tst.b32 \t[%rd5], %r1;
\tmov.b64 \t%rd5, k_param_0;
\tld.param.b32 \t%r1, [%rd5];
\tbra.uni \t$L__BB0_2;
$L__BB0_2:
\tld.param.b32 \t%r2, [%rd5+4];""")), [])

    def test_a_join_of_two_paths_is_flagged(self):
        # the bad definition on one arm of an if-then-else, the use after the join
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tsetp.eq.s32 \t%p1, %r1, 0;
\t@%p1 bra \t$L__BB0_2;
\tmov.b64 \t%rd5, k_param_0;
\tld.param.b32 \t%r2, [%rd5];
\tbra.uni \t$L__BB0_3;
$L__BB0_2:
\tadd.s64 \t%rd5, %SP, 8;
\tst.b32 \t[%rd5], %r2;
$L__BB0_3:
\tld.param.b32 \t%r3, [%rd5+4];""", decls="")
        found = ptx_check.check_text(text)
        self.assertEqual([f.rule for f in found], ["param-addr"])
        self.assertEqual(found[0].instruction, "ld.param.b32 %r3, [%rd5+4]")
        self.assertIn("generic address of local memory", found[0].message)

    def test_a_loop_back_edge_carries_a_kind_to_an_earlier_use(self):
        # %rd5 is a param address on entry to the loop and a generic stack address after the
        # first iteration: the load at the loop head sees both
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tmov.b64 \t%rd5, k_param_0;
$L__BB0_1:
\tld.param.b32 \t%r2, [%rd5];
\tadd.s64 \t%rd5, %SP, 8;
\tadd.s32 \t%r1, %r1, 1;
\tsetp.lt.s32 \t%p1, %r1, 8;
\t@%p1 bra \t$L__BB0_1;
\tld.b32 \t%r3, [%rd5];""")
        found = ptx_check.check_text(text)
        self.assertEqual([(f.rule, f.instruction) for f in found], [("param-addr", "ld.param.b32 %r2, [%rd5]")])
        # without the back edge (a forward branch), the load sees the param address only
        self.assertEqual(rules(text.replace("@%p1 bra \t$L__BB0_1;", "@%p1 bra \t$L__BB0_9;\n$L__BB0_9:")), [])

    def test_predicated_definitions_join(self):
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tmov.b64 \t%rd5, k_param_0;
\tsetp.eq.s32 \t%p1, %r1, 0;
\t@%p1 add.s64 \t%rd5, %SP, 8;
\tld.param.b32 \t%r2, [%rd5];
\t@!%p1 mov.b64 \t%rd6, %SPL;
\tld.local.b32 \t%r3, [%rd6];""")
        found = ptx_check.check_text(text)
        self.assertEqual([(f.rule, f.instruction) for f in found], [("param-addr", "ld.param.b32 %r2, [%rd5]")])
        # unpredicated, the later definition kills the param address: a local one alone
        found = ptx_check.check_text(text.replace("@%p1 add.s64", "add.s64"))
        self.assertEqual([f.rule for f in found], ["param-addr"])
        self.assertNotIn("kernel parameter", found[0].message)

    def test_predicated_return_and_branch_fall_through(self):
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tmov.b64 \t%rd5, %SP;
\tsetp.eq.s32 \t%p1, %r1, 0;
\t@%p1 ret;
\t@%p1 bra \t$L__BB0_2;
\tld.param.b32 \t%r2, [%rd5];
$L__BB0_2:
\tret;""")
        self.assertEqual(rules(text), [("param-addr", "k")])
        # after an unpredicated ret, nothing falls through: the load is reached by a branch only
        text = entry("""\tmov.b64 \t%rd5, k_param_0;
\tbra.uni \t$L__BB0_3;
$L__BB0_2:
\tld.param.b32 \t%r2, [%rd5];
\tret;
$L__BB0_3:
\tmov.b64 \t%SPL, __local_depot0;
\tmov.b64 \t%rd5, k_param_0;
\tbra.uni \t$L__BB0_2;
\tmov.b64 \t%rd5, %SPL;""")
        self.assertEqual(rules(text), [])

    def test_branch_tables(self):
        # brx.idx goes to the labels of its .branchtargets: $L__BB0_3 (param address) and
        # $L__BB0_4 (through %rd6, a local address on that path); $L__BB0_5 is no target
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tmov.b64 \t%rd5, k_param_0;
\tmov.b64 \t%rd6, %SPL;
$L_brx_0: .branchtargets
\t$L__BB0_3,
\t$L__BB0_4;
\tbrx.idx \t%r1, $L_brx_0;
$L__BB0_5:
\tmov.b64 \t%rd6, k_param_0;
$L__BB0_3:
\tld.param.b32 \t%r2, [%rd5];
\tret;
$L__BB0_4:
\tld.local.b32 \t%r3, [%rd6];""")
        self.assertEqual(rules(text), [])
        # %rd6 holds a param address on the path through $L__BB0_5 to $L__BB0_3, so a local
        # access through it there is flagged
        found = ptx_check.check_text(text.replace("ld.param.b32 \t%r2, [%rd5];", "ld.local.b32 \t%r2, [%rd6];"))
        self.assertEqual([(f.rule, f.instruction) for f in found], [("local-addr", "ld.local.b32 %r2, [%rd6]")])

    def test_unresolved_branch_makes_the_function_flow_insensitive(self):
        # a branch to a label this function does not have (one the parser missed, say): every
        # definition reaches every use, kills or not
        text = entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tadd.s64 \t%rd5, %SP, 8;
\tst.b32 \t[%rd5], %r1;
\tmov.b64 \t%rd5, k_param_0;
\tld.param.b32 \t%r1, [%rd5];
\tbra.uni \t$L__nowhere;""")
        self.assertEqual(rules(text), [("param-addr", "k")])
        # a table without its .branchtargets directive: the same
        self.assertEqual(rules(text.replace("bra.uni \t$L__nowhere;", "brx.idx \t%r1, $L_brx_9;")),
                         [("param-addr", "k")])
        # a branch it resolves: the later definition kills the earlier
        self.assertEqual(rules(text.replace("bra.uni \t$L__nowhere;", "$L__BB0_1:\n\tbra.uni \t$L__BB0_1;")), [])

    def test_inline_asm_labels_are_block_scoped(self):
        # two asm blocks with the same label names (CUTLASS's wait loops): each branch stays in
        # its block; in the second, the loop carries a local address back to a shared access
        text = entry("""\tmov.u32 \t%r1, smem;
\t{ .reg .pred P1; .reg .u32 a; mov.u32 a, %r1;
\tLAB_WAIT: ld.shared.u32 %r2, [a]; setp.eq.u32 P1, %r2, 0;
\t@P1 bra DONE; bra LAB_WAIT;
\tDONE: }
\tmov.b64 \t%SPL, __local_depot0;
\t{ .reg .pred P1; .reg .u32 a; mov.u32 a, %r1;
\tLAB_WAIT: ld.shared.u32 %r2, [a]; setp.eq.u32 P1, %r2, 0;
\t@P1 bra DONE; cvt.u32.u64 a, %SPL; bra LAB_WAIT;
\tDONE: }""", decls=".shared .align 4 .b8 smem[64];")
        found = ptx_check.check_text(text)
        self.assertEqual([(f.rule, f.message) for f in found],
                         [("shared-addr", "ld.shared through a, which may hold a local address")])
        self.assertEqual(found[0].line, text.splitlines().index(
            "\tLAB_WAIT: ld.shared.u32 %r2, [a]; setp.eq.u32 P1, %r2, 0;", 20) + 1)

    def test_big_function_is_fast(self):
        # 1500 blocks, 200 registers each redefined about 60 times, random branches: many
        # definitions reach each use (a bound against blow-ups, not a benchmark)
        import random
        import time
        rnd = random.Random(2)
        lines = ["\tld.param.b64 \t%rd0, [k_param_1];", "\tcvta.to.global.u64 \t%rd1, %rd0;"]
        for b in range(1500):
            lines.append(f"$L__BB0_{b}:")
            for k in range(8):
                d, src = rnd.randrange(2, 200), rnd.randrange(200)
                lines.append(f"\tadd.s64 \t%rd{d}, %rd{src}, {k};" if k % 2 else f"\tmov.b64 \t%rd{d}, %rd{src};")
            lines += [f"\tld.global.b32 \t%r1, [%rd{d}];", "\tsetp.eq.s32 \t%p1, %r1, 0;",
                      f"\t@%p1 bra \t$L__BB0_{rnd.randrange(1500)};"]
        text = entry("\n".join(lines)).replace("%rd<20>", "%rd<200>")
        t = time.perf_counter()
        self.assertEqual(rules(text), [])
        self.assertLess(time.perf_counter() - t, 60)


class Good(unittest.TestCase):
    def assertClean(self, text):
        self.assertEqual(ptx_check.check_text(text), [])

    def test_upstream_param_address(self):
        self.assertClean(entry("""\tmov.b64 \t%rd2, k_param_0;
\tmov.u32 \t%r1, %tid.x;
\tmul.wide.u32 \t%rd4, %r1, 4;
\tadd.s64 \t%rd5, %rd2, %rd4;
\tld.param.b32 \t%r7, [%rd5];
\tld.param.b32 \t%r8, [%rd2+32];
\tld.param.v2.b32 \t{%r9, %r10}, [k_param_0+8];"""))

    def test_generic_load_of_cvta_param(self):
        self.assertClean(entry("""\tmov.b64 \t%rd1, k_param_0;
\tcvta.param.u64 \t%rd2, %rd1;
\tld.b32 \t%r1, [%rd2+4];"""))

    def test_call_sequence_and_global_pointers(self):
        text = f"""{HEAD}
.func  (.param .b32 func_retval0) add_one(
\t.param .b64 add_one_param_0
)
{{
\t.reg .b32 \t%r<3>;
\t.reg .b64 \t%rd<2>;
\tld.param.b64 \t%rd1, [add_one_param_0];
\tld.b32 \t%r1, [%rd1];
\tadd.s32 \t%r2, %r1, 1;
\tst.b32 \t[%rd1], %r2;
\tst.param.b32 \t[func_retval0], %r2;
\tret;
}}
.visible .entry k(
\t.param .u64 .ptr .align 1 k_param_0
)
{{
\t.reg .b32 \t%r<3>;
\t.reg .b64 \t%rd<4>;
\tld.param.b64 \t%rd1, [k_param_0];
\tcvta.to.global.u64 \t%rd2, %rd1;
\tld.global.b32 \t%r1, [%rd2+4];
\t{{ // callseq 0, 0
\t.param .b64 \tparam0;
\t.param .b32 \tretval0;
\tst.param.b64 \t[param0], %rd1;
\tcall.uni (retval0),
\tadd_one,
\t(
\tparam0
\t);
\tld.param.b32 \t%r2, [retval0];
\t}} // callseq 0
\t{{ // callseq 1, 0
\t.param .b64 \tparam0;
\t.param .b32 \tretval0;
\tst.param.b64 \t[param0+0], %rd2;
\tcall.uni (retval0), add_one, (param0);
\tld.param.b32 \t%r2, [retval0+0];
\t}} // callseq 1
\tst.global.b32 \t[%rd2], %r2;
\tret;
}}
"""
        self.assertClean(text)
        _, nfuncs = ptx_check._check(text, "x")
        self.assertEqual(nfuncs, 2)

    def test_dynamic_and_static_shared_memory(self):
        self.assertClean(entry("""\tmov.u32 \t%r1, smem;
\tst.shared.f32 \t[%r1+4], %r2;
\tmov.u32 \t%r3, %tid.x;
\tshl.b32 \t%r4, %r3, 2;
\tadd.s32 \t%r5, %r1, %r4;
\tld.shared.f32 \t%r6, [%r5];
\tatom.shared.add.u32 \t%r7, [%r5], 1;
\tred.shared.add.u32 \t[tile+8], 1;
\tmov.u64 \t%rd1, tile;
\tcvt.u32.u64 \t%r8, %rd1;
\tand.b32 \t%r9, %r8, -16;
\tst.shared::cta.b32 \t[%r9], %r7;
\tcvta.shared.u64 \t%rd2, %rd1;
\tst.b32 \t[%rd2], %r7;
\tcvta.to.shared.u64 \t%rd3, %rd2;
\tcvt.u32.u64 \t%r10, %rd3;
\tld.param.u64 \t%rd4, [k_param_1];
\tcp.async.ca.shared.global \t[%r10], [%rd4], 16;
\tmapa.shared::cluster.u32 \t%r11, %r1, %r3;
\tld.shared::cluster.u32 \t%r12, [%r11];
\tmbarrier.init.shared::cta.b64 \t[tile], %r3;
\tldmatrix.sync.aligned.m8n8.x4.shared.b16 \t{%r13, %r14, %r15, %r16}, [%r10];""",
                                decls=".extern .shared .align 16 .b8 smem[];\n.shared .align 8 .b8 tile[256];"))

    def test_local_depot(self):
        self.assertClean(entry("""\tmov.b64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tadd.u64 \t%rd1, %SPL, 0;
\tst.local.b32 \t[%rd1], %r2;
\tld.local.b32 \t%r3, [__local_depot0+8];
\tadd.u64 \t%rd2, %SP, 16;
\tst.b32 \t[%rd2], %r3;
\tcvta.to.local.u64 \t%rd3, %rd2;
\tld.local.b32 \t%r4, [%rd3];"""))

    def test_device_functions_with_pointer_and_shared_address_params(self):
        self.assertClean(f"""{HEAD}
.func  (.param .b32 func_retval0) sget(
\t.param .b32 sget_param_0
)
{{
\t.reg .b32 \t%r<3>;
\tld.param.b32 \t%r1, [sget_param_0];
\tld.shared.f32 \t%r2, [%r1];
\tst.param.b32 \t[func_retval0], %r2;
\tret;
}}
.func lget(
\t.param .b64 lget_param_0,
\t.param .align 4 .b8 lget_param_1[16]
)
{{
\t.reg .b32 \t%r<3>;
\t.reg .b64 \t%rd<4>;
\tld.param.b64 \t%rd1, [lget_param_0];
\tcvta.to.local.u64 \t%rd2, %rd1;
\tld.local.b32 \t%r1, [%rd2+4];
\tmov.b64 \t%rd3, lget_param_1;
\tst.local.b32 \t[%rd3+4], %r1;
\tld.local.b32 \t%r2, [%rd3];
\tret;
}}
""")

    def test_inline_asm_blocks_reuse_names_for_different_spaces(self):
        self.assertClean(entry("""\t// begin inline asm
\t{ .reg .u64 t; .reg .u32 s; cvta.to.shared.u64 t, %rd1; cvt.u32.u64 s, t; ld.shared.f32 %r1, [s]; }
\t// end inline asm
\t// begin inline asm
\t{ .reg .u64 t; cvta.to.local.u64 t, %rd2; ld.local.f32 %r2, [t]; }
\t// end inline asm
\t{ .reg .b64 %tmp;
\t  mov.u64 \t%tmp, smem;
\t  cvta.shared.u64 \t%rd8, %tmp; }
\tst.b32 \t[%rd8], %r2;""", decls=".shared .align 4 .b8 smem[64];"))

    def test_tensor_map_parameter_of_a_bulk_copy(self):
        self.assertClean(entry("""\tmov.b64 \t%rd7, k_param_0;
\tcvta.param.u64 \t%rd9, %rd7;
\tmov.u32 \t%r8, smem;
\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r8], [%rd9, {%r2, %r3}], [%r8+64];
\tcp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd9, {%r2, %r3}], [%r8];""",
                                decls=".shared .align 128 .b8 smem[1024];"))

    def test_comments_strings_and_directives(self):
        self.assertClean(f"""//
// a comment with ld.param.b32 %r1, [%SP+4]; and {{ braces
/* block comment;
   st.local.b32 [%SP], %r1; */
{HEAD}
.file 1 "/tmp/a;b{{c}}.cu"
.global .align 4 .b8 table[16] = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
.const .align 4 .u32 cval;
.visible .entry k(
\t.param .u32 k_param_0
)
.maxntid 128, 1, 1
{{
\t.reg .b32 \t%r<4>;
\t.reg .pred \t%p<2>;
\t.reg .b64 \t%rd<3>;
\t.loc 1 4 3
\tld.param.u32 \t%r1, [k_param_0]; // [%SP]
\tsetp.eq.s32 \t%p1, %r1, 0;
\t@%p1 bra \t$L__BB0_2;
$L__BB0_1: mov.u64 \t%rd1, table;
\tld.global.u32 \t%r2, [%rd1+4];
\tld.const.u32 \t%r3, [cval];
$L__BB0_2:
\tret;
}}
.section .debug_info
{{
.b32 10
.b8 2
}}
""")


class CommandLine(unittest.TestCase):
    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = ptx_check.main(list(args))
        return code, out.getvalue(), err.getvalue()

    def test_findings_summary_and_exit_status(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "sub"))
            bad = os.path.join(d, "sub", "bad.ptx")
            with open(bad, "w") as f:
                f.write(entry("\tmov.b64 \t%SPL, __local_depot0;\n\tcvta.local.u64 \t%SP, %SPL;\n"
                              "\tld.param.b32 \t%r13, [%SP+32];"))
            with open(os.path.join(d, "good.ptx"), "w") as f:
                f.write(entry("\tld.param.b32 \t%r1, [k_param_0];"))
            code, out, _ = self.run_main(d)
            self.assertEqual(code, 1)
            lines = out.splitlines()
            self.assertRegex(lines[0], r"^.*/sub/bad\.ptx:\d+: k: param-addr: ld\.param through %SP, "
                                       r"which may hold .*: ld\.param\.b32 %r13, \[%SP\+32\]$")
            self.assertEqual(lines[-1], "ptx_check: 2 files, 2 functions, 1 findings")
            code, out, _ = self.run_main("--quiet", "--summary", bad)
            self.assertEqual(code, 1)
            self.assertEqual(out.splitlines(), ["ptx_check: param-addr: 1", "ptx_check: param-write: 0",
                                                "ptx_check: local-addr: 0", "ptx_check: shared-addr: 0",
                                                "ptx_check: cvta-pair: 0",
                                                "ptx_check: 1 files, 1 functions, 1 findings"])
            code, out, _ = self.run_main(os.path.join(d, "good.ptx"))
            self.assertEqual((code, out), (0, "ptx_check: 1 files, 1 functions, 0 findings\n"))
            self.assertEqual(len(ptx_check.check_file(bad)), 1)

    def test_usage_errors(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "missing.ptx")
            code, _, err = self.run_main(missing)
            self.assertEqual(code, 2)
            self.assertIn(f"cannot read {missing}", err)
            code, _, err = self.run_main(d)
            self.assertEqual(code, 2)
            self.assertIn(f"no .ptx files under {d}", err)
        with redirect_stderr(io.StringIO()), self.assertRaises(SystemExit) as e:
            ptx_check.main([])
        self.assertEqual(e.exception.code, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
