//! `nv-set-global-array-alignment`: the `__shared__` half of the array-alignment passes (the
//! rule, refusals and knobs are in the module header, src/opt/array_alignment/mod.rs). A module
//! pass: each global variable of the shared address space (3) whose type is an array or a
//! struct is raised by the rule when this module defines it for good (a strong definition
//! outside any explicit section). Globals of other address spaces are left alone.
use super::{alignment_for, bound, is_aggregate, raise, remark, Decision, Kept};
use crate::analysis::gpu::addrspace;
use crate::analysis::ir::facts;
use crate::analysis::ir::{self, alloc_size};
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMPreferredAlignmentOfGlobal};
use llvm_sys::LLVMLinkage;

pub const PASS: &str = "nv-set-global-array-alignment";

/// What the pass knows about one shared variable of array or struct type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedVar {
    /// Declared here, defined elsewhere (`extern __shared__`).
    pub declaration: bool,
    /// Its type's allocation size in bytes.
    pub size: u64,
    /// external, internal or private: the definition the linker keeps.
    pub strong: bool,
    /// Placed in an explicit section.
    pub section: bool,
    pub align: u64,
}

/// The decision for one shared variable.
pub fn decide(v: &SharedVar, bound: u64) -> Decision {
    if v.declaration {
        Decision::Keep(Kept::Extern)
    } else if v.size == 0 {
        Decision::Keep(Kept::Empty)
    } else if !v.strong {
        Decision::Keep(Kept::Interposable)
    } else if v.section {
        Decision::Keep(Kept::Section)
    } else {
        alignment_for(v.size, v.align, bound)
    }
}

fn strong(l: LLVMLinkage) -> bool {
    use LLVMLinkage::*;
    matches!(l, LLVMExternalLinkage | LLVMInternalLinkage | LLVMPrivateLinkage)
}

/// The shared variables of array or struct type of a module, with their facts.
fn shared_arrays(m: LLVMModuleRef) -> Vec<(LLVMValueRef, SharedVar)> {
    let mut out = Vec::new();
    // SAFETY: a live module; its globals are walked before anything changes.
    unsafe {
        let td = LLVMGetModuleDataLayout(m);
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let ty = LLVMGlobalGetValueType(g);
            if LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == addrspace::SHARED && is_aggregate(ty) {
                let section = LLVMGetSection(g);
                let align = match LLVMGetAlignment(g) {
                    0 => u64::from(LLVMPreferredAlignmentOfGlobal(td, g)),
                    a => u64::from(a),
                };
                let var = SharedVar {
                    declaration: LLVMIsDeclaration(g) != 0,
                    size: if LLVMTypeIsSized(ty) != 0 { alloc_size(td, ty) } else { 0 },
                    strong: strong(LLVMGetLinkage(g)),
                    section: !section.is_null() && *section != 0,
                    align,
                };
                out.push((g, var));
            }
            g = LLVMGetNextGlobal(g);
        }
    }
    out
}

/// The function of the first instruction that uses `v` (through constant expressions), else
/// the module's first function definition: where a remark about `v` is anchored.
fn anchor(m: LLVMModuleRef, v: LLVMValueRef) -> Option<LLVMValueRef> {
    let mut work = vec![v];
    let mut seen = crate::fast_hash::HashSet::default();
    while let Some(x) = work.pop() {
        for u in ir::users(x) {
            if let Some(bb) = ir::block_of(u) {
                // SAFETY: a live block of a function.
                return Some(unsafe { LLVMGetBasicBlockParent(bb) });
            }
            // SAFETY: a live user.
            if unsafe { !LLVMIsAConstantExpr(u).is_null() } && seen.insert(u) {
                work.push(u);
            }
        }
    }
    // SAFETY: live functions, only read.
    crate::analysis::ir::module_functions(m)
        .into_iter()
        .find(|&f| unsafe { LLVMIsDeclaration(f) == 0 })
}

