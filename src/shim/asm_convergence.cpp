// The pass plumbing of nv-asm-convergence (`convergent` taken off inline-asm calls whose PTX
// computes in the executing thread only; the pass is src/asm_convergence.rs, in Rust): a new-PM
// module pass for opt -passes=nv-asm-convergence and the nvopt pipelines' slot. It hands the
// module to Rust and, when Rust changed it (call-site attributes), preserves nothing. No
// decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_asm_convergence_run(LLVMModuleRef M);

namespace {
constexpr char Name[] = "nv-asm-convergence";
} // namespace

// Makes `nv-asm-convergence` a module pass name for opt -passes=.
void nvopt_register_asm_convergence(PassBuilder &PB) {
  nvRegisterModulePass<NvRustModulePass<nvopt_asm_convergence_run, Name>>(PB, Name);
}
