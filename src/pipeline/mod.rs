//! `nvopt<LEVEL>`: the module pipelines of NVIDIA cicc's optimizer, one per cicc level
//! (`O0`, `O1`, `O2`, `O3`, `Ofcmax`, `Ofcmid`, `Ofcmin`). This module builds the textual
//! module pipeline of a level from the level tables (levels.rs) and the current knobs, for
//! LLVM's PassBuilder to parse (src/pipeline/passbuilder.cpp registers the element), so
//! `opt -print-pipeline-passes` shows exactly what runs.
//!
//! Sources: the architecture is the book page "Optimization Levels" (docs/SOURCES.md, source
//! 001; docs/CICC-FACTS.md "Pipeline architecture"), a chapter of a cicc v13.0
//! reverse-engineering book: always-added analyses, a Tier 0 base pipeline for
//! O1-O3 with Tier 1/2/3 additions by level, separate fast-compile pipelines, a common tail, a
//! minimal O0, and pass guards read from cicc's NVVMPassOptions struct. Pass identities and
//! order are those NVIDIA's cicc 13.5 prints for its nvvm-latest optimizer (LLVM 23, the one
//! that registers `nvopt<...>`; `cicc -nvvm-version=nvvm-latest ... --Xopt
//! -print-pipeline-passes`), because docs/CICC-FACTS.md "Pipeline identity corrections" found the book's pass names unreliable
//! (many of its factory addresses name the wrong pass).
//!
//! Every level: the always-added analyses (`require<profile-summary>`, TLI, TTI, BasicAA,
//! AssumptionCache), then the level, then the common tail (a MemorySpaceOpt slot guarded by
//! `nv-barrier-analysis`, cnp-launch-check, `verify`).
//!
//! - **O1/O2/O3** share one table (Tier 0 with Tier 1/2/3 slots). The O-level differences:
//!   slots tagged `T2` run only at O2/O3 (cicc's `tier!=1`: the early gvn/simplifycfg/
//!   instcombine block, `cgscc(inline)`, the two `loop-unroll`s, two `constmerge`s; O1 runs
//!   `always-inline` in the early-inliner slot instead, and, unlike cicc's O1, also
//!   `cgscc(inline)` unless `-nv-o1-inline=false`, so that it never inlines less than upstream
//!   `default<O1>`), `T3` only at O3 (`argpromotion`, one
//!   more `globaldce`); all three also run `early-cse<memssa>` after the SROA that follows the
//!   inliner (not in cicc's table; `-nv-post-inline-cse=false` drops it, levels.rs says why); O3 escalates `nv-feature-flags` to 6, whose bit 1 enables the
//!   dead-barrier-elimination slot; vectorizer parameters (`nv-loop-vectorize`: O1
//!   `loop-vectorize<interleave-forced-only>`, O2+ full loop-vectorize and slp-vectorizer;
//!   cicc 13.5 runs neither, so off by default); the unroller runs at `O2`/`O3` thresholds;
//!   CGSCC iterations (`nv-cgscc-iterations`, by level).
//! - **Ofcmax**: no inliner, no SROA, no loop passes; forces `lsa-opt=0` and
//!   `memory-space-opt=0`. As in cicc, `__forceinline__` functions stay calls. With clang's
//!   CUDA front end this also keeps its `threadIdx.x`-style accessor functions as calls
//!   (cicc's front end emits the special-register reads directly), so Ofcmax PTX from clang
//!   input is larger than cicc's.
//! - **Ofcmid**: late `cgscc(devirt<5>(inline, ...))` (5 CGSCC iterations), no unrolling.
//! - **Ofcmin**: late inliner with full unrolling only, `gvn<>` with PRE.
//! - **O0**: always-inline, mem2reg, lower-constant-intrinsics and the NVVM lowering slots.
//!
//! nvopt's own optimizer passes: `nv-fold-const-calls` (src/opt/fold_const_calls) at O1-O3 right
//! before `globalopt`, replacing calls with constant arguments by the value the callee returns;
//! `nv-scev-sources` (src/analysis/scev_sources) runs right after the
//! inliner at O1-O3, Ofcmid and Ofcmin; `nv-inline-advisor` (src/opt/inline_policy) right before
//! every `cgscc(inline)`, giving it cicc 13.5's inline thresholds; `nv-local-array-unroll`
//! (src/opt/local_array_unroll) right before the first `loop-unroll` of O2/O3, cicc's rule that
//! fully unrolls loops whose unrolling lets SROA put a private array into registers;
//! `nv-set-global-array-alignment` and `nv-set-local-array-alignment` (src/opt/array_alignment) in
//! cicc's `nv:set-global-array-alignment` (O1-O3) and `nv:set-local-array-alignment` (O1-O3,
//! Ofcmid, Ofcmin) slots, aligning statically sized shared and private arrays for vector ld/st;
//! `nv-texture-unroll-guard` (src/opt/texture_unroll_guard) at the end of the function pipeline of
//! O1-O3 (not in cicc's table), keeping ptxas from unrolling short loops whose unrolled texture
//! fetches it would hoist out of the enclosing loop, over the register target, and
//! `nv-pressure-unroll-guard` (src/opt/pressure_unroll_guard) after it, keeping ptxas from unrolling
//! run-time-trip loops past a register cap.
//! cicc runs its O0 code generator at every fast-compile
//! level; that is llc's business (nvopt-cc and `-nv-pipeline` pick `llc -O0` there).
//!
//! Example (`opt -load-pass-plugin=libnvopt.so -passes='nvopt<O0>' -print-pipeline-passes`,
//! NVPTX module):
//!
//! ```text
//! require<profile-summary>,function(require<target-lib-info>,require<target-ir>,
//!   require<basic-aa>,require<assumptions>),forceattrs,annotation2metadata,
//!   function(nv-lower-struct-args),generic-to-nvvm,always-inline,globaldce,
//!   function(mem2reg,lower-constant-intrinsics),verify
//! ```
//!
//! NVIDIA-only slots: where cicc runs one of its own passes, the level tables keep a slot
//! `nv:<name>`; [`slots`] says what runs there (the upstream LLVM 22 pass that does that job,
//! e.g. `infer-address-spaces` for MemorySpaceOpt, or nothing) and why; docs/SLOTS.md is the
//! generated table, and `-nv-print-pipeline-slots` (report.rs) prints every slot of a level
//! with its conditions and what runs in it or why nothing does.
//!
//! Where LLVM 22 differs from the LLVM 23 that cicc 13.5's prints come from (levels.rs):
//! `gvn<scalar-pre>` is spelled `pre`; `sroa<aggregate-to-vector>` and
//! `loop-rotate<check-exit-count>` do not exist and are dropped; NVIDIA's own parameters on
//! upstream passes (`nv:opaque-*`) are unknown and dropped; Ofcmid's
//! `simplifycfg<bonus-inst-threshold=8>` becomes 7 because LLVM 22 reads 8 and 9 as -8 and -7.
//! How close the result is (every upstream pass of cicc's sequence present, in order; LCS
//! similarity per level, `python3 -m nvopt_tools.fidelity`): docs/RESULTS.md.
//!
//! Knobs (docs/KNOBS.md): one `nv-disable-<pass>` guard per upstream pass kind (after the
//! NVVMPassOptions disable flags of cicc (docs/CICC-FACTS.md "Pipeline architecture"); `opts[N]` in their help is the byte offset of the
//! guarding field in cicc's struct), `nv-cgscc-iterations`, `nv-feature-flags`,
//! `memory-space-opt`, `lsa-opt`, `do-ip-msp`, `nv-barrier-analysis`, `nv-loop-vectorize`,
//! `nv-disable-scev-sources`, `special-reassociate-for-threadid`, `nv-print-pipeline-slots`,
//! `nv-o1-inline`, `nv-post-inline-cse`, `nv-disable-inline-advisor`, `nv-disable-local-array-unroll`,
//! `nv-o1-local-array-unroll`, `nv-disable-set-local-array-alignment`,
//! `nv-disable-set-global-array-alignment`, `nv-disable-fold-const-calls`,
//! `nv-disable-texture-unroll-guard`, `nv-disable-pressure-unroll-guard`.
//! Where the book's default disagrees with what cicc 13.5 runs (CorrelatedValuePropagation, the
//! vectorizers), the default follows cicc 13.5.
//!
//! What it refuses: an element that is not a level fails with the valid levels
//! (`nvopt<O4>`: "'O4' is not a level; valid levels are O0, O1, O2, O3, Ofcmax, Ofcmid,
//! Ofcmin"); a bare `nvopt` asks for a level. A module without an NVPTX triple still runs
//! every level, with the NVPTX-only passes (`generic-to-nvvm`,
//! `nvvm-reflect`, ...) skipped, since LLVM 22 registers them only for NVPTX; stderr says so
//! once.
mod exports;
mod levels;
pub mod llvm_options;
mod report;
pub mod slots;
mod table;

