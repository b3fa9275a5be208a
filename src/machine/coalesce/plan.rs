//! The copy-coalescing planner of `nv-coalesce` (docs/CICC-FACTS.md, "Register coalescing": the
//! block scan and the worklist): which copies are candidates and of which kind, in what order they
//! are tried, when a failed one is retried, and where the limits stop the work. It sees copies only
//! as numbers and facts; an [`Oracle`] (LLVM's LiveIntervals, through the shim) answers the
//! interference question and performs each rewrite the planner decides, one at a time, so
//! every answer reflects all earlier merges.
//!
//! cicc's algorithm (docs/CICC-FACTS.md, "Register coalescing"), with interference read on
//! LLVM's live intervals: the copy's two virtual registers interfere when their intervals
//! overlap, except where the destination holds the value this copy defined while the source
//! still holds the value it copied (both hold the same bits there; when the copy kills the
//! source the intervals merely touch):
//! - candidates: same-class virtual-register copies, never across classes; 128-bit registers
//!   are excluded, as cicc leaves its 128-bit class out of the worklist;
//! - a min-heap keyed by register number (the copy's destination, defs before uses), ties
//!   broken by weight (instructions + spill weight + uses of both registers, higher first),
//!   optionally scaled by the copy's block frequency;
//! - a copy that interferes goes to a second worklist; when the first is empty and a merge
//!   succeeded, the lists swap and the second is retried, until a round merges nothing;
//! - `copy_limit` bounds the candidates considered, `coalesce_limit` the copies removed.
//!
//! One addition to cicc's algorithm (knob `nv-coalesce-remat`): a copy that still interferes after
//! the worklist converged and whose source value is an immediate move is rewritten into that
//! move (upstream NVPTX marks `MOV_*_i` as cheap but not rematerializable, so LLVM's
//! RegisterCoalescer leaves these copies). A retry is only asked of the oracle when one of the
//! copy's two registers changed since its last answer; otherwise the old answer stands.
use crate::fast_hash::HashMap;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Address space of `.param` (NVPTX's `ADDRESS_SPACE_PARAM`).
pub const PARAM_ADDRESS_SPACE: u32 = 101;

/// Where a copy comes from, as far as the MIR tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Left by PHI elimination: at a block's end (only copies and terminators follow) with the
    /// destination live out, or reading a value that is a PHI join in the source's interval.
    Phi,
    /// A `.param` copy: its source value is a load from the param space (kernel or callee
    /// parameters, call results) or its destination is stored to the param space (call
    /// arguments, return values).
    Param,
    /// A copy with a sub-register index on either side.
    SubReg,
    Other,
}

impl Origin {
    pub const ALL: [Origin; 4] = [Origin::Phi, Origin::Param, Origin::SubReg, Origin::Other];

    pub fn name(self) -> &'static str {
        match self {
            Origin::Phi => "PHI-elimination copies",
            Origin::Param => "parameter copies",
            Origin::SubReg => "sub-register copies",
            Origin::Other => "other copies",
        }
    }
}

/// Why a copy is not a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exclusion {
    /// A physical register on either side.
    Physical,
    /// A sub-register index on either side (NVPTX has none; never merged).
    SubReg,
    /// The source operand is `undef`.
    UndefSource,
    /// The two registers belong to different register classes.
    CrossClass,
    /// 128-bit registers (B128), excluded as in cicc.
    Wide128,
    /// Source and destination are already the same register.
    Identity,
}

impl Exclusion {
    pub const ALL: [Exclusion; 6] = [
        Exclusion::Physical,
        Exclusion::SubReg,
        Exclusion::UndefSource,
        Exclusion::CrossClass,
        Exclusion::Wide128,
        Exclusion::Identity,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Exclusion::Physical => "copies excluded: physical register",
            Exclusion::SubReg => "copies excluded: sub-register index",
            Exclusion::UndefSource => "copies excluded: undef source",
            Exclusion::CrossClass => "copies excluded: across register classes",
            Exclusion::Wide128 => "copies excluded: 128-bit registers",
            Exclusion::Identity => "copies excluded: identity",
        }
    }
}

