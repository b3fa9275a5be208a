//! `nv-lower-struct-args`: nvopt's pass in the `nv:lower-struct-args` slot (cicc's
//! LowerStructArgs). A kernel's by-value struct parameter (`ptr byval(%T)`) that the kernel
//! writes is copied into a private `alloca` at the kernel's entry, so that the SROA and
//! instcombine right after the slot can keep the copy in registers; every other by-value
//! parameter is left to llc's own `nvptx-lower-args`, which turns reads into `ld.param`.
//!
//! Why not upstream's `nvptx-lower-args` in this slot: llc's NVPTX back end runs
//! NVPTXLowerArgs on every kernel at every level, and that pass is not idempotent. Its first
//! run (in opt) leaves `@llvm.nvvm.internal.addrspace.wrap.p101.p0(ptr %arg)`, the "already in
//! param space" view of the argument; its second run (in llc) takes that call for an escaping
//! use of `%arg` and replaces every use of `%arg`, the first run's wrap operand included, by
//! its own local copy (written parameters) or by a generic `cvta.param` pointer (read-only
//! ones, which count as `__grid_constant__` once `function-attrs` marks them `readonly
//! captures(none)`). The first run's param-space loads then read through a stack or generic
//! address (`ld.param.b32 %r, [%SP+32]`): ptxas accepts the PTX and the kernel computes with
//! garbage (CUB's DeviceReduceKernel and DeviceScanKernel, which advance a by-value argument).
//! What this pass leaves behind is a form the second run handles as its own input: the
//! argument's only use is the source of one `memcpy`, or the argument is untouched.
//!
//! ```text
//! ; before                                           ; after nv-lower-struct-args
//! define ptx_kernel void @k(ptr byval(%W) align 4 %w, define ptx_kernel void @k(ptr byval(%W) align 4 %w,
//!                           ptr %x, i32 %n) {                                   ptr %x, i32 %n) {
//!                                                      %w.copy = alloca %W, align 4
//!                                                      call void @llvm.memcpy.p0.p0.i64(ptr align 4 %w.copy,
//!                                                                  ptr align 4 %w, i64 36, i1 false)
//!   %f = getelementptr inbounds i8, ptr %w, i64 32     %f = getelementptr inbounds i8, ptr %w.copy, i64 32
//!   store i32 %h, ptr %f                               store i32 %h, ptr %f
//! ```
//!
//! The rule mirrors the decision of llc's pass (its `ArgUseChecker`): the uses of the argument
//! are followed through `getelementptr`, `bitcast`, `addrspacecast` to the param space, `phi`
//! and `select`; a `store`, `atomicrmw` or `cmpxchg` through the pointer, or a `memset`,
//! `memcpy` or `memmove` into it, is a write; storing the pointer itself, `ptrtoint`, a cast to
//! another space and passing it to a call are escapes; loads, `icmp`, the source of a
//! `memcpy`/`memmove` and lifetime markers are reads. A parameter with a write is copied unless
//! it is marked `nvvm.grid_constant` (writing one is undefined behaviour). A parameter that only
//! escapes is left to llc, which knows whether it may pass a `cvta.param` pointer instead of a
//! copy; copying it here could only add a frame. Like the upstream pass run in opt did before,
//! pointers loaded from a by-value parameter, and integers loaded from one or passed as kernel
//! arguments that are only used by `inttoptr`, are marked as global pointers (an
//! `addrspacecast` to `addrspace(1)` and back), which llc's pass also does, so that the
//! optimizer's `infer-address-spaces` sees them as global already.
//!
//! Refused (left to llc): device functions (only kernels have by-value parameters in param
//! space), modules other than NVPTX, and every parameter the rule above does not copy. Knob:
//! `nv-disable-lower-args` (skip the slot). Counters under `-nv-stats`; a remark per copied
//! parameter (`-pass-remarks=nv-lower-struct-args`) and per parameter left to llc, with the
//! reason (`-pass-remarks-missed=nv-lower-struct-args`).
use crate::analysis::gpu::{addrspace, PTX_KERNEL_CC};
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::{self};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBuilderRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::{LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMPreferredAlignmentOfType};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

pub const PASS: &str = "nv-lower-struct-args";

/// The string attribute clang gives a `__grid_constant__` parameter.
pub const GRID_CONSTANT_ATTR: &str = "nvvm.grid_constant";

