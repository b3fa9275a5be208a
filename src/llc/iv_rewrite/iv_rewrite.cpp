// nv-iv-rewrite's pass plumbing and ScalarEvolution facts (the pass is src/llc/iv_rewrite, in
// Rust): the legacy pass `nv-iv-rewrite` that src/codegen.rs inserts into llc's IR pipeline and
// the same name for opt -passes=; whether a header PHI is an affine recurrence of its loop and
// which step it has (ScalarEvolution, which LLVM's C API lacks); and the expansion, at the
// loop's preheader, of the difference of two such recurrences' starts (SCEVExpander), the edit
// Rust asks for. No decisions here.
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct IvRewrite : NvOneNamePass<IvRewrite> {
  static constexpr unsigned Needs = NvNeedLoops | NvNeedScev;
  static constexpr const char *Name = "nv-iv-rewrite";
  static constexpr const char *Description = "pressure-driven IV rewriting (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_iv_rewrite_run(wrap(&F), A.LI, A.SE);
  }
};

const bool Registered = (nvRegisterLegacyPass<IvRewrite>(), true);

const SCEVAddRecExpr *affine(ScalarEvolution &SE, const Loop &L, Value *Phi) {
  if (!SE.isSCEVable(Phi->getType()))
    return nullptr;
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Phi));
  if (!AR || !AR->isAffine() || AR->getLoop() != &L || !SE.isLoopInvariant(AR->getStart(), &L))
    return nullptr;
  return AR;
}

} // namespace

// Makes `nv-iv-rewrite` a function pass name for opt -passes=.
void nvopt_register_iv_rewrite(PassBuilder &PB) { nvRegisterNewPMPass<IvRewrite>(PB); }

// The step of Phi when ScalarEvolution writes it as an affine recurrence {start,+,step} of loop
// L with a loop-invariant start (equal handles: the same step expression); null otherwise.
extern "C" const void *nvopt_iv_affine_step(void *SE, const void *L, LLVMValueRef Phi) {
  auto &S = *static_cast<ScalarEvolution *>(SE);
  const SCEVAddRecExpr *AR = affine(S, *static_cast<const Loop *>(L), unwrap(Phi));
  return AR ? AR->getStepRecurrence(S) : nullptr;
}

// Expands start(To) - start(From) of two affine recurrences of L (as nvopt_iv_affine_step
// accepted) before the preheader's terminator; null when L has no preheader.
extern "C" LLVMValueRef nvopt_iv_start_difference(void *SE, const void *L, LLVMValueRef From,
                                                  LLVMValueRef To) {
  auto &S = *static_cast<ScalarEvolution *>(SE);
  const Loop &Lp = *static_cast<const Loop *>(L);
  BasicBlock *Pre = Lp.getLoopPreheader();
  const SCEVAddRecExpr *A = affine(S, Lp, unwrap(From)), *B = affine(S, Lp, unwrap(To));
  if (!Pre || !A || !B)
    return nullptr;
  SCEVExpander Exp(S, "nv.iv");
  const SCEV *D = S.getMinusSCEV(B->getStart(), A->getStart());
  return wrap(Exp.expandCodeFor(D, unwrap(To)->getType(), Pre->getTerminator()));
}
