// The pass plumbing of nv-fold-const-calls (calls with constant arguments replaced by the value
// the callee returns; the pass is src/fold_const_calls, in Rust): a new-PM module pass for opt
// -passes=nv-fold-const-calls and the nvopt pipelines' slot. It hands the module to Rust and,
// when Rust changed it (calls replaced and deleted), preserves nothing. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_fold_const_calls_run(LLVMModuleRef M);

namespace {
constexpr char Name[] = "nv-fold-const-calls";
} // namespace

// Makes `nv-fold-const-calls` a module pass name for opt -passes=.
void nvopt_register_fold_const_calls(PassBuilder &PB) {
  nvRegisterModulePass<NvRustModulePass<nvopt_fold_const_calls_run, Name>>(PB, Name);
}
