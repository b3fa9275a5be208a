//! `nv-asm-convergence`: takes the `convergent` attribute off inline-asm calls whose PTX only
//! computes in the executing thread (conversions, arithmetic, moves, loads and stores), so that
//! the loop unroller, the CFG simplifier and the other passes that must not change the set of
//! threads reaching a convergent operation treat them as the plain instructions they are.
//!
//! Why: clang compiles CUDA device code with every call convergent, inline asm included, and an
//! asm call has no callee whose body `function-attrs` could inspect, so the mark stays for good.
//! CUDA's own headers implement basic conversions with inline asm (`__bfloat162float` is
//! `{ cvt.f32.bf16 $0, $1;}` for sm_90, `__float2bfloat16` `cvt.rn.bf16.f32`), and LLVM's unroller
//! refuses to runtime-unroll any loop holding a convergent call (a remainder loop would change
//! which threads run each copy). cicc's front end does not mark asm convergent: nvcc
//! runtime-unrolls such loops 4 times. llm.c's `layernorm_forward_kernel1` is the case (three
//! `for (i = 0; i < C; i++)` loops over bf16 data): nvcc unrolls all three, nvopt with the mark
//! none; with the mark removed LLVM unrolls all three 4 times.
//!
//! ```text
//! ; before                                          ; after nv-asm-convergence
//! %f = call float asm "{ cvt.f32.bf16 $0, $1;}",    %f = call float asm "{ cvt.f32.bf16 $0, $1;}",
//!        "=f,h"(i16 %h) #1                                  "=f,h"(i16 %h) #2
//! %v = call i32 asm "shfl.sync.bfly.b32 ...",       %v = call i32 asm "shfl.sync.bfly.b32 ...",
//!        "=r,r"(i32 %x) #1                                  "=r,r"(i32 %x) #1     ; kept
//! attributes #1 = { convergent nounwind memory(none) }
//! attributes #2 = { nounwind memory(none) }
//! ```
//!
//! The rule: the asm text is split into PTX statements (at `;` and line ends; braces, `//` and
//! `/* */` comments, `@p` guards and `.reg` declarations set aside); the mark goes when there is
//! at least one statement and every statement's opcode (the name before its first `.`) is in
//! [`THREAD_LOCAL_OPCODES`]: integer and float arithmetic, logic, shifts and bit fields,
//! comparisons and selects, conversions, moves, and per-thread memory accesses (`ld`, `ldu`,
//! `st`, `prefetch`, `atom`, `red`, none of which waits for or exchanges data with other
//! threads). Anything else keeps it: warp and block collectives (`shfl`, `vote`, `match`,
//! `redux`, `activemask`, `bar`, `barrier`, `mma`, `wmma`, `wgmma`, `ldmatrix`, `stmatrix`,
//! `elect`, `setmaxnreg`, `mbarrier`, `cp`), control flow (`bra`, `call`, `ret`, `exit`,
//! `trap`, labels), fences, directives other than `.reg`, and every opcode not on the list,
//! since an unknown instruction might be collective. Only call sites with the attribute and an
//! inline-asm callee are touched; calls of functions are left to LLVM's `function-attrs`.
//!
//! Refused as well, for register pressure rather than correctness: asm that reads a PTX special
//! register ([`PTX_SPECIAL_REGISTERS`]: CUB's `mov.u32 $0, %laneid;` and `%lanemask_*` reads, in
//! every warp scan, reduce and select). Without the mark such a call is a plain `memory(none)`
//! value, and LLVM merges a kernel's many reads into one whose result stays live across the
//! kernel, where each fresh read costs one S2R next to its use (CUB's DeviceScanKernel: 24
//! laneid reads become 4 and the kernel goes from 72 to 80 registers). CUDA's conversions,
//! which the pass is for, read no special register.
//!
//! Where it runs: first in every optimizing level's module pipeline, right after
//! `nv:internalize`, so that every later pass sees the call sites without the mark (the asm
//! sits in CUDA's header functions and is copied by inlining). cicc has no slot for it: its
//! front end never adds the mark. `opt -passes=nv-asm-convergence` runs it alone.
//!
//! Knobs: `nv-disable-asm-convergence` (skip the slot); `nv-asm-convergence-sregs` (also take
//! the mark off special-register reads; off, docs/DEPARTURES.md has its figure). Counters under `-nv-stats`; a remark per
//! call whose mark goes (`-pass-remarks=nv-asm-convergence`) and per call that keeps it, with
//! the opcode that keeps it (`-pass-remarks-missed=nv-asm-convergence`).
use crate::analysis::gpu::PTX_SPECIAL_REGISTERS;
use crate::analysis::ir::facts::{self, RemarkArg};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};
use llvm_sys::LLVMAttributeFunctionIndex;

