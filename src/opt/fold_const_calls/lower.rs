//! The image of an LLVM function for the interpreter (interp.rs): its blocks, PHIs,
//! instructions and terminators, read once through LLVM's C API when a call first reaches it.
//! Everything the interpreter does not model becomes an `Unsupported` instruction or an
//! `Opaque` operand carrying the reason, so that only what a run executes can refuse it.
use super::interp::{
    BinOp, Block, CastOp, Flags, Func, FuncId, Inst, Intrinsic, Op, Operand, Phi, Pred, Program,
    Refusal, Term,
};
use crate::analysis::ir::name;
use crate::fast_hash::HashMap;
use inkwell::values::InstructionValue;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::{LLVMIntPredicate, LLVMLinkage, LLVMOpcode, LLVMTailCallKind, LLVMTypeKind};
use std::rc::Rc;

/// The widest integer the interpreter holds.
pub const MAX_WIDTH: u32 = 64;

/// The width of an integer type of at most [`MAX_WIDTH`] bits; None for any other type.
pub fn int_width(t: LLVMTypeRef) -> Option<u32> {
    // SAFETY: a live type.
    unsafe {
        if LLVMGetTypeKind(t) != LLVMTypeKind::LLVMIntegerTypeKind {
            return None;
        }
        let w = LLVMGetIntTypeWidth(t);
        (w <= MAX_WIDTH).then_some(w)
    }
}

/// Whether a linkage lets another definition replace this body at link time (LLVM's
/// `GlobalValue::isInterposable`): weak, linkonce (not `_odr`), extern_weak, common.
fn interposable(l: LLVMLinkage) -> bool {
    use LLVMLinkage::*;
    matches!(
        l,
        LLVMWeakAnyLinkage | LLVMLinkOnceAnyLinkage | LLVMExternalWeakLinkage | LLVMCommonLinkage
    )
}

/// Whether function `f` carries the enum attribute `attr` on itself.
pub fn has_fn_attr(f: LLVMValueRef, attr: &str) -> bool {
    // SAFETY: a live function; the attribute name is looked up, not created.
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(attr.as_ptr().cast(), attr.len());
        kind != 0
            && !LLVMGetEnumAttributeAtIndex(f, llvm_sys::LLVMAttributeFunctionIndex, kind).is_null()
    }
}

/// Why a function body cannot stand for its calls (None when it can): a declaration, a body
/// another definition may replace at link time, or `optnone`.
pub fn body_unavailable(f: LLVMValueRef) -> Option<String> {
    // SAFETY: a live function.
    unsafe {
        if LLVMIsDeclaration(f) != 0 {
            return Some(format!("calls @{}, which has no body here", name(f)));
        }
        if interposable(LLVMGetLinkage(f)) {
            return Some(format!(
                "@{}'s body may be replaced at link time (interposable)",
                name(f)
            ));
        }
    }
    if has_fn_attr(f, "optnone") {
        return Some(format!("@{} is optnone", name(f)));
    }
    None
}

/// The functions of a module met so far, their ids and images.
#[derive(Default)]
pub struct Lowering {
    ids: HashMap<LLVMValueRef, FuncId>,
    funcs: Vec<LLVMValueRef>,
    images: HashMap<FuncId, Rc<Func>>,
}

impl Lowering {
    pub fn id(&mut self, f: LLVMValueRef) -> FuncId {
        let next = self.funcs.len();
        let id = *self.ids.entry(f).or_insert(next);
        if id == next {
            self.funcs.push(f);
        }
        id
    }
}

impl Program for Lowering {
    fn func(&mut self, id: FuncId) -> Rc<Func> {
        if let Some(f) = self.images.get(&id) {
            return f.clone();
        }
        let f = Rc::new(lower(self, self.funcs[id]));
        self.images.insert(id, f.clone());
        f
    }
}

/// An instruction's opcode as IR spells it.
fn opcode_text(i: LLVMValueRef) -> String {
    // SAFETY: callers pass a live instruction.
    let inst = unsafe { InstructionValue::new(i) };
    crate::analysis::ir::facts::opcode_name(inst).to_string_lossy().into_owned()
}

fn unsupported(why: impl Into<String>) -> Refusal {
    Refusal::Unsupported(why.into())
}

/// What one function's instructions are known as while it is lowered.
struct Names {
    slots: HashMap<LLVMValueRef, usize>,
    blocks: HashMap<LLVMBasicBlockRef, usize>,
    args: HashMap<LLVMValueRef, usize>,
}

