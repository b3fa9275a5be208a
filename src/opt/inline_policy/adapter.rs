//! `nv-inline-advisor`'s IR adapter: reads the facts of one call site that [`threshold`] needs
//! (whether the caller is a kernel; which arguments are the address of a private aggregate of
//! the caller) through llvm-sys, and counts the decisions in `-nv-stats`. The C++ advisor
//! (src/opt/inline_policy/inline_advisor.cpp) calls [`nvopt_inline_threshold`] once per call site it
//! judges.
use super::{threshold, Params, Site, PASS};
use crate::analysis::gpu::PTX_KERNEL_CC;
use crate::analysis::ir;
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// The facts of one call site.
///
/// # Safety
/// `call` is a live call instruction inside a function.
pub unsafe fn site(call: LLVMValueRef) -> Site {
    let caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    let args = LLVMGetNumArgOperands(call);
    Site {
        in_kernel: LLVMGetFunctionCallConv(caller) == PTX_KERNEL_CC,
        aggregate_args: (0..args).filter(|&k| private_aggregate(LLVMGetOperand(call, k))).count()
            as u32,
    }
}

/// Whether `v` is the address of a static alloca of array or struct type, through pointer
/// casts and all-zero GEPs (what `Value::stripPointerCasts` strips), not through an offset.
unsafe fn private_aggregate(mut v: LLVMValueRef) -> bool {
    loop {
        if LLVMIsAInstruction(v).is_null() {
            return false;
        }
        match LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => v = LLVMGetOperand(v, 0),
            LLVMOpcode::LLVMGetElementPtr => {
                let n = LLVMGetNumOperands(v) as u32;
                if (1..n).any(|k| ir::const_u64(ir::raw_operand(v, k)) != Some(0)) {
                    return false;
                }
                v = LLVMGetOperand(v, 0);
            }
            LLVMOpcode::LLVMAlloca => {
                let kind = LLVMGetTypeKind(LLVMGetAllocatedType(v));
                return ir::const_u64(ir::raw_operand(v, 0)).is_some()
                    && matches!(
                        kind,
                        LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMStructTypeKind
                    );
            }
            _ => return false,
        }
    }
}

/// The InlineParams threshold for one call site (see [`threshold`]).
///
/// # Safety
/// `call` is a live call instruction inside a function.
#[no_mangle]
pub unsafe extern "C" fn nvopt_inline_threshold(call: LLVMValueRef, llvm_multiplier: u32) -> i32 {
    let s = site(call);
    let t = threshold(s, Params::from_knobs(&Knobs::current()), llvm_multiplier);
    crate::stats::add(PASS, "call sites judged", 1);
    if s.in_kernel {
        crate::stats::add(PASS, "call sites in kernels (kernel bonus)", 1);
    }
    if s.aggregate_args > 0 {
        crate::stats::add(
            PASS,
            "private-aggregate arguments (argument bonus)",
            u64::from(s.aggregate_args),
        );
    }
    log::debug!("{PASS}: {} -> threshold {t}", ir::name(LLVMGetCalledValue(call)));
    t
}
