//! No-wrap proofs for `nv-scev-sources` (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms"):
//! which of `nuw`/`nsw` an induction increment `next = add i, step` (or a stride/start `add`/`mul`)
//! can carry, from value bounds and the loop test that guards it. Only facts that hold on every
//! execution are derived; a flag that is already present is kept (its poison semantics are part of
//! the program).
//!
//! The proof for an increment (widths up to 64 bits, arithmetic done exactly in i128):
//! * A guard says the loop only goes on while `t PRED bound` (PRED one of slt, sle, ult, ule)
//!   where `t` is either `i` itself, tested on every path from the header to the increment in
//!   the same iteration, or `next`, tested on the only backedge. Then at every execution of the
//!   increment `i <= hi`, with `hi = bound.max - 1` (`bound.max` for sle/ule) in the guard's
//!   signedness; for a test of `next`, `i` is the start or a `next` that passed, so
//!   `hi = max(that, start.max)`.
//! * nsw: if `step >= 0` (signed) and `hi + step.smax <= SMAX` for a signed guard, then
//!   `i + step` lies in `[SMIN, SMAX]`. For an unsigned guard the same inequality also gives
//!   `i <=u hi <= SMAX`, so `i` is non-negative and the sum again fits.
//! * nuw: for an unsigned guard, `hi + step.umax <= UMAX`. Also, whenever the add does not
//!   overflow signed (nsw proven or already present: an overflow would be poison anyway),
//!   `start >= 0` and `step >= 0` keep `i >= 0` on every iteration by induction, and the sum of
//!   two values in `[0, SMAX]` never wraps unsigned.
//! * Every bound is a property of the value on every execution (the adapter takes them from
//!   ScalarEvolution's unsigned/signed ranges, which also use `range` attributes and existing
//!   flags; a value outside them would already be poison). Neither the stride nor the bound has
//!   to be loop-invariant: the proof only uses their bounds at each iteration.
//!
//! The proof for a stride/start `add`/`mul` (`a OP b`): the exact result over all operand
//! values in their bounds stays within `[0, UMAX]` (nuw) or `[SMIN, SMAX]` (nsw); for a mul the
//! signed extremes are at the corners of the operand box. This is the range reasoning
//! IndVarSimplify applies to IV users, here for the launch-dimension arithmetic before it.
//!
//! Negative cases on purpose: a `ne`/`eq` test bounds nothing (the IV can step over the bound
//! and wrap); a step that may be negative proves nothing; a bound near the type's maximum does
//! not leave room for the step (the 32-bit `i < n; i += ntid*nctaid` loop stays unflagged).

/// Value bounds of one integer of `width` bits, in both views (LLVM's unsigned and signed
/// `ConstantRange`s of the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub umin: u128,
    pub umax: u128,
    pub smin: i128,
    pub smax: i128,
}

fn umax(width: u32) -> u128 {
    (1u128 << width) - 1
}
fn smax(width: u32) -> i128 {
    (1i128 << (width - 1)) - 1
}
fn smin(width: u32) -> i128 {
    -(1i128 << (width - 1))
}

/// Constructors for tests (the pass gets both views from LLVM).
#[cfg(test)]
impl Bounds {
    /// Every value of the type.
    pub fn full(width: u32) -> Bounds {
        Bounds { umin: 0, umax: umax(width), smin: smin(width), smax: smax(width) }
    }

    /// Unsigned interval `[lo, hi]`; the signed view follows (full when it straddles SMAX).
    pub fn unsigned(width: u32, lo: u128, hi: u128) -> Bounds {
        let split = smax(width) as u128;
        let (smin_, smax_) = if hi <= split {
            (lo as i128, hi as i128)
        } else if lo > split {
            (lo as i128 - (1i128 << width), hi as i128 - (1i128 << width))
        } else {
            (smin(width), smax(width))
        };
        Bounds { umin: lo, umax: hi, smin: smin_, smax: smax_ }
    }

