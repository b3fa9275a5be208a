//! `nv-local-array-unroll`: marks for full unrolling the constant-trip loops whose unrolling
//! lets SROA put a private (`alloca`) array into registers, within a size bound. A GPU thread's
//! private array that SROA cannot split lives in local memory (a stack frame: `ld.local` and
//! `st.local`, the slowest place a value can live); SROA splits it only when every access has a
//! constant offset, which for `acc[i][j]` in `for i < 8, for j < 8` loops means fully
//! unrolling them. LLVM's unroller does not know this: its full-unroll threshold at O3 (300,
//! with up to 4x for loops whose unrolled body simplifies) counts instructions, and the loads
//! and stores a promotion removes are no simplification to it, so an 8x8 accumulator tile of a
//! training kernel stays in a stack frame (bench/kernels/register_tile.cu).
//!
//! cicc's unroller has a rule for exactly this (the cicc v13.0 book, "Loop Unrolling",
//! grigoryevko.github.io/nvopen-tools/cicc/llvm/loop-unroll.html, "Local Array Heuristic"):
//! before choosing an unroll count, its decision engine (`computeUnrollCount`) scans the loop's
//! loads and stores for accesses to local-memory (address space 5) allocas, takes the largest
//! such array's element count (the product of its dimensions; an unknown dimension counts as
//! `unroll-assumed-size`, 4), and multiplies the unroll threshold by that count, capped at 6:
//! `threshold * min(max(size, 1), 6)`. LLVM 22's unroller has no such hook, so this pass
//! states the decision the way LLVM's unroller takes it from a user: it adds
//! `llvm.loop.unroll.full` (what `#pragma unroll` gives) to the loops it chooses, and the first
//! `loop-unroll` slot after it unrolls them; the `sroa` slot after the unrollers then promotes
//! the array.
//!
//! The rule, per private array (a static `alloca` whose address is only used by loads, stores,
//! GEPs, casts, lifetime markers and memset/memcpy/memmove of constant length, so that SROA
//! could promote it):
//!
//! 1. every access whose offset is not constant must become constant when some set of loops
//!    around it is fully unrolled: the offset is computed from constants and the induction
//!    PHIs of those loops only (through integer arithmetic, casts, compares, selects, GEPs and
//!    intrinsics without memory effects such as `llvm.bitreverse`); the loops must contain the
//!    access, carry no user pragma (`llvm.loop.unroll.disable` or `.count`), and have a trip
//!    count ScalarEvolution computes as a constant (as LLVM's unroller counts it: the smallest
//!    exact count of any exit, so `for (j < 8) { if (c0 + j > r0 + i) break; ... }` counts 8
//!    and each unrolled copy keeps its `break` as a branch), or one that becomes constant once outer
//!    loops of the set are unrolled (the exit condition needs only them, and ScalarEvolution
//!    bounds the trip count by a constant, which the size estimate uses: `for (j < i)` in
//!    `for (i < 8)`);
//! 2. the estimated size of each fully unrolled nest (instructions of the loop, its inner
//!    loops counted unrolled where they are marked too, times the trip count; PHIs and
//!    lifetime/debug/assume intrinsics are free) must stay within
//!    `nv-local-array-unroll-threshold * min(max(elements, 1), nv-local-array-unroll-max-factor)`
//!    (cicc's formula; 300 * 6 = 1800 for arrays of 6 or more elements); arrays are taken in
//!    program order, and one whose loops would push a nest already chosen over its bound is
//!    refused;
//! 3. then every such loop gets `llvm.loop.unroll.full`. Arrays whose offsets are all
//!    constant already are left to SROA.
//!
//! It differs from cicc in two ways, both narrower: cicc raises the threshold for any loop
//! that touches a local array, whether or not unrolling makes its indices constant (this pass
//! only asks for unrolling that lets the array be promoted), and cicc's multiplier also raises
//! its partial-unroll threshold (this pass only asks for full unrolling). An element of a
//! struct counts as one element, an array of structs as its element count times the struct's.
//!
//! Example (plugin-tests/local-array-unroll/tile.ll): `float acc[8][8]` updated in
//! `for (i < 8) for (j < 8) acc[i][j] += f(x[8r+i], y[8r+j])` inside a loop `%r` of runtime
//! trip count, then written out in another 8x8 nest:
//!
//! ```text
//! ; before                                          ; after nv-local-array-unroll
//! %acc = alloca [8 x [8 x float]]                   (unchanged)
//! br i1 %j.more, label %j, label %i.latch           br ..., !llvm.loop !0
//! br i1 %i.more, label %i, label %r.latch           br ..., !llvm.loop !1
//! br i1 %r.more, label %r, label %out.i.preheader   (unchanged: runtime trip count)
//!                                                   !0 = distinct !{!0, !2}
//!                                                   !1 = distinct !{!1, !2}
//!                                                   !2 = !{!"llvm.loop.unroll.full"}
//! remark: private array %acc (64 elements): marked 4 loop(s) (%i, %j, %oi, %oj)
//!   llvm.loop.unroll.full: unrolled, every index is constant and SROA can promote it
//!   (unrolled size 1424, bound 1800)
//! ```
//!
//! After `loop-unroll` and `sroa` the array is gone (LLVM's unroller alone leaves `%i` rolled
//! and the array in local memory): on bench/kernels/register_tile.cu, `linear_relu_tile8x8`'s
//! frame (upstream's too) disappears.
//!
//! Where it runs: right before the first `loop-unroll` slot of O2 and O3 (cicc's rule lives in
//! that unroller). O1 has no unroller in cicc's table; `-nv-o1-local-array-unroll` adds the
//! pass there with a `loop-unroll<...;full-unroll-max=0;O1>` that unrolls only the loops it
//! (or the user's `#pragma unroll`) marks. It is off by default: at O1 it removes most of the
//! bench's frames, but costs registers against nvcc -O1, which keeps most of those arrays in
//! local memory. The fast-compile levels are left as cicc prints them.
//! `opt -passes=nv-local-array-unroll` runs it alone. Its figures at O3: the
//! `nv-local-array-unroll` entry of docs/DEPARTURES.md and docs/RESULTS.md.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-local-array-unroll` (skip the slot),
//! `nv-o1-local-array-unroll` (the O1 slots, off),
//! `nv-local-array-unroll-threshold` (the base threshold cicc multiplies: LLVM's O3 full-unroll
//! threshold, 300), `nv-local-array-unroll-max-factor` (cicc's cap, 6).
//!
//! What it refuses, and why (each with a missed remark, `-pass-remarks-missed=
//! nv-local-array-unroll`, plugin-tests/local-array-unroll/refusals.ll): an index that
//! depends on a loaded value, an argument or any value unrolling cannot make constant; an
//! index computed in a loop that does not contain the access; a loop without a constant trip
//! count, or whose trip count ScalarEvolution cannot bound by a constant (an FFT's butterfly
//! loops `for (s = 0; s < 8; s += len)`: the estimate would be meaningless); a loop with the
//! user's `#pragma unroll 1` or `#pragma unroll N` (the user's word wins); a nest whose
//! unrolled size would exceed the bound (the code growth would cost more than the frame).
//! Silently: an array whose address escapes (SROA could not promote it anyway) or whose
//! offsets are constant already. Decisions are reported as remarks
//! (`-pass-remarks=nv-local-array-unroll`) and counted in `-nv-stats`.
pub mod adapter;

