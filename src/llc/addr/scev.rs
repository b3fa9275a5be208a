//! The address passes' ScalarEvolution, through the shim (src/llc/addr/addr.cpp): LLVM's C API has
//! no ScalarEvolution or SCEVExpander, so one [`AddrScev`] per function and phase answers the
//! driver's questions about pointers, bases and their differences, and expands the shared bases
//! BASR chose. SCEV nodes cross as opaque handles ([`Scev`]); expressions cross as the preorder
//! arrays of [`super::expr::Flat`].
use super::expr::Flat;
use crate::analysis::ir::loops::Loop;
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::c_void;
use std::ptr::null_mut;

/// A pair of bases of one loop and their difference (layout mirrored by `NvPair` in
/// src/llc/addr/addr.cpp): its size, whether it is loop-invariant, and an id equal for equal
/// differences.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct NvPair {
    pub a: u32,
    pub b: u32,
    pub diff_nodes: u32,
    pub invariant: u32,
    pub diff: u32,
}

/// A SCEV expression (uniqued by ScalarEvolution, so equal handles are equal expressions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scev(*const c_void);

/// What the shim knows of a base: its loop (an affine pointer recurrence's), its size in SCEV
/// nodes, and a header PHI already equal to it.
pub struct BaseScev {
    pub lp: Option<Loop>,
    pub nodes: u32,
    pub existing_phi: Option<LLVMValueRef>,
}

extern "C" {
    fn nvopt_addr_analysis(a: *mut c_void, which: u32) -> *mut c_void;
    fn nvopt_addr_scev_new(a: *mut c_void, assume_nsw: bool) -> *mut c_void;
    fn nvopt_addr_scev_free(s: *mut c_void);
    fn nvopt_addr_scev_pointer(
        s: *mut c_void,
        ptr: LLVMValueRef,
        deref: bool,
        limit: usize,
        out: *mut *const Flat,
        len: *mut usize,
    ) -> *const c_void;
    fn nvopt_addr_scev_build(s: *mut c_void, r: *const Flat, n: usize) -> *const c_void;
    fn nvopt_addr_scev_rooted(s: *mut c_void, base: *const c_void) -> bool;
    fn nvopt_addr_scev_base_facts(
        s: *mut c_void,
        base: *const c_void,
        l: *mut *const c_void,
        size: *mut u32,
        phi: *mut LLVMValueRef,
    );
    fn nvopt_addr_scev_pairs(
        s: *mut c_void,
        bases: *const *const c_void,
        loops: *const i32,
        n: usize,
        loop_list: *const *const c_void,
        limit: usize,
        len: *mut usize,
    ) -> *const NvPair;
    fn nvopt_addr_scev_shared_base(
        s: *mut c_void,
        l: *const c_void,
        leader: *const c_void,
        origin: i64,
        phi: bool,
        reuse: LLVMValueRef,
    ) -> LLVMValueRef;
    fn nvopt_addr_scev_difference(
        s: *mut c_void,
        l: *const c_void,
        from: *const c_void,
        to: *const c_void,
        on: LLVMValueRef,
    ) -> LLVMValueRef;
}

/// The analyses the pass plumbing handed over for one function.
#[derive(Clone, Copy)]
pub struct Analyses(*mut c_void);

impl Analyses {
    /// # Safety
    /// `raw` is the shim's live `Analyses` of the function being run.
    pub unsafe fn from_raw(raw: *mut c_void) -> Analyses {
        Analyses(raw)
    }

    fn get(self, which: u32) -> *mut c_void {
        // SAFETY: a live Analyses; `which` names one of its four members.
        unsafe { nvopt_addr_analysis(self.0, which) }
    }

    pub fn loop_info(self) -> *const c_void {
        self.get(1)
    }

    pub fn dom_tree(self) -> *mut c_void {
        self.get(2)
    }

    pub fn remark_emitter(self) -> *mut c_void {
        self.get(3)
    }

    pub fn scalar_evolution(self) -> *mut c_void {
        self.get(0)
    }
}

/// One phase's ScalarEvolution work (freed when dropped).
pub struct AddrScev(*mut c_void);

impl AddrScev {
    /// `assume_nsw`: distribute sign extensions through arithmetic without nsw too
    /// (`ignore-signed-32-bit-overflow`).
    pub fn new(a: Analyses, assume_nsw: bool) -> AddrScev {
        // SAFETY: a live Analyses.
        AddrScev(unsafe { nvopt_addr_scev_new(a.0, assume_nsw) })
    }

