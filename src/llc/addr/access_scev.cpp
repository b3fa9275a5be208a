// The SCEV of a load's or store's address with sign extensions distributed through nsw
// arithmetic (docs/CICC-FACTS.md "Address optimization": `sext(x + C)` splits when the inner add
// is nsw). LLVM keeps `sext({s,+,d})` and `sext(a + b)` whole unless it proves the narrow
// arithmetic does not wrap, and it rarely does for an IV whose only UB-raising use is an
// address. The proof here is the access itself: a load or store of a poison address is UB, so
// wherever the access runs, every nsw add/sub/mul/shl under its index did not wrap (or its result
// would be poison), and an IV `phi [s, pre], [phi +nsw d, latch]` equals s + n*d exactly on each
// iteration the access sees; a `trunc nsw` is exact under its sign extension. The expressions
// built here carry no wrap flags of their own.
// Adapter only: the split itself is decided in src/llc/addr/record.rs.
#include "access_scev.h"
#include "search_budgets.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace nvopt {

const SCEV *AccessScev::address(Value *Ptr, unsigned Depth) {
  // Unrolled code chains GEPs (each access a constant step from the one before): every access's
  // rebuild would walk the whole chain again.
  if (const SCEV *Known = Addresses.lookup(Ptr))
    return Known;
  const SCEV *S = rebuild(Ptr, Depth);
  Addresses[Ptr] = S;
  return S;
}

const SCEV *AccessScev::rebuild(Value *Ptr, unsigned Depth) {
  // nv-scev's own expression, asked for first even where the rebuild replaces it: building it
  // can set wrap flags on the expressions the rebuild then shares (ScalarEvolution uniques them).
  const SCEV *Plain = NV.getSCEV(Ptr);
  if (auto *P = dyn_cast<PHINode>(Ptr); P && Depth <= searchBudgets().AccessScevMaxDepth)
    if (const SCEV *R = pointerRecurrence(P, Plain, Depth))
      return R;
  auto *G = dyn_cast<GetElementPtrInst>(Ptr);
  if (!G || Depth > searchBudgets().AccessScevMaxDepth || !G->getType()->isPointerTy())
    return Plain;
  const DataLayout &DL = G->getDataLayout();
  Type *IntTy = DL.getIndexType(G->getType());
  const SCEV *Off = SE.getZero(IntTy);
  for (gep_type_iterator GTI = gep_type_begin(G), E = gep_type_end(G); GTI != E; ++GTI) {
    if (StructType *STy = GTI.getStructTypeOrNull()) {
      auto *Field = dyn_cast<ConstantInt>(GTI.getOperand());
      if (!Field)
        return Plain;
      Off = SE.getAddExpr(Off, SE.getOffsetOfExpr(IntTy, STy, Field->getZExtValue()));
      continue;
    }
    Type *Elt = GTI.getIndexedType();
    if (!GTI.getOperand()->getType()->isIntegerTy() || !Elt->isSized() ||
        DL.getTypeAllocSize(Elt).isScalable())
      return Plain;
    const SCEV *Idx = SE.getTruncateOrSignExtend(index(GTI.getOperand(), Depth + 1), IntTy);
    Off = SE.getAddExpr(Off, SE.getMulExpr(SE.getSizeOfExpr(IntTy, Elt), Idx));
  }
  return SE.getAddExpr(address(G->getPointerOperand(), Depth + 1), Off);
}

// A pointer IV `phi [start, preheader], [phi + d, latch]` that ScalarEvolution writes as the
// affine {S,+,d}: {address(start),+,d}. Exact where the PHI is dereferenced: a poison start
// makes every value of the PHI poison, so the access that runs proves the start's nsw
// arithmetic did not wrap, as for a GEP's own indices. Null for other PHIs.
const SCEV *AccessScev::pointerRecurrence(PHINode *P, const SCEV *Plain, unsigned Depth) {
  auto *AR = dyn_cast<SCEVAddRecExpr>(Plain);
  if (!AR || !AR->isAffine() || AR->getLoop()->getHeader() != P->getParent())
    return nullptr;
  BasicBlock *Pre = AR->getLoop()->getLoopPreheader();
  if (!Pre || P->getBasicBlockIndex(Pre) < 0)
    return nullptr;
  const SCEV *Start = address(P->getIncomingValueForBlock(Pre), Depth + 1);
  if (Start == AR->getStart() || Start->getType() != AR->getStart()->getType())
    return nullptr;
  return SE.getAddRecExpr(Start, AR->getStepRecurrence(SE), AR->getLoop(), SCEV::FlagAnyWrap);
}

const SCEV *AccessScev::index(Value *Idx, unsigned Depth) {
  auto *Z = dyn_cast<ZExtInst>(Idx);
  if (isa<SExtInst>(Idx) || (Z && Z->hasNonNeg()))
    return extended(cast<CastInst>(Idx)->getOperand(0), Idx->getType(), Depth + 1);
  return NV.getSCEV(Idx);
}

