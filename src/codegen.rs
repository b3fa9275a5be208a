//! What nvopt adds to llc's (and clang's) legacy codegen pipeline. NVPTX code generation in
//! LLVM 22 runs only under the legacy pass manager, and the way a plugin adds passes there is a
//! TargetPassConfig callback: the one in src/shim/codegen.cpp asks [`insertions`] once per
//! pipeline and inserts each chosen pass right after its anchor, both named by their
//! registered pass names. It inserts only for NVPTX triples at an optimization level above 0,
//! and each insertion can be switched off by a knob. The callback fires in `llc
//! --load-pass-plugin`, `llc -load` and `clang -fpass-plugin` for every target a process
//! builds a codegen pipeline for (host compiles included, which get nothing), and never in opt.
//!
//! The insertions, in pipeline order (`llc -O3 -debug-pass=Arguments` with the plugin):
//!
//! ```text
//! stock llc -O3 (NVPTX)            with the plugin                        switched off by
//! ... nvptx-lower-args             nvptx-lower-args
//!                                  nv-phi-loads           (src/llc/phi_loads.rs) nv-disable-phi-loads
//!     sroa ...                     sroa ...
//!     speculative-execution        speculative-execution
//!                                  nv-iv-start-widening   (src/llc/addr/widen.rs)
//!     slsr ...                     slsr ...                                nv-widen-iv-starts=0
//!     canon-freeze                 canon-freeze
//!                                  nv-lsr-gate-pass       (src/llc/lsr_gate.rs) nv-lsr-gate=0
//!     loop-reduce ...              loop-reduce ...
//!     codegenprepare               codegenprepare
//!                                  codegenpreparescev     (src/llc/addr)
//!                                  nv-iv-rewrite          (src/llc/iv_rewrite) nv-disable-iv-rewrite
//!                                  nv-ext-reuse           (src/llc/ext_reuse) nv-disable-ext-reuse
//!                                  nv-cssa                (src/llc/cssa)      cssa-coalesce=0
//!     nvptx-lower-aggr-copies      nvptx-lower-aggr-copies
//!                                  nv-remat               (src/llc/remat)     do-remat=0
//!     alloca-hoisting              alloca-hoisting
//!     nvptx-isel ...               nvptx-isel ...
//!     machine-sink                 machine-sink, or in its place                nv-machine-sink
//!                                  nv-machine-sink-slot   (src/machine/machine_sink_slot)
//!                                  nv-load-hoist          (src/machine/load_hoist) nv-disable-load-hoist
//!                                  nv-pre-sink            (src/machine/pre_sink)  nv-disable-pre-sink
//!                                  nv-pred-remat          (src/machine/pred_remat) nv-disable-pred-remat
//!                                  nv-param-opt           (src/machine/param_opt) nv-disable-param-opt
//!                                  nv-mul-wide-split      (src/machine/mul_wide_split) nv-mul-wide-split-rule=0
//!     phi-node-elimination ...     phi-node-elimination ...
//!     register-coalescer           register-coalescer
//!                                  nv-coalesce            (src/machine/coalesce)  nv-disable-coalesce
//!     machine-scheduler            machine-scheduler
//!                                  nv-sreg-order          (src/machine/sreg_order) nv-disable-sreg-order=0 (off by default)
//! ```
//!
//! - nvopt's PHI-of-loads speculation (src/llc/phi_loads.rs; not a cicc pass: it lets SROA keep a
//!   private object in registers that a PHI of addresses kept in memory, as in CUB's arg-min
//!   reductions), right after `nvptx-lower-args`, before llc's SROA;
//! - the LSR gates (src/llc/lsr_gate.rs), right before llc's stock LoopStrengthReduce
//!   (docs/CICC-FACTS.md "NVIDIA LSR knobs": cicc gates LSR by register pressure, trip count and
//!   loop level): llc's IR pipeline adds `canon-freeze` immediately before `loop-reduce`, in
//!   the same loop pass manager, and only when LSR runs, so an explicit `-disable-lsr` also
//!   leaves the gate out;
//! - nvopt's IV-start widening (src/llc/addr/widen.rs), right after `speculative-execution`, i.e.
//!   right before SLSR, whose rewrite of nsw IV starts would hide from BASR what it needs;
//!   also off when BASR is (`do-base-address-strength-reduce=0`);
//! - cicc's address-mode pass `codegenpreparescev` (src/llc/addr; docs/CICC-FACTS.md "Address
//!   optimization": in cicc it runs right after CodeGenPrepare, after LSR), right after
//!   CodeGenPrepare, unless both `do-base-address-strength-reduce=0` and `do-scev-cgp=0`;
//! - nvopt's extension reuse (src/llc/ext_reuse; not a cicc pass: it gives ptxas the 32-bit
//!   extension nvcc's PTX has where LSR rebuilt a thread rank in 64 bits), after the passes
//!   at `codegenprepare` that expand ScalarEvolution expressions and before `nv-cssa`;
//! - the PHI-operand (CSSA) coalescing pass (src/llc/cssa; docs/CICC-FACTS.md "CSSA coalescing": cicc
//!   coalesces PHI operands before PHI elimination), as late as possible in the IR part of the
//!   pipeline: after CodeGenPrepare and after `codegenpreparescev`, which is also inserted
//!   there, so that nothing rewrites the PHI operands between nv-cssa and instruction
//!   selection;
//! - cicc's IR rematerialization (src/llc/remat; docs/CICC-FACTS.md "Register pressure and
//!   rematerialization": cicc's llc runs `remat` as its last IR pass, after
//!   `lower-aggr-copies` and before `alloca-hoisting` and ISel), right after
//!   `nvptx-lower-aggr-copies`;
//! - with `-nv-machine-sink=0`, an empty pass in `machine-sink`'s place
//!   (src/machine/machine_sink_slot; cicc's llc runs no MachineSink), which the three passes
//!   below follow (TargetPassConfig inserts after the pass it actually adds);
//! - nvopt's load hoisting (src/machine/load_hoist; not a cicc pass: cicc's llc runs no
//!   MachineSink, and this undoes the MachineSink moves of loads that hold wider registers
//!   across the blocks they were moved past), right after `machine-sink`;
//! - nvopt's hoisted-value sinking (src/machine/pre_sink; not a cicc pass: it undoes MachineCSE's
//!   partial-redundancy hoisting where the hoisted value would be held across an idle loop,
//!   as nvcc's PTX computes such values in each block), right after `machine-sink`;
//! - nvopt's predicate rematerialization (src/machine/pred_remat; not a cicc pass as such: nvcc's PTX
//!   compares inside the loop where LICM would hold more predicates across it than SASS has
//!   predicate registers), after nv-pre-sink: early MachineLICM, which runs before
//!   `machine-sink`, would hoist the compares again;
//! - cicc's `param-opt` (src/machine/param_opt; in cicc right after ISel), after `machine-sink`: early
//!   MachineLICM and MachineCSE, which run between, would hoist and merge the re-issued
//!   `ld.param` loads again;
//! - nvopt's mul.wide split (src/machine/mul_wide_split; not a cicc pass: it gives ptxas the
//!   shift form of a widening multiply by a power of two where the product is added to a
//!   block-uniform base, which ptxas then keeps in uniform registers), after nv-param-opt, in SSA
//!   form, where no later pass fuses the pair back;
//! - the NVPTX copy coalescer (src/machine/coalesce; docs/CICC-FACTS.md "Register coalescing": cicc runs
//!   its own coalescer after LLVM's RegisterCoalescer), right after RegisterCoalescer;
//! - the launch-configuration reads first (src/machine/sreg_order; not a cicc pass: it gives ptxas the
//!   order nvcc's PTX has), right after the machine scheduler, which would reorder them; off by
//!   default, as it cost registers on the validate split (docs/DEPARTURES.md).
//!
//! Nothing is inserted at `-O0` (the code generator level cicc uses at O0 and at every
//! fast-compile level) or for non-NVPTX targets.
use crate::knobs::Knobs;
use std::ffi::{c_char, c_void};

