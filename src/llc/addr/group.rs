//! Address records grouped by base (docs/CICC-FACTS.md "Address optimization"): every record
//! knows where it sits in the dominator tree, so the planners can ask which one dominates which
//! without calling back into LLVM; groups are normalized by `scev-cgp-norm`.
use crate::fast_hash::HashMap;

/// Where an instruction (or argument) sits: its block's dominator-tree DFS interval and its
/// position in the block (arguments: the entry block, position 0; instructions count from 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub block: u32,
    pub dfs_in: u32,
    pub dfs_out: u32,
    pub order: u32,
}

impl Place {
    /// Whether a value defined here is available at `other` (strict dominance for instructions).
    pub fn dominates(&self, other: &Place) -> bool {
        if self.block == other.block {
            self.order < other.order
        } else {
            self.dfs_in <= other.dfs_in && other.dfs_out <= self.dfs_out
        }
    }
}

/// One pointer use (a load's or store's address, a call's pointer argument) or, for anchors
/// only, an existing pointer value (`access` false).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// The base expression (equal ids: the same SCEV).
    pub base: u32,
    pub space: u32,
    pub offset: i64,
    pub at: Place,
    pub access: bool,
    /// The pointer value (equal ids: the same LLVM value).
    pub value: u32,
    /// How many uses that value has in all (a rewrite pays only when every use moves).
    pub value_uses: u32,
    /// The innermost loop around the record (-1: none).
    pub loop_id: i32,
    /// Instructions of that loop that compute only this pointer and would not fold into an
    /// immediate offset (what BASR saves per iteration by moving the access).
    pub loop_cost: u32,
}

/// What an access's address costs per iteration of its loop: the loop instructions that compute
/// only that pointer, less the GEPs with constant indices among them (NVPTX folds those into
/// `[reg+imm]`).
pub fn loop_cost(insts: u32, const_geps: u32) -> u32 {
    insts.saturating_sub(const_geps)
}

/// Record indices by (base, address space), groups in order of first appearance.
pub fn groups(records: &[Record]) -> Vec<Vec<usize>> {
    let mut index: HashMap<(u32, u32), usize> = HashMap::default();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let g = *index.entry((r.base, r.space)).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[g].push(i);
    }
    out
}

/// `scev-cgp-norm`: the offset a group is rebased on (0: none; 1: always its minimum; 2: its
/// minimum when some offset is negative), so that every offset becomes non-negative.
pub fn normal_origin(offsets: impl Iterator<Item = i64>, norm: i64) -> i64 {
    let min = offsets.min().unwrap_or(0);
    match norm {
        1 => min,
        2 if min < 0 => min,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn place(block: u32, dfs: (u32, u32), order: u32) -> Place {
        Place { block, dfs_in: dfs.0, dfs_out: dfs.1, order }
    }

    #[test]
    fn dominance_from_dfs_intervals_and_block_order() {
        let entry = place(0, (0, 9), 3);
        let inner = place(1, (1, 4), 1);
        let sibling = place(2, (5, 8), 1);
        assert!(entry.dominates(&inner) && entry.dominates(&sibling));
        assert!(!inner.dominates(&sibling) && !inner.dominates(&entry));
        assert!(place(0, (0, 9), 1).dominates(&entry));
        assert!(!entry.dominates(&entry), "an instruction does not dominate itself");
    }

    #[test]
    fn groups_by_base_and_address_space() {
        let r = |base, space| Record {
            base,
            space,
            offset: 0,
            at: Place::default(),
            access: true,
            value: 0,
            value_uses: 1,
            loop_id: -1,
            loop_cost: 0,
        };
        let g = groups(&[r(1, 1), r(2, 1), r(1, 1), r(1, 3)]);
        assert_eq!(g, vec![vec![0, 2], vec![1], vec![3]]);
    }

    #[test]
    fn constant_offset_geps_cost_nothing() {
        assert_eq!(loop_cost(3, 1), 2);
        assert_eq!(loop_cost(1, 1), 0);
        assert_eq!(loop_cost(0, 0), 0);
    }

    #[test]
    fn normalization_levels() {
        let offs = [-8i64, 0, 16];
        assert_eq!(normal_origin(offs.iter().copied(), 0), 0);
        assert_eq!(normal_origin(offs.iter().copied(), 2), -8);
        assert_eq!(normal_origin([4i64, 8].iter().copied(), 2), 0);
        assert_eq!(normal_origin([4i64, 8].iter().copied(), 1), 4);
    }
}
