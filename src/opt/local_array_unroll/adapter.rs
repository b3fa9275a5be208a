//! `nv-local-array-unroll`'s IR adapter: reads one function through inkwell and llvm-sys (its
//! loops through src/analysis/ir/loops.rs) into the rule's [`Model`], runs [`plan`], adds
//! `llvm.loop.unroll.full` to the chosen loops, and reports each array's verdict as a remark and
//! in the statistics. The C++ pass wrapper (src/shim/unroll_marks.cpp) calls
//! [`nvopt_local_array_unroll_run`] with the function, its LoopInfo, ScalarEvolution and
//! OptimizationRemarkEmitter.
//!
//! An offset's loops ([`Reader::needs`]): a constant needs none; an induction PHI of loop L's
//! header needs L and what its incoming values need (the PHI itself counts as constant along
//! the back edge); a PHI elsewhere with one incoming value (LCSSA) needs what that value
//! needs; integer arithmetic, casts, compares, selects, GEPs and `freeze` need what their
//! operands need; anything else (a load, a call, an argument, a PHI merging control flow) makes
//! the offset non-constant whatever is unrolled.
use super::{plan, Access, Array, LoopFacts, Model, Params, Verdict, PASS};
use crate::analysis::ir::facts::{RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::ir::{self, block_of};
use crate::analysis::search_budgets::LOCAL_ARRAY_INDEX_MAX_DEPTH;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::values::{FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::collections::BTreeSet;
use std::ffi::{c_void, CStr, CString};

const REMARK_PASS: &CStr = c"nv-local-array-unroll";
const UNROLL_FULL: &CStr = c"llvm.loop.unroll.full";
const UNROLL_DISABLE: &CStr = c"llvm.loop.unroll.disable";
const UNROLL_COUNT: &CStr = c"llvm.loop.unroll.count";
const RUNTIME_DISABLE: &CStr = c"llvm.loop.unroll.runtime.disable";

/// Intrinsics that cost nothing in the unrolled size (LLVM's unroller does not count them).
const FREE_INTRINSICS: &[&str] =
    &["llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias.scope.decl"];
/// Intrinsics that may take a private array's address without making it escape.
const MARKERS: &[&str] = &["llvm.lifetime."];
/// Memory intrinsics SROA splits when their length is constant (one access each).
const MEM_INTRINSICS: &[&str] = &["llvm.memset.", "llvm.memcpy.", "llvm.memmove."];

/// One function read for the rule: its loops and the instructions behind the model's arrays.
struct Reader {
    loops: Vec<Loop>,
    /// Innermost loop of each block that is in a loop.
    innermost: HashMap<LLVMBasicBlockRef, usize>,
    /// What each value's constancy needs (memo; `None` inside: no unrolling makes it constant).
    memo: HashMap<LLVMValueRef, Option<BTreeSet<usize>>>,
    /// The same for the PHIs of loop headers, solved first ([`Reader::solve_header_phis`]).
    header_phis: HashMap<LLVMValueRef, Option<BTreeSet<usize>>>,
    /// The alloca of each array of the model.
    allocas: Vec<LLVMValueRef>,
}

impl Reader {
    /// # Safety
    /// `li` and `se` are the live LoopInfo and ScalarEvolution of `f`.
    unsafe fn read(f: FunctionValue, li: *const c_void, se: *mut c_void) -> (Reader, Model) {
        let loops = loops::preorder(li);
        let index: HashMap<Loop, usize> = loops.iter().enumerate().map(|(i, &l)| (l, i)).collect();
        let mut r = Reader {
            loops: loops.clone(),
            innermost: HashMap::default(),
            memo: HashMap::default(),
            header_phis: HashMap::default(),
            allocas: Vec::new(),
        };
        let mut model = Model {
            loops: loops
                .iter()
                .map(|l| LoopFacts {
                    parent: l.parent().map(|p| index[&p]),
                    trip_count: l.unroller_trip_count(se).map(u64::from),
                    bounded_by: None,
                    own_size: 0,
                    user_pragma: l.has_property(UNROLL_DISABLE) || l.has_property(UNROLL_COUNT),
                })
                .collect(),
            arrays: Vec::new(),
        };
        for bb in f.get_basic_blocks() {
            let raw = bb.as_mut_ptr();
            // Preorder lists a loop before the loops inside it: the last one containing the
            // block is the innermost.
            let Some(l) = loops.iter().rposition(|l| l.contains(raw)) else { continue };
            r.innermost.insert(raw, l);
            model.loops[l].own_size += ir::instructions(bb).filter(|&i| costs(i)).count() as u64;
        }
        r.solve_header_phis(&loops);
        for (k, l) in loops.iter().enumerate() {
            if model.loops[k].trip_count.is_some() {
                continue;
            }
            let max = l.constant_max_trip_count(se).map(u64::from);
            let exit = l.exit_condition().and_then(|c| r.needs(c, 0));
            model.loops[k].bounded_by = max.zip(exit);
        }
        if let Some(entry) = f.get_first_basic_block() {
            for i in ir::instructions(entry) {
                if i.get_opcode() == InstructionOpcode::Alloca && is_static(ir::raw(i)) {
                    let a = r.array(ir::raw(i));
                    r.allocas.push(ir::raw(i));
                    model.arrays.push(a);
                }
            }
        }
        (r, model)
    }

    /// The model of one static alloca: its element count and every access to it.
    fn array(&mut self, alloca: LLVMValueRef) -> Array {
        // SAFETY: a live alloca.
        let elements = unsafe { elements(LLVMGetAllocatedType(alloca)) }
            .saturating_mul(ir::const_u64(ir::raw_operand(alloca, 0)).unwrap_or(1));
        let mut a = Array { elements, escapes: false, accesses: Vec::new() };
        let mut work = vec![(alloca, Some(BTreeSet::new()))];
        while let Some((ptr, needs)) = work.pop() {
            for (user, k) in ir::uses(ptr).collect::<Vec<_>>() {
                match self.use_kind(user, k) {
                    Use::Derived(extra) => {
                        let n = needs.clone().zip(extra).map(|(mut n, e)| {
                            n.extend(e);
                            n
                        });
                        work.push((user, n));
                    }
                    Use::Access(extra) => {
                        let n = needs.clone().zip(extra).map(|(mut n, e)| {
                            n.extend(e);
                            n
                        });
                        let in_loop = block_of(user).and_then(|b| self.innermost.get(&b).copied());
                        a.accesses.push(Access { in_loop, needs: n });
                    }
                    Use::Marker => {}
                    Use::Escape => a.escapes = true,
                }
            }
        }
        a
    }

    /// How `user` uses a pointer derived from a private array as its operand `k`.
    fn use_kind(&mut self, user: LLVMValueRef, k: u32) -> Use {
        // SAFETY: a live instruction (an alloca's users are instructions).
        let op = unsafe { LLVMGetInstructionOpcode(user) };
        match op {
            LLVMOpcode::LLVMGetElementPtr if k == 0 => {
                // SAFETY: as above.
                let n = unsafe { LLVMGetNumOperands(user) } as u32;
                let mut all = Some(BTreeSet::new());
                for i in 1..n {
                    let need = self.needs(ir::raw_operand(user, i), 0);
                    all = all.zip(need).map(|(mut a, b)| {
                        a.extend(b);
                        a
                    });
                }
                Use::Derived(all)
            }
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                Use::Derived(Some(BTreeSet::new()))
            }
            LLVMOpcode::LLVMLoad => Use::Access(Some(BTreeSet::new())),
            LLVMOpcode::LLVMStore if k == 1 => Use::Access(Some(BTreeSet::new())),
            LLVMOpcode::LLVMCall => {
                let name = ir::callee_name(user);
                if MARKERS.iter().any(|p| name.starts_with(p)) {
                    Use::Marker
                } else if MEM_INTRINSICS.iter().any(|p| name.starts_with(p)) && k < 2 {
                    // The length (operand 2) must be a constant for SROA to split the access.
                    let len = ir::raw_operand(user, 2);
                    Use::Access(ir::const_u64(len).map(|_| BTreeSet::new()))
                } else {
                    Use::Escape
                }
            }
            _ => Use::Escape,
        }
    }

    /// Solves the needs of every loop-header PHI, optimistically: each starts as needing only
    /// its own loop (an induction variable is constant in every unrolled copy when its start
    /// and its update are), then takes the union of what its incoming values need, until
    /// nothing changes. The needs only grow (or become `None`), so this ends.
    fn solve_header_phis(&mut self, loops: &[Loop]) {
        let mut phis = Vec::new();
        for (k, l) in loops.iter().enumerate() {
            // SAFETY: a live header block; PHIs come first in it.
            let mut i = unsafe { LLVMGetFirstInstruction(l.header()) };
            while !i.is_null() && unsafe { !LLVMIsAPHINode(i).is_null() } {
                phis.push((i, k));
                self.header_phis.insert(i, Some(BTreeSet::from([k])));
                i = unsafe { LLVMGetNextInstruction(i) };
            }
        }
        for _ in 0..=phis.len() {
            let mut changed = false;
            for &(phi, k) in &phis {
                self.memo.clear();
                // SAFETY: a live PHI.
                let count = unsafe { LLVMCountIncoming(phi) };
                let mut all = Some(BTreeSet::from([k]));
                for j in 0..count {
                    let need = self.needs(unsafe { LLVMGetIncomingValue(phi, j) }, 1);
                    all = all.zip(need).map(|(mut a, b)| {
                        a.extend(b);
                        a
                    });
                }
                if self.header_phis.get(&phi) != Some(&all) {
                    self.header_phis.insert(phi, all);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.memo.clear();
    }

    /// The loops whose full unrolling makes `v` a constant; `None` when none do.
    fn needs(&mut self, v: LLVMValueRef, depth: u32) -> Option<BTreeSet<usize>> {
        // SAFETY: v is a live value. A constant expression may hide an address as an integer;
        // every other constant (integers, undef, a global's address) is constant.
        if unsafe { !LLVMIsAConstant(v).is_null() } {
            return unsafe { LLVMIsAConstantExpr(v).is_null() }.then(BTreeSet::new);
        }
        block_of(v)?;
        if let Some(m) = self.header_phis.get(&v).or_else(|| self.memo.get(&v)) {
            return m.clone();
        }
        if depth >= LOCAL_ARRAY_INDEX_MAX_DEPTH {
            return None;
        }
        // Provisional: a cycle back to this value that does not pass a header PHI (whose needs
        // are solved apart) makes it non-constant.
        self.memo.insert(v, None);
        let r = self.needs_of_instruction(v, depth);
        if r.is_none() && log::log_enabled!(log::Level::Trace) {
            // SAFETY: a live value.
            let text = unsafe { crate::analysis::ir::facts::operand_text(v) };
            log::trace!(
                "{PASS}: {} is not constant after unrolling",
                String::from_utf8_lossy(&text)
            );
        }
        self.memo.insert(v, r.clone());
        r
    }

    fn needs_of_instruction(&mut self, v: LLVMValueRef, depth: u32) -> Option<BTreeSet<usize>> {
        // SAFETY: v is a live instruction.
        let op = unsafe { LLVMGetInstructionOpcode(v) };
        let n = unsafe { LLVMGetNumOperands(v) } as u32;
        use LLVMOpcode::*;
        match op {
            // Header PHIs are answered from `header_phis`; a PHI elsewhere is constant only
            // when it has one incoming value (LCSSA).
            LLVMPHI if unsafe { LLVMCountIncoming(v) } == 1 => {
                self.needs(unsafe { LLVMGetIncomingValue(v, 0) }, depth + 1)
            }
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl
            | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMTrunc | LLVMZExt
            | LLVMSExt | LLVMICmp | LLVMSelect | LLVMGetElementPtr | LLVMFreeze => {
                let mut all = BTreeSet::new();
                for k in 0..n {
                    all.extend(self.needs(ir::raw_operand(v, k), depth + 1)?);
                }
                Some(all)
            }
            // An intrinsic without memory effects (bitreverse, ctpop, umin, ...) folds on
            // constant arguments; its last operand is the callee.
            LLVMCall if pure_intrinsic(v) => {
                let mut all = BTreeSet::new();
                for k in 0..n.saturating_sub(1) {
                    all.extend(self.needs(ir::raw_operand(v, k), depth + 1)?);
                }
                Some(all)
            }
            _ => None,
        }
    }

    /// Adds `llvm.loop.unroll.full` to loop `l` unless it carries it already. A loop whose
    /// trip count becomes constant only once outer loops are unrolled (`constant_trip: false`)
    /// also gets `llvm.loop.unroll.runtime.disable`: the first `loop-unroll` reaches it before
    /// its outer loops and would otherwise runtime-unroll it (the full pragma on a loop of
    /// unknown trip count lets LLVM's unroller unroll it by a runtime count, which leaves a
    /// remainder loop in every outer copy and the array in memory); the copies that the outer
    /// unrolling makes have a constant trip count, and the next `loop-unroll` slot unrolls them.
    fn mark(&self, l: usize, constant_trip: bool) -> bool {
        let lp = self.loops[l];
        if lp.has_property(UNROLL_FULL) {
            return false;
        }
        lp.add_property(UNROLL_FULL);
        if !constant_trip && !lp.has_property(RUNTIME_DISABLE) {
            lp.add_property(RUNTIME_DISABLE);
        }
        true
    }
}

enum Use {
    /// A pointer derived from the array (GEP, cast) whose offset adds these needs.
    Derived(Option<BTreeSet<usize>>),
    /// A load, store or memory intrinsic at an offset that adds these needs.
    Access(Option<BTreeSet<usize>>),
    /// A lifetime marker.
    Marker,
    Escape,
}

/// Whether an instruction counts in the unrolled size: PHIs and the free intrinsics do not.
fn costs(i: InstructionValue) -> bool {
    match i.get_opcode() {
        InstructionOpcode::Phi => false,
        InstructionOpcode::Call => {
            let name = ir::callee_name(ir::raw(i));
            !FREE_INTRINSICS.iter().any(|p| name.starts_with(p))
        }
        _ => true,
    }
}

/// A call of an LLVM intrinsic that neither touches memory nor has other side effects.
fn pure_intrinsic(call: LLVMValueRef) -> bool {
    // SAFETY: a live call instruction.
    let i = unsafe { InstructionValue::new(call) };
    ir::callee_name(call).starts_with("llvm.")
        && !crate::analysis::ir::facts::may_read_or_write_memory(i)
        && !crate::analysis::ir::facts::may_have_side_effects(i)
}

/// An alloca whose element count is a constant (a static, fixed-size private array).
fn is_static(alloca: LLVMValueRef) -> bool {
    ir::const_u64(ir::raw_operand(alloca, 0)).is_some()
}

/// Scalar elements of a type: arrays and vectors multiply, structs add their fields.
///
/// # Safety
/// `t` is a live type.
unsafe fn elements(t: LLVMTypeRef) -> u64 {
    match LLVMGetTypeKind(t) {
        LLVMTypeKind::LLVMArrayTypeKind => {
            LLVMGetArrayLength2(t).saturating_mul(elements(LLVMGetElementType(t)))
        }
        LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind => {
            u64::from(LLVMGetVectorSize(t)).saturating_mul(elements(LLVMGetElementType(t)))
        }
        LLVMTypeKind::LLVMStructTypeKind => (0..LLVMCountStructElementTypes(t))
            .map(|k| elements(LLVMStructGetTypeAtIndex(t, k)))
            .fold(0u64, u64::saturating_add),
        _ => 1,
    }
}

fn record(verdicts: &[Verdict], marked: u64) {
    let stat = |what: &'static str, f: fn(&Verdict) -> bool| {
        crate::stats::add_matching(PASS, what, verdicts, f)
    };
    crate::stats::add_nonzero(PASS, "loops marked llvm.loop.unroll.full", marked);
    stat("private arrays made promotable by full unrolling", |v| {
        matches!(v, Verdict::Unroll { .. })
    });
    stat("private arrays refused: unrolled size over the bound", |v| {
        matches!(v, Verdict::OverBound { .. })
    });
    stat("private arrays refused: an index unrolling cannot make constant", |v| {
        matches!(v, Verdict::NotConstant | Verdict::OutsideLoop)
    });
    stat("private arrays refused: a loop without a constant trip count", |v| {
        matches!(v, Verdict::NoTripCount(_))
    });
    stat("private arrays refused: the user's unroll pragma", |v| {
        matches!(v, Verdict::UserPragma(_))
    });
}

/// The remark of one array's verdict; `None` for the arrays the rule does not concern.
fn remark(
    remarks: &Remarks,
    reader: &Reader,
    alloca: LLVMValueRef,
    array: &Array,
    verdict: &Verdict,
) {
    if !remarks.enabled() || matches!(verdict, Verdict::Constant | Verdict::Escapes) {
        return;
    }
    // SAFETY: a live alloca of the function.
    let at = unsafe { InstructionValue::new(alloca) };
    let name = unsafe { crate::analysis::ir::facts::operand_text(alloca) };
    let header = |l: usize| {
        let h = reader.loops[l].header();
        // SAFETY: a live loop header of the function.
        let text = unsafe { crate::analysis::ir::facts::operand_text(LLVMBasicBlockAsValue(h)) };
        String::from_utf8_lossy(&text).into_owned()
    };
    let elements = array.elements.to_string();
    let (passed, kind, text) = match verdict {
        Verdict::Unroll { loops, size, bound } => (
            true,
            c"FullUnrollForPromotion",
            format!(
                ": marked {} loop(s) ({}) llvm.loop.unroll.full: unrolled, every index is constant \
                 and SROA can promote it (unrolled size {size}, bound {bound})",
                loops.len(),
                loops.iter().map(|&l| header(l)).collect::<Vec<_>>().join(", ")
            ),
        ),
        Verdict::OverBound { root, size, bound } => (
            false,
            c"OverBound",
            format!(
                ": not unrolled: the loop at {} would unroll to {size} instructions, over the \
                 bound {bound}",
                header(*root)
            ),
        ),
        Verdict::NotConstant => (
            false,
            c"NotConstant",
            ": not unrolled: an index depends on a value unrolling cannot make constant".into(),
        ),
        Verdict::OutsideLoop => (
            false,
            c"OutsideLoop",
            ": not unrolled: an index comes from a loop that does not contain its access".into(),
        ),
        Verdict::NoTripCount(l) => (
            false,
            c"NoTripCount",
            format!(": not unrolled: the loop at {} has no constant trip count", header(*l)),
        ),
        Verdict::UserPragma(l) => (
            false,
            c"UserPragma",
            format!(": not unrolled: the loop at {} has the user's unroll pragma", header(*l)),
        ),
        Verdict::Constant | Verdict::Escapes => unreachable!(),
    };
    let text = CString::new(text).expect("no NUL in a remark");
    let args = [
        RemarkArg::text(b"private array "),
        RemarkArg::named("Array", &name),
        RemarkArg::text(b" ("),
        RemarkArg::named("Elements", elements.as_bytes()),
        RemarkArg::text(b" elements)"),
        RemarkArg::text(text.as_bytes()),
    ];
    if passed {
        remarks.emit(REMARK_PASS, kind, at, &args);
    } else {
        remarks.emit_missed(REMARK_PASS, kind, at, &args);
    }
}

/// Runs `nv-local-array-unroll` on one function; whether it changed the IR (loop metadata).
///
/// # Safety
/// `f` is a live function definition; `li`, `se` and `ore` its live `llvm::LoopInfo*`,
/// `llvm::ScalarEvolution*` and `llvm::OptimizationRemarkEmitter*`, all outliving the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_local_array_unroll_run(
    f: LLVMValueRef,
    li: *const c_void,
    se: *mut c_void,
    ore: *mut c_void,
) -> bool {
    let f = ir::function(f);
    let (reader, model) = Reader::read(f, li, se);
    if model.arrays.is_empty() {
        return false;
    }
    let out = plan(&model, Params::from_knobs(&Knobs::current()));
    let remarks = Remarks::from_raw(ore);
    for ((&a, array), v) in reader.allocas.iter().zip(&model.arrays).zip(&out.verdicts) {
        remark(&remarks, &reader, a, array, v);
    }
    let marked =
        out.marks.iter().filter(|&&l| reader.mark(l, model.loops[l].trip_count.is_some())).count()
            as u64;
    record(&out.verdicts, marked);
    log::debug!("{PASS}: {}: {:?}", f.get_name().to_string_lossy(), out);
    marked > 0
}
