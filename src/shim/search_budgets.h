// The search budgets of the walks the C++ adapters still do, named and set in Rust
// (src/analysis/search_budgets.rs); the field order mirrors Rust's `SearchBudgets`. Adapter only.
#pragma once
#include "boundary.h"

namespace nvopt {
// The budgets, read from Rust once per process.
inline const NvSearchBudgets &searchBudgets() {
  static const NvSearchBudgets B = nvopt_search_budgets();
  return B;
}
} // namespace nvopt
