//! Base Address Strength Reduction (docs/CICC-FACTS.md "Address optimization", BASR): inside a
//! loop, groups whose bases are recurrences of that loop and differ by a cheap loop-invariant
//! expression share one base. It runs when the function has more than 5 records; the register
//! budget R per thread comes from the register file and launch bounds (`maxntid`, `minctasm`),
//! P is the largest number of loop-header PHIs along any loop nest; if R < P nothing happens,
//! otherwise each new 64-bit base costs 2 of the R - P registers of headroom. A pair is cheap
//! unless both bases are tiny, the difference is as big as the smaller base, or
//! `base-address-strength-reduce-max-iv` <= P and the difference has more than 8 nodes. With
//! `do-base-address-strength-reduce-chain` a group may join through any member of a class,
//! otherwise only through its leader. At level > 3 the shared base is a loop-carried pointer
//! PHI (initial value in the preheader, update in the latch); below, it is expanded in the loop
//! header. Accesses become `newBase + delta` (the invariant difference, then the constant).
//! nvopt's choices where the spec is silent: each other member base is built on an earlier
//! member whose difference the class already computes (one register for evenly spaced rows),
//! right before its first access in the header; `base-address-strength-reduce-iv-limit` caps the
//! shared bases per loop.
//!
//! A base whose accesses lie more than `scev-cgp-idom-level-limit` (3) immediate dominators
//! below the loop header, where the shared base goes, is not shared. The IVs whose addresses
//! moved are deleted with their updates when nothing else uses them. One more rule of nvopt's,
//! which the spec does not give: a shared base is built only when the loop instructions its
//! accesses stop computing outnumber the adds it costs per iteration (after LLVM's LSR most
//! loops already address `invariant + iv`, and sharing then only moves instructions around),
//! or when the loop's register pressure (src/analysis/pressure) exceeds the register target
//! (src/analysis/pressure/target.rs: launch bounds, else `-nv-maxreg`, else 64) and the class frees registers
//! ([`register_gain`]): many pointer IVs of one stride class (`p_k += s`, each loaded directly)
//! cost one add each either way, but sharing leaves one pointer carried around the loop instead
//! of one per member (plugin-tests/addr/basr-pressure.ll).
//!
//! Example (plugin-tests/addr/basr.ll, `nv-basr` at the default level 4): three rows `y`,
//! `y+1`, `y+2` of a pitch-`w` float array, two columns each, read in a loop over `x`; the
//! three bases `in + 4*(y*w + x)`, `+ 4w`, `+ 8w` differ by the invariant `4w`:
//!
//! ```text
//! ; before: six index computations per iteration
//! loop:
//!   %x = phi i64 [ 0, %entry ], [ %x.next, %loop ]
//!   %i0 = add i64 %row0, %x        ; %row1 = %row0 + %w, %row2 = %row1 + %w (entry)
//!   %i1 = add i64 %row1, %x
//!   %i2 = add i64 %row2, %x
//!   %p0 = getelementptr float, ptr addrspace(1) %in, i64 %i0
//!   ...                            ; %p1, %p2, and %q0..%q2 at %i0+1 .. %i2+1
//!   %v0 = load float, ptr addrspace(1) %p0
//!
//! ; after: one loop-carried pointer, the rows chained on one register holding 4w
//! entry:
//!   %scevgep = getelementptr i8, ptr addrspace(1) %in, i64 %0   ; %0 = 4 * y * w
//!   %1 = shl i64 %w, 2
//! loop:
//!   %nv.basr.base = phi ptr addrspace(1) [ %nv.basr.next, %loop ], [ %scevgep, %entry ]
//!   %v0 = load float, ptr addrspace(1) %nv.basr.base
//!   %nv.basr.member = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 %1
//!   %v1 = load float, ptr addrspace(1) %nv.basr.member
//!   %nv.basr.member1 = getelementptr i8, ptr addrspace(1) %nv.basr.member, i64 %1
//!   %v2 = load float, ptr addrspace(1) %nv.basr.member1
//!   %nv.addr = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 4   ; CBE: column 2
//!   ...
//!   %nv.basr.next = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 4
//! ```
//!
//! What it refuses: functions with 5 records or fewer; loops where the register budget is
//! spent (e.g. `maxntid` 1024 with `minctasm` 32 leaves 2 registers per thread, fewer than the
//! loop-header PHIs plus one new base); differences that vary inside the loop.
//!
//! The binary's exact cost formulas are not known; the numbers chosen here are said in the
//! constants below.
use super::group::Record;
use crate::analysis::gpu::LaunchBounds;
use crate::analysis::pressure::target::{register_budget, REGISTER_FILE};
use crate::fast_hash::HashMap;

