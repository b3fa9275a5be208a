//! `nv-pred-remat`: where more predicates are live into a loop than the GPU has predicate
//! registers, recomputes loop-invariant compares next to their readers inside the loop instead
//! of holding their results across it. A machine pass, after llc's `machine-sink` (so after
//! early MachineLICM, which hoists the compares, and MachineCSE).
//!
//! Why: SASS has seven allocatable predicate registers per thread (P0-P6;
//! [`PREDICATE_REGISTERS`]). ptxas keeps every further predicate that lives across a loop in a
//! general register and converts it back where it is read, so each one costs a general
//! register or more. LICM hoists every invariant compare out of its loop, however many there
//! are. llm.c's `softmax_autoregressive_backward_kernel4` tests `t < t3 + k` for eight `k`
//! inside its inner loop: the eight hoisted predicates cost it many more registers than nvcc's
//! PTX, which compares inside the loop; recomputing them by hand in the PTX gets most of the way
//! there, the operands being live in the loop anyway.
//!
//! ```text
//! before (MIR)                                     after
//! bb.2 (outer loop):                                bb.2:
//!   %p2:b1 = SETP_i32rr %t, %t3, 2                    ...
//!   ...  (eight such compares)                      bb.20 (inner loop):
//! bb.20 (inner loop):                                 %q:b1 = SETP_i32rr %t, %t3, 2
//!   CBranch %p2, %bb.22                               CBranch %q, %bb.22
//! ```
//!
//! The rule ([`choose`]), per loop, inner loops first: when more than `nv-pred-remat-budget`
//! predicates are live into the loop's header, recompute every one that qualifies, as nvcc's
//! PTX does. Not just enough of them to fit the budget: ptxas's register count is not monotonic
//! in the number left: on the bench shape written for this pass (band_rows8_indicator), 5 or 6
//! predicates left live take more registers than all 8, and 4 or fewer the fewest. A
//! predicate qualifies when its definition
//! - is a compare ([`COMPARE_OPCODE_PREFIX`]: one SASS instruction) with virtual register or
//!   immediate operands, no memory access and no other effect;
//! - is outside the loop, and no PHI in the loop reads the predicate;
//! - reads only registers that are live into the loop's header anyway (defined outside the
//!   loop, they are then live in all of it: a copy adds no general register);
//! - is read in at most [`MAX_COPIES`] of the loop's blocks (each copy runs every iteration).
//!
//! A copy goes before the first reader in each reading block of the loop; readers outside the
//! loop keep the original, which is erased when nothing reads it. Knobs `nv-disable-pred-remat`
//! and `nv-pred-remat-budget`. Remarks (`-pass-remarks=nv-pred-remat`, one per function
//! changed) and `-nv-stats` counters, refusals included. The facts (liveness of one register:
//! backward reachability from its readers, stopped at its definition; loops) and the edits are
//! the shim's (src/machine/pred_remat/pred_remat.cpp); the decision is here.
pub mod adapter;

pub const PASS: &str = "nv-pred-remat";

/// Allocatable predicate registers per thread in SASS (P0-P6; PT is the constant true).
pub const PREDICATE_REGISTERS: i32 = 7;

/// Most of the loop's blocks one compare is copied into (each copy runs every iteration).
pub const MAX_COPIES: usize = 4;

/// NVPTX machine opcode name prefix of the definitions recomputed: `setp` compares.
pub const COMPARE_OPCODE_PREFIX: &str = "SETP_";

/// What the shim reports of one predicate live into a loop's header whose definition may be
/// copied (one without such facts only counts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub opcode: String,
    pub defined_outside: bool,
    pub phi_use: bool,
    pub operands_live: bool,
    /// The loop's blocks that read the predicate.
    pub reading_blocks: usize,
}

/// Why a predicate live into an over-budget loop is held across it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotCompare,
    DefinedInLoop,
    PhiUse,
    OperandNotLive,
    NotRead,
    TooManyBlocks,
}