pub const PASS: &str = "nv-asm-convergence";

/// PTX opcodes (the name before the first `.`) whose instructions compute in the executing
/// thread alone: no exchange with, and no waiting for, other threads.
pub const THREAD_LOCAL_OPCODES: &[&str] = &[
    // integer and float arithmetic
    "add",
    "sub",
    "mul",
    "mad",
    "mul24",
    "mad24",
    "sad",
    "div",
    "rem",
    "abs",
    "neg",
    "min",
    "max",
    "fma",
    "rcp",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "lg2",
    "ex2",
    "tanh",
    "copysign",
    "testp",
    "dp4a",
    "dp2a",
    // logic, shifts, bit fields
    "and",
    "or",
    "xor",
    "not",
    "cnot",
    "lop3",
    "shl",
    "shr",
    "shf",
    "prmt",
    "bfe",
    "bfi",
    "brev",
    "popc",
    "clz",
    "bfind",
    "fns",
    // comparisons, selects, conversions, moves
    "set",
    "setp",
    "selp",
    "slct",
    "cvt",
    "cvta",
    "mov",
    "isspacep",
    // per-thread memory accesses
    "ld",
    "ldu",
    "st",
    "prefetch",
    "prefetchu",
    "atom",
    "red",
];

/// What the pass decides for one asm text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every statement computes in the executing thread: the mark can go.
    ThreadLocal,
    /// This statement (its first word, or the whole text when empty) keeps the mark.
    Keeps(String),
}