/// A base "tiny" enough that sharing it buys nothing: at most this many SCEV nodes
/// (`{%p,+,4}` has 3).
const TINY_BASE_NODES: u32 = 3;
/// Differences above this many nodes are too dear once IVs already fill max-iv.
const DEAR_DIFF_NODES: u32 = 8;
/// Bases per loop whose pairwise differences are computed (a compile-time bound: n² pairs).
pub const PAIRED_BASES_PER_LOOP: usize = 512;
/// Registers one new 64-bit base costs.
const REGS_PER_BASE: u64 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// `do-base-address-strength-reduce` (0 off; > 3: loop-carried PHIs).
    pub level: i64,
    pub chain: bool,
    /// `base-address-strength-reduce-iv-limit`: shared bases (new IVs) per loop.
    pub iv_limit: usize,
    /// `base-address-strength-reduce-max-iv`.
    pub max_iv: u64,
    /// `scev-cgp-idom-level-limit`: the most immediate dominators between an access and the
    /// header its shared base is placed in.
    pub idom_limit: u32,
}

/// A loop: its parent (-1: outermost), how many PHIs its header has, and whether its register
/// pressure (src/analysis/pressure) exceeds the function's register target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoopFacts {
    pub parent: i32,
    pub phis: u32,
    pub over_target: bool,
}

/// A distinct base: the loop whose affine recurrence it is (-1: none), its SCEV node count,
/// and whether a header PHI of that loop already computes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BaseFacts {
    pub loop_id: i32,
    pub nodes: u32,
    pub has_phi: bool,
    /// Immediate dominators from the deepest block of the base's accesses in its loop up to the
    /// loop header, where the shared base is placed.
    pub walk: u32,
}

/// `b - a` (a < b) of two bases of one loop: its node count, whether it is loop-invariant, and
/// which distinct difference it is (equal ids: the same expression, hence one value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairFacts {
    pub a: usize,
    pub b: usize,
    pub diff_nodes: u32,
    pub invariant: bool,
    pub diff: u32,
}

/// Bases that share `leader`'s value in `loop_id`; `phi`: build a loop-carried PHI for it.
/// `from[i]` is the member that `members[i]` is built on (the leader: itself).
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    pub loop_id: i32,
    pub leader: usize,
    pub members: Vec<usize>,
    pub from: Vec<usize>,
    pub phi: bool,
    /// Registers the class frees across its loop ([`register_gain`]).
    pub reg_gain: i64,
}

/// What BASR decided for a function, and why it stopped (for `dump-base-address-strength-reduce`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Plan {
    pub classes: Vec<Class>,
    pub budget: u64,
    pub loop_phis: u64,
    pub note: &'static str,
}

/// P: the largest sum of header PHIs along a path from an outermost loop to a loop inside it.
pub fn loop_phis(loops: &[LoopFacts]) -> u64 {
    (0..loops.len())
        .map(|mut l| {
            let mut sum = 0u64;
            loop {
                sum += loops[l].phis as u64;
                match usize::try_from(loops[l].parent) {
                    Ok(p) if p < loops.len() && p != l => l = p,
                    _ => return sum,
                }
            }
        })
        .max()
        .unwrap_or(0)
}

