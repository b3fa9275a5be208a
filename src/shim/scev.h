// The nv-scev analysis adapter (src/analysis/scev/scev.cpp): LLVM's ScalarEvolution behind nvopt's getSCEV
// gate (src/analysis/scev; docs/CICC-FACTS.md "getSCEV gating (simple mode)"). The plugin's own SCEV users
// ask this result.
#pragma once
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/PassManager.h"
#include <string>

struct NVScevState; // owned by Rust (src/analysis/scev/ffi.rs)

namespace nvopt {

class NVScev {
public:
  NVScev(llvm::Function &F, llvm::ScalarEvolution &SE, llvm::LoopInfo &LI, llvm::DominatorTree &DT);
  NVScev(NVScev &&O);
  NVScev(const NVScev &) = delete;
  ~NVScev();

  // cicc's getSCEV: LLVM's expression, or SCEVUnknown where the gate says so.
  const llvm::SCEV *getSCEV(llvm::Value *V);
  // Why V is a gated SCEVUnknown ("" when it is not).
  std::string explain(llvm::Value *V) const;
  // Mode, failure count and kernel bypass of this function.
  std::string summary() const;

  bool invalidate(llvm::Function &F, const llvm::PreservedAnalyses &PA,
                  llvm::FunctionAnalysisManager::Invalidator &Inv);

  llvm::Function &F;
  llvm::ScalarEvolution &SE;
  llvm::LoopInfo &LI;
  llvm::DominatorTree &DT;
  // SCEV nodes already counted in the current scoring call.
  llvm::SmallPtrSet<const llvm::SCEV *, 32> Counted;

private:
  NVScevState *State;
};

class NVScevAnalysis : public llvm::AnalysisInfoMixin<NVScevAnalysis> {
  friend llvm::AnalysisInfoMixin<NVScevAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = NVScev;
  Result run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace nvopt
