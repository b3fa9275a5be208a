// LoopInfo for the passes written in Rust (src/ir/loops.rs): LLVM's C API has no loop analysis,
// so Rust asks the shim for a function's loops in preorder, a loop's header and whether a block
// belongs to a loop. Facts only: nothing here decides.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm-c/Types.h"

using namespace llvm;

namespace {
const Loop &loop(const void *L) { return *static_cast<const Loop *>(L); }
} // namespace

// Calls Push(Ctx, L) for every loop of LI, outermost first, in program order (LoopInfo's
// getLoopsInPreorder).
extern "C" void nvopt_loops_preorder(const void *LI, void (*Push)(void *, const void *),
                                     void *Ctx) {
  for (const Loop *L : static_cast<const LoopInfo *>(LI)->getLoopsInPreorder())
    Push(Ctx, L);
}

extern "C" LLVMBasicBlockRef nvopt_loop_header(const void *L) {
  return wrap(loop(L).getHeader());
}

extern "C" bool nvopt_loop_contains(const void *L, LLVMBasicBlockRef BB) {
  return loop(L).contains(unwrap(BB));
}

// The innermost loop holding BB (LoopInfo::getLoopFor), or null.
extern "C" const void *nvopt_loop_for(const void *LI, LLVMBasicBlockRef BB) {
  return static_cast<const LoopInfo *>(LI)->getLoopFor(unwrap(BB));
}

// The loop L is nested in, or null for an outermost loop.
extern "C" const void *nvopt_loop_parent(const void *L) { return loop(L).getParentLoop(); }
