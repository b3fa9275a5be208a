//! nv-remat's loop de-rotation: a guarded (rotated) innermost loop over the register target
//! whose exit block receives its carried values, gets its test moved to the top, so that the
//! carried values start in one place instead of two.
//!
//! LLVM's loop rotation leaves a loop as a guard, a preheader and a body that tests at its
//! bottom; the exit block merges the initial values (guard's bypass edge) with the last ones
//! (latch edge). When the carried values do not fit the register target, ptxas keeps them in
//! local memory and writes their initial values into their slots twice, once on each path (on
//! the bench's 8x8 accumulator tile, `register_tile:weight_grad_tile8x8` under 32 registers,
//! those two sets of initial stores are most of its spill stores). After the rewrite there is
//! one path that sets them.
//!
//! ```text
//! guard:                                   guard:
//!   br i1 %g, label %pre, label %exit        br label %pre
//! pre:                                     pre:
//!   br label %loop                           br label %top
//!                                          top:
//!                                            %a = phi float [ 0.0, %pre ], [ %a.next, %loop ]
//!                                            %go = phi i1 [ %g, %pre ], [ %more, %loop ]
//!                                            br i1 %go, label %loop, label %exit
//! loop:                                    loop:
//!   %a = phi float [ 0.0, %pre ], [ %a.next, %loop ]
//!   ...                                      ...
//!   br i1 %more, label %loop, label %exit    br label %top
//! exit:                                    exit:
//!   %r = phi float [ 0.0, %guard ], [ %a.next, %loop ]
//!   use %r                                   use %a (the phi of %top)
//! ```
//!
//! The test at the top is the guard's condition on entry and the latch's afterwards (a PHI of
//! the two), so no condition has to be proved equal to another. Required, else the loop is left
//! as it is (a missed remark `NotDerotated` names the reason): an innermost loop with one
//! outside predecessor of its header (the preheader, whose only predecessor is the guard and
//! whose instructions are cheap and safe to run when the loop does not: nv-remat's
//! [`super::plan::Kind::Cheap`]), one latch, which is its only exit, to the block the guard
//! bypasses to; that block has just those two predecessors, each of its PHIs takes a header
//! PHI's initial value from the guard and the same PHI's next value from the latch, and no
//! other value of the loop is used after it. At least `nv-remat-derotate` such PHIs (0: the
//! rewrite is off); only loops with a block over the register target (src/analysis/pressure).
use super::adapter::classify;
use super::plan::Kind;
use crate::analysis::ir::facts::{self, RemarkArg, Remarks};
use crate::analysis::ir::{self, loops::Loop};
use crate::fast_hash::{HashMap, HashSet};
use inkwell::values::InstructionValue;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};

/// A guarded rotated loop that can be rewritten.
#[derive(Debug)]
pub struct Shape {
    pub guard: LLVMBasicBlockRef,
    /// The block on the guard's bypass edge (llc splits that critical edge), if any.
    pub split: Option<LLVMBasicBlockRef>,
    pub pre: LLVMBasicBlockRef,
    pub header: LLVMBasicBlockRef,
    pub latch: LLVMBasicBlockRef,
    pub exit: LLVMBasicBlockRef,
    /// Header PHIs, in order.
    pub header_phis: Vec<LLVMValueRef>,
    /// (exit PHI, the header PHI it receives).
    pub pairs: Vec<(LLVMValueRef, LLVMValueRef)>,
    /// (exit PHI, the value defined before the loop that it equals on both paths).
    pub invariant: Vec<(LLVMValueRef, LLVMValueRef)>,
}

/// Whether `v` is defined outside `l` (an argument, a constant or an instruction elsewhere).
fn defined_outside(l: Loop, v: LLVMValueRef) -> bool {
    ir::block_of(v).is_none_or(|b| !l.contains(b))
}

/// Whether `a` and `b` are the same value: the same SSA value, or two instructions that compute
/// the same thing from the same operands (GVN's PRE leaves a copy of a preheader instruction on
/// the bypass path), compared by their printed text without the name. Only instructions that
/// neither touch memory nor have side effects can be equal that way (two loads or calls of
/// the same text may see different memory).
fn same(a: LLVMValueRef, b: LLVMValueRef) -> bool {
    if a == b {
        return true;
    }
    // SAFETY: live values.
    unsafe {
        if LLVMIsAInstruction(a).is_null() || LLVMIsAInstruction(b).is_null() {
            return false;
        }
        let pure = |v: LLVMValueRef| {
            let i = InstructionValue::new(v);
            !facts::may_read_or_write_memory(i) && !facts::may_have_side_effects(i)
        };
        if !pure(a) || !pure(b) {
            return false;
        }
        let text = |v: LLVMValueRef| {
            let p = LLVMPrintValueToString(v);
            let t = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
            LLVMDisposeMessage(p);
            t.split_once(" = ").map(|(_, r)| r.to_string()).unwrap_or(t)
        };
        text(a) == text(b)
    }
}

