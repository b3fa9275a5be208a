//! `nv-phi-load-spaces`: before the first instcombine of O1-O3, the loads that feed one PHI are
//! given the address space their pointers are known to be in, so that instcombine does not fold
//! loads of different memories into one generic load.
//!
//! Why: instcombine folds `phi [load p, %a], [load q, %b]` into `load (phi [p, %a], [q, %b])`
//! when the loads are in one address space. Before the first MemorySpaceOpt slot (cicc's table
//! runs its first instcombine earlier) a `__shared__` array is still reached through a generic
//! `addrspacecast`, and kernel pointer parameters are generic too, so a stencil's
//! `edge ? in[i - 1] : tile[t - 1]` becomes one load through a PHI (later a select) of a global
//! and a shared pointer. No later pass can give that pointer a space: the PTX has a generic
//! `ld` where nvcc keeps `ld.global` and `ld.shared` (Parboil's coarsened stencil; bench
//! `halo_select`). Running all of `infer-address-spaces` that early does the same, but it also
//! moves the generic casts of pointers that wmma intrinsics take next to each use, one `cvta`
//! per load in place of one base and immediate offsets (more SASS on cuda-hgemm's kernels); this
//! pass touches only the loads the fold would merge.
//!
//! ```text
//! ; before                                               ; after nv-phi-load-spaces
//! g:  %gv = load float, ptr %gp                          g:  %gv = load float, ptr %gp
//! s:  %sp = getelementptr float, ptr addrspacecast        s:  %sp = getelementptr float, ptr addrspacecast
//!            (ptr addrspace(3) @tile to ptr), i64 %k                 (ptr addrspace(3) @tile to ptr), i64 %k
//!     %sv = load float, ptr %sp                               %1 = addrspacecast ptr %sp to ptr addrspace(3)
//!                                                             %sv = load float, ptr addrspace(3) %1
//! j:  %v = phi float [ %gv, %g ], [ %sv, %s ]             j:  %v = phi float [ %gv, %g ], [ %sv, %s ]
//! ; instcombine now leaves the two loads apart; infer-address-spaces folds %1 into the GEP
//! ```
//!
//! The rule (`loads_to_rewrite`): a PHI all of whose incoming values are simple loads used by it
//! alone; the space of each load's pointer is known when a chain of `getelementptr`, `bitcast`
//! and `addrspacecast` (instructions or constant expressions) leads back to a pointer of a
//! specific (non-generic) space. When some but not all of the loads are known to be in one
//! space (some unknown, or two spaces), each known load reads through a cast of its pointer to
//! that space: the same address, so the same value. Loads all in one known space, or all
//! unknown, are left alone (their fold costs nothing that infer-address-spaces cannot undo).
//!
//! Refused: modules other than NVPTX; volatile or atomic loads. Knob:
//! `nv-disable-phi-load-spaces`. Counters under `-nv-stats`; a remark per PHI
//! (`-pass-remarks=nv-phi-load-spaces`).
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::{self};
use crate::analysis::search_budgets::PHI_LOAD_SPACE_CHAIN_MAX_DEPTH;
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

pub const PASS: &str = "nv-phi-load-spaces";

/// Which of a PHI's incoming loads to give their space, from the space each is known to be in
/// (`None`: generic as far as the walk sees): every known one when the fold would otherwise put
/// different memories, or a known and an unknown one, behind one pointer; none when all are
/// known to be in one space or none is known.
pub fn loads_to_rewrite(spaces: &[Option<u32>]) -> Vec<usize> {
    let Some(first) = spaces.iter().flatten().next() else {
        return Vec::new();
    };
    if spaces.iter().all(|s| *s == Some(*first)) {
        return Vec::new();
    }
    spaces.iter().enumerate().filter_map(|(i, s)| s.map(|_| i)).collect()
}

/// The specific address space `ptr` is known to be in: walks `getelementptr`, `bitcast` and
/// `addrspacecast` back to a pointer whose type has a non-generic space.
///
/// # Safety
/// `ptr` is a live value.
unsafe fn known_space(mut ptr: LLVMValueRef) -> Option<u32> {
    for _ in 0..PHI_LOAD_SPACE_CHAIN_MAX_DEPTH {
        let ty = LLVMTypeOf(ptr);
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMPointerTypeKind {
            return None;
        }
        let space = LLVMGetPointerAddressSpace(ty);
        if space != 0 {
            return Some(space);
        }
        ptr = ir::address_step_source(ptr)?;
    }
    None
}

