//! nvopt: an LLVM 22 pass plugin that makes stock `opt`, `llc` and `clang -fpass-plugin` run
//! NVIDIA cicc's NVPTX optimization flow (docs/ARCHITECTURE.md). This file is the plugin entry:
//! `llvmGetPassPluginInfo` (defined in Rust, docs/ARCHITECTURE.md "Platform facts") and the
//! load-time initializer that checks the host LLVM and registers the knobs.
// The plugin: its entry (this file), the host check, the knob table, the boundary with the shim,
// statistics, log, and the hash maps the passes use.
mod boundary;
pub mod fast_hash;
pub mod ffi;
pub mod host;
pub mod knobs;
pub mod logger;
mod readme;
pub mod stats;

// Shared analyses and GPU facts.
pub mod analysis;

// opt: `nvopt<LEVEL>` from cicc's tables, then the passes it adds.
pub mod pipeline;

pub mod opt;

// clang: `-nv-pipeline=LEVEL` runs `nvopt<LEVEL>` in clang's device-side compile.
pub mod clang_pipeline;

// llc: what is inserted where, then the IR passes and the machine passes.
pub mod codegen;

pub mod llc;

pub mod machine;

pub use machine::{coalesce, mul_wide_split, param_opt, pre_sink, pred_remat, sreg_order};
pub use opt::{
    array_alignment, asm_convergence, const_pointers, dbe, fold_const_calls, inline_policy,
    internalize, ipmsp, local_array_unroll, lower_struct_args, phi_load_spaces,
    pressure_unroll_guard, shuffle_loop_unroll, stride_loop_unroll, texture_unroll_guard,
};

use std::ffi::{c_char, c_void};

/// LLVM 22's `PassPluginLibraryInfo` (llvm/Plugins/PassPlugin.h, API version 2).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_builder_callbacks: Option<extern "C" fn(*mut c_void)>,
    pre_codegen_callback: Option<extern "C" fn(*mut c_void, *mut c_void, i32, *mut c_void) -> bool>,
}

const LLVM_PLUGIN_API_VERSION: u32 = 2;

extern "C" fn register_callbacks(pass_builder: *mut c_void) {
    // SAFETY: LLVM calls this with its live PassBuilder.
    unsafe { ffi::register_pass_builder(pass_builder) }
}

/// Entry point looked up by `PassPlugin::Load` in opt, llc and clang.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    let compatible = host::check_once();
    PassPluginLibraryInfo {
        // A refused host gets API version 0, which PassPlugin::Load rejects after our message.
        api_version: if compatible { LLVM_PLUGIN_API_VERSION } else { 0 },
        plugin_name: c"nvopt".as_ptr(),
        plugin_version: c"0.1.0".as_ptr(),
        register_pass_builder_callbacks: compatible
            .then_some(register_callbacks as extern "C" fn(*mut c_void)),
        pre_codegen_callback: None,
    }
}

/// Runs when the library is loaded (opt/llc `-load-pass-plugin`, `llc -load`, clang): knobs
/// must exist before LLVM parses the rest of the command line.
#[cfg(not(test))]
extern "C" fn on_load() {
    if host::check_once() {
        knobs::register();
        machine::coalesce::ffi::register();
        llc::cssa::adapter::register();
        llc::remat::adapter::register();
        machine::machine_sink_slot::register();
        machine::load_hoist::adapter::register();
        machine::param_opt::adapter::register();
        machine::pre_sink::adapter::register();
        machine::pred_remat::adapter::register();
        machine::sreg_order::adapter::register();
        machine::mul_wide_split::adapter::register();
        clang_pipeline::ffi::register();
        logger::install();
        stats::print_at_exit();
    }
}

#[cfg(not(test))]
#[used]
#[link_section = ".init_array"]
static ON_LOAD: extern "C" fn() = on_load;