pub fn plan(
    cfg: &Config,
    records: usize,
    bounds: &LaunchBounds,
    loops: &[LoopFacts],
    bases: &[BaseFacts],
    pairs: &[PairFacts],
) -> Plan {
    let budget = register_budget(bounds, REGISTER_FILE);
    let p = loop_phis(loops);
    let mut out = Plan { budget, loop_phis: p, ..Plan::default() };
    if cfg.level <= 0 {
        out.note = "off";
    } else if records <= 5 {
        out.note = "5 records or fewer";
    } else if budget < p {
        out.note = "register budget below the loop-header PHIs";
    } else {
        let mut headroom = budget - p;
        let mut per_loop = vec![0usize; loops.len()];
        for c in classes(cfg, p, loops.len(), bases, pairs) {
            let n = &mut per_loop[c.loop_id as usize];
            if *n == cfg.iv_limit {
                continue;
            }
            *n += 1;
            let phi = cfg.level > 3 && !bases[c.leader].has_phi;
            let cost = if bases[c.leader].has_phi { 0 } else { REGS_PER_BASE };
            if cost > headroom {
                out.note = "register headroom spent";
                break;
            }
            headroom -= cost;
            out.classes.push(Class { phi, ..c });
        }
    }
    out
}

/// Whether `b - a` is cheap enough to share a base.
fn cheap(cfg: &Config, p: u64, bases: &[BaseFacts], pair: &PairFacts) -> bool {
    let (a, b) = (&bases[pair.a], &bases[pair.b]);
    pair.invariant
        && !(a.nodes <= TINY_BASE_NODES && b.nodes <= TINY_BASE_NODES)
        && pair.diff_nodes < a.nodes.min(b.nodes)
        && !(cfg.max_iv <= p && pair.diff_nodes > DEAR_DIFF_NODES)
}

/// Classes of two bases or more per loop, largest first (they save the most).
fn classes(
    cfg: &Config,
    p: u64,
    n_loops: usize,
    bases: &[BaseFacts],
    pairs: &[PairFacts],
) -> Vec<Class> {
    let mut leader: Vec<Option<usize>> = vec![None; bases.len()];
    let mut seen_per_loop = vec![0usize; n_loops];
    let considered: Vec<bool> = bases
        .iter()
        .map(|b| match usize::try_from(b.loop_id) {
            Ok(l)
                if l < n_loops
                    && b.walk <= cfg.idom_limit
                    && seen_per_loop[l] < PAIRED_BASES_PER_LOOP =>
            {
                seen_per_loop[l] += 1;
                true
            }
            _ => false,
        })
        .collect();
    for pair in pairs {
        let same_loop = bases[pair.a].loop_id == bases[pair.b].loop_id;
        if !same_loop || !considered[pair.a] || !considered[pair.b] || !cheap(cfg, p, bases, pair) {
            continue;
        }
        let root = leader[pair.a].unwrap_or(pair.a);
        let a_is_leader = leader[pair.a].is_none();
        if leader[pair.b].is_none()
            && root != pair.b
            && (cfg.chain || a_is_leader)
            && !is_leader_of_others(&leader, pair.b)
        {
            leader[pair.b] = Some(root);
        }
    }
    let mut out: Vec<Class> = Vec::new();
    for (b, l) in leader.iter().enumerate() {
        if let Some(l) = *l {
            match out.iter_mut().find(|c| c.leader == l) {
                Some(c) => c.members.push(b),
                None => out.push(Class {
                    loop_id: bases[l].loop_id,
                    leader: l,
                    members: vec![l, b],
                    from: Vec::new(),
                    phi: false,
                    reg_gain: 0,
                }),
            }
        }
    }
    let by_ends: HashMap<(usize, usize), &PairFacts> =
        pairs.iter().map(|q| ((q.a, q.b), q)).collect();
    for c in &mut out {
        c.from = links(cfg, p, bases, &by_ends, &c.members);
        c.reg_gain = register_gain(bases, &by_ends, c);
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.members.len()));
    out
}

