//! Borrowed views of LLVM IR for the passes written in Rust (DESIGN.md "Dependencies": inkwell
//! 0.11 over llvm-sys 221, linked against the same libLLVM-22 as opt, llc and clang).
//!
//! The C++ pass wrappers hand Rust raw `LLVMValueRef`s of the function they run on. inkwell's
//! `Module` and `Context` dispose what they wrap when dropped, so this module never builds one
//! from a borrowed handle: it works from `FunctionValue`, `BasicBlock` and `InstructionValue`,
//! which do not own, and from `ContextRef`, which does not dispose. A `Builder` made here is
//! owned by Rust and disposed when dropped, which is right.
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::prelude::LLVMValueRef;

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
