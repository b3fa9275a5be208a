//! GPU targets: which `-arch` values llc-22 can compile for, and which PTX ISA version each
//! gets. The driver uses max(8.0, llc-22's minimum for the target): PTX 8.0 for sm_90 and older
//! (the version of the clang flags verified in docs/ARCHITECTURE.md "Platform facts"), the newer ISA that Blackwell-and-later
//! targets need (llc-22 rejects e.g. sm_100 with +ptx80).

/// Minimum PTX ISA version llc-22 emits for each processor it knows (`.version` with no +ptx
/// feature; checked with `llc -mcpu=<arch>` on LLVM 22.1), in llc's order.
const LLC_MIN_PTX: &[(&str, u32)] = &[
    ("sm_20", 32),
    ("sm_21", 32),
    ("sm_30", 32),
    ("sm_32", 40),
    ("sm_35", 32),
    ("sm_37", 41),
    ("sm_50", 40),
    ("sm_52", 41),
    ("sm_53", 42),
    ("sm_60", 50),
    ("sm_61", 50),
    ("sm_62", 50),
    ("sm_70", 60),
    ("sm_72", 61),
    ("sm_75", 63),
    ("sm_80", 70),
    ("sm_86", 71),
    ("sm_87", 74),
    ("sm_88", 90),
    ("sm_89", 78),
    ("sm_90", 78),
    ("sm_90a", 80),
    ("sm_100", 86),
    ("sm_100a", 86),
    ("sm_100f", 88),
    ("sm_101", 86),
    ("sm_101a", 86),
    ("sm_101f", 88),
    ("sm_103", 88),
    ("sm_103a", 88),
    ("sm_103f", 88),
    ("sm_110", 90),
    ("sm_110a", 90),
    ("sm_110f", 90),
    ("sm_120", 87),
    ("sm_120a", 87),
    ("sm_120f", 88),
    ("sm_121", 88),
    ("sm_121a", 88),
    ("sm_121f", 88),
];

/// The PTX ISA the driver never goes below (docs/ARCHITECTURE.md "Platform facts": clang-22 flags verified with +ptx80).
const PTX_FLOOR: u32 = 80;
/// The newest PTX ISA llc-22 knows.
const LLC_MAX_PTX: u32 = 90;
/// The target when no `-arch` is given.
pub const DEFAULT_ARCH: &str = "sm_90";

/// A resolved `-arch`: the processor llc compiles for, and whether the user named a virtual
/// architecture (`compute_XX`, which nvcc never assembles to a cubin).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub sm: String,
    pub is_virtual: bool,
}

impl Target {
    /// The architecture clang's CUDA front end takes: clang-22 has no family ('f') targets, so
    /// `sm_120f` compiles its front end as `sm_120`.
    pub fn front_end_arch(&self) -> &str {
        self.sm.strip_suffix('f').unwrap_or(&self.sm)
    }
}

fn known_archs() -> String {
    LLC_MIN_PTX.iter().map(|(sm, _)| *sm).collect::<Vec<_>>().join(", ")
}

/// Resolves `-arch` (sm_XX[a|f] or compute_XX[a|f]).
pub fn resolve_arch(arch: Option<&str>) -> Result<Target, String> {
    let arch = arch.unwrap_or(DEFAULT_ARCH);
    let (is_virtual, number) = if let Some(n) = arch.strip_prefix("sm_") {
        (false, n)
    } else if let Some(n) = arch.strip_prefix("compute_") {
        (true, n)
    } else {
        return Err(bad_arch(arch));
    };
    let digits = number.trim_end_matches(['a', 'f']);
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && number.len() - digits.len() <= 1;
    if !well_formed {
        return Err(bad_arch(arch));
    }
    let sm = format!("sm_{number}");
    if min_ptx(&sm).is_none() {
        return Err(format!(
            "GPU architecture '{arch}' is not supported by llc-22 (known: {})",
            known_archs()
        ));
    }
    Ok(Target { sm, is_virtual })
}

fn bad_arch(arch: &str) -> String {
    format!(
        "bad -arch '{arch}' (expected sm_XX or compute_XX, e.g. sm_90; known: {})",
        known_archs()
    )
}

fn min_ptx(sm: &str) -> Option<u32> {
    LLC_MIN_PTX.iter().find(|(s, _)| *s == sm).map(|(_, v)| *v)
}

/// The PTX ISA version (e.g. 80 for 8.0): the one asked for (`80` or `8.0`) if llc-22 can emit
/// it for this target, else max(8.0, the target's minimum).
pub fn resolve_ptx(target: &Target, asked: Option<&str>) -> Result<u32, String> {
    let min = min_ptx(&target.sm).expect("resolved targets are in the table");
    let Some(asked) = asked else { return Ok(min.max(PTX_FLOOR)) };
    let version = parse_ptx_version(asked)
        .ok_or_else(|| format!("bad --ptx-isa '{asked}' (expected e.g. 80 or 8.0)"))?;
    if version > LLC_MAX_PTX {
        return Err(format!(
            "PTX {} is newer than llc-22 supports ({})",
            dotted(version),
            dotted(LLC_MAX_PTX)
        ));
    }
    if version < min {
        return Err(format!(
            "{} needs PTX {} or newer (--ptx-isa {asked} given)",
            target.sm,
            dotted(min)
        ));
    }
    Ok(version)
}

