// IV-start widening's pass plumbing (the pass is src/addr/widen.rs, in Rust): the legacy pass
// `nv-iv-start-widening` that src/codegen.rs inserts right after llc's SpeculativeExecution
// (so right before SLSR), and the same name for opt -passes=. Both hand Rust the function and
// its LoopInfo, which LLVM's C API lacks (src/ir/loops.rs reads it through src/shim/loops.cpp).
// No decisions here.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_widen_run(LLVMValueRef F, const void *LI);

namespace {

bool runOn(Function &F, LoopInfo &LI) { return !F.isDeclaration() && nvopt_widen_run(wrap(&F), &LI); }

struct WideningPass : PassInfoMixin<WideningPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    if (!runOn(F, FAM.getResult<LoopAnalysis>(F)))
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
};

class WideningLegacy : public FunctionPass {
public:
  static char ID;
  WideningLegacy() : FunctionPass(ID) {}
  StringRef getPassName() const override { return "IV-start widening for BASR (nvopt)"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.setPreservesCFG();
  }
  bool runOnFunction(Function &F) override {
    return !skipFunction(F) && runOn(F, getAnalysis<LoopInfoWrapperPass>().getLoopInfo());
  }
};

char WideningLegacy::ID = 0;
RegisterPass<WideningLegacy> Registration("nv-iv-start-widening", "IV-start widening for BASR (nvopt)",
                                          false, false);

} // namespace

// Makes `nv-iv-start-widening` a function pass name for opt -passes=.
void nvopt_register_iv_start_widening(PassBuilder &PB) {
  nvRegisterFunctionPass<WideningPass>(PB, "nv-iv-start-widening");
}
