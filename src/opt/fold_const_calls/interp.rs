//! The interpreter of `nv-fold-const-calls`: runs a call of a function on integer constants
//! over a small Rust image of the function's IR ([`Func`], made from LLVM by lower.rs) and
//! returns the value it returns, or why it will not say ([`Refusal`]). Plain Rust, no LLVM, so
//! the semantics are unit-tested here.
//!
//! Values are integers of 1 to 64 bits, held zero-extended in a `u64`, or poison. Each
//! operation follows LangRef exactly: arithmetic wraps modulo 2^width; an operation that LLVM
//! defines as poison (a violated `nuw`/`nsw`/`exact`/`disjoint`/`nneg`/`samesign` flag, a
//! shift by the width or more, `ctlz`/`cttz` of 0 or `abs` of the minimum with their poison
//! flag, a `poison` operand) gives poison, which flows through arithmetic, compares, casts,
//! `select` (only the arm chosen counts) and PHIs like a value, so that a poison computed and
//! then not used (the arm of a `select` not taken) is harmless, as in LLVM. A run refuses
//! where poison would be undefined behaviour or where it is not followed: a branch or switch
//! on it, a divisor or dividend, `llvm.assume`, a call argument, `freeze`, and the value the
//! call returns. Immediate undefined behaviour refuses too (division or remainder by 0, signed
//! division of the minimum by -1, `unreachable`, `llvm.assume(false)`): folding such a call
//! would be a legal refinement, but the call is left in place, where the program's behaviour
//! stays what its author wrote. `undef` is not modelled (each use may differ). Everything not
//! modelled refuses when, and only when, it is executed: the interpreter follows the one path
//! the constant arguments take, so a store, a load or a call to a declaration on a branch
//! that is not taken does not matter. The work is bounded: every instruction, PHI and
//! terminator executed is a step, and a run that needs more than `max_steps`, or calls deeper
//! than `max_depth`, refuses.
use std::fmt;
use std::rc::Rc;

/// A function, by its index in the [`Program`].
pub type FuncId = usize;
/// A block, by its index in its function (0 is the entry).
pub type BlockId = usize;

/// An operand of an instruction.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// An integer constant, zero-extended.
    Const(u64),
    /// The constant `poison`.
    Poison,
    /// The value of an instruction or PHI of the function: its slot.
    Slot(usize),
    /// The function's argument number `n`.
    Arg(usize),
    /// A value the interpreter does not model: reading it refuses with this reason.
    Opaque(Refusal),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// The poison-generating flags of an instruction (those its opcode can carry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub nuw: bool,
    pub nsw: bool,
    pub exact: bool,
    pub disjoint: bool,
    pub nneg: bool,
}

/// Integer comparison predicates: the one definition in src/analysis/scev_sources.
pub use crate::analysis::scev_sources::wrap::Pred;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastOp {
    ZExt,
    SExt,
    Trunc,
}

/// The intrinsics the interpreter runs: integer math without memory or side effects, and
/// `llvm.assume`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    UMin,
    UMax,
    SMin,
    SMax,
    /// `llvm.abs(x, i1 int_min_is_poison)`.
    Abs,
    /// `llvm.ctlz(x, i1 zero_is_poison)`.
    Ctlz,
    /// `llvm.cttz(x, i1 zero_is_poison)`.
    Cttz,
    Ctpop,
    /// `llvm.assume(i1 c)`: undefined behaviour when `c` is false.
    Assume,
}

impl Intrinsic {
    /// The intrinsic of an LLVM base name (`llvm.umin`), if it is one the interpreter runs.
    pub fn of_name(base: &str) -> Option<Self> {
        Some(match base {
            "llvm.umin" => Intrinsic::UMin,
            "llvm.umax" => Intrinsic::UMax,
            "llvm.smin" => Intrinsic::SMin,
            "llvm.smax" => Intrinsic::SMax,
            "llvm.abs" => Intrinsic::Abs,
            "llvm.ctlz" => Intrinsic::Ctlz,
            "llvm.cttz" => Intrinsic::Cttz,
            "llvm.ctpop" => Intrinsic::Ctpop,
            "llvm.assume" => Intrinsic::Assume,
            _ => return None,
        })
    }
}

/// What an instruction does.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    Bin {
        op: BinOp,
        a: Operand,
        b: Operand,
        flags: Flags,
    },
    /// `width` of the instruction is 1; `from` is the operands' width.
    ICmp {
        pred: Pred,
        a: Operand,
        b: Operand,
        from: u32,
        samesign: bool,
    },
    Select {
        c: Operand,
        a: Operand,
        b: Operand,
    },
    Cast {
        op: CastOp,
        a: Operand,
        from: u32,
        flags: Flags,
    },
    Freeze(Operand),
    Call {
        callee: FuncId,
        args: Vec<Operand>,
    },
    Intrinsic {
        which: Intrinsic,
        args: Vec<Operand>,
    },
    /// Anything else: executing it refuses.
    Unsupported(Refusal),
}

