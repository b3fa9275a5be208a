//! `nv-iv-start-widening`: IV-start widening (nvopt's own, in support of BASR; docs/CICC-FACTS.md
//! "Address optimization"). An IV `phi [s, preheader], [phi +nsw d, latch]` whose start is nsw
//! arithmetic (`t + k*lda` in C) has an exact 64-bit address `sext(t) + k*sext(lda) + n*d`
//! (src/llc/addr/access_scev.cpp proves it from the access: a poison address is UB), so IVs of one
//! stride share a base with a constant-times-`lda` difference. llc's straight-line strength
//! reduction (SLSR), which runs before CodeGenPrepare, rewrites such starts into a chain
//! `s[k] = s[k+1] - lda` without nsw, and the exact difference is lost. This pass rebuilds a
//! chosen start as `trunc nsw` of the same arithmetic done in 64 bits, which is the same value
//! wherever the start is not poison (no operation under it wrapped, so the 64-bit value is
//! `sext(s)` and the trunc is `s`; where `s` is poison the new start is poison or a defined value,
//! a refinement), so the fact survives SLSR.
//!
//! Example (plugin-tests/addr/iv-start-widening.ll, eight IVs starting at `t + k*w`):
//!
//! ```text
//! ; before                               ; after nv-iv-start-widening
//! %m1 = mul nsw i32 %w, 2                %t.sext = sext i32 %t to i64
//! %s1 = add nsw i32 %m1, %t              %w.sext = sext i32 %w to i64
//! ...                                    %m1.wide = mul i64 %w.sext, 2
//! loop:                                  %s1.wide = add i64 %m1.wide, %t.sext
//!   %i1 = phi i32 [ %s1, %entry ], ...   %s1.narrow = trunc nsw i64 %s1.wide to i32
//!                                        ...
//!                                        loop:
//!                                          %i1 = phi i32 [ %s1.narrow, %entry ], ...
//! ```
//!
//! Which IVs: header PHIs narrower than 64 bits that step by an invariant `+nsw d`/`-nsw d`, are
//! sign-extended (or `zext nneg`) into a GEP index, and start at nsw add/sub/mul or shl by a
//! constant; each 64-bit operation goes right after the operation it rebuilds, each extension
//! next to its use (so instruction selection, which works a block at a time, can form
//! `mul.wide`); the old start is deleted when nothing else uses it. Loops with fewer than
//! [`MIN_STARTS_PER_LOOP`] such IVs are left alone (one IV has nothing to share a base with), as
//! is a start with an operand that has no place for its extension (after a catchswitch).
//!
//! Knob: `nv-widen-iv-starts` (with BASR on; the pass serves BASR). The walk under a start stops
//! at [`crate::analysis::search_budgets::WIDEN_MAX_DEPTH`] operations; a deeper value is extended whole,
//! which is always exact. Runs in llc right after `speculative-execution`, i.e. right before SLSR
//! (src/codegen.rs), and as `opt -passes=nv-iv-start-widening`; the pass plumbing and LoopInfo
//! come from the shim (src/llc/addr/iv_start_widening.cpp, src/analysis/ir/loops.cpp).
//!
//! After SLSR, BASR then shares two bases in that example's loop (IVs of each stride); without
//! the widening it shares none. Not at -O0, and not with `nv-widen-iv-starts=0` or
//! `do-base-address-strength-reduce=0`.

use crate::analysis::ir::{self, loops, loops::Loop};
use crate::analysis::search_budgets::WIDEN_MAX_DEPTH;
use crate::fast_hash::{HashMap, HashSet};
use crate::knobs::Knobs;
use inkwell::basic_block::BasicBlock;
use inkwell::builder::Builder;
use inkwell::types::{AsTypeRef, IntType};
use inkwell::values::InstructionOpcode;
use llvm_sys::core::*;
use llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use std::ffi::{c_void, CString};
use std::ptr::null_mut;

/// An IV whose start can be widened: its loop and the nsw operations under its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub loop_id: u32,
    pub nsw_ops: u32,
}

