//! The register-pressure estimator: how many 32-bit registers (and predicates) the values of a
//! function hold live at once, from SSA liveness over IR before instruction selection. One
//! estimate for every pass that needs one (the LSR gate, BASR's budget, nv-remat, the IV
//! rewriting); NVPTX has no register allocator in llc, so this is what ptxas will have to
//! allocate before its own rematerialization and scheduling.
//!
//! Units (docs/CICC-FACTS.md "Register pressure and rematerialization"): a value of up to 32 bits
//! is one register, wider integers and floating point values one per 32 bits (i64, double and
//! 64-bit pointers 2), vectors by their total width (`<2 x half>` 1, `<4 x float>` 4),
//! aggregates by their fields; `i1` and vectors of it count in the predicate class, apart.
//!
//! Liveness is the textbook backward dataflow on SSA: a PHI's incoming value is live out of its
//! incoming block (not into the PHI's block), a PHI's result is defined at its block's top,
//! arguments are defined at the entry. Within a block the walk goes backward from the live-out
//! set; at each instruction the pressure is what is live after it plus its own result when
//! nothing uses it (the result still takes a register at its definition). Facts reported:
//! - per block: the live-in set, its weight, and the largest pressure inside the block;
//! - per function: the largest pressure anywhere.
//!
//! [`ir`] builds the [`Graph`] from a function; [`target`] says how many registers a function
//! should fit in.
pub mod ir;
pub mod target;

/// Registers one value takes: 32-bit registers and predicates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Units {
    pub regs: u32,
    pub preds: u32,
}

impl Units {
    /// A scalar of `bits` bits (`i1` is a predicate).
    pub fn scalar(bits: u32) -> Units {
        if bits == 1 {
            Units { regs: 0, preds: 1 }
        } else {
            Units { regs: bits.div_ceil(32), preds: 0 }
        }
    }

    /// A vector of `n` elements of `bits` bits: packed into 32-bit registers by total width.
    pub fn vector(bits: u32, n: u32) -> Units {
        if bits == 1 {
            Units { regs: 0, preds: n }
        } else {
            Units { regs: (bits * n).div_ceil(32), preds: 0 }
        }
    }

    fn add(self, o: Units) -> Units {
        Units { regs: self.regs + o.regs, preds: self.preds + o.preds }
    }

    /// The sum of the fields of an aggregate.
    pub fn sum(fields: impl IntoIterator<Item = Units>) -> Units {
        fields.into_iter().fold(Units::default(), Units::add)
    }
}

/// One non-PHI instruction: the value it defines (if it is a register value) and the values it
/// reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inst {
    pub def: Option<usize>,
    pub uses: Vec<usize>,
}

/// One PHI: its value and, per incoming edge, the block it comes from and the value it reads
/// (`None` for a constant).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Phi {
    pub def: usize,
    pub incoming: Vec<(usize, Option<usize>)>,
}

/// A block: successors, PHIs, then the other instructions in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    pub succs: Vec<usize>,
    pub phis: Vec<Phi>,
    pub insts: Vec<Inst>,
}

/// A function as liveness sees it: values are numbered 0..weights.len(); block 0 is the entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    pub blocks: Vec<Block>,
    pub weights: Vec<Units>,
}

impl Graph {
    /// Each block's predecessors, one entry per edge.
    pub fn predecessors(&self) -> Vec<Vec<usize>> {
        let mut preds = vec![Vec::new(); self.blocks.len()];
        for (b, block) in self.blocks.iter().enumerate() {
            for &t in &block.succs {
                preds[t].push(b);
            }
        }
        preds
    }
}

/// A set of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueSet(Vec<u64>);

impl ValueSet {
    pub fn new(n: usize) -> ValueSet {
        ValueSet(vec![0; n.div_ceil(64)])
    }

    pub fn contains(&self, v: usize) -> bool {
        self.0[v / 64] >> (v % 64) & 1 != 0
    }

