// IV-start widening's pass plumbing (the pass is src/llc/addr/widen.rs, in Rust): the legacy pass
// `nv-iv-start-widening` that src/codegen.rs inserts right after llc's SpeculativeExecution
// (so right before SLSR), and the same name for opt -passes=. Both hand Rust the function and
// its LoopInfo, which LLVM's C API lacks (src/analysis/ir/loops.rs reads it through src/analysis/ir/loops.cpp).
// No decisions here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct Widening : NvOneNamePass<Widening> {
  static constexpr unsigned Needs = NvNeedLoops;
  static constexpr const char *Name = "nv-iv-start-widening";
  static constexpr const char *Description = "IV-start widening for BASR (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) { return nvopt_widen_run(wrap(&F), A.LI); }
};

const bool Registered = (nvRegisterLegacyPass<Widening>(), true);

} // namespace

// Makes `nv-iv-start-widening` a function pass name for opt -passes=.
void nvopt_register_iv_start_widening(PassBuilder &PB) { nvRegisterNewPMPass<Widening>(PB); }