/// IVs with a widenable start that a loop needs before any is widened.
pub const MIN_STARTS_PER_LOOP: usize = 2;

/// Whether each start is widened (`on`: the knob and BASR are both on).
pub fn choose(on: bool, starts: &[Start]) -> Vec<bool> {
    let mut per_loop: HashMap<u32, usize> = HashMap::default();
    for s in starts.iter().filter(|s| s.nsw_ops > 0) {
        *per_loop.entry(s.loop_id).or_default() += 1;
    }
    starts
        .iter()
        .map(|s| on && s.nsw_ops > 0 && per_loop[&s.loop_id] >= MIN_STARTS_PER_LOOP)
        .collect()
}

/// Width of the rebuilt arithmetic (the address width on NVPTX64).
const WIDE_BITS: u32 = 64;

/// An nsw add/sub/mul, or shl by a constant below the width: the 64-bit rebuild goes through
/// it (a sign extension distributes over it wherever it is not poison).
fn is_nsw_op(v: LLVMValueRef) -> bool {
    let Some(op) = ir::binary_opcode(v) else { return false };
    match op {
        LLVMOpcode::LLVMAdd | LLVMOpcode::LLVMSub | LLVMOpcode::LLVMMul => ir::nsw(v),
        LLVMOpcode::LLVMShl => {
            ir::nsw(v)
                && ir::const_u64(ir::raw_operand(v, 1))
                    .is_some_and(|c| c < u64::from(ir::int_width(v).unwrap_or(0)))
        }
        _ => false,
    }
}

/// The nsw operations under `v` (`v` included), or `None` when a leaf instruction has no place
/// after it for its extension.
fn count_nsw(v: LLVMValueRef, depth: u32, seen: &mut HashSet<LLVMValueRef>) -> Option<u32> {
    if !seen.insert(v) {
        return Some(0);
    }
    if depth < WIDEN_MAX_DEPTH && is_nsw_op(v) {
        let a = count_nsw(ir::raw_operand(v, 0), depth + 1, seen);
        let b = count_nsw(ir::raw_operand(v, 1), depth + 1, seen);
        return Some(a? + b? + 1);
    }
    match ir::block_of(v) {
        Some(_) if ir::insertion_point_after_def(v).is_none() => None,
        _ => Some(0),
    }
}

/// Whether `v` (an IV or its increment) is sign-extended (`sext`, `zext nneg`) into a GEP index.
fn extended_into_address(v: LLVMValueRef) -> bool {
    ir::users(v)
        .filter(|&u| {
            // SAFETY: u is a live user; LLVMGetNNeg is asked of a zext only.
            ir::is(u, LLVMOpcode::LLVMSExt)
                || (ir::is(u, LLVMOpcode::LLVMZExt) && unsafe { LLVMGetNNeg(u) != 0 })
        })
        .any(|e| ir::users(e).any(|g| ir::is(g, LLVMOpcode::LLVMGetElementPtr)))
}

/// The outside slot of a header PHI `phi [s, outside], [phi +nsw d / phi -nsw d, inside]` of
/// `l`, with `d` invariant in `l` (src/llc/addr/access_scev.cpp's `ivStep`, without AssumeNsw).
fn outside_slot(phi: LLVMValueRef, l: Loop) -> Option<u32> {
    // SAFETY: phi is a live PHI node.
    let (n, block) = unsafe { (LLVMCountIncoming(phi), |k| LLVMGetIncomingBlock(phi, k)) };
    if n != 2 {
        return None;
    }
    let inside = if l.contains(block(0)) { 0 } else { 1 };
    if !l.contains(block(inside)) || l.contains(block(1 - inside)) {
        return None;
    }
    // SAFETY: slot `inside` exists (two incoming values).
    let inc = unsafe { LLVMGetIncomingValue(phi, inside) };
    let op = ir::binary_opcode(inc)?;
    let (add, sub) = (op == LLVMOpcode::LLVMAdd, op == LLVMOpcode::LLVMSub);
    let (a, b) = (ir::raw_operand(inc, 0), ir::raw_operand(inc, 1));
    let step = if a == phi {
        b
    } else if add && b == phi {
        a
    } else {
        return None;
    };
    let shape = add || (sub && a == phi);
    (ir::nsw(inc) && shape && l.is_invariant(step)).then_some(1 - inside)
}

