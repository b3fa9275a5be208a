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
        # flow-insensitive: either definition of %rd5 reaches the load
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
