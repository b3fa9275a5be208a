//! A function's loops (LLVM's LoopInfo, which the C API lacks), read through the shim
//! (src/analysis/ir/loops.cpp): the loops in preorder, each one's header, parent, block membership
//! and the condition of its only exit, ScalarEvolution's constant (and constant maximum) trip
//! count, whether its trip count is computable and divides by a run-time value, the start and
//! step of its exit-tested induction variable, whether the latch is its only exit, and the loop's `llvm.loop` properties (read, and one added on
//! request, with or without an integer value).
use crate::analysis::scev_node::ScevNode;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use std::ffi::{c_void, CStr};

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
    fn nvopt_loop_constant_trip_count(se: *mut c_void, l: *const c_void) -> u32;
    fn nvopt_loop_constant_max_trip_count(se: *mut c_void, l: *const c_void) -> u32;
    fn nvopt_loop_unroller_trip_count(se: *mut c_void, l: *const c_void) -> u32;
    fn nvopt_loop_exit_condition(l: *const c_void) -> LLVMValueRef;
    fn nvopt_loop_has_property(l: *const c_void, name: *const std::ffi::c_char) -> bool;
    fn nvopt_loop_add_property(l: *const c_void, name: *const std::ffi::c_char);
    fn nvopt_loop_exits_at_latch_only(l: *const c_void) -> bool;
    fn nvopt_loop_trip_count_computable(se: *mut c_void, l: *const c_void) -> bool;
    fn nvopt_loop_trip_count_divides(se: *mut c_void, l: *const c_void) -> bool;
    fn nvopt_loop_add_int_property(l: *const c_void, name: *const std::ffi::c_char, value: u32);
    fn nvopt_loop_iv_terms(
        se: *mut c_void,
        l: *const c_void,
        push: extern "C" fn(*mut c_void, *const ScevNode, usize, bool),
        ctx: *mut c_void,
    ) -> bool;
}

