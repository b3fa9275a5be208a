//! The boundary between `nv-scev-sources`' C++ adapter (src/analysis/scev_sources/scev_sources.cpp) and its
//! Rust decisions (this module's parent): `#[repr(C)]` mirrors of the structs the adapter
//! fills, and the functions it calls. Marshalling only; the C++ side declares the same
//! layouts.
use super::idiom::{Idiom, Term};
use super::wrap::{BinOp, Bounds, Flags, Guard, IvFacts, Pred, Tested};
use super::{FunctionRun, Settings};
use crate::analysis::gpu::Span;
use crate::analysis::gpu::Sreg;
use crate::analysis::scev_node::{kind, ScevNode};
use crate::ffi::slice;
use crate::knobs::Knobs;

pub use crate::ffi::NvStr;

/// LLVM's unsigned and signed `ConstantRange` of a value, as min/max pairs.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvBounds {
    pub umin: u64,
    pub umax: u64,
    pub smin: i64,
    pub smax: i64,
}

impl From<&NvBounds> for Bounds {
    fn from(b: &NvBounds) -> Bounds {
        Bounds {
            umin: b.umin as u128,
            umax: b.umax as u128,
            smin: b.smin as i128,
            smax: b.smax as i128,
        }
    }
}

/// A branch on `icmp pred a, b` that guards an induction increment (see [`Guard`]).
#[repr(C)]
pub struct NvGuard {
    pub pred: u32,
    /// 0: the header PHI is compared; 1: the increment is compared on the backedge.
    pub tests_next: u8,
    pub iv_is_lhs: u8,
    pub go_on_true: u8,
    pub bound: NvBounds,
}

/// What the adapter knows about one induction increment `next = add i, step`.
#[repr(C)]
pub struct NvIvFacts {
    pub width: u32,
    /// [`NvWrapFlag`](super::wrap::NvWrapFlag) bits.
    pub existing: u32,
    pub start: NvBounds,
    pub step: NvBounds,
    pub start_terms: *const ScevNode,
    pub n_start_terms: usize,
    pub step_terms: *const ScevNode,
    pub n_step_terms: usize,
    pub guards: *const NvGuard,
    pub n_guards: usize,
}

/// The decision for one increment.
#[repr(C)]
pub struct NvIvDecision {
    /// 0 none, 1 warp-stride, 2 block-stride, 3 grid-stride.
    pub idiom: u32,
    /// Flags the increment is to carry ([`NvWrapFlag`](super::wrap::NvWrapFlag) bits).
    pub flags: u32,
    pub check_operands: u8,
}

/// Decodes a preorder term array; malformed input reads as [`Term::Other`].
pub fn decode_terms(nodes: &[ScevNode]) -> Term {
    fn go(nodes: &[ScevNode], pos: &mut usize, depth: u32) -> Option<Term> {
        let n = *nodes.get(*pos)?;
        *pos += 1;
        if depth > 64 {
            return None;
        }
        let mut kids =
            || (0..n.arity).map(|_| go(nodes, pos, depth + 1)).collect::<Option<Vec<_>>>();
        Some(match n.kind {
            kind::CONST => Term::Const(n.value),
            kind::UNKNOWN if n.value >= 0 => Term::Sreg(Sreg::from_code(n.value)?),
            kind::ADD => Term::Add(kids()?),
            kind::MUL => Term::Mul(kids()?),
            kind::SEXT | kind::ZEXT | kind::TRUNC if n.arity == 1 => {
                Term::Ext(Box::new(kids()?.pop()?))
            }
            _ => Term::Other,
        })
    }
    let mut pos = 0;
    match go(nodes, &mut pos, 0) {
        Some(t) if pos == nodes.len() => t,
        _ => Term::Other,
    }
}

fn guard(g: &NvGuard) -> Option<Guard> {
    let tested = if g.tests_next != 0 { Tested::Next } else { Tested::Iv };
    let pred = Pred::from_llvm(g.pred)?;
    Some(Guard::from_branch(tested, pred, g.iv_is_lhs != 0, g.go_on_true != 0, (&g.bound).into()))
}

/// Whether the module triple is one the pass works on.
///
/// # Safety
/// `triple` is a valid [`NvStr`].
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_applies(triple: NvStr) -> bool {
    super::applies_to_triple(&triple.as_str())
}

/// The [`Sreg::code`] of a callee name, or -1 when it is no special register nvopt knows.
///
/// # Safety
/// `name` is a valid [`NvStr`].
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_sreg_code(name: NvStr) -> i32 {
    Sreg::from_intrinsic(&name.as_str()).map_or(-1, |s| s.code() as i32)
}

/// Starts work on a function: `attrs` are the values of `nvvm.maxntid`, `nvvm.reqntid` and
/// `nvvm.minctasm` (empty when absent). Free the result with [`nvopt_ss_end`].
///
/// # Safety
/// Every [`NvStr`] is valid.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_begin(
    name: NvStr,
    cc: u32,
    attrs: *const NvStr,
) -> *mut FunctionRun {
    let a = slice(attrs, 3);
    let (m, r, c) = (a[0].as_str(), a[1].as_str(), a[2].as_str());
    let settings = Settings::from_knobs(&Knobs::current());
    Box::into_raw(Box::new(FunctionRun::new(&name.as_str(), cc, [&m, &r, &c], settings)))
}

