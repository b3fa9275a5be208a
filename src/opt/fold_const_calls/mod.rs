//! `nv-fold-const-calls`: replaces a call whose arguments are all integer constants by the
//! constant the callee returns, computed by running the callee on them in a small interpreter
//! (interp.rs) over its IR (lower.rs). Issue 16, "calls at most nvcc's": the cooperative
//! groups headers compute a tile's shift with a recursive `constexpr` function,
//!
//! ```text
//! _CG_STATIC_QUALIFIER constexpr unsigned int log2(unsigned int x) {
//!     return x == 1 ? 0 : 1 + log2(x / 2);
//! }
//! ```
//!
//! called with template constants (`details::log2(Size)`). nvcc's front end evaluates such a
//! call; clang constant-evaluates a `constexpr` call only in a constant context, so the IR
//! keeps `call i32 @log2(i32 8)`. LLVM then never folds it: the inliner does not inline a
//! recursive function into itself, `tailcallelim` turns the body into a loop whose trip count
//! is the argument's, which only inlining could expose, IPSCCP propagates an argument only
//! where every call passes the same constant, and `llvm::Evaluator` (what `globalopt` runs on
//! static constructors) gives up on recursion and on loops (it bails when a function is
//! already on its call stack and when a block is entered twice). cuda-samples' reduction
//! sample keeps such calls at O3 (`call.uni` in the PTX; nvcc's PTX has none).
//!
//! ```text
//! ; before                                           ; after nv-fold-const-calls
//! define internal i32 @log2(i32 %x) {                (unchanged; globaldce deletes it once
//!   %one = icmp eq i32 %x, 1                          nothing calls it)
//!   br i1 %one, label %done, label %rec
//! rec:
//!   %h = udiv i32 %x, 2
//!   %r = call i32 @log2(i32 %h)
//!   %s = add i32 %r, 1
//!   br label %done
//! done:
//!   %v = phi i32 [ 0, %0 ], [ %s, %rec ]
//!   ret i32 %v
//! }
//! %n = call i32 @log2(i32 8)                         ; %n replaced by 3, the call deleted
//! %m = call i32 @log2(i32 %w)                        ; kept: %w is not a constant
//! ```
//!
//! The rule. A call qualifies when it calls a function directly (same function type, no
//! operand bundles, not `musttail`) whose body is the one that runs (not a declaration, not
//! interposable: weak, linkonce, extern_weak or common; not `optnone`), returns an integer of
//! at most 64 bits, and passes integer constants of at most 64 bits; its caller is not
//! `optnone`. The interpreter then runs the callee on the arguments, following the one path
//! they take: integer arithmetic, bitwise operations and shifts, `icmp`, `select`, `zext`,
//! `sext`, `trunc`, `freeze`, PHIs, `br`, `switch`, `ret`, calls that qualify in the same way
//! (recursion included, to any function with a body; their arguments need not be constants
//! in the IR, only in the run), and the intrinsics `umin`, `umax`, `smin`, `smax`, `abs`,
//! `ctlz`, `cttz`, `ctpop` and `assume`, each with LLVM's exact semantics (wrapping modulo
//! 2^width). The call is folded only when that run returns a value without executing anything
//! else: so the call did nothing but compute that value, and replacing it (convergent or not:
//! the callee's run communicated with no other thread) is exact. Refused, with the reason:
//!
//! - executing what is not modelled: memory (`load`, `store`, `alloca`, atomics; no loads of
//!   constant globals yet), floating point and pointer values, inline asm, indirect calls,
//!   calls to declarations and to other intrinsics (special registers, barriers, ...);
//! - poison where it matters (a branch, switch or divisor on it, a call argument, `freeze`,
//!   `llvm.assume`, the value returned; poison comes from a violated `nuw`/`nsw`/`exact`/
//!   `disjoint`/`nneg`/`samesign` flag, a shift by the width or more, a `poison` operand) and
//!   undefined behaviour (division or remainder by 0, signed division of the minimum by -1,
//!   `unreachable`, `llvm.assume(false)`). Poison computed and then dropped (the arm of a
//!   `select` not chosen: instcombine writes `n & 1 ? 3 * n + 1 : n / 2` with an `lshr exact`
//!   that is poison for odd `n`) is harmless and does not refuse. Folding a call whose run is
//!   undefined would be a legal refinement, but the pass does not decide for the program what
//!   its undefined run returns; `undef` operands are not modelled;
//! - a run longer than `nv-fold-const-calls-max-steps` steps (every instruction, PHI and
//!   terminator executed, nested calls included) or with calls nested deeper than
//!   `nv-fold-const-calls-max-depth` (a run that does not end, `log2(0)` above, ends here).
//!
//! A call whose arguments are not all constants is not looked at. Results are memoized per
//! (callee, arguments) within one run of the pass.
//!
//! Where it runs (src/pipeline/levels.rs): at O1, O2 and O3, once, at module level right after
//! the first function simplification round (`mem2reg`, `sroa`, `instcombine`, `simplifycfg`
//! on every function: callee bodies are SSA values then, which the interpreter needs, as it
//! models no memory) and before `globalopt`, `globaldce`, `ipsccp` and the inliner: the
//! constants reach the callers before the inliner weighs them and before IPSCCP, the callee
//! left without callers (it is internal after `nv-internalize`, which runs first) is deleted
//! by the `globaldce` that follows, and the inliner's cost model never sees the recursive
//! call. Not at O0 or the fast-compile levels, which cicc's tables keep minimal.
//!
//! Knobs: `nv-disable-fold-const-calls` (the pipeline slot off; the pass run by name ignores
//! it), `nv-fold-const-calls-max-steps` (10000), `nv-fold-const-calls-max-depth` (128).
//! Under `-pass-remarks=nv-fold-const-calls` a remark names each folded call, its value and
//! the steps it took; `-pass-remarks-missed=nv-fold-const-calls` each refused one with its
//! reason; `-nv-stats` counts folds and refusals by kind.
pub mod interp;
pub mod lower;

