//! `nv-stride-loop-unroll`'s IR adapter: reads each loop's facts (src/analysis/ir/loops.rs: nesting,
//! metadata, exits, ScalarEvolution's trip count and the idiom of its induction variable; the
//! loop's instructions for its size and convergent calls), runs [`decide`], adds `llvm.loop.unroll.count` to the chosen loops and
//! reports each decision as a remark and in the statistics. The C++ pass wrapper
//! (src/shim/unroll_marks.cpp) calls [`nvopt_stride_loop_unroll_run`] with the function, its
//! LoopInfo, ScalarEvolution and OptimizationRemarkEmitter.
use super::{decide, Limits, LoopFacts, Refusal, Trip, PASS};
use crate::analysis::ir;
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::scev_sources::ffi::decode_terms;
use crate::analysis::scev_sources::idiom::{classify, Idiom};
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMAttributeFunctionIndex;
use std::ffi::{c_void, CStr};

const REMARK_PASS: &CStr = c"nv-stride-loop-unroll";
const UNROLL_COUNT: &CStr = c"llvm.loop.unroll.count";

/// Whether call `i` is convergent: the call site or its callee carries the attribute.
///
/// # Safety
/// `i` is a live call instruction.
unsafe fn convergent_call(i: LLVMValueRef, kind: u32) -> bool {
    if !LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, kind).is_null() {
        return true;
    }
    let callee = LLVMGetCalledValue(i);
    !callee.is_null()
        && !LLVMIsAFunction(callee).is_null()
        && !LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind).is_null()
}

/// The size (instructions other than PHIs and debug intrinsics) of the loop made of `bbs`, and
/// whether it holds a convergent call.
///
/// # Safety
/// `bbs` are live blocks.
unsafe fn body(bbs: &[LLVMBasicBlockRef], convergent: u32) -> (u32, bool) {
    let (mut size, mut conv) = (0u32, false);
    for &bb in bbs {
        for i in ir::instructions(ir::block(bb)).map(ir::raw) {
            let debug = !LLVMIsADbgInfoIntrinsic(i).is_null();
            if LLVMIsAPHINode(i).is_null() && !debug {
                size += 1;
            }
            if !LLVMIsACallInst(i).is_null() && convergent_call(i, convergent) {
                conv = true;
            }
        }
    }
    (size, conv)
}

/// Whether the induction variable loop `l`'s exit compare tests is a block-stride recurrence
/// (`{.. + tid, +, ntid}`, src/analysis/scev_sources/idiom.rs).
///
/// # Safety
/// `l` is a loop of a live function and `se` its ScalarEvolution.
unsafe fn block_stride(l: Loop, se: *mut c_void) -> bool {
    l.iv_terms(se).is_some_and(|(start, step)| {
        classify(&decode_terms(&start), &decode_terms(&step)) == Idiom::BlockStride
    })
}

/// The rule's facts of every loop of function `f`.
///
/// # Safety
/// `f` is a live function definition, `li` its live LoopInfo and `se` its ScalarEvolution.
unsafe fn read(f: LLVMValueRef, li: *const c_void, se: *mut c_void) -> (Vec<Loop>, Vec<LoopFacts>) {
    let lps = loops::preorder(li);
    let all = ir::function_blocks(f);
    let kind = ir::attribute_kind(c"convergent");
    let facts = lps
        .iter()
        .map(|&l| {
            let trip = if !l.trip_count_computable(se) {
                Trip::NotComputable
            } else if l.trip_count_divides(se) {
                Trip::Divides
            } else {
                Trip::Cheap
            };
            let bbs: Vec<_> = all.iter().copied().filter(|&bb| l.contains(bb)).collect();
            let (size, has_convergent_call) = body(&bbs, kind);
            LoopFacts {
                innermost: !lps.iter().any(|&m| m.parent() == Some(l)),
                unroll_decided: l.unroll_decided(),
                exits_at_latch_only: l.exits_at_latch_only(),
                block_stride: block_stride(l, se),
                max_trip: l.constant_max_trip_count(se),
                has_convergent_call,
                trip,
                size,
            }
        })
        .collect();
    (lps, facts)
}

fn remark(remarks: &Remarks, l: Loop, d: Result<u32, Refusal>) {
    if !remarks.enabled() {
        return;
    }
    match d {
        Ok(c) => {
            let c = c.to_string();
            let args = [
                RemarkArg::text(b"runtime unroll count "),
                RemarkArg::named("Count", c.as_bytes()),
                RemarkArg::text(b" (llvm.loop.unroll.count): its trip count divides by a run-time stride, which LLVM's unroller does not expand"),
            ];
            remarks.emit_loop(REMARK_PASS, c"StrideUnroll", l, &args);
        }
        Err(r) => {
            // SAFETY: a live loop header, which has a terminator at least.
            let first = unsafe {
                inkwell::values::InstructionValue::new(LLVMGetFirstInstruction(l.header()))
            };
            let args = [
                RemarkArg::text(b"stride loop left rolled: "),
                RemarkArg::named("Reason", r.text().as_bytes()),
            ];
            remarks.emit_missed(REMARK_PASS, c"StrideLoopLeft", first, &args);
        }
    }
}

/// Runs `nv-stride-loop-unroll` on one function; whether it changed the IR (loop metadata).
///
/// # Safety
/// `f` is a live function definition; `li`, `se` and `ore` its live `llvm::LoopInfo*`,
/// `llvm::ScalarEvolution*` and `llvm::OptimizationRemarkEmitter*`, all outliving the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_stride_loop_unroll_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
    ore: *mut c_void,
) -> bool {
    let knobs = Knobs::current();
    let lim = Limits {
        max_count: u32::try_from(knobs.nv_unroll_max_count()).unwrap_or(u32::MAX),
        threshold: u32::try_from(knobs.nv_stride_loop_unroll_threshold()).unwrap_or(u32::MAX),
        bounded_trip: u32::try_from(knobs.nv_stride_loop_unroll_bounded_trip()).unwrap_or(u32::MAX),
    };
    let (lps, facts) = read(f, li, se);
    let remarks = Remarks::from_raw(ore);
    let mut changed = false;
    for (&l, lf) in lps.iter().zip(&facts) {
        let Some(d) = decide(lf, lim) else { continue };
        match d {
            Ok(c) => {
                l.add_int_property(UNROLL_COUNT, c);
                crate::stats::add(PASS, "stride loops given a runtime unroll count", 1);
                changed = true;
            }
            Err(r) => crate::stats::add(PASS, r.counter(), 1),
        }
        log::debug!("{PASS}: {}: {lf:?} -> {d:?}", crate::analysis::ir::name(f));
        remark(&remarks, l, d);
    }
    changed
}
