// The pass plumbing of nv-const-pointers (the pass is src/opt/const_pointers.rs, in Rust): a new-PM
// function pass for opt -passes=nv-const-pointers and the nvopt pipelines' nv:memory-space-opt
// slot. No decisions here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct ConstPointers : NvOneNamePass<ConstPointers> {
  static constexpr const char *Name = "nv-const-pointers";
  static constexpr const char *Description =
      "Pointers loaded from constant memory are global (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_const_pointers_run(wrap(&F), &A.ORE);
  }
};

} // namespace

// Makes `nv-const-pointers` a function pass name for opt -passes=.
void nvopt_register_const_pointers(PassBuilder &PB) { nvRegisterNewPMPass<ConstPointers>(PB); }
