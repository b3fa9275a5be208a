//! nvcc's whole-program options: the compile and link phases (`-c`, `-dc`, `-dlink`, `-lib`,
//! `-M`...), host-compiler and linker pass-through (`-Xcompiler`, `-Xlinker`, `-L`, `-l`),
//! `-gencode`/`-code`, `-std`, `-x`, `-cudart`, and the host-compiler choices nvopt-cc
//! ignores with a warning (`-ccbin`). One table, [`SPECS`], gives each option's spellings, what
//! it does and its `--help` line; the parser and the help text both read it.
use crate::options::{ArgError, Cursor, Options};

/// The phase nvcc's options ask for; `None` in [`ProgramOptions::phase`] is nvcc's default
/// (compile and link an executable) once the driver is in whole-program mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `-c`: one object per source.
    Compile,
    /// `-dc`: `-c` with relocatable device code.
    DeviceCompile,
    /// `-dlink`: nvcc's separate device link.
    DeviceLink,
    /// `-link`: compile and link (the default, spelled out).
    Link,
    /// `-lib`: a static library of the objects.
    Lib,
    /// `-M` (`system` true) or `-MM`: dependencies only, no compile.
    Deps { system: bool },
}

/// How the CUDA runtime is linked (`-cudart`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cudart {
    Shared,
    Static,
    None,
}

/// One `-gencode arch=compute_XX,code=[sm_XX,compute_XX]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gencode {
    pub arch: String,
    pub codes: Vec<String>,
}

/// What the whole-program options say.
#[derive(Clone, Debug)]
pub struct ProgramOptions {
    pub phase: Option<Phase>,
    /// `-Xcompiler` arguments: the host side of every compile, and the link.
    pub host_args: Vec<String>,
    /// `-L`, `-l`, `-Xlinker` in command-line order, as clang link arguments.
    pub link_args: Vec<String>,
    pub gencode: Vec<Gencode>,
    /// `-code`: the codes for `-arch` (nvcc's `-arch=compute_XX -code=sm_XX,...`).
    pub code: Vec<String>,
    /// `-x cu|c++|c`: the language of every source input.
    pub lang: Option<String>,
    /// `-MD`, `-MMD`, `-MF FILE`, `-MT T`, `-MP`: clang's dependency-file options.
    pub deps: Vec<String>,
    pub cudart: Cudart,
    pub shared: bool,
    /// `-g`: host debug information.
    pub host_debug: bool,
    /// `-w`: no warnings.
    pub no_warnings: bool,
    /// Whether an option that only makes sense for a program was given (`-Xcompiler`, `-L`,
    /// `-l`, `-Xlinker`, `-shared`, `-cudart`).
    pub program_only: bool,
}

impl Default for ProgramOptions {
    fn default() -> Self {
        ProgramOptions {
            phase: None,
            host_args: Vec::new(),
            link_args: Vec::new(),
            gencode: Vec::new(),
            code: Vec::new(),
            lang: None,
            deps: Vec::new(),
            cudart: Cudart::Shared,
            shared: false,
            host_debug: false,
            no_warnings: false,
            program_only: false,
        }
    }
}

