//! The one table of nvopt's knobs: name, type, default, accepted range, help and what each
//! guards. The C++ shim registers every entry as an LLVM `cl::opt` (so `opt`, `llc` and
//! `clang -mllvm` accept `-<name>=<v>` and `--help-hidden` lists them); Rust code reads values
//! through [`Knobs`]. Guard knobs follow cicc's NVVMPassOptions (docs/CICC-FACTS.md "Pipeline architecture"):
//! where cicc has a public name (`memory-space-opt`, `lsa-opt`, `do-ip-msp`) it is used,
//! otherwise an `nv-` prefix avoids LLVM's own option names (a duplicate aborts LLVM at load).

/// Type, default and accepted range of a knob.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Bool(bool),
    Int { default: i32, min: i32, max: i32 },
}

/// One knob definition.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    /// What the knob switches (documentation for the table in docs/KNOBS.md and `--help`).
    pub guards: &'static str,
}

const fn flag(name: &'static str, default: bool, help: &'static str, guards: &'static str) -> Knob {
    Knob { name, kind: Kind::Bool(default), help, guards }
}

const fn int(
    name: &'static str,
    default: i32,
    min: i32,
    max: i32,
    help: &'static str,
    guards: &'static str,
) -> Knob {
    Knob { name, kind: Kind::Int { default, min, max }, help, guards }
}

