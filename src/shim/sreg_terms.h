// SCEV expressions over PTX special registers, encoded for Rust's `Term`
// (src/analysis/scev_sources/idiom.rs, decoded by src/analysis/scev_sources/ffi.rs `decode_terms`): a preorder
// array of nodes (constant, special register, add, mul, cast, other). Shared by nv-scev-sources
// and print<nv-scev>, which classify loops into cicc's stride idioms (docs/CICC-FACTS.md,
// "GPU SCEV sources and stride idioms"). Adapter only.
#pragma once
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "boundary.h"
#include <cstdint>

namespace nvopt {

class SregTerms {
  llvm::DenseMap<const llvm::Function *, int32_t> Codes;

public:
  // The special-register code (Rust's Sreg::code) of a call, or -1.
  int32_t code(const llvm::Value *V);
  // Appends S's preorder encoding (at most 64 nodes of its own; the rest becomes "other").
  void encode(const llvm::SCEV *S, llvm::SmallVectorImpl<NvScevNode> &Out);

private:
  void encodeFrom(const llvm::SCEV *S, llvm::SmallVectorImpl<NvScevNode> &Out, size_t Base);
};

} // namespace nvopt
