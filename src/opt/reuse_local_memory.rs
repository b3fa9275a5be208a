//! `nv-reuse-local-memory`: gives each private buffer that only feeds one `vprintf` call a
//! lifetime that ends at the call (`llvm.lifetime.start` before its first store,
//! `llvm.lifetime.end` right after the call), so that llc's stack coloring lets the buffers of
//! different `printf` calls share one stretch of local memory. It runs in cicc's
//! `reuse-local-memory` slot (nvvm-reuse-local-memory; docs/SLOTS.md), whose own rule is not
//! known: this is a stand-in that reuses local memory in the one case whose safety follows from
//! the IR alone.
//!
//! Why: clang lowers each device `printf` to a private struct of the arguments and
//! `vprintf(format, &struct)`, with no lifetime markers, so every call keeps its own buffer for
//! the whole kernel; nvcc's PTX has one buffer, as large as the largest, for all of them.
//! cuda-samples' `cgkernel` (three printf calls of 12, 4 and 8 bytes) has a 32-byte frame
//! (upstream too); nvcc's is 16.
//!
//! ```text
//! before                                          after
//! %a = alloca %printf_args                        %a = alloca %printf_args
//! ...                                             ...
//! store i32 %x, ptr addrspace(5) %a.local        call void @llvm.lifetime.start.p0(ptr %a)
//! %r = call i32 @vprintf(ptr @fmt, ptr %a)        store i32 %x, ptr addrspace(5) %a.local
//!                                                 %r = call i32 @vprintf(ptr @fmt, ptr %a)
//!                                                 call void @llvm.lifetime.end.p0(ptr %a)
//! ```
//!
//! The rule ([`decide`]): a static alloca of the entry block, not yet given lifetime markers,
//! whose every use, through address-space casts and GEPs, is a store of some other value into
//! it or its passing as `vprintf`'s argument buffer; exactly one such call; the stores and the
//! call in one block, every store before the call. `vprintf` reads the buffer during the call
//! and keeps nothing, so the buffer is dead before its first store and after the call.
//!
//! Knob: `-nv-disable-reuse-local-memory` (the slot also goes with `-lsa-opt=0`). Refuses,
//! with a `-nv-stats` counter: any other use (a load, a call other than vprintf, a store of the
//! pointer itself), more than one call, stores in another block or after the call, allocas with
//! markers already.
use crate::analysis::ir;
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;

pub const PASS: &str = "nv-reuse-local-memory";

/// The callee whose argument buffer this pass gives a lifetime (CUDA's device printf).
pub const BUFFER_CALLEE: &str = "vprintf";

/// What the uses of one alloca are, as the pass finds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    /// Blocks of the stores into the buffer, in order of the instructions' positions: (block
    /// index, position in block).
    pub stores: Vec<(usize, usize)>,
    /// The buffer calls (block index, position in block).
    pub calls: Vec<(usize, usize)>,
    /// A use that is neither (a load, another call, the pointer stored, a PHI, ...).
    pub other: bool,
    /// Lifetime markers already there.
    pub marked: bool,
}

/// Why an alloca is left alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    OtherUse,
    NotOneCall,
    NotBeforeTheCall,
    AlreadyMarked,
}

impl Refusal {
    pub fn counter(self) -> &'static str {
        match self {
            Refusal::OtherUse => "allocas left alone: a use other than stores and one vprintf",
            Refusal::NotOneCall => "allocas left alone: not exactly one vprintf call",
            Refusal::NotBeforeTheCall => {
                "allocas left alone: a store outside the call's block or after it"
            }
            Refusal::AlreadyMarked => "allocas left alone: lifetime markers already",
        }
    }
}

/// The rule: a buffer written only by stores that precede its single vprintf call in the call's
/// block gets a lifetime from its first store to the call.
pub fn decide(u: &Uses) -> Result<(), Refusal> {
    if u.marked {
        return Err(Refusal::AlreadyMarked);
    }
    if u.other {
        return Err(Refusal::OtherUse);
    }
    let [call] = u.calls[..] else { return Err(Refusal::NotOneCall) };
    if u.stores.iter().any(|&(b, p)| b != call.0 || p > call.1) {
        return Err(Refusal::NotBeforeTheCall);
    }
    Ok(())
}

/// Position of an instruction: (index of its block in `blocks`, index within the block).
fn position(blocks: &[LLVMBasicBlockRef], i: LLVMValueRef) -> Option<(usize, usize)> {
    let bb = ir::block_of(i)?;
    let b = blocks.iter().position(|&x| x == bb)?;
    // SAFETY: a live block of a live function.
    let mut cur = unsafe { LLVMGetFirstInstruction(bb) };
    let mut p = 0;
    while !cur.is_null() && cur != i {
        p += 1;
        // SAFETY: as above.
        cur = unsafe { LLVMGetNextInstruction(cur) };
    }
    (!cur.is_null()).then_some((b, p))
}

