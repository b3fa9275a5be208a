//! `nv-cssa`'s IR adapter: reads one function through inkwell and llvm-sys into the planner's
//! [`Model`] (src/llc/cssa/plan.rs), runs the planner with the knobs' rewrites, applies each rewrite
//! to the IR with its optimization remark (-pass-remarks=nv-cssa), and counts the statistics
//! (`-nv-stats`). The C++ pass wrappers (src/llc/cssa/cssa.cpp) call [`nvopt_cssa_run_function`]
//! with the function, its DominatorTree and its OptimizationRemarkEmitter.
//!
//! Numbering: blocks in function order; instructions in block order (their ids), then the
//! arguments (`instructions + argument number`); uses in instruction order, then operand order,
//! a PHI operand as a use at the end of its incoming block; PHIs in order. For each PHI operand
//! the adapter also lists the register values a dominating `icmp eq`/`icmp ne` branch edge
//! proves equal to it ([`Reader::equalities`]).
use super::plan::{self, Edit, Incoming, Inst, InstKind, Model, Phi, Rewrites, Use};
use crate::analysis::ir::facts::{self, DomTree, RemarkArg, Remarks};
use crate::analysis::ir::{self, incoming_block, operand, type_kind};
use crate::analysis::search_budgets::CSSA_MAX_DOMINATOR_DEPTH;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core::{
    LLVMCountIncoming, LLVMGetCondition, LLVMGetICmpPredicate, LLVMGetParam, LLVMIsAAllocaInst,
    LLVMIsABranchInst, LLVMIsACallBrInst, LLVMIsACallInst, LLVMIsACatchPadInst,
    LLVMIsACatchSwitchInst, LLVMIsACleanupPadInst, LLVMIsAICmpInst, LLVMIsAInvokeInst,
    LLVMIsALandingPadInst, LLVMIsAPHINode, LLVMIsConditional, LLVMSetOperand,
};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::{LLVMIntPredicate, LLVMTypeKind};
use std::ffi::{c_void, CStr};

const PASS: &str = "nv-cssa";
const REMARK_PASS: &CStr = c"nv-cssa";

/// The dominance facts the equalities search asks (the function's DominatorTree in the pass).
pub trait Dominance<'ctx> {
    /// Whether `bb` is reachable from the entry block.
    fn reachable(&self, bb: BasicBlock<'ctx>) -> bool;
    /// The immediate dominator of a reachable block; `None` for the entry block.
    fn idom(&self, bb: BasicBlock<'ctx>) -> Option<BasicBlock<'ctx>>;
    /// Whether the CFG edge `from -> to` dominates `bb`.
    fn edge_dominates(
        &self,
        from: BasicBlock<'ctx>,
        to: BasicBlock<'ctx>,
        bb: BasicBlock<'ctx>,
    ) -> bool;
}

impl<'ctx> Dominance<'ctx> for DomTree<'_> {
    fn reachable(&self, bb: BasicBlock<'ctx>) -> bool {
        DomTree::reachable(self, bb)
    }
    fn idom(&self, bb: BasicBlock<'ctx>) -> Option<BasicBlock<'ctx>> {
        DomTree::idom(self, bb)
    }
    fn edge_dominates(
        &self,
        from: BasicBlock<'ctx>,
        to: BasicBlock<'ctx>,
        bb: BasicBlock<'ctx>,
    ) -> bool {
        DomTree::edge_dominates(self, from, to, bb)
    }
}

fn is(raw: LLVMValueRef) -> bool {
    !raw.is_null()
}

fn is_phi(i: InstructionValue) -> bool {
    // SAFETY: a live instruction.
    is(unsafe { LLVMIsAPHINode(i.as_value_ref()) })
}

/// May move later within its block: no PHI, terminator, call, alloca or EH pad, no memory
/// access, no side effects, not of token type.
fn movable(i: InstructionValue) -> bool {
    let r = i.as_value_ref();
    // SAFETY: LLVMIsA* and the type query only inspect the live instruction.
    let (call, alloca, eh_pad, token) = unsafe {
        (
            is(LLVMIsACallInst(r)) || is(LLVMIsAInvokeInst(r)) || is(LLVMIsACallBrInst(r)),
            is(LLVMIsAAllocaInst(r)),
            is(LLVMIsALandingPadInst(r))
                || is(LLVMIsACatchPadInst(r))
                || is(LLVMIsACleanupPadInst(r))
                || is(LLVMIsACatchSwitchInst(r)),
            type_kind(r) == LLVMTypeKind::LLVMTokenTypeKind,
        )
    };
    !is_phi(i)
        && !i.is_terminator()
        && !call
        && !alloca
        && !eh_pad
        && !facts::may_read_or_write_memory(i)
        && !facts::may_have_side_effects(i)
        && !token
}

fn kind(i: InstructionValue) -> InstKind {
    if is_phi(i) {
        InstKind::Phi
    } else if i.is_terminator() {
        InstKind::Terminator
    } else if movable(i) {
        InstKind::Movable
    } else {
        InstKind::Fixed
    }
}

/// The IR behind a model's numbers: what the edits name.
pub struct Reader<'ctx> {
    insts: Vec<InstructionValue<'ctx>>,
    /// Instructions, then arguments.
    values: Vec<LLVMValueRef>,
    phis: Vec<InstructionValue<'ctx>>,
    ids: HashMap<LLVMValueRef, u32>,
    blocks: HashMap<LLVMBasicBlockRef, u32>,
}

