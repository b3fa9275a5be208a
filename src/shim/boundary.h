// The structs that cross the boundary between the shim and Rust, defined once on the C++ side.
// Each mirrors a #[repr(C)] struct in Rust (named in its comment); boundary_layout.h, generated
// from Rust's size_of/offset_of by the boundary test (src/boundary/mod.rs; regenerate with
// NVOPT_UPDATE_BOUNDARY=1 cargo test --release boundary), asserts at compile time that every
// size and field offset here equals Rust's. Layouts only.
#pragma once
#include "llvm-c/Types.h"
#include <cstddef>
#include <cstdint>

// A string handed across: bytes and length, not NUL-terminated (Rust: crate::ffi::NvStr).
struct NvStr {
  const char *Ptr;
  size_t Len;
};

// One SCEV node of the one expression encoding (Rust: crate::analysis::scev_node::ScevNode; kinds in
// crate::analysis::scev_node::kind, same order as NvScevKind).
struct NvScevNode {
  uint32_t Kind, Arity, Bits, Flags;
  int64_t Value, Ty;
  uint64_t UMax;
};
enum NvScevKind : uint32_t { KConst, KUnknown, KAdd, KMul, KAddRec, KSExt, KZExt, KOther, KRef, KTrunc };

// The walk budgets of the C++ adapters (Rust: crate::analysis::search_budgets::SearchBudgets).
struct NvSearchBudgets {
  uint32_t AccessScevMaxDepth;
  uint32_t SourcesMaxOperandDepth;
  uint32_t SregMaxTermNodes;
};

// One piece of a remark: plain text when Key is empty, else ore::NV(Key, Value) (Rust:
// crate::analysis::ir::facts::RemarkArg).
struct NvRemarkArg {
  NvStr Key;
  NvStr Value;
};

// A pair of a loop's bases and their difference (Rust: crate::llc::addr::scev::NvPair).
struct NvPair {
  uint32_t A, B, DiffNodes, Invariant, Diff;
};

// One loop at the LSR gate (Rust: crate::llc::lsr_gate::CLoopFacts).
struct CLoopFacts {
  const char *Function;
  size_t FunctionLen;
  const char *Header;
  size_t HeaderLen;
  unsigned Level;
  bool TripCountKnown;
  LLVMValueRef Fn;
  LLVMBasicBlockRef HeaderBlock;
  unsigned NumPhis;
  const void *LoopHandle; // the llvm::Loop (Rust: crate::analysis::ir::loops::Loop)
  void *Trial;            // for nvopt_lsr_trial_run
};

// nv-coalesce's facts of one copy (Rust: crate::machine::coalesce::ffi::RawWeight, RawFacts).
struct RawWeight {
  uint32_t Instrs = 0;
  uint32_t Uses = 0;
  double Spill = 0;
};
struct RawFacts {
  uint32_t Dst = 0, Src = 0, Width = 0, Flags = 0, SrcDef = 0;
  uint32_t SrcDefAddrSpace = ~0u, DstStoredTo = ~0u;
  double Freq = 0;
  RawWeight DstWeight, SrcWeight;
};

// nv-scev's description of one value for the getSCEV gate (Rust: crate::analysis::scev::ffi::RawNode).
struct RawNode {
  uint32_t Kind, LoopDepth, NumOperands;
};

// nv-scev-sources' facts and decisions (Rust: crate::analysis::scev_sources::ffi::NvBounds, NvGuard,
// NvIvFacts, NvIvDecision).
struct NvBounds {
  uint64_t UMin, UMax;
  int64_t SMin, SMax;
};
struct NvGuard {
  uint32_t Pred;
  uint8_t TestsNext, IvIsLhs, GoOnTrue;
  NvBounds Bound;
};
struct NvIvFacts {
  uint32_t Width, Existing;
  NvBounds Start, Step;
  const NvScevNode *StartTerms;
  size_t NStartTerms;
  const NvScevNode *StepTerms;
  size_t NStepTerms;
  const NvGuard *Guards;
  size_t NGuards;
};
struct NvIvDecision {
  uint32_t Idiom, Flags;
  uint8_t CheckOperands;
};

#include "boundary_layout.h"
