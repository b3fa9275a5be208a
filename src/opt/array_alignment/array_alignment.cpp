// The pass plumbing of nv-set-local-array-alignment (a function pass) and
// nv-set-global-array-alignment (a module pass); the passes are src/opt/array_alignment, in Rust.
// New-PM passes for opt -passes= and the nvopt pipelines' nv:set-local-array-alignment and
// nv:set-global-array-alignment slots. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

namespace {

struct LocalArrayAlignment : NvOneNamePass<LocalArrayAlignment> {
  static constexpr const char *Name = "nv-set-local-array-alignment";
  static constexpr const char *Description = "Set local array alignment (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_set_local_array_alignment_run(wrap(&F), &A.ORE);
  }
};

constexpr const char *GlobalName = "nv-set-global-array-alignment";

struct GlobalArrayAlignment : PassInfoMixin<GlobalArrayAlignment> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!nvopt_set_global_array_alignment_run(wrap(&M)))
      return PreservedAnalyses::all();
    // Only alignments changed: no function's control flow.
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << GlobalName; }
};

} // namespace

// Makes `nv-set-local-array-alignment` a function pass name and
// `nv-set-global-array-alignment` a module pass name for opt -passes=.
void nvopt_register_array_alignment(PassBuilder &PB) {
  nvRegisterNewPMPass<LocalArrayAlignment>(PB);
  nvRegisterModulePass<GlobalArrayAlignment>(PB, GlobalName);
}
