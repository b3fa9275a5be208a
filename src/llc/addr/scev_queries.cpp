// ScalarEvolution answers for the passes written in Rust (LLVM's C API has no ScalarEvolution):
// the range proof that an add cannot overflow. Facts only: nothing here decides.
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm-c/Types.h"

using namespace llvm;

// Whether A + B cannot overflow (signed or unsigned) by ScalarEvolution's ranges of the two.
extern "C" bool nvopt_scev_add_never_overflows(void *SE, LLVMValueRef A, LLVMValueRef B,
                                               bool Signed) {
  ScalarEvolution &S = *static_cast<ScalarEvolution *>(SE);
  const SCEV *L = S.getSCEV(unwrap(A));
  const SCEV *R = S.getSCEV(unwrap(B));
  ConstantRange::OverflowResult O =
      Signed ? S.getSignedRange(L).signedAddMayOverflow(S.getSignedRange(R))
             : S.getUnsignedRange(L).unsignedAddMayOverflow(S.getUnsignedRange(R));
  return O == ConstantRange::OverflowResult::NeverOverflows;
}
