//! `codegenpreparescev` (and `nv-basr`, `nv-cbe`, `nv-scev-cgp`, one phase each): cicc's
//! address-mode pass, run in llc right after CodeGenPrepare (src/codegen.rs). This module is the
//! pass itself: it runs the phases in cicc's order (BASR, then CBE, then SCEV-CGP's 32-bit index
//! adds, deleting what each leaves dead before the next looks for anchors), collects the
//! address records each phase plans on, and applies the plans to the IR. What a record is:
//!
//! - an *access*: the pointer operand of a load or store, or a pointer argument of a call
//!   (memcpy/memmove/memset included; other intrinsics and inline asm are not accesses: their
//!   operands need not be addresses the target folds);
//! - for CBE also a *value*: every pointer argument and non-PHI pointer instruction, a possible
//!   anchor for the accesses near it.
//!
//! Each record's pointer expression comes from ScalarEvolution through the shim
//! ([`super::scev`]), is split into base + constant offset ([`super::record`]), and records are
//! numbered by block, dominator-tree DFS interval and order in the block ([`super::group`]).
//! CBE's plan rebases an access on an anchor as `anchor + delta` (an i8 GEP right before the
//! access); BASR's plan builds one shared base per class (an existing header PHI when the class
//! needs no offset, else a new loop-carried PHI or an expansion in the header), each member base
//! as the base it is built on plus the invariant difference (expanded in the preheader, computed
//! in the header right before its first access when the base it builds on is available there,
//! else right after that base), and moves the accesses onto their member bases. A rewrite whose
//! pointer type differs from the access's is not applied. Header PHIs left feeding only
//! themselves are deleted.
//!
//! Remarks (`-pass-remarks=codegenpreparescev`): `CommonBase` per CBE rewrite, `SharedBase` per
//! loop BASR rewrote; `-nv-stats` counts both (src/llc/addr/session.rs).
use super::narrow::narrow_indices;
use super::record::keeps_base;
use super::scev::{AddrScev, Analyses, Scev};
use super::session::{BasrPlan, NvBase, NvLoop, NvRecord, Session, Split};
use super::{basr, Settings, BASR, CBE, SCEV_CGP};
use crate::analysis::ir::facts::{self, DomTree, RemarkArg, Remarks};
use crate::analysis::ir::loops::{self, Loop};
use crate::analysis::ir::{self};
use crate::analysis::pressure;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{AnyValue, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMBuilderRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;
use std::ffi::{c_void, CString};

/// The remark pass name (cicc's DEBUG_TYPE for the pass).
const PASS: &std::ffi::CStr = c"codegenpreparescev";

/// The launch-bound attributes the budget reads, in [`Session::new`]'s order.
const LAUNCH_BOUND_ATTRS: [&str; 3] = ["nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm"];

/// One record's pointer: the instruction and operand that use it (none for a value record).
#[derive(Clone, Copy)]
struct Use {
    user: Option<LLVMValueRef>,
    op_no: u32,
    ptr: LLVMValueRef,
}

/// One phase's records, with the numbering they are planned on.
struct Records {
    uses: Vec<Use>,
    out: Vec<NvRecord>,
    bases: Vec<Scev>,
    base_ids: HashMap<Scev, u32>,
    value_ids: HashMap<LLVMValueRef, u32>,
    blocks: HashMap<LLVMBasicBlockRef, u32>,
    orders: HashMap<LLVMValueRef, u32>,
    loops: Vec<Loop>,
    loop_ids: HashMap<Loop, i32>,
}

/// What the record walk needs of the function.
struct Walk<'a> {
    a: Analyses,
    dt: DomTree<'a>,
    session: &'a Session,
    scev: AddrScev,
}

impl Records {
    fn new(a: Analyses) -> Records {
        // SAFETY: the LoopInfo of the function being run.
        let loops = unsafe { loops::preorder(a.loop_info()) };
        let loop_ids = loops.iter().enumerate().map(|(i, &l)| (l, i as i32)).collect();
        Records {
            uses: Vec::new(),
            out: Vec::new(),
            bases: Vec::new(),
            base_ids: HashMap::default(),
            value_ids: HashMap::default(),
            blocks: HashMap::default(),
            orders: HashMap::default(),
            loops,
            loop_ids,
        }
    }