/// One non-PHI instruction: what it does, the width of its result, and its slot (none for an
/// instruction without an integer result).
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub op: Op,
    pub width: u32,
    pub slot: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Phi {
    pub slot: usize,
    /// (predecessor, value on the edge from it).
    pub incoming: Vec<(BlockId, Operand)>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    Br(BlockId),
    CondBr { c: Operand, then: BlockId, other: BlockId },
    Switch { c: Operand, default: BlockId, cases: Vec<(u64, BlockId)> },
    Ret(Option<Operand>),
    Unreachable,
    Unsupported(Refusal),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub phis: Vec<Phi>,
    pub insts: Vec<Inst>,
    pub term: Term,
}

/// The image of one function.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    /// Why the function cannot be run at all (a declaration, an interposable body, a
    /// signature with other than integers); None when it can.
    pub unavailable: Option<Refusal>,
    /// Width of each parameter.
    pub params: Vec<u32>,
    /// Width of the return value; None for `void`.
    pub ret: Option<u32>,
    pub blocks: Vec<Block>,
    pub slots: usize,
}

/// Where the functions come from (lowered from LLVM on demand, or built by a test).
pub trait Program {
    fn func(&mut self, id: FuncId) -> Rc<Func>;
}

/// Why a call is not folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// More steps than `max_steps`.
    Steps(u64),
    /// Calls nested deeper than `max_depth`.
    Depth(u32),
    /// An operation whose result LLVM defines as poison.
    Poison(&'static str),
    /// Immediate undefined behaviour.
    Undefined(&'static str),
    /// Something the interpreter does not model (memory, a declaration, inline asm, ...).
    Unsupported(String),
}

impl Refusal {
    /// The `-nv-stats` counter of this kind of refusal.
    pub fn counter(&self) -> &'static str {
        match self {
            Refusal::Steps(_) => "calls refused: step budget exceeded",
            Refusal::Depth(_) => "calls refused: recursion depth exceeded",
            Refusal::Poison(_) => "calls refused: poison computed",
            Refusal::Undefined(_) => "calls refused: undefined behaviour executed",
            Refusal::Unsupported(_) => "calls refused: executes what is not modelled",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Refusal::Steps(n) => {
                write!(f, "step budget exceeded (more than {n}, nv-fold-const-calls-max-steps)")
            }
            Refusal::Depth(n) => write!(
                f,
                "recursion depth exceeded (more than {n} nested calls, nv-fold-const-calls-max-depth)"
            ),
            Refusal::Poison(why) => write!(f, "poison: {why}"),
            Refusal::Undefined(why) => write!(f, "undefined behaviour: {why}"),
            Refusal::Unsupported(why) => write!(f, "{why}"),
        }
    }
}

/// The bounds of one evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_steps: u64,
    pub max_depth: u32,
}

/// The value of `f(args)` and the steps it took, or why there is none. `args` are
/// zero-extended to their parameters' widths.
pub fn evaluate<P: Program>(
    prog: &mut P,
    f: FuncId,
    args: &[u64],
    limits: Limits,
) -> Result<(u64, u64), Refusal> {
    let mut run = Run { prog, limits, steps: 0 };
    match run.call(f, args, 0)? {
        // A call that returns poison is not folded (to any value, which would be legal).
        Some(v) => Ok((v.int()?, run.steps)),
        None => Err(Refusal::Unsupported("returns no value".into())),
    }
}

pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// `v` (of `width` bits) read as a signed number.
pub fn signed(v: u64, width: u32) -> i64 {
    let s = 64 - width.min(64);
    ((v << s) as i64) >> s
}

fn fits_signed(v: i128, width: u32) -> bool {
    let half = 1i128 << (width - 1);
    (-half..half).contains(&v)
}

struct Run<'p, P> {
    prog: &'p mut P,
    limits: Limits,
    steps: u64,
}

