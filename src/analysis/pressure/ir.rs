//! Builds the estimator's [`Graph`] from a function's IR: every argument and every instruction
//! with a register result is a value, weighted by its type ([`units`]); constants, globals,
//! blocks and metadata are not (they are immediates or addresses, not registers). The value
//! numbering is kept so callers can map liveness facts back to IR.
use super::{Block, Graph, Inst, Phi, Units};
use crate::analysis::ir;
use crate::fast_hash::HashMap;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::{LLVMGetModuleDataLayout, LLVMPointerSizeForAS};
use llvm_sys::{LLVMOpcode, LLVMTypeKind};

/// A function's liveness graph and the numbering behind it.
pub struct Numbered {
    pub graph: Graph,
    /// Value number -> IR value.
    pub values: Vec<LLVMValueRef>,
    /// IR value -> value number.
    pub index: HashMap<LLVMValueRef, usize>,
    /// Block number -> IR block (block 0 is the entry).
    pub blocks: Vec<LLVMBasicBlockRef>,
    pub block_index: HashMap<LLVMBasicBlockRef, usize>,
}

/// The registers a value of type `ty` takes; `None` for types that take none (void, labels,
/// metadata, tokens). Pointer widths come from the module's data layout.
///
/// # Safety
/// `ty` is a live type and `module` the live module whose data layout applies.
pub unsafe fn units(ty: LLVMTypeRef, module: llvm_sys::prelude::LLVMModuleRef) -> Option<Units> {
    use LLVMTypeKind::*;
    let bits = |t: LLVMTypeRef| -> Option<u32> {
        match LLVMGetTypeKind(t) {
            LLVMIntegerTypeKind => Some(LLVMGetIntTypeWidth(t)),
            LLVMHalfTypeKind | LLVMBFloatTypeKind => Some(16),
            LLVMFloatTypeKind => Some(32),
            LLVMDoubleTypeKind => Some(64),
            LLVMFP128TypeKind => Some(128),
            LLVMPointerTypeKind => {
                let dl = LLVMGetModuleDataLayout(module);
                Some(8 * LLVMPointerSizeForAS(dl, LLVMGetPointerAddressSpace(t)))
            }
            _ => None,
        }
    };
    match LLVMGetTypeKind(ty) {
        LLVMVectorTypeKind => {
            let b = bits(LLVMGetElementType(ty))?;
            Some(Units::vector(b, LLVMGetVectorSize(ty)))
        }
        LLVMStructTypeKind => {
            let n = LLVMCountStructElementTypes(ty);
            let fields: Vec<Units> =
                (0..n).filter_map(|k| units(LLVMStructGetTypeAtIndex(ty, k), module)).collect();
            Some(Units::sum(fields))
        }
        LLVMArrayTypeKind => {
            let e = units(LLVMGetElementType(ty), module)?;
            let n = LLVMGetArrayLength2(ty) as u32;
            Some(Units { regs: e.regs * n, preds: e.preds * n })
        }
        _ => bits(ty).map(Units::scalar),
    }
}

/// Numbers `f`'s values and blocks and records, per block, its successors, PHIs and
/// instructions with the values they define and read.
pub fn graph(f: FunctionValue) -> Numbered {
    // SAFETY: f is a live function with a body; every handle read here belongs to it.
    unsafe {
        let module = LLVMGetGlobalParent(f.as_value_ref());
        let mut n = Numbered {
            graph: Graph::default(),
            values: Vec::new(),
            index: HashMap::default(),
            blocks: Vec::new(),
            block_index: HashMap::default(),
        };
        let number = |n: &mut Numbered, v: LLVMValueRef| {
            if let Some(u) = units(LLVMTypeOf(v), module) {
                n.index.insert(v, n.values.len());
                n.values.push(v);
                n.graph.weights.push(u);
            }
        };
        for a in f.get_param_iter() {
            number(&mut n, a.as_value_ref());
        }
        for bb in f.get_basic_block_iter() {
            n.block_index.insert(bb.as_mut_ptr(), n.blocks.len());
            n.blocks.push(bb.as_mut_ptr());
            for i in ir::instructions(bb) {
                number(&mut n, i.as_value_ref());
            }
        }
        for bb in f.get_basic_block_iter() {
            let mut block = Block::default();
            for i in ir::instructions(bb) {
                let raw = i.as_value_ref();
                let def = n.index.get(&raw).copied();
                if LLVMGetInstructionOpcode(raw) == LLVMOpcode::LLVMPHI {
                    let incoming = (0..LLVMCountIncoming(raw))
                        .map(|k| {
                            let from = n.block_index[&LLVMGetIncomingBlock(raw, k)];
                            (from, n.index.get(&LLVMGetIncomingValue(raw, k)).copied())
                        })
                        .collect();
                    if let Some(def) = def {
                        block.phis.push(Phi { def, incoming });
                    }
                    continue;
                }
                let uses = (0..i.get_num_operands())
                    .filter_map(|k| n.index.get(&ir::operand(i, k)).copied())
                    .collect();
                block.insts.push(Inst { def, uses });
            }
            if let Some(term) = bb.get_terminator() {
                block.succs =
                    ir::successors(term).map(|s| n.block_index[&s.as_mut_ptr()]).collect();
            }
            n.graph.blocks.push(block);
        }
        n
    }
}

/// The peak register estimate of `f`'s IR (`estimate(&graph(f).graph).max().regs`) for the
/// machine passes. Once instruction selection has run, a function's IR no longer changes (the
/// machine passes rewrite machine code only), so the passes that ask in turn (nv-param-opt,
/// nv-mul-wide-split) share one estimate: the last one is kept with the function, its module
/// and its block and instruction counts, and reused while all four match.
pub fn machine_phase_peak(f: FunctionValue) -> u32 {
    type Key = (usize, usize, usize, usize);
    static LAST: std::sync::Mutex<Option<(Key, u32)>> = std::sync::Mutex::new(None);
    let blocks: Vec<_> = f.get_basic_block_iter().collect();
    let insts: usize = blocks.iter().map(|&bb| ir::instructions(bb).count()).sum();
    // SAFETY: f is a live function.
    let module = unsafe { LLVMGetGlobalParent(f.as_value_ref()) };
    let key = (f.as_value_ref() as usize, module as usize, blocks.len(), insts);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((k, peak)) = *last {
        if k == key {
            return peak;
        }
    }
    let peak = super::estimate(&graph(f).graph).max().regs;
    *last = Some((key, peak));
    peak
}
