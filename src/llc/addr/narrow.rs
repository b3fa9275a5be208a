//! SCEV-CGP's 32-bit address arithmetic (part of `codegenpreparescev`; docs/CICC-FACTS.md
//! "Address optimization" and "SCEV-CGP": cicc's SCEV-CGP keeps index arithmetic in 32 bits
//! where the thread-index bounds prove it fits, instead of widening it to 64 bits). llc's SeparateConstOffsetFromGEP and
//! NaryReassociate split a GEP index `sext(a + b)` into the 64-bit `sext(a) + sext(b)`; where
//! ScalarEvolution proves that `a + b` does not overflow in its own width (signed for sign
//! extensions, unsigned for zero extensions; its ranges include the special-register bounds of
//! nv-scev-sources), the index is rebuilt as `ext(a +nsw/nuw b)`: one extension and a narrow add
//! instead of two extensions and a 64-bit add.
//!
//! Example (plugin-tests/addr/narrow.ll; `nv-scev-cgp`, or `codegenpreparescev` with
//! `-nv-disable-scev-cgp=0`), with `%tx` in [0,1024) and `%row = %ty << 5`, %ty in [0,1024):
//!
//! ```text
//! ; before: the index add is done in 64 bits
//! %sx = sext i32 %tx to i64
//! %sr = sext i32 %row to i64
//! %i = add i64 %sr, %sx
//! %q = getelementptr float, ptr addrspace(1) %p, i64 %i
//!
//! ; after: ranges prove %row + %tx < 2^31, so the add is done in 32 bits
//! %i.narrow = add nsw i32 %row, %tx
//! %i.ext = sext i32 %i.narrow to i64
//! %q = getelementptr float, ptr addrspace(1) %p, i64 %i.ext
//! ```
//!
//! Refused: an add with a use other than a GEP index (the 64-bit add would stay alive beside the
//! new one, so the rewrite would not pay: [`narrows`]); operands that are not both sign
//! extensions (`zext nneg` counts as one) or both zero extensions, or of different narrow types;
//! a constant operand (it is no extension, so the constants SeparateConstOffsetFromGEP splits off
//! for `[reg+imm]` stay apart); an operand without a bound; any add whose narrow sum
//! ScalarEvolution cannot prove free of overflow. Off by default with the rest of SCEV-CGP
//! (`nv-disable-scev-cgp`, true as in cicc's LLVM 20 copy); on the bench it fires nowhere.
//! Remark `NarrowIndex` under `-pass-remarks=codegenpreparescev`. The walk
//! and the rewrite are Rust; ScalarEvolution's range proof and remark emission come from the
//! shim (src/llc/addr/scev_queries.cpp), which the C API lacks.
use crate::analysis::ir::{self, facts::RemarkArg, facts::Remarks};
use inkwell::values::InstructionValue;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;
use std::ffi::{c_void, CString};

/// Width of the index adds rebuilt narrow (the address width on NVPTX64).
const INDEX_BITS: u32 = 64;

/// The remark text of one rebuilt index add.
const NARROWED: &[u8] = b"address index added in 32 bits (no overflow proven), extended once";

/// Whether a proven index add with `uses` uses, `index_uses` of them GEP indices, is rebuilt.
pub fn narrows(uses: u32, index_uses: u32) -> bool {
    uses > 0 && index_uses == uses
}

extern "C" {
    fn nvopt_scev_add_never_overflows(
        se: *mut c_void,
        a: LLVMValueRef,
        b: LLVMValueRef,
        signed: bool,
    ) -> bool;
}

/// An extension's narrow operand and whether it is a sign extension (`zext nneg` counts as one).
fn extension(v: LLVMValueRef) -> Option<(LLVMValueRef, bool)> {
    if ir::is(v, LLVMOpcode::LLVMSExt) {
        return Some((ir::raw_operand(v, 0), true));
    }
    // SAFETY: v is a zext, which carries nneg.
    ir::is(v, LLVMOpcode::LLVMZExt).then(|| (ir::raw_operand(v, 0), unsafe { LLVMGetNNeg(v) != 0 }))
}

