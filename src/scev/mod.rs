//! The NVIDIA ScalarEvolution wrapper `nv-scev` (seed 000, "NVIDIA Simple Mode"; research-facts
//! "SCEV facts"): cicc's getSCEV gating (cache, failure gate, expression-size scorer, mode
//! toggle, recursion budget with the kernel bypass) around LLVM's ScalarEvolution. The shim
//! (src/shim/scev.cpp) adapts LLVM; every decision is here.
pub mod ffi;
pub mod gate;
pub mod score;