/// The PTX statements of an asm text: comments removed, split at `;` and line ends, braces
/// and surrounding blanks trimmed, empty pieces dropped.
pub fn statements(asm: &str) -> Vec<String> {
    strip_comments(asm)
        .split([';', '\n'])
        .map(|s| s.trim_matches(|c: char| c.is_whitespace() || c == '{' || c == '}'))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// `asm` without `//` line comments and `/* */` block comments.
fn strip_comments(asm: &str) -> String {
    let mut out = String::with_capacity(asm.len());
    let mut rest = asm;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else {
            let c = rest.chars().next().unwrap_or_default();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A statement's opcode name before its first `.` (`cvt` for `@%p cvt.rn.f32.s32 $0, $1`), or
/// `None` for a `.reg` declaration, which only names registers.
fn opcode(stmt: &str) -> Option<&str> {
    let mut words = stmt.split_whitespace();
    let mut first = words.next().unwrap_or_default();
    if first.starts_with('@') {
        first = words.next().unwrap_or_default();
    }
    if first == ".reg" {
        return None;
    }
    Some(first.split('.').next().unwrap_or_default())
}

/// The first special register (`%laneid`, ...) that statement list `asm` reads, if any.
pub fn special_register(asm: &str) -> Option<String> {
    let text = strip_comments(asm);
    let mut rest = text.as_str();
    while let Some(i) = rest.find('%') {
        rest = &rest[i + 1..];
        let name: String =
            rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let base = name.split('.').next().unwrap_or_default();
        let known = PTX_SPECIAL_REGISTERS.iter().any(|r| match r.strip_suffix('*') {
            Some(prefix) => base.starts_with(prefix),
            None => base == *r,
        });
        if known {
            return Some(format!("%{base}"));
        }
    }
    None
}

/// The decision for one asm text.
pub fn classify(asm: &str) -> Verdict {
    let stmts = statements(asm);
    if stmts.is_empty() {
        return Verdict::Keeps(String::new());
    }
    for s in &stmts {
        if let Some(op) = opcode(s) {
            if !THREAD_LOCAL_OPCODES.contains(&op) {
                let word = s.split_whitespace().find(|w| !w.starts_with('@')).unwrap_or(s);
                return Verdict::Keeps(word.to_string());
            }
        }
    }
    Verdict::ThreadLocal
}

/// The inline-asm calls of a module that carry `convergent` on the call site: (call, asm text).
fn marked_asm_calls(m: LLVMModuleRef, kind: u32) -> Vec<(LLVMValueRef, String)> {
    let fns = crate::analysis::ir::module_functions(m);
    let calls = fns.into_iter().flat_map(crate::analysis::ir::function_raw_instructions);
    // SAFETY: live instructions of a live module, only read.
    calls.filter_map(|i| unsafe { marked_asm(i, kind) }.map(|text| (i, text))).collect()
}

/// The asm text of call `i` when it calls inline asm and carries attribute `kind`.
///
/// # Safety
/// `i` is a live instruction.
unsafe fn marked_asm(i: LLVMValueRef, kind: u32) -> Option<String> {
    if LLVMIsACallInst(i).is_null() {
        return None;
    }
    let callee = LLVMGetCalledValue(i);
    if callee.is_null() || LLVMIsAInlineAsm(callee).is_null() {
        return None;
    }
    if LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, kind).is_null() {
        return None;
    }
    let mut len = 0usize;
    let p = LLVMGetInlineAsmAsmString(callee, &mut len);
    let bytes = if p.is_null() { &[][..] } else { std::slice::from_raw_parts(p.cast(), len) };
    Some(String::from_utf8_lossy(bytes).into_owned())
}

/// The remark about call `call`: the mark removed, or kept because of `word`.
fn remark(call: LLVMValueRef, verdict: &Verdict) {
    // SAFETY: a live instruction of a live function.
    let f = unsafe { LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)) };
    if !facts::remarks_enabled_for(f) {
        return;
    }
    match verdict {
        Verdict::ThreadLocal => {
            let text = b"convergent removed from an inline-asm call: its PTX computes in the executing thread only";
            facts::remark_instruction(
                c"nv-asm-convergence",
                c"NotConvergent",
                false,
                call,
                &[RemarkArg::text(text)],
            );
        }
        Verdict::Keeps(word) if word.is_empty() => {
            let text = b"inline-asm call kept convergent: its text holds no PTX statement to check";
            facts::remark_instruction(
                c"nv-asm-convergence",
                c"KeptConvergent",
                true,
                call,
                &[RemarkArg::text(text)],
            );
        }
        Verdict::Keeps(sreg) if sreg.starts_with('%') => {
            let args = [
                RemarkArg::text(b"inline-asm call kept convergent: it reads special register "),
                RemarkArg::named("Register", sreg.as_bytes()),
                RemarkArg::text(b" (-nv-asm-convergence-sregs=false)"),
            ];
            facts::remark_instruction(c"nv-asm-convergence", c"KeptConvergent", true, call, &args);
        }
        Verdict::Keeps(word) => {
            let args = [
                RemarkArg::text(b"inline-asm call kept convergent: "),
                RemarkArg::named("Statement", word.as_bytes()),
                RemarkArg::text(b" is not a known thread-local PTX instruction"),
            ];
            facts::remark_instruction(c"nv-asm-convergence", c"KeptConvergent", true, call, &args);
        }
    }
}