/// The `llvm.loop` properties that decide a loop's unrolling.
const UNROLL_PROPERTIES: &[&CStr] = &[
    c"llvm.loop.unroll.disable",
    c"llvm.loop.unroll.full",
    c"llvm.loop.unroll.count",
    c"llvm.loop.unroll.enable",
];

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

    /// The number of times the header runs when ScalarEvolution computes it as a constant
    /// (`getSmallConstantTripCount`); `None` when it does not.
    ///
    /// # Safety
    /// `se` is the live `llvm::ScalarEvolution*` of this loop's function.
    pub unsafe fn constant_trip_count(self, se: *mut c_void) -> Option<u32> {
        let n = nvopt_loop_constant_trip_count(se, self.0);
        (n != 0).then_some(n)
    }

    /// The trip count LLVM's loop unroller unrolls a loop by (`tryToUnrollLoop`): the smallest
    /// constant exact trip count of any exiting block, `None` when none has one. For a loop with
    /// one exit it is [`Loop::constant_trip_count`]; for `for (j < 8) { if (c) break; ... }` it
    /// is 8, the other exit staying a branch in every unrolled copy.
    ///
    /// # Safety
    /// As for [`Loop::constant_trip_count`].
    pub unsafe fn unroller_trip_count(self, se: *mut c_void) -> Option<u32> {
        let n = nvopt_loop_unroller_trip_count(se, self.0);
        (n != 0).then_some(n)
    }

    /// The largest number of times the header can run, when ScalarEvolution bounds it by a
    /// constant (`getSmallConstantMaxTripCount`); `None` when it does not.
    ///
    /// # Safety
    /// As for [`Loop::constant_trip_count`].
    pub unsafe fn constant_max_trip_count(self, se: *mut c_void) -> Option<u32> {
        let n = nvopt_loop_constant_max_trip_count(se, self.0);
        (n != 0).then_some(n)
    }

    /// The condition of the loop's only exit (a conditional branch ending its single exiting
    /// block); `None` for a loop with several exits or another kind of exit.
    pub fn exit_condition(self) -> Option<LLVMValueRef> {
        // SAFETY: as for header().
        let c = unsafe { nvopt_loop_exit_condition(self.0) };
        (!c.is_null()).then_some(c)
    }

    /// Whether the loop's `llvm.loop` metadata holds the property `name`
    /// (`llvm.loop.unroll.disable`, ...).
    pub fn has_property(self, name: &CStr) -> bool {
        // SAFETY: as for header(); name is NUL-terminated.
        unsafe { nvopt_loop_has_property(self.0, name.as_ptr()) }
    }

    /// Whether the loop's `llvm.loop` metadata already says how to unroll it: a user pragma
    /// (`#pragma unroll`, `#pragma unroll N`, `#pragma unroll 1`) or another pass's mark
    /// (`llvm.loop.unroll.disable`, `.full`, `.count` or `.enable`).
    pub fn unroll_decided(self) -> bool {
        UNROLL_PROPERTIES.iter().any(|p| self.has_property(p))
    }

    /// Adds the property `!{!"name"}` to the loop's `llvm.loop` metadata, keeping the others.
    pub fn add_property(self, name: &CStr) {
        // SAFETY: as for has_property; the loop's latches are live.
        unsafe { nvopt_loop_add_property(self.0, name.as_ptr()) }
    }

    /// Adds the property `!{!"name", i32 value}` to the loop's `llvm.loop` metadata, keeping the
    /// others (`llvm.loop.unroll.count`).
    pub fn add_int_property(self, name: &CStr, value: u32) {
        // SAFETY: as for add_property.
        unsafe { nvopt_loop_add_int_property(self.0, name.as_ptr(), value) }
    }

    /// Whether the loop's only exiting block is its latch.
    pub fn exits_at_latch_only(self) -> bool {
        // SAFETY: as for header().
        unsafe { nvopt_loop_exits_at_latch_only(self.0) }
    }

    /// Whether ScalarEvolution computes the loop's backedge-taken count.
    ///
    /// # Safety
    /// `se` is the live `llvm::ScalarEvolution*` of the loop's function.
    pub unsafe fn trip_count_computable(self, se: *mut c_void) -> bool {
        nvopt_loop_trip_count_computable(se, self.0)
    }

    /// Whether the loop's backedge-taken count divides by a value that is not a constant (a
    /// loop stepping by a run-time stride).
    ///
    /// # Safety
    /// As for [`Loop::trip_count_computable`].
    pub unsafe fn trip_count_divides(self, se: *mut c_void) -> bool {
        nvopt_loop_trip_count_divides(se, self.0)
    }

    /// The start and step of the induction variable the loop's exit compare tests (a header
    /// PHI's affine recurrence), each as the shim's encoding of a SCEV over special registers
    /// (decoded by `scev_sources::ffi::decode_terms`); `None` when there is none.
    ///
    /// # Safety
    /// As for [`Loop::trip_count_computable`].
    pub unsafe fn iv_terms(self, se: *mut c_void) -> Option<(Vec<ScevNode>, Vec<ScevNode>)> {
        let mut out: [Vec<ScevNode>; 2] = Default::default();
        let ctx = &mut out as *mut [Vec<ScevNode>; 2] as *mut c_void;
        nvopt_loop_iv_terms(se, self.0, push_terms, ctx).then(|| {
            let [start, step] = out;
            (start, step)
        })
    }

    /// Whether `v` is the same on every iteration: not an instruction inside the loop
    /// (Loop::isLoopInvariant).
    pub fn is_invariant(self, v: LLVMValueRef) -> bool {
        super::block_of(v).is_none_or(|bb| !self.contains(bb))
    }
}

extern "C" fn push_terms(ctx: *mut c_void, nodes: *const ScevNode, len: usize, is_step: bool) {
    // SAFETY: ctx is the array iv_terms() passes for the duration of the call; nodes holds len
    // nodes the shim owns during the call.
    unsafe {
        let out = &mut *(ctx as *mut [Vec<ScevNode>; 2]);
        let nodes = if len == 0 { &[][..] } else { std::slice::from_raw_parts(nodes, len) };
        out[is_step as usize] = nodes.to_vec();
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
