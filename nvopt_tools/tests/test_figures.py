# Unit tests of the bench's parsers (nvopt_tools/bench/figures.py) on small inline PTX and SASS: instruction
# and mov counts, loop-body counts (PTX labels with backward bra; SASS backward BRA by address
# and by .L_x_N label, nested/overlapping loops counted once, NOPs and the trap BRA-to-self
# excluded), ptxas -v parsing; nvopt_tools/bench/ab.py's subset matching and ratio table; and the PTX
# checker's figure in nvopt_tools/bench/report.py (per entry with its callees, and the findings listed).
# Run: python3 -m nvopt_tools.tests.test_figures (plugin-tests/bench/parsers.test runs it under lit).
import os
import tempfile
import unittest

from nvopt_tools.bench import ab
from nvopt_tools.bench import figures
from nvopt_tools.bench import report
from nvopt_tools.bench import run_kernels

# Two nested loops ($L__BB0_2 inside $L__BB0_1) and a forward branch out; one callee with a
# loop of its own; the entry calls it.
PTX = r"""
.version 8.0
.target sm_90
.address_size 64

.func  (.param .b32 func_retval0) helper(
	.param .b32 helper_param_0
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;

	ld.param.u32 	%r1, [helper_param_0];
	mov.u32 	%r2, 0;
$L__BB1_1:                              // %loop
	add.s32 	%r2, %r2, %r1;
	setp.lt.s32 	%p1, %r2, 100;
	@%p1 bra 	$L__BB1_1;
	st.param.b32 	[func_retval0], %r2;
	ret;
}

.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<9>;
	.reg .b64 	%rd<3>;

	ld.param.u64 	%rd1, [k_param_0];
	ld.param.u32 	%r1, [k_param_1];
	setp.lt.s32 	%p1, %r1, 1;
	@%p1 bra 	$L__BB0_4;
	mov.u32 	%r2, %tid.x;
$L__BB0_1:                              // %outer
	mov.u32 	%r3, %r2;
$L__BB0_2:                              // %inner
	add.s32 	%r3, %r3, 1;
	setp.lt.s32 	%p2, %r3, %r1;
	@%p2 bra 	$L__BB0_2;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p3, %r2, %r1;
	@%p3 bra 	$L__BB0_1;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0], %r2;
	.param .b32 retval0;
	call.uni (retval0), helper, (param0);
	ld.param.b32 	%r4, [retval0];
	} // callseq 0
$L__BB0_4:
	ret;
}

.visible .entry straight(
	.param .u64 straight_param_0
)
{
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [straight_param_0];
	bra.uni 	$L__BB2_1;
$L__BB2_1:
	ret;
}
"""