impl<'ctx> Reader<'ctx> {
    /// Numbers the function and builds the planner's model of it.
    pub fn read(f: FunctionValue<'ctx>, dom: &impl Dominance<'ctx>) -> (Self, Model) {
        let mut r = Reader {
            insts: Vec::new(),
            values: Vec::new(),
            phis: Vec::new(),
            ids: HashMap::default(),
            blocks: HashMap::default(),
        };
        for bb in f.get_basic_block_iter() {
            let id = r.blocks.len() as u32;
            r.blocks.insert(bb.as_mut_ptr(), id);
        }
        let mut succs = Vec::new();
        let mut order = Vec::new();
        let mut insts = Vec::new();
        for (b, bb) in f.get_basic_block_iter().enumerate() {
            let ss = bb.get_terminator().into_iter().flat_map(ir::successors);
            succs.push(ss.map(|s| r.block(s)).collect());
            let mut ids = Vec::new();
            for i in ir::instructions(bb) {
                let id = r.insts.len() as u32;
                r.ids.insert(i.as_value_ref(), id);
                r.insts.push(i);
                ids.push(id);
                let k = kind(i);
                insts.push(Inst { block: b as u32, kind: k });
                if k == InstKind::Phi {
                    r.phis.push(i);
                }
            }
            order.push(ids);
        }
        let n_insts = r.insts.len() as u32;
        let args = f.count_params();
        r.values = r.insts.iter().map(|i| i.as_value_ref()).collect();
        for a in 0..args {
            // SAFETY: a live function and an argument number below its count.
            let arg = unsafe { LLVMGetParam(f.as_value_ref(), a) };
            r.ids.insert(arg, n_insts + a);
            r.values.push(arg);
        }

        let phi_ids: HashMap<LLVMValueRef, u32> =
            r.phis.iter().enumerate().map(|(k, p)| (p.as_value_ref(), k as u32)).collect();
        let mut uses = vec![Vec::new(); r.values.len()];
        for (id, &i) in r.insts.iter().enumerate() {
            let phi = phi_ids.get(&i.as_value_ref()).copied();
            for slot in 0..i.get_num_operands() {
                let Some(&v) = r.ids.get(&operand(i, slot)) else { continue };
                uses[v as usize].push(match phi {
                    Some(phi) => Use::Edge { from: r.block(incoming_block(i, slot)), phi, slot },
                    None => Use::Inst(id as u32),
                });
            }
        }

        let mut phis = Vec::with_capacity(r.phis.len());
        for &p in &r.phis {
            let incoming = (0..r.incoming_count(p))
                .map(|k| {
                    let value = r.ids.get(&operand(p, k)).copied();
                    Incoming {
                        pred: r.block(incoming_block(p, k)),
                        value,
                        equal: if value.is_some() { r.equalities(p, k, dom) } else { Vec::new() },
                    }
                })
                .collect();
            phis.push(Phi { inst: r.ids[&p.as_value_ref()], incoming });
        }
        let model = Model::new(succs, order, insts, args, uses, phis);
        (r, model)
    }