    /// A pointer's expression (for a load's or store's address, `deref`, the exact one of
    /// src/llc/addr/access_scev.cpp) and its preorder encoding of at most `limit` nodes; `None` when
    /// it has none or is larger.
    pub fn pointer(
        &mut self,
        ptr: LLVMValueRef,
        deref: bool,
        limit: usize,
    ) -> Option<(Scev, &[Flat])> {
        let (mut out, mut len) = (std::ptr::null(), 0);
        // SAFETY: a live session and value; the array lives until the next call on self.
        unsafe {
            let p = nvopt_addr_scev_pointer(self.0, ptr, deref, limit, &mut out, &mut len);
            (!p.is_null()).then(|| (Scev(p), crate::ffi::slice(out, len)))
        }
    }

    /// Builds a preorder expression whose references name nodes of the last [`Self::pointer`].
    pub fn build(&mut self, recipe: &[Flat]) -> Option<Scev> {
        // SAFETY: a live session; recipe is readable.
        let b = unsafe { nvopt_addr_scev_build(self.0, recipe.as_ptr(), recipe.len()) };
        (!b.is_null()).then_some(Scev(b))
    }

    /// Whether a base's pointer traces back to an argument, global, alloca or allocation.
    pub fn rooted(&mut self, base: Scev) -> bool {
        // SAFETY: a live session and expression.
        unsafe { nvopt_addr_scev_rooted(self.0, base.0) }
    }

    pub fn base_facts(&mut self, base: Scev) -> BaseScev {
        let (mut l, mut nodes, mut phi) = (std::ptr::null(), 0, null_mut());
        // SAFETY: a live session and expression; the outputs are written.
        unsafe { nvopt_addr_scev_base_facts(self.0, base.0, &mut l, &mut nodes, &mut phi) };
        BaseScev {
            // SAFETY: the handle is a loop of the function's LoopInfo.
            lp: (!l.is_null()).then(|| unsafe { Loop::from_raw(l) }),
            nodes,
            existing_phi: (!phi.is_null()).then_some(phi),
        }
    }

    /// The pairwise differences of the first `limit` bases of each loop (`loops[i]`: base i's
    /// loop number or -1; `loop_list`: the loops by number).
    pub fn pairs(
        &mut self,
        bases: &[Scev],
        loops: &[i32],
        loop_list: &[Loop],
        limit: usize,
    ) -> Vec<NvPair> {
        let raw_bases: Vec<*const c_void> = bases.iter().map(|b| b.0).collect();
        let raw_loops: Vec<*const c_void> = loop_list.iter().map(|l| l.as_raw()).collect();
        let mut len = 0;
        // SAFETY: a live session; the arrays are readable for the call; the result lives until
        // the next call on self and is copied.
        unsafe {
            let p = nvopt_addr_scev_pairs(
                self.0,
                raw_bases.as_ptr(),
                loops.as_ptr(),
                bases.len(),
                raw_loops.as_ptr(),
                limit,
                &mut len,
            );
            crate::ffi::slice(p, len).to_vec()
        }
    }

    /// The value a BASR class builds on: the affine recurrence `leader` of `l` plus `origin`, as
    /// a new loop-carried PHI (`phi`) or expanded at the top of the header; `reuse` when the
    /// caller chose an existing PHI. `None` when `l` is not in simplified form.
    pub fn shared_base(
        &mut self,
        l: Loop,
        leader: Scev,
        origin: i64,
        phi: bool,
        reuse: Option<LLVMValueRef>,
    ) -> Option<LLVMValueRef> {
        let reuse = reuse.unwrap_or(null_mut());
        // SAFETY: a live session, loop and expression.
        let v = unsafe {
            nvopt_addr_scev_shared_base(self.0, l.as_raw(), leader.0, origin, phi, reuse)
        };
        (!v.is_null()).then_some(v)
    }

    /// `to - from` as an integer of `on`'s index type, expanded in `l`'s preheader; `None` when
    /// ScalarEvolution cannot compute it.
    pub fn difference(
        &mut self,
        l: Loop,
        from: Scev,
        to: Scev,
        on: LLVMValueRef,
    ) -> Option<LLVMValueRef> {
        // SAFETY: a live session, loop, expressions and value.
        let v = unsafe { nvopt_addr_scev_difference(self.0, l.as_raw(), from.0, to.0, on) };
        (!v.is_null()).then_some(v)
    }
}

impl Drop for AddrScev {
    fn drop(&mut self) {
        // SAFETY: created by nvopt_addr_scev_new, freed once.
        unsafe { nvopt_addr_scev_free(self.0) }
    }
}