/// What defines the source value the copy reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SourceDef {
    /// A load from address space N.
    Load(u32),
    /// An immediate move (`MOV_*_i`).
    ImmediateMove,
    /// A PHI join of the source's live interval.
    PhiJoin,
    Other,
}

/// Use statistics of one register.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RegWeight {
    /// Instructions that read or write the register.
    pub instrs: u32,
    /// Use operands.
    pub uses: u32,
    /// LLVM's spill weight: defs and uses, each scaled by its block frequency relative to entry.
    pub spill: f64,
}

impl RegWeight {
    /// cicc's weight (sub_34B7280, docs/CICC-FACTS.md "Register coalescing"): instruction count +
    /// spill weight + use count.
    pub fn value(&self) -> f64 {
        self.instrs as f64 + self.spill + self.uses as f64
    }

    fn absorb(&mut self, other: RegWeight) {
        self.instrs += other.instrs;
        self.uses += other.uses;
        self.spill += other.spill;
    }
}

/// Everything the shim reports about one copy, in program order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facts {
    /// Virtual register indices (meaningless for a physical register).
    pub dst: u32,
    pub src: u32,
    pub dst_virtual: bool,
    pub src_virtual: bool,
    pub same_class: bool,
    /// Width of the destination's register class in bits.
    pub width: u32,
    pub subreg: bool,
    pub src_undef: bool,
    pub src_def: SourceDef,
    /// Address space of a store that stores the destination, if any.
    pub dst_stored_to: Option<u32>,
    /// Only copies and terminators follow the copy in its block.
    pub at_block_end: bool,
    /// The destination is live out of the copy's block.
    pub dst_live_out: bool,
    /// Block frequency of the copy relative to the entry block.
    pub freq: f64,
    pub dst_weight: RegWeight,
    pub src_weight: RegWeight,
}

impl Facts {
    /// Where the copy comes from.
    pub fn origin(&self) -> Origin {
        if self.subreg {
            Origin::SubReg
        } else if self.src_def == SourceDef::Load(PARAM_ADDRESS_SPACE)
            || self.dst_stored_to == Some(PARAM_ADDRESS_SPACE)
        {
            Origin::Param
        } else if self.src_def == SourceDef::PhiJoin || (self.at_block_end && self.dst_live_out) {
            Origin::Phi
        } else {
            Origin::Other
        }
    }

    /// Why the copy cannot be merged, if it cannot.
    pub fn exclusion(&self) -> Option<Exclusion> {
        if !self.dst_virtual || !self.src_virtual {
            Some(Exclusion::Physical)
        } else if self.subreg {
            Some(Exclusion::SubReg)
        } else if self.src_undef {
            Some(Exclusion::UndefSource)
        } else if !self.same_class {
            Some(Exclusion::CrossClass)
        } else if self.width >= 128 {
            Some(Exclusion::Wide128)
        } else if self.dst == self.src {
            Some(Exclusion::Identity)
        } else {
            None
        }
    }
}

/// The knobs of the planner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// At most this many candidates are considered (program order); the rest stay.
    pub copy_limit: usize,
    /// At most this many copies are removed (merged or rematerialized).
    pub coalesce_limit: usize,
    /// Scale each copy's weight by its block frequency (hot copies first among equal keys).
    pub freq_bias: bool,
    /// Rewrite interfering copies of an immediate into the immediate move.
    pub remat: bool,
}

/// The current registers of a copy, as the oracle sees them after earlier rewrites.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Current {
    /// `dst = COPY src`.
    Copy { dst: u32, src: u32 },
    /// The copy is no longer there.
    Gone,
}