    /// A block's number (0 for a block outside the function, which a valid CFG never names).
    fn block(&self, bb: BasicBlock) -> u32 {
        self.blocks.get(&bb.as_mut_ptr()).copied().unwrap_or(0)
    }

    fn incoming_count(&self, phi: InstructionValue) -> u32 {
        // SAFETY: a live PHI.
        unsafe { LLVMCountIncoming(phi.as_value_ref()) }
    }

    /// Register values equal to operand `k` of `phi` on its edge: the other side of an integer
    /// `icmp eq`/`icmp ne` whose branch edge into the equal side is the PHI's edge itself or
    /// dominates the incoming block, searched up the incoming block's dominators
    /// ([`CSSA_MAX_DOMINATOR_DEPTH`] of them). A PHI with several entries for that block gets
    /// none (the entries must stay identical).
    fn equalities(
        &self,
        phi: InstructionValue<'ctx>,
        k: u32,
        dom: &impl Dominance<'ctx>,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        let v = operand(phi, k);
        let p = incoming_block(phi, k);
        let Some(s) = phi.get_parent() else { return out };
        // SAFETY: a live value.
        let int = unsafe { type_kind(v) } == LLVMTypeKind::LLVMIntegerTypeKind;
        if !int || !dom.reachable(p) {
            return out;
        }
        let entries =
            (0..self.incoming_count(phi)).filter(|&j| incoming_block(phi, j) == p).count();
        if entries != 1 {
            return out;
        }
        let mut node = Some(p);
        let mut depth = 0;
        while let Some(d) = node.filter(|_| depth < CSSA_MAX_DOMINATOR_DEPTH) {
            if let Some(other) = Self::equal_on_branch(d, p, s, v, dom) {
                if let Some(&id) = self.ids.get(&other) {
                    out.push(id);
                }
            }
            node = dom.idom(d);
            depth += 1;
        }
        out
    }

    /// The value `d`'s conditional branch proves equal to `v` on the way into `p`'s edge to
    /// `s`, if any.
    fn equal_on_branch(
        d: BasicBlock<'ctx>,
        p: BasicBlock<'ctx>,
        s: BasicBlock<'ctx>,
        v: LLVMValueRef,
        dom: &impl Dominance<'ctx>,
    ) -> Option<LLVMValueRef> {
        let br = d.get_terminator()?;
        let raw = br.as_value_ref();
        // SAFETY: a live terminator; the branch queries run on a branch only.
        if !is(unsafe { LLVMIsABranchInst(raw) }) || unsafe { LLVMIsConditional(raw) } == 0 {
            return None;
        }
        let mut succ = ir::successors(br);
        let (s0, s1) = (succ.next()?, succ.next()?);
        if s0 == s1 {
            return None;
        }
        // SAFETY: a conditional branch's condition, a live value.
        let cmp = unsafe { LLVMGetCondition(raw) };
        if !is(unsafe { LLVMIsAICmpInst(cmp) }) {
            return None;
        }
        // SAFETY: an icmp instruction.
        let eq_succ = match unsafe { LLVMGetICmpPredicate(cmp) } {
            LLVMIntPredicate::LLVMIntEQ => s0,
            LLVMIntPredicate::LLVMIntNE => s1,
            _ => return None,
        };
        let holds = if d == p { eq_succ == s } else { dom.edge_dominates(d, eq_succ, p) };
        if !holds {
            return None;
        }
        // SAFETY: an icmp has two operands.
        let (a, b) = unsafe {
            (llvm_sys::core::LLVMGetOperand(cmp, 0), llvm_sys::core::LLVMGetOperand(cmp, 1))
        };
        let other = if a == v {
            b
        } else if b == v {
            a
        } else {
            return None;
        };
        (other != v).then_some(other)
    }

    /// Applies one edit, after its remark. Numbers out of range (never planned) do nothing.
    pub fn apply(&self, e: Edit, remarks: &Remarks) {
        match e {
            Edit::Substitute { phi, slot, with } => self.substitute(phi, slot, with, remarks),
            Edit::Sink { inst, after } => self.sink(inst, after, remarks),
        }
    }