impl<P: Program> Run<'_, P> {
    fn step(&mut self) -> Result<(), Refusal> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(Refusal::Steps(self.limits.max_steps));
        }
        Ok(())
    }

    fn call(&mut self, id: FuncId, args: &[u64], depth: u32) -> Result<Option<Val>, Refusal> {
        let f = self.prog.func(id);
        if let Some(why) = &f.unavailable {
            return Err(why.clone());
        }
        if args.len() != f.params.len() {
            return Err(Refusal::Unsupported(format!("@{}: argument count differs", f.name)));
        }
        let args: Vec<u64> = args.iter().zip(&f.params).map(|(&a, &w)| a & mask(w)).collect();
        let mut frame = Frame { vals: vec![None; f.slots], args: &args };
        let mut bb = 0;
        let mut prev: Option<BlockId> = None;
        loop {
            let block = f
                .blocks
                .get(bb)
                .ok_or_else(|| Refusal::Unsupported(format!("@{}: no block {bb}", f.name)))?;
            if !block.phis.is_empty() {
                // PHIs read the values of the edge taken, all before any is written.
                let from = prev.ok_or_else(|| Refusal::Unsupported("a PHI in the entry".into()))?;
                let mut new = Vec::with_capacity(block.phis.len());
                for phi in &block.phis {
                    self.step()?;
                    let (_, v) =
                        phi.incoming.iter().find(|(p, _)| *p == from).ok_or_else(|| {
                            Refusal::Unsupported("a PHI without a value for its edge".into())
                        })?;
                    new.push((phi.slot, frame.read(v)?));
                }
                for (slot, v) in new {
                    frame.vals[slot] = Some(v);
                }
            }
            for inst in &block.insts {
                self.step()?;
                let v = self.exec(inst, &frame, depth)?;
                if let (Some(slot), Some(v)) = (inst.slot, v) {
                    frame.vals[slot] = Some(v);
                }
            }
            self.step()?;
            // A branch on poison is undefined behaviour: `int` refuses it.
            let next = match &block.term {
                Term::Br(t) => *t,
                Term::CondBr { c, then, other } => {
                    if frame.read(c)?.int()? & 1 == 1 {
                        *then
                    } else {
                        *other
                    }
                }
                Term::Switch { c, default, cases } => {
                    let v = frame.read(c)?.int()?;
                    cases.iter().find(|(k, _)| *k == v).map_or(*default, |(_, t)| *t)
                }
                Term::Ret(None) => return Ok(None),
                Term::Ret(Some(v)) => {
                    return Ok(Some(frame.read(v)?.masked(f.ret.unwrap_or(64))));
                }
                Term::Unreachable => return Err(Refusal::Undefined("reaches unreachable")),
                Term::Unsupported(why) => return Err(why.clone()),
            };
            prev = Some(bb);
            bb = next;
        }
    }

    /// One instruction. Poison operands give a poison result, except where LangRef makes
    /// them undefined behaviour (a divisor; a condition, `llvm.assume`) or where the
    /// interpreter does not follow them (a call's argument, `freeze`): those refuse.
    fn exec(&mut self, inst: &Inst, fr: &Frame, depth: u32) -> Result<Option<Val>, Refusal> {
        let w = inst.width;
        let v = match &inst.op {
            Op::Bin { op, a, b, flags } => {
                let (a, b) = (fr.read(a)?, fr.read(b)?);
                if matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem) {
                    // A poison divisor is undefined; so may a poison dividend be (INT_MIN / -1).
                    poisoned(binary(*op, a.int()?, b.int()?, w, *flags))?
                } else {
                    match (a, b) {
                        (Val::Int(a), Val::Int(b)) => poisoned(binary(*op, a, b, w, *flags))?,
                        (Val::Poison(p), _) | (_, Val::Poison(p)) => Val::Poison(p),
                    }
                }
            }
            Op::ICmp { pred, a, b, from, samesign } => match (fr.read(a)?, fr.read(b)?) {
                (Val::Int(a), Val::Int(b)) => {
                    let sign = |v: u64| (v >> (from - 1)) & 1;
                    if *samesign && sign(a) != sign(b) {
                        Val::Poison("icmp samesign of operands of different signs")
                    } else {
                        Val::Int(icmp(*pred, a, b, *from) as u64)
                    }
                }
                (Val::Poison(p), _) | (_, Val::Poison(p)) => Val::Poison(p),
            },
            Op::Select { c, a, b } => match fr.read(c)? {
                Val::Int(c) if c & 1 == 1 => fr.read(a)?,
                Val::Int(_) => fr.read(b)?,
                poison => poison,
            },
            Op::Cast { op, a, from, flags } => match fr.read(a)? {
                Val::Int(a) => poisoned(cast(*op, a, *from, w, *flags))?,
                poison => poison,
            },
            Op::Freeze(a) => Val::Int(fr.read(a)?.int()?),
            Op::Call { callee, args } => {
                if depth >= self.limits.max_depth {
                    return Err(Refusal::Depth(self.limits.max_depth));
                }
                let args = args.iter().map(|a| fr.read(a)?.int()).collect::<Result<Vec<_>, _>>()?;
                match self.call(*callee, &args, depth + 1)? {
                    Some(v) => v,
                    None if inst.slot.is_none() => return Ok(None),
                    None => return Err(Refusal::Unsupported("a call's value is missing".into())),
                }
            }
            Op::Intrinsic { which, args } => {
                let args = args.iter().map(|a| fr.read(a)).collect::<Result<Vec<_>, _>>()?;
                if *which == Intrinsic::Assume {
                    let c = args.first().copied().unwrap_or(Val::Int(0)).int()?;
                    intrinsic(*which, &[c], w)?;
                    return Ok(None);
                }
                if let Some(&p) = args.iter().find(|a| matches!(a, Val::Poison(_))) {
                    p
                } else {
                    let ints: Vec<u64> = args.iter().map(|a| a.int_or(0)).collect();
                    poisoned(intrinsic(*which, &ints, w).map(|v| v.unwrap_or(0)))?
                }
            }
            Op::Unsupported(why) => return Err(why.clone()),
        };
        Ok(Some(v.masked(w)))
    }
}