/// The range for a read of special register `code`: returns whether to set `*out` (`lo`, `hi`
/// as a half-open unsigned range) on the call. `has_range` says whether the call has a range
/// (its own or its callee's), given as LLVM's lower/upper bounds; `callsite` whether the call
/// itself carries it.
///
/// # Safety
/// `run` came from [`nvopt_ss_begin`]; `out` is writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_sreg_range(
    run: *mut FunctionRun,
    code: i32,
    width: u32,
    has_range: bool,
    lower: u64,
    upper: u64,
    callsite: bool,
    out: *mut [u64; 2],
) -> bool {
    let Some(sreg) = Sreg::from_code(code as i64) else { return false };
    let existing = has_range.then(|| Span::from_llvm(lower, upper, width));
    match (*run).sreg_range(sreg, width, existing, callsite) {
        Some(s) => {
            *out = [s.lo, s.hi];
            true
        }
        None => false,
    }
}

/// Classifies an induction variable and decides its increment's flags.
///
/// # Safety
/// `run` came from [`nvopt_ss_begin`]; `facts` and the arrays it points to are valid; `out`
/// is writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_induction(
    run: *mut FunctionRun,
    facts: *const NvIvFacts,
    out: *mut NvIvDecision,
) {
    let f = &*facts;
    let start = decode_terms(slice(f.start_terms, f.n_start_terms));
    let step = decode_terms(slice(f.step_terms, f.n_step_terms));
    let guards = slice(f.guards, f.n_guards).iter().filter_map(guard).collect();
    let facts = IvFacts {
        width: f.width,
        start: (&f.start).into(),
        step: (&f.step).into(),
        existing: Flags::from_bits(f.existing),
        guards,
    };
    let d = (*run).induction(&facts, &start, &step);
    let idiom = match d.idiom {
        Idiom::None => 0,
        Idiom::WarpStride => 1,
        Idiom::BlockStride => 2,
        Idiom::GridStride => 3,
    };
    *out = NvIvDecision { idiom, flags: d.flags.bits(), check_operands: d.check_operands as u8 };
}

/// Flags for an `add` (`op` 0) or `mul` (`op` 1) of `width` bits with operand bounds `a`, `b`
/// and existing flags `existing` (`NvWrapFlag` bits): returns the flags it is to carry.
///
/// # Safety
/// `run` came from [`nvopt_ss_begin`]; `a` and `b` are valid.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_operation(
    run: *mut FunctionRun,
    op: u32,
    width: u32,
    a: *const NvBounds,
    b: *const NvBounds,
    existing: u32,
) -> u32 {
    let op = if op == 0 { BinOp::Add } else { BinOp::Mul };
    (*run).operation(op, width, (&*a).into(), (&*b).into(), Flags::from_bits(existing)).bits()
}

/// Ends work on a function: records its statistics and frees the state.
///
/// # Safety
/// `run` came from [`nvopt_ss_begin`] and is not used again.
#[no_mangle]
pub unsafe extern "C" fn nvopt_ss_end(run: *mut FunctionRun) {
    Box::from_raw(run).finish();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::gpu::Dim;

    fn node(kind: u32, arity: u32, value: i64) -> ScevNode {
        ScevNode { kind, arity, value, ..Default::default() }
    }

    #[test]
    fn decodes_preorder_terms() {
        let tid = Sreg::Tid(Dim::X).code() as i64;
        let ntid = Sreg::Ntid(Dim::X).code() as i64;
        let ctaid = Sreg::Ctaid(Dim::X).code() as i64;
        // (zext (ctaid * ntid)) + tid
        let nodes = [
            node(kind::ADD, 2, 0),
            node(kind::ZEXT, 1, 0),
            node(kind::MUL, 2, 0),
            node(kind::UNKNOWN, 0, ctaid),
            node(kind::UNKNOWN, 0, ntid),
            node(kind::UNKNOWN, 0, tid),
        ];
        let want = Term::Add(vec![
            Term::Ext(Box::new(Term::Mul(vec![
                Term::Sreg(Sreg::Ctaid(Dim::X)),
                Term::Sreg(Sreg::Ntid(Dim::X)),
            ]))),
            Term::Sreg(Sreg::Tid(Dim::X)),
        ]);
        assert_eq!(decode_terms(&nodes), want);
        assert_eq!(decode_terms(&[node(kind::CONST, 0, 32)]), Term::Const(32));
        assert_eq!(decode_terms(&[node(kind::OTHER, 0, 0)]), Term::Other);
    }

    #[test]
    fn malformed_terms_read_as_other() {
        assert_eq!(decode_terms(&[]), Term::Other);
        assert_eq!(
            decode_terms(&[node(kind::ADD, 3, 0), node(kind::CONST, 0, 1)]),
            Term::Other,
            "missing children"
        );
        assert_eq!(
            decode_terms(&[node(kind::CONST, 0, 1), node(kind::CONST, 0, 2)]),
            Term::Other,
            "trailing nodes"
        );
        assert_eq!(decode_terms(&[node(kind::UNKNOWN, 0, 99)]), Term::Other, "unknown register");
        assert_eq!(
            decode_terms(&[
                node(kind::SEXT, 2, 0),
                node(kind::CONST, 0, 1),
                node(kind::CONST, 0, 1)
            ]),
            Term::Other,
            "bad extension"
        );
        let deep: Vec<ScevNode> =
            (0..100).map(|_| node(kind::ZEXT, 1, 0)).chain([node(kind::CONST, 0, 1)]).collect();
        assert_eq!(decode_terms(&deep), Term::Other, "too deep");
    }

    #[test]
    fn guards_decode() {
        let b = NvBounds { umin: 0, umax: 99, smin: 0, smax: 99 };
        let g = guard(&NvGuard { pred: 39, tests_next: 0, iv_is_lhs: 1, go_on_true: 0, bound: b })
            .unwrap();
        assert_eq!((g.tested, g.pred), (Tested::Iv, Pred::Slt));
        assert!(guard(&NvGuard { pred: 7, tests_next: 1, iv_is_lhs: 1, go_on_true: 1, bound: b })
            .is_none());
    }
}
