//! cicc's gates around Loop Strength Reduction, applied to llc's stock LSR. LSR rewrites a
//! loop's induction variables and addresses into the forms the target addresses cheaply; on
//! NVPTX it tends to turn i32 IVs into i64 byte offsets, which costs registers. cicc therefore
//! skips LSR on some loops, with knobs its LLVM 7 copy has (docs/CICC-FACTS.md, "NVIDIA LSR
//! knobs": `lsr-check-rp` true, `lsr-rp-limit` 60, `disable-unknown-trip-lsr` true,
//! `lsr-loop-level` 1, `lsr-skip-outer-loop` true; and "GPU SCEV sources and stride idioms":
//! NVIDIA added `disable-unknown-trip-lsr`, which skips LSR on loops whose trip count is
//! unknown, and `lsr-check-rp` / `lsr-rp-limit`, which gate LSR on register
//! pressure).
//!
//! How: with the plugin loaded, llc (and clang) at -O1..-O3 on NVPTX get the loop pass
//! `nv-lsr-gate-pass` right before `loop-reduce` (src/codegen.rs: after `canon-freeze`, which
//! llc adds immediately before LSR in the same loop pass manager). For each loop it vetoes LSR
//! through the LLVM context's OptPassGate, the hook LSR's `skipLoop` consults, when
//! - the loop's estimated register pressure exceeds `lsr-rp-limit` (with `lsr-check-rp`),
//!   raised in proportion to the function's register target where launch bounds allow more
//!   than the default 64 registers (`nv-lsr-rp-limit-scale`, nvopt's own: [`rp_limit`]),
//! - ScalarEvolution cannot compute its backedge-taken count (`disable-unknown-trip-lsr`), or
//! - it is an outer loop (`lsr-skip-outer-loop`, `lsr-loop-level`), or
//! - (`nv-lsr-trial`, nvopt's own gate, checked last; off by default, `-nv-lsr-trial=1` runs it:
//!   its entry in docs/DEPARTURES.md says why) LSR would push the loop over the function's
//!   register target: the adapter copies the function, runs llc's stock LSR on the copy of this
//!   loop only, and hands the copy over; the loop's peak pressure (src/analysis/pressure) before
//!   and in the copy is compared with the target (launch bounds, `-nv-maxreg`, else 64).
//!   LSR is skipped when the copy's peak exceeds the target and grew by at least
//!   `nv-lsr-trial-growth` percent of the target (default 25). The copy is then deleted.
//!   Loops under half the target before LSR get no trial ([`TRIAL_MIN_PRESSURE_PCT`]).
//!   Why: under a cap LSR gives each address stream of an unrolled loop its own 64-bit base
//!   (the bench's stencil3d_march at -nv-maxreg=32 spills with it and not without, as nvcc).
//!   The growth bound keeps LSR where it grows pressure a little, since its cheaper addresses
//!   then win (gemm_regtile, gemv_t_cols at cap 24: any growth over the target, i.e.
//!   nv-lsr-trial-growth=0, raises their spills).
//!
//! Example (plugin-tests/lsr-gate/decisions.test): a copy loop that stops at the first zero has
//! no computable trip count, so the gate keeps LSR off it; with `-disable-unknown-trip-lsr=0`
//! LSR rewrites the i64 index into two pointer IVs:
//!
//! ```text
//! ; gate on (default): IR after loop-reduce, the loop keeps its own IV
//! loop:
//!   %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
//!   %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %i
//!   %v = load float, ptr addrspace(1) %p, align 4
//!   %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %i
//!   store float %v, ptr addrspace(1) %q, align 4
//!   %i.next = add nuw nsw i64 %i, 1
//!
//! ; -disable-unknown-trip-lsr=0: LSR ran, two pointer IVs instead of one index
//! loop:
//!   %lsr.iv1 = phi ptr addrspace(1) [ %scevgep2, %loop ], [ %a, %entry ]
//!   %lsr.iv = phi ptr addrspace(1) [ %scevgep, %loop ], [ %out, %entry ]
//!   %v = load float, ptr addrspace(1) %lsr.iv1, align 4
//!   store float %v, ptr addrspace(1) %lsr.iv, align 4
//!   %scevgep = getelementptr i8, ptr addrspace(1) %lsr.iv, i64 4
//!   %scevgep2 = getelementptr i8, ptr addrspace(1) %lsr.iv1, i64 4
//! ```
//!
//! `-nv-log-level=4` logs each decision (`unknown_trip: loop %loop: level 1, trip count unknown,
//! pressure 6 (1 header PHIs): LSR skipped (unknown trip count)`) and `-nv-stats`
//! counts them.
//!
//! Why: on the bench's pathological kernel (168 i32 induction variables in one loop) upstream LSR
//! rewrites every IV into an i64 byte offset, doubling the registers the loop carries, and ptxas
//! spills where the same IR without LSR does not (the gates' figures: docs/DEPARTURES.md and
//! docs/RESULTS.md). The C++ adapter (src/llc/lsr_gate.cpp) collects the facts of each loop just
//! before llc's LSR reaches it; this module decides, counts (`-nv-stats`) and logs
//! (`-nv-log-level=4`).
//!
//! Knobs (docs/KNOBS.md): `nv-lsr-gate` (default on; off leaves llc's LSR as upstream has it),
//! `lsr-check-rp`, `lsr-rp-limit`, `nv-lsr-rp-limit-scale`, `disable-unknown-trip-lsr`,
//! `lsr-skip-outer-loop`, `lsr-loop-level`. An explicit `-disable-lsr` removes both LSR and the
//! gate. Host targets, `-O0` and opt are untouched (the gate is a codegen insertion for NVPTX
//! only). cicc's other LSR knobs of that list, `disable-lsr-for-sharedmem32-ptr` and
//! `do-lsr-64-bit` (both true), have no counterpart here.
//!
//! The binary's exact formulas are unknown (docs/CICC-FACTS.md "NVIDIA LSR knobs" gives only names and defaults), so
//! two meanings are chosen here and said so:
//! - register pressure = 32-bit registers carried around the loop: what nvopt's one estimator
//!   (src/analysis/pressure) finds live on entry to the loop header, its PHIs included (ceil(bits / 32)
//!   each; predicates live in their own register file and count 0), so values live through the
//!   loop count whether or not the loop reads them;
//! - loop level counts from the innermost loop (1 = a loop without subloops); with
//!   `lsr-skip-outer-loop` LSR skips loops whose level exceeds `lsr-loop-level`, so the default
//!   keeps LSR on innermost loops only.
use crate::ffi::slice;
use crate::knobs::Knobs;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};

