// Analysis answers and remarks for the passes written in Rust, where LLVM's C API has none:
// ScalarEvolution's range proof that an add cannot overflow, and emitting an optimization remark
// (-pass-remarks=PASS) at an instruction. Facts and plumbing only: nothing here decides.
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instruction.h"
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

// Emits OptimizationRemark(Pass, Name, At) << Msg through ORE (an OptimizationRemarkEmitter).
extern "C" void nvopt_remark(void *ORE, const char *Pass, const char *Name, LLVMValueRef At,
                             const char *Msg) {
  static_cast<OptimizationRemarkEmitter *>(ORE)->emit([&] {
    return OptimizationRemark(Pass, Name, unwrap<Instruction>(At)) << Msg;
  });
}
