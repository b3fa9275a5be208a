//! `nv-stride-loop-unroll`: runtime-unrolls loops that step by a run-time stride (grid-stride
//! loops, strides passed as arguments), which LLVM's unroller leaves rolled, by giving them an
//! `llvm.loop.unroll.count` before the first `loop-unroll` slot.
//!
//! Why: the trip count of `for (i = start; i < n; i += stride)` with a run-time `stride` is
//! `(n - start + stride - 1) / stride`, and LLVM's runtime unroller refuses a loop whose trip
//! count needs such a division ("high cost for expanding trip count": a division is an
//! expensive expansion in its budget), whatever the loop's size. nvcc unrolls these loops 4
//! times with a remainder loop, so that each trip issues four iterations' loads before the
//! first use. On a GPU (the bench's `triad_gridstride`, `a[i] = b[i] + s * c[i]` with a 64-bit
//! index) the rolled loop is markedly slower than nvcc's unrolled one; the figures are the
//! `nv-stride-loop-unroll` entry of docs/DEPARTURES.md and docs/RESULTS.md.
//!
//! ```text
//! ; before                                       ; after nv-stride-loop-unroll
//! loop:                                          loop:
//!   %i = phi i64 [ %start, %pre ], [ %i.n, %loop ]   (unchanged)
//!   ...                                            ...
//!   %i.n = add nsw i64 %i, %stride                 (unchanged)
//!   %c = icmp slt i64 %i.n, %n
//!   br i1 %c, label %loop, label %exit           br i1 %c, label %loop, label %exit, !llvm.loop !0
//!                                                !0 = distinct !{!0, !1}
//!                                                !1 = !{!"llvm.loop.unroll.count", i32 4}
//! remark: loop at %loop: runtime unroll count 4 (llvm.loop.unroll.count): its trip count
//!   divides by a run-time stride, which LLVM's unroller does not expand
//! ```
//!
//! The rule, per loop: an innermost loop without unroll metadata (no user pragma, no other pass's
//! mark), whose latch is its only exit, with no convergent call, whose backedge-taken count
//! ScalarEvolution computes and holds an unsigned division by a non-constant value, and whose
//! exit-tested induction variable is not a block-stride recurrence (`{.. + tid, +, ntid}` in any
//! dimension: nv-scev-sources' classifier, src/analysis/scev_sources/idiom.rs), and whose trip count has no
//! constant bound at or below `nv-stride-loop-unroll-bounded-trip` (4096), gets the largest
//! power-of-two count `c` from 2 up to the runtime unroll count (`nv-unroll-max-count`, 4; LLVM's 8
//! when that knob is 0) for which the unrolled body fits LLVM's own size rule for partial and
//! runtime unrolling: `(size - 2) * c + 2 <= nv-stride-loop-unroll-threshold` (75: NVPTX's partial
//! threshold at O3, a quarter of LLVM's 300), where `size` counts the loop's instructions other
//! than PHIs and debug intrinsics (an upper bound of LLVM's cost, which calls many casts and
//! address computations free) and 2 stands for the latch's compare and branch. A count makes LLVM
//! unroll as for a `#pragma unroll c`: with a remainder loop, computing the trip count whatever it
//! costs.
//!
//! Where it runs: right after nv-shuffle-loop-unroll, before the first `loop-unroll` of O2
//! and O3 (the levels whose unroller runtime-unrolls). `opt -passes=nv-stride-loop-unroll`
//! runs it alone.
//!
//! Knobs: `nv-disable-stride-loop-unroll` (skip the slot), `nv-stride-loop-unroll-threshold`,
//! `nv-stride-loop-unroll-bounded-trip`.
//!
//! What it leaves alone, and why: loops whose trip count LLVM computes without a division (its own
//! unroller decides them), or not at all (an `int` index stepped by an unsigned stride may wrap:
//! nvcc leaves those rolled too); block-stride loops (`for (i = threadIdx.x; i < n; i +=
//! blockDim.x)`), which nvcc 13.5 keeps rolled (llm.c's `matmul_backward_bias_kernel1`,
//! cuda-samples' `fwtBatch1Kernel`, the bench's `histogram256`) while it unrolls grid-stride loops
//! (`modulateKernel`, `add_bias`, the bench's triad) and loops stepping by an argument (llm.c's
//! `mean_kernel`, `i += block_size`): a first version that unrolled every loop whose trip count
//! divides cost the bench's `histogram256` and `lifting53_tile` registers and code size where
//! nvcc keeps the rolled loops; loops whose trip count has a small constant bound,
//! such as the loops over a shared tile (`for (k = t; k < 1024; k += blockDim.x * blockDim.y)`),
//! which nvcc keeps rolled too (`lifting53_tile`, `shared_bins_members`; an `int` index with a
//! run-time bound has a bound near 2^31 and is not held back); loops with a pragma or a mark; outer
//! loops; loops with several exits or a convergent call (LLVM cannot runtime-unroll them); loops
//! too large for a count of 2. Decisions on loops whose trip count divides are remarks
//! (`-pass-remarks=nv-stride-loop-unroll`, refusals under `-pass-remarks-missed`) and `-nv-stats`
//! counters.
pub mod adapter;

