// The search budgets of the walks the C++ adapters still do, named and set in Rust
// (src/search_budgets.rs); the field order mirrors Rust's `SearchBudgets`. Adapter only.
#pragma once
#include <cstddef>
#include <cstdint>

struct NvSearchBudgets {
  uint32_t AccessScevMaxDepth;
  uint32_t SourcesMaxOperandDepth;
  uint32_t SregMaxTermNodes;
};
// Layout check against Rust (src/search_budgets.rs tests the same size and offset there).
static_assert(sizeof(NvSearchBudgets) == 3 * sizeof(uint32_t), "mirror of Rust SearchBudgets");
static_assert(offsetof(NvSearchBudgets, SregMaxTermNodes) == 2 * sizeof(uint32_t), "mirror of Rust SearchBudgets");

extern "C" NvSearchBudgets nvopt_search_budgets();

namespace nvopt {
// The budgets, read from Rust once per process.
inline const NvSearchBudgets &searchBudgets() {
  static const NvSearchBudgets B = nvopt_search_budgets();
  return B;
}
} // namespace nvopt
