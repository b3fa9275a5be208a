//! The level tables: cicc 13.5's nvvm-latest pipelines (docs/CICC-FACTS.md "The printed pipelines"),
//! transcribed slot by slot into cicc's pipeline architecture (docs/CICC-FACTS.md "Pipeline architecture"). One line per slot or adaptor,
//! two spaces of indentation per nesting level (the reference's format). After `?` come the
//! slot's conditions (all must hold):
//!   `T1` only at O1, `T2` O2 and O3 (cicc: tier != 1), `T3` only at O3 (cicc: tier == 3),
//!   `knob` / `!knob` a bool knob on / off, `feature-bit-N` bit N of the effective
//!   `nv-feature-flags` (O3 escalates them to 6).
//! Items: an upstream pass in LLVM 22 syntax, a plugin pass (`nv-scev-sources`, the GPU SCEV
//! facts: right after the inliner has exposed the special-register reads of clang's
//! `threadIdx`-style accessors, before the loop passes; not at O0 and Ofcmax, which run no
//! loop optimization and whose llc -O0 runs no LSR; O1-O3 have a second slot right after
//! `reassociate`, off unless `-special-reassociate-for-threadid`; `nv-inline-advisor`, cicc's
//! inline thresholds, right before every `cgscc(inline)`, src/opt/inline_policy; and
//! `nv-local-array-unroll`, cicc's local-array unroll rule, right before the first
//! `loop-unroll` of O2/O3, src/opt/local_array_unroll, followed by `nv-shuffle-loop-unroll`, which
//! keeps loops with run-time-mask warp shuffles rolled, src/opt/shuffle_loop_unroll, and
//! `nv-stride-loop-unroll`, which gives loops stepping by a run-time stride a runtime unroll count,
//! src/opt/stride_loop_unroll), `nv:<slot>`
//! (slots.rs), the adaptors
//! `function`, `cgscc`, `loop`, `loop-mssa`, and `cgscc-iter`, a cgscc adaptor whose contents are wrapped
//! in `devirt<N>` when the level's CGSCC iteration count N is above 1 (docs/CICC-FACTS.md "Pipeline architecture", mechanism 5).
//! Shorthands: `@ic` = instcombine<max-iterations=1;no-verify-fixpoint>; `@scfg:B[:rhs]` =
//! simplifycfg with bonus threshold B and switch-range-to-icmp (r), hoist-common-insts (h),
//! sink-common-insts (s), otherwise cicc's printed parameters (a letter followed by `{knob}`
//! only while that bool knob is on); `$U` = the level's unroll level.
//!
//! Every optimizing level (not O0) starts with `nv:internalize`, nvcc's whole-program mode
//! (src/opt/internalize.rs): cicc internalizes in its LNK stage, before the pipeline it prints, so
//! the slot is not in the reference prints; it must come before the first `globaldce`, the
//! inliner and the interprocedural passes that need internal linkage. `-nv-rdc` turns it off.
//! Right after it every optimizing level runs `nv-asm-convergence` (src/opt/asm_convergence.rs):
//! clang marks every CUDA inline-asm call convergent, cicc's front end does not, and the mark
//! on CUDA's asm conversions (bf16) stops LLVM's runtime unrolling; the pass takes it off asm
//! whose PTX computes in the executing thread only (`-nv-disable-asm-convergence` keeps it).
//! O1-O3 run `nv-fold-const-calls` (src/opt/fold_const_calls: calls with constant arguments folded
//! by interpretation, recursive `constexpr` functions) right before `globalopt`, once every
//! function has been through `mem2reg`/`sroa`/`instcombine` and before `globaldce` (which
//! deletes the callees left without calls), IPSCCP and the inliner.
//!
//! LLVM 22 spellings of parameters printed by cicc's LLVM 23: gvn `scalar-pre` is `pre`;
//! `sroa<aggregate-to-vector>` and `loop-rotate<check-exit-count>` do not exist in 22 and are
//! dropped; NVIDIA's own parameters (`nv:opaque-*`) on upstream passes are dropped (unknown).
//! Ofcmid's `bonus-inst-threshold=8` becomes 7: LLVM 22 reads 8 and 9 as -8 and -7 (its
//! `-print-pipeline-passes` shows the negative value and cannot re-parse it).
//! Additions to cicc's tables: O1 also runs `cgscc(inline)` (`T1 nv-o1-inline`), because
//! upstream `default<O1>` inlines and nvopt must never inline less than upstream at the same
//! level (`-nv-o1-inline=false` gives cicc's O1, always-inline only); and, only with
//! `-nv-o1-local-array-unroll`, nv-local-array-unroll with a loop-unroll that unrolls just the
//! loops it marks (src/opt/local_array_unroll); and `early-cse<memssa>` right after the SROA that
//! follows the inliner (`nv-post-inline-cse`, upstream's SROA -> EarlyCSE order): cicc's table
//! runs instcombine on the freshly inlined code before any CSE, so two inlined copies of one
//! computation (cooperative groups' `thread_rank()`, say) are folded differently before GVN
//! can merge them (`(a + tid) == 0` becomes `(a | tid) == 0` while `a + tid < 32` stays), and
//! both sums stay live: one register more than upstream and nvcc on 80 cuda-samples reduction
//! kernels (`-nv-post-inline-cse=false` gives cicc's table); and `nv-texture-unroll-guard` at
//! the end of O1-O3's function pipeline (src/opt/texture_unroll_guard: `.pragma "nounroll"` on short
//! loops whose full unrolling would let ptxas hoist texture fetches out of the enclosing loop
//! over the register target; `-nv-disable-texture-unroll-guard` gives cicc's table) and
//! `nv-pressure-unroll-guard` after it (src/opt/pressure_unroll_guard: `.pragma "nounroll"` on
//! run-time-trip loops that ptxas would unroll past a register cap;
//! `-nv-disable-pressure-unroll-guard` gives cicc's table). Two switches, off by default, give
//! the `simplifycfg` after `adce` upstream's parameters there: `-nv-hoist-common-insts` hoists
//! and `-nv-sink-common-insts` sinks code common to both arms of a branch (cicc's does neither;
//! docs/DEPARTURES.md has their figures).
//! And `nv-phi-load-spaces` right before O1-O3's first instcombine (src/opt/phi_load_spaces.rs;
//! cicc's first MemorySpaceOpt comes after that instcombine): the instcombine folds the loads of
//! a branch's two arms into one load through a PHI of their pointers, and a `__shared__` arm
//! still reached through a generic cast then meets a global one in a generic pointer, a generic
//! `ld` where nvcc keeps `ld.shared` and `ld.global`; the pass gives such loads their known space
//! first (`-nv-disable-phi-load-spaces` gives cicc's table).
//! One removal: O1-O3's `load-store-vectorizer` runs only with `-nv-opt-load-store-vectorizer`:
//! llc -O1..-O3 runs LLVM's NVPTX GPU Load and Store Vectorizer itself, after its own
//! infer-address-spaces, so the opt-side run (cicc's table) changed one SASS instruction on the
//! bench while costing a fifth of nvopt's opt time there (the pathological IV kernel) and, by
//! vectorizing shared loads early, two to five registers on cuda-samples' bisect kernels. The
//! fast-compile levels keep theirs (their llc runs at -O0, without the vectorizer).

