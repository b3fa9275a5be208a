//! nv-remat's planner: one round of decisions on a [`Model`] of a function (no LLVM here). The
//! adapter (src/llc/remat/adapter.rs) builds the model from the IR, applies the plan and runs
//! another round on the changed IR, up to [`ROUNDS`] rounds.
use crate::analysis::pressure::{self, Graph, Pressure};

/// Rounds per function (cicc: up to 5 rounds of candidates).
pub const ROUNDS: usize = 5;

/// Loop levels that count in a use's weight (deeper uses weigh as this many levels).
pub const MAX_WEIGHTED_DEPTH: u32 = 3;

/// What recomputing a value takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Available everywhere at no register cost: a kernel parameter (ptxas reads it from the
    /// parameter bank next to its use; cicc's `param-opt` does the same).
    Free,
    /// A cheap instruction without side effects whose result does not depend on when it runs;
    /// its cost in instructions.
    Cheap(u32),
    /// A load from memory no thread writes (`!invariant.load` global memory): cheap in
    /// instructions but another memory access per clone, so recomputed only where the site is
    /// no deeper in loops than the load.
    Load(u32),
    /// Anything else (memory, side effects, PHIs, divisions, device-function arguments): only
    /// usable where its value is live anyway.
    Fixed,
}

/// One value of the liveness graph (same numbering as [`Graph`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The defining block; `None` for an argument.
    pub block: Option<usize>,
    pub kind: Kind,
    /// The register values it reads (constants are not values).
    pub operands: Vec<usize>,
    /// The blocks other than `block` where a use needs the value: a use's block, or for a PHI
    /// operand its incoming block. Sorted, no duplicates.
    pub sites: Vec<usize>,
}

/// A function as the planner sees it.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub graph: Graph,
    pub nodes: Vec<Node>,
    /// Loop depth per block.
    pub depth: Vec<u32>,
}

/// The knobs that steer a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Registers the function should fit in.
    pub target: u32,
    /// The most values rematerialized per round (`remat-max-live-limit`).
    pub max_per_round: usize,
    /// Iterations assumed per loop level (`remat-loop-trip`).
    pub loop_trip: u64,
    /// Weighted instructions allowed per register freed, over `loop_trip` (`remat-lli-factor`).
    pub lli_factor: u64,
    /// The most instructions cloned for one value at one site (`nv-remat-max-chain`).
    pub max_chain: usize,
    /// Blocks an operand's live range may be extended through so that a chain can read it
    /// (`nv-remat-extend-operands`; 0: only operands live into the site are read).
    pub extend_blocks: usize,
}

/// What [`chain`] reads besides the model: the liveness, the predecessors and the target.
struct Ctx<'a> {
    live: &'a Pressure,
    preds: Vec<Vec<usize>>,
    target: u32,
    extend_blocks: usize,
}

impl Ctx<'_> {
    /// The blocks `w`'s live range would newly cover (`site` first) if the chain of `v` read
    /// `w` as it is at `site`, where `w` is not live into; `None` when it may not. It may when
    /// every path from the entry to `site` passes a block where `w` is defined or live on exit
    /// (so its definition dominates `site`), and each newly covered block (at most
    /// `extend_blocks` of them) either stays within the target with `w` or is one that `v`, no
    /// narrower, is live into (the rematerialization ends `v`'s range there: one register set
    /// for another).
    fn extension(&self, m: &Model, v: usize, w: usize, site: usize) -> Option<Vec<usize>> {
        let def = m.nodes[w].block;
        let regs = m.graph.weights[w].regs;
        let swaps = regs <= m.graph.weights[v].regs;
        let fits = |b: usize| {
            self.live.block_max[b].regs + regs <= self.target
                || (swaps && self.live.live_in[b].contains(v))
        };
        if self.extend_blocks == 0 || def == Some(site) || !fits(site) {
            return None;
        }
        let live_out = |b: usize| pressure::live_out(&m.graph, b, &self.live.live_in).contains(w);
        let mut seen = vec![site];
        let mut work = vec![site];
        while let Some(b) = work.pop() {
            if b == 0 && def.is_some() {
                return None;
            }
            for &q in &self.preds[b] {
                if Some(q) == def || live_out(q) || seen.contains(&q) {
                    continue;
                }
                if !fits(q) || seen.len() >= self.extend_blocks {
                    return None;
                }
                seen.push(q);
                work.push(q);
            }
        }
        Some(seen)
    }
}