    /// Signed interval `[lo, hi]`; the unsigned view follows.
    pub fn signed(width: u32, lo: i128, hi: i128) -> Bounds {
        let (umin_, umax_) = if lo >= 0 {
            (lo as u128, hi as u128)
        } else if hi < 0 {
            ((lo + (1i128 << width)) as u128, (hi + (1i128 << width)) as u128)
        } else {
            (0, umax(width))
        };
        Bounds { umin: umin_, umax: umax_, smin: lo, smax: hi }
    }
}

crate::shared_codes! {
    /// The bits of an add's or mul's wrap flags across the boundary (`NvIvFacts::existing`,
    /// `NvIvDecision::flags`, `nvopt_ss_operation`; src/analysis/scev_sources/scev_sources.cpp
    /// uses the generated C++ enum `NvWrapFlag`).
    pub enum NvWrapFlag: u32 {
        /// `nuw`.
        WRAP_NUW = 1,
        /// `nsw`.
        WRAP_NSW = 2,
    }
}

/// `nuw` / `nsw` of an add or mul.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub nuw: bool,
    pub nsw: bool,
}

impl Flags {
    pub const NONE: Flags = Flags { nuw: false, nsw: false };

    /// From the boundary's [`NvWrapFlag`] bits.
    pub fn from_bits(bits: u32) -> Flags {
        Flags { nuw: bits & WRAP_NUW != 0, nsw: bits & WRAP_NSW != 0 }
    }

    /// As the boundary's [`NvWrapFlag`] bits.
    pub fn bits(self) -> u32 {
        (if self.nuw { WRAP_NUW } else { 0 }) | (if self.nsw { WRAP_NSW } else { 0 })
    }

    fn union(self, o: Flags) -> Flags {
        Flags { nuw: self.nuw || o.nuw, nsw: self.nsw || o.nsw }
    }
}

/// An integer comparison predicate (LLVM's `ICmpInst` codes 32..=41).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

impl Pred {
    const ALL: [Pred; 10] = [
        Pred::Eq,
        Pred::Ne,
        Pred::Ugt,
        Pred::Uge,
        Pred::Ult,
        Pred::Ule,
        Pred::Sgt,
        Pred::Sge,
        Pred::Slt,
        Pred::Sle,
    ];

    pub fn from_llvm(code: u32) -> Option<Pred> {
        code.checked_sub(32).and_then(|i| Pred::ALL.get(i as usize).copied())
    }

    /// `a P b` iff `b P.swapped() a`.
    pub fn swapped(self) -> Pred {
        use Pred::*;
        match self {
            Ugt => Ult,
            Uge => Ule,
            Ult => Ugt,
            Ule => Uge,
            Sgt => Slt,
            Sge => Sle,
            Slt => Sgt,
            Sle => Sge,
            p => p,
        }
    }

    /// `!(a P b)` iff `a P.inverse() b`.
    pub fn inverse(self) -> Pred {
        use Pred::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Ugt => Ule,
            Uge => Ult,
            Ult => Uge,
            Ule => Ugt,
            Sgt => Sle,
            Sge => Slt,
            Slt => Sge,
            Sle => Sgt,
        }
    }
}

/// Which value a loop test compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tested {
    /// The header PHI `i`, on every path to the increment in the same iteration.
    Iv,
    /// The increment `next`, on the loop's only backedge.
    Next,
}

/// A loop test, normalized to "the loop goes on (to the increment, or around the backedge)
/// only while `tested PRED bound`".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guard {
    pub tested: Tested,
    pub pred: Pred,
    pub bound: Bounds,
}

impl Guard {
    /// From a branch on `icmp pred a, b`: `iv_is_lhs` says whether the tested value is `a`,
    /// `go_on_true` whether the loop goes on along the true edge.
    pub fn from_branch(
        tested: Tested,
        pred: Pred,
        iv_is_lhs: bool,
        go_on_true: bool,
        bound: Bounds,
    ) -> Guard {
        let pred = if iv_is_lhs { pred } else { pred.swapped() };
        let pred = if go_on_true { pred } else { pred.inverse() };
        Guard { tested, pred, bound }
    }
}

