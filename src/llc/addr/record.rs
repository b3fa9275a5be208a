//! Address records: a pointer's SCEV split into a base expression plus a constant byte offset,
//! exactly as docs/CICC-FACTS.md "Address optimization" describes: recurse through adds; split an add recurrence `{s,+,t}` into `{0,+,t}` plus
//! `s`; fold a constant multiplier into the offset; split `sext(x + C)` when the inner add is
//! nsw (or `ignore-signed-32-bit-overflow`); split `zext(x + C)` only when the inner add is nuw
//! (or `ignore-32-bit-overflow`) or, with SCEV-CGP's thread-id proof on, when the bound of `x`
//! (thread ids and block sizes bounded by `scev-cgp-tid-max-value`, everything else by LLVM's
//! range) plus `C` cannot wrap;
//! everything else is one term.
use super::expr::{In, Out, Tree};
use crate::analysis::gpu::Sreg;

/// Which of the optional splits are allowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// `ignore-signed-32-bit-overflow`: split `sext(x + C)` without an nsw proof.
    pub ignore_signed_overflow: bool,
    /// `ignore-32-bit-overflow`: split `zext(x + C)` without a nuw or thread-id proof.
    pub ignore_unsigned_overflow: bool,
    /// `ignore-bad-base`: keep records whose base pointer has no identified root.
    pub ignore_bad_base: bool,
    /// SCEV-CGP's zext split: the thread-id bound (`scev-cgp-tid-max-value`), `None` when off.
    pub tid_max: Option<u64>,
}

/// `ignore-bad-base`: whether a record is kept given whether its base pointer has an identified
/// root (docs/CICC-FACTS.md "Address optimization" lists the knob, default true; what the binary checks is not known,
/// so this is nvopt's reading of "validity checks on base pointer classification").
pub fn keeps_base(rules: &Rules, rooted: bool) -> bool {
    rooted || rules.ignore_bad_base
}

/// A pointer as base + constant offset. `base` is `None` when the split changed nothing (the
/// whole pointer expression is the base and the offset is 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    pub base: Option<Out>,
    pub offset: i64,
}

/// Offsets beyond this many bytes are not split off (they would not fit an immediate anyway).
const MAX_OFFSET: i128 = 1 << 40;

/// Splits the expression rooted at node 0.
pub fn split(t: &Tree, rules: &Rules) -> Split {
    let mut terms = Vec::new();
    let mut offset: i128 = 0;
    collect(t, 0, rules, &mut terms, &mut offset);
    if offset == 0 && terms == [Out::Ref(0)] || offset.abs() > MAX_OFFSET {
        return Split { base: None, offset: 0 };
    }
    Split { base: Out::sum(terms), offset: offset as i64 }
}

/// Appends the terms of node `i` to `terms` and its constant part to `offset`.
fn collect(t: &Tree, i: usize, rules: &Rules, terms: &mut Vec<Out>, offset: &mut i128) {
    let n = t.node(i);
    match &n.kind {
        In::Const(c) => *offset += *c as i128,
        In::Add(ops) => ops.iter().for_each(|&o| collect(t, o, rules, terms, offset)),
        In::AddRec(ops) if ops.len() == 2 => {
            collect(t, ops[0], rules, terms, offset);
            let zero = Out::Const { value: 0, ty: i };
            terms.push(Out::AddRec {
                start: Box::new(zero),
                step: Box::new(Out::Ref(ops[1])),
                ty: i,
            });
        }
        In::Mul(ops) => match t.split_const_operand(ops) {
            Some((c, rest)) if rest.len() == 1 => scaled(t, i, c, rest[0], rules, terms, offset),
            _ => terms.push(Out::Ref(i)),
        },
        In::SExt(inner) => extension(t, i, *inner, true, rules, terms, offset),
        In::ZExt(inner) => extension(t, i, *inner, false, rules, terms, offset),
        _ => terms.push(Out::Ref(i)),
    }
}

/// `c * x`: the split of `x`, each term scaled by `c`, and `c` times its offset.
fn scaled(
    t: &Tree,
    i: usize,
    c: i64,
    x: usize,
    rules: &Rules,
    terms: &mut Vec<Out>,
    offset: &mut i128,
) {
    let (mut inner, mut off) = (Vec::new(), 0i128);
    collect(t, x, rules, &mut inner, &mut off);
    if off == 0 || off.abs() > MAX_OFFSET {
        terms.push(Out::Ref(i));
        return;
    }
    *offset += c as i128 * off;
    let factor = Out::Const { value: c, ty: i };
    terms.extend(inner.into_iter().map(|term| Out::Mul(vec![factor.clone(), term])));
}