/// The facts of one loop the gates look at.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopFacts {
    /// Loop level counted from the innermost loop: 1 for a loop without subloops.
    pub level: u32,
    /// Whether ScalarEvolution computes the backedge-taken count.
    pub trip_count_known: bool,
    /// 32-bit registers carried around the loop: live into its header, its PHIs included
    /// (src/analysis/pressure).
    pub pressure: u32,
    /// The function's register target (src/analysis/pressure/target.rs: launch bounds, `-nv-maxreg`,
    /// else 64).
    pub target: u32,
}

/// The gate knobs' values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gates {
    pub check_rp: bool,
    pub rp_limit: u32,
    pub rp_limit_scales: bool,
    pub skip_unknown_trip: bool,
    pub skip_outer_loop: bool,
    pub loop_level: u32,
    pub trial: bool,
    pub trial_growth_pct: u32,
}

impl Gates {
    pub fn from_knobs(k: &Knobs) -> Self {
        Gates {
            check_rp: k.lsr_check_rp(),
            rp_limit: k.lsr_rp_limit().max(0) as u32,
            rp_limit_scales: k.nv_lsr_rp_limit_scale(),
            skip_unknown_trip: k.disable_unknown_trip_lsr(),
            skip_outer_loop: k.lsr_skip_outer_loop(),
            loop_level: k.lsr_loop_level().max(1) as u32,
            trial: k.nv_lsr_trial(),
            trial_growth_pct: k.nv_lsr_trial_growth().max(0) as u32,
        }
    }
}

/// What happens to one loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Run,
    SkipOuterLoop,
    SkipUnknownTrip,
    SkipRegisterPressure,
    SkipPressureGrowth,
}

