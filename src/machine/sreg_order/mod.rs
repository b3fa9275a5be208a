//! `nv-sreg-order`: reads the launch configuration first. In each function's entry block, this
//! machine pass moves the reads of `%ntid.*` and `%nctaid.*` (block and grid dimensions, the same
//! for every thread of the grid) to the start of the block, ahead of `%ctaid.*`, `%tid.*` and
//! the parameter loads, keeping their relative order. Nothing else moves.
//!
//! Why: ptxas puts a value that is the same across the warp in a uniform register (`UR`, not
//! counted in the kernel's registers) when it can, but an `IMAD a, b, c` takes one uniform
//! operand only. For `blockIdx.x * blockDim.x + threadIdx.x`, ptxas gives the uniform slot to
//! whichever of `%ctaid.x` and `%ntid.x` the PTX reads first. LLVM's instruction selection reads
//! `%ctaid.x` first; nvcc reads `%ntid.x` first, which is the better choice when the block
//! dimension lives on (a grid-stride loop's `blockDim.x * gridDim.x`, a shared-memory loop
//! bound): it then stays in a uniform register instead of a vector one. With `%ntid.x` first,
//! cuda-samples' `simpleKernel` takes fewer registers, as nvcc's does, its SASS otherwise the
//! same (`ULDC` + `UIMAD` for the stride instead of `LDC R7` + `IMAD`).
//!
//! ```text
//! before (PTX)                                  after
//!   ld.param.b32  %r3, [k_param_1];               mov.u32  %r1, %ntid.x;
//!   mov.u32  %r4, %ctaid.x;                       ld.param.b32  %r3, [k_param_1];
//!   mov.u32  %r1, %ntid.x;                        mov.u32  %r4, %ctaid.x;
//!   mov.u32  %r5, %tid.x;                         mov.u32  %r5, %tid.x;
//!   mad.lo.s32  %r7, %r4, %r1, %r5;               mad.lo.s32  %r7, %r4, %r1, %r5;
//! ```
//!
//! The reads have no operands and no side effects, so moving them up within their block is
//! always safe. Where: after llc's `machine-scheduler` (src/codegen.rs), the last pass that
//! orders instructions within a block; the PTX printer keeps the order it leaves.
//!
//! Off by default: on the validate split of the corpora it cost registers more often than it
//! saved them (docs/DEPARTURES.md); which kernels gain (grid-stride loops whose stride lives on)
//! and which lose (blockDim-scaled indices, CUB's scan init) was not separated by a rule yet.
//! Knob: `nv-disable-sreg-order` (true by default; `=0` runs the pass). Decisions are remarks
//! (`-pass-remarks=nv-sreg-order`, one per function changed) and `-nv-stats` counters. Left
//! alone: reads outside the entry block (a loop preheader's `%nctaid.x`), which ptxas already
//! sees after the values it allocated first; other special registers, whose order was not
//! measured to matter.
pub mod adapter;

pub const PASS: &str = "nv-sreg-order";

/// Machine opcode name prefixes (NVPTX's instruction names in LLVM 22) of the launch
/// configuration reads this pass moves: `%ntid.{x,y,z}` and `%nctaid.{x,y,z}`.
pub const LAUNCH_CONFIG_READS: [&str; 2] = ["INT_PTX_SREG_NTID_", "INT_PTX_SREG_NCTAID_"];

fn is_launch_config_read(opcode: &str) -> bool {
    LAUNCH_CONFIG_READS.iter().any(|p| opcode.starts_with(p))
}

/// The entry-block instructions (by position, among `opcodes`) to move to the start of the
/// block, in their order; empty when they already lead the block.
pub fn hoisted<S: AsRef<str>>(opcodes: &[S]) -> Vec<usize> {
    let reads: Vec<usize> = opcodes
        .iter()
        .enumerate()
        .filter(|(_, op)| is_launch_config_read(op.as_ref()))
        .map(|(i, _)| i)
        .collect();
    let already_first = reads.iter().enumerate().all(|(k, &i)| k == i);
    if already_first {
        Vec::new()
    } else {
        reads
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_and_grid_dimensions_move_ahead_of_block_index_thread_index_and_params() {
        let block = [
            "LD_i32",
            "CVTA_TO_GLOBAL",
            "INT_PTX_SREG_CTAID_x",
            "INT_PTX_SREG_NTID_x",
            "INT_PTX_SREG_TID_x",
            "MAD_LO_S32rrr",
            "INT_PTX_SREG_NCTAID_y",
        ];
        assert_eq!(hoisted(&block), vec![3, 6]);
    }

    #[test]
    fn nothing_moves_when_they_already_lead_or_are_absent() {
        assert!(
            hoisted(&["INT_PTX_SREG_NTID_x", "INT_PTX_SREG_CTAID_x", "MAD_LO_S32rrr"]).is_empty()
        );
        assert!(hoisted(&["INT_PTX_SREG_CTAID_x", "INT_PTX_SREG_TID_x"]).is_empty());
        assert!(hoisted::<&str>(&[]).is_empty());
    }

    #[test]
    fn other_special_registers_stay() {
        let block = ["LD_i32", "INT_PTX_SREG_LANEID", "INT_PTX_SREG_NTID_y"];
        assert_eq!(hoisted(&block), vec![2]);
    }
}
