//! CUDA loop-idiom classifier over SCEV-like expression trees (docs/CICC-FACTS.md, "GPU SCEV
//! sources and stride idioms": `{tid,+,32}` warp-stride, `{tid,+,ntid}` block-stride,
//! `{ctaid*ntid+tid,+,ntid*nctaid}` grid-stride). Pure data: `nv-scev-sources` builds the trees
//! from LLVM's SCEV of a loop's start and step, and `print<nv-scev>` reuses [`classify`].

use crate::analysis::gpu::{Dim, Sreg};

/// A SCEV-like expression tree over special registers.
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Const(i64),
    Sreg(Sreg),
    Add(Vec<Term>),
    Mul(Vec<Term>),
    /// zext/sext/trunc, transparent for classification.
    Ext(Box<Term>),
    Other,
}

/// A CUDA loop idiom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idiom {
    WarpStride,
    BlockStride,
    GridStride,
    None,
}

impl Idiom {
    pub fn name(self) -> &'static str {
        match self {
            Idiom::WarpStride => "warp-stride",
            Idiom::BlockStride => "block-stride",
            Idiom::GridStride => "grid-stride",
            Idiom::None => "none",
        }
    }
}

/// Classifies a recurrence `{start,+,step}`. Warp: step 32 or warpsize, start contains tid (any
/// dim) or laneid. Block: step ntid(d), start contains tid(d). Grid: step ntid(d)*nctaid(d)
/// (either order), start = ctaid(d)*ntid(d) + tid(d) (+ other loop-invariant terms allowed,
/// including SCEV's factored `(ctaid(d) + k)*ntid(d)`). Extensions (zext/sext/trunc) are looked
/// through everywhere.
pub fn classify(start: &Term, step: &Term) -> Idiom {
    let step = strip(step);
    if let Some(d) = grid_step_dim(step) {
        if is_grid_start(start, d) {
            return Idiom::GridStride;
        }
    }
    if let Term::Sreg(Sreg::Ntid(d)) = step {
        if contains(start, &|s| s == Sreg::Tid(*d)) {
            return Idiom::BlockStride;
        }
    }
    if matches!(step, Term::Const(32) | Term::Sreg(Sreg::Warpsize))
        && contains(start, &|s| matches!(s, Sreg::Tid(_) | Sreg::Laneid))
    {
        return Idiom::WarpStride;
    }
    Idiom::None
}

/// Whether a step is a compile-time constant (extensions looked through).
pub fn is_constant(t: &Term) -> bool {
    matches!(strip(t), Term::Const(_))
}

/// Whether a term is built only from constants and launch-dimension registers (ntid, nctaid,
/// warpsize): the strides `aggressive-positive-stride-analysis` reasons about.
pub fn is_launch_dimension_expr(t: &Term) -> bool {
    match t {
        Term::Const(_) => true,
        Term::Sreg(s) => s.is_launch_dimension(),
        Term::Add(ts) | Term::Mul(ts) => ts.iter().all(is_launch_dimension_expr),
        Term::Ext(t) => is_launch_dimension_expr(t),
        Term::Other => false,
    }
}

fn strip(t: &Term) -> &Term {
    match t {
        Term::Ext(inner) => strip(inner),
        _ => t,
    }
}

fn contains(t: &Term, pred: &dyn Fn(Sreg) -> bool) -> bool {
    match t {
        Term::Sreg(s) => pred(*s),
        Term::Add(ts) | Term::Mul(ts) => ts.iter().any(|t| contains(t, pred)),
        Term::Ext(t) => contains(t, pred),
        Term::Const(_) | Term::Other => false,
    }
}

/// The registers of a product of exactly two registers, extensions looked through.
fn product_of_two(t: &Term) -> Option<(Sreg, Sreg)> {
    let Term::Mul(fs) = strip(t) else { return None };
    match fs.as_slice() {
        [a, b] => match (strip(a), strip(b)) {
            (Term::Sreg(a), Term::Sreg(b)) => Some((*a, *b)),
            _ => None,
        },
        _ => None,
    }
}

fn is_pair(pair: (Sreg, Sreg), a: Sreg, b: Sreg) -> bool {
    pair == (a, b) || pair == (b, a)
}