/// The PTX ISA of a CUDA toolkit (`CUDA_VERSION` of its cuda.h, e.g. 12080 for 12.8), capped at
/// what llc-22 can emit: CUDA 12.0-12.5 give 8.0-8.5, 12.6 8.5, 12.8 8.7, 12.9 8.8, 13.x 9.0 (what
/// each nvcc emits by default). Whole programs use it as their default (`program.rs`): CUDA's own
/// headers (CCCL) choose instructions by the toolkit's version, so Thrust code of CUDA 13 needs
/// PTX 8.6's `cp.async.bulk`, which the 8.0 of device-code mode rejects. None before CUDA 12.
pub fn toolkit_ptx(cuda_version: u32) -> Option<u32> {
    let (major, minor) = (cuda_version / 1000, cuda_version % 1000 / 10);
    let isa = match major {
        0..=11 => return None,
        12 => [80, 81, 82, 83, 84, 85, 85, 86, 87, 88][minor.min(9) as usize],
        _ => 90,
    };
    Some(isa.min(LLC_MAX_PTX))
}

/// The `CUDA_VERSION` a cuda.h defines (`#define CUDA_VERSION 13050`).
pub fn cuda_h_version(text: &str) -> Option<u32> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("#define")?.trim_start().strip_prefix("CUDA_VERSION")?;
        rest.trim().parse().ok()
    })
}

fn parse_ptx_version(text: &str) -> Option<u32> {
    let digits: String = match text.split_once('.') {
        Some((major, minor)) if major.len() == 1 && minor.len() == 1 => format!("{major}{minor}"),
        Some(_) => return None,
        None if text.len() == 2 => text.to_string(),
        None => return None,
    };
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        None
    }
}

fn dotted(version: u32) -> String {
    format!("{}.{}", version / 10, version % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ptx_of(arch: &str) -> (String, u32) {
        let t = resolve_arch(Some(arch)).unwrap();
        let v = resolve_ptx(&t, None).unwrap();
        (t.sm, v)
    }

    #[test]
    fn archs_and_default_ptx() {
        assert_eq!(ptx_of("compute_90"), ("sm_90".into(), 80));
        assert_eq!(ptx_of("sm_75"), ("sm_75".into(), 80));
        assert_eq!(ptx_of("sm_90a"), ("sm_90a".into(), 80));
        assert_eq!(ptx_of("sm_103"), ("sm_103".into(), 88));
        assert_eq!(ptx_of("sm_110"), ("sm_110".into(), 90));
        assert!(resolve_arch(Some("compute_90")).unwrap().is_virtual);
        assert!(!resolve_arch(None).unwrap().is_virtual);
        assert_eq!(resolve_arch(Some("sm_120f")).unwrap().front_end_arch(), "sm_120");
    }

    #[test]
    fn bad_archs_name_the_valid_ones() {
        let e = resolve_arch(Some("sm_99")).unwrap_err();
        assert!(e.starts_with("GPU architecture 'sm_99' is not supported by llc-22 (known: sm_20"));
        for bad in ["gfx90a", "sm_", "sm_9x", "sm_90af", "compute"] {
            assert!(resolve_arch(Some(bad)).unwrap_err().starts_with("bad -arch"), "{bad}");
        }
    }

    #[test]
    fn toolkit_ptx_versions() {
        assert_eq!(toolkit_ptx(11080), None);
        assert_eq!(toolkit_ptx(12000), Some(80));
        assert_eq!(toolkit_ptx(12060), Some(85));
        assert_eq!(toolkit_ptx(12080), Some(87));
        assert_eq!(toolkit_ptx(12090), Some(88));
        assert_eq!(toolkit_ptx(13000), Some(90));
        assert_eq!(toolkit_ptx(13050), Some(90));
        assert_eq!(cuda_h_version("#ifndef X\n#define CUDA_VERSION 13050\n"), Some(13050));
        assert_eq!(cuda_h_version("#define CUDA_VERSION_X 1\n"), None);
    }

    #[test]
    fn explicit_ptx_versions() {
        let t = resolve_arch(Some("sm_90")).unwrap();
        assert_eq!(resolve_ptx(&t, Some("8.5")), Ok(85));
        assert_eq!(resolve_ptx(&t, Some("85")), Ok(85));
        assert!(resolve_ptx(&t, Some("9.1")).unwrap_err().contains("newer than llc-22"));
        assert!(resolve_ptx(&t, Some("x")).unwrap_err().starts_with("bad --ptx-isa"));
        let b = resolve_arch(Some("sm_100")).unwrap();
        assert_eq!(
            resolve_ptx(&b, Some("80")).unwrap_err(),
            "sm_100 needs PTX 8.6 or newer (--ptx-isa 80 given)"
        );
    }
}