pub const PASS: &str = "nv-stride-loop-unroll";

/// LLVM's runtime unroll count (`DefaultUnrollRuntimeCount`), used when `nv-unroll-max-count`
/// is 0 (LLVM's own count).
pub const LLVM_RUNTIME_UNROLL_COUNT: u32 = 8;

/// Instructions of the latch that unrolling does not copy (LLVM's `BEInsns`: compare, branch).
pub const LATCH_INSTRUCTIONS: u32 = 2;

/// What the rule knows of one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopFacts {
    pub innermost: bool,
    /// Its `llvm.loop` metadata already says how to unroll it.
    pub unroll_decided: bool,
    pub exits_at_latch_only: bool,
    /// The induction variable its exit compare tests is a block-stride recurrence
    /// (`{.. + tid, +, ntid}`).
    pub block_stride: bool,
    /// ScalarEvolution's constant bound of the trip count, when it has one.
    pub max_trip: Option<u32>,
    pub has_convergent_call: bool,
    pub trip: Trip,
    /// Instructions other than PHIs and debug intrinsics.
    pub size: u32,
}

/// How ScalarEvolution computes the loop's trip count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trip {
    NotComputable,
    /// Without a division by a run-time value: LLVM's unroller decides.
    Cheap,
    /// With a division by a run-time value.
    Divides,
}

/// The limits of the rule (knobs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_count: u32,
    pub threshold: u32,
    /// Loops whose trip count has a constant bound at or below this are left alone.
    pub bounded_trip: u32,
}

/// Why a loop whose trip count divides keeps no count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotInnermost,
    Decided,
    SeveralExits,
    BlockStride,
    Bounded,
    Convergent,
    TooLarge,
}

impl Refusal {
    pub fn text(self) -> &'static str {
        match self {
            Refusal::NotInnermost => "it holds another loop",
            Refusal::Decided => "its unroll pragma or another pass's mark decides",
            Refusal::SeveralExits => "it exits elsewhere than at its latch",
            Refusal::BlockStride => {
                "it is a block-stride loop (i += blockDim.x), which nvcc keeps rolled"
            }
            Refusal::Bounded => {
                "its trip count has a small constant bound (a shared-memory tile), which nvcc keeps rolled"
            }
            Refusal::Convergent => "it holds a convergent call",
            Refusal::TooLarge => "two copies of its body exceed nv-stride-loop-unroll-threshold",
        }
    }

    pub fn counter(self) -> &'static str {
        match self {
            Refusal::NotInnermost => "stride loops left: not innermost",
            Refusal::Decided => "stride loops left: pragma or mark",
            Refusal::SeveralExits => "stride loops left: several exits",
            Refusal::BlockStride => "stride loops left: block-stride",
            Refusal::Bounded => "stride loops left: small constant trip bound",
            Refusal::Convergent => "stride loops left: convergent call",
            Refusal::TooLarge => "stride loops left: too large",
        }
    }
}

