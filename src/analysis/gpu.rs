//! The GPU vocabulary every pass shares, at the ground floor of the crate (it imports nothing
//! of it): the PTX special registers (`llvm.nvvm.read.ptx.sreg.*`) and launch dimensions, the
//! value ranges the hardware gives them (the ranges of LLVM 22's intrinsic definitions: a
//! thread index below 1024 in x and y and below 64 in z, a block size of at most 1024 threads,
//! 32 lanes to a warp), and a kernel's launch bounds (the function attributes `nvvm.maxntid`,
//! `nvvm.reqntid` and `nvvm.minctasm` that `__launch_bounds__` and `__maxnreg__`-style
//! annotations become), which tighten those ranges. nv-scev-sources attaches the ranges to
//! special-register calls; the address passes read the launch bounds for BASR's register
//! budget and the special registers in address expressions.

/// LLVM's `CallingConv::PTX_Kernel`: a kernel (`define ptx_kernel`) is CC 71 in LLVM 22.
pub const PTX_KERNEL_CC: u32 = 71;

/// Address spaces of NVPTX (LLVM's `NVPTXAS`): generic pointers may point into any of the others.
pub mod addrspace {
    pub const GENERIC: u32 = 0;
    pub const GLOBAL: u32 = 1;
    pub const SHARED: u32 = 3;
    pub const CONST: u32 = 4;
    pub const LOCAL: u32 = 5;
    pub const PARAM: u32 = 101;
}

/// A launch dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    X,
    Y,
    Z,
}

/// A PTX special register that nvopt knows facts about (`llvm.nvvm.read.ptx.sreg.*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(Dim),
    Ntid(Dim),
    Ctaid(Dim),
    Nctaid(Dim),
    Laneid,
    Warpsize,
}

/// Every special register of [`Sreg`], in a fixed order: the index is the code the C++ shim
/// uses for a call's callee ([`Sreg::code`]).
pub const ALL_SREGS: [Sreg; 14] = [
    Sreg::Tid(Dim::X),
    Sreg::Tid(Dim::Y),
    Sreg::Tid(Dim::Z),
    Sreg::Ntid(Dim::X),
    Sreg::Ntid(Dim::Y),
    Sreg::Ntid(Dim::Z),
    Sreg::Ctaid(Dim::X),
    Sreg::Ctaid(Dim::Y),
    Sreg::Ctaid(Dim::Z),
    Sreg::Nctaid(Dim::X),
    Sreg::Nctaid(Dim::Y),
    Sreg::Nctaid(Dim::Z),
    Sreg::Laneid,
    Sreg::Warpsize,
];

/// The prefix of the intrinsics that read PTX special registers (`llvm.nvvm.read.ptx.sreg.<name>`).
pub const SREG_INTRINSIC_PREFIX: &str = "llvm.nvvm.read.ptx.sreg.";

/// The special registers whose value is fixed for a thread's whole run (thread, block, grid
/// and cluster indices and sizes, lane facts), by the start of the name after
/// [`SREG_INTRINSIC_PREFIX`]; clocks, timers, `%warpid` and `%smid` change and are not
/// recomputable. Every [`Sreg`] is among them.
pub const THREAD_FIXED_SREGS: &[&str] = &[
    "tid.",
    "ntid.",
    "ctaid.",
    "nctaid.",
    "laneid",
    "warpsize",
    "lanemask.",
    "cluster",
    "nclusterid.",
];

