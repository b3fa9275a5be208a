//! `nv-phi-loads`: loads through a PHI of pointers, one of which is a private (`alloca`)
//! object, become a PHI of loads made in the predecessors, so that SROA can keep the object in
//! registers. It runs in llc's IR pipeline right before the SROA that NVPTX's code generator
//! runs ahead of `nvptx-lower-alloca` (src/codegen.rs).
//!
//! Why: CUB's and Thrust's arg-min/arg-max reductions pick a `KeyValuePair` by reference
//! (`return pred(b, a) ? b : a;` on `const&` parameters), one side a value loaded through a
//! pointer, the other a local copy. After inlining, the choice is a PHI of two addresses, and
//! the result is read through it: an 8-byte load at offset 0 and a 4-byte load at offset 8
//! (through a `getelementptr`). SROA's own PHI speculation accepts only loads of one type that
//! use the PHI directly, so the local object stays in memory: a 16-byte stack frame that nvcc
//! and upstream LLVM do not have.
//!
//! ```text
//! ; before                                            ; after nv-phi-loads (SROA then promotes %kv)
//! a:  store i64 %k, ptr %kv                           a:  store i64 %k, ptr %kv
//!     br i1 %c, label %m, label %b                        %kv.0 = load i64, ptr %kv
//! b:  br label %m                                         %kv.8 = load i32, ptr (%kv + 8)
//! m:  %p = phi ptr [ %kv, %a ], [ %g, %b ]                br i1 %c, label %m, label %b
//!     %k0 = load i64, ptr %p                          b:  %g.0 = load i64, ptr %g
//!     %p8 = getelementptr i8, ptr %p, i64 8               %g.8 = load i32, ptr (%g + 8)
//!     %v8 = load i32, ptr %p8                             br label %m
//!                                                     m:  %k0 = phi i64 [ %kv.0, %a ], [ %g.0, %b ]
//!                                                         %v8 = phi i32 [ %kv.8, %a ], [ %g.8, %b ]
//! ```
//!
//! The rule, for a PHI of pointers in block M:
//! - every user is a simple (not volatile, not atomic) load in M, or a `getelementptr` in M
//!   with constant indices whose every user is such a load; no instruction before the last of
//!   those loads in M may write memory or have another side effect (the loads then read what
//!   they would read at the end of each predecessor);
//! - at least one incoming value is a static `alloca` whose other uses are only loads,
//!   stores to it, lifetime markers, and constant-offset `getelementptr`s and address space
//!   casts of it used the same way (the PHI is what keeps it in memory);
//! - each incoming edge is safe for the loads: its predecessor ends in an unconditional branch
//!   to M (the loads run there anyway), or the incoming value is such an `alloca` and every
//!   load lies within it at an offset its alignment allows (a load from a private object never
//!   traps), or LLVM proves the loads dereferenceable and aligned at the predecessor's end
//!   (`isSafeToLoadUnconditionally`);
//! - at most [`MAX_LOADS`] loads per PHI.
//!
//! The speculated loads keep the original load's type, alignment and alias metadata (`!tbaa`,
//! `!alias.scope`, `!noalias`), not its value facts (`!range`, `!nonnull`, `!noundef`).
//!
//! Refused (a remark says which, `-pass-remarks-missed=nv-phi-loads`): a user that is not such
//! a load or address step, a write before a load, an edge that is neither unconditional nor an
//! in-bounds private object, an `alloca` with other uses. Knob: `nv-disable-phi-loads`.
//! Counters under `-nv-stats`.
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::{self, gep_offset};
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::*;
use llvm_sys::target::*;
use llvm_sys::{LLVMAtomicOrdering, LLVMOpcode, LLVMTypeKind};

pub const PASS: &str = "nv-phi-loads";

/// The most loads one PHI's rewrite may speculate into its predecessors (each becomes one
/// load per predecessor and one PHI).
pub const MAX_LOADS: usize = 8;

/// How deep the walk over an `alloca`'s address steps (getelementptr, addrspacecast) goes.
pub const MAX_ADDRESS_DEPTH: usize = 4;

/// Why a PHI of pointers was left alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No incoming value is a private object the PHI keeps in memory.
    NoPrivateObject,
    /// A user is not a simple load in the PHI's block, nor a constant address step feeding one.
    OtherUser,
    /// An instruction between the PHI and one of its loads may write memory.
    WriteBeforeLoad,
    /// An edge from a conditional branch carries a pointer the loads may not be made through.
    UnsafeEdge,
    /// More than [`MAX_LOADS`] loads.
    TooManyLoads,
}

