// The pass wrappers of nv-remat (src/llc/remat; docs/CICC-FACTS.md "Register pressure and
// rematerialization"): the new-PM function pass `nv-remat` (opt -passes=nv-remat) and the
// legacy FunctionPass of the same name that src/codegen.rs inserts into llc's NVPTX pipeline
// after nvptx-lower-aggr-copies (knob do-remat), and their registration. Each obtains the
// function's LoopInfo and an OptimizationRemarkEmitter and hands them with the function to Rust
// (src/llc/remat/adapter.rs), which estimates, decides, clones and reports. No decisions here.
#include "llvm-c/Core.h"
#include "register.h"

using namespace llvm;

// Rust (src/llc/remat/adapter.rs, nvopt_remat_run_function): runs nv-remat on one function;
// whether it changed the IR (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

struct Remat : NvOneNamePass<Remat> {
  // The loop de-rotation (src/llc/remat/derotate.rs) adds a block and changes edges.
  static constexpr unsigned Needs = NvNeedLoops | NvChangesCFG;
  static constexpr const char *Name = "nv-remat";
  static constexpr const char *Description = "Register rematerialization on IR (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_remat_run_function(wrap(&F), A.LI, &A.ORE);
  }
};

} // namespace

// The legacy pass, for llc (inserted by name through src/codegen.rs).
extern "C" void nvopt_shim_register_remat() { nvRegisterLegacyPass<Remat>(); }

// Makes `nv-remat` a function pass name for opt -passes=.
void nvopt_register_remat(PassBuilder &PB) { nvRegisterNewPMPass<Remat>(PB); }
