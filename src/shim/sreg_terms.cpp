// Encodes SCEV expressions over PTX special registers for Rust (see sreg_terms.h). Adapter only:
// Rust names the special registers (nvopt_ss_sreg_code) and classifies the trees.
#include "sreg_terms.h"
#include "search_budgets.h"
#include "ffi.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

extern "C" int32_t nvopt_ss_sreg_code(NvStr Name);

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
