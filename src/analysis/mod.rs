//! What several passes share: the GPU facts (special registers, their ranges, launch bounds),
//! borrowed IR views and facts with LoopInfo, the register-pressure estimator, nvopt's SCEV
//! analysis `nv-scev` and its expression encoding, the GPU SCEV sources (the opt pass
//! `nv-scev-sources` and the ranges and idioms other passes read), and the walk budgets of the
//! C++ adapters.
pub mod gpu;
pub mod ir;
pub mod pressure;
pub mod scev;
pub mod scev_node;
pub mod scev_sources;
pub mod search_budgets;
