//! `nv-dbe`: dead barrier elimination (cicc's pass in the `nv:dbe` slot at the end of the O3
//! function pipeline; docs/CICC-FACTS.md "Memory spaces and barriers": cicc drops a barrier with
//! no memory operation before it in its block and a trailing barrier with nothing after it, and
//! its `branch-dist` dataflow removes one across which no read-after-write, write-after-read or
//! write-after-write can cross; `__syncthreads_count/_and/_or` are never removed; upstream O3
//! keeps even trivially dead barriers).
//!
//! A `__syncthreads()` (`llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)`, or the older
//! `llvm.nvvm.barrier0`) matters only when a memory access of one thread before it and an
//! access of another thread after it can touch the same memory with at least one of them a
//! write. For each such barrier the pass collects the accesses of the region before it (back
//! to the previous barrier of its block, or to the kernel's entry) and the region after it (to
//! the next barrier of its block, or to the kernel's `ret`), each access as an address space
//! with read/write, and removes the barrier when no pair can conflict:
//!
//! ```text
//! define ptx_kernel void @k(ptr addrspace(1) %out) {
//!   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)   ; removed: nothing before it
//!   store float %x, ptr addrspace(3) %s.t
//!   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)   ; kept: shared write, then read
//!   %y = load float, ptr addrspace(3) %s.next
//!   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)   ; removed: a shared read before,
//!   store float %y, ptr addrspace(1) %out.t                     ;   only a global write after
//!   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)   ; removed: nothing after it
//!   ret void
//! }
//! ```
//!
//! Spaces: shared and global conflict with themselves; a generic pointer (or an address space
//! nvopt does not know) may point anywhere and conflicts with every other space; local and
//! param memory are private to the thread and never conflict; constant memory is only read.
//! Atomics count as a read and a write.
//!
//! Refused, and why (each counted under `-nv-stats`, each removal a remark under
//! `-pass-remarks=nv-dbe`): a region that leaves its block (the accesses of other blocks are not
//! walked), or that reaches the entry or `ret` of a device function (its caller's accesses are
//! not known); a call to anything that may access memory, inline asm and fences (their accesses
//! are not known; cicc's assumption that calls hold no barrier-ordered accesses is not taken);
//! barriers that return a value (`__syncthreads_count/_and/_or`) or name another barrier or a
//! thread count (`bar.sync id, n` orders a subset of the block). Modules other than NVPTX are
//! left alone.
//!
//! Knobs: `nv-dbe` (default on: the pass in its slot, which runs where `nv-feature-flags` bit 1
//! is set: O3 by default), `nv-dbe-dataflow` (default on; off keeps only cicc's basic form: a
//! barrier goes only when one of its two regions has no memory access at all).
use crate::analysis::gpu::{addrspace, PTX_KERNEL_CC};
use crate::analysis::ir::facts::{self, RemarkArg, Remarks};
use crate::analysis::ir::{self};
use crate::knobs::Knobs;
use inkwell::basic_block::BasicBlock;
use inkwell::values::{FunctionValue, InstructionOpcode, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::LLVMValueRef;

pub const PASS: &str = "nv-dbe";

/// The barriers whose removal the pass considers: all threads of the block, barrier 0.
const REMOVABLE: [&str; 2] = ["llvm.nvvm.barrier.cta.sync.aligned.all", "llvm.nvvm.barrier0"];
/// Every barrier intrinsic starts so; any of them ends a region.
const BARRIER_PREFIXES: [&str; 2] = ["llvm.nvvm.barrier", "llvm.nvvm.bar."];

/// What one side of a barrier may do to memory that other threads see.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Region {
    /// The accesses are known: (address space, writes) per access.
    Known(Vec<(u32, bool)>),
    /// Something on this side is not known (a call, a fence, another block, the caller).
    #[default]
    Unknown,
}

/// Why a barrier stays or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Removed: one side has no access at all (cicc's basic form).
    DeadEmpty,
    /// Removed: no access before can conflict with one after (the dataflow form).
    DeadNoConflict,
    /// Kept: two accesses may conflict across it.
    Conflict,
    /// Kept: a side is not known.
    Unknown,
}

/// Whether an access to space `a` and one to space `b` may touch the same memory that another
/// thread can see.
fn may_alias(a: u32, b: u32) -> bool {
    let private = |s| s == addrspace::LOCAL || s == addrspace::PARAM;
    if private(a) || private(b) {
        return false;
    }
    let known = |s| [addrspace::GLOBAL, addrspace::SHARED, addrspace::CONST].contains(&s);
    a == b || !known(a) || !known(b)
}

