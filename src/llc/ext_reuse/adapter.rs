//! nv-ext-reuse on a function: indexes every 32-bit value by the ScalarEvolution expressions of
//! its zero and sign extensions, looks up each 64-bit expression there, asks
//! [`super::choose`] and builds the chosen extension. The C++ wrappers
//! (src/llc/ext_reuse/ext_reuse.cpp) call [`nvopt_ext_reuse_run`] with the function, its LoopInfo,
//! ScalarEvolution, DominatorTree and OptimizationRemarkEmitter.
use super::{choose, Candidate, NARROW_BITS, PASS, WIDE_BITS};
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::{self, loops};
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::values::InstructionValue;
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;
use std::ffi::{c_void, CStr, CString};

const REMARK_PASS: &CStr = c"nv-ext-reuse";

extern "C" {
    fn nvopt_scev_expr(se: *mut c_void, v: LLVMValueRef, has_add_rec: *mut bool) -> usize;
    fn nvopt_scev_extended(se: *mut c_void, v: LLVMValueRef, bits: u32, signed: bool) -> usize;
    fn nvopt_dt_dominates_value(dt: *const c_void, def: LLVMValueRef, user: LLVMValueRef) -> bool;
}

/// A 32-bit value and whether its sign (not zero) extension is the one indexed.
type Narrow = (LLVMValueRef, bool);

/// The opcodes of the 64-bit instructions the pass may replace.
fn replaceable(op: LLVMOpcode) -> bool {
    use LLVMOpcode::*;
    matches!(op, LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMOr)
}

/// The function's 32-bit arguments and instructions, in program order.
///
/// # Safety
/// `f` is a live function.
unsafe fn narrow_values(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let args = (0..LLVMCountParams(f)).map(|k| LLVMGetParam(f, k));
    args.chain(ir::function_raw_instructions(f))
        .filter(|&v| ir::int_width(v) == Some(NARROW_BITS))
        .collect()
}

/// Every 32-bit value by the expressions of its zero and sign extensions to 64 bits.
///
/// # Safety
/// `f` is a live function and `se` its live `llvm::ScalarEvolution`.
unsafe fn index(f: LLVMValueRef, se: *mut c_void) -> HashMap<usize, Vec<Narrow>> {
    let mut by_expr: HashMap<usize, Vec<Narrow>> = HashMap::default();
    for v in narrow_values(f) {
        for signed in [false, true] {
            let key = nvopt_scev_extended(se, v, WIDE_BITS, signed);
            let list = by_expr.entry(key).or_default();
            // Both extensions of a value known non-negative are one expression: index it once.
            if list.last().map(|&(w, _)| w) != Some(v) {
                list.push((v, signed));
            }
        }
    }
    by_expr
}

/// How `narrow` stands as a replacement of `wide`.
///
/// # Safety
/// Both are live values of the function of `li` and `dt`; `wide` is an instruction.
unsafe fn candidate(
    narrow: LLVMValueRef,
    wide: LLVMValueRef,
    li: *const c_void,
    dt: *const c_void,
) -> Candidate {
    let home = ir::block_of(narrow).and_then(|bb| loops::loop_for(li, bb));
    let use_block = ir::block_of(wide).expect("an instruction has a block");
    Candidate {
        dominates: nvopt_dt_dominates_value(dt, narrow, wide),
        loop_holds_use: home.is_none_or(|l| l.contains(use_block)),
    }
}

/// Builds the extension of `narrow` right before `wide` and makes every use of `wide` use it.
///
/// # Safety
/// `wide` is a live 64-bit instruction and `narrow` a 32-bit value that dominates it.
unsafe fn rebuild(wide: LLVMValueRef, (narrow, signed): Narrow, remarks: &Remarks) {
    let f = ir::function(LLVMGetBasicBlockParent(LLVMGetInstructionParent(wide)));
    let builder = ir::builder(f);
    let b = builder.as_mut_ptr();
    LLVMPositionBuilderBefore(b, wide);
    LLVMSetCurrentDebugLocation2(b, llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(wide));
    let name = CString::new(format!("{}.ext", ir::name(narrow))).expect("no NUL in a name");
    let ty = LLVMTypeOf(wide);
    let ext = if signed {
        LLVMBuildSExt(b, narrow, ty, name.as_ptr())
    } else {
        LLVMBuildZExt(b, narrow, ty, name.as_ptr())
    };
    if remarks.enabled() {
        let kind: &[u8] = if signed { b"sign" } else { b"zero" };
        let what = format!(
            "64-bit {} replaced by the {} extension of the 32-bit %{} (ScalarEvolution: the same value)",
            CStr::from_ptr(crate::analysis::ir::facts::opcode_name(InstructionValue::new(wide)).as_ptr())
                .to_string_lossy(),
            String::from_utf8_lossy(kind),
            ir::name(narrow)
        );
        remarks.emit(
            REMARK_PASS,
            c"Reused",
            InstructionValue::new(wide),
            &[RemarkArg::text(what.as_bytes())],
        );
    }
    LLVMReplaceAllUsesWith(wide, ext);
}

/// Entry point from the C++ wrappers; whether the function changed.
///
/// # Safety
/// `f` is a live function; `li`, `se`, `dt` and `ore` its live LoopInfo, ScalarEvolution,
/// DominatorTree and OptimizationRemarkEmitter.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ext_reuse_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
    dt: *const c_void,
    ore: *mut c_void,
) -> bool {
    if Knobs::current().nv_disable_ext_reuse() {
        return false;
    }
    let wides: Vec<LLVMValueRef> = ir::function_raw_instructions(f)
        .into_iter()
        .filter(|&i| {
            ir::int_width(i) == Some(WIDE_BITS) && ir::binary_opcode(i).is_some_and(replaceable)
        })
        .collect();
    if wides.is_empty() {
        return false;
    }
    let by_expr = index(f, se);
    let remarks = Remarks::from_raw(ore);
    let mut replaced = Vec::new();
    for wide in wides {
        let mut has_add_rec = false;
        let expr = nvopt_scev_expr(se, wide, &mut has_add_rec);
        if has_add_rec {
            continue;
        }
        let narrows = by_expr.get(&expr).map(Vec::as_slice).unwrap_or(&[]);
        let candidates: Vec<Candidate> =
            narrows.iter().map(|&(v, _)| candidate(v, wide, li, dt)).collect();
        match choose(&candidates) {
            Ok(k) => {
                rebuild(wide, narrows[k], &remarks);
                replaced.push(wide);
                crate::stats::add(PASS, "64-bit values rebuilt as an extension", 1);
            }
            // Most 64-bit values have no 32-bit twin at all: only the near misses are counted.
            Err(super::Refusal::NoNarrowValue) => {}
            Err(r) => crate::stats::add(PASS, r.counter(), 1),
        }
    }
    crate::analysis::ir::facts::delete_dead_all(&replaced);
    !replaced.is_empty()
}
