//! Refuses a host LLVM whose major version is not the one nvopt was built for (issue 2:
//! "refuse a host LLVM whose major version is not 22 with a clear message instead of
//! crashing"). The host's version is read from the libLLVM libraries loaded in the process.
use std::sync::OnceLock;

/// The LLVM major this plugin was built against.
pub const BUILT_MAJOR: u32 = 22;

/// The decision for a set of loaded libLLVM majors: `Err(message)` when one differs.
pub fn judge(loaded: &[u32]) -> Result<(), String> {
    match loaded.iter().find(|&&m| m != BUILT_MAJOR) {
        None => Ok(()),
        Some(m) => Err(format!(
            "nvopt: error: this plugin was built for LLVM {BUILT_MAJOR} ({}) but the host tool runs \
             LLVM {m}; load it into LLVM {BUILT_MAJOR}'s opt/llc/clang, or rebuild nvopt against LLVM {m} \
             (LLVM_CONFIG=llvm-config-{m} cargo build --release)",
            env!("NVOPT_LLVM_VERSION")
        )),
    }
}

/// Checks the host once per process; prints the refusal once.
pub fn check_once() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| match judge(&crate::ffi::loaded_llvm_majors()) {
        Ok(()) => true,
        Err(msg) => {
            eprintln!("{msg}");
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_major_is_accepted() {
        assert!(judge(&[22]).is_ok());
        assert!(judge(&[]).is_ok());
    }

    #[test]
    fn other_major_is_refused_with_both_versions() {
        let msg = judge(&[22, 21]).unwrap_err();
        assert!(msg.contains("built for LLVM 22") && msg.contains("runs LLVM 21"), "{msg}");
    }
}
