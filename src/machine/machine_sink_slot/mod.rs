//! `nv-machine-sink-slot`: cicc's llc does not sink machine instructions, so with
//! `-nv-machine-sink=0` nvopt leaves upstream `machine-sink`'s place in llc's pipeline empty
//! (an empty pass of this name takes it; src/codegen.rs asks TargetPassConfig for the
//! substitution, and the nvopt passes anchored at that place, nv-pre-sink, nv-pred-remat and
//! nv-param-opt, follow it in the same order).
//!
//! Why: cicc 13.5's printed llc pipeline (docs/CICC-FACTS.md, "The printed pipelines", machine
//! passes) has early-machinelicm, machine-cse and peephole-opt but no machine-sink. Upstream's MachineSink
//! moves an instruction down to the block that uses it, across whole if/else diamonds (it also
//! considers the blocks its block immediately dominates). On a GPU that can lengthen live
//! ranges: a global load whose 64-bit address is ready in one block is moved, with or without
//! its address, past a chain of 64-bit division diamonds to the block that stores the loaded
//! values, so each address (two registers) rather than each loaded value (one) is held across
//! the chain, and ptxas, which does not move loads across branches, spills to reach its
//! occupancy step. nvcc's PTX keeps each load next to its address.
//!
//! ```text
//! before (machine-sink)                 after (its slot empty)
//! bb.1: %a1 = add %base, %off1          bb.1: %a1 = add %base, %off1
//!       ...                                   %v1 = LD_i32 %a1
//! bb.2: (rem.s64 / rem.u32 diamond)     bb.2: (rem.s64 / rem.u32 diamond)
//! bb.9: %v1 = LD_i32 %a1                bb.9: ...
//!       %v8 = LD_i32 %a8                      %v8 = LD_i32 %a8
//! ```
//!
//! Knob: `-nv-machine-sink` (run upstream's MachineSink; the flag's default and its validate
//! figure are in docs/DEPARTURES.md). Refuses nothing: the pass itself changes no instruction.

/// The registered name of the empty pass that takes `machine-sink`'s place.
pub const PASS: &str = "nv-machine-sink-slot";

extern "C" {
    fn nvopt_shim_register_machine_sink_slot();
}

/// Registers the legacy machine pass `nv-machine-sink-slot` with LLVM's PassRegistry (for the
/// TargetPassConfig substitution and `llc -run-pass`).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_machine_sink_slot() }
}