/// The decision for one loop: `None` when its trip count does not divide by a run-time value
/// (not this rule's loop), else the count or the refusal.
pub fn decide(l: &LoopFacts, lim: Limits) -> Option<Result<u32, Refusal>> {
    if l.trip != Trip::Divides {
        return None;
    }
    let refusal = if !l.innermost {
        Some(Refusal::NotInnermost)
    } else if l.unroll_decided {
        Some(Refusal::Decided)
    } else if !l.exits_at_latch_only {
        Some(Refusal::SeveralExits)
    } else if l.block_stride {
        Some(Refusal::BlockStride)
    } else if l.max_trip.is_some_and(|m| m <= lim.bounded_trip) {
        Some(Refusal::Bounded)
    } else if l.has_convergent_call {
        Some(Refusal::Convergent)
    } else {
        None
    };
    if let Some(r) = refusal {
        return Some(Err(r));
    }
    Some(count(l.size, lim).ok_or(Refusal::TooLarge))
}

/// The largest power-of-two count from 2 up to the runtime unroll count whose unrolled size
/// fits the threshold.
pub fn count(size: u32, lim: Limits) -> Option<u32> {
    let max = if lim.max_count == 0 { LLVM_RUNTIME_UNROLL_COUNT } else { lim.max_count };
    let body = size.saturating_sub(LATCH_INSTRUCTIONS) as u64;
    let mut c = 2u32;
    let mut best = None;
    while c <= max {
        if body * c as u64 + LATCH_INSTRUCTIONS as u64 <= lim.threshold as u64 {
            best = Some(c);
        }
        c *= 2;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIM: Limits = Limits { max_count: 4, threshold: 75, bounded_trip: 4096 };

    fn lp(trip: Trip, size: u32) -> LoopFacts {
        LoopFacts {
            innermost: true,
            unroll_decided: false,
            exits_at_latch_only: true,
            block_stride: false,
            max_trip: None,
            has_convergent_call: false,
            trip,
            size,
        }
    }

    #[test]
    fn a_small_stride_loop_gets_the_runtime_count() {
        assert_eq!(decide(&lp(Trip::Divides, 11), LIM), Some(Ok(4)));
        // (20 - 2) * 4 + 2 = 74 fits; (21 - 2) * 4 + 2 = 78 does not, 2 copies do.
        assert_eq!(decide(&lp(Trip::Divides, 20), LIM), Some(Ok(4)));
        assert_eq!(decide(&lp(Trip::Divides, 21), LIM), Some(Ok(2)));
        assert_eq!(decide(&lp(Trip::Divides, 38), LIM), Some(Ok(2)));
        assert_eq!(decide(&lp(Trip::Divides, 39), LIM), Some(Err(Refusal::TooLarge)));
        // A bound above nv-stride-loop-unroll-bounded-trip (an int index's 2^31) is no bar.
        let big = LoopFacts { max_trip: Some(1 << 31), ..lp(Trip::Divides, 11) };
        assert_eq!(decide(&big, LIM), Some(Ok(4)));
    }

    #[test]
    fn the_count_follows_the_max_count_knob() {
        let lim = |max_count, threshold| Limits { max_count, threshold, ..LIM };
        assert_eq!(count(5, lim(0, 75)), Some(8));
        assert_eq!(count(5, lim(2, 75)), Some(2));
        assert_eq!(count(5, lim(1, 75)), None);
        assert_eq!(count(5, lim(4, 0)), None);
    }

    #[test]
    fn loops_llvm_decides_are_not_the_rules() {
        assert_eq!(decide(&lp(Trip::Cheap, 5), LIM), None);
        assert_eq!(decide(&lp(Trip::NotComputable, 5), LIM), None);
    }

    #[test]
    fn each_refusal() {
        let base = lp(Trip::Divides, 5);
        let cases = [
            (LoopFacts { innermost: false, ..base }, Refusal::NotInnermost),
            (LoopFacts { unroll_decided: true, ..base }, Refusal::Decided),
            (LoopFacts { exits_at_latch_only: false, ..base }, Refusal::SeveralExits),
            (LoopFacts { block_stride: true, ..base }, Refusal::BlockStride),
            (LoopFacts { max_trip: Some(1024), ..base }, Refusal::Bounded),
            (LoopFacts { has_convergent_call: true, ..base }, Refusal::Convergent),
        ];
        for (l, r) in cases {
            assert_eq!(decide(&l, LIM), Some(Err(r)), "{l:?}");
        }
    }
}