use std::collections::{BTreeMap, BTreeSet};

pub const PASS: &str = "nv-local-array-unroll";

/// One loop of the function, by its index in LoopInfo's preorder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoopFacts {
    /// The loop that immediately contains it.
    pub parent: Option<usize>,
    /// The trip count LLVM's unroller fully unrolls the loop by: the smallest constant exact
    /// trip count of any of its exits, when ScalarEvolution computes one.
    pub trip_count: Option<u64>,
    /// For a loop without one: the constant bound ScalarEvolution gives its trip count, and
    /// the loops whose full unrolling makes its only exit condition constant in every copy
    /// (so that its trip count becomes constant once they are unrolled: the inner loop of a
    /// `for (len...) for (k < len / 2)` nest). `None`: no such bound or exit.
    pub bounded_by: Option<(u64, BTreeSet<usize>)>,
    /// Instructions in the loop's own blocks (not those of inner loops), free ones excepted.
    pub own_size: u64,
    /// The user's `llvm.loop.unroll.disable` or `llvm.loop.unroll.count` is on it.
    pub user_pragma: bool,
}

/// One access to a private array: a load, a store or a memory intrinsic.
#[derive(Clone, Debug, PartialEq)]
pub struct Access {
    /// The innermost loop containing the access.
    pub in_loop: Option<usize>,
    /// The loops whose full unrolling makes the access's offset constant (empty: constant
    /// already); `None`: no unrolling does.
    pub needs: Option<BTreeSet<usize>>,
}

