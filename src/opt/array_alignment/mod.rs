//! `nv-set-local-array-alignment` and `nv-set-global-array-alignment`: raise the alignment of
//! statically sized private (`alloca`) arrays and of statically sized `__shared__` arrays, so
//! that their loads and stores can become NVPTX vector accesses (cicc's
//! `set-local-array-alignment`, "NVVM pass to set alignment of statically sized local arrays",
//! and `SetGlobalArrayAlignment`, "... of statically sized shared memory arrays").
//!
//! A vector `ld.v2`/`ld.v4`/`st.v4` (up to 16 bytes: `v4.b32`, `v2.b64`) needs its address
//! aligned to its width. clang gives an array the alignment of its element (`float a[8]`:
//! 4), so LLVM's load-store vectorizer may not merge `a[0..3]` into one `st.local.v4.b32`
//! (it raises an alloca to 4 bytes at most), and the `float4` read of a `__shared__ float`
//! tile (`reinterpret_cast<float4 *>(tile)[t]`, a 16-byte memcpy from an align-4 source once
//! clang is done) is split into four `ld.shared.b32`. The objects are ours: an `alloca` of
//! the function, a shared variable this module defines. Raising the alignment of an object we
//! define is always legal (no access relies on a smaller one); what it costs is padding: the
//! object is placed at the next multiple of its alignment in the frame or in the block's
//! shared window.
//!
//! The rule (cicc 13.5's, as nvcc's PTX shows for private char, short, float and double arrays
//! of 3 to 256 bytes: `.local .align` 16 for 16, 32, 48 and 256 bytes, 8 for 8, 24 and 40, 4
//! for 12 and 20, 2 for 6, 1 for 3):
//! an object of `S` bytes (its type's allocation size) gets the largest power of two that
//! divides `S`, at most `nv-max-array-alignment` (16), when that is above its alignment now:
//!
//! ```text
//! ; before                                          ; after
//! @tile = internal addrspace(3) global              @tile = internal addrspace(3) global
//!         [256 x float] undef, align 4                      [256 x float] undef, align 16
//! %a = alloca [8 x float], align 4                  %a = alloca [8 x float], align 16
//! %w = alloca [6 x float], align 4                  %w = alloca [6 x float], align 8
//! %t = alloca [3 x float], align 4                  (kept: 12 bytes allow no more than 4)
//! store float %x, ptr %a, align 4                   store float %x, ptr %a, align 16
//! %p = getelementptr i8, ptr %a, i64 8              (unchanged)
//! store float %y, ptr %p, align 4                   store float %y, ptr %p, align 8
//! ```
//!
//! Why "divides": with `A` dividing `S`, `A`-byte accesses tile the whole object and its end
//! is aligned too, so a following object of no larger alignment needs no padding. The
//! padding a raise costs lies in front of the object and is below `A` bytes (at most 12 for
//! 4-byte elements), so never more than the object's own size. A larger power of two (16 for
//! the 24 bytes of `float[6]`) could make one more access wider (a `v4` at 0 before the `v2`
//! at 16) for up to 8 more bytes of padding; cicc does not take it, and neither does nvopt.
//! Scalars are not touched (a power-of-two-sized scalar has its natural alignment already).
//!
//! After raising an object, the pass gives the loads and stores at constant offsets from it
//! (through casts and constant-index GEPs, instructions or constant expressions) the
//! alignment the new one proves, `min(A, largest power of two dividing the offset)`, so that
//! the result holds at every level; accesses at variable offsets (`tile[4 * t + k]`) are
//! `infer-alignment`'s, which runs right after both slots at O1-O3 (`nv:propagate-alignment`,
//! then again before `load-store-vectorizer`) and at the end of Ofcmid.
//!
//! A `memset` that zeroes a whole raised private array (`float r[8] = {}`) is replaced by stores
//! of zero vectors of the array's element type, as wide as the new alignment allows (two
//! `store <4 x float> zeroinitializer` for `float[8]`; src/opt/array_alignment/local.rs). Left a
//! memset, it would be lowered by its new alignment into 8-byte stores, and ptxas keeps an array
//! reached by 8-byte and 4-byte accesses in local memory where it otherwise moves it to
//! registers (llm.c's `softmax_autoregressive_backward_kernel4` and `kernel5`, whose `result[8]`
//! is read at `result[warp.thread_rank()]`, kept stack frames that nvcc and upstream avoid, and
//! keep none with the split). Volatile memsets, non-zero fills, memsets of part of the array and
//! elements other than 4- and 8-byte scalars are left as they are.
//!
//! Where they run (cicc 13.5's slots, src/pipeline/levels.rs): `nv-set-global-array-alignment`
//! is a module pass in `nv:set-global-array-alignment` near the end of O1-O3;
//! `nv-set-local-array-alignment` a function pass in `nv:set-local-array-alignment`, after the
//! last SROA of O1-O3 (the arrays left then stay in local memory) and before the last SROA of
//! Ofcmid and Ofcmin (whose load-store vectorizer runs earlier, so there the gain is limited
//! to accesses that are vectors already). Neither runs at O0 or Ofcmax (cicc's tables have no
//! such slot there, and Ofcmax forces `lsa-opt` off).
//!
//! Refused, each with a missed remark and a counter:
//! - private: dynamic allocas (a count that is not a constant, or outside the entry block:
//!   raising those needs stack realignment code);
//! - shared: declarations (`extern __shared__`, dynamic shared memory `[0 x T]` or a variable
//!   another unit defines: its alignment is the definition's), zero-sized definitions,
//!   definitions the linker may replace (weak, linkonce, common: the chosen copy may keep the
//!   smaller alignment) and variables in an explicit section;
//! - both: objects already aligned to the bound, and objects whose size allows no more than
//!   the alignment they have (`float[3]`, `char[3]`, `double[3]`).
//!
//! Left alone without a remark: every global outside the shared space. `__device__`,
//! `__constant__` and `__managed__` variables are visible to the host, which copies them by
//! symbol (`cudaMemcpyToSymbol`); under `-rdc` another unit may declare them with their
//! declared alignment. cicc's pass ("statically sized global/shared arrays", its help says)
//! may take some of them; nvopt takes only what is provably its own. Modules that are not
//! NVPTX are left alone.
//!
//! cicc 13.5 itself (nvcc and `-nvvm-version=nvvm-latest`, on the same clang IR) raises
//! private arrays by this rule but was seen leaving statically sized `__shared__ float` arrays
//! at `.align 4`; its SetGlobalArrayAlignment takes two parameters whose meaning is unknown
//! (docs/CICC-FACTS.md "The printed pipelines"). nvopt raises shared arrays by the same rule as
//! private ones: the 16-byte vector accesses it enables are cicc's purpose for the pass, and
//! the padding is at most 12 bytes per array of the block's shared window.
//!
//! Knobs: `lsa-opt` (cicc's guard of the local-memory slots, forced off at Ofcmax),
//! `nv-disable-set-local-array-alignment` and `nv-disable-set-global-array-alignment` (cicc:
//! `disable-SetLocalArrayAlignmentPass`, `disable-SetGlobalArrayAlignmentPass`) switch the
//! slots off; `nv-max-array-alignment` (16; rounded down to a power of two) bounds the
//! alignment both give. Remarks under `-pass-remarks=<pass>` (each raise) and
//! `-pass-remarks-missed=<pass>` (each refusal), counters under `-nv-stats`. Not done:
//! cicc's `nvptx-use-max-local-array-alignment` (the bound for every private array whatever
//! its size) and cicc's second run of both passes in its code generator.
pub mod local;
pub mod shared;