/// The verdict on a barrier between two regions.
pub fn judge(before: &Region, after: &Region, dataflow: bool) -> Verdict {
    let (Region::Known(b), Region::Known(a)) = (before, after) else {
        let empty = |r: &Region| matches!(r, Region::Known(v) if v.is_empty());
        return if empty(before) || empty(after) { Verdict::DeadEmpty } else { Verdict::Unknown };
    };
    if b.is_empty() || a.is_empty() {
        return Verdict::DeadEmpty;
    }
    let conflict =
        b.iter().any(|&(sb, wb)| a.iter().any(|&(sa, wa)| (wb || wa) && may_alias(sb, sa)));
    match (conflict, dataflow) {
        (false, true) => Verdict::DeadNoConflict,
        (false, false) => Verdict::Unknown,
        (true, _) => Verdict::Conflict,
    }
}

fn is_barrier(i: InstructionValue) -> bool {
    i.get_opcode() == InstructionOpcode::Call
        && BARRIER_PREFIXES.iter().any(|p| ir::callee_name(ir::raw(i)).starts_with(p))
}

/// A plain `__syncthreads()`: a void call of a removable barrier with barrier id 0.
fn is_removable(i: InstructionValue) -> bool {
    let raw = ir::raw(i);
    if i.get_opcode() != InstructionOpcode::Call
        || !REMOVABLE.contains(&ir::callee_name(raw).as_str())
    {
        return false;
    }
    // SAFETY: a live call.
    let args = unsafe { LLVMGetNumArgOperands(raw) };
    args == 0 || (args == 1 && ir::const_u64(ir::raw_operand(raw, 0)) == Some(0))
}

/// The accesses one instruction makes, `None` when they are not known.
fn accesses(i: InstructionValue) -> Option<Vec<(u32, bool)>> {
    let raw = ir::raw(i);
    let space = |op: u32| {
        // SAFETY: the operand is a live pointer.
        unsafe { LLVMGetPointerAddressSpace(LLVMTypeOf(ir::raw_operand(raw, op))) }
    };
    let atomic = || i.get_atomic_ordering().is_ok_and(|o| o != inkwell::AtomicOrdering::NotAtomic);
    match i.get_opcode() {
        InstructionOpcode::Load if atomic() => Some(vec![(space(0), true)]),
        InstructionOpcode::Load => Some(vec![(space(0), false)]),
        InstructionOpcode::Store => Some(vec![(space(1), true)]),
        InstructionOpcode::AtomicRMW | InstructionOpcode::AtomicCmpXchg => {
            Some(vec![(space(0), true)])
        }
        _ if !facts::may_read_or_write_memory(i) => Some(Vec::new()),
        _ => None,
    }
}

/// The accesses from `from` in one direction up to a barrier, the function's entry (of a
/// kernel) or a `ret` (of a kernel).
fn region<'ctx>(
    f: FunctionValue<'ctx>,
    bb: BasicBlock<'ctx>,
    from: InstructionValue<'ctx>,
    forward: bool,
) -> Region {
    let kernel = f.get_call_conventions() == PTX_KERNEL_CC;
    let step = |i: InstructionValue<'ctx>| {
        if forward {
            i.get_next_instruction()
        } else {
            i.get_previous_instruction()
        }
    };
    let mut out = Vec::new();
    let mut cur = step(from);
    loop {
        let Some(i) = cur else {
            let entry = f.get_first_basic_block() == Some(bb);
            return if !forward && kernel && entry { Region::Known(out) } else { Region::Unknown };
        };
        if is_barrier(i) {
            return Region::Known(out);
        }
        if i.get_opcode() == InstructionOpcode::Return {
            return if kernel { Region::Known(out) } else { Region::Unknown };
        }
        if i.is_terminator() {
            return Region::Unknown;
        }
        match accesses(i) {
            Some(a) => out.extend(a),
            None => return Region::Unknown,
        }
        cur = step(i);
    }
}

