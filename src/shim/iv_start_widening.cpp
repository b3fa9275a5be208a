// IV-start widening's LLVM adapter (src/addr/widen.rs decides; research-facts.md "Address
// optimization"): the legacy pass `nv-iv-start-widening` that src/codegen.rs inserts right after
// llc's SpeculativeExecution (so right before SLSR), and the same name for opt -passes=. It finds
// loop-header IVs `phi [s, outside], [phi +nsw d / -nsw d, inside]` (d invariant) that are
// sign-extended into a GEP index and whose start s is nsw add/sub/mul/shl arithmetic, hands Rust
// each one's loop and nsw-operation count, and rebuilds each chosen start as `trunc nsw` of the
// same arithmetic on sign-extended operands in 64 bits. Where s is not poison, no operation under
// it wrapped, so the 64-bit value is sext(s) and the trunc is s; where s is poison, the new start
// is poison or a defined value (a refinement). Each 64-bit operation goes right after the operation it
// rebuilds, each extension next to its use (see sextFor); the old start is deleted when nothing
// else uses it. No decisions here.
#include "llvm/ADT/DenseMap.h"
#include "search_budgets.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Local.h"
#include "access_scev.h"
#include "register.h"
#include <cstdint>
#include <vector>

using namespace llvm;

// Mirrors src/addr/widen.rs `Start`.
struct NvWidenStart {
  uint32_t Loop, NswOps;
};
extern "C" void nvopt_widen_choose(const NvWidenStart *Starts, size_t N, uint8_t *Out);

namespace {

constexpr unsigned WideBits = 64;

// An nsw add/sub/mul, or shl by a constant below the width: the 64-bit rebuild goes through it.
bool isNswOp(Value *V) { return nvopt::extendsThrough(V, /*AssumeNsw=*/false); }

// The nsw operations under V (V included), or -1 when a leaf has no place for its extension.
int countNsw(Value *V, unsigned Depth, SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(V).second)
    return 0;
  if (Depth < nvopt::searchBudgets().WidenMaxDepth && isNswOp(V)) {
    int A = countNsw(cast<User>(V)->getOperand(0), Depth + 1, Seen);
    int B = countNsw(cast<User>(V)->getOperand(1), Depth + 1, Seen);
    return A < 0 || B < 0 ? -1 : A + B + 1;
  }
  auto *I = dyn_cast<Instruction>(V);
  return I && !I->getInsertionPointAfterDef() ? -1 : 0;
}

// Whether V (the IV or its increment) is sign-extended into a GEP index.
bool extendedIntoAddress(Value *V) {
  for (User *U : V->users()) {
    auto *Z = dyn_cast<ZExtInst>(U);
    if (!isa<SExtInst>(U) && !(Z && Z->hasNonNeg()))
      continue;
    for (User *G : U->users())
      if (isa<GetElementPtrInst>(G))
        return true;
  }
  return false;
}

struct Candidate {
  PHINode *Phi;
  unsigned Slot; // the incoming slot from outside the loop
  NvWidenStart Facts;
};

class Widener {
public:
  explicit Widener(LLVMContext &C) : Wide(Type::getIntNTy(C, WideBits)) {}

  void rewrite(const Candidate &C) {
    auto *Start = cast<Instruction>(C.Phi->getIncomingValue(C.Slot));
    auto *W = cast<Instruction>(wide(Start, Start->getParent(), 0));
    IRBuilder<> IRB(W->getNextNode());
    Value *T = IRB.CreateTrunc(W, Start->getType(), Start->getName() + ".narrow", false, true);
    C.Phi->setIncomingValue(C.Slot, T);
    RecursivelyDeleteTriviallyDeadInstructions(Start);
  }

private:
  Type *Wide;
  // Answers of wide(): an nsw operation's is keyed by the operation, a leaf's by the leaf and
  // the block that uses it.
  DenseMap<std::pair<Value *, BasicBlock *>, Value *> Done;

  // V sign-extended to 64 bits, rebuilt through nsw operations (see the header), for a use in
  // block At.
  Value *wide(Value *V, BasicBlock *At, unsigned Depth) {
    bool Op = Depth < nvopt::searchBudgets().WidenMaxDepth && isNswOp(V);
    auto Key = std::make_pair(V, Op ? nullptr : At);
    if (Value *Known = Done.lookup(Key))
      return Known;
    Value *R;
    if (Op) {
      auto *BO = cast<BinaryOperator>(V);
      Value *A = wide(BO->getOperand(0), BO->getParent(), Depth + 1);
      Value *B = BO->getOpcode() == Instruction::Shl
                     ? ConstantInt::get(Wide, cast<ConstantInt>(BO->getOperand(1))->getZExtValue())
                     : wide(BO->getOperand(1), BO->getParent(), Depth + 1);
      IRBuilder<> IRB(BO->getNextNode());
      R = IRB.CreateBinOp(BO->getOpcode(), A, B, BO->getName() + ".wide");
    } else {
      R = sextFor(V, At);
    }
    Done[Key] = R;
    return R;
  }

  // sext(V) for a use in block At: right after V when V is defined in At, else at the top of At
  // (so instruction selection, which works a block at a time, sees the extension next to its
  // use and can form mul.wide); a constant folds.
  Value *sextFor(Value *V, BasicBlock *At) {
    auto *I = dyn_cast<Instruction>(V);
    BasicBlock::iterator Pos = I && I->getParent() == At ? *I->getInsertionPointAfterDef() : At->getFirstInsertionPt();
    IRBuilder<> IRB(At, Pos);
    return IRB.CreateSExt(V, Wide, V->getName() + ".sext");
  }
};

std::vector<Candidate> candidates(LoopInfo &LI) {
  std::vector<Candidate> Out;
  SmallVector<Loop *, 8> Loops = LI.getLoopsInPreorder();
  for (unsigned Id = 0; Id < Loops.size(); ++Id) {
    Loop *L = Loops[Id];
    for (PHINode &P : L->getHeader()->phis()) {
      if (!P.getType()->isIntegerTy() || P.getType()->getIntegerBitWidth() >= WideBits)
        continue;
      std::optional<nvopt::IvStep> IV = nvopt::ivStep(&P, L, /*AssumeNsw=*/false);
      if (!IV || !(extendedIntoAddress(&P) || extendedIntoAddress(IV->Inc)))
        continue;
      unsigned Slot = IV->Outside;
      SmallPtrSet<Value *, 16> Seen;
      int Ops = isNswOp(P.getIncomingValue(Slot)) ? countNsw(P.getIncomingValue(Slot), 0, Seen) : -1;
      if (Ops > 0)
        Out.push_back({&P, Slot, {Id, static_cast<uint32_t>(Ops)}});
    }
  }
  return Out;
}

bool runOn(Function &F, LoopInfo &LI) {
  if (F.isDeclaration())
    return false;
  std::vector<Candidate> Cands = candidates(LI);
  std::vector<NvWidenStart> Facts;
  for (const Candidate &C : Cands)
    Facts.push_back(C.Facts);
  std::vector<uint8_t> Chosen(Cands.size());
  nvopt_widen_choose(Facts.data(), Facts.size(), Chosen.data());
  Widener W(F.getContext());
  bool Changed = false;
  for (size_t I = 0; I < Cands.size(); ++I)
    if (Chosen[I]) {
      W.rewrite(Cands[I]);
      Changed = true;
    }
  return Changed;
}

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