impl Refusal {
    /// The `-nv-stats` counter of a refusal.
    pub fn counter(self) -> &'static str {
        match self {
            Refusal::NotCompare => "kept: not a compare",
            Refusal::DefinedInLoop => "kept: defined in the loop",
            Refusal::PhiUse => "kept: a PHI in the loop reads it",
            Refusal::OperandNotLive => "kept: an operand is not live in the loop",
            Refusal::NotRead => "kept: not read in the loop",
            Refusal::TooManyBlocks => {
                "kept: read in more of the loop's blocks than it may be copied to"
            }
        }
    }
}

/// Whether one predicate may be recomputed inside the loop.
pub fn qualifies(f: &Facts) -> Result<(), Refusal> {
    if !f.opcode.starts_with(COMPARE_OPCODE_PREFIX) {
        return Err(Refusal::NotCompare);
    }
    if !f.defined_outside {
        return Err(Refusal::DefinedInLoop);
    }
    if f.phi_use {
        return Err(Refusal::PhiUse);
    }
    if !f.operands_live {
        return Err(Refusal::OperandNotLive);
    }
    if f.reading_blocks == 0 {
        return Err(Refusal::NotRead);
    }
    if f.reading_blocks > MAX_COPIES {
        return Err(Refusal::TooManyBlocks);
    }
    Ok(())
}

/// The predicates of one loop to recompute inside it: `live` predicates are live into its
/// header, `preds` holds the facts of those whose definition may be copied (by index; `None`
/// for the others). Over `budget`, every qualifying one; the refusals of the rest are returned
/// for the counters.
pub fn choose(live: usize, preds: &[Option<Facts>], budget: i32) -> (Vec<usize>, Vec<Refusal>) {
    if live <= budget.max(0) as usize {
        return (Vec::new(), Vec::new());
    }
    let mut ok = Vec::new();
    let mut refused = Vec::new();
    for (i, f) in preds.iter().enumerate() {
        match f.as_ref().map(qualifies) {
            Some(Ok(())) => ok.push(i),
            Some(Err(r)) => refused.push(r),
            None => {}
        }
    }
    (ok, refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hoisted(blocks: usize) -> Option<Facts> {
        Some(Facts {
            opcode: "SETP_i32rr".into(),
            defined_outside: true,
            operands_live: true,
            reading_blocks: blocks,
            ..Facts::default()
        })
    }

    #[test]
    fn within_the_budget_nothing_moves() {
        let preds = vec![hoisted(1); 7];
        assert_eq!(choose(7, &preds, PREDICATE_REGISTERS), (vec![], vec![]));
    }

    #[test]
    fn over_the_budget_every_qualifying_predicate_is_recomputed() {
        let preds = vec![hoisted(3), hoisted(1), hoisted(2), None, hoisted(1)];
        assert_eq!(choose(8, &preds, 7).0, vec![0, 1, 2, 4]);
        assert_eq!(choose(7, &preds, 7).0, Vec::<usize>::new());
    }

    #[test]
    fn each_condition_refuses() {
        let base = hoisted(1).unwrap();
        let cases = [
            (Facts { opcode: "SELP_b32rr".into(), ..base.clone() }, Refusal::NotCompare),
            (Facts { defined_outside: false, ..base.clone() }, Refusal::DefinedInLoop),
            (Facts { phi_use: true, ..base.clone() }, Refusal::PhiUse),
            (Facts { operands_live: false, ..base.clone() }, Refusal::OperandNotLive),
            (Facts { reading_blocks: 0, ..base.clone() }, Refusal::NotRead),
            (Facts { reading_blocks: MAX_COPIES + 1, ..base.clone() }, Refusal::TooManyBlocks),
        ];
        for (f, r) in cases {
            assert_eq!(qualifies(&f), Err(r));
            assert_eq!(choose(9, &[Some(f)], 7), (vec![], vec![r]));
        }
    }
}