    /// Adds `v`; whether it was new.
    pub fn insert(&mut self, v: usize) -> bool {
        let new = !self.contains(v);
        self.0[v / 64] |= 1 << (v % 64);
        new
    }

    pub fn remove(&mut self, v: usize) {
        self.0[v / 64] &= !(1 << (v % 64));
    }

    /// Removes every member of `o`.
    pub fn subtract(&mut self, o: &ValueSet) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a &= !b;
        }
    }

    /// Removes every member.
    pub fn clear(&mut self) {
        self.0.iter_mut().for_each(|w| *w = 0);
    }

    /// Adds every member of `o`; whether anything was new.
    pub fn union(&mut self, o: &ValueSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            changed |= *b & !*a != 0;
            *a |= b;
        }
        changed
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64).filter(move |b| bits >> b & 1 != 0).map(move |b| w * 64 + b)
        })
    }

    /// The registers the members take.
    pub fn weight(&self, weights: &[Units]) -> Units {
        Units::sum(self.iter().map(|v| weights[v]))
    }
}

/// What the estimator found.
#[derive(Clone, Debug)]
pub struct Pressure {
    /// Per block: values live on entry (PHI results not included: they are defined there).
    pub live_in: Vec<ValueSet>,
    /// Per block: registers live on entry, PHI results included.
    pub entry: Vec<Units>,
    /// Per block: the largest number of registers live at once inside the block.
    pub block_max: Vec<Units>,
}

impl Pressure {
    /// The largest pressure anywhere in the function.
    pub fn max(&self) -> Units {
        Units {
            regs: self.block_max.iter().map(|u| u.regs).max().unwrap_or(0),
            preds: self.block_max.iter().map(|u| u.preds).max().unwrap_or(0),
        }
    }

    /// The largest pressure in a set of blocks (a loop's).
    pub fn max_in(&self, blocks: impl IntoIterator<Item = usize>) -> u32 {
        blocks.into_iter().map(|b| self.block_max[b].regs).max().unwrap_or(0)
    }
}

/// Per loop, whether its register pressure (the largest number of registers live at once in
/// its blocks) exceeds the function's register target ([`target::for_function`]).
pub fn loops_over_target(
    f: inkwell::values::FunctionValue,
    loops: &[crate::analysis::ir::loops::Loop],
) -> Vec<bool> {
    if loops.is_empty() {
        return Vec::new();
    }
    let target = target::for_function(f, &crate::knobs::Knobs::current());
    let numbered = ir::graph(f);
    let est = estimate(&numbered.graph);
    loops
        .iter()
        .map(|l| {
            let blocks = (0..numbered.blocks.len()).filter(|&b| l.contains(numbered.blocks[b]));
            let peak = est.max_in(blocks);
            log::debug!(
                "pressure: {}: loop pressure {peak}, target {} ({})",
                f.get_name().to_string_lossy(),
                target.regs,
                target.source.describe()
            );
            peak > target.regs
        })
        .collect()
}

/// Registers carried around each loop whose header is a block of `f`, per block: live on
/// entry to the block, its PHIs included (what the LSR gate compares with `lsr-rp-limit`).
pub fn carried(
    f: inkwell::values::FunctionValue,
) -> crate::fast_hash::HashMap<llvm_sys::prelude::LLVMBasicBlockRef, u32> {
    let numbered = ir::graph(f);
    let est = estimate(&numbered.graph);
    numbered.blocks.iter().enumerate().map(|(b, &bb)| (bb, est.entry[b].regs)).collect()
}

/// The values [`carried`] counts, for several loop headers of one function from one liveness
/// run: per header, each value live on entry to it (its PHIs included) with its registers.
pub fn carried_values(
    f: inkwell::values::FunctionValue,
    headers: &[llvm_sys::prelude::LLVMBasicBlockRef],
) -> Vec<Vec<(llvm_sys::prelude::LLVMValueRef, u32)>> {
    let numbered = ir::graph(f);
    let est = estimate(&numbered.graph);
    let g = &numbered.graph;
    headers
        .iter()
        .map(|h| {
            let Some(&b) = numbered.block_index.get(h) else { return Vec::new() };
            let phis = g.blocks[b].phis.iter().map(|p| p.def);
            est.live_in[b]
                .iter()
                .chain(phis)
                .filter(|&v| g.weights[v].regs > 0)
                .map(|v| (numbered.values[v], g.weights[v].regs))
                .collect()
        })
        .collect()
}