    fn loop_id(&self, l: Option<Loop>) -> i32 {
        l.map_or(-1, |l| self.loop_ids[&l])
    }

    /// Numbers the reachable blocks and their instructions and records every access; with
    /// `values` also every pointer argument and non-PHI pointer instruction.
    fn collect(&mut self, f: LLVMValueRef, w: &mut Walk, values: bool) {
        w.dt.update_dfs();
        // SAFETY: f is the live function being run.
        let func = unsafe { ir::function(f) };
        let reachable: Vec<BasicBlock> =
            func.get_basic_block_iter().filter(|&bb| w.dt.reachable(bb)).collect();
        for bb in reachable {
            self.blocks.insert(bb.as_mut_ptr(), self.blocks.len() as u32);
            for (order, i) in ir::instructions(bb).enumerate() {
                self.orders.insert(ir::raw(i), order as u32 + 1);
                self.add_accesses(ir::raw(i), w);
            }
        }
        if !values {
            return;
        }
        let entry = func.get_first_basic_block().expect("a definition has an entry block");
        for arg in func.get_param_iter().map(ir::raw).filter(|&a| is_pointer(a)) {
            let r = self.place(entry, 0, w);
            self.add_record(Use { user: None, op_no: 0, ptr: arg }, r, w);
        }
        for bb in func.get_basic_block_iter() {
            for i in ir::instructions(bb).map(ir::raw) {
                let kept = self.blocks.contains_key(&bb.as_mut_ptr());
                if is_pointer(i) && kept && !ir::is(i, LLVMOpcode::LLVMPHI) {
                    let r = self.place(bb, self.orders[&i], w);
                    self.add_record(Use { user: None, op_no: 0, ptr: i }, r, w);
                }
            }
        }
    }

    fn place(&self, bb: BasicBlock, order: u32, w: &Walk) -> NvRecord {
        let (dfs_in, dfs_out, _) = w.dt.dfs(bb);
        NvRecord {
            offset: 0,
            base: 0,
            space: 0,
            block: self.blocks.get(&bb.as_mut_ptr()).copied().unwrap_or(0),
            dfs_in,
            dfs_out,
            order,
            value: 0,
            value_uses: 0,
            loop_id: 0,
            access: 0,
            loop_insts: 0,
            loop_const_geps: 0,
        }
    }

    /// The accesses of one instruction: a load's or store's pointer, a call's pointer arguments.
    fn add_accesses(&mut self, i: LLVMValueRef, w: &mut Walk) {
        if ir::is(i, LLVMOpcode::LLVMLoad) {
            return self.add_access(i, 0, w);
        }
        if ir::is(i, LLVMOpcode::LLVMStore) {
            return self.add_access(i, 1, w);
        }
        // SAFETY: i is a live instruction; the called value of a call exists.
        let skipped = unsafe {
            !ir::is(i, LLVMOpcode::LLVMCall)
                || !LLVMIsAInlineAsm(LLVMGetCalledValue(i)).is_null()
                || (!LLVMIsAIntrinsicInst(i).is_null() && LLVMIsAMemIntrinsic(i).is_null())
        };
        if skipped {
            return;
        }
        // SAFETY: i is a call.
        let args = unsafe { LLVMGetNumArgOperands(i) };
        for k in (0..args).filter(|&k| is_pointer(ir::raw_operand(i, k))) {
            self.add_access(i, k, w);
        }
    }

    fn add_access(&mut self, i: LLVMValueRef, op_no: u32, w: &mut Walk) {
        let bb = ir::block_of(i).expect("an instruction");
        // SAFETY: a live block.
        let mut r = self.place(unsafe { ir::block(bb) }, self.orders[&i], w);
        r.access = 1;
        // SAFETY: the LoopInfo of this function.
        let l = unsafe { loops::loop_for(w.a.loop_info(), bb) };
        r.loop_id = self.loop_id(l);
        let ptr = ir::raw_operand(i, op_no);
        if let Some(l) = l {
            loop_work(ptr, l, true, &mut r);
        }
        self.add_record(Use { user: Some(i), op_no, ptr }, r, w);
    }

