// Encodes SCEV expressions over PTX special registers for Rust (see sreg_terms.h). Adapter only:
// Rust names the special registers (nvopt_ss_sreg_code) and classifies the trees.
#include "sreg_terms.h"
#include "search_budgets.h"
#include "ffi.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

extern "C" int32_t nvopt_ss_sreg_code(NvStr Name);

namespace {
enum : uint32_t { TermConst, TermSreg, TermAdd, TermMul, TermExt, TermOther };
} // namespace

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

void nvopt::SregTerms::encode(const SCEV *S, SmallVectorImpl<NvTermNode> &Out) {
  encodeFrom(S, Out, Out.size());
}

void nvopt::SregTerms::encodeFrom(const SCEV *S, SmallVectorImpl<NvTermNode> &Out, size_t Base) {
  auto Leaf = [&](uint32_t Kind, int64_t V) { Out.push_back({Kind, 0, V}); };
  if (Out.size() - Base >= nvopt::searchBudgets().SregMaxTermNodes)
    return Leaf(TermOther, 0);
  if (const auto *C = dyn_cast<SCEVConstant>(S)) {
    const APInt &V = C->getAPInt();
    return V.getBitWidth() <= 64 ? Leaf(TermConst, V.getSExtValue()) : Leaf(TermOther, 0);
  }
  if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
    int32_t Code = code(U->getValue());
    return Code >= 0 ? Leaf(TermSreg, Code) : Leaf(TermOther, 0);
  }
  uint32_t Kind = isa<SCEVAddExpr>(S)                                             ? TermAdd
                  : isa<SCEVMulExpr>(S)                                           ? TermMul
                  : isa<SCEVTruncateExpr, SCEVZeroExtendExpr, SCEVSignExtendExpr>(S) ? TermExt
                                                                                  : TermOther;
  if (Kind == TermOther)
    return Leaf(TermOther, 0);
  ArrayRef<const SCEV *> Ops = S->operands();
  Out.push_back({Kind, static_cast<uint32_t>(Ops.size()), 0});
  for (const SCEV *Op : Ops)
    encodeFrom(Op, Out, Base);
}