use crate::analysis::ir::facts::{self, RemarkArg};
use crate::analysis::ir::name;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use interp::{evaluate, FuncId, Limits, Refusal};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMModuleRef, LLVMTypeRef, LLVMValueRef};
use lower::{body_unavailable, has_fn_attr, int_width, is_musttail, Lowering};

pub const PASS: &str = "nv-fold-const-calls";

/// A call whose arguments are integer constants, to a function with a body.
struct Candidate {
    call: LLVMValueRef,
    callee: LLVMValueRef,
    args: Vec<u64>,
    ret: LLVMTypeRef,
}

/// The call `i` as a candidate: None when it is not a call with constant integer arguments to a
/// function with a body returning an integer (nothing to say); with a refusal when it is one but
/// cannot be folded whatever the callee computes.
fn candidate(i: LLVMValueRef) -> Option<(Candidate, Option<Refusal>)> {
    // SAFETY: a live instruction; only read.
    unsafe {
        if LLVMIsACallInst(i).is_null() {
            return None;
        }
        let callee = LLVMGetCalledValue(i);
        if LLVMIsAFunction(callee).is_null()
            || LLVMGetIntrinsicID(callee) != 0
            || LLVMIsDeclaration(callee) != 0
        {
            return None;
        }
        let ret = LLVMTypeOf(i);
        int_width(ret)?;
        let n = LLVMGetNumArgOperands(i);
        let mut args = Vec::with_capacity(n as usize);
        for k in 0..n {
            let a = LLVMGetOperand(i, k);
            if LLVMIsAConstantInt(a).is_null() || int_width(LLVMTypeOf(a)).is_none() {
                return None;
            }
            args.push(LLVMConstIntGetZExtValue(a));
        }
        let why = if LLVMGetCalledFunctionType(i) != LLVMGlobalGetValueType(callee) {
            Some("the call's function type differs from the callee's".to_string())
        } else if LLVMGetNumOperandBundles(i) != 0 {
            Some("the call has operand bundles".to_string())
        } else if is_musttail(i) {
            Some("the call is musttail".to_string())
        } else {
            body_unavailable(callee)
        };
        Some((Candidate { call: i, callee, args, ret }, why.map(Refusal::Unsupported)))
    }
}