    /// Splits the pointer's expression and keeps the record when its base is kept. A load's or
    /// store's address is UB when poison, which proves its nsw index arithmetic exact
    /// (src/llc/addr/access_scev.cpp); other pointer values get nv-scev's expression.
    fn add_record(&mut self, u: Use, mut r: NvRecord, w: &mut Walk) {
        let deref = u
            .user
            .is_some_and(|i| ir::is(i, LLVMOpcode::LLVMLoad) || ir::is(i, LLVMOpcode::LLVMStore));
        let limit = w.session.settings.inst_limit;
        let Some((whole, flat)) = w.scev.pointer(u.ptr, deref, limit) else { return };
        let (split, offset) = w.session.split(flat);
        r.offset = offset;
        let base = match split {
            Split::Malformed => return,
            Split::Whole => Some(whole),
            Split::Base(recipe) => w.scev.build(&recipe),
        };
        let Some(base) = base else { return };
        if !keeps_base(&w.session.settings.rules, w.scev.rooted(base)) {
            return;
        }
        let next = self.bases.len() as u32;
        r.base = *self.base_ids.entry(base).or_insert(next);
        if r.base == next {
            self.bases.push(base);
        }
        // SAFETY: a live pointer-typed value.
        r.space = unsafe { LLVMGetPointerAddressSpace(LLVMTypeOf(u.ptr)) };
        let next = self.value_ids.len() as u32;
        r.value = *self.value_ids.entry(u.ptr).or_insert(next);
        r.value_uses = uses_besides_own_update(u.ptr);
        self.uses.push(u);
        self.out.push(r);
    }
}

/// The uses of a pointer, not counting a PHI's own update (`%p.next = gep %p, %s` used by `%p`
/// alone): that update dies with the PHI once its other uses move, so it does not keep the
/// pointer IV alive.
fn uses_besides_own_update(v: LLVMValueRef) -> u32 {
    let own_update = |user: LLVMValueRef| {
        ir::is(v, LLVMOpcode::LLVMPHI)
            && ir::is(user, LLVMOpcode::LLVMGetElementPtr)
            && ir::raw_operand(user, 0) == v
            && ir::users(user).all(|w| w == v)
    };
    ir::users(v).filter(|&user| !own_update(user)).count() as u32
}

fn is_pointer(v: LLVMValueRef) -> bool {
    // SAFETY: a live value.
    unsafe { ir::type_kind(v) == llvm_sys::LLVMTypeKind::LLVMPointerTypeKind }
}

/// Counts into `r` the instructions of `l` that compute only `v` (`v` itself, whatever its uses;
/// then single-use operands; PHIs end the walk), and among them the GEPs with constant indices.
fn loop_work(v: LLVMValueRef, l: Loop, root: bool, r: &mut NvRecord) {
    let Some(bb) = ir::block_of(v) else { return };
    if ir::is(v, LLVMOpcode::LLVMPHI) || !l.contains(bb) || (!root && ir::uses(v).nth(1).is_some())
    {
        return;
    }
    r.loop_insts += 1;
    // SAFETY: v is a live instruction.
    let n = unsafe { LLVMGetNumOperands(v) } as u32;
    let const_indices =
        (1..n).all(|k| unsafe { !LLVMIsAConstantInt(ir::raw_operand(v, k)).is_null() });
    r.loop_const_geps += (ir::is(v, LLVMOpcode::LLVMGetElementPtr) && const_indices) as u32;
    for k in 0..n {
        loop_work(ir::raw_operand(v, k), l, false, r);
    }
}

/// A builder for the rewrites of one function.
struct Edits<'ctx> {
    builder: inkwell::builder::Builder<'ctx>,
    dead: Vec<LLVMValueRef>,
}