impl Names {
    fn operand(&self, v: LLVMValueRef) -> Operand {
        // SAFETY: a live value of the function being lowered.
        unsafe {
            if !LLVMIsAConstantInt(v).is_null() {
                return match int_width(LLVMTypeOf(v)) {
                    Some(_) => Operand::Const(LLVMConstIntGetZExtValue(v)),
                    None => Operand::Opaque(unsupported("an integer wider than 64 bits")),
                };
            }
            if LLVMIsPoison(v) != 0 {
                return Operand::Poison;
            }
            if LLVMIsUndef(v) != 0 {
                return Operand::Opaque(unsupported("reads undef"));
            }
        }
        if let Some(&n) = self.args.get(&v) {
            return Operand::Arg(n);
        }
        if let Some(&s) = self.slots.get(&v) {
            return Operand::Slot(s);
        }
        // SAFETY: as above.
        let what = unsafe {
            if !LLVMIsAInstruction(v).is_null() {
                "reads a value that is not an integer of at most 64 bits"
            } else {
                "reads a constant that is not an integer (global, expression, float)"
            }
        };
        Operand::Opaque(unsupported(what))
    }

    fn op(&self, i: LLVMValueRef, n: u32) -> Operand {
        // SAFETY: a live instruction with at least n + 1 operands (callers' opcodes).
        self.operand(unsafe { LLVMGetOperand(i, n) })
    }

    fn block(&self, bb: LLVMBasicBlockRef) -> usize {
        self.blocks[&bb]
    }
}

/// The image of function `f`.
fn lower(l: &mut Lowering, f: LLVMValueRef) -> Func {
    let fname = name(f);
    let mut image = Func {
        name: fname.clone(),
        unavailable: None,
        params: Vec::new(),
        ret: None,
        blocks: Vec::new(),
        slots: 0,
    };
    if let Some(why) = body_unavailable(f) {
        image.unavailable = Some(unsupported(why));
        return image;
    }
    // SAFETY: a live function definition; it is only read.
    unsafe {
        let fty = LLVMGlobalGetValueType(f);
        let ret = LLVMGetReturnType(fty);
        if LLVMGetTypeKind(ret) != LLVMTypeKind::LLVMVoidTypeKind {
            match int_width(ret) {
                Some(w) => image.ret = Some(w),
                None => {
                    image.unavailable =
                        Some(unsupported(format!("@{fname} returns other than an integer")));
                    return image;
                }
            }
        }
        let mut names = Names {
            slots: HashMap::default(),
            blocks: HashMap::default(),
            args: HashMap::default(),
        };
        for n in 0..LLVMCountParams(f) {
            let p = LLVMGetParam(f, n);
            match int_width(LLVMTypeOf(p)) {
                Some(w) => image.params.push(w),
                None => {
                    image.unavailable = Some(unsupported(format!(
                        "@{fname} has a parameter that is not an integer of at most 64 bits"
                    )));
                    return image;
                }
            }
            names.args.insert(p, n as usize);
        }
        // Number the blocks and the integer-valued instructions first (operands may refer
        // forward: PHIs, and blocks in any order).
        let mut blocks = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            names.blocks.insert(bb, blocks.len());
            blocks.push(bb);
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                if int_width(LLVMTypeOf(i)).is_some() {
                    let s = names.slots.len();
                    names.slots.insert(i, s);
                }
                i = LLVMGetNextInstruction(i);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
        image.slots = names.slots.len();
        for &bb in &blocks {
            let mut block = Block { phis: Vec::new(), insts: Vec::new(), term: Term::Unreachable };
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                let next = LLVMGetNextInstruction(i);
                let opcode = LLVMGetInstructionOpcode(i);
                if next.is_null() {
                    block.term = terminator(&names, i, opcode);
                } else if opcode == LLVMOpcode::LLVMPHI {
                    match names.slots.get(&i) {
                        Some(&slot) => {
                            let incoming = (0..LLVMCountIncoming(i))
                                .map(|k| {
                                    (
                                        names.block(LLVMGetIncomingBlock(i, k)),
                                        names.operand(LLVMGetIncomingValue(i, k)),
                                    )
                                })
                                .collect();
                            block.phis.push(Phi { slot, incoming });
                        }
                        // A PHI of another type: running the block refuses.
                        None => block.insts.insert(
                            0,
                            Inst {
                                op: Op::Unsupported(unsupported(
                                    "a PHI that is not an integer of at most 64 bits",
                                )),
                                width: 0,
                                slot: None,
                            },
                        ),
                    }
                } else {
                    let width = int_width(LLVMTypeOf(i)).unwrap_or(0);
                    let op = instruction(l, &names, i, opcode);
                    block.insts.push(Inst { op, width, slot: names.slots.get(&i).copied() });
                }
                i = next;
            }
            image.blocks.push(block);
        }
    }
    image
}