/// One private array (a static alloca) of the function.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Scalar elements: the product of its array dimensions, a struct counting the sum of its
    /// fields' counts.
    pub elements: u64,
    /// Its address is used by something other than an access, a GEP, a cast or a lifetime
    /// marker.
    pub escapes: bool,
    pub accesses: Vec<Access>,
}

/// The function as the rule sees it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    pub loops: Vec<LoopFacts>,
    pub arrays: Vec<Array>,
}

/// Knob values the rule reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// `nv-local-array-unroll-threshold`.
    pub threshold: u64,
    /// `nv-local-array-unroll-max-factor`.
    pub max_factor: u64,
}

impl Params {
    pub fn from_knobs(k: &crate::knobs::Knobs) -> Params {
        Params {
            threshold: k.nv_local_array_unroll_threshold().max(0) as u64,
            max_factor: k.nv_local_array_unroll_max_factor().max(1) as u64,
        }
    }

    /// cicc's bound for an array of `elements`: threshold * min(max(elements, 1), max factor).
    pub fn bound(&self, elements: u64) -> u64 {
        self.threshold.saturating_mul(elements.clamp(1, self.max_factor))
    }
}

/// What the rule decided for one array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every offset is constant already: SROA's business.
    Constant,
    /// Fully unrolling `loops` makes every offset constant; the largest unrolled nest
    /// (`size`) fits `bound`.
    Unroll {
        loops: Vec<usize>,
        size: u64,
        bound: u64,
    },
    Escapes,
    /// An offset depends on a value no unrolling makes constant.
    NotConstant,
    /// An offset comes from a loop that does not contain the access.
    OutsideLoop,
    /// This loop has no constant trip count.
    NoTripCount(usize),
    /// The user's unroll pragma on this loop.
    UserPragma(usize),
    /// Unrolling the nest of `root` would give `size`, over `bound`.
    OverBound {
        root: usize,
        size: u64,
        bound: u64,
    },
}

/// The loops to mark, and the verdict of every array in model order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub marks: BTreeSet<usize>,
    pub verdicts: Vec<Verdict>,
}

/// Applies the rule to a function.
pub fn plan(m: &Model, p: Params) -> Plan {
    let mut out = Plan::default();
    // Outermost marked loop -> the bound it was admitted under (the largest of its arrays').
    let mut bounds: BTreeMap<usize, u64> = BTreeMap::new();
    for a in &m.arrays {
        let v = match needed_loops(m, a) {
            Err(v) => v,
            Ok(loops) if loops.is_empty() => Verdict::Constant,
            Ok(loops) => admit(m, p.bound(a.elements), &loops, &mut out.marks, &mut bounds),
        };
        out.verdicts.push(v);
    }
    out
}

/// The loops whose full unrolling makes every offset of `a` constant, or why there are none.
fn needed_loops(m: &Model, a: &Array) -> Result<BTreeSet<usize>, Verdict> {
    if a.escapes {
        return Err(Verdict::Escapes);
    }
    let mut all = BTreeSet::new();
    for acc in &a.accesses {
        let needs = acc.needs.as_ref().ok_or(Verdict::NotConstant)?;
        let around = ancestors(m, acc.in_loop);
        if needs.iter().any(|l| !around.contains(l)) {
            return Err(Verdict::OutsideLoop);
        }
        all.extend(needs.iter().copied());
    }
    // A loop whose trip count becomes constant once outer loops are unrolled needs them too.
    let mut todo: Vec<usize> = all.iter().copied().collect();
    while let Some(l) = todo.pop() {
        if m.loops[l].trip_count.is_some() {
            continue;
        }
        let (_, needs) = m.loops[l].bounded_by.as_ref().ok_or(Verdict::NoTripCount(l))?;
        let around = ancestors(m, Some(l));
        if needs.iter().any(|x| !around.contains(x)) {
            return Err(Verdict::NoTripCount(l));
        }
        for &x in needs {
            if all.insert(x) {
                todo.push(x);
            }
        }
    }
    if let Some(&l) = all.iter().find(|&&l| m.loops[l].user_pragma) {
        return Err(Verdict::UserPragma(l));
    }
    Ok(all)
}

