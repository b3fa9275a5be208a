//! The IR facts, edits and analysis queries that LLVM's C API lacks, from the generic exports of
//! src/shim/ir_facts.cpp, wrapped for the passes written in Rust: instruction facts
//! (`mayReadOrWriteMemory`, `mayHaveSideEffects`, opcode name), a value's operand text, moving
//! an instruction after another, the DominatorTree and the OptimizationRemarkEmitter that a C++
//! pass wrapper obtained and passed on as opaque pointers.
use inkwell::basic_block::BasicBlock;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use std::ffi::{c_char, c_void, CStr};
use std::marker::PhantomData;

/// Bytes and length (src/shim/ffi.h `NvStr`).
#[repr(C)]
#[derive(Clone, Copy)]
struct NvStr {
    ptr: *const u8,
    len: usize,
}

impl NvStr {
    fn new(b: &[u8]) -> Self {
        NvStr { ptr: b.as_ptr(), len: b.len() }
    }
}

/// One piece of a remark (layout mirrored by `NvRemarkArg` in src/shim/ir_facts.cpp): a plain
/// string when `key` is empty, else a named argument (`ore::NV(key, value)`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct RemarkArg<'a> {
    key: NvStr,
    value: NvStr,
    _bytes: PhantomData<&'a [u8]>,
}

impl<'a> RemarkArg<'a> {
    /// A plain string.
    pub fn text(value: &'a [u8]) -> Self {
        RemarkArg { key: NvStr::new(b""), value: NvStr::new(value), _bytes: PhantomData }
    }

    /// A named argument; `key` is not empty.
    pub fn named(key: &'a str, value: &'a [u8]) -> Self {
        debug_assert!(!key.is_empty());
        RemarkArg { key: NvStr::new(key.as_bytes()), value: NvStr::new(value), _bytes: PhantomData }
    }
}

extern "C" {
    fn nvopt_ir_may_read_or_write_memory(i: LLVMValueRef) -> bool;
    fn nvopt_ir_may_have_side_effects(i: LLVMValueRef) -> bool;
    fn nvopt_ir_opcode_name(i: LLVMValueRef) -> *const c_char;
    fn nvopt_ir_operand_text(v: LLVMValueRef) -> *mut c_char;
    fn nvopt_ir_move_after(i: LLVMValueRef, after: LLVMValueRef);
    fn nvopt_dt_reachable(dt: *const c_void, bb: LLVMBasicBlockRef) -> bool;
    fn nvopt_dt_idom(dt: *const c_void, bb: LLVMBasicBlockRef) -> LLVMBasicBlockRef;
    fn nvopt_dt_edge_dominates(
        dt: *const c_void,
        from: LLVMBasicBlockRef,
        to: LLVMBasicBlockRef,
        bb: LLVMBasicBlockRef,
    ) -> bool;
    fn nvopt_remarks_enabled(ore: *mut c_void) -> bool;
    fn nvopt_remark(
        ore: *mut c_void,
        pass: *const c_char,
        name: *const c_char,
        at: LLVMValueRef,
        args: *const RemarkArg,
        n_args: usize,
    );
    fn nvopt_remark_missed(
        ore: *mut c_void,
        pass: *const c_char,
        name: *const c_char,
        at: LLVMValueRef,
        args: *const RemarkArg,
        n_args: usize,
    );
}

/// `Instruction::mayReadOrWriteMemory`.
pub fn may_read_or_write_memory(i: InstructionValue) -> bool {
    // SAFETY: a live instruction.
    unsafe { nvopt_ir_may_read_or_write_memory(i.as_value_ref()) }
}

/// `Instruction::mayHaveSideEffects`.
pub fn may_have_side_effects(i: InstructionValue) -> bool {
    // SAFETY: a live instruction.
    unsafe { nvopt_ir_may_have_side_effects(i.as_value_ref()) }
}

/// The opcode's name as IR prints it (`add`, `icmp`).
pub fn opcode_name(i: InstructionValue) -> &'static CStr {
    // SAFETY: a live instruction; LLVM's opcode names are static strings.
    unsafe { CStr::from_ptr(nvopt_ir_opcode_name(i.as_value_ref())) }
}