/// Values used in `b` before any definition there (PHI operands excluded), and values defined
/// in `b` (PHI results included).
fn local_sets(g: &Graph, b: &Block) -> (ValueSet, ValueSet) {
    let n = g.weights.len();
    let (mut used, mut defined) = (ValueSet::new(n), ValueSet::new(n));
    for p in &b.phis {
        defined.insert(p.def);
    }
    for i in &b.insts {
        for &u in &i.uses {
            if !defined.contains(u) {
                used.insert(u);
            }
        }
        if let Some(d) = i.def {
            defined.insert(d);
        }
    }
    (used, defined)
}

/// Values live out of block `b`: the successors' live-ins and the PHI operands flowing from `b`.
pub fn live_out(g: &Graph, b: usize, live_in: &[ValueSet]) -> ValueSet {
    let mut out = phi_operands_out(g, b);
    for &s in &g.blocks[b].succs {
        out.union(&live_in[s]);
    }
    out
}

/// Live-in sets of every block (iterated to the fixed point, blocks in reverse order). The
/// least fixed point is the same whatever the order; each sweep reuses one scratch set, and the
/// PHI operands each block sends its successors are gathered once.
fn live_ins(g: &Graph) -> Vec<ValueSet> {
    let n = g.weights.len();
    let locals: Vec<_> = g.blocks.iter().map(|b| local_sets(g, b)).collect();
    let phi_out: Vec<ValueSet> = (0..g.blocks.len()).map(|b| phi_operands_out(g, b)).collect();
    let mut live_in = vec![ValueSet::new(n); g.blocks.len()];
    let mut set = ValueSet::new(n);
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..g.blocks.len()).rev() {
            set.clear();
            for &s in &g.blocks[b].succs {
                set.union(&live_in[s]);
            }
            set.union(&phi_out[b]);
            set.subtract(&locals[b].1);
            set.union(&locals[b].0);
            changed |= live_in[b].union(&set);
        }
    }
    live_in
}

/// The PHI operands flowing from block `b` into its successors (the part of [`live_out`] that
/// does not depend on the live-in sets).
fn phi_operands_out(g: &Graph, b: usize) -> ValueSet {
    let mut out = ValueSet::new(g.weights.len());
    for &s in &g.blocks[b].succs {
        for p in &g.blocks[s].phis {
            for &(from, v) in &p.incoming {
                if let (true, Some(v)) = (from == b, v) {
                    out.insert(v);
                }
            }
        }
    }
    out
}

/// The largest pressure inside block `b` given what is live out of it, and the registers live
/// at its top (after its PHIs).
fn walk_block(g: &Graph, b: usize, out: ValueSet) -> (Units, Units) {
    walk(g, b, out, None)
}

/// The walk of [`walk_block`] from the bottom of block `b` up; with `born = Some((v, k))`, value
/// `v` is taken as defined right before instruction `k` (not live above it).
fn walk(g: &Graph, b: usize, out: ValueSet, born: Option<(usize, usize)>) -> (Units, Units) {
    let w = &g.weights;
    let mut live = out;
    let mut cur = live.weight(w);
    let mut max = cur;
    for (k, i) in g.blocks[b].insts.iter().enumerate().rev() {
        if let Some(d) = i.def {
            if live.contains(d) {
                live.remove(d);
            } else {
                // A result nobody reads still takes its register where it is defined.
                max = upper(max, cur.add(w[d]));
                cur = cur.add(w[d]);
            }
            cur = sub(cur, w[d]);
        }
        for &u in &i.uses {
            if live.insert(u) {
                cur = cur.add(w[u]);
            }
        }
        max = upper(max, cur);
        if let Some((v, _)) = born.filter(|&(v, first)| k == first && live.contains(v)) {
            live.remove(v);
            cur = sub(cur, w[v]);
        }
    }
    (max, cur)
}

