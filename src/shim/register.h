// Registers a new-PM function pass under one name for opt -passes= (used by nv-cssa and
// nv-scev-sources). Adapter only.
#pragma once
#include "llvm/Passes/PassBuilder.h"

template <typename PassT> void nvRegisterFunctionPass(llvm::PassBuilder &PB, llvm::StringRef PassName) {
  PB.registerPipelineParsingCallback(
      [PassName](llvm::StringRef Name, llvm::FunctionPassManager &FPM,
                 llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name != PassName)
          return false;
        FPM.addPass(PassT());
        return true;
      });
}
