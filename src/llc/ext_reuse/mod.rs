//! `nv-ext-reuse`: a 64-bit integer expression that ScalarEvolution proves equal to the zero or
//! sign extension of a 32-bit value the function already computes is replaced by that
//! extension, so the 64-bit pieces it was built from die.
//!
//! Why: LLVM's expanders (LoopStrengthReduce's above all, in llc) write the extension of a
//! 32-bit sum or product that cannot wrap as the sum or product of the extended operands, which
//! is ScalarEvolution's canonical form. A loop over a cooperative-groups thread rank,
//! `for (t = block.thread_rank(); t <= T; t += N)`, gets its pointer IVs started at
//! `base + 4 * ((zext tz * zext ny + zext ty) * zext nx + zext tx)`; when two loops start so,
//! GVN's copies of the four 64-bit operands live from the first preheader to the second (eight
//! registers), beside the 32-bit rank the kernel keeps anyway. nvcc's PTX extends the 32-bit
//! rank (`cvt.s64.s32`) at each preheader instead, and takes fewer registers (llm.c's
//! `softmax_autoregressive_backward_kernel7`, six instances, most of the gap closed with the
//! extension reused).
//!
//! ```text
//! ; before (after LSR)                              ; after
//! %r = add nuw nsw i32 %m, %tx                      %r = add nuw nsw i32 %m, %tx
//! ...                                               ...
//! %a = zext i32 %tz to i64                          %r.ext = zext i32 %r to i64
//! %b = zext i32 %ny to i64                          %s = shl i64 %r.ext, 2
//! %p = mul nuw nsw i64 %a, %b
//! ... (three more 64-bit operations)
//! %s = shl i64 %q, 2
//! ```
//!
//! The rule: a 64-bit `add`, `sub`, `mul`, `shl` or `or` whose ScalarEvolution expression has
//! no add recurrence (loop-varying 64-bit IVs are LSR's choice and stay) and equals the zero or
//! sign extension of a 32-bit instruction or argument that dominates it is replaced by that
//! extension, built right before it. ScalarEvolution uniques its expressions, so equal
//! expressions are equal values; it pushes an extension into an add or multiply only where it
//! proves that the narrow operation does not wrap. Among several such values the latest one in
//! program order that dominates the use is taken (the shortest new live range). Refused, with
//! a `-nv-stats` counter: no 32-bit value with the same expression; none that dominates the
//! use; one defined in a loop that does not hold the use (its value there would be the last
//! iteration's, and LCSSA form would break). Where: llc's IR pipeline right after
//! `codegenprepare` and nvopt's passes there (src/codegen.rs), after every SCEVExpander user;
//! also `opt -passes=nv-ext-reuse`. Knob `nv-disable-ext-reuse`. Remarks
//! (`-pass-remarks=nv-ext-reuse`) at each replaced instruction. The walk, the choice and the
//! rewrite are Rust; ScalarEvolution's expressions and instruction dominance come from the shim
//! (src/llc/ext_reuse/ext_reuse.cpp), which LLVM's C API lacks.
pub mod adapter;

pub const PASS: &str = "nv-ext-reuse";

/// Width of the expressions the pass replaces (NVPTX64's addresses and their offsets).
pub const WIDE_BITS: u32 = 64;

/// Width of the values whose extension may replace them (CUDA's `int` and `unsigned`).
pub const NARROW_BITS: u32 = 32;

/// A 32-bit value whose extension equals the expression, as the choice sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its definition dominates the expression (arguments dominate everything).
    pub dominates: bool,
    /// It is defined outside every loop, or in a loop that holds the expression too.
    pub loop_holds_use: bool,
}

/// Why an expression keeps its 64-bit arithmetic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoNarrowValue,
    NotDominating,
    InOtherLoop,
}

impl Refusal {
    pub fn counter(self) -> &'static str {
        match self {
            Refusal::NoNarrowValue => "kept: no 32-bit value with the same expression",
            Refusal::NotDominating => "kept: no such value dominates it",
            Refusal::InOtherLoop => "kept: the value is defined in a loop that does not hold it",
        }
    }
}

/// Which candidate (by index; they come in program order) replaces the expression: the last
/// one that dominates it and whose loop holds it.
pub fn choose(candidates: &[Candidate]) -> Result<usize, Refusal> {
    if candidates.is_empty() {
        return Err(Refusal::NoNarrowValue);
    }
    if let Some(k) = candidates.iter().rposition(|c| c.dominates && c.loop_holds_use) {
        return Ok(k);
    }
    if candidates.iter().any(|c| c.dominates) {
        Err(Refusal::InOtherLoop)
    } else {
        Err(Refusal::NotDominating)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: Candidate = Candidate { dominates: true, loop_holds_use: true };

    #[test]
    fn the_last_dominating_value_in_a_loop_holding_the_use_is_taken() {
        let late_in_loop = Candidate { dominates: true, loop_holds_use: false };
        assert_eq!(choose(&[GOOD, GOOD, late_in_loop]), Ok(1));
        assert_eq!(choose(&[GOOD]), Ok(0));
    }

    #[test]
    fn refusals_name_what_is_missing() {
        assert_eq!(choose(&[]), Err(Refusal::NoNarrowValue));
        let later = Candidate { dominates: false, loop_holds_use: true };
        assert_eq!(choose(&[later]), Err(Refusal::NotDominating));
        let in_loop = Candidate { dominates: true, loop_holds_use: false };
        assert_eq!(choose(&[later, in_loop]), Err(Refusal::InOtherLoop));
    }
}
