//! `nv-inline-advisor`: nvopt's inlining policy, cicc 13.5's thresholds as its own inliner
//! reports them. The nvopt pipelines run LLVM's CGSCC inliner where cicc's tables have it
//! (`cgscc(inline)` at O2/O3, Ofcmid and Ofcmin; at O1 too, see below); this module pass, right
//! before it, installs an InlineAdvisor (src/opt/inline_policy/inline_advisor.cpp) that asks
//! [`threshold`] for every call site and otherwise judges exactly as LLVM's default advisor
//! (InlineCost's cost of the callee at that site, the same remarks).
//!
//! Why: a plain `cgscc(inline)` gets LLVM's default threshold, 225, times LLVM 22's NVPTX
//! multiplier 11 (2475), and it judges callees that only the early function passes have
//! simplified. Upstream `default<O3>` uses 250 (2750, 4125 with the single-block bonus) on
//! callees its CGSCC walk has already fully simplified (unrolled, SROA'd, GVN'd), so a plain
//! `cgscc(inline)` would leave calls that upstream inlines (Rodinia's dwt2d `FDWT53::transform`
//! costs more, seen from the early passes, than from upstream's walk), each call with its
//! `.param` copies and often a stack frame for the arguments' private objects.
//!
//! cicc's own inliner (the nvvm-latest back end whose pipelines nvopt transcribes) reports its
//! decisions through the same LLVM remarks; `cicc -nvvm-version=nvvm-latest -Xopt
//! -pass-remarks=inline` on small CUDA files (measured for this pass at -O2, -O3, Ofc=mid and
//! Ofc=min, all alike) shows:
//!
//! - the base threshold is 6525 = 225 x 29: LLVM's default 225 with an NVPTX inlining
//!   multiplier of 29 (9787 = 6525 x 1.5 for a single-block callee, LLVM's bonus);
//! - +500 (before the multiplier: 21025 = 725 x 29) for each argument that is the address of a
//!   caller's private aggregate, a static `alloca` of array or struct type (a scalar's alloca,
//!   or a GEP into the array, gets nothing; two such arguments give +1000);
//! - +5000 (151525 = 5225 x 29) for a call site in a kernel (`__global__` function).
//!
//! The cicc book describes the older nvvm70 back end (plain `nvcc -arch=sm_90` for compute_90
//! and below) with a different model, a 20,000-unit budget counting argument-marshaling cost
//! rather than instructions ("Inliner Cost Model",
//! grigoryevko.github.io/nvopen-tools/cicc/lto/inliner-cost.html), and notes the same thing
//! this policy encodes: on a GPU a call costs `.param` stores and loads for every argument, and
//! a private object whose address is passed stays in local memory unless the call is inlined.
//!
//! [`threshold`] rebuilds those numbers for LLVM 22: the call site's threshold in cicc's units,
//! `(nv-inline-threshold + bonuses) * nv-inline-threshold-multiplier`, divided by the
//! multiplier LLVM's TTI applies (11 for NVPTX in LLVM 22), rounded up. So nvopt's remarks
//! show nearly cicc's numbers (6534 for 6525), and at every call site nvopt's threshold is at
//! least 2.3 times upstream O3's.
//!
//! Example (plugin-tests/inline/thresholds.test, callees of 520 to 1500 floating-point
//! operations), the inliner's remarks:
//!
//! ```text
//! plain cgscc(inline): 'mid' not inlined into 'device_caller' ... (cost=2575, threshold=2475)
//! upstream default<O3>: 'mid' inlined into 'device_caller' with (cost=2575, threshold=2750)
//! nvopt<O3>:           'mid' inlined into 'device_caller' with (cost=2575, threshold=6534)
//!                      'big' not inlined into 'device_caller' ... (cost=7475, threshold=6534)
//!                      'big' inlined into 'kern' with (cost=7475, threshold=151525)
//!                      'fill' inlined into 'aggregate_caller' with (cost=6970, threshold=21032)
//! ```
//!
//! On Rodinia's dwt2d (`FDWT53::transform` into `run`, `run` into the kernel) nvopt inlines
//! every call, as nvcc does; upstream leaves some (the `nv-inline-advisor` entry of
//! docs/DEPARTURES.md).
//!
//! O1: cicc's O1 (and nvcc's `-Xcicc -O1`) runs only `always-inline`, while upstream
//! `default<O1>` inlines; to never inline less than upstream at the same level, nvopt's O1 also
//! runs `nv-inline-advisor` and `cgscc(inline)` unless `-nv-o1-inline=false` restores cicc's
//! O1.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-inline-advisor` (the slot; off: LLVM's default advisor,
//! 225), `nv-inline-threshold` (225), `nv-inline-threshold-multiplier` (29),
//! `nv-inline-kernel-bonus` (5000), `nv-inline-aggregate-arg-bonus` (500), `nv-o1-inline`.
//! LLVM's own `-inline-threshold`, when given, still wins (as in LLVM, getInlineParams).
//!
//! What it refuses: nothing of its own; it only sets thresholds. LLVM's inliner still refuses
//! what it always refuses (recursion, `noinline`, varargs, indirect calls, incompatible
//! attributes), and cicc's rules it does not model: cicc's remarks also show bonuses of other
//! sizes on a few call sites (a -5000 cost on some calls into kernels) whose rule was not
//! established. Counters in `-nv-stats`.
pub mod adapter;