/// Every PTX special register (PTX ISA "Special Registers") as PTX text spells it, without
/// `%` (inline asm reads them so: `mov.u32 %0, %%laneid;`), where [`THREAD_FIXED_SREGS`] uses
/// the intrinsics' spelling (`lanemask.lt` for `%lanemask_lt`); a trailing `*` stands for a
/// family (`%envreg0`..`%envreg31`, `%pm0`.., `%cluster_ctaid`, ...).
pub const PTX_SPECIAL_REGISTERS: &[&str] = &[
    "tid",
    "ntid",
    "laneid",
    "warpid",
    "nwarpid",
    "ctaid",
    "nctaid",
    "smid",
    "nsmid",
    "gridid",
    "lanemask_eq",
    "lanemask_le",
    "lanemask_lt",
    "lanemask_ge",
    "lanemask_gt",
    "clock",
    "clock64",
    "clock_hi",
    "globaltimer",
    "globaltimer_lo",
    "globaltimer_hi",
    "envreg*",
    "pm*",
    "total_smem_size",
    "aggr_smem_size",
    "dynamic_smem_size",
    "reserved_smem_*",
    "cluster*",
    "nclusterid",
    "is_explicit_cluster",
    "current_graph_exec",
];

/// Whether the intrinsic `name` reads a special register fixed for the thread's run
/// ([`THREAD_FIXED_SREGS`]).
pub fn is_thread_fixed_sreg(name: &str) -> bool {
    name.strip_prefix(SREG_INTRINSIC_PREFIX)
        .is_some_and(|r| THREAD_FIXED_SREGS.iter().any(|p| r.starts_with(p)))
}

/// The prefix of NVPTX's machine opcodes (LLVM 22) that read a special register
/// (`INT_PTX_SREG_CTAID_x`, `INT_PTX_SREG_LANEID`).
pub const SREG_MACHINE_PREFIX: &str = "INT_PTX_SREG_";

impl Sreg {
    /// The register a machine opcode such as `INT_PTX_SREG_CTAID_x` reads ([`SREG_MACHINE_PREFIX`]).
    pub fn from_machine_opcode(opcode: &str) -> Option<Sreg> {
        let reg = opcode.strip_prefix(SREG_MACHINE_PREFIX)?.to_ascii_lowercase();
        let reg = match reg.rsplit_once('_') {
            Some((base, dim @ ("x" | "y" | "z"))) => format!("{base}.{dim}"),
            _ => reg,
        };
        Sreg::from_intrinsic(&format!("{SREG_INTRINSIC_PREFIX}{reg}"))
    }

    /// Whether every thread of a block reads the same value: the block index and the block and
    /// grid dimensions.
    pub fn is_block_uniform(self) -> bool {
        matches!(self, Sreg::Ctaid(_)) || self.is_launch_dimension()
    }

    /// The register of an intrinsic name such as `llvm.nvvm.read.ptx.sreg.tid.x`.
    pub fn from_intrinsic(name: &str) -> Option<Sreg> {
        let reg = name.strip_prefix(SREG_INTRINSIC_PREFIX)?;
        match reg {
            "laneid" => return Some(Sreg::Laneid),
            "warpsize" => return Some(Sreg::Warpsize),
            _ => {}
        }
        let (base, dim) = reg.rsplit_once('.')?;
        let dim = match dim {
            "x" => Dim::X,
            "y" => Dim::Y,
            "z" => Dim::Z,
            _ => return None,
        };
        match base {
            "tid" => Some(Sreg::Tid(dim)),
            "ntid" => Some(Sreg::Ntid(dim)),
            "ctaid" => Some(Sreg::Ctaid(dim)),
            "nctaid" => Some(Sreg::Nctaid(dim)),
            _ => None,
        }
    }

    /// Index in [`ALL_SREGS`].
    pub fn code(self) -> usize {
        ALL_SREGS.iter().position(|s| *s == self).expect("every Sreg is in ALL_SREGS")
    }

    pub fn from_code(code: i64) -> Option<Sreg> {
        usize::try_from(code).ok().and_then(|i| ALL_SREGS.get(i).copied())
    }

    /// Launch-configuration registers: values fixed for the whole launch and at least 1.
    pub fn is_launch_dimension(self) -> bool {
        matches!(self, Sreg::Ntid(_) | Sreg::Nctaid(_) | Sreg::Warpsize)
    }
}

/// A half-open range `[lo, hi)` of an unsigned register value (`hi` may be `2^width`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub lo: u64,
    pub hi: u64,
}

