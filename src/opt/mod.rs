//! Stage 1, opt: the IR passes nvopt adds to opt's pipeline `nvopt<LEVEL>` (src/pipeline builds
//! it; docs/ARCHITECTURE.md "Passes by stage"), in the order they first run there. Each runs in
//! this stage only; its C++ plumbing, where it needs any, is the `.cpp` beside its Rust.

/// `nv-internalize`: device functions become internal (closed world); first at every
/// optimizing level.
pub mod internalize;

/// `nv-asm-convergence`: takes `convergent` off inline asm that computes in the executing
/// thread only; right after nv-internalize.
pub mod asm_convergence;

/// `nv-phi-load-spaces`: loads feeding a PHI read in their known address spaces, before O1-O3's
/// first instcombine.
pub mod phi_load_spaces;

/// `nv-lower-struct-args`: by-value struct parameters (slot `nv:lower-struct-args`).
pub mod lower_struct_args;

/// `nv-const-pointers`: pointers proven global or constant (slot `nv:memory-space-opt`).
pub mod const_pointers;

/// `nv-ipmsp`: inter-procedural memory-space propagation (slot `nv:ipmsp`).
pub mod ipmsp;

/// `nv-fold-const-calls`: folds calls of device functions on constants (O1-O3, before `globalopt`).
pub mod fold_const_calls;

/// `nv-inline-advisor`: nvopt's inlining policy, before every `cgscc(inline)`.
pub mod inline_policy;

/// `nv-local-array-unroll`: cicc's local-array unroll rule, before the first `loop-unroll`.
pub mod local_array_unroll;

/// `nv-shuffle-loop-unroll`: unrolls warp-shuffle loops, before the first `loop-unroll`.
pub mod shuffle_loop_unroll;

/// `nv-stride-loop-unroll`: unrolls grid-stride loops, before the first `loop-unroll`.
pub mod stride_loop_unroll;

/// `nv-reuse-local-memory`: vprintf buffers given a lifetime (slot `nv:reuse-local-memory`).
pub mod reuse_local_memory;

/// `nv-set-global-array-alignment`, `nv-set-local-array-alignment` (cicc's slots).
pub mod array_alignment;

/// `nv-dbe`: dead barrier elimination (slot `nv:dbe`, O3).
pub mod dbe;

/// `nv-texture-unroll-guard`: end of the O1-O3 function pipeline.
pub mod texture_unroll_guard;

/// `nv-pressure-unroll-guard`: end of the O1-O3 function pipeline.
pub mod pressure_unroll_guard;