impl Decision {
    /// The `-nv-stats` counter of the decision.
    pub fn counter(self) -> &'static str {
        match self {
            Decision::Run => "loops LSR runs on",
            Decision::SkipOuterLoop => "loops skipped: outer loop",
            Decision::SkipUnknownTrip => "loops skipped: unknown trip count",
            Decision::SkipRegisterPressure => "loops skipped: register pressure",
            Decision::SkipPressureGrowth => "loops skipped: LSR raises pressure over the target",
        }
    }
}

/// The pressure above which the register-pressure gate skips LSR: `lsr-rp-limit`, raised in
/// proportion to a register target above the default one (`nv-lsr-rp-limit-scale`): cicc's 60
/// is set for the default 64-register budget, and a kernel whose launch bounds allow 128
/// registers has twice the room for LSR's extra IVs (llm.c's `trimul_global<matmul_tri3>`,
/// `__launch_bounds__(256, 2)`: a loop at pressure 80 kept without LSR, 8 bytes of stack and 4
/// of spills at 128 registers; with LSR none, as nvcc). Targets at or below the default keep
/// `lsr-rp-limit` as it is.
pub fn rp_limit(g: &Gates, target: u32) -> u32 {
    let default = crate::analysis::pressure::target::DEFAULT_TARGET;
    if g.rp_limit_scales && target > default {
        (g.rp_limit as u64 * target as u64 / default as u64) as u32
    } else {
        g.rp_limit
    }
}

/// Whether LSR may run on a loop. The gates are checked cheapest first.
pub fn decide(f: &LoopFacts, g: &Gates) -> Decision {
    if g.skip_outer_loop && f.level > g.loop_level {
        Decision::SkipOuterLoop
    } else if g.skip_unknown_trip && !f.trip_count_known {
        Decision::SkipUnknownTrip
    } else if g.check_rp && f.pressure > rp_limit(g, f.target) {
        Decision::SkipRegisterPressure
    } else {
        Decision::Run
    }
}

/// The register pressure of a loop before and after a trial LSR on a copy of it, and the
/// function's register target (src/analysis/pressure/target.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trial {
    pub before: u32,
    pub after: u32,
    pub target: u32,
}

/// The pressure-growth gate (`nv-lsr-trial`): LSR is skipped when the loop it would produce
/// needs more registers than the target and more than the loop before LSR. A loop already over
/// the target that LSR does not make worse keeps LSR (its addresses may get cheaper).
pub fn decide_trial(t: &Trial, growth_pct: u32) -> Decision {
    let growth = t.after.saturating_sub(t.before) as u64;
    if t.after > t.target && growth > 0 && growth * 100 >= growth_pct as u64 * t.target as u64 {
        Decision::SkipPressureGrowth
    } else {
        Decision::Run
    }
}

/// The facts as the C++ adapter hands them over.
#[repr(C)]
pub struct CLoopFacts {
    pub(crate) function: *const u8,
    pub(crate) function_len: usize,
    pub(crate) header: *const u8,
    pub(crate) header_len: usize,
    pub(crate) level: u32,
    pub(crate) trip_count_known: bool,
    pub(crate) function_value: LLVMValueRef,
    pub(crate) header_block: LLVMBasicBlockRef,
    pub(crate) num_phis: u32,
    pub(crate) loop_handle: *const std::ffi::c_void,
    pub(crate) trial: *mut std::ffi::c_void,
}

extern "C" {
    fn nvopt_lsr_trial_run(
        trial: *mut std::ffi::c_void,
        blocks: *mut LLVMBasicBlockRef,
        cap: usize,
        n: *mut usize,
    ) -> LLVMValueRef;
    fn nvopt_lsr_trial_drop(clone: LLVMValueRef);
}

/// The most registers live at once in the blocks `in_loop` accepts (src/analysis/pressure).
unsafe fn peak(f: LLVMValueRef, in_loop: impl Fn(LLVMBasicBlockRef) -> bool) -> u32 {
    let numbered = crate::analysis::pressure::ir::graph(crate::analysis::ir::function(f));
    let est = crate::analysis::pressure::estimate(&numbered.graph);
    est.max_in((0..numbered.blocks.len()).filter(|&b| in_loop(numbered.blocks[b])))
}