impl Refusal {
    pub fn text(self) -> &'static str {
        match self {
            Refusal::NoPrivateObject => {
                "no incoming private object that only this PHI keeps in memory"
            }
            Refusal::OtherUser => "a user is not a load in the PHI's block",
            Refusal::WriteBeforeLoad => "memory may be written between the PHI and a load",
            Refusal::UnsafeEdge => {
                "a conditional edge carries a pointer that may not be loaded from speculatively"
            }
            Refusal::TooManyLoads => "too many loads",
        }
    }
}

/// One incoming edge, as the rule sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The predecessor ends in an unconditional branch to the PHI's block.
    pub unconditional: bool,
    /// The incoming value is a private object only the PHI keeps in memory.
    pub private: Option<Private>,
    /// LLVM proves every load dereferenceable and aligned at the end of the predecessor
    /// (`isSafeToLoadUnconditionally`: a `dereferenceable` parameter, a global, an earlier
    /// access).
    pub loadable: bool,
}

/// A private object: its size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Private {
    pub bytes: u64,
    pub align: u64,
}

/// One load through the PHI: its constant byte offset, size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub offset: i64,
    pub bytes: u64,
    pub align: u64,
}

impl Access {
    /// Whether the load lies within `obj` and is as aligned as it says.
    pub fn within(&self, obj: Private) -> bool {
        let Ok(offset) = u64::try_from(self.offset) else { return false };
        offset.checked_add(self.bytes).is_some_and(|end| end <= obj.bytes)
            && self.align <= obj.align
            && offset % self.align.max(1) == 0
    }
}

/// The rule: whether the loads `accesses` through a PHI with `edges` may be made in the
/// predecessors instead (the user and memory checks are the adapter's, before this).
pub fn decide(edges: &[Edge], accesses: &[Access]) -> Result<(), Refusal> {
    if accesses.len() > MAX_LOADS {
        return Err(Refusal::TooManyLoads);
    }
    if !edges.iter().any(|e| e.private.is_some()) {
        return Err(Refusal::NoPrivateObject);
    }
    for e in edges {
        let in_object = e.private.is_some_and(|obj| accesses.iter().all(|a| a.within(obj)));
        if !(e.unconditional || e.loadable || in_object) {
            return Err(Refusal::UnsafeEdge);
        }
    }
    Ok(())
}

fn simple_load(v: LLVMValueRef) -> bool {
    // SAFETY: v is a live value.
    unsafe {
        ir::is(v, LLVMOpcode::LLVMLoad)
            && LLVMGetVolatile(v) == 0
            && LLVMGetOrdering(v) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
    }
}

/// Whether a lifetime marker.
fn lifetime_marker(v: LLVMValueRef) -> bool {
    ir::is(v, LLVMOpcode::LLVMCall) && ir::callee_name(v).starts_with("llvm.lifetime.")
}

/// Whether every use of `p` (an alloca or an address step of it) other than by `phi` is a
/// load, a store to it, a lifetime marker, or a constant address step used the same way.
///
/// # Safety
/// `p` is a live value; `td` the module's data layout.
unsafe fn only_plain_uses(
    p: LLVMValueRef,
    phi: LLVMValueRef,
    td: LLVMTargetDataRef,
    depth: usize,
) -> bool {
    if depth > MAX_ADDRESS_DEPTH {
        return false;
    }
    ir::uses(p).all(|(u, k)| {
        u == phi
            || simple_load(u)
            || (ir::is(u, LLVMOpcode::LLVMStore) && k == 1 && LLVMGetVolatile(u) == 0)
            || lifetime_marker(u)
            || (ir::is(u, LLVMOpcode::LLVMAddrSpaceCast) && only_plain_uses(u, phi, td, depth + 1))
            || (ir::is(u, LLVMOpcode::LLVMGetElementPtr)
                && gep_offset(td, u).is_some()
                && only_plain_uses(u, phi, td, depth + 1))
    })
}