/// Always-added analyses (docs/CICC-FACTS.md "Pipeline architecture": always-added analyses): TargetLibraryInfo,
/// TargetTransformInfo, BasicAA, AssumptionCache, ProfileSummaryInfo.
pub const ANALYSES: &str = "\
require<profile-summary>
function
  require<target-lib-info>
  require<target-ir>
  require<basic-aa>
  require<assumptions>
";

/// Tier 0 base pipeline with the Tier 1/2/3 slots of O1, O2 and O3 (nvopt-O{1,2,3}.txt).
pub const O123: &str = "\
nv:internalize
nv-asm-convergence
forceattrs
annotation2metadata
nv:printf-lowering
globaldce
function
  nvvm-intr-range
  lower-expect
  nv:process-restrict
  mem2reg
  @scfg:1
cgscc
  function-attrs
function
  nv-phi-load-spaces ? memory-space-opt
  @ic
nv:pretreat
generic-to-nvvm
nv:inline-must
always-inline ? T1
nv:early-inliner ? T2
globaldce
function
  nv:merge-sets
function
  nv:process-restrict
  sroa<modify-cfg>
  nv:process-restrict
  alignment-from-assumptions
  nv:memory-space-opt
  @ic
  @scfg:1
nv-fold-const-calls
globalopt
globaldce
ipsccp
deadargelim
function
  @ic
  @scfg:1
