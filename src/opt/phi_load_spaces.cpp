// The pass plumbing of nv-phi-load-spaces (the pass is src/opt/phi_load_spaces.rs, in Rust): a
// new-PM function pass for opt -passes=nv-phi-load-spaces and the slot before O1-O3's first
// instcombine. No decisions here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct PhiLoadSpaces : NvOneNamePass<PhiLoadSpaces> {
  static constexpr const char *Name = "nv-phi-load-spaces";
  static constexpr const char *Description =
      "Loads feeding a PHI read in their known address spaces (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_phi_load_spaces_run(wrap(&F), &A.ORE);
  }
};

} // namespace

// Makes `nv-phi-load-spaces` a function pass name for opt -passes=.
void nvopt_register_phi_load_spaces(PassBuilder &PB) { nvRegisterNewPMPass<PhiLoadSpaces>(PB); }
