//! SCEV-CGP's 32-bit address arithmetic (research-facts.md "Address optimization"; seed 004): the
//! adapter (src/shim/narrow.cpp) finds GEP indices `ext(a) + ext(b)` whose narrow add
//! ScalarEvolution's ranges prove cannot overflow; this module decides which it rebuilds as
//! `ext(a + b)`. As with CBE, a rewrite pays only when the old computation dies: every use of
//! the 64-bit add must be a GEP index, or it stays alive beside the new one.

/// Whether a proven index add with `uses` uses, `index_uses` of them GEP indices, is rebuilt.
pub fn narrows(uses: u32, index_uses: u32) -> bool {
    uses > 0 && index_uses == uses
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_adds_used_as_indices_alone_are_rebuilt() {
        assert!(narrows(2, 2));
        assert!(!narrows(2, 1), "the 64-bit add would stay alive");
        assert!(!narrows(0, 0));
    }
}