// V sign-extended to Wide, exact wherever V is not poison.
const SCEV *AccessScev::extended(Value *V, Type *Wide, unsigned Depth) {
  auto Key = std::make_pair(V, Wide);
  if (const SCEV *Known = Extended.lookup(Key))
    return Known;
  const SCEV *S = distribute(V, Wide, Depth);
  Extended[Key] = S;
  return S;
}

const SCEV *AccessScev::distribute(Value *V, Type *Wide, unsigned Depth) {
  auto Whole = [&] { return SE.getNoopOrSignExtend(NV.getSCEV(V), Wide); };
  if (Depth > searchBudgets().AccessScevMaxDepth || !V->getType()->isIntegerTy())
    return Whole();
  auto ext = [&](Value *X) { return extended(X, Wide, Depth + 1); };
  if (auto *P = dyn_cast<PHINode>(V))
    if (const SCEV *R = recurrence(P, Wide, Depth))
      return R;
  if (isa<SExtInst>(V))
    return ext(cast<CastInst>(V)->getOperand(0));
  if (auto *Z = dyn_cast<ZExtInst>(V); Z && Z->hasNonNeg())
    return ext(Z->getOperand(0));
  // trunc nsw X is poison unless X is its own sign extension (src/llc/addr/widen.rs).
  if (auto *T = dyn_cast<TruncInst>(V); T && T->hasNoSignedWrap() &&
                                        T->getSrcTy()->getIntegerBitWidth() <= Wide->getIntegerBitWidth())
    return ext(T->getOperand(0));
  // At the full width, add/sub/mul/shl distribute without any flag (wrapping arithmetic is what
  // the address computes); narrower, only through nsw.
  if (!extendsThrough(V, AssumeNsw || V->getType() == Wide))
    return Whole();
  auto *BO = cast<BinaryOperator>(V);
  Value *A = BO->getOperand(0), *B = BO->getOperand(1);
  switch (BO->getOpcode()) {
  case Instruction::Add:
    return SE.getAddExpr(ext(A), ext(B));
  case Instruction::Sub:
    return SE.getMinusSCEV(ext(A), ext(B));
  case Instruction::Mul:
    return SE.getMulExpr(ext(A), ext(B));
  default: // shl by a constant below the width
    return SE.getMulExpr(ext(A), SE.getConstant(APInt::getOneBitSet(
                                     Wide->getIntegerBitWidth(), cast<ConstantInt>(B)->getZExtValue())));
  }
}

// An IV of the loop P heads: {ext(s),+,ext(d)}; null when P is not one (see ivStep).
const SCEV *AccessScev::recurrence(PHINode *P, Type *Wide, unsigned Depth) {
  Loop *L = NV.LI.getLoopFor(P->getParent());
  std::optional<IvStep> IV = L && L->getHeader() == P->getParent() ? ivStep(P, L, AssumeNsw) : std::nullopt;
  if (!IV)
    return nullptr;
  const SCEV *Start = extended(P->getIncomingValue(IV->Outside), Wide, Depth + 1);
  const SCEV *Step = extended(IV->Step, Wide, Depth + 1);
  if (IV->Negative)
    Step = SE.getNegativeSCEV(Step);
  if (!SE.isAvailableAtLoopEntry(Start, L) || !SE.isAvailableAtLoopEntry(Step, L))
    return nullptr;
  return SE.getAddRecExpr(Start, Step, L, SCEV::FlagAnyWrap);
}

std::optional<IvStep> ivStep(PHINode *P, Loop *L, bool AssumeNsw) {
  if (P->getNumIncomingValues() != 2)
    return std::nullopt;
  unsigned In = L->contains(P->getIncomingBlock(0)) ? 0 : 1;
  if (!L->contains(P->getIncomingBlock(In)) || L->contains(P->getIncomingBlock(1 - In)))
    return std::nullopt;
  auto *Inc = dyn_cast<BinaryOperator>(P->getIncomingValue(In));
  if (!Inc || !(Inc->hasNoSignedWrap() || AssumeNsw))
    return std::nullopt;
  bool Add = Inc->getOpcode() == Instruction::Add, Sub = Inc->getOpcode() == Instruction::Sub;
  Value *D = Inc->getOperand(0) == P ? Inc->getOperand(1) : Add && Inc->getOperand(1) == P ? Inc->getOperand(0) : nullptr;
  if (!(Add || (Sub && Inc->getOperand(0) == P)) || !D || !L->isLoopInvariant(D))
    return std::nullopt;
  return IvStep{Inc, D, 1 - In, Sub};
}

bool extendsThrough(Value *V, bool AssumeNsw) {
  auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || !isa<OverflowingBinaryOperator>(BO) || !(BO->hasNoSignedWrap() || AssumeNsw))
    return false;
  switch (BO->getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
    return true;
  case Instruction::Shl: {
    auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
    return C && C->getValue().ult(V->getType()->getIntegerBitWidth());
  }
  default:
    return false;
  }
}

} // namespace nvopt