use crate::knobs::{Knobs, K};
pub use table::{Node, Slot, Status};

/// One of cicc's optimization levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    O0,
    O1,
    O2,
    O3,
    Ofcmax,
    Ofcmid,
    Ofcmin,
}

pub const LEVEL_NAMES: &str = "O0, O1, O2, O3, Ofcmax, Ofcmid, Ofcmin";

impl Level {
    pub const ALL: [Level; 7] =
        [Level::O0, Level::O1, Level::O2, Level::O3, Level::Ofcmax, Level::Ofcmid, Level::Ofcmin];

    pub fn name(self) -> &'static str {
        match self {
            Level::O0 => "O0",
            Level::O1 => "O1",
            Level::O2 => "O2",
            Level::O3 => "O3",
            Level::Ofcmax => "Ofcmax",
            Level::Ofcmid => "Ofcmid",
            Level::Ofcmin => "Ofcmin",
        }
    }

    /// The tier sub-pipelines that fire (docs/CICC-FACTS.md "Pipeline architecture": O1 T1, O2 T1+T2, O3 T1+T2+T3), or 0.
    pub fn tier(self) -> u8 {
        match self {
            Level::O1 => 1,
            Level::O2 => 2,
            Level::O3 => 3,
            _ => 0,
        }
    }

    fn table(self) -> &'static str {
        match self {
            Level::O0 => levels::O0,
            Level::O1 | Level::O2 | Level::O3 => levels::O123,
            Level::Ofcmax => levels::OFCMAX,
            Level::Ofcmid => levels::OFCMID,
            Level::Ofcmin => levels::OFCMIN,
        }
    }

    /// CGSCC iterations when the knob says "by level" (docs/CICC-FACTS.md "Pipeline architecture", mechanism 5).
    fn default_cgscc_iterations(self) -> i64 {
        if self == Level::Ofcmid {
            5
        } else {
            1
        }
    }
}