/// One pass to insert: its registered name and the registered name of the pass it follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Insertion {
    pub pass: &'static str,
    pub after: &'static str,
}

/// The LSR gate pass (src/llc/lsr_gate.cpp), just before llc's `loop-reduce`.
pub const LSR_GATE: Insertion = Insertion { pass: "nv-lsr-gate-pass", after: "canon-freeze" };

/// Pressure-driven IV rewriting (src/llc/iv_rewrite), after `codegenpreparescev` (listed after it:
/// insertions at one anchor run in list order): BASR takes the IVs its address sharing can, in
/// their nsw form; nv-iv-rewrite then moves the integer IVs left in loops still over the target.
pub const IV_REWRITE: Insertion = Insertion { pass: "nv-iv-rewrite", after: "codegenprepare" };

/// IV-start widening for BASR (src/llc/addr/widen.rs), right after llc's
/// `speculative-execution`, i.e. right before `slsr`, whose rewrite of IV starts drops nsw.
pub const IV_START_WIDENING: Insertion =
    Insertion { pass: "nv-iv-start-widening", after: "speculative-execution" };

/// BASR + CBE + SCEV-CGP (src/llc/addr), right after llc's `codegenprepare`
/// (docs/CICC-FACTS.md "Address optimization"); the dead code it leaves is deleted by the pass.
pub const CODEGENPREPARE_SCEV: Insertion =
    Insertion { pass: "codegenpreparescev", after: "codegenprepare" };

