// nv-texture-unroll-guard's pass plumbing (the pass is src/texture_unroll_guard, in Rust): the
// new-PM function pass of that name, which hands Rust the function with its LoopInfo,
// ScalarEvolution and OptimizationRemarkEmitter (none of which LLVM's C API offers), and its
// registration for opt -passes= and the nvopt pipelines. No decisions here.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_texture_unroll_guard_run(LLVMValueRef F, const void *LI, void *SE, void *ORE);

namespace {

constexpr const char *Name = "nv-texture-unroll-guard";

struct NvTextureUnrollGuardPass : PassInfoMixin<NvTextureUnrollGuardPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return PreservedAnalyses::all();
    if (!nvopt_texture_unroll_guard_run(wrap(&F), &LI, &AM.getResult<ScalarEvolutionAnalysis>(F),
                                      &AM.getResult<OptimizationRemarkEmitterAnalysis>(F)))
      return PreservedAnalyses::all();
    // Only loop metadata changed.
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    PA.preserve<LoopAnalysis>();
    PA.preserve<ScalarEvolutionAnalysis>();
    return PA;
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

} // namespace

// Makes `nv-texture-unroll-guard` a function pass name for -passes= and the nvopt pipelines.
void nvopt_register_texture_unroll_guard(PassBuilder &PB) {
  nvRegisterFunctionPass<NvTextureUnrollGuardPass>(PB, Name);
}
