//! The IR facts, edits and analysis queries that LLVM's C API lacks, from the generic exports of
//! src/analysis/ir/facts.cpp, wrapped for the passes written in Rust: instruction facts
//! (`mayReadOrWriteMemory`, `mayHaveSideEffects`, opcode name), a value's operand text, moving
//! an instruction after another, the DominatorTree and the OptimizationRemarkEmitter that a C++
//! pass wrapper obtained and passed on as opaque pointers (module passes, which have none, emit
//! remarks about a function itself through [`remark_function`], or about one of its
//! instructions through [`remark_instruction`]).
use inkwell::basic_block::BasicBlock;
use inkwell::values::{AsValueRef, InstructionValue};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use std::ffi::{c_char, c_void, CStr};
use std::marker::PhantomData;

use crate::ffi::NvStr;

/// One piece of a remark (layout mirrored by `NvRemarkArg` in src/analysis/ir/facts.cpp): a plain
/// string when `key` is empty, else a named argument (`ore::NV(key, value)`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct RemarkArg<'a> {
    pub(crate) key: NvStr,
    pub(crate) value: NvStr,
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
    fn nvopt_dt_update_dfs(dt: *mut c_void);
    fn nvopt_dt_dfs(
        dt: *const c_void,
        bb: LLVMBasicBlockRef,
        dfs_in: *mut u32,
        dfs_out: *mut u32,
        level: *mut u32,
    );
    fn nvopt_ir_delete_dead_all(vs: *const LLVMValueRef, n: usize);
    fn nvopt_ir_delete_dead_phis(bb: LLVMBasicBlockRef);
    fn nvopt_remark_loop(
        ore: *mut c_void,
        pass: *const c_char,
        name: *const c_char,
        l: *const c_void,
        args: *const RemarkArg,
        n_args: usize,
    );
    fn nvopt_remarks_enabled(ore: *mut c_void) -> bool;
    fn nvopt_remarks_enabled_for(f: LLVMValueRef) -> bool;
    fn nvopt_remark_function(
        pass: *const c_char,
        name: *const c_char,
        missed: bool,
        f: LLVMValueRef,
        args: *const RemarkArg,
        n_args: usize,
    );
    fn nvopt_remark_instruction(
        pass: *const c_char,
        name: *const c_char,
        missed: bool,
        at: LLVMValueRef,
        args: *const RemarkArg,
        n_args: usize,
    );
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

    /// Numbers the tree in DFS order (`DominatorTree::updateDFSNumbers`) for [`Self::dfs`].
    pub fn update_dfs(&self) {
        // SAFETY: a live tree; renumbering does not change what it answers.
        unsafe { nvopt_dt_update_dfs(self.raw as *mut c_void) }
    }

    /// A reachable block's DFS numbers (in, out) and its depth below the entry, after
    /// [`Self::update_dfs`].
    pub fn dfs(&self, bb: BasicBlock) -> (u32, u32, u32) {
        let (mut i, mut o, mut l) = (0, 0, 0);
        // SAFETY: a live tree and a reachable block of its function.
        unsafe { nvopt_dt_dfs(self.raw, bb.as_mut_ptr(), &mut i, &mut o, &mut l) };
        (i, o, l)
    }

    /// Whether the CFG edge `from -> to` dominates `bb`.
    pub fn edge_dominates(&self, from: BasicBlock, to: BasicBlock, bb: BasicBlock) -> bool {
        // SAFETY: as for reachable.
        unsafe {
            nvopt_dt_edge_dominates(self.raw, from.as_mut_ptr(), to.as_mut_ptr(), bb.as_mut_ptr())
        }
    }
}

/// Deletes, in order, each of `vs` that is still a trivially dead instruction, with the
/// operands that die with it (values an earlier deletion removed are skipped).
pub fn delete_dead_all(vs: &[LLVMValueRef]) {
    // SAFETY: live values; the shim holds them as weak handles before deleting any.
    unsafe { nvopt_ir_delete_dead_all(vs.as_ptr(), vs.len()) }
}

/// Deletes the PHIs of `bb` that are dead or only feed themselves (`RecursivelyDeleteDeadPHINode`).
pub fn delete_dead_phis(bb: BasicBlock) {
    // SAFETY: a live block.
    unsafe { nvopt_ir_delete_dead_phis(bb.as_mut_ptr()) }
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

    /// Emits `OptimizationRemark(pass, name, loop start, header) << args...` about loop `l`.
    pub fn emit_loop(
        &self,
        pass: &CStr,
        name: &CStr,
        l: crate::analysis::ir::loops::Loop,
        args: &[RemarkArg],
    ) {
        // SAFETY: a live emitter, a loop of its function, args alive for the call.
        unsafe {
            nvopt_remark_loop(
                self.raw,
                pass.as_ptr(),
                name.as_ptr(),
                l.as_raw(),
                args.as_ptr(),
                args.len(),
            )
        }
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

/// Whether any remark is enabled in the context of function `f`: module passes, which get no
/// emitter from their wrapper, build a remark's texts only then.
pub fn remarks_enabled_for(f: LLVMValueRef) -> bool {
    // SAFETY: callers pass a live function.
    unsafe { nvopt_remarks_enabled_for(f) }
}

/// Emits `OptimizationRemark(pass, name, f) << args...` (`OptimizationRemarkMissed` when
/// `missed`) about function `f` itself, for module passes.
pub fn remark_function(
    pass: &CStr,
    name: &CStr,
    missed: bool,
    f: LLVMValueRef,
    args: &[RemarkArg],
) {
    // SAFETY: a live function definition; pass and name are static; args alive for the call.
    unsafe {
        nvopt_remark_function(pass.as_ptr(), name.as_ptr(), missed, f, args.as_ptr(), args.len())
    }
}

/// Emits a remark of one plain text about function `f` itself, as [`remark_function`] does,
/// building the text only when a remark is enabled for `f` (the machine passes' summaries).
pub fn remark_function_text(
    pass: &CStr,
    name: &CStr,
    missed: bool,
    f: LLVMValueRef,
    text: impl FnOnce() -> String,
) {
    if remarks_enabled_for(f) {
        let text = text();
        remark_function(pass, name, missed, f, &[RemarkArg::text(text.as_bytes())]);
    }
}

/// Emits `OptimizationRemark(pass, name, at) << args...` (`OptimizationRemarkMissed` when
/// `missed`) about instruction `at`, for module passes (check [`remarks_enabled_for`] on its
/// function before building the texts).
pub fn remark_instruction(
    pass: &CStr,
    name: &CStr,
    missed: bool,
    at: LLVMValueRef,
    args: &[RemarkArg],
) {
    // SAFETY: a live instruction in a function; pass and name are static; args alive for the call.
    unsafe {
        nvopt_remark_instruction(
            pass.as_ptr(),
            name.as_ptr(),
            missed,
            at,
            args.as_ptr(),
            args.len(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remark_arg_layout_is_two_strings() {
        // NvRemarkArg in src/analysis/ir/facts.cpp: two NvStr { const char *, size_t }.
        assert_eq!(std::mem::size_of::<RemarkArg>(), 4 * std::mem::size_of::<usize>());
        assert_eq!(RemarkArg::text(b"x").key.len, 0);
    }
}
