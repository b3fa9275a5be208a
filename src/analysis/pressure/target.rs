//! How many registers per thread a function should fit in: the register target the
//! pressure-driven passes (nv-remat, the IV rewriting, BASR's budget) work toward.
//!
//! In order: a kernel's launch bounds (`__launch_bounds__(threads, blocks)`: the register file
//! shared by the threads that must be resident at once, docs/CICC-FACTS.md "Address
//! optimization"), which win over a cap as they do in ptxas (it ignores `-maxrregcount` for a
//! kernel with launch bounds; measured with the bench's `--maxreg`); `-nv-maxreg=N` (nvcc's
//! `-maxrregcount`; `nvopt-cc -maxrregcount N` sets it and gives ptxas the same cap); else
//! [`DEFAULT_TARGET`].
use crate::analysis::gpu::{LaunchBounds, PTX_KERNEL_CC};
use inkwell::attributes::AttributeLoc;
use inkwell::values::FunctionValue;

/// 32-bit registers in one SM's register file (sm_70 to sm_90).
pub const REGISTER_FILE: u64 = 65536;

/// Registers one thread can address.
pub const MAX_REGS_PER_THREAD: u64 = 255;

/// ptxas gives a thread its registers in multiples of this many (a warp's registers come in
/// units of 256, sm_70 to sm_90): under launch bounds its cap is the register file's share
/// rounded down to a multiple of it (`__launch_bounds__(384, 2)`: 65536 / 768 = 85, cap 80).
pub const REGS_PER_THREAD_GRANULE: u64 = 8;

/// The target without a cap or launch bounds: 64 registers, the most at which a 256-thread
/// block still runs four blocks (half of sm_90's 2048 resident threads) per SM. Above it every
/// register costs occupancy at the common block sizes.
pub const DEFAULT_TARGET: u32 = 64;

/// Where a target came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Knob,
    LaunchBounds,
    Default,
}

impl Source {
    pub fn describe(self) -> &'static str {
        match self {
            Source::Knob => "-nv-maxreg",
            Source::LaunchBounds => "launch bounds",
            Source::Default => "default",
        }
    }
}

/// A register target and its origin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub regs: u32,
    pub source: Source,
}

/// Registers per thread: `file / (threads per block * min blocks per SM)`, rounded down to a
/// multiple of [`REGS_PER_THREAD_GRANULE`] as ptxas allocates them, at most 255; 255 without
/// launch bounds.
pub fn register_budget(bounds: &LaunchBounds, file: u64) -> u64 {
    let threads = threads_per_block(bounds).unwrap_or(0);
    let blocks = bounds.minctasm.unwrap_or(1).max(1);
    match threads.checked_mul(blocks) {
        Some(t) if t > 0 => {
            // A share below one granule (bounds no SM can hold) stays as it is: the passes
            // then see how little room there is rather than a made-up granule.
            let share = file / t;
            let granted = if share >= REGS_PER_THREAD_GRANULE {
                share / REGS_PER_THREAD_GRANULE * REGS_PER_THREAD_GRANULE
            } else {
                share
            };
            granted.min(MAX_REGS_PER_THREAD)
        }
        _ => MAX_REGS_PER_THREAD,
    }
}

/// The threads per block the launch bounds name (`reqntid`, else `maxntid`), if any.
pub fn threads_per_block(bounds: &LaunchBounds) -> Option<u64> {
    let dims = bounds.reqntid.as_ref().or(bounds.maxntid.as_ref());
    dims.map(|d| d.iter().product::<u64>())
}

/// The threads per block of launch bounds that name a thread count and ask for no occupancy
/// (no minimum of blocks per SM, or a minimum of 1); None otherwise.
pub fn threads_only(bounds: &LaunchBounds) -> Option<u64> {
    match bounds.minctasm {
        None | Some(0..=1) => threads_per_block(bounds),
        _ => None,
    }
}

/// The target from a kernel's launch bounds and the `-nv-maxreg` value (0: none).
pub fn target(maxreg: i64, bounds: &LaunchBounds) -> Target {
    if !bounds.is_empty() {
        let regs = register_budget(bounds, REGISTER_FILE) as u32;
        return Target { regs, source: Source::LaunchBounds };
    }
    if maxreg > 0 {
        let regs = maxreg.min(MAX_REGS_PER_THREAD as i64) as u32;
        return Target { regs, source: Source::Knob };
    }
    Target { regs: DEFAULT_TARGET, source: Source::Default }
}

/// A function's launch bounds (kernels only; malformed attributes bound nothing).
pub fn launch_bounds(f: FunctionValue) -> LaunchBounds {
    if f.get_call_conventions() != PTX_KERNEL_CC {
        return LaunchBounds::default();
    }
    let attr = |name: &str| {
        f.get_string_attribute(AttributeLoc::Function, name)
            .map(|a| a.get_string_value().to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    LaunchBounds::parse(&attr("nvvm.maxntid"), &attr("nvvm.reqntid"), &attr("nvvm.minctasm")).0
}

/// The target of function `f` under the current knobs.
pub fn for_function(f: FunctionValue, knobs: &crate::knobs::Knobs) -> Target {
    target(knobs.nv_maxreg(), &launch_bounds(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lb(maxntid: Option<Vec<u64>>, minctasm: Option<u64>) -> LaunchBounds {
        LaunchBounds { maxntid, reqntid: None, minctasm }
    }

    #[test]
    fn thread_only_bounds() {
        assert_eq!(threads_only(&lb(Some(vec![384]), None)), Some(384));
        assert_eq!(threads_only(&lb(Some(vec![32, 4, 1]), Some(1))), Some(128));
        assert_eq!(threads_only(&lb(Some(vec![384]), Some(2))), None);
        assert_eq!(threads_only(&lb(None, None)), None);
    }

    #[test]
    fn budgets_from_launch_bounds() {
        assert_eq!(register_budget(&lb(None, None), 65536), 255);
        assert_eq!(register_budget(&lb(Some(vec![256]), None), 65536), 255);
        assert_eq!(register_budget(&lb(Some(vec![256]), Some(4)), 65536), 64);
        assert_eq!(register_budget(&lb(Some(vec![32, 32, 1]), Some(2)), 65536), 32);
        // CUB's onesweep kernel: 384 threads, 2 blocks: 85 registers' share, ptxas caps at 80.
        assert_eq!(register_budget(&lb(Some(vec![384]), Some(2)), 65536), 80);
        assert_eq!(register_budget(&lb(Some(vec![384]), None), 65536), 168);
        // 1024 threads x 32 blocks: a share of 2, below one granule, is kept.
        assert_eq!(register_budget(&lb(Some(vec![1024]), Some(32)), 65536), 2);
    }

    #[test]
    fn bounds_come_first_then_the_knob_then_the_default() {
        let bounded = lb(Some(vec![256]), Some(4));
        assert_eq!(target(32, &bounded), Target { regs: 64, source: Source::LaunchBounds });
        assert_eq!(target(0, &bounded), Target { regs: 64, source: Source::LaunchBounds });
        assert_eq!(target(32, &LaunchBounds::default()), Target { regs: 32, source: Source::Knob });
        let big = lb(Some(vec![128]), Some(8));
        assert_eq!(target(0, &big).regs, 64);
        assert_eq!(
            target(0, &LaunchBounds::default()),
            Target { regs: 64, source: Source::Default }
        );
        assert_eq!(target(300, &LaunchBounds::default()).regs, 255);
    }
}