/// The uses of alloca `a`, followed through casts and GEPs; also the first store and the call.
fn uses_of(
    bbs: &[LLVMBasicBlockRef],
    a: LLVMValueRef,
) -> (Uses, Option<LLVMValueRef>, Option<LLVMValueRef>) {
    let mut u = Uses::default();
    let (mut first_store, mut call) = (None::<(LLVMValueRef, (usize, usize))>, None);
    let mut work = vec![a];
    while let Some(p) = work.pop() {
        for (user, op) in ir::uses(p).collect::<Vec<_>>() {
            if ir::is(user, LLVMOpcode::LLVMAddrSpaceCast)
                || ir::is(user, LLVMOpcode::LLVMGetElementPtr)
                || ir::is(user, LLVMOpcode::LLVMBitCast)
            {
                if op == 0 {
                    work.push(user);
                } else {
                    u.other = true;
                }
            } else if ir::is(user, LLVMOpcode::LLVMStore) {
                // Operand 1 is the address; operand 0 the value stored (the pointer escaping).
                match (op, position(bbs, user)) {
                    (1, Some(pos)) => {
                        u.stores.push(pos);
                        if first_store.is_none_or(|(_, q)| pos < q) {
                            first_store = Some((user, pos));
                        }
                    }
                    _ => u.other = true,
                }
            } else if ir::is(user, LLVMOpcode::LLVMCall) {
                let callee = ir::callee_name(user);
                if callee.starts_with("llvm.lifetime.") {
                    u.marked = true;
                } else if callee == BUFFER_CALLEE && op == 1 {
                    match position(bbs, user) {
                        Some(pos) => {
                            u.calls.push(pos);
                            call = Some(user);
                        }
                        None => u.other = true,
                    }
                } else {
                    u.other = true;
                }
            } else {
                u.other = true;
            }
        }
    }
    (u, first_store.map(|(s, _)| s), call)
}

/// Inserts `llvm.lifetime.start`/`end` (`which`) for alloca `a` before instruction `at`.
///
/// # Safety
/// `a` is a live alloca and `at` a live instruction of the same function.
unsafe fn marker(which: &str, a: LLVMValueRef, at: LLVMValueRef) {
    let m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(a)));
    let id = LLVMLookupIntrinsicID(which.as_ptr().cast(), which.len());
    let mut tys = [LLVMTypeOf(a)];
    let decl = LLVMGetIntrinsicDeclaration(m, id, tys.as_mut_ptr(), 1);
    let fty = LLVMGlobalGetValueType(decl);
    let ctx = LLVMGetModuleContext(m);
    // LLVM 22's markers take the alloca alone; older ones a byte size first (-1: the whole).
    let mut args = if LLVMCountParamTypes(fty) == 2 {
        vec![LLVMConstInt(LLVMInt64TypeInContext(ctx), u64::MAX, 1), a]
    } else {
        vec![a]
    };
    let b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, at);
    LLVMBuildCall2(b, fty, decl, args.as_mut_ptr(), args.len() as u32, c"".as_ptr());
    LLVMDisposeBuilder(b);
}

/// Runs the pass on one function; whether it changed the IR.
fn run(f: LLVMValueRef) -> bool {
    let bbs = ir::function_blocks(f);
    let Some(&entry) = bbs.first() else { return false };
    // SAFETY: a live function's entry block.
    let allocas: Vec<LLVMValueRef> = ir::function_raw_instructions(f)
        .into_iter()
        .filter(|&i| {
            ir::is(i, LLVMOpcode::LLVMAlloca)
                && ir::block_of(i) == Some(entry)
                && unsafe { LLVMIsConstant(LLVMGetOperand(i, 0)) != 0 }
        })
        .collect();
    let mut changed = false;
    for a in allocas {
        let (u, first_store, call) = uses_of(&bbs, a);
        match decide(&u) {
            Ok(()) => {
                let Some(call) = call else { continue };
                // SAFETY: the call is a live instruction followed at least by its block's
                // terminator; the first store (or the call) is live.
                unsafe {
                    marker("llvm.lifetime.start", a, first_store.unwrap_or(call));
                    marker("llvm.lifetime.end", a, LLVMGetNextInstruction(call));
                }
                crate::stats::add(PASS, "vprintf buffers given a lifetime", 1);
                changed = true;
            }
            Err(r) => {
                if !u.calls.is_empty() || u.marked {
                    crate::stats::add(PASS, r.counter(), 1);
                }
            }
        }
    }
    changed
}

/// Runs `nv-reuse-local-memory` on one function (called by the pass plumbing in
/// src/opt/reuse_local_memory.cpp); whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition.
#[no_mangle]
pub unsafe extern "C" fn nvopt_reuse_local_memory_run(f: LLVMValueRef) -> bool {
    if Knobs::current().nv_disable_reuse_local_memory() {
        return false;
    }
    run(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(stores: &[(usize, usize)], calls: &[(usize, usize)]) -> Uses {
        Uses { stores: stores.to_vec(), calls: calls.to_vec(), ..Uses::default() }
    }

    #[test]
    fn stores_then_one_call_in_one_block_get_a_lifetime() {
        assert_eq!(decide(&buffer(&[(2, 3), (2, 5)], &[(2, 7)])), Ok(()));
        assert_eq!(decide(&buffer(&[], &[(0, 1)])), Ok(()), "an empty argument list");
    }

    #[test]
    fn other_shapes_are_refused() {
        assert_eq!(decide(&buffer(&[(1, 3)], &[(2, 7)])), Err(Refusal::NotBeforeTheCall));
        assert_eq!(decide(&buffer(&[(2, 8)], &[(2, 7)])), Err(Refusal::NotBeforeTheCall));
        assert_eq!(decide(&buffer(&[(2, 3)], &[(2, 7), (3, 1)])), Err(Refusal::NotOneCall));
        assert_eq!(decide(&buffer(&[(2, 3)], &[])), Err(Refusal::NotOneCall));
        let other = Uses { other: true, ..buffer(&[(2, 3)], &[(2, 7)]) };
        assert_eq!(decide(&other), Err(Refusal::OtherUse));
        let marked = Uses { marked: true, ..buffer(&[(2, 3)], &[(2, 7)]) };
        assert_eq!(decide(&marked), Err(Refusal::AlreadyMarked));
    }
}
