//! `nv-cssa`, cicc's CSSA coalescing stage (seed 002, "CSSA Coalescing (PHI-Specific)": PHI
//! operands are coalesced at the SSA level, before PHI elimination, so that PHI lowering leaves
//! fewer copies; knob `cssa-coalesce`). The planner (`plan`) decides on a pure-data model of
//! the function (blocks, instruction order, uses, PHIs and the values proved equal on each PHI
//! edge). The adapter (`adapter`) builds that model from LLVM IR in Rust (inkwell and llvm-sys,
//! plus the generic IR facts of src/shim/ir_facts.cpp: mayReadOrWriteMemory,
//! mayHaveSideEffects, DominatorTree queries, moveAfter, operand texts and remarks), applies
//! the rewrites and emits their remarks. C++ (src/shim/cssa.cpp) keeps only what the C API
//! lacks: the new-PM and legacy pass wrappers that obtain the DominatorTree and the
//! OptimizationRemarkEmitter, and their registration (`opt -passes=nv-cssa`, and in llc's NVPTX
//! pipeline right after CodeGenPrepare, src/codegen.rs).
pub mod adapter;
pub mod plan;