impl Span {
    pub const fn new(lo: u64, hi: u64) -> Span {
        Span { lo, hi }
    }

    pub fn intersect(self, other: Span) -> Option<Span> {
        let s = Span::new(self.lo.max(other.lo), self.hi.min(other.hi));
        (s.lo < s.hi).then_some(s)
    }

    /// LLVM's `ConstantRange` bounds (lower, upper, both `width` bits): `None` for an empty or
    /// wrapped range, which this module does not tighten.
    pub fn from_llvm(lower: u64, upper: u64, width: u32) -> Option<Span> {
        let top = 1u64.checked_shl(width).filter(|_| width < 64)?;
        let max = top - 1;
        match (lower, upper) {
            (l, u) if l < u => Some(Span::new(l, u)),
            (l, 0) if l != 0 => Some(Span::new(l, top)),
            (l, u) if l == u && l == max => Some(Span::new(0, top)),
            _ => None,
        }
    }
}

/// The ranges of LLVM 22's intrinsic definitions (docs/CICC-FACTS.md "SCEV facts"): what every
/// call has
/// before launch bounds are considered.
pub fn hardware(s: Sreg) -> Span {
    match s {
        Sreg::Tid(Dim::Z) => Span::new(0, 64),
        Sreg::Tid(_) => Span::new(0, 1024),
        Sreg::Ntid(Dim::Z) => Span::new(1, 65),
        Sreg::Ntid(_) => Span::new(1, 1025),
        Sreg::Ctaid(Dim::X) => Span::new(0, 0x7fff_ffff),
        Sreg::Ctaid(_) => Span::new(0, 0xffff),
        Sreg::Nctaid(Dim::X) => Span::new(1, 0x8000_0000),
        Sreg::Nctaid(_) => Span::new(1, 0x1_0000),
        Sreg::Laneid => Span::new(0, 32),
        Sreg::Warpsize => Span::new(32, 33),
    }
}

/// A kernel's launch bounds (function attributes `nvvm.maxntid`, `nvvm.reqntid`,
/// `nvvm.minctasm`; LLVM 22 upgrades the older `!nvvm.annotations` to these when it reads IR).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchBounds {
    pub maxntid: Option<Vec<u64>>,
    pub reqntid: Option<Vec<u64>>,
    pub minctasm: Option<u64>,
}

impl LaunchBounds {
    /// Parses the attribute values (empty: absent). A malformed value is dropped, so it bounds
    /// nothing; the names of dropped attributes are returned for a warning.
    pub fn parse(
        maxntid: &str,
        reqntid: &str,
        minctasm: &str,
    ) -> (LaunchBounds, Vec<&'static str>) {
        let mut bad = Vec::new();
        let mut field = |name: &'static str, text: &str| -> Option<Vec<u64>> {
            if text.is_empty() {
                return None;
            }
            let dims = parse_dims(text);
            if dims.is_none() {
                bad.push(name);
            }
            dims
        };
        let maxntid = field("nvvm.maxntid", maxntid);
        let reqntid = field("nvvm.reqntid", reqntid);
        let minctasm = field("nvvm.minctasm", minctasm).and_then(|v| (v.len() == 1).then(|| v[0]));
        (LaunchBounds { maxntid, reqntid, minctasm }, bad)
    }

    pub fn is_empty(&self) -> bool {
        self.maxntid.is_none() && self.reqntid.is_none()
    }
}

/// `"256"` or `"16,8,2"`: one to three positive integers.
fn parse_dims(text: &str) -> Option<Vec<u64>> {
    let dims: Vec<u64> =
        text.split(',').map(|d| d.trim().parse().ok().filter(|v| *v > 0)).collect::<Option<_>>()?;
    (1..=3).contains(&dims.len()).then_some(dims)
}

fn dim_index(d: Dim) -> usize {
    match d {
        Dim::X => 0,
        Dim::Y => 1,
        Dim::Z => 2,
    }
}

