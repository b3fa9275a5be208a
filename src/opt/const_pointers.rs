//! `nv-const-pointers`: a generic pointer loaded from `__constant__` memory points to global
//! memory, so it is marked global before `infer-address-spaces` runs in the
//! `nv:memory-space-opt` slot (cicc's MemorySpaceOpt), and every access through it becomes an
//! `ld.global`/`st.global` instead of a generic one.
//!
//! Why it holds: device code cannot write the constant space; what a `__constant__` variable
//! holds was put there by the host (`cudaMemcpyToSymbol`) or by a static initializer, and
//! neither can name a shared or local object: a pointer the host has is a device (global) or
//! host-mapped address, both global in PTX's terms. It is the same assumption LLVM's NVPTX back
//! end makes for pointers passed in kernel parameters (they, and pointers loaded from by-value
//! parameters, are global: `nvptx-lower-args`), applied to the other memory only the host
//! writes. Upstream LLVM leaves these accesses generic; nvcc does not (a Rodinia kernel that
//! reads its buffers through `__constant__` structs of pointers gets generic accesses from
//! upstream and none from nvcc).
//!
//! ```text
//! ; before                                                  ; after nv-const-pointers
//! %img = load ptr, ptr getelementptr (i8, ptr addrspacecast  %img = load ptr, ptr getelementptr (...)
//!          (ptr addrspace(4) @frame to ptr), i64 8)          %1 = addrspacecast ptr %img to ptr addrspace(1)
//!                                                            %2 = addrspacecast ptr addrspace(1) %1 to ptr
//! %v = load float, ptr %img                                  %v = load float, ptr %2
//! ; infer-address-spaces then makes it: %v = load float, ptr addrspace(1) %1
//! ```
//!
//! The rule: a load whose address is a constant-space (`addrspace(4)`) global variable, through
//! any chain of `getelementptr`, `bitcast` and `addrspacecast` (instructions or constant
//! expressions), and whose value is a generic pointer, or an integer used only by `inttoptr`s
//! (a pointer stored as `size_t`), has those pointers marked global. Nothing else: pointers
//! loaded from global memory may have been stored there by the kernel itself, from a shared or
//! local address, so they stay generic.
//!
//! Refused: modules other than NVPTX. Knob: `nv-disable-const-pointers`. Counters under
//! `-nv-stats`; a remark per marked load (`-pass-remarks=nv-const-pointers`).
use crate::analysis::gpu::addrspace;
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::{self};
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;

pub const PASS: &str = "nv-const-pointers";

/// Whether `ptr` is a constant-space global variable, or computed from one by address steps.
///
/// # Safety
/// `ptr` is a live value.
unsafe fn based_on_constant(mut ptr: LLVMValueRef) -> bool {
    for _ in 0..crate::analysis::search_budgets::CONST_POINTER_CHAIN_MAX_DEPTH {
        if !LLVMIsAGlobalVariable(ptr).is_null() {
            return LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == addrspace::CONST;
        }
        match ir::address_step_source(ptr) {
            Some(src) => ptr = src,
            None => return false,
        }
    }
    false
}

/// Runs the pass on one function; how many pointers it marked.
fn run(f: LLVMValueRef, remarks: &Remarks) -> u64 {
    // SAFETY: a live function definition; the loads are collected before anything changes.
    unsafe {
        let loads: Vec<_> = ir::function_raw_instructions(f)
            .into_iter()
            .filter(|&i| ir::is(i, LLVMOpcode::LLVMLoad) && based_on_constant(LLVMGetOperand(i, 0)))
            .collect();
        if loads.is_empty() {
            return 0;
        }
        let b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
        let mut marked = 0;
        for ld in loads {
            let mut here = 0;
            for p in ir::generic_pointers_of(ld) {
                here += u64::from(ir::mark_global(f, b, p));
            }
            if here > 0 && remarks.enabled() {
                let text = crate::analysis::ir::facts::operand_text(ld);
                remarks.emit(
                    c"nv-const-pointers",
                    c"Global",
                    inkwell::values::InstructionValue::new(ld),
                    &[
                        RemarkArg::text(b"pointer loaded from constant memory by "),
                        RemarkArg::named("Load", &text),
                        RemarkArg::text(b" marked global"),
                    ],
                );
            }
            marked += here;
        }
        LLVMDisposeBuilder(b);
        marked
    }
}

/// Runs `nv-const-pointers` on one function (called by the pass plumbing in
/// src/opt/const_pointers.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_const_pointers_run(
    f: LLVMValueRef,
    ore: *mut std::ffi::c_void,
) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(f)));
    if Knobs::current().nv_disable_const_pointers() || !triple.to_bytes().starts_with(b"nvptx") {
        return false;
    }
    let marked = run(f, &Remarks::from_raw(ore));
    crate::stats::add_nonzero(PASS, "pointers loaded from constant memory marked global", marked);
    marked > 0
}
