//! What runs in each slot: the NVIDIA-only passes of cicc 13.5's pipelines (identities from
//! docs/CICC-FACTS.md "The printed pipelines" and "Pipeline identity corrections") with the
//! upstream LLVM 22 pass that does that job, or none; and the guard knob of each upstream pass
//! kind (docs/CICC-FACTS.md "Pipeline architecture"). One slot stands for work cicc does before its
//! printed pipeline: `nv:internalize`, the whole-program internalization of cicc's LNK stage,
//! first in every optimizing level (src/opt/internalize.rs).

/// An NVIDIA pass slot (`nv:<name>` in the level tables).
#[derive(Debug)]
pub struct NvSlot {
    pub name: &'static str,
    /// cicc's identity: decoded class or the reference print's placeholder with its best guess.
    pub cicc: &'static str,
    /// Upstream pass text that runs in the slot; empty when LLVM 22 has no equivalent.
    pub runs: &'static str,
    /// Bool knob that must be on for the slot to run (empty: no own guard).
    pub enable: &'static str,
    /// Why this substitute (or none).
    pub note: &'static str,
}

const fn nv(
    name: &'static str,
    cicc: &'static str,
    runs: &'static str,
    enable: &'static str,
    note: &'static str,
) -> NvSlot {
    NvSlot { name, cicc, runs, enable, note }
}

