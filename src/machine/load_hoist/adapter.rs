//! nv-load-hoist on a MachineFunction: reads each candidate load's facts from the shim
//! (src/machine/load_hoist/load_hoist.cpp), asks [`super::decide`] and has the shim move the
//! chain. Remarks (`-pass-remarks=nv-load-hoist`, about the function) and `-nv-stats`.
use super::{decide, Facts, MAX_CHAIN, PASS};
use crate::analysis::ir::facts;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_void, CStr};

const REMARK_PASS: &CStr = c"nv-load-hoist";

extern "C" {
    fn nvopt_shim_register_load_hoist();
    fn nvopt_shim_load_hoist_collect(host: *mut c_void) -> u32;
    fn nvopt_shim_load_hoist_facts(
        host: *mut c_void,
        id: u32,
        max_chain: u32,
        place: *mut u8,
        freed_bits: *mut u32,
        result_bits: *mut u32,
    ) -> bool;
    fn nvopt_shim_load_hoist_move(host: *mut c_void, id: u32, max_chain: u32) -> bool;
}

/// Registers the legacy machine pass `nv-load-hoist` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-load-hoist` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_load_hoist() }
}

/// Candidate `id`'s facts, as they are now (earlier moves may have changed them).
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_load_hoist_run`].
unsafe fn facts_of(host: *mut c_void, id: u32) -> Option<Facts> {
    let (mut place, mut freed_bits, mut result_bits) = (0u8, 0u32, 0u32);
    nvopt_shim_load_hoist_facts(host, id, MAX_CHAIN, &mut place, &mut freed_bits, &mut result_bits)
        .then_some(Facts { place, freed_bits, result_bits })
}

fn remark(f: FunctionValue, moved: u64) {
    facts::remark_function_text(REMARK_PASS, c"Hoisted", false, f.as_value_ref(), || {
        format!(
            "{moved} load(s) moved back next to their address inputs (machine-sink had held wider registers across the blocks between)"
        )
    });
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/load_hoist/load_hoist.cpp) running on the machine
/// function of the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_load_hoist_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    if Knobs::current().nv_disable_load_hoist() {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let mut moved = 0;
    for id in 0..nvopt_shim_load_hoist_collect(host) {
        let Some(f) = facts_of(host, id) else { continue };
        match decide(&f) {
            Ok(()) => {
                if nvopt_shim_load_hoist_move(host, id, MAX_CHAIN) {
                    moved += 1;
                }
            }
            Err(r) => crate::stats::add(PASS, r.counter(), 1),
        }
    }
    if moved == 0 {
        return false;
    }
    crate::stats::add(PASS, "loads moved next to their address inputs", moved);
    remark(func, moved);
    true
}
