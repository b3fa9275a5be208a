// The `nv-scev-sources` new-PM function pass: the LLVM adapter of src/analysis/scev_sources
// (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms"). It walks the function
// (special-register calls, loops, header PHIs, the branches that guard their increments), hands
// Rust the facts (launch-bound attributes, SCEV trees and ranges, compare predicates) and applies
// what Rust returns: `range` return attributes and nuw/nsw flags.
// No decisions here.
#include "llvm/Analysis/AssumptionCache.h"
#include "search_budgets.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"
#include "ffi.h"
#include "sreg_terms.h"
#include <cstdint>

using namespace llvm;

struct NvFunctionRun;

namespace {

uint32_t flagsOf(const Instruction &I) {
  return (I.hasNoUnsignedWrap() ? uint32_t(WRAP_NUW) : 0u) |
         (I.hasNoSignedWrap() ? uint32_t(WRAP_NSW) : 0u);
}

bool setFlags(Instruction &I, uint32_t Flags) {
  bool Changed = false;
  if ((Flags & WRAP_NUW) && !I.hasNoUnsignedWrap()) {
    I.setHasNoUnsignedWrap(true);
    Changed = true;
  }
  if ((Flags & WRAP_NSW) && !I.hasNoSignedWrap()) {
    I.setHasNoSignedWrap(true);
    Changed = true;
  }
  return Changed;
}

bool narrowInt(const Value *V) {
  return V->getType()->isIntegerTy() && V->getType()->getIntegerBitWidth() <= 64;
}

class Adapter {
  Function &F;
  NvFunctionRun *Run;
  nvopt::SregTerms Terms;
  ScalarEvolution *SE = nullptr;
  DominatorTree *DT = nullptr;

public:
  Adapter(Function &F, NvFunctionRun *Run) : F(F), Run(Run) {}

  // Puts Rust's range on every special-register read; tells whether any read exists.
  bool applyRanges(bool &SawSreg) {
    bool Changed = false;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      int32_t Code = CB ? Terms.code(CB) : -1;
      if (Code < 0 || !narrowInt(CB))
        continue;
      SawSreg = true;
      unsigned W = CB->getType()->getIntegerBitWidth();
      std::optional<ConstantRange> R = CB->getRange();
      uint64_t Out[2];
      if (!nvopt_ss_sreg_range(Run, Code, W, R.has_value(), R ? R->getLower().getZExtValue() : 0,
                               R ? R->getUpper().getZExtValue() : 0,
                               CB->getAttributes().hasRetAttr(Attribute::Range), Out))
        continue;
      ConstantRange New(APInt(W, Out[0]), APInt(W, Out[1], false, /*implicitTrunc=*/true));
      CB->removeRetAttr(Attribute::Range);
      CB->addRangeRetAttr(New);
      Changed = true;
    }
    return Changed;
  }

  bool applyIdioms(FunctionAnalysisManager &AM) {
    LoopInfo &LI = AM.getResult<LoopAnalysis>(F);
    if (LI.empty())
      return false;
    DT = &AM.getResult<DominatorTreeAnalysis>(F);
    // A fresh ScalarEvolution: it must see the ranges applyRanges just set.
    ScalarEvolution Fresh(F, AM.getResult<TargetLibraryAnalysis>(F),
                          AM.getResult<AssumptionAnalysis>(F), *DT, LI);
    SE = &Fresh;
    bool Changed = false;
    for (Loop *L : LI.getLoopsInPreorder())
      for (PHINode &PN : L->getHeader()->phis())
        Changed |= induction(*L, PN);
    SE = nullptr;
    return Changed;
  }

private:
  NvBounds bounds(const Value *V) {
    const SCEV *S = SE->getSCEV(const_cast<Value *>(V));
    ConstantRange U = SE->getUnsignedRange(S), Sg = SE->getSignedRange(S);
    return {U.getUnsignedMin().getZExtValue(), U.getUnsignedMax().getZExtValue(),
            Sg.getSignedMin().getSExtValue(), Sg.getSignedMax().getSExtValue()};
  }

  // Adds the guard a conditional branch in `D` on `icmp (Tested, bound)` gives, once per
  // successor along which the loop goes on (`GoesOn`).
  template <typename Pred>
  void addGuard(BasicBlock *D, const Value *Tested, bool TestsNext, Pred GoesOn,
                SmallVectorImpl<NvGuard> &Out) {
    auto *Br = dyn_cast<BranchInst>(D->getTerminator());
    auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
    if (!Cmp || Br->getSuccessor(0) == Br->getSuccessor(1))
      return;
    bool Lhs = Cmp->getOperand(0) == Tested;
    if (!Lhs && Cmp->getOperand(1) != Tested)
      return;
    Value *Bound = Cmp->getOperand(Lhs ? 1 : 0);
    for (unsigned S = 0; S < 2; ++S)
      if (GoesOn(Br->getSuccessor(S)))
        Out.push_back({static_cast<uint32_t>(Cmp->getPredicate()), TestsNext, Lhs, S == 0,
                       bounds(Bound)});
  }

