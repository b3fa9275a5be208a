//! `nv-scev-sources`: writes GPU facts into the IR so that every upstream SCEV consumer
//! (IndVarSimplify, LoopVectorize, LSR, the unroller) sees them. cicc's ScalarEvolution knows the
//! value ranges of the special registers (thread and block indices and dimensions) and recognizes
//! CUDA's stride loops (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms", from the book
//! page "ScalarEvolution Overview & Construction", docs/SOURCES.md source 000). Upstream passes use
//! LLVM's own ScalarEvolution, so nvopt's own function pass states the same facts as IR attributes
//! and flags, which LLVM's ScalarEvolution reads:
//!
//! 1. `range` return attributes on `llvm.nvvm.read.ptx.sreg.*` reads: LLVM 22's intrinsic
//!    ranges (docs/CICC-FACTS.md "SCEV facts": tid.x/y in [0,1024), tid.z [0,64), ntid.x/y
//!    [1,1025), ntid.z [1,65), ctaid.x [0,2^31-1), ctaid.y/z [0,65535), nctaid.x [1,2^31),
//!    nctaid.y/z [1,65536), warpsize 32), tightened by the kernel's launch bounds
//!    ([`ranges`]): `nvvm.reqntid` fixes each block dimension (missing ones are 1),
//!    `nvvm.maxntid` bounds every dimension by the thread count (CUDA launches any block shape
//!    within `__launch_bounds__`), `nvvm.minctasm` bounds nothing. Ranges are only narrowed.
//!    LLVM 22's `nvvm-intr-range` also reads launch bounds, but only their product, and it runs
//!    before the inliner exposes clang's `threadIdx`-style accessors.
//! 2. warp- (`{tid,+,32}`), block- (`{tid,+,ntid}`) and grid-stride
//!    (`{ctaid*ntid+tid,+,ntid*nctaid}`) loops, recognized on their SCEV start and step
//!    ([`idiom`]), get `nuw`/`nsw` on their increment where the loop test and the ranges of
//!    start, stride and bound prove it ([`wrap`] holds the proof); their start and stride
//!    arithmetic also gets the flags its ranges prove (`aggressive-positive-stride-analysis`,
//!    on by default as in cicc).
//!
//! Example (plugin-tests/scev-sources/grid-stride.ll), a 64-bit grid-stride loop
//! `for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
//! with `unsigned n`:
//!
//! ```text
//! ; before                                     ; after nv-scev-sources
//! %base = mul i64 %ctaid64, %ntid64           %base = mul nuw nsw i64 %ctaid64, %ntid64
//! %start = add i64 %base, %tid64              %start = add nuw nsw i64 %base, %tid64
//! %stride = mul i64 %ntid64, %nctaid64        %stride = mul nuw nsw i64 %ntid64, %nctaid64
//! %next = add i64 %i, %stride                 %next = add nuw nsw i64 %i, %stride
//!
//! ; print<scalar-evolution> of %i (zexts left out):
//! ;   before  {(%tid + (%ntid * %ctaid)),+,(%nctaid * %ntid)}<%body>
//! ;   after   {(%tid + (%ctaid * %ntid)<nuw><nsw>)<nuw><nsw>,+,(%nctaid * %ntid)}<nuw><nsw><%body>
//! ```
//!
//! (ntid*nctaid < 2^41 and the bound is a zero-extended i32, so neither the stride, the start
//! nor the increment can wrap.) Under `reqntid`, a block-stride loop's constant max
//! backedge-taken count becomes 31 instead of 4095 (plugin-tests/scev-sources/block-stride.ll).
//!
//! Where it runs: right after the inliner at O1-O3, Ofcmid and Ofcmin; not at O0 and Ofcmax,
//! which run no loop optimization (and whose llc -O0 runs no LSR). `opt -passes=nv-scev-sources`
//! runs it alone.
//!
//! Knobs (docs/KNOBS.md): `nv-disable-scev-sources` (skip its slots),
//! `aggressive-positive-stride-analysis` (off: constant strides only),
//! `special-reassociate-for-threadid` (a second run right after `reassociate`, O1-O3; off by
//! default because, measured with LLVM 22, reassociate neither hides thread-id terms from SCEV
//! nor drops the flags: plugin-tests/scev-sources/reassociate.ll).
//!
//! What it refuses, and why: non-NVPTX modules (the special registers mean nothing there);
//! flags it cannot prove on every execution: an `eq`/`ne` loop test bounds nothing (the IV can
//! step over the bound and wrap), a step that may be negative proves nothing, and a bound near
//! the type's maximum leaves no room for the step (the common 32-bit
//! `i < n; i += ntid*nctaid` loop with an arbitrary `int n` stays unflagged, rightly). A flag
//! already present is kept. On the bench this is why the pass changes none of SCEV's counts;
//! its only lasting change there is the launch-bound ranges of `launch_bounds.cu`.
//!
//! The C++ adapter (src/analysis/scev_sources/scev_sources.cpp) walks the IR, asks this module through
//! [`ffi`] and applies the answers. This file holds the per-function decisions, the
//! statistics and the log.
pub mod ffi;
pub mod idiom;
pub mod ranges;
pub mod wrap;

