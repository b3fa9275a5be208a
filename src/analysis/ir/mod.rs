//! Borrowed views of LLVM IR for the passes written in Rust (docs/ARCHITECTURE.md "Dependencies":
//! inkwell 0.11 over llvm-sys 221, linked against the same libLLVM-22 as opt, llc and clang).
//!
//! The C++ pass wrappers hand Rust raw `LLVMValueRef`s of the function they run on. inkwell's
//! `Module` and `Context` dispose what they wrap when dropped, so this module never builds one
//! from a borrowed handle: it works from `FunctionValue`, `BasicBlock` and `InstructionValue`,
//! which do not own, and from `ContextRef`, which does not dispose. A `Builder` made here is
//! owned by Rust and disposed when dropped, which is right.
//!
//! Operands are read as raw handles ([`operand`]): inkwell's `get_operand` converts each to a
//! `BasicValueEnum` or `BasicBlock` and does not take every kind of value. What neither inkwell
//! nor llvm-sys offers (instruction facts, moving an instruction, the DominatorTree, remarks)
//! comes from the generic C++ exports wrapped in [`facts`].
pub mod facts;
pub mod loops;

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMBuilderRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::{LLVMABISizeOfType, LLVMOffsetOfElement, LLVMTargetDataRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// The function a C++ wrapper passed as a raw handle.
///
/// # Safety
/// `raw` must be a live `llvm::Function` that outlives every value derived from it.
pub unsafe fn function<'ctx>(raw: LLVMValueRef) -> FunctionValue<'ctx> {
    FunctionValue::new(raw).expect("the pass wrapper passed a function")
}

/// The context a function lives in, borrowed (not disposed when dropped).
pub fn context<'ctx>(f: FunctionValue<'ctx>) -> ContextRef<'ctx> {
    f.get_type().get_context()
}

/// A builder in the function's context; positioned by the caller.
pub fn builder<'ctx>(f: FunctionValue<'ctx>) -> Builder<'ctx> {
    context(f).create_builder()
}

/// Every instruction of a block, in order.
pub fn instructions<'ctx>(bb: BasicBlock<'ctx>) -> impl Iterator<Item = InstructionValue<'ctx>> {
    std::iter::successors(bb.get_first_instruction(), |i| i.get_next_instruction())
}

/// The kind id of the enum attribute `name` (`convergent`, `byval`; LLVMGetEnumAttributeKindForName).
pub fn attribute_kind(name: &std::ffi::CStr) -> u32 {
    // SAFETY: a NUL-terminated name and its length.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr(), name.to_bytes().len()) }
}

/// The functions of a module (definitions and declarations), in module order.
pub fn module_functions(m: llvm_sys::prelude::LLVMModuleRef) -> Vec<LLVMValueRef> {
    // SAFETY: a live module's function list, read before callers change anything.
    unsafe {
        let mut out = Vec::new();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            out.push(f);
            f = LLVMGetNextFunction(f);
        }
        out
    }
}

/// Every instruction of a function, block by block, in order (raw values; for the inkwell
/// view, [`function_instructions`]).
pub fn function_raw_instructions(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    for bb in function_blocks(f) {
        // SAFETY: a live block's instruction list.
        unsafe {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                out.push(i);
                i = LLVMGetNextInstruction(i);
            }
        }
    }
    out
}

/// The blocks of a function, in order.
pub fn function_blocks(f: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    // SAFETY: a live function's block list.
    unsafe {
        let mut out = Vec::new();
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
        out
    }
}

/// Every instruction of a function, block by block.
pub fn function_instructions<'ctx>(
    f: FunctionValue<'ctx>,
) -> impl Iterator<Item = InstructionValue<'ctx>> {
    f.get_basic_block_iter().flat_map(instructions)
}

/// The raw handle of a value, for the few calls inkwell lacks (llvm-sys).
pub fn raw(v: impl AsValueRef) -> LLVMValueRef {
    v.as_value_ref()
}

/// A block from a raw handle.
///
/// # Safety
/// `raw` is a live, non-null basic block.
pub unsafe fn block<'ctx>(raw: LLVMBasicBlockRef) -> BasicBlock<'ctx> {
    BasicBlock::new(raw).expect("a basic block")
}

