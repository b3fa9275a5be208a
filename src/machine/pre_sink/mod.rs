//! `nv-pre-sink`: copies a cheap instruction that llc hoisted into a common dominator back into
//! the blocks that use it, where its value would otherwise be held across a loop that never
//! reads it. A machine pass, right after llc's `machine-sink` (so after MachineCSE).
//!
//! Why: MachineCSE's partial-redundancy step (`PerformSimplePRE`) moves a computation that two
//! blocks share into their nearest common dominator and lets both read it. On a GPU the result
//! then occupies a register through everything between, loops included; ptxas does not move it
//! back. llm.c's `softmax_autoregressive_backward_kernel7` starts two loops' pointer IVs from
//! `4 * rank`, `4 * idx * T * T` and `4 * t * T`; MachineCSE computes the three 64-bit values
//! once, before the first loop, and they live across it and two warp reductions (nvcc computes
//! them in each preheader). Turning MachineCSE off altogether would also cost the CSE proper;
//! this pass undoes only the hoisting.
//!
//! ```text
//! before (MIR)                                  after
//! bb.2:                                          bb.2:
//!   %97:b64 = MUL_WIDEu32_ri %3, 4                 CBranch %52, %bb.5
//!   CBranch %52, %bb.5                           bb.3 (preheader of loop bb.4):
//! bb.3 (preheader of loop bb.4):                   %100:b64 = MUL_WIDEu32_ri %3, 4
//!   %56:b64 = ADD64rr %97, %98                     %56:b64 = ADD64rr %100, %98
//! ...                                            ...
//! bb.6 (after bb.4, preheader of loop bb.7):     bb.6:
//!   %69:b64 = ADD64rr %97, %70                     %101:b64 = MUL_WIDEu32_ri %3, 4
//!                                                  %69:b64 = ADD64rr %101, %70
//! ```
//!
//! The rule ([`decide`]): an instruction with one virtual-register result, virtual register
//! operands only, no memory access and no other effect, of a cheap kind (integer arithmetic and
//! compares: [`CHEAP_OPCODE_PREFIXES`]), whose result
//! - is read by no PHI, in at most [`MAX_COPIES`] blocks other than its own
//!   ([`MAX_COPIES_OPERANDS_LIVE`] when its own block does not read it and every operand is
//!   live in them anyway, or it has none, or is read by this instruction alone and computed
//!   from registers live there: a chain), none of them in a loop that does not hold the
//!   instruction (a copy there would run every iteration);
//! - is live into the header of a loop that never reads it (the cost being undone);
//! - and whose every operand is either live at the start of each of those blocks anyway, or
//!   (when its own block does not read it) read by this instruction alone and no wider than its
//!   result (its live range then moves instead of the result's: no register more anywhere);
//! - and whose function has no register cap (launch bounds, `-nv-maxreg`): under a cap ptxas
//!   is already choosing what to spill, and moving live ranges moves its spills (more spill
//!   stores where it was tried); nv-remat works toward the cap in those functions;
//! is copied into each of those blocks, before the first reader, and the original is erased
//! ([`Action::Move`]) or, where its own block reads it too, kept for that block
//! ([`Action::Split`]). The larger bound for live operands comes from shapes where one value
//! feeds many loops (cuda-samples' `multi_warp_cg_reduce`, the bench's `rank_dot_scale4`, where
//! MachineCSE left the 64-bit `4 * rank` of a live 32-bit rank, read in nine blocks, held across
//! eight loops). Up to [`ROUNDS`] rounds, so that a chain of such instructions moves together.
//!
//! The split serves two kinds of value that one early instruction computes and far blocks read
//! again: special-register reads (`threadIdx.x`, `blockIdx.x` read at the top and again for the
//! final store of the cuda-samples reductions) and the compares MachineCSE shares (a loop guard
//! `tid < n` tested before a barrier and again after it, `t2 <= t` for the loops on either side
//! of `block.sync()`). A copy next to each far reader needs only the instruction's operands,
//! which are live there anyway (a special register has none), and nothing is held across the
//! loops and reductions between. Its effect on the corpora (the split of special-register reads
//! included): the `nv-pre-sink` entry of docs/DEPARTURES.md and docs/RESULTS.md.
//!
//! With `-nv-pre-sink-idle-blocks` (off by default) the second condition also takes a value
//! held past a block that does not read it, inside one loop: CUB's `DeviceRadixSortInitKernel`
//! zeroes two arrays in one grid-stride loop, and MachineCSE computes the shared `i << 2` in the
//! header, held through the first guarded arm. Copied into both arms, ptxas needs 3 registers
//! fewer only with llc's `-force-precise-rotation-cost` layout as well (either alone costs one);
//! its figures are in docs/DEPARTURES.md.
//!
//! Knobs `nv-disable-pre-sink`, `nv-pre-sink-idle-blocks`. Remarks (`-pass-remarks=nv-pre-sink`, one per function changed)
//! and `-nv-stats` counters, refusals included. The facts (liveness of one register: backward
//! reachability from its readers, stopped at its definition; loops) and the edits are the
//! shim's (src/machine/pre_sink/pre_sink.cpp); the decision is here.
pub mod adapter;