/// A value of the run: an integer, or poison with the reason it arose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    Int(u64),
    Poison(&'static str),
}

impl Val {
    /// The integer; poison refuses (where it would be undefined behaviour or is not followed).
    fn int(self) -> Result<u64, Refusal> {
        match self {
            Val::Int(v) => Ok(v),
            Val::Poison(why) => Err(Refusal::Poison(why)),
        }
    }

    fn int_or(self, d: u64) -> u64 {
        match self {
            Val::Int(v) => v,
            Val::Poison(_) => d,
        }
    }

    fn masked(self, w: u32) -> Val {
        match self {
            Val::Int(v) => Val::Int(v & mask(w)),
            poison => poison,
        }
    }
}

/// An operation's result as a value: its poison is a value, every other refusal stays one.
fn poisoned(r: Result<u64, Refusal>) -> Result<Val, Refusal> {
    match r {
        Ok(v) => Ok(Val::Int(v)),
        Err(Refusal::Poison(why)) => Ok(Val::Poison(why)),
        Err(e) => Err(e),
    }
}

struct Frame<'a> {
    vals: Vec<Option<Val>>,
    args: &'a [u64],
}

impl Frame<'_> {
    fn read(&self, o: &Operand) -> Result<Val, Refusal> {
        match o {
            Operand::Const(v) => Ok(Val::Int(*v)),
            Operand::Poison => Ok(Val::Poison("a poison operand")),
            Operand::Arg(n) => self
                .args
                .get(*n)
                .map(|&v| Val::Int(v))
                .ok_or_else(|| Refusal::Unsupported(format!("no argument {n}"))),
            Operand::Slot(s) => {
                self.vals.get(*s).copied().flatten().ok_or_else(|| {
                    Refusal::Unsupported("a value read before it is computed".into())
                })
            }
            Operand::Opaque(why) => Err(why.clone()),
        }
    }
}

/// A binary operation of `w`-bit operands (zero-extended), per LangRef.
pub fn binary(op: BinOp, a: u64, b: u64, w: u32, f: Flags) -> Result<u64, Refusal> {
    use BinOp::*;
    let m = mask(w);
    let (sa, sb) = (signed(a, w) as i128, signed(b, w) as i128);
    let poison = |cond: bool, why| if cond { Err(Refusal::Poison(why)) } else { Ok(()) };
    let r = match op {
        Add => {
            poison(f.nuw && a as u128 + b as u128 > m as u128, "add nuw wraps")?;
            poison(f.nsw && !fits_signed(sa + sb, w), "add nsw overflows")?;
            a.wrapping_add(b)
        }
        Sub => {
            poison(f.nuw && a < b, "sub nuw wraps")?;
            poison(f.nsw && !fits_signed(sa - sb, w), "sub nsw overflows")?;
            a.wrapping_sub(b)
        }
        Mul => {
            poison(f.nuw && a as u128 * b as u128 > m as u128, "mul nuw wraps")?;
            poison(f.nsw && !fits_signed(sa * sb, w), "mul nsw overflows")?;
            a.wrapping_mul(b)
        }
        UDiv | URem | SDiv | SRem if b == 0 => {
            return Err(Refusal::Undefined("division or remainder by zero"))
        }
        SDiv | SRem if sb == -1 && !fits_signed(-sa, w) => {
            return Err(Refusal::Undefined("signed division of the minimum by -1"))
        }
        UDiv => {
            poison(f.exact && !a.is_multiple_of(b), "udiv exact has a remainder")?;
            a / b
        }
        URem => a % b,
        SDiv => {
            poison(f.exact && sa % sb != 0, "sdiv exact has a remainder")?;
            (sa / sb) as u64
        }
        SRem => (sa % sb) as u64,
        Shl | LShr | AShr if b >= w as u64 => {
            return Err(Refusal::Poison("shift by the width or more"))
        }
        Shl => {
            let r = (a << b) & m;
            poison(f.nuw && r >> b != a, "shl nuw shifts out a set bit")?;
            poison(f.nsw && signed(r, w) >> b != signed(a, w), "shl nsw changes the sign")?;
            r
        }
        LShr => {
            poison(f.exact && (a >> b) << b != a, "lshr exact shifts out a set bit")?;
            a >> b
        }
        AShr => {
            poison(f.exact && (a >> b) << b != a, "ashr exact shifts out a set bit")?;
            (signed(a, w) >> b) as u64
        }
        And => a & b,
        Or => {
            poison(f.disjoint && a & b != 0, "or disjoint of operands with a common bit")?;
            a | b
        }
        Xor => a ^ b,
    };
    Ok(r & m)
}