    fn substitute(&self, phi: u32, slot: u32, with: u32, remarks: &Remarks) {
        let (Some(&pn), Some(&new)) = (self.phis.get(phi as usize), self.values.get(with as usize))
        else {
            return;
        };
        if slot >= self.incoming_count(pn) {
            return;
        }
        if remarks.enabled() {
            // SAFETY: live values of this function.
            let (old, phi_text, new_text) = unsafe {
                (
                    facts::operand_text(operand(pn, slot)),
                    facts::operand_text(pn.as_value_ref()),
                    facts::operand_text(new),
                )
            };
            let block = incoming_block(pn, slot);
            remarks.emit(
                REMARK_PASS,
                c"EqualOperand",
                pn,
                &[
                    RemarkArg::text(b"operand "),
                    RemarkArg::named("Old", &old),
                    RemarkArg::text(b" of PHI "),
                    RemarkArg::named("Phi", &phi_text),
                    RemarkArg::text(b" from block "),
                    RemarkArg::named("Block", block.get_name().to_bytes()),
                    RemarkArg::text(b" replaced by the equal "),
                    RemarkArg::named("New", &new_text),
                    RemarkArg::text(b", which does not interfere with the PHI"),
                ],
            );
        }
        // SAFETY: a PHI's operand `slot` is its incoming value `slot` (PHINode::setIncomingValue);
        // `new` is a value of the same function.
        unsafe { LLVMSetOperand(pn.as_value_ref(), slot, new) }
    }

    fn sink(&self, inst: u32, after: u32, remarks: &Remarks) {
        let (Some(&i), Some(&a)) = (self.insts.get(inst as usize), self.insts.get(after as usize))
        else {
            return;
        };
        if i.get_parent() != a.get_parent() {
            return;
        }
        if remarks.enabled() {
            // SAFETY: a live instruction.
            let text = unsafe { facts::operand_text(i.as_value_ref()) };
            remarks.emit(
                REMARK_PASS,
                c"Sunk",
                i,
                &[
                    RemarkArg::named("Inst", &text),
                    RemarkArg::text(b" moved below the last read of the PHI it feeds ("),
                    RemarkArg::named("After", facts::opcode_name(a).to_bytes()),
                    RemarkArg::text(b")"),
                ],
            );
        }
        facts::move_after(i, a);
    }
}

extern "C" {
    fn nvopt_shim_register_cssa();
}

/// Registers the legacy IR pass `nv-cssa` with LLVM's PassRegistry (for the TargetPassConfig
/// insertion in llc).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_cssa() }
}

/// The rewrites the knobs allow.
pub fn rewrites(k: &Knobs) -> Rewrites {
    Rewrites { equal_operand: k.nv_cssa_equal_operand(), sink: k.nv_cssa_sink() }
}

fn record(out: &plan::Outcome) {
    for (what, n) in [
        ("PHI operands that are registers", out.operands),
        ("PHI operands interfering with their PHI", out.interfering),
        ("operands replaced by an equal value", out.substituted),
        ("operand definitions sunk below the PHI's last use", out.sunk),
        ("interfering operands left as they are", out.left),
    ] {
        crate::stats::add_nonzero(PASS, what, n);
    }
}

