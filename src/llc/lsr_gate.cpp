// The legacy loop pass `nv-lsr-gate-pass` (switched by the knob `nv-lsr-gate`; a legacy pass
// name must differ from every knob, since opt turns each registered legacy pass into an option):
// cicc's LSR gates (docs/CICC-FACTS.md "NVIDIA LSR knobs": disable-unknown-trip-lsr,
// lsr-check-rp / lsr-rp-limit) around llc's stock LoopStrengthReduce, which stays in the
// pipeline unchanged. src/shim/codegen.cpp inserts this
// pass after `canon-freeze`, i.e. right before `loop-reduce` in the same loop pass manager, so
// for each loop this pass runs and then LSR runs. Here the facts of the loop are collected
// (loop level, whether SCEV computes its backedge-taken count, the function and header block,
// whose register pressure Rust's estimator reads, src/analysis/pressure) and Rust (src/llc/lsr_gate.rs)
// decides. A loop Rust rejects is vetoed through
// the context's OptPassGate, the hook LoopPass::skipLoop consults (LSR's runOnLoop starts with
// skipLoop): the gate answers "no" to the next LSR query and hands every other query to the
// gate it replaced (opt-bisect), and is removed again when the loop pass manager finishes the
// function. No decisions here.
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopStrengthReduce.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Analysis/LoopPass.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Pass.h"
#include <algorithm>

#include "boundary.h"

using namespace llvm;

namespace {

// What a trial needs: the loop and the target machine (llc's, for the copy's TTI).
struct TrialContext {
  Loop *L;
  TargetMachine *TM;
};

// Runs stock LSR on one loop only (the clone of the loop at the gate).
struct OnlyOneLoopLSR : PassInfoMixin<OnlyOneLoopLSR> {
  BasicBlock *Header;
  PreservedAnalyses run(Loop &L, LoopAnalysisManager &AM, LoopStandardAnalysisResults &AR,
                        LPMUpdater &U) {
    if (L.getHeader() != Header)
      return PreservedAnalyses::all();
    return LoopStrengthReducePass().run(L, AM, AR, U);
  }
};

} // namespace

// The trial fact of the LSR gate (Rust asks for it, src/llc/lsr_gate.rs): a copy of the loop's
// function in which llc's stock LSR has rewritten the copy of the loop. Writes up to Cap of the
// copied loop's blocks to Blocks and their number to *N; the caller measures the copy and
// hands it to nvopt_lsr_trial_drop. No decisions here.
extern "C" LLVMValueRef nvopt_lsr_trial_run(void *Trial, LLVMBasicBlockRef *Blocks, size_t Cap,
                                            size_t *N) {
  auto *T = static_cast<TrialContext *>(Trial);
  Function &F = *T->L->getHeader()->getParent();
  ValueToValueMapTy VMap;
  Function *C = CloneFunction(&F, VMap);
  C->setLinkage(GlobalValue::InternalLinkage);
  auto *Header = cast<BasicBlock>(VMap[T->L->getHeader()]);
  {
    LoopAnalysisManager LAM;
    FunctionAnalysisManager FAM;
    CGSCCAnalysisManager CGAM;
    ModuleAnalysisManager MAM;
    PassBuilder PB(T->TM);
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
    FunctionPassManager FPM;
    FPM.addPass(createFunctionToLoopPassAdaptor(OnlyOneLoopLSR{{}, Header}));
    FPM.run(*C, FAM);
    FAM.clear();
  }
  // Recompute the copied loop's blocks (LSR keeps the CFG of the loop).
  DominatorTree DT(*C);
  LoopInfo LI(DT);
  size_t Count = 0;
  if (Loop *CL = LI.getLoopFor(Header); CL && CL->getHeader() == Header)
    for (BasicBlock *BB : CL->blocks()) {
      if (Count < Cap)
        Blocks[Count] = wrap(BB);
      ++Count;
    }
  *N = Count;
  return wrap(C);
}

extern "C" void nvopt_lsr_trial_drop(LLVMValueRef Clone) {
  unwrap<Function>(Clone)->eraseFromParent();
}

namespace {

// Answers "no" once to the pass named Vetoed after arm(true); every other query goes to the
// gate it replaced.
class OneShotVeto final : public OptPassGate {
public:
  OptPassGate *Prev = nullptr;
  StringRef Vetoed;
  mutable bool Armed = false;

  bool isEnabled() const override { return true; }
  bool shouldRunPass(StringRef PassName, StringRef IRDescription) const override {
    if (Armed && PassName == Vetoed) {
      Armed = false;
      return false;
    }
    return !Prev->isEnabled() || Prev->shouldRunPass(PassName, IRDescription);
  }
};

// Level counted from the innermost loop: 1 for a loop without subloops.
unsigned levelOf(const Loop &L) {
  unsigned Sub = 0;
  for (const Loop *S : L)
    Sub = std::max(Sub, levelOf(*S));
  return Sub + 1;
}

class NVLSRGate : public LoopPass {
public:
  static char ID;
  NVLSRGate() : LoopPass(ID) {}
  ~NVLSRGate() override { uninstall(); }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<ScalarEvolutionWrapperPass>();
    AU.setPreservesAll();
  }

  bool runOnLoop(Loop *L, LPPassManager &) override {
    Function &F = *L->getHeader()->getParent();
    if (!install(F.getContext()))
      return false;
    Veto.Armed = false;
    if (skipLoop(L))
      return false;
    ScalarEvolution &SE = getAnalysis<ScalarEvolutionWrapperPass>().getSE();
    StringRef FName = F.getName(), HName = L->getHeader()->getName();
    auto *TPC = getAnalysisIfAvailable<TargetPassConfig>();
    TrialContext Trial{L, TPC ? &TPC->getTM<TargetMachine>() : nullptr};
    CLoopFacts Facts{FName.data(),
                     FName.size(),
                     HName.data(),
                     HName.size(),
                     levelOf(*L),
                     !isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L)),
                     wrap(&F),
                     wrap(L->getHeader()),
                     static_cast<unsigned>(std::distance(L->getHeader()->phis().begin(),
                                                         L->getHeader()->phis().end())),
                     L,
                     Trial.TM ? &Trial : nullptr};
    Veto.Armed = !nvopt_lsr_gate_allows(&Facts);
    return false;
  }

  bool doFinalization() override {
    uninstall();
    return false;
  }

private:
  OneShotVeto Veto;
  LLVMContext *Installed = nullptr;

  // Puts the veto in front of the context's gate for the rest of this function's loops.
  bool install(LLVMContext &Ctx) {
    if (Installed == &Ctx)
      return true;
    uninstall();
    const PassInfo *LSR = PassRegistry::getPassRegistry()->getPassInfo(StringRef("loop-reduce"));
    if (!LSR)
      return false;
    Veto.Vetoed = LSR->getPassName();
    Veto.Prev = &Ctx.getOptPassGate();
    Ctx.setOptPassGate(Veto);
    Installed = &Ctx;
    return true;
  }

  void uninstall() {
    if (!Installed)
      return;
    if (&Installed->getOptPassGate() == &Veto)
      Installed->setOptPassGate(*Veto.Prev);
    Veto.Armed = false;
    Installed = nullptr;
  }
};

char NVLSRGate::ID = 0;

RegisterPass<NVLSRGate> Registration("nv-lsr-gate-pass",
                                     "NVIDIA LSR gates before Loop Strength Reduction (nvopt)",
                                     false, false);

} // namespace
