//! cicc's gates around Loop Strength Reduction, applied to llc's stock LSR. LSR rewrites a
//! loop's induction variables and addresses into the forms the target addresses cheaply; on
//! NVPTX it tends to turn i32 IVs into i64 byte offsets, which costs registers. cicc therefore
//! skips LSR on some loops, with knobs its LLVM 7 copy has (research-facts.md, "NVIDIA LSR
//! knobs": `lsr-check-rp` true, `lsr-rp-limit` 60, `disable-unknown-trip-lsr` true,
//! `lsr-loop-level` 1, `lsr-skip-outer-loop` true; seed 000, the cicc reverse-engineering
//! book's ScalarEvolution chapter: "NVIDIA adds disable-unknown-trip-lsr to skip LSR entirely
//! for unknown-trip-count loops, plus lsr-check-rp / lsr-rp-limit to gate LSR on register
//! pressure").
//!
//! How: with the plugin loaded, llc (and clang) at -O1..-O3 on NVPTX get the loop pass
//! `nv-lsr-gate-pass` right before `loop-reduce` (src/codegen.rs: after `canon-freeze`, which
//! llc adds immediately before LSR in the same loop pass manager). For each loop it vetoes LSR
//! through the LLVM context's OptPassGate, the hook LSR's `skipLoop` consults, when
//! - the loop's estimated register pressure exceeds `lsr-rp-limit` (with `lsr-check-rp`),
//! - ScalarEvolution cannot compute its backedge-taken count (`disable-unknown-trip-lsr`), or
//! - it is an outer loop (`lsr-skip-outer-loop`, `lsr-loop-level`).
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
//! rewrites every IV into an i64 byte offset, doubling the registers the loop carries; ptxas then
//! spills (255 registers, 3288 spill bytes) where the same IR without LSR needs 254 registers
//! and no spills (bench/RESULTS.md "LSR gates"). The C++ adapter (src/shim/lsr_gate.cpp)
//! collects the facts of each loop just before llc's LSR reaches it; this module decides,
//! counts (`-nv-stats`) and logs (`-nv-log-level=4`).
//!
//! Knobs (docs/KNOBS.md): `nv-lsr-gate` (default on; off leaves llc's LSR as upstream has it),
//! `lsr-check-rp`, `lsr-rp-limit`, `disable-unknown-trip-lsr`, `lsr-skip-outer-loop`,
//! `lsr-loop-level`. An explicit `-disable-lsr` removes both LSR and the gate. Host targets,
//! `-O0` and opt are untouched (the gate is a codegen insertion for NVPTX only). cicc's other
//! LSR knobs of that list, `disable-lsr-for-sharedmem32-ptr` and `do-lsr-64-bit` (both true),
//! have no counterpart here.
//!
//! The binary's exact formulas are unknown (research-facts.md gives only names and defaults), so
//! two meanings are chosen here and said so:
//! - register pressure = 32-bit registers carried around the loop: what nvopt's one estimator
//!   (src/pressure) finds live on entry to the loop header, its PHIs included (ceil(bits / 32)
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
    /// (src/pressure).
    pub pressure: u32,
}

/// The gate knobs' values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gates {
    pub check_rp: bool,
    pub rp_limit: u32,
    pub skip_unknown_trip: bool,
    pub skip_outer_loop: bool,
    pub loop_level: u32,
}

impl Gates {
    pub fn from_knobs(k: &Knobs) -> Self {
        Gates {
            check_rp: k.lsr_check_rp(),
            rp_limit: k.lsr_rp_limit().max(0) as u32,
            skip_unknown_trip: k.disable_unknown_trip_lsr(),
            skip_outer_loop: k.lsr_skip_outer_loop(),
            loop_level: k.lsr_loop_level().max(1) as u32,
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
}

impl Decision {
    /// The `-nv-stats` counter of the decision.
    pub fn counter(self) -> &'static str {
        match self {
            Decision::Run => "loops LSR runs on",
            Decision::SkipOuterLoop => "loops skipped: outer loop",
            Decision::SkipUnknownTrip => "loops skipped: unknown trip count",
            Decision::SkipRegisterPressure => "loops skipped: register pressure",
        }
    }
}

/// Whether LSR may run on a loop. The gates are checked cheapest first.
pub fn decide(f: &LoopFacts, g: &Gates) -> Decision {
    if g.skip_outer_loop && f.level > g.loop_level {
        Decision::SkipOuterLoop
    } else if g.skip_unknown_trip && !f.trip_count_known {
        Decision::SkipUnknownTrip
    } else if g.check_rp && f.pressure > g.rp_limit {
        Decision::SkipRegisterPressure
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
}

/// # Safety
/// as [`nvopt_lsr_gate_allows`].
unsafe fn read(c: &CLoopFacts) -> LoopFacts {
    LoopFacts {
        level: c.level,
        trip_count_known: c.trip_count_known,
        pressure: crate::pressure::carried(crate::ir::function(c.function_value), c.header_block),
    }
}

/// Called by src/shim/lsr_gate.cpp for each loop just before llc's LSR; returns true when LSR
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
    let decision = decide(&facts, GATES.get_or_init(|| Gates::from_knobs(&Knobs::current())));
    crate::stats::add("nv-lsr-gate", decision.counter(), 1);
    let header = String::from_utf8_lossy(slice(c.header, c.header_len));
    log::debug!(
        "{}: loop {}: level {}, trip count {}, pressure {} ({} header PHIs): {}",
        String::from_utf8_lossy(slice(c.function, c.function_len)),
        if header.is_empty() { "with an unnamed header".to_string() } else { format!("%{header}") },
        facts.level,
        if facts.trip_count_known { "known" } else { "unknown" },
        facts.pressure,
        c.num_phis,
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
        LoopFacts { level: 1, trip_count_known: true, pressure }
    }

    #[test]
    fn defaults_are_ciccs() {
        let g = gates();
        assert_eq!(
            g,
            Gates {
                check_rp: true,
                rp_limit: 60,
                skip_unknown_trip: true,
                skip_outer_loop: true,
                loop_level: 1
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
        let f = LoopFacts { level: 3, trip_count_known: false, pressure: 100 };
        assert_eq!(decide(&f, &gates()), Decision::SkipOuterLoop);
        let f = LoopFacts { level: 1, ..f };
        assert_eq!(decide(&f, &gates()), Decision::SkipUnknownTrip);
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
