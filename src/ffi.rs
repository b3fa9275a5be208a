//! The plugin's side of the boundary with the C++ shim, one way: the functions the shim exports
//! for Rust (knob registration and values in src/shim/knobs.cpp, loaded libraries in
//! src/shim/host.cpp, PassBuilder callbacks in src/pipeline/passbuilder.cpp), wrapped for safe
//! use. Their declarations below are the only ones: build.rs generates the C++ prototypes from
//! them (src/boundary). The functions Rust exports for the shim live with what they serve (e.g.
//! src/pipeline/exports.rs), so this module imports nothing of the crate and no module cycle
//! runs through it. Nothing but marshalling lives here.
use std::ffi::{c_char, c_void, CStr};

extern "C" {
    fn nvopt_shim_register_bool(
        idx: u32,
        name: *const c_char,
        name_len: usize,
        help: *const c_char,
        help_len: usize,
        default: bool,
    );
    #[allow(clippy::too_many_arguments)]
    fn nvopt_shim_register_int(
        idx: u32,
        name: *const c_char,
        name_len: usize,
        help: *const c_char,
        help_len: usize,
        default: i32,
        min: i32,
        max: i32,
    );
    fn nvopt_shim_knob_value(idx: u32) -> i64;
    fn nvopt_shim_knob_values(out: *mut i64, n: usize);
    fn nvopt_shim_loaded_libraries(cb: extern "C" fn(*const c_char, *mut c_void), ctx: *mut c_void);
    fn nvopt_shim_pass_known(pass_builder: *mut c_void, name: *const c_char, len: usize) -> bool;
    fn nvopt_shim_register_pass_builder(pass_builder: *mut c_void);
    fn nvopt_shim_default_llvm_option(
        name: *const c_char,
        name_len: usize,
        value: *const c_char,
        value_len: usize,
    ) -> i32;
}

/// A borrowed string crossing the boundary: pointer and length, not NUL-terminated
/// (`NvStr` in src/shim/boundary.h).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvStr {
    pub ptr: *const c_char,
    pub len: usize,
}

impl NvStr {
    /// A string over `b`, valid while `b` is.
    pub fn new(b: &[u8]) -> Self {
        NvStr { ptr: b.as_ptr() as *const c_char, len: b.len() }
    }

    /// # Safety
    /// `ptr` points to `len` readable bytes (or `len` is 0).
    pub(crate) unsafe fn as_str(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(slice(self.ptr as *const u8, self.len))
    }
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

/// The text of a (pointer, length) byte string the shim hands out, lossily decoded.
///
/// # Safety
/// As [`slice`]: `p` points to `n` readable bytes (or `n` is 0).
pub unsafe fn string(p: *const std::ffi::c_char, n: usize) -> String {
    String::from_utf8_lossy(slice(p.cast::<u8>(), n)).into_owned()
}

/// Registers one bool knob as an LLVM cl::opt (knob `idx` of the table).
pub fn register_bool_knob(idx: usize, name: &'static str, help: &'static str, default: bool) {
    let (n, h) = (name.as_bytes(), help.as_bytes());
    // SAFETY: name and help are 'static and outlive the cl::opt that keeps StringRefs to them.
    unsafe {
        nvopt_shim_register_bool(
            idx as u32,
            n.as_ptr().cast(),
            n.len(),
            h.as_ptr().cast(),
            h.len(),
            default,
        )
    }
}

/// Registers one integer knob as an LLVM cl::opt accepting `min..=max`.
pub fn register_int_knob(
    idx: usize,
    name: &'static str,
    help: &'static str,
    (default, min, max): (i32, i32, i32),
) {
    let (n, h) = (name.as_bytes(), help.as_bytes());
    // SAFETY: as for register_bool_knob.
    unsafe {
        nvopt_shim_register_int(
            idx as u32,
            n.as_ptr().cast(),
            n.len(),
            h.as_ptr().cast(),
            h.len(),
            default,
            min,
            max,
        )
    }
}

/// The current value of knob `idx` (bools as 0/1), for a reader that needs only that one.
pub fn knob_value(idx: usize) -> i64 {
    // SAFETY: the shim answers 0 for an index it never registered.
    unsafe { nvopt_shim_knob_value(idx as u32) }
}

/// The current values of the first `n` knobs of the table, in one call (bools as 0/1).
pub fn knob_values(n: usize) -> Vec<i64> {
    let mut out = vec![0; n];
    // SAFETY: out has room for n values; the shim answers 0 for an index it never registered.
    unsafe { nvopt_shim_knob_values(out.as_mut_ptr(), n) };
    out
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
    nvopt_shim_pass_known(pass_builder, name.as_ptr().cast(), name.len())
}

/// What became of a default given to one of LLVM's own options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LlvmOption {
    /// The option now has the value.
    Set,
    /// The command line (or an earlier default) already gave it a value, which stays.
    Given,
    /// No option of that name is registered in this process.
    Unknown,
    /// LLVM rejected the value.
    Rejected,
}

crate::shared_codes! {
    /// What `nvopt_shim_default_llvm_option` answers (C++: the generated enum
    /// `NvDefaultOptionResult`).
    enum NvDefaultOptionResult: i32 {
        OPTION_SET = 0,
        OPTION_GIVEN = 1,
        OPTION_UNKNOWN = 2,
        OPTION_REJECTED = 3,
    }
}

/// Gives LLVM's option `name` the value `value` unless it already has one.
pub fn default_llvm_option(name: &str, value: &str) -> LlvmOption {
    // SAFETY: both strings are valid for the call; the shim copies what it keeps.
    let rc = unsafe {
        nvopt_shim_default_llvm_option(
            name.as_ptr().cast(),
            name.len(),
            value.as_ptr().cast(),
            value.len(),
        )
    };
    match rc {
        OPTION_SET => LlvmOption::Set,
        OPTION_GIVEN => LlvmOption::Given,
        OPTION_UNKNOWN => LlvmOption::Unknown,
        _ => LlvmOption::Rejected,
    }
}

/// Registers the `nvopt<LEVEL>` pipeline element with a PassBuilder.
///
/// # Safety
/// `pass_builder` is the live `llvm::PassBuilder&` LLVM passed to the plugin callback.
pub unsafe fn register_pass_builder(pass_builder: *mut c_void) {
    nvopt_shim_register_pass_builder(pass_builder)
}
