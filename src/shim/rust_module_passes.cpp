// The pass plumbing of the module passes whose whole work is one Rust call on the module: a
// new-PM module pass per name, for opt -passes=NAME and the nvopt pipelines' slots. Each hands
// the module to Rust and, when Rust changed it, preserves nothing (NvRustModulePass,
// register.h). No decisions here.
//   nv-internalize       whole-program mode (src/opt/internalize.rs): linkage, deleted globals
//   nv-asm-convergence   `convergent` taken off inline-asm calls whose PTX computes in the
//                        executing thread only (src/opt/asm_convergence.rs): call-site attributes
//   nv-fold-const-calls  calls with constant arguments replaced by the value the callee
//                        returns (src/opt/fold_const_calls): calls replaced and deleted
#include "llvm-c/Types.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"

using namespace llvm;

namespace {
constexpr char Internalize[] = "nv-internalize";
constexpr char AsmConvergence[] = "nv-asm-convergence";
constexpr char FoldConstCalls[] = "nv-fold-const-calls";
} // namespace

// Makes each of the names above a module pass name for opt -passes=.
void nvopt_register_rust_module_passes(PassBuilder &PB) {
  nvRegisterModulePass<NvRustModulePass<nvopt_internalize_run, Internalize>>(PB, Internalize);
  nvRegisterModulePass<NvRustModulePass<nvopt_asm_convergence_run, AsmConvergence>>(
      PB, AsmConvergence);
  nvRegisterModulePass<NvRustModulePass<nvopt_fold_const_calls_run, FoldConstCalls>>(
      PB, FoldConstCalls);
}