  // Tests of the PHI on every path to the increment (blocks that dominate it), and the test
  // of the increment on the only backedge.
  SmallVector<NvGuard, 4> guards(const Loop &L, PHINode &PN, BinaryOperator &Inc) {
    SmallVector<NvGuard, 4> Out;
    BasicBlock *IncBB = Inc.getParent();
    for (DomTreeNode *N = DT->getNode(IncBB)->getIDom(); N && L.contains(N->getBlock());
         N = N->getIDom()) {
      BasicBlock *D = N->getBlock();
      addGuard(D, &PN, false,
               [&](BasicBlock *S) { return DT->dominates(BasicBlockEdge(D, S), IncBB); }, Out);
    }
    BasicBlock *Header = L.getHeader();
    addGuard(L.getLoopLatch(), &Inc, true, [&](BasicBlock *S) { return S == Header; }, Out);
    return Out;
  }

  // One header PHI `i = phi [start, outside], [add i, step, latch]`.
  bool induction(const Loop &L, PHINode &PN) {
    BasicBlock *Latch = L.getLoopLatch();
    if (!Latch || !narrowInt(&PN) || PN.getNumIncomingValues() != 2)
      return false;
    int Back = PN.getBasicBlockIndex(Latch);
    if (Back < 0 || L.contains(PN.getIncomingBlock(1 - Back)))
      return false;
    Value *Start = PN.getIncomingValue(1 - Back);
    auto *Inc = dyn_cast<BinaryOperator>(PN.getIncomingValue(Back));
    if (!Inc || Inc->getOpcode() != Instruction::Add || !L.contains(Inc))
      return false;
    Value *Step = Inc->getOperand(0) == &PN   ? Inc->getOperand(1)
                  : Inc->getOperand(1) == &PN ? Inc->getOperand(0)
                                              : nullptr;
    if (!Step)
      return false;
    SmallVector<NvGuard, 4> Guards = guards(L, PN, *Inc);
    SmallVector<NvScevNode, 16> StartT, StepT;
    Terms.encode(SE->getSCEV(Start), StartT);
    Terms.encode(SE->getSCEV(Step), StepT);
    NvIvFacts Facts{PN.getType()->getIntegerBitWidth(),
                    flagsOf(*Inc),
                    bounds(Start),
                    bounds(Step),
                    StartT.data(),
                    StartT.size(),
                    StepT.data(),
                    StepT.size(),
                    Guards.data(),
                    Guards.size()};
    NvIvDecision D;
    nvopt_ss_induction(Run, &Facts, &D);
    bool Changed = setFlags(*Inc, D.Flags);
    if (D.CheckOperands)
      Changed |= operations(Start, 0) | operations(Step, 0);
    return Changed;
  }

  // Asks Rust about the add/mul instructions that compute `V` (through extensions).
  bool operations(Value *V, unsigned Depth) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > nvopt::searchBudgets().SourcesMaxOperandDepth || !narrowInt(I))
      return false;
    if (isa<ZExtInst, SExtInst, TruncInst>(I))
      return operations(I->getOperand(0), Depth + 1);
    auto *BO = dyn_cast<BinaryOperator>(I);
    if (!BO || (BO->getOpcode() != Instruction::Add && BO->getOpcode() != Instruction::Mul))
      return false;
    bool Changed = operations(BO->getOperand(0), Depth + 1);
    Changed |= operations(BO->getOperand(1), Depth + 1);
    NvBounds A = bounds(BO->getOperand(0)), B = bounds(BO->getOperand(1));
    uint32_t Op = BO->getOpcode() == Instruction::Add ? 0 : 1;
    uint32_t Flags =
        nvopt_ss_operation(Run, Op, BO->getType()->getIntegerBitWidth(), &A, &B, flagsOf(*BO));
    return setFlags(*BO, Flags) || Changed;
  }
};

struct NvScevSourcesPass : PassInfoMixin<NvScevSourcesPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    const std::string &Triple = F.getParent()->getTargetTriple().str();
    if (F.isDeclaration() || !nvopt_ss_applies(nvStr(Triple)))
      return PreservedAnalyses::all();
    NvStr Attrs[3];
    nvLaunchBounds(F, Attrs);
    NvFunctionRun *Run = nvopt_ss_begin(nvStr(F.getName()), F.getCallingConv(), Attrs);
    Adapter A(F, Run);
    bool SawSreg = false;
    bool Changed = A.applyRanges(SawSreg);
    if (SawSreg)
      Changed |= A.applyIdioms(AM);
    nvopt_ss_end(Run);
    if (!Changed)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) {
    OS << "nv-scev-sources";
  }
};

} // namespace

// Makes `nv-scev-sources` a function pass name for -passes= and the nvopt pipelines.
void nvopt_register_scev_sources(PassBuilder &PB) {
  nvRegisterFunctionPass<NvScevSourcesPass>(PB, "nv-scev-sources");
}
