// Types and helpers shared by the shim's files at the boundary with Rust (layouts mirror
// src/analysis/scev_sources/ffi.rs). Adapter only.
#pragma once
#include "boundary.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include <cstddef>


inline NvStr nvStr(llvm::StringRef S) { return {S.data(), S.size()}; }

// The launch-bound attributes Rust parses (src/analysis/scev_sources/ranges.rs LaunchBounds::parse):
// `nvvm.maxntid`, `nvvm.reqntid`, `nvvm.minctasm`, empty when absent.
inline void nvLaunchBounds(const llvm::Function &F, NvStr Out[3]) {
  const char *Names[3] = {"nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm"};
  for (int I = 0; I < 3; ++I)
    Out[I] = nvStr(F.getFnAttribute(Names[I]).getValueAsString());
}