use crate::analysis::gpu::Sreg;
use crate::analysis::gpu::{LaunchBounds, Span};
use crate::knobs::Knobs;
use idiom::{Idiom, Term};
use wrap::{BinOp, Bounds, Flags, IvFacts};

pub const PASS: &str = "nv-scev-sources";

use crate::analysis::gpu::PTX_KERNEL_CC;

/// The pass only runs on NVPTX modules; anything else is left untouched.
pub fn applies_to_triple(triple: &str) -> bool {
    triple.starts_with("nvptx")
}

/// Knob values the pass reads (src/knobs.rs).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `aggressive-positive-stride-analysis`: strides built from ntid, nctaid and warpsize
    /// take part in the no-wrap proof with their (positive) ranges, and the arithmetic that
    /// builds them and the grid start gets the flags its ranges prove. Off: constant strides
    /// only.
    pub launch_dimension_strides: bool,
}

impl Settings {
    pub fn from_knobs(k: &Knobs) -> Settings {
        Settings { launch_dimension_strides: k.aggressive_positive_stride_analysis() }
    }
}

/// What the pass decided for one induction increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IvDecision {
    pub idiom: Idiom,
    /// The flags the increment is to carry (existing ones included).
    pub flags: Flags,
    /// Whether the adapter should ask [`FunctionRun::operation`] about the `add`/`mul`
    /// instructions that compute the start and the stride.
    pub check_operands: bool,
}

#[derive(Debug, Default)]
struct Counts {
    ranges_attached: u64,
    ranges_tightened: u64,
    warp: u64,
    block: u64,
    grid: u64,
    nuw: u64,
    nsw: u64,
    operand_flags: u64,
}

/// The pass's state while it works on one function.
#[derive(Debug)]
pub struct FunctionRun {
    name: String,
    bounds: LaunchBounds,
    settings: Settings,
    counts: Counts,
}

impl FunctionRun {
    /// `cc` is the function's calling convention; the attribute strings are empty when absent.
    /// Launch bounds count only for kernels.
    pub fn new(name: &str, cc: u32, attrs: [&str; 3], settings: Settings) -> FunctionRun {
        let (bounds, bad) = LaunchBounds::parse(attrs[0], attrs[1], attrs[2]);
        for a in bad {
            log::warn!("{PASS}: {name}: ignoring malformed \"{a}\" attribute");
        }
        let bounds = if cc == PTX_KERNEL_CC { bounds } else { LaunchBounds::default() };
        if !bounds.is_empty() {
            log::debug!("{PASS}: {name}: launch bounds {bounds:?}");
        }
        FunctionRun { name: name.to_string(), bounds, settings, counts: Counts::default() }
    }

    /// The range to set on a read of `sreg` of `width` bits whose current range is `existing`
    /// (see [`ranges::tighter`]); `callsite` says whether the call itself carries that range.
    pub fn sreg_range(
        &mut self,
        sreg: Sreg,
        width: u32,
        existing: Option<Option<Span>>,
        callsite: bool,
    ) -> Option<Span> {
        let ours = crate::analysis::gpu::sreg_span(sreg, &self.bounds);
        let new = ranges::tighter(ours, width, existing)?;
        if callsite {
            self.counts.ranges_tightened += 1;
        } else {
            self.counts.ranges_attached += 1;
        }
        log::debug!("{PASS}: {}: {sreg:?} in [{}, {})", self.name, new.lo, new.hi);
        Some(new)
    }

    /// Classifies the recurrence `{start,+,step}` and decides the increment's flags: only
    /// recognized idioms are flagged, and a stride that is not a constant only with
    /// `aggressive-positive-stride-analysis`.
    pub fn induction(&mut self, facts: &IvFacts, start: &Term, step: &Term) -> IvDecision {
        let idiom = idiom::classify(start, step);
        let none = IvDecision { idiom, flags: facts.existing, check_operands: false };
        match idiom {
            Idiom::WarpStride => self.counts.warp += 1,
            Idiom::BlockStride => self.counts.block += 1,
            Idiom::GridStride => self.counts.grid += 1,
            Idiom::None => return none,
        }
        let symbolic_ok =
            self.settings.launch_dimension_strides && idiom::is_launch_dimension_expr(step);
        if !idiom::is_constant(step) && !symbolic_ok {
            log::debug!(
                "{PASS}: {}: {} loop with a symbolic stride left alone",
                self.name,
                idiom.name()
            );
            return none;
        }
        let flags = wrap::prove_increment(facts);
        self.counts.nuw += u64::from(flags.nuw && !facts.existing.nuw);
        self.counts.nsw += u64::from(flags.nsw && !facts.existing.nsw);
        log::debug!(
            "{PASS}: {}: {} loop, increment flags {flags:?} (had {:?})",
            self.name,
            idiom.name(),
            facts.existing
        );
        IvDecision { idiom, flags, check_operands: self.settings.launch_dimension_strides }
    }

