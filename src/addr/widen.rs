//! IV-start widening (nvopt's own, in support of BASR; research-facts.md "Address optimization"):
//! which loop-header IVs get their start recomputed in 64 bits before llc's straight-line
//! strength reduction (SLSR). An IV `phi [s, preheader], [phi +nsw d, latch]` whose start is
//! nsw arithmetic (`t + k*lda` in C) has an exact 64-bit address `sext(t) + k*sext(lda) + n*d`
//! (src/shim/access_scev.cpp), so IVs of one stride share a base with a constant-times-`lda`
//! difference. llc's SLSR, which runs before CodeGenPrepare, rewrites such starts into a chain
//! `s[k] = s[k+1] - lda` without nsw, and the exact difference is lost. The adapter
//! (src/shim/iv_start_widening.cpp) rebuilds a chosen start as `trunc nsw` of the same
//! arithmetic in 64 bits, which is the same value wherever the start is not poison, so the
//! fact survives SLSR. This module decides which starts: switched by `nv-widen-iv-starts`, only
//! when BASR runs, and only in loops with at least [`MIN_STARTS_PER_LOOP`] such IVs (one IV has
//! nothing to share a base with).
//!
//! Example (plugin-tests/addr/iv-start-widening.ll, eight IVs starting at `t + k*w`):
//!
//! ```text
//! ; before                               ; after nv-iv-start-widening
//! %m1 = mul nsw i32 %w, 2                %t.sext = sext i32 %t to i64
//! %s1 = add nsw i32 %m1, %t              %w.sext = sext i32 %w to i64
//! ...                                    %m1.wide = mul i64 %w.sext, 2
//! loop:                                  %s1.wide = add i64 %m1.wide, %t.sext
//!   %i1 = phi i32 [ %s1, %entry ], ...   %s1.narrow = trunc nsw i64 %s1.wide to i32
//!                                        ...
//!                                        loop:
//!                                          %i1 = phi i32 [ %s1.narrow, %entry ], ...
//! ```
//!
//! After SLSR, BASR then shares two bases in that loop (IVs of each stride); without the
//! widening it shares none. The pass runs in llc right after `speculative-execution`, i.e.
//! right before `slsr` (src/codegen.rs), not at -O0, and not with `nv-widen-iv-starts=0` or
//! `do-base-address-strength-reduce=0`; `opt -passes=nv-iv-start-widening` runs it alone. It
//! only touches starts whose arithmetic is all nsw: without nsw the 64-bit value could differ.

use std::collections::HashMap;

/// An IV whose start the adapter can widen: its loop and the nsw operations under its start.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    pub loop_id: u32,
    pub nsw_ops: u32,
}

/// IVs with a widenable start that a loop needs before any is widened.
pub const MIN_STARTS_PER_LOOP: usize = 2;

/// Whether each start is widened (`on`: the knob and BASR are both on).
pub fn choose(on: bool, starts: &[Start]) -> Vec<bool> {
    let mut per_loop: HashMap<u32, usize> = HashMap::new();
    for s in starts.iter().filter(|s| s.nsw_ops > 0) {
        *per_loop.entry(s.loop_id).or_default() += 1;
    }
    starts
        .iter()
        .map(|s| on && s.nsw_ops > 0 && per_loop[&s.loop_id] >= MIN_STARTS_PER_LOOP)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(loop_id: u32, nsw_ops: u32) -> Start {
        Start { loop_id, nsw_ops }
    }

    #[test]
    fn loops_with_two_or_more_nsw_starts_are_widened() {
        let s = [start(0, 2), start(0, 2), start(1, 2), start(2, 0), start(2, 1)];
        assert_eq!(choose(true, &s), vec![true, true, false, false, false]);
    }

    #[test]
    fn nothing_when_off() {
        let s = [start(0, 2), start(0, 2)];
        assert_eq!(choose(false, &s), vec![false, false]);
    }
}
