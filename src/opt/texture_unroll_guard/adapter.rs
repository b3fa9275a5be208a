//! `nv-texture-unroll-guard`'s IR adapter: reads each innermost loop of one function into the
//! rule's [`LoopFacts`] (its loops through src/analysis/ir/loops.rs), runs [`judge`], adds
//! `llvm.loop.unroll.disable` to the loops it marks, and reports each decision as a remark and
//! in the statistics. The C++ pass wrapper (src/shim/unroll_marks.cpp) calls
//! [`nvopt_texture_unroll_guard_run`] with the function, its LoopInfo, ScalarEvolution and
//! OptimizationRemarkEmitter.
//!
//! A fetch operand is hoistable ([`Hoist::invariant`]) when it is a constant or argument, an
//! instruction outside the enclosing loop `P`, a header PHI of the loop `L` itself whose
//! incoming values are hoistable (the PHI counts as hoistable along its own back edge), or an
//! instruction of `P` that neither touches memory nor has side effects whose operands are
//! hoistable. Anything else (another PHI of `P`, a load, a call with effects) is not.
use super::{judge, LoopFacts, Params, Verdict, PASS};
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::ir::{self, block_of};
use crate::analysis::search_budgets::TEXTURE_GUARD_MAX_DEPTH;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::values::InstructionValue;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::ffi::{c_void, CStr, CString};

const REMARK_PASS: &CStr = c"nv-texture-unroll-guard";
const UNROLL_DISABLE: &CStr = c"llvm.loop.unroll.disable";
/// NVVM intrinsics that fetch from a texture (read-only for the kernel's whole run).
const FETCH_INTRINSICS: &[&str] = &["llvm.nvvm.tex.", "llvm.nvvm.tld4."];
/// PTX instructions that fetch from a texture, as inline asm begins with them (clang's
/// `__clang_cuda_texture_intrinsics.h`).
const FETCH_ASM: &[&str] = &["tex.", "tld4."];

/// Bits of one PTX register as the estimate counts them.
const REGISTER_BITS: u64 = 32;

/// Whether `call` fetches from a texture.
fn is_fetch(call: LLVMValueRef) -> bool {
    // SAFETY: a live call instruction.
    let callee = unsafe { LLVMGetCalledValue(call) };
    if callee.is_null() {
        return false;
    }
    // SAFETY: a live callee value.
    unsafe {
        if !LLVMIsAInlineAsm(callee).is_null() {
            let mut len = 0;
            let p = LLVMGetInlineAsmAsmString(callee, &mut len);
            let text = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len));
            let text = text.trim_start();
            return FETCH_ASM.iter().any(|f| text.starts_with(f));
        }
        if LLVMIsAFunction(callee).is_null() {
            return false;
        }
    }
    let name = ir::name(callee);
    FETCH_INTRINSICS.iter().any(|f| name.starts_with(f))
}

/// 32-bit registers a value of type `t` occupies: structs add their fields, vectors and arrays
/// multiply, a scalar takes its bits rounded up to whole registers.
///
/// # Safety
/// `t` is a live type.
unsafe fn registers(t: LLVMTypeRef) -> u64 {
    match LLVMGetTypeKind(t) {
        LLVMTypeKind::LLVMVoidTypeKind => 0,
        LLVMTypeKind::LLVMStructTypeKind => (0..LLVMCountStructElementTypes(t))
            .map(|k| registers(LLVMStructGetTypeAtIndex(t, k)))
            .fold(0u64, u64::saturating_add),
        LLVMTypeKind::LLVMVectorTypeKind => {
            u64::from(LLVMGetVectorSize(t)).saturating_mul(registers(LLVMGetElementType(t)))
        }
        LLVMTypeKind::LLVMArrayTypeKind => {
            LLVMGetArrayLength2(t).saturating_mul(registers(LLVMGetElementType(t)))
        }
        LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => 1,
        LLVMTypeKind::LLVMFloatTypeKind => 1,
        LLVMTypeKind::LLVMDoubleTypeKind | LLVMTypeKind::LLVMPointerTypeKind => 2,
        LLVMTypeKind::LLVMIntegerTypeKind => {
            u64::from(LLVMGetIntTypeWidth(t)).div_ceil(REGISTER_BITS)
        }
        _ => 1,
    }
}

