//! Address-mode optimization with Scalar Evolution: cicc's `codegenpreparescev` ("Optimize
//! address mode with Scalar Evolution"). GPU loads and stores address `[reg+imm]` cheaply, and
//! every 64-bit base a loop keeps costs two registers; the pass rewrites addresses so that
//! accesses off one base share a register and differ by constants. Sources: docs/CICC-FACTS.md
//! "SCEV-CGP" (the book page "CodeGenPrepare and SCEV-CGP", docs/SOURCES.md source 004) and
//! docs/CICC-FACTS.md "Address optimization", which
//! records what the real binary does: one legacy function pass in llc's IR pipeline right
//! after `codegenprepare` (so after LSR), followed by adce; inside it BASR first, then CBE at
//! function level, then CBE per block; and cicc's knob defaults (listed below).
//!
//! Where it runs: the codegen callback (src/codegen.rs) puts `codegenpreparescev` right after
//! llc's CodeGenPrepare for NVPTX at -O1..-O3 (unless `-do-base-address-strength-reduce=0
//! -do-scev-cgp=0`); opt runs it as `-passes=codegenpreparescev` and each part alone as
//! `nv-basr`, `nv-cbe`, `nv-scev-cgp`. Pointer SCEVs come from `nv-scev` (src/analysis/scev), except
//! the addresses of loads and stores, which src/llc/addr/access_scev.cpp rebuilds (see [`record`]
//! below). The pass itself is Rust ([`pass`]): it walks the function, runs the phases, and
//! applies and cleans up the rewrites through inkwell/llvm-sys; ScalarEvolution and
//! SCEVExpander, which LLVM's C API lacks, are reached through [`scev`] (src/llc/addr/addr.cpp,
//! which also holds the pass plumbing); [`session`] holds one function's settings, plans and
//! dumps.
//!
//! The parts, each with its own header:
//! - [`record`]: pointer = base + constant offset. Each load, store and pointer argument of a
//!   call is split through adds, `{s,+,t}` into `{0,+,t}` + `s`, constant multipliers,
//!   `sext(x + C)` only with nsw, `zext(x + C)` only with nuw or SCEV-CGP's thread-id bound.
//!   A load's or store's address is rebuilt by src/llc/addr/access_scev.cpp with its index's
//!   `sext`/`zext nneg` pushed through the nsw add/sub/mul/shl and nsw IV updates under it:
//!   the access is UB if its address is poison, so wherever it runs that arithmetic did not
//!   wrap, and `sext(i)` of an IV `phi [s], [i +nsw d]` is exactly `{sext(s),+,sext(d)}`.
//! - [`group`]: records by base and address space, dominance from DFS numbers,
//!   `scev-cgp-norm` (rebase a group with negative offsets on its smallest offset).
//! - [`basr`]: Base Address Strength Reduction: bases of one loop that differ by a cheap
//!   invariant share one base, within the register budget of [`crate::analysis::pressure::target`].
//! - [`cbe`]: Common Base Elimination, function level then per block: accesses off one base
//!   become `anchor + constant`.
//! - [`widen`]: which IV starts are rebuilt in 64 bits before llc's SLSR (a separate pass,
//!   `nv-iv-start-widening`), so BASR keeps their exact differences.
//! - SCEV-CGP proper (`nv-disable-scev-cgp`, default true as in cicc's LLVM 20 copy; its
//!   LLVM 7 copy has false): the thread-id zext split of [`record`], and the 32-bit index adds
//!   of [`narrow`]. It changes nothing on the bench: LLVM 22's own `range` on the special
//!   registers already lets SCEV prove the zext adds nuw, and the bench's split index sums
//!   involve `ctaid*ntid` or kernel arguments, which have no bound.
//!
//! Example (CBE; plugin-tests/addr/cbe.ll), `p[i]`, `p[i+1]`, `p[i+2]` with nsw index
//! arithmetic, one base at offsets 0, 4 and 8:
//!
//! ```text
//! ; before: three address computations
//! %i1 = add nsw i32 %i, 1
//! %i2 = add nsw i32 %i, 2
//! %e0 = sext i32 %i to i64
//! %e1 = sext i32 %i1 to i64
//! %e2 = sext i32 %i2 to i64
//! %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
//! %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
//! %a2 = getelementptr float, ptr addrspace(1) %p, i64 %e2
//! %v0 = load float, ptr addrspace(1) %a0
//! %v1 = load float, ptr addrspace(1) %a1
//! %s = fadd float %v0, %v1
//! store float %s, ptr addrspace(1) %a2
//!
//! ; after codegenpreparescev: one base, constant offsets (PTX [%rd3], [%rd3+4], [%rd3+8])
//! %e0 = sext i32 %i to i64
//! %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
//! %v0 = load float, ptr addrspace(1) %a0
//! %nv.addr = getelementptr i8, ptr addrspace(1) %a0, i64 4
//! %v1 = load float, ptr addrspace(1) %nv.addr
//! %s = fadd float %v0, %v1
//! %nv.addr1 = getelementptr i8, ptr addrspace(1) %a0, i64 8
//! store float %s, ptr addrspace(1) %nv.addr1
//! ```
//!
//! On straight-line code like this LLVM 22's own CodeGenPrepare, SeparateConstOffsetFromGEP
//! and SelectionDAG usually reach the same PTX; the gains are in loops with many accesses off
//! related bases, where BASR shares loop-carried bases (the bench's 168-IV kernel; the `BASR`
//! entry of docs/DEPARTURES.md and docs/RESULTS.md).
//!
//! Knobs (docs/KNOBS.md; cicc's names and, except where said, cicc's defaults):
//! `do-base-address-strength-reduce` (4), `do-base-address-strength-reduce-chain` (1),
//! `base-address-strength-reduce-iv-limit` (128), `base-address-strength-reduce-max-iv` (35),
//! `scev-cgp-idom-level-limit` (3), `do-scev-cgp` (2), `do-function-scev-cgp` (2),
//! `scev-cgp-control` (-1, no limit), `scev-cgp-cross-block-limit` (8), `scev-cgp-old-base`
//! (2), `scev-cgp-norm` (2), `scev-cgp-inst-limit` (500), `nv-disable-scev-cgp` (true),
//! `scev-cgp-tid-max-value` (4096), `ignore-signed-32-bit-overflow` (false; cicc: true),
//! `ignore-bad-base` (true), `ignore-32-bit-overflow` (false), `nv-widen-iv-starts` (nvopt's
//! own, true). Dumps: `dump-scev-cgp=1`, `dump-base-address-strength-reduce=1` and
//! `print-after-scev-cgp` print the decisions and the IR on stderr;
//! `-pass-remarks=codegenpreparescev` names each rewrite.
//!
//! What it refuses, and why:
//! - `ignore-signed-32-bit-overflow` defaults to false (cicc: true): splitting a sext without
//!   nsw can change the address (for instance `int j = (int)(u - 1u)` with `u = 0x80000000`),
//!   so nvopt only rewrites what it proves. With it on, the adapter also distributes sext
//!   through arithmetic that lacks nsw. `ignore-32-bit-overflow` (false, as in cicc) does the
//!   same for `zext(x + C)`.
//! - `ignore-bad-base` (true, as in cicc) keeps records whose base pointer does not trace back
//!   to an argument, global, alloca or allocation; with it off they are left alone (nvopt's
//!   reading: the binary's check is not documented).
//! - A pointer value is moved only when all its uses move, so its old computation dies (a
//!   rewrite that leaves it alive only adds instructions).
//! - cicc knobs without a counterpart here: `topo-sort-begin`, `scev-cgp-check-latency`,
//!   `do-scev-cgp-aggresively` (their effect is not documented).
pub mod basr;
pub mod cbe;
pub mod expr;
pub mod group;
pub mod narrow;
pub mod pass;
pub mod record;
pub mod scev;
pub mod session;
pub mod widen;

use crate::knobs::Knobs;

crate::shared_codes! {
    /// Phase bits: which parts a pass runs (`codegenpreparescev` all three, `nv-basr`, `nv-cbe`,
    /// `nv-scev-cgp` one each; C++: the generated enum `NvAddrPhase`).
    pub enum NvAddrPhase: u32 {
        BASR = 1,
        CBE = 2,
        SCEV_CGP = 4,
    }
}

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
