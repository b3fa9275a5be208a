//! `nv-param-opt`: cicc's `param-opt` ("Optimize NVPTX ld.param", docs/CICC-FACTS.md "Register
//! pressure and rematerialization": in cicc's llc it runs right after instruction selection and
//! re-issues `ld.param` next to the uses of kernel arguments). NVPTX's instruction selection
//! loads every kernel argument once, in the entry block, so a parameter read only after a long
//! loop holds a register through the whole loop. Where the kernel's estimated register pressure
//! (src/analysis/pressure) exceeds its register target, this machine pass gives each block that reads a
//! parameter outside the entry block its own `ld.param`, placed before the first reader there
//! (before the terminators when only PHIs of successors read it there), and deletes the entry
//! load when nothing reads it any more. Parameter space is read-only for a kernel and LLVM marks
//! these loads dereferenceable and invariant, so every copy reads the same bits.
//!
//! ```text
//! before (PTX)                                  after
//!   ld.param.b32  %r3, [k_param_3];               // (entry load deleted)
//!   ...                                           ...
//! $L__BB0_1:  // 40 accumulators live here      $L__BB0_1:   // %r3 no longer live here
//!   ...                                           ...
//! // exit                                       // exit
//!                                                 ld.param.b32  %r91, [k_param_3];
//!   add.s32  %r92, %r3, %r1;                      add.s32  %r92, %r91, %r1;
//! ```
//!
//! What it buys on sm_90: nothing that ptxas shows. ptxas reads kernel parameters from a
//! constant bank and places those reads itself; on the bench under a register cap
//! (`python3 -m nvopt_tools.bench --maxreg 32 --variant nopo:nv-disable-param-opt=1`) the pass
//! changes the PTX of some files and none of their SASS. It is kept, on by default as in cicc,
//! for PTX whose live ranges say what the code needs; nvopt's IR rematerialization
//! (src/llc/remat) treats kernel parameters as free operands for the same reason.
//!
//! Where: after llc's `machine-sink` (src/codegen.rs), not right after instruction selection as
//! in cicc: LLVM's early MachineLICM hoists invariant loads out of loops and MachineCSE merges
//! identical invariant loads, which would undo the copies before they reach PTX.
//!
//! Knob: `nv-disable-param-opt` (off switch). Refused: kernels whose pressure is within the
//! target, with a missed remark (`-pass-remarks-missed=nv-param-opt`, one per kernel) and a
//! `-nv-stats` counter; functions that are not kernels, silently (a device function's
//! parameters are not read-only kernel parameter space, and its loads of them are not marked
//! invariant); loads of other spaces (a `const __restrict__` global load is invariant too):
//! re-issuing a memory access costs a load where a parameter read costs none (ptxas reads
//! kernel parameters from a constant bank).
pub mod adapter;

/// NVPTX's parameter address space.
pub const PARAM_ADDRESS_SPACE: u32 = crate::analysis::gpu::addrspace::PARAM;

/// One invariant load the shim found: its address space, its block, and the blocks that read
/// its register (for a PHI operand, the incoming block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Load {
    pub addrspace: u32,
    pub block: u32,
    pub use_blocks: Vec<u32>,
}

/// What the kernel as a whole allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Function {
    NotKernel,
    WithinTarget { pressure: u32, target: u32 },
    OverTarget { pressure: u32, target: u32 },
}

/// The blocks that get their own copy of `load`: every block other than its own that reads it,
/// in a kernel over its target; none for other address spaces or functions.
pub fn reissue_blocks(f: Function, load: &Load) -> Vec<u32> {
    if !matches!(f, Function::OverTarget { .. }) || load.addrspace != PARAM_ADDRESS_SPACE {
        return Vec::new();
    }
    load.use_blocks.iter().copied().filter(|&b| b != load.block).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVER: Function = Function::OverTarget { pressure: 80, target: 64 };

    fn param(block: u32, use_blocks: &[u32]) -> Load {
        Load { addrspace: PARAM_ADDRESS_SPACE, block, use_blocks: use_blocks.to_vec() }
    }

    #[test]
    fn far_uses_get_their_own_load_and_the_own_block_keeps_the_original() {
        assert_eq!(reissue_blocks(OVER, &param(0, &[0, 3, 5])), vec![3, 5]);
        assert!(reissue_blocks(OVER, &param(0, &[0])).is_empty());
    }

    #[test]
    fn nothing_moves_within_the_target_outside_kernels_or_outside_param_space() {
        let within = Function::WithinTarget { pressure: 40, target: 64 };
        assert!(reissue_blocks(within, &param(0, &[2])).is_empty());
        assert!(reissue_blocks(Function::NotKernel, &param(0, &[2])).is_empty());
        let global = Load { addrspace: 1, block: 0, use_blocks: vec![2] };
        assert!(reissue_blocks(OVER, &global).is_empty());
    }
}
