//! The one encoding in which SCEV expressions cross the boundary with the C++ shim (LLVM's C API
//! has no ScalarEvolution, so the shim walks the expressions and Rust reads them): a preorder
//! array of [`ScevNode`]s, each followed by its `arity` operands. The address passes
//! (src/llc/addr/expr.rs) read every field and send expressions back to be built; nv-scev-sources and
//! `print<nv-scev>` read the special-register terms of an induction's start and step
//! (src/analysis/scev_sources/ffi.rs `decode_terms`). The layout is mirrored by `NvScevNode` in
//! src/shim/boundary.h and checked by the boundary test (src/boundary/mod.rs).

/// Node kinds (`NvScevKind` in src/shim/boundary.h, same order).
pub mod kind {
    /// An integer constant of at most 64 bits (`value`, sign-extended).
    pub const CONST: u32 = 0;
    /// A leaf (argument, instruction, global); `value` is its special-register code
    /// ([`crate::analysis::gpu::Sreg::code`]) or -1.
    pub const UNKNOWN: u32 = 1;
    pub const ADD: u32 = 2;
    pub const MUL: u32 = 3;
    /// `{ops[0],+,ops[1],+,...}` of a loop.
    pub const ADDREC: u32 = 4;
    pub const SEXT: u32 = 5;
    pub const ZEXT: u32 = 6;
    /// Anything else (divisions, min/max, ptrtoint, a wider constant, …): one opaque term.
    pub const OTHER: u32 = 7;
    /// Rust to shim only: a reference to input node `value`.
    pub const REF: u32 = 8;
    /// A truncation (the special-register terms name it; the address passes encode it as
    /// [`OTHER`]).
    pub const TRUNC: u32 = 9;
}

/// One node. Shim to Rust: `value` is the constant or the special-register code, `bits` the
/// type width, `flags` nuw (1) and nsw (2), `umax` ScalarEvolution's unsigned upper bound (the
/// special-register terms leave `bits`, `flags`, `umax` and `ty` zero). Rust to shim: the
/// constant or the referenced input node in `value`, and in `ty` the input node whose loop or type
/// a new add recurrence, extension or constant takes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScevNode {
    pub kind: u32,
    pub arity: u32,
    pub bits: u32,
    pub flags: u32,
    pub value: i64,
    pub ty: i64,
    pub umax: u64,
}
