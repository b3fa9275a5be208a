//! `nv-texture-unroll-guard`: marks `llvm.loop.unroll.disable` (PTX `.pragma "nounroll"`) on
//! the short constant-trip loops whose full unrolling by ptxas would let ptxas hoist more
//! texture fetches out of the enclosing loop than the register target holds.
//!
//! ptxas unrolls on its own: an innermost loop with a small constant trip count that LLVM left
//! rolled (its body over LLVM's unroll thresholds) is fully unrolled by ptxas. A texture fetch
//! (`tex.*`, `tld4.*`) reads memory that no kernel writes, so once unrolling has made its
//! coordinates the same on every iteration of the enclosing loop, ptxas hoists it out of that
//! loop, and keeps all the unrolled copies' results live across it. cuda-samples'
//! imageDenoising `NLM` is the case: a 7-trip loop `n` of 7 fetches at `(x + m, y + n)`
//! (invariant in the window loops `i`, `j`) and 7 at `(x + j + m, y + i + n)`, inside the 7x7
//! window loop; ptxas unrolls `n` and hoists the 49 invariant fetches out of the `j` loop, and
//! the kernel takes every register there is (nvopt and upstream LLVM alike), against a fraction
//! of that with `.pragma "nounroll"` on `n`. nvcc's PTX escapes by accident: cicc unrolls `n` by
//! 2 with an exit in the middle, a shape ptxas does not unroll further. On synthetic nests the
//! hoisting needs the enclosing loop (without one ptxas's unrolled schedule stays small) and
//! does not happen to global loads (`ld.global.nc`).
//!
//! The rule, per innermost loop `L` nested in a loop `P`:
//!
//! 1. the fetches of `L`: calls of `llvm.nvvm.tex.*`/`llvm.nvvm.tld4.*` and inline asm whose
//!    PTX begins with `tex.` or `tld4.` (clang's CUDA texture header fetches through inline
//!    asm); each counts its result's 32-bit registers (4 for a `float4` fetch);
//! 2. the hoistable ones: every operand is computed, inside `P`, from values defined outside
//!    `P`, constants and `L`'s header PHIs (`L`'s induction variables, started from such values)
//!    by instructions that neither touch memory nor have side effects; a PHI of `P` (its
//!    induction variable) or a load makes the fetch non-hoistable;
//! 3. `L` has a constant trip count `T` (ScalarEvolution), `2 <= T <=
//!    nv-texture-unroll-guard-max-trip`, and no unroll pragma of the user's;
//! 4. if `T * (hoistable registers per iteration)` exceeds the function's register target
//!    (src/analysis/pressure/target.rs: launch bounds, else `-nv-maxreg`, else 64), `L` gets
//!    `llvm.loop.unroll.disable`, which the NVPTX printer writes as `.pragma "nounroll"` in
//!    the loop header.
//!
//! ```text
//! ; before                                       ; after nv-texture-unroll-guard
//! n:  %nf = sitofp i32 %n to float                (unchanged)
//!     %yn = fadd float %y, %nf        ; y + n: the same for every j
//!     %a = call {float,...} asm "tex.2d.v4.f32.f32 ...", "..."(i64 %t, float %x, float %yn)
//!     %b = call {float,...} asm "tex.2d.v4.f32.f32 ...", "..."(i64 %t, float %xj, float %yn)
//!     br i1 %n.more, label %n, label %j.latch     br ..., !llvm.loop !0
//!                                                 !0 = distinct !{!0, !1}
//!                                                 !1 = !{!"llvm.loop.unroll.disable"}
//! remark: loop %n: marked llvm.loop.unroll.disable: ptxas would unroll its 7 iterations and
//!   hoist 196 registers of texture fetches out of the enclosing loop (target 64)
//! ```
//!
//! Its effect on the corpora and the bench: the `nv-texture-unroll-guard` entry of
//! docs/DEPARTURES.md and docs/RESULTS.md.
//!
//! Where it runs: at the end of the function pipeline of O1-O3, after every `loop-unroll` slot
//! (the loops it sees are the ones the PTX will have); not at O0 and the fast-compile levels,
//! whose PTX ptxas compiles with its own defaults. Not in cicc's table (an nvopt addition:
//! `-nv-disable-texture-unroll-guard` gives cicc's table). `opt -passes=nv-texture-unroll-guard`
//! runs it alone.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-texture-unroll-guard` (skip the slot),
//! `nv-texture-unroll-guard-max-trip` (32: the longest loop considered; ptxas fully unrolled
//! the 32-trip synthetic loops of 1 to 4 fetches).
//!
//! What it refuses, and why (each with a missed remark, `-pass-remarks-missed=
//! nv-texture-unroll-guard`, plugin-tests/texture-unroll-guard): a loop with no enclosing loop
//! (nothing to hoist out of: ptxas's unrolled schedule stays small); one
//! without a constant trip count or over the maximum (ptxas does not fully unroll it); one
//! with the user's unroll pragma (the user's word wins); one whose hoistable fetches fit the
//! target (ptxas's unrolling is cheap there). Silently: loops without hoistable fetches
//! (global loads included: ptxas does not hoist them out of loops that way) and loops that
//! are not innermost. Decisions are counted in `-nv-stats`.
pub mod adapter;