    /// Flags for an `add`/`mul` computing an idiom's start or stride (see
    /// [`wrap::prove_operation`]).
    pub fn operation(
        &mut self,
        op: BinOp,
        width: u32,
        a: Bounds,
        b: Bounds,
        existing: Flags,
    ) -> Flags {
        let flags = wrap::prove_operation(op, width, a, b, existing);
        self.counts.operand_flags += u64::from(flags != existing);
        flags
    }

    /// Records the function's counters in the plugin statistics.
    pub fn finish(self) {
        let c = &self.counts;
        let stats = [
            ("special-register ranges attached", c.ranges_attached),
            ("special-register ranges tightened", c.ranges_tightened),
            ("warp-stride loops recognized", c.warp),
            ("block-stride loops recognized", c.block),
            ("grid-stride loops recognized", c.grid),
            ("nuw flags added to increments", c.nuw),
            ("nsw flags added to increments", c.nsw),
            ("start/stride operations given flags", c.operand_flags),
        ];
        for (what, n) in stats.into_iter().filter(|(_, n)| *n > 0) {
            crate::stats::add(PASS, what, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::wrap::{Guard, Pred, Tested};
    use super::*;
    use crate::analysis::gpu::Dim;

    const ON: Settings = Settings { launch_dimension_strides: true };
    const OFF: Settings = Settings { launch_dimension_strides: false };

    fn block_loop(bound: i128) -> (IvFacts, Term, Term) {
        let facts = IvFacts {
            width: 32,
            start: Bounds::unsigned(32, 0, 255),
            step: Bounds::unsigned(32, 1, 256),
            existing: Flags::NONE,
            guards: vec![Guard {
                tested: Tested::Iv,
                pred: Pred::Slt,
                bound: Bounds::signed(32, bound, bound),
            }],
        };
        (facts, Term::Sreg(Sreg::Tid(Dim::X)), Term::Sreg(Sreg::Ntid(Dim::X)))
    }

    #[test]
    fn triples() {
        assert!(applies_to_triple("nvptx64-nvidia-cuda"));
        assert!(applies_to_triple("nvptx-nvidia-cuda"));
        assert!(!applies_to_triple("x86_64-unknown-linux-gnu"));
        assert!(!applies_to_triple(""));
    }

    #[test]
    fn launch_bounds_only_for_kernels() {
        let attrs = ["256", "", ""];
        let tid = Sreg::Tid(Dim::X);
        let mut k = FunctionRun::new("k", PTX_KERNEL_CC, attrs, ON);
        assert_eq!(
            k.sreg_range(tid, 32, Some(Some(Span::new(0, 1024))), false),
            Some(Span::new(0, 256))
        );
        let mut d = FunctionRun::new("d", 0, attrs, ON);
        assert_eq!(d.sreg_range(tid, 32, Some(Some(Span::new(0, 1024))), false), None);
        // Without a range at all, the hardware range is attached.
        assert_eq!(d.sreg_range(tid, 32, None, false), Some(Span::new(0, 1024)));
        assert_eq!(k.counts.ranges_attached, 1);
        assert_eq!(d.counts.ranges_attached, 1);
    }

    #[test]
    fn block_stride_flags_need_the_knob() {
        let (f, start, step) = block_loop(4096);
        let mut on = FunctionRun::new("k", PTX_KERNEL_CC, ["", "", ""], ON);
        let d = on.induction(&f, &start, &step);
        assert_eq!(d.idiom, Idiom::BlockStride);
        assert_eq!(d.flags, Flags { nuw: true, nsw: true });
        assert!(d.check_operands);
        let mut off = FunctionRun::new("k", PTX_KERNEL_CC, ["", "", ""], OFF);
        let d = off.induction(&f, &start, &step);
        assert_eq!(d.idiom, Idiom::BlockStride);
        assert_eq!(d.flags, Flags::NONE);
        assert!(!d.check_operands);
    }

    #[test]
    fn warp_stride_needs_no_knob_and_non_idioms_get_nothing() {
        let (mut f, start, _) = block_loop(4096);
        f.step = Bounds::signed(32, 32, 32);
        let mut off = FunctionRun::new("k", PTX_KERNEL_CC, ["", "", ""], OFF);
        assert_eq!(
            off.induction(&f, &start, &Term::Const(32)).flags,
            Flags { nuw: true, nsw: true }
        );
        // A provable loop that is no GPU idiom is left to upstream.
        let d = off.induction(&f, &Term::Other, &Term::Const(32));
        assert_eq!((d.idiom, d.flags), (Idiom::None, Flags::NONE));
    }

    #[test]
    fn existing_flags_are_kept() {
        let (mut f, start, step) = block_loop(i32::MAX as i128);
        f.existing = Flags { nuw: false, nsw: true };
        let mut on = FunctionRun::new("k", PTX_KERNEL_CC, ["", "", ""], ON);
        assert_eq!(on.induction(&f, &start, &step).flags, Flags { nuw: true, nsw: true });
        assert_eq!((on.counts.nuw, on.counts.nsw), (1, 0));
    }
}
