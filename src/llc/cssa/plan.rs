//! The planner of `nv-cssa` (docs/CICC-FACTS.md, "CSSA coalescing": coalesce PHI operands
//! at the SSA level, before PHI elimination, so that PHI lowering leaves fewer copies;
//! docs/CICC-FACTS.md "NVPTX in LLVM 22 (for the coalescer)": the copies that survive LLVM's
//! RegisterCoalescer and nv-coalesce are PHI rotations, old IV values live after an increment
//! and loop-invariant values copied into a PHI).
//!
//! A PHI web (the PHI and its operands) is conventional when no two of its members interfere;
//! then PHI elimination's copies all coalesce. LLVM's PHI elimination already inserts the
//! copies that Sreedhar's method would insert to make a web conventional, so this pass does not
//! add copies; it removes the interference that makes RegisterCoalescer keep them, with two
//! rewrites that keep the program's values exactly:
//!
//! - **equal operand**: an operand `v` that interferes with its PHI is replaced by a value `a`
//!   that is provably equal to `v` on the incoming edge (a dominating `icmp eq`/`icmp ne` branch
//!   edge, found by the adapter) and that does not interfere with the PHI. Typical case: the
//!   remainder loop after an unrolled loop starts from the loop-invariant trip count
//!   (`%unroll_iter`, live on around the outer loop) although the exit test proved it equal to
//!   the unrolled loop's own counter, which dies at the exit.
//! - **sink**: an operand `v` defined in the incoming block while the PHI's old value is still
//!   used later in that block (`%iv.next = add %iv, 256 ... icmp ult %iv, 768`) is moved to just
//!   after the last such use, when it reads no memory, has no side effects and none of its own
//!   users in the block come before that point.
//!
//! Interference is SSA interference (Budimlić et al.): two values interfere when one is live at
//! the other's definition; for a PHI the definition of its result is the top of its block and
//! each operand is also written by the copy at the end of its incoming block. Liveness is
//! computed here, on the pure-data [`Model`] the adapter (src/llc/cssa/adapter.rs) builds.

/// How an instruction may be treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstKind {
    Phi,
    Terminator,
    /// Reads no memory, has no side effects, is no call: may move later within its block.
    Movable,
    Fixed,
}

/// One instruction: its block and kind. Instruction ids are indices into [`Model::insts`].
#[derive(Clone, Debug)]
pub struct Inst {
    pub block: u32,
    pub kind: InstKind,
}

/// One use of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// An operand of a non-PHI instruction.
    Inst(u32),
    /// Operand `slot` of PHI `phi` (index into [`Model::phis`]), read at the end of block `from`.
    Edge { from: u32, phi: u32, slot: u32 },
}

/// One incoming operand of a PHI.
#[derive(Clone, Debug, PartialEq)]
pub struct Incoming {
    pub pred: u32,
    /// The operand when it is a register value (an instruction or argument); `None` for
    /// constants, undef and poison.
    pub value: Option<u32>,
    /// Register values provably equal to the operand at the end of `pred` (on the edge).
    pub equal: Vec<u32>,
}

/// One PHI: its instruction and operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Phi {
    pub inst: u32,
    pub incoming: Vec<Incoming>,
}

/// A function as the planner sees it. Values are numbered: instructions first (their ids), then
/// the arguments (`insts.len() + i`), which are defined at the top of block 0.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub succs: Vec<Vec<u32>>,
    /// Instruction ids of each block, in order.
    pub order: Vec<Vec<u32>>,
    pub insts: Vec<Inst>,
    pub args: u32,
    /// Uses of each value (instructions, then arguments).
    pub uses: Vec<Vec<Use>>,
    pub phis: Vec<Phi>,
    preds: Vec<Vec<u32>>,
    pos: Vec<u32>,
}

/// One rewrite, for the adapter to apply in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Operand `slot` of PHI `phi` becomes value `with`.
    Substitute { phi: u32, slot: u32, with: u32 },
    /// Instruction `inst` moves to just after instruction `after` (same block).
    Sink { inst: u32, after: u32 },
}

/// What the planner did with the interfering operands it saw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub edits: Vec<Edit>,
    /// PHI operands that are register values.
    pub operands: u64,
    /// Of those, operands that interfere with their PHI (before any rewrite).
    pub interfering: u64,
    pub substituted: u64,
    pub sunk: u64,
    /// Interfering operands neither rewrite applies to.
    pub left: u64,
}

