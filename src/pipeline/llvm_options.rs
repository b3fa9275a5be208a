//! LLVM's own options that an `nvopt<LEVEL>` pipeline sets, where cicc's flow differs from
//! LLVM's by a number that only an LLVM option reaches (no pass parameter carries it).
//!
//! One today: **`-unroll-max-count`**, the largest count of partial and runtime unrolling, at O2
//! and O3 (the levels whose `loop-unroll` slots may unroll partially or at run time). LLVM's
//! unroller runtime-unrolls a loop with an unknown trip count 8 times (its
//! `DefaultUnrollRuntimeCount`) when the copies fit NVPTX's partial threshold; nvcc does it 4
//! times. Measured with nvcc 13.5 for sm_90 on `s += a[i]`, `s ^= a[i] * 3`, `o[i] = a[i] * 2` and
//! a multiply recurrence (`and.b32 %r, %n, 3` remainders and 4 loads per trip against nvopt's
//! `and.b32 %r, %n, 7` and 8), and on cuda-samples' `multi_warp_cg_reduce`: thread 0's sum
//! over the per-tile partials in shared memory took 26 / 29 registers (float / int) unrolled 8
//! times, 21 / 25 unrolled 4 times (nvcc 22 / 23), because ptxas issues all the copies' loads
//! together. The cap also applies to partial unrolling of loops with a constant trip count
//! (LLVM has one option for both); nvcc unrolls those further, and none of the 455 cuda-samples
//! kernels or the bench's entries changed through that path.
//!
//! ```text
//! ; for (i = 0; i < n; i++) s += p[i];     LLVM:  8 loads a trip, n & 7 remainder
//!                                           nvopt: 4 loads a trip, n & 3 remainder (as nvcc)
//! ```
//!
//! The option is set when the pipeline is built, for the whole process, and only when the
//! command line did not give it (`opt -unroll-max-count=8 -passes='nvopt<O3>'` keeps 8). Knob:
//! `nv-unroll-max-count` (4; 0 leaves LLVM's count). A process without the option (an LLVM
//! built without the unroller) gets a warning, not a silent fall-back; each setting counts in
//! `-nv-stats` under `nvopt<LEVEL>`.
use super::Level;
use crate::ffi::{default_llvm_option, LlvmOption};
use crate::knobs::Knobs;

/// LLVM's option for the largest partial and runtime unroll count.
pub const UNROLL_MAX_COUNT: &str = "unroll-max-count";

/// The LLVM options `level` sets under `knobs`: (name, value).
pub fn settings(level: Level, knobs: &Knobs) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let count = knobs.nv_unroll_max_count();
    if matches!(level, Level::O2 | Level::O3) && count > 0 {
        out.push((UNROLL_MAX_COUNT, count.to_string()));
    }
    out
}

/// Sets `level`'s options in this process; returns how many it set (options the command line
/// gave keep their values). Unknown or rejected options are reported on stderr.
pub fn apply(level: Level, knobs: &Knobs) -> usize {
    let mut set = 0;
    for (name, value) in settings(level, knobs) {
        match default_llvm_option(name, &value) {
            LlvmOption::Set => set += 1,
            LlvmOption::Given => {}
            LlvmOption::Unknown => eprintln!(
                "nvopt: warning: this LLVM has no -{name} option: nvopt<{}> runs LLVM's own value",
                level.name()
            ),
            LlvmOption::Rejected => {
                eprintln!("nvopt: warning: LLVM rejected -{name}={value}: its own value stays")
            }
        }
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knobs::K;

    #[test]
    fn o2_and_o3_cap_partial_and_runtime_unrolling_at_the_knob() {
        let knobs = Knobs::defaults();
        for level in [Level::O2, Level::O3] {
            assert_eq!(settings(level, &knobs), vec![(UNROLL_MAX_COUNT, "4".to_string())]);
        }
        for level in [Level::O0, Level::O1, Level::Ofcmax, Level::Ofcmid, Level::Ofcmin] {
            assert!(settings(level, &knobs).is_empty(), "{level:?}");
        }
    }

    #[test]
    fn zero_leaves_llvms_count_and_other_values_pass_through() {
        let mut knobs = Knobs::defaults();
        knobs.set(K::nv_unroll_max_count, 0);
        assert!(settings(Level::O3, &knobs).is_empty());
        knobs.set(K::nv_unroll_max_count, 2);
        assert_eq!(settings(Level::O3, &knobs), vec![(UNROLL_MAX_COUNT, "2".to_string())]);
    }
}
