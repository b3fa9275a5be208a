//! Borrowed views of LLVM IR for the passes written in Rust (DESIGN.md "Dependencies": inkwell
//! 0.11 over llvm-sys 221, linked against the same libLLVM-22 as opt, llc and clang).
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

use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMTypeKind;

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
