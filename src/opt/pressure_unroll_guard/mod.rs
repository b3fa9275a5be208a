//! `nv-pressure-unroll-guard`: marks `llvm.loop.unroll.disable` (PTX `.pragma "nounroll"`) on
//! the run-time-trip loops that ptxas would unroll past a register cap.
//!
//! ptxas unrolls on its own: an innermost loop that LLVM left rolled and whose trip count is a
//! run-time value is unrolled by ptxas (by 4 on the loops measured), and its scheduler issues
//! the loads of all the unrolled iterations first, so that their latencies overlap. Each copy's
//! loaded values are then live at once, on top of everything the loop carries from one
//! iteration to the next. Under a register cap (launch bounds with a minimum of resident
//! blocks, or `-maxrregcount`) that sum can exceed the cap, and ptxas spills inside the loop.
//! A filter that keeps 25 weights and 20 window values across iterations and loads 5 per
//! iteration under `__launch_bounds__(256, 4)` (64 registers) is unrolled by 4 with its 20 loads
//! issued together, and spills; with `.pragma "nounroll"` on the loop it does not (the bench's
//! `filter5x5_window`). The rule, per innermost loop `L`:
//!
//! 1. the function has a register cap that ptxas must obey: launch bounds or `-nv-maxreg`
//!    (src/analysis/pressure/target.rs); without one ptxas allocates what its unrolled schedule needs,
//!    and no spill follows;
//! 2. `L` has no constant trip count (ptxas fully unrolls short constant-trip loops; that case
//!    is nv-texture-unroll-guard's), and no unroll pragma of the user's or of an nvopt pass;
//! 3. `carried` = the 32-bit registers live into `L`'s header, its PHIs included
//!    (src/analysis/pressure), less the values ptxas recomputes wherever it needs them instead of
//!    holding them: a kernel's parameters (the constant bank; a device function's arguments
//!    arrive in registers and count), special registers fixed for the
//!    thread (`%tid`, `%ctaid`, ...) and casts, arithmetic, compares and addresses built only
//!    from those (the parameter pointers cast to global, a thread's base index). What stays is
//!    the loop's state (its PHIs) and the invariants computed from memory or from that state;
//!    `loaded` = the registers of the values `L`'s loads produce in one iteration;
//! 4. if `carried + nv-pressure-unroll-guard-factor x loaded` exceeds the cap, `L` gets
//!    `llvm.loop.unroll.disable`, which the NVPTX printer writes as `.pragma "nounroll"`.
//!
//! ```text
//! ; before (cap 64: carried 47, 5 loads a trip)  ; after nv-pressure-unroll-guard
//! loop:
//!   %w0 = phi float [ %a0, %ph ], [ %w5, %loop ]   (unchanged)
//!   ...
//!   %v0 = load float, ptr addrspace(1) %p0
//!   ...                                           
//!   br i1 %done, label %exit, label %loop         br ..., !llvm.loop !0
//!                                                 !0 = distinct !{!0, !1}
//!                                                 !1 = !{!"llvm.loop.unroll.disable"}
//! remark: loop %loop: marked llvm.loop.unroll.disable: ptxas would unroll it by 4 and hold
//!   47 carried + 4 x 5 loaded registers, over the cap of 64
//! ```
//!
//! Its effect on the bench and the corpora (spill bytes under launch bounds and `-maxrregcount`,
//! registers) is the `nv-pressure-unroll-guard` entry of docs/DEPARTURES.md and docs/RESULTS.md.
//! Kernel times are not part of the rule: the rolled loop gives up the overlap of the unrolled
//! iterations' loads, the unrolled one pays its spills in local memory.
//!
//! Where it runs: at the end of the function pipeline of O1-O3, after every `loop-unroll` slot
//! and next to nv-texture-unroll-guard (the loops it sees are the ones the PTX will have); not
//! at O0 and the fast-compile levels. Not in cicc's table (an nvopt addition:
//! `-nv-disable-pressure-unroll-guard` gives cicc's table). `opt -passes=nv-pressure-unroll-guard`
//! runs it alone.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-pressure-unroll-guard` (skip the slot),
//! `nv-pressure-unroll-guard-factor` (4: the unroll count assumed for ptxas, the one measured).
//!
//! What it refuses, and why (each with a missed remark, `-pass-remarks-missed=
//! nv-pressure-unroll-guard`, and a `-nv-stats` counter; plugin-tests/pressure-unroll-guard):
//! a loop in a function without a cap (ptxas raises the register count instead of spilling); a
//! loop with a constant trip count; one already marked (the user's pragma wins); one whose
//! unrolled schedule fits the cap. Silently: loops that are not innermost, and loops without
//! loads (nothing for ptxas to issue ahead).
pub mod adapter;

