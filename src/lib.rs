//! nvopt: an LLVM 22 pass plugin that makes stock `opt`, `llc` and `clang -fpass-plugin` run
//! NVIDIA cicc's NVPTX optimization flow (docs/ARCHITECTURE.md). This file is the plugin entry:
//! `llvmGetPassPluginInfo` (defined in Rust, docs/ARCHITECTURE.md "Platform facts") and the
//! load-time initializer that checks the host LLVM and registers the knobs.
pub mod addr;
pub mod array_alignment;
pub mod asm_convergence;
mod boundary;
pub mod clang_pipeline;
pub mod coalesce;
pub mod codegen;
pub mod const_pointers;
pub mod cssa;
pub mod dbe;
pub mod ext_reuse;
pub mod ffi;
pub mod fold_const_calls;
pub mod gpu;
pub mod host;
pub mod inline_policy;
pub mod internalize;
pub mod ipmsp;
pub mod ir;
pub mod iv_rewrite;
pub mod knobs;
pub mod local_array_unroll;
pub mod logger;
pub mod lower_struct_args;
pub mod lsr_gate;
pub mod param_opt;
pub mod phi_loads;
pub mod pipeline;
pub mod pre_sink;
pub mod pred_remat;
pub mod pressure;
pub mod pressure_unroll_guard;
mod readme;
pub mod remat;
pub mod scev;
pub mod scev_node;
pub mod scev_sources;
pub mod search_budgets;
pub mod shuffle_loop_unroll;
pub mod sreg_order;
pub mod stats;
pub mod stride_loop_unroll;
pub mod texture_unroll_guard;

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
        coalesce::ffi::register();
        cssa::adapter::register();
        remat::adapter::register();
        param_opt::adapter::register();
        pre_sink::adapter::register();
        pred_remat::adapter::register();
        sreg_order::adapter::register();
        clang_pipeline::ffi::register();
        logger::install();
        stats::print_at_exit();
    }
}

#[cfg(not(test))]
#[used]
#[link_section = ".init_array"]
static ON_LOAD: extern "C" fn() = on_load;