/// The hoistability walk of one loop `l` inside `p`.
struct Hoist {
    l: Loop,
    p: Loop,
    memo: HashMap<LLVMValueRef, bool>,
}

impl Hoist {
    fn invariant(&mut self, v: LLVMValueRef, depth: u32) -> bool {
        let Some(bb) = block_of(v) else { return true };
        if !self.p.contains(bb) {
            return true;
        }
        if let Some(&r) = self.memo.get(&v) {
            return r;
        }
        if depth >= TEXTURE_GUARD_MAX_DEPTH {
            return false;
        }
        // SAFETY: a live instruction of the function.
        let i = unsafe { InstructionValue::new(v) };
        // SAFETY: as above.
        let opcode = unsafe { LLVMGetInstructionOpcode(v) };
        let n = unsafe { LLVMGetNumOperands(v) } as u32;
        if opcode == LLVMOpcode::LLVMPHI {
            if bb != self.l.header() {
                self.memo.insert(v, false);
                return false;
            }
            // Provisionally hoistable along its own recurrence; a failure clears what was
            // concluded under that assumption.
            self.memo.insert(v, true);
            let ok = (0..n).all(|k| self.invariant(ir::raw_operand(v, k), depth + 1));
            if !ok {
                self.memo.clear();
                self.memo.insert(v, false);
            }
            return ok;
        }
        let pure = !matches!(opcode, LLVMOpcode::LLVMAlloca | LLVMOpcode::LLVMCall)
            && !crate::analysis::ir::facts::may_read_or_write_memory(i)
            && !crate::analysis::ir::facts::may_have_side_effects(i);
        let ok = pure && (0..n).all(|k| self.invariant(ir::raw_operand(v, k), depth + 1));
        self.memo.insert(v, ok);
        ok
    }
}

/// One innermost loop read for the rule, with its first hoistable fetch (the remarks' place).
struct Read {
    lp: Loop,
    facts: LoopFacts,
    first_fetch: Option<LLVMValueRef>,
}

/// # Safety
/// `li`, `se` are the live LoopInfo and ScalarEvolution of `f`.
unsafe fn read(f: inkwell::values::FunctionValue, li: *const c_void, se: *mut c_void) -> Vec<Read> {
    let all = loops::preorder(li);
    let mut out = Vec::new();
    for &l in &all {
        if all.iter().any(|&m| m.parent() == Some(l)) {
            continue; // not innermost
        }
        let mut facts = LoopFacts {
            nested: l.parent().is_some(),
            trip_count: None,
            user_pragma: l.unroll_decided(),
            hoistable_regs: 0,
        };
        let mut first_fetch = None;
        let mut hoist = l.parent().map(|p| Hoist { l, p, memo: HashMap::default() });
        for bb in f.get_basic_blocks() {
            if !l.contains(bb.as_mut_ptr()) {
                continue;
            }
            for i in ir::instructions(bb) {
                let v = ir::raw(i);
                if LLVMIsACallInst(v).is_null() || !is_fetch(v) {
                    continue;
                }
                let hoistable = match hoist.as_mut() {
                    // The callee is the last operand; the others are the fetch's operands.
                    Some(h) => {
                        let n = LLVMGetNumArgOperands(v);
                        (0..n).all(|k| h.invariant(ir::raw_operand(v, k), 0))
                    }
                    // Outermost: counted so that the refusal is reported.
                    None => true,
                };
                if hoistable {
                    facts.hoistable_regs =
                        facts.hoistable_regs.saturating_add(registers(LLVMTypeOf(v)));
                    first_fetch.get_or_insert(v);
                }
            }
        }
        if facts.hoistable_regs > 0 {
            facts.trip_count = l.constant_trip_count(se).map(u64::from);
            out.push(Read { lp: l, facts, first_fetch });
        }
    }
    out
}

