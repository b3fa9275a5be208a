//! Pressure-driven IV rewriting (`nv-iv-rewrite`): in a loop whose register pressure
//! (src/analysis/pressure) exceeds the register target (src/analysis/pressure/target.rs), integer induction
//! variables that ScalarEvolution writes as `{start_k,+,step}` with one step move onto one
//! of them: each other member becomes `leader + (start_k - start_leader)` next to each of its
//! uses, and its PHI and update go.
//!
//! Why it lowers registers although the estimator counts a loop invariant like a carried value:
//! ptxas cannot rebuild a loop-carried value, but it rematerializes loop invariants made of
//! kernel parameters (constant-bank operands of IMAD) and special registers when it runs short.
//! The bench's `pyramid_patch_features_u32` (81 unsigned index IVs in 5 step classes) keeps
//! every register there is as PHIs and fits nvcc's count after this pass. Integer IVs only: the
//! rewrite is exact in modular arithmetic (a recurrence and its start differences wrap alike),
//! so unsigned and wrapping indices qualify, which BASR's pointer arithmetic cannot take (a
//! `zext` of a wrapping index is no pointer recurrence). Who owns what: pointer IVs and the
//! nsw index IVs of addresses are BASR's (src/llc/addr/basr.rs, with its register rule), and this
//! pass runs in llc right after `codegenpreparescev`, on what BASR left in loops still over the
//! target (run first, it took the 168 IVs of the bench's `pathological_ivs` from BASR, which
//! does better there); LLVM's LSR stays behind the LSR gate (src/llc/lsr_gate.rs).
//!
//! ```text
//! ; before: two index IVs of step %s carried around the loop
//! loop:
//!   %i = phi i32 [ %a, %pre ], [ %i.next, %loop ]
//!   %j = phi i32 [ %b, %pre ], [ %j.next, %loop ]
//!   %x = zext i32 %i to i64 ...            ; uses of %i and %j
//!   %i.next = add i32 %i, %s
//!   %j.next = add i32 %j, %s
//! ; after: %j rebuilt from %i and the invariant %b - %a (expanded in the preheader)
//! pre:
//!   %nv.iv = sub i32 %b, %a
//! loop:
//!   %i = phi i32 [ %a, %pre ], [ %i.next, %loop ]
//!   %nv.iv.j = add i32 %i, %nv.iv           ; one per use of %j
//!   %y = zext i32 %nv.iv.j to i64 ...
//! ```
//!
//! Knobs: `nv-disable-iv-rewrite` (off), `nv-iv-rewrite-max-growth` (percent the loop's instruction count
//! may grow by: one add per rewritten use, one update fewer per member), and `-nv-maxreg` through
//! the target. Refused, with a remark: loops under the target, loops without a preheader,
//! classes of one IV, i1 and wider-than-64-bit PHIs, non-affine or variant-start recurrences,
//! and loops where the rewrite would grow the body beyond the bound.
pub mod adapter;

/// One candidate IV of a loop: its step class (equal: the same step expression, hence the same
/// width) and the uses a rewrite would give an add each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iv {
    pub class: usize,
    pub uses: u32,
}

/// A loop as the rule sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInput {
    pub over_target: bool,
    pub ivs: Vec<Iv>,
    /// Instructions in the loop's blocks.
    pub body: u32,
}

/// IVs (indices into [`LoopInput::ivs`]) that move onto `leader`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub leader: usize,
    pub members: Vec<usize>,
}

/// Why a loop is left alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    UnderTarget,
    NoClass,
    TooMuchGrowth,
}

impl Refusal {
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::UnderTarget => "register pressure within the target",
            Refusal::NoClass => "no two IVs share a step",
            Refusal::TooMuchGrowth => "the loop body would grow beyond nv-iv-rewrite-max-growth",
        }
    }
}

/// The classes to rewrite in one loop: IVs grouped by step, two or more per class, the first
/// the leader; refused when the adds the rewrite puts in (one per use of a moved IV, less the
/// updates that go) exceed `max_growth_percent` of the body.
pub fn plan(l: &LoopInput, max_growth_percent: u32) -> Result<Vec<Class>, Refusal> {
    if !l.over_target {
        return Err(Refusal::UnderTarget);
    }
    let mut classes: Vec<Class> = Vec::new();
    for (k, iv) in l.ivs.iter().enumerate() {
        match classes.iter_mut().find(|c| l.ivs[c.leader].class == iv.class) {
            Some(c) => c.members.push(k),
            None => classes.push(Class { leader: k, members: Vec::new() }),
        }
    }
    classes.retain(|c| !c.members.is_empty());
    if classes.is_empty() {
        return Err(Refusal::NoClass);
    }
    let moved = classes.iter().flat_map(|c| &c.members);
    let adds: u64 = moved.clone().map(|&m| l.ivs[m].uses as u64).sum();
    let gone = moved.count() as u64;
    let growth = adds.saturating_sub(gone);
    if growth * 100 > l.body as u64 * max_growth_percent as u64 {
        return Err(Refusal::TooMuchGrowth);
    }
    Ok(classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iv(class: usize, uses: u32) -> Iv {
        Iv { class, uses }
    }

    #[test]
    fn ivs_of_one_step_move_onto_the_first() {
        let l = LoopInput {
            over_target: true,
            ivs: vec![iv(0, 2), iv(1, 2), iv(0, 2), iv(0, 2), iv(2, 2)],
            body: 40,
        };
        assert_eq!(
            plan(&l, 50),
            Ok(vec![Class { leader: 0, members: vec![2, 3] }]),
            "class 1 and class 2 have one IV each"
        );
    }

    #[test]
    fn refusals() {
        let base = LoopInput { over_target: true, ivs: vec![iv(0, 2), iv(0, 2)], body: 10 };
        assert_eq!(
            plan(&LoopInput { over_target: false, ..base.clone() }, 50),
            Err(Refusal::UnderTarget)
        );
        assert_eq!(
            plan(&LoopInput { ivs: vec![iv(0, 2), iv(1, 2)], ..base.clone() }, 50),
            Err(Refusal::NoClass)
        );
        // One moved IV with 8 uses: 8 adds, one update fewer: 7 more in a body of 10.
        let busy = LoopInput { ivs: vec![iv(0, 2), iv(0, 8)], ..base.clone() };
        assert_eq!(plan(&busy, 50), Err(Refusal::TooMuchGrowth));
        assert!(plan(&busy, 70).is_ok());
        assert!(plan(&base, 50).is_ok());
    }
}
