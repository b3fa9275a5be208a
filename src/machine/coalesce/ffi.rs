//! The boundary between `nv-coalesce`'s adapter (src/machine/coalesce/coalesce.cpp) and the planner: the
//! facts the shim collects per copy, the oracle calls into LiveIntervals (and the remarks the
//! shim emits for them), the knob reads, the pipeline-insertion decision and the statistics.
//! Marshalling only.
use super::plan::{self, Current, Exclusion, Facts, Limits, Oracle, Origin, RegWeight, SourceDef};
use crate::ffi::slice;
use crate::knobs::Knobs;
use std::ffi::c_void;

/// Use statistics of one register, as the shim reports them.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawWeight {
    pub(crate) instrs: u32,
    pub(crate) uses: u32,
    pub(crate) spill: f64,
}

/// One copy, as the shim reports it (src/machine/coalesce/coalesce.cpp, `RawFacts`).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawFacts {
    pub(crate) dst: u32,
    pub(crate) src: u32,
    pub(crate) width: u32,
    pub(crate) flags: u32,
    pub(crate) src_def: u32,
    pub(crate) src_def_addrspace: u32,
    pub(crate) dst_stored_to: u32,
    pub(crate) freq: f64,
    pub(crate) dst_weight: RawWeight,
    pub(crate) src_weight: RawWeight,
}

crate::shared_codes! {
    /// The bits of [`RawFacts::flags`] (C++: the generated enum `NvCoalesceFlag`).
    enum NvCoalesceFlag: u32 {
        DST_VIRTUAL = 1,
        SRC_VIRTUAL = 2,
        SAME_CLASS = 4,
        SUBREG = 8,
        SRC_UNDEF = 16,
        AT_BLOCK_END = 32,
        DST_LIVE_OUT = 64,
    }
}

crate::shared_codes! {
    /// The codes of [`RawFacts::src_def`]; anything else reads as "other" (C++: the generated
    /// enum `NvCoalesceSourceDef`).
    enum NvCoalesceSourceDef: u32 {
        DEF_OTHER = 0,
        DEF_LOAD = 1,
        DEF_IMMEDIATE = 2,
        DEF_PHI_JOIN = 3,
    }
}

const NONE: u32 = u32::MAX;

impl RawWeight {
    fn get(self) -> RegWeight {
        RegWeight { instrs: self.instrs, uses: self.uses, spill: self.spill }
    }
}

impl RawFacts {
    fn get(&self) -> Facts {
        let on = |bit: u32| self.flags & bit != 0;
        Facts {
            dst: self.dst,
            src: self.src,
            dst_virtual: on(DST_VIRTUAL),
            src_virtual: on(SRC_VIRTUAL),
            same_class: on(SAME_CLASS),
            width: self.width,
            subreg: on(SUBREG),
            src_undef: on(SRC_UNDEF),
            src_def: match self.src_def {
                DEF_LOAD => SourceDef::Load(self.src_def_addrspace),
                DEF_IMMEDIATE => SourceDef::ImmediateMove,
                DEF_PHI_JOIN => SourceDef::PhiJoin,
                _ => SourceDef::Other,
            },
            dst_stored_to: (self.dst_stored_to != NONE).then_some(self.dst_stored_to),
            at_block_end: on(AT_BLOCK_END),
            dst_live_out: on(DST_LIVE_OUT),
            freq: self.freq,
            dst_weight: self.dst_weight.get(),
            src_weight: self.src_weight.get(),
        }
    }
}

extern "C" {
    fn nvopt_shim_register_coalesce();
    fn nvopt_shim_coalesce_current(
        host: *mut c_void,
        id: u32,
        dst: *mut u32,
        src: *mut u32,
    ) -> bool;
    fn nvopt_shim_coalesce_interferes(host: *mut c_void, id: u32) -> bool;
    fn nvopt_shim_coalesce_merge(host: *mut c_void, id: u32, keep: u32);
    fn nvopt_shim_coalesce_erase_identity(host: *mut c_void, id: u32);
    fn nvopt_shim_coalesce_immediate_source(host: *mut c_void, id: u32) -> bool;
    fn nvopt_shim_coalesce_rematerialize(host: *mut c_void, id: u32) -> u32;
    fn nvopt_shim_coalesce_kept(host: *mut c_void, id: u32, by_limit: bool);
}

/// Registers the legacy machine pass `nv-coalesce` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-coalesce` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_coalesce() }
}

/// The shim's pass object on one MachineFunction, seen as the planner's oracle.
struct Shim(*mut c_void);