/// The instructions to clone at one site, operands first; the last one is the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub block: usize,
    pub chain: Vec<usize>,
}

/// One value to rematerialize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remat {
    pub value: usize,
    pub sites: Vec<Site>,
    /// Instructions times use weights.
    pub score: u64,
    /// High-pressure blocks whose live-in set loses the value.
    pub across: Vec<usize>,
}

/// Why a value live into a high-pressure block is left as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its definition cannot be recomputed (memory, side effects, PHI, division...).
    NotCheap { value: usize },
    /// An operand of its chain is neither available at a use site nor recomputable.
    Unavailable { value: usize, operand: usize, block: usize },
    /// The chain at one site is longer than `max_chain`.
    TooLong { value: usize, len: usize },
    /// Its chain would re-issue a global load inside a loop the load is not in.
    LoadIntoLoop { value: usize, load: usize, block: usize },
    /// In every high block it is live into, a use keeps its clone live through the block's
    /// peak: recomputing it would free no register there.
    NoGain { value: usize },
    /// The weighted cost of all its clones is over the bound.
    TooCostly { value: usize, score: u64, limit: u64 },
}

/// One round's result.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The largest pressure before the round.
    pub max: u32,
    /// Blocks whose pressure exceeds the target.
    pub high: Vec<usize>,
    /// The chosen values, cheapest first.
    pub remats: Vec<Remat>,
    /// Values live into high-pressure blocks that were refused.
    pub refusals: Vec<Refusal>,
}

impl Outcome {
    /// Whether the function was within its target already.
    pub fn under_target(&self) -> bool {
        self.high.is_empty()
    }
}

fn weight(p: &Params, m: &Model, def: Option<usize>, site: usize) -> u64 {
    let d = m.depth[site].saturating_sub(def.map_or(0, |b| m.depth[b])).min(MAX_WEIGHTED_DEPTH);
    p.loop_trip.saturating_pow(d)
}

/// The chain to clone for `v` at `site`, operands first, and its cost. An operand is used as
/// it is when it is free or live into `site` (then its definition dominates `site`), or, once
/// per chain, when [`Ctx::extension`] allows reading it past its range; otherwise it must be
/// cheap and is cloned too. Also returns the blocks that extension covers.
fn chain(
    m: &Model,
    cx: &Ctx,
    v: usize,
    site: usize,
    max: usize,
) -> Result<(Vec<usize>, u64, Vec<usize>), Refusal> {
    let live = cx.live;
    // The blocks an operand's range is extended through (one operand per chain at most: the
    // register swap is counted once).
    let mut extended: Option<Vec<usize>> = None;
    let mut out: Vec<usize> = Vec::new();
    let mut cost = 0u64;
    // Iterative post-order: (value, operands pushed).
    let mut stack = vec![(v, false)];
    while let Some((w, expanded)) = stack.pop() {
        if out.contains(&w) {
            continue;
        }
        let n = &m.nodes[w];
        if expanded {
            out.push(w);
            if let Kind::Cheap(c) | Kind::Load(c) = n.kind {
                cost += c as u64;
            }
            if out.len() > max {
                return Err(Refusal::TooLong { value: v, len: out.len() });
            }
            continue;
        }
        if w != v && (n.kind == Kind::Free || live.live_in[site].contains(w)) {
            continue;
        }
        if let Kind::Load(_) = n.kind {
            if n.block.is_some_and(|d| m.depth[site] > m.depth[d]) {
                return Err(Refusal::LoadIntoLoop { value: v, load: w, block: site });
            }
        }
        match n.kind {
            Kind::Cheap(_) | Kind::Load(_) => {
                stack.push((w, true));
                for &o in n.operands.iter().rev() {
                    if !out.contains(&o) {
                        stack.push((o, false));
                    }
                }
                if stack.len() > 4 * max + 4 {
                    return Err(Refusal::TooLong { value: v, len: stack.len() });
                }
            }
            _ if w == v => return Err(Refusal::NotCheap { value: v }),
            _ if extended.is_none() && {
                extended = cx.extension(m, v, w, site);
                extended.is_some()
            } => {}
            _ => return Err(Refusal::Unavailable { value: v, operand: w, block: site }),
        }
    }
    Ok((out, cost, extended.unwrap_or_default()))
}

