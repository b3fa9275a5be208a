// The pass wrappers of nv-cssa (src/llc/cssa; docs/CICC-FACTS.md "CSSA coalescing"): the
// new-PM function pass `nv-cssa` (opt -passes=nv-cssa) and the legacy FunctionPass of the same
// name that src/codegen.rs inserts into llc's NVPTX pipeline after CodeGenPrepare (knob
// cssa-coalesce), and their registration. Each obtains the function's DominatorTree and an
// OptimizationRemarkEmitter, which the C API cannot, and hands them with the function to Rust
// (src/llc/cssa/adapter.rs), which reads the IR, plans, rewrites and emits the remarks through the
// generic exports of src/analysis/ir/facts.cpp. No decisions here.
#include "llvm-c/Core.h"
#include "register.h"

using namespace llvm;

// Rust (src/llc/cssa/adapter.rs, nvopt_cssa_run_function): runs nv-cssa on one function; whether
// it changed the IR. Its prototype, as every function Rust shares with the shim, is in the
// generated nvopt_boundary.h (src/boundary).

namespace {

struct Cssa : NvOneNamePass<Cssa> {
  static constexpr unsigned Needs = NvNeedDomTree;
  static constexpr const char *Name = "nv-cssa";
  static constexpr const char *Description = "PHI-operand (CSSA) coalescing (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_cssa_run_function(wrap(&F), A.DT, &A.ORE);
  }
};

} // namespace

// The legacy pass, for llc (inserted by name through src/codegen.rs).
extern "C" void nvopt_shim_register_cssa() { nvRegisterLegacyPass<Cssa>(); }

// Makes `nv-cssa` a function pass name for opt -passes=.
void nvopt_register_cssa(PassBuilder &PB) { nvRegisterNewPMPass<Cssa>(PB); }
