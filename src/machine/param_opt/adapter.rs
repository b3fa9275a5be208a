//! nv-param-opt on a MachineFunction: reads the invariant loads the shim found
//! (src/machine/param_opt/param_opt.cpp), the kernel's register pressure from its IR (src/analysis/pressure), asks
//! [`super::reissue_blocks`] and has the shim re-issue and erase. Remarks
//! (`-pass-remarks[-missed]=nv-param-opt`, about the function) and `-nv-stats`.
use super::{reissue_blocks, Function, Load};
use crate::analysis::gpu::PTX_KERNEL_CC;
use crate::analysis::ir::facts;
use crate::analysis::pressure::{self, target};
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_char, c_void, CStr};

const PASS: &CStr = c"nv-param-opt";
const STATS: &str = "nv-param-opt";

extern "C" {
    fn nvopt_shim_register_param_opt();
    fn nvopt_shim_param_opt_count(host: *mut c_void) -> u32;
    fn nvopt_shim_param_opt_load(
        host: *mut c_void,
        id: u32,
        addrspace: *mut u32,
        block: *mut u32,
        sym: *mut *const c_char,
        sym_len: *mut usize,
    ) -> bool;
    fn nvopt_shim_param_opt_use_blocks(host: *mut c_void, id: u32, out: *mut u32, cap: u32) -> u32;
    fn nvopt_shim_param_opt_reissue(host: *mut c_void, id: u32, block: u32) -> bool;
    fn nvopt_shim_param_opt_erase_if_dead(host: *mut c_void, id: u32) -> bool;
}

/// Registers the legacy machine pass `nv-param-opt` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-param-opt` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_param_opt() }
}

/// Where the kernel stands: not a kernel, or its IR pressure against its target.
fn classify(f: FunctionValue, knobs: &Knobs) -> Function {
    if f.get_call_conventions() != PTX_KERNEL_CC {
        return Function::NotKernel;
    }
    let p = pressure::ir::machine_phase_peak(f);
    let t = target::for_function(f, knobs).regs;
    if p > t {
        Function::OverTarget { pressure: p, target: t }
    } else {
        Function::WithinTarget { pressure: p, target: t }
    }
}

/// Candidate `id` as the shim reports it, with the symbol it reads; `None` once erased.
///
/// # Safety
/// `host` is the live pass object that called [`nvopt_param_opt_run`].
unsafe fn read(host: *mut c_void, id: u32) -> Option<(Load, String)> {
    let (mut addrspace, mut block, mut sym, mut len) = (0, 0, std::ptr::null(), 0);
    if !nvopt_shim_param_opt_load(host, id, &mut addrspace, &mut block, &mut sym, &mut len) {
        return None;
    }
    let name = if len == 0 {
        String::new()
    } else {
        String::from_utf8_lossy(std::slice::from_raw_parts(sym.cast::<u8>(), len)).into_owned()
    };
    let mut use_blocks = vec![0u32; 8];
    let n = nvopt_shim_param_opt_use_blocks(host, id, use_blocks.as_mut_ptr(), 8);
    use_blocks.resize(n as usize, 0);
    if n > 8 {
        nvopt_shim_param_opt_use_blocks(host, id, use_blocks.as_mut_ptr(), n);
    }
    Some((Load { addrspace, block, use_blocks }, name))
}

fn remark(f: FunctionValue, missed: bool, text: &str) {
    let name = if missed { c"NotReissued" } else { c"Reissued" };
    facts::remark_function_text(PASS, name, missed, f.as_value_ref(), || text.to_string());
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/param_opt/param_opt.cpp) running on the machine function of
/// the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_param_opt_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    let knobs = Knobs::current();
    if knobs.nv_disable_param_opt() {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let class = classify(func, &knobs);
    match class {
        Function::NotKernel => return false,
        Function::WithinTarget { pressure, target } => {
            crate::stats::add(STATS, "kernels within their register target", 1);
            remark(func, true, &format!("pressure {pressure} within the target {target}"));
            return false;
        }
        Function::OverTarget { .. } => {}
    }
    let mut changed = false;
    for id in 0..nvopt_shim_param_opt_count(host) {
        let Some((load, name)) = read(host, id) else { continue };
        let blocks = reissue_blocks(class, &load);
        let moved = blocks.iter().filter(|&&b| nvopt_shim_param_opt_reissue(host, id, b)).count();
        if moved == 0 {
            continue;
        }
        changed = true;
        let erased = nvopt_shim_param_opt_erase_if_dead(host, id);
        crate::stats::add(STATS, "ld.param re-issued next to uses", moved as u64);
        crate::stats::add(STATS, "entry ld.param deleted", erased as u64);
        let rest = if erased {
            "the entry load deleted"
        } else {
            "the entry load kept for its other uses"
        };
        remark(func, false, &format!("{name} re-issued in {moved} block(s), {rest}"));
    }
    changed
}
