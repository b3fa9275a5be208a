//! nv-pre-sink on a MachineFunction: reads each candidate's facts from the shim
//! (src/machine/pre_sink/pre_sink.cpp), asks [`super::decide`] and has the shim copy the instruction into
//! the blocks that read it and erase it; up to [`super::ROUNDS`] rounds. Remarks
//! (`-pass-remarks=nv-pre-sink`, about the function) and `-nv-stats`.
use super::{applies, decide, Action, Facts, PASS, ROUNDS};
use crate::analysis::ir::facts;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_char, c_void, CStr};

const REMARK_PASS: &CStr = c"nv-pre-sink";

/// Room for use blocks and operand facts per candidate (more are reported as a count only).
const CAP: usize = 16;

extern "C" {
    fn nvopt_shim_register_pre_sink();
    fn nvopt_shim_pre_sink_collect(host: *mut c_void) -> u32;
    fn nvopt_shim_pre_sink_facts(
        host: *mut c_void,
        id: u32,
        name: *mut *const c_char,
        len: *mut usize,
        block: *mut u32,
        phi_use: *mut bool,
        own_block_use: *mut bool,
        idle_loop: *mut bool,
        idle_block: *mut bool,
        deeper_loop: *mut bool,
        blocks: *mut u32,
        n_blocks: *mut u32,
        ops: *mut u8,
        n_ops: *mut u32,
        cap: u32,
        chain_depth: u32,
        want_idle_block: bool,
    ) -> bool;
    fn nvopt_shim_pre_sink_copy_into(host: *mut c_void, id: u32, block: u32) -> bool;
    fn nvopt_shim_pre_sink_erase_if_dead(host: *mut c_void, id: u32) -> bool;
}

/// Registers the legacy machine pass `nv-pre-sink` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-pre-sink` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_pre_sink() }
}

/// Candidate `id`'s facts and the numbers of the blocks that read it (the idle-block fact only
/// when `want_idle_block`: the knob `nv-pre-sink-idle-blocks`).
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_pre_sink_run`].
unsafe fn facts_of(host: *mut c_void, id: u32, want_idle_block: bool) -> Option<(Facts, Vec<u32>)> {
    let (mut name, mut len, mut block) = (std::ptr::null(), 0usize, 0u32);
    let (mut phi, mut own, mut idle, mut idle_block, mut deeper) =
        (false, false, false, false, false);
    let (mut blocks, mut n_blocks) = ([0u32; CAP], 0u32);
    let (mut ops, mut n_ops) = ([0u8; CAP], 0u32);
    if !nvopt_shim_pre_sink_facts(
        host,
        id,
        &mut name,
        &mut len,
        &mut block,
        &mut phi,
        &mut own,
        &mut idle,
        &mut idle_block,
        &mut deeper,
        blocks.as_mut_ptr(),
        &mut n_blocks,
        ops.as_mut_ptr(),
        &mut n_ops,
        CAP as u32,
        super::MAX_CHAIN_DEPTH,
        want_idle_block,
    ) {
        return None;
    }
    let opcode = crate::ffi::string(name, len);
    // An operand list longer than the buffer is refused as "not live": its facts are unknown.
    let operands = if n_ops as usize > CAP {
        vec![super::OPERAND_NOT_LIVE]
    } else {
        ops[..n_ops as usize].to_vec()
    };
    let f = Facts {
        opcode,
        use_blocks: n_blocks as usize,
        phi_use: phi,
        own_block_use: own,
        live_across_idle_loop: idle,
        live_across_idle_block: idle_block,
        use_in_deeper_loop: deeper,
        operands,
    };
    let listed = (n_blocks as usize).min(CAP);
    Some((f, blocks[..listed].to_vec()))
}

/// One round: every candidate the rule takes is copied into its reading blocks and erased;
/// returns how many moved.
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_pre_sink_run`].
unsafe fn round(host: *mut c_void, want_idle_block: bool) -> u64 {
    let mut moved = 0;
    for id in 0..nvopt_shim_pre_sink_collect(host) {
        let Some((f, blocks)) = facts_of(host, id, want_idle_block) else { continue };
        match decide(&f) {
            Ok(action) if blocks.len() == f.use_blocks => {
                for b in &blocks {
                    nvopt_shim_pre_sink_copy_into(host, id, *b);
                }
                let done = match action {
                    Action::Move => nvopt_shim_pre_sink_erase_if_dead(host, id),
                    Action::Split => true,
                };
                if done {
                    moved += 1;
                    crate::stats::add(PASS, action.counter(), 1);
                    crate::stats::add(PASS, "copies made", blocks.len() as u64);
                }
            }
            Ok(_) => {}
            Err(r) => {
                if let Some(c) = r.counter() {
                    crate::stats::add(PASS, c, 1);
                }
            }
        }
    }
    moved
}

fn remark(f: FunctionValue, moved: u64) {
    facts::remark_function_text(REMARK_PASS, c"Sunk", false, f.as_value_ref(), || {
        format!(
            "{moved} hoisted instruction(s) copied back into the blocks that read them (each was held across a loop that never reads it)"
        )
    });
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/pre_sink/pre_sink.cpp) running on the machine function of
/// the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_pre_sink_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    let knobs = Knobs::current();
    if knobs.nv_disable_pre_sink() {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let target = crate::analysis::pressure::target::for_function(func, &knobs);
    if !applies(target.source) {
        crate::stats::add(PASS, "functions left alone: register cap", 1);
        return false;
    }
    let mut total = 0;
    for _ in 0..ROUNDS {
        let moved = round(host, knobs.nv_pre_sink_idle_blocks());
        if moved == 0 {
            break;
        }
        total += moved;
    }
    if total == 0 {
        return false;
    }
    crate::stats::add(PASS, "instructions copied to their readers", total);
    remark(func, total);
    true
}