/// The terminator of a block.
///
/// # Safety
/// `i` is a live terminator of the function `names` describes.
unsafe fn terminator(names: &Names, i: LLVMValueRef, opcode: LLVMOpcode) -> Term {
    match opcode {
        LLVMOpcode::LLVMRet => {
            if LLVMGetNumOperands(i) == 0 {
                Term::Ret(None)
            } else {
                Term::Ret(Some(names.op(i, 0)))
            }
        }
        LLVMOpcode::LLVMBr => {
            if LLVMIsConditional(i) != 0 {
                Term::CondBr {
                    c: names.operand(LLVMGetCondition(i)),
                    then: names.block(LLVMGetSuccessor(i, 0)),
                    other: names.block(LLVMGetSuccessor(i, 1)),
                }
            } else {
                Term::Br(names.block(LLVMGetSuccessor(i, 0)))
            }
        }
        LLVMOpcode::LLVMSwitch => {
            // Successor 0 is the default block; successor k > 0 is the block of case k.
            let mut cases = Vec::new();
            for k in 1..LLVMGetNumSuccessors(i) {
                match names.operand(LLVMGetSwitchCaseValue(i, k)) {
                    Operand::Const(v) => cases.push((v, names.block(LLVMGetSuccessor(i, k)))),
                    _ => return Term::Unsupported(unsupported("a switch case wider than 64 bits")),
                }
            }
            Term::Switch {
                c: names.op(i, 0),
                default: names.block(LLVMGetSwitchDefaultDest(i)),
                cases,
            }
        }
        LLVMOpcode::LLVMUnreachable => Term::Unreachable,
        _ => Term::Unsupported(unsupported(format!("executes `{}`", opcode_text(i)))),
    }
}

/// A non-PHI, non-terminator instruction.
///
/// # Safety
/// `i` is a live instruction of the function `names` describes.
unsafe fn instruction(l: &mut Lowering, names: &Names, i: LLVMValueRef, opcode: LLVMOpcode) -> Op {
    use LLVMOpcode::*;
    let int_result = names.slots.contains_key(&i);
    let bin = |op: BinOp, flags: Flags| Op::Bin { op, a: names.op(i, 0), b: names.op(i, 1), flags };
    let wrap = || Flags { nuw: LLVMGetNUW(i) != 0, nsw: LLVMGetNSW(i) != 0, ..Flags::default() };
    let exact = || Flags { exact: LLVMGetExact(i) != 0, ..Flags::default() };
    let op = match opcode {
        _ if !int_result && opcode != LLVMCall => None,
        LLVMAdd => Some(bin(BinOp::Add, wrap())),
        LLVMSub => Some(bin(BinOp::Sub, wrap())),
        LLVMMul => Some(bin(BinOp::Mul, wrap())),
        LLVMShl => Some(bin(BinOp::Shl, wrap())),
        LLVMUDiv => Some(bin(BinOp::UDiv, exact())),
        LLVMSDiv => Some(bin(BinOp::SDiv, exact())),
        LLVMLShr => Some(bin(BinOp::LShr, exact())),
        LLVMAShr => Some(bin(BinOp::AShr, exact())),
        LLVMURem => Some(bin(BinOp::URem, Flags::default())),
        LLVMSRem => Some(bin(BinOp::SRem, Flags::default())),
        LLVMAnd => Some(bin(BinOp::And, Flags::default())),
        LLVMXor => Some(bin(BinOp::Xor, Flags::default())),
        LLVMOr => {
            Some(bin(BinOp::Or, Flags { disjoint: LLVMGetIsDisjoint(i) != 0, ..Flags::default() }))
        }
        LLVMICmp => int_width(LLVMTypeOf(LLVMGetOperand(i, 0))).map(|from| Op::ICmp {
            pred: pred(LLVMGetICmpPredicate(i)),
            a: names.op(i, 0),
            b: names.op(i, 1),
            from,
            samesign: LLVMGetICmpSameSign(i) != 0,
        }),
        LLVMSelect => int_width(LLVMTypeOf(LLVMGetOperand(i, 0)))
            .filter(|&w| w == 1)
            .map(|_| Op::Select { c: names.op(i, 0), a: names.op(i, 1), b: names.op(i, 2) }),
        LLVMZExt | LLVMSExt | LLVMTrunc => {
            int_width(LLVMTypeOf(LLVMGetOperand(i, 0))).map(|from| {
                let (op, flags) = match opcode {
                    LLVMZExt => {
                        (CastOp::ZExt, Flags { nneg: LLVMGetNNeg(i) != 0, ..Flags::default() })
                    }
                    LLVMSExt => (CastOp::SExt, Flags::default()),
                    _ => (CastOp::Trunc, wrap()),
                };
                Op::Cast { op, a: names.op(i, 0), from, flags }
            })
        }
        LLVMFreeze => Some(Op::Freeze(names.op(i, 0))),
        LLVMCall => return call(l, names, i, int_result),
        _ => None,
    };
    op.unwrap_or_else(|| {
        let what = opcode_text(i);
        let why = match opcode {
            LLVMStore | LLVMAtomicRMW | LLVMAtomicCmpXchg => format!("writes memory (`{what}`)"),
            LLVMLoad => "reads memory (`load`)".to_string(),
            LLVMAlloca => "allocates memory (`alloca`)".to_string(),
            LLVMGetElementPtr => "computes an address (`getelementptr`)".to_string(),
            LLVMFence => "executes a `fence`".to_string(),
            _ if !int_result => {
                format!("executes `{what}` on values other than integers of at most 64 bits")
            }
            _ => format!("executes `{what}`"),
        };
        Op::Unsupported(unsupported(why))
    })
}