/// Operand `k` of an instruction, raw (`User::getOperand`); `k` below `i.get_num_operands()` (a PHI's
/// operands are its incoming values).
pub fn operand(i: InstructionValue, k: u32) -> LLVMValueRef {
    // SAFETY: a live instruction; the caller keeps k in range.
    unsafe { llvm_sys::core::LLVMGetOperand(i.as_value_ref(), k) }
}

/// The successors of a terminator, in order (`successors(BB)`).
pub fn successors<'ctx>(term: InstructionValue<'ctx>) -> impl Iterator<Item = BasicBlock<'ctx>> {
    let raw = term.as_value_ref();
    // SAFETY: a live terminator; its successors are blocks of the same function.
    let n = unsafe { llvm_sys::core::LLVMGetNumSuccessors(raw) };
    (0..n).map(move |k| unsafe { block(llvm_sys::core::LLVMGetSuccessor(raw, k)) })
}

/// Incoming block `k` of a PHI.
pub fn incoming_block<'ctx>(phi: InstructionValue<'ctx>, k: u32) -> BasicBlock<'ctx> {
    // SAFETY: a live PHI; the caller keeps k below its incoming count.
    unsafe { block(llvm_sys::core::LLVMGetIncomingBlock(phi.as_value_ref(), k)) }
}

/// The kind of a value's type.
///
/// # Safety
/// `v` is a live value.
pub unsafe fn type_kind(v: LLVMValueRef) -> LLVMTypeKind {
    llvm_sys::core::LLVMGetTypeKind(llvm_sys::core::LLVMTypeOf(v))
}

/// The block an instruction is in; `None` for any other value.
pub fn block_of(v: LLVMValueRef) -> Option<LLVMBasicBlockRef> {
    // SAFETY: v is a live value (every LLVMValueRef this crate holds is).
    unsafe { (!LLVMIsAInstruction(v).is_null()).then(|| LLVMGetInstructionParent(v)) }
}

/// The opcode of a binary operator instruction (add, shl, …); `None` for any other value.
pub fn binary_opcode(v: LLVMValueRef) -> Option<LLVMOpcode> {
    // SAFETY: as for block_of.
    unsafe { (!LLVMIsABinaryOperator(v).is_null()).then(|| LLVMGetInstructionOpcode(v)) }
}

/// Operand `i` of any user, as a raw handle (see [`operand`] for an instruction's).
pub fn raw_operand(v: LLVMValueRef, i: u32) -> LLVMValueRef {
    // SAFETY: callers pass an operand number below the user's operand count.
    unsafe { LLVMGetOperand(v, i) }
}

/// Whether an instruction carries `nsw` (false for one that cannot).
pub fn nsw(v: LLVMValueRef) -> bool {
    // SAFETY: LLVMGetNSW answers false for instructions without the flag.
    unsafe { LLVMGetNSW(v) != 0 }
}

/// The bit width of an integer-typed value; `None` for other types.
pub fn int_width(v: LLVMValueRef) -> Option<u32> {
    // SAFETY: as for block_of.
    unsafe {
        let ty = LLVMTypeOf(v);
        (LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMIntegerTypeKind).then(|| LLVMGetIntTypeWidth(ty))
    }
}

/// The zero-extended value of an integer constant of at most 64 bits.
pub fn const_u64(v: LLVMValueRef) -> Option<u64> {
    // SAFETY: as for block_of; the width check keeps LLVMConstIntGetZExtValue exact.
    unsafe {
        (!LLVMIsAConstantInt(v).is_null() && int_width(v).is_some_and(|w| w <= 64))
            .then(|| LLVMConstIntGetZExtValue(v))
    }
}

/// The sign-extended value of a scalar integer constant of at most 64 bits.
pub fn const_i64(v: LLVMValueRef) -> Option<i64> {
    // SAFETY: a live value; the width check keeps LLVMConstIntGetSExtValue exact.
    unsafe {
        (!LLVMIsAConstantInt(v).is_null() && int_width(v).is_some_and(|w| w <= 64))
            .then(|| LLVMConstIntGetSExtValue(v))
    }
}

/// A type's allocation size in bytes (`DataLayout::getTypeAllocSize`).
pub fn alloc_size(td: LLVMTargetDataRef, ty: LLVMTypeRef) -> u64 {
    // SAFETY: a live data layout and a sized type.
    unsafe { LLVMABISizeOfType(td, ty) }
}