/// What each member (in base order, the leader first) is built on. With chains: an earlier
/// member whose difference to it is one this class already computes (its register is shared,
/// as in `m[k] = m[k-1] + d` for evenly spaced bases), else the nearest earlier member with a
/// cheap difference; without chains, the leader.
fn links(
    cfg: &Config,
    p: u64,
    bases: &[BaseFacts],
    pairs: &HashMap<(usize, usize), &PairFacts>,
    members: &[usize],
) -> Vec<usize> {
    let pair = |a: usize, b: usize| pairs.get(&(a, b)).filter(|q| cheap(cfg, p, bases, q));
    let mut used: Vec<u32> = Vec::new();
    let mut from = vec![members[0]];
    for (i, &m) in members.iter().enumerate().skip(1) {
        let earlier: Vec<(usize, u32)> = if cfg.chain {
            members[..i].iter().rev().filter_map(|&e| pair(e, m).map(|q| (e, q.diff))).collect()
        } else {
            pair(members[0], m).map(|q| (members[0], q.diff)).into_iter().collect()
        };
        let (e, d) = earlier
            .iter()
            .find(|(_, d)| used.contains(d))
            .or(earlier.first())
            .copied()
            .unwrap_or((members[0], u32::MAX));
        if !used.contains(&d) {
            used.push(d);
        }
        from.push(e);
    }
    from
}

/// Registers a class frees across its loop, estimated: each member besides the leader stops
/// being carried around the loop (its header PHI, a pointer, 2 registers; otherwise the index
/// IV behind it, counted as one 32-bit register), and the class adds one 64-bit register per
/// distinct difference it builds members on, plus its new PHI where the leader has none.
pub fn register_gain(
    bases: &[BaseFacts],
    pairs: &HashMap<(usize, usize), &PairFacts>,
    c: &Class,
) -> i64 {
    let freed: i64 = c.members[1..].iter().map(|&m| if bases[m].has_phi { 2 } else { 1 }).sum();
    let mut diffs: Vec<u32> = c
        .members
        .iter()
        .zip(&c.from)
        .skip(1)
        .map(|(&m, &f)| pairs.get(&(f.min(m), f.max(m))).map_or(u32::MAX - m as u32, |q| q.diff))
        .collect();
    diffs.sort_unstable();
    diffs.dedup();
    let new_phi = if bases[c.leader].has_phi { 0 } else { REGS_PER_BASE as i64 };
    freed - REGS_PER_BASE as i64 * diffs.len() as i64 - new_phi
}

/// An access BASR moves onto its class's shared base.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    pub record: usize,
    pub class: usize,
}

/// `moves` over fixed records and loops.
pub fn moves_for<'a>(
    records: &'a [Record],
    loops: &'a [LoopFacts],
) -> impl Fn(&Plan) -> Vec<Move> + 'a {
    move |plan| moves(plan, records, loops)
}

/// Keeps the classes that pay: the loop instructions their moved accesses stop computing
/// (`loop_cost`) outnumber the ones they add per iteration (one add per member base besides the
/// leader, one for a new PHI's update); or, in a loop whose register pressure exceeds the
/// target, the class frees registers ([`register_gain`] > 0): there registers, not instructions,
/// decide. Returns the plan and its moves.
pub fn paying(
    mut plan: Plan,
    moves: impl Fn(&Plan) -> Vec<Move>,
    records: &[Record],
    loops: &[LoopFacts],
) -> (Plan, Vec<Move>) {
    let all = moves(&plan);
    let saved = |ci: usize| {
        all.iter()
            .filter(|m| m.class == ci)
            .map(|m| records[m.record].loop_cost as usize)
            .sum::<usize>()
    };
    let keep: Vec<bool> = plan
        .classes
        .iter()
        .enumerate()
        .map(|(ci, c)| {
            saved(ci) > c.members.len() - 1 + c.phi as usize
                || (loops[c.loop_id as usize].over_target && c.reg_gain > 0)
        })
        .collect();
    if keep.iter().all(|k| *k) {
        return (plan, all);
    }
    let mut it = keep.iter();
    plan.classes.retain(|_| *it.next().expect("one flag per class"));
    if plan.classes.is_empty() && plan.note.is_empty() {
        plan.note = "no shared base saves loop instructions";
    }
    let kept = moves(&plan);
    (plan, kept)
}

