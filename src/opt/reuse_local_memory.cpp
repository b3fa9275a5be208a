// The pass plumbing of nv-reuse-local-memory (a function pass; the pass is
// src/opt/reuse_local_memory.rs, in Rust): the new-PM pass for opt -passes= and the nvopt
// pipelines' nv:reuse-local-memory slot. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

namespace {

struct ReuseLocalMemory {
  static constexpr unsigned Needs = 0;
  static constexpr uint32_t LegacyArg = 0;
  static constexpr const char *Description = "vprintf buffers given a lifetime (nvopt)";
  static const char *name(uint32_t) { return "nv-reuse-local-memory"; }
  static bool run(Function &F, NvAnalyses &, uint32_t) {
    return nvopt_reuse_local_memory_run(wrap(&F));
  }
};

} // namespace

// Makes `nv-reuse-local-memory` a function pass name for opt -passes=.
void nvopt_register_reuse_local_memory(PassBuilder &PB) {
  nvRegisterNewPMPass<ReuseLocalMemory>(PB, {ReuseLocalMemory::LegacyArg});
}
