//! `nv-set-local-array-alignment`: the private-array half of the array-alignment passes (the
//! rule, refusals and knobs are in the module header, src/array_alignment/mod.rs). A function
//! pass: each `alloca` of an array or struct type, or of a constant count above one, is an
//! array; static ones (a constant count, in the entry block) are raised by the rule.
use super::{alignment_for, alloc_size, bound, is_aggregate, propagate, reason, Decision, Kept};
use crate::ir::facts::{operand_text, RemarkArg, Remarks};
use crate::ir::{self};
use crate::knobs::Knobs;
use inkwell::values::InstructionOpcode;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::target::LLVMGetModuleDataLayout;

pub const PASS: &str = "nv-set-local-array-alignment";

/// What the pass knows about one `alloca`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alloca {
    /// Allocated bytes; `None` for a count that is not a constant.
    pub size: Option<u64>,
    /// In the function's entry block.
    pub entry: bool,
    /// An array or struct type, or a constant count above one.
    pub array: bool,
    pub align: u64,
}

/// The decision for one `alloca`; `None` for what is not an array (not the pass's business).
pub fn decide(a: &Alloca, bound: u64) -> Option<Decision> {
    if !a.array && a.size.is_some() {
        return None;
    }
    match a.size {
        Some(size) if a.entry => Some(alignment_for(size, a.align, bound)),
        _ => Some(Decision::Keep(Kept::Dynamic)),
    }
}

/// The facts of one `alloca` instruction.
fn facts(f: LLVMValueRef, td: llvm_sys::target::LLVMTargetDataRef, i: LLVMValueRef) -> Alloca {
    // SAFETY: a live alloca of function `f`; operand 0 is its count.
    unsafe {
        let ty = LLVMGetAllocatedType(i);
        let count = ir::const_u64(LLVMGetOperand(i, 0));
        let entry = LLVMGetInstructionParent(i) == LLVMGetEntryBasicBlock(f);
        Alloca {
            size: count.and_then(|n| n.checked_mul(alloc_size(td, ty))),
            entry,
            array: is_aggregate(ty) || count.is_none_or(|n| n > 1),
            align: u64::from(LLVMGetAlignment(i)),
        }
    }
}

fn counter(d: Decision) -> &'static str {
    match d {
        Decision::Raise { .. } => "private arrays aligned",
        Decision::Keep(Kept::AlreadyAligned) => "private arrays kept (already aligned)",
        Decision::Keep(Kept::Dynamic) => "private arrays kept (dynamic alloca)",
        Decision::Keep(_) => "private arrays kept (size allows no more)",
    }
}

/// Raises the private arrays of one function; whether it changed the IR.
fn run(f: LLVMValueRef, knobs: &Knobs, remarks: &Remarks) -> bool {
    let bound = bound(knobs.nv_max_array_alignment());
    // SAFETY: a live function definition of a live module.
    let td = unsafe { LLVMGetModuleDataLayout(LLVMGetGlobalParent(f)) };
    // SAFETY: as above.
    let allocas: Vec<_> = ir::function_instructions(unsafe { ir::function(f) })
        .filter(|i| i.get_opcode() == InstructionOpcode::Alloca)
        .collect();
    let mut changed = false;
    for i in allocas {
        let raw = ir::raw(i);
        let a = facts(f, td, raw);
        let Some(d) = decide(&a, bound) else { continue };
        crate::stats::add(PASS, counter(d), 1);
        let what = if remarks.enabled() {
            // SAFETY: a live alloca.
            unsafe { operand_text(raw) }
        } else {
            Vec::new()
        };
        let size = a.size.map_or_else(|| "?".to_string(), |s| s.to_string());
        match d {
            Decision::Raise { from, to } => {
                log::debug!("{PASS}: {}: {size} bytes, align {from} -> {to}", ir::name(raw));
                // SAFETY: a live alloca; raising its alignment is always legal.
                unsafe { LLVMSetAlignment(raw, to as u32) };
                let accesses = propagate(td, raw, to);
                crate::stats::add(PASS, "loads/stores given a higher alignment", accesses);
                if remarks.enabled() {
                    let (from, to) = (from.to_string(), to.to_string());
                    let args = [
                        RemarkArg::text(b"private array "),
                        RemarkArg::named("Array", &what),
                        RemarkArg::text(b" ("),
                        RemarkArg::named("Size", size.as_bytes()),
                        RemarkArg::text(b" bytes) aligned from "),
                        RemarkArg::named("From", from.as_bytes()),
                        RemarkArg::text(b" to "),
                        RemarkArg::named("To", to.as_bytes()),
                        RemarkArg::text(b" bytes"),
                    ];
                    remarks.emit(c"nv-set-local-array-alignment", c"Aligned", i, &args);
                }
                changed = true;
            }
            Decision::Keep(k) => {
                if remarks.enabled() {
                    let align = a.align.to_string();
                    let why = reason(k);
                    let args = [
                        RemarkArg::text(b"private array "),
                        RemarkArg::named("Array", &what),
                        RemarkArg::text(b" ("),
                        RemarkArg::named("Size", size.as_bytes()),
                        RemarkArg::text(b" bytes) kept at align "),
                        RemarkArg::named("Align", align.as_bytes()),
                        RemarkArg::text(b": "),
                        RemarkArg::named("Reason", why.as_bytes()),
                    ];
                    remarks.emit_missed(c"nv-set-local-array-alignment", c"Kept", i, &args);
                }
            }
        }
    }
    changed
}

/// Runs `nv-set-local-array-alignment` on one function (called by the pass plumbing in
/// src/shim/array_alignment.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_set_local_array_alignment_run(
    f: LLVMValueRef,
    ore: *mut std::ffi::c_void,
) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(f)));
    if !super::applies_to_triple(triple.to_bytes()) {
        return false;
    }
    run(f, &Knobs::current(), &Remarks::from_raw(ore))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(size: u64, align: u64) -> Alloca {
        Alloca { size: Some(size), entry: true, array: true, align }
    }

    #[test]
    fn static_arrays_follow_the_rule() {
        assert_eq!(decide(&array(32, 4), 16), Some(Decision::Raise { from: 4, to: 16 }));
        assert_eq!(decide(&array(24, 4), 16), Some(Decision::Raise { from: 4, to: 8 }));
        assert_eq!(decide(&array(12, 4), 16), Some(Decision::Keep(Kept::SizeAllowsNoMore)));
        assert_eq!(decide(&array(64, 16), 16), Some(Decision::Keep(Kept::AlreadyAligned)));
    }

    #[test]
    fn dynamic_allocas_are_refused() {
        let vla = Alloca { size: None, array: true, ..array(0, 4) };
        assert_eq!(decide(&vla, 16), Some(Decision::Keep(Kept::Dynamic)));
        let late = Alloca { entry: false, ..array(32, 4) };
        assert_eq!(decide(&late, 16), Some(Decision::Keep(Kept::Dynamic)));
    }

    #[test]
    fn scalars_are_not_arrays() {
        let scalar = Alloca { array: false, ..array(8, 8) };
        assert_eq!(decide(&scalar, 16), None);
    }
}
