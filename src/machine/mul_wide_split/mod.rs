//! `nv-mul-wide-split`: a widening multiply by a power of two, `mul.wide.u32 d, a, 2^k` (and
//! `.s32`), becomes a widening convert and a 64-bit shift, `cvt.u64.u32 t, a; shl.b64 d, t, k`,
//! where the product only feeds 64-bit adds whose other operand is the same in every thread of
//! a block (a kernel parameter, `%ctaid`, `%ntid`, `%nctaid`, a constant, and arithmetic on
//! those). Both compute `zext/sext(a) << k`.
//!
//! Why: LLVM's NVPTX instruction selection turns every `shl (zext/sext i32 a), k` into
//! `mul.wide`, the form nvcc's PTX has too. ptxas turns `mul.wide` + `add.s64 base, .` into one
//! `IMAD.WIDE`, whose 64-bit addend must be in two vector registers, so a base the whole block
//! shares (which ptxas would keep in uniform registers, not counted in the kernel's registers)
//! is copied into vector registers and often kept there. From the shift form ptxas emits
//! `LEA`/`LEA.HI.X` with the base as a uniform operand (docs/CICC-FACTS.md "Register pressure
//! and rematerialization"). The shape: Thrust's `uninitialized_fill` kernel
//! (`p[blockIdx.x * 512 + threadIdx.x + 256 * i] = v` through a by-value functor), which has
//! `mul.wide.u32 %rd, %tid, 4` in each arm of its full-tile branch; upstream LLVM escapes it
//! only because its `zext` of `%tid.x` sits in another block, where the DAG combine does not
//! see it (plugin-tests/mul-wide-split/ptxas.test). The cost: where ptxas would have used one
//! `IMAD.WIDE`, it may use two instructions; docs/DEPARTURES.md gives both sides.
//!
//! ```text
//! before (PTX)                              after
//!   mov.u32       %r3, %tid.x;                mov.u32      %r3, %tid.x;
//!   mul.wide.u32  %rd10, %r3, 4;              cvt.u64.u32  %rd11, %r3;
//!   add.s64       %rd4, %rd9, %rd10;          shl.b64      %rd10, %rd11, 2;
//!                                             add.s64      %rd4, %rd9, %rd10;
//! (%rd9 = cvta.to.global(ld.param) + %ctaid.x * 2048: the same in every thread)
//! ```
//!
//! Where: after llc's `machine-sink` (src/codegen.rs), in SSA form, after nv-param-opt; the
//! machine passes that follow (peephole, coalescing, scheduling) do not fuse the pair back.
//!
//! Only in functions whose estimated register pressure (src/analysis/pressure, the IR before
//! instruction selection) is at most `nv-mul-wide-split-max-pressure` (default 64, the default
//! register target): on the tune split, kernels above it got fewer registers from the split
//! but ptxas then chose a lower occupancy step and spilled (CUB's DeviceSelectSweepKernel under
//! `.maxntid 384` only).
//!
//! Knobs: `nv-mul-wide-split-rule`: 0 off, 1 (the default) the rule above, 2 every `mul.wide`
//! by a power of two (for measuring); `nv-mul-wide-split-max-pressure` (0: no limit). Remarks
//! (`-pass-remarks=nv-mul-wide-split`, one per function changed) and `-nv-stats` counters. Refused: a multiplier that is not a power of two (no
//! shift computes it), a product that any instruction other than a 64-bit add reads, an add
//! whose other operand is not provably the same across a block (loaded from memory other than
//! the parameter and constant spaces, a PHI, a call, a thread or lane index, a register with
//! several definitions or a physical one), functions over the pressure limit, and any function
//! not in SSA form.
pub mod adapter;

use crate::analysis::gpu::{Sreg, SREG_MACHINE_PREFIX};
use crate::fast_hash::HashMap;

pub const PASS: &str = "nv-mul-wide-split";

/// Opcode name prefix of the other NVVM intrinsics (shuffles, votes, atomics, ...): none is
/// taken as block-uniform.
pub const INTRINSIC_PREFIX: &str = "INT_";

/// The 64-bit adds whose operands ptxas can take from uniform registers.
pub const ADD64: [&str; 2] = ["ADD64rr", "ADD64ri"];

/// NVPTX's parameter and constant address spaces: loads from them at a uniform address are
/// uniform.
pub const UNIFORM_LOAD_SPACES: [u32; 2] = [101, 4];