/// The trip count the size estimate uses: the exact one, else the constant bound.
fn trips(l: &LoopFacts) -> u64 {
    l.trip_count.or(l.bounded_by.as_ref().map(|(n, _)| *n)).unwrap_or(1)
}

/// Adds `loops` to `marks` when every outermost marked nest still fits its bound.
fn admit(
    m: &Model,
    bound: u64,
    loops: &BTreeSet<usize>,
    marks: &mut BTreeSet<usize>,
    bounds: &mut BTreeMap<usize, u64>,
) -> Verdict {
    let mut new_marks = marks.clone();
    new_marks.extend(loops.iter().copied());
    let mut new_bounds = bounds.clone();
    for &l in loops {
        if outermost(m, &new_marks, l) {
            let b = new_bounds.entry(l).or_insert(0);
            *b = (*b).max(bound);
        }
    }
    let sizes = unrolled_sizes(m, &new_marks);
    let mut largest = 0;
    for (&root, &size) in &sizes {
        // A root marked earlier inside a loop marked now is no longer outermost: its nest is
        // checked as part of the enclosing one, under the larger of the two bounds.
        let b = new_bounds
            .iter()
            .filter(|(&r, _)| r == root || ancestors(m, Some(r)).contains(&root))
            .map(|(_, &b)| b)
            .max()
            .unwrap_or(bound);
        if size > b {
            return Verdict::OverBound { root, size, bound: b };
        }
        if loops.iter().any(|&l| l == root || ancestors(m, Some(l)).contains(&root)) {
            largest = largest.max(size);
        }
    }
    *marks = new_marks;
    *bounds = new_bounds;
    Verdict::Unroll { loops: loops.iter().copied().collect(), size: largest, bound }
}

/// The loops containing `l`, itself included (the loops around an access in `l`).
fn ancestors(m: &Model, l: Option<usize>) -> BTreeSet<usize> {
    std::iter::successors(l, |&x| m.loops[x].parent).collect()
}

fn outermost(m: &Model, marks: &BTreeSet<usize>, l: usize) -> bool {
    !std::iter::successors(m.loops[l].parent, |&x| m.loops[x].parent).any(|a| marks.contains(&a))
}

