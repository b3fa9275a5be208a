//! The search budgets of the adapters' IR and SCEV walks: no threshold lives in C++.
//! Each is the depth or size at which an adapter stops walking and takes what it has as it is;
//! none of them changes what a pass may rewrite, only how far it looks. The budgets of walks
//! still done in C++ reach the shim once, through [`nvopt_search_budgets`], in the mirror struct
//! of src/shim/search_budgets.h; an adapter written in Rust uses its constant directly.

/// nv-cssa (Rust adapter, src/llc/cssa/adapter.rs): immediate dominators of a PHI operand's incoming
/// block searched for an `icmp eq`/`icmp ne` branch edge that proves the operand equal to another
/// value.
pub const CSSA_MAX_DOMINATOR_DEPTH: u32 = 16;
/// IV-start widening (Rust, src/llc/addr/widen.rs): operations under an IV start rebuilt in 64
/// bits; a deeper value is sign-extended whole, which is always exact.
pub const WIDEN_MAX_DEPTH: u32 = 32;
/// Address SCEV: operations walked from a load's or store's address (memoized) before nv-scev's
/// expression is taken as it is. Deep enough for SLSR's 150-step chains in `pathological_ivs`.
pub const ACCESS_SCEV_MAX_DEPTH: u32 = 256;
/// nv-scev-sources: operand depth of the no-wrap proof's walk under an IV increment.
pub const SOURCES_MAX_OPERAND_DEPTH: u32 = 8;
/// nv-local-array-unroll (Rust, src/opt/local_array_unroll/adapter.rs): operations walked under a
/// private array's index to find the loops whose unrolling makes it constant; a deeper index
/// counts as one no unrolling makes constant (the array is left as it is).
pub const LOCAL_ARRAY_INDEX_MAX_DEPTH: u32 = 32;
/// nv-texture-unroll-guard (Rust, src/opt/texture_unroll_guard/adapter.rs): operations walked under
/// a texture fetch's operand to decide whether it is the same on every iteration of the
/// enclosing loop; a deeper operand counts as one that is not (the loop is left to ptxas).
pub const TEXTURE_GUARD_MAX_DEPTH: u32 = 32;
/// nv-pressure-unroll-guard (Rust, src/opt/pressure_unroll_guard/adapter.rs): operations walked under
/// a value a loop carries to decide whether ptxas can recompute it from kernel parameters and
/// special registers; a deeper value counts as one it cannot (it stays in the carried count).
pub const PRESSURE_GUARD_MAX_DEPTH: u32 = 16;
/// nv-const-pointers (Rust, src/opt/const_pointers.rs): getelementptr, bitcast and addrspacecast
/// steps walked back from a load's address to find a constant-space variable; a longer chain
/// counts as one that does not end there (the loaded pointer stays generic).
pub const CONST_POINTER_CHAIN_MAX_DEPTH: u32 = 16;
/// nv-phi-load-spaces (Rust, src/opt/phi_load_spaces.rs): getelementptr, bitcast and
/// addrspacecast steps walked back from a load's address to a pointer of a specific address
/// space; a longer chain counts as one whose space is not known (the load is left alone).
pub const PHI_LOAD_SPACE_CHAIN_MAX_DEPTH: u32 = 16;
/// Special-register SCEV terms: nodes of one expression encoded for Rust; the rest of a larger
/// expression is encoded as one opaque node.
pub const SREG_MAX_TERM_NODES: u32 = 64;

/// The budgets of the walks done in C++, as the shim sees them (layout mirrored in
/// src/shim/search_budgets.h).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchBudgets {
    pub access_scev_max_depth: u32,
    pub sources_max_operand_depth: u32,
    pub sreg_max_term_nodes: u32,
}

pub const BUDGETS: SearchBudgets = SearchBudgets {
    access_scev_max_depth: ACCESS_SCEV_MAX_DEPTH,
    sources_max_operand_depth: SOURCES_MAX_OPERAND_DEPTH,
    sreg_max_term_nodes: SREG_MAX_TERM_NODES,
};

/// Called by the shim (src/shim/search_budgets.h) for the budgets above.
#[no_mangle]
pub extern "C" fn nvopt_search_budgets() -> SearchBudgets {
    BUDGETS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_layout_is_three_u32() {
        // src/shim/search_budgets.h declares three uint32_t fields in this order; its
        // static_assert checks the same size on the C++ side.
        assert_eq!(std::mem::size_of::<SearchBudgets>(), 3 * 4);
        assert_eq!(std::mem::offset_of!(SearchBudgets, sreg_max_term_nodes), 8);
    }
}