/// Opcode name prefixes of instructions that compute a value from their operands only although
/// NVPTX's instruction table marks them as having side effects: the address-space conversions
/// (`cvta.to.global` of a kernel's pointer parameter).
pub const PURE_DESPITE_FLAGS: [&str; 1] = ["cvta"];

/// How deep the uniformity walk follows operands before it gives up (answers "not uniform").
pub const MAX_UNIFORM_DEPTH: u32 = 32;

/// The rule the knob selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Off,
    UniformBase,
    Every,
}

impl Rule {
    pub fn from_knob(v: i64) -> Rule {
        match v {
            0 => Rule::Off,
            1 => Rule::UniformBase,
            _ => Rule::Every,
        }
    }
}

/// The shift that multiplies by `imm`: `Some(k)` when `imm` is `2^k` with `1 <= k <= 31`.
pub fn shift_of(imm: i64) -> Option<u32> {
    (imm >= 2 && imm <= 1 << 31 && imm & (imm - 1) == 0).then(|| imm.trailing_zeros())
}

/// One machine instruction as the uniformity walk sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    pub opcode: String,
    pub may_load: bool,
    /// Stores, calls, PHIs, or a physical register read.
    pub opaque: bool,
    /// LLVM marks it as having unmodeled side effects.
    pub side_effects: bool,
    /// The address space all its memory operands share (`None`: none, or several).
    pub addr_space: Option<u32>,
    /// The virtual registers it reads.
    pub reads: Vec<u32>,
}

/// Where the walk reads the function: a register's unique definition.
pub trait Defs {
    fn def(&mut self, reg: u32) -> Option<Inst>;
}

/// Whether virtual registers hold the same value in every thread of a block, memoized per
/// function.
#[derive(Default)]
pub struct Uniformity {
    known: HashMap<u32, bool>,
}

impl Uniformity {
    pub fn is_uniform(&mut self, d: &mut impl Defs, reg: u32) -> bool {
        self.walk(d, reg, 0)
    }

    fn walk(&mut self, d: &mut impl Defs, reg: u32, depth: u32) -> bool {
        if let Some(&u) = self.known.get(&reg) {
            return u;
        }
        if depth > MAX_UNIFORM_DEPTH {
            return false;
        }
        // A cycle (only through PHIs, which are refused) reads as not uniform.
        self.known.insert(reg, false);
        let def = d.def(reg);
        let u = match &def {
            None => false,
            Some(i) => self.inst_uniform(d, i, depth),
        };
        log::trace!("{PASS}: register {reg}: {def:?}: {}", if u { "uniform" } else { "varies" });
        self.known.insert(reg, u);
        u
    }

    fn inst_uniform(&mut self, d: &mut impl Defs, i: &Inst, depth: u32) -> bool {
        if i.opaque
            || (i.side_effects && !PURE_DESPITE_FLAGS.iter().any(|p| i.opcode.starts_with(p)))
        {
            return false;
        }
        if i.opcode.starts_with(SREG_MACHINE_PREFIX) {
            // The block index and the block and grid dimensions (src/analysis/gpu.rs); every
            // other special register (`%tid`, `%laneid`, `%clock`, ...) varies.
            return Sreg::from_machine_opcode(&i.opcode).is_some_and(Sreg::is_block_uniform);
        }
        if i.opcode.starts_with(INTRINSIC_PREFIX) {
            return false;
        }
        if i.may_load && !i.addr_space.is_some_and(|a| UNIFORM_LOAD_SPACES.contains(&a)) {
            return false;
        }
        i.reads.iter().all(|&r| self.walk(d, r, depth + 1))
    }
}

