// The pass plumbing of nv-reuse-local-memory (a function pass; the pass is
// src/opt/reuse_local_memory.rs, in Rust): the new-PM pass for opt -passes= and the nvopt
// pipelines' nv:reuse-local-memory slot. No decisions here.
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct ReuseLocalMemory : NvOneNamePass<ReuseLocalMemory> {
  static constexpr const char *Name = "nv-reuse-local-memory";
  static constexpr const char *Description = "vprintf buffers given a lifetime (nvopt)";
  static bool runOn(Function &F, NvAnalyses &) { return nvopt_reuse_local_memory_run(wrap(&F)); }
};

} // namespace

// Makes `nv-reuse-local-memory` a function pass name for opt -passes=.
void nvopt_register_reuse_local_memory(PassBuilder &PB) {
  nvRegisterNewPMPass<ReuseLocalMemory>(PB);
}