/// Parses the pipeline element `nvopt<LEVEL>`. `Ok(None)`: not an nvopt element at all.
pub fn parse_element(element: &str) -> Result<Option<Level>, String> {
    let Some(rest) = element.strip_prefix("nvopt") else { return Ok(None) };
    if !rest.is_empty() && !rest.starts_with('<') {
        return Ok(None);
    }
    let params = rest.strip_prefix('<').and_then(|r| r.strip_suffix('>')).ok_or_else(|| {
        format!("'{element}' needs a level: nvopt<LEVEL> with LEVEL one of {LEVEL_NAMES}")
    })?;
    Level::ALL
        .into_iter()
        .find(|l| l.name() == params)
        .map(Some)
        .ok_or_else(|| {
            let what = if params.is_empty() { "an empty level".to_string() } else { format!("'{params}'") };
            format!("invalid pipeline element '{element}': {what} is not a level; valid levels are {LEVEL_NAMES}")
        })
}

/// What the builder decided, for the pipeline text, the slot report and the statistics.
#[derive(Debug, Default)]
pub struct Built {
    pub text: String,
    pub slots: Vec<Slot>,
}

impl Built {
    pub fn count(&self, pred: impl Fn(&Slot) -> bool) -> usize {
        self.slots.iter().filter(|s| pred(s)).count()
    }
}

/// Context the tables are evaluated in.
#[derive(Debug)]
pub struct Context {
    pub level: Level,
    pub knobs: Knobs,
    pub has_nvptx: bool,
    pub feature_flags: i64,
    pub cgscc_iterations: i64,
}

impl Context {
    /// Resolves level-dependent knobs: Ofcmax forces `lsa-opt=0` and `memory-space-opt=0`
    /// (docs/CICC-FACTS.md "Pipeline architecture"), O3 escalates the feature flags to 6 (mechanism 3).
    pub fn new(level: Level, mut knobs: Knobs, has_nvptx: bool) -> Self {
        if level == Level::Ofcmax {
            knobs.set(K::lsa_opt, 0);
            knobs.set(K::memory_space_opt, 0);
        }
        let feature_flags = match knobs.nv_feature_flags() {
            -1 if level == Level::O3 => 6,
            -1 => 0,
            f => f,
        };
        let cgscc_iterations = match knobs.nv_cgscc_iterations() {
            0 => level.default_cgscc_iterations(),
            n => n,
        };
        Context { level, knobs, has_nvptx, feature_flags, cgscc_iterations }
    }
}