/// Every function definition of the module that the pass may change (not `optnone`).
fn callers(m: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let fns = crate::analysis::ir::module_functions(m);
    // SAFETY: live functions, only read.
    fns.into_iter()
        .filter(|&f| unsafe { LLVMIsDeclaration(f) == 0 } && !has_fn_attr(f, "optnone"))
        .collect()
}

/// The calls of function `f`, in order.
fn calls(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: a live function definition; only read.
    unsafe {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if !LLVMIsACallInst(i).is_null() {
                    out.push(i);
                }
                i = LLVMGetNextInstruction(i);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
    }
    out
}

/// `@f(8, 2)`, for the remarks and the log.
fn call_text(callee: LLVMValueRef, args: &[u64]) -> String {
    let args: Vec<String> = args.iter().map(u64::to_string).collect();
    format!("@{}({})", name(callee), args.join(", "))
}

/// Emits the remark about one call (folded when `value` is Ok).
fn remark(call: LLVMValueRef, what: &str, value: &Result<(u64, u64), Refusal>) {
    match value {
        Ok((v, steps)) => {
            let (v, steps) = (v.to_string(), steps.to_string());
            let args = [
                RemarkArg::text(b"call to "),
                RemarkArg::named("Call", what.as_bytes()),
                RemarkArg::text(b" folded to "),
                RemarkArg::named("Value", v.as_bytes()),
                RemarkArg::text(b" ("),
                RemarkArg::named("Steps", steps.as_bytes()),
                RemarkArg::text(b" steps)"),
            ];
            facts::remark_instruction(c"nv-fold-const-calls", c"Folded", false, call, &args);
        }
        Err(why) => {
            let why = why.to_string();
            let args = [
                RemarkArg::text(b"call to "),
                RemarkArg::named("Call", what.as_bytes()),
                RemarkArg::text(b" kept: "),
                RemarkArg::named("Reason", why.as_bytes()),
            ];
            facts::remark_instruction(c"nv-fold-const-calls", c"Refused", true, call, &args);
        }
    }
}

/// The limits the knobs set.
pub fn limits(k: &Knobs) -> Limits {
    Limits {
        max_steps: k.nv_fold_const_calls_max_steps().max(0) as u64,
        max_depth: k.nv_fold_const_calls_max_depth().max(0) as u32,
    }
}

/// Runs `nv-fold-const-calls` on a module (called by the pass plumbing in
/// src/shim/rust_module_passes.cpp); whether it changed the IR.
///
/// # Safety
/// `m` is a live module that no one else changes during the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_fold_const_calls_run(m: LLVMModuleRef) -> bool {
    let limits = limits(&Knobs::current());
    let mut lowering = Lowering::default();
    let mut memo: HashMap<(FuncId, Vec<u64>), Result<(u64, u64), Refusal>> = HashMap::default();
    let mut folds = Vec::new();
    for f in callers(m) {
        let remarks = facts::remarks_enabled_for(f);
        for call in calls(f) {
            let Some((c, refused)) = candidate(call) else { continue };
            let what = call_text(c.callee, &c.args);
            let value = match refused {
                Some(why) => Err(why),
                None => {
                    let id = lowering.id(c.callee);
                    memo.entry((id, c.args.clone()))
                        .or_insert_with(|| evaluate(&mut lowering, id, &c.args, limits))
                        .clone()
                }
            };
            if let Ok((v, _)) = value {
                folds.push((c.call, c.ret, v));
            }
            match &value {
                Ok((v, steps)) => {
                    crate::stats::add(PASS, "calls folded", 1);
                    log::debug!("{PASS}: {what} folded to {v} ({steps} steps)");
                }
                Err(why) => {
                    crate::stats::add(PASS, why.counter(), 1);
                    log::debug!("{PASS}: {what} kept: {why}");
                }
            }
            if remarks {
                remark(call, &what, &value);
            }
        }
    }
    let changed = !folds.is_empty();
    for (call, ty, v) in folds {
        // SAFETY: a live call whose value is an integer of type `ty`; nothing refers to it
        // after it is replaced and erased.
        unsafe {
            LLVMReplaceAllUsesWith(call, LLVMConstInt(ty, v, 0));
            LLVMInstructionEraseFromParent(call);
        }
    }
    changed
}