/// Loops whose pressure before LSR is under this percentage of the target get no trial: LSR
/// would have to more than double their pressure to put them over it, and the largest growth
/// seen on the bench is +42 % (stencil3d_march, 33 -> 47 under a 32-register cap). The trial
/// costs a function copy and an LSR run per loop (about 5 % of llc's time without this bound).
pub const TRIAL_MIN_PRESSURE_PCT: u64 = 50;

/// The loop's pressure now and the function's register target, as `Err` when the loop is too
/// far under the target for a trial ([`TRIAL_MIN_PRESSURE_PCT`]).
///
/// # Safety
/// as [`nvopt_lsr_gate_allows`].
unsafe fn trial_start(c: &CLoopFacts) -> Result<(u32, u32), (u32, u32)> {
    let l = crate::analysis::ir::loops::Loop::from_raw(c.loop_handle);
    let before = peak(c.function_value, |b| l.contains(b));
    let target = crate::analysis::pressure::target::for_function(
        crate::analysis::ir::function(c.function_value),
        &Knobs::current(),
    )
    .regs;
    if before as u64 * 100 >= target as u64 * TRIAL_MIN_PRESSURE_PCT {
        Ok((before, target))
    } else {
        Err((before, target))
    }
}

/// Runs the trial: the pressure of a copy of the function whose loop LSR has rewritten.
///
/// # Safety
/// as [`nvopt_lsr_gate_allows`].
unsafe fn trial(c: &CLoopFacts, before: u32, target: u32) -> Trial {
    let mut blocks: Vec<LLVMBasicBlockRef> = vec![std::ptr::null_mut(); 64];
    let mut n = 0usize;
    let mut clone = nvopt_lsr_trial_run(c.trial, blocks.as_mut_ptr(), blocks.len(), &mut n);
    if n > blocks.len() {
        nvopt_lsr_trial_drop(clone);
        blocks = vec![std::ptr::null_mut(); n];
        clone = nvopt_lsr_trial_run(c.trial, blocks.as_mut_ptr(), blocks.len(), &mut n);
    }
    let set: crate::fast_hash::HashSet<LLVMBasicBlockRef> = blocks[..n].iter().copied().collect();
    let after = peak(clone, |b| set.contains(&b));
    nvopt_lsr_trial_drop(clone);
    Trial { before, after, target }
}

/// The registers carried into each loop header of one function (src/analysis/pressure's
/// `carried`, all headers from one liveness run), kept while the function cannot have changed.
/// Between two gate calls in one function only llc's LSR (on the previous loop, when the gate let
/// it run) and `canon-freeze` (on the next loop, which rewrites freeze instructions only) touch
/// the IR: the cache is dropped when LSR was allowed to run, and a function holding a freeze
/// instruction is never cached. Without it the gate recomputed the function's liveness for each
/// loop, a large share of llc's time on kernels with many loops (the bench's sink_pressure).
struct CarriedCache {
    function: LLVMValueRef,
    entry: crate::fast_hash::HashMap<LLVMBasicBlockRef, u32>,
}

thread_local! {
    static CARRIED: std::cell::RefCell<Option<CarriedCache>> = const { std::cell::RefCell::new(None) };
}

/// Registers carried into the loop whose header is `header`, from the cache when it holds
/// this function.
///
/// # Safety
/// `f` is a live function with a body and `header` one of its blocks.
unsafe fn carried(f: LLVMValueRef, header: LLVMBasicBlockRef) -> u32 {
    if let Some(regs) = CARRIED.with(|c| {
        c.borrow().as_ref().filter(|c| c.function == f).and_then(|c| c.entry.get(&header).copied())
    }) {
        return regs;
    }
    let entry = crate::analysis::pressure::carried(crate::analysis::ir::function(f));
    let regs = entry.get(&header).copied().unwrap_or(0);
    let cache = (!has_freeze(f)).then_some(CarriedCache { function: f, entry });
    CARRIED.with(|c| *c.borrow_mut() = cache);
    regs
}