impl Oracle for Shim {
    fn current(&mut self, id: u32) -> Current {
        let (mut dst, mut src) = (0, 0);
        // SAFETY: self.0 is the live pass state that called into Rust; id indexes its copies.
        if unsafe { nvopt_shim_coalesce_current(self.0, id, &mut dst, &mut src) } {
            Current::Copy { dst, src }
        } else {
            Current::Gone
        }
    }
    fn interferes(&mut self, id: u32) -> bool {
        // SAFETY: as above.
        unsafe { nvopt_shim_coalesce_interferes(self.0, id) }
    }
    fn merge(&mut self, id: u32, keep: u32) {
        // SAFETY: as above; keep is one of the copy's current registers.
        unsafe { nvopt_shim_coalesce_merge(self.0, id, keep) }
    }
    fn erase_identity(&mut self, id: u32) {
        // SAFETY: as above.
        unsafe { nvopt_shim_coalesce_erase_identity(self.0, id) }
    }
    fn immediate_source(&mut self, id: u32) -> bool {
        // SAFETY: as above.
        unsafe { nvopt_shim_coalesce_immediate_source(self.0, id) }
    }
    fn rematerialize(&mut self, id: u32) -> u32 {
        // SAFETY: as above; called only after immediate_source(id) said yes.
        unsafe { nvopt_shim_coalesce_rematerialize(self.0, id) }
    }
    fn kept(&mut self, id: u32, by_limit: bool) {
        // SAFETY: as above.
        unsafe { nvopt_shim_coalesce_kept(self.0, id, by_limit) }
    }
}

fn limits(k: &Knobs) -> Limits {
    Limits {
        copy_limit: k.nv_coalesce_copy_limit().max(0) as usize,
        coalesce_limit: k.nv_coalesce_limit().max(0) as usize,
        freq_bias: k.nv_coalesce_freq_bias(),
        remat: k.nv_coalesce_remat(),
    }
}

const PASS: &str = "nv-coalesce";

fn record(out: &plan::Outcome) {
    let add = |what: &'static str, n: u64| crate::stats::add_nonzero(PASS, what, n);
    let total = |m: &crate::fast_hash::HashMap<Origin, u64>| m.values().sum::<u64>();
    add("copies seen", total(&out.seen));
    for o in Origin::ALL {
        add(o.name(), out.seen.get(&o).copied().unwrap_or(0));
    }
    for (what, map) in [
        ("copies merged", &out.merged),
        ("copies rematerialized", &out.rematerialized),
        ("copies kept (interference or limit)", &out.kept),
    ] {
        add(what, total(map));
    }
    for (o, n) in &out.merged {
        add(merged_name(*o), *n);
    }
    for (o, n) in &out.rematerialized {
        add(remat_name(*o), *n);
    }
    for e in Exclusion::ALL {
        add(e.name(), out.excluded.get(&e).copied().unwrap_or(0));
    }
    add("copies erased as identities after merges", out.identities);
    add("copies over the copy limit", out.over_copy_limit);
    add("functions stopped by the coalesce limit", out.hit_coalesce_limit as u64);
    add("interference queries", out.queries);
    add("worklist retry rounds", out.rounds.saturating_sub(1));
}

fn merged_name(o: Origin) -> &'static str {
    match o {
        Origin::Phi => "merged: PHI-elimination copies",
        Origin::Param => "merged: parameter copies",
        Origin::SubReg => "merged: sub-register copies",
        Origin::Other => "merged: other copies",
    }
}

fn remat_name(o: Origin) -> &'static str {
    match o {
        Origin::Phi => "rematerialized: PHI-elimination copies",
        Origin::Param => "rematerialized: parameter copies",
        Origin::SubReg => "rematerialized: sub-register copies",
        Origin::Other => "rematerialized: other copies",
    }
}

/// Runs the planner over one MachineFunction's copies; returns whether anything changed.
///
/// # Safety
/// `host` is the shim's live pass state; `facts` points to `n` readable `RawFacts`, copy `i`
/// of which the shim knows as id `i`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_coalesce_run(
    host: *mut c_void,
    facts: *const RawFacts,
    n: usize,
) -> bool {
    let knobs = Knobs::current();
    if knobs.nv_disable_coalesce() {
        return false;
    }
    let raw = slice(facts, n);
    let facts: Vec<Facts> = raw.iter().map(RawFacts::get).collect();
    let out = plan::coalesce(&facts, limits(&knobs), &mut Shim(host));
    record(&out);
    out.removed() > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_facts_decode() {
        let raw = RawFacts {
            dst: 3,
            src: 4,
            width: 32,
            flags: DST_VIRTUAL | SRC_VIRTUAL | SAME_CLASS | AT_BLOCK_END | DST_LIVE_OUT,
            src_def: DEF_LOAD,
            src_def_addrspace: 101,
            dst_stored_to: NONE,
            freq: 2.0,
            ..Default::default()
        };
        let f = raw.get();
        assert_eq!(f.src_def, SourceDef::Load(101));
        assert_eq!(f.origin(), Origin::Param);
        assert_eq!(f.exclusion(), None);
        assert_eq!(f.dst_stored_to, None);
        let cross = RawFacts { flags: DST_VIRTUAL | SRC_VIRTUAL, ..raw };
        assert_eq!(cross.get().exclusion(), Some(Exclusion::CrossClass));
    }

    #[test]
    fn default_limits_come_from_the_knobs() {
        let l = limits(&Knobs::defaults());
        assert!(l.copy_limit > 0 && l.coalesce_limit > 0 && l.remat && !l.freq_bias);
    }
}
