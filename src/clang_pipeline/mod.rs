//! `-nv-pipeline=LEVEL`: nvopt's optimizer inside a normal clang CUDA build (docs/ARCHITECTURE.md
//! "How the flow runs", step 4). With the plugin loaded by `-fpass-plugin=libnvopt.so` and `-mllvm
//! -nv-pipeline=O3`, clang's device-side compile (an NVPTX module) runs `nvopt<O3>` in place of
//! clang's `default<O3>`, and its code generator runs at the level's codegen level (llc -O3 for O3,
//! -O0 at O0 and at every fast-compile level, as cicc). Host compiles (any
//! other triple) and builds without the option are untouched.
//!
//! ```text
//! clang++ -x cuda -O3 -fpass-plugin=libnvopt.so -mllvm -nv-pipeline=O3 k.cu
//!   device (nvptx64):  [pipeline start] nvopt<O3> [rest of default<O3>: optional passes skipped]
//!   host (x86_64):     default<O3>, as without the plugin
//! ```
//!
//! Mechanism (clang has no hook that replaces its pipeline; it builds `default<On>` itself): a
//! pipeline-start callback adds one required module pass that runs `nvopt<LEVEL>`, parsed by
//! the same PassBuilder, on NVPTX modules; a should-run-optional-pass instrumentation callback
//! then skips every optional pass of that module outside nvopt's pipeline, i.e. clang's default
//! pipeline and the NVPTX target's own pipeline-start passes. A codegen-pipeline callback sets
//! the target machine's level. The adapter is src/clang_pipeline/clang_pipeline.cpp; every decision is
//! here.
//!
//! What nvopt-cc gives the same compile besides (src/bin/nvopt-cc): clang's CUDA toolchain
//! already passes `-enable-memcpyopt-without-libcalls` and contracts (`-ffp-contract=fast`);
//! nvcc's precision for libdevice needs `-mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1` (and
//! `__CUDA_PREC_DIV=1`, `__CUDA_FTZ=0`), which upstream clang leaves at 0. With those, clang's
//! PTX equals the driver's (plugin-tests/clang, plugin-tests/cuda). A `-fgpu-rdc` build also
//! needs `-mllvm -nv-rdc` (the driver's `-rdc=true` gives both): nvopt's pipelines compile device
//! code as a closed world otherwise (src/opt/internalize.rs), and clang's device IR does not say
//! that it is meant for separate linking.
//!
//! Limits: passes LLVM marks required still run after nvopt's pipeline (always-inline,
//! coroutine lowering, annotation remarks, verifiers, sanitizer instrumentation, the bitcode
//! writer): on a CUDA device module without coroutines or sanitizers they leave the IR as
//! nvopt's pipeline left it, except at Ofcmax, which runs no inliner: there LLVM's
//! always-inliner still inlines `always_inline` functions (clang's `__forceinline__`, the
//! builtin-variable accessors), which the driver's `nvopt<Ofcmax>` keeps as calls. clang's
//! `-O0` marks every function `optnone`, which makes LLVM skip optional passes on it: compile
//! at `-O1` or above (the option picks nvopt's level), or add `-Xclang -disable-O0-optnone` (as
//! the driver does at O0). LTO pre-link pipelines (`-flto`, `-foffload-lto`) are
//! replaced the same way, but the link-time optimizer is not nvopt's. The option is a
//! command-line string, not an entry of the knob table (src/knobs.rs holds booleans and
//! integers).
pub mod ffi;

use crate::pipeline::{Level, LEVEL_NAMES};

/// The option's name (`clang -mllvm -nv-pipeline=O3`, `opt -nv-pipeline=O3`): no LLVM 22 tool
/// has an option of that name (plugin-tests/clang checks opt, llc and clang -mllvm).
pub const OPTION: &str = "nv-pipeline";

/// Its `--help` text.
pub const HELP: &str = "In clang (-fpass-plugin=libnvopt.so): run nvopt<LEVEL> in place of \
clang's default pipeline on NVPTX modules, and their codegen at the level's llc level; LEVEL is \
one of O0, O1, O2, O3, Ofcmax, Ofcmid, Ofcmin (empty: clang's own pipeline)";

/// Reads the option's value: `None` when empty (clang's own pipeline).
pub fn parse_value(value: &str) -> Result<Option<Level>, String> {
    if value.is_empty() {
        return Ok(None);
    }
    Level::ALL.into_iter().find(|l| l.name() == value).map(Some).ok_or_else(|| {
        format!(
            "'{value}' is not an nvopt level: valid values are {LEVEL_NAMES} (empty: clang's \
             own pipeline)"
        )
    })
}

/// Whether nvopt replaces the optimizer of a module with this target triple: the option is
/// set and the module is NVPTX (clang's CUDA device side). Host modules are never touched.
pub fn replaces(triple: &str, value: &str) -> Option<Level> {
    let level = parse_value(value).ok()??;
    triple.starts_with("nvptx").then_some(level)
}

/// The pipeline element that replaces clang's: `nvopt<LEVEL>`.
pub fn element(level: Level) -> String {
    format!("nvopt<{}>", level.name())
}

/// llc's `-O` level for an nvopt level: 0 at O0 and at every fast-compile level (cicc runs
/// its O0 code generator there, docs/CICC-FACTS.md "Two optimizers inside cicc 13.5"), else the level's number.
pub fn codegen_level(level: Level) -> u32 {
    match level {
        Level::O1 => 1,
        Level::O2 => 2,
        Level::O3 => 3,
        Level::O0 | Level::Ofcmax | Level::Ofcmid | Level::Ofcmin => 0,
    }
}

/// The codegen level of an NVPTX code generator in a process whose optimizer nvopt replaced
/// (`replaced`): the level's own; otherwise (llc, a host target, no replacement) `current`.
pub fn codegen_level_for(replaced: bool, is_nvptx: bool, value: &str, current: u32) -> u32 {
    match parse_value(value) {
        Ok(Some(level)) if replaced && is_nvptx => codegen_level(level),
        _ => current,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values() {
        assert_eq!(parse_value(""), Ok(None));
        assert_eq!(parse_value("Ofcmax"), Ok(Some(Level::Ofcmax)));
        let e = parse_value("O4").unwrap_err();
        assert_eq!(
            e,
            "'O4' is not an nvopt level: valid values are O0, O1, O2, O3, Ofcmax, Ofcmid, \
             Ofcmin (empty: clang's own pipeline)"
        );
    }

    #[test]
    fn only_nvptx_modules_are_replaced() {
        assert_eq!(replaces("nvptx64-nvidia-cuda", "O3"), Some(Level::O3));
        assert_eq!(replaces("nvptx-nvidia-cuda", "O1"), Some(Level::O1));
        assert_eq!(replaces("x86_64-unknown-linux-gnu", "O3"), None);
        assert_eq!(replaces("nvptx64-nvidia-cuda", ""), None);
        assert_eq!(element(Level::Ofcmid), "nvopt<Ofcmid>");
    }

    #[test]
    fn codegen_levels_follow_cicc() {
        let levels: Vec<u32> = Level::ALL.into_iter().map(codegen_level).collect();
        assert_eq!(levels, [0, 1, 2, 3, 0, 0, 0]);
        assert_eq!(codegen_level_for(true, true, "Ofcmax", 3), 0);
        assert_eq!(codegen_level_for(true, true, "O2", 3), 2);
        assert_eq!(codegen_level_for(false, true, "O2", 3), 3);
        assert_eq!(codegen_level_for(true, false, "O0", 3), 3);
        assert_eq!(codegen_level_for(true, true, "", 1), 1);
    }
}