/// The size of a private object the PHI `phi` alone keeps in memory, when `v` is one.
///
/// # Safety
/// `v` is a live value; `td` the module's data layout.
unsafe fn private_object(
    v: LLVMValueRef,
    phi: LLVMValueRef,
    td: LLVMTargetDataRef,
) -> Option<Private> {
    if LLVMIsAAllocaInst(v).is_null() {
        return None;
    }
    let count = ir::const_u64(LLVMGetOperand(v, 0))?;
    let entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v)));
    if LLVMGetInstructionParent(v) != entry || !only_plain_uses(v, phi, td, 0) {
        return None;
    }
    let bytes = ir::alloc_size(td, LLVMGetAllocatedType(v)).checked_mul(count)?;
    Some(Private { bytes, align: u64::from(LLVMGetAlignment(v)) })
}

/// A load through the PHI, with the address step it goes through (if any).
struct Load {
    load: LLVMValueRef,
    gep: Option<LLVMValueRef>,
    access: Access,
}

/// The loads through `phi`, or why it is left alone.
///
/// # Safety
/// `phi` is a live PHI of pointers; `td` the module's data layout.
unsafe fn loads_through(phi: LLVMValueRef, td: LLVMTargetDataRef) -> Result<Vec<Load>, Refusal> {
    let bb = LLVMGetInstructionParent(phi);
    let mut loads = Vec::new();
    let load_of = |ld: LLVMValueRef, gep: Option<LLVMValueRef>, offset: i64| -> Option<Load> {
        (simple_load(ld) && LLVMGetInstructionParent(ld) == bb).then(|| Load {
            load: ld,
            gep,
            access: Access {
                offset,
                bytes: LLVMStoreSizeOfType(td, LLVMTypeOf(ld)),
                align: u64::from(LLVMGetAlignment(ld)),
            },
        })
    };
    for (u, k) in ir::uses(phi) {
        if ir::is(u, LLVMOpcode::LLVMLoad) && k == 0 {
            loads.push(load_of(u, None, 0).ok_or(Refusal::OtherUser)?);
        } else if ir::is(u, LLVMOpcode::LLVMGetElementPtr)
            && k == 0
            && LLVMGetInstructionParent(u) == bb
        {
            let off = gep_offset(td, u).ok_or(Refusal::OtherUser)?;
            for (ld, j) in ir::uses(u) {
                if j != 0 {
                    return Err(Refusal::OtherUser);
                }
                loads.push(load_of(ld, Some(u), off).ok_or(Refusal::OtherUser)?);
            }
        } else {
            return Err(Refusal::OtherUser);
        }
    }
    if loads.is_empty() {
        return Err(Refusal::OtherUser);
    }
    if loads.len() > MAX_LOADS {
        return Err(Refusal::TooManyLoads);
    }
    // Nothing from the block's first instruction up to the last load may write memory; the
    // loads are kept in block order (the order of the speculated loads and PHIs).
    let mut ordered = Vec::with_capacity(loads.len());
    let mut i = LLVMGetFirstInstruction(bb);
    while !i.is_null() && !loads.is_empty() {
        if let Some(at) = loads.iter().position(|l| l.load == i) {
            ordered.push(loads.swap_remove(at));
        } else if !ir::is(i, LLVMOpcode::LLVMPHI)
            && ir::facts::may_have_side_effects(inkwell::values::InstructionValue::new(i))
        {
            return Err(Refusal::WriteBeforeLoad);
        }
        i = LLVMGetNextInstruction(i);
    }
    Ok(ordered)
}

extern "C" {
    /// `isSafeToLoadUnconditionally(base, align, bytes)` just before `at` (src/llc/phi_loads.cpp).
    fn nvopt_phi_loads_dereferenceable(
        base: LLVMValueRef,
        align: u64,
        bytes: u64,
        at: LLVMValueRef,
    ) -> bool;
}

/// The incoming edges of `phi` as the rule sees them, for the loads `accesses`.
///
/// # Safety
/// `phi` is a live PHI; `td` the module's data layout.
unsafe fn edges_of(phi: LLVMValueRef, td: LLVMTargetDataRef, accesses: &[Access]) -> Vec<Edge> {
    (0..LLVMCountIncoming(phi))
        .map(|k| {
            let term = LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(phi, k));
            let v = LLVMGetIncomingValue(phi, k);
            let unconditional = ir::is(term, LLVMOpcode::LLVMBr) && LLVMIsConditional(term) == 0;
            // Base aligned to A and dereferenceable up to the access's end, with the offset a
            // multiple of A: the access is dereferenceable and aligned.
            let loadable = !unconditional
                && !accesses.is_empty()
                && accesses.iter().all(|a| {
                    a.offset >= 0
                        && (a.offset as u64) % a.align.max(1) == 0
                        && nvopt_phi_loads_dereferenceable(
                            v,
                            a.align.max(1),
                            a.offset as u64 + a.bytes,
                            term,
                        )
                });
            Edge { unconditional, private: private_object(v, phi, td), loadable }
        })
        .collect()
}