/// The unrolled size of every outermost marked loop: its trip count times its size, where a
/// loop's size is its own instructions plus each inner loop's size, times that inner loop's
/// trip count when it is marked too.
fn unrolled_sizes(m: &Model, marks: &BTreeSet<usize>) -> BTreeMap<usize, u64> {
    // Preorder puts inner loops after their parents: accumulate from the back.
    let mut size: Vec<u64> = m.loops.iter().map(|l| l.own_size).collect();
    for l in (0..m.loops.len()).rev() {
        let s =
            if marks.contains(&l) { size[l].saturating_mul(trips(&m.loops[l])) } else { size[l] };
        if let Some(p) = m.loops[l].parent {
            size[p] = size[p].saturating_add(s);
        }
    }
    marks
        .iter()
        .filter(|&&l| outermost(m, marks, l))
        .map(|&l| (l, size[l].saturating_mul(trips(&m.loops[l]))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Params = Params { threshold: 300, max_factor: 6 };

    fn lp(parent: Option<usize>, trip: u64, own: u64) -> LoopFacts {
        LoopFacts { parent, trip_count: Some(trip), own_size: own, ..Default::default() }
    }

    fn acc(in_loop: usize, needs: &[usize]) -> Access {
        Access { in_loop: Some(in_loop), needs: Some(needs.iter().copied().collect()) }
    }

    fn array(elements: u64, accesses: Vec<Access>) -> Array {
        Array { elements, escapes: false, accesses }
    }

    /// A runtime-trip loop 0 around an 8-trip loop 1 around an 8-trip loop 2 that updates
    /// acc[i][j]: loops 1 and 2 are marked, 64 copies of 6 instructions plus 8 of 4.
    fn tile() -> Model {
        Model {
            loops: vec![
                LoopFacts { trip_count: None, own_size: 10, ..Default::default() },
                lp(Some(0), 8, 4),
                lp(Some(1), 8, 6),
            ],
            arrays: vec![array(64, vec![acc(2, &[1, 2]), acc(2, &[1, 2])])],
        }
    }

    #[test]
    fn tile_loops_are_marked() {
        let p = plan(&tile(), P);
        assert_eq!(p.marks, [1, 2].into_iter().collect());
        assert_eq!(p.verdicts, vec![Verdict::Unroll { loops: vec![1, 2], size: 416, bound: 1800 }]);
    }

    #[test]
    fn bound_follows_cicc_formula() {
        assert_eq!(P.bound(64), 1800);
        assert_eq!(P.bound(4), 1200);
        assert_eq!(P.bound(0), 300);
    }

    #[test]
    fn over_the_bound_is_refused() {
        let mut m = tile();
        m.loops[2].own_size = 40; // 8 * (4 + 8 * 40) = 2592 > 1800
        let p = plan(&m, P);
        assert!(p.marks.is_empty());
        assert_eq!(p.verdicts, vec![Verdict::OverBound { root: 1, size: 2592, bound: 1800 }]);
    }

    #[test]
    fn small_arrays_get_a_smaller_bound() {
        let mut m = tile();
        m.arrays[0].elements = 2; // bound 600 < 416? no: 416 fits
        assert!(matches!(plan(&m, P).verdicts[0], Verdict::Unroll { .. }));
        m.loops[2].own_size = 9; // 8 * (4 + 72) = 608 > 600
        assert!(matches!(plan(&m, P).verdicts[0], Verdict::OverBound { bound: 600, .. }));
    }

    #[test]
    fn constant_offsets_are_left_to_sroa() {
        let mut m = tile();
        m.arrays[0].accesses = vec![acc(2, &[])];
        let p = plan(&m, P);
        assert!(p.marks.is_empty());
        assert_eq!(p.verdicts, vec![Verdict::Constant]);
    }

    #[test]
    fn refusals() {
        let mut m = tile();
        m.arrays[0].accesses.push(Access { in_loop: Some(2), needs: None });
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::NotConstant]);

        let mut m = tile();
        m.arrays[0].escapes = true;
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::Escapes]);

        let mut m = tile();
        m.arrays[0].accesses.push(acc(1, &[2])); // index from loop 2, used in loop 1
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::OutsideLoop]);

        let mut m = tile();
        m.loops[1].trip_count = None;
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::NoTripCount(1)]);

        let mut m = tile();
        m.loops[2].user_pragma = true;
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::UserPragma(2)]);
    }

    #[test]
    fn a_trip_count_that_outer_unrolling_makes_constant() {
        // for (len = 2; len <= 8; len *= 2) for (k = 0; k < len / 2; ++k) v[k + len / 2]:
        // the inner loop 2 runs at most 4 times, its exit needs loop 1.
        let mut m = tile();
        m.loops[2].trip_count = None;
        m.loops[2].bounded_by = Some((4, [1, 2].into_iter().collect()));
        m.loops[1].trip_count = Some(3);
        m.arrays[0].accesses = vec![acc(2, &[2])];
        let p = plan(&m, P);
        assert_eq!(p.marks, [1, 2].into_iter().collect());
        assert_eq!(p.verdicts, vec![Verdict::Unroll { loops: vec![1, 2], size: 84, bound: 1800 }]);
        // Without the bound, or with an exit that depends on loop 0 (runtime trip count).
        m.loops[2].bounded_by = None;
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::NoTripCount(2)]);
        m.loops[2].bounded_by = Some((4, [0, 2].into_iter().collect()));
        assert_eq!(plan(&m, P).verdicts, vec![Verdict::NoTripCount(0)]);
    }

    #[test]
    fn a_second_array_may_not_push_a_nest_over_its_bound() {
        // Array 0 needs only the inner loop 2 (its index is j): 8 * 6 = 48. Array 1, of 2
        // elements (bound 600), needs loop 1 with loop 2 unrolled inside: 8 * (4 + 48) = 416
        // fits 600. With the inner loop much bigger, array 1 is refused and array 0 stays.
        let mut m = tile();
        m.arrays = vec![array(8, vec![acc(2, &[2])]), array(2, vec![acc(1, &[1])])];
        let p = plan(&m, P);
        assert_eq!(p.marks, [1, 2].into_iter().collect());
        m.loops[2].own_size = 70; // 8 * 70 = 560 fits 1800; 8 * (4 + 560) = 4512 > 600
        let p = plan(&m, P);
        assert_eq!(p.marks, [2].into_iter().collect());
        assert!(matches!(p.verdicts[1], Verdict::OverBound { root: 1, .. }));
    }
}