fn record(verdicts: &[Verdict], marked: u64) {
    let stat = |what: &'static str, f: fn(&Verdict) -> bool| {
        crate::stats::add_matching(PASS, what, verdicts, f)
    };
    crate::stats::add_nonzero(PASS, "loops marked llvm.loop.unroll.disable", marked);
    stat("loops with hoistable texture fetches left to ptxas: they fit the target", |v| {
        matches!(v, Verdict::Fits { .. })
    });
    stat(
        "loops with hoistable texture fetches left to ptxas: no constant trip count in range",
        |v| matches!(v, Verdict::NoTripCount | Verdict::TripOutOfRange { .. }),
    );
    stat("loops with texture fetches left to ptxas: no enclosing loop", |v| {
        matches!(v, Verdict::Outermost)
    });
    stat("loops with hoistable texture fetches left to ptxas: the user's unroll pragma", |v| {
        matches!(v, Verdict::UserPragma)
    });
}

fn remark(remarks: &Remarks, r: &Read, verdict: &Verdict) {
    if !remarks.enabled() {
        return;
    }
    let text = match verdict {
        Verdict::NoFetches => return,
        Verdict::Disable { trip, hoisted, target } => {
            let text = CString::new(format!(
                "marked llvm.loop.unroll.disable: ptxas would unroll its {trip} iterations and \
                 hoist {hoisted} registers of texture fetches out of the enclosing loop \
                 (target {target})"
            ))
            .expect("no NUL in a remark");
            remarks.emit_loop(REMARK_PASS, c"NoUnroll", r.lp, &[RemarkArg::text(text.as_bytes())]);
            return;
        }
        Verdict::Fits { trip, hoisted, target } => format!(
            "loop left to ptxas: its {trip} iterations' hoistable texture fetches need \
             {hoisted} registers, within the target {target}"
        ),
        Verdict::Outermost => {
            "loop left to ptxas: no enclosing loop to hoist fetches out of".into()
        }
        Verdict::NoTripCount => "loop left to ptxas: no constant trip count".into(),
        Verdict::TripOutOfRange { trip } => {
            format!("loop left to ptxas: trip count {trip} outside the guard's range")
        }
        Verdict::UserPragma => "loop left to ptxas: the user's unroll pragma".into(),
    };
    let Some(at) = r.first_fetch else { return };
    let text = CString::new(text).expect("no NUL in a remark");
    // SAFETY: a live instruction of the function.
    let at = unsafe { InstructionValue::new(at) };
    remarks.emit_missed(REMARK_PASS, c"LeftToPtxas", at, &[RemarkArg::text(text.as_bytes())]);
}

/// Runs `nv-texture-unroll-guard` on one function; whether it changed the IR (loop metadata).
///
/// # Safety
/// `f` is a live function definition; `li`, `se` and `ore` its live `llvm::LoopInfo*`,
/// `llvm::ScalarEvolution*` and `llvm::OptimizationRemarkEmitter*`, all outliving the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_texture_unroll_guard_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
    ore: *mut c_void,
) -> bool {
    let f = ir::function(f);
    let reads = read(f, li, se);
    if reads.is_empty() {
        return false;
    }
    let knobs = Knobs::current();
    let params = Params {
        max_trip: knobs.nv_texture_unroll_guard_max_trip().max(0) as u64,
        target: u64::from(crate::analysis::pressure::target::for_function(f, &knobs).regs),
    };
    let remarks = Remarks::from_raw(ore);
    let verdicts: Vec<Verdict> = reads.iter().map(|r| judge(&r.facts, &params)).collect();
    let mut marked = 0;
    for (r, v) in reads.iter().zip(&verdicts) {
        remark(&remarks, r, v);
        if matches!(v, Verdict::Disable { .. }) && !r.lp.has_property(UNROLL_DISABLE) {
            r.lp.add_property(UNROLL_DISABLE);
            marked += 1;
        }
    }
    record(&verdicts, marked);
    log::debug!("{PASS}: {}: {:?}", f.get_name().to_string_lossy(), verdicts);
    marked > 0
}
