// The SCEV of a load's or store's address with its sign extensions distributed through the nsw
// arithmetic that computes them (src/llc/addr/access_scev.cpp). Used by the address records of
// src/llc/addr/pass.rs through src/llc/addr/addr.cpp (docs/CICC-FACTS.md "Address optimization": split `sext(x + C)` when the
// inner add is nsw). Analysis only: it decides nothing about rewrites.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Value.h"
#include "scev.h"
#include <optional>

namespace nvopt {

// An IV `phi [s, outside], [P +nsw d / P -nsw d, inside]` of the loop L whose header holds P,
// d invariant (nsw not required with AssumeNsw).
struct IvStep {
  llvm::BinaryOperator *Inc;
  llvm::Value *Step;
  unsigned Outside; // the incoming slot from outside L
  bool Negative;    // P - d
};
std::optional<IvStep> ivStep(llvm::PHINode *P, llvm::Loop *L, bool AssumeNsw);

// V is add/sub/mul, or shl by a constant below its width, with nsw (or AssumeNsw): an operation
// a sign extension distributes through when V is not poison.
bool extendsThrough(llvm::Value *V, bool AssumeNsw);

class AccessScev {
public:
  // AssumeNsw: treat add/sub/mul/shl without nsw as nsw (`ignore-signed-32-bit-overflow`).
  AccessScev(NVScev &NV, bool AssumeNsw) : NV(NV), SE(NV.SE), AssumeNsw(AssumeNsw) {}

  // The address of a load or store: a GEP's indices that are `sext`/`zext nneg` of narrower
  // integers are rebuilt from the nsw operations under them, and so is the start of a pointer
  // IV the access dereferences. Anything else is nv-scev's
  // expression. Only valid for a pointer a load or store dereferences (see the .cpp).
  const llvm::SCEV *address(llvm::Value *Ptr, unsigned Depth = 0);

private:
  NVScev &NV;
  llvm::ScalarEvolution &SE;
  bool AssumeNsw;
  // extended()'s answers (any depth's answer is exact, so the first one is kept).
  llvm::DenseMap<std::pair<llvm::Value *, llvm::Type *>, const llvm::SCEV *> Extended;
  // address()'s answers, kept the same way.
  llvm::DenseMap<llvm::Value *, const llvm::SCEV *> Addresses;

  const llvm::SCEV *rebuild(llvm::Value *Ptr, unsigned Depth);
  const llvm::SCEV *pointerRecurrence(llvm::PHINode *P, const llvm::SCEV *Plain, unsigned Depth);
  const llvm::SCEV *index(llvm::Value *Idx, unsigned Depth);
  const llvm::SCEV *extended(llvm::Value *V, llvm::Type *Wide, unsigned Depth);
  const llvm::SCEV *distribute(llvm::Value *V, llvm::Type *Wide, unsigned Depth);
  const llvm::SCEV *recurrence(llvm::PHINode *P, llvm::Type *Wide, unsigned Depth);
};

} // namespace nvopt