use crate::analysis::ir;
use crate::analysis::ir::facts::RemarkArg;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use llvm_sys::target::LLVMTargetDataRef;
use llvm_sys::{LLVMOpcode, LLVMTypeKind};
use std::ffi::CStr;

/// Why an object keeps its alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Aligned to the bound or more already.
    AlreadyAligned,
    /// Its size is a multiple of no larger power of two than its alignment (`float[3]`).
    SizeAllowsNoMore,
    /// A size of zero bytes.
    Empty,
    /// A private array with a variable count or outside the entry block.
    Dynamic,
    /// A shared variable declared, not defined, here (`extern __shared__`).
    Extern,
    /// A definition the linker may replace (weak, linkonce, common).
    Interposable,
    /// A variable in an explicit section.
    Section,
}

/// What happens to one array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Raise { from: u64, to: u64 },
    Keep(Kept),
}

/// The bound the knob gives: the largest power of two not above it (at least 1).
pub fn bound(knob: i64) -> u64 {
    let k = knob.max(1) as u64;
    1 << (63 - k.leading_zeros())
}

/// The largest power of two that divides `n` (`n` > 0); for 0, `u64`'s largest power of two.
fn pow2_dividing(n: u64) -> u64 {
    1 << n.trailing_zeros().min(63)
}