impl Edits<'_> {
    fn raw(&self) -> LLVMBuilderRef {
        self.builder.as_mut_ptr()
    }

    /// `base + delta` as an i8 GEP named `name` at the builder's position.
    fn ptr_add(&self, base: LLVMValueRef, delta: LLVMValueRef, name: &str) -> LLVMValueRef {
        let name = CString::new(name).expect("no NUL in a name");
        let mut idx = [delta];
        // SAFETY: a positioned builder; base is a pointer, delta an integer.
        unsafe {
            let i8t = LLVMInt8TypeInContext(LLVMGetTypeContext(LLVMTypeOf(base)));
            LLVMBuildGEP2(self.raw(), i8t, base, idx.as_mut_ptr(), 1, name.as_ptr())
        }
    }

    /// Points access `u` at `base + delta` (an i8 GEP right before the access); false when the
    /// pointer types differ. The old pointer is deleted later if it died.
    fn repoint(&mut self, u: &Use, base: LLVMValueRef, delta: i64) -> bool {
        let Some(user) = u.user else { return false };
        // SAFETY: live values and instruction.
        unsafe {
            if LLVMTypeOf(base) != LLVMTypeOf(u.ptr) {
                return false;
            }
            let mut p = base;
            if delta != 0 {
                LLVMPositionBuilderBefore(self.raw(), user);
                let loc = llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(user);
                LLVMSetCurrentDebugLocation2(self.raw(), loc);
                let i64t = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(base)));
                p = self.ptr_add(base, LLVMConstInt(i64t, delta as u64, 1), "nv.addr");
            }
            self.dead.push(u.ptr);
            LLVMSetOperand(user, u.op_no, p);
        }
        true
    }

    fn delete_dead(&mut self) {
        facts::delete_dead_all(&self.dead);
        self.dead.clear();
    }
}

/// The function's phases; whether anything changed.
fn run(f: LLVMValueRef, a: Analyses, phases: u32) -> bool {
    let attrs = LAUNCH_BOUND_ATTRS.map(|k| string_attribute(f, k));
    let settings = Settings::from_knobs(&Knobs::current(), phases);
    let session = Session::new(ir::name(f), [&attrs[0], &attrs[1], &attrs[2]], settings);
    // SAFETY: f is the live function being run.
    let func = unsafe { ir::function(f) };
    let mut edits = Edits { builder: ir::builder(func), dead: Vec::new() };
    let active = session.settings.active();
    let mut changed = false;
    if active & BASR != 0 {
        changed |= run_basr(f, a, &session, &mut edits);
    }
    edits.delete_dead();
    if active & CBE != 0 {
        changed |= run_cbe(f, a, &session, &mut edits);
    }
    edits.delete_dead();
    if active & SCEV_CGP != 0 {
        // SAFETY: the function's ScalarEvolution and remark emitter.
        changed |= unsafe { narrow_indices(f, a.scalar_evolution(), a.remark_emitter()) } > 0;
    }
    if session.settings.print_after {
        eprintln!("*** IR Dump After codegenpreparescev ({}) ***", ir::name(f));
        eprint!("{}", func.print_to_string().to_string_lossy());
    }
    changed
}

/// A function attribute's string value ("" when absent).
fn string_attribute(f: LLVMValueRef, key: &str) -> String {
    // SAFETY: f is a live function; the attribute's bytes live as long as it.
    unsafe {
        let a = LLVMGetStringAttributeAtIndex(
            f,
            llvm_sys::LLVMAttributeFunctionIndex,
            key.as_ptr() as *const _,
            key.len() as u32,
        );
        if a.is_null() {
            return String::new();
        }
        let mut len = 0;
        let p = LLVMGetStringAttributeValue(a, &mut len);
        String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len as usize))
            .into_owned()
    }
}

fn walk(a: Analyses, session: &Session) -> Walk<'_> {
    Walk {
        a,
        // SAFETY: the DominatorTree of the function being run, current for this phase.
        dt: unsafe { DomTree::from_raw(a.dom_tree()) },
        session,
        scev: AddrScev::new(a, session.settings.rules.ignore_signed_overflow),
    }
}

