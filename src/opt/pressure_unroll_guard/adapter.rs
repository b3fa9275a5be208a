//! `nv-pressure-unroll-guard`'s IR adapter: reads each innermost loop of one function into the
//! rule's [`LoopFacts`] (its loops through src/analysis/ir/loops.rs, its pressure through src/analysis/pressure),
//! runs [`judge`], adds `llvm.loop.unroll.disable` to the loops it marks, and reports each
//! decision as a remark and in the statistics. The C++ pass wrapper (src/shim/unroll_marks.cpp)
//! calls [`nvopt_pressure_unroll_guard_run`] with the function, its LoopInfo, ScalarEvolution
//! and OptimizationRemarkEmitter.
use super::{judge, LoopFacts, Params, Verdict, PASS};
use crate::analysis::ir;
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::pressure::target::Source;
use crate::analysis::search_budgets::PRESSURE_GUARD_MAX_DEPTH;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;
use llvm_sys::LLVMOpcode;
use std::ffi::{c_void, CStr, CString};

const REMARK_PASS: &CStr = c"nv-pressure-unroll-guard";
const UNROLL_DISABLE: &CStr = c"llvm.loop.unroll.disable";

/// One innermost loop read for the rule.
struct Read {
    lp: Loop,
    facts: LoopFacts,
}

/// Registers the loads of loop `l` produce in one iteration.
///
/// # Safety
/// `f` is a live function containing `l`.
unsafe fn loaded_registers(f: FunctionValue, l: Loop) -> u64 {
    let module = LLVMGetGlobalParent(f.as_value_ref());
    let mut regs = 0u64;
    for bb in f.get_basic_blocks() {
        if !l.contains(bb.as_mut_ptr()) {
            continue;
        }
        for i in ir::instructions(bb) {
            let v = ir::raw(i);
            if LLVMIsALoadInst(v).is_null() {
                continue;
            }
            if let Some(u) = crate::analysis::pressure::ir::units(LLVMTypeOf(v), module) {
                regs = regs.saturating_add(u64::from(u.regs));
            }
        }
    }
    regs
}

/// Whether ptxas can recompute `v` wherever it is needed without a register held across the
/// loop: a kernel's parameters (read from the constant bank; a device function's arguments
/// arrive in registers and are not), special registers (`S2R`), constants, and casts,
/// arithmetic, compares and address computations of those. Loads, PHIs, other calls and
/// anything deeper than [`PRESSURE_GUARD_MAX_DEPTH`] cannot be.
struct Remat {
    kernel: bool,
    memo: HashMap<LLVMValueRef, bool>,
}

impl Remat {
    fn recomputable(&mut self, v: LLVMValueRef, depth: u32) -> bool {
        // SAFETY: `v` is a live value of the function.
        unsafe {
            if !LLVMIsAArgument(v).is_null() {
                return self.kernel;
            }
            if !LLVMIsAConstant(v).is_null() {
                return true;
            }
            if LLVMIsAInstruction(v).is_null() {
                return false;
            }
        }
        if let Some(&r) = self.memo.get(&v) {
            return r;
        }
        let r = depth < PRESSURE_GUARD_MAX_DEPTH && self.recomputable_instruction(v, depth);
        self.memo.insert(v, r);
        r
    }

    fn recomputable_instruction(&mut self, v: LLVMValueRef, depth: u32) -> bool {
        // SAFETY: a live instruction.
        let opcode = unsafe { LLVMGetInstructionOpcode(v) };
        if opcode == LLVMOpcode::LLVMCall {
            return is_special_register_read(v);
        }
        let pure = matches!(
            opcode,
            LLVMOpcode::LLVMAdd
                | LLVMOpcode::LLVMSub
                | LLVMOpcode::LLVMMul
                | LLVMOpcode::LLVMShl
                | LLVMOpcode::LLVMLShr
                | LLVMOpcode::LLVMAShr
                | LLVMOpcode::LLVMAnd
                | LLVMOpcode::LLVMOr
                | LLVMOpcode::LLVMXor
                | LLVMOpcode::LLVMICmp
                | LLVMOpcode::LLVMSelect
                | LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMSExt
                | LLVMOpcode::LLVMZExt
                | LLVMOpcode::LLVMTrunc
                | LLVMOpcode::LLVMAddrSpaceCast
                | LLVMOpcode::LLVMPtrToInt
                | LLVMOpcode::LLVMIntToPtr
                | LLVMOpcode::LLVMBitCast
        );
        // SAFETY: a live instruction and its operands.
        let n = unsafe { LLVMGetNumOperands(v) } as u32;
        pure && (0..n).all(|k| self.recomputable(ir::raw_operand(v, k), depth + 1))
    }
}

/// Whether `call` reads a PTX special register fixed for the thread's run
/// ([`crate::analysis::gpu::THREAD_FIXED_SREGS`]).
fn is_special_register_read(call: LLVMValueRef) -> bool {
    // SAFETY: a live call instruction.
    let callee = unsafe { LLVMGetCalledValue(call) };
    // SAFETY: a live callee value.
    if callee.is_null() || unsafe { LLVMIsAFunction(callee) }.is_null() {
        return false;
    }
    let name = ir::name(callee);
    crate::analysis::gpu::is_thread_fixed_sreg(&name)
}