/// The rule: an object of `size` bytes aligned to `current` gets the largest power of two that
/// divides `size`, at most `bound`, when that is above `current`.
pub fn alignment_for(size: u64, current: u64, bound: u64) -> Decision {
    if size == 0 {
        return Decision::Keep(Kept::Empty);
    }
    let to = pow2_dividing(size).min(bound);
    if current >= to {
        let why = if current >= bound { Kept::AlreadyAligned } else { Kept::SizeAllowsNoMore };
        return Decision::Keep(why);
    }
    Decision::Raise { from: current, to }
}

/// The alignment an access at byte `offset` from an object aligned to `align` has.
pub fn offset_alignment(align: u64, offset: i64) -> u64 {
    align.min(pow2_dividing(offset.unsigned_abs()))
}

/// Why a kept object stays, for the missed remarks.
pub fn reason(k: Kept) -> &'static str {
    match k {
        Kept::AlreadyAligned => "already aligned to the bound",
        Kept::SizeAllowsNoMore => "its size is a multiple of no larger power of two",
        Kept::Empty => "it has no size",
        Kept::Dynamic => "a dynamic alloca (variable count or outside the entry block)",
        Kept::Extern => "declared, not defined, here (extern __shared__): the definition decides",
        Kept::Interposable => "the linker may choose another definition (weak, linkonce, common)",
        Kept::Section => "it is in an explicit section",
    }
}

/// The opcode of an instruction or a constant expression; `None` for any other value.
fn opcode(v: LLVMValueRef) -> Option<LLVMOpcode> {
    // SAFETY: a live value.
    unsafe {
        if !LLVMIsAInstruction(v).is_null() {
            Some(LLVMGetInstructionOpcode(v))
        } else if !LLVMIsAConstantExpr(v).is_null() {
            Some(LLVMGetConstOpcode(v))
        } else {
            None
        }
    }
}

/// Whether a type is an array or a struct.
pub fn is_aggregate(ty: LLVMTypeRef) -> bool {
    // SAFETY: a live type.
    let kind = unsafe { LLVMGetTypeKind(ty) };
    matches!(kind, LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMStructTypeKind)
}

/// Gives every load and store at a constant offset from `object` (through casts and
/// constant-index GEPs) the alignment `align` proves for it, where that is more than it has;
/// how many it changed.
pub fn propagate(td: LLVMTargetDataRef, object: LLVMValueRef, align: u64) -> u64 {
    let mut changed = 0;
    let mut work = vec![(object, 0i64)];
    let mut seen = crate::fast_hash::HashSet::default();
    while let Some((v, off)) = work.pop() {
        if !seen.insert((v, off)) {
            continue;
        }
        for (user, k) in ir::uses(v).collect::<Vec<_>>() {
            let at = match opcode(user) {
                Some(LLVMOpcode::LLVMLoad) if k == 0 => user,
                Some(LLVMOpcode::LLVMStore) if k == 1 => user,
                Some(LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast) => {
                    work.push((user, off));
                    continue;
                }
                Some(LLVMOpcode::LLVMGetElementPtr) if k == 0 => {
                    if let Some(o) = ir::gep_offset(td, user).and_then(|o| off.checked_add(o)) {
                        work.push((user, o));
                    }
                    continue;
                }
                _ => continue,
            };
            let want = offset_alignment(align, off);
            // SAFETY: a live load or store; its alignment is explicit.
            unsafe {
                if u64::from(LLVMGetAlignment(at)) < want {
                    LLVMSetAlignment(at, want as u32);
                    changed += 1;
                }
            }
        }
    }
    changed
}

/// Raises `object` (a static `alloca` or a shared variable this module defines for good) to
/// `to` and gives the accesses at constant offsets from it what that proves ([`propagate`]),
/// counted under `pass`.
pub fn raise(td: LLVMTargetDataRef, pass: &str, object: LLVMValueRef, to: u64) {
    // SAFETY: a live object of ours; raising its alignment is always legal.
    unsafe { LLVMSetAlignment(object, to as u32) };
    let accesses = propagate(td, object, to);
    crate::stats::add(pass, "loads/stores given a higher alignment", accesses);
}