/// How one use of a pointer derived from a by-value parameter uses it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseKind {
    /// Reads through the pointer, compares it or marks a lifetime: no copy needed.
    Read,
    /// A pointer derived from it: its uses are followed.
    Follow,
    /// Writes memory through the pointer.
    Write,
    /// The address leaves what the walk can follow (stored, converted, passed to a call).
    Escape,
}

/// What a memory intrinsic (by name) does with its pointer operand `operand`.
pub fn intrinsic_use(callee: &str, operand: u32) -> UseKind {
    let transfer = ["llvm.memcpy.", "llvm.memmove.", "llvm.memcpy.inline."];
    if transfer.iter().any(|p| callee.starts_with(p)) {
        return if operand == 0 { UseKind::Write } else { UseKind::Read };
    }
    if callee.starts_with("llvm.memset.") {
        return if operand == 0 { UseKind::Write } else { UseKind::Escape };
    }
    if callee.starts_with("llvm.lifetime.") {
        return UseKind::Read;
    }
    UseKind::Escape
}

/// What the use walk found for one by-value parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArgUses {
    pub uses: u64,
    pub writes: bool,
    pub escapes: bool,
}

/// The decision for one by-value kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Copy it into a private `alloca` here.
    Copy,
    /// Leave it to llc's `nvptx-lower-args`, for this reason.
    Leave(Left),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// Never used.
    Unused,
    /// Only read: llc reads it with `ld.param`.
    ReadOnly,
    /// Its address escapes but nothing writes through it here: llc decides between a
    /// `cvta.param` pointer and a copy.
    EscapesOnly,
    /// Marked `__grid_constant__`: writing it is undefined behaviour, llc never copies it.
    GridConstant,
}

pub fn decide(u: &ArgUses, grid_constant: bool) -> Decision {
    match (u.uses, u.writes, u.escapes) {
        (0, _, _) => Decision::Leave(Left::Unused),
        (_, true, _) if grid_constant => Decision::Leave(Left::GridConstant),
        (_, true, _) => Decision::Copy,
        (_, false, true) => Decision::Leave(Left::EscapesOnly),
        _ => Decision::Leave(Left::ReadOnly),
    }
}

fn reason(l: Left) -> &'static str {
    match l {
        Left::Unused => "unused",
        Left::ReadOnly => "only read (llc reads it in param space)",
        Left::EscapesOnly => "its address escapes but nothing here writes it (llc decides)",
        Left::GridConstant => "__grid_constant__",
    }
}

fn counter(d: Decision) -> &'static str {
    match d {
        Decision::Copy => "by-value parameters copied",
        Decision::Leave(Left::Unused) => "by-value parameters left to llc (unused)",
        Decision::Leave(Left::ReadOnly) => "by-value parameters left to llc (read only)",
        Decision::Leave(Left::EscapesOnly) => "by-value parameters left to llc (escape only)",
        Decision::Leave(Left::GridConstant) => "by-value parameters left to llc (grid constant)",
    }
}

/// How `user` uses `ptr`, its operand `operand`.
///
/// # Safety
/// `user` is a live instruction with `ptr` as operand `operand`.
unsafe fn use_kind(user: LLVMValueRef, operand: u32) -> UseKind {
    use LLVMOpcode::*;
    if LLVMIsAInstruction(user).is_null() {
        return UseKind::Escape;
    }
    match LLVMGetInstructionOpcode(user) {
        LLVMLoad | LLVMICmp => UseKind::Read,
        LLVMGetElementPtr if operand == 0 => UseKind::Follow,
        LLVMBitCast | LLVMPHI => UseKind::Follow,
        LLVMSelect if operand > 0 => UseKind::Follow,
        LLVMAddrSpaceCast => {
            if LLVMGetPointerAddressSpace(LLVMTypeOf(user)) == addrspace::PARAM {
                UseKind::Follow
            } else {
                UseKind::Escape
            }
        }
        LLVMStore => {
            if operand == 1 {
                UseKind::Write
            } else {
                UseKind::Escape
            }
        }
        LLVMAtomicRMW | LLVMAtomicCmpXchg => {
            if operand == 0 {
                UseKind::Write
            } else {
                UseKind::Escape
            }
        }
        LLVMCall => {
            let callee = ir::callee_name(user);
            let args = LLVMGetNumArgOperands(user);
            if operand >= args || !callee.starts_with("llvm.") {
                UseKind::Escape
            } else {
                intrinsic_use(&callee, operand)
            }
        }
        _ => UseKind::Escape,
    }
}

