//! The pipeline's exports for the shim (src/pipeline/passbuilder.cpp): building the text of one
//! `nvopt<LEVEL>` pipeline element, and freeing it. Marshalling only.
use crate::ffi::{pass_known, slice};
use std::ffi::{c_char, c_void, CString};

crate::shared_codes! {
    /// Result codes of [`nvopt_build_pipeline`] (C++: the generated enum `NvPipelineResult`).
    enum NvPipelineResult: i32 {
        /// The element is not `nvopt<...>`.
        PIPELINE_NOT_OURS = 0,
        /// The text is in `out`.
        PIPELINE_BUILT = 1,
        /// The element is nvopt's but invalid (the message is printed).
        PIPELINE_FAILED = 2,
    }
}

/// Called by the shim's module-pipeline parsing callback with one pipeline element. On
/// success `*out` receives the pipeline text (free it with [`nvopt_free_string`]).
///
/// # Safety
/// `element` points to `len` readable bytes; `pass_builder` is the live PassBuilder; `out` is
/// writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_build_pipeline(
    element: *const c_char,
    len: usize,
    pass_builder: *mut c_void,
    out: *mut *mut c_char,
) -> i32 {
    let element = String::from_utf8_lossy(slice(element.cast::<u8>(), len));
    let has_nvptx = || super::slots::NVPTX_ONLY.iter().all(|p| pass_known(pass_builder, p));
    match super::build_element(&element, has_nvptx) {
        Ok(None) => PIPELINE_NOT_OURS,
        Ok(Some(text)) => {
            *out = CString::new(text).expect("pipeline text has no NUL").into_raw();
            PIPELINE_BUILT
        }
        Err(msg) => {
            eprintln!("nvopt: error: {msg}");
            PIPELINE_FAILED
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