/// What an option does.
#[derive(Clone, Copy)]
enum Kind {
    Phase(Phase),
    /// A dependency flag clang takes as is (`-MD`, `-MMD`, `-MP`).
    DepFlag(&'static str),
    /// A dependency option with a value (`-MF`, `-MT`).
    DepValue(&'static str),
    Shared,
    HostDebug,
    NoWarnings,
    /// nvcc behaviour clang already has (`--extended-lambda`, `-m64`): accepted, no effect.
    Accepted,
    /// A host-compiler or tool choice nvopt-cc does not make: a warning, no effect.
    Ignored,
    IgnoredValue,
    Xcompiler,
    Xlinker,
    LibPath,
    Lib,
    Std,
    Gencode,
    Code,
    Lang,
    Cudart,
    /// `-res-usage`: ptxas's resource report (`-Xptxas -v`).
    ResourceUsage,
    DefaultStream,
    /// nvcc options nvopt-cc does not have: an error naming the option (listed so that `-lto`
    /// is not read as `-l to`, nor `-odir` as `-o dir`).
    Unsupported,
}

/// One whole-program option: its spellings (the first is the one `--help` shows), its value's
/// name (None: a flag), what it does, its help text.
pub struct Spec {
    names: &'static [&'static str],
    value: Option<&'static str>,
    kind: Kind,
    help: &'static str,
}

/// Every whole-program option.
pub const SPECS: &[Spec] = &[
    Spec {
        names: &[
            "-lto",
            "--lto",
            "-dlto",
            "--dlink-time-opt",
            "-E",
            "--preprocess",
            "-run",
            "--run",
            "-fatbin",
            "--fatbin",
            "-odir",
            "--output-directory",
        ],
        value: None,
        kind: Kind::Unsupported,
        help: "not supported (an error)",
    },
    Spec {
        names: &["-c", "--compile"],
        value: None,
        kind: Kind::Phase(Phase::Compile),
        help: "compile each source to an object (host code and embedded device code); -o for one input, else STEM.o",
    },
    Spec {
        names: &["-dc", "--device-c"],
        value: None,
        kind: Kind::Phase(Phase::DeviceCompile),
        help: "-c with relocatable device code (-rdc=true)",
    },
    Spec {
        names: &["-dlink", "--device-link"],
        value: None,
        kind: Kind::Phase(Phase::DeviceLink),
        help: "nvcc's separate device link: writes an empty object; nvopt-cc links relocatable device code when it links the program (clang's offload linker and nvlink), so the final link must be nvopt-cc's",
    },
    Spec {
        names: &["-link", "--link"],
        value: None,
        kind: Kind::Phase(Phase::Link),
        help: "compile and link an executable (the default in whole-program mode; -o, else a.out)",
    },
    Spec {
        names: &["-lib", "--lib"],
        value: None,
        kind: Kind::Phase(Phase::Lib),
        help: "compile, then archive the objects into a static library (-o, else a.a)",
    },
    Spec {
        names: &["-M", "--generate-dependencies"],
        value: None,
        kind: Kind::Phase(Phase::Deps { system: true }),
        help: "print make dependencies of each source (host side) and stop (-o FILE: into FILE)",
    },
    Spec {
        names: &["-MM", "--generate-nonsystem-dependencies"],
        value: None,
        kind: Kind::Phase(Phase::Deps { system: false }),
        help: "-M without system headers",
    },
    Spec {
        names: &["-MD", "--generate-dependencies-with-compile"],
        value: None,
        kind: Kind::DepFlag("-MD"),
        help: "also write a dependency file while compiling (clang's -MD: OUTPUT.d, or -MF)",
    },
    Spec {
        names: &["-MMD", "--generate-nonsystem-dependencies-with-compile"],
        value: None,
        kind: Kind::DepFlag("-MMD"),
        help: "-MD without system headers",
    },
    Spec {
        names: &["-MF", "--dependency-output"],
        value: Some("FILE"),
        kind: Kind::DepValue("-MF"),
        help: "the dependency file of -M/-MD",
    },
    Spec {
        names: &["-MT", "--dependency-target-name"],
        value: Some("TARGET"),
        kind: Kind::DepValue("-MT"),
        help: "the target named in the dependency file",
    },
    Spec {
        names: &["-MP", "--generate-dependency-targets"],
        value: None,
        kind: Kind::DepFlag("-MP"),
        help: "a phony target for each dependency",
    },
    Spec {
        names: &["-gencode", "--generate-code"],
        value: Some("arch=compute_XX,code=sm_XX"),
        kind: Kind::Gencode,
        help: "a target: code=sm_XX embeds a cubin, code=compute_XX the PTX (code=[sm_90,compute_90] both); repeatable",
    },
    Spec {
        names: &["-code", "--gpu-code"],
        value: Some("CODE,..."),
        kind: Kind::Code,
        help: "the codes for -arch (sm_XX cubins, compute_XX PTX); without it -arch=sm_XX embeds both",
    },
    Spec {
        names: &["-std", "--std"],
        value: Some("c++NN"),
        kind: Kind::Std,
        help: "C++ dialect for host and device code (clang's -std)",
    },
    Spec {
        names: &["-x", "--x"],
        value: Some("cu|c++|c"),
        kind: Kind::Lang,
        help: "the language of every source input (-x cu compiles .cpp files as CUDA)",
    },
    Spec {
        names: &["-Xcompiler", "--compiler-options"],
        value: Some("A,B,..."),
        kind: Kind::Xcompiler,
        help: "options for the host compiler (clang++-22): host side of each compile (-Xarch_host), and the link",
    },
    Spec {
        names: &["-Xlinker", "--linker-options"],
        value: Some("A,B,..."),
        kind: Kind::Xlinker,
        help: "options for the host linker",
    },
    Spec {
        names: &["-L", "--library-path"],
        value: Some("DIR"),
        kind: Kind::LibPath,
        help: "library search path of the link",
    },
    Spec {
        names: &["-l", "--library"],
        value: Some("NAME"),
        kind: Kind::Lib,
        help: "a library to link",
    },
    Spec {
        names: &["-cudart", "--cudart"],
        value: Some("shared|static|none"),
        kind: Kind::Cudart,
        help: "how the CUDA runtime is linked (default: shared, libcudart.so from the CUDA installation, with a RUNPATH to it)",
    },
    Spec {
        names: &["-shared", "--shared"],
        value: None,
        kind: Kind::Shared,
        help: "link a shared library",
    },
    Spec {
        names: &["-g", "--debug"],
        value: None,
        kind: Kind::HostDebug,
        help: "debug information for host code",
    },
    Spec {
        names: &["-w", "--disable-warnings"],
        value: None,
        kind: Kind::NoWarnings,
        help: "no warnings",
    },
    Spec {
        names: &[
            "--extended-lambda",
            "-extended-lambda",
            "--expt-extended-lambda",
            "-expt-extended-lambda",
            "--expt-relaxed-constexpr",
            "-expt-relaxed-constexpr",
            "-m64",
            "--machine=64",
            "-restrict",
            "--restrict",
            "-Wno-deprecated-gpu-targets",
            "--Wno-deprecated-gpu-targets",
        ],
        value: None,
        kind: Kind::Accepted,
        help: "accepted, no effect (clang does this by default)",
    },
    Spec {
        names: &["-res-usage", "--resource-usage"],
        value: None,
        kind: Kind::ResourceUsage,
        help: "ptxas's resource report of each kernel (-Xptxas -v)",
    },
    Spec {
        names: &["-default-stream", "--default-stream"],
        value: Some("legacy|null|per-thread"),
        kind: Kind::DefaultStream,
        help: "the default stream (clang's -fgpu-default-stream)",
    },
    Spec {
        names: &["-allow-unsupported-compiler", "--allow-unsupported-compiler"],
        value: None,
        kind: Kind::Ignored,
        help: "ignored with a warning (the host compiler is clang++-22)",
    },
    Spec {
        names: &[
            "-ccbin",
            "--compiler-bindir",
            "-Xcudafe",
            "--cudafe-options",
            "-diag-suppress",
            "--diag-suppress",
            "-Xnvlink",
            "--nvlink-options",
            "-t",
            "--threads",
            "-split-compile",
            "--split-compile",
            "-keep-dir",
            "--keep-dir",
        ],
        value: Some("V"),
        kind: Kind::IgnoredValue,
        help: "ignored with a warning: the host compiler is clang++-22; there is no cudafe++ (nor its diagnostic numbers); nvlink, threads and temporary files are clang's",
    },
];

/// If `arg` is a whole-program option, applies it. Returns whether it was one.
pub fn parse(o: &mut Options, cur: &mut Cursor, arg: &str) -> Result<bool, ArgError> {
    for spec in SPECS {
        let value = match spec.value {
            None if spec.names.contains(&arg) => None,
            None => continue,
            Some(_) => {
                let v = match spec.kind {
                    // Glued forms: -L/usr/lib, -lcudart.
                    Kind::LibPath | Kind::Lib => cur.short_value(arg, spec.names[0])?,
                    _ => None,
                };
                match v {
                    Some(v) => Some(v),
                    None => match cur.value(arg, spec.names)? {
                        Some(v) => Some(v),
                        None => continue,
                    },
                }
            }
        };
        apply(o, spec, arg, value.unwrap_or_default())?;
        return Ok(true);
    }
    Ok(false)
}

fn split_commas(v: &str) -> impl Iterator<Item = String> + '_ {
    v.split(',').filter(|s| !s.is_empty()).map(str::to_string)
}