/// Extension reuse (src/llc/ext_reuse; pass wrappers in src/llc/ext_reuse/ext_reuse.cpp), after
/// `codegenprepare`, listed after every SCEVExpander user anchored there (`codegenpreparescev`,
/// `nv-iv-rewrite`) and before `nv-cssa`.
pub const EXT_REUSE: Insertion = Insertion { pass: "nv-ext-reuse", after: "codegenprepare" };

/// The NVPTX copy coalescer (src/machine/coalesce/coalesce.cpp), right after `register-coalescer`.
pub const COALESCE: Insertion = Insertion { pass: "nv-coalesce", after: "register-coalescer" };

/// The PHI-operand (CSSA) coalescing pass (src/llc/cssa; pass wrappers in src/llc/cssa/cssa.cpp), right
/// after `codegenprepare`.
/// Listed after every other insertion anchored at `codegenprepare`: TargetPassConfig puts each
/// insertion right after its anchor as the anchor is added, in list order, so the last one
/// listed runs last.
pub const CSSA: Insertion = Insertion { pass: "nv-cssa", after: "codegenprepare" };

/// IR rematerialization (src/llc/remat; pass wrappers in src/llc/remat/remat.cpp), the last IR pass:
/// right after `nvptx-lower-aggr-copies`, before `alloca-hoisting` and ISel (as in cicc).
pub const REMAT: Insertion = Insertion { pass: "nv-remat", after: "nvptx-lower-aggr-copies" };

/// Loads back next to their addresses (src/machine/load_hoist; machine pass in
/// src/machine/load_hoist/load_hoist.cpp), right after `machine-sink`, whose moves it undoes where
/// they hold wider registers (listed before nv-pre-sink).
pub const LOAD_HOIST: Insertion = Insertion { pass: "nv-load-hoist", after: "machine-sink" };

/// Hoisted-value sinking (src/machine/pre_sink; machine pass in src/machine/pre_sink/pre_sink.cpp), after
/// `machine-sink`, i.e. after MachineCSE, whose hoisting it undoes (listed before nv-param-opt).
pub const PRE_SINK: Insertion = Insertion { pass: "nv-pre-sink", after: "machine-sink" };

