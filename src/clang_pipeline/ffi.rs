//! The boundary between the `-nv-pipeline` adapter (src/clang_pipeline/clang_pipeline.cpp) and its
//! decisions (src/clang_pipeline/mod.rs): registration of the option, the check of its value,
//! whether a module's optimizer is replaced and by which element, and the codegen level.
//! Marshalling only.
use crate::ffi::slice;
use std::ffi::{c_char, CString};

extern "C" {
    fn nvopt_shim_register_clang_pipeline(
        name: *const c_char,
        name_len: usize,
        help: *const c_char,
        help_len: usize,
    );
}

/// Registers `-nv-pipeline` as an LLVM cl::opt.
pub fn register() {
    let (n, h) = (super::OPTION.as_bytes(), super::HELP.as_bytes());
    // SAFETY: name and help are 'static and outlive the cl::opt that keeps StringRefs to them.
    unsafe {
        nvopt_shim_register_clang_pipeline(n.as_ptr().cast(), n.len(), h.as_ptr().cast(), h.len())
    }
}

/// # Safety
/// `p` points to `n` readable bytes.
unsafe fn text<'a>(p: *const c_char, n: usize) -> std::borrow::Cow<'a, str> {
    String::from_utf8_lossy(slice(p.cast::<u8>(), n))
}

fn c_string(s: String) -> *mut c_char {
    CString::new(s).expect("no NUL in nvopt's messages").into_raw()
}

/// Checks a value of `-nv-pipeline`: null when valid, else the error message (free it with
/// `nvopt_free_string`).
///
/// # Safety
/// `value` points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_clang_pipeline_check(
    value: *const c_char,
    len: usize,
) -> *mut c_char {
    match super::parse_value(&text(value, len)) {
        Ok(_) => std::ptr::null_mut(),
        Err(msg) => c_string(msg),
    }
}

/// The pipeline element that replaces the optimizer of a module with this triple, or null when
/// it is not replaced (free it with `nvopt_free_string`).
///
/// # Safety
/// `triple` and `value` point to `triple_len` and `value_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_clang_pipeline_element(
    triple: *const c_char,
    triple_len: usize,
    value: *const c_char,
    value_len: usize,
) -> *mut c_char {
    match super::replaces(&text(triple, triple_len), &text(value, value_len)) {
        Some(level) => c_string(super::element(level)),
        None => std::ptr::null_mut(),
    }
}

/// Whether the optimizer of a module with this triple is replaced (its optional passes outside
/// nvopt's pipeline are skipped).
///
/// # Safety
/// `triple` and `value` point to `triple_len` and `value_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_clang_pipeline_replaces(
    triple: *const c_char,
    triple_len: usize,
    value: *const c_char,
    value_len: usize,
) -> bool {
    super::replaces(&text(triple, triple_len), &text(value, value_len)).is_some()
}

/// The codegen level of a target machine (`current`) in a process where nvopt replaced an
/// optimizer (`replaced`).
///
/// # Safety
/// `value` points to `value_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_clang_codegen_level(
    replaced: bool,
    is_nvptx: bool,
    value: *const c_char,
    value_len: usize,
    current: u32,
) -> u32 {
    super::codegen_level_for(replaced, is_nvptx, &text(value, value_len), current)
}
