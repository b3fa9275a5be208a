//! Hash maps and sets with a fast, fixed hasher for the passes' tables of LLVM handles.
//!
//! The passes key their tables by pointers (values, blocks, loops, SCEV nodes) and small
//! integers. std's default hasher (SipHash-1-3, randomly seeded per process) guards against
//! inputs chosen to collide, which a compiler's own pointers are not, and costs a visible share
//! of llc's instructions (callgrind, `bench --count-instructions`). This is the
//! multiply-rotate hash rustc uses for its own tables (FxHash), with the final rotation of
//! rustc-hash 2 so that pointers aligned to 8 or 16 bytes still spread over a table's low
//! bits, which pick the bucket.
//!
//! Iteration order: std's maps already iterate in a random order each run, so no pass may
//! depend on it; with this hasher the order is fixed, which changes nothing a pass produces.
//!
//! Use `HashMap::default()` / `HashSet::default()` (`new` belongs to std's default hasher).
use std::hash::{BuildHasherDefault, Hasher};

/// `std::collections::HashMap` with [`FxHasher`].
pub type HashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// `std::collections::HashSet` with [`FxHasher`].
pub type HashSet<T> = std::collections::HashSet<T, BuildHasherDefault<FxHasher>>;

/// rustc's FxHash: each word is folded in by `(h.rotl(5) ^ word) * K`.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

/// The multiplier of rustc-hash (an odd constant with well-mixed bits).
const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        // The product's entropy is in its high bits; the table indexes by the low ones.
        self.hash.rotate_left(26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(v: T) -> u64 {
        BuildHasherDefault::<FxHasher>::default().hash_one(v)
    }

    #[test]
    fn aligned_pointers_spread_over_the_low_bits() {
        // 256 pointers 16 bytes apart, as allocations of LLVM values are: their hashes' low
        // 8 bits (a 256-bucket table's index) take many values, not a handful.
        let low: HashSet<u64> =
            (0..256u64).map(|k| hash(0x5555_0000_0000 + 16 * k) & 0xff).collect();
        assert!(low.len() > 128, "only {} distinct bucket indices", low.len());
    }

    #[test]
    fn fixed_across_runs_and_equal_for_equal_keys() {
        assert_eq!(hash("nv-remat"), hash("nv-remat"));
        assert_ne!(hash("nv-remat"), hash("nv-remat "));
        assert_ne!(hash((1u32, 2u32)), hash((2u32, 1u32)));
    }

    #[test]
    fn maps_work_as_std_maps() {
        let mut m: HashMap<usize, &str> = HashMap::default();
        m.insert(8, "a");
        m.insert(16, "b");
        assert_eq!(m.get(&16), Some(&"b"));
        assert_eq!(m.len(), 2);
    }
}