pub const PASS: &str = "nv-pre-sink";

/// Most blocks one instruction is copied into (each copy is one more instruction).
pub const MAX_COPIES: usize = 4;

/// Most blocks an instruction whose every operand is live there anyway (or none: a symbol's
/// address) is copied into: such copies add no register anywhere.
pub const MAX_COPIES_OPERANDS_LIVE: usize = 16;

/// Most links of a chain below a result that the chain's head may count as computed from live
/// registers ([`OPERAND_SOLE_READER_OF_LIVE`]): llm.c's `softmax_autoregressive_backward_kernel8`
/// starts eight loops' pointers from `4 * (u64)(blockIdx.y * T * T)`, four links down to the
/// special register and the live `T` (32 registers with 0 here, 23 with 4, nvcc 30; the only
/// other kernel of the corpora it changes, llm.c's `softmax_forward_kernel4`, goes 30 -> 32).
pub const MAX_CHAIN_DEPTH: u32 = 4;

/// Most rounds over the function (a chain of cheap instructions moves one link per round).
pub const ROUNDS: u32 = MAX_CHAIN_DEPTH + 2;

/// NVPTX machine opcode name prefixes of the instructions worth copying: integer arithmetic,
/// compares (predicates), logic, shifts, conversions, special-register reads and
/// shared-variable addresses (one instruction each in SASS).
pub const CHEAP_OPCODE_PREFIXES: [&str; 15] = [
    "ADD",
    "SETP",
    "SUB",
    "SHL",
    "SRL",
    "SRA",
    "MUL_WIDE",
    "MULT",
    "AND",
    "OR",
    "XOR",
    "CVT_",
    "NOT",
    "INT_PTX_SREG_",
    "MOV_B64_sym",
];

crate::shared_codes! {
    /// Operand facts, as the shim reports them (src/machine/pre_sink/pre_sink.cpp uses the
    /// generated C++ enum `NvPreSinkOperand`).
    pub enum NvPreSinkOperand: u8 {
        /// Not live where the result is read.
        OPERAND_NOT_LIVE = 0,
        /// Live at the start of every block that reads the result.
        OPERAND_LIVE = 1,
        /// Read by the candidate alone and no wider than its result.
        OPERAND_SOLE_READER = 2,
        /// [`OPERAND_SOLE_READER`], and its own definition is copyable and reads only registers
        /// live at the start of every block that reads the result: the next round copies it
        /// after (a chain).
        OPERAND_SOLE_READER_OF_LIVE = 3,
    }
}

/// What the shim reports of one candidate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub opcode: String,
    pub use_blocks: usize,
    pub phi_use: bool,
    pub own_block_use: bool,
    pub live_across_idle_loop: bool,
    /// Live into a block other than its own that does not read it (taken only with the knob
    /// `nv-pre-sink-idle-blocks`).
    pub live_across_idle_block: bool,
    pub use_in_deeper_loop: bool,
    /// Per register operand: one of the `OPERAND_*` facts.
    pub operands: Vec<u8>,
}