/// LLVM's side of the planner: answers and rewrites, one copy at a time.
pub trait Oracle {
    /// The registers of copy `id` now.
    fn current(&mut self, id: u32) -> Current;
    /// Whether the live intervals of the copy's two registers overlap.
    fn interferes(&mut self, id: u32) -> bool;
    /// Merges the copy's two registers into `keep` (one of them) and erases the copy.
    fn merge(&mut self, id: u32, keep: u32);
    /// Erases a copy whose two registers became one.
    fn erase_identity(&mut self, id: u32);
    /// Whether the value the copy reads is defined by an immediate move.
    fn immediate_source(&mut self, id: u32) -> bool;
    /// Replaces the copy by a clone of the immediate move that defines its source value;
    /// returns the source register (whose interval shrank).
    fn rematerialize(&mut self, id: u32) -> u32;
    /// Tells that copy `id` stays (its registers interfere, or a limit stopped the work).
    fn kept(&mut self, id: u32, by_limit: bool);
}

/// What happened to the copies of one function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub seen: HashMap<Origin, u64>,
    pub merged: HashMap<Origin, u64>,
    pub rematerialized: HashMap<Origin, u64>,
    /// Candidates still there at the end (interference, or stopped by the coalesce limit).
    pub kept: HashMap<Origin, u64>,
    pub excluded: HashMap<Exclusion, u64>,
    /// Copies that became identities through earlier merges and were erased.
    pub identities: u64,
    /// Candidates beyond the copy limit.
    pub over_copy_limit: u64,
    /// Whether the coalesce limit stopped the work.
    pub hit_coalesce_limit: bool,
    /// Worklist rounds (1 + retries).
    pub rounds: u64,
    /// Interference questions asked.
    pub queries: u64,
    /// Retries answered from an earlier answer because neither register changed.
    pub reused_answers: u64,
}

impl Outcome {
    /// Copies removed from the function.
    pub fn removed(&self) -> u64 {
        self.merged.values().sum::<u64>()
            + self.rematerialized.values().sum::<u64>()
            + self.identities
    }
}

/// One candidate in a worklist.
#[derive(Clone, Debug)]
struct Entry {
    id: u32,
    origin: Origin,
    /// Heap key: the copy's destination register when it was queued.
    key: u32,
    weight: f64,
    /// (dst, stamp of dst, src, stamp of src) at the last interference answer.
    answered: Option<(u32, u64, u32, u64)>,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    /// "Greater" pops first from std's max-heap: lower register number, then higher weight,
    /// then lower copy id (program order).
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key
            .cmp(&self.key)
            .then(self.weight.total_cmp(&other.weight))
            .then(other.id.cmp(&self.id))
    }
}

/// Per-register state the planner keeps across merges.
#[derive(Default)]
struct Registers {
    weight: HashMap<u32, RegWeight>,
    /// Bumped each time a register's interval changes.
    stamp: HashMap<u32, u64>,
    clock: u64,
}

impl Registers {
    fn stamp(&self, r: u32) -> u64 {
        self.stamp.get(&r).copied().unwrap_or(0)
    }

    fn touch(&mut self, r: u32) {
        self.clock += 1;
        self.stamp.insert(r, self.clock);
    }

    fn weight(&self, r: u32) -> RegWeight {
        self.weight.get(&r).copied().unwrap_or_default()
    }

    /// The register that survives a merge: the one more instructions refer to (fewer operands
    /// to rewrite), the lower number on a tie.
    fn keep(&self, a: u32, b: u32) -> (u32, u32) {
        let (wa, wb) = (self.weight(a).instrs, self.weight(b).instrs);
        if wa > wb || (wa == wb && a < b) {
            (a, b)
        } else {
            (b, a)
        }
    }

    fn merge(&mut self, keep: u32, drop: u32) {
        let w = self.weight(drop);
        self.weight.entry(keep).or_default().absorb(w);
        self.weight.remove(&drop);
        self.touch(keep);
    }
}