fn apply(o: &mut Options, spec: &Spec, arg: &str, v: String) -> Result<(), ArgError> {
    let p = &mut o.program;
    match spec.kind {
        Kind::Phase(phase) => {
            if let Some(old) = p.phase.filter(|old| *old != phase) {
                return Err(ArgError::Usage(format!(
                    "'{arg}' conflicts with an earlier phase option ({old:?})"
                )));
            }
            p.phase = Some(phase);
            if phase == Phase::DeviceCompile {
                o.rdc = true;
            }
        }
        Kind::DepFlag(flag) => p.deps.push(flag.into()),
        Kind::DepValue(flag) => p.deps.extend([flag.to_string(), v]),
        Kind::Shared => {
            p.shared = true;
            p.program_only = true;
        }
        Kind::HostDebug => p.host_debug = true,
        Kind::NoWarnings => p.no_warnings = true,
        Kind::Accepted => {}
        Kind::Ignored => {
            o.warnings.push(format!("'{arg}' ignored (the host compiler is clang++-22)"))
        }
        Kind::IgnoredValue => {
            let name = arg.split('=').next().unwrap_or(arg);
            let why = if ["-ccbin", "--compiler-bindir"].contains(&name) {
                format!("host compiler '{v}'; nvopt-cc compiles host code with clang++-22")
            } else {
                format!("value '{v}'")
            };
            o.warnings.push(format!("'{name}' ignored ({why})"));
        }
        Kind::Xcompiler => {
            // nvcc hands the value to its host compiler's command line, so Makefiles also
            // write `-Xcompiler "-Wall -fPIC"`.
            p.host_args.extend(v.split_whitespace().flat_map(split_commas));
            p.program_only = true;
        }
        Kind::Xlinker => {
            for a in split_commas(&v) {
                p.link_args.extend(["-Xlinker".to_string(), a]);
            }
            p.program_only = true;
        }
        Kind::LibPath => {
            p.link_args.push(format!("-L{v}"));
            p.program_only = true;
        }
        Kind::Lib => {
            p.link_args.push(format!("-l{v}"));
            p.program_only = true;
        }
        Kind::Std => o.cc_args.push(format!("-std={v}")),
        Kind::Gencode => p.gencode.push(gencode(&v)?),
        Kind::Code => p.code.extend(codes(&v)),
        Kind::Lang => {
            if !["cu", "c++", "c"].contains(&v.as_str()) {
                return Err(ArgError::Usage(format!("-x: '{v}': expected cu, c++ or c")));
            }
            p.lang = Some(v);
        }
        Kind::Unsupported => {
            return Err(ArgError::Usage(format!(
                "option '{arg}' is not supported by nvopt-cc (see nvopt-cc --help)"
            )))
        }
        Kind::ResourceUsage => o.ptxas_args.push("-v".into()),
        Kind::DefaultStream => {
            let stream = match v.as_str() {
                "per-thread" => "per-thread",
                "legacy" | "null" => "legacy",
                _ => {
                    return Err(ArgError::Usage(format!(
                        "-default-stream: '{v}': expected legacy, null or per-thread"
                    )))
                }
            };
            o.cc_args.push(format!("-fgpu-default-stream={stream}"));
        }
        Kind::Cudart => {
            p.cudart = match v.as_str() {
                "shared" => Cudart::Shared,
                "static" => Cudart::Static,
                "none" => Cudart::None,
                _ => {
                    return Err(ArgError::Usage(format!(
                        "-cudart: '{v}': expected shared, static or none"
                    )))
                }
            };
            p.program_only = true;
        }
    }
    Ok(())
}