/// The metadata kinds a speculated load keeps.
const KEPT_METADATA: [&str; 3] = ["tbaa", "alias.scope", "noalias"];

/// Makes each load of `loads` in every predecessor of `phi` and replaces it by a PHI of those.
///
/// # Safety
/// `phi` and the loads are live and passed [`decide`].
unsafe fn rewrite(phi: LLVMValueRef, loads: &[Load], b: LLVMBuilderRef) {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(phi));
    let kinds: Vec<u32> = KEPT_METADATA
        .iter()
        .map(|k| LLVMGetMDKindIDInContext(ctx, k.as_ptr().cast(), k.len() as u32))
        .collect();
    let n = LLVMCountIncoming(phi);
    for l in loads {
        let ty = LLVMTypeOf(l.load);
        let mut blocks = Vec::new();
        let mut values = Vec::new();
        for k in 0..n {
            let pred = LLVMGetIncomingBlock(phi, k);
            // A predecessor listed twice (a switch) gets one load.
            if let Some(at) = blocks.iter().position(|&p| p == pred) {
                blocks.push(pred);
                values.push(values[at]);
                continue;
            }
            LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pred));
            let mut ptr = LLVMGetIncomingValue(phi, k);
            if let Some(gep) = l.gep {
                let mut idx: Vec<LLVMValueRef> =
                    (1..LLVMGetNumOperands(gep)).map(|j| LLVMGetOperand(gep, j as u32)).collect();
                ptr = LLVMBuildGEPWithNoWrapFlags(
                    b,
                    LLVMGetGEPSourceElementType(gep),
                    ptr,
                    idx.as_mut_ptr(),
                    idx.len() as u32,
                    c"".as_ptr(),
                    LLVMGEPGetNoWrapFlags(gep),
                );
            }
            let v = LLVMBuildLoad2(b, ty, ptr, c"".as_ptr());
            LLVMSetAlignment(v, LLVMGetAlignment(l.load));
            for &kind in &kinds {
                let md = LLVMGetMetadata(l.load, kind);
                if !md.is_null() {
                    LLVMSetMetadata(v, kind, md);
                }
            }
            blocks.push(pred);
            values.push(v);
        }
        LLVMPositionBuilderBefore(b, phi);
        let merged = LLVMBuildPhi(b, ty, c"".as_ptr());
        LLVMAddIncoming(merged, values.as_mut_ptr(), blocks.as_mut_ptr(), n);
        LLVMReplaceAllUsesWith(l.load, merged);
        LLVMInstructionEraseFromParent(l.load);
    }
    for l in loads {
        if let Some(gep) = l.gep {
            if LLVMGetFirstUse(gep).is_null() {
                LLVMInstructionEraseFromParent(gep);
            }
        }
    }
    if LLVMGetFirstUse(phi).is_null() {
        LLVMInstructionEraseFromParent(phi);
    }
}