/// Why an instruction stays where it is. Only the near misses (an instruction that is held
/// across an idle loop) are counted; most instructions are not candidates at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotCheap,
    Unused,
    PhiUse,
    OnlyOwnBlock,
    NotAcrossLoop,
    TooManyBlocks,
    IntoLoop,
    OperandNotLive,
}

impl Refusal {
    /// The `-nv-stats` counter of a refusal, or `None` for the common cases not worth one.
    pub fn counter(self) -> Option<&'static str> {
        match self {
            Refusal::TooManyBlocks => Some("kept: read in more blocks than it may be copied to"),
            Refusal::IntoLoop => Some("kept: a reading block is in a deeper loop"),
            Refusal::OperandNotLive => Some("kept: an operand is not live where it is read"),
            _ => None,
        }
    }
}

/// Whether the pass works on a function whose register target comes from `source`: only
/// without a cap (see the module header).
pub fn applies(source: crate::analysis::pressure::target::Source) -> bool {
    source == crate::analysis::pressure::target::Source::Default
}

fn cheap(opcode: &str) -> bool {
    CHEAP_OPCODE_PREFIXES.iter().any(|p| opcode.starts_with(p))
}

/// What happens to a candidate the rule takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Copied into every block that reads it and erased.
    Move,
    /// Read in its own block as well: copied into the other blocks that read it and kept.
    Split,
}

impl Action {
    /// Its `-nv-stats` counter.
    pub fn counter(self) -> &'static str {
        match self {
            Action::Move => "moved into the blocks that read them",
            Action::Split => "copied into the other blocks that read them, kept for their own",
        }
    }
}