fn successors(bb: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    // SAFETY: a live block; a block without terminator has no successors.
    unsafe {
        let t = LLVMGetBasicBlockTerminator(bb);
        if t.is_null() {
            return vec![];
        }
        (0..LLVMGetNumSuccessors(t)).map(|k| LLVMGetSuccessor(t, k)).collect()
    }
}

/// Predecessor lists of every block of the function (one entry per edge).
pub fn predecessors(
    blocks: &[LLVMBasicBlockRef],
) -> HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> {
    let mut out: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> = HashMap::default();
    for &b in blocks {
        for s in successors(b) {
            out.entry(s).or_default().push(b);
        }
    }
    out
}

fn phis(bb: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    // SAFETY: a live block's instructions.
    unsafe {
        let mut out = Vec::new();
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() && !LLVMIsAPHINode(i).is_null() {
            out.push(i);
            i = LLVMGetNextInstruction(i);
        }
        out
    }
}

fn incoming(phi: LLVMValueRef, from: LLVMBasicBlockRef) -> Option<LLVMValueRef> {
    // SAFETY: a live PHI.
    unsafe {
        (0..LLVMCountIncoming(phi))
            .find(|&k| LLVMGetIncomingBlock(phi, k) == from)
            .map(|k| LLVMGetIncomingValue(phi, k))
    }
}

fn conditional(
    bb: LLVMBasicBlockRef,
) -> Option<(LLVMValueRef, LLVMBasicBlockRef, LLVMBasicBlockRef)> {
    // SAFETY: a live block's terminator.
    unsafe {
        let t = LLVMGetBasicBlockTerminator(bb);
        if t.is_null() || LLVMIsABranchInst(t).is_null() || LLVMIsConditional(t) == 0 {
            return None;
        }
        Some((LLVMGetCondition(t), LLVMGetSuccessor(t, 0), LLVMGetSuccessor(t, 1)))
    }
}