/// Walks every use of `arg` (through the pointers derived from it): what it found, and the
/// loads of pointers and integers from it that llc's pass would mark as global (reached through
/// `getelementptr` and casts only, as `getUnderlyingObject` finds them).
fn walk(arg: LLVMValueRef) -> (ArgUses, Vec<LLVMValueRef>) {
    let mut found = ArgUses::default();
    let mut loads = Vec::new();
    // (pointer, reached through getelementptr and casts only)
    let mut work = vec![(arg, true)];
    let mut seen = vec![arg];
    while let Some((ptr, direct)) = work.pop() {
        for (user, operand) in ir::uses(ptr).collect::<Vec<_>>() {
            found.uses += 1;
            // SAFETY: a live user of a live value, `ptr` its operand `operand`.
            match unsafe { use_kind(user, operand) } {
                UseKind::Read => {
                    if direct && ir::is(user, LLVMOpcode::LLVMLoad) {
                        loads.push(user);
                    }
                }
                UseKind::Write => found.writes = true,
                UseKind::Escape => found.escapes = true,
                UseKind::Follow => {
                    if !seen.contains(&user) {
                        seen.push(user);
                        let through_cast = !ir::is(user, LLVMOpcode::LLVMPHI)
                            && !ir::is(user, LLVMOpcode::LLVMSelect);
                        work.push((user, direct && through_cast));
                    }
                }
            }
        }
    }
    (found, loads)
}

/// The attribute index of parameter `k`.
fn param_index(k: u32) -> u32 {
    k + 1
}

/// The type a `byval` parameter carries and its alignment (the parameter's `align`, else the
/// type's preferred one).
///
/// # Safety
/// `f` is a live function and `k` one of its parameters.
unsafe fn byval_type(f: LLVMValueRef, k: u32) -> Option<(LLVMTypeRef, u32)> {
    let byval = LLVMGetEnumAttributeAtIndex(f, param_index(k), ir::attribute_kind(c"byval"));
    if byval.is_null() {
        return None;
    }
    let ty = LLVMGetTypeAttributeValue(byval);
    let align = LLVMGetEnumAttributeAtIndex(f, param_index(k), ir::attribute_kind(c"align"));
    let td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(f));
    let align = if align.is_null() {
        LLVMPreferredAlignmentOfType(td, ty)
    } else {
        LLVMGetEnumAttributeValue(align) as u32
    };
    Some((ty, align.max(1)))
}

/// Whether parameter `k` of `f` carries `nvvm.grid_constant`.
///
/// # Safety
/// As for [`byval_type`].
unsafe fn grid_constant(f: LLVMValueRef, k: u32) -> bool {
    let key = GRID_CONSTANT_ATTR;
    !LLVMGetStringAttributeAtIndex(f, param_index(k), key.as_ptr().cast(), key.len() as u32)
        .is_null()
}

/// Copies by-value parameter `arg` (type `ty`, alignment `align`) into an `alloca` at the
/// entry: every use of `arg` then reads the copy, which one `memcpy` from `arg` fills.
///
/// # Safety
/// `arg` is a `byval` parameter of the live kernel `f`; `b` a builder of its context.
unsafe fn copy(
    f: LLVMValueRef,
    b: LLVMBuilderRef,
    arg: LLVMValueRef,
    ty: LLVMTypeRef,
    align: u32,
) -> bool {
    let Some(at) = ir::first_insertion_point(LLVMGetEntryBasicBlock(f)) else { return false };
    LLVMPositionBuilderBefore(b, at);
    let td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(f));
    let name = format!("{}.copy\0", ir::name(arg));
    let alloca = LLVMBuildAlloca(b, ty, name.as_ptr().cast());
    LLVMSetAlignment(alloca, align);
    let ctx = LLVMGetTypeContext(ty);
    let size = LLVMConstInt(LLVMInt64TypeInContext(ctx), LLVMABISizeOfType(td, ty), 0);
    let memcpy = LLVMBuildMemCpy(b, alloca, align, arg, align, size);
    LLVMReplaceAllUsesWith(arg, alloca);
    // The memcpy's source operand was `arg` and is now the alloca: give it back.
    LLVMSetOperand(memcpy, 1, arg);
    true
}