fn counter(d: Decision) -> &'static str {
    match d {
        Decision::Raise { .. } => "shared arrays aligned",
        Decision::Keep(Kept::AlreadyAligned) => "shared arrays kept (already aligned)",
        Decision::Keep(Kept::Extern | Kept::Empty) => "shared arrays kept (extern or dynamic)",
        Decision::Keep(Kept::Interposable | Kept::Section) => {
            "shared arrays kept (weak, linkonce, common or in a section)"
        }
        Decision::Keep(_) => "shared arrays kept (size allows no more)",
    }
}

/// Raises the shared arrays of a module; whether it changed the IR.
fn run(m: LLVMModuleRef, knobs: &Knobs) -> bool {
    let bound = bound(knobs.nv_max_array_alignment());
    // SAFETY: a live module.
    let td = unsafe { LLVMGetModuleDataLayout(m) };
    let mut changed = false;
    for (g, v) in shared_arrays(m) {
        let d = decide(&v, bound);
        crate::stats::add(PASS, counter(d), 1);
        let at = anchor(m, g).filter(|&f| facts::remarks_enabled_for(f));
        let name = format!("@{}", ir::name(g));
        let size = v.size.to_string();
        if let Decision::Raise { from, to } = d {
            log::debug!("{PASS}: {name}: {size} bytes, align {from} -> {to}");
            // A global this module defines for good (decide).
            raise(td, PASS, g, to);
            changed = true;
        }
        if let Some(f) = at {
            remark(b"shared array ", name.as_bytes(), &size, v.align, d, |title, missed, args| {
                facts::remark_function(c"nv-set-global-array-alignment", title, missed, f, args)
            });
        }
    }
    changed
}

/// Runs `nv-set-global-array-alignment` on a module (called by the pass plumbing in
/// src/opt/array_alignment/array_alignment.cpp); whether it changed the IR.
///
/// # Safety
/// `m` is a live module that no one else changes during the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_set_global_array_alignment_run(m: LLVMModuleRef) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(m));
    if !super::applies_to_triple(triple.to_bytes()) {
        return false;
    }
    run(m, &Knobs::current())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(size: u64, align: u64) -> SharedVar {
        SharedVar { declaration: false, size, strong: true, section: false, align }
    }

    #[test]
    fn static_shared_arrays_follow_the_rule() {
        assert_eq!(decide(&tile(1024, 4), 16), Decision::Raise { from: 4, to: 16 });
        assert_eq!(decide(&tile(24, 4), 16), Decision::Raise { from: 4, to: 8 });
        assert_eq!(decide(&tile(12, 4), 16), Decision::Keep(Kept::SizeAllowsNoMore));
        assert_eq!(decide(&tile(1024, 16), 16), Decision::Keep(Kept::AlreadyAligned));
    }

    #[test]
    fn what_is_not_provably_ours_is_refused() {
        let ext = SharedVar { declaration: true, ..tile(0, 4) };
        assert_eq!(decide(&ext, 16), Decision::Keep(Kept::Extern));
        let sized_extern = SharedVar { declaration: true, ..tile(1024, 4) };
        assert_eq!(decide(&sized_extern, 16), Decision::Keep(Kept::Extern));
        assert_eq!(decide(&tile(0, 4), 16), Decision::Keep(Kept::Empty));
        let weak = SharedVar { strong: false, ..tile(1024, 4) };
        assert_eq!(decide(&weak, 16), Decision::Keep(Kept::Interposable));
        let sect = SharedVar { section: true, ..tile(1024, 4) };
        assert_eq!(decide(&sect, 16), Decision::Keep(Kept::Section));
    }

    #[test]
    fn only_strong_linkages_are_ours() {
        use LLVMLinkage::*;
        assert!(strong(LLVMExternalLinkage) && strong(LLVMInternalLinkage));
        assert!(strong(LLVMPrivateLinkage));
        for l in [
            LLVMWeakAnyLinkage,
            LLVMWeakODRLinkage,
            LLVMLinkOnceODRLinkage,
            LLVMCommonLinkage,
            LLVMExternalWeakLinkage,
            LLVMAvailableExternallyLinkage,
        ] {
            assert!(!strong(l), "{l:?}");
        }
    }
}