/// A call: to a function with a body, or to an intrinsic the interpreter runs.
///
/// # Safety
/// As for [`instruction`]; `i` is a call.
unsafe fn call(l: &mut Lowering, names: &Names, i: LLVMValueRef, int_result: bool) -> Op {
    let callee = LLVMGetCalledValue(i);
    if !LLVMIsAInlineAsm(callee).is_null() {
        return Op::Unsupported(unsupported("executes inline asm"));
    }
    if LLVMIsAFunction(callee).is_null() {
        return Op::Unsupported(unsupported("makes an indirect call"));
    }
    if LLVMGetNumOperandBundles(i) != 0 {
        return Op::Unsupported(unsupported("makes a call with operand bundles"));
    }
    if LLVMGetCalledFunctionType(i) != LLVMGlobalGetValueType(callee) {
        return Op::Unsupported(unsupported("calls a function through another function type"));
    }
    let ret = LLVMGetReturnType(LLVMGlobalGetValueType(callee));
    let void = LLVMGetTypeKind(ret) == LLVMTypeKind::LLVMVoidTypeKind;
    if !void && !int_result {
        return Op::Unsupported(unsupported(format!(
            "calls @{}, which returns other than an integer",
            name(callee)
        )));
    }
    let nargs = LLVMGetNumArgOperands(i);
    let args: Vec<Operand> = (0..nargs).map(|k| names.op(i, k)).collect();
    let id = LLVMGetIntrinsicID(callee);
    if id != 0 {
        let mut len = 0usize;
        let base = LLVMIntrinsicGetName(id, &mut len);
        let base =
            std::str::from_utf8(std::slice::from_raw_parts(base.cast::<u8>(), len)).unwrap_or("");
        return match Intrinsic::of_name(base) {
            Some(which) => Op::Intrinsic { which, args },
            None => Op::Unsupported(unsupported(format!("calls {base}"))),
        };
    }
    if let Some(why) = body_unavailable(callee) {
        return Op::Unsupported(unsupported(why));
    }
    Op::Call { callee: l.id(callee), args }
}

/// Whether a call must stay a call (`musttail`).
pub fn is_musttail(call: LLVMValueRef) -> bool {
    // SAFETY: a live call instruction.
    unsafe { LLVMGetTailCallKind(call) == LLVMTailCallKind::LLVMTailCallKindMustTail }
}

fn pred(p: LLVMIntPredicate) -> Pred {
    use LLVMIntPredicate::*;
    match p {
        LLVMIntEQ => Pred::Eq,
        LLVMIntNE => Pred::Ne,
        LLVMIntUGT => Pred::Ugt,
        LLVMIntUGE => Pred::Uge,
        LLVMIntULT => Pred::Ult,
        LLVMIntULE => Pred::Ule,
        LLVMIntSGT => Pred::Sgt,
        LLVMIntSGE => Pred::Sge,
        LLVMIntSLT => Pred::Slt,
        LLVMIntSLE => Pred::Sle,
    }
}