/// Liveness of one value: per block, live on entry and live on exit.
struct Live {
    live_in: Vec<bool>,
    live_out: Vec<bool>,
}

impl Model {
    /// Builds the model; `order` gives each block's instruction ids, `uses` each value's uses.
    pub fn new(
        succs: Vec<Vec<u32>>,
        order: Vec<Vec<u32>>,
        insts: Vec<Inst>,
        args: u32,
        uses: Vec<Vec<Use>>,
        phis: Vec<Phi>,
    ) -> Self {
        let mut preds = vec![Vec::new(); succs.len()];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                if !preds[s as usize].contains(&(b as u32)) {
                    preds[s as usize].push(b as u32);
                }
            }
        }
        let mut m = Model { succs, order, insts, args, uses, phis, preds, pos: Vec::new() };
        m.renumber();
        m
    }

    fn renumber(&mut self) {
        self.pos = vec![0; self.insts.len()];
        for ids in &self.order {
            for (p, &i) in ids.iter().enumerate() {
                self.pos[i as usize] = p as u32;
            }
        }
    }

    fn is_arg(&self, v: u32) -> bool {
        v as usize >= self.insts.len()
    }

    /// Block and position of a value's definition; arguments are at the top of block 0 (no
    /// position), the PHIs of a block all at position 0 (they are defined at once).
    fn def(&self, v: u32) -> (u32, Option<u32>) {
        if self.is_arg(v) {
            return (0, None);
        }
        let i = &self.insts[v as usize];
        (i.block, Some(if i.kind == InstKind::Phi { 0 } else { self.pos[v as usize] }))
    }

    fn phi_value(&self, phi: u32) -> u32 {
        self.phis[phi as usize].inst
    }

    fn phi_block(&self, phi: u32) -> u32 {
        self.insts[self.phi_value(phi) as usize].block
    }

    /// SSA liveness of `v` (backward from its uses to its definition).
    fn live(&self, v: u32) -> Live {
        let n = self.succs.len();
        let (def_block, def_pos) = self.def(v);
        let mut l = Live { live_in: vec![false; n], live_out: vec![false; n] };
        let mut work = Vec::new();
        let enter = |b: u32, l: &mut Live, work: &mut Vec<u32>| {
            if b != def_block && !l.live_in[b as usize] {
                l.live_in[b as usize] = true;
                work.push(b);
            }
        };
        for u in &self.uses[v as usize] {
            match *u {
                Use::Inst(i) => {
                    let b = self.insts[i as usize].block;
                    let local = b == def_block && def_pos.is_none_or(|d| self.pos[i as usize] > d);
                    if !local {
                        enter(b, &mut l, &mut work);
                    }
                }
                Use::Edge { from, .. } => {
                    l.live_out[from as usize] = true;
                    enter(from, &mut l, &mut work);
                }
            }
        }
        while let Some(b) = work.pop() {
            for &p in &self.preds[b as usize] {
                l.live_out[p as usize] = true;
                enter(p, &mut l, &mut work);
            }
        }
        l
    }

    /// Whether `v` is live just after position `pos` of `block`: defined there or before, and
    /// read later in the block or after it.
    fn live_after(&self, v: u32, l: &Live, block: u32, pos: u32) -> bool {
        let (db, dp) = self.def(v);
        let defined = l.live_in[block as usize] || (db == block && dp.is_none_or(|d| d <= pos));
        if !defined {
            return false;
        }
        l.live_out[block as usize]
            || self.uses[v as usize].iter().any(|u| match *u {
                Use::Inst(i) => self.insts[i as usize].block == block && self.pos[i as usize] > pos,
                Use::Edge { .. } => false,
            })
    }

    /// Whether register value `x`, as operand `slot` of `phi`, interferes with the PHI's result:
    /// `x` live at the top of the PHI's block, the result live after `x`'s definition, or `x`
    /// live at the end of another incoming block whose copy writes a different value.
    fn interferes(&self, phi: u32, slot: u32, x: u32) -> bool {
        let p = self.phi_value(phi);
        if x == p {
            return false;
        }
        let lx = self.live(x);
        if lx.live_in[self.phi_block(phi) as usize] {
            return true;
        }
        if !self.is_arg(x) {
            let (xb, xp) = self.def(x);
            if self.live_after(p, &self.live(p), xb, xp.unwrap_or(0)) {
                return true;
            }
        }
        let pred = self.phis[phi as usize].incoming[slot as usize].pred;
        self.phis[phi as usize]
            .incoming
            .iter()
            .any(|o| o.pred != pred && o.value != Some(x) && lx.live_out[o.pred as usize])
    }

    fn remove_use(&mut self, v: u32, u: Use) {
        if let Some(i) = self.uses[v as usize].iter().position(|x| *x == u) {
            self.uses[v as usize].swap_remove(i);
        }
    }

    fn substitute(&mut self, phi: u32, slot: u32, with: u32) {
        let inc = &mut self.phis[phi as usize].incoming[slot as usize];
        let old = inc.value.replace(with);
        let u = Use::Edge { from: inc.pred, phi, slot };
        if let Some(v) = old {
            self.remove_use(v, u);
        }
        self.uses[with as usize].push(u);
    }

    /// The equal-operand rewrite for operand `slot` of `phi`: the first equal value that does
    /// not interfere with the PHI.
    fn equal_operand(&self, phi: u32, slot: u32) -> Option<u32> {
        let inc = &self.phis[phi as usize].incoming[slot as usize];
        inc.equal.iter().copied().find(|&a| Some(a) != inc.value && !self.interferes(phi, slot, a))
    }

    /// The sink rewrite for operand `slot` of `phi`: (instruction to move, instruction to put it
    /// after) when the operand is defined in the incoming block before the PHI's last use there
    /// and moving it below that use removes the interference.
    fn sink_point(&self, phi: u32, slot: u32) -> Option<(u32, u32)> {
        let inc = &self.phis[phi as usize].incoming[slot as usize];
        let v = inc.value?;
        if self.is_arg(v) {
            return None;
        }
        let vi = &self.insts[v as usize];
        if vi.kind != InstKind::Movable || vi.block != inc.pred {
            return None;
        }
        let block = vi.block;
        let p = self.phi_value(phi);
        let lp = self.live(p);
        let vpos = self.pos[v as usize];
        if lp.live_out[block as usize] || !self.live_after(p, &lp, block, vpos) {
            return None;
        }
        // The PHI's last read in the block (it is live after v but not out of the block).
        let last = self.uses[p as usize]
            .iter()
            .filter_map(|u| match *u {
                Use::Inst(i) if self.insts[i as usize].block == block => Some(i),
                _ => None,
            })
            .max_by_key(|&i| self.pos[i as usize])?;
        if self.insts[last as usize].kind == InstKind::Terminator {
            return None;
        }
        let t = self.pos[last as usize];
        let early_user = self.uses[v as usize].iter().any(|u| match *u {
            Use::Inst(i) => self.insts[i as usize].block == block && self.pos[i as usize] <= t,
            Use::Edge { .. } => false,
        });
        if early_user {
            return None;
        }
        // What else would still make v interfere after the move.
        let lv = self.live(v);
        let hb = self.phi_block(phi);
        let other_pred_live = self.phis[phi as usize]
            .incoming
            .iter()
            .any(|o| o.pred != block && o.value != Some(v) && lv.live_out[o.pred as usize]);
        if lv.live_in[hb as usize] || other_pred_live {
            return None;
        }
        Some((v, last))
    }

    fn sink(&mut self, inst: u32, after: u32) {
        let b = self.insts[inst as usize].block as usize;
        let ids = &mut self.order[b];
        let from = ids.iter().position(|&i| i == inst).expect("instruction in its block");
        ids.remove(from);
        let to = ids.iter().position(|&i| i == after).expect("anchor in the block");
        ids.insert(to + 1, inst);
        self.renumber();
    }
}