/// Runs the pass on one function; whether it changed the IR.
fn run(f: LLVMValueRef, remarks: &Remarks) -> bool {
    // SAFETY: a live function definition of a live module; every edit below keeps it valid.
    unsafe {
        if LLVMGetFunctionCallConv(f) != PTX_KERNEL_CC {
            return false;
        }
        let b = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(f)));
        let mut changed = false;
        let mut marked = 0;
        let params = LLVMCountParams(f);
        // First the global marks (llc's pass makes them before it copies anything, so loads
        // reached from the parameter itself are the ones marked).
        let mut plan = Vec::new();
        for k in 0..params {
            let arg = LLVMGetParam(f, k);
            match byval_type(f, k) {
                Some((ty, align)) => {
                    let (uses, loads) = walk(arg);
                    for ld in loads {
                        for p in ir::generic_pointers_of(ld) {
                            marked += u64::from(ir::mark_global(f, b, p));
                        }
                    }
                    plan.push((k, arg, ty, align, uses));
                }
                None => {
                    if LLVMGetTypeKind(LLVMTypeOf(arg)) == LLVMTypeKind::LLVMIntegerTypeKind {
                        for p in ir::generic_pointers_of(arg) {
                            marked += u64::from(ir::mark_global(f, b, p));
                        }
                    }
                }
            }
        }
        changed |= marked > 0;
        crate::stats::add_nonzero(PASS, "pointers marked global", marked);
        for (k, arg, ty, align, uses) in plan {
            let d = decide(&uses, grid_constant(f, k));
            crate::stats::add(PASS, counter(d), 1);
            let copied = d == Decision::Copy && copy(f, b, arg, ty, align);
            changed |= copied;
            if remarks.enabled() {
                let at = ir::function_instructions(ir::function(f)).next();
                let what = format!("parameter {k} ({})", ir::name(arg));
                if let Some(at) = at {
                    match d {
                        Decision::Copy => remarks.emit(
                            c"nv-lower-struct-args",
                            c"Copied",
                            at,
                            &[
                                RemarkArg::text(b"by-value "),
                                RemarkArg::named("Param", what.as_bytes()),
                                RemarkArg::text(b" is written: copied to a private alloca"),
                            ],
                        ),
                        Decision::Leave(l) => remarks.emit_missed(
                            c"nv-lower-struct-args",
                            c"Left",
                            at,
                            &[
                                RemarkArg::text(b"by-value "),
                                RemarkArg::named("Param", what.as_bytes()),
                                RemarkArg::text(b" left to llc: "),
                                RemarkArg::named("Reason", reason(l).as_bytes()),
                            ],
                        ),
                    }
                }
            }
        }
        LLVMDisposeBuilder(b);
        changed
    }
}

/// Runs `nv-lower-struct-args` on one function (called by the pass plumbing in
/// src/opt/lower_struct_args.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_lower_struct_args_run(
    f: LLVMValueRef,
    ore: *mut std::ffi::c_void,
) -> bool {
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(f)));
    if !triple.to_bytes().starts_with(b"nvptx") {
        return false;
    }
    run(f, &Remarks::from_raw(ore))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uses(uses: u64, writes: bool, escapes: bool) -> ArgUses {
        ArgUses { uses, writes, escapes }
    }

    #[test]
    fn written_parameters_are_copied() {
        assert_eq!(decide(&uses(3, true, false), false), Decision::Copy);
        assert_eq!(decide(&uses(3, true, true), false), Decision::Copy);
    }

    #[test]
    fn the_rest_is_left_to_llc() {
        assert_eq!(decide(&uses(0, false, false), false), Decision::Leave(Left::Unused));
        assert_eq!(decide(&uses(2, false, false), false), Decision::Leave(Left::ReadOnly));
        assert_eq!(decide(&uses(2, false, true), false), Decision::Leave(Left::EscapesOnly));
        assert_eq!(decide(&uses(2, true, false), true), Decision::Leave(Left::GridConstant));
    }

    #[test]
    fn memory_intrinsics() {
        assert_eq!(intrinsic_use("llvm.memcpy.p0.p0.i64", 0), UseKind::Write);
        assert_eq!(intrinsic_use("llvm.memcpy.p0.p0.i64", 1), UseKind::Read);
        assert_eq!(intrinsic_use("llvm.memmove.p0.p0.i64", 1), UseKind::Read);
        assert_eq!(intrinsic_use("llvm.memcpy.inline.p0.p0.i64", 0), UseKind::Write);
        assert_eq!(intrinsic_use("llvm.memset.p0.i64", 0), UseKind::Write);
        assert_eq!(intrinsic_use("llvm.lifetime.start.p0", 0), UseKind::Read);
        assert_eq!(intrinsic_use("llvm.nvvm.internal.addrspace.wrap.p101.p0", 0), UseKind::Escape);
        assert_eq!(intrinsic_use("llvm.prefetch.p0", 0), UseKind::Escape);
    }
}