fn grid_step_dim(step: &Term) -> Option<Dim> {
    let pair = product_of_two(step)?;
    [Dim::X, Dim::Y, Dim::Z].into_iter().find(|d| is_pair(pair, Sreg::Ntid(*d), Sreg::Nctaid(*d)))
}

/// The summands of a sum, nested sums and extensions flattened.
fn summands(t: &Term) -> Vec<&Term> {
    match strip(t) {
        Term::Add(ts) => ts.iter().flat_map(summands).collect(),
        other => vec![other],
    }
}

/// `ctaid(d)*ntid(d)`, or SCEV's factored `(ctaid(d) + k)*ntid(d)` of `ctaid*ntid + k*ntid`.
fn is_block_base(t: &Term, d: Dim) -> bool {
    let Term::Mul(fs) = strip(t) else { return false };
    let [a, b] = fs.as_slice() else { return false };
    let is_ntid = |t: &Term| matches!(strip(t), Term::Sreg(Sreg::Ntid(x)) if *x == d);
    let has_ctaid =
        |t: &Term| summands(t).iter().any(|s| matches!(s, Term::Sreg(Sreg::Ctaid(x)) if *x == d));
    (is_ntid(a) && has_ctaid(b)) || (is_ntid(b) && has_ctaid(a))
}