/// The constant byte offset a GEP (instruction or constant expression) adds to its pointer,
/// `None` when an index is not a constant, it indexes into a vector, or the sum overflows.
pub fn gep_offset(td: LLVMTargetDataRef, gep: LLVMValueRef) -> Option<i64> {
    // SAFETY: a live GEP; its operands 1.. are the indices, its source element type is sized.
    unsafe {
        if LLVMGetTypeKind(LLVMTypeOf(gep)) != LLVMTypeKind::LLVMPointerTypeKind {
            return None;
        }
        let mut ty = LLVMGetGEPSourceElementType(gep);
        let mut off: i64 = 0;
        for k in 1..LLVMGetNumOperands(gep) as u32 {
            let c = const_i64(LLVMGetOperand(gep, k))?;
            let add = if k == 1 {
                c.checked_mul(i64::try_from(alloc_size(td, ty)).ok()?)?
            } else {
                match LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        let field = u32::try_from(c).ok()?;
                        let at = LLVMOffsetOfElement(td, ty, field);
                        ty = LLVMStructGetTypeAtIndex(ty, field);
                        i64::try_from(at).ok()?
                    }
                    LLVMTypeKind::LLVMArrayTypeKind => {
                        ty = LLVMGetElementType(ty);
                        c.checked_mul(i64::try_from(alloc_size(td, ty)).ok()?)?
                    }
                    _ => return None,
                }
            };
            off = off.checked_add(add)?;
        }
        Some(off)
    }
}

/// The users of a value (one entry per use).
pub fn users(v: LLVMValueRef) -> impl Iterator<Item = LLVMValueRef> {
    uses(v).map(|(user, _)| user)
}

/// Whether an instruction is of the given opcode.
pub fn is(v: LLVMValueRef, op: LLVMOpcode) -> bool {
    // SAFETY: as for block_of.
    unsafe { !LLVMIsAInstruction(v).is_null() && LLVMGetInstructionOpcode(v) == op }
}

/// Whether `op` computes an address from the pointer in its first operand without leaving
/// that pointer's object: `getelementptr`, `bitcast`, `addrspacecast`.
pub fn is_address_step(op: LLVMOpcode) -> bool {
    matches!(
        op,
        LLVMOpcode::LLVMGetElementPtr | LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast
    )
}

/// The pointer an address step (`is_address_step`, instruction or constant expression)
/// computes `v` from; None when `v` is anything else. The walks back from an address
/// (nv-const-pointers, nv-phi-load-spaces) take one step at a time with it.
///
/// # Safety
/// `v` is a live value.
pub unsafe fn address_step_source(v: LLVMValueRef) -> Option<LLVMValueRef> {
    let op = if !LLVMIsAInstruction(v).is_null() {
        LLVMGetInstructionOpcode(v)
    } else if !LLVMIsAConstantExpr(v).is_null() {
        LLVMGetConstOpcode(v)
    } else {
        return None;
    };
    is_address_step(op).then(|| LLVMGetOperand(v, 0))
}

/// A value's name ("" when it has none).
pub fn name(v: LLVMValueRef) -> String {
    let mut len = 0;
    // SAFETY: LLVM returns a pointer to `len` bytes owned by the value.
    unsafe {
        let p = LLVMGetValueName2(v, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
    }
}

/// The name of the function a call calls directly ("" for an indirect call or inline asm).
pub fn callee_name(call: LLVMValueRef) -> String {
    // SAFETY: a live call instruction; its called operand is a live value.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return String::new();
        }
        name(callee)
    }
}

extern "C" {
    fn nvopt_ir_insertion_point_after_def(
        i: LLVMValueRef,
        before_records: *mut bool,
    ) -> LLVMValueRef;
    fn nvopt_ir_delete_dead(v: LLVMValueRef);
    fn nvopt_ir_first_insertion_pt(bb: LLVMBasicBlockRef) -> LLVMValueRef;
}

/// Where code using an instruction's result can go (src/analysis/ir/facts.cpp): the instruction to
/// insert before, and whether the position is also before that instruction's debug records.
/// `None` where no such place exists.
pub fn insertion_point_after_def(i: LLVMValueRef) -> Option<(LLVMValueRef, bool)> {
    let mut before_records = false;
    // SAFETY: i is a live instruction.
    let at = unsafe { nvopt_ir_insertion_point_after_def(i, &mut before_records) };
    (!at.is_null()).then_some((at, before_records))
}