/// Predicate rematerialization (src/machine/pred_remat; machine pass in src/machine/pred_remat/pred_remat.cpp),
/// after `machine-sink`, i.e. after early MachineLICM, whose hoisting it undoes where the
/// predicates would not fit (listed after nv-pre-sink).
pub const PRED_REMAT: Insertion = Insertion { pass: "nv-pred-remat", after: "machine-sink" };

/// ld.param re-issue (src/machine/param_opt; machine pass in src/machine/param_opt/param_opt.cpp), after
/// `machine-sink`, the last of the passes that hoist or merge invariant loads.
pub const PARAM_OPT: Insertion = Insertion { pass: "nv-param-opt", after: "machine-sink" };

/// mul.wide by a power of two as convert and shift (src/machine/mul_wide_split; machine pass in
/// src/machine/mul_wide_split/mul_wide_split.cpp), after `machine-sink` (listed after
/// nv-param-opt).
pub const MUL_WIDE_SPLIT: Insertion =
    Insertion { pass: "nv-mul-wide-split", after: "machine-sink" };

/// Launch-configuration reads first (src/machine/sreg_order; machine pass in src/machine/sreg_order/sreg_order.cpp),
/// after `machine-scheduler`, the last pass that orders instructions within a block.
pub const SREG_ORDER: Insertion = Insertion { pass: "nv-sreg-order", after: "machine-scheduler" };

/// Loads through a PHI of a private object made in the predecessors (src/llc/phi_loads.rs; pass
/// wrappers in src/llc/phi_loads.cpp), right after `nvptx-lower-args`, i.e. right before the
/// SROA that llc runs ahead of `nvptx-lower-alloca`, which then keeps the object in registers.
pub const PHI_LOADS: Insertion = Insertion { pass: "nv-phi-loads", after: "nvptx-lower-args" };

/// An upstream pass whose place in the pipeline an nvopt pass takes: TargetPassConfig adds
/// `pass` where it would add `replaces`, and the insertions anchored at `replaces` must then
/// name `pass` as their anchor (it inserts after the pass actually added).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Substitution {
    pub pass: &'static str,
    pub replaces: &'static str,
}

/// `machine-sink`'s place left empty (src/machine/machine_sink_slot): cicc's llc runs no
/// MachineSink.
pub const MACHINE_SINK_SLOT: Substitution =
    Substitution { pass: crate::machine::machine_sink_slot::PASS, replaces: "machine-sink" };

/// The upstream passes nvopt replaces in a codegen pipeline for this target and `-O` level.
pub fn substitutions(is_nvptx: bool, opt_level: u32, knobs: &Knobs) -> Vec<Substitution> {
    let mut out = Vec::new();
    if is_nvptx && opt_level > 0 && !knobs.nv_machine_sink() {
        out.push(MACHINE_SINK_SLOT);
    }
    out
}

/// The passes to insert into a codegen pipeline for this target and `-O` level, each anchored
/// at the pass that actually runs in its anchor's place (see [`substitutions`]).
pub fn insertions(is_nvptx: bool, opt_level: u32, knobs: &Knobs) -> Vec<Insertion> {
    let mut out = chosen_insertions(is_nvptx, opt_level, knobs);
    for sub in substitutions(is_nvptx, opt_level, knobs) {
        for i in out.iter_mut().filter(|i| i.after == sub.replaces) {
            i.after = sub.pass;
        }
    }
    out
}

