//! SCEV-CGP's 32-bit address arithmetic (research-facts.md "Address optimization"; seed 004): the
//! adapter (src/shim/narrow.cpp) finds GEP indices `ext(a) + ext(b)` whose narrow add
//! ScalarEvolution's ranges prove cannot overflow; this module decides which it rebuilds as
//! `ext(a + b)`. As with CBE, a rewrite pays only when the old computation dies: every use of
//! the 64-bit add must be a GEP index, or it stays alive beside the new one.
//!
//! Example (plugin-tests/addr/narrow.ll; `nv-scev-cgp`, or `codegenpreparescev` with
//! `-nv-disable-scev-cgp=0`), with `%tx` in [0,1024) and `%row = %ty << 5`, %ty in [0,1024):
//!
//! ```text
//! ; before: the index add is done in 64 bits
//! %sx = sext i32 %tx to i64
//! %sr = sext i32 %row to i64
//! %i = add i64 %sr, %sx
//! %q = getelementptr float, ptr addrspace(1) %p, i64 %i
//!
//! ; after: ranges prove %row + %tx < 2^31, so the add is done in 32 bits
//! %i.narrow = add nsw i32 %row, %tx
//! %i.ext = sext i32 %i.narrow to i64
//! %q = getelementptr float, ptr addrspace(1) %p, i64 %i.ext
//! ```
//!
//! Left alone: an operand without a bound, a constant operand (kept apart so that it folds
//! into `[reg+imm]`), an index with another use, a sign and a zero extension mixed. Off by
//! default with the rest of SCEV-CGP (`nv-disable-scev-cgp`, true as in cicc's LLVM 20 copy);
//! on the bench it fires nowhere (bench/RESULTS.md).

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
