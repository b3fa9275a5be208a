//! `nv-set-local-array-alignment`: the private-array half of the array-alignment passes (the
//! rule, refusals and knobs are in the module header, src/opt/array_alignment/mod.rs). A function
//! pass: each `alloca` of an array or struct type, or of a constant count above one, is an
//! array; static ones (a constant count, in the entry block) are raised by the rule.
use super::{alignment_for, bound, is_aggregate, offset_alignment, raise, remark, Decision, Kept};
use crate::analysis::ir::facts::{operand_text, Remarks};
use crate::analysis::ir::{self, alloc_size};
use crate::knobs::Knobs;
use inkwell::values::InstructionOpcode;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMTargetDataRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// Widest store the zeroing of a raised array is split into: NVPTX's 16-byte vector access.
pub const MAX_ZERO_STORE_BYTES: u64 = 16;

/// How a zeroing `memset` of a whole raised array of `elem_bytes`-byte elements is stored
/// instead: (vector lanes, store count), stores of `lanes` elements each as wide as `align`
/// allows up to [`MAX_ZERO_STORE_BYTES`]; `None` when the element is not 4 or 8 bytes or the
/// size is not a multiple of one store.
pub fn zero_stores(size: u64, align: u64, elem_bytes: u64) -> Option<(u64, u64)> {
    if !matches!(elem_bytes, 4 | 8) {
        return None;
    }
    let width = align.min(MAX_ZERO_STORE_BYTES).max(elem_bytes);
    if size == 0 || size % width != 0 || width % elem_bytes != 0 {
        return None;
    }
    Some((width / elem_bytes, size / width))
}

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
        if let Decision::Raise { from, to } = d {
            log::debug!("{PASS}: {}: {size} bytes, align {from} -> {to}", ir::name(raw));
            raise(td, PASS, raw, to);
            let split = split_zeroing(td, raw, to);
            crate::stats::add(PASS, "zeroing memsets stored by element", split);
            changed = true;
        }
        if remarks.enabled() {
            remark(b"private array ", &what, &size, a.align, d, |name, missed, args| {
                let pass = c"nv-set-local-array-alignment";
                if missed {
                    remarks.emit_missed(pass, name, i, args)
                } else {
                    remarks.emit(pass, name, i, args)
                }
            });
        }
    }
    changed
}

/// The scalar element type of an array `alloca` (`[N x float]`, `[N x i32]`, ...), if any.
///
/// # Safety
/// `alloca` is a live alloca.
unsafe fn element_type(alloca: LLVMValueRef) -> Option<LLVMTypeRef> {
    let ty = LLVMGetAllocatedType(alloca);
    if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMArrayTypeKind {
        return None;
    }
    let elem = LLVMGetElementType(ty);
    matches!(
        LLVMGetTypeKind(elem),
        LLVMTypeKind::LLVMFloatTypeKind
            | LLVMTypeKind::LLVMDoubleTypeKind
            | LLVMTypeKind::LLVMIntegerTypeKind
    )
    .then_some(elem)
}

/// The pointers that are `alloca` itself, through address-space casts and bitcasts.
fn same_address(alloca: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = vec![alloca];
    let mut k = 0;
    while k < out.len() {
        for u in ir::users(out[k]).collect::<Vec<_>>() {
            if ir::is(u, LLVMOpcode::LLVMAddrSpaceCast) || ir::is(u, LLVMOpcode::LLVMBitCast) {
                out.push(u);
            }
        }
        k += 1;
    }
    out
}

