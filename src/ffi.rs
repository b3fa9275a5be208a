//! The boundary with the C++ shim (src/shim): functions the shim exports for Rust (knob
//! registration and values, loaded libraries, PassBuilder callbacks) and the functions Rust
//! exports for the shim (pipeline building). Nothing but marshalling lives here.
use crate::knobs::{Kind, KNOBS};
use crate::pipeline;
use std::ffi::{c_char, c_void, CStr, CString};

extern "C" {
    fn nvopt_shim_register_bool(
        idx: u32,
        name: *const u8,
        name_len: usize,
        help: *const u8,
        help_len: usize,
        default: bool,
    );
    #[allow(clippy::too_many_arguments)]
    fn nvopt_shim_register_int(
        idx: u32,
        name: *const u8,
        name_len: usize,
        help: *const u8,
        help_len: usize,
        default: i32,
        min: i32,
        max: i32,
    );
    fn nvopt_shim_knob_value(idx: u32) -> i64;
    fn nvopt_shim_loaded_libraries(cb: extern "C" fn(*const c_char, *mut c_void), ctx: *mut c_void);
    fn nvopt_shim_pass_known(pass_builder: *mut c_void, name: *const u8, len: usize) -> bool;
    fn nvopt_shim_register_pass_builder(pass_builder: *mut c_void);
}

/// A slice from a pointer and a length handed over by the shim (a null pointer with length 0,
/// as an empty SmallVector or ArrayRef may give, is the empty slice).
///
/// # Safety
/// `p` points to `n` readable elements, or `n` is 0.
pub unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

/// Registers every knob of the table as an LLVM cl::opt.
pub fn register_knobs() {
    for (i, k) in KNOBS.iter().enumerate() {
        let (n, h) = (k.name.as_bytes(), k.help.as_bytes());
        // SAFETY: name and help are 'static and outlive the cl::opt that keeps StringRefs to them.
        unsafe {
            match k.kind {
                Kind::Bool(d) => {
                    nvopt_shim_register_bool(i as u32, n.as_ptr(), n.len(), h.as_ptr(), h.len(), d)
                }
                Kind::Int { default, min, max } => nvopt_shim_register_int(
                    i as u32,
                    n.as_ptr(),
                    n.len(),
                    h.as_ptr(),
                    h.len(),
                    default,
                    min,
                    max,
                ),
            }
        }
    }
}

/// The current value of knob `idx` (bools as 0/1).
pub fn knob_value(idx: usize) -> i64 {
    // SAFETY: idx indexes the table registered by register_knobs.
    unsafe { nvopt_shim_knob_value(idx as u32) }
}

/// File names of the libraries loaded in this process.
pub fn loaded_libraries() -> Vec<String> {
    extern "C" fn push(name: *const c_char, ctx: *mut c_void) {
        // SAFETY: ctx is the Vec below; name is a NUL-terminated path from the dynamic loader.
        let names = unsafe { &mut *(ctx as *mut Vec<String>) };
        names.push(unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned());
    }
    let mut names: Vec<String> = Vec::new();
    // SAFETY: the callback runs synchronously while `names` is alive.
    unsafe { nvopt_shim_loaded_libraries(push, &mut names as *mut Vec<String> as *mut c_void) };
    names
}

/// Whether the PassBuilder knows a pass name (NVPTX passes exist only with an NVPTX target).
///
/// # Safety
/// `pass_builder` is a live `llvm::PassBuilder*`.
pub unsafe fn pass_known(pass_builder: *mut c_void, name: &str) -> bool {
    nvopt_shim_pass_known(pass_builder, name.as_ptr(), name.len())
}

/// Registers the `nvopt<LEVEL>` pipeline element with a PassBuilder.
///
/// # Safety
/// `pass_builder` is the live `llvm::PassBuilder&` LLVM passed to the plugin callback.
pub unsafe fn register_pass_builder(pass_builder: *mut c_void) {
    nvopt_shim_register_pass_builder(pass_builder)
}

/// Result codes of [`nvopt_build_pipeline`].
const NOT_OURS: i32 = 0;
const BUILT: i32 = 1;
const FAILED: i32 = 2;

/// Called by the shim's module-pipeline parsing callback with one pipeline element. On
/// success `*out` receives the pipeline text (free it with [`nvopt_free_string`]).
///
/// # Safety
/// `element` points to `len` readable bytes; `pass_builder` is the live PassBuilder; `out` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_build_pipeline(
    element: *const u8,
    len: usize,
    pass_builder: *mut c_void,
    out: *mut *mut c_char,
) -> i32 {
    let element = String::from_utf8_lossy(slice(element, len));
    let has_nvptx = || pipeline::slots::NVPTX_ONLY.iter().all(|p| pass_known(pass_builder, p));
    match pipeline::build_element(&element, has_nvptx) {
        Ok(None) => NOT_OURS,
        Ok(Some(text)) => {
            *out = CString::new(text).expect("pipeline text has no NUL").into_raw();
            BUILT
        }
        Err(msg) => {
            eprintln!("nvopt: error: {msg}");
            FAILED
        }
    }
}

/// Frees a string returned by [`nvopt_build_pipeline`].
///
/// # Safety
/// `s` came from `nvopt_build_pipeline` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn nvopt_free_string(s: *mut c_char) {
    if !s.is_null() {
        drop(CString::from_raw(s));
    }
}
