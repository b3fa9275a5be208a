//! `nv-shuffle-loop-unroll`'s IR adapter: reads one function's loops (src/analysis/ir/loops.rs) and its
//! warp shuffles with a non-constant member mask into the rule's [`Model`], runs [`plan`], adds
//! `llvm.loop.unroll.disable` to the chosen loops and reports each decision as a remark and in
//! the statistics. The C++ pass wrapper (src/shim/unroll_marks.cpp) calls
//! [`nvopt_shuffle_loop_unroll_run`] with the function, its LoopInfo and its
//! OptimizationRemarkEmitter.
use super::{plan, LoopFacts, Model, Plan, PASS, SHUFFLE_PREFIX};
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::ir::{self, block_of};
use inkwell::values::{InstructionOpcode, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_void, CStr};

const REMARK_PASS: &CStr = c"nv-shuffle-loop-unroll";
const UNROLL_DISABLE: &CStr = c"llvm.loop.unroll.disable";

/// The rule's model of function `f`, and its loops.
///
/// # Safety
/// `f` is a live function definition and `li` its live LoopInfo.
unsafe fn read(f: LLVMValueRef, li: *const c_void) -> (Vec<Loop>, Model) {
    let lps = loops::preorder(li);
    let index = |l: Loop| lps.iter().position(|&x| x == l);
    let facts = lps
        .iter()
        .map(|l| LoopFacts {
            parent: l.parent().and_then(index),
            unroll_decided: l.unroll_decided(),
        })
        .collect();
    let shuffles = ir::function_instructions(ir::function(f))
        .filter(|&i| is_runtime_mask_shuffle(i))
        .filter_map(|i| block_of(ir::raw(i)).and_then(|bb| loops::loop_for(li, bb)))
        .filter_map(index)
        .collect();
    (lps, Model { loops: facts, shuffles })
}

/// A call of `llvm.nvvm.shfl.sync.*` whose member mask (operand 0) is not a constant.
fn is_runtime_mask_shuffle(i: InstructionValue) -> bool {
    if i.get_opcode() != InstructionOpcode::Call {
        return false;
    }
    let call = ir::raw(i);
    // SAFETY: a live call instruction; operand 0 is a live value.
    ir::callee_name(call).starts_with(SHUFFLE_PREFIX)
        && unsafe { LLVMIsAConstant(ir::raw_operand(call, 0)).is_null() }
}

fn record(p: &Plan) {
    let n = |s: &std::collections::BTreeSet<usize>| s.len() as u64;
    let what = "loops kept rolled: warp shuffle with a run-time mask";
    crate::stats::add_nonzero(PASS, what, n(&p.keep_rolled));
    crate::stats::add_nonzero(PASS, "loops left to their unroll pragma or mark", n(&p.decided));
}

fn remark(remarks: &Remarks, lps: &[Loop], p: &Plan) {
    if !remarks.enabled() {
        return;
    }
    for &(k, n) in &p.shuffles_in {
        let n = n.to_string();
        let args = [
            RemarkArg::text(b"kept rolled (llvm.loop.unroll.disable): it holds "),
            RemarkArg::named("Shuffles", n.as_bytes()),
            RemarkArg::text(b" warp shuffle(s) with a run-time member mask"),
        ];
        remarks.emit_loop(REMARK_PASS, c"KeptRolled", lps[k], &args);
    }
    for &k in &p.decided {
        // SAFETY: a live loop header, which has a terminator at least.
        let first = unsafe { InstructionValue::new(LLVMGetFirstInstruction(lps[k].header())) };
        let args = [RemarkArg::text(
            b"not kept rolled: the loop's unroll pragma or nv-local-array-unroll's mark decides",
        )];
        remarks.emit_missed(REMARK_PASS, c"UnrollDecided", first, &args);
    }
}

/// Runs `nv-shuffle-loop-unroll` on one function; whether it changed the IR (loop metadata).
///
/// # Safety
/// `f` is a live function definition; `li` and `ore` its live `llvm::LoopInfo*` and
/// `llvm::OptimizationRemarkEmitter*`, both outliving the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_shuffle_loop_unroll_run(
    f: LLVMValueRef,
    li: *const c_void,
    ore: *mut c_void,
) -> bool {
    let (lps, model) = read(f, li);
    if model.shuffles.is_empty() {
        return false;
    }
    let p = plan(&model);
    for &k in &p.keep_rolled {
        lps[k].add_property(UNROLL_DISABLE);
    }
    record(&p);
    remark(&Remarks::from_raw(ore), &lps, &p);
    log::debug!("{PASS}: {}: {:?}", ir::name(f), p);
    !p.keep_rolled.is_empty()
}