/// Runs `nv-asm-convergence` on a module (called by the pass plumbing in
/// src/shim/rust_module_passes.cpp); whether it changed the IR.
///
/// # Safety
/// `m` is a live module that no one else changes during the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_asm_convergence_run(m: LLVMModuleRef) -> bool {
    let kind = crate::analysis::ir::attribute_kind(c"convergent");
    let sregs_too = crate::knobs::Knobs::current().nv_asm_convergence_sregs();
    let mut changed = false;
    for (call, text) in marked_asm_calls(m, kind) {
        let verdict = match special_register(&text) {
            Some(sreg) if !sregs_too => Verdict::Keeps(sreg),
            _ => classify(&text),
        };
        remark(call, &verdict);
        if verdict == Verdict::ThreadLocal {
            log::debug!("{PASS}: convergent removed from asm {text:?}");
            crate::stats::add(PASS, "inline-asm calls made non-convergent", 1);
            LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind);
            changed = true;
        } else {
            log::debug!("{PASS}: asm {text:?} kept convergent");
            crate::stats::add(PASS, "inline-asm calls kept convergent", 1);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_header_conversions_are_thread_local() {
        assert_eq!(classify("{ cvt.f32.bf16 $0, $1;}\n"), Verdict::ThreadLocal);
        assert_eq!(classify("{  cvt.rn.bf16.f32 $0, $1;}\n"), Verdict::ThreadLocal);
        let pack = "{.reg .b16 lo, hi;\n  mov.b32 {lo, hi}, $1;\n  cvt.f32.bf16 $0, lo;}\n";
        assert_eq!(classify(pack), Verdict::ThreadLocal);
        assert_eq!(classify("ld.global.cs.v4.s32 {$0,$1,$2,$3}, [$4];"), Verdict::ThreadLocal);
        assert_eq!(classify("st.global.cs.v4.s32 [$0], {$1,$2,$3,$4};"), Verdict::ThreadLocal);
    }

    #[test]
    fn guards_and_comments_are_set_aside() {
        let asm = "{ .reg .pred p; // a comment; shfl\n setp.ne.b32 p, $1, 0; /* bar.sync 0; */\n @p add.s32 $0, $1, 1;\n @!p mov.b32 $0, 0; }";
        assert_eq!(classify(asm), Verdict::ThreadLocal);
    }

    #[test]
    fn collectives_control_flow_and_unknown_opcodes_keep_the_mark() {
        for (asm, word) in [
            ("shfl.sync.bfly.b32 $0, $1, 1, 31, -1;", "shfl.sync.bfly.b32"),
            ("{ add.s32 $0, $1, 1; bar.sync 0; }", "bar.sync"),
            ("vote.sync.ballot.b32 $0, $1, -1;", "vote.sync.ballot.b32"),
            ("activemask.b32 $0;", "activemask.b32"),
            (
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1}, {$2}, {$3}, {$4};",
                "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            ),
            (
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0,$1,$2,$3}, [$4];",
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
            ),
            ("{ @$1 bra DONE; mov.b32 $0, 1; DONE: }", "bra"),
            ("fence.acq_rel.gpu;", "fence.acq_rel.gpu"),
            ("setmaxnreg.inc.sync.aligned.u32 240;", "setmaxnreg.inc.sync.aligned.u32"),
            ("nanosleep.u32 $0;", "nanosleep.u32"),
            (".shared .b32 x;", ".shared"),
        ] {
            assert_eq!(classify(asm), Verdict::Keeps(word.to_string()), "{asm}");
        }
    }

    #[test]
    fn special_register_reads_are_found() {
        assert_eq!(special_register("mov.u32 $0, %laneid;"), Some("%laneid".to_string()));
        assert_eq!(special_register("mov.u32 $0, %lanemask_le;"), Some("%lanemask_le".into()));
        assert_eq!(special_register("mov.u32 $0, %tid.x;"), Some("%tid".to_string()));
        assert_eq!(special_register("mov.u32 $0, %envreg3;"), Some("%envreg3".to_string()));
        // Local .reg names and CUDA's conversions are not special registers.
        assert_eq!(special_register("{ .reg .pred %p; setp.ne.b32 %p, $1, 0; }"), None);
        assert_eq!(special_register("{ cvt.f32.bf16 $0, $1;}\n"), None);
        assert_eq!(special_register("// %laneid in a comment\n add.s32 $0, $1, 1;"), None);
    }

    #[test]
    fn an_empty_text_keeps_the_mark() {
        assert_eq!(classify(""), Verdict::Keeps(String::new()));
        assert_eq!(classify("{ }"), Verdict::Keeps(String::new()));
        assert_eq!(classify("// only a comment"), Verdict::Keeps(String::new()));
    }

    #[test]
    fn statements_split_at_semicolons_and_line_ends() {
        assert_eq!(statements("{ a.b $0;\n c $1 }"), vec!["a.b $0", "c $1"]);
    }
}
