// The pass plumbing of nv-dbe (dead barrier elimination; the pass is src/opt/dbe.rs, in Rust): a
// new-PM function pass for opt -passes=nv-dbe and the nvopt pipelines' nv:dbe slot. No decisions
// here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct Dbe {
  static constexpr unsigned Needs = 0;
  static constexpr uint32_t LegacyArg = 0;
  static constexpr const char *Description = "Dead barrier elimination (nvopt)";
  static const char *name(uint32_t) { return "nv-dbe"; }
  static bool run(Function &F, NvAnalyses &A, uint32_t) { return nvopt_dbe_run(wrap(&F), &A.ORE); }
};

} // namespace

// Makes `nv-dbe` a function pass name for opt -passes=.
void nvopt_register_dbe(PassBuilder &PB) { nvRegisterNewPMPass<Dbe>(PB, {Dbe::LegacyArg}); }