/// The remark about the decision `d` on one array (`kind`: `b"private array "` or
/// `b"shared array "`; `array`, its text; `size`, its bytes; `align`, its alignment before):
/// hands `emit` the remark's name, whether it is a missed one, and its arguments.
pub fn remark(
    kind: &[u8],
    array: &[u8],
    size: &str,
    align: u64,
    d: Decision,
    emit: impl FnOnce(&'static CStr, bool, &[RemarkArg]),
) {
    let head = [
        RemarkArg::text(kind),
        RemarkArg::named("Array", array),
        RemarkArg::text(b" ("),
        RemarkArg::named("Size", size.as_bytes()),
    ];
    match d {
        Decision::Raise { from, to } => {
            let (from, to) = (from.to_string(), to.to_string());
            let tail = [
                RemarkArg::text(b" bytes) aligned from "),
                RemarkArg::named("From", from.as_bytes()),
                RemarkArg::text(b" to "),
                RemarkArg::named("To", to.as_bytes()),
                RemarkArg::text(b" bytes"),
            ];
            emit(c"Aligned", false, &[&head[..], &tail[..]].concat());
        }
        Decision::Keep(k) => {
            let align = align.to_string();
            let tail = [
                RemarkArg::text(b" bytes) kept at align "),
                RemarkArg::named("Align", align.as_bytes()),
                RemarkArg::text(b": "),
                RemarkArg::named("Reason", reason(k).as_bytes()),
            ];
            emit(c"Kept", true, &[&head[..], &tail[..]].concat());
        }
    }
}

/// Whether the module of a triple is NVPTX.
pub fn applies_to_triple(triple: &[u8]) -> bool {
    triple.starts_with(b"nvptx")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_matches_cicc_on_private_arrays() {
        // (size, element alignment, what nvcc 13.5 gives in .local .align) for float, char,
        // short and double arrays of 3 to 256 bytes (sm_90).
        let cases = [
            (3, 1, 1),
            (6, 1, 2),
            (8, 4, 8),
            (12, 2, 4),
            (12, 4, 4),
            (16, 4, 16),
            (20, 1, 4),
            (24, 4, 8),
            (24, 8, 8),
            (32, 4, 16),
            (40, 1, 8),
            (48, 4, 16),
            (256, 4, 16),
        ];
        for (size, elem, cicc) in cases {
            let want = if cicc > elem {
                Decision::Raise { from: elem, to: cicc }
            } else {
                Decision::Keep(Kept::SizeAllowsNoMore)
            };
            assert_eq!(alignment_for(size, elem, 16), want, "{size}");
        }
    }

    #[test]
    fn raises_only_above_the_current_alignment() {
        assert_eq!(alignment_for(1024, 4, 16), Decision::Raise { from: 4, to: 16 });
        assert_eq!(alignment_for(24, 4, 16), Decision::Raise { from: 4, to: 8 });
        assert_eq!(alignment_for(8, 4, 16), Decision::Raise { from: 4, to: 8 });
        assert_eq!(alignment_for(6, 1, 16), Decision::Raise { from: 1, to: 2 });
        assert_eq!(alignment_for(32, 16, 16), Decision::Keep(Kept::AlreadyAligned));
        assert_eq!(alignment_for(24, 16, 16), Decision::Keep(Kept::AlreadyAligned));
        assert_eq!(alignment_for(12, 4, 16), Decision::Keep(Kept::SizeAllowsNoMore));
        assert_eq!(alignment_for(4, 4, 16), Decision::Keep(Kept::SizeAllowsNoMore));
        assert_eq!(alignment_for(3, 1, 16), Decision::Keep(Kept::SizeAllowsNoMore));
        assert_eq!(alignment_for(24, 8, 16), Decision::Keep(Kept::SizeAllowsNoMore));
        assert_eq!(alignment_for(0, 4, 16), Decision::Keep(Kept::Empty));
    }

    #[test]
    fn the_bound_caps_and_rounds_down() {
        assert_eq!(bound(16), 16);
        assert_eq!(bound(12), 8);
        assert_eq!(bound(1), 1);
        assert_eq!(bound(0), 1);
        assert_eq!(alignment_for(64, 4, bound(8)), Decision::Raise { from: 4, to: 8 });
        assert_eq!(alignment_for(64, 8, bound(8)), Decision::Keep(Kept::AlreadyAligned));
        assert_eq!(alignment_for(64, 4, bound(4)), Decision::Keep(Kept::AlreadyAligned));
    }

    #[test]
    fn offsets_keep_what_they_can() {
        assert_eq!(offset_alignment(16, 0), 16);
        assert_eq!(offset_alignment(16, 4), 4);
        assert_eq!(offset_alignment(16, 8), 8);
        assert_eq!(offset_alignment(16, 48), 16);
        assert_eq!(offset_alignment(16, -8), 8);
        assert_eq!(offset_alignment(8, 32), 8);
        assert_eq!(offset_alignment(16, 6), 2);
    }

    #[test]
    fn nvptx_modules_only() {
        assert!(applies_to_triple(b"nvptx64-nvidia-cuda"));
        assert!(!applies_to_triple(b"x86_64-unknown-linux-gnu"));
    }
}