/// An integer comparison of `w`-bit operands.
pub fn icmp(p: Pred, a: u64, b: u64, w: u32) -> bool {
    use Pred::*;
    let (sa, sb) = (signed(a, w), signed(b, w));
    match p {
        Eq => a == b,
        Ne => a != b,
        Ugt => a > b,
        Uge => a >= b,
        Ult => a < b,
        Ule => a <= b,
        Sgt => sa > sb,
        Sge => sa >= sb,
        Slt => sa < sb,
        Sle => sa <= sb,
    }
}

/// A cast of a `from`-bit value to `to` bits.
pub fn cast(op: CastOp, a: u64, from: u32, to: u32, f: Flags) -> Result<u64, Refusal> {
    Ok(match op {
        CastOp::ZExt => {
            if f.nneg && signed(a, from) < 0 {
                return Err(Refusal::Poison("zext nneg of a negative value"));
            }
            a
        }
        CastOp::SExt => signed(a, from) as u64 & mask(to),
        CastOp::Trunc => {
            let r = a & mask(to);
            if f.nuw && r != a {
                return Err(Refusal::Poison("trunc nuw drops a set bit"));
            }
            if f.nsw && signed(r, to) != signed(a, from) {
                return Err(Refusal::Poison("trunc nsw changes the value"));
            }
            r
        }
    })
}