/// Deletes `v` when it is a trivially dead instruction, with the operands that die with it.
pub fn delete_dead(v: LLVMValueRef) {
    // SAFETY: v is a live value; the shim checks that it is a dead instruction.
    unsafe { nvopt_ir_delete_dead(v) }
}

/// The first place in a block where a non-PHI instruction can go (before the debug records
/// there): the instruction to insert before; `None` where there is none (a catchswitch block).
pub fn first_insertion_point(bb: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    // SAFETY: bb is a live block.
    let at = unsafe { nvopt_ir_first_insertion_pt(bb) };
    (!at.is_null()).then_some(at)
}

/// The uses of a value as (user, operand number) pairs.
pub fn uses(v: LLVMValueRef) -> impl Iterator<Item = (LLVMValueRef, u32)> {
    // SAFETY: the use list is walked while the IR is not changed (callers collect first).
    let first = unsafe { LLVMGetFirstUse(v) };
    std::iter::successors((!first.is_null()).then_some(first), |&u| {
        let next = unsafe { LLVMGetNextUse(u) };
        (!next.is_null()).then_some(next)
    })
    .map(|u| unsafe {
        let user = LLVMGetUser(u);
        let n = LLVMGetNumOperands(user) as u32;
        (user, (0..n).find(|&i| LLVMGetOperandUse(user, i as _) == u).expect("a use is an operand"))
    })
}

/// Marks a generic pointer as pointing to global memory: `%g = addrspacecast ptr %p to ptr
/// addrspace(1)` and `%p.gen = addrspacecast ptr addrspace(1) %g to ptr` right after its
/// definition (at the entry for an argument), every other use of `%p` then reading `%p.gen`.
/// Whether it did (a pointer already marked so is left alone).
///
/// # Safety
/// `p` is a live generic pointer of function `f`; `b` a builder of its context.
pub unsafe fn mark_global(f: LLVMValueRef, b: LLVMBuilderRef, p: LLVMValueRef) -> bool {
    let users: Vec<_> = users(p).collect();
    let global_cast = |u: LLVMValueRef| {
        is(u, LLVMOpcode::LLVMAddrSpaceCast)
            && LLVMGetPointerAddressSpace(LLVMTypeOf(u)) == crate::analysis::gpu::addrspace::GLOBAL
    };
    if users.is_empty() || users.iter().all(|&u| global_cast(u)) {
        return false;
    }
    let at = if LLVMIsAArgument(p).is_null() {
        insertion_point_after_def(p).map(|(at, _)| at)
    } else {
        first_insertion_point(LLVMGetEntryBasicBlock(f))
    };
    let Some(at) = at else { return false };
    LLVMPositionBuilderBefore(b, at);
    let ctx = LLVMGetTypeContext(LLVMTypeOf(p));
    let global = LLVMBuildAddrSpaceCast(
        b,
        p,
        LLVMPointerTypeInContext(ctx, crate::analysis::gpu::addrspace::GLOBAL),
        c"".as_ptr(),
    );
    let generic = LLVMBuildAddrSpaceCast(b, global, LLVMTypeOf(p), c"".as_ptr());
    LLVMReplaceAllUsesWith(p, generic);
    LLVMSetOperand(global, 0, p);
    true
}

/// The generic pointers a loaded or passed value stands for: the value itself when it is a
/// generic pointer, the `inttoptr`s of an integer whose every user is one (the two kinds of
/// values llc's `nvptx-lower-args` marks as global), else none.
///
/// # Safety
/// `v` is a live value.
pub unsafe fn generic_pointers_of(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let ty = LLVMTypeOf(v);
    match LLVMGetTypeKind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind if LLVMGetPointerAddressSpace(ty) == 0 => vec![v],
        LLVMTypeKind::LLVMIntegerTypeKind => {
            let users: Vec<_> = users(v).collect();
            if !users.is_empty() && users.iter().all(|&u| is(u, LLVMOpcode::LLVMIntToPtr)) {
                users
                    .into_iter()
                    .filter(|&u| LLVMGetPointerAddressSpace(LLVMTypeOf(u)) == 0)
                    .collect()
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_steps() {
        assert!(is_address_step(LLVMOpcode::LLVMGetElementPtr));
        assert!(is_address_step(LLVMOpcode::LLVMAddrSpaceCast));
        assert!(!is_address_step(LLVMOpcode::LLVMLoad));
        assert!(!is_address_step(LLVMOpcode::LLVMSelect));
    }
}