/// Which rewrites the planner may use (knobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewrites {
    pub equal_operand: bool,
    pub sink: bool,
}

impl Default for Rewrites {
    fn default() -> Self {
        Rewrites { equal_operand: true, sink: true }
    }
}

/// Plans the rewrites for one function, PHI by PHI, operand by operand; each decision sees the
/// model as earlier rewrites left it.
pub fn plan(m: &mut Model, allow: Rewrites) -> Outcome {
    let mut out = Outcome::default();
    for phi in 0..m.phis.len() as u32 {
        for slot in 0..m.phis[phi as usize].incoming.len() as u32 {
            let Some(v) = m.phis[phi as usize].incoming[slot as usize].value else {
                continue;
            };
            out.operands += 1;
            if !m.interferes(phi, slot, v) {
                continue;
            }
            out.interfering += 1;
            if allow.equal_operand {
                if let Some(a) = m.equal_operand(phi, slot) {
                    m.substitute(phi, slot, a);
                    out.edits.push(Edit::Substitute { phi, slot, with: a });
                    out.substituted += 1;
                    continue;
                }
            }
            if allow.sink {
                if let Some((inst, after)) = m.sink_point(phi, slot) {
                    m.sink(inst, after);
                    out.edits.push(Edit::Sink { inst, after });
                    out.sunk += 1;
                    continue;
                }
            }
            out.left += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use InstKind::*;

    /// A small function builder: blocks with successors, instructions appended to blocks.
    struct B {
        succs: Vec<Vec<u32>>,
        order: Vec<Vec<u32>>,
        insts: Vec<Inst>,
        args: u32,
        ops: Vec<(u32, Vec<u32>)>,
        phis: Vec<(u32, Vec<(u32, Option<u32>, Vec<u32>)>)>,
    }

    impl B {
        fn new(succs: &[&[u32]], args: u32) -> Self {
            B {
                succs: succs.iter().map(|s| s.to_vec()).collect(),
                order: vec![Vec::new(); succs.len()],
                insts: Vec::new(),
                args,
                ops: Vec::new(),
                phis: Vec::new(),
            }
        }
        fn inst(&mut self, block: u32, kind: InstKind, operands: &[u32]) -> u32 {
            let id = self.insts.len() as u32;
            self.insts.push(Inst { block, kind });
            self.order[block as usize].push(id);
            self.ops.push((id, operands.to_vec()));
            id
        }
        fn phi(&mut self, block: u32, incoming: &[(u32, Option<u32>, &[u32])]) -> u32 {
            let id = self.inst(block, Phi, &[]);
            self.phis.push((id, incoming.iter().map(|(p, v, e)| (*p, *v, e.to_vec())).collect()));
            id
        }
        /// Argument `i`'s value id (valid once every instruction is added).
        fn arg(&self, i: u32) -> u32 {
            self.insts.len() as u32 + i
        }
        fn build(self) -> Model {
            let n = self.insts.len() + self.args as usize;
            let fix = |v: u32| if v >= ARG { self.insts.len() as u32 + (v - ARG) } else { v };
            let mut uses = vec![Vec::new(); n];
            for (id, ops) in &self.ops {
                for &o in ops {
                    uses[fix(o) as usize].push(Use::Inst(*id));
                }
            }
            let mut phis = Vec::new();
            for (k, (inst, inc)) in self.phis.iter().enumerate() {
                let mut incoming = Vec::new();
                for (slot, (pred, v, eq)) in inc.iter().enumerate() {
                    let v = v.map(fix);
                    if let Some(v) = v {
                        uses[v as usize].push(Use::Edge {
                            from: *pred,
                            phi: k as u32,
                            slot: slot as u32,
                        });
                    }
                    incoming.push(Incoming {
                        pred: *pred,
                        value: v,
                        equal: eq.iter().map(|&e| fix(e)).collect(),
                    });
                }
                phis.push(super::Phi { inst: *inst, incoming });
            }
            Model::new(self.succs, self.order, self.insts, self.args, uses, phis)
        }
    }

    /// Placeholder ids for arguments while instructions are still being added.
    const ARG: u32 = 1_000_000;

    /// entry(0) -> loop(1) -> loop | exit(2) with `args` arguments and `%iv = phi [0, entry],
    /// [latch, loop]` (instruction `latch` of the loop): the builder, past the entry's
    /// terminator and the PHI, and the PHI.
    fn one_loop(args: u32, latch: u32) -> (B, u32) {
        let mut b = B::new(&[&[1], &[1, 2], &[]], args);
        b.inst(0, Terminator, &[]);
        let iv = b.phi(1, &[(0, None, &[]), (1, Some(latch), &[])]);
        (b, iv)
    }

    /// [`one_loop`] with `%next = add %iv, 1`, then `%c = icmp %iv, n` (old value read after
    /// the increment).
    fn old_iv_compare(movable: bool) -> (Model, u32, u32, u32) {
        let (mut b, iv) = one_loop(1, 2);
        let next = b.inst(1, if movable { Movable } else { Fixed }, &[iv]);
        let c = b.inst(1, Movable, &[iv, ARG]);
        b.inst(1, Terminator, &[c]);
        b.inst(2, Terminator, &[]);
        assert_eq!(next, 2);
        (b.build(), iv, next, c)
    }

    #[test]
    fn old_value_read_after_the_increment_interferes_and_is_sunk() {
        let (mut m, _, next, c) = old_iv_compare(true);
        let out = plan(&mut m, Rewrites::default());
        assert_eq!(out.interfering, 1);
        assert_eq!(out.edits, vec![Edit::Sink { inst: next, after: c }]);
        // After the move nothing interferes any more.
        assert!(!m.interferes(0, 1, next));
        assert_eq!(m.order[1], vec![1, c, next, 4]);
    }

    #[test]
    fn an_instruction_that_may_not_move_is_left() {
        let (mut m, ..) = old_iv_compare(false);
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.interfering, out.left), (1, 1));
        assert!(out.edits.is_empty());
    }

    #[test]
    fn sink_is_off_when_not_allowed() {
        let (mut m, ..) = old_iv_compare(true);
        let out = plan(&mut m, Rewrites { equal_operand: true, sink: false });
        assert!(out.edits.is_empty());
        assert_eq!(out.left, 1);
    }

    #[test]
    fn the_increments_own_user_before_the_last_phi_read_blocks_the_sink() {
        // %next = add %iv, 1; %u = mul %next, 2; %c = icmp %iv, n: %u would come before %next.
        let (mut b, iv) = one_loop(1, 2);
        let next = b.inst(1, Movable, &[iv]);
        b.inst(1, Movable, &[next]);
        let c = b.inst(1, Movable, &[iv, ARG]);
        b.inst(1, Terminator, &[c]);
        b.inst(2, Terminator, &[]);
        let mut m = b.build();
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.interfering, out.left, out.sunk), (1, 1, 0));
    }

    #[test]
    fn phi_used_after_the_loop_cannot_be_fixed_by_sinking() {
        // The old value is read in the exit block too: it is live out of the latch.
        let (mut b, iv) = one_loop(1, 2);
        b.inst(1, Movable, &[iv]);
        let c = b.inst(1, Movable, &[iv, ARG]);
        b.inst(1, Terminator, &[c]);
        b.inst(2, Fixed, &[iv]);
        b.inst(2, Terminator, &[]);
        let mut m = b.build();
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.interfering, out.left), (1, 1));
    }

    #[test]
    fn a_phi_read_by_the_terminator_itself_is_left() {
        let (mut b, iv) = one_loop(0, 2);
        b.inst(1, Movable, &[iv]);
        b.inst(1, Terminator, &[iv]);
        b.inst(2, Terminator, &[]);
        let mut m = b.build();
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.interfering, out.left), (1, 1));
    }

    #[test]
    fn conventional_webs_are_not_touched() {
        // %iv = phi [0, entry], [%next, loop]; %c = icmp %iv...; %next = add %iv, 1 (after).
        let (mut b, iv) = one_loop(0, 3);
        let c = b.inst(1, Movable, &[iv]);
        b.inst(1, Movable, &[iv]);
        b.inst(1, Terminator, &[c]);
        b.inst(2, Terminator, &[]);
        let mut m = b.build();
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.operands, out.interfering), (1, 0));
        assert!(out.edits.is_empty());
    }

    /// The unrolled-loop remainder: entry(0) -> outer(1) -> body(2) -> body | exit(3) ->
    /// rem(4) -> outer | done(5). `%n` (argument) is the trip count, live around the outer loop
    /// (read by body's compare); `%k = phi [0, outer], [%k2, body]`, `%k2 = add %k, 4`,
    /// `%c = icmp eq %n, %k2`; in rem, `%r = phi [%n, exit]` with `%k2` equal to `%n` there,
    /// read by `%r2 = add %r, ..` (or, with `reads_k2`, by an instruction that reads `%k2` too).
    fn remainder_with(equal: bool, reads_k2: bool) -> (Model, u32) {
        let mut b = B::new(&[&[1], &[2], &[2, 3], &[4], &[1, 5], &[]], 1);
        b.inst(0, Terminator, &[]);
        b.inst(1, Terminator, &[]);
        let k = b.phi(2, &[(1, None, &[]), (2, Some(3), &[])]);
        let k2 = b.inst(2, Movable, &[k]);
        let c = b.inst(2, Movable, &[ARG, k2]);
        b.inst(2, Terminator, &[c]);
        b.inst(3, Terminator, &[]);
        let eq: &[u32] = if equal { &[3] } else { &[] };
        let r = b.phi(4, &[(3, Some(ARG), eq)]);
        if reads_k2 {
            b.inst(4, Fixed, &[r, k2]);
        } else {
            let r2 = b.inst(4, Movable, &[r]);
            b.inst(4, Fixed, &[r2]);
        }
        b.inst(4, Terminator, &[]);
        b.inst(5, Terminator, &[]);
        assert_eq!(k2, 3);
        (b.build(), r)
    }

    fn remainder(equal: bool) -> (Model, u32) {
        remainder_with(equal, false)
    }

    #[test]
    fn a_live_on_operand_is_replaced_by_the_equal_value_that_dies() {
        let (mut m, _) = remainder(true);
        let n = m.insts.len() as u32;
        assert!(m.interferes(1, 0, n));
        let out = plan(&mut m, Rewrites::default());
        assert_eq!(out.edits, vec![Edit::Substitute { phi: 1, slot: 0, with: 3 }]);
        assert_eq!(out.substituted, 1);
        assert!(!m.interferes(1, 0, 3));
        assert!(m.uses[n as usize].iter().all(|u| matches!(u, Use::Inst(_))));
    }

    #[test]
    fn without_an_equal_value_the_operand_is_left() {
        let (mut m, _) = remainder(false);
        let out = plan(&mut m, Rewrites::default());
        assert_eq!((out.interfering, out.left), (1, 1));
        let (mut m, _) = remainder(true);
        let out = plan(&mut m, Rewrites { equal_operand: false, sink: true });
        assert_eq!(out.substituted, 0);
    }

    #[test]
    fn an_equal_value_that_interferes_too_is_not_used() {
        // rem also reads %k2 after the PHI: %k2 is live at the top of rem.
        let (mut m, _) = remainder_with(true, true);
        let out = plan(&mut m, Rewrites::default());
        assert_eq!(out.substituted, 0);
        assert_eq!(out.left, 1);
    }

    #[test]
    fn liveness_stops_at_the_definition_and_follows_back_edges() {
        let (m, _) = remainder(true);
        let n = m.insts.len() as u32;
        let l = m.live(n);
        // The argument is read in body (2) on every trip of the outer loop.
        assert_eq!(l.live_in, vec![false, true, true, true, true, false]);
        assert_eq!(l.live_out, vec![true, true, true, true, true, false]);
        let l = m.live(3);
        assert!(l.live_out[2] && !l.live_in[2] && !l.live_in[3]);
        assert_eq!(m.arg_for_tests(0), n);
    }

    impl Model {
        fn arg_for_tests(&self, i: u32) -> u32 {
            self.insts.len() as u32 + i
        }
    }

    #[test]
    fn swap_of_two_phis_is_left_alone() {
        // %a = phi [x, entry], [%b, loop]; %b = phi [y, entry], [%a, loop]: a true swap.
        let mut b = B::new(&[&[1], &[1, 2], &[]], 2);
        b.inst(0, Terminator, &[]);
        let a = b.phi(1, &[(0, Some(ARG), &[]), (1, Some(2), &[])]);
        let bb = b.phi(1, &[(0, Some(ARG + 1), &[]), (1, Some(1), &[])]);
        let c = b.inst(1, Movable, &[a, bb]);
        b.inst(1, Terminator, &[c]);
        b.inst(2, Terminator, &[]);
        assert_eq!((a, bb), (1, 2));
        let _ = b.arg(0);
        let mut m = b.build();
        let out = plan(&mut m, Rewrites::default());
        assert_eq!(out.interfering, 2);
        assert!(out.edits.is_empty());
    }
}