/// Whether the function holds a freeze instruction (which `canon-freeze` may rewrite between
/// two gate calls).
///
/// # Safety
/// `f` is a live function with a body.
unsafe fn has_freeze(f: LLVMValueRef) -> bool {
    use llvm_sys::core::*;
    let mut bb = LLVMGetFirstBasicBlock(f);
    while !bb.is_null() {
        let mut i = LLVMGetFirstInstruction(bb);
        while !i.is_null() {
            if LLVMGetInstructionOpcode(i) == llvm_sys::LLVMOpcode::LLVMFreeze {
                return true;
            }
            i = LLVMGetNextInstruction(i);
        }
        bb = LLVMGetNextBasicBlock(bb);
    }
    false
}

/// # Safety
/// as [`nvopt_lsr_gate_allows`].
unsafe fn read(c: &CLoopFacts) -> LoopFacts {
    LoopFacts {
        level: c.level,
        trip_count_known: c.trip_count_known,
        pressure: carried(c.function_value, c.header_block),
        target: crate::analysis::pressure::target::for_function(
            crate::analysis::ir::function(c.function_value),
            &Knobs::current(),
        )
        .regs,
    }
}

/// Called by src/llc/lsr_gate.cpp for each loop just before llc's LSR; returns true when LSR
/// may run on it.
///
/// # Safety
/// `c` points to a valid [`CLoopFacts`] whose pointers cover their lengths.
#[no_mangle]
pub unsafe extern "C" fn nvopt_lsr_gate_allows(c: *const CLoopFacts) -> bool {
    let c = &*c;
    let facts = read(c);
    // Knob values are fixed once LLVM has parsed the command line, before any pass runs, so
    // the gates are read once per process rather than once per loop.
    static GATES: std::sync::OnceLock<Gates> = std::sync::OnceLock::new();
    let gates = GATES.get_or_init(|| Gates::from_knobs(&Knobs::current()));
    let mut decision = decide(&facts, gates);
    let mut trial_note = String::new();
    if decision == Decision::Run && gates.trial && !c.trial.is_null() {
        match trial_start(c) {
            Ok((before, target)) => {
                let t = trial(c, before, target);
                decision = decide_trial(&t, gates.trial_growth_pct);
                trial_note = format!(
                    ", loop pressure {} -> {} with LSR, target {}",
                    t.before, t.after, t.target
                );
            }
            Err((before, target)) => {
                trial_note =
                    format!(", loop pressure {before}, no trial under half the target {target}");
            }
        }
    }
    if decision == Decision::Run {
        // LSR rewrites this loop next: the cached liveness no longer holds.
        CARRIED.with(|c| *c.borrow_mut() = None);
    }
    crate::stats::add("nv-lsr-gate", decision.counter(), 1);
    let header = String::from_utf8_lossy(slice(c.header, c.header_len));
    log::debug!(
        "{}: loop {}: level {}, trip count {}, pressure {} ({} header PHIs){}: {}",
        String::from_utf8_lossy(slice(c.function, c.function_len)),
        if header.is_empty() { "with an unnamed header".to_string() } else { format!("%{header}") },
        facts.level,
        if facts.trip_count_known { "known" } else { "unknown" },
        facts.pressure,
        c.num_phis,
        trial_note,
        match decision {
            Decision::Run => "LSR runs".to_string(),
            d => format!("LSR skipped ({})", d.counter().trim_start_matches("loops skipped: ")),
        }
    );
    decision == Decision::Run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::K;

    fn gates() -> Gates {
        Gates::from_knobs(&Knobs::defaults())
    }

    fn innermost(pressure: u32) -> LoopFacts {
        LoopFacts { level: 1, trip_count_known: true, pressure, target: 64 }
    }

    #[test]
    fn defaults_are_ciccs() {
        let g = gates();
        assert_eq!(
            g,
            Gates {
                check_rp: true,
                rp_limit: 60,
                rp_limit_scales: true,
                skip_unknown_trip: true,
                skip_outer_loop: true,
                loop_level: 1,
                trial: false,
                trial_growth_pct: 25,
            }
        );
    }

    #[test]
    fn small_innermost_loop_runs() {
        assert_eq!(decide(&innermost(10), &gates()), Decision::Run);
    }

    #[test]
    fn pressure_above_limit_skips_and_limit_is_inclusive() {
        let g = gates();
        assert_eq!(decide(&innermost(60), &g), Decision::Run);
        assert_eq!(decide(&innermost(61), &g), Decision::SkipRegisterPressure);
        let f = innermost(197);
        assert_eq!(decide(&f, &g), Decision::SkipRegisterPressure);
        assert_eq!(decide(&f, &Gates { check_rp: false, ..g }), Decision::Run);
        assert_eq!(decide(&f, &Gates { rp_limit: 197, ..g }), Decision::Run);
    }

    #[test]
    fn the_pressure_limit_grows_with_a_target_above_the_default_only() {
        let g = gates();
        // trimul_global<matmul_tri3>: pressure 80 under __launch_bounds__(256, 2), target 128.
        let lb = LoopFacts { target: 128, ..innermost(80) };
        assert_eq!(rp_limit(&g, 128), 120);
        assert_eq!(decide(&lb, &g), Decision::Run);
        assert_eq!(
            decide(&lb, &Gates { rp_limit_scales: false, ..g }),
            Decision::SkipRegisterPressure
        );
        // Under a cap the limit stays lsr-rp-limit.
        assert_eq!(rp_limit(&g, 32), 60);
        assert_eq!(
            decide(&LoopFacts { target: 32, ..innermost(61) }, &g),
            Decision::SkipRegisterPressure
        );
    }

    #[test]
    fn unknown_trip_count_skips_unless_disabled() {
        let g = gates();
        let f = LoopFacts { trip_count_known: false, ..innermost(4) };
        assert_eq!(decide(&f, &g), Decision::SkipUnknownTrip);
        assert_eq!(decide(&f, &Gates { skip_unknown_trip: false, ..g }), Decision::Run);
    }

    #[test]
    fn outer_loops_skip_by_level() {
        let g = gates();
        let outer = LoopFacts { level: 2, ..innermost(4) };
        assert_eq!(decide(&outer, &g), Decision::SkipOuterLoop);
        assert_eq!(decide(&outer, &Gates { loop_level: 2, ..g }), Decision::Run);
        assert_eq!(decide(&outer, &Gates { skip_outer_loop: false, ..g }), Decision::Run);
    }

    #[test]
    fn outer_gate_is_checked_first() {
        let f = LoopFacts { level: 3, trip_count_known: false, pressure: 100, target: 64 };
        assert_eq!(decide(&f, &gates()), Decision::SkipOuterLoop);
        let f = LoopFacts { level: 1, ..f };
        assert_eq!(decide(&f, &gates()), Decision::SkipUnknownTrip);
    }

    #[test]
    fn trial_skips_only_large_growth_over_the_target() {
        let t = |before, after, target| Trial { before, after, target };
        // stencil3d_march at -nv-maxreg=32: 33 -> 47 grows 14 >= 8.
        assert_eq!(decide_trial(&t(33, 47, 32), 25), Decision::SkipPressureGrowth);
        // Over the target but grown by less than a quarter of it.
        assert_eq!(decide_trial(&t(44, 51, 32), 25), Decision::Run);
        assert_eq!(decide_trial(&t(44, 52, 32), 25), Decision::SkipPressureGrowth);
        // Under the target, or not grown: LSR runs.
        assert_eq!(decide_trial(&t(10, 32, 32), 25), Decision::Run);
        assert_eq!(decide_trial(&t(62, 60, 64), 0), Decision::Run);
        assert_eq!(decide_trial(&t(40, 40, 32), 0), Decision::Run);
        // Growth 0 percent: any growth over the target skips.
        assert_eq!(decide_trial(&t(27, 28, 24), 0), Decision::SkipPressureGrowth);
    }

    #[test]
    fn knobs_feed_the_gates() {
        let mut k = Knobs::defaults();
        k.set(K::lsr_rp_limit, 200);
        k.set(K::disable_unknown_trip_lsr, 0);
        k.set(K::lsr_loop_level, 3);
        let g = Gates::from_knobs(&k);
        assert_eq!((g.rp_limit, g.skip_unknown_trip, g.loop_level), (200, false, 3));
    }
}
