//! The analysis of `nv-ipmsp`, without LLVM: the address space of each generic pointer
//! parameter and return of the eligible functions as a fixpoint over the call graph, the
//! reason a parameter stays generic, and the clone plan for parameters whose call sites
//! disagree. The IR side (mod.rs) describes the module as [`FnModel`]s.

/// What the analysis knows of one pointer: nothing yet (`Top`: no call site seen, or only
/// `undef`/`poison`), one address space, or nothing provable (`Bottom`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Top,
    In(u32),
    Bottom,
}

impl Space {
    pub fn meet(self, o: Space) -> Space {
        match (self, o) {
            (Space::Top, x) | (x, Space::Top) => x,
            (Space::In(a), Space::In(b)) if a == b => Space::In(a),
            _ => Space::Bottom,
        }
    }
}

/// Where a generic pointer comes from, one leaf of the walk back through GEPs, casts, PHIs and
/// selects (mod.rs); the pointer's space is the meet of its leaves' (none: `Top`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// A pointer of a specific space (a cast from it, a global in it, a kernel's parameter).
    Known(u32),
    /// Parameter `.1` of eligible function `.0`.
    Param(usize, usize),
    /// The result of a call of eligible function `.0`.
    Ret(usize),
    /// Anything else: a load, an integer cast, a generic null, another function's parameter.
    Unknown,
}

/// The spaces a generic pointer may be specialized to: global, shared, local. The constant
/// space is left out: a store on a path never taken in a function that only ever receives
/// constant pointers would become a store to the constant space, which PTX does not have.
pub const SPACES: [u32; 3] = [1, 3, 5];

/// One eligible function (internal, defined, every use a direct call of it).
#[derive(Clone, Debug, Default)]
pub struct FnModel {
    /// Per parameter: whether it is a generic pointer (the others are never looked at).
    pub candidates: Vec<bool>,
    /// Whether it returns a generic pointer.
    pub returns_ptr: bool,
    /// Per call site, per parameter: the leaves of the actual argument (empty for the others).
    pub sites: Vec<Vec<Vec<Leaf>>>,
    /// The leaves of every returned value.
    pub rets: Vec<Leaf>,
}

/// The fixpoint: the space of each parameter (Top for non-candidates) and return.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub params: Vec<Vec<Space>>,
    pub rets: Vec<Space>,
}

impl Solution {
    /// The space of a value with these leaves under this solution.
    pub fn eval(&self, leaves: &[Leaf]) -> Space {
        leaves.iter().fold(Space::Top, |acc, l| {
            acc.meet(match *l {
                Leaf::Known(k) if SPACES.contains(&k) => Space::In(k),
                Leaf::Known(_) | Leaf::Unknown => Space::Bottom,
                Leaf::Param(f, i) => self.params[f][i],
                Leaf::Ret(f) => self.rets[f],
            })
        })
    }
}

