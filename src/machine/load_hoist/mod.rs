//! `nv-load-hoist`: moves a load, with the pure instructions that compute only its address, back
//! up to where that address's inputs are ready, when llc's `machine-sink` had moved it down past
//! other blocks and the move held more register bits than it saved. A machine pass, right after
//! `machine-sink`.
//!
//! Why: upstream's MachineSink moves an instruction to the block that reads its result, also
//! past whole if/else diamonds (it considers the blocks its block immediately dominates), and a
//! load moves when no store may alias it on the way. For a 32-bit load through a 64-bit address
//! that is the wrong trade: the address (two registers), or the 64-bit inputs of the address
//! arithmetic sunk with it, stay live across the blocks in between instead of the loaded value
//! (one), and ptxas, which does not move loads across branches, keeps that. CUB's transform
//! kernel over Thrust's `permutation_iterator` (`tiled_range`: each item's index is `i % n` in
//! 64 bits, which CodeGenPrepare makes a 32/64-bit division diamond) gets its eight loads and
//! their address arithmetic sunk past all eight diamonds; ptxas then squeezes it to its
//! occupancy step with 16 bytes of spills, where nvcc's PTX, which keeps each load next to its
//! address, has none. cicc's llc runs no MachineSink at all (docs/CICC-FACTS.md); leaving its
//! place empty (`-nv-machine-sink=0`) costs registers elsewhere, so this pass undoes only the
//! moves of loads that lose.
//!
//! ```text
//! before (MIR, after machine-sink)            after
//! bb.1: %r1:b64 = PHI ...  (a rem result)     bb.1: %r1:b64 = PHI ...
//!       ... (rem diamond of the next item)          %s1:b64 = SHL64ri %r1, 2
//! bb.5: %s1:b64 = SHL64ri %r1, 2                    %a1:b64 = ADD64rr %base, %s1
//!       %a1:b64 = ADD64rr %base, %s1                %v1:b32 = LD_i32 %a1
//!       %v1:b32 = LD_i32 %a1                        ... (rem diamond of the next item)
//!       ST_v4 ..., %v1                        bb.5: ST_v4 ..., %v1
//! ```
//!
//! The facts (src/machine/load_hoist/load_hoist.cpp): a candidate is a load with one virtual
//! result that neither stores nor is volatile or atomic. Its *chain* is the load plus, followed
//! back through its operands, every instruction that computes a value only the chain reads and
//! touches no memory; the chain's other register operands are its *roots*. The chain can move to
//! just after the last root definition, in the block `T` where that is, when `T` is not the
//! load's block, the load's block post-dominates `T` and is in the same loop (so the load runs
//! exactly when it did), and no instruction that may write memory or has other effects (stores,
//! atomics, calls, barriers) lies on any path from there to the load. The rule ([`decide`]):
//! move when the roots that only the chain reads (their registers are then freed at `T`) are
//! wider, in bits, than the load's result, which is then held instead.
//!
//! Knob: `-nv-disable-load-hoist`. Refuses (with a `-nv-stats` counter each): a chain with no
//! register root or a root defined in the load's own block, a block that does not post-dominate
//! `T` or lies in another loop, a store or other effect on the way, a chain longer than
//! [`MAX_CHAIN`], and moves that would hold as many bits as they free.

pub mod adapter;

/// The pass's name in remarks and `-nv-stats`.
pub const PASS: &str = "nv-load-hoist";

/// The most instructions in one chain (the load included); a longer one is left alone.
pub const MAX_CHAIN: u32 = 16;

crate::shared_codes! {
    /// Where a candidate load stands, as the shim reports it (src/machine/load_hoist/load_hoist.cpp
    /// uses the generated C++ enum `NvLoadHoistPlace`).
    pub enum NvLoadHoistPlace: u8 {
        /// The chain can move to just after its last root definition.
        PLACE_MOVABLE = 0,
        /// No register operand outside the chain (nothing to move next to).
        PLACE_NO_ROOT = 1,
        /// A root is defined in the load's own block: the load already follows it.
        PLACE_SAME_BLOCK = 2,
        /// The load's block does not post-dominate the root's, or lies in another loop.
        PLACE_NOT_STRAIGHT = 3,
        /// A store, call, barrier or other effect lies between.
        PLACE_EFFECT_BETWEEN = 4,
        /// The chain has more than the given number of instructions.
        PLACE_CHAIN_TOO_LONG = 5,
    }
}

/// What the shim reports about one candidate load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    pub place: u8,
    /// Bits of the roots that only the chain reads (freed where the chain moves to).
    pub freed_bits: u32,
    /// Bits of the load's result (held from there on instead).
    pub result_bits: u32,
}

/// Why a candidate stays where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NoRoot,
    SameBlock,
    NotStraight,
    EffectBetween,
    ChainTooLong,
    NoGain,
    UnknownPlace,
}

impl Refusal {
    /// The `-nv-stats` counter of this refusal.
    pub fn counter(self) -> &'static str {
        match self {
            Refusal::NoRoot => "loads left alone: no register root",
            Refusal::SameBlock => "loads left alone: already next to their roots",
            Refusal::NotStraight => "loads left alone: not on every path from the roots",
            Refusal::EffectBetween => "loads left alone: a store or other effect between",
            Refusal::ChainTooLong => "loads left alone: address chain too long",
            Refusal::NoGain => "loads left alone: no register bits freed",
            Refusal::UnknownPlace => "loads left alone: unknown fact code",
        }
    }
}

/// The rule: move a chain the shim can move when the bits it frees exceed the bits of the load's
/// result.
pub fn decide(f: &Facts) -> Result<(), Refusal> {
    match f.place {
        PLACE_MOVABLE => {}
        PLACE_NO_ROOT => return Err(Refusal::NoRoot),
        PLACE_SAME_BLOCK => return Err(Refusal::SameBlock),
        PLACE_NOT_STRAIGHT => return Err(Refusal::NotStraight),
        PLACE_EFFECT_BETWEEN => return Err(Refusal::EffectBetween),
        PLACE_CHAIN_TOO_LONG => return Err(Refusal::ChainTooLong),
        _ => return Err(Refusal::UnknownPlace),
    }
    if f.freed_bits > f.result_bits {
        Ok(())
    } else {
        Err(Refusal::NoGain)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movable(freed_bits: u32, result_bits: u32) -> Facts {
        Facts { place: PLACE_MOVABLE, freed_bits, result_bits }
    }

    #[test]
    fn a_32_bit_load_freeing_a_64_bit_index_moves() {
        assert_eq!(decide(&movable(64, 32)), Ok(()));
    }

    #[test]
    fn a_load_as_wide_as_what_it_frees_stays() {
        assert_eq!(decide(&movable(64, 64)), Err(Refusal::NoGain));
        assert_eq!(decide(&movable(0, 32)), Err(Refusal::NoGain), "roots live on anyway");
    }

    #[test]
    fn every_shim_refusal_is_kept() {
        for (place, r) in [
            (PLACE_NO_ROOT, Refusal::NoRoot),
            (PLACE_SAME_BLOCK, Refusal::SameBlock),
            (PLACE_NOT_STRAIGHT, Refusal::NotStraight),
            (PLACE_EFFECT_BETWEEN, Refusal::EffectBetween),
            (PLACE_CHAIN_TOO_LONG, Refusal::ChainTooLong),
            (99, Refusal::UnknownPlace),
        ] {
            assert_eq!(decide(&Facts { place, freed_bits: 128, result_bits: 32 }), Err(r));
        }
    }
}
