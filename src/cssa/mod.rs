//! `nv-cssa`, cicc's CSSA coalescing stage (seed 002, "CSSA Coalescing (PHI-Specific)": PHI
//! operands are coalesced at the SSA level, before PHI elimination, so that PHI lowering leaves
//! fewer copies; knob `cssa-coalesce`). The planner (`plan`) decides on a pure-data model of
//! the function (blocks, instruction order, uses, PHIs and the values the adapter proved equal
//! on each PHI edge); the adapter (src/shim/cssa.cpp) builds that model from LLVM IR, applies
//! the rewrites and registers the pass (`opt -passes=nv-cssa`, and in llc's NVPTX pipeline
//! right after CodeGenPrepare, src/codegen.rs).
pub mod ffi;
pub mod plan;