/// The greatest fixpoint: every unknown starts at `Top` and only moves down (`meet` with its
/// old value), so a recursive call passing a parameter on does not block it; each of the
/// finitely many unknowns moves down at most twice, which bounds the rounds.
pub fn solve(fns: &[FnModel]) -> Solution {
    let mut s = Solution {
        params: fns.iter().map(|f| vec![Space::Top; f.candidates.len()]).collect(),
        rets: vec![Space::Top; fns.len()],
    };
    let unknowns: usize = fns.iter().map(|f| f.candidates.len() + 1).sum();
    for _ in 0..=2 * unknowns + 1 {
        let mut changed = false;
        for (fi, f) in fns.iter().enumerate() {
            for (i, &c) in f.candidates.iter().enumerate() {
                if !c {
                    continue;
                }
                let new = f.sites.iter().fold(Space::Top, |a, site| a.meet(s.eval(&site[i])));
                let new = s.params[fi][i].meet(new);
                if new != s.params[fi][i] {
                    s.params[fi][i] = new;
                    changed = true;
                }
            }
            if f.returns_ptr {
                let new = s.rets[fi].meet(s.eval(&f.rets));
                if new != s.rets[fi] {
                    s.rets[fi] = new;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    s
}

/// What becomes of one parameter (or of a return, with `Mixed` never used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every call site passes a pointer of this space.
    Specialize(u32),
    /// No call site constrains it (no call, or only undef/poison): nothing to do.
    Unconstrained,
    /// Every call site passes a pointer of a known space, not all the same (clone candidate).
    Mixed,
    /// Some call site passes a pointer of no provable space.
    UnknownActual,
}

pub fn param_verdict(f: &FnModel, fi: usize, i: usize, s: &Solution) -> Verdict {
    match s.params[fi][i] {
        Space::In(k) => Verdict::Specialize(k),
        Space::Top => Verdict::Unconstrained,
        Space::Bottom => {
            if f.sites.iter().all(|site| matches!(s.eval(&site[i]), Space::In(_) | Space::Top)) {
                Verdict::Mixed
            } else {
                Verdict::UnknownActual
            }
        }
    }
}

/// The clone plan of one function whose `Mixed` parameters are `mixed`: the call sites
/// grouped by the spaces they pass for those parameters, in call-site order (the original
/// keeps the first group, each further group gets a clone).
pub fn clone_groups(f: &FnModel, mixed: &[usize], s: &Solution) -> Vec<(Vec<Space>, Vec<usize>)> {
    let mut groups: Vec<(Vec<Space>, Vec<usize>)> = Vec::new();
    for (si, site) in f.sites.iter().enumerate() {
        let key: Vec<Space> = mixed.iter().map(|&i| s.eval(&site[i])).collect();
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.push(si),
            None => groups.push((key, vec![si])),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use Leaf::*;

    fn f(sites: Vec<Vec<Vec<Leaf>>>) -> FnModel {
        let n = sites.first().map_or(1, |s| s.len());
        FnModel { candidates: vec![true; n], returns_ptr: false, sites, rets: vec![] }
    }

    #[test]
    fn meet_is_a_lattice() {
        use Space::*;
        assert_eq!(Top.meet(In(3)), In(3));
        assert_eq!(In(3).meet(In(3)), In(3));
        assert_eq!(In(3).meet(In(1)), Bottom);
        assert_eq!(Bottom.meet(Top), Bottom);
    }

    #[test]
    fn agreeing_sites_specialize_and_propagate_to_callees() {
        // 0: member(this) called twice with shared; 1: helper(p) called from 0 with its `this`.
        let fns = [
            f(vec![vec![vec![Known(3)]], vec![vec![Known(3), Known(3)]]]),
            f(vec![vec![vec![Param(0, 0)]]]),
        ];
        let s = solve(&fns);
        assert_eq!(s.params, vec![vec![Space::In(3)], vec![Space::In(3)]]);
        assert_eq!(param_verdict(&fns[1], 1, 0, &s), Verdict::Specialize(3));
    }

    #[test]
    fn recursion_keeps_the_space_of_the_outside_calls() {
        // f(p) called with global from a kernel and recursively with its own p (through a GEP).
        let fns = [f(vec![vec![vec![Known(1)]], vec![vec![Param(0, 0)]]])];
        assert_eq!(solve(&fns).params, vec![vec![Space::In(1)]]);
        // Mutual recursion without an outside call constrains nothing.
        let fns = [f(vec![vec![vec![Param(1, 0)]]]), f(vec![vec![vec![Param(0, 0)]]])];
        let s = solve(&fns);
        assert_eq!(param_verdict(&fns[0], 0, 0, &s), Verdict::Unconstrained);
    }

    #[test]
    fn mixed_and_unknown_actuals_are_told_apart() {
        let fns = [
            f(vec![vec![vec![Known(3)]], vec![vec![Known(1)]]]),
            f(vec![vec![vec![Known(3)]], vec![vec![Unknown]]]),
            f(vec![vec![vec![Known(4)]]]),
            f(vec![vec![vec![Param(0, 0)]]]),
        ];
        let s = solve(&fns);
        assert_eq!(param_verdict(&fns[0], 0, 0, &s), Verdict::Mixed);
        assert_eq!(param_verdict(&fns[1], 1, 0, &s), Verdict::UnknownActual);
        assert_eq!(param_verdict(&fns[2], 2, 0, &s), Verdict::UnknownActual);
        // A callee of a mixed parameter: unknown until the caller is cloned.
        assert_eq!(param_verdict(&fns[3], 3, 0, &s), Verdict::UnknownActual);
        let g = clone_groups(&fns[0], &[0], &s);
        assert_eq!(g, vec![(vec![Space::In(3)], vec![0]), (vec![Space::In(1)], vec![1])]);
    }

    #[test]
    fn returns_follow_their_values() {
        // 0 returns its parameter (always shared); 1 returns the result of calling 0.
        let mut a = f(vec![vec![vec![Known(3)]]]);
        a.returns_ptr = true;
        a.rets = vec![Param(0, 0)];
        let mut b = f(vec![vec![vec![Known(1)]]]);
        b.returns_ptr = true;
        b.rets = vec![Ret(0), Param(1, 0)];
        let s = solve(&[a, b]);
        assert_eq!(s.rets, vec![Space::In(3), Space::Bottom]);
    }
}
