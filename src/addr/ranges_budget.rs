//! The per-thread register budget BASR spends (research-facts.md "Address optimization": from
//! the register file size and the launch bounds `maxntid`, `minctasm`): the register file
//! divided among the threads that must be resident at once, capped by the 255 registers a
//! thread can address.
use crate::gpu::LaunchBounds;

/// Registers one thread can address.
pub const MAX_REGS_PER_THREAD: u64 = 255;

/// Registers per thread: `file / (threads per block * min blocks per SM)`, at most 255; 255
/// without launch bounds.
pub fn register_budget(bounds: &LaunchBounds, file: u64) -> u64 {
    let dims = bounds.reqntid.as_ref().or(bounds.maxntid.as_ref());
    let threads: u64 = dims.map(|d| d.iter().product::<u64>()).unwrap_or(0);
    let blocks = bounds.minctasm.unwrap_or(1).max(1);
    match threads.checked_mul(blocks) {
        Some(t) if t > 0 => (file / t).min(MAX_REGS_PER_THREAD),
        _ => MAX_REGS_PER_THREAD,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_from_launch_bounds() {
        let lb =
            |maxntid: Option<Vec<u64>>, minctasm| LaunchBounds { maxntid, reqntid: None, minctasm };
        assert_eq!(register_budget(&lb(None, None), 65536), 255);
        assert_eq!(register_budget(&lb(Some(vec![256]), None), 65536), 255);
        assert_eq!(register_budget(&lb(Some(vec![256]), Some(4)), 65536), 64);
        assert_eq!(register_budget(&lb(Some(vec![32, 32, 1]), Some(2)), 65536), 32);
    }
}
