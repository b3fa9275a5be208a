//! Common Base Elimination (docs/CICC-FACTS.md "Address optimization", CBE): within a group of
//! records with one base, an anchor is picked and every other access becomes
//! `anchor + (off - anchorOff)`, which the adapter materializes right before the access as an
//! `i8` GEP off the anchor's pointer, so NVPTX selects `[reg+imm]`. Function level
//! (`do-function-scev-cgp`) first: the anchor is a member that dominates all others, at most
//! `scev-cgp-cross-block-limit` such groups anchored in one block; the rest per block: the
//! first member of each block anchors the others. With `scev-cgp-old-base` an existing pointer
//! value of the same base may anchor (1: when no access dominates, 2: preferred).
//! `scev-cgp-control` caps rewrites per function (-1: no cap).
//!
//! A rewrite pays only when the old address computation dies, so a pointer value is moved only
//! when all of its uses are accesses of the group that move with it.
//!
//! Example: the header of src/llc/addr/mod.rs (`p[i]`, `p[i+1]`, `p[i+2]` become `%a0`,
//! `%a0 + 4`, `%a0 + 8`). It leaves alone (plugin-tests/addr/cbe.ll): accesses in sibling
//! blocks of which none dominates the other (each block then anchors its own); an address
//! that is also used as a value (its computation would stay); offsets it cannot prove
//! constant (`sext(i + 1)` without nsw is not `sext(i) + 1`: two bases); the same offsets in
//! two address spaces (two groups).
use super::group::{groups, Record};
use crate::fast_hash::HashMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub function_level: bool,
    pub old_base: i64,
    pub cross_block_limit: i64,
    pub control: i64,
}

/// Access `record` gets the address `anchor's value + delta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rewrite {
    pub record: usize,
    pub anchor: usize,
    pub delta: i64,
    /// Whether the anchor dominates from another block (function-level mode).
    pub cross_block: bool,
}

/// The rewrites for one function.
pub fn plan(records: &[Record], cfg: &Config) -> Vec<Rewrite> {
    let mut out = Vec::new();
    let mut cross_per_block: HashMap<u32, i64> = HashMap::default();
    for g in groups(records) {
        let members: Vec<usize> = g.iter().copied().filter(|&i| records[i].access).collect();
        if members.len() < 2 && g.len() == members.len() {
            continue;
        }
        let mut rest = members.clone();
        if cfg.function_level {
            if let Some(a) = function_anchor(records, &g, &members, cfg.old_base) {
                let used = cross_per_block.entry(records[a].at.block).or_default();
                let crosses = members.iter().any(|&m| records[m].at.block != records[a].at.block);
                if !crosses || *used < cfg.cross_block_limit {
                    *used += crosses as i64;
                    rest.clear();
                    rewrite_all(records, a, &members, &mut out);
                }
            }
        }
        per_block(records, &rest, &mut out);
    }
    keep_whole_values(records, &mut out);
    if cfg.control >= 0 && out.len() > cfg.control as usize {
        out.truncate(cfg.control as usize);
        keep_whole_values(records, &mut out);
    }
    out
}

/// The anchor for a whole group: a candidate that dominates every member it does not anchor
/// itself (an access anchors its own value).
fn function_anchor(
    records: &[Record],
    group: &[usize],
    members: &[usize],
    old_base: i64,
) -> Option<usize> {
    let covers = |a: usize| {
        members.iter().all(|&m| {
            m == a
                || records[m].value == records[a].value
                || records[a].at.dominates(&records[m].at)
        })
    };
    let access = members.iter().copied().find(|&a| covers(a));
    let existing = || group.iter().copied().find(|&a| !records[a].access && covers(a));
    match old_base {
        2 => existing().or(access),
        1 => access.or_else(existing),
        _ => access,
    }
}

/// Per block: the first member anchors the members after it in the same block.
fn per_block(records: &[Record], members: &[usize], out: &mut Vec<Rewrite>) {
    let mut by_block: Vec<(u32, Vec<usize>)> = Vec::new();
    for &m in members {
        let b = records[m].at.block;
        match by_block.iter_mut().find(|(blk, _)| *blk == b) {
            Some((_, v)) => v.push(m),
            None => by_block.push((b, vec![m])),
        }
    }
    for (_, mut v) in by_block {
        v.sort_by_key(|&m| records[m].at.order);
        rewrite_all(records, v[0], &v, out);
    }
}

fn rewrite_all(records: &[Record], anchor: usize, members: &[usize], out: &mut Vec<Rewrite>) {
    let a = &records[anchor];
    for &m in members {
        let r = &records[m];
        if r.value != a.value {
            out.push(Rewrite {
                record: m,
                anchor,
                delta: r.offset - a.offset,
                cross_block: r.at.block != a.at.block,
            });
        }
    }
}

