// The pass wrappers of nv-cssa (src/cssa; seed 002 "CSSA Coalescing (PHI-Specific)"): the
// new-PM function pass `nv-cssa` (opt -passes=nv-cssa) and the legacy FunctionPass of the same
// name that src/codegen.rs inserts into llc's NVPTX pipeline after CodeGenPrepare (knob
// cssa-coalesce), and their registration. Each obtains the function's DominatorTree and an
// OptimizationRemarkEmitter, which the C API cannot, and hands them with the function to Rust
// (src/cssa/adapter.rs), which reads the IR, plans, rewrites and emits the remarks through the
// generic exports of src/shim/ir_facts.cpp. No decisions here.
#include "llvm-c/Core.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

// Rust (src/cssa/adapter.rs): runs nv-cssa on one function; whether it changed the IR.
extern "C" bool nvopt_cssa_run_function(LLVMValueRef F, const void *DT, void *ORE);

namespace {

constexpr const char *Name = "nv-cssa";
constexpr const char *Description = "PHI-operand (CSSA) coalescing (nvopt)";

bool runInRust(Function &F, const DominatorTree &DT, OptimizationRemarkEmitter &ORE) {
  return nvopt_cssa_run_function(wrap(&F), &DT, &ORE);
}

struct NvCssaPass : PassInfoMixin<NvCssaPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    if (!runInRust(F, AM.getResult<DominatorTreeAnalysis>(F),
                   AM.getResult<OptimizationRemarkEmitterAnalysis>(F)))
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

class NvCssaLegacy : public FunctionPass {
public:
  static char ID;
  NvCssaLegacy() : FunctionPass(ID) {}

  StringRef getPassName() const override { return Description; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<DominatorTreeWrapperPass>();
    AU.setPreservesCFG();
  }

  bool runOnFunction(Function &F) override {
    if (F.isDeclaration() || skipFunction(F))
      return false;
    OptimizationRemarkEmitter ORE(&F);
    return runInRust(F, getAnalysis<DominatorTreeWrapperPass>().getDomTree(), ORE);
  }
};

char NvCssaLegacy::ID = 0;

} // namespace

// The legacy pass, for llc (inserted by name through src/codegen.rs).
extern "C" void nvopt_shim_register_cssa() {
  static PassInfo Info(Description, Name, &NvCssaLegacy::ID,
                       PassInfo::NormalCtor_t(callDefaultCtor<NvCssaLegacy>), false, false);
  PassRegistry::getPassRegistry()->registerPass(Info);
}

// Makes `nv-cssa` a function pass name for opt -passes=.
void nvopt_register_cssa(PassBuilder &PB) {
  nvRegisterFunctionPass<NvCssaPass>(PB, Name);
}
