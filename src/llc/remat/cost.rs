//! nv-remat's cost table (the rule; no LLVM call here): what recomputing an instruction costs,
//! or [`Kind::Fixed`] when it may not be recomputed. The adapter (src/llc/remat/adapter.rs)
//! supplies the instruction's opcode and, on demand, the facts the table asks for
//! ([`Facts`]).
//!
//! Recomputable: integer and floating-point arithmetic, comparisons, casts, selects and GEPs
//! (one per variable index), reads of the special registers that do not change while a thread
//! runs, and with `remat_load` loads that cannot see a store: constant and param space, and
//! `!invariant.load` loads (llc tags loads through `const __restrict__` pointers so) as
//! [`Kind::Load`], which are not re-issued inside deeper loops (each clone is another memory
//! access; re-issuing them in loops raised ptxas's spills under a tight cap). Never: divisions
//! and remainders (tens of instructions on a GPU), `freeze`
//! (each copy may pick another value), PHIs, allocas, other calls, other memory accesses.
use super::plan::Kind;
use crate::analysis::gpu::{addrspace, Sreg};
use llvm_sys::LLVMOpcode;

/// Instructions per arithmetic operation, comparison, cast or select.
pub const ARITH_COST: u32 = 1;
/// Instructions per conversion between integer and floating point or between float widths.
pub const CONVERSION_COST: u32 = 2;
/// Instructions per read of a special register (`S2R`).
pub const SREG_READ_COST: u32 = 1;
/// Instructions per load re-issued from constant, param or invariant memory.
pub const LOAD_COST: u32 = 2;

/// A load, as the table asks about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    /// Its pointer's address space.
    pub space: u32,
    /// Tagged `!invariant.load`.
    pub invariant: bool,
    /// Neither volatile nor atomic.
    pub simple: bool,
}

/// The facts the table asks of one instruction, each only for the opcodes that need it.
pub trait Facts {
    /// A GEP's indices that are not constants.
    fn variable_indices(&self) -> u32;
    /// A call's callee name when it calls a function directly; `None` for an indirect call.
    fn callee(&self) -> Option<String>;
    /// A load's facts.
    fn load(&self) -> Load;
}

/// The cost of recomputing an instruction of `opcode` with `facts`.
pub fn classify(opcode: LLVMOpcode, facts: &dyn Facts, remat_load: bool) -> Kind {
    use LLVMOpcode::*;
    match opcode {
        LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
        | LLVMXor | LLVMICmp | LLVMSelect | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMBitCast
        | LLVMPtrToInt | LLVMIntToPtr | LLVMAddrSpaceCast | LLVMFAdd | LLVMFSub | LLVMFMul
        | LLVMFNeg | LLVMFCmp => Kind::Cheap(ARITH_COST),
        LLVMFPExt | LLVMFPTrunc | LLVMSIToFP | LLVMUIToFP | LLVMFPToSI | LLVMFPToUI => {
            Kind::Cheap(CONVERSION_COST)
        }
        LLVMGetElementPtr => Kind::Cheap(facts.variable_indices().max(1)),
        LLVMCall => match facts.callee().as_deref().and_then(Sreg::from_intrinsic) {
            Some(_) => Kind::Cheap(SREG_READ_COST),
            None => Kind::Fixed,
        },
        LLVMLoad if remat_load => {
            let l = facts.load();
            if !l.simple {
                Kind::Fixed
            } else if l.space == addrspace::CONST || l.space == addrspace::PARAM {
                Kind::Cheap(LOAD_COST)
            } else if l.invariant {
                Kind::Load(LOAD_COST)
            } else {
                Kind::Fixed
            }
        }
        _ => Kind::Fixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LLVMOpcode::*;

    struct Fake {
        indices: u32,
        callee: Option<&'static str>,
        load: Load,
    }

    impl Facts for Fake {
        fn variable_indices(&self) -> u32 {
            self.indices
        }
        fn callee(&self) -> Option<String> {
            self.callee.map(str::to_string)
        }
        fn load(&self) -> Load {
            self.load
        }
    }

    const PLAIN: Fake = Fake {
        indices: 0,
        callee: None,
        load: Load { space: addrspace::GLOBAL, invariant: false, simple: true },
    };

    #[test]
    fn the_table() {
        assert_eq!(classify(LLVMAdd, &PLAIN, false), Kind::Cheap(ARITH_COST));
        assert_eq!(classify(LLVMSIToFP, &PLAIN, false), Kind::Cheap(CONVERSION_COST));
        assert_eq!(classify(LLVMSDiv, &PLAIN, true), Kind::Fixed);
        assert_eq!(classify(LLVMFreeze, &PLAIN, true), Kind::Fixed);
        assert_eq!(classify(LLVMGetElementPtr, &PLAIN, false), Kind::Cheap(1));
        assert_eq!(
            classify(LLVMGetElementPtr, &Fake { indices: 3, ..PLAIN }, false),
            Kind::Cheap(3)
        );
        let tid = Fake { callee: Some("llvm.nvvm.read.ptx.sreg.tid.x"), ..PLAIN };
        assert_eq!(classify(LLVMCall, &tid, false), Kind::Cheap(SREG_READ_COST));
        let clock = Fake { callee: Some("llvm.nvvm.read.ptx.sreg.clock"), ..PLAIN };
        assert_eq!(classify(LLVMCall, &clock, false), Kind::Fixed);
        assert_eq!(classify(LLVMCall, &PLAIN, false), Kind::Fixed);
    }

    #[test]
    fn loads_only_with_remat_load_and_only_from_memory_no_thread_writes() {
        let param = Fake { load: Load { space: addrspace::PARAM, ..PLAIN.load }, ..PLAIN };
        assert_eq!(classify(LLVMLoad, &param, false), Kind::Fixed);
        assert_eq!(classify(LLVMLoad, &param, true), Kind::Cheap(LOAD_COST));
        let invariant = Fake { load: Load { invariant: true, ..PLAIN.load }, ..PLAIN };
        assert_eq!(classify(LLVMLoad, &invariant, true), Kind::Load(LOAD_COST));
        assert_eq!(classify(LLVMLoad, &PLAIN, true), Kind::Fixed);
        let volatile = Fake { load: Load { simple: false, ..param.load }, ..PLAIN };
        assert_eq!(classify(LLVMLoad, &volatile, true), Kind::Fixed);
    }
}
