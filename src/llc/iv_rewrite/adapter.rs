//! nv-iv-rewrite on IR: reads each loop's header PHIs and their ScalarEvolution recurrences
//! (src/llc/iv_rewrite/iv_rewrite.cpp), asks [`super::plan`], and performs the rewrite: the start
//! difference expanded in the preheader, one add next to each use, the old PHI and its update
//! deleted. Remarks (`-pass-remarks[-missed]=nv-iv-rewrite`, about the function) and `-nv-stats`.
use super::{plan, Iv, LoopInput};
use crate::analysis::ir::facts;
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::ir::{self};
use crate::analysis::pressure;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::ffi::{c_void, CStr};

const PASS: &CStr = c"nv-iv-rewrite";
const STATS: &str = "nv-iv-rewrite";

extern "C" {
    fn nvopt_iv_affine_step(se: *mut c_void, l: *const c_void, phi: LLVMValueRef) -> *const c_void;
    fn nvopt_iv_start_difference(
        se: *mut c_void,
        l: *const c_void,
        from: LLVMValueRef,
        to: LLVMValueRef,
    ) -> LLVMValueRef;
}

/// Entry point from the pass wrapper; whether the IR changed.
///
/// # Safety
/// `f` is a live function with a body; `li` and `se` its live LoopInfo and ScalarEvolution.
#[no_mangle]
pub unsafe extern "C" fn nvopt_iv_rewrite_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
) -> bool {
    let knobs = Knobs::current();
    if knobs.nv_disable_iv_rewrite() {
        return false;
    }
    let func = ir::function(f);
    let all = loops::preorder(li);
    let over = pressure::loops_over_target(func, &all);
    let mut changed = false;
    for (l, over_target) in all.into_iter().zip(over) {
        changed |= rewrite_loop(func, l, over_target, se, knobs.nv_iv_rewrite_max_growth() as u32);
    }
    changed
}

/// An integer header PHI (not i1, at most 64 bits) with its recurrence's step.
fn candidates(l: Loop, se: *mut c_void) -> Vec<(LLVMValueRef, *const c_void)> {
    // SAFETY: a live header block of a loop of the function being run.
    let header = unsafe { ir::block(l.header()) };
    ir::instructions(header)
        .take_while(|i| ir::is(i.as_value_ref(), LLVMOpcode::LLVMPHI))
        .map(|i| i.as_value_ref())
        .filter(|&p| {
            ir::int_width(p).is_some_and(|w| (2..=64).contains(&w))
                // SAFETY: a live value.
                && unsafe { ir::type_kind(p) } == LLVMTypeKind::LLVMIntegerTypeKind
        })
        // SAFETY: se and the loop are live; p is a PHI of its header.
        .filter_map(|p| {
            let step = unsafe { nvopt_iv_affine_step(se, l.as_raw(), p) };
            (!step.is_null()).then_some((p, step))
        })
        .collect()
}

fn rewrite_loop(
    f: FunctionValue,
    l: Loop,
    over_target: bool,
    se: *mut c_void,
    growth: u32,
) -> bool {
    let ivs = candidates(l, se);
    let mut steps: Vec<*const c_void> = Vec::new();
    let input = LoopInput {
        over_target,
        ivs: ivs
            .iter()
            .map(|&(p, step)| {
                let class = steps.iter().position(|&s| s == step).unwrap_or_else(|| {
                    steps.push(step);
                    steps.len() - 1
                });
                Iv { class, uses: ir::uses(p).count() as u32 }
            })
            .collect(),
        body: loop_instructions(f, l),
    };
    if input.ivs.len() < 2 {
        return false;
    }
    let classes = match plan(&input, growth) {
        Ok(c) => c,
        Err(why) => {
            crate::stats::add(STATS, "loops refused", 1);
            remark(f, l, true, why.describe());
            return false;
        }
    };
    let mut moved = 0u64;
    for c in &classes {
        let leader = ivs[c.leader].0;
        for &m in &c.members {
            moved += move_onto(l, se, leader, ivs[m].0) as u64;
        }
    }
    crate::stats::add(STATS, "IVs moved onto another of their step", moved);
    crate::stats::add(STATS, "loops rewritten", (moved > 0) as u64);
    if moved > 0 {
        remark(
            f,
            l,
            false,
            &format!("{moved} IVs moved onto {} of their step classes", classes.len()),
        );
    }
    moved > 0
}

/// Rebuilds `phi` as `leader + (start(phi) - start(leader))` at each use and deletes it and
/// its update; false (nothing changed) when the difference cannot be expanded.
fn move_onto(l: Loop, se: *mut c_void, leader: LLVMValueRef, phi: LLVMValueRef) -> bool {
    // SAFETY: se and the loop are live; both are affine header PHIs of the loop.
    let diff = unsafe { nvopt_iv_start_difference(se, l.as_raw(), leader, phi) };
    if diff.is_null() {
        return false;
    }
    let uses: Vec<(LLVMValueRef, u32)> = ir::uses(phi).collect();
    // SAFETY: all handles are live instructions and values of one function; each new add is
    // inserted where the use it replaces runs (a PHI's use: the end of its incoming block), which
    // the header, and so the leader PHI and the preheader's difference, dominate.
    unsafe {
        let b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(phi)));
        for (user, op) in uses {
            let at = if ir::is(user, LLVMOpcode::LLVMPHI) {
                LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, op))
            } else {
                user
            };
            LLVMPositionBuilderBefore(b, at);
            let v = LLVMBuildAdd(b, leader, diff, c"nv.iv".as_ptr());
            LLVMSetOperand(user, op, v);
        }
        LLVMDisposeBuilder(b);
        let updates: Vec<LLVMValueRef> =
            (0..LLVMCountIncoming(phi)).map(|k| LLVMGetIncomingValue(phi, k)).collect();
        LLVMInstructionEraseFromParent(phi);
        facts::delete_dead_all(&updates);
    }
    true
}

fn loop_instructions(f: FunctionValue, l: Loop) -> u32 {
    f.get_basic_block_iter()
        .filter(|bb| l.contains(bb.as_mut_ptr()))
        .map(|bb| ir::instructions(bb).count() as u32)
        .sum()
}

fn remark(f: FunctionValue, l: Loop, missed: bool, what: &str) {
    let name = if missed { c"NotRewritten" } else { c"Rewritten" };
    facts::remark_function_text(PASS, name, missed, f.as_value_ref(), || {
        // SAFETY: a live header block.
        let header = ir::name(unsafe { LLVMBasicBlockAsValue(l.header()) });
        format!("loop {}: {what}", if header.is_empty() { "<unnamed>" } else { &header })
    });
}
