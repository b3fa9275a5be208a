// The pass plumbing of nv-lower-struct-args (the pass is src/opt/lower_struct_args.rs, in Rust): a
// new-PM function pass for opt -passes=nv-lower-struct-args and the nvopt pipelines'
// nv:lower-struct-args slot. No decisions here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct LowerStructArgs : NvOneNamePass<LowerStructArgs> {
  static constexpr const char *Name = "nv-lower-struct-args";
  static constexpr const char *Description = "Lower by-value struct arguments of kernels (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_lower_struct_args_run(wrap(&F), &A.ORE);
  }
};

} // namespace

// Makes `nv-lower-struct-args` a function pass name for opt -passes=.
void nvopt_register_lower_struct_args(PassBuilder &PB) { nvRegisterNewPMPass<LowerStructArgs>(PB); }