/// An intrinsic on `w`-bit values; None for `llvm.assume`, which has no value.
pub fn intrinsic(i: Intrinsic, args: &[u64], w: u32) -> Result<Option<u64>, Refusal> {
    let arg = |n: usize| {
        args.get(n)
            .copied()
            .ok_or_else(|| Refusal::Unsupported(format!("{i:?} without operand {n}")))
    };
    let poison_flag = || Ok::<bool, Refusal>(arg(1)? & 1 == 1);
    Ok(Some(match i {
        Intrinsic::UMin => arg(0)?.min(arg(1)?),
        Intrinsic::UMax => arg(0)?.max(arg(1)?),
        Intrinsic::SMin => {
            let (a, b) = (arg(0)?, arg(1)?);
            if signed(a, w) <= signed(b, w) {
                a
            } else {
                b
            }
        }
        Intrinsic::SMax => {
            let (a, b) = (arg(0)?, arg(1)?);
            if signed(a, w) >= signed(b, w) {
                a
            } else {
                b
            }
        }
        Intrinsic::Abs => {
            let a = arg(0)?;
            let s = signed(a, w);
            if a == 1u64 << (w - 1) && poison_flag()? {
                return Err(Refusal::Poison("abs of the minimum with int_min_is_poison"));
            }
            (s.wrapping_abs() as u64) & mask(w)
        }
        Intrinsic::Ctlz | Intrinsic::Cttz if arg(0)? == 0 => {
            if poison_flag()? {
                return Err(Refusal::Poison("ctlz/cttz of 0 with zero_is_poison"));
            }
            w as u64
        }
        Intrinsic::Ctlz => (arg(0)?.leading_zeros() - (64 - w)) as u64,
        Intrinsic::Cttz => arg(0)?.trailing_zeros() as u64,
        Intrinsic::Ctpop => arg(0)?.count_ones() as u64,
        Intrinsic::Assume => {
            if arg(0)? & 1 == 0 {
                return Err(Refusal::Undefined("llvm.assume of false"));
            }
            return Ok(None);
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Operand::*;

    struct Funcs(Vec<Rc<Func>>);

    impl Program for Funcs {
        fn func(&mut self, id: FuncId) -> Rc<Func> {
            self.0[id].clone()
        }
    }

    fn bin(op: BinOp, a: Operand, b: Operand, slot: usize) -> Inst {
        Inst { op: Op::Bin { op, a, b, flags: Flags::default() }, width: 32, slot: Some(slot) }
    }

    /// cooperative_groups' `log2(x) = x == 1 ? 0 : 1 + log2(x / 2)`, as clang's -O0 body
    /// becomes after mem2reg: function 0.
    fn log2() -> Func {
        let cmp = Inst {
            op: Op::ICmp { pred: Pred::Eq, a: Arg(0), b: Const(1), from: 32, samesign: false },
            width: 1,
            slot: Some(0),
        };
        let call =
            Inst { op: Op::Call { callee: 0, args: vec![Slot(1)] }, width: 32, slot: Some(2) };
        Func {
            name: "log2".into(),
            unavailable: None,
            params: vec![32],
            ret: Some(32),
            blocks: vec![
                Block {
                    phis: vec![],
                    insts: vec![cmp],
                    term: Term::CondBr { c: Slot(0), then: 2, other: 1 },
                },
                Block {
                    phis: vec![],
                    insts: vec![
                        bin(BinOp::UDiv, Arg(0), Const(2), 1),
                        call,
                        bin(BinOp::Add, Const(1), Slot(2), 3),
                    ],
                    term: Term::Br(2),
                },
                Block {
                    phis: vec![Phi { slot: 4, incoming: vec![(0, Const(0)), (1, Slot(3))] }],
                    insts: vec![],
                    term: Term::Ret(Some(Slot(4))),
                },
            ],
            slots: 5,
        }
    }

    const BIG: Limits = Limits { max_steps: 10_000, max_depth: 128 };

    #[test]
    fn recursive_log2_folds() {
        let mut p = Funcs(vec![Rc::new(log2())]);
        assert_eq!(evaluate(&mut p, 0, &[1], BIG).unwrap().0, 0);
        assert_eq!(evaluate(&mut p, 0, &[8], BIG).unwrap().0, 3);
        assert_eq!(evaluate(&mut p, 0, &[32], BIG).unwrap().0, 5);
        assert_eq!(evaluate(&mut p, 0, &[1 << 31], BIG).unwrap().0, 31);
    }

    #[test]
    fn budgets_refuse() {
        let mut p = Funcs(vec![Rc::new(log2())]);
        let small = Limits { max_steps: 10, max_depth: 128 };
        assert_eq!(evaluate(&mut p, 0, &[1 << 20], small), Err(Refusal::Steps(10)));
        let shallow = Limits { max_steps: 10_000, max_depth: 3 };
        assert_eq!(evaluate(&mut p, 0, &[8], shallow).unwrap().0, 3);
        assert_eq!(evaluate(&mut p, 0, &[16], shallow), Err(Refusal::Depth(3)));
        // log2(0) recurses on 0 forever: the depth bound ends it.
        assert_eq!(evaluate(&mut p, 0, &[0], BIG), Err(Refusal::Depth(128)));
    }

    #[test]
    fn unsupported_refuses_only_where_executed() {
        let mut f = log2();
        // A store on the recursive path: log2(1) never executes it.
        f.blocks[1].insts.insert(
            0,
            Inst {
                op: Op::Unsupported(Refusal::Unsupported("store".into())),
                width: 0,
                slot: None,
            },
        );
        let mut p = Funcs(vec![Rc::new(f)]);
        assert_eq!(evaluate(&mut p, 0, &[1], BIG).unwrap().0, 0);
        assert_eq!(evaluate(&mut p, 0, &[2], BIG), Err(Refusal::Unsupported("store".into())));
    }

    #[test]
    fn wrapping_and_poison_flags() {
        let nsw = Flags { nsw: true, ..Flags::default() };
        let nuw = Flags { nuw: true, ..Flags::default() };
        let plain = Flags::default();
        assert_eq!(binary(BinOp::Add, 0xffff_ffff, 1, 32, plain), Ok(0));
        assert!(binary(BinOp::Add, 0xffff_ffff, 1, 32, nuw).is_err());
        assert_eq!(binary(BinOp::Add, 0xffff_ffff, 1, 32, nsw), Ok(0)); // -1 + 1
        assert!(binary(BinOp::Add, 0x7fff_ffff, 1, 32, nsw).is_err());
        assert!(binary(BinOp::Sub, 0, 1, 8, nuw).is_err());
        assert_eq!(binary(BinOp::Sub, 0, 1, 8, plain), Ok(0xff));
        assert!(binary(BinOp::Mul, 0x10, 0x10, 8, nuw).is_err());
        assert!(binary(BinOp::Mul, 0x40, 2, 8, nsw).is_err());
        assert_eq!(binary(BinOp::Mul, 0xff, 0xff, 8, nsw), Ok(1)); // -1 * -1
        assert_eq!(binary(BinOp::Add, u64::MAX, 1, 64, plain), Ok(0));
        assert!(binary(BinOp::Add, u64::MAX, 1, 64, nuw).is_err());
        assert!(binary(BinOp::Add, i64::MAX as u64, 1, 64, nsw).is_err());
    }

    #[test]
    fn division_and_shifts() {
        let plain = Flags::default();
        let exact = Flags { exact: true, ..Flags::default() };
        assert_eq!(
            binary(BinOp::UDiv, 7, 0, 32, plain),
            Err(Refusal::Undefined("division or remainder by zero"))
        );
        assert!(matches!(binary(BinOp::SRem, 7, 0, 32, plain), Err(Refusal::Undefined(_))));
        assert!(matches!(binary(BinOp::SDiv, 0x80, 0xff, 8, plain), Err(Refusal::Undefined(_))));
        assert!(matches!(binary(BinOp::SRem, 0x80, 0xff, 8, plain), Err(Refusal::Undefined(_))));
        assert_eq!(binary(BinOp::SDiv, 0xf9, 2, 8, plain), Ok(0xfd)); // -7 / 2 = -3
        assert_eq!(binary(BinOp::SRem, 0xf9, 2, 8, plain), Ok(0xff)); // -7 % 2 = -1
        assert_eq!(binary(BinOp::URem, 0xf9, 2, 8, plain), Ok(1));
        assert!(binary(BinOp::UDiv, 7, 2, 32, exact).is_err());
        assert_eq!(binary(BinOp::UDiv, 8, 2, 32, exact), Ok(4));
        assert_eq!(
            binary(BinOp::Shl, 1, 32, 32, plain),
            Err(Refusal::Poison("shift by the width or more"))
        );
        assert!(binary(BinOp::LShr, 1, 40, 32, plain).is_err());
        assert_eq!(binary(BinOp::Shl, 1, 31, 32, plain), Ok(0x8000_0000));
        assert!(binary(BinOp::Shl, 1, 31, 32, Flags { nsw: true, ..plain }).is_err());
        assert_eq!(
            binary(BinOp::Shl, 0xffff_ffff, 4, 32, Flags { nsw: true, ..plain }),
            Ok(0xffff_fff0)
        );
        assert!(binary(BinOp::Shl, 0x8000_0000, 1, 32, Flags { nuw: true, ..plain }).is_err());
        assert_eq!(binary(BinOp::AShr, 0x80, 7, 8, plain), Ok(0xff));
        assert_eq!(binary(BinOp::LShr, 0x80, 7, 8, plain), Ok(1));
        assert!(binary(BinOp::AShr, 0x81, 1, 8, exact).is_err());
        assert_eq!(binary(BinOp::Shl, 1, 63, 64, plain), Ok(1 << 63));
        assert!(binary(BinOp::Or, 3, 1, 8, Flags { disjoint: true, ..plain }).is_err());
        assert_eq!(binary(BinOp::Or, 2, 1, 8, Flags { disjoint: true, ..plain }), Ok(3));
    }

    #[test]
    fn compares_casts_intrinsics() {
        assert!(icmp(Pred::Slt, 0xff, 0, 8) && !icmp(Pred::Ult, 0xff, 0, 8));
        assert!(icmp(Pred::Sge, 1, 1, 1) && icmp(Pred::Slt, 1, 0, 1)); // i1 true is -1
        let plain = Flags::default();
        assert_eq!(cast(CastOp::SExt, 0x80, 8, 32, plain), Ok(0xffff_ff80));
        assert_eq!(cast(CastOp::ZExt, 0x80, 8, 32, plain), Ok(0x80));
        assert!(cast(CastOp::ZExt, 0x80, 8, 32, Flags { nneg: true, ..plain }).is_err());
        assert_eq!(cast(CastOp::Trunc, 0x1ff, 32, 8, plain), Ok(0xff));
        assert!(cast(CastOp::Trunc, 0x1ff, 32, 8, Flags { nuw: true, ..plain }).is_err());
        assert!(cast(CastOp::Trunc, 0xff, 32, 8, Flags { nsw: true, ..plain }).is_err());
        assert_eq!(cast(CastOp::Trunc, 0xffff_ffff, 32, 8, Flags { nsw: true, ..plain }), Ok(0xff));
        assert_eq!(intrinsic(Intrinsic::SMin, &[0xff, 1], 8), Ok(Some(0xff)));
        assert_eq!(intrinsic(Intrinsic::UMin, &[0xff, 1], 8), Ok(Some(1)));
        assert_eq!(intrinsic(Intrinsic::Abs, &[0xfe, 0], 8), Ok(Some(2)));
        assert_eq!(intrinsic(Intrinsic::Abs, &[0x80, 0], 8), Ok(Some(0x80)));
        assert!(intrinsic(Intrinsic::Abs, &[0x80, 1], 8).is_err());
        assert_eq!(intrinsic(Intrinsic::Ctlz, &[1, 0], 32), Ok(Some(31)));
        assert_eq!(intrinsic(Intrinsic::Ctlz, &[0, 0], 32), Ok(Some(32)));
        assert!(intrinsic(Intrinsic::Cttz, &[0, 1], 32).is_err());
        assert_eq!(intrinsic(Intrinsic::Cttz, &[8, 1], 32), Ok(Some(3)));
        assert_eq!(intrinsic(Intrinsic::Ctpop, &[0xff], 8), Ok(Some(8)));
        assert_eq!(intrinsic(Intrinsic::Assume, &[1], 0), Ok(None));
        assert!(intrinsic(Intrinsic::Assume, &[0], 0).is_err());
    }

    #[test]
    fn switch_and_poison_operand() {
        let f = Func {
            name: "sw".into(),
            unavailable: None,
            params: vec![8],
            ret: Some(8),
            blocks: vec![
                Block {
                    phis: vec![],
                    insts: vec![],
                    term: Term::Switch { c: Arg(0), default: 1, cases: vec![(3, 2), (0xff, 3)] },
                },
                Block { phis: vec![], insts: vec![], term: Term::Ret(Some(Const(10))) },
                Block { phis: vec![], insts: vec![], term: Term::Ret(Some(Const(30))) },
                Block {
                    phis: vec![],
                    insts: vec![],
                    term: Term::Ret(Some(Opaque(Refusal::Poison("poison or undef operand")))),
                },
            ],
            slots: 0,
        };
        let mut p = Funcs(vec![Rc::new(f)]);
        assert_eq!(evaluate(&mut p, 0, &[3], BIG).unwrap().0, 30);
        assert_eq!(evaluate(&mut p, 0, &[4], BIG).unwrap().0, 10);
        assert!(matches!(evaluate(&mut p, 0, &[0xff], BIG), Err(Refusal::Poison(_))));
        // Arguments are read at their parameter's width.
        assert_eq!(evaluate(&mut p, 0, &[0x103], BIG).unwrap().0, 30);
    }

    /// `f(n) = (n & 1) ? 3n + 1 : n >>exact 1` as instcombine writes collatz's step: the
    /// `lshr exact` of an odd `n` is poison, harmless because the select takes the other arm.
    #[test]
    fn poison_in_an_arm_not_taken_is_harmless() {
        let i = |op, slot| Inst { op, width: 32, slot: Some(slot) };
        let exact = Flags { exact: true, ..Flags::default() };
        let f = Func {
            name: "step".into(),
            unavailable: None,
            params: vec![32],
            ret: Some(32),
            blocks: vec![Block {
                phis: vec![],
                insts: vec![
                    i(Op::Bin { op: BinOp::LShr, a: Arg(0), b: Const(1), flags: exact }, 0),
                    i(
                        Op::Bin { op: BinOp::Mul, a: Arg(0), b: Const(3), flags: Flags::default() },
                        1,
                    ),
                    i(
                        Op::Bin {
                            op: BinOp::Add,
                            a: Slot(1),
                            b: Const(1),
                            flags: Flags::default(),
                        },
                        2,
                    ),
                    i(
                        Op::Bin { op: BinOp::And, a: Arg(0), b: Const(1), flags: Flags::default() },
                        3,
                    ),
                    Inst {
                        op: Op::Cast {
                            op: CastOp::Trunc,
                            a: Slot(3),
                            from: 32,
                            flags: Flags::default(),
                        },
                        width: 1,
                        slot: Some(4),
                    },
                    i(Op::Select { c: Slot(4), a: Slot(2), b: Slot(0) }, 5),
                ],
                term: Term::Ret(Some(Slot(5))),
            }],
            slots: 6,
        };
        let mut p = Funcs(vec![Rc::new(f.clone())]);
        assert_eq!(evaluate(&mut p, 0, &[7], BIG).unwrap().0, 22);
        assert_eq!(evaluate(&mut p, 0, &[8], BIG).unwrap().0, 4);
        // Returning the poison refuses.
        let mut g = f.clone();
        g.blocks[0].term = Term::Ret(Some(Slot(0)));
        let mut p = Funcs(vec![Rc::new(g)]);
        assert_eq!(
            evaluate(&mut p, 0, &[7], BIG),
            Err(Refusal::Poison("lshr exact shifts out a set bit"))
        );
        // So does a branch on poison, and a poison divisor; poison flows through add and icmp.
        let mut h = f;
        h.blocks[0].insts.push(i(
            Op::Bin { op: BinOp::Add, a: Slot(0), b: Const(1), flags: Flags::default() },
            6,
        ));
        h.blocks[0].insts.push(Inst {
            op: Op::ICmp { pred: Pred::Eq, a: Slot(6), b: Const(0), from: 32, samesign: false },
            width: 1,
            slot: Some(7),
        });
        h.blocks[0].term = Term::CondBr { c: Slot(7), then: 1, other: 1 };
        h.blocks.push(Block { phis: vec![], insts: vec![], term: Term::Ret(Some(Const(0))) });
        h.slots = 8;
        let mut p = Funcs(vec![Rc::new(h.clone())]);
        assert!(matches!(evaluate(&mut p, 0, &[7], BIG), Err(Refusal::Poison(_))));
        assert_eq!(evaluate(&mut p, 0, &[8], BIG).unwrap().0, 0);
        h.blocks[0].term = Term::Ret(Some(Slot(8)));
        h.blocks[0].insts.push(i(
            Op::Bin { op: BinOp::UDiv, a: Const(1), b: Slot(0), flags: Flags::default() },
            8,
        ));
        h.slots = 9;
        let mut p = Funcs(vec![Rc::new(h)]);
        assert!(matches!(evaluate(&mut p, 0, &[7], BIG), Err(Refusal::Poison(_))));
    }
}
