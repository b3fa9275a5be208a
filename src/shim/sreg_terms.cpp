// Encodes SCEV expressions over PTX special registers for Rust (see sreg_terms.h), and a loop's
// exit-tested induction variable so encoded. Adapter only: Rust names the special registers
// (nvopt_ss_sreg_code) and classifies the trees.
#include "sreg_terms.h"
#include "search_budgets.h"
#include "ffi.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

int32_t nvopt::SregTerms::code(const Value *V) {
  const auto *CB = dyn_cast<CallBase>(V);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee || !CB->getType()->isIntegerTy())
    return -1;
  auto [It, New] = Codes.try_emplace(Callee, -1);
  if (New)
    It->second = nvopt_ss_sreg_code(nvStr(Callee->getName()));
  return It->second;
}

void nvopt::SregTerms::encode(const SCEV *S, SmallVectorImpl<NvScevNode> &Out) {
  encodeFrom(S, Out, Out.size());
}

void nvopt::SregTerms::encodeFrom(const SCEV *S, SmallVectorImpl<NvScevNode> &Out, size_t Base) {
  auto Leaf = [&](uint32_t Kind, int64_t V) { Out.push_back({Kind, 0, 0, 0, V, 0, 0}); };
  if (Out.size() - Base >= nvopt::searchBudgets().SregMaxTermNodes)
    return Leaf(KOther, 0);
  if (const auto *C = dyn_cast<SCEVConstant>(S)) {
    const APInt &V = C->getAPInt();
    return V.getBitWidth() <= 64 ? Leaf(KConst, V.getSExtValue()) : Leaf(KOther, 0);
  }
  if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
    int32_t Code = code(U->getValue());
    return Code >= 0 ? Leaf(KUnknown, Code) : Leaf(KOther, 0);
  }
  uint32_t Kind = isa<SCEVAddExpr>(S)            ? KAdd
                  : isa<SCEVMulExpr>(S)          ? KMul
                  : isa<SCEVTruncateExpr>(S)     ? KTrunc
                  : isa<SCEVZeroExtendExpr>(S)   ? KZExt
                  : isa<SCEVSignExtendExpr>(S)   ? KSExt
                                                 : KOther;
  if (Kind == KOther)
    return Leaf(KOther, 0);
  ArrayRef<const SCEV *> Ops = S->operands();
  Out.push_back({Kind, static_cast<uint32_t>(Ops.size()), 0, 0, 0, 0, 0});
  for (const SCEV *Op : Ops)
    encodeFrom(Op, Out, Base);
}

// The induction variable that loop L's exit compare tests, as `{Start,+,Step}` of a header PHI
// (compared directly, or through an `add` of it): Start and Step encoded as above and handed to
// Push(Ctx, Nodes, Len, IsStep), start first. False, with nothing pushed, when the compare
// tests no such PHI or its SCEV is not an affine recurrence of L. A fact for
// nv-stride-loop-unroll, which classifies the two trees in Rust.
extern "C" bool nvopt_loop_iv_terms(void *SE, const void *L,
                                    void (*Push)(void *, const NvScevNode *, size_t, bool),
                                    void *Ctx) {
  const Loop &Lp = *static_cast<const Loop *>(L);
  BasicBlock *Exiting = Lp.getExitingBlock();
  auto *Br = Exiting ? dyn_cast<BranchInst>(Exiting->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp)
    return false;
  auto HeaderPhi = [&](Value *V) -> PHINode * {
    if (auto *P = dyn_cast<PHINode>(V))
      return P->getParent() == Lp.getHeader() ? P : nullptr;
    auto *Add = dyn_cast<BinaryOperator>(V);
    if (!Add || Add->getOpcode() != Instruction::Add)
      return nullptr;
    for (Value *Op : Add->operands())
      if (auto *P = dyn_cast<PHINode>(Op); P && P->getParent() == Lp.getHeader())
        return P;
    return nullptr;
  };
  auto &S = *static_cast<ScalarEvolution *>(SE);
  for (Value *Op : Cmp->operands()) {
    PHINode *P = HeaderPhi(Op);
    const auto *AR = P ? dyn_cast<SCEVAddRecExpr>(S.getSCEV(P)) : nullptr;
    if (!AR || AR->getLoop() != &Lp || !AR->isAffine())
      continue;
    nvopt::SregTerms Terms;
    SmallVector<NvScevNode, 16> Start, Step;
    Terms.encode(AR->getStart(), Start);
    Terms.encode(AR->getStepRecurrence(S), Step);
    Push(Ctx, Start.data(), Start.size(), false);
    Push(Ctx, Step.data(), Step.size(), true);
    return true;
  }
  return false;
}
