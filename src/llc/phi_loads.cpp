// The pass plumbing of nv-phi-loads (the pass is src/llc/phi_loads.rs, in Rust): the legacy pass
// `nv-phi-loads` that src/codegen.rs inserts into llc's IR pipeline before its SROA, and the
// same name for opt -passes=. No decisions here.
#include "llvm/Analysis/Loads.h"
#include "llvm/IR/Instructions.h"
#include "llvm-c/Types.h"
#include "register.h"

using namespace llvm;

namespace {

struct PhiLoads : NvOneNamePass<PhiLoads> {
  static constexpr const char *Name = "nv-phi-loads";
  static constexpr const char *Description =
      "Loads through a PHI of a private object made in its predecessors (nvopt)";
  static bool runOn(Function &F, NvAnalyses &A) { return nvopt_phi_loads_run(wrap(&F), &A.ORE); }
};

const bool Registered = (nvRegisterLegacyPass<PhiLoads>(), true);

} // namespace

// Makes `nv-phi-loads` a function pass name for opt -passes=.
void nvopt_register_phi_loads(PassBuilder &PB) { nvRegisterNewPMPass<PhiLoads>(PB); }

// isSafeToLoadUnconditionally: Bytes bytes from Base, aligned to Align, may be loaded right
// before instruction At (dereferenceable attributes, globals, allocas, earlier accesses).
extern "C" bool nvopt_phi_loads_dereferenceable(LLVMValueRef Base, uint64_t Alignment,
                                                uint64_t Bytes, LLVMValueRef At) {
  Instruction *I = unwrap<Instruction>(At);
  const DataLayout &DL = I->getModule()->getDataLayout();
  Value *B = unwrap(Base);
  APInt Size(DL.getIndexTypeSizeInBits(B->getType()), Bytes);
  return isSafeToLoadUnconditionally(B, Align(Alignment), Size, DL, I);
}
