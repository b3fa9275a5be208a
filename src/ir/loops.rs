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
    fn nvopt_loop_for(li: *const c_void, bb: LLVMBasicBlockRef) -> *const c_void;
    fn nvopt_loop_parent(l: *const c_void) -> *const c_void;
}

/// One loop of a LoopInfo the shim handed over; valid while that analysis is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loop(*const c_void);

impl Loop {
    /// # Safety
    /// `raw` is a non-null loop of a live `llvm::LoopInfo`.
    pub unsafe fn from_raw(raw: *const c_void) -> Loop {
        Loop(raw)
    }

    /// The `llvm::Loop*` handle, for the shim.
    pub fn as_raw(self) -> *const c_void {
        self.0
    }

    /// The loop this one is nested in; `None` for an outermost loop.
    pub fn parent(self) -> Option<Loop> {
        // SAFETY: as for header().
        let p = unsafe { nvopt_loop_parent(self.0) };
        (!p.is_null()).then_some(Loop(p))
    }

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

/// The innermost loop holding `bb` (LoopInfo::getLoopFor); `None` outside every loop.
///
/// # Safety
/// `li` is a live `llvm::LoopInfo` of `bb`'s function.
pub unsafe fn loop_for(li: *const c_void, bb: LLVMBasicBlockRef) -> Option<Loop> {
    let l = nvopt_loop_for(li, bb);
    (!l.is_null()).then_some(Loop(l))
}
