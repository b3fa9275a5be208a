// The pass plumbing of nv-internalize (whole-program mode; the pass is src/internalize.rs, in
// Rust): a new-PM module pass for opt -passes=nv-internalize and the nvopt pipelines'
// nv:internalize slot. It hands the module to Rust and, when Rust changed it (linkage, deleted
// globals), preserves nothing. No decisions here.
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

extern "C" bool nvopt_internalize_run(LLVMModuleRef M);

namespace {
constexpr char Name[] = "nv-internalize";
} // namespace

// Makes `nv-internalize` a module pass name for opt -passes=.
void nvopt_register_internalize(PassBuilder &PB) {
  nvRegisterModulePass<NvRustModulePass<nvopt_internalize_run, Name>>(PB, Name);
}
