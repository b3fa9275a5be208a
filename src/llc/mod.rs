//! Stage 2, llc's IR part: the legacy IR passes nvopt inserts into llc's NVPTX code generator
//! (src/codegen.rs says where; docs/ARCHITECTURE.md "Passes by stage"), in the order they run
//! there. Each runs in this stage only; its C++ plumbing is the `.cpp` beside its Rust.

/// `nv-phi-loads`: loads through a PHI of a private object made in the predecessors, right
/// after `nvptx-lower-args` (before llc's SROA).
pub mod phi_loads;

/// `nv-iv-start-widening` (after `speculative-execution`) and `codegenpreparescev` (BASR,
/// CBE, SCEV-CGP; after `codegenprepare`).
pub mod addr;

/// `nv-lsr-gate-pass`: cicc's LSR gates, right before `loop-reduce`.
pub mod lsr_gate;

/// `nv-iv-rewrite`: after `codegenprepare`.
pub mod iv_rewrite;

/// `nv-ext-reuse`: after `codegenprepare`.
pub mod ext_reuse;

/// `nv-cssa`: PHI-operand coalescing, last after `codegenprepare`.
pub mod cssa;

/// `nv-remat`: IR rematerialization, after `nvptx-lower-aggr-copies`.
pub mod remat;