/// Builds the level's pipeline: analyses, the level's table, the common tail.
pub fn build(ctx: &Context) -> Result<Built, String> {
    let mut built = Built::default();
    let mut parts = Vec::new();
    for src in [levels::ANALYSES, ctx.level.table(), levels::TAIL] {
        let nodes = table::parse(src)?;
        let text = table::emit(&nodes, ctx, &mut built.slots);
        if !text.is_empty() {
            parts.push(text);
        }
    }
    built.text = parts.join(",");
    Ok(built)
}

/// The plugin's entry for one pipeline element: `Ok(None)` when it is not `nvopt<...>`.
/// `has_nvptx` asks LLVM whether the NVPTX-only passes exist. Reads the knobs, warns once
/// when NVPTX-only slots are skipped, prints the slot report when asked, and counts slots in
/// the statistics.
pub fn build_element(
    element: &str,
    has_nvptx: impl FnOnce() -> bool,
) -> Result<Option<String>, String> {
    let Some(level) = parse_element(element)? else { return Ok(None) };
    let has_nvptx = has_nvptx();
    let knobs = Knobs::current();
    // The PassBuilder asks twice for the same element (once to classify it, once for real):
    // the second time takes the text the first built, when the knobs still read the same.
    if let Some(text) = remembered(element, &knobs, has_nvptx) {
        return Ok(Some(text));
    }
    let ctx = Context::new(level, knobs.clone(), has_nvptx);
    let built = build(&ctx)?;
    let options_set = llvm_options::apply(level, &ctx.knobs);
    // The PassBuilder parses an element twice (once to classify it, once for real): report once.
    if first_time(element) {
        if !has_nvptx {
            warn_no_nvptx_once();
        }
        if ctx.knobs.nv_print_pipeline_slots() {
            eprint!("{}", report::slot_report(&ctx, &built));
        }
        record_stats(level, &built, options_set);
        log::info!("nvopt<{}>: {}", level.name(), built.text);
    }
    remember(element, knobs, has_nvptx, &built.text);
    Ok(Some(built.text))
}

/// The last element built: its text, and the knobs and NVPTX availability it was built under.
type Remembered = Option<(String, Knobs, bool, String)>;
static LAST_BUILT: std::sync::Mutex<Remembered> = std::sync::Mutex::new(None);

fn remembered(element: &str, knobs: &Knobs, has_nvptx: bool) -> Option<String> {
    let last = LAST_BUILT.lock().unwrap_or_else(|e| e.into_inner());
    match &*last {
        Some((e, k, n, text)) if e == element && k == knobs && *n == has_nvptx => {
            Some(text.clone())
        }
        _ => None,
    }
}

fn remember(element: &str, knobs: Knobs, has_nvptx: bool, text: &str) {
    let mut last = LAST_BUILT.lock().unwrap_or_else(|e| e.into_inner());
    *last = Some((element.to_string(), knobs, has_nvptx, text.to_string()));
}

fn first_time(element: &str) -> bool {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let new = !seen.iter().any(|s| s == element);
    if new {
        seen.push(element.to_string());
    }
    new
}

fn warn_no_nvptx_once() {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "nvopt: warning: no NVPTX target for this module: skipping the NVPTX-only slots ({})",
            slots::NVPTX_ONLY.join(", ")
        )
    });
}

fn record_stats(level: Level, built: &Built, options_set: usize) {
    let pass = format!("nvopt<{}>", level.name());
    let stat = |what: &'static str, n: usize| crate::stats::add(&pass, what, n as u64);
    crate::stats::add_nonzero(&pass, "LLVM options set", options_set as u64);
    stat("pipelines built", 1);
    stat("slots that run a pass", built.count(|s| s.status == Status::Runs));
    stat(
        "slots switched off by a condition or knob",
        built.count(|s| matches!(s.status, Status::Off(_))),
    );
    stat("NVIDIA-only slots with no upstream pass", built.count(|s| s.status == Status::Empty));
    stat(
        "NVPTX-only slots skipped (no NVPTX target)",
        built.count(|s| s.status == Status::NoNvptx),
    );
}

#[cfg(test)]
mod tests;
