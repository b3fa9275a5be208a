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
//! pressure 6 (1 header PHIs, 2 live-ins): LSR skipped (unknown trip count)`) and `-nv-stats`
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
//! - register pressure = 32-bit registers carried around the loop: header PHIs plus the values
//!   defined outside the loop and used inside it, each counted as ceil(bits / 32) (predicates,
//!   1 bit, live in their own register file and count 0);
//! - loop level counts from the innermost loop (1 = a loop without subloops); with
//!   `lsr-skip-outer-loop` LSR skips loops whose level exceeds `lsr-loop-level`, so the default
//!   keeps LSR on innermost loops only.
use crate::ffi::slice;
use crate::knobs::Knobs;

/// The facts of one loop the gates look at.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopFacts {
    /// Loop level counted from the innermost loop: 1 for a loop without subloops.
    pub level: u32,
    /// Whether ScalarEvolution computes the backedge-taken count.
    pub trip_count_known: bool,
    /// Bit width of each header PHI.
    pub phi_bits: Vec<u32>,
    /// Bit width of each distinct value defined outside the loop and used inside it.
    pub live_in_bits: Vec<u32>,
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

/// 32-bit registers a value of `bits` bits occupies (predicates have their own file).
pub fn registers(bits: u32) -> u32 {
    if bits <= 1 {
        0
    } else {
        bits.div_ceil(32)
    }
}

/// Estimated register pressure of a loop: registers of the header PHIs and the live-in values.
pub fn pressure(f: &LoopFacts) -> u32 {
    f.phi_bits.iter().chain(&f.live_in_bits).map(|&b| registers(b)).sum()
}

/// Whether LSR may run on a loop. The gates are checked cheapest first.
pub fn decide(f: &LoopFacts, g: &Gates) -> Decision {
    if g.skip_outer_loop && f.level > g.loop_level {
        Decision::SkipOuterLoop
    } else if g.skip_unknown_trip && !f.trip_count_known {
        Decision::SkipUnknownTrip
    } else if g.check_rp && pressure(f) > g.rp_limit {
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
    pub(crate) phi_bits: *const u32,
    pub(crate) num_phis: usize,
    pub(crate) live_in_bits: *const u32,
    pub(crate) num_live_ins: usize,
}

/// # Safety
/// as [`nvopt_lsr_gate_allows`].
unsafe fn read(c: &CLoopFacts) -> LoopFacts {
    LoopFacts {
        level: c.level,
        trip_count_known: c.trip_count_known,
        phi_bits: slice(c.phi_bits, c.num_phis).to_vec(),
        live_in_bits: slice(c.live_in_bits, c.num_live_ins).to_vec(),
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
        "{}: loop {}: level {}, trip count {}, pressure {} ({} header PHIs, {} live-ins): {}",
        String::from_utf8_lossy(slice(c.function, c.function_len)),
        if header.is_empty() { "with an unnamed header".to_string() } else { format!("%{header}") },
        facts.level,
        if facts.trip_count_known { "known" } else { "unknown" },
        pressure(&facts),
        facts.phi_bits.len(),
        facts.live_in_bits.len(),
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

    fn innermost(phis: usize, live_ins: usize) -> LoopFacts {
        LoopFacts {
            level: 1,
            trip_count_known: true,
            phi_bits: vec![32; phis],
            live_in_bits: vec![32; live_ins],
        }
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
    fn registers_by_width() {
        assert_eq!(registers(1), 0);
        assert_eq!(registers(16), 1);
        assert_eq!(registers(32), 1);
        assert_eq!(registers(64), 2);
        assert_eq!(registers(128), 4);
        // i64 and i32 PHIs, an i1 PHI (predicate), a pointer and an i16 live-in.
        let f = LoopFacts {
            level: 1,
            trip_count_known: true,
            phi_bits: vec![64, 32, 1],
            live_in_bits: vec![64, 16],
        };
        assert_eq!(pressure(&f), 6);
    }

    #[test]
    fn small_innermost_loop_runs() {
        assert_eq!(decide(&innermost(4, 6), &gates()), Decision::Run);
    }

    #[test]
    fn pressure_above_limit_skips_and_limit_is_inclusive() {
        let g = gates();
        assert_eq!(decide(&innermost(30, 30), &g), Decision::Run);
        assert_eq!(decide(&innermost(30, 31), &g), Decision::SkipRegisterPressure);
        // The pathological kernel's loop: 169 i32 + 1 f32 PHIs, 25 32-bit and 1 64-bit live-ins.
        let mut f = innermost(170, 25);
        f.live_in_bits.push(64);
        assert_eq!(pressure(&f), 197);
        assert_eq!(decide(&f, &g), Decision::SkipRegisterPressure);
        assert_eq!(decide(&f, &Gates { check_rp: false, ..g }), Decision::Run);
        assert_eq!(decide(&f, &Gates { rp_limit: 197, ..g }), Decision::Run);
    }

    #[test]
    fn unknown_trip_count_skips_unless_disabled() {
        let g = gates();
        let f = LoopFacts { trip_count_known: false, ..innermost(2, 2) };
        assert_eq!(decide(&f, &g), Decision::SkipUnknownTrip);
        assert_eq!(decide(&f, &Gates { skip_unknown_trip: false, ..g }), Decision::Run);
    }

    #[test]
    fn outer_loops_skip_by_level() {
        let g = gates();
        let outer = LoopFacts { level: 2, ..innermost(2, 2) };
        assert_eq!(decide(&outer, &g), Decision::SkipOuterLoop);
        assert_eq!(decide(&outer, &Gates { loop_level: 2, ..g }), Decision::Run);
        assert_eq!(decide(&outer, &Gates { skip_outer_loop: false, ..g }), Decision::Run);
    }

    #[test]
    fn outer_gate_is_checked_first() {
        let f = LoopFacts {
            level: 3,
            trip_count_known: false,
            phi_bits: vec![32; 100],
            live_in_bits: vec![],
        };
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

    #[test]
    fn ffi_reads_the_facts() {
        let phis = [32u32, 64];
        let f = CLoopFacts {
            function: b"k".as_ptr(),
            function_len: 1,
            header: b"loop".as_ptr(),
            header_len: 4,
            level: 1,
            trip_count_known: true,
            phi_bits: phis.as_ptr(),
            num_phis: 2,
            live_in_bits: std::ptr::null(),
            num_live_ins: 0,
        };
        let facts = unsafe { read(&f) };
        assert_eq!(
            facts,
            LoopFacts {
                level: 1,
                trip_count_known: true,
                phi_bits: vec![32, 64],
                live_in_bits: vec![]
            }
        );
    }
}
