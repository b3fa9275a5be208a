//! Stage 3, llc's machine IR: the MachineFunction passes nvopt inserts into llc (src/codegen.rs
//! says where; docs/ARCHITECTURE.md "Passes by stage"), in the order they run there. Each is a
//! Rust planner with its C++ adapter (the `.cpp` beside it) over LLVM's MachineFunction.

/// `nv-machine-sink-slot`: the empty pass in `machine-sink`'s place (with -nv-machine-sink=0).
pub mod machine_sink_slot;

/// `nv-load-hoist`: after `machine-sink`.
pub mod load_hoist;

/// `nv-pre-sink`: after `machine-sink`, after nv-load-hoist.
pub mod pre_sink;

/// `nv-pred-remat`: after `machine-sink`, after nv-pre-sink.
pub mod pred_remat;

/// `nv-param-opt`: the `ld.param` re-issue, after `machine-sink`, after nv-pred-remat.
pub mod param_opt;

/// `nv-mul-wide-split`: after `machine-sink`, after nv-param-opt.
pub mod mul_wide_split;

/// `nv-coalesce`: the NVPTX copy coalescer, after `register-coalescer`.
pub mod coalesce;

/// `nv-sreg-order`: after `machine-scheduler` (off by default).
pub mod sreg_order;