/// The insertions by their upstream anchors.
fn chosen_insertions(is_nvptx: bool, opt_level: u32, knobs: &Knobs) -> Vec<Insertion> {
    let mut out = Vec::new();
    if !is_nvptx || opt_level == 0 {
        return out;
    }
    if !knobs.nv_disable_phi_loads() {
        out.push(PHI_LOADS);
    }
    if knobs.nv_lsr_gate() {
        out.push(LSR_GATE);
    }
    if crate::llc::addr::widening_runs(knobs) {
        out.push(IV_START_WIDENING);
    }
    if crate::llc::addr::codegenpreparescev_runs(knobs) {
        out.push(CODEGENPREPARE_SCEV);
    }
    if !knobs.nv_disable_iv_rewrite() {
        out.push(IV_REWRITE);
    }
    if !knobs.nv_disable_ext_reuse() {
        out.push(EXT_REUSE);
    }
    if !knobs.nv_disable_coalesce() {
        out.push(COALESCE);
    }
    if knobs.cssa_coalesce() {
        out.push(CSSA);
    }
    if knobs.do_remat() > 0 {
        out.push(REMAT);
    }
    if !knobs.nv_disable_load_hoist() {
        out.push(LOAD_HOIST);
    }
    if !knobs.nv_disable_pre_sink() {
        out.push(PRE_SINK);
    }
    if !knobs.nv_disable_pred_remat() {
        out.push(PRED_REMAT);
    }
    if !knobs.nv_disable_param_opt() {
        out.push(PARAM_OPT);
    }
    if knobs.nv_mul_wide_split_rule() > 0 {
        out.push(MUL_WIDE_SPLIT);
    }
    if !knobs.nv_disable_sreg_order() {
        out.push(SREG_ORDER);
    }
    out
}

