//! The expression model address records work on: a pointer's SCEV as the C++ adapter encodes it
//! (a preorder array of [`InNode`]s, decoded into a [`Tree`]), and the expressions Rust hands
//! back to be built with ScalarEvolution's own builders ([`Out`], encoded the same way). The
//! adapter keeps the SCEV of every input node, so an [`Out::Ref`] names an existing expression.
use crate::analysis::gpu::Sreg;

/// One SCEV node, as the adapter saw it.
#[derive(Clone, Debug, PartialEq)]
pub enum In {
    /// An integer constant (sign-extended to 64 bits).
    Const(i64),
    /// A leaf: an argument, instruction or global; `sreg` when it is a special-register read.
    Unknown {
        sreg: Option<Sreg>,
    },
    Add(Vec<usize>),
    Mul(Vec<usize>),
    /// `{ops[0],+,ops[1],+,...}` of a loop.
    AddRec(Vec<usize>),
    SExt(usize),
    ZExt(usize),
    /// Anything else (truncations, divisions, min/max, ptrtoint, ...): one opaque term.
    Other,
}

/// A node with its type width, no-wrap flags and LLVM's unsigned upper bound.
#[derive(Clone, Debug, PartialEq)]
pub struct InNode {
    pub kind: In,
    pub bits: u32,
    pub nuw: bool,
    pub nsw: bool,
    pub umax: u64,
}

/// A decoded expression; node 0 is the root.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree {
    pub nodes: Vec<InNode>,
}

/// The boundary encoding ([`crate::analysis::scev_node`]): node kinds and the flat node, named here as
/// the address passes use them.
pub use crate::analysis::scev_node::{kind, ScevNode as Flat};

impl Tree {
    /// Decodes a preorder array; `None` when it is malformed (arity past the end).
    pub fn decode(flat: &[Flat]) -> Option<Tree> {
        let mut nodes = Vec::with_capacity(flat.len());
        let mut pos = 0;
        Self::decode_at(flat, &mut pos, &mut nodes)?;
        (pos == flat.len()).then_some(Tree { nodes })
    }

    fn decode_at(flat: &[Flat], pos: &mut usize, nodes: &mut Vec<InNode>) -> Option<usize> {
        let f = *flat.get(*pos)?;
        let me = nodes.len();
        *pos += 1;
        nodes.push(InNode {
            kind: In::Other,
            bits: f.bits,
            nuw: f.flags & 1 != 0,
            nsw: f.flags & 2 != 0,
            umax: f.umax,
        });
        let mut kids = Vec::with_capacity(f.arity as usize);
        for _ in 0..f.arity {
            kids.push(Self::decode_at(flat, pos, nodes)?);
        }
        let one = |k: &[usize]| (k.len() == 1).then(|| k[0]);
        nodes[me].kind = match f.kind {
            kind::CONST => In::Const(f.value),
            kind::UNKNOWN => In::Unknown { sreg: Sreg::from_code(f.value) },
            kind::ADD => In::Add(kids),
            kind::MUL => In::Mul(kids),
            kind::ADDREC => In::AddRec(kids),
            kind::SEXT => In::SExt(one(&kids)?),
            kind::ZEXT => In::ZExt(one(&kids)?),
            _ => In::Other,
        };
        Some(me)
    }

    pub fn node(&self, i: usize) -> &InNode {
        &self.nodes[i]
    }

    /// The constant operand of an add (SCEV keeps it first) and the other operands.
    pub fn split_const_operand(&self, ops: &[usize]) -> Option<(i64, Vec<usize>)> {
        let (first, rest) = ops.split_first()?;
        match self.nodes[*first].kind {
            In::Const(c) => Some((c, rest.to_vec())),
            _ => None,
        }
    }
}