/// Removes the dead barriers of one function; how many.
fn run(f: FunctionValue, knobs: &Knobs, remarks: &Remarks) -> u32 {
    let dataflow = knobs.nv_dbe_dataflow();
    let verdict =
        |i| judge(&region(f, block_of(i), i, false), &region(f, block_of(i), i, true), dataflow);
    let mut removed = 0;
    for bb in f.get_basic_block_iter() {
        // One barrier at a time: removing one merges its two regions for the next.
        while let Some((i, v)) = ir::instructions(bb)
            .filter(|&i| is_removable(i))
            .map(|i| (i, verdict(i)))
            .find(|(_, v)| matches!(v, Verdict::DeadEmpty | Verdict::DeadNoConflict))
        {
            crate::stats::add(PASS, counter(v), 1);
            if remarks.enabled() {
                remarks.emit(c"nv-dbe", c"DeadBarrier", i, &[RemarkArg::text(reason(v))]);
            }
            i.erase_from_basic_block();
            removed += 1;
        }
        for i in ir::instructions(bb).filter(|&i| is_removable(i)) {
            crate::stats::add(PASS, counter(verdict(i)), 1);
        }
    }
    removed
}

fn block_of(i: InstructionValue) -> BasicBlock {
    i.get_parent().expect("an instruction in a block")
}

fn reason(v: Verdict) -> &'static [u8] {
    match v {
        Verdict::DeadEmpty => b"barrier removed: no memory access on one side of it",
        _ => b"barrier removed: no access before it can conflict with one after it",
    }
}

fn counter(v: Verdict) -> &'static str {
    match v {
        Verdict::DeadEmpty => "barriers removed (nothing on one side)",
        Verdict::DeadNoConflict => "barriers removed (no conflicting accesses)",
        Verdict::Conflict => "barriers kept (accesses may conflict)",
        Verdict::Unknown => "barriers kept (a side is not known)",
    }
}

/// Runs `nv-dbe` on one function (called by the pass plumbing in src/opt/dbe.cpp); whether it
/// changed the IR.
///
/// # Safety
/// `f` is a live function definition and `ore` its `llvm::OptimizationRemarkEmitter`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_dbe_run(f: LLVMValueRef, ore: *mut std::ffi::c_void) -> bool {
    let knobs = Knobs::current();
    let f = ir::function(f);
    let triple = std::ffi::CStr::from_ptr(LLVMGetTarget(LLVMGetGlobalParent(ir::raw(f))));
    if !knobs.nv_dbe() || !triple.to_bytes().starts_with(b"nvptx") {
        return false;
    }
    run(f, &knobs, &Remarks::from_raw(ore)) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use addrspace::*;

    fn known(v: &[(u32, bool)]) -> Region {
        Region::Known(v.to_vec())
    }

    #[test]
    fn an_empty_side_makes_the_barrier_dead() {
        assert_eq!(judge(&known(&[]), &Region::Unknown, true), Verdict::DeadEmpty);
        assert_eq!(judge(&known(&[(SHARED, true)]), &known(&[]), false), Verdict::DeadEmpty);
    }

    #[test]
    fn shared_write_then_shared_read_conflicts() {
        let v = judge(&known(&[(SHARED, true)]), &known(&[(SHARED, false)]), true);
        assert_eq!(v, Verdict::Conflict);
    }

    #[test]
    fn reads_do_not_conflict_and_spaces_separate() {
        let reads = judge(&known(&[(SHARED, false)]), &known(&[(SHARED, false)]), true);
        assert_eq!(reads, Verdict::DeadNoConflict);
        let spaces = judge(&known(&[(SHARED, false)]), &known(&[(GLOBAL, true)]), true);
        assert_eq!(spaces, Verdict::DeadNoConflict);
        let private = judge(&known(&[(LOCAL, true)]), &known(&[(LOCAL, true)]), true);
        assert_eq!(private, Verdict::DeadNoConflict);
    }

    #[test]
    fn generic_and_unknown_spaces_conflict_with_everything_shared() {
        assert_eq!(
            judge(&known(&[(GENERIC, true)]), &known(&[(SHARED, false)]), true),
            Verdict::Conflict
        );
        assert_eq!(
            judge(&known(&[(7, false)]), &known(&[(GLOBAL, true)]), true),
            Verdict::Conflict
        );
    }

    #[test]
    fn the_basic_form_keeps_what_only_the_dataflow_removes() {
        let v = judge(&known(&[(SHARED, false)]), &known(&[(GLOBAL, true)]), false);
        assert_eq!(v, Verdict::Unknown);
        assert_eq!(judge(&Region::Unknown, &known(&[(SHARED, false)]), true), Verdict::Unknown);
    }
}