/// Called by src/shim/codegen.cpp when a codegen pipeline is built, before any pass is added:
/// hands each substitution (pass name, the upstream pass it replaces) to `substitute`, then
/// each insertion (pass name, anchor name) to `insert`.
///
/// # Safety
/// `substitute` and `insert` may be called with `ctx` and byte strings valid for the duration
/// of the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_codegen_insertions(
    is_nvptx: bool,
    opt_level: u32,
    substitute: extern "C" fn(
        ctx: *mut c_void,
        pass: *const c_char,
        pass_len: usize,
        replaces: *const c_char,
        replaces_len: usize,
    ),
    insert: extern "C" fn(
        ctx: *mut c_void,
        pass: *const c_char,
        pass_len: usize,
        after: *const c_char,
        after_len: usize,
    ),
    ctx: *mut c_void,
) {
    if !crate::host::check_once() {
        return;
    }
    let knobs = Knobs::current();
    let subs = substitutions(is_nvptx, opt_level, &knobs);
    let list = insertions(is_nvptx, opt_level, &knobs);
    log::debug!(
        "codegen pipeline (nvptx: {is_nvptx}, -O{opt_level}): substituting {subs:?}, inserting {list:?}"
    );
    for s in subs {
        substitute(
            ctx,
            s.pass.as_ptr().cast(),
            s.pass.len(),
            s.replaces.as_ptr().cast(),
            s.replaces.len(),
        );
    }
    for i in list {
        insert(ctx, i.pass.as_ptr().cast(), i.pass.len(), i.after.as_ptr().cast(), i.after.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::K;

    #[test]
    fn nvptx_above_o0_gets_the_lsr_gate_the_address_passes_and_the_coalescers() {
        let k = Knobs::defaults();
        for level in 1..=3 {
            assert_eq!(
                insertions(true, level, &k),
                vec![
                    PHI_LOADS,
                    LSR_GATE,
                    IV_START_WIDENING,
                    CODEGENPREPARE_SCEV,
                    IV_REWRITE,
                    EXT_REUSE,
                    COALESCE,
                    CSSA,
                    REMAT,
                    LOAD_HOIST,
                    PRE_SINK,
                    PRED_REMAT,
                    PARAM_OPT,
                    MUL_WIDE_SPLIT
                ]
            );
        }
    }

    #[test]
    fn sreg_order_is_inserted_only_when_its_knob_is_0() {
        let mut k = Knobs::defaults();
        assert!(!insertions(true, 3, &k).contains(&SREG_ORDER));
        k.set(K::nv_disable_sreg_order, 0);
        assert_eq!(insertions(true, 3, &k).last(), Some(&SREG_ORDER));
    }

    #[test]
    fn other_targets_and_o0_get_nothing() {
        let mut k = Knobs::defaults();
        k.set(K::nv_machine_sink, 0);
        assert!(insertions(false, 3, &k).is_empty());
        assert!(insertions(true, 0, &k).is_empty());
        assert!(substitutions(false, 3, &k).is_empty());
        assert!(substitutions(true, 0, &k).is_empty());
    }

    #[test]
    fn machine_sink_slot_takes_the_place_and_the_anchors_of_machine_sink() {
        let mut k = Knobs::defaults();
        k.set(K::nv_machine_sink, 1);
        assert!(substitutions(true, 3, &k).is_empty());
        k.set(K::nv_machine_sink, 0);
        assert_eq!(substitutions(true, 3, &k), vec![MACHINE_SINK_SLOT]);
        let moved: Vec<_> = insertions(true, 3, &k)
            .into_iter()
            .filter(|i| i.after == MACHINE_SINK_SLOT.pass)
            .map(|i| i.pass)
            .collect();
        assert_eq!(
            moved,
            vec![
                LOAD_HOIST.pass,
                PRE_SINK.pass,
                PRED_REMAT.pass,
                PARAM_OPT.pass,
                MUL_WIDE_SPLIT.pass
            ],
            "same order"
        );
        assert!(insertions(true, 3, &k).iter().all(|i| i.after != "machine-sink"));
    }

    #[test]
    fn knobs_switch_each_insertion_off() {
        let mut k = Knobs::defaults();
        k.set(K::nv_disable_param_opt, 1);
        k.set(K::do_remat, 0);
        k.set(K::nv_disable_sreg_order, 1);
        k.set(K::nv_disable_ext_reuse, 1);
        k.set(K::nv_disable_pre_sink, 1);
        k.set(K::nv_disable_pred_remat, 1);
        k.set(K::nv_disable_phi_loads, 1);
        k.set(K::nv_disable_load_hoist, 1);
        k.set(K::nv_mul_wide_split_rule, 0);
        assert_eq!(
            insertions(true, 3, &k),
            vec![LSR_GATE, IV_START_WIDENING, CODEGENPREPARE_SCEV, IV_REWRITE, COALESCE, CSSA]
        );
        k.set(K::nv_lsr_gate, 0);
        assert_eq!(
            insertions(true, 3, &k),
            vec![IV_START_WIDENING, CODEGENPREPARE_SCEV, IV_REWRITE, COALESCE, CSSA]
        );
        k.set(K::nv_widen_iv_starts, 0);
        assert_eq!(insertions(true, 3, &k), vec![CODEGENPREPARE_SCEV, IV_REWRITE, COALESCE, CSSA]);
        k.set(K::nv_widen_iv_starts, 1);
        k.set(K::do_scev_cgp, 0);
        assert_eq!(
            insertions(true, 3, &k),
            vec![IV_START_WIDENING, CODEGENPREPARE_SCEV, IV_REWRITE, COALESCE, CSSA],
            "BASR alone still runs"
        );
        k.set(K::do_base_address_strength_reduce, 0);
        assert_eq!(insertions(true, 3, &k), vec![IV_REWRITE, COALESCE, CSSA]);
        k.set(K::nv_disable_iv_rewrite, 1);
        assert_eq!(insertions(true, 3, &k), vec![COALESCE, CSSA]);
        k.set(K::nv_disable_coalesce, 1);
        assert_eq!(insertions(true, 3, &k), vec![CSSA]);
        k.set(K::cssa_coalesce, 0);
        assert!(insertions(true, 3, &k).is_empty());
    }
}