/// The innermost loops of `f` that load, with their facts; `capped` says whether the carried
/// registers are needed (without a cap no loop is judged on them, and no liveness is run).
///
/// # Safety
/// `li`, `se` are the live LoopInfo and ScalarEvolution of `f`.
unsafe fn read(f: FunctionValue, li: *const c_void, se: *mut c_void, capped: bool) -> Vec<Read> {
    let all = loops::preorder(li);
    let mut out = Vec::new();
    for &l in &all {
        if all.iter().any(|&m| m.parent() == Some(l)) {
            continue; // not innermost
        }
        let loaded = loaded_registers(f, l);
        if loaded == 0 {
            continue;
        }
        let facts = LoopFacts {
            constant_trip: l.constant_trip_count(se).is_some(),
            unroll_decided: l.unroll_decided(),
            carried: 0,
            loaded,
        };
        out.push(Read { lp: l, facts });
    }
    if capped && !out.is_empty() {
        let headers: Vec<_> = out.iter().map(|r| r.lp.header()).collect();
        let kernel = f.get_call_conventions() == crate::analysis::gpu::PTX_KERNEL_CC;
        let mut remat = Remat { kernel, memo: HashMap::default() };
        for (r, values) in
            out.iter_mut().zip(crate::analysis::pressure::carried_values(f, &headers))
        {
            r.facts.carried = values
                .iter()
                .filter(|&&(v, _)| !remat.recomputable(v, 0))
                .map(|&(_, regs)| u64::from(regs))
                .sum();
        }
    }
    out
}

fn record(verdicts: &[Verdict], marked: u64) {
    let stat = |what: &'static str, f: fn(&Verdict) -> bool| {
        crate::stats::add_matching(PASS, what, verdicts, f)
    };
    crate::stats::add_nonzero(PASS, "loops marked llvm.loop.unroll.disable", marked);
    stat("loops left to ptxas: their unrolled schedule fits the cap", |v| {
        matches!(v, Verdict::Fits { .. })
    });
    stat("loops left to ptxas: no register cap", |v| matches!(v, Verdict::Uncapped));
    stat("loops left to ptxas: constant trip count", |v| matches!(v, Verdict::ConstantTrip));
    stat("loops left as they are: unrolling already decided", |v| {
        matches!(v, Verdict::AlreadyDecided)
    });
}

fn remark(remarks: &Remarks, r: &Read, verdict: &Verdict, factor: u64) {
    if !remarks.enabled() {
        return;
    }
    let (name, text) = match *verdict {
        Verdict::NoLoads => return,
        Verdict::Disable { carried, loaded, cap } => (
            c"NoUnroll",
            format!(
                "marked llvm.loop.unroll.disable: ptxas would unroll it by {factor} and hold \
                 {carried} carried + {factor} x {loaded} loaded registers, over the cap of {cap}"
            ),
        ),
        Verdict::Fits { cap, .. } => (
            c"LeftToPtxas",
            format!(
                "loop left to ptxas: unrolled by {factor}, it would hold {} registers, within \
                 the cap of {cap}",
                verdict.unrolled(factor).unwrap_or(0)
            ),
        ),
        Verdict::Uncapped => (
            c"LeftToPtxas",
            "loop left to ptxas: no register cap (launch bounds or -nv-maxreg)".into(),
        ),
        Verdict::ConstantTrip => (c"LeftToPtxas", "loop left to ptxas: constant trip count".into()),
        Verdict::AlreadyDecided => {
            (c"LeftToPtxas", "loop left as it is: its unrolling is decided already".into())
        }
    };
    let text = CString::new(text).expect("no NUL in a remark");
    if matches!(verdict, Verdict::Disable { .. }) {
        remarks.emit_loop(REMARK_PASS, name, r.lp, &[RemarkArg::text(text.as_bytes())]);
    } else {
        // SAFETY: the header of a live loop has a terminator at least.
        let at = unsafe { InstructionValue::new(LLVMGetFirstInstruction(r.lp.header())) };
        remarks.emit_missed(REMARK_PASS, name, at, &[RemarkArg::text(text.as_bytes())]);
    }
}

/// Runs `nv-pressure-unroll-guard` on one function; whether it changed the IR (loop metadata).
///
/// # Safety
/// `f` is a live function definition; `li`, `se` and `ore` its live `llvm::LoopInfo*`,
/// `llvm::ScalarEvolution*` and `llvm::OptimizationRemarkEmitter*`, all outliving the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_pressure_unroll_guard_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
    ore: *mut c_void,
) -> bool {
    let f = ir::function(f);
    let knobs = Knobs::current();
    let target = crate::analysis::pressure::target::for_function(f, &knobs);
    let params = Params {
        factor: knobs.nv_pressure_unroll_guard_factor().max(1) as u64,
        cap: (target.source != Source::Default).then_some(u64::from(target.regs)),
    };
    let reads = read(f, li, se, params.cap.is_some());
    if reads.is_empty() {
        return false;
    }
    let remarks = Remarks::from_raw(ore);
    let verdicts: Vec<Verdict> = reads.iter().map(|r| judge(&r.facts, &params)).collect();
    let mut marked = 0;
    for (r, v) in reads.iter().zip(&verdicts) {
        remark(&remarks, r, v, params.factor);
        if matches!(v, Verdict::Disable { .. }) {
            r.lp.add_property(UNROLL_DISABLE);
            marked += 1;
        }
    }
    record(&verdicts, marked);
    log::debug!("{PASS}: {}: {:?}", f.get_name().to_string_lossy(), verdicts);
    marked > 0
}