/// Declares the knob table: each entry `ident: flag(...)` or `ident: int(...)` becomes one
/// [`Knob`] of [`KNOBS`], one [`K`] id, and one typed accessor on [`Knobs`] (`bool` for a
/// flag, `i64` for an int), so a misspelt knob is a compile error.
macro_rules! knob_table {
    ($($(#[$doc:meta])* $id:ident : $ctor:ident($($arg:expr),* $(,)?)),* $(,)?) => {
        /// Every knob of the plugin. Order is the order of `--help` and of the knob table.
        pub static KNOBS: &[Knob] = &[$($ctor($($arg),*)),*];

        /// A knob's id: its index in [`KNOBS`].
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum K {
            $($id),*
        }

        #[allow(non_snake_case)]
        impl Knobs {
            $(
                #[doc = concat!("The value of `-", stringify!($id), "` (dashes for underscores).")]
                pub fn $id(&self) -> knob_type!($ctor) {
                    knob_value!($ctor, self.values[K::$id as usize])
                }
            )*
        }
    };
}

macro_rules! knob_type {
    (flag) => {
        bool
    };
    (int) => {
        i64
    };
}

macro_rules! knob_value {
    (flag, $v:expr) => {
        $v != 0
    };
    (int, $v:expr) => {
        $v
    };
}

knob_table! {
    // --- plugin infrastructure ---
    nv_stats: flag("nv-stats", false, "Print per-pass counters of what nvopt's passes did, at exit", "statistics output"),
    nv_log_level: int("nv-log-level", 0, 0, 5, "nvopt log level on stderr: 0 off, 1 error, 2 warn, 3 info, 4 debug, 5 trace", "logging"),
    nv_print_pipeline_slots: flag("nv-print-pipeline-slots", false, "Print each nvopt pipeline slot, its guard and what runs in it, when the pipeline is built", "slot report"),
    // --- pipeline-wide (docs/CICC-FACTS.md "Pipeline architecture") ---
    nv_cgscc_iterations: int("nv-cgscc-iterations", 0, 0, 16, "CGSCC devirtualization iterations around the inliner (0 = by level: 1 at O1-O3, 5 at Ofcmid)", "cgscc(devirt<N>(...)) around inline"),
    nv_feature_flags: int("nv-feature-flags", -1, -1, 7, "cicc feature flags (qword_4FBB370); -1 = by level (O3 escalates to 6); bit 1 = barrier optimization, bit 2 = memory-space extensions (no consumer yet)", "dead-barrier-elimination slot (bit 1)"),
    memory_space_opt: flag("memory-space-opt", true, "Run the MemorySpaceOpt slots (infer-address-spaces); forced off at Ofcmax", "nv:MemorySpaceOpt slots"),
    lsa_opt: flag("lsa-opt", true, "Run the local-memory (LSA) slots; forced off at Ofcmax", "nv:reuse-local-memory, nv:set-local-array-alignment slots"),
    do_ip_msp: flag("do-ip-msp", true, "Run the inter-procedural memory-space propagation slot (nv-ipmsp, src/opt/ipmsp; off, the pass run by name does nothing too)", "nv:ipmsp slot, nv-ipmsp"),
    nv_ipmsp_max_clones: int("nv-ipmsp-max-clones", 4, 0, 1_000_000, "nv-ipmsp: clones made from one internal function whose call sites pass pointers of different spaces (0: no cloning, such parameters stay generic)", "nv-ipmsp cloning"),
    nv_barrier_analysis: flag("nv-barrier-analysis", false, "NVVMBarrierAnalysis enable (opts[3488]): adds the common-tail MemorySpaceOpt slot", "common-tail infer-address-spaces"),
    nv_rdc: flag("nv-rdc", false, "Relocatable device code (nvcc -rdc=true; nvopt-cc -rdc=true sets it): keep every function's linkage. Off: whole-program mode, nvcc's default: at O1 and above nv-internalize makes non-kernel device functions internal and deletes unreferenced weak/linkonce device data the host cannot name", "nv:internalize slot and nv-internalize (both off when set)"),
    nv_loop_vectorize: flag("nv-loop-vectorize", false, "Run the LoopVectorize/SLP slots of cicc's pipeline architecture (cicc 13.5 runs none: off by default)", "loop-vectorize, slp-vectorizer slots"),
    // --- nv-scev: cicc's getSCEV gating (docs/CICC-FACTS.md "getSCEV gating (simple mode)") ---
    scalar_evolution_complexity_control: flag("scalar-evolution-complexity-control", true, "nv-scev simple mode: gate each getSCEV by failure count and expression size (off: the recursion budget, which kernels bypass)", "nv-scev mode"),
    scalar_evolution_max_expr_size: int("scalar-evolution-max-expr-size", 384, 1, i32::MAX, "nv-scev: expression-size score above which a value is SCEVUnknown (one failure more)", "nv-scev size gate"),
    scalar_evolution_max_expr_failures: int("scalar-evolution-max-expr-failures", 100, 0, i32::MAX, "nv-scev: failures after which every new value of the function is SCEVUnknown", "nv-scev failure gate"),
    scalar_evolution_max_add_items: int("scalar-evolution-max-add-items", 500, 1, i32::MAX, "nv-scev: add expressions with more operands are SCEVUnknown", "nv-scev add-size gate"),
    scalar_evolution_max_recursion_depth: int("scalar-evolution-max-recursion-depth", 100, 0, i32::MAX, "nv-scev normal mode: uncached getSCEV queries per function (per gated query in simple mode) before values become SCEVUnknown; kernels bypass it", "nv-scev recursion budget"),
    nv_scev_complexity_config: int("nv-scev-complexity-config", 0, 0, 3, "nv-scev scorer configuration bits (cicc's SE+1572): bit 0 scales each instruction's score by 3/2, bit 1 adds twice its loop depth", "nv-scev scorer"),
    // --- nv-coalesce: NVPTX copy coalescer after llc's RegisterCoalescer (docs/CICC-FACTS.md "Register coalescing") ---
    nv_disable_coalesce: flag("nv-disable-coalesce", false, "Do not run nv-coalesce (inserted after llc's RegisterCoalescer for NVPTX at -O1..-O3)", "nv-coalesce"),
    nv_coalesce_copy_limit: int("nv-coalesce-copy-limit", 20000, 0, i32::MAX, "nv-coalesce: candidate copies considered per function, in program order (cicc's copy_limit)", "nv-coalesce candidates"),
    nv_coalesce_limit: int("nv-coalesce-limit", 10000, 0, i32::MAX, "nv-coalesce: copies removed (merged or rematerialized) per function before it stops (cicc's coalesce_limit)", "nv-coalesce rewrites"),
    nv_coalesce_freq_bias: flag("nv-coalesce-freq-bias", false, "nv-coalesce: scale each copy's priority by its block frequency (hot copies first among equal register numbers)", "nv-coalesce order"),
    nv_coalesce_remat: flag("nv-coalesce-remat", true, "nv-coalesce: rewrite a copy that still interferes, and whose source value is an immediate move, into that move", "nv-coalesce rematerialization"),
    // --- codegenpreparescev: BASR, CBE, SCEV-CGP in llc after CodeGenPrepare (docs/CICC-FACTS.md "Address optimization") ---
    do_base_address_strength_reduce: int("do-base-address-strength-reduce", 4, 0, 9, "BASR level (0 off): groups of one loop whose bases differ by a cheap invariant share one base; above 3 the shared base is a loop-carried pointer PHI", "BASR in codegenpreparescev"),
    do_base_address_strength_reduce_chain: int("do-base-address-strength-reduce-chain", 1, 0, 1, "BASR: a base may join a shared base through any base already sharing it (0: only through the leader)", "BASR chains"),
    base_address_strength_reduce_iv_limit: int("base-address-strength-reduce-iv-limit", 128, 0, 100_000, "BASR: shared bases (new IVs) per loop", "BASR candidates"),
    base_address_strength_reduce_max_iv: int("base-address-strength-reduce-max-iv", 35, 0, 100_000, "BASR: when loop-header PHIs reach this, differences of more than 8 SCEV nodes are not shared", "BASR cost rule"),
    scev_cgp_idom_level_limit: int("scev-cgp-idom-level-limit", 3, 0, i32::MAX, "BASR: the most immediate dominators between an access and the loop header its shared base is placed in (a base with deeper accesses is not shared)", "BASR placement"),
    do_scev_cgp: int("do-scev-cgp", 2, 0, 9, "Common Base Elimination level (0 off; also switches SCEV-CGP off): accesses off one base become anchor + constant", "CBE in codegenpreparescev"),
    do_function_scev_cgp: int("do-function-scev-cgp", 2, 0, 9, "CBE at function level first (an anchor dominating the whole group) before per block (0: per block only)", "CBE function level"),
    scev_cgp_control: int("scev-cgp-control", -1, -1, i32::MAX, "CBE: rewrites per function (-1: no limit)", "CBE rewrites"),
    scev_cgp_cross_block_limit: int("scev-cgp-cross-block-limit", 8, 0, i32::MAX, "CBE: groups anchored in one block that may serve accesses in other blocks", "CBE function level"),
    scev_cgp_old_base: int("scev-cgp-old-base", 2, 0, 2, "CBE: reuse an existing pointer value of the same base as anchor (0 never, 1 when no access dominates the group, 2 preferred)", "CBE anchors"),
    scev_cgp_norm: int("scev-cgp-norm", 2, 0, 2, "BASR: rebase a shared base on the smallest offset of its accesses (0 never, 1 always, 2 when an offset is negative)", "BASR base normalization"),
    scev_cgp_inst_limit: int("scev-cgp-inst-limit", 500, 1, i32::MAX, "Address records: SCEV nodes of one pointer expression beyond which it gets no record", "address records"),
    nv_disable_scev_cgp: flag("nv-disable-scev-cgp", true, "Disable SCEV-CGP's thread-id-aware part (zext split proven by -scev-cgp-tid-max-value); cicc's LLVM 20 copy disables it too", "SCEV-CGP in codegenpreparescev"),
    scev_cgp_tid_max_value: int("scev-cgp-tid-max-value", 4096, 1, i32::MAX, "SCEV-CGP: the bound on thread indices and block sizes that proves zext(x + C) = zext(x) + C", "SCEV-CGP zext split"),
    ignore_signed_32_bit_overflow: flag("ignore-signed-32-bit-overflow", false, "Address records: assume signed index arithmetic does not wrap: split sext(x + C) and distribute an address index's sext through add/sub/mul/shl and IV updates that lack nsw (cicc's default is true; nvopt's is false: it rewrites only what it proves)", "address records"),
    ignore_bad_base: flag("ignore-bad-base", true, "Address records: keep records whose base pointer does not trace back (through GEPs and casts) to an argument, global, alloca or allocation (false: leave loaded, PHI'd, selected or integer-made bases alone; nvopt's reading of cicc's knob, default true as in cicc)", "address records"),
    ignore_32_bit_overflow: flag("ignore-32-bit-overflow", false, "Address records: split zext(x + C) without a nuw or thread-id proof (assume unsigned index arithmetic does not wrap; cicc's default, false)", "address records"),
    nv_widen_iv_starts: flag("nv-widen-iv-starts", true, "Before llc's SLSR, rebuild the nsw start of each address IV as trunc nsw of the same arithmetic in 64 bits (loops with 2 or more such IVs, when BASR runs), so BASR keeps the exact differences SLSR's rewrite would lose", "nv-iv-start-widening in llc"),
    dump_scev_cgp: int("dump-scev-cgp", 0, 0, 9, "Print CBE's records and rewrites per function on stderr", "CBE dump"),
    dump_base_address_strength_reduce: int("dump-base-address-strength-reduce", 0, 0, 9, "Print BASR's budget and shared bases per function on stderr", "BASR dump"),
    print_after_scev_cgp: flag("print-after-scev-cgp", false, "Print each function's IR after codegenpreparescev on stderr", "codegenpreparescev dump"),
    // --- nv-cssa: PHI-operand (CSSA) coalescing before PHI elimination (docs/CICC-FACTS.md "CSSA coalescing") ---
    cssa_coalesce: flag("cssa-coalesce", true, "Run nv-cssa in llc's NVPTX pipeline (-O1..-O3, right after CodeGenPrepare): rewrite PHI operands that interfere with their PHI so that PHI elimination's copies coalesce", "nv-cssa in llc"),
    nv_cssa_equal_operand: flag("nv-cssa-equal-operand", true, "nv-cssa: replace an interfering PHI operand by a value that a dominating icmp eq/ne branch proves equal to it on the edge", "nv-cssa equal-operand rewrite"),
    nv_cssa_sink: flag("nv-cssa-sink", true, "nv-cssa: move an interfering PHI operand's definition below the PHI's last read in the incoming block", "nv-cssa sink rewrite"),
    // --- nv-dbe: dead barrier elimination (docs/CICC-FACTS.md "Memory spaces and barriers") ---
    nv_dbe: flag("nv-dbe", true, "Run nv-dbe in its nv:dbe slot (where nv-feature-flags bit 1 is set, O3 by default): remove __syncthreads() barriers across which no two accesses can conflict", "nv-dbe"),
    nv_dbe_dataflow: flag("nv-dbe-dataflow", true, "nv-dbe: also remove a barrier whose accesses before and after touch no common memory (address spaces, reads vs writes); off keeps cicc's basic form (one side has no access at all)", "nv-dbe dataflow form"),
    // --- nv-set-local/global-array-alignment: array alignment for vector ld/st (src/opt/array_alignment) ---
    nv_disable_set_local_array_alignment: flag("nv-disable-set-local-array-alignment", false, "Skip the nv:set-local-array-alignment slots (cicc's disable-SetLocalArrayAlignmentPass); the slots also need lsa-opt", "nv-set-local-array-alignment"),
    nv_disable_set_global_array_alignment: flag("nv-disable-set-global-array-alignment", false, "Skip the nv:set-global-array-alignment slot (O1-O3; cicc's disable-SetGlobalArrayAlignmentPass)", "nv-set-global-array-alignment"),
    nv_max_array_alignment: int("nv-max-array-alignment", 16, 1, 16, "nv-set-local/global-array-alignment: the largest alignment, in bytes, they give a private or shared array (rounded down to a power of two; 16 is the widest vector access of local and shared memory, v4.b32/v2.b64)", "array alignment bound"),
    // --- nv-asm-convergence: `convergent` off thread-local inline-asm calls (src/opt/asm_convergence.rs) ---
    nv_disable_asm_convergence: flag("nv-disable-asm-convergence", false, "Skip the nv-asm-convergence slot (every optimizing level, right after nv:internalize): clang marks every CUDA inline-asm call convergent, which stops runtime unrolling of loops that hold CUDA's asm conversions (bf16); the slot removes the mark from asm whose PTX computes in the executing thread only", "nv-asm-convergence"),
    nv_asm_convergence_sregs: flag("nv-asm-convergence-sregs", false, "nv-asm-convergence: also take the mark off asm that reads a PTX special register (%laneid, %lanemask_lt, ...); off by default: without the mark LLVM merges CUB's many laneid/lanemask reads into one value live across the kernel, where a fresh read costs one S2R", "nv-asm-convergence special-register reads"),
    // --- nv-fold-const-calls: calls with constant arguments folded by interpretation (src/opt/fold_const_calls) ---
    nv_disable_fold_const_calls: flag("nv-disable-fold-const-calls", false, "Skip the nv-fold-const-calls slot (O1-O3, before globalopt/globaldce and the inliner): calls whose arguments are integer constants replaced by the value the callee returns", "nv-fold-const-calls"),
    nv_fold_const_calls_max_steps: int("nv-fold-const-calls-max-steps", 10000, 1, 100_000_000, "nv-fold-const-calls: the most instructions, PHIs and terminators one call's evaluation may execute, nested calls included; a call that needs more is kept", "nv-fold-const-calls step budget"),
    nv_fold_const_calls_max_depth: int("nv-fold-const-calls-max-depth", 128, 1, 1024, "nv-fold-const-calls: the deepest nesting of calls one evaluation may reach (recursion); a call that needs more is kept", "nv-fold-const-calls recursion bound"),
    // --- per-pass guards (NVVMPassOptions disable flags) ---
    nv_disable_instcombine: flag("nv-disable-instcombine", false, "Skip every instcombine slot (opts[1000])", "instcombine"),
    nv_disable_simplifycfg: flag("nv-disable-simplifycfg", false, "Skip every simplifycfg slot (opts[960])", "simplifycfg"),
    nv_disable_sroa: flag("nv-disable-sroa", false, "Skip every sroa slot (opts[1400])", "sroa"),
    nv_disable_early_cse: flag("nv-disable-early-cse", false, "Skip every early-cse slot (opts[1440])", "early-cse"),
    nv_disable_gvn: flag("nv-disable-gvn", false, "Skip every gvn slot", "gvn"),
    nv_disable_licm: flag("nv-disable-licm", false, "Skip every licm slot (opts[1240])", "licm"),
    nv_disable_loop_unroll: flag("nv-disable-loop-unroll", false, "Skip every loop-unroll slot (opts[1360])", "loop-unroll"),
    nv_disable_sccp: flag("nv-disable-sccp", false, "Skip the sccp slots (opts[720])", "sccp"),
    nv_disable_ipsccp: flag("nv-disable-ipsccp", false, "Skip the ipsccp slot (opts[920], IPConstPropagation)", "ipsccp"),
    nv_disable_dse: flag("nv-disable-dse", false, "Skip the dse slots (opts[760])", "dse"),
    nv_disable_adce: flag("nv-disable-adce", false, "Skip the adce slots (opts[1480])", "adce"),
    nv_disable_function_attrs: flag("nv-disable-function-attrs", false, "Skip the function-attrs slots (opts[680])", "function-attrs"),
    nv_disable_tailcallelim: flag("nv-disable-tailcallelim", false, "Skip the tailcallelim slots (opts[320])", "tailcallelim"),
    nv_disable_reassociate: flag("nv-disable-reassociate", false, "Skip the reassociate slot (opts[1280])", "reassociate"),
    nv_disable_correlated_propagation: flag("nv-disable-correlated-propagation", false, "Skip the correlated-propagation slots (opts[3040]; cicc 13.5 runs them by default)", "correlated-propagation"),
    nv_disable_inline: flag("nv-disable-inline", false, "Skip the inliner slots (opts[440]); always-inline still runs", "inline"),
    nv_disable_nvvm_reflect: flag("nv-disable-nvvm-reflect", false, "Skip the nvvm-reflect slot (opts[880])", "nvvm-reflect"),
    nv_disable_generic_to_nvvm: flag("nv-disable-generic-to-nvvm", false, "Skip the generic-to-nvvm slot (opts[2200])", "generic-to-nvvm"),
    nv_disable_indvars: flag("nv-disable-indvars", false, "Skip the indvars slots (opts[1040])", "indvars"),
    nv_disable_loop_rotate: flag("nv-disable-loop-rotate", false, "Skip the loop-rotate slots", "loop-rotate"),
    nv_disable_loop_unswitch: flag("nv-disable-loop-unswitch", false, "Skip the simple-loop-unswitch slot", "simple-loop-unswitch"),
    nv_disable_loop_idiom: flag("nv-disable-loop-idiom", false, "Skip the loop-idiom slot", "loop-idiom"),
    nv_disable_loop_deletion: flag("nv-disable-loop-deletion", false, "Skip the loop-deletion slots", "loop-deletion"),
    nv_disable_constmerge: flag("nv-disable-constmerge", false, "Skip the constmerge slots (opts[1960])", "constmerge"),
    nv_disable_memcpyopt: flag("nv-disable-memcpyopt", false, "Skip the memcpyopt slot", "memcpyopt"),
    nv_disable_load_store_vectorizer: flag("nv-disable-load-store-vectorizer", false, "Skip the load-store-vectorizer slot", "load-store-vectorizer"),
    nv_disable_sink: flag("nv-disable-sink", true, "Skip the sink slots, where cicc runs its Sinking2 (opts[2440]); on by default: upstream's sink, the stand-in, cost registers and spills on the validate split of the corpora (docs/DEPARTURES.md); -nv-disable-sink=0 runs it as cicc's table has it", "sink"),
    nv_disable_propagate_alignment: flag("nv-disable-propagate-alignment", false, "Skip the propagate-alignment slots (infer-alignment)", "infer-alignment in nv:propagate-alignment slots"),
    nv_disable_lower_args: flag("nv-disable-lower-args", false, "Skip the LowerStructArgs slot (nv-lower-struct-args)", "nv-lower-struct-args"),
    nv_disable_const_pointers: flag("nv-disable-const-pointers", false, "Skip nv-const-pointers (pointers loaded from __constant__ memory marked global before the MemorySpaceOpt slot's infer-address-spaces)", "nv-const-pointers"),
    nv_disable_phi_loads: flag("nv-disable-phi-loads", false, "Do not run nv-phi-loads (llc, NVPTX, -O1..-O3, before llc's SROA: loads through a PHI of addresses, one a private object only the PHI keeps in memory, are made in the predecessors so that SROA promotes the object)", "nv-phi-loads before llc's SROA"),
    nv_disable_speculative_execution: flag("nv-disable-speculative-execution", false, "Skip the speculative-execution slot (opts[1360])", "speculative-execution"),
    nv_disable_verify: flag("nv-disable-verify", false, "Skip the final verifier (opts[2800])", "verify"),
    // --- nv-inline-advisor: cicc 13.5's inline thresholds (src/opt/inline_policy) ---
    nv_disable_inline_advisor: flag("nv-disable-inline-advisor", false, "Skip the nv-inline-advisor slot: the inliner then uses LLVM's default threshold (225 x the target's multiplier)", "nv-inline-advisor"),
    nv_inline_threshold: int("nv-inline-threshold", 225, 0, 1_000_000, "nv-inline-advisor: base inline threshold in cicc's units, before its multiplier (cicc 13.5 nvvm-latest: 225)", "inline thresholds"),
    nv_inline_threshold_multiplier: int("nv-inline-threshold-multiplier", 29, 1, 1_000, "nv-inline-advisor: cicc's NVPTX inlining threshold multiplier (cicc 13.5 nvvm-latest: 29; LLVM 22's NVPTX TTI has 11, which the advisor divides out)", "inline thresholds"),
    nv_inline_kernel_bonus: int("nv-inline-kernel-bonus", 5000, 0, 1_000_000, "nv-inline-advisor: added to the base threshold (before the multiplier) for call sites in kernels (cicc 13.5: 5000)", "inline thresholds"),
    nv_inline_aggregate_arg_bonus: int("nv-inline-aggregate-arg-bonus", 500, 0, 1_000_000, "nv-inline-advisor: added to the base threshold (before the multiplier) per argument that is the address of a caller's private array or struct (cicc 13.5: 500)", "inline thresholds"),
    nv_opt_load_store_vectorizer: flag("nv-opt-load-store-vectorizer", false, "Run the load-store-vectorizer slot of cicc's O1-O3 table in opt (off: llc -O1..-O3 runs LLVM's NVPTX load-store vectorizer after its own infer-address-spaces; the opt-side run changed one SASS instruction on the bench, cost a fifth of opt's time on its pathological IV kernel and two to five registers on cuda-samples' bisect kernels; true: cicc's table)", "O1-O3 opt-side load-store-vectorizer slot"),
    nv_post_inline_cse: flag("nv-post-inline-cse", true, "Run early-cse<memssa> right after the SROA that follows the inliner (O1-O3; not in cicc 13.5's table, which first CSEs in GVN after instcombine has folded inlined copies of one computation differently; false: cicc's table)", "post-inline early-cse slot"),
    nv_disable_phi_load_spaces: flag("nv-disable-phi-load-spaces", false, "Skip nv-phi-load-spaces, which gives the loads feeding one PHI the address space their pointers are known to be in right before O1-O3's first instcombine (not in cicc 13.5's table), so that instcombine does not fold a __shared__ and a global load into one generic load", "nv-phi-load-spaces"),
    nv_hoist_common_insts: flag("nv-hoist-common-insts", false, "Let the simplifycfg after adce (O1-O3) hoist instructions common to both successors of a branch, as upstream's simplifycfg at that place does (not in cicc 13.5's table). Off by default: with nv-asm-convergence's special-register rule it costs registers on CUB's reduce and scan kernels (docs/DEPARTURES.md)", "post-adce simplifycfg hoist"),
    nv_sink_common_insts: flag("nv-sink-common-insts", false, "Let the simplifycfg after adce (O1-O3) sink instructions common to the predecessors of a block, as upstream's simplifycfg at that place does (not in cicc 13.5's table; false: cicc's table)", "post-adce simplifycfg sink"),
    nv_o1_inline: flag("nv-o1-inline", true, "Run nv-inline-advisor and cgscc(inline) at O1 too, so that O1 never inlines less than upstream default<O1> (false: cicc's O1, always-inline only)", "O1 inliner slots"),
    // --- nv-local-array-unroll: cicc's local-array unroll rule (src/opt/local_array_unroll) ---
    nv_disable_local_array_unroll: flag("nv-disable-local-array-unroll", false, "Skip the nv-local-array-unroll slot (O2/O3, before the first loop-unroll)", "nv-local-array-unroll"),
    nv_o1_local_array_unroll: flag("nv-o1-local-array-unroll", false, "At O1 (no loop-unroll slot in cicc 13.5's table) also run nv-local-array-unroll and a loop-unroll that unrolls only the loops it or the user's #pragma unroll marks. Off by default: on the bench it removes every O1 frame but one and raises the registers geomean against nvcc -O1 from 1.00 to 1.06, since nvcc -O1 keeps most of those arrays in local memory", "O1 local-array unroll slots"),
    nv_local_array_unroll_threshold: int("nv-local-array-unroll-threshold", 300, 0, 1_000_000, "nv-local-array-unroll: base size bound of a fully unrolled nest (LLVM's O3 full-unroll threshold, which cicc's unroller multiplies for loops over local arrays)", "nv-local-array-unroll size bound"),
    nv_local_array_unroll_max_factor: int("nv-local-array-unroll-max-factor", 6, 1, 1_000, "nv-local-array-unroll: cap of the multiplier (the array's element count) of the base bound; cicc caps it at 6", "nv-local-array-unroll size bound"),
    // --- nv-shuffle-loop-unroll: loops with run-time-mask warp shuffles stay rolled (src/opt/shuffle_loop_unroll) ---
    nv_disable_shuffle_loop_unroll: flag("nv-disable-shuffle-loop-unroll", false, "Skip the nv-shuffle-loop-unroll slot (O2/O3, before the first loop-unroll), which keeps rolled the loops holding a warp shuffle whose member mask is a run-time value (ptxas copies the mask into a register per shuffle)", "nv-shuffle-loop-unroll"),
    // --- nv-stride-loop-unroll: runtime unroll counts for loops stepping by a run-time stride (src/opt/stride_loop_unroll) ---
    nv_disable_stride_loop_unroll: flag("nv-disable-stride-loop-unroll", false, "Skip the nv-stride-loop-unroll slot (O2/O3, before the first loop-unroll), which gives loops stepping by a run-time stride other than blockDim (grid-stride loops, strides passed as arguments: their trip count divides by the stride, so LLVM's unroller leaves them rolled) a runtime unroll count, as nvcc unrolls them", "nv-stride-loop-unroll"),
    nv_stride_loop_unroll_threshold: int("nv-stride-loop-unroll-threshold", 75, 0, 1_000_000, "nv-stride-loop-unroll: largest size of the unrolled body, (size - 2) * count + 2 with size the loop's instructions other than PHIs (NVPTX's partial-unroll threshold at O3: a quarter of LLVM's 300)", "nv-stride-loop-unroll count"),
    nv_stride_loop_unroll_bounded_trip: int("nv-stride-loop-unroll-bounded-trip", 4096, 0, 1_000_000_000, "nv-stride-loop-unroll: loops whose trip count ScalarEvolution bounds by a constant at or below this are left rolled (loops over a shared-memory tile, which nvcc keeps rolled; an int index with a run-time bound has a bound near 2^31)", "nv-stride-loop-unroll loops"),
    // --- the unroller's partial and runtime count (src/pipeline/llvm_options.rs) ---
    nv_unroll_max_count: int("nv-unroll-max-count", 4, 0, 1_000_000, "nvopt<O2|O3>: largest count of partial and runtime unrolling, set as LLVM's -unroll-max-count unless the command line gives that option (nvcc runtime-unrolls by 4 where LLVM's default is 8; 0: LLVM's own count)", "loop-unroll partial and runtime count"),
    // --- nv-texture-unroll-guard: ptxas's unroll-then-hoist of texture fetches (src/opt/texture_unroll_guard) ---
    nv_disable_texture_unroll_guard: flag("nv-disable-texture-unroll-guard", false, "Skip the nv-texture-unroll-guard slot (O1-O3, the end of the function pipeline)", "nv-texture-unroll-guard"),
    nv_texture_unroll_guard_max_trip: int("nv-texture-unroll-guard-max-trip", 32, 2, 1_000_000, "nv-texture-unroll-guard: largest constant trip count of a loop the guard considers (ptxas fully unrolls 32-trip loops of 4 texture fetches, measured); longer loops are left to ptxas", "nv-texture-unroll-guard loops"),
    // --- nv-pressure-unroll-guard: ptxas's unrolling of run-time-trip loops under a register cap (src/opt/pressure_unroll_guard) ---
    nv_disable_pressure_unroll_guard: flag("nv-disable-pressure-unroll-guard", false, "Skip the nv-pressure-unroll-guard slot (O1-O3, the end of the function pipeline), which marks nounroll the run-time-trip loops ptxas would unroll past a register cap", "nv-pressure-unroll-guard"),
    nv_pressure_unroll_guard_factor: int("nv-pressure-unroll-guard-factor", 4, 1, 64, "nv-pressure-unroll-guard: the count by which ptxas is assumed to unroll a run-time-trip loop (measured: 4); a loop is marked when its carried registers plus this many iterations' loaded registers exceed the cap", "nv-pressure-unroll-guard loops"),
    // --- register pressure (src/analysis/pressure) ---
    nv_maxreg: int("nv-maxreg", 0, 0, 255, "Register target per thread, as nvcc's -maxrregcount (nvopt-cc -maxrregcount N sets it and caps ptxas too); a kernel's launch bounds win, as in ptxas; 0 and no bounds: 64", "the register target of nv-remat, the IV rewriting and BASR"),
    // --- nv-remat: cicc's IR rematerialization, the last IR pass in llc (src/llc/remat) ---
    do_remat: int("do-remat", 3, 0, 3, "Run nv-remat in llc's NVPTX pipeline (-O1..-O3, after nvptx-lower-aggr-copies): recompute cheap values next to their uses where register pressure exceeds the target; 0: off (nvopt does not tell cicc's levels 1..3 apart)", "nv-remat in llc"),
    nv_remat_default_target: int("nv-remat-default-target", 48, 1, 255, "nv-remat: the register target of a function without launch bounds or -nv-maxreg (nvopt's; 48 registers let 42 warps per SM reside on sm_90, against 32 at 64)", "nv-remat target"),
    nv_remat_threads_only_target: int("nv-remat-threads-only-target", 72, 0, 255, "nv-remat: the register target of a kernel whose launch bounds give only a thread count (no minimum of blocks per SM, or a minimum of 1) is the register file's share of those threads capped at this value (nvopt's; chosen on the tune split among 48, 64, 72 and 80); ptxas settles such kernels at an occupancy step of its own choosing and spills to reach it (80 registers for 384 threads); 0: the whole share", "nv-remat target"),
    remat_maxreg_ceiling: int("remat-maxreg-ceiling", 0, 0, 255, "nv-remat: cap of the register target (0: none; the target is a kernel's launch bounds, else -nv-maxreg, else nv-remat-default-target)", "nv-remat target"),
    remat_max_live_limit: int("remat-max-live-limit", 10, 0, 100_000, "nv-remat: the most values rematerialized in one round (5 rounds per function)", "nv-remat candidates per round"),
    remat_loop_trip: int("remat-loop-trip", 10, 1, 1_000, "nv-remat: iterations assumed per loop level: a use N loop levels deeper than the definition weighs remat-loop-trip^N (N at most 3)", "nv-remat cost model"),
    remat_lli_factor: int("remat-lli-factor", 10, 0, 100_000, "nv-remat: cost bound: refuse a value whose clones cost more than remat-lli-factor x remat-loop-trip weighted instructions per register freed", "nv-remat cost bound"),
    remat_load: int("remat-load", 1, 0, 1, "nv-remat: recompute loads that cannot change (constant and param space; !invariant.load global loads, but not into deeper loops); 0: no loads", "nv-remat loads"),
    nv_remat_extend_operands: int("nv-remat-extend-operands", 8, 0, 1_000, "nv-remat: an operand that is not live into a use's block may still be read there, when its definition dominates the block and the blocks its live range would newly cover (at most this many, the block included) stay within the register target with it (values LICM hoisted out of a loop and full unrolling then held across every copy); 0: only operands live into the block", "nv-remat operands"),
    nv_remat_max_chain: int("nv-remat-max-chain", 8, 1, 1_000, "nv-remat: the most instructions cloned for one value at one place (a longer chain is refused as too costly)", "nv-remat chain size"),
    nv_remat_derotate: int("nv-remat-derotate", 1, 0, 100_000, "nv-remat: a guarded (rotated) innermost loop over the register target whose exit receives at least this many of its carried values, the initial ones on the guard's bypass edge, gets its test moved to the top (one start for the carried values instead of one per path, which ptxas stores twice once they spill); 0: never", "nv-remat loop de-rotation"),
    dump_remat: int("dump-remat", 0, 0, 9, "Print nv-remat's pressure, target, decisions and refusals per function on stderr", "nv-remat dump"),
    nv_disable_iv_rewrite: flag("nv-disable-iv-rewrite", false, "Do not run nv-iv-rewrite (llc, NVPTX, -O1..-O3: in loops over the register target, integer IVs of one step rebuilt from one of them plus their invariant start difference at each use)", "nv-iv-rewrite before llc's SLSR"),
    nv_iv_rewrite_max_growth: int("nv-iv-rewrite-max-growth", 50, 0, 1000, "nv-iv-rewrite: percent by which a loop's instruction count may grow (one add per use of a moved IV, one update fewer per IV)", "nv-iv-rewrite size bound"),
    nv_disable_param_opt: flag("nv-disable-param-opt", false, "Do not run nv-param-opt (llc, NVPTX, -O1..-O3: in kernels over the register target, ld.param re-issued in each block that reads a kernel parameter outside the entry block)", "nv-param-opt after machine-sink"),
    nv_mul_wide_split_rule: int("nv-mul-wide-split-rule", 1, 0, 2, "nv-mul-wide-split (llc, NVPTX, -O1..-O3): mul.wide by a power of two as cvt + shl.b64, so that ptxas keeps a block-uniform base of the add in uniform registers; 0 off, 1 where every reader is a 64-bit add of a block-uniform base, 2 every mul.wide by a power of two", "nv-mul-wide-split after machine-sink"),
    nv_mul_wide_split_max_pressure: int("nv-mul-wide-split-max-pressure", 64, 0, 1024, "nv-mul-wide-split leaves functions alone whose estimated peak register pressure (src/analysis/pressure, on the IR before instruction selection) exceeds this; 0: no limit", "nv-mul-wide-split after machine-sink"),
    nv_disable_ext_reuse: flag("nv-disable-ext-reuse", false, "Do not run nv-ext-reuse (llc, NVPTX, -O1..-O3, after codegenprepare: a 64-bit expression ScalarEvolution proves equal to the zero or sign extension of a 32-bit value the function computes is replaced by that extension, so the 64-bit operands LSR expanded die)", "nv-ext-reuse after codegenprepare"),
    nv_machine_sink: flag("nv-machine-sink", true, "Run upstream's MachineSink in llc (NVPTX, -O1..-O3); 0 leaves its place empty, as cicc's llc runs no machine-sink (nv-machine-sink-slot takes the place, and the passes after it stay in order)", "machine-sink in llc"),
    nv_disable_reuse_local_memory: flag("nv-disable-reuse-local-memory", false, "Do not run nv-reuse-local-memory in its nv:reuse-local-memory slot (a private buffer that only stores feed before its single vprintf call, in one block, gets lifetime markers around them, so that llc's stack coloring lets the printf calls share local memory)", "nv-reuse-local-memory"),
    nv_disable_load_hoist: flag("nv-disable-load-hoist", false, "Do not run nv-load-hoist (llc, NVPTX, -O1..-O3, after machine-sink: a load machine-sink moved down past other blocks is moved back, with the arithmetic only its address needs, to just after its address inputs when that frees more register bits than its result holds)", "nv-load-hoist after machine-sink"),
    nv_disable_pre_sink: flag("nv-disable-pre-sink", false, "Do not run nv-pre-sink (llc, NVPTX, -O1..-O3, after machine-sink: a cheap instruction MachineCSE hoisted into a common dominator, whose value is then held across a loop that never reads it, is copied back into the blocks that read it)", "nv-pre-sink after machine-sink"),
    nv_pre_sink_idle_blocks: flag("nv-pre-sink-idle-blocks", false, "nv-pre-sink also copies a hoisted instruction back into its readers when its value is held past a block that does not read it (a conditional arm between two readers in one loop), not only across an idle loop", "nv-pre-sink's rule"),
    nv_disable_pred_remat: flag("nv-disable-pred-remat", false, "Do not run nv-pred-remat (llc, NVPTX, -O1..-O3, after machine-sink: where more predicates than nv-pred-remat-budget are live into a loop, loop-invariant compares are recomputed next to their readers inside the loop instead of being held across it)", "nv-pred-remat after machine-sink"),
    nv_pred_remat_budget: int("nv-pred-remat-budget", crate::machine::pred_remat::PREDICATE_REGISTERS, 0, 64, "nv-pred-remat: the most predicates a loop may have live into its header before compares are recomputed inside it (default: SASS's 7 allocatable predicate registers)", "nv-pred-remat budget"),
    nv_disable_sreg_order: flag("nv-disable-sreg-order", true, "Do not run nv-sreg-order (llc, NVPTX, -O1..-O3: the entry block's reads of %ntid and %nctaid moved to its start, so that ptxas gives the block dimension, not the block index, its uniform register); on by default: the pass cost registers on the validate split of the corpora (docs/DEPARTURES.md); -nv-disable-sreg-order=0 runs it", "nv-sreg-order after machine-scheduler"),
    // --- llc LSR gates (docs/CICC-FACTS.md "NVIDIA LSR knobs") ---
    nv_lsr_gate: flag("nv-lsr-gate", true, "Apply cicc's LSR gates to llc's LoopStrengthReduce (NVPTX, -O1..-O3); the LSR knobs below act only with it", "nv-lsr-gate-pass before llc's loop-reduce"),
    nv_lsr_trial: flag("nv-lsr-trial", false, "LSR gate, off by default (no validate gain on the corpora, and most of nvopt's extra llc time: docs/DEPARTURES.md): rewrite a copy of each loop the other gates let through with llc's LSR first, and skip LSR on the loop when the copy's register pressure (the most registers live at once in the loop) exceeds the function's register target (launch bounds, -nv-maxreg, else 64) and the loop's pressure before LSR", "LSR pressure-growth gate"),
    nv_lsr_trial_growth: int("nv-lsr-trial-growth", 25, 0, 1000, "nv-lsr-trial: the least growth of the loop's pressure under LSR, in percent of the register target, that skips LSR (0: any growth over the target)", "LSR pressure-growth gate"),
    lsr_check_rp: flag("lsr-check-rp", true, "Skip LSR on loops whose estimated register pressure exceeds -lsr-rp-limit", "LSR register-pressure gate"),
    lsr_rp_limit: int("lsr-rp-limit", 60, 0, 1_000_000, "Register-pressure limit of the LSR gate, in 32-bit registers carried around the loop (header PHIs + live-in values)", "LSR register-pressure gate"),
    nv_lsr_rp_limit_scale: flag("nv-lsr-rp-limit-scale", true, "Raise lsr-rp-limit in proportion to a kernel's register target above the default 64 (launch bounds allowing more registers); false: lsr-rp-limit as it is for every kernel, as cicc", "the LSR register-pressure gate"),
    disable_unknown_trip_lsr: flag("disable-unknown-trip-lsr", true, "Skip LSR on loops whose backedge-taken count ScalarEvolution cannot compute", "LSR unknown-trip gate"),
    lsr_skip_outer_loop: flag("lsr-skip-outer-loop", true, "Skip LSR on loops whose level (1 = innermost) exceeds -lsr-loop-level", "LSR outer-loop gate"),
    lsr_loop_level: int("lsr-loop-level", 1, 1, 64, "Highest loop level, counted from the innermost loop (1), that LSR runs on when -lsr-skip-outer-loop is on", "LSR outer-loop gate"),
    // --- nv-scev-sources (docs/CICC-FACTS.md "GPU SCEV sources and stride idioms") ---
    nv_disable_scev_sources: flag("nv-disable-scev-sources", false, "Skip the nv-scev-sources slots (GPU ranges and stride-idiom no-wrap flags)", "nv-scev-sources"),
    special_reassociate_for_threadid: flag("special-reassociate-for-threadid", false, "Run nv-scev-sources again right after reassociate (O1-O3) to re-derive thread-id idiom facts on the reassociated IR; off: measured unnecessary with LLVM 22 (SCEV re-canonicalizes sums, reassociate keeps the flags)", "second nv-scev-sources slot after reassociate"),
    aggressive_positive_stride_analysis: flag("aggressive-positive-stride-analysis", true, "nv-scev-sources: let strides built from ntid, nctaid and warpsize (known >= 1 from their ranges) take part in the no-wrap proof, and flag the start/stride arithmetic their ranges prove; off: constant strides only", "symbolic strides in nv-scev-sources"),
}

/// Registers every knob of the table as an LLVM cl::opt (at plugin load).
pub fn register() {
    for (i, k) in KNOBS.iter().enumerate() {
        match k.kind {
            Kind::Bool(d) => crate::ffi::register_bool_knob(i, k.name, k.help, d),
            Kind::Int { default, min, max } => {
                crate::ffi::register_int_knob(i, k.name, k.help, (default, min, max))
            }
        }
    }
}

/// Looks a knob up by name.
pub fn find(name: &str) -> Option<(usize, &'static Knob)> {
    KNOBS.iter().enumerate().find(|(_, k)| k.name == name)
}

/// Current knob values: read from LLVM's command line in the plugin, defaults plus overrides
/// in tests.
#[derive(Clone, Debug, PartialEq)]
pub struct Knobs {
    values: Vec<i64>,
}

impl Knobs {
    /// Every knob at its default.
    pub fn defaults() -> Self {
        let values = KNOBS
            .iter()
            .map(|k| match k.kind {
                Kind::Bool(d) => d as i64,
                Kind::Int { default, .. } => default as i64,
            })
            .collect();
        Knobs { values }
    }

    /// Values as LLVM parsed them from the command line (one call into the shim for all).
    pub fn current() -> Self {
        Knobs { values: crate::ffi::knob_values(KNOBS.len()) }
    }

    /// Sets one knob (tests, and level-forced values such as Ofcmax's `memory-space-opt=0`).
    pub fn set(&mut self, knob: K, value: i64) {
        self.values[knob as usize] = value;
    }

    /// Whether a knob the pipeline tables name as text is on. The tables are data transcribed
    /// from cicc's prints; a test (src/pipeline/slots.rs) checks that every name they use is a
    /// knob, so an unknown name here is a bug in a table.
    pub fn on_named(&self, name: &str) -> bool {
        let (i, _) =
            find(name).unwrap_or_else(|| panic!("the pipeline tables name no knob {name}"));
        self.values[i] != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast_hash::HashSet;

    #[test]
    fn names_are_unique_and_well_formed() {
        let mut seen = HashSet::default();
        for k in KNOBS {
            assert!(seen.insert(k.name), "duplicate knob {}", k.name);
            assert!(k
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
            assert!(!k.help.is_empty() && !k.guards.is_empty());
        }
    }

    #[test]
    fn defaults_lie_in_range() {
        for k in KNOBS {
            if let Kind::Int { default, min, max } = k.kind {
                assert!(min <= default && default <= max, "{}", k.name);
            }
        }
    }

    #[test]
    fn set_and_read() {
        let mut k = Knobs::defaults();
        assert!(k.memory_space_opt());
        k.set(K::memory_space_opt, 0);
        assert!(!k.memory_space_opt());
        assert_eq!(k.nv_feature_flags(), -1);
    }
}

/// The knob table of docs/KNOBS.md, rendered from [`KNOBS`] (a test in src/readme.rs keeps
/// docs/KNOBS.md in step).
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| knob | type | default | accepted | guards | help |\n|---|---|---|---|---|---|\n",
    );
    for k in KNOBS {
        let (ty, default, accepted) = match k.kind {
            Kind::Bool(d) => ("bool", d.to_string(), "true/false, 1/0".to_string()),
            Kind::Int { default, min, max } => {
                ("int", default.to_string(), format!("{min}..{max}"))
            }
        };
        out.push_str(&format!(
            "| `-{}` | {ty} | {default} | {accepted} | {} | {} |\n",
            k.name, k.guards, k.help
        ));
    }
    out
}