/// A header PHI whose start is to be widened: the PHI, its outside slot and the facts
/// [`choose`] decides on.
struct Candidate {
    phi: LLVMValueRef,
    slot: u32,
    start: Start,
}

/// The header PHIs of every loop whose start can be widened, loops in preorder.
fn candidates(loops: &[Loop]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (id, &l) in loops.iter().enumerate() {
        // SAFETY: the header is a live block of the function.
        let header = unsafe { BasicBlock::new(l.header()) }.expect("a loop has a header");
        for phi in ir::instructions(header).take_while(|i| i.get_opcode() == InstructionOpcode::Phi)
        {
            let phi = ir::raw(phi);
            if ir::int_width(phi).is_none_or(|w| w >= WIDE_BITS) {
                continue;
            }
            let Some(slot) = outside_slot(phi, l) else { continue };
            // SAFETY: both slots exist (outside_slot checked two incoming values).
            let (start, inc) =
                unsafe { (LLVMGetIncomingValue(phi, slot), LLVMGetIncomingValue(phi, 1 - slot)) };
            if !(extended_into_address(phi) || extended_into_address(inc)) || !is_nsw_op(start) {
                continue;
            }
            let nsw_ops = count_nsw(start, 0, &mut HashSet::default()).unwrap_or(0);
            if nsw_ops > 0 {
                out.push(Candidate { phi, slot, start: Start { loop_id: id as u32, nsw_ops } });
            }
        }
    }
    out
}

/// Rebuilds starts in 64 bits, sharing what one function's starts have in common.
struct Widener<'ctx> {
    builder: Builder<'ctx>,
    wide: IntType<'ctx>,
    /// Answers of [`Widener::wide`]: an nsw operation's is keyed by the operation alone, a
    /// leaf's by the leaf and the block that uses it.
    done: HashMap<(LLVMValueRef, Option<LLVMBasicBlockRef>), LLVMValueRef>,
}

impl<'ctx> Widener<'ctx> {
    /// Replaces the start of `c` by `trunc nsw` of its 64-bit rebuild.
    fn rewrite(&mut self, c: &Candidate) {
        // SAFETY: the slot exists; the start is an instruction (an nsw operation).
        let start = unsafe { LLVMGetIncomingValue(c.phi, c.slot) };
        let w = self.wide(start, ir::block_of(start).expect("an instruction"), 0);
        let Some(w) = ir::block_of(w).map(|_| w) else { return }; // folded to a constant
                                                                  // SAFETY: w is a live instruction, not a terminator, so it has a next one.
        let next = unsafe { LLVMGetNextInstruction(w) };
        self.position(next, false, true);
        let name = CString::new(format!("{}.narrow", ir::name(start))).expect("no NUL in a name");
        // SAFETY: w is a 64-bit instruction and the builder is positioned, so the trunc is an
        // instruction (no folding), which carries nsw.
        unsafe {
            let t = LLVMBuildTrunc(self.builder.as_mut_ptr(), w, LLVMTypeOf(start), name.as_ptr());
            LLVMSetNSW(t, 1);
            LLVMSetOperand(c.phi, c.slot, t);
        }
        ir::delete_dead(start);
    }

    /// Puts the builder before `at` (before its debug records too, for a block's first
    /// insertion point), taking `at`'s debug location where IRBuilder would (`with_location`).
    fn position(&self, at: LLVMValueRef, before_records: bool, with_location: bool) {
        let b = self.builder.as_mut_ptr();
        // SAFETY: at is a live instruction; the builder is ours.
        unsafe {
            if before_records {
                LLVMPositionBuilderBeforeInstrAndDbgRecords(b, at);
            } else {
                LLVMPositionBuilderBefore(b, at);
            }
            let loc = if with_location { LLVMInstructionGetDebugLoc(at) } else { null_mut() };
            LLVMSetCurrentDebugLocation2(b, loc);
        }
    }