/// Whether `l` has the shape the rewrite needs; the shape, or why not.
///
/// # Safety
/// `l` belongs to the live LoopInfo of the function whose blocks are `blocks`; `all` are its
/// loops; `preds` is [`predecessors`] of `blocks`.
pub unsafe fn find(
    l: Loop,
    all: &[Loop],
    blocks: &[LLVMBasicBlockRef],
    preds: &HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>>,
) -> Result<Shape, &'static str> {
    if all.iter().any(|&o| o != l && l.contains(o.header())) {
        return Err("not an innermost loop");
    }
    let header = l.header();
    let none = Vec::new();
    let hp = preds.get(&header).unwrap_or(&none);
    let outside: Vec<_> = hp.iter().copied().filter(|&b| !l.contains(b)).collect();
    let inside: Vec<_> = hp.iter().copied().filter(|&b| l.contains(b)).collect();
    if outside.len() != 1 || inside.len() != 1 {
        return Err("the header has not one preheader and one latch");
    }
    let (pre, latch) = (outside[0], inside[0]);
    let pp = preds.get(&pre).unwrap_or(&none);
    if pp.len() != 1 || successors(pre) != vec![header] || !phis(pre).is_empty() {
        return Err("no preheader with the guard as its only predecessor");
    }
    let guard = pp[0];
    let Some((_, gt, gf)) = conditional(guard) else {
        return Err("the preheader's predecessor is not a conditional branch");
    };
    let mut exit = if gt == pre { gf } else { gt };
    if exit == pre || l.contains(exit) {
        return Err("the guard does not bypass the loop");
    }
    // llc splits the critical edge guard -> exit: a block of the guard's alone that only goes on.
    let mut split = None;
    let sp = preds.get(&exit).unwrap_or(&none);
    if sp.len() == 1 && successors(exit).len() == 1 && phis(exit).is_empty() {
        split = Some(exit);
        exit = successors(exit)[0];
    }
    let bypass = split.unwrap_or(guard);
    let Some((_, lt, lf)) = conditional(latch) else {
        return Err("the latch does not end in a conditional branch");
    };
    if !((lt == header && lf == exit) || (lf == header && lt == exit)) {
        return Err("the latch does not leave to the block the guard bypasses to");
    }
    let ep = preds.get(&exit).unwrap_or(&none);
    if ep.len() != 2 || !ep.contains(&bypass) || !ep.contains(&latch) {
        return Err("the exit block has other predecessors");
    }
    let body: Vec<LLVMBasicBlockRef> = blocks.iter().copied().filter(|&b| l.contains(b)).collect();
    for &b in &body {
        if successors(b).iter().any(|&s| !l.contains(s) && !(b == latch && s == exit)) {
            return Err("the loop has another exit");
        }
    }
    for bb in [Some(pre), split].into_iter().flatten() {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() && i != LLVMGetBasicBlockTerminator(bb) {
            if !matches!(classify(InstructionValue::new(i), true), Kind::Cheap(_)) {
                return Err("the preheader or the bypass computes something that is not cheap and safe to run anywhere");
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    let header_phis = phis(header);
    let mut pairs = Vec::new();
    let mut invariant = Vec::new();
    for e in phis(exit) {
        let (Some(x), Some(y)) = (incoming(e, bypass), incoming(e, latch)) else {
            return Err("an exit PHI without both edges");
        };
        let h = header_phis.iter().copied().find(|&h| {
            incoming(h, latch) == Some(y) && incoming(h, pre).is_some_and(|x0| same(x, x0))
        });
        match h {
            Some(h) => pairs.push((e, h)),
            None if defined_outside(l, y) && same(x, y) => invariant.push((e, y)),
            None => return Err("an exit PHI that is not a carried value with its initial value"),
        }
    }
    // The bypass block's values may only feed the exit PHIs (which go).
    if let Some(sb) = split {
        let mut i = LLVMGetFirstInstruction(sb);
        while !i.is_null() && i != LLVMGetBasicBlockTerminator(sb) {
            for (user, _) in ir::uses(i) {
                let ub = LLVMGetInstructionParent(user);
                if !(ub == sb || (ub == exit && !LLVMIsAPHINode(user).is_null())) {
                    return Err("a value of the bypass block is used after it");
                }
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    let exit_phis: HashSet<LLVMValueRef> = pairs.iter().map(|p| p.0).collect();
    for &b in &body {
        let mut i = LLVMGetFirstInstruction(b);
        while !i.is_null() {
            for (user, k) in ir::uses(i) {
                let ub = LLVMGetInstructionParent(user);
                if l.contains(ub) {
                    continue;
                }
                let ok = exit_phis.contains(&user) && LLVMGetIncomingBlock(user, k) == latch;
                if !ok {
                    return Err("a value of the loop is used after it");
                }
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    Ok(Shape { guard, split, pre, header, latch, exit, header_phis, pairs, invariant })
}

/// Rewrites a loop of shape `s` (module header). Returns the new top block.
///
/// # Safety
/// `s` came from [`find`] on the current IR.
pub unsafe fn rewrite(s: &Shape) -> LLVMBasicBlockRef {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(s.header)));
    let b = LLVMCreateBuilderInContext(ctx);
    let cname = |v: LLVMValueRef, suffix: &str| format!("{}{suffix}\0", ir::name(v));
    let top_name = format!("{}.top\0", ir::name(LLVMBasicBlockAsValue(s.header)));
    let top = LLVMInsertBasicBlockInContext(ctx, s.header, top_name.as_ptr() as *const _);
    LLVMPositionBuilderAtEnd(b, top);
    let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::default();
    for &h in &s.header_phis {
        let n = cname(h, "");
        let m = LLVMBuildPhi(b, LLVMTypeOf(h), n.as_ptr() as *const _);
        let mut vals = [
            incoming(h, s.pre).expect("preheader edge"),
            incoming(h, s.latch).expect("latch edge"),
        ];
        let mut from = [s.pre, s.latch];
        LLVMAddIncoming(m, vals.as_mut_ptr(), from.as_mut_ptr(), 2);
        map.insert(h, m);
    }
    // The condition to enter the body: the guard's on entry, the latch's afterwards.
    let enter = |bb: LLVMBasicBlockRef, into: LLVMBasicBlockRef| -> LLVMValueRef {
        let (c, t, _) = conditional(bb).expect("conditional branch");
        if t == into {
            return c;
        }
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(bb));
        LLVMBuildXor(b, c, LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0), c"nv.enter".as_ptr())
    };
    let g = enter(s.guard, s.pre);
    let c = enter(s.latch, s.header);
    LLVMPositionBuilderAtEnd(b, top);
    let go = LLVMBuildPhi(b, LLVMInt1TypeInContext(ctx), c"nv.go".as_ptr());
    let mut vals = [g, c];
    let mut from = [s.pre, s.latch];
    LLVMAddIncoming(go, vals.as_mut_ptr(), from.as_mut_ptr(), 2);
    LLVMBuildCondBr(b, go, s.header, s.exit);
    for &(e, h) in &s.pairs {
        LLVMReplaceAllUsesWith(e, map[&h]);
        LLVMInstructionEraseFromParent(e);
    }
    for &(e, y) in &s.invariant {
        LLVMReplaceAllUsesWith(e, y);
        LLVMInstructionEraseFromParent(e);
    }
    for &h in &s.header_phis {
        LLVMReplaceAllUsesWith(h, map[&h]);
        LLVMInstructionEraseFromParent(h);
    }
    // The guard always enters; the preheader and the latch go to the top.
    let gt = LLVMGetBasicBlockTerminator(s.guard);
    LLVMInstructionEraseFromParent(gt);
    LLVMPositionBuilderAtEnd(b, s.guard);
    LLVMBuildBr(b, s.pre);
    if let Some(sb) = s.split {
        // Nothing reaches it any more, and its values fed only the exit PHIs, gone now.
        LLVMDeleteBasicBlock(sb);
    }
    LLVMSetSuccessor(LLVMGetBasicBlockTerminator(s.pre), 0, top);
    let lt = LLVMGetBasicBlockTerminator(s.latch);
    let kind = LLVMGetMDKindIDInContext(ctx, c"llvm.loop".as_ptr(), 9);
    let md = LLVMGetMetadata(lt, kind);
    LLVMInstructionEraseFromParent(lt);
    LLVMPositionBuilderAtEnd(b, s.latch);
    let br = LLVMBuildBr(b, top);
    if !md.is_null() {
        LLVMSetMetadata(br, kind, md);
    }
    LLVMDisposeBuilder(b);
    top
}

/// Rewrites every loop of the function that has the shape, at least `min_pairs` carried values
/// reaching its exit and a block in `high`; returns how many. Loops without a block in `high`
/// are not looked at; the others that are refused get a missed remark.
///
/// # Safety
/// `li` is the live LoopInfo of `f`; nothing has changed the CFG since it was computed. The rewritten loops' blocks are no longer described by it.
pub unsafe fn run(
    f: LLVMValueRef,
    li: *const std::ffi::c_void,
    high: &HashSet<LLVMBasicBlockRef>,
    min_pairs: usize,
    remarks: &Remarks,
    dump: Option<&str>,
) -> usize {
    if min_pairs == 0 || li.is_null() {
        return 0;
    }
    let all = crate::analysis::ir::loops::preorder(li);
    let mut done = 0;
    for &l in &all {
        // Rewrites change blocks and edges: read them again for each loop (innermost loops
        // are disjoint, so LoopInfo still describes the blocks of the loops not yet rewritten).
        let blocks = crate::analysis::ir::function_blocks(f);
        if !blocks.iter().any(|&b| high.contains(&b) && l.contains(b)) {
            continue;
        }
        let preds = predecessors(&blocks);
        let found = find(l, &all, &blocks, &preds).and_then(|s| {
            if s.pairs.len() < min_pairs {
                Err("fewer carried values reach the exit than nv-remat-derotate")
            } else {
                Ok(s)
            }
        });
        let at = InstructionValue::new(LLVMGetBasicBlockTerminator(l.header()));
        match found {
            Ok(s) => {
                let msg = format!(
                    "loop test moved to the top: {} carried values start once for both paths",
                    s.pairs.len()
                );
                if let Some(f) = dump {
                    eprintln!(
                        "nv-remat: @{f} loop {}: {msg}",
                        ir::name(LLVMBasicBlockAsValue(s.header))
                    );
                }
                if remarks.enabled() {
                    remarks.emit(
                        super::adapter::REMARK_PASS,
                        c"Derotated",
                        at,
                        &[RemarkArg::text(msg.as_bytes())],
                    );
                }
                rewrite(&s);
                crate::stats::add("nv-remat", "loops de-rotated", 1);
                done += 1;
            }
            Err(why) => {
                crate::stats::add("nv-remat", "loops over the target not de-rotated", 1);
                if let Some(f) = dump {
                    eprintln!(
                        "nv-remat: @{f} loop {} not de-rotated: {why}",
                        ir::name(LLVMBasicBlockAsValue(l.header()))
                    );
                }
                if remarks.enabled() {
                    let msg = format!("loop over the register target not de-rotated: {why}");
                    remarks.emit_missed(
                        super::adapter::REMARK_PASS,
                        c"NotDerotated",
                        at,
                        &[RemarkArg::text(msg.as_bytes())],
                    );
                }
            }
        }
    }
    done
}
