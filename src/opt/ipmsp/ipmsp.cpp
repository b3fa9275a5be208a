// The pass plumbing of nv-ipmsp (inter-procedural memory-space propagation; the pass is
// src/opt/ipmsp, in Rust): a new-PM module pass for opt -passes=nv-ipmsp and the nvopt pipelines'
// nv:ipmsp slot, and the two edits the C API lacks: cloning a function (CloneFunction) and
// running upstream infer-address-spaces on a function Rust names. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/InferAddressSpaces.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "register.h"

using namespace llvm;

namespace {

constexpr const char *Name = "nv-ipmsp";

struct Ipmsp : PassInfoMixin<Ipmsp> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &MAM) {
    auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    return nvopt_ipmsp_run(wrap(&M), &FAM) ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

} // namespace

// A copy of F in F's module under the given name (same linkage and attributes).
extern "C" LLVMValueRef nvopt_ipmsp_clone(LLVMValueRef F, const char *NewName, size_t Len) {
  ValueToValueMapTy VMap;
  Function *C = CloneFunction(unwrap<Function>(F), VMap);
  C->setName(StringRef(NewName, Len));
  return wrap(C);
}

// Runs upstream infer-address-spaces on F with the module pass's function analyses (F's
// cached results are dropped first: Rust has just changed F).
extern "C" void nvopt_ipmsp_infer_address_spaces(LLVMValueRef F, void *P) {
  Function &Fn = *unwrap<Function>(F);
  auto &FAM = *static_cast<FunctionAnalysisManager *>(P);
  FAM.invalidate(Fn, PreservedAnalyses::none());
  PreservedAnalyses PA = InferAddressSpacesPass().run(Fn, FAM);
  FAM.invalidate(Fn, PA);
}

// Makes `nv-ipmsp` a module pass name for opt -passes=.
void nvopt_register_ipmsp(PassBuilder &PB) { nvRegisterModulePass<Ipmsp>(PB, Name); }
