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

/// The LLVM major in a libLLVM file name (`libLLVM.so.22.1`, `libLLVM-22.so`), if it is one.
pub fn llvm_major(path: &str) -> Option<u32> {
    let base = path.rsplit('/').next().unwrap_or(path).strip_prefix("libLLVM")?;
    let rest = base.strip_prefix(".so.").or_else(|| base.strip_prefix('-'))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Checks the host once per process; prints the refusal once.
pub fn check_once() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    let majors =
        || crate::ffi::loaded_libraries().iter().filter_map(|l| llvm_major(l)).collect::<Vec<_>>();
    *OK.get_or_init(|| match judge(&majors()) {
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
    fn majors_from_library_names() {
        assert_eq!(llvm_major("/usr/lib/llvm-22/lib/libLLVM.so.22.1"), Some(22));
        assert_eq!(llvm_major("/usr/lib/x86_64-linux-gnu/libLLVM-21.so"), Some(21));
        assert_eq!(llvm_major("/tmp/libLLVM.so.21.1"), Some(21));
        assert_eq!(llvm_major("/usr/lib/libLLVMSupport.so"), None);
        assert_eq!(llvm_major("/lib/libc.so.6"), None);
        assert_eq!(llvm_major("libLLVM.so"), None);
    }

    #[test]
    fn other_major_is_refused_with_both_versions() {
        let msg = judge(&[22, 21]).unwrap_err();
        assert!(msg.contains("built for LLVM 22") && msg.contains("runs LLVM 21"), "{msg}");
    }
}
