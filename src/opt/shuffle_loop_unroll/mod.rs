//! `nv-shuffle-loop-unroll`: keeps rolled the loops whose body shuffles a value across the warp
//! under a member mask known only at run time (`shfl.sync` with a register mask), by adding
//! `llvm.loop.unroll.disable` to them before the first `loop-unroll` slot.
//!
//! Why: ptxas compiles every `shfl.sync` whose member mask is a register into a fast path and
//! a divergent fallback (`BRA.DIV` to `WARPSYNC.COLLECTIVE` + `SHFL`), and it materializes a
//! copy of the mask for each shuffle's fallback in registers that stay live over the fast
//! path. A warp reduction `for (o = 16; o > 0; o /= 2) v += __shfl_down_sync(m, v, o)` that
//! LLVM's unroller fully unrolls (five shuffles, ten for a `double`) therefore costs a register
//! per copy, where the rolled loop costs one. An immediate mask (`0xffffffff`) has no fallback,
//! so those loops are left to the unroller. nvcc keeps such loops rolled for another reason (its
//! `warpSize` is the run-time `WARP_SZ`, so the trip count is unknown) and gets the low figure.
//! cuda-samples' `reduce7<double, 256, false>` is the case: its second reduction runs under the
//! `__ballot_sync` of the lanes holding a partial sum, and takes nvcc's register count with that
//! loop rolled, more unrolled with an immediate mask, and the most unrolled with the register
//! mask (ptxas 13.5, sm_90).
//!
//! The rule, per function: a loop that contains (in its blocks or those of its inner loops) a
//! call to a warp-shuffle intrinsic (`llvm.nvvm.shfl.sync.*`) whose member-mask operand is not
//! a constant is marked `llvm.loop.unroll.disable`, unless its `llvm.loop` metadata already says
//! how to unroll it: the user's `#pragma unroll` (`llvm.loop.unroll.full`, `.count`, `.disable`,
//! `.enable`) or nv-local-array-unroll's `llvm.loop.unroll.full` (full unrolling that puts a
//! private array into registers outweighs a mask copy). Every loop around such a shuffle is
//! marked, since unrolling any of them copies the shuffle.
//!
//! ```text
//! ; before                                       ; after nv-shuffle-loop-unroll
//! red:                                           red:
//!   %o = phi i32 [ 16, %pre ], [ %o.h, %red ]      (unchanged)
//!   %s = call i32 @llvm.nvvm.shfl.sync.down.i32(
//!          i32 %ballot, i32 %v, i32 %o, i32 31)
//!   ...
//!   br i1 %more, label %red, label %out          br i1 %more, label %red, label %out, !llvm.loop !0
//!                                                !0 = distinct !{!0, !1}
//!                                                !1 = !{!"llvm.loop.unroll.disable"}
//! remark: loop at %red: kept rolled (llvm.loop.unroll.disable): it holds 1 warp shuffle(s)
//!   with a run-time member mask
//! ```
//!
//! Where it runs: right after nv-local-array-unroll, before the first `loop-unroll` of O2 and
//! O3 (O1 and the fast-compile levels have no unroller in cicc's tables). `opt
//! -passes=nv-shuffle-loop-unroll` runs it alone.
//!
//! Knob: `nv-disable-shuffle-loop-unroll` (skip the slot). What it leaves alone, and why: loops
//! whose shuffles all have constant masks (no fallback, nothing to save); loops with an unroll
//! pragma or nv-local-array-unroll's mark (each with a missed remark,
//! `-pass-remarks-missed=nv-shuffle-loop-unroll`); other warp-synchronous intrinsics
//! (`vote.sync`, `match.sync`, `redux.sync`), which were not measured. Decisions are remarks
//! (`-pass-remarks=nv-shuffle-loop-unroll`) and `-nv-stats` counters.
pub mod adapter;

use std::collections::BTreeSet;

pub const PASS: &str = "nv-shuffle-loop-unroll";

/// Intrinsic name prefix of the warp shuffles whose register mask costs ptxas a fallback copy;
/// operand 0 of each is the member mask.
pub const SHUFFLE_PREFIX: &str = "llvm.nvvm.shfl.sync.";

/// One loop of the function, by its index in LoopInfo's preorder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopFacts {
    /// The loop that immediately contains it.
    pub parent: Option<usize>,
    /// Its `llvm.loop` metadata already says how to unroll it (a user pragma or
    /// nv-local-array-unroll's full unrolling).
    pub unroll_decided: bool,
}

/// A function's loops and the innermost loop of each warp shuffle with a run-time mask.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub loops: Vec<LoopFacts>,
    pub shuffles: Vec<usize>,
}

/// The decision: the loops to keep rolled, and those that hold such a shuffle but whose
/// metadata already decides their unrolling.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub keep_rolled: BTreeSet<usize>,
    pub decided: BTreeSet<usize>,
    /// For each loop kept rolled, how many run-time-mask shuffles it holds.
    pub shuffles_in: Vec<(usize, usize)>,
}

/// Every loop around a run-time-mask shuffle is kept rolled unless its unrolling is decided.
pub fn plan(m: &Model) -> Plan {
    let mut count = vec![0usize; m.loops.len()];
    for &inner in &m.shuffles {
        let mut l = Some(inner);
        while let Some(k) = l {
            count[k] += 1;
            l = m.loops[k].parent;
        }
    }
    let mut p = Plan::default();
    for (k, &n) in count.iter().enumerate().filter(|(_, &n)| n > 0) {
        if m.loops[k].unroll_decided {
            p.decided.insert(k);
        } else {
            p.keep_rolled.insert(k);
            p.shuffles_in.push((k, n));
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lp(parent: Option<usize>, decided: bool) -> LoopFacts {
        LoopFacts { parent, unroll_decided: decided }
    }

    #[test]
    fn marks_every_loop_around_a_shuffle() {
        // 0 { 1 { shuffle } }  2 { }
        let m = Model {
            loops: vec![lp(None, false), lp(Some(0), false), lp(None, false)],
            shuffles: vec![1],
        };
        let p = plan(&m);
        assert_eq!(p.keep_rolled, BTreeSet::from([0, 1]));
        assert!(p.decided.is_empty());
        assert_eq!(p.shuffles_in, vec![(0, 1), (1, 1)]);
    }

    #[test]
    fn leaves_decided_loops_and_loops_without_shuffles() {
        let m = Model {
            loops: vec![lp(None, false), lp(Some(0), true), lp(None, false)],
            shuffles: vec![1, 1],
        };
        let p = plan(&m);
        assert_eq!(p.keep_rolled, BTreeSet::from([0]));
        assert_eq!(p.decided, BTreeSet::from([1]));
        assert_eq!(p.shuffles_in, vec![(0, 2)]);
        assert_eq!(
            plan(&Model { loops: vec![lp(None, false)], shuffles: vec![] }),
            Plan::default()
        );
    }
}
