// The pass plumbing of the passes that decide loop unrolling by marking `llvm.loop` metadata
// (the decisions are in Rust): nv-local-array-unroll (src/opt/local_array_unroll),
// nv-shuffle-loop-unroll (src/opt/shuffle_loop_unroll) and nv-stride-loop-unroll
// (src/opt/stride_loop_unroll) before the first `loop-unroll` slot, and nv-texture-unroll-guard
// (src/opt/texture_unroll_guard) and nv-pressure-unroll-guard (src/opt/pressure_unroll_guard) for
// ptxas's unroller, after the last. Each is a new-PM function
// pass that hands Rust the function with its LoopInfo, ScalarEvolution and
// OptimizationRemarkEmitter (none of which LLVM's C API offers); Rust says whether it changed
// any loop's metadata. No decisions here.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

constexpr char LocalArrayUnroll[] = "nv-local-array-unroll";
constexpr char ShuffleLoopUnroll[] = "nv-shuffle-loop-unroll";
constexpr char StrideLoopUnroll[] = "nv-stride-loop-unroll";
constexpr char TextureUnrollGuard[] = "nv-texture-unroll-guard";
constexpr char PressureUnrollGuard[] = "nv-pressure-unroll-guard";

bool runLocalArrayUnroll(Function &F, LoopInfo &LI, FunctionAnalysisManager &AM,
                         OptimizationRemarkEmitter &ORE) {
  return nvopt_local_array_unroll_run(wrap(&F), &LI, &AM.getResult<ScalarEvolutionAnalysis>(F),
                                      &ORE);
}

bool runShuffleLoopUnroll(Function &F, LoopInfo &LI, FunctionAnalysisManager &,
                          OptimizationRemarkEmitter &ORE) {
  return nvopt_shuffle_loop_unroll_run(wrap(&F), &LI, &ORE);
}

bool runStrideLoopUnroll(Function &F, LoopInfo &LI, FunctionAnalysisManager &AM,
                         OptimizationRemarkEmitter &ORE) {
  return nvopt_stride_loop_unroll_run(wrap(&F), &LI, &AM.getResult<ScalarEvolutionAnalysis>(F),
                                      &ORE);
}

bool runTextureUnrollGuard(Function &F, LoopInfo &LI, FunctionAnalysisManager &AM,
                           OptimizationRemarkEmitter &ORE) {
  return nvopt_texture_unroll_guard_run(wrap(&F), &LI, &AM.getResult<ScalarEvolutionAnalysis>(F),
                                        &ORE);
}

bool runPressureUnrollGuard(Function &F, LoopInfo &LI, FunctionAnalysisManager &AM,
                            OptimizationRemarkEmitter &ORE) {
  return nvopt_pressure_unroll_guard_run(wrap(&F), &LI,
                                         &AM.getResult<ScalarEvolutionAnalysis>(F), &ORE);
}

// Run(F, LoopInfo, AM, ORE) may change loop metadata only, and says whether it did.
template <bool (*Run)(Function &, LoopInfo &, FunctionAnalysisManager &,
                      OptimizationRemarkEmitter &),
          const char *Name>
struct NvUnrollMarkPass : PassInfoMixin<NvUnrollMarkPass<Run, Name>> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty() || !Run(F, LI, AM, AM.getResult<OptimizationRemarkEmitterAnalysis>(F)))
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

// Makes `nv-local-array-unroll`, `nv-shuffle-loop-unroll`, `nv-stride-loop-unroll`,
// `nv-texture-unroll-guard` and `nv-pressure-unroll-guard` function pass names for -passes= and the nvopt pipelines.
void nvopt_register_unroll_marks(PassBuilder &PB) {
  nvRegisterFunctionPass<NvUnrollMarkPass<runLocalArrayUnroll, LocalArrayUnroll>>(PB,
                                                                                 LocalArrayUnroll);
  nvRegisterFunctionPass<NvUnrollMarkPass<runShuffleLoopUnroll, ShuffleLoopUnroll>>(
      PB, ShuffleLoopUnroll);
  nvRegisterFunctionPass<NvUnrollMarkPass<runStrideLoopUnroll, StrideLoopUnroll>>(PB,
                                                                                 StrideLoopUnroll);
  nvRegisterFunctionPass<NvUnrollMarkPass<runTextureUnrollGuard, TextureUnrollGuard>>(
      PB, TextureUnrollGuard);
  nvRegisterFunctionPass<NvUnrollMarkPass<runPressureUnrollGuard, PressureUnrollGuard>>(
      PB, PressureUnrollGuard);
}