/// Runs cicc's coalescing worklist (docs/CICC-FACTS.md, "Register coalescing") over the copies of
/// one function (`facts` in program order; the oracle knows copy `i` as id `i`).
pub fn coalesce(facts: &[Facts], limits: Limits, oracle: &mut dyn Oracle) -> Outcome {
    let mut out = Outcome::default();
    let mut regs = Registers::default();
    let mut primary = BinaryHeap::new();
    let mut candidates = 0usize;
    for (id, f) in facts.iter().enumerate() {
        let origin = f.origin();
        *out.seen.entry(origin).or_default() += 1;
        if let Some(why) = f.exclusion() {
            *out.excluded.entry(why).or_default() += 1;
            continue;
        }
        if candidates >= limits.copy_limit {
            out.over_copy_limit += 1;
            continue;
        }
        candidates += 1;
        regs.weight.entry(f.dst).or_insert(f.dst_weight);
        regs.weight.entry(f.src).or_insert(f.src_weight);
        let mut weight = f.dst_weight.value() + f.src_weight.value();
        if limits.freq_bias {
            weight *= f.freq;
        }
        primary.push(Entry { id: id as u32, origin, key: f.dst, weight, answered: None });
    }

    let mut removed = 0usize;
    let mut pending: Vec<Entry> = Vec::new();
    'rounds: loop {
        out.rounds += 1;
        let mut progress = false;
        while let Some(mut e) = primary.pop() {
            if removed >= limits.coalesce_limit {
                out.hit_coalesce_limit = true;
                pending.push(e);
                pending.extend(primary.drain());
                break 'rounds;
            }
            let (dst, src) = match oracle.current(e.id) {
                Current::Gone => continue,
                Current::Copy { dst, src } => (dst, src),
            };
            if dst == src {
                oracle.erase_identity(e.id);
                regs.touch(dst);
                out.identities += 1;
                removed += 1;
                progress = true;
                continue;
            }
            let now = (dst, regs.stamp(dst), src, regs.stamp(src));
            if e.answered == Some(now) {
                out.reused_answers += 1;
                pending.push(e);
                continue;
            }
            out.queries += 1;
            if oracle.interferes(e.id) {
                e.answered = Some(now);
                pending.push(e);
                continue;
            }
            let (keep, drop) = regs.keep(dst, src);
            log::debug!("nv-coalesce: copy {} merges %{drop} into %{keep}", e.id);
            oracle.merge(e.id, keep);
            regs.merge(keep, drop);
            *out.merged.entry(e.origin).or_default() += 1;
            removed += 1;
            progress = true;
        }
        if !progress && limits.remat {
            // The worklist converged: rematerialize what still interferes, in heap order.
            pending.sort_by(|a, b| b.cmp(a));
            let mut left = Vec::new();
            for e in pending.drain(..) {
                if removed >= limits.coalesce_limit {
                    out.hit_coalesce_limit = true;
                    left.push(e);
                    continue;
                }
                if oracle.current(e.id) == Current::Gone {
                    continue;
                }
                if oracle.immediate_source(e.id) {
                    let src = oracle.rematerialize(e.id);
                    log::debug!(
                        "nv-coalesce: copy {} of an immediate in %{src} rematerialized",
                        e.id
                    );
                    regs.touch(src);
                    *out.rematerialized.entry(e.origin).or_default() += 1;
                    removed += 1;
                    progress = true;
                } else {
                    left.push(e);
                }
            }
            pending = left;
        }
        if !progress || pending.is_empty() {
            break;
        }
        primary.extend(pending.drain(..));
    }
    for e in pending {
        if oracle.current(e.id) != Current::Gone {
            oracle.kept(e.id, out.hit_coalesce_limit && e.answered.is_none());
            *out.kept.entry(e.origin).or_default() += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast_hash::HashSet;

    /// A synthetic function: registers with live intervals as sets of points; a copy
    /// `dst = src` at point p, whose source segment ends at p (killed) unless the source is
    /// used later.
    struct Fake {
        live: HashMap<u32, HashSet<u32>>,
        copies: Vec<Option<(u32, u32, u32)>>, // (dst, src, point)
        immediates: HashSet<u32>,             // copies whose source value is an immediate
        log: Vec<String>,
        kept: Vec<(u32, bool)>,
    }

    impl Fake {
        fn new(copies: &[(u32, u32, u32)], live: &[(u32, &[u32])]) -> Self {
            Fake {
                live: live.iter().map(|(r, ps)| (*r, ps.iter().copied().collect())).collect(),
                copies: copies.iter().map(|c| Some(*c)).collect(),
                immediates: HashSet::default(),
                log: Vec::new(),
                kept: Vec::new(),
            }
        }

        fn rename(&mut self, from: u32, to: u32) {
            let pts = self.live.remove(&from).unwrap_or_default();
            self.live.entry(to).or_default().extend(pts);
            for (d, s, _) in self.copies.iter_mut().flatten() {
                if *d == from {
                    *d = to;
                }
                if *s == from {
                    *s = to;
                }
            }
        }
    }

    impl Oracle for Fake {
        fn current(&mut self, id: u32) -> Current {
            match self.copies[id as usize] {
                Some((dst, src, _)) => Current::Copy { dst, src },
                None => Current::Gone,
            }
        }
        fn interferes(&mut self, id: u32) -> bool {
            let (d, s, _) = self.copies[id as usize].unwrap();
            self.log.push(format!("q{id}"));
            let (ld, ls) = (&self.live[&d], &self.live[&s]);
            ld.intersection(ls).next().is_some()
        }
        fn merge(&mut self, id: u32, keep: u32) {
            let (d, s, _) = self.copies[id as usize].take().unwrap();
            assert!(keep == d || keep == s);
            self.log.push(format!("m{id}"));
            self.rename(if keep == d { s } else { d }, keep);
        }
        fn erase_identity(&mut self, id: u32) {
            self.copies[id as usize] = None;
            self.log.push(format!("i{id}"));
        }
        fn immediate_source(&mut self, id: u32) -> bool {
            self.immediates.contains(&id)
        }
        fn rematerialize(&mut self, id: u32) -> u32 {
            let (_, s, p) = self.copies[id as usize].take().unwrap();
            self.log.push(format!("r{id}"));
            // The source is no longer read at p.
            self.live.get_mut(&s).unwrap().remove(&p);
            s
        }
        fn kept(&mut self, id: u32, by_limit: bool) {
            self.kept.push((id, by_limit));
        }
    }

    fn facts(dst: u32, src: u32) -> Facts {
        Facts {
            dst,
            src,
            dst_virtual: true,
            src_virtual: true,
            same_class: true,
            width: 32,
            subreg: false,
            src_undef: false,
            src_def: SourceDef::Other,
            dst_stored_to: None,
            at_block_end: false,
            dst_live_out: false,
            freq: 1.0,
            dst_weight: RegWeight { instrs: 1, uses: 1, spill: 1.0 },
            src_weight: RegWeight { instrs: 1, uses: 1, spill: 1.0 },
        }
    }

    const NO_LIMITS: Limits = Limits {
        copy_limit: usize::MAX,
        coalesce_limit: usize::MAX,
        freq_bias: false,
        remat: true,
    };

    #[test]
    fn classifies_origins() {
        let mut f = facts(1, 2);
        assert_eq!(f.origin(), Origin::Other);
        f.at_block_end = true;
        assert_eq!(f.origin(), Origin::Other, "at the end but not live out");
        f.dst_live_out = true;
        assert_eq!(f.origin(), Origin::Phi);
        f.src_def = SourceDef::Load(PARAM_ADDRESS_SPACE);
        assert_eq!(f.origin(), Origin::Param, "param beats PHI");
        f.src_def = SourceDef::Load(1);
        assert_eq!(f.origin(), Origin::Phi, "a global load is no param copy");
        let mut g = facts(1, 2);
        g.dst_stored_to = Some(PARAM_ADDRESS_SPACE);
        assert_eq!(g.origin(), Origin::Param);
        g.src_def = SourceDef::PhiJoin;
        g.dst_stored_to = None;
        assert_eq!(g.origin(), Origin::Phi);
        g.subreg = true;
        assert_eq!(g.origin(), Origin::SubReg);
    }

    #[test]
    fn excludes_what_cannot_merge() {
        let f = facts(1, 2);
        assert_eq!(f.exclusion(), None);
        type Change = fn(&mut Facts);
        let cases: [(Change, Exclusion); 6] = [
            (|f| f.src_virtual = false, Exclusion::Physical),
            (|f| f.subreg = true, Exclusion::SubReg),
            (|f| f.src_undef = true, Exclusion::UndefSource),
            (|f| f.same_class = false, Exclusion::CrossClass),
            (|f| f.width = 128, Exclusion::Wide128),
            (|f| f.src = f.dst, Exclusion::Identity),
        ];
        for (set, want) in cases {
            let mut g = facts(1, 2);
            set(&mut g);
            assert_eq!(g.exclusion(), Some(want));
        }
        let mut fake = Fake::new(&[(1, 2, 5)], &[(1, &[5, 6]), (2, &[4])]);
        let mut x = facts(1, 2);
        x.same_class = false;
        let out = coalesce(&[x], NO_LIMITS, &mut fake);
        assert_eq!(out.excluded[&Exclusion::CrossClass], 1);
        assert!(fake.log.is_empty(), "no question about an excluded copy");
    }

    #[test]
    fn merges_without_interference_and_keeps_with() {
        // %1 = COPY %2 kills %2 (disjoint); %3 = COPY %4 with %4 live on (overlap).
        let mut fake = Fake::new(
            &[(1, 2, 5), (3, 4, 7)],
            &[(1, &[5, 6]), (2, &[4]), (3, &[7, 8]), (4, &[6, 7, 8])],
        );
        let out = coalesce(&[facts(1, 2), facts(3, 4)], NO_LIMITS, &mut fake);
        assert_eq!(out.merged[&Origin::Other], 1);
        assert_eq!(out.kept[&Origin::Other], 1);
        assert_eq!(fake.kept, [(1, false)], "kept for interference");
        assert_eq!(
            fake.log,
            ["q0", "m0", "q1"],
            "no second question: no merge touched copy 1's registers"
        );
        assert_eq!((out.rounds, out.reused_answers), (2, 1));
        assert_eq!(out.removed(), 1);
    }

    #[test]
    fn heap_orders_by_register_then_weight() {
        // Keys 9, 3, 3 (copy 2 heavier than copy 1), 5: order 2, 1, 3, 0.
        let mut fake = Fake::new(
            &[(9, 10, 1), (3, 11, 3), (3, 12, 5), (5, 13, 7)],
            &[
                (9, &[1]),
                (10, &[0, 1]),
                (3, &[3, 5]),
                (11, &[2, 3]),
                (12, &[4, 5]),
                (5, &[7]),
                (13, &[6, 7]),
            ],
        );
        let mut f = vec![facts(9, 10), facts(3, 11), facts(3, 12), facts(5, 13)];
        f[2].src_weight.uses = 10;
        let out = coalesce(&f, NO_LIMITS, &mut fake);
        let queries: Vec<&str> =
            fake.log.iter().filter(|s| s.starts_with('q')).map(|s| s.as_str()).collect();
        assert_eq!(queries, ["q2", "q1", "q3", "q0"]);
        assert_eq!(out.kept.values().sum::<u64>(), 4);
    }

    #[test]
    fn block_frequency_bias_reorders_ties() {
        let mut f = vec![facts(3, 1), facts(3, 2)];
        f[0].src_weight.uses = 5; // heavier, but cold
        f[1].freq = 32.0; // hot
        f[0].freq = 0.5;
        let run = |bias: bool| {
            let mut fake = Fake::new(
                &[(3, 1, 2), (3, 2, 4)],
                &[(3, &[1, 2, 3, 4]), (1, &[1, 2]), (2, &[3, 4])],
            );
            coalesce(&f, Limits { freq_bias: bias, ..NO_LIMITS }, &mut fake);
            fake.log.iter().filter(|s| s.starts_with('q')).cloned().collect::<Vec<_>>()
        };
        assert_eq!(run(false), ["q0", "q1"]);
        assert_eq!(run(true), ["q1", "q0"]);
    }

    #[test]
    fn retries_after_a_merge_changes_a_register() {
        // Copy 0 (key 1): %1 = COPY %2 interferes with %2 at point 3, which copy 1's merge
        // (key 2) frees: the fake drops point 3 from the merged register, as LiveIntervals
        // does when a merge leaves a def dead.
        struct Shrinking(Fake);
        impl Oracle for Shrinking {
            fn current(&mut self, id: u32) -> Current {
                self.0.current(id)
            }
            fn interferes(&mut self, id: u32) -> bool {
                self.0.interferes(id)
            }
            fn merge(&mut self, id: u32, keep: u32) {
                self.0.merge(id, keep);
                self.0.live.get_mut(&keep).unwrap().remove(&3);
            }
            fn erase_identity(&mut self, id: u32) {
                self.0.erase_identity(id)
            }
            fn immediate_source(&mut self, id: u32) -> bool {
                self.0.immediate_source(id)
            }
            fn rematerialize(&mut self, id: u32) -> u32 {
                self.0.rematerialize(id)
            }
            fn kept(&mut self, id: u32, by_limit: bool) {
                self.0.kept(id, by_limit)
            }
        }
        let fake = Fake::new(
            &[(1, 2, 2), (2, 7, 5), (8, 9, 9)],
            &[(1, &[2, 3]), (2, &[1, 3, 5]), (7, &[4]), (8, &[9, 10]), (9, &[8, 9, 10])],
        );
        let mut s = Shrinking(fake);
        let out = coalesce(&[facts(1, 2), facts(2, 7), facts(8, 9)], NO_LIMITS, &mut s);
        // Round 1: q0 fails, q1 merges %7 into %2 (dropping point 3), q2 fails.
        // Round 2: copy 0 is asked again (its %2 changed), copy 2 is not (unchanged).
        assert_eq!(s.0.log, ["q0", "q1", "m1", "q2", "q0", "m0"]);
        assert_eq!(out.rounds, 3, "round 3 finds only copy 2, answered before");
        assert_eq!(out.reused_answers, 2);
        assert_eq!(out.merged[&Origin::Other], 2);
        assert_eq!(out.kept[&Origin::Other], 1);
    }

    #[test]
    fn copy_limit_bounds_candidates() {
        let mut fake = Fake::new(
            &[(1, 2, 1), (3, 4, 3), (5, 6, 5)],
            &[(1, &[1]), (2, &[0]), (3, &[3]), (4, &[2]), (5, &[5]), (6, &[4])],
        );
        let mut x = facts(1, 2);
        x.same_class = false; // excluded copies do not count against the limit
        let out = coalesce(
            &[x, facts(3, 4), facts(5, 6)],
            Limits { copy_limit: 1, ..NO_LIMITS },
            &mut fake,
        );
        assert_eq!(out.over_copy_limit, 1);
        assert_eq!(out.merged[&Origin::Other], 1);
        assert_eq!(fake.log, ["q1", "m1"]);
    }

    #[test]
    fn coalesce_limit_stops_merging() {
        let mut fake = Fake::new(
            &[(1, 2, 1), (3, 4, 3), (5, 6, 5)],
            &[(1, &[1]), (2, &[0]), (3, &[3]), (4, &[2]), (5, &[5]), (6, &[4])],
        );
        let out = coalesce(
            &[facts(1, 2), facts(3, 4), facts(5, 6)],
            Limits { coalesce_limit: 1, ..NO_LIMITS },
            &mut fake,
        );
        assert!(out.hit_coalesce_limit);
        assert_eq!(out.removed(), 1);
        assert_eq!(out.kept[&Origin::Other], 2);
        assert_eq!(fake.log, ["q0", "m0"]);
        assert_eq!(fake.kept, [(1, true), (2, true)], "never asked: stopped by the limit");
    }

    #[test]
    fn keeps_the_busier_register() {
        let mut fake = Fake::new(&[(1, 2, 1)], &[(1, &[1]), (2, &[0])]);
        let mut f = facts(1, 2);
        f.src_weight.instrs = 7;
        coalesce(&[f], NO_LIMITS, &mut fake);
        assert!(fake.live.contains_key(&2) && !fake.live.contains_key(&1), "%1 renamed to %2");
    }

    #[test]
    fn identity_after_merge_is_erased() {
        // Two copies %1 = COPY %2 (PHI copies from two predecessors): the second becomes
        // %x = COPY %x after the first merges.
        let mut fake = Fake::new(&[(1, 2, 1), (1, 2, 3)], &[(1, &[1, 3]), (2, &[0, 2])]);
        let out = coalesce(&[facts(1, 2), facts(1, 2)], NO_LIMITS, &mut fake);
        assert_eq!(fake.log, ["q0", "m0", "i1"]);
        assert_eq!(out.identities, 1);
        assert_eq!(out.removed(), 2);
    }

    #[test]
    fn rematerializes_interfering_immediates_after_convergence() {
        // %1 = COPY %9 and %2 = COPY %9 with %9 = 0.0 live on (accumulator init): both
        // interfere; only copy 1 reads an immediate.
        let mut fake = Fake::new(
            &[(1, 9, 2), (2, 8, 3)],
            &[(1, &[2, 3, 4]), (2, &[3, 4]), (9, &[1, 2, 3, 4]), (8, &[2, 3, 4])],
        );
        fake.immediates.insert(0);
        let out = coalesce(&[facts(1, 9), facts(2, 8)], NO_LIMITS, &mut fake);
        assert_eq!(fake.log, ["q0", "q1", "r0"]);
        assert_eq!(out.rematerialized[&Origin::Other], 1);
        assert_eq!(out.kept[&Origin::Other], 1);
        let mut off = Fake::new(&[(1, 9, 2)], &[(1, &[2, 3]), (9, &[1, 2, 3])]);
        off.immediates.insert(0);
        let out = coalesce(&[facts(1, 9)], Limits { remat: false, ..NO_LIMITS }, &mut off);
        assert!(out.rematerialized.is_empty());
        assert_eq!(off.log, ["q0"]);
    }

    #[test]
    fn remat_shrink_allows_a_later_merge() {
        // %1 = COPY %9 (immediate, at 2) keeps %9 live at 2; %9's other copy %5 = COPY %9 at 6
        // interferes with %5 only at point 2, which the remat frees.
        let mut fake =
            Fake::new(&[(1, 9, 2), (5, 9, 6)], &[(1, &[2, 3]), (9, &[1, 2, 5]), (5, &[2, 6, 7])]);
        fake.immediates.insert(0);
        let out = coalesce(&[facts(1, 9), facts(5, 9)], NO_LIMITS, &mut fake);
        assert_eq!(fake.log, ["q0", "q1", "r0", "q1", "m1"]);
        assert_eq!(out.rematerialized[&Origin::Other], 1);
        assert_eq!(out.merged[&Origin::Other], 1);
    }

    #[test]
    fn counts_origins_seen() {
        let mut phi = facts(1, 2);
        phi.at_block_end = true;
        phi.dst_live_out = true;
        let mut fake = Fake::new(&[(1, 2, 1)], &[(1, &[1, 2]), (2, &[0, 1])]);
        let out = coalesce(&[phi], NO_LIMITS, &mut fake);
        assert_eq!(out.seen[&Origin::Phi], 1);
        assert_eq!(out.kept[&Origin::Phi], 1);
    }
}
