// The pass plumbing of nv-dbe (dead barrier elimination; the pass is src/opt/dbe.rs, in Rust): a
// new-PM function pass for opt -passes=nv-dbe and the nvopt pipelines' nv:dbe slot. No decisions
// here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct Dbe : NvOneNamePass<Dbe> {
  static constexpr const char *Name = "nv-dbe";
  static constexpr const char *Description = "Dead barrier elimination (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) { return nvopt_dbe_run(wrap(&F), &A.ORE); }
};

} // namespace

// Makes `nv-dbe` a function pass name for opt -passes=.
void nvopt_register_dbe(PassBuilder &PB) { nvRegisterNewPMPass<Dbe>(PB); }
