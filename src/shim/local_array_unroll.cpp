// nv-local-array-unroll's pass plumbing (the pass is src/local_array_unroll, in Rust): the
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

extern "C" bool nvopt_local_array_unroll_run(LLVMValueRef F, const void *LI, void *SE, void *ORE);

namespace {

constexpr const char *Name = "nv-local-array-unroll";

struct NvLocalArrayUnrollPass : PassInfoMixin<NvLocalArrayUnrollPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return PreservedAnalyses::all();
    if (!nvopt_local_array_unroll_run(wrap(&F), &LI, &AM.getResult<ScalarEvolutionAnalysis>(F),
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

// Makes `nv-local-array-unroll` a function pass name for -passes= and the nvopt pipelines.
void nvopt_register_local_array_unroll(PassBuilder &PB) {
  nvRegisterFunctionPass<NvLocalArrayUnrollPass>(PB, Name);
}