# cuobjdump -sass style: addresses in /*....*/, backward BRA by address, NOP padding, the
# BRA-to-self trap after EXIT. Loops: [0x0050, 0x0090] (a NOP inside) and an overlapping
# [0x0070, 0x00b0] whose BRA has a second predicate operand.
SASS = r"""
	code for sm_90
		Function : k
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                     /* 0x00000a00ff017b82 */
                                                                              /* 0x000fe40000000800 */
        /*0010*/                   S2R R0, SR_TID.X ;                         /* 0x0000000000007919 */
                                                                              /* 0x000e220000002100 */
        /*0020*/                   ISETP.GE.AND P0, PT, R0, 0x10, PT ;        /* 0x000000100000780c */
                                                                              /* 0x001fda0003f06270 */
        /*0030*/               @P0 EXIT ;                                     /* 0x000000000000094d */
                                                                              /* 0x000fea0003800000 */
        /*0040*/                   MOV R2, RZ ;                               /* 0x000000ff00027202 */
                                                                              /* 0x000fe20000000f00 */
        /*0050*/                   IADD3 R2, R2, 0x1, RZ ;                    /* 0x0000000102027810 */
                                                                              /* 0x000fe20007ffe0ff */
        /*0060*/                   NOP ;                                      /* 0x0000000000007918 */
                                                                              /* 0x000fe20000000000 */
        /*0070*/                   IADD3 R3, R3, 0x2, RZ ;                    /* 0x0000000203037810 */
                                                                              /* 0x000fe20007ffe0ff */
        /*0080*/                   ISETP.GE.AND P1, PT, R2, 0x10, PT ;        /* 0x000000100200780c */
                                                                              /* 0x000fda0003f26270 */
        /*0090*/              @!P1 BRA 0x50 ;                                 /* 0xfffffffc00ec9947 */
                                                                              /* 0x000fea000383ffff */
        /*00a0*/                   IADD3 R4, R4, 0x1, RZ ;                    /* 0x0000000104047810 */
                                                                              /* 0x000fe20007ffe0ff */
        /*00b0*/              @!P2 BRA !P3, 0x70 ;                            /* 0xfffffffc00ec9947 */
                                                                              /* 0x000fea000383ffff */
        /*00c0*/                   EXIT ;                                     /* 0x000000000000794d */
                                                                              /* 0x000fea0003800000 */
        /*00d0*/                   BRA 0xd0;                                  /* 0xfffffffc00fc7947 */
                                                                              /* 0x000fc0000383ffff */
        /*00e0*/                   NOP;                                       /* 0x0000000000007918 */
                                                                              /* 0x000fc00000000000 */
		..........


		Function : straight
	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                     /* 0x00000a00ff017b82 */
                                                                              /* 0x000fe40000000800 */
        /*0010*/                   BRA 0x30 ;                                 /* 0x0000000000007947 */
                                                                              /* 0x000fea0003800000 */
        /*0020*/                   MOV R2, R3 ;                               /* 0x0000000300027202 */
                                                                              /* 0x000fe20000000f00 */
        /*0030*/                   EXIT ;                                     /* 0x000000000000794d */
                                                                              /* 0x000fea0003800000 */
		..........
"""

# nvdisasm style: branch targets are .L_x_N labels.
SASS_LABELS = r"""
		Function : lab
        /*0000*/                   MOV R2, RZ ;
.L_x_0:
        /*0010*/                   IADD3 R2, R2, 0x1, RZ ;
        /*0020*/                   ISETP.GE.AND P1, PT, R2, 0x10, PT ;
        /*0030*/              @!P1 BRA `(.L_x_0) ;
        /*0040*/                   BRA `(.L_x_1) ;
.L_x_1:
        /*0050*/                   EXIT ;
"""

