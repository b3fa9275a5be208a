// nv-ext-reuse's pass plumbing and ScalarEvolution facts (the pass is src/llc/ext_reuse, in Rust):
// the legacy pass `nv-ext-reuse` that src/codegen.rs inserts into llc's IR pipeline and the same
// name for opt -passes=; ScalarEvolution's expression of a value and of its zero or sign
// extension, as opaque handles Rust compares for equality (ScalarEvolution uniques its
// expressions, so equal handles are equal values); instruction dominance. No decisions here.
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct ExtReuse : NvOneNamePass<ExtReuse> {
  static constexpr unsigned Needs = NvNeedLoops | NvNeedScev | NvNeedDomTree;
  static constexpr const char *Name = "nv-ext-reuse";
  static constexpr const char *Description = "extension reuse for wide arithmetic (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) {
    return nvopt_ext_reuse_run(wrap(&F), A.LI, A.SE, A.DT, &A.ORE);
  }
};

const bool Registered = (nvRegisterLegacyPass<ExtReuse>(), true);

ScalarEvolution &scev(void *SE) { return *static_cast<ScalarEvolution *>(SE); }

} // namespace

void nvopt_register_ext_reuse(PassBuilder &PB) { nvRegisterNewPMPass<ExtReuse>(PB); }

// ScalarEvolution's expression of the integer value V, with whether it holds an add
// recurrence (a value that changes from one loop iteration to the next).
extern "C" uintptr_t nvopt_scev_expr(void *SE, LLVMValueRef V, bool *HasAddRec) {
  ScalarEvolution &SEv = scev(SE);
  const SCEV *S = SEv.getSCEV(unwrap(V));
  *HasAddRec = SEv.containsAddRecurrence(S);
  return reinterpret_cast<uintptr_t>(S);
}

// ScalarEvolution's expression of V zero- (Signed false) or sign-extended to Bits bits, which
// it simplifies as far as it can prove (an extension pushed into an add or multiply that it
// proves does not wrap).
extern "C" uintptr_t nvopt_scev_extended(void *SE, LLVMValueRef V, uint32_t Bits, bool Signed) {
  ScalarEvolution &S = scev(SE);
  const SCEV *X = S.getSCEV(unwrap(V));
  Type *Wide = IntegerType::get(unwrap(V)->getContext(), Bits);
  return reinterpret_cast<uintptr_t>(Signed ? S.getSignExtendExpr(X, Wide)
                                            : S.getZeroExtendExpr(X, Wide));
}

// Whether Def (an instruction or an argument) dominates instruction User.
extern "C" bool nvopt_dt_dominates_value(const void *DT, LLVMValueRef Def, LLVMValueRef User) {
  return static_cast<const DominatorTree *>(DT)->dominates(unwrap(Def),
                                                           unwrap<Instruction>(User));
}