/// A code list as Makefiles write it: `sm_90,compute_90`, `[sm_90,compute_90]`, quoted.
fn codes(v: &str) -> Vec<String> {
    v.split(|c: char| c == ',' || c.is_whitespace())
        .map(|s| s.trim_matches(|c| c == '[' || c == ']' || c == '"' || c == '\''))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Parses `arch=compute_90,code=[sm_90,compute_90]` (also `code=sm_90`, `code="a,b"`, or an
/// arch alone, whose code is the arch).
pub fn gencode(v: &str) -> Result<Gencode, ArgError> {
    let bad = || {
        ArgError::Usage(format!(
            "-gencode: '{v}': expected arch=compute_XX,code=sm_XX (or code=[sm_XX,compute_XX])"
        ))
    };
    let (mut arch, mut codes_seen, mut in_code) = (None, Vec::new(), false);
    for part in codes(v) {
        if let Some(a) = part.strip_prefix("arch=") {
            arch = Some(a.trim_matches(|c| c == '"' || c == '[').to_string());
            in_code = false;
        } else if let Some(c) = part.strip_prefix("code=") {
            codes_seen.extend(codes(c));
            in_code = true;
        } else if in_code {
            codes_seen.push(part);
        } else {
            return Err(bad());
        }
    }
    let arch = arch.ok_or_else(bad)?;
    if codes_seen.is_empty() {
        codes_seen.push(arch.clone());
    }
    Ok(Gencode { arch, codes: codes_seen })
}

/// A GPU target of a whole-program compile: the processor, and whether its cubin and its PTX
/// are embedded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    pub sm: String,
    pub cubin: bool,
    pub ptx: bool,
}

fn add_code(gpus: &mut Vec<Gpu>, code: &str, arch: Option<&str>) -> Result<(), String> {
    if let Some(bad) = [Some(code), arch]
        .into_iter()
        .flatten()
        .find(|a| matches!(*a, "native" | "all" | "all-major") || a.starts_with("lto_"))
    {
        return Err(format!("GPU architecture '{bad}' is not supported by nvopt-cc (give sm_XX)"));
    }
    let t = crate::target::resolve_arch(Some(code))?;
    let (cubin, ptx) = if t.is_virtual { (false, true) } else { (true, false) };
    match gpus.iter_mut().find(|g| g.sm == t.sm) {
        Some(g) => {
            g.cubin |= cubin;
            g.ptx |= ptx;
        }
        None => gpus.push(Gpu { sm: t.sm, cubin, ptx }),
    }
    Ok(())
}

/// The targets of a whole-program compile, as nvcc reads `-gencode`, `-arch` and `-code`:
/// `-arch=sm_XX` alone embeds the cubin and the PTX (nvcc's shorthand for
/// `-gencode arch=compute_XX,code=[sm_XX,compute_XX]`); default sm_90. clang always builds
/// the cubin of a target whose PTX alone was asked for.
pub fn gpus(o: &Options) -> Result<Vec<Gpu>, String> {
    let mut gpus = Vec::new();
    for g in &o.program.gencode {
        for c in &g.codes {
            add_code(&mut gpus, c, Some(&g.arch))?;
        }
    }
    if let Some(arch) = o.arch.as_deref() {
        if o.program.code.is_empty() {
            add_code(&mut gpus, arch, None)?;
            let t = crate::target::resolve_arch(Some(arch))?;
            add_code(&mut gpus, &t.sm.replacen("sm_", "compute_", 1), None)?;
        } else {
            for c in &o.program.code {
                add_code(&mut gpus, c, Some(arch))?;
            }
        }
    }
    if gpus.is_empty() {
        let def = crate::target::DEFAULT_ARCH;
        add_code(&mut gpus, def, None)?;
        add_code(&mut gpus, &def.replacen("sm_", "compute_", 1), None)?;
    }
    for g in &mut gpus {
        // clang cannot embed a PTX without building the target's cubin.
        g.cubin = true;
    }
    Ok(gpus)
}

/// The one architecture of a device-only compile given through `-gencode`: nvcc `-ptx -gencode
/// arch=compute_90,code=sm_90` writes compute_90's PTX, `-cubin` with it sm_90's cubin.
pub fn device_arch(o: &Options) -> Result<Option<String>, String> {
    if o.arch.is_some() || o.program.gencode.is_empty() {
        return Ok(o.arch.clone());
    }
    let cubin = o.emit == crate::options::Emit::Cubin;
    let mut archs: Vec<&str> = o
        .program
        .gencode
        .iter()
        .map(|g| match g.codes.iter().find(|c| c.starts_with("sm_")) {
            Some(sm) if cubin => sm.as_str(),
            _ => g.arch.as_str(),
        })
        .collect();
    archs.dedup();
    match archs.as_slice() {
        [one] => Ok(Some(one.to_string())),
        _ => Err(format!(
            "-ptx/-cubin write one architecture's code; -gencode gives {}",
            archs.join(", ")
        )),
    }
}

/// The `--help` section of the whole-program options, from [`SPECS`].
pub fn help() -> String {
    let mut out = String::new();
    for spec in SPECS {
        let mut head = spec.names[0].to_string();
        if let Some(v) = spec.value {
            head = format!("{head} {v}");
        }
        let others = &spec.names[1..];
        let mut text = spec.help.to_string();
        if !others.is_empty() {
            text = format!("{text} (also {})", others.join(", "));
        }
        let mut lines = wrap(&text, 64).into_iter();
        let first = lines.next().unwrap_or_default();
        if head.len() > 27 {
            out.push_str(&format!("  {head}\n{:31}{first}\n", ""));
        } else {
            out.push_str(&format!("  {head:<29}{first}\n"));
        }
        for l in lines {
            out.push_str(&format!("{:31}{l}\n", ""));
        }
    }
    out
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse as parse_args, Request};

    fn opts(args: &[&str]) -> Options {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse_args(&args) {
            Ok(Request::Compile(o)) => *o,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn gencode_spellings() {
        let g = gencode("arch=compute_90,code=sm_90").unwrap();
        assert_eq!((g.arch.as_str(), g.codes.clone()), ("compute_90", vec!["sm_90".to_string()]));
        let g = gencode("arch=compute_80,code=[sm_80,compute_80]").unwrap();
        assert_eq!(g.codes, ["sm_80", "compute_80"]);
        let g = gencode("arch=compute_80,code=\"sm_80,compute_80\"").unwrap();
        assert_eq!(g.codes, ["sm_80", "compute_80"]);
        assert_eq!(gencode("arch=compute_75").unwrap().codes, ["compute_75"]);
        assert!(gencode("code=sm_90").is_err());
        assert!(gencode("sm_90").is_err());
    }

    #[test]
    fn targets_as_nvcc_reads_them() {
        let o = opts(&["-gencode", "arch=compute_90,code=sm_90", "x.cu", "-o", "app"]);
        assert_eq!(gpus(&o).unwrap(), [Gpu { sm: "sm_90".into(), cubin: true, ptx: false }]);
        let o = opts(&["-arch=sm_80", "x.cu", "-o", "app"]);
        assert_eq!(gpus(&o).unwrap(), [Gpu { sm: "sm_80".into(), cubin: true, ptx: true }]);
        let o = opts(&["-arch=compute_80", "-code=sm_80,sm_90", "-c", "x.cu"]);
        let sms: Vec<_> = gpus(&o).unwrap().into_iter().map(|g| (g.sm, g.ptx)).collect();
        assert_eq!(sms, [("sm_80".to_string(), false), ("sm_90".to_string(), false)]);
        let o = opts(&["-c", "x.cu"]);
        assert_eq!(gpus(&o).unwrap(), [Gpu { sm: "sm_90".into(), cubin: true, ptx: true }]);
        let o = opts(&["-arch=native", "-c", "x.cu"]);
        assert!(gpus(&o).unwrap_err().contains("'native' is not supported"));
    }

    #[test]
    fn pass_through_and_ignored() {
        let o = opts(&[
            "-c",
            "-Xcompiler",
            "-fPIC,-Wall",
            "-Xlinker=-z,now",
            "-L/opt/lib",
            "-lm",
            "-l",
            "z",
            "-std=c++17",
            "-ccbin",
            "g++-12",
            "-MD",
            "-MF",
            "x.d",
            "-diag-suppress=177",
            "x.cu",
        ]);
        assert_eq!(o.program.host_args, ["-fPIC", "-Wall"]);
        assert_eq!(
            o.program.link_args,
            ["-Xlinker", "-z", "-Xlinker", "now", "-L/opt/lib", "-lm", "-lz"]
        );
        assert_eq!(o.cc_args, ["-std=c++17"]);
        assert_eq!(o.program.deps, ["-MD", "-MF", "x.d"]);
        assert_eq!(o.program.phase, Some(Phase::Compile));
        assert!(o.warnings.iter().any(|w| w.contains("'-ccbin' ignored (host compiler 'g++-12'")));
        assert!(o.warnings.iter().any(|w| w == "'-diag-suppress' ignored (value '177')"));
        assert_eq!(
            parse_args(&["-lto".into(), "x.cu".into()]).unwrap_err(),
            ArgError::Usage(
                "option '-lto' is not supported by nvopt-cc (see nvopt-cc --help)".into()
            )
        );
        // -lineinfo is still the flag, not -l ineinfo.
        let o = opts(&["-c", "-Xcompiler", "-fopenmp -O3,-Wall", "x.cu"]);
        assert_eq!(o.program.host_args, ["-fopenmp", "-O3", "-Wall"]);
        let o = opts(&["-lineinfo", "x.cu"]);
        assert!(o.program.link_args.is_empty());
    }

    #[test]
    fn device_only_gencode() {
        let o = opts(&["-ptx", "-gencode", "arch=compute_80,code=sm_80", "x.cu"]);
        assert_eq!(device_arch(&o).unwrap().as_deref(), Some("compute_80"));
        let o = opts(&["-cubin", "-gencode", "arch=compute_80,code=sm_80", "x.cu"]);
        assert_eq!(device_arch(&o).unwrap().as_deref(), Some("sm_80"));
        let o = opts(&[
            "-ptx",
            "-gencode=arch=compute_80,code=sm_80",
            "-gencode",
            "arch=compute_90,code=sm_90",
            "x.cu",
        ]);
        assert!(device_arch(&o).unwrap_err().contains("compute_80, compute_90"));
    }

    #[test]
    fn help_lists_every_spelling() {
        let text = crate::help::help();
        for spec in SPECS {
            for name in spec.names {
                assert!(text.contains(name), "{name} missing from --help");
            }
        }
        for (names, _) in crate::options::FLAG_NAMES {
            for name in *names {
                assert!(text.contains(name), "{name} missing from --help");
            }
        }
    }
}