fn run_cbe(f: LLVMValueRef, a: Analyses, session: &Session, edits: &mut Edits) -> bool {
    let mut w = walk(a, session);
    let mut r = Records::new(a);
    r.collect(f, &mut w, true);
    let plan = session.cbe(&r.out);
    // SAFETY: the function's remark emitter.
    let remarks = unsafe { Remarks::from_raw(a.remark_emitter()) };
    let mut changed = false;
    for x in &plan {
        let u = r.uses[x.record as usize];
        let anchor = r.uses[x.anchor as usize].ptr;
        if !edits.repoint(&u, anchor, x.delta) {
            continue;
        }
        changed = true;
        if remarks.enabled() {
            let delta = x.delta.to_string();
            let scope: &[u8] =
                if x.cross_block != 0 { b" (function level)" } else { b" (same block)" };
            let args = [
                RemarkArg::text(b"address rebased on a common base at offset "),
                RemarkArg::named("Delta", delta.as_bytes()),
                RemarkArg::text(scope),
            ];
            // SAFETY: an access record's user is a live instruction.
            let at = unsafe { InstructionValue::new(u.user.expect("an access")) };
            remarks.emit(PASS, c"CommonBase", at, &args);
        }
    }
    changed
}

fn run_basr(f: LLVMValueRef, a: Analyses, session: &Session, edits: &mut Edits) -> bool {
    let mut w = walk(a, session);
    let mut r = Records::new(a);
    r.collect(f, &mut w, false);
    // SAFETY: f is the live function being run.
    let over = pressure::loops_over_target(unsafe { ir::function(f) }, &r.loops);
    let loop_facts: Vec<NvLoop> = r
        .loops
        .iter()
        .zip(over)
        .map(|(&l, over_target)| NvLoop {
            parent: r.loop_id(l.parent()),
            phis: header_phis(l),
            header: r.blocks.get(&l.header()).copied().unwrap_or(0),
            over_target,
        })
        .collect();
    let mut bases = Vec::new();
    let mut existing = Vec::new();
    for &b in &r.bases {
        let facts = w.scev.base_facts(b);
        bases.push(NvBase {
            loop_id: r.loop_id(facts.lp),
            nodes: facts.nodes,
            has_phi: facts.existing_phi.is_some() as u32,
            walk: 0,
        });
        existing.push(facts.existing_phi);
    }
    walks(&r, &w, &mut bases);
    let base_loops: Vec<i32> = bases.iter().map(|b| b.loop_id).collect();
    let pairs = w.scev.pairs(&r.bases, &base_loops, &r.loops, basr::PAIRED_BASES_PER_LOOP);
    let plan = session.basr(&r.out, &loop_facts, &bases, &pairs);
    apply_basr(&r, &mut w, &plan, &existing, edits, a)
}

/// The header PHIs of a loop that hold a value (i1 PHIs become predicates, not registers).
fn header_phis(l: Loop) -> u32 {
    // SAFETY: a live header block.
    let header = unsafe { ir::block(l.header()) };
    ir::instructions(header)
        .take_while(|i| ir::is(ir::raw(*i), LLVMOpcode::LLVMPHI))
        .filter(|i| ir::int_width(ir::raw(*i)) != Some(1))
        .count() as u32
}

/// Each base's walk: immediate dominators from the deepest block of its accesses in its loop up
/// to the loop header.
fn walks(r: &Records, w: &Walk, bases: &mut [NvBase]) {
    for (rec, u) in r.out.iter().zip(&r.uses) {
        let b = &mut bases[rec.base as usize];
        let Some(user) = u.user else { continue };
        if b.loop_id < 0 {
            continue;
        }
        let l = r.loops[b.loop_id as usize];
        let bb = ir::block_of(user).expect("an instruction");
        if !l.contains(bb) {
            continue;
        }
        // SAFETY: live blocks of the function.
        let (_, _, depth) = w.dt.dfs(unsafe { ir::block(bb) });
        let (_, _, top) = w.dt.dfs(unsafe { ir::block(l.header()) });
        b.walk = b.walk.max(depth - top);
    }
}

