//! `nv-coalesce`, NVIDIA cicc's NVPTX copy coalescer (seed 002, "Register Coalescing";
//! research-facts.md, "NVPTX in LLVM 22 (for the coalescer)"), run in llc right after LLVM's
//! RegisterCoalescer. The planner (`plan`) makes every decision on an abstract view of the
//! copies; the shim (src/shim/coalesce.cpp) adapts LLVM's MachineFunction and LiveIntervals
//! to it and inserts the pass into llc's NVPTX pipeline.
pub mod ffi;
pub mod plan;