pub static NV_SLOTS: &[NvSlot] = &[
    nv(
        "internalize",
        "whole-program internalization in cicc's LNK stage (before the printed pipeline)",
        "nv-internalize",
        "!nv-rdc",
        "nvopt's nv-internalize (src/opt/internalize.rs): nvcc's whole-program mode without -rdc",
    ),
    nv(
        "printf-lowering",
        "nv:opaque-98c148 (nvvm-printf-lowering)",
        "",
        "",
        "clang already lowers device printf to vprintf",
    ),
    nv(
        "pretreat",
        "nv:opaque-134f18 (nvvm-pretreat)",
        "",
        "",
        "NVIDIA-only catch-all; no upstream equivalent",
    ),
    nv(
        "inline-must",
        "nv:opaque-67bba4 (nv-inline-must)",
        "",
        "",
        "marks must-inline functions; alwaysinline attributes already do this upstream",
    ),
    nv(
        "early-inliner",
        "nv:opaque-762ed7 (early module inliner, O2/O3)",
        "",
        "",
        "the later cgscc(inline) slot does the inlining; O1's always-inline sits in this slot",
    ),
    nv(
        "merge-sets",
        "nv:opaque-3ea7d9 (merge-sets or byval-mem2reg)",
        "",
        "",
        "no upstream equivalent",
    ),
    nv(
        "process-restrict",
        "nv:ProcessRestrict",
        "",
        "",
        "clang already turns __restrict__ parameters into noalias",
    ),
    nv(
        "memory-space-opt",
        "nv:MemorySpaceOpt",
        "nv-const-pointers,infer-address-spaces",
        "memory-space-opt",
        "nvopt's nv-const-pointers (src/opt/const_pointers.rs: pointers loaded from __constant__ memory are global; off with -nv-disable-const-pointers), then upstream's infer-address-spaces, which infers the address space of generic pointers",
    ),
    nv("unknown-c0b98e", "nv:opaque-c0b98e (unknown)", "", "", "identity unknown"),
    nv("branch-dist", "nv:opaque-03d7cd (branch-dist)", "", "", "no upstream equivalent"),
    nv(
        "loop-index-split",
        "nv:opaque-4e83a2 (loop-index-split)",
        "",
        "",
        "removed from upstream LLVM long ago",
    ),
    nv(
        "propagate-alignment",
        "nv:opaque-f14fb8 (nvvm-propagate-alignment)",
        "infer-alignment",
        "!nv-disable-propagate-alignment",
        "upstream counterpart: infers pointer alignment",
    ),
    nv(
        "sink2",
        "nv:opaque-3b60e6 (sink2)",
        "sink",
        "!nv-disable-sink",
        "upstream code sinking, which shortens live ranges like cicc's Sinking2",
    ),
    nv(
        "lower-struct-args",
        "nv:LowerStructArgs",
        "nv-lower-struct-args",
        "!nv-disable-lower-args",
        "nvopt's nv-lower-struct-args (src/opt/lower_struct_args.rs): written by-value kernel parameters copied to a private alloca; the rest is left to llc's nvptx-lower-args (upstream's pass here would run twice, and its second run breaks the first's param-space loads)",
    ),
    nv(
        "lower-aggr-copies",
        "nv:LowerAggrCopies",
        "",
        "",
        "llc's legacy NVPTX pipeline runs the upstream lowering of aggregate copies",
    ),
    nv(
        "ipmsp",
        "nv:opaque-200cd2 (ipmemoryspaceprop)",
        "nv-ipmsp",
        "do-ip-msp",
        "nvopt's nv-ipmsp (src/opt/ipmsp): generic pointer parameters and returns of internal functions that every call site passes in one space, accessed in that space (clones where call sites disagree)",
    ),
    nv(
        "dbe",
        "nv:opaque-470840 (dead barrier elimination)",
        "nv-dbe",
        "feature-bit-1",
        "nvopt's nv-dbe (src/opt/dbe.rs): barriers across which no accesses can conflict",
    ),
    nv(
        "set-global-array-alignment",
        "nv:SetGlobalArrayAlignment",
        "nv-set-global-array-alignment",
        "!nv-disable-set-global-array-alignment",
        "nvopt's nv-set-global-array-alignment (src/opt/array_alignment): statically sized __shared__ arrays aligned for vector ld/st",
    ),
    nv(
        "reuse-local-memory",
        "nv:opaque-b09fc2 (nvvm-reuse-local-memory)",
        "nv-reuse-local-memory",
        "lsa-opt",
        "nvopt's nv-reuse-local-memory (src/opt/reuse_local_memory.rs), a stand-in: vprintf argument buffers given a lifetime so that llc's stack coloring shares them (also off with -nv-disable-reuse-local-memory)",
    ),
    nv(
        "set-local-array-alignment",
        "nv:opaque-f69226 (set-local-array-alignment)",
        "nv-set-local-array-alignment",
        "lsa-opt",
        "nvopt's nv-set-local-array-alignment (src/opt/array_alignment): statically sized private arrays aligned for vector ld/st (also off with -nv-disable-set-local-array-alignment)",
    ),
    nv("lower-ops", "nv:LowerOps", "", "", "no upstream equivalent"),
    nv(
        "cnp-launch-check",
        "nv:opaque-0050c7 (cnp-launch-check)",
        "",
        "",
        "a legality check of device-side launches; no upstream equivalent",
    ),
];

pub fn nv_slot(name: &str) -> Option<&'static NvSlot> {
    NV_SLOTS.iter().find(|s| s.name == name)
}