/// A load the fold could merge: simple (not volatile, not atomic) and used by the PHI only.
///
/// # Safety
/// `v` is a live value.
unsafe fn foldable_load(v: LLVMValueRef) -> bool {
    ir::is(v, LLVMOpcode::LLVMLoad)
        && LLVMGetVolatile(v) == 0
        && LLVMGetOrdering(v) == llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
        && ir::users(v).count() == 1
}

/// Runs the pass on one function; how many loads it gave a space.
fn run(f: LLVMValueRef, remarks: &Remarks) -> u64 {
    // SAFETY: a live function definition; the PHIs and their loads are collected first, and a
    // rewrite only adds a cast before a load and changes that load's pointer operand.
    unsafe {
        let mut plan = Vec::new();
        for phi in ir::function_raw_instructions(f) {
            if !ir::is(phi, LLVMOpcode::LLVMPHI) || LLVMCountIncoming(phi) < 2 {
                continue;
            }
            let loads: Vec<_> =
                (0..LLVMCountIncoming(phi)).map(|i| LLVMGetIncomingValue(phi, i)).collect();
            if !loads.iter().all(|&l| foldable_load(l)) {
                continue;
            }
            let spaces: Vec<_> = loads.iter().map(|&l| known_space(LLVMGetOperand(l, 0))).collect();
            let picked = loads_to_rewrite(&spaces);
            if !picked.is_empty() {
                plan.push((
                    phi,
                    picked
                        .into_iter()
                        .map(|i| (loads[i], spaces[i].unwrap_or(0)))
                        .collect::<Vec<_>>(),
                ));
            }
        }
        if plan.is_empty() {
            return 0;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(f));
        let b = LLVMCreateBuilderInContext(ctx);
        let mut rewritten = 0;
        for (phi, loads) in plan {
            let before = rewritten;
            for (ld, space) in loads {
                let ptr = LLVMGetOperand(ld, 0);
                if LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == space {
                    continue; // already a load of that space: the fold cannot take it anyway
                }
                LLVMPositionBuilderBefore(b, ld);
                let cast = LLVMBuildAddrSpaceCast(
                    b,
                    ptr,
                    LLVMPointerTypeInContext(ctx, space),
                    c"".as_ptr(),
                );
                LLVMSetOperand(ld, 0, cast);
                rewritten += 1;
            }
            if rewritten > before && remarks.enabled() {
                let text = crate::analysis::ir::facts::operand_text(phi);
                remarks.emit(
                    c"nv-phi-load-spaces",
                    c"Spaces",
                    inkwell::values::InstructionValue::new(phi),
                    &[
                        RemarkArg::text(b"loads feeding "),
                        RemarkArg::named("Phi", &text),
                        RemarkArg::text(b" read in their known address spaces"),
                    ],
                );
            }
        }
        LLVMDisposeBuilder(b);
        rewritten
    }
}

/// Runs `nv-phi-load-spaces` on one function (called by the pass plumbing in
/// src/opt/phi_load_spaces.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_phi_load_spaces_run(
    f: LLVMValueRef,
    ore: *mut std::ffi::c_void,
) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(f)));
    if Knobs::current().nv_disable_phi_load_spaces() || !triple.to_bytes().starts_with(b"nvptx") {
        return false;
    }
    let n = run(f, &Remarks::from_raw(ore));
    crate::stats::add_nonzero(PASS, "loads feeding a PHI given their address space", n);
    n > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_known_loads_only_when_spaces_differ() {
        assert_eq!(loads_to_rewrite(&[None, Some(3)]), vec![1]);
        assert_eq!(loads_to_rewrite(&[Some(3), None, None]), vec![0]);
        assert_eq!(loads_to_rewrite(&[Some(1), Some(3)]), vec![0, 1]);
        assert_eq!(loads_to_rewrite(&[Some(3), Some(1), None]), vec![0, 1]);
    }

    #[test]
    fn leaves_one_space_or_none_known() {
        assert!(loads_to_rewrite(&[Some(3), Some(3)]).is_empty());
        assert!(loads_to_rewrite(&[None, None]).is_empty());
        assert!(loads_to_rewrite(&[]).is_empty());
    }
}
