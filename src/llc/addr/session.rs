//! One function's address-pass decisions, as the driver (src/llc/addr/pass.rs) asks for them: the
//! records, loops, bases and pairs it collected, the knob settings and launch bounds of the
//! function, the split of each pointer expression, CBE's rewrites and BASR's plan (classes,
//! member bases, moved accesses), and the dumps (`dump-scev-cgp`,
//! `dump-base-address-strength-reduce`). Bookkeeping and printing only; the rules live in
//! [`super::record`], [`super::cbe`] and [`super::basr`].
use super::basr::{self, BaseFacts, LoopFacts, PairFacts};
use super::cbe::{self, Rewrite};
use super::expr::{Flat, Tree};
use super::group::{normal_origin, Place, Record};
use super::record::split;
use super::scev::NvPair;
use super::Settings;
use crate::analysis::gpu::LaunchBounds;

/// One pointer use (an access) or pointer value (a possible anchor) of the function.
#[derive(Clone, Copy)]
pub struct NvRecord {
    pub offset: i64,
    pub base: u32,
    pub space: u32,
    pub block: u32,
    pub dfs_in: u32,
    pub dfs_out: u32,
    pub order: u32,
    pub value: u32,
    pub value_uses: u32,
    pub loop_id: i32,
    pub access: u32,
    pub loop_insts: u32,
    pub loop_const_geps: u32,
}

impl From<&NvRecord> for Record {
    fn from(r: &NvRecord) -> Record {
        let at = Place { block: r.block, dfs_in: r.dfs_in, dfs_out: r.dfs_out, order: r.order };
        Record {
            base: r.base,
            space: r.space,
            offset: r.offset,
            at,
            access: r.access != 0,
            value: r.value,
            value_uses: r.value_uses,
            loop_id: r.loop_id,
            loop_cost: super::group::loop_cost(r.loop_insts, r.loop_const_geps),
        }
    }
}

/// A CBE rewrite: record `record` gets `value of record anchor + delta`.
#[derive(Clone, Copy)]
pub struct NvRewrite {
    pub delta: i64,
    pub record: u32,
    pub anchor: u32,
    pub cross_block: u32,
}

/// A loop as BASR sees it (see [`LoopFacts`]), with its header's block number.
pub struct NvLoop {
    pub parent: i32,
    pub phis: u32,
    /// The header's block number (as in [`NvRecord::block`]).
    pub header: u32,
    /// Whether the loop's register pressure exceeds the function's target.
    pub over_target: bool,
}
/// A base as BASR sees it (see [`BaseFacts`]).
pub struct NvBase {
    pub loop_id: i32,
    pub nodes: u32,
    pub has_phi: u32,
    pub walk: u32,
}
/// BASR's plan: per class its loop, leader base, whether to build a PHI and
/// the offset the shared base is normalized on; per member base its class; per moved access its
/// member and the constant left after the member's base.
#[derive(Clone, Copy)]
pub struct NvClass {
    pub origin: i64,
    pub loop_id: i32,
    pub leader: u32,
    pub phi: u32,
}
#[derive(Clone, Copy)]
pub struct NvMember {
    pub class: u32,
    pub base: u32,
    /// The member (index into the members output) this one is built on; itself for the leader.
    pub from: u32,
    /// The record it is computed right before (-1: at the top of the loop header).
    pub before: i32,
}
#[derive(Clone, Copy)]
pub struct NvMove {
    pub delta: i64,
    pub record: u32,
    pub member: u32,
}

/// One function's settings and launch bounds, for every phase.
pub struct Session {
    name: String,
    pub settings: Settings,
    bounds: LaunchBounds,
}

/// How one pointer expression splits.
pub enum Split {
    /// Not split: the whole expression is the base, at offset 0.
    Whole,
    /// The base to build (preorder, [`super::expr::Tree::encode`]).
    Base(Vec<Flat>),
    /// The encoding was malformed: no record.
    Malformed,
}

impl Session {
    /// Starts a function: `attrs` are `nvvm.maxntid`, `nvvm.reqntid`, `nvvm.minctasm` (empty
    /// when absent); `settings` the knobs under the pass's phases.
    pub fn new(name: String, attrs: [&str; 3], settings: Settings) -> Session {
        let (bounds, _) = LaunchBounds::parse(attrs[0], attrs[1], attrs[2]);
        Session { name, settings, bounds }
    }

    /// Splits one pointer expression (preorder, as the shim encodes it); with the offset.
    pub fn split(&self, nodes: &[Flat]) -> (Split, i64) {
        let Some(tree) = Tree::decode(nodes) else { return (Split::Malformed, 0) };
        let sp = split(&tree, &self.settings.rules);
        match sp.base {
            None => (Split::Whole, sp.offset),
            Some(b) => {
                let mut flat = Vec::new();
                b.encode(&mut flat);
                (Split::Base(flat), sp.offset)
            }
        }
    }

    /// Plans CBE over the records.
    pub fn cbe(&self, recs: &[NvRecord]) -> Vec<NvRewrite> {
        let records: Vec<Record> = recs.iter().map(Record::from).collect();
        let plan = cbe::plan(&records, &self.settings.cbe);
        if self.settings.dump_cgp {
            eprint!("{}", dump_cbe(&self.name, &records, &plan));
        }
        crate::stats::add("codegenpreparescev", "CBE rewrites", plan.len() as u64);
        plan.iter()
            .map(|w| NvRewrite {
                delta: w.delta,
                record: w.record as u32,
                anchor: w.anchor as u32,
                cross_block: w.cross_block as u32,
            })
            .collect()
    }
}

