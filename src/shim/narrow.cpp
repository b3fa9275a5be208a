// SCEV-CGP's 32-bit address arithmetic (research-facts.md "Address optimization"; seed 004: "32-bit
// address arithmetic where the expression would otherwise be widened to 64 bits"). llc's
// SeparateConstOffsetFromGEP and NaryReassociate split a GEP index `sext(a + b)` into the 64-bit
// `sext(a) + sext(b)`; where ScalarEvolution proves that `a + b` does not overflow in its own
// width (signed for sign extensions, unsigned for zero extensions; its ranges include the
// special-register bounds), the index is rebuilt as `ext(a +nsw/nuw b)`: one extension and a
// narrow add instead of two extensions and a 64-bit add. A constant operand is no extension, so
// the constants SeparateConstOffsetFromGEP splits off for `[reg+imm]` stay apart. Adapter: it
// runs when Rust switches SCEV-CGP on, and src/addr/narrow.rs decides which proven adds go.
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Local.h"
#include <cstdint>
#include <optional>
#include <vector>

using namespace llvm;

extern "C" bool nvopt_addr_narrows(uint32_t Uses, uint32_t IndexUses);

namespace {

// An extension's narrow operand and whether it is a sign extension (`zext nneg` counts as one).
struct Ext {
  Value *Narrow;
  bool Signed;
};

std::optional<Ext> extension(Value *V) {
  if (auto *S = dyn_cast<SExtInst>(V))
    return Ext{S->getOperand(0), true};
  if (auto *Z = dyn_cast<ZExtInst>(V))
    return Ext{Z->getOperand(0), Z->hasNonNeg()};
  return std::nullopt;
}

// How many of I's uses are GEP indices.
unsigned gepIndexUses(Instruction *I) {
  unsigned N = 0;
  for (const Use &U : I->uses())
    N += isa<GetElementPtrInst>(U.getUser()) && U.getOperandNo() != 0;
  return N;
}

// Whether L + R cannot overflow, from ScalarEvolution's ranges of the two.
bool noOverflow(ScalarEvolution &SE, bool Signed, const SCEV *L, const SCEV *R) {
  ConstantRange::OverflowResult O = Signed ? SE.getSignedRange(L).signedAddMayOverflow(SE.getSignedRange(R))
                                           : SE.getUnsignedRange(L).unsignedAddMayOverflow(SE.getUnsignedRange(R));
  return O == ConstantRange::OverflowResult::NeverOverflows;
}

// The add `I` rebuilt narrow, or null when it is not a candidate or not proven.
Value *narrowed(BinaryOperator *I, ScalarEvolution &SE) {
  if (I->getOpcode() != Instruction::Add || !nvopt_addr_narrows(I->getNumUses(), gepIndexUses(I)))
    return nullptr;
  std::optional<Ext> A = extension(I->getOperand(0)), B = extension(I->getOperand(1));
  if (!A || !B || A->Narrow->getType() != B->Narrow->getType())
    return nullptr;
  // Both sign extensions (a zext nneg is one too), else both zero extensions.
  bool Signed = A->Signed && B->Signed;
  if (!Signed && !(isa<ZExtInst>(I->getOperand(0)) && isa<ZExtInst>(I->getOperand(1))))
    return nullptr;
  if (!noOverflow(SE, Signed, SE.getSCEV(A->Narrow), SE.getSCEV(B->Narrow)))
    return nullptr;
  IRBuilder<> IRB(I);
  Value *Sum = IRB.CreateAdd(A->Narrow, B->Narrow, I->getName() + ".narrow", !Signed, Signed);
  return Signed ? IRB.CreateSExt(Sum, I->getType(), I->getName() + ".ext")
                : IRB.CreateZExt(Sum, I->getType(), I->getName() + ".ext");
}

} // namespace

// Rebuilds every proven index add of F; returns how many.
unsigned nvopt_narrow_indices(Function &F, ScalarEvolution &SE, OptimizationRemarkEmitter &ORE) {
  std::vector<BinaryOperator *> Adds;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *BO = dyn_cast<BinaryOperator>(&I); BO && BO->getType()->isIntegerTy(64))
        Adds.push_back(BO);
  unsigned N = 0;
  for (BinaryOperator *I : Adds) {
    Value *New = narrowed(I, SE);
    if (!New)
      continue;
    ORE.emit([&] {
      return OptimizationRemark("codegenpreparescev", "NarrowIndex", I)
             << "address index added in 32 bits (no overflow proven), extended once";
    });
    I->replaceAllUsesWith(New);
    RecursivelyDeleteTriviallyDeadInstructions(I);
    ++N;
  }
  return N;
}