fn is_grid_start(start: &Term, d: Dim) -> bool {
    let terms = summands(start);
    let has_base = terms.iter().any(|t| is_block_base(t, d));
    let has_tid = terms.iter().any(|t| matches!(t, Term::Sreg(Sreg::Tid(x)) if *x == d));
    has_base && has_tid
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::gpu::*;

    fn s(r: Sreg) -> Term {
        Term::Sreg(r)
    }
    fn ext(t: Term) -> Term {
        Term::Ext(Box::new(t))
    }
    fn mul(a: Term, b: Term) -> Term {
        Term::Mul(vec![a, b])
    }
    fn add(ts: Vec<Term>) -> Term {
        Term::Add(ts)
    }
    const TX: Sreg = Sreg::Tid(Dim::X);
    const NX: Sreg = Sreg::Ntid(Dim::X);
    const CX: Sreg = Sreg::Ctaid(Dim::X);
    const GX: Sreg = Sreg::Nctaid(Dim::X);

    #[test]
    fn names_and_codes_round_trip() {
        for (i, r) in ALL_SREGS.iter().enumerate() {
            assert_eq!(r.code(), i);
            assert_eq!(Sreg::from_code(i as i64), Some(*r));
        }
        assert_eq!(Sreg::from_code(-1), None);
        assert_eq!(Sreg::from_code(14), None);
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.tid.x"), Some(TX));
        assert_eq!(
            Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.nctaid.z"),
            Some(Sreg::Nctaid(Dim::Z))
        );
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.warpsize"), Some(Sreg::Warpsize));
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.laneid"), Some(Sreg::Laneid));
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.tid.w"), None);
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.clock64"), None);
        assert_eq!(Sreg::from_intrinsic("llvm.nvvm.read.ptx.sreg.cluster.ctaid.x"), None);
        assert_eq!(Sreg::from_intrinsic("tid.x"), None);
    }

    #[test]
    fn warp_stride() {
        assert_eq!(classify(&s(TX), &Term::Const(32)), Idiom::WarpStride);
        assert_eq!(classify(&s(Sreg::Tid(Dim::Y)), &s(Sreg::Warpsize)), Idiom::WarpStride);
        // lane = tid & 31 is (zext (trunc tid)) in SCEV.
        assert_eq!(classify(&ext(ext(s(TX))), &ext(Term::Const(32))), Idiom::WarpStride);
        assert_eq!(classify(&s(Sreg::Laneid), &Term::Const(32)), Idiom::WarpStride);
        assert_eq!(classify(&add(vec![Term::Other, s(TX)]), &Term::Const(32)), Idiom::WarpStride);
        assert_eq!(classify(&s(TX), &Term::Const(64)), Idiom::None);
        assert_eq!(classify(&Term::Other, &Term::Const(32)), Idiom::None);
    }

    #[test]
    fn block_stride() {
        assert_eq!(classify(&s(TX), &s(NX)), Idiom::BlockStride);
        assert_eq!(classify(&ext(s(TX)), &ext(s(NX))), Idiom::BlockStride);
        assert_eq!(classify(&add(vec![Term::Const(4), s(TX)]), &s(NX)), Idiom::BlockStride);
        let y = Dim::Y;
        assert_eq!(classify(&s(Sreg::Tid(y)), &s(Sreg::Ntid(y))), Idiom::BlockStride);
        // Dimensions must agree.
        assert_eq!(classify(&s(Sreg::Tid(y)), &s(NX)), Idiom::None);
        assert_eq!(classify(&s(CX), &s(NX)), Idiom::None);
    }

    #[test]
    fn grid_stride() {
        let start = add(vec![mul(s(CX), s(NX)), s(TX)]);
        assert_eq!(classify(&start, &mul(s(NX), s(GX))), Idiom::GridStride);
        assert_eq!(classify(&start, &mul(s(GX), s(NX))), Idiom::GridStride);
        // 64-bit forms: extensions around factors, summands or the whole.
        let start64 = add(vec![mul(ext(s(NX)), ext(s(CX))), ext(s(TX))]);
        assert_eq!(classify(&start64, &mul(ext(s(NX)), ext(s(GX)))), Idiom::GridStride);
        assert_eq!(classify(&ext(start.clone()), &ext(mul(s(GX), s(NX)))), Idiom::GridStride);
        // Extra loop-invariant terms in the start are allowed.
        let offset = add(vec![Term::Other, mul(s(CX), s(NX)), s(TX), Term::Const(7)]);
        assert_eq!(classify(&offset, &mul(s(NX), s(GX))), Idiom::GridStride);
        // SCEV folds ctaid*ntid + 4*ntid into (4 + ctaid)*ntid.
        let factored = add(vec![mul(s(NX), add(vec![Term::Const(4), ext(s(CX))])), s(TX)]);
        assert_eq!(classify(&factored, &mul(s(NX), s(GX))), Idiom::GridStride);
    }

    #[test]
    fn grid_stride_negatives() {
        let step = mul(s(NX), s(GX));
        // Missing tid, missing base, wrong dimension, extra factor.
        assert_eq!(classify(&mul(s(CX), s(NX)), &step), Idiom::None);
        assert_eq!(classify(&s(TX), &step), Idiom::None);
        let y = Dim::Y;
        let start_y = add(vec![mul(s(Sreg::Ctaid(y)), s(Sreg::Ntid(y))), s(Sreg::Tid(y))]);
        assert_eq!(classify(&start_y, &step), Idiom::None);
        let start = add(vec![mul(s(CX), s(NX)), s(TX)]);
        assert_eq!(classify(&start, &Term::Mul(vec![Term::Const(2), s(NX), s(GX)])), Idiom::None);
        assert_eq!(classify(&start, &mul(s(NX), s(NX))), Idiom::None);
        // A factored base needs ntid times a sum holding ctaid of the same dimension.
        let no_ctaid = add(vec![mul(s(NX), add(vec![Term::Const(4), Term::Other])), s(TX)]);
        assert_eq!(classify(&no_ctaid, &step), Idiom::None);
        let three = add(vec![Term::Mul(vec![s(NX), s(CX), Term::Const(2)]), s(TX)]);
        assert_eq!(classify(&three, &step), Idiom::None);
        // A grid-shaped start with a block step is a block-stride loop.
        assert_eq!(classify(&start, &s(NX)), Idiom::BlockStride);
    }

    #[test]
    fn names() {
        assert_eq!(Idiom::WarpStride.name(), "warp-stride");
        assert_eq!(Idiom::BlockStride.name(), "block-stride");
        assert_eq!(Idiom::GridStride.name(), "grid-stride");
        assert_eq!(Idiom::None.name(), "none");
    }

    #[test]
    fn launch_dimension_exprs() {
        assert!(is_launch_dimension_expr(&mul(ext(s(NX)), ext(s(GX)))));
        assert!(is_launch_dimension_expr(&s(Sreg::Warpsize)));
        assert!(!is_launch_dimension_expr(&s(TX)));
        assert!(!is_launch_dimension_expr(&add(vec![s(NX), Term::Other])));
        assert!(is_constant(&ext(Term::Const(32))));
        assert!(!is_constant(&s(NX)));
    }
}
