//! nv-pred-remat on a MachineFunction: for each loop (inner loops first) reads the predicates
//! live into its header from the shim (src/machine/pred_remat/pred_remat.cpp), asks [`super::choose`] and
//! has the shim copy each chosen compare into the loop's blocks that read it and erase the
//! original when nothing else reads it. Remarks (`-pass-remarks=nv-pred-remat`, about the
//! function) and `-nv-stats`.
use super::{choose, Facts, PASS};
use crate::analysis::ir::facts;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_char, c_void, CStr};

const REMARK_PASS: &CStr = c"nv-pred-remat";

/// Room for reading-block numbers per predicate (more are reported as a count only).
const CAP: usize = 16;

extern "C" {
    fn nvopt_shim_register_pred_remat();
    fn nvopt_shim_pred_remat_loops(host: *mut c_void) -> u32;
    fn nvopt_shim_pred_remat_collect(host: *mut c_void, lp: u32) -> u32;
    fn nvopt_shim_pred_remat_facts(
        host: *mut c_void,
        id: u32,
        name: *mut *const c_char,
        len: *mut usize,
        outside: *mut bool,
        phi_use: *mut bool,
        operands_live: *mut bool,
        blocks: *mut u32,
        n_blocks: *mut u32,
        cap: u32,
    ) -> bool;
    fn nvopt_shim_pred_remat_copy_into(host: *mut c_void, id: u32, block: u32) -> bool;
    fn nvopt_shim_pred_remat_erase_if_unread(host: *mut c_void, id: u32) -> bool;
}

/// Registers the legacy machine pass `nv-pred-remat` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-pred-remat` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_pred_remat() }
}

/// Predicate `id`'s facts and the numbers of the loop's blocks that read it; `None` when its
/// definition may not be copied.
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_pred_remat_run`].
unsafe fn facts_of(host: *mut c_void, id: u32) -> Option<(Facts, Vec<u32>)> {
    let (mut name, mut len) = (std::ptr::null(), 0usize);
    let (mut outside, mut phi, mut live) = (false, false, false);
    let (mut blocks, mut n_blocks) = ([0u32; CAP], 0u32);
    if !nvopt_shim_pred_remat_facts(
        host,
        id,
        &mut name,
        &mut len,
        &mut outside,
        &mut phi,
        &mut live,
        blocks.as_mut_ptr(),
        &mut n_blocks,
        CAP as u32,
    ) {
        return None;
    }
    let opcode = crate::ffi::string(name, len);
    let f = Facts {
        opcode,
        defined_outside: outside,
        phi_use: phi,
        operands_live: live,
        reading_blocks: n_blocks as usize,
    };
    let listed = (n_blocks as usize).min(CAP);
    Some((f, blocks[..listed].to_vec()))
}

/// One loop: the chosen predicates are recomputed in its reading blocks; returns how many.
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_pred_remat_run`].
unsafe fn one_loop(host: *mut c_void, lp: u32, budget: i32) -> u64 {
    let live = nvopt_shim_pred_remat_collect(host, lp);
    if (live as i64) <= i64::from(budget) {
        return 0;
    }
    crate::stats::add(PASS, "loops over the predicate budget", 1);
    let read: Vec<Option<(Facts, Vec<u32>)>> = (0..live).map(|id| facts_of(host, id)).collect();
    let facts: Vec<Option<Facts>> =
        read.iter().map(|r| r.as_ref().map(|(f, _)| f.clone())).collect();
    let (chosen, refused) = choose(live as usize, &facts, budget);
    for r in refused {
        crate::stats::add(PASS, r.counter(), 1);
    }
    let mut moved = 0;
    for id in chosen {
        let Some((_, blocks)) = &read[id] else { continue };
        for b in blocks {
            nvopt_shim_pred_remat_copy_into(host, id as u32, *b);
        }
        crate::stats::add(PASS, "copies made", blocks.len() as u64);
        if nvopt_shim_pred_remat_erase_if_unread(host, id as u32) {
            crate::stats::add(PASS, "originals erased", 1);
        }
        moved += 1;
    }
    moved
}

fn remark(f: FunctionValue, moved: u64) {
    facts::remark_function_text(REMARK_PASS, c"Recomputed", false, f.as_value_ref(), || {
        format!(
            "{moved} loop-invariant compare(s) recomputed inside their loop (more predicates were live into it than the budget)"
        )
    });
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/pred_remat/pred_remat.cpp) running on the machine function
/// of the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_pred_remat_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    let knobs = Knobs::current();
    if knobs.nv_disable_pred_remat() {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let budget = knobs.nv_pred_remat_budget() as i32;
    let total: u64 =
        (0..nvopt_shim_pred_remat_loops(host)).map(|lp| one_loop(host, lp, budget)).sum();
    if total == 0 {
        return false;
    }
    crate::stats::add(PASS, "compares recomputed", total);
    remark(func, total);
    true
}
