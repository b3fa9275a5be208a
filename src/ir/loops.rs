//! A function's loops (LLVM's LoopInfo, which the C API lacks), read through the shim
//! (src/shim/loops.cpp): the loops in preorder, each one's header, and block membership.
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use std::ffi::c_void;

extern "C" {
    fn nvopt_loops_preorder(
        li: *const c_void,
        push: extern "C" fn(*mut c_void, *const c_void),
        ctx: *mut c_void,
    );
    fn nvopt_loop_header(l: *const c_void) -> LLVMBasicBlockRef;
    fn nvopt_loop_contains(l: *const c_void, bb: LLVMBasicBlockRef) -> bool;
}

/// One loop of a LoopInfo the shim handed over; valid while that analysis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loop(*const c_void);

impl Loop {
    pub fn header(self) -> LLVMBasicBlockRef {
        // SAFETY: the handle came from nvopt_loops_preorder of a live LoopInfo.
        unsafe { nvopt_loop_header(self.0) }
    }

    pub fn contains(self, bb: LLVMBasicBlockRef) -> bool {
        // SAFETY: as for header().
        unsafe { nvopt_loop_contains(self.0, bb) }
    }

    /// Whether `v` is the same on every iteration: not an instruction inside the loop
    /// (Loop::isLoopInvariant).
    pub fn is_invariant(self, v: LLVMValueRef) -> bool {
        super::block_of(v).is_none_or(|bb| !self.contains(bb))
    }
}

extern "C" fn push(ctx: *mut c_void, l: *const c_void) {
    // SAFETY: ctx is the Vec that preorder() passes for the duration of the call.
    unsafe { (*(ctx as *mut Vec<Loop>)).push(Loop(l)) }
}

/// Every loop, outermost first, in program order (LoopInfo::getLoopsInPreorder).
///
/// # Safety
/// `li` is a live `llvm::LoopInfo` that outlives the returned loops.
pub unsafe fn preorder(li: *const c_void) -> Vec<Loop> {
    let mut out: Vec<Loop> = Vec::new();
    nvopt_loops_preorder(li, push, &mut out as *mut Vec<Loop> as *mut c_void);
    out
}