/// Runs nv-cssa on one function (a definition): reads it, plans, applies the rewrites; returns
/// whether any was made.
///
/// # Safety
/// `f` is a live function definition; `dt` its current `llvm::DominatorTree*`; `ore` a live
/// `llvm::OptimizationRemarkEmitter*` for it. All three outlive the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_cssa_run_function(
    f: LLVMValueRef,
    dt: *const c_void,
    ore: *mut c_void,
) -> bool {
    let f = ir::function(f);
    let dom = DomTree::from_raw(dt);
    let remarks = Remarks::from_raw(ore);
    let (reader, mut model) = Reader::read(f, &dom);
    let out = plan::plan(&mut model, rewrites(&Knobs::current()));
    record(&out);
    for &e in &out.edits {
        log::debug!("nv-cssa: {e:?}");
        reader.apply(e, &remarks);
    }
    !out.edits.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    /// Dominance by table, for functions whose tree the test writes out: block names.
    struct Table<'a> {
        idom: &'a [(&'a str, &'a str)],
        edges: &'a [(&'a str, &'a str, &'a str)],
    }

    fn name(bb: BasicBlock) -> String {
        bb.get_name().to_string_lossy().into_owned()
    }

    impl<'ctx> Dominance<'ctx> for Table<'_> {
        fn reachable(&self, _: BasicBlock<'ctx>) -> bool {
            true
        }
        fn idom(&self, bb: BasicBlock<'ctx>) -> Option<BasicBlock<'ctx>> {
            let f = bb.get_parent()?;
            let (_, d) = self.idom.iter().find(|(b, _)| *b == name(bb))?;
            f.get_basic_block_iter().find(|b| name(*b) == *d)
        }
        fn edge_dominates(
            &self,
            from: BasicBlock<'ctx>,
            to: BasicBlock<'ctx>,
            bb: BasicBlock<'ctx>,
        ) -> bool {
            self.edges.contains(&(&*name(from), &*name(to), &*name(bb)))
        }
    }

    fn with_function(ir: &str, test: impl FnOnce(FunctionValue)) {
        let context = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "test");
        let module = context.create_module_from_ir(buf).expect("valid IR");
        test(module.get_first_function().expect("a function"));
    }

    const SINK: &str = "
define void @f(i32 %n) {
entry:
  br label %loop
loop:
  %iv = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %iv, 1
  %c = icmp ult i32 %iv, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}";

    #[test]
    fn reads_the_numbering_and_plans_a_sink() {
        with_function(SINK, |f| {
            let none = Table { idom: &[], edges: &[] };
            let (_, mut m) = Reader::read(f, &none);
            assert_eq!(m.succs, vec![vec![1], vec![1, 2], vec![]]);
            assert_eq!(m.order, vec![vec![0], vec![1, 2, 3, 4], vec![5]]);
            let kinds: Vec<InstKind> = m.insts.iter().map(|i| i.kind).collect();
            use InstKind::*;
            assert_eq!(kinds, vec![Terminator, Phi, Movable, Movable, Terminator, Terminator]);
            assert_eq!(m.args, 1);
            assert_eq!(m.uses[1], vec![Use::Inst(2), Use::Inst(3)]);
            assert_eq!(m.uses[2], vec![Use::Edge { from: 1, phi: 0, slot: 1 }]);
            assert_eq!(m.uses[6], vec![Use::Inst(3)]);
            assert_eq!(m.phis[0].incoming[0], Incoming { pred: 0, value: None, equal: vec![] });
            let out = plan::plan(&mut m, Rewrites::default());
            assert_eq!(out.edits, vec![Edit::Sink { inst: 2, after: 3 }]);
        });
    }

    const EQUAL: &str = "
define void @g(i32 %n, i32 %m) {
entry:
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k4, %head ]
  %k4 = add i32 %k, 4
  %done = icmp eq i32 %n, %k4
  br i1 %done, label %out, label %head
out:
  br label %join
join:
  %r = phi i32 [ %n, %out ]
  %w = load i32, ptr null
  ret void
}";

    #[test]
    fn finds_equal_values_on_dominating_edges() {
        with_function(EQUAL, |f| {
            let dom = Table {
                idom: &[("head", "entry"), ("out", "head"), ("join", "out")],
                edges: &[("head", "out", "out")],
            };
            let (_, m) = Reader::read(f, &dom);
            // %k4 is instruction 2; %r's operand %n is argument 0 (value 9, after 9 instructions).
            assert_eq!(m.phis[1].incoming[0], Incoming { pred: 2, value: Some(9), equal: vec![2] });
            assert_eq!(m.insts[7].kind, InstKind::Fixed, "a load is not movable");
            let (_, m) = Reader::read(f, &Table { idom: dom.idom, edges: &[] });
            assert!(m.phis[1].incoming[0].equal.is_empty(), "the edge must dominate");
        });
    }

    #[test]
    fn both_rewrites_are_on_by_default() {
        assert_eq!(rewrites(&Knobs::defaults()), Rewrites::default());
    }
}