pub const PASS: &str = "nv-pressure-unroll-guard";

/// One innermost loop as the rule sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopFacts {
    /// ScalarEvolution gives the loop a constant trip count.
    pub constant_trip: bool,
    /// `llvm.loop.unroll.*` is on it already (the user's pragma or an nvopt pass's decision).
    pub unroll_decided: bool,
    /// 32-bit registers live into the header, its PHIs included, that ptxas cannot recompute
    /// from kernel parameters and special registers.
    pub carried: u64,
    /// 32-bit registers of the values the loop's loads produce in one iteration.
    pub loaded: u64,
}

/// Knob values and the function's register cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// `nv-pressure-unroll-guard-factor`.
    pub factor: u64,
    /// The cap ptxas must obey (launch bounds, `-nv-maxreg`); `None` without one.
    pub cap: Option<u64>,
}

/// What the rule decided for one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No loads: not the guard's business.
    NoLoads,
    /// Mark `llvm.loop.unroll.disable`: unrolled, `carried + factor x loaded` would exceed `cap`.
    Disable {
        carried: u64,
        loaded: u64,
        cap: u64,
    },
    /// The function has no register cap.
    Uncapped,
    ConstantTrip,
    AlreadyDecided,
    /// The unrolled schedule fits the cap.
    Fits {
        carried: u64,
        loaded: u64,
        cap: u64,
    },
}

impl Verdict {
    /// The registers the unrolled schedule would hold, for the verdicts that compute it.
    pub fn unrolled(&self, factor: u64) -> Option<u64> {
        match *self {
            Verdict::Disable { carried, loaded, .. } | Verdict::Fits { carried, loaded, .. } => {
                Some(carried.saturating_add(factor.saturating_mul(loaded)))
            }
            _ => None,
        }
    }
}

/// The rule for one innermost loop.
pub fn judge(l: &LoopFacts, p: &Params) -> Verdict {
    if l.loaded == 0 {
        return Verdict::NoLoads;
    }
    let Some(cap) = p.cap else { return Verdict::Uncapped };
    if l.constant_trip {
        return Verdict::ConstantTrip;
    }
    if l.unroll_decided {
        return Verdict::AlreadyDecided;
    }
    let (carried, loaded) = (l.carried, l.loaded);
    if carried.saturating_add(p.factor.saturating_mul(loaded)) > cap {
        Verdict::Disable { carried, loaded, cap }
    } else {
        Verdict::Fits { carried, loaded, cap }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params { factor: 4, cap: Some(64) };

    fn filter5x5() -> LoopFacts {
        // bench filter5x5_window: 25 weights, 20 window values, the row IV, its bound; 5 loads a
        // trip (its bases and strides, computed from parameters and %ctaid/%tid, not counted).
        LoopFacts { constant_trip: false, unroll_decided: false, carried: 47, loaded: 5 }
    }

    #[test]
    fn the_filter_loop_is_marked() {
        let v = judge(&filter5x5(), &P);
        assert_eq!(v, Verdict::Disable { carried: 47, loaded: 5, cap: 64 });
        assert_eq!(v.unrolled(4), Some(67));
    }

    #[test]
    fn a_schedule_that_fits_is_left_to_ptxas_and_the_bound_is_inclusive() {
        let l = LoopFacts { carried: 44, ..filter5x5() };
        assert_eq!(judge(&l, &P), Verdict::Fits { carried: 44, loaded: 5, cap: 64 });
        let l = LoopFacts { carried: 45, ..l };
        assert!(matches!(judge(&l, &P), Verdict::Disable { .. }));
        let p = Params { factor: 1, ..P };
        assert!(matches!(judge(&l, &p), Verdict::Fits { .. }));
    }

    #[test]
    fn refusals() {
        let f = filter5x5();
        assert_eq!(judge(&LoopFacts { loaded: 0, ..f }, &P), Verdict::NoLoads);
        assert_eq!(judge(&f, &Params { cap: None, ..P }), Verdict::Uncapped);
        assert_eq!(judge(&LoopFacts { constant_trip: true, ..f }, &P), Verdict::ConstantTrip);
        assert_eq!(judge(&LoopFacts { unroll_decided: true, ..f }, &P), Verdict::AlreadyDecided);
    }
}