/// An expression for the adapter to build from existing SCEVs (`Ref`) and SCEV's builders.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    Ref(usize),
    /// A constant of input node `ty`'s type.
    Const {
        value: i64,
        ty: usize,
    },
    Add(Vec<Out>),
    Mul(Vec<Out>),
    /// An affine recurrence of input node `ty`'s loop.
    AddRec {
        start: Box<Out>,
        step: Box<Out>,
        ty: usize,
    },
    /// Extensions to input node `ty`'s type.
    SExt {
        of: Box<Out>,
        ty: usize,
    },
    ZExt {
        of: Box<Out>,
        ty: usize,
    },
}

impl Out {
    /// The sum of `terms` (`None` for no terms, the term itself for one).
    pub fn sum(mut terms: Vec<Out>) -> Option<Out> {
        match terms.len() {
            0 => None,
            1 => terms.pop(),
            _ => Some(Out::Add(terms)),
        }
    }

    /// Preorder encoding for the adapter.
    pub fn encode(&self, out: &mut Vec<Flat>) {
        let node = |kind, arity: usize, value, ty| Flat {
            kind,
            arity: arity as u32,
            value,
            ty,
            ..Flat::default()
        };
        match self {
            Out::Ref(i) => out.push(node(kind::REF, 0, *i as i64, *i as i64)),
            Out::Const { value, ty } => out.push(node(kind::CONST, 0, *value, *ty as i64)),
            Out::Add(ops) | Out::Mul(ops) => {
                let k = if matches!(self, Out::Add(_)) { kind::ADD } else { kind::MUL };
                out.push(node(k, ops.len(), 0, -1));
                ops.iter().for_each(|o| o.encode(out));
            }
            Out::AddRec { start, step, ty } => {
                out.push(node(kind::ADDREC, 2, 0, *ty as i64));
                start.encode(out);
                step.encode(out);
            }
            Out::SExt { of, ty } | Out::ZExt { of, ty } => {
                let k = if matches!(self, Out::SExt { .. }) { kind::SEXT } else { kind::ZEXT };
                out.push(node(k, 1, 0, *ty as i64));
                of.encode(out);
            }
        }
    }
}

#[cfg(test)]
pub mod build {
    //! Helpers that write encoded trees for tests.
    use super::*;

    pub fn leaf(kind: u32, bits: u32, value: i64) -> Flat {
        Flat { kind, bits, value, umax: u64::MAX >> (64 - bits), ..Flat::default() }
    }
    pub fn cnst(bits: u32, v: i64) -> Flat {
        leaf(kind::CONST, bits, v)
    }
    pub fn unknown(bits: u32) -> Flat {
        leaf(kind::UNKNOWN, bits, -1)
    }
    pub fn sreg(s: Sreg) -> Flat {
        Flat { umax: u32::MAX as u64, ..leaf(kind::UNKNOWN, 32, s.code() as i64) }
    }
    pub fn op(kind: u32, bits: u32, arity: u32, flags: u32) -> Flat {
        Flat { kind, bits, arity, flags, umax: u64::MAX >> (64 - bits), ..Flat::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::build::*;
    use super::*;

    #[test]
    fn decodes_preorder_and_rejects_truncated_arrays() {
        let flat = [op(kind::ADD, 64, 2, 0), cnst(64, 8), unknown(64)];
        let t = Tree::decode(&flat).unwrap();
        assert_eq!(t.nodes[0].kind, In::Add(vec![1, 2]));
        assert_eq!(t.split_const_operand(&[1, 2]), Some((8, vec![2])));
        assert!(Tree::decode(&flat[..2]).is_none());
        assert!(Tree::decode(&[op(kind::SEXT, 64, 2, 0), unknown(32), unknown(32)]).is_none());
    }

    #[test]
    fn encodes_outputs_in_preorder() {
        let o = Out::Add(vec![Out::Ref(3), Out::SExt { of: Box::new(Out::Ref(5)), ty: 4 }]);
        let mut flat = Vec::new();
        o.encode(&mut flat);
        let kinds: Vec<u32> = flat.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, vec![kind::ADD, kind::REF, kind::SEXT, kind::REF]);
        assert_eq!((flat[2].ty, flat[3].value), (4, 5));
        assert_eq!(Out::sum(vec![]), None);
    }
}