/// A call `llvm.memset.*(ptr, i8 0, len, false)` whose destination is `ptr`: its length.
///
/// # Safety
/// `call` is a live instruction.
unsafe fn zeroing_memset_len(call: LLVMValueRef, ptr: LLVMValueRef) -> Option<u64> {
    if !ir::is(call, LLVMOpcode::LLVMCall) || LLVMGetNumArgOperands(call) != 4 {
        return None;
    }
    let name = ir::callee_name(call);
    let zero_fill = ir::const_u64(LLVMGetOperand(call, 1)) == Some(0);
    let volatile = ir::const_u64(LLVMGetOperand(call, 3)) != Some(0);
    if !name.starts_with("llvm.memset.") || LLVMGetOperand(call, 0) != ptr || !zero_fill || volatile
    {
        return None;
    }
    ir::const_u64(LLVMGetOperand(call, 2))
}

/// Replaces each `memset(array, 0, size)` of the whole raised array by stores of zero vectors of
/// its element type (`<4 x float> zeroinitializer` for `float[8]` at align 16), the accesses
/// nvcc's PTX has. Left as a memset, NVPTX lowers it by the new alignment into 8-byte stores,
/// and ptxas keeps an array with 8-byte and 4-byte accesses in local memory where it would
/// otherwise put it in registers (llm.c's softmax_autoregressive_backward_kernel4: a 32-byte
/// frame, nvcc and upstream none). All-zero bytes are the zero of every float and integer
/// type, so the stores write the same bytes. How many memsets it replaced.
fn split_zeroing(td: LLVMTargetDataRef, alloca: LLVMValueRef, align: u64) -> u64 {
    // SAFETY: a live alloca of a live function; the builder is disposed before returning.
    unsafe {
        let Some(elem) = element_type(alloca) else { return 0 };
        let size = alloc_size(td, LLVMGetAllocatedType(alloca));
        let Some((lanes, count)) = zero_stores(size, align, alloc_size(td, elem)) else {
            return 0;
        };
        let ctx = LLVMGetTypeContext(elem);
        let vty = LLVMVectorType(elem, lanes as u32);
        let i8t = LLVMInt8TypeInContext(ctx);
        let i64t = LLVMInt64TypeInContext(ctx);
        let builder = LLVMCreateBuilderInContext(ctx);
        let mut replaced = 0;
        for ptr in same_address(alloca) {
            for call in ir::users(ptr).collect::<Vec<_>>() {
                if zeroing_memset_len(call, ptr) != Some(size) {
                    continue;
                }
                LLVMPositionBuilderBefore(builder, call);
                for k in 0..count {
                    let off = k * lanes * alloc_size(td, elem);
                    let mut idx = [LLVMConstInt(i64t, off, 0)];
                    let at = if off == 0 {
                        ptr
                    } else {
                        LLVMBuildInBoundsGEP2(builder, i8t, ptr, idx.as_mut_ptr(), 1, c"".as_ptr())
                    };
                    let st = LLVMBuildStore(builder, LLVMConstNull(vty), at);
                    LLVMSetAlignment(st, offset_alignment(align, off as i64) as u32);
                }
                LLVMInstructionEraseFromParent(call);
                replaced += 1;
            }
        }
        LLVMDisposeBuilder(builder);
        replaced
    }
}

/// Runs `nv-set-local-array-alignment` on one function (called by the pass plumbing in
/// src/opt/array_alignment/array_alignment.cpp); whether it changed the IR.
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
    fn zeroing_is_stored_in_vectors_of_the_element_as_wide_as_the_alignment() {
        assert_eq!(zero_stores(32, 16, 4), Some((4, 2)));
        assert_eq!(zero_stores(24, 8, 4), Some((2, 3)));
        assert_eq!(zero_stores(64, 16, 8), Some((2, 4)));
        assert_eq!(zero_stores(16, 4, 4), Some((1, 4)));
        assert_eq!(zero_stores(32, 16, 2), None, "half or short elements are left to LLVM");
        assert_eq!(zero_stores(24, 16, 4), None, "not a whole number of 16-byte stores");
    }

    #[test]
    fn scalars_are_not_arrays() {
        let scalar = Alloca { array: false, ..array(8, 8) };
        assert_eq!(decide(&scalar, 16), None);
    }
}