pub const PASS: &str = "nv-inline-advisor";

/// What the policy reads about one call site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Site {
    /// The caller is a kernel.
    pub in_kernel: bool,
    /// Arguments that are the address of a caller's private aggregate (a static array or
    /// struct alloca).
    pub aggregate_args: u32,
}

/// Knob values the policy reads, in cicc's units (before any multiplier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub base: i64,
    pub multiplier: i64,
    pub kernel_bonus: i64,
    pub aggregate_arg_bonus: i64,
}

impl Params {
    pub fn from_knobs(k: &crate::knobs::Knobs) -> Params {
        Params {
            base: k.nv_inline_threshold(),
            multiplier: k.nv_inline_threshold_multiplier(),
            kernel_bonus: k.nv_inline_kernel_bonus(),
            aggregate_arg_bonus: k.nv_inline_aggregate_arg_bonus(),
        }
    }
}

/// The threshold for LLVM's InlineParams (`DefaultThreshold`, which LLVM multiplies by
/// `llvm_multiplier`) that gives the call site cicc's threshold:
/// `ceil((base + bonuses) * multiplier / llvm_multiplier)`, clamped to `i32`.
pub fn threshold(site: Site, p: Params, llvm_multiplier: u32) -> i32 {
    let mut t = p.base;
    if site.in_kernel {
        t += p.kernel_bonus;
    }
    t += p.aggregate_arg_bonus * i64::from(site.aggregate_args);
    let cicc = t.saturating_mul(p.multiplier);
    let llvm = i64::from(llvm_multiplier.max(1));
    (cicc.saturating_add(llvm - 1) / llvm).clamp(0, i64::from(i32::MAX)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    const CICC: Params =
        Params { base: 225, multiplier: 29, kernel_bonus: 5000, aggregate_arg_bonus: 500 };

    #[test]
    fn reproduces_ciccs_thresholds_with_llvm_22s_multiplier() {
        let t = |site, m| threshold(site, CICC, m) as i64 * m as i64;
        assert_eq!(threshold(Site::default(), CICC, 11), 594); // 594 * 11 = 6534 ~ 6525
        assert_eq!(t(Site::default(), 29), 6525);
        assert_eq!(t(Site { in_kernel: false, aggregate_args: 1 }, 29), 21025);
        assert_eq!(t(Site { in_kernel: false, aggregate_args: 2 }, 29), 35525);
        assert_eq!(t(Site { in_kernel: true, aggregate_args: 0 }, 29), 151525);
        assert_eq!(t(Site { in_kernel: true, aggregate_args: 1 }, 29), 166025);
    }

    #[test]
    fn never_below_upstream_o3() {
        // Upstream O3: 250 * 11. nvopt's smallest threshold with the default knobs.
        assert!(threshold(Site::default(), CICC, 11) as i64 * 11 >= 250 * 11);
    }

    #[test]
    fn degenerate_knobs_stay_in_range() {
        let p = Params { base: i32::MAX as i64, multiplier: 1000, ..CICC };
        assert_eq!(threshold(Site { in_kernel: true, aggregate_args: 9 }, p, 11), i32::MAX);
        assert_eq!(threshold(Site::default(), Params { base: 0, ..CICC }, 0), 0);
    }
}