/// The accesses each class moves: those of its member bases inside its loop, for pointer values
/// whose every use moves with them (otherwise the old computation stays alive and nothing pays).
pub fn moves(plan: &Plan, records: &[Record], loops: &[LoopFacts]) -> Vec<Move> {
    let inside = |mut l: i32, target: i32| {
        while let Ok(i) = usize::try_from(l) {
            if l == target {
                return true;
            }
            l = loops.get(i).map_or(-1, |f| f.parent);
        }
        false
    };
    let mut out: Vec<Move> = Vec::new();
    for (ci, c) in plan.classes.iter().enumerate() {
        for (ri, r) in records.iter().enumerate() {
            if r.access && c.members.contains(&(r.base as usize)) && inside(r.loop_id, c.loop_id) {
                out.push(Move { record: ri, class: ci });
            }
        }
    }
    let moved = |v: u32| out.iter().filter(|m| records[m.record].value == v).count() as u32;
    let whole: Vec<bool> = out
        .iter()
        .map(|m| moved(records[m.record].value) == records[m.record].value_uses)
        .collect();
    out.into_iter().zip(whole).filter_map(|(m, w)| w.then_some(m)).collect()
}

/// Where member base `base` of class `class` is computed: right before its first moved access
/// (in block order) when all of them sit in the loop header `header` (so the members of a long
/// class are not all live at once); `None`: at the top of the header.
pub fn first_access(
    moves: &[Move],
    records: &[Record],
    class: usize,
    base: usize,
    header: u32,
) -> Option<usize> {
    let mine: Vec<usize> = moves
        .iter()
        .filter(|m| m.class == class && records[m.record].base as usize == base)
        .map(|m| m.record)
        .collect();
    if mine.iter().any(|&r| records[r].at.block != header) {
        return None;
    }
    mine.into_iter().min_by_key(|&r| records[r].at.order)
}