/// The largest number of registers live at once in block `b` if value `v`, live into `b` and
/// used there, were instead defined right before its first use in `b` and dead after its last
/// one there (nv-remat's clone for a use in `b`): what a rematerialization of `v` leaves of the
/// block's peak.
pub fn block_max_if_local(g: &Graph, p: &Pressure, b: usize, v: usize) -> u32 {
    let Some(first) = g.blocks[b].insts.iter().position(|i| i.uses.contains(&v)) else {
        return p.block_max[b].regs;
    };
    let mut out = live_out(g, b, &p.live_in);
    out.remove(v);
    walk(g, b, out, Some((v, first))).0.regs
}

fn upper(a: Units, b: Units) -> Units {
    Units { regs: a.regs.max(b.regs), preds: a.preds.max(b.preds) }
}

fn sub(a: Units, b: Units) -> Units {
    Units { regs: a.regs - b.regs, preds: a.preds - b.preds }
}

/// Estimates the register pressure of a function.
pub fn estimate(g: &Graph) -> Pressure {
    let live_in = live_ins(g);
    let mut entry = Vec::with_capacity(g.blocks.len());
    let mut block_max = Vec::with_capacity(g.blocks.len());
    for b in 0..g.blocks.len() {
        let (max, top) = walk_block(g, b, live_out(g, b, &live_in));
        entry.push(top);
        block_max.push(max);
    }
    Pressure { live_in, entry, block_max }
}

/// Builders of graphs for the tests of this module and of its users (nv-remat's planner).
#[cfg(test)]
pub mod fixtures {
    use super::{Block, Inst};

    pub fn inst(def: Option<usize>, uses: &[usize]) -> Inst {
        Inst { def, uses: uses.to_vec() }
    }