cgscc
  function-attrs
function
  gvn<no-pre;no-memdep> ? T2
  @scfg:1 ? T2
  @ic ? T2
nv:lower-ops
nvvm-reflect
function
  nv:unknown-c0b98e
globaldce
nv-inline-advisor ? T2
nv-inline-advisor ? T1 nv-o1-inline
cgscc-iter
  inline ? T2
  inline ? T1 nv-o1-inline
cgscc
  argpromotion ? T3
function
  nv-scev-sources
  correlated-propagation
  @scfg:1
  sroa<modify-cfg>
  nv:process-restrict
  early-cse<memssa> ? nv-post-inline-cse
  nv:branch-dist
  @ic
  tailcallelim
  @scfg:1
  reassociate
  nv-scev-sources ? special-reassociate-for-threadid
  loop
    loop-rotate<header-duplication;no-prepare-for-lto>
  loop
    nv:loop-index-split
  @ic
  @scfg:1
  loop-mssa
    licm<allowspeculation>
  nv:memory-space-opt
  @ic
  loop
    simple-loop-unswitch<nontrivial;trivial>
  @ic
  loop
    indvars
    loop-idiom
    loop-deletion
  nv-local-array-unroll ? T1 nv-o1-local-array-unroll
  loop-unroll<no-partial;no-peeling;no-runtime;no-upperbound;full-unroll-max=0;O1> ? T1 nv-o1-local-array-unroll
  nv-local-array-unroll ? T2
  nv-shuffle-loop-unroll ? T2
  nv-stride-loop-unroll ? T2
  loop-unroll<$U> ? T2
  @ic
  loop-unroll<no-partial;no-peeling;no-runtime;$U> ? T2
  @scfg:1
  memcpyopt
  sroa<modify-cfg>
  nv:process-restrict
  @ic
  gvn<no-pre>
  loop-mssa
    licm<allowspeculation>
  sccp
  loop
    loop-deletion
  lower-constant-intrinsics
  @ic
  correlated-propagation
  dse
  adce
  @scfg:1:h{nv-hoist-common-insts}s{nv-sink-common-insts}
  sroa<modify-cfg>
  nv:process-restrict
  nv:lower-struct-args
  nv:propagate-alignment
  nv:lower-aggr-copies
  sroa<modify-cfg>
  @ic
  nv:sink2
  nv:memory-space-opt
  @ic
nv:ipmsp
strip-dead-prototypes
globaldce ? T3
constmerge ? T2
function
  nv:dbe ? feature-bit-1
constmerge ? T2
nv:set-global-array-alignment
function
  nv:reuse-local-memory
  nv:set-local-array-alignment
  nv:propagate-alignment
  loop-vectorize<interleave-forced-only;no-vectorize-forced-only> ? T1 nv-loop-vectorize
  loop-vectorize<no-interleave-forced-only;no-vectorize-forced-only> ? T2 nv-loop-vectorize
  slp-vectorizer ? T2 nv-loop-vectorize
  @ic
  infer-alignment
  load-store-vectorizer ? nv-opt-load-store-vectorizer
  @ic
  @scfg:1:r
  nv-texture-unroll-guard
  nv-pressure-unroll-guard
";

/// nvopt<O0> (nvopt-O0.txt).
pub const O0: &str = "\
forceattrs
annotation2metadata
nv:printf-lowering
nv:lower-ops
function
  nv:lower-struct-args
nv:pretreat
generic-to-nvvm
nv:inline-must
always-inline
globaldce
function
  mem2reg
  lower-constant-intrinsics
";