/// The block-size bounds for dimension `d`: `(ntid range, tid range)` implied by the launch
/// bounds alone, each `None` when they imply nothing.
fn block_bounds(d: Dim, lb: &LaunchBounds) -> Vec<(Span, Span)> {
    let mut out = Vec::new();
    if let Some(req) = &lb.reqntid {
        let n = req.get(dim_index(d)).copied().unwrap_or(1);
        out.push((Span::new(n, n.saturating_add(1)), Span::new(0, n)));
    }
    if let Some(max) = &lb.maxntid {
        let threads = max.iter().fold(1u64, |p, v| p.saturating_mul(*v));
        out.push((Span::new(1, threads.saturating_add(1)), Span::new(0, threads)));
    }
    out
}

/// The range of a special register in a function with launch bounds `lb` (pass the default
/// for a non-kernel: launch bounds are properties of kernels). A bound that contradicts the
/// hardware range (garbage in) is ignored rather than producing an empty range.
pub fn sreg_span(s: Sreg, lb: &LaunchBounds) -> Span {
    let mut span = hardware(s);
    let (dim, is_ntid) = match s {
        Sreg::Ntid(d) => (d, true),
        Sreg::Tid(d) => (d, false),
        _ => return span,
    };
    for (ntid, tid) in block_bounds(dim, lb) {
        let bound = if is_ntid { ntid } else { tid };
        span = span.intersect(bound).unwrap_or(span);
    }
    span
}

#[cfg(test)]
mod tests {

    #[test]
    fn machine_opcodes_name_their_special_register() {
        assert_eq!(Sreg::from_machine_opcode("INT_PTX_SREG_CTAID_x"), Some(Sreg::Ctaid(Dim::X)));
        assert_eq!(Sreg::from_machine_opcode("INT_PTX_SREG_NTID_z"), Some(Sreg::Ntid(Dim::Z)));
        assert_eq!(Sreg::from_machine_opcode("INT_PTX_SREG_LANEID"), Some(Sreg::Laneid));
        assert_eq!(Sreg::from_machine_opcode("INT_PTX_SREG_CLOCK"), None);
        assert_eq!(Sreg::from_machine_opcode("ADD64rr"), None);
        assert!(Sreg::Ctaid(Dim::Y).is_block_uniform() && Sreg::Nctaid(Dim::X).is_block_uniform());
        assert!(!Sreg::Tid(Dim::X).is_block_uniform() && !Sreg::Laneid.is_block_uniform());
    }

    use super::*;

    /// The registers nvopt knows facts about are fixed for a thread's run; clocks are not.
    #[test]
    fn thread_fixed_special_registers() {
        for s in ALL_SREGS {
            let name = match s {
                Sreg::Laneid => "laneid".to_string(),
                Sreg::Warpsize => "warpsize".to_string(),
                Sreg::Tid(d) | Sreg::Ntid(d) | Sreg::Ctaid(d) | Sreg::Nctaid(d) => {
                    let base = format!("{s:?}").to_lowercase();
                    let base = base.split('(').next().unwrap().to_string();
                    format!("{base}.{}", format!("{d:?}").to_lowercase())
                }
            };
            let intrinsic = format!("{SREG_INTRINSIC_PREFIX}{name}");
            assert_eq!(Sreg::from_intrinsic(&intrinsic), Some(s), "{intrinsic}");
            assert!(is_thread_fixed_sreg(&intrinsic), "{intrinsic}");
        }
        for other in ["clock", "clock64", "globaltimer", "warpid", "smid"] {
            assert!(!is_thread_fixed_sreg(&format!("{SREG_INTRINSIC_PREFIX}{other}")));
        }
        assert!(is_thread_fixed_sreg("llvm.nvvm.read.ptx.sreg.lanemask.lt"));
        assert!(!is_thread_fixed_sreg("llvm.nvvm.read.ptx.tid.x"));
    }
}