fn is_leader_of_others(leader: &[Option<usize>], b: usize) -> bool {
    leader.iter().any(|l| *l == Some(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CFG: Config = Config { level: 4, chain: true, iv_limit: 128, max_iv: 35, idom_limit: 3 };

    fn base(nodes: u32) -> BaseFacts {
        BaseFacts { loop_id: 0, nodes, has_phi: false, walk: 0 }
    }
    fn pair(a: usize, b: usize, diff_nodes: u32) -> PairFacts {
        PairFacts { a, b, diff_nodes, invariant: true, diff: (a * 100 + b) as u32 }
    }
    fn none() -> LaunchBounds {
        LaunchBounds { maxntid: None, reqntid: None, minctasm: None }
    }
    const ONE_LOOP: [LoopFacts; 1] = [LoopFacts { parent: -1, phis: 2, over_target: false }];

    #[test]
    fn loop_phis_sum_along_nests() {
        let loops = [
            LoopFacts { parent: -1, phis: 2, over_target: false },
            LoopFacts { parent: 0, phis: 3, over_target: false },
            LoopFacts { parent: -1, phis: 4, over_target: false },
        ];
        assert_eq!(loop_phis(&loops), 5);
        assert_eq!(loop_phis(&[]), 0);
    }

    #[test]
    fn rows_of_one_array_share_a_base() {
        // Three rows {p + 4*y*w,+,4}, {.. + 4*w}, {.. + 8*w}: differences of 3 nodes.
        let bases = [base(9), base(11), base(11)];
        let plan = plan(
            &CFG,
            6,
            &none(),
            &ONE_LOOP,
            &bases,
            &[pair(0, 1, 3), pair(0, 2, 3), pair(1, 2, 3)],
        );
        assert_eq!(
            plan.classes,
            vec![Class {
                loop_id: 0,
                leader: 0,
                members: vec![0, 1, 2],
                from: vec![0, 0, 1],
                phi: true,
                // Two index IVs freed (1 each), two distinct differences and a new PHI (2 each).
                reg_gain: -4,
            }]
        );
        assert_eq!((plan.budget, plan.loop_phis), (255, 2));
    }

    #[test]
    fn evenly_spaced_pointer_ivs_free_registers() {
        // Four pointer IVs (header PHIs) chained on one difference: three PHIs freed (2 each),
        // one 64-bit difference; no new PHI (the leader has one).
        let bases = [BaseFacts { has_phi: true, ..base(9) }; 4];
        let same = |a, b| PairFacts { diff: 7, ..pair(a, b, 3) };
        let pairs = [same(0, 1), same(1, 2), same(2, 3)];
        let by_ends: HashMap<(usize, usize), &PairFacts> =
            pairs.iter().map(|q| ((q.a, q.b), q)).collect();
        let c = Class {
            loop_id: 0,
            leader: 0,
            members: vec![0, 1, 2, 3],
            from: vec![0, 0, 1, 2],
            phi: false,
            reg_gain: 0,
        };
        assert_eq!(register_gain(&bases, &by_ends, &c), 6 - 2);
        // Each member on its own difference: nothing gained.
        let own = [pair(0, 1, 3), pair(0, 2, 3), pair(0, 3, 3)];
        let by_ends: HashMap<(usize, usize), &PairFacts> =
            own.iter().map(|q| ((q.a, q.b), q)).collect();
        let star = Class { from: vec![0, 0, 0, 0], ..c };
        assert_eq!(register_gain(&bases, &by_ends, &star), 0);
    }

    #[test]
    fn nothing_below_six_records_or_when_off() {
        let bases = [base(9), base(11)];
        assert!(plan(&CFG, 5, &none(), &ONE_LOOP, &bases, &[pair(0, 1, 3)]).classes.is_empty());
        let off = Config { level: 0, ..CFG };
        assert!(plan(&off, 9, &none(), &ONE_LOOP, &bases, &[pair(0, 1, 3)]).classes.is_empty());
    }

    #[test]
    fn dear_tiny_or_variant_differences_are_skipped() {
        let bases = [base(3), base(3), base(9), base(9)];
        let p = |d, inv| PairFacts { invariant: inv, ..pair(2, 3, d) };
        for (pairs, why) in [
            (vec![pair(0, 1, 2)], "both tiny"),
            (vec![p(9, true)], "as big as the base"),
            (vec![p(3, false)], "not invariant"),
        ] {
            assert!(plan(&CFG, 9, &none(), &ONE_LOOP, &bases, &pairs).classes.is_empty(), "{why}");
        }
        let big = [base(20), base(20)];
        let crowded = [LoopFacts { parent: -1, phis: 40, over_target: false }];
        assert!(
            plan(&CFG, 9, &none(), &crowded, &big, &[pair(0, 1, 9)]).classes.is_empty(),
            "max-iv <= P"
        );
        assert_eq!(plan(&CFG, 9, &none(), &ONE_LOOP, &big, &[pair(0, 1, 9)]).classes.len(), 1);
    }

    #[test]
    fn chains_join_through_members_only_when_on() {
        let bases = [base(9), base(9), base(9)];
        let pairs = [pair(0, 1, 3), pair(1, 2, 3)];
        assert_eq!(
            plan(&CFG, 9, &none(), &ONE_LOOP, &bases, &pairs).classes[0].members,
            vec![0, 1, 2]
        );
        let no_chain = Config { chain: false, ..CFG };
        assert_eq!(
            plan(&no_chain, 9, &none(), &ONE_LOOP, &bases, &pairs).classes[0].members,
            vec![0, 1]
        );
    }

    #[test]
    fn bases_with_accesses_too_far_below_the_header_are_not_shared() {
        let deep = BaseFacts { walk: 4, ..base(9) };
        let bases = [base(9), deep, base(9)];
        let pairs = [pair(0, 1, 3), pair(0, 2, 3), pair(1, 2, 3)];
        assert_eq!(plan_members(&CFG, &bases, &pairs), vec![vec![0, 2]]);
        let four = Config { idom_limit: 4, ..CFG };
        assert_eq!(plan_members(&four, &bases, &pairs), vec![vec![0, 1, 2]]);
    }

    fn plan_members(cfg: &Config, bases: &[BaseFacts], pairs: &[PairFacts]) -> Vec<Vec<usize>> {
        plan(cfg, 6, &none(), &ONE_LOOP, bases, pairs)
            .classes
            .into_iter()
            .map(|c| c.members)
            .collect()
    }

    #[test]
    fn iv_limit_caps_shared_bases_per_loop() {
        let bases = [base(9), base(9), base(12), base(12)];
        let pairs = [pair(0, 1, 3), pair(2, 3, 3)];
        assert_eq!(plan(&CFG, 9, &none(), &ONE_LOOP, &bases, &pairs).classes.len(), 2);
        let one = Config { iv_limit: 1, ..CFG };
        assert_eq!(plan(&one, 9, &none(), &ONE_LOOP, &bases, &pairs).classes.len(), 1);
    }

    #[test]
    fn evenly_spaced_bases_chain_on_one_difference() {
        // Rows k = 0..3 of one array: b - a is the same expression when b - a is the same k.
        let bases = [base(9), base(9), base(9), base(9)];
        let mut pairs = Vec::new();
        for a in 0..4 {
            for b in a + 1..4 {
                pairs.push(PairFacts { diff: (b - a) as u32, ..pair(a, b, 3) });
            }
        }
        let c = &plan(&CFG, 9, &none(), &ONE_LOOP, &bases, &pairs).classes[0];
        assert_eq!((c.members.clone(), c.from.clone()), (vec![0, 1, 2, 3], vec![0, 0, 1, 2]));
        let no_chain = Config { chain: false, ..CFG };
        assert_eq!(
            plan(&no_chain, 9, &none(), &ONE_LOOP, &bases, &pairs).classes[0].from,
            vec![0, 0, 0, 0]
        );
    }

    #[test]
    fn the_register_budget_limits_new_bases() {
        let bases = [
            base(9),
            base(9),
            BaseFacts { loop_id: 1, ..base(9) },
            BaseFacts { loop_id: 1, ..base(9) },
        ];
        let loops = [
            LoopFacts { parent: -1, phis: 60, over_target: false },
            LoopFacts { parent: -1, phis: 60, over_target: false },
        ];
        let pairs = [pair(0, 1, 3), pair(2, 3, 3)];
        // 1024 threads: 64 registers, 60 PHIs: headroom for two bases.
        let tight = LaunchBounds { maxntid: Some(vec![1024]), ..none() };
        let plan2 = plan(&CFG, 9, &tight, &loops, &bases, &pairs);
        assert_eq!((plan2.budget, plan2.classes.len()), (64, 2));
        let tighter = LaunchBounds { minctasm: Some(2), ..tight.clone() };
        let p = plan(&CFG, 9, &tighter, &loops, &bases, &pairs);
        assert!(p.classes.is_empty());
        assert_eq!(p.note, "register budget below the loop-header PHIs");
        let phis61 = [
            LoopFacts { parent: -1, phis: 61, over_target: false },
            LoopFacts { parent: -1, phis: 61, over_target: false },
        ];
        assert_eq!(
            plan(&CFG, 9, &tight, &phis61, &bases, &pairs).classes.len(),
            1,
            "3 registers: one base"
        );
    }

    #[test]
    fn moves_take_whole_values_inside_the_loop() {
        use super::super::group::Place;
        let rec = |base, loop_id, value, value_uses| Record {
            base,
            space: 1,
            offset: 0,
            at: Place::default(),
            access: true,
            value,
            value_uses,
            loop_id,
            loop_cost: 2,
        };
        let loops = [
            LoopFacts { parent: -1, phis: 1, over_target: false },
            LoopFacts { parent: 0, phis: 1, over_target: false },
        ];
        let p = Plan {
            classes: vec![Class {
                loop_id: 0,
                leader: 0,
                members: vec![0, 1],
                from: vec![0, 0],
                phi: true,
                reg_gain: 0,
            }],
            ..Plan::default()
        };
        let records =
            [rec(0, 0, 1, 1), rec(1, 1, 2, 1), rec(1, -1, 3, 1), rec(2, 0, 4, 1), rec(1, 0, 5, 2)];
        let m: Vec<usize> = moves(&p, &records, &loops).iter().map(|m| m.record).collect();
        assert_eq!(m, vec![0, 1], "outside the loop, another base, a value with another use: stay");
    }

    #[test]
    fn members_are_computed_before_their_first_access_in_the_header() {
        use super::super::group::Place;
        let rec = |base, block, order| Record {
            base,
            space: 1,
            offset: 0,
            at: Place { block, order, ..Place::default() },
            access: true,
            value: order,
            value_uses: 1,
            loop_id: 0,
            loop_cost: 2,
        };
        let records = [rec(0, 1, 3), rec(1, 1, 9), rec(1, 1, 5), rec(2, 1, 4), rec(2, 2, 1)];
        let moves: Vec<Move> = (0..5).map(|record| Move { record, class: 0 }).collect();
        assert_eq!(
            first_access(&moves, &records, 0, 1, 1),
            Some(2),
            "the earlier of two in the header"
        );
        assert_eq!(first_access(&moves, &records, 0, 2, 1), None, "one access outside the header");
        assert_eq!(first_access(&moves, &records, 1, 1, 1), None, "nothing moved in that class");
    }

    #[test]
    fn classes_that_save_no_loop_instructions_are_dropped() {
        use super::super::group::Place;
        let rec = |base, loop_cost| Record {
            base,
            space: 1,
            offset: 0,
            at: Place::default(),
            access: true,
            value: base,
            value_uses: 1,
            loop_id: 0,
            loop_cost,
        };
        let loops = [LoopFacts { parent: -1, phis: 1, over_target: false }];
        let p = || Plan {
            classes: vec![Class {
                loop_id: 0,
                leader: 0,
                members: vec![0, 1, 2],
                from: vec![0, 1, 2],
                phi: true,
                reg_gain: 1,
            }],
            ..Plan::default()
        };
        // Already `invariant + iv` (one add each): 3 saved, 2 member adds + 1 PHI update: no.
        let cheap = [rec(0, 1), rec(1, 1), rec(2, 1)];
        let (plan, moved) = paying(p(), moves_for(&cheap, &loops), &cheap, &loops);
        assert!(plan.classes.is_empty() && moved.is_empty());
        assert_eq!(plan.note, "no shared base saves loop instructions");
        let dear = [rec(0, 2), rec(1, 2), rec(2, 2)];
        let (plan, moved) = paying(p(), moves_for(&dear, &loops), &dear, &loops);
        assert_eq!((plan.classes.len(), moved.len()), (1, 3));
        // Over the register target the same cheap class pays for the register it frees.
        let hot = [LoopFacts { over_target: true, ..loops[0] }];
        let (plan, moved) = paying(p(), moves_for(&cheap, &hot), &cheap, &hot);
        assert_eq!((plan.classes.len(), moved.len()), (1, 3));
        let mut lossy = p();
        lossy.classes[0].reg_gain = 0;
        let (plan, _) = paying(lossy, moves_for(&cheap, &hot), &cheap, &hot);
        assert!(plan.classes.is_empty());
    }

    #[test]
    fn an_existing_phi_costs_nothing_and_is_not_rebuilt() {
        let bases = [BaseFacts { has_phi: true, ..base(9) }, base(9)];
        let full = [LoopFacts { parent: -1, phis: 255, over_target: false }];
        let p = plan(&CFG, 9, &none(), &full, &bases, &[pair(0, 1, 3)]);
        assert_eq!(p.classes.len(), 1);
        assert!(!p.classes[0].phi);
        let low = Config { level: 3, ..CFG };
        assert!(
            !plan(&low, 9, &none(), &ONE_LOOP, &[base(9), base(9)], &[pair(0, 1, 3)]).classes[0]
                .phi
        );
    }
}