/// Whether the instruction is copied into the other blocks that read it, and whether it stays.
pub fn decide(f: &Facts) -> Result<Action, Refusal> {
    if !cheap(&f.opcode) {
        return Err(Refusal::NotCheap);
    }
    if f.use_blocks == 0 {
        return Err(if f.own_block_use { Refusal::OnlyOwnBlock } else { Refusal::Unused });
    }
    if f.phi_use {
        return Err(Refusal::PhiUse);
    }
    if !f.live_across_idle_loop && !f.live_across_idle_block {
        return Err(Refusal::NotAcrossLoop);
    }
    let all_live =
        f.operands.iter().all(|&o| o == OPERAND_LIVE || o == OPERAND_SOLE_READER_OF_LIVE);
    let bound = if all_live && !f.own_block_use { MAX_COPIES_OPERANDS_LIVE } else { MAX_COPIES };
    if f.use_blocks > bound {
        return Err(Refusal::TooManyBlocks);
    }
    if f.use_in_deeper_loop {
        return Err(Refusal::IntoLoop);
    }
    // A kept original still reads its operands: each must be live where the copies go.
    let live_enough = |&o: &u8| {
        if f.own_block_use {
            o == OPERAND_LIVE
        } else {
            o != OPERAND_NOT_LIVE
        }
    };
    if !f.operands.iter().all(live_enough) {
        return Err(Refusal::OperandNotLive);
    }
    Ok(if f.own_block_use { Action::Split } else { Action::Move })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hoisted() -> Facts {
        Facts {
            opcode: "MUL_WIDEu32_ri".into(),
            use_blocks: 2,
            live_across_idle_loop: true,
            operands: vec![OPERAND_LIVE],
            ..Facts::default()
        }
    }

    #[test]
    fn a_cheap_value_held_across_an_idle_loop_is_copied_to_its_readers() {
        assert_eq!(decide(&hoisted()), Ok(Action::Move));
        let only_reader =
            Facts { opcode: "SHL64_ri".into(), operands: vec![OPERAND_SOLE_READER], ..hoisted() };
        assert_eq!(decide(&only_reader), Ok(Action::Move));
    }

    #[test]
    fn values_of_live_operands_or_none_go_to_more_blocks() {
        let many = Facts { use_blocks: MAX_COPIES_OPERANDS_LIVE, ..hoisted() };
        assert_eq!(decide(&many), Ok(Action::Move));
        let symbol = Facts { opcode: "MOV_B64_sym".into(), operands: vec![], ..many };
        assert_eq!(decide(&symbol), Ok(Action::Move));
    }

    #[test]
    fn the_head_of_a_chain_of_live_operands_goes_to_as_many_blocks() {
        // `4 * (u64)x` with x live everywhere: SHL's operand is the CVT it alone reads.
        let head = Facts {
            opcode: "SHL64_ri".into(),
            use_blocks: 8,
            operands: vec![OPERAND_SOLE_READER_OF_LIVE],
            ..hoisted()
        };
        assert_eq!(decide(&head), Ok(Action::Move));
        let unknown_tail = Facts { operands: vec![OPERAND_SOLE_READER], ..head };
        assert_eq!(decide(&unknown_tail), Err(Refusal::TooManyBlocks));
    }

    #[test]
    fn a_value_its_own_block_reads_is_copied_to_the_others_and_kept() {
        // llm.c's softmax_autoregressive_backward_kernel8: `t2 <= t` guards the loop before a
        // barrier and the loop after it; MachineCSE makes the second guard read the first.
        let guard = Facts { opcode: "SETP_i32rr".into(), own_block_use: true, ..hoisted() };
        assert_eq!(decide(&guard), Ok(Action::Split));
        let moving_operand = Facts { operands: vec![OPERAND_SOLE_READER_OF_LIVE], ..guard.clone() };
        assert_eq!(decide(&moving_operand), Err(Refusal::OperandNotLive));
        let many = Facts { use_blocks: MAX_COPIES + 1, ..guard.clone() };
        assert_eq!(decide(&many), Err(Refusal::TooManyBlocks));
        // A special register is read again where it is needed rather than held.
        let sreg = Facts { opcode: "INT_PTX_SREG_CTAID_x".into(), operands: vec![], ..guard };
        assert_eq!(decide(&sreg), Ok(Action::Split));
    }

    #[test]
    fn a_value_held_past_an_idle_block_is_copied_only_when_that_rule_is_on() {
        // CUB's DeviceRadixSortInitKernel: `i << 2` in the loop header, read by two guarded
        // arms; the adapter sets the fact only under -nv-pre-sink-idle-blocks.
        let arm = Facts {
            opcode: "SHL64_ri".into(),
            live_across_idle_loop: false,
            live_across_idle_block: true,
            ..hoisted()
        };
        assert_eq!(decide(&arm), Ok(Action::Move));
        let off = Facts { live_across_idle_block: false, ..arm };
        assert_eq!(decide(&off), Err(Refusal::NotAcrossLoop));
    }

    #[test]
    fn functions_with_a_register_cap_are_left_alone() {
        use crate::analysis::pressure::target::Source;
        assert!(applies(Source::Default));
        assert!(!applies(Source::LaunchBounds));
        assert!(!applies(Source::Knob));
    }

    #[test]
    fn each_condition_refuses() {
        let cases = [
            (Facts { opcode: "DIV_RN_F32rr".into(), ..hoisted() }, Refusal::NotCheap),
            (Facts { use_blocks: 0, ..hoisted() }, Refusal::Unused),
            (Facts { phi_use: true, ..hoisted() }, Refusal::PhiUse),
            (Facts { own_block_use: true, use_blocks: 0, ..hoisted() }, Refusal::OnlyOwnBlock),
            (Facts { live_across_idle_loop: false, ..hoisted() }, Refusal::NotAcrossLoop),
            (
                Facts {
                    use_blocks: MAX_COPIES + 1,
                    operands: vec![OPERAND_SOLE_READER],
                    ..hoisted()
                },
                Refusal::TooManyBlocks,
            ),
            (
                Facts { use_blocks: MAX_COPIES_OPERANDS_LIVE + 1, ..hoisted() },
                Refusal::TooManyBlocks,
            ),
            (Facts { use_in_deeper_loop: true, ..hoisted() }, Refusal::IntoLoop),
            (
                Facts { operands: vec![OPERAND_LIVE, OPERAND_NOT_LIVE], ..hoisted() },
                Refusal::OperandNotLive,
            ),
        ];
        for (f, r) in cases {
            assert_eq!(decide(&f), Err(r), "{f:?}");
        }
    }
}