/// The narrow operands of an index add and whether the sum is signed, when [`narrows`] takes it
/// and ScalarEvolution proves the narrow sum free of overflow.
///
/// # Safety
/// `add` is a live instruction and `se` the function's live `llvm::ScalarEvolution`.
unsafe fn proven(add: LLVMValueRef, se: *mut c_void) -> Option<(LLVMValueRef, LLVMValueRef, bool)> {
    let uses: Vec<u32> = ir::uses(add)
        .map(|(user, op)| (ir::is(user, LLVMOpcode::LLVMGetElementPtr) && op != 0) as u32)
        .collect();
    if ir::binary_opcode(add) != Some(LLVMOpcode::LLVMAdd)
        || !narrows(uses.len() as u32, uses.iter().sum())
    {
        return None;
    }
    let (x, y) = (ir::raw_operand(add, 0), ir::raw_operand(add, 1));
    let ((a, a_signed), (b, b_signed)) = (extension(x)?, extension(y)?);
    if LLVMTypeOf(a) != LLVMTypeOf(b) {
        return None;
    }
    // Both sign extensions (a zext nneg is one too), else both zero extensions.
    let signed = a_signed && b_signed;
    let zexts = ir::is(x, LLVMOpcode::LLVMZExt) && ir::is(y, LLVMOpcode::LLVMZExt);
    ((signed || zexts) && nvopt_scev_add_never_overflows(se, a, b, signed))
        .then_some((a, b, signed))
}

/// Rebuilds every proven 64-bit index add of `f` as `ext(a + b)`; returns how many (the
/// SCEV-CGP phase of [`super::pass`]).
///
/// # Safety
/// `f` is a live function, `se` its `llvm::ScalarEvolution` and `ore` its
/// `llvm::OptimizationRemarkEmitter`.
pub unsafe fn narrow_indices(f: LLVMValueRef, se: *mut c_void, ore: *mut c_void) -> u32 {
    let adds: Vec<LLVMValueRef> = ir::function_instructions(ir::function(f))
        .map(ir::raw)
        .filter(|&i| ir::binary_opcode(i).is_some() && ir::int_width(i) == Some(INDEX_BITS))
        .collect();
    let builder = ir::builder(ir::function(f));
    let b = builder.as_mut_ptr();
    let remarks = Remarks::from_raw(ore);
    let mut n = 0;
    for add in adds {
        let Some((x, y, signed)) = proven(add, se) else { continue };
        LLVMPositionBuilderBefore(b, add);
        LLVMSetCurrentDebugLocation2(b, llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(add));
        let name = ir::name(add);
        let c = |suffix: &str| CString::new(format!("{name}.{suffix}")).expect("no NUL in a name");
        let (sum_name, ext_name) = (c("narrow"), c("ext"));
        let sum = if signed {
            LLVMBuildNSWAdd(b, x, y, sum_name.as_ptr())
        } else {
            LLVMBuildNUWAdd(b, x, y, sum_name.as_ptr())
        };
        let ty = LLVMTypeOf(add);
        let ext = if signed {
            LLVMBuildSExt(b, sum, ty, ext_name.as_ptr())
        } else {
            LLVMBuildZExt(b, sum, ty, ext_name.as_ptr())
        };
        let at = InstructionValue::new(add);
        remarks.emit(c"codegenpreparescev", c"NarrowIndex", at, &[RemarkArg::text(NARROWED)]);
        LLVMReplaceAllUsesWith(add, ext);
        ir::delete_dead(add);
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_adds_used_as_indices_alone_are_rebuilt() {
        assert!(narrows(2, 2));
        assert!(!narrows(2, 1), "the 64-bit add would stay alive");
        assert!(!narrows(0, 0));
    }
}