    /// `v` sign-extended to 64 bits, rebuilt through nsw operations (see the header), for a use
    /// in block `at`.
    fn wide(&mut self, v: LLVMValueRef, at: LLVMBasicBlockRef, depth: u32) -> LLVMValueRef {
        let op = depth < WIDEN_MAX_DEPTH && is_nsw_op(v);
        let key = (v, if op { None } else { Some(at) });
        if let Some(&known) = self.done.get(&key) {
            return known;
        }
        let r = if op { self.wide_op(v, depth) } else { self.sext_for(v, at) };
        self.done.insert(key, r);
        r
    }

    /// An nsw operation rebuilt in 64 bits right after it, without flags.
    fn wide_op(&mut self, v: LLVMValueRef, depth: u32) -> LLVMValueRef {
        let bb = ir::block_of(v).expect("an nsw operation is an instruction");
        let opcode = ir::binary_opcode(v).expect("a binary operator");
        let a = self.wide(ir::raw_operand(v, 0), bb, depth + 1);
        let b = if opcode == LLVMOpcode::LLVMShl {
            let amount = ir::const_u64(ir::raw_operand(v, 1)).expect("a constant shift");
            ir::raw(self.wide.const_int(amount, false))
        } else {
            self.wide(ir::raw_operand(v, 1), bb, depth + 1)
        };
        // SAFETY: v is not a terminator, so it has a next instruction.
        self.position(unsafe { LLVMGetNextInstruction(v) }, false, true);
        let name = CString::new(format!("{}.wide", ir::name(v))).expect("no NUL in a name");
        // SAFETY: a and b are 64-bit integers; the builder is positioned.
        unsafe { LLVMBuildBinOp(self.builder.as_mut_ptr(), opcode, a, b, name.as_ptr()) }
    }

    /// `sext(v)` for a use in block `at`: right after `v` when `v` is defined in `at`, else at
    /// the top of `at` (so instruction selection sees the extension next to its use and can form
    /// `mul.wide`); a constant folds.
    fn sext_for(&mut self, v: LLVMValueRef, at: LLVMBasicBlockRef) -> LLVMValueRef {
        let (pos, before_records) = if ir::block_of(v) == Some(at) {
            ir::insertion_point_after_def(v).expect("count_nsw refused a leaf without one")
        } else {
            (ir::first_insertion_point(at).expect("a use's block has room before its use"), true)
        };
        self.position(pos, before_records, false);
        let name = CString::new(format!("{}.sext", ir::name(v))).expect("no NUL in a name");
        // SAFETY: v is a narrower integer; the builder is positioned.
        unsafe {
            LLVMBuildSExt(self.builder.as_mut_ptr(), v, self.wide.as_type_ref(), name.as_ptr())
        }
    }
}

/// Runs `nv-iv-start-widening` on one function; whether it changed.
///
/// # Safety
/// `f` is a live function definition and `li` its live `llvm::LoopInfo`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_widen_run(f: LLVMValueRef, li: *const c_void) -> bool {
    let f = ir::function(f);
    let cands = candidates(&loops::preorder(li));
    let starts: Vec<Start> = cands.iter().map(|c| c.start).collect();
    let chosen = choose(super::widening_runs(&Knobs::current()), &starts);
    let ctx = ir::context(f);
    let mut w =
        Widener { builder: ctx.create_builder(), wide: ctx.i64_type(), done: HashMap::default() };
    let mut changed = false;
    for (c, _) in cands.iter().zip(&chosen).filter(|(_, &on)| on) {
        w.rewrite(c);
        changed = true;
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(loop_id: u32, nsw_ops: u32) -> Start {
        Start { loop_id, nsw_ops }
    }

    #[test]
    fn loops_with_two_or_more_nsw_starts_are_widened() {
        let s = [start(0, 2), start(0, 2), start(1, 2), start(2, 0), start(2, 1)];
        assert_eq!(choose(true, &s), vec![true, true, false, false, false]);
    }

    #[test]
    fn nothing_when_off() {
        let s = [start(0, 2), start(0, 2)];
        assert_eq!(choose(false, &s), vec![false, false]);
    }
}
