//! nv-sreg-order on a MachineFunction: reads the entry block's opcode names from the shim
//! (src/machine/sreg_order/sreg_order.cpp), asks [`super::hoisted`] and has the shim move those instructions
//! to the start of the block. Remarks (`-pass-remarks=nv-sreg-order`, about the function) and
//! `-nv-stats`.
use super::{hoisted, PASS};
use crate::analysis::ir::facts;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_char, c_void, CStr};

const REMARK_PASS: &CStr = c"nv-sreg-order";

extern "C" {
    fn nvopt_shim_register_sreg_order();
    fn nvopt_shim_sreg_order_count(host: *mut c_void) -> u32;
    fn nvopt_shim_sreg_order_opcode(
        host: *mut c_void,
        idx: u32,
        name: *mut *const c_char,
        len: *mut usize,
    ) -> bool;
    fn nvopt_shim_sreg_order_hoist(host: *mut c_void, idx: *const u32, n: u32) -> bool;
}

/// Registers the legacy machine pass `nv-sreg-order` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-sreg-order` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_sreg_order() }
}

/// The entry block's opcode names, in order.
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_sreg_order_run`].
unsafe fn opcodes(host: *mut c_void) -> Vec<String> {
    (0..nvopt_shim_sreg_order_count(host))
        .map(|i| {
            let (mut ptr, mut len) = (std::ptr::null(), 0);
            if !nvopt_shim_sreg_order_opcode(host, i, &mut ptr, &mut len) {
                return String::new();
            }
            crate::ffi::string(ptr, len)
        })
        .collect()
}

fn remark(f: FunctionValue, moved: usize) {
    facts::remark_function_text(REMARK_PASS, c"Hoisted", false, f.as_value_ref(), || {
        format!("{moved} launch-configuration read(s) moved to the start of the entry block")
    });
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/sreg_order/sreg_order.cpp) running on the machine function of
/// the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_sreg_order_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    if Knobs::current().nv_disable_sreg_order() {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let moves: Vec<u32> = hoisted(&opcodes(host)).into_iter().map(|i| i as u32).collect();
    if moves.is_empty() || !nvopt_shim_sreg_order_hoist(host, moves.as_ptr(), moves.len() as u32) {
        return false;
    }
    crate::stats::add(PASS, "functions reordered", 1);
    crate::stats::add(PASS, "launch-configuration reads moved", moves.len() as u64);
    remark(func, moves.len());
    true
}