/// Whether to split a candidate under `rule`: its multiplier is a power of two, and (for
/// [`Rule::UniformBase`]) every reader of the product is a 64-bit add whose other register
/// operands are uniform.
pub fn decide(
    rule: Rule,
    imm: i64,
    product: u32,
    readers: &[Inst],
    d: &mut impl Defs,
    u: &mut Uniformity,
) -> Option<u32> {
    let k = shift_of(imm)?;
    match rule {
        Rule::Off => None,
        Rule::Every => Some(k),
        Rule::UniformBase => {
            let ok = !readers.is_empty()
                && readers.iter().all(|r| {
                    !r.opaque
                        && !r.side_effects
                        && ADD64.contains(&r.opcode.as_str())
                        && r.reads.iter().filter(|&&x| x != product).all(|&x| u.is_uniform(d, x))
                });
            ok.then_some(k)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Table(HashMap<u32, Inst>);
    impl Defs for Table {
        fn def(&mut self, reg: u32) -> Option<Inst> {
            self.0.get(&reg).cloned()
        }
    }

    fn inst(op: &str, reads: &[u32]) -> Inst {
        Inst {
            opcode: op.into(),
            may_load: false,
            opaque: false,
            side_effects: false,
            addr_space: None,
            reads: reads.to_vec(),
        }
    }

    fn load(space: u32, reads: &[u32]) -> Inst {
        Inst { may_load: true, addr_space: Some(space), ..inst("LD_i64", reads) }
    }

    /// %1 = ld.param; %2 = cvta %1; %3 = ctaid; %4 = mul.wide %3, 2048; %5 = add %2, %4;
    /// %6 = tid; %8 = ld.global; %9 = phi.
    fn fill() -> Table {
        let mut t = HashMap::default();
        t.insert(1, load(101, &[]));
        t.insert(2, Inst { side_effects: true, ..inst("cvta_to_global_64", &[1]) });
        t.insert(3, inst("INT_PTX_SREG_CTAID_x", &[]));
        t.insert(4, inst("MUL_WIDEu32_ri", &[3]));
        t.insert(5, inst("ADD64rr", &[2, 4]));
        t.insert(6, inst("INT_PTX_SREG_TID_x", &[]));
        t.insert(8, load(1, &[5]));
        t.insert(9, Inst { opaque: true, ..inst("PHI", &[5]) });
        t.insert(11, Inst { side_effects: true, ..inst("INLINEASM", &[5]) });
        Table(t)
    }

    #[test]
    fn powers_of_two_only() {
        assert_eq!(shift_of(4), Some(2));
        assert_eq!(shift_of(2), Some(1));
        assert_eq!(shift_of(1 << 31), Some(31));
        for bad in [0, 1, 3, 12, -4, 1 << 32] {
            assert_eq!(shift_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn parameters_block_index_and_their_arithmetic_are_uniform() {
        let (mut t, mut u) = (fill(), Uniformity::default());
        assert!(u.is_uniform(&mut t, 5));
        assert!(!u.is_uniform(&mut t, 6), "thread index");
        t.0.insert(12, inst("INT_PTX_SREG_NCTAID_y", &[]));
        t.0.insert(13, inst("INT_PTX_SREG_LANEID", &[]));
        assert!(u.is_uniform(&mut t, 12), "grid dimension");
        assert!(!u.is_uniform(&mut t, 13), "lane index");
        assert!(!u.is_uniform(&mut t, 8), "global load");
        assert!(!u.is_uniform(&mut t, 9), "PHI");
        assert!(!u.is_uniform(&mut t, 11), "side effects");
        assert!(!u.is_uniform(&mut t, 77), "no unique definition");
    }

    #[test]
    fn split_when_every_reader_adds_a_uniform_base() {
        let mut t = fill();
        t.0.insert(10, inst("MUL_WIDEu32_ri", &[6]));
        let add = inst("ADD64rr", &[5, 10]);
        let mut u = Uniformity::default();
        assert_eq!(decide(Rule::UniformBase, 4, 10, &[add.clone()], &mut t, &mut u), Some(2));
        assert_eq!(decide(Rule::UniformBase, 12, 10, &[add.clone()], &mut t, &mut u), None);
        assert_eq!(decide(Rule::Off, 4, 10, &[add.clone()], &mut t, &mut u), None);
        // a varying base, a non-add reader, or no reader: left alone (except under Every)
        let varying = inst("ADD64rr", &[8, 10]);
        assert_eq!(
            decide(Rule::UniformBase, 4, 10, &[add.clone(), varying.clone()], &mut t, &mut u),
            None
        );
        assert_eq!(decide(Rule::Every, 4, 10, &[varying], &mut t, &mut u), Some(2));
        let store = Inst { opaque: true, ..inst("ST_i32", &[10]) };
        assert_eq!(decide(Rule::UniformBase, 4, 10, &[store], &mut t, &mut u), None);
        assert_eq!(decide(Rule::UniformBase, 4, 10, &[], &mut t, &mut u), None);
        let imm = inst("ADD64ri", &[10]);
        assert_eq!(decide(Rule::UniformBase, 8, 10, &[imm], &mut t, &mut u), Some(3));
    }
}