fn dump_cbe(name: &str, records: &[Record], plan: &[Rewrite]) -> String {
    let accesses = records.iter().filter(|r| r.access).count();
    let groups = super::group::groups(records);
    let largest =
        groups.iter().map(|g| g.iter().filter(|&&i| records[i].access).count()).max().unwrap_or(0);
    let mut out = format!(
        "scev-cgp: {name}: {accesses} accesses, {} bases, {} rewrites, largest group {largest}\n",
        groups.len(),
        plan.len()
    );
    for w in plan {
        let mode = if w.cross_block { "function" } else { "block" };
        out += &format!(
            "scev-cgp:   record {} = record {} {:+} ({mode})\n",
            w.record, w.anchor, w.delta
        );
    }
    out
}

/// BASR's plan: classes, member bases, moved accesses (see [`NvClass`]).
#[derive(Default)]
pub struct BasrPlan {
    pub classes: Vec<NvClass>,
    pub members: Vec<NvMember>,
    pub moves: Vec<NvMove>,
}

impl Session {
    /// Plans BASR.
    pub fn basr(
        &self,
        recs: &[NvRecord],
        loops: &[NvLoop],
        bases: &[NvBase],
        pairs: &[NvPair],
    ) -> BasrPlan {
        let s = self;
        let records: Vec<Record> = recs.iter().map(Record::from).collect();
        let headers: Vec<u32> = loops.iter().map(|l| l.header).collect();
        let loops: Vec<LoopFacts> = loops
            .iter()
            .map(|l| LoopFacts { parent: l.parent, phis: l.phis, over_target: l.over_target })
            .collect();
        let bases: Vec<BaseFacts> = bases
            .iter()
            .map(|b| BaseFacts {
                loop_id: b.loop_id,
                nodes: b.nodes,
                has_phi: b.has_phi != 0,
                walk: b.walk,
            })
            .collect();
        let pairs: Vec<PairFacts> = pairs
            .iter()
            .map(|p| PairFacts {
                a: p.a as usize,
                b: p.b as usize,
                diff_nodes: p.diff_nodes,
                invariant: p.invariant != 0,
                diff: p.diff,
            })
            .collect();
        let accesses = records.iter().filter(|r| r.access).count();
        let plan = basr::plan(&s.settings.basr, accesses, &s.bounds, &loops, &bases, &pairs);
        let (plan, moves) = basr::paying(plan, basr::moves_for(&records, &loops), &records, &loops);
        let mut out = BasrPlan::default();
        for (ci, c) in plan.classes.iter().enumerate() {
            let offsets = moves.iter().filter(|m| m.class == ci).map(|m| records[m.record].offset);
            let origin = normal_origin(offsets, s.settings.norm);
            out.classes.push(NvClass {
                origin,
                loop_id: c.loop_id,
                leader: c.leader as u32,
                phi: c.phi as u32,
            });
            let first = out.members.len();
            for (&b, f) in c.members.iter().zip(&c.from) {
                let member = out.members.len() as u32;
                let from = (first
                    + c.members.iter().position(|m| m == f).expect("a link names a member"))
                    as u32;
                let before =
                    basr::first_access(&moves, &records, ci, b, headers[c.loop_id as usize])
                        .map_or(-1, |r| r as i32);
                out.members.push(NvMember { class: ci as u32, base: b as u32, from, before });
                for m in
                    moves.iter().filter(|m| m.class == ci && records[m.record].base as usize == b)
                {
                    out.moves.push(NvMove {
                        delta: records[m.record].offset - origin,
                        record: m.record as u32,
                        member,
                    });
                }
            }
        }
        if s.settings.dump_basr {
            eprint!("{}", dump_basr(&s.name, &plan, &out.classes, &out.members, &out.moves));
        }
        crate::stats::add("codegenpreparescev", "BASR shared bases", out.classes.len() as u64);
        let hot = plan.classes.iter().filter(|c| loops[c.loop_id as usize].over_target).count();
        crate::stats::add(
            "codegenpreparescev",
            "BASR shared bases in loops over the register target",
            hot as u64,
        );
        crate::stats::add("codegenpreparescev", "BASR moved accesses", out.moves.len() as u64);
        out
    }
}

fn dump_basr(
    name: &str,
    plan: &basr::Plan,
    classes: &[NvClass],
    members: &[NvMember],
    moves: &[NvMove],
) -> String {
    let note = if plan.note.is_empty() { String::new() } else { format!(" ({})", plan.note) };
    let mut out = format!(
        "basr: {name}: budget {} registers, loop-header PHIs {}, {} shared bases{note}\n",
        plan.budget,
        plan.loop_phis,
        classes.len()
    );
    for (ci, c) in classes.iter().enumerate() {
        let kind = if c.phi != 0 { "new loop-carried PHI" } else { "expanded base" };
        let bases: Vec<String> =
            members.iter().filter(|m| m.class as usize == ci).map(|m| m.base.to_string()).collect();
        let n = moves.iter().filter(|m| members[m.member as usize].class as usize == ci).count();
        out += &format!(
            "basr:   loop {}: bases [{}] share base {} ({kind}, origin {:+}): {n} accesses\n",
            c.loop_id,
            bases.join(", "),
            c.leader,
            c.origin
        );
    }
    out
}