/// Runs the pass on one function; how many PHIs it rewrote.
fn run(f: LLVMValueRef, remarks: &Remarks) -> u64 {
    // SAFETY: a live function definition; the PHIs are collected before anything changes, and
    // each rewrite touches only its own PHI, its loads and address steps.
    unsafe {
        let td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(f));
        let phis: Vec<LLVMValueRef> = ir::function_raw_instructions(f)
            .into_iter()
            .filter(|&i| {
                ir::is(i, LLVMOpcode::LLVMPHI)
                    && LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMTypeKind::LLVMPointerTypeKind
            })
            .collect();
        if phis.is_empty() {
            return 0;
        }
        let b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
        let mut done = 0;
        for phi in phis {
            let has_private = (0..LLVMCountIncoming(phi))
                .any(|k| private_object(LLVMGetIncomingValue(phi, k), phi, td).is_some());
            if !has_private {
                continue; // not this pass's shape: nothing to say
            }
            let verdict = loads_through(phi, td).and_then(|loads| {
                let accesses: Vec<Access> = loads.iter().map(|l| l.access).collect();
                decide(&edges_of(phi, td, &accesses), &accesses).map(|()| loads)
            });
            let at = inkwell::values::InstructionValue::new(phi);
            match verdict {
                Ok(loads) => {
                    if remarks.enabled() {
                        let count = loads.len().to_string();
                        remarks.emit(
                            c"nv-phi-loads",
                            c"Speculated",
                            at,
                            &[
                                RemarkArg::named("Loads", count.as_bytes()),
                                RemarkArg::text(b" loads through a PHI of a private object made in its predecessors"),
                            ],
                        );
                    }
                    rewrite(phi, &loads, b);
                    done += 1;
                }
                Err(why) => {
                    crate::stats::add(PASS, why.text(), 1);
                    if remarks.enabled() {
                        remarks.emit_missed(
                            c"nv-phi-loads",
                            c"Refused",
                            at,
                            &[
                                RemarkArg::text(b"PHI of a private object left alone: "),
                                RemarkArg::text(why.text().as_bytes()),
                            ],
                        );
                    }
                }
            }
        }
        LLVMDisposeBuilder(b);
        done
    }
}

/// Runs `nv-phi-loads` on one function (called by the pass plumbing in
/// src/llc/phi_loads.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_phi_loads_run(f: LLVMValueRef, ore: *mut std::ffi::c_void) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(f)));
    if Knobs::current().nv_disable_phi_loads() || !triple.to_bytes().starts_with(b"nvptx") {
        return false;
    }
    let done = run(f, &Remarks::from_raw(ore));
    crate::stats::add_nonzero(PASS, "PHIs of private objects whose loads were speculated", done);
    done > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    const KV: [Access; 2] =
        [Access { offset: 0, bytes: 8, align: 8 }, Access { offset: 8, bytes: 4, align: 8 }];
    const OBJ16: Private = Private { bytes: 16, align: 16 };

    fn edge(unconditional: bool, private: Option<Private>, loadable: bool) -> Edge {
        Edge { unconditional, private, loadable }
    }

    #[test]
    fn private_object_on_a_conditional_edge() {
        let edges = [edge(false, Some(OBJ16), false), edge(true, None, false)];
        assert_eq!(decide(&edges, &KV), Ok(()));
    }

    #[test]
    fn a_load_past_the_object_or_misaligned_is_refused() {
        let small = Private { bytes: 8, align: 16 };
        let edges = [edge(false, Some(small), false), edge(true, None, false)];
        assert_eq!(decide(&edges, &KV), Err(Refusal::UnsafeEdge));
        let before = [Access { offset: -4, bytes: 4, align: 4 }];
        assert_eq!(decide(&[edge(false, Some(OBJ16), false)], &before), Err(Refusal::UnsafeEdge));
        let loose = Private { bytes: 16, align: 4 };
        assert_eq!(decide(&[edge(false, Some(loose), false)], &KV), Err(Refusal::UnsafeEdge));
        let odd = [Access { offset: 4, bytes: 8, align: 8 }];
        assert_eq!(decide(&[edge(false, Some(OBJ16), false)], &odd), Err(Refusal::UnsafeEdge));
    }

    #[test]
    fn an_unknown_pointer_on_a_conditional_edge_is_refused_unless_llvm_proves_it() {
        let edges = [edge(true, Some(OBJ16), false), edge(false, None, false)];
        assert_eq!(decide(&edges, &KV), Err(Refusal::UnsafeEdge));
        let edges = [edge(true, Some(OBJ16), false), edge(false, None, true)];
        assert_eq!(decide(&edges, &KV), Ok(()));
    }

    #[test]
    fn without_a_private_object_nothing_to_gain() {
        let edges = [edge(true, None, false), edge(true, None, true)];
        assert_eq!(decide(&edges, &KV), Err(Refusal::NoPrivateObject));
    }

    #[test]
    fn load_budget() {
        let edges = [edge(true, Some(Private { bytes: 1024, align: 16 }), false)];
        let many = [Access { offset: 0, bytes: 4, align: 4 }; MAX_LOADS + 1];
        assert_eq!(decide(&edges, &many), Err(Refusal::TooManyLoads));
        assert_eq!(decide(&edges, &many[..MAX_LOADS]), Ok(()));
    }
}