/// `sext(x + C)` / `zext(x + C)` of node `i`: `ext(x) + C` when the rules prove it.
fn extension(
    t: &Tree,
    i: usize,
    inner: usize,
    signed: bool,
    rules: &Rules,
    terms: &mut Vec<Out>,
    offset: &mut i128,
) {
    let add = t.node(inner);
    let parts = match &add.kind {
        In::Add(ops) => t.split_const_operand(ops),
        _ => None,
    };
    let Some((c, rest)) = parts else {
        terms.push(Out::Ref(i));
        return;
    };
    let proved = if signed {
        add.nsw || rules.ignore_signed_overflow
    } else {
        add.nuw || rules.ignore_unsigned_overflow || zext_fits(t, &rest, c, add.bits, rules)
    };
    if !proved {
        terms.push(Out::Ref(i));
        return;
    }
    *offset += if signed { c as i128 } else { (c as u64 & mask(add.bits)) as i128 };
    let x = Out::sum(rest.into_iter().map(Out::Ref).collect())
        .expect("an add has two operands or more");
    terms.push(if signed {
        Out::SExt { of: Box::new(x), ty: i }
    } else {
        Out::ZExt { of: Box::new(x), ty: i }
    });
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// SCEV-CGP's proof that `x + C` (C > 0) does not wrap unsigned in `bits` bits.
fn zext_fits(t: &Tree, rest: &[usize], c: i64, bits: u32, rules: &Rules) -> bool {
    let Some(tid_max) = rules.tid_max else { return false };
    if c <= 0 || bits > 64 {
        return false;
    }
    let x: u128 = rest.iter().map(|&o| bound(t, o, tid_max)).sum();
    x + c as u128 <= mask(bits) as u128
}

/// An unsigned upper bound of node `i`: the structural bound from constants and thread-id
/// registers where it is below the type's range, LLVM's range otherwise.
pub fn bound(t: &Tree, i: usize, tid_max: u64) -> u128 {
    let n = t.node(i);
    let llvm = n.umax as u128;
    let structural = match &n.kind {
        In::Const(c) => (*c as u64 & mask(n.bits)) as u128,
        In::Unknown { sreg: Some(Sreg::Tid(_) | Sreg::Ntid(_)) } => tid_max as u128,
        In::Add(ops) => ops.iter().map(|&o| bound(t, o, tid_max)).sum(),
        In::Mul(ops) => ops
            .iter()
            .try_fold(1u128, |acc, &o| acc.checked_mul(bound(t, o, tid_max)))
            .unwrap_or(u128::MAX),
        In::ZExt(x) => bound(t, *x, tid_max),
        _ => llvm,
    };
    structural.min(llvm)
}

#[cfg(test)]
mod tests {
    use super::super::expr::build::*;
    use super::super::expr::{kind, Flat};
    use super::*;
    use crate::analysis::gpu::Dim;

    const NSW: u32 = 2;
    const PLAIN: Rules = Rules {
        ignore_signed_overflow: false,
        ignore_unsigned_overflow: false,
        ignore_bad_base: false,
        tid_max: None,
    };

    #[test]
    fn unrooted_bases_are_kept_only_with_ignore_bad_base() {
        assert!(keeps_base(&PLAIN, true));
        assert!(!keeps_base(&PLAIN, false));
        assert!(keeps_base(&Rules { ignore_bad_base: true, ..PLAIN }, false));
    }

    fn run(flat: &[Flat], rules: &Rules) -> Split {
        split(&Tree::decode(flat).unwrap(), rules)
    }

    #[test]
    fn adds_lose_their_constant() {
        // (16 + %p + %q)
        let s = run(&[op(kind::ADD, 64, 3, 0), cnst(64, 16), unknown(64), unknown(64)], &PLAIN);
        assert_eq!(s, Split { base: Some(Out::Add(vec![Out::Ref(2), Out::Ref(3)])), offset: 16 });
    }

    #[test]
    fn a_lone_term_is_not_split() {
        assert_eq!(run(&[unknown(64)], &PLAIN), Split { base: None, offset: 0 });
    }

    #[test]
    fn recurrences_split_their_start() {
        // {(8 + %p),+,4}
        let s = run(
            &[
                op(kind::ADDREC, 64, 2, 0),
                op(kind::ADD, 64, 2, 0),
                cnst(64, 8),
                unknown(64),
                cnst(64, 4),
            ],
            &PLAIN,
        );
        let rec = Out::AddRec {
            start: Box::new(Out::Const { value: 0, ty: 0 }),
            step: Box::new(Out::Ref(4)),
            ty: 0,
        };
        assert_eq!(s, Split { base: Some(Out::Add(vec![Out::Ref(3), rec])), offset: 8 });
    }

    #[test]
    fn constant_multipliers_fold_into_the_offset() {
        // %p + 4 * (3 + %i)
        let s = run(
            &[
                op(kind::ADD, 64, 2, 0),
                unknown(64),
                op(kind::MUL, 64, 2, 0),
                cnst(64, 4),
                op(kind::ADD, 64, 2, 0),
                cnst(64, 3),
                unknown(64),
            ],
            &PLAIN,
        );
        let scaled = Out::Mul(vec![Out::Const { value: 4, ty: 2 }, Out::Ref(6)]);
        assert_eq!(s, Split { base: Some(Out::Add(vec![Out::Ref(1), scaled])), offset: 12 });
    }

    fn ext_of_add(ext: u32, flags: u32, c: i64, x: Flat) -> Vec<Flat> {
        vec![
            op(kind::ADD, 64, 2, 0),
            unknown(64),
            op(ext, 64, 1, 0),
            op(kind::ADD, 32, 2, flags),
            cnst(32, c),
            x,
        ]
    }

    #[test]
    fn sext_splits_only_with_nsw_or_the_ignore_knob() {
        let with = run(&ext_of_add(kind::SEXT, NSW, -1, unknown(32)), &PLAIN);
        assert_eq!(with.offset, -1);
        assert_eq!(
            with.base,
            Some(Out::Add(vec![Out::Ref(1), Out::SExt { of: Box::new(Out::Ref(5)), ty: 2 }]))
        );
        let without = ext_of_add(kind::SEXT, 0, -1, unknown(32));
        assert_eq!(
            run(&without, &PLAIN),
            Split { base: Some(Out::Add(vec![Out::Ref(1), Out::Ref(2)])), offset: 0 }
        );
        let ignore = Rules { ignore_signed_overflow: true, ..PLAIN };
        assert_eq!(run(&without, &ignore).offset, -1);
    }

    #[test]
    fn zext_splits_with_the_thread_id_proof_only() {
        let tid = ext_of_add(kind::ZEXT, 0, 32, sreg(Sreg::Tid(Dim::X)));
        assert_eq!(run(&tid, &PLAIN).offset, 0, "no proof without SCEV-CGP");
        let cgp = Rules { tid_max: Some(4096), ..PLAIN };
        assert_eq!(run(&tid, &cgp).offset, 32);
        // An unbounded value, or a negative constant, proves nothing.
        assert_eq!(run(&ext_of_add(kind::ZEXT, 0, 32, unknown(32)), &cgp).offset, 0);
        assert_eq!(run(&ext_of_add(kind::ZEXT, 0, -1, sreg(Sreg::Tid(Dim::X))), &cgp).offset, 0);
        // A block index is bounded only by LLVM's range.
        assert_eq!(run(&ext_of_add(kind::ZEXT, 0, 32, sreg(Sreg::Ctaid(Dim::X))), &cgp).offset, 0);
        let nuw = ext_of_add(kind::ZEXT, 1, 7, unknown(32));
        assert_eq!(run(&nuw, &PLAIN).offset, 7);
        let ignore = Rules { ignore_unsigned_overflow: true, ..PLAIN };
        assert_eq!(
            run(&ext_of_add(kind::ZEXT, 0, 32, unknown(32)), &ignore).offset,
            32,
            "ignore-32-bit-overflow"
        );
    }

    #[test]
    fn bounds_combine_structure_and_llvm_ranges() {
        // 4 * tid.x + 3, with LLVM knowing nothing better than i32.
        let t = Tree::decode(&[
            op(kind::ADD, 32, 2, 0),
            cnst(32, 3),
            op(kind::MUL, 32, 2, 0),
            cnst(32, 4),
            sreg(Sreg::Tid(Dim::X)),
        ])
        .unwrap();
        assert_eq!(bound(&t, 0, 1024), 4 * 1024 + 3);
        let mut narrow = t.clone();
        narrow.nodes[0].umax = 100;
        assert_eq!(bound(&narrow, 0, 1024), 100);
    }

    #[test]
    fn huge_offsets_are_left_in_the_base() {
        let s = run(&[op(kind::ADD, 64, 2, 0), cnst(64, 1 << 50), unknown(64)], &PLAIN);
        assert_eq!(s, Split { base: None, offset: 0 });
    }
}