pub const PASS: &str = "nv-texture-unroll-guard";

/// One innermost loop as the rule sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopFacts {
    /// The loop is nested in another one.
    pub nested: bool,
    /// The header's constant trip count, when ScalarEvolution computes one.
    pub trip_count: Option<u64>,
    /// The user's `llvm.loop.unroll.*` is on it.
    pub user_pragma: bool,
    /// 32-bit registers of the results of its texture fetches whose coordinates are the same
    /// on every iteration of the enclosing loop (per iteration of this one).
    pub hoistable_regs: u64,
}

/// Knob values and the function's register target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// `nv-texture-unroll-guard-max-trip`.
    pub max_trip: u64,
    /// The function's register target (src/analysis/pressure/target.rs).
    pub target: u64,
}

/// Shortest loop the guard considers: a one-trip loop is no loop to ptxas.
pub const MIN_TRIP: u64 = 2;

/// What the rule decided for one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No hoistable texture fetch: not the guard's business.
    NoFetches,
    /// Mark `llvm.loop.unroll.disable`: unrolled, `hoisted` registers would leave the
    /// enclosing loop, over `target`.
    Disable {
        trip: u64,
        hoisted: u64,
        target: u64,
    },
    /// No enclosing loop to hoist out of.
    Outermost,
    NoTripCount,
    /// Trip count outside `MIN_TRIP..=max_trip`.
    TripOutOfRange {
        trip: u64,
    },
    UserPragma,
    /// The hoisted fetches would fit the target.
    Fits {
        trip: u64,
        hoisted: u64,
        target: u64,
    },
}

/// The rule for one innermost loop.
pub fn judge(l: &LoopFacts, p: &Params) -> Verdict {
    if l.hoistable_regs == 0 {
        return Verdict::NoFetches;
    }
    if !l.nested {
        return Verdict::Outermost;
    }
    let Some(trip) = l.trip_count else { return Verdict::NoTripCount };
    if !(MIN_TRIP..=p.max_trip).contains(&trip) {
        return Verdict::TripOutOfRange { trip };
    }
    if l.user_pragma {
        return Verdict::UserPragma;
    }
    let hoisted = trip.saturating_mul(l.hoistable_regs);
    if hoisted > p.target {
        Verdict::Disable { trip, hoisted, target: p.target }
    } else {
        Verdict::Fits { trip, hoisted, target: p.target }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params { max_trip: 32, target: 64 };

    fn nlm() -> LoopFacts {
        // imageDenoising NLM's loop n: 7 trips, 7 float4 fetches invariant in the window loop.
        LoopFacts { nested: true, trip_count: Some(7), user_pragma: false, hoistable_regs: 28 }
    }

    #[test]
    fn the_nlm_loop_is_marked() {
        assert_eq!(judge(&nlm(), &P), Verdict::Disable { trip: 7, hoisted: 196, target: 64 });
    }

    #[test]
    fn fetches_that_fit_the_target_are_left_to_ptxas() {
        let l = LoopFacts { trip_count: Some(3), hoistable_regs: 16, ..nlm() };
        assert_eq!(judge(&l, &P), Verdict::Fits { trip: 3, hoisted: 48, target: 64 });
        let l = LoopFacts { trip_count: Some(4), ..l };
        assert_eq!(judge(&l, &P), Verdict::Fits { trip: 4, hoisted: 64, target: 64 });
        let l = LoopFacts { trip_count: Some(5), ..l };
        assert!(matches!(judge(&l, &P), Verdict::Disable { hoisted: 80, .. }));
    }

    #[test]
    fn a_higher_target_allows_more() {
        let p = Params { target: 255, ..P };
        assert!(matches!(judge(&nlm(), &p), Verdict::Fits { hoisted: 196, .. }));
    }

    #[test]
    fn refusals() {
        assert_eq!(judge(&LoopFacts { hoistable_regs: 0, ..nlm() }, &P), Verdict::NoFetches);
        assert_eq!(judge(&LoopFacts { nested: false, ..nlm() }, &P), Verdict::Outermost);
        assert_eq!(judge(&LoopFacts { trip_count: None, ..nlm() }, &P), Verdict::NoTripCount);
        assert_eq!(
            judge(&LoopFacts { trip_count: Some(33), ..nlm() }, &P),
            Verdict::TripOutOfRange { trip: 33 }
        );
        assert_eq!(
            judge(&LoopFacts { trip_count: Some(1), ..nlm() }, &P),
            Verdict::TripOutOfRange { trip: 1 }
        );
        assert_eq!(judge(&LoopFacts { user_pragma: true, ..nlm() }, &P), Verdict::UserPragma);
    }
}