/// nvopt<Ofcmax> (nvopt-Ofcmax.txt): no inliner, no SROA, no loop passes.
pub const OFCMAX: &str = "\
nv:internalize
nv-asm-convergence
annotation2metadata
nv:printf-lowering
nv:lower-ops
function
  nv:lower-struct-args
nv:pretreat
generic-to-nvvm
globaldce
function
  @scfg:1
  mem2reg
  lower-constant-intrinsics
  @ic
  adce
  @scfg:1
strip-dead-prototypes
";

/// nvopt<Ofcmid> (nvopt-Ofcmid.txt).
pub const OFCMID: &str = "\
nv:internalize
nv-asm-convergence
annotation2metadata
nv:printf-lowering
cgscc
  function-attrs
  function
    nv:process-restrict
    mem2reg
    loop-mssa
      loop-simplifycfg
nv:pretreat
generic-to-nvvm
function
  @ic
  loop
    loop-rotate<header-duplication;no-prepare-for-lto>
  @ic
nv:inline-must
function
  sroa<modify-cfg>
  gvn<no-pre;no-load-pre;no-memdep>
always-inline
function
  nv-scev-sources
  @scfg:5:r
  nv:process-restrict
  early-cse<>
constmerge
function
  adce
  @ic
cgscc
  function-attrs
  function
    loop-mssa
      licm<no-allowspeculation>
function
  nv:memory-space-opt
  nv:lower-struct-args
  load-store-vectorizer
  @scfg:7:rhs
globaldce
nv:ipmsp
function
  tailcallelim
  early-cse<>
cgscc
  argpromotion
  function
    early-cse<>
    @ic
function
  correlated-propagation
nv-inline-advisor
cgscc-iter
  inline
  function
    @ic
function
  gvn<no-pre;no-load-pre>
  dse
  @ic
  nv:set-local-array-alignment
  sroa<modify-cfg>
nv:lower-ops
globaldce
function
  @scfg:7:rhs
  nv:process-restrict
globalopt
function
  lower-constant-intrinsics
  @ic
  loop-mssa
    licm<allowspeculation>
  @ic
  nv:process-restrict
  nv:propagate-alignment
  loop-vectorize<interleave-forced-only;no-vectorize-forced-only> ? nv-loop-vectorize
  sccp
";

/// nvopt<Ofcmin> (nvopt-Ofcmin.txt).
pub const OFCMIN: &str = "\
nv:internalize
nv-asm-convergence
annotation2metadata
nv:printf-lowering
function
  @scfg:4:r
globaldce
function
  @ic
  nv:process-restrict
globaldce
nv:pretreat
generic-to-nvvm
function
  tailcallelim
  @ic
  @scfg:5:rh
  @ic
globalopt
function
  mem2reg
cgscc
  function-attrs
  function
    sccp
  argpromotion
nv:inline-must
deadargelim
function
  adce
cgscc
  function-attrs
function
  early-cse<>
  correlated-propagation
  @scfg:1:r
  loop-load-elim
  loop
    indvars
globaldce
function
  @ic
  @scfg:7:r
nv:lower-ops
function
  sroa<modify-cfg>
always-inline
function
  nv-scev-sources
  @ic
nv-inline-advisor
cgscc-iter
  inline
  function
    @ic
    speculative-execution<only-if-divergent-target>
    loop-mssa
      loop-rotate<header-duplication;no-prepare-for-lto>
      licm<allowspeculation>
    gvn<>
    loop-unroll<no-partial;no-peeling;no-runtime;O3>
function
  sroa<modify-cfg>
  nv:memory-space-opt
  nv:lower-struct-args
  infer-alignment
  load-store-vectorizer
strip-dead-prototypes
function
  @ic
  early-cse<>
  @ic
  nv:set-local-array-alignment
  @scfg:2:rh
  sroa<modify-cfg>
ipsccp
function
  lower-constant-intrinsics
  @ic
  @scfg:4:rs
";

/// Common tail of every level (docs/CICC-FACTS.md "Pipeline architecture": common tail; the real prints end
/// with cnp-launch-check and verify). The tail MemorySpaceOpt is guarded by opts[3488].
pub const TAIL: &str = "\
function
  nv:memory-space-opt ? nv-barrier-analysis
nv:cnp-launch-check
verify
";