/// What is known about one induction increment `next = add i, step`.
#[derive(Clone, Debug, PartialEq)]
pub struct IvFacts {
    pub width: u32,
    pub start: Bounds,
    pub step: Bounds,
    pub existing: Flags,
    pub guards: Vec<Guard>,
}

/// The largest value `i` has at the increment under guard `g`, and whether it is signed.
fn iv_upper(g: &Guard, start: &Bounds) -> Option<(bool, i128)> {
    let (signed, hi) = match g.pred {
        Pred::Slt => (true, g.bound.smax - 1),
        Pred::Sle => (true, g.bound.smax),
        Pred::Ult => (false, g.bound.umax as i128 - 1),
        Pred::Ule => (false, g.bound.umax as i128),
        _ => return None,
    };
    let from_start = if signed { start.smax } else { start.umax as i128 };
    Some(match g.tested {
        Tested::Iv => (signed, hi),
        Tested::Next => (signed, hi.max(from_start)),
    })
}

/// Flags one guard proves for the increment (module docs).
fn flags_from_guard(f: &IvFacts, g: &Guard) -> Flags {
    let Some((signed, hi)) = iv_upper(g, &f.start) else { return Flags::NONE };
    let step_nonneg = f.step.smin >= 0;
    let nsw = step_nonneg && hi + f.step.smax <= smax(f.width);
    let nuw = !signed && hi + f.step.umax as i128 <= umax(f.width) as i128;
    Flags { nuw, nsw }
}

/// The flags the increment may carry: the ones it has plus the ones proven.
pub fn prove_increment(f: &IvFacts) -> Flags {
    if f.width == 0 || f.width > 64 {
        return f.existing;
    }
    let mut flags = f.guards.iter().fold(f.existing, |acc, g| acc.union(flags_from_guard(f, g)));
    if flags.nsw && f.start.smin >= 0 && f.step.smin >= 0 {
        flags.nuw = true;
    }
    flags
}

/// A two-operand integer operation whose flags [`prove_operation`] decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Mul,
}