/// The value printed as an operand without its type (`%12`, `%n`, `0`): `printAsOperand`.
///
/// # Safety
/// `v` is a live value.
pub unsafe fn operand_text(v: LLVMValueRef) -> Vec<u8> {
    let p = nvopt_ir_operand_text(v);
    let text = CStr::from_ptr(p).to_bytes().to_vec();
    llvm_sys::core::LLVMDisposeMessage(p);
    text
}

/// Moves `i` to just after `after` (`Instruction::moveAfter`).
pub fn move_after(i: InstructionValue, after: InstructionValue) {
    // SAFETY: two live instructions of one function.
    unsafe { nvopt_ir_move_after(i.as_value_ref(), after.as_value_ref()) }
}

/// The dominator tree of the function a pass wrapper runs on, borrowed for the call.
#[derive(Clone, Copy)]
pub struct DomTree<'a> {
    raw: *const c_void,
    _tree: PhantomData<&'a ()>,
}

impl<'a> DomTree<'a> {
    /// # Safety
    /// `raw` is a live `llvm::DominatorTree*`, valid and current for `'a`.
    pub unsafe fn from_raw(raw: *const c_void) -> Self {
        DomTree { raw, _tree: PhantomData }
    }

    /// `DominatorTree::isReachableFromEntry`.
    pub fn reachable(&self, bb: BasicBlock) -> bool {
        // SAFETY: a live tree and a block of its function.
        unsafe { nvopt_dt_reachable(self.raw, bb.as_mut_ptr()) }
    }

    /// The immediate dominator; `None` for the entry block and unreachable blocks.
    pub fn idom<'ctx>(&self, bb: BasicBlock<'ctx>) -> Option<BasicBlock<'ctx>> {
        // SAFETY: as for reachable; the result is null or a block of the same function.
        unsafe { BasicBlock::new(nvopt_dt_idom(self.raw, bb.as_mut_ptr())) }
    }

    /// Whether the CFG edge `from -> to` dominates `bb`.
    pub fn edge_dominates(&self, from: BasicBlock, to: BasicBlock, bb: BasicBlock) -> bool {
        // SAFETY: as for reachable.
        unsafe {
            nvopt_dt_edge_dominates(self.raw, from.as_mut_ptr(), to.as_mut_ptr(), bb.as_mut_ptr())
        }
    }
}

/// The optimization remark emitter of the function a pass wrapper runs on.
#[derive(Clone, Copy)]
pub struct Remarks<'a> {
    raw: *mut c_void,
    _emitter: PhantomData<&'a mut ()>,
}

impl<'a> Remarks<'a> {
    /// # Safety
    /// `raw` is a live `llvm::OptimizationRemarkEmitter*` for `'a`.
    pub unsafe fn from_raw(raw: *mut c_void) -> Self {
        Remarks { raw, _emitter: PhantomData }
    }

    /// Whether any remark is enabled; build a remark's texts only then.
    pub fn enabled(&self) -> bool {
        // SAFETY: a live emitter.
        unsafe { nvopt_remarks_enabled(self.raw) }
    }

    /// Emits `OptimizationRemark(pass, name, at) << args...`.
    pub fn emit(&self, pass: &CStr, name: &CStr, at: InstructionValue, args: &[RemarkArg]) {
        // SAFETY: a live emitter, an instruction of its function, args alive for the call.
        unsafe {
            nvopt_remark(
                self.raw,
                pass.as_ptr(),
                name.as_ptr(),
                at.as_value_ref(),
                args.as_ptr(),
                args.len(),
            )
        }
    }

    /// Emits `OptimizationRemarkMissed(pass, name, at) << args...`.
    pub fn emit_missed(&self, pass: &CStr, name: &CStr, at: InstructionValue, args: &[RemarkArg]) {
        // SAFETY: as for emit.
        unsafe {
            nvopt_remark_missed(
                self.raw,
                pass.as_ptr(),
                name.as_ptr(),
                at.as_value_ref(),
                args.as_ptr(),
                args.len(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remark_arg_layout_is_two_strings() {
        // NvRemarkArg in src/shim/ir_facts.cpp: two NvStr { const char *, size_t }.
        assert_eq!(std::mem::size_of::<RemarkArg>(), 4 * std::mem::size_of::<usize>());
        assert_eq!(RemarkArg::text(b"x").key.len, 0);
    }
}