    /// A block without PHIs.
    pub fn block(succs: &[usize], insts: Vec<Inst>) -> Block {
        Block { succs: succs.to_vec(), phis: vec![], insts }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{block, inst};
    use super::*;

    #[test]
    fn units_by_type() {
        assert_eq!(Units::scalar(1), Units { regs: 0, preds: 1 });
        assert_eq!(Units::scalar(16), Units { regs: 1, preds: 0 });
        assert_eq!(Units::scalar(64), Units { regs: 2, preds: 0 });
        assert_eq!(Units::scalar(128), Units { regs: 4, preds: 0 });
        assert_eq!(Units::vector(16, 2), Units { regs: 1, preds: 0 });
        assert_eq!(Units::vector(32, 4), Units { regs: 4, preds: 0 });
        assert_eq!(Units::vector(1, 4), Units { regs: 0, preds: 4 });
        assert_eq!(Units::sum([Units::scalar(64), Units::scalar(1)]), Units { regs: 2, preds: 1 });
    }

    #[test]
    fn straight_line_counts_overlap_only() {
        // v0 (i64, an argument); v1 = f(v0); v2 = g(v1); use v2: v0 dies where v1 is made.
        let g = Graph {
            blocks: vec![block(
                &[],
                vec![inst(Some(1), &[0]), inst(Some(2), &[1]), inst(None, &[2])],
            )],
            weights: vec![Units::scalar(64), Units::scalar(32), Units::scalar(32)],
        };
        let p = estimate(&g);
        // Before v1: v0 live (2); after v1: v1 (1). The maximum is 2 at the top.
        assert_eq!(p.block_max[0].regs, 2);
        assert_eq!(p.entry[0].regs, 2);
        assert!(p.live_in[0].contains(0));
    }

    #[test]
    fn values_live_across_a_loop_count_in_its_blocks() {
        // b0: v0, v1 defined -> b1 (loop: v2 = phi [0 from b0, v3 from b1]; v3 = v2 + v0;
        // br b1 or b2) ; b2: use v1.
        let g = Graph {
            blocks: vec![
                block(&[1], vec![inst(Some(0), &[]), inst(Some(1), &[])]),
                Block {
                    succs: vec![1, 2],
                    phis: vec![Phi { def: 2, incoming: vec![(0, None), (1, Some(3))] }],
                    insts: vec![inst(Some(3), &[2, 0]), inst(None, &[3])],
                },
                block(&[], vec![inst(None, &[1])]),
            ],
            weights: vec![Units::scalar(32); 4],
        };
        let p = estimate(&g);
        // v1 is live through the loop although the loop never reads it.
        assert!(p.live_in[1].contains(1));
        assert!(p.live_in[1].contains(0));
        assert!(!p.live_in[1].contains(2), "a PHI result is defined in its block");
        // In the loop: v0, v1, v2 at the top, then v0, v1, v3.
        assert_eq!(p.entry[1].regs, 3);
        assert_eq!(p.block_max[1].regs, 3);
        assert_eq!(p.max_in([1]), 3);
        assert_eq!(p.max().regs, 3);
        // The PHI operand v3 is live out of the latch but not into the exit block.
        assert!(!p.live_in[2].contains(3));
    }

    #[test]
    fn a_value_made_local_to_a_block_leaves_its_peak_only_where_it_is_not_live() {
        // b0 defines v0, v1 -> b1: v2 = v1 (first use of v1), v3 = v2 + v0, v4 = v3, use v4, v1.
        // v0 and v1 are live in; v1 is read at the top and at the end of b1.
        let g = |late: bool| {
            let first = if late { inst(Some(2), &[0]) } else { inst(Some(2), &[1]) };
            Graph {
                blocks: vec![
                    block(&[1], vec![inst(Some(0), &[]), inst(Some(1), &[])]),
                    block(
                        &[],
                        vec![
                            first,
                            inst(Some(3), &[2, 0]),
                            inst(Some(4), &[3]),
                            inst(None, &[4, 1]),
                        ],
                    ),
                ],
                weights: vec![Units::scalar(32); 5],
            }
        };
        // Used at the top: the peak (v0, v1, v2 around the second instruction) keeps v1.
        let e = g(false);
        let p = estimate(&e);
        assert_eq!(p.block_max[1].regs, 3);
        assert_eq!(block_max_if_local(&e, &p, 1, 1), 3);
        // Used only at the end: v1 leaves the peak.
        let e = g(true);
        let p = estimate(&e);
        assert_eq!(p.block_max[1].regs, 3);
        assert_eq!(block_max_if_local(&e, &p, 1, 1), 2);
        // A value the block does not read: its peak as it is.
        assert_eq!(block_max_if_local(&e, &p, 1, 3), 3);
    }

    #[test]
    fn unused_results_still_take_a_register() {
        let g = Graph {
            blocks: vec![block(
                &[],
                vec![inst(Some(0), &[]), inst(Some(1), &[]), inst(None, &[0])],
            )],
            weights: vec![Units::scalar(32), Units::scalar(64)],
        };
        assert_eq!(estimate(&g).block_max[0].regs, 3);
    }

    #[test]
    fn predicates_count_apart() {
        let g = Graph {
            blocks: vec![block(
                &[],
                vec![inst(Some(0), &[]), inst(Some(1), &[]), inst(None, &[0, 1])],
            )],
            weights: vec![Units::scalar(1), Units::scalar(32)],
        };
        assert_eq!(estimate(&g).max(), Units { regs: 1, preds: 1 });
    }

    #[test]
    fn value_sets() {
        let mut s = ValueSet::new(130);
        assert!(s.insert(129));
        assert!(!s.insert(129));
        s.insert(3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 129]);
        s.remove(3);
        let mut t = ValueSet::new(130);
        assert!(t.union(&s));
        assert!(!t.union(&s));
    }
}