/// The flags `a OP b` may carry from the operand bounds alone (plus the existing ones).
pub fn prove_operation(op: BinOp, width: u32, a: Bounds, b: Bounds, existing: Flags) -> Flags {
    if width == 0 || width > 64 {
        return existing;
    }
    let (umax_, smin_, smax_) = (umax(width), smin(width), smax(width));
    let proven = match op {
        BinOp::Add => Flags {
            nuw: a.umax + b.umax <= umax_,
            nsw: a.smin + b.smin >= smin_ && a.smax + b.smax <= smax_,
        },
        BinOp::Mul => {
            let corners = [a.smin * b.smin, a.smin * b.smax, a.smax * b.smin, a.smax * b.smax];
            Flags {
                nuw: a.umax.checked_mul(b.umax).is_some_and(|p| p <= umax_),
                nsw: corners.iter().all(|p| (smin_..=smax_).contains(p)),
            }
        }
    };
    existing.union(proven)
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: u32 = 32;
    const SMAX32: i128 = i32::MAX as i128;
    const UMAX32: u128 = u32::MAX as u128;

    fn c(v: i128) -> Bounds {
        Bounds::signed(W, v, v)
    }
    fn guard(pred: Pred, bound: Bounds) -> Guard {
        Guard { tested: Tested::Iv, pred, bound }
    }
    fn facts(start: Bounds, step: Bounds, guards: Vec<Guard>) -> IvFacts {
        IvFacts { width: W, start, step, existing: Flags::NONE, guards }
    }
    const BOTH: Flags = Flags { nuw: true, nsw: true };
    const NSW: Flags = Flags { nuw: false, nsw: true };
    const NUW: Flags = Flags { nuw: true, nsw: false };

    /// Brute force over every 8-bit IV: does some reachable `i` wrap when adding some step?
    fn brute_force(width: u32, f: &IvFacts) -> Flags {
        assert_eq!(width, 8);
        let (mut nuw, mut nsw) = (true, true);
        let holds = |g: &Guard, v: i128| -> bool {
            let (s, u) = (v as i8 as i128, v as u8 as i128);
            let (bs, bu) =
                ((g.bound.smin, g.bound.smax), (g.bound.umin as i128, g.bound.umax as i128));
            // The guard holds for v against SOME bound value: the bound may be any of its values.
            match g.pred {
                Pred::Slt => s < bs.1,
                Pred::Sle => s <= bs.1,
                Pred::Ult => u < bu.1,
                Pred::Ule => u <= bu.1,
                _ => true,
            }
        };
        for start in 0..256i128 {
            let (ss, su) = (start as i8 as i128, start);
            if ss < f.start.smin
                || ss > f.start.smax
                || (su as u128) < f.start.umin
                || su as u128 > f.start.umax
            {
                continue;
            }
            for step in 0..256i128 {
                let (ts, tu) = (step as i8 as i128, step);
                if ts < f.step.smin
                    || ts > f.step.smax
                    || (tu as u128) < f.step.umin
                    || tu as u128 > f.step.umax
                {
                    continue;
                }
                // Walk the loop from this start (the bound may be anything in its range, so
                // take its maximum: the weakest guard).
                if !nuw && !nsw {
                    return Flags::NONE;
                }
                let mut i = start;
                for _ in 0..257 {
                    if !f.guards.iter().all(|g| g.tested != Tested::Iv || holds(g, i)) {
                        break;
                    }
                    let (is, iu) = (i as i8 as i128, i as u8 as i128);
                    if iu + tu > 255 {
                        nuw = false;
                    }
                    if is + ts > 127 || is + ts < -128 {
                        nsw = false;
                    }
                    let next = (iu + tu) & 255;
                    if !f.guards.iter().all(|g| g.tested != Tested::Next || holds(g, next)) {
                        break;
                    }
                    i = next;
                }
            }
        }
        Flags { nuw, nsw }
    }

    #[test]
    fn predicates_normalize() {
        assert_eq!(Pred::from_llvm(40), Some(Pred::Slt));
        assert_eq!(Pred::from_llvm(36), Some(Pred::Ult));
        assert_eq!(Pred::from_llvm(31), None);
        assert_eq!(Pred::from_llvm(42), None);
        let b = c(100);
        // icmp slt i, n; br true -> body
        assert_eq!(Guard::from_branch(Tested::Iv, Pred::Slt, true, true, b).pred, Pred::Slt);
        // icmp sgt n, i; br true -> body
        assert_eq!(Guard::from_branch(Tested::Iv, Pred::Sgt, false, true, b).pred, Pred::Slt);
        // icmp sge i, n; br true -> exit
        assert_eq!(Guard::from_branch(Tested::Iv, Pred::Sge, true, false, b).pred, Pred::Slt);
        // icmp ule n, i; br true -> exit  ==  continue while i <u n
        assert_eq!(Guard::from_branch(Tested::Iv, Pred::Ule, false, false, b).pred, Pred::Ult);
        for p in Pred::ALL {
            assert_eq!(p.swapped().swapped(), p);
            assert_eq!(p.inverse().inverse(), p);
        }
    }

    #[test]
    fn bounds_views() {
        let b = Bounds::unsigned(8, 0, 200);
        assert_eq!((b.smin, b.smax), (-128, 127));
        let b = Bounds::unsigned(8, 130, 140);
        assert_eq!((b.smin, b.smax), (-126, -116));
        let b = Bounds::signed(8, -3, -1);
        assert_eq!((b.umin, b.umax), (253, 255));
        let b = Bounds::signed(8, -3, 4);
        assert_eq!((b.umin, b.umax), (0, 255));
        assert_eq!(Bounds::full(64).umax, u64::MAX as u128);
        assert_eq!(Bounds::full(64).smin, i64::MIN as i128);
    }

    #[test]
    fn warp_stride_with_constant_bound() {
        // for (i = tid; i < 4096; i += 32): i <= 4095, 4095 + 32 fits both ways.
        let f = facts(Bounds::unsigned(W, 0, 1023), c(32), vec![guard(Pred::Slt, c(4096))]);
        assert_eq!(prove_increment(&f), BOTH);
        let f = facts(Bounds::unsigned(W, 0, 1023), c(32), vec![guard(Pred::Ult, c(4096))]);
        assert_eq!(prove_increment(&f), BOTH);
    }

    #[test]
    fn unbounded_i32_bound_proves_nothing() {
        // for (int i = tid; i < n; i += ntid) with n any i32: i + ntid may pass INT_MAX.
        let ntid = Bounds::unsigned(W, 1, 1024);
        let f = facts(Bounds::unsigned(W, 0, 1023), ntid, vec![guard(Pred::Slt, Bounds::full(W))]);
        assert_eq!(prove_increment(&f), Flags::NONE);
        // Grid stride in i32: the product of ntid and nctaid may wrap, so its bounds are full.
        let f = facts(Bounds::full(W), Bounds::full(W), vec![guard(Pred::Slt, Bounds::full(W))]);
        assert_eq!(prove_increment(&f), Flags::NONE);
    }

    #[test]
    fn existing_nsw_with_non_negative_start_and_step_gives_nuw() {
        // for (int c = lane; c < cols; c += 32): clang's `add nsw`.
        let mut f =
            facts(Bounds::unsigned(W, 0, 31), c(32), vec![guard(Pred::Slt, Bounds::full(W))]);
        f.existing = NSW;
        assert_eq!(prove_increment(&f), BOTH);
        // ... but not when the start may be negative.
        f.start = Bounds::full(W);
        assert_eq!(prove_increment(&f), NSW);
        // ... nor when the step may be negative.
        f.start = Bounds::unsigned(W, 0, 31);
        f.step = Bounds::signed(W, -4, 4);
        assert_eq!(prove_increment(&f), NSW);
    }

    #[test]
    fn sixty_four_bit_bounds_from_32_bit_values() {
        // for (size_t i = tid + ctaid*ntid; i < (size_t)(unsigned)n; i += (size_t)ntid*nctaid)
        let w = 64;
        let n = Bounds::unsigned(w, 0, UMAX32);
        let step = Bounds::unsigned(w, 1, 1024 * ((1 << 31) - 1));
        let f = IvFacts {
            width: w,
            start: Bounds::unsigned(w, 0, 1 << 42),
            step,
            existing: Flags::NONE,
            guards: vec![guard(Pred::Ult, n)],
        };
        assert_eq!(prove_increment(&f), BOTH);
        // long i < (long)n with n an int: i <= 2^31 - 2, the sum fits in i64.
        let f =
            IvFacts { guards: vec![guard(Pred::Slt, Bounds::signed(w, -(1 << 31), SMAX32))], ..f };
        assert_eq!(prove_increment(&f), BOTH);
        // ... with an i64 bound of any value, nothing.
        let f = IvFacts { guards: vec![guard(Pred::Slt, Bounds::full(w))], ..f };
        assert_eq!(prove_increment(&f), Flags::NONE);
    }

    #[test]
    fn equality_tests_and_unknown_guards_prove_nothing() {
        for p in [Pred::Ne, Pred::Eq, Pred::Sgt, Pred::Uge] {
            let f = facts(c(0), c(32), vec![guard(p, c(4096))]);
            assert_eq!(prove_increment(&f), Flags::NONE, "{p:?}");
        }
        assert_eq!(prove_increment(&facts(c(0), c(32), vec![])), Flags::NONE);
    }

    #[test]
    fn bounds_at_the_edge() {
        // i < SMAX - 31 with step 32: i <= SMAX - 32, i + 32 <= SMAX: nsw (and nuw: start >= 0).
        let f = facts(c(0), c(32), vec![guard(Pred::Slt, c(SMAX32 - 31))]);
        assert_eq!(prove_increment(&f), BOTH);
        // One more and the sum can reach SMAX + 1.
        let f = facts(c(0), c(32), vec![guard(Pred::Slt, c(SMAX32 - 30))]);
        assert_eq!(prove_increment(&f), Flags::NONE);
        // sle leaves one less room.
        let f = facts(c(0), c(32), vec![guard(Pred::Sle, c(SMAX32 - 31))]);
        assert_eq!(prove_increment(&f), Flags::NONE);
        // Unsigned: i <u UMAX - 31 with step 32: nuw only (i may exceed SMAX).
        let f = facts(c(0), c(32), vec![guard(Pred::Ult, Bounds::unsigned(W, 0, UMAX32 - 31))]);
        assert_eq!(prove_increment(&f), NUW);
        let f = facts(c(0), c(32), vec![guard(Pred::Ult, Bounds::unsigned(W, 0, UMAX32 - 30))]);
        assert_eq!(prove_increment(&f), Flags::NONE);
    }

    #[test]
    fn a_test_of_next_also_bounds_by_the_start() {
        // Rotated loop: next < 4096 on the backedge; the first i is the start.
        let g = Guard { tested: Tested::Next, pred: Pred::Slt, bound: c(4096) };
        let f = facts(Bounds::unsigned(W, 0, 1023), c(32), vec![g]);
        assert_eq!(prove_increment(&f), BOTH);
        // A start that may be huge leaves no room.
        let f = facts(Bounds::full(W), c(32), vec![g]);
        assert_eq!(prove_increment(&f), Flags::NONE);
    }

    #[test]
    fn several_guards_combine() {
        let f = facts(
            c(0),
            c(32),
            vec![guard(Pred::Ne, c(7)), guard(Pred::Ult, Bounds::unsigned(W, 0, UMAX32 - 31))],
        );
        assert_eq!(prove_increment(&f), NUW);
        let mut f = f;
        f.guards.push(guard(Pred::Slt, c(100)));
        assert_eq!(prove_increment(&f), BOTH);
    }

    #[test]
    fn agrees_with_brute_force_on_8_bits() {
        // Every combination of small ranges: a proven flag must never be violated.
        // Exact values around the signed (127) and unsigned (255) limits, and intervals.
        let mut ranges: Vec<Bounds> =
            [0, 1, 2, 3, 31, 32, 33, 95, 96, 97, 126, 127, 128, 224, 254, 255]
                .map(|v| Bounds::unsigned(8, v, v))
                .to_vec();
        ranges.extend([
            Bounds::signed(8, 0, 31),
            Bounds::signed(8, 1, 16),
            Bounds::signed(8, 100, 127),
            Bounds::signed(8, -5, 5),
            Bounds::signed(8, -128, -100),
            Bounds::unsigned(8, 0, 255),
            Bounds::unsigned(8, 120, 140),
        ]);
        let mut proven = 0;
        for start in &ranges {
            for step in &ranges {
                for bound in &ranges {
                    for pred in [Pred::Slt, Pred::Sle, Pred::Ult, Pred::Ule, Pred::Ne] {
                        for tested in [Tested::Iv, Tested::Next] {
                            let f = IvFacts {
                                width: 8,
                                start: *start,
                                step: *step,
                                existing: Flags::NONE,
                                guards: vec![Guard { tested, pred, bound: *bound }],
                            };
                            let got = prove_increment(&f);
                            let truth = brute_force(8, &f);
                            assert!(!got.nuw || truth.nuw, "nuw wrongly proven: {f:?}");
                            assert!(!got.nsw || truth.nsw, "nsw wrongly proven: {f:?}");
                            proven += got.nuw as u32 + got.nsw as u32;
                        }
                    }
                }
            }
        }
        assert!(proven > 1000, "the proof should find flags in many cases, found {proven}");
    }

    #[test]
    fn operations() {
        let ntid = Bounds::unsigned(64, 1, 1024);
        let nctaid = Bounds::unsigned(64, 1, (1 << 31) - 1);
        assert_eq!(prove_operation(BinOp::Mul, 64, ntid, nctaid, Flags::NONE), BOTH);
        // The same product in i32 may wrap.
        let ntid32 = Bounds::unsigned(W, 1, 1024);
        let nctaid32 = Bounds::unsigned(W, 1, (1 << 31) - 1);
        assert_eq!(prove_operation(BinOp::Mul, W, ntid32, nctaid32, Flags::NONE), Flags::NONE);
        // ... unless the grid is small.
        let small = Bounds::unsigned(W, 1, 65535);
        assert_eq!(prove_operation(BinOp::Mul, W, ntid32, small, Flags::NONE), BOTH);
        // ctaid*ntid + tid in i64 from 32-bit registers.
        let base = Bounds::unsigned(64, 0, 1024 * ((1 << 31) - 2));
        let tid = Bounds::unsigned(64, 0, 1023);
        assert_eq!(prove_operation(BinOp::Add, 64, base, tid, Flags::NONE), BOTH);
        // Signed views matter: -1 * -1 fits, SMIN * -1 does not.
        let m1 = Bounds::signed(W, -1, -1);
        assert!(prove_operation(BinOp::Mul, W, m1, m1, Flags::NONE).nsw);
        let smin32 = Bounds::signed(W, i32::MIN as i128, i32::MIN as i128);
        assert!(!prove_operation(BinOp::Mul, W, smin32, m1, Flags::NONE).nsw);
        assert!(!prove_operation(BinOp::Add, W, smin32, m1, Flags::NONE).nsw);
        // Full 64-bit operands do not overflow the proof's own arithmetic; existing flags stay.
        let full = Bounds::full(64);
        assert_eq!(prove_operation(BinOp::Mul, 64, full, full, Flags::NONE), Flags::NONE);
        assert_eq!(prove_operation(BinOp::Mul, 64, full, full, NSW), NSW);
        assert_eq!(prove_operation(BinOp::Add, 64, full, full, NUW), NUW);
    }

    #[test]
    fn operations_agree_with_brute_force_on_8_bits() {
        let ranges = [
            Bounds::signed(8, 0, 15),
            Bounds::signed(8, 1, 16),
            Bounds::signed(8, -8, 7),
            Bounds::signed(8, -128, -120),
            Bounds::unsigned(8, 200, 255),
            Bounds::unsigned(8, 0, 255),
        ];
        for a in ranges {
            for b in ranges {
                for op in [BinOp::Add, BinOp::Mul] {
                    let got = prove_operation(op, 8, a, b, Flags::NONE);
                    for x in 0..256i128 {
                        for y in 0..256i128 {
                            let in_range = |v: i128, r: &Bounds| {
                                let (s, u) = (v as i8 as i128, v as u128);
                                r.smin <= s && s <= r.smax && r.umin <= u && u <= r.umax
                            };
                            if !in_range(x, &a) || !in_range(y, &b) {
                                continue;
                            }
                            let (xs, ys) = (x as i8 as i128, y as i8 as i128);
                            let (u, s) = match op {
                                BinOp::Add => (x + y, xs + ys),
                                BinOp::Mul => (x * y, xs * ys),
                            };
                            assert!(!got.nuw || u <= 255, "{op:?} {a:?} {b:?} nuw at {x},{y}");
                            assert!(
                                !got.nsw || (-128..=127).contains(&s),
                                "{op:?} {a:?} {b:?} nsw at {x},{y}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn flag_bits() {
        for bits in 0..4 {
            assert_eq!(Flags::from_bits(bits).bits(), bits);
        }
        assert_eq!(BOTH.bits(), 3);
    }

    #[test]
    fn wide_or_degenerate_widths_keep_existing_flags() {
        let f = IvFacts { width: 128, start: c(0), step: c(1), existing: NSW, guards: vec![] };
        assert_eq!(prove_increment(&f), NSW);
        assert_eq!(prove_operation(BinOp::Add, 0, c(0), c(0), NUW), NUW);
    }
}