/// The values a rematerialization reads or clones: its chains' instructions and the operands
/// they use as they are (which the clones keep live).
fn touched(m: &Model, r: &Remat) -> Vec<usize> {
    let mut out = Vec::new();
    for s in &r.sites {
        for &w in &s.chain {
            if w != r.value && !out.contains(&w) {
                out.push(w);
            }
            for &o in &m.nodes[w].operands {
                if m.nodes[o].kind != Kind::Free && !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out.retain(|&w| w != r.value);
    out
}

/// Plans one round: the values live into blocks whose pressure exceeds the target, their
/// chains at every use outside the defining block, refused or scored; then cheapest first
/// until each high block's excess is covered or `max_per_round` values are taken.
pub fn plan(m: &Model, p: &Params) -> Outcome {
    let live = pressure::estimate(&m.graph);
    let mut out = Outcome { max: live.max().regs, ..Outcome::default() };
    out.high = (0..m.graph.blocks.len()).filter(|&b| live.block_max[b].regs > p.target).collect();
    if out.high.is_empty() || p.max_per_round == 0 {
        return out;
    }
    let mut excess = vec![0i64; m.graph.blocks.len()];
    let preds = m.graph.predecessors();
    let cx = Ctx { live: &live, preds, target: p.target, extend_blocks: p.extend_blocks };
    let mut across: Vec<Vec<usize>> = vec![Vec::new(); m.nodes.len()];
    for &b in &out.high {
        excess[b] = live.block_max[b].regs as i64 - p.target as i64;
        for v in live.live_in[b].iter() {
            across[v].push(b);
        }
    }
    let mut candidates = Vec::new();
    for (v, blocks) in across.into_iter().enumerate() {
        let n = &m.nodes[v];
        let regs = m.graph.weights[v].regs;
        if blocks.is_empty() || regs == 0 || n.kind == Kind::Free || n.block.is_none() {
            continue;
        }
        let mut sites = Vec::new();
        let mut score = 0u64;
        let mut refused = None;
        // Blocks where an extended operand takes the place of `v`: nothing is freed there.
        let mut swapped: Vec<usize> = Vec::new();
        for &s in &n.sites {
            match chain(m, &cx, v, s, p.max_chain) {
                Ok((c, cost, ext)) => {
                    score = score.saturating_add(cost.saturating_mul(weight(p, m, n.block, s)));
                    sites.push(Site { block: s, chain: c });
                    swapped.extend(ext);
                }
                Err(r) => {
                    refused = Some(r);
                    break;
                }
            }
        }
        let limit = p.lli_factor.saturating_mul(p.loop_trip).saturating_mul(regs as u64);
        if refused.is_none() && score > limit {
            refused = Some(Refusal::TooCostly { value: v, score, limit });
        }
        match refused {
            Some(r) => out.refusals.push(r),
            None if !sites.is_empty() => {
                let across = blocks.into_iter().filter(|b| !swapped.contains(b)).collect();
                candidates.push(Remat { value: v, sites, score, across })
            }
            None => {}
        }
    }
    // What each candidate frees per high block: all of its registers where it is only live
    // through; where the block uses it, what the clone's shorter range takes off the peak.
    let freed = |r: &Remat, b: usize| -> i64 {
        let regs = m.graph.weights[r.value].regs as i64;
        if m.nodes[r.value].sites.binary_search(&b).is_err() {
            return regs;
        }
        let now = live.block_max[b].regs as i64;
        (now - pressure::block_max_if_local(&m.graph, &live, b, r.value) as i64).clamp(0, regs)
    };
    candidates.retain(|r| {
        let gain = r.across.iter().any(|&b| freed(r, b) > 0);
        if !gain {
            out.refusals.push(Refusal::NoGain { value: r.value });
        }
        gain
    });
    candidates.sort_by_key(|r| (r.score, r.value));
    let mut kept: Vec<usize> = Vec::new();
    for r in candidates {
        if out.remats.len() >= p.max_per_round || excess.iter().all(|&e| e <= 0) {
            break;
        }
        if !r.across.iter().any(|&b| excess[b] > 0 && freed(&r, b) > 0) {
            continue;
        }
        // A value another chosen chain reads or clones (or whose chain reads or clones a
        // chosen value) waits for the next round: the chosen value's uses move to its clones
        // and its original may go, so the plans must not share it.
        let t = touched(m, &r);
        if kept.contains(&r.value) || t.iter().any(|w| out.remats.iter().any(|c| c.value == *w)) {
            continue;
        }
        for &b in &r.across {
            excess[b] -= freed(&r, b);
        }
        kept.extend(t);
        out.remats.push(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::pressure::fixtures::{block, inst};
    use crate::analysis::pressure::{Block, Inst, Phi, Units};

    fn node(block: Option<usize>, kind: Kind, operands: &[usize], sites: &[usize]) -> Node {
        Node { block, kind, operands: operands.to_vec(), sites: sites.to_vec() }
    }

    fn params(target: u32) -> Params {
        Params {
            target,
            max_per_round: 10,
            loop_trip: 10,
            lli_factor: 10,
            max_chain: 8,
            extend_blocks: 0,
        }
    }

    /// entry (b0): v1 = tid (sreg, cheap); v2 = v1 * 4 (cheap); v3 = load (fixed)
    /// loop (b1): 4 PHIs v4..v7 carried around; uses v3 only at the end
    /// exit (b2): uses v2 and v3.
    /// v0 is a kernel parameter. Pressure in the loop: v2, v3, v4..v7 (+ v8 per iteration).
    fn model(v2_kind: Kind) -> Model {
        let phis = (4..8)
            .map(|d| Phi { def: d, incoming: vec![(0, None), (1, Some(d + 5))] })
            .collect::<Vec<_>>();
        let mut loop_insts: Vec<Inst> = (4..8).map(|d| inst(Some(d + 5), &[d, 0])).collect();
        loop_insts.push(inst(Some(8), &[9]));
        loop_insts.push(inst(None, &[8]));
        let graph = Graph {
            blocks: vec![
                block(&[1], vec![inst(Some(1), &[]), inst(Some(2), &[1]), inst(Some(3), &[0])]),
                Block { succs: vec![1, 2], phis, insts: loop_insts },
                block(&[], vec![inst(None, &[2, 3, 0])]),
            ],
            weights: vec![Units::scalar(32); 13],
        };
        let mut nodes = vec![
            node(None, Kind::Free, &[], &[]),
            node(Some(0), Kind::Cheap(1), &[], &[]),
            node(Some(0), v2_kind, &[1], &[2]),
            node(Some(0), Kind::Fixed, &[0], &[2]),
        ];
        for d in 4..8 {
            nodes.push(node(Some(1), Kind::Fixed, &[], &[]));
            let _ = d;
        }
        nodes.push(node(Some(1), Kind::Cheap(1), &[9], &[]));
        for _ in 9..13 {
            nodes.push(node(Some(1), Kind::Cheap(1), &[], &[1]));
        }
        Model { graph, nodes, depth: vec![0, 1, 0] }
    }

    #[test]
    fn rematerializes_a_cheap_chain_across_the_loop() {
        let m = model(Kind::Cheap(2));
        let out = plan(&m, &params(6));
        assert!(out.max > 6);
        assert_eq!(out.high, vec![1]);
        assert_eq!(out.remats.len(), 1);
        let r = &out.remats[0];
        assert_eq!(r.value, 2);
        // tid is not live into the exit: it is cloned too, before v2.
        assert_eq!(r.sites, vec![Site { block: 2, chain: vec![1, 2] }]);
        assert_eq!(r.score, 3);
        assert_eq!(r.across, vec![1]);
        assert!(out.refusals.contains(&Refusal::NotCheap { value: 3 }));
    }

    #[test]
    fn pressure_under_target_plans_nothing() {
        let out = plan(&model(Kind::Cheap(2)), &params(64));
        assert!(out.under_target());
        assert!(out.remats.is_empty() && out.refusals.is_empty());
    }

    #[test]
    fn operands_that_are_not_available_refuse() {
        // v2 reads v3 (a load, not live into... it is live into the exit; make v2 read a loop
        // PHI instead, which is not live into the exit and cannot be recomputed).
        let mut m = model(Kind::Cheap(1));
        m.nodes[2].operands = vec![4];
        let out = plan(&m, &params(6));
        assert!(out.remats.is_empty());
        assert!(out.refusals.contains(&Refusal::Unavailable { value: 2, operand: 4, block: 2 }));
        // A live operand is used as it is: v3 is live into the exit.
        m.nodes[2].operands = vec![3];
        let out = plan(&m, &params(6));
        assert_eq!(out.remats[0].sites, vec![Site { block: 2, chain: vec![2] }]);
    }

    /// b0: v1 = load (fixed), v2 = f(v1) (cheap: what LICM hoisted) -> b1: defines v3..v7 ->
    /// b2: reads v1 last, branches to b3 (reads v2 only) or b4 (reads v3..v7) -> b5. v1 is not
    /// live into b3.
    fn hoisted() -> Model {
        let graph = Graph {
            blocks: vec![
                block(&[1], vec![inst(Some(1), &[0]), inst(Some(2), &[1])]),
                block(&[2], (3..8).map(|d| inst(Some(d), &[])).collect()),
                block(&[3, 4], vec![inst(None, &[1])]),
                block(&[5], vec![inst(None, &[2])]),
                block(&[5], vec![inst(None, &[3, 4, 5, 6, 7])]),
                block(&[], vec![inst(None, &[])]),
            ],
            weights: vec![Units::scalar(32); 8],
        };
        let mut nodes = vec![
            node(None, Kind::Free, &[], &[]),
            node(Some(0), Kind::Fixed, &[0], &[2]),
            node(Some(0), Kind::Cheap(1), &[1], &[3]),
        ];
        nodes.extend((3..8).map(|_| node(Some(1), Kind::Fixed, &[], &[4])));
        Model { graph, nodes, depth: vec![0; 6] }
    }

    #[test]
    fn an_operand_is_extended_through_blocks_the_value_leaves() {
        let m = hoisted();
        let out = plan(&m, &params(4));
        assert!(out.remats.is_empty());
        assert!(out.refusals.contains(&Refusal::Unavailable { value: 2, operand: 1, block: 3 }));
        // v1 is extended through b2 (where v2 is live: one register for another) into b3 and
        // read there as it is; v2 leaves b1, where nothing takes its place.
        let mut p = params(4);
        p.extend_blocks = 8;
        let out = plan(&m, &p);
        assert_eq!(out.remats[0].value, 2);
        assert_eq!(out.remats[0].sites, vec![Site { block: 3, chain: vec![2] }]);
        assert_eq!(out.remats[0].across, vec![1]);
        // Two blocks to cover (b3, b2): a limit of one refuses.
        p.extend_blocks = 1;
        assert!(plan(&m, &p).remats.is_empty());
        // An operand wider than the value: no register swap in b2, which has no room for it.
        let mut m2 = hoisted();
        m2.graph.weights[1] = Units::scalar(64);
        p.extend_blocks = 8;
        let out = plan(&m2, &p);
        assert!(out.refusals.contains(&Refusal::Unavailable { value: 2, operand: 1, block: 3 }));
    }

    #[test]
    fn costly_chains_refuse() {
        let m = model(Kind::Cheap(2));
        let mut p = params(6);
        p.max_chain = 1;
        let out = plan(&m, &p);
        assert!(out.remats.is_empty());
        assert!(out.refusals.contains(&Refusal::TooLong { value: 2, len: 2 }));
        let mut p = params(6);
        p.lli_factor = 0;
        let out = plan(&m, &p);
        assert!(out.refusals.contains(&Refusal::TooCostly { value: 2, score: 3, limit: 0 }));
    }

    #[test]
    fn uses_in_loops_weigh_by_the_trip_count() {
        // The exit as if it were one, then two, then nine loop levels deep (three count).
        let mut m = model(Kind::Cheap(2));
        m.depth[2] = 1;
        let out = plan(&m, &params(6));
        assert_eq!(out.remats[0].score, 30);
        m.depth[2] = 2;
        let out = plan(&m, &params(6));
        assert!(out.refusals.contains(&Refusal::TooCostly { value: 2, score: 300, limit: 100 }));
        m.depth[2] = 9;
        let out = plan(&m, &params(6));
        assert!(out.refusals.contains(&Refusal::TooCostly { value: 2, score: 3000, limit: 100 }));
    }

    #[test]
    fn values_a_high_block_uses_through_its_peak_free_nothing() {
        // b0: v0 = tid (cheap), v1 = load (fixed) -> b1 (a loop): use v0; v2 = f(v1);
        // v3 = g(v2, v1); use v3; use v0 -> b1 or b2. v0 is read at the top and the end of the
        // loop: its clone there would be live through the loop's peak.
        let graph = Graph {
            blocks: vec![
                block(&[1], vec![inst(Some(0), &[]), inst(Some(1), &[])]),
                block(
                    &[1, 2],
                    vec![
                        inst(None, &[0]),
                        inst(Some(2), &[1]),
                        inst(Some(3), &[2, 1]),
                        inst(None, &[3]),
                        inst(None, &[0]),
                    ],
                ),
                block(&[], vec![]),
            ],
            weights: vec![Units::scalar(32); 4],
        };
        let nodes = vec![
            node(Some(0), Kind::Cheap(1), &[], &[1]),
            node(Some(0), Kind::Fixed, &[], &[1]),
            node(Some(1), Kind::Fixed, &[1], &[]),
            node(Some(1), Kind::Fixed, &[2, 1], &[]),
        ];
        let m = Model { graph, nodes, depth: vec![0, 1, 0] };
        let out = plan(&m, &params(2));
        assert_eq!(out.high, vec![1]);
        assert!(out.remats.is_empty());
        assert!(out.refusals.contains(&Refusal::NoGain { value: 0 }), "{:?}", out.refusals);
        // Read only at the end of the loop, it leaves the peak: rematerialized.
        let mut m = m;
        m.graph.blocks[1].insts.remove(0);
        let out = plan(&m, &params(2));
        assert_eq!(out.remats.iter().map(|r| r.value).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn global_loads_stay_out_of_deeper_loops() {
        let mut m = model(Kind::Cheap(1));
        m.nodes[3].kind = Kind::Load(2);
        let out = plan(&m, &params(6));
        assert!(out.remats.iter().any(|r| r.value == 3), "same depth: recomputed");
        m.depth[2] = 1;
        let out = plan(&m, &params(6));
        assert!(out.refusals.contains(&Refusal::LoadIntoLoop { value: 3, load: 3, block: 2 }));
    }

    #[test]
    fn chosen_values_are_not_shared_between_chains() {
        // v3 reads v2 in the exit and is live across the loop too: v2 is chosen first (both
        // one instruction, v2 has the lower number... v2's chain clones v1 as well), and v3,
        // whose chain would read v2, waits for the next round.
        let mut m = model(Kind::Cheap(1));
        m.nodes[1].kind = Kind::Free;
        m.nodes[3] = node(Some(0), Kind::Cheap(1), &[2], &[2]);
        m.graph.blocks[0].insts[2].uses = vec![2];
        let out = plan(&m, &params(4));
        let chosen: Vec<usize> = out.remats.iter().map(|r| r.value).collect();
        assert!(chosen.contains(&2) != chosen.contains(&3), "{chosen:?}");
    }

    #[test]
    fn stops_when_the_excess_is_covered_or_the_round_is_full() {
        let mut m = model(Kind::Cheap(1));
        // Make v3 cheap too (a parameter-space load): two candidates, v2 (score 2) first.
        m.nodes[3].kind = Kind::Cheap(1);
        let out = plan(&m, &params(6));
        let excess = out.max - 6;
        assert_eq!(out.remats.len() as u32, excess.min(2));
        assert_eq!(out.remats[0].value, 3, "v3's chain is one instruction, v2's two");
        let mut p = params(4);
        p.max_per_round = 1;
        assert_eq!(plan(&m, &p).remats.len(), 1);
        p.max_per_round = 0;
        assert!(plan(&m, &p).remats.is_empty());
    }
}