/// Upstream pass name -> the knob that disables every slot of that kind.
static PASS_GUARDS: &[(&str, &str)] = &[
    ("instcombine", "nv-disable-instcombine"),
    ("simplifycfg", "nv-disable-simplifycfg"),
    ("sroa", "nv-disable-sroa"),
    ("early-cse", "nv-disable-early-cse"),
    ("gvn", "nv-disable-gvn"),
    ("licm", "nv-disable-licm"),
    ("loop-unroll", "nv-disable-loop-unroll"),
    ("sccp", "nv-disable-sccp"),
    ("ipsccp", "nv-disable-ipsccp"),
    ("dse", "nv-disable-dse"),
    ("adce", "nv-disable-adce"),
    ("function-attrs", "nv-disable-function-attrs"),
    ("tailcallelim", "nv-disable-tailcallelim"),
    ("reassociate", "nv-disable-reassociate"),
    ("correlated-propagation", "nv-disable-correlated-propagation"),
    ("inline", "nv-disable-inline"),
    ("nvvm-reflect", "nv-disable-nvvm-reflect"),
    ("generic-to-nvvm", "nv-disable-generic-to-nvvm"),
    ("indvars", "nv-disable-indvars"),
    ("loop-rotate", "nv-disable-loop-rotate"),
    ("simple-loop-unswitch", "nv-disable-loop-unswitch"),
    ("loop-idiom", "nv-disable-loop-idiom"),
    ("loop-deletion", "nv-disable-loop-deletion"),
    ("constmerge", "nv-disable-constmerge"),
    ("memcpyopt", "nv-disable-memcpyopt"),
    ("load-store-vectorizer", "nv-disable-load-store-vectorizer"),
    ("speculative-execution", "nv-disable-speculative-execution"),
    ("verify", "nv-disable-verify"),
    ("nv-scev-sources", "nv-disable-scev-sources"),
    ("nv-local-array-unroll", "nv-disable-local-array-unroll"),
    ("nv-shuffle-loop-unroll", "nv-disable-shuffle-loop-unroll"),
    ("nv-stride-loop-unroll", "nv-disable-stride-loop-unroll"),
    ("nv-texture-unroll-guard", "nv-disable-texture-unroll-guard"),
    ("nv-pressure-unroll-guard", "nv-disable-pressure-unroll-guard"),
    ("nv-inline-advisor", "nv-disable-inline-advisor"),
    ("nv-fold-const-calls", "nv-disable-fold-const-calls"),
    ("nv-phi-load-spaces", "nv-disable-phi-load-spaces"),
    ("nv-asm-convergence", "nv-disable-asm-convergence"),
    ("nv-set-local-array-alignment", "nv-disable-set-local-array-alignment"),
];

/// The disable knob guarding an upstream pass text (by the name before `<`).
pub fn pass_guard(pass_text: &str) -> Option<&'static str> {
    let name = pass_name(pass_text);
    PASS_GUARDS.iter().find(|(p, _)| *p == name).map(|(_, k)| *k)
}

/// Passes that LLVM registers only when the NVPTX target is present.
pub static NVPTX_ONLY: &[&str] = &["nvvm-intr-range", "nvvm-reflect", "generic-to-nvvm"];

pub fn is_nvptx_only(pass_text: &str) -> bool {
    NVPTX_ONLY.contains(&pass_name(pass_text))
}

/// `licm<allowspeculation>` -> `licm`.
pub fn pass_name(pass_text: &str) -> &str {
    pass_text.split('<').next().unwrap_or(pass_text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs;

    #[test]
    fn guards_name_real_knobs() {
        for (_, k) in PASS_GUARDS {
            assert!(knobs::find(k).is_some(), "{k}");
        }
        for s in NV_SLOTS {
            let k = s.enable.trim_start_matches('!');
            assert!(
                k.is_empty() || k.starts_with("feature-bit-") || knobs::find(k).is_some(),
                "{k}"
            );
        }
    }

    #[test]
    fn names() {
        assert_eq!(pass_name("licm<allowspeculation>"), "licm");
        assert_eq!(pass_guard("gvn<no-pre>"), Some("nv-disable-gvn"));
        assert!(is_nvptx_only("nvvm-reflect"));
        assert!(pass_guard("globaldce").is_none());
    }
}

/// The table of NVIDIA-only slots and what runs in each, in docs/SLOTS.md (a test in
/// src/readme.rs keeps it in step).
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| slot | cicc 13.5 pass | runs in nvopt | guard | why |\n|---|---|---|---|---|\n",
    );
    for s in NV_SLOTS {
        let runs = if s.runs.is_empty() { "nothing".to_string() } else { format!("`{}`", s.runs) };
        let guard = if s.enable.is_empty() { "-".to_string() } else { format!("`{}`", s.enable) };
        out.push_str(&format!(
            "| `nv:{}` | {} | {runs} | {guard} | {} |\n",
            s.name, s.cicc, s.note
        ));
    }
    out
}