PTXAS = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k' for 'sm_90'
ptxas info    : Function properties for k
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 26 registers, used 0 barriers, 368 bytes cmem[0]
"""


class PtxTest(unittest.TestCase):
    def test_counts(self):
        c = figures.ptx_counts(PTX)
        self.assertEqual(sorted(c), ["k", "straight"])
        # k: 16 own statements + helper's 7 (callseq braces and .param declarations dropped).
        self.assertEqual(c["k"]["callees"], ["helper"])
        self.assertEqual(c["k"]["ptx_instrs"], 16 + 7)
        self.assertEqual(c["k"]["movs"], 1 + 0)  # mov %r3, %r2 (not %tid.x, not the immediate)

    def test_loop_nested_counted_once(self):
        funcs = figures.ptx_functions(PTX)
        kind, body, labels = funcs["k"]
        self.assertEqual(body[labels["$L__BB0_1"]], "mov.u32 %r3, %r2;")
        # outer loop: mov .. @%p3 bra (7 statements) contains the inner 3; the forward
        # branch to $L__BB0_4 is no loop.
        self.assertEqual(figures.ptx_loop_instrs(body, labels), 7)
        self.assertEqual(figures.ptx_loop_instrs(*funcs["helper"][1:]), 3)

    def test_entry_loops_include_callees(self):
        c = figures.ptx_counts(PTX)
        self.assertEqual(c["k"]["ptx_loop"], 7 + 3)
        self.assertEqual(c["straight"]["ptx_loop"], 0)  # bra.uni forward only


class SassTest(unittest.TestCase):
    def test_counts_exclude_nops(self):
        self.assertEqual(figures.sass_counts(SASS), {"k": 13, "straight": 4})

    def test_loops_overlap_once_no_nop_no_trap(self):
        loops = figures.sass_loop_counts(SASS)
        # [0x50, 0x90] and [0x70, 0xb0] cover 0x50..0xb0: 7 slots, one NOP -> 6; the trap
        # BRA 0xd0 at 0xd0 is no loop; `straight` only branches forward.
        self.assertEqual(loops, {"k": 6, "straight": 0})

    def test_labels(self):
        self.assertEqual(figures.sass_counts(SASS_LABELS), {"lab": 6})
        self.assertEqual(figures.sass_loop_counts(SASS_LABELS), {"lab": 3})


class PtxasTest(unittest.TestCase):
    def test_info(self):
        self.assertEqual(figures.ptxas_info(PTXAS),
                         {"k": {"stack": 16, "spill_stores": 8, "spill_loads": 4, "regs": 26}})


class PtxCheckReportTest(unittest.TestCase):
    def test_entry_counts_callee_findings_and_summary_lists_them(self):
        # nvopt's helper reads a .shared variable with ld.param: a finding in the entry's callee
        bad = PTX.replace(".address_size 64", ".address_size 64\n.shared .align 4 .b8 smem[16];").replace(
            "[helper_param_0]", "[smem]")
        no_ptxas = type("Tools", (), {"nvidia_bin": ""})()
        res = run_kernels.FileResult("f")
        with tempfile.TemporaryDirectory() as d:
            work = os.path.join(d, "work", "f")
            os.makedirs(work)
            for c, text in (("upstream", PTX), ("nvopt", bad)):
                with open(os.path.join(work, f"{c}.ptx"), "w") as f:
                    f.write(text)
                res.entries[c], err, res.findings[c] = run_kernels.assemble(c, work, no_ptxas)
                self.assertEqual(err, "")
            rows = report.rows_from([res], "O3", ["upstream", "nvopt"])
            path = os.path.join(d, "summary.md")
            report.write_summary(path, rows, [res], ["upstream", "nvopt"], {"level": "O3"})
            with open(path) as f:
                text = f.read()
        self.assertEqual((res.entries["upstream"]["k"]["ptxcheck"], res.entries["nvopt"]["k"]["ptxcheck"]),
                         (0, 1))
        self.assertRegex(text, r"\n\| f:k \|.* \| 0 / 1 \|\n")
        self.assertIn("\nfindings: upstream 0, nvopt 1\n", text)
        self.assertRegex(text, r"\n- \[nvopt\] work/f/nvopt\.ptx:\d+: helper: param-addr: ld\.param through smem, ")


class AbTest(unittest.TestCase):
    def test_subset_list_file_and_globs(self):
        names = ["a:k1", "a:k2", "b:star13"]
        self.assertEqual(ab.match_subset(["star13", "a:k1"], names)[0], {"a:k1", "b:star13"})
        picked, unmatched = ab.match_subset(["a:*", "nope"], names)
        self.assertEqual((picked, unmatched), ({"a:k1", "a:k2"}, ["nope"]))
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# six or more accesses off one base\nb:star13\n a:k2 , \n")
        try:
            self.assertEqual(ab.read_subset(f.name), ["b:star13", "a:k2"])
        finally:
            os.unlink(f.name)
        self.assertEqual(ab.read_subset("x:y, z"), ["x:y", "z"])

    def test_table(self):
        rows = [{"file": "a", "entry": "k", "compiler": c, "regs": r, "spill_stores": 0,
                 "spill_loads": 0, "ptx_instrs": 10, "ptx_loop": 4, "sass_instrs": s, "sass_loop": 0}
                for c, r, s in (("nvopt", 20, 100), ("nvopt:v", 20, 90))]
        idx = ab.index(rows)
        lines = ab.entry_table(idx, "nvopt:v", "nvopt", ["a:k"])
        self.assertIn("| a:k | 20 / 20 (1.000) |", lines[2])
        self.assertIn("90 / 100 (0.900)", lines[2])
        g = ab.geomeans(idx, "nvopt:v", "nvopt", ["a:k"])
        self.assertAlmostEqual(g["sass_instrs"][0], 0.9)
        self.assertEqual(g["sass_instrs"][1], 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
