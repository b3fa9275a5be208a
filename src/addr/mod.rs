//! Address-mode optimization with Scalar Evolution: cicc's `codegenpreparescev` (research-facts.md
//! "Address optimization (SCEV-CGP, BASR, CBE) as the binary has it"; seed 004). The C++ adapter
//! (src/shim/addr.cpp) walks a function, encodes each pointer's SCEV (from nv-scev) and applies
//! what this module decides:
//! - [`record`]: pointer = base + constant offset;
//! - [`group`]: records by base, dominance from DFS numbers, `scev-cgp-norm`;
//! - [`basr`]: Base Address Strength Reduction (with [`ranges_budget`]'s register budget);
//! - [`cbe`]: Common Base Elimination, function level then per block;
//! - [`widen`]: which IV starts are rebuilt in 64 bits before llc's SLSR, so BASR keeps their
//!   exact differences;
//! - SCEV-CGP proper (`nv-disable-scev-cgp`, default on as in cicc's LLVM 20 copy): the
//!   thread-id zext split of [`record`], and the 32-bit index adds of [`narrow`].
pub mod basr;
pub mod cbe;
pub mod expr;
pub mod ffi;
pub mod group;
pub mod narrow;
pub mod ranges_budget;
pub mod record;
pub mod widen;

use crate::knobs::Knobs;

/// Phase bits: which parts a pass runs (`codegenpreparescev` all three, `nv-basr`, `nv-cbe`,
/// `nv-scev-cgp` one each).
pub const BASR: u32 = 1;
pub const CBE: u32 = 2;
pub const SCEV_CGP: u32 = 4;

/// Every knob the address passes read, read once per function.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub basr: basr::Config,
    pub cbe: cbe::Config,
    pub cbe_on: bool,
    pub rules: record::Rules,
    pub norm: i64,
    pub inst_limit: usize,
    pub dump_cgp: bool,
    pub dump_basr: bool,
    pub print_after: bool,
}

impl Settings {
    /// The settings for a pass running `phases`. A phase runs when its pass asks for it and its
    /// knobs leave it on: BASR with `do-base-address-strength-reduce` > 0, CBE with
    /// `do-scev-cgp` > 0, SCEV-CGP's thread-id split with CBE on and `nv-disable-scev-cgp` off
    /// (or when `nv-scev-cgp` is asked for by name).
    pub fn from_knobs(k: &Knobs, phases: u32) -> Settings {
        let cbe_on = k.do_scev_cgp() > 0 && phases & (CBE | SCEV_CGP) != 0;
        let cgp =
            cbe_on && (phases == SCEV_CGP || (phases & SCEV_CGP != 0 && !k.nv_disable_scev_cgp()));
        let basr_level = if phases & BASR != 0 { k.do_base_address_strength_reduce() } else { 0 };
        Settings {
            basr: basr::Config {
                level: basr_level,
                chain: k.do_base_address_strength_reduce_chain() > 0,
                iv_limit: k.base_address_strength_reduce_iv_limit() as usize,
                max_iv: k.base_address_strength_reduce_max_iv() as u64,
                idom_limit: k.scev_cgp_idom_level_limit() as u32,
            },
            cbe: cbe::Config {
                function_level: k.do_function_scev_cgp() > 0,
                old_base: k.scev_cgp_old_base(),
                cross_block_limit: k.scev_cgp_cross_block_limit(),
                control: k.scev_cgp_control(),
            },
            cbe_on,
            rules: record::Rules {
                ignore_signed_overflow: k.ignore_signed_32_bit_overflow(),
                ignore_unsigned_overflow: k.ignore_32_bit_overflow(),
                ignore_bad_base: k.ignore_bad_base(),
                tid_max: cgp.then(|| k.scev_cgp_tid_max_value() as u64),
            },
            norm: k.scev_cgp_norm(),
            inst_limit: k.scev_cgp_inst_limit() as usize,
            dump_cgp: k.dump_scev_cgp() > 0,
            dump_basr: k.dump_base_address_strength_reduce() > 0,
            print_after: k.print_after_scev_cgp(),
        }
    }
}

impl Settings {
    /// The phases that will run (bits [`BASR`], [`CBE`], [`SCEV_CGP`]).
    pub fn active(&self) -> u32 {
        (self.basr.level > 0) as u32 * BASR
            | self.cbe_on as u32 * CBE
            | self.rules.tid_max.is_some() as u32 * SCEV_CGP
    }
}

/// Whether `nv-iv-start-widening` runs: `nv-widen-iv-starts` on and BASR on (it serves BASR).
pub fn widening_runs(k: &Knobs) -> bool {
    k.nv_widen_iv_starts() && Settings::from_knobs(k, BASR).basr.level > 0
}

/// Whether `codegenpreparescev` does anything under these knobs (llc leaves it out otherwise).
pub fn codegenpreparescev_runs(k: &Knobs) -> bool {
    Settings::from_knobs(k, BASR | CBE | SCEV_CGP).active() != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::K;

    #[test]
    fn defaults_run_basr_and_cbe_but_not_the_thread_id_split() {
        let s = Settings::from_knobs(&Knobs::defaults(), BASR | CBE | SCEV_CGP);
        assert_eq!(s.basr.level, 4);
        assert!(s.cbe_on && s.cbe.function_level);
        assert_eq!(s.rules.tid_max, None, "nv-disable-scev-cgp is on by default");
        let named = Settings::from_knobs(&Knobs::defaults(), SCEV_CGP);
        assert_eq!(named.rules.tid_max, Some(4096));
        assert_eq!(named.basr.level, 0);
    }

    #[test]
    fn the_off_switches_of_the_bench() {
        let mut k = Knobs::defaults();
        k.set(K::do_scev_cgp, 0);
        k.set(K::do_base_address_strength_reduce, 0);
        let s = Settings::from_knobs(&k, BASR | CBE | SCEV_CGP);
        assert!(!s.cbe_on && s.basr.level == 0 && s.rules.tid_max.is_none());
        k.set(K::nv_disable_scev_cgp, 0);
        assert!(
            Settings::from_knobs(&k, BASR | CBE | SCEV_CGP).rules.tid_max.is_none(),
            "SCEV-CGP rides on CBE"
        );
    }
}
