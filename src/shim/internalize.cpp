// The pass plumbing of nv-internalize (whole-program mode; the pass is src/internalize.rs, in
// Rust): a new-PM module pass for opt -passes=nv-internalize and the nvopt pipelines'
// nv:internalize slot. It hands the module to Rust and, when Rust changed it (linkage, deleted
// globals), preserves nothing. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_internalize_run(LLVMModuleRef M);

namespace {

constexpr const char *Name = "nv-internalize";

struct Internalize : PassInfoMixin<Internalize> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return nvopt_internalize_run(wrap(&M)) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

} // namespace

// Makes `nv-internalize` a module pass name for opt -passes=.
void nvopt_register_internalize(PassBuilder &PB) { nvRegisterModulePass<Internalize>(PB, Name); }