/// Drops the rewrites of every pointer value that keeps a use outside the rewrites.
fn keep_whole_values(records: &[Record], out: &mut Vec<Rewrite>) {
    let mut moved: HashMap<u32, u32> = HashMap::default();
    for w in out.iter() {
        *moved.entry(records[w.record].value).or_default() += 1;
    }
    out.retain(|w| moved[&records[w.record].value] == records[w.record].value_uses);
}

#[cfg(test)]
mod tests {
    use super::super::group::Place;
    use super::*;

    const CFG: Config =
        Config { function_level: true, old_base: 2, cross_block_limit: 8, control: -1 };

    fn rec(base: u32, offset: i64, block: u32, dfs: (u32, u32), order: u32, value: u32) -> Record {
        let at = Place { block, dfs_in: dfs.0, dfs_out: dfs.1, order };
        Record {
            base,
            space: 1,
            offset,
            at,
            access: true,
            value,
            value_uses: 1,
            loop_id: -1,
            loop_cost: 0,
        }
    }

    #[test]
    fn the_dominating_member_anchors_the_group() {
        let r = [
            rec(1, 4, 0, (0, 9), 2, 10),
            rec(1, 12, 1, (1, 2), 1, 11),
            rec(1, -4, 0, (0, 9), 5, 12),
        ];
        let w = plan(&r, &CFG);
        assert_eq!(
            w,
            vec![
                Rewrite { record: 1, anchor: 0, delta: 8, cross_block: true },
                Rewrite { record: 2, anchor: 0, delta: -8, cross_block: false },
            ]
        );
    }

    #[test]
    fn without_a_dominating_member_each_block_anchors_its_own() {
        // Two sibling blocks: neither dominates the other.
        let r = [
            rec(1, 0, 1, (1, 2), 1, 10),
            rec(1, 8, 1, (1, 2), 2, 11),
            rec(1, 4, 2, (3, 4), 1, 12),
            rec(1, 12, 2, (3, 4), 2, 13),
        ];
        let w = plan(&r, &CFG);
        assert_eq!(
            w.iter().map(|w| (w.record, w.anchor, w.delta)).collect::<Vec<_>>(),
            vec![(1, 0, 8), (3, 2, 8)]
        );
        let per_block_only = plan(&r, &Config { function_level: false, ..CFG });
        assert_eq!(per_block_only, w);
    }

    #[test]
    fn other_bases_and_address_spaces_stay_apart() {
        let mut r =
            [rec(1, 0, 0, (0, 9), 1, 10), rec(2, 8, 0, (0, 9), 2, 11), rec(1, 8, 0, (0, 9), 3, 12)];
        r[2].space = 3;
        assert!(plan(&r, &CFG).is_empty());
    }

    #[test]
    fn a_value_with_uses_outside_the_rewrites_is_left_alone() {
        let mut r = [rec(1, 0, 0, (0, 9), 1, 10), rec(1, 8, 0, (0, 9), 2, 11)];
        r[1].value_uses = 2;
        assert!(plan(&r, &CFG).is_empty());
        // ... unless its other use is an access of the group too (a load and a store of a[i]).
        let both = [r[0], r[1], Record { at: Place { order: 3, ..r[1].at }, ..r[1] }];
        assert_eq!(plan(&both, &CFG).len(), 2);
    }

    #[test]
    fn an_existing_base_value_is_reused_by_old_base_level() {
        let mut arg = rec(1, 0, 0, (0, 9), 0, 20);
        arg.access = false;
        let r = [rec(1, 8, 1, (1, 2), 1, 10), rec(1, 16, 2, (3, 4), 1, 11), arg];
        let w = plan(&r, &CFG);
        assert_eq!(
            w.iter().map(|w| (w.record, w.anchor, w.delta)).collect::<Vec<_>>(),
            vec![(0, 2, 8), (1, 2, 16)]
        );
        let no_reuse = plan(&r, &Config { old_base: 0, ..CFG });
        assert!(no_reuse.is_empty(), "siblings alone: one member per block, nothing to share");
    }

    #[test]
    fn cross_block_limit_and_control() {
        let r = [
            rec(1, 0, 0, (0, 9), 1, 10),
            rec(1, 8, 1, (1, 2), 1, 11),
            rec(2, 0, 0, (0, 9), 2, 12),
            rec(2, 8, 1, (1, 2), 2, 13),
        ];
        assert_eq!(plan(&r, &CFG).len(), 2);
        let one = plan(&r, &Config { cross_block_limit: 1, ..CFG });
        assert_eq!(one.iter().map(|w| w.record).collect::<Vec<_>>(), vec![1]);
        assert_eq!(plan(&r, &Config { control: 1, ..CFG }).len(), 1);
        assert!(plan(&r, &Config { control: 0, ..CFG }).is_empty());
    }
}