fn apply_basr(
    r: &Records,
    w: &mut Walk,
    plan: &BasrPlan,
    existing: &[Option<LLVMValueRef>],
    edits: &mut Edits,
    a: Analyses,
) -> bool {
    let mut class_base = Vec::new();
    for c in &plan.classes {
        let l = r.loops[c.loop_id as usize];
        let reuse = existing[c.leader as usize].filter(|_| c.origin == 0);
        let leader = r.bases[c.leader as usize];
        class_base.push(w.scev.shared_base(l, leader, c.origin, c.phi != 0, reuse));
    }
    let mut member_base: Vec<Option<LLVMValueRef>> = Vec::new();
    for m in &plan.members {
        let class = &plan.classes[m.class as usize];
        let b = if m.from as usize == member_base.len() {
            class_base[m.class as usize]
        } else {
            let on = member_base[m.from as usize];
            let from = plan.members[m.from as usize].base;
            let before = (m.before >= 0).then(|| r.uses[m.before as usize].user).flatten();
            let l = r.loops[class.loop_id as usize];
            on.and_then(|on| {
                member(w, edits, l, on, r.bases[from as usize], r.bases[m.base as usize], before)
            })
        };
        member_base.push(b);
    }
    let mut changed = false;
    for m in &plan.moves {
        if let Some(b) = member_base[m.member as usize] {
            changed |= edits.repoint(&r.uses[m.record as usize], b, m.delta);
        }
    }
    edits.delete_dead();
    // SAFETY: the function's remark emitter.
    let remarks = unsafe { Remarks::from_raw(a.remark_emitter()) };
    for (c, base) in plan.classes.iter().zip(&class_base) {
        if base.is_none() {
            continue;
        }
        changed = true;
        let l = r.loops[c.loop_id as usize];
        // SAFETY: a live header block.
        facts::delete_dead_phis(unsafe { ir::block(l.header()) });
        if remarks.enabled() {
            let kind: &[u8] =
                if c.phi != 0 { b"loop-carried pointer" } else { b"base expanded in the header" };
            let args = [RemarkArg::text(b"bases of this loop share one "), RemarkArg::text(kind)];
            remarks.emit_loop(PASS, c"SharedBase", l, &args);
        }
    }
    changed
}

/// A member base: `on` (the base it is built on, expression `from`) plus the invariant
/// difference to `to` (expanded in the preheader, where equal differences share one value),
/// computed once in the header: right before `before` (its first access, where the plan placed
/// it) when `on` is available by then, else right after `on`.
fn member(
    w: &mut Walk,
    edits: &Edits,
    l: Loop,
    on: LLVMValueRef,
    from: Scev,
    to: Scev,
    before: Option<LLVMValueRef>,
) -> Option<LLVMValueRef> {
    let diff = w.scev.difference(l, from, to, on)?;
    let header = l.header();
    let in_header = ir::block_of(on) == Some(header);
    let (at, before_records) = match before {
        Some(u) if !(in_header && comes_before(u, on)) => (u, false),
        _ if in_header => ir::insertion_point_after_def(on).expect("a value defined in a header"),
        _ => (ir::first_insertion_point(header).expect("a header has non-PHI code"), true),
    };
    // SAFETY: a live instruction of the header; the builder is ours.
    unsafe {
        if before_records {
            LLVMPositionBuilderBeforeInstrAndDbgRecords(edits.raw(), at);
        } else {
            LLVMPositionBuilderBefore(edits.raw(), at);
        }
        LLVMSetCurrentDebugLocation2(edits.raw(), std::ptr::null_mut());
    }
    Some(edits.ptr_add(on, diff, "nv.basr.member"))
}

/// Whether instruction `a` comes before instruction `b` of the same block.
fn comes_before(a: LLVMValueRef, b: LLVMValueRef) -> bool {
    // SAFETY: live instructions.
    let mut i = unsafe { LLVMGetNextInstruction(a) };
    while !i.is_null() {
        if i == b {
            return true;
        }
        i = unsafe { LLVMGetNextInstruction(i) };
    }
    false
}

/// Runs the address passes' phases (`phases`: [`BASR`], [`CBE`], [`SCEV_CGP`] bits) on one
/// function; whether it changed. Called by the pass plumbing in src/llc/addr/addr.cpp.
///
/// # Safety
/// `f` is a live function definition and `a` the shim's `Analyses` of it.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_run(f: LLVMValueRef, a: *mut c_void, phases: u32) -> bool {
    run(f, Analyses::from_raw(a), phases)
}
