//! Whole programs, as nvcc builds them: each `.cu` through clang++-22's CUDA driver (host and
//! device code, the fat binary embedded in the host object) with nvopt on the device side, the
//! README's clang recipe:
//!
//! ```text
//! clang++ -x cuda --cuda-path=CUDA --cuda-gpu-arch=sm_XX -fpass-plugin=libnvopt.so
//!         -mllvm -nv-pipeline=LEVEL -mllvm -nvvm-reflect-add=... -c a.cu -o a.o
//! ```
//!
//! `.cpp`/`.c` sources through clang++/clang as host code (with the CUDA headers on the path,
//! as nvcc gives its host compiler), then the link with clang++ and the CUDA runtime. nvcc's
//! device options reach clang as they reach cicc and ptxas in the device-only flow
//! (commands.rs): nvvm-reflect values and NVPTX's division/square-root precision through
//! `-mllvm`, fast math and contraction through `-Xarch_device`, ptxas options through
//! `-Xcuda-ptxas`. Relocatable device code (`-rdc=true`, `-dc`) uses clang's offload driver
//! (`--offload-new-driver`), whose link step runs nvlink. `--upstream` drops the plugin and
//! `-nv-pipeline`: clang's own pipeline, everything else the same.
use crate::commands::reflect_values;
use crate::options::{Debug, Math, Options};
use crate::program_options::{self, Cudart, Gpu, Phase};
use crate::toolchain::{self, Cuda};
use crate::{note, run_stage, Failure, Result, Scratch};
use std::path::{Path, PathBuf};

/// What an input is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Cu,
    Cpp,
    C,
    Object,
}

/// The kind of an input, by `-x` or its extension.
pub fn kind(input: &str, lang: Option<&str>) -> std::result::Result<Kind, String> {
    let name = Path::new(input).file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_default();
    let ext = Path::new(&name).extension().map(|e| e.to_string_lossy().into_owned());
    let ext = ext.unwrap_or_default();
    let lower = ext.to_lowercase();
    if ["o", "obj", "a", "so", "lib"].contains(&lower.as_str()) || name.contains(".so.") {
        return Ok(Kind::Object);
    }
    match lang {
        Some("cu") => return Ok(Kind::Cu),
        Some("c++") => return Ok(Kind::Cpp),
        Some("c") => return Ok(Kind::C),
        _ => {}
    }
    match lower.as_str() {
        "cu" => Ok(Kind::Cu),
        "cpp" | "cc" | "cxx" | "c++" | "cp" => Ok(Kind::Cpp),
        "c" if ext == "C" => Ok(Kind::Cpp),
        "c" => Ok(Kind::C),
        "ll" | "bc" => {
            Err(format!("{input}: LLVM IR inputs give device code only (add -ptx or -cubin)"))
        }
        _ => Err(format!(
            "unknown input file extension '{}' for {input} (accepted: .cu, .cpp/.cc/.cxx, .c, \
             .o, .a, .so; -x cu compiles any source as CUDA)",
            if ext.is_empty() { "(none)".to_string() } else { format!(".{ext}") }
        )),
    }
}

/// The header every CUDA compile of a program build includes first (include/).
pub const COMPAT_HEADER: &str = "nvopt_nvcc_compat.h";

/// Everything resolved before the first command runs.
pub struct Tools {
    pub clang: PathBuf,
    pub clang_c: PathBuf,
    pub ar: PathBuf,
    pub plugin: Option<PathBuf>,
    pub cuda: PathBuf,
    pub gpus: Vec<Gpu>,
    pub ptx: u32,
    pub math: Math,
    /// `nvopt_nvcc_compat.h` (include/), included first in every CUDA compile: what nvcc's
    /// headers give CUDA sources and clang's do not (host min/max/isfinite, __stcs, ...).
    pub compat: Option<PathBuf>,
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// The device level of a whole-program build: nvcc never passes `-O` to cicc, so device code
/// runs nvopt<O3>, or the fast-compile level, or O0 under `-G`.
pub fn device_level(o: &Options) -> String {
    if o.debug == Debug::Full {
        return "O0".into();
    }
    match o.fast_compile.as_deref() {
        Some(fc) if fc != "0" => format!("Ofc{fc}"),
        _ => "O3".into(),
    }
}

/// The CUDA installation's library folder (`lib64`, else `lib`, the wheels' name).
fn cuda_lib(cuda: &Path) -> PathBuf {
    let lib64 = cuda.join("lib64");
    if lib64.is_dir() {
        lib64
    } else {
        cuda.join("lib")
    }
}

fn mllvm(cmd: &mut Vec<String>, flag: String) {
    cmd.extend(["-mllvm".into(), flag]);
}

/// Flags every compile of a source shares: preprocessor options, `-std`, `-w`, `-g`.
fn common(o: &Options, host_prefix: bool) -> Vec<String> {
    let mut cmd = Vec::new();
    if let Some(n) = o.olevel {
        cmd.push(format!("-O{n}"));
    }
    if o.program.no_warnings {
        cmd.push("-w".into());
    }
    let host = |cmd: &mut Vec<String>, a: &str| {
        if host_prefix {
            cmd.push("-Xarch_host".into());
        }
        cmd.push(a.to_string());
    };
    if o.program.host_debug {
        host(&mut cmd, "-g");
    }
    cmd.extend(o.cc_args.iter().cloned());
    for a in &o.program.host_args {
        host(&mut cmd, a);
    }
    cmd
}

/// clang++'s CUDA compile of one `.cu`; `action` is `-c` (or `-M`/`-MM`).
pub fn cuda_compile(t: &Tools, o: &Options, input: &str, out: Option<&Path>) -> Vec<String> {
    let mut cmd = vec![s(&t.clang), "-x".into(), "cuda".into()];
    cmd.push(format!("--cuda-path={}", t.cuda.display()));
    cmd.push("-Wno-unknown-cuda-version".into());
    let cccl = t.cuda.join("include/cccl");
    if cccl.is_dir() {
        cmd.extend(["-isystem".into(), s(&cccl)]);
    }
    let deps = match o.program.phase {
        Some(Phase::Deps { system }) => Some(if system { "-M" } else { "-MM" }),
        _ => None,
    };
    for g in &t.gpus {
        let sm = g.sm.strip_suffix('f').unwrap_or(&g.sm);
        cmd.push(format!("--cuda-gpu-arch={sm}"));
        if g.ptx && deps.is_none() && !o.rdc {
            cmd.push(format!("--cuda-include-ptx={sm}"));
        }
    }
    if deps.is_some() {
        // Dependencies of the host side (nvcc's -M reads the host compilation too); the
        // device side includes the same files. No code is generated.
        cmd.push("--cuda-host-only".into());
        cmd.extend(common(o, true));
        finish(&mut cmd, o, deps, input, out);
        return cmd;
    }
    cmd.push(format!("--cuda-feature=+ptx{}", t.ptx));
    if let Some(compat) = &t.compat {
        cmd.extend(["-include".into(), s(compat)]);
    }
    // nvcc warns where clang errs by default: `register` variables in C++17 and narrowing
    // conversions in braced initializers.
    cmd.extend(["-Wno-register".into(), "-Wno-c++11-narrowing".into()]);
    cmd.extend(common(o, true));
    if o.debug == Debug::Full {
        // clang's -G: device debug info and ptxas -g; the host gets debug info only with -g.
        cmd.extend(["-g", "-Xarch_device", "--cuda-noopt-device-debug"].map(String::from));
        if !o.program.host_debug {
            cmd.extend(["-Xarch_host".into(), "-g0".into()]);
        }
    } else if o.olevel != Some(3) {
        // Device code is optimized whatever the host level (nvcc); clang's -O0 would also mark
        // every device function optnone, which skips nvopt's passes.
        cmd.extend(["-Xarch_device".into(), "-O3".into()]);
    }
    if o.debug == Debug::LineInfo {
        cmd.extend(["-Xarch_device".into(), "-gline-directives-only".into()]);
    }
    if let Some(plugin) = &t.plugin {
        cmd.push(format!("-fpass-plugin={}", plugin.display()));
        mllvm(&mut cmd, format!("-nv-pipeline={}", device_level(o)));
    }
    for flag in reflect_values(&t.math) {
        mllvm(&mut cmd, flag);
    }
    for flag in crate::commands::clang_math(&t.math) {
        cmd.extend(["-Xarch_device".into(), flag]);
    }
    for flag in crate::commands::llc_math(&t.math, false) {
        if !flag.starts_with("-fp-contract") {
            mllvm(&mut cmd, flag);
        }
    }
    if !t.math.fmad {
        cmd.extend(["-Xcuda-ptxas".into(), "--fmad=false".into()]);
    }
    if let Some(n) = o.maxrregcount {
        if t.plugin.is_some() {
            mllvm(&mut cmd, format!("-nv-maxreg={n}"));
        }
        cmd.extend(["-Xcuda-ptxas".into(), format!("-maxrregcount={n}")]);
    }
    for knob in &o.knobs {
        mllvm(&mut cmd, knob.clone());
    }
    for a in &o.ptxas_args {
        cmd.extend(["-Xcuda-ptxas".into(), a.clone()]);
    }
    if o.rdc {
        cmd.extend(["-fgpu-rdc".into(), "--offload-new-driver".into()]);
        if t.plugin.is_some() {
            mllvm(&mut cmd, "-nv-rdc".into());
        }
    }
    finish(&mut cmd, o, deps, input, out);
    cmd
}

fn finish(cmd: &mut Vec<String>, o: &Options, deps: Option<&str>, input: &str, out: Option<&Path>) {
    cmd.extend(o.program.deps.iter().cloned());
    cmd.push(deps.unwrap_or("-c").into());
    cmd.push(input.into());
    if let Some(out) = out {
        cmd.extend(["-o".into(), s(out)]);
    }
}

/// A host-only source (`.cpp`, `.c`): clang++ or clang with the CUDA headers on the path.
pub fn host_compile(
    t: &Tools,
    o: &Options,
    kind: Kind,
    input: &str,
    out: Option<&Path>,
) -> Vec<String> {
    let mut cmd = vec![s(if kind == Kind::C { &t.clang_c } else { &t.clang })];
    match o.program.lang.as_deref() {
        Some("c++") => cmd.extend(["-x".into(), "c++".into()]),
        Some("c") => cmd.extend(["-x".into(), "c".into()]),
        _ => {}
    }
    cmd.extend(["-isystem".into(), s(&t.cuda.join("include"))]);
    let cccl = t.cuda.join("include/cccl");
    if kind == Kind::Cpp && cccl.is_dir() {
        cmd.extend(["-isystem".into(), s(&cccl)]);
    }
    let mut shared = common(o, false);
    if kind == Kind::C {
        // nvcc's -std names a C++ dialect; a C source keeps clang's C default.
        shared.retain(|a| !a.starts_with("-std="));
    }
    cmd.extend(shared);
    let deps = match o.program.phase {
        Some(Phase::Deps { system }) => Some(if system { "-M" } else { "-MM" }),
        _ => None,
    };
    finish(&mut cmd, o, deps, input, out);
    cmd
}

/// Whether an object or archive holds clang's offloading section (relocatable device code
/// from `-dc`/`-rdc=true`), which only the offload driver's link step links.
fn has_offload_section(path: &str) -> bool {
    const NEEDLE: &[u8] = b".llvm.offloading";
    let name = path.to_lowercase();
    if !(name.ends_with(".o") || name.ends_with(".a") || name.ends_with(".obj")) {
        // Shared libraries carry no device code for nvlink (and can be large).
        return false;
    }
    std::fs::read(path).is_ok_and(|bytes| bytes.windows(NEEDLE.len()).any(|w| w == NEEDLE))
}

/// Set (to the output) in clang-linker-wrapper's environment during `-dlink`: nvopt-cc, run
/// as the wrapper's host linker, then only copies the wrapper's object to the output.
pub const DLINK_CAPTURE: &str = "NVOPT_CC_DLINK_CAPTURE";

/// `-dlink`: clang-linker-wrapper links the device code of the `-dc` objects (nvlink), wraps
/// the image in a fat binary and writes the host object that registers it with the CUDA
/// runtime (`__start_llvm_offload_entries`: the kernels and variables of every object linked
/// with it). Its host linker is nvopt-cc itself (`capture_dlink`), which keeps that object:
/// nvcc's `-dlink` output, which any host linker then links with the `-dc` objects.
pub fn dlink(
    t: &Tools,
    o: &Options,
    wrapper: &Path,
    me: &Path,
    objects: &[String],
    out: &str,
) -> Vec<String> {
    let mut cmd = vec![
        s(wrapper),
        "--host-triple=x86_64-pc-linux-gnu".into(),
        format!("--cuda-path={}", t.cuda.display()),
        format!("--linker-path={}", me.display()),
    ];
    if o.verbose {
        cmd.push("--wrapper-verbose".into());
    }
    cmd.extend(["-o".into(), out.into()]);
    cmd.extend(objects.iter().cloned());
    cmd
}

/// nvopt-cc as clang-linker-wrapper's host linker in `-dlink`: copies the wrapper's object
/// (`*.image.wrapper*.o`, a temporary file) to `out`.
pub fn capture_dlink(args: &[String], out: &Path) -> std::result::Result<(), String> {
    let wrapped = args.iter().find(|a| {
        let name = Path::new(a).file_name().map(|n| n.to_string_lossy().into_owned());
        name.is_some_and(|n| n.contains(".image.wrapper") && n.ends_with(".o"))
    });
    let Some(wrapped) = wrapped else {
        return Err(format!("clang-linker-wrapper gave no wrapper object: {}", args.join(" ")));
    };
    std::fs::copy(wrapped, out).map_err(|e| format!("{wrapped} -> {}: {e}", out.display()))?;
    Ok(())
}

/// Whether an object is an `-dlink` output (clang-linker-wrapper's registration code).
fn is_dlink_object(path: &str) -> bool {
    const NEEDLE: &[u8] = b".cuda.fatbin_reg";
    let name = path.to_lowercase();
    (name.ends_with(".o") || name.ends_with(".obj"))
        && std::fs::read(path).is_ok_and(|bytes| bytes.windows(NEEDLE.len()).any(|w| w == NEEDLE))
}

/// clang's offload linker runs nvlink and fatbinary, which it looks for on PATH.
fn cuda_bin_on_path(cuda: &Path) {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![cuda.join("bin")];
    dirs.extend(std::env::split_paths(&path));
    if let Ok(joined) = std::env::join_paths(dirs) {
        std::env::set_var("PATH", joined);
    }
}

/// The link: clang++ with the objects, `-L`/`-l`/`-Xlinker` in order, `-Xcompiler`, the CUDA
/// installation's library folder, and the CUDA runtime (shared by default), with a RUNPATH
/// to that folder.
pub fn link(t: &Tools, o: &Options, objects: &[String], rdc: bool, out: &str) -> Vec<String> {
    let mut cmd = vec![s(&t.clang)];
    if o.program.shared {
        cmd.push("-shared".into());
    }
    if rdc {
        cmd.extend([
            "--offload-new-driver".into(),
            "-fgpu-rdc".into(),
            format!("--cuda-path={}", t.cuda.display()),
        ]);
    }
    if o.program.host_debug {
        cmd.push("-g".into());
    }
    cmd.extend(objects.iter().cloned());
    cmd.extend(o.program.link_args.iter().cloned());
    cmd.extend(o.program.host_args.iter().cloned());
    // As nvcc's profile: the CUDA installation's libraries (and the driver-API stubs) are on
    // the search path of every link, and on the executable's RUNPATH.
    let lib = cuda_lib(&t.cuda);
    cmd.push(format!("-L{}", lib.display()));
    if lib.join("stubs").is_dir() {
        cmd.push(format!("-L{}", lib.join("stubs").display()));
    }
    match o.program.cudart {
        Cudart::Shared => cmd.push(shared_cudart(&lib)),
        Cudart::Static => {
            cmd.extend(["-lcudart_static", "-ldl", "-lpthread", "-lrt"].map(String::from))
        }
        Cudart::None => {}
    }
    cmd.push(format!("-Wl,--enable-new-dtags,-rpath,{}", lib.display()));
    cmd.extend(["-o".into(), out.into()]);
    cmd
}

/// `-lcudart`, or `-l:libcudart.so.N` where only the versioned name is there (NVIDIA's
/// wheels ship libcudart.so.13 alone).
fn shared_cudart(lib: &Path) -> String {
    if lib.join("libcudart.so").exists() {
        return "-lcudart".into();
    }
    let versioned = std::fs::read_dir(lib).ok().and_then(|entries| {
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|n| n.starts_with("libcudart.so."))
            .collect();
        names.sort();
        names.into_iter().next()
    });
    versioned.map(|n| format!("-l:{n}")).unwrap_or_else(|| "-lcudart".into())
}

fn stem(input: &str) -> String {
    Path::new(input).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `omp.h` for `-Xcompiler -fopenmp`: in clang's resource folders next to its binary
/// (`LLVM/lib/clang/N/include`, which Debian's `libomp-N-dev` fills) or the system's include
/// folders; without it clang stops at the `#include <omp.h>` or the link at `-lomp`.
fn openmp_header(clang: &Path) -> Option<PathBuf> {
    let clang = clang.canonicalize().unwrap_or_else(|_| clang.to_path_buf());
    let llvm = clang.parent()?.parent()?;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(llvm.join("lib").join("clang"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("include"))
        .collect();
    dirs.extend(["/usr/local/include", "/usr/include"].map(PathBuf::from));
    dirs.into_iter().map(|d| d.join("omp.h")).find(|p| p.is_file())
}

fn resolve(o: &Options) -> Result<Tools> {
    let root = toolchain::project_root();
    let tool = |name| toolchain::llvm_tool(name, &root).map_err(Failure::usage);
    let clang = tool("clang++")?;
    let openmp = o.program.host_args.iter().any(|a| a == "-fopenmp" || a.starts_with("-fopenmp="));
    if openmp && openmp_header(&clang).is_none() {
        return Err(Failure::usage(format!(
            "-Xcompiler -fopenmp: the host compiler {} has no OpenMP runtime (omp.h, libomp); \
             install LLVM's (Debian: apt-get install libomp-22-dev, as scripts/build.sh does)",
            clang.display()
        )));
    }
    let cuda = match toolchain::cuda(o.cuda_path.as_deref(), &root).map_err(Failure::usage)? {
        Cuda::Sdk(dir) => dir,
        Cuda::None => {
            return Err(Failure::usage(format!(
                "building programs needs a CUDA installation (headers, libcudart): {}",
                toolchain::CUDA_HOW
            )))
        }
    };
    let gpus = program_options::gpus(o).map_err(Failure::usage)?;
    // Without --ptx-isa, whole programs get the CUDA toolkit's PTX ISA (target.rs toolkit_ptx):
    // its headers pick instructions by its version, as with nvcc.
    let toolkit = std::fs::read_to_string(cuda.join("include").join("cuda.h"))
        .ok()
        .and_then(|h| crate::target::cuda_h_version(&h))
        .and_then(crate::target::toolkit_ptx)
        .filter(|_| o.ptx_isa.is_none())
        .unwrap_or(0);
    let mut ptx = 0;
    for g in &gpus {
        let target = crate::target::resolve_arch(Some(&g.sm)).map_err(Failure::usage)?;
        ptx = ptx.max(
            crate::target::resolve_ptx(&target, o.ptx_isa.as_deref()).map_err(Failure::usage)?,
        );
    }
    let ptx = ptx.max(toolkit);
    Ok(Tools {
        clang,
        clang_c: tool("clang")?,
        ar: tool("llvm-ar")?,
        plugin: if o.upstream {
            None
        } else {
            Some(toolchain::plugin(o.plugin.as_deref(), &root).map_err(Failure::usage)?)
        },
        cuda,
        gpus,
        ptx,
        math: o.math.resolve(),
        compat: Some(toolchain::include_dir(&root).join(COMPAT_HEADER)).filter(|p| p.is_file()),
    })
}

/// Builds what the command line asks for.
pub fn run(o: &Options) -> Result<()> {
    let kinds = o
        .inputs
        .iter()
        .map(|i| kind(i, o.program.lang.as_deref()).map(|k| (i.as_str(), k)))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    for (input, _) in &kinds {
        if !Path::new(input).is_file() {
            return Err(Failure::usage(format!("input file not found: {input}")));
        }
    }
    for (what, given) in [
        ("-Xopt", !o.opt_args.is_empty()),
        ("-Xllc", !o.llc_args.is_empty()),
        ("--verify", o.verify),
    ] {
        if given {
            note(&format!(
                "warning: {what} applies to the device-only flow (opt, llc); ignored when building programs"
            ));
        }
    }
    let t = resolve(o)?;
    let phase = o.program.phase.unwrap_or(Phase::Link);
    let sources: Vec<(&str, Kind)> =
        kinds.iter().copied().filter(|(_, k)| *k != Kind::Object).collect();
    let compile_one = |input: &str, k: Kind, out: Option<&Path>| {
        let (stage, cmd) = if k == Kind::Cu {
            ("clang++ (CUDA, host and device)", cuda_compile(&t, o, input, out))
        } else {
            ("clang (host code)", host_compile(&t, o, k, input, out))
        };
        run_stage(stage, &cmd, o)
    };
    match phase {
        Phase::Deps { .. } => {
            for (input, k) in &sources {
                compile_one(input, *k, o.output.as_deref().map(Path::new))?;
            }
            Ok(())
        }
        Phase::Compile | Phase::DeviceCompile => {
            if sources.len() < kinds.len() {
                note("warning: object and library inputs are not used when compiling with -c/-dc");
            }
            for (input, k) in &sources {
                let out = o.output.clone().unwrap_or_else(|| format!("{}.o", stem(input)));
                compile_one(input, *k, Some(Path::new(&out)))?;
            }
            Ok(())
        }
        Phase::DeviceLink => {
            let out = o.output.clone().unwrap_or_else(|| "a_dlink.o".into());
            let scratch = Scratch::new(o.keep)?;
            let mut objects = Vec::new();
            for (n, (input, k)) in kinds.iter().enumerate() {
                if *k == Kind::Object {
                    objects.push(input.to_string());
                    continue;
                }
                let obj = scratch.dir.join(format!("{n}-{}.o", stem(input)));
                compile_one(input, *k, Some(&obj))?;
                objects.push(s(&obj));
            }
            if !objects.iter().any(|p| has_offload_section(p)) {
                note(&format!(
                    "warning: -dlink: no input holds relocatable device code (-dc, -rdc=true); \
                     {out} is an empty object"
                ));
                let cmd = vec![
                    s(&t.clang_c),
                    "-x".into(),
                    "c".into(),
                    "-c".into(),
                    "/dev/null".into(),
                    "-o".into(),
                    out,
                ];
                return run_stage("clang (empty device-link object)", &cmd, o);
            }
            let root = toolchain::project_root();
            let wrapper =
                toolchain::llvm_tool("clang-linker-wrapper", &root).map_err(Failure::usage)?;
            let me = std::env::current_exe().map_err(|e| Failure::usage(e.to_string()))?;
            let cmd = dlink(&t, o, &wrapper, &me, &objects, &out);
            cuda_bin_on_path(&t.cuda);
            std::env::set_var(DLINK_CAPTURE, &out);
            let done = run_stage("clang-linker-wrapper (device link)", &cmd, o);
            std::env::remove_var(DLINK_CAPTURE);
            done
        }
        Phase::Link | Phase::Lib => {
            let scratch = Scratch::new(o.keep)?;
            let mut objects = Vec::new();
            let mut rdc = o.rdc;
            let mut dlinked = false;
            for (n, (input, k)) in kinds.iter().enumerate() {
                if *k == Kind::Object {
                    rdc |= has_offload_section(input);
                    dlinked |= is_dlink_object(input);
                    objects.push(input.to_string());
                    continue;
                }
                let obj = scratch.dir.join(format!("{n}-{}.o", stem(input)));
                compile_one(input, *k, Some(&obj))?;
                objects.push(s(&obj));
            }
            if phase == Phase::Lib {
                let out = o.output.clone().unwrap_or_else(|| "a.a".into());
                let _ = std::fs::remove_file(&out);
                let mut cmd = vec![s(&t.ar), "rcs".into(), out];
                cmd.extend(objects);
                return run_stage("llvm-ar (static library)", &cmd, o);
            }
            let out = o.output.clone().unwrap_or_else(|| "a.out".into());
            if dlinked {
                // An object of nvopt-cc -dlink registers the device code of the -dc objects
                // already (nvcc's -dlink flow): a plain host link.
                rdc = false;
            }
            if rdc {
                cuda_bin_on_path(&t.cuda);
            }
            run_stage("clang++ (link)", &link(&t, o, &objects, rdc, &out), o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::shell_join;
    use crate::options::parse;

    fn opts(args: &[&str]) -> Options {
        crate::options::compile_options(args)
    }

    fn tools(o: &Options, plugin: bool) -> Tools {
        Tools {
            clang: "/b/clang++".into(),
            clang_c: "/b/clang".into(),
            ar: "/b/llvm-ar".into(),
            plugin: plugin.then(|| "/p/libnvopt.so".into()),
            cuda: "/cuda".into(),
            gpus: program_options::gpus(o).unwrap(),
            ptx: 80,
            math: o.math.resolve(),
            compat: None,
        }
    }

    #[test]
    fn openmp_header_next_to_clang() {
        let dir = std::env::temp_dir().join(format!("nvopt-omp-{}", std::process::id()));
        let inc = dir.join("lib/clang/22/include");
        std::fs::create_dir_all(&inc).unwrap();
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        let clang = dir.join("bin/clang++");
        std::fs::write(&clang, "").unwrap();
        let found = openmp_header(&clang);
        let system = ["/usr/local/include/omp.h", "/usr/include/omp.h"]
            .into_iter()
            .find(|p| Path::new(p).is_file());
        assert_eq!(found.as_deref(), system.map(Path::new));
        std::fs::write(inc.join("omp.h"), "").unwrap();
        assert_eq!(openmp_header(&clang), Some(inc.join("omp.h")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kinds() {
        assert_eq!(kind("a.cu", None), Ok(Kind::Cu));
        assert_eq!(kind("a.cpp", Some("cu")), Ok(Kind::Cu));
        assert_eq!(kind("a.o", Some("cu")), Ok(Kind::Object));
        assert_eq!(kind("libx.so.1", None), Ok(Kind::Object));
        assert_eq!(kind("a.C", None), Ok(Kind::Cpp));
        assert_eq!(kind("a.c", None), Ok(Kind::C));
        assert!(kind("a.ll", None).unwrap_err().contains("device code only"));
        assert!(kind("a.txt", None).unwrap_err().contains("'.txt'"));
    }

    #[test]
    fn mode_is_chosen_like_nvcc_keeping_device_only_defaults() {
        assert!(!opts(&["x.cu"]).whole_program());
        assert!(!opts(&["x.cu", "-o", "x.ptx"]).whole_program());
        assert!(!opts(&["x.cu", "-o", "-"]).whole_program());
        assert!(!opts(&["-cubin", "x.cu", "-o", "x.bin"]).whole_program());
        assert!(opts(&["x.cu", "-o", "app"]).whole_program());
        assert!(opts(&["-c", "x.cu"]).whole_program());
        assert!(opts(&["x.cu", "y.o"]).whole_program());
        assert!(opts(&["x.cu", "-lcublas"]).whole_program());
        assert!(opts(&["a.cu", "b.cu", "-o", "app"]).whole_program());
        assert!(!opts(&["-x", "cu", "k.cpp", "-o", "k.ptx"]).whole_program());
        assert!(opts(&["-x", "cu", "k.cpp", "-o", "k"]).whole_program());
        assert!(opts(&["-x", "cu", "k.cpp", "m.o"]).whole_program());
        assert!(matches!(
            parse(&["-c".into(), "-ptx".into(), "x.cu".into()]),
            Err(crate::options::ArgError::Usage(m)) if m.starts_with("-ptx/-cubin")
        ));
    }

    #[test]
    fn cuda_compile_follows_the_readme_recipe() {
        let o = opts(&["-O3", "-arch=sm_90", "-c", "a.cu", "-o", "a.o"]);
        let c = shell_join(&cuda_compile(&tools(&o, true), &o, "a.cu", Some(Path::new("a.o"))));
        assert_eq!(
            c,
            "/b/clang++ -x cuda --cuda-path=/cuda -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 \
             --cuda-include-ptx=sm_90 --cuda-feature=+ptx80 -Wno-register -Wno-c++11-narrowing \
             -O3 -fpass-plugin=/p/libnvopt.so \
             -mllvm -nv-pipeline=O3 -mllvm -nvvm-reflect-add=__CUDA_FTZ=0 \
             -mllvm -nvvm-reflect-add=__CUDA_PREC_DIV=1 -mllvm -nvvm-reflect-add=__CUDA_PREC_SQRT=1 \
             -c a.cu -o a.o"
        );
        // --upstream: no plugin, no -nv-pipeline; host -O0 keeps the device at -O3.
        let o = opts(&["--upstream", "-c", "a.cu"]);
        let c = shell_join(&cuda_compile(&tools(&o, false), &o, "a.cu", None));
        assert!(!c.contains("plugin") && !c.contains("nv-pipeline"), "{c}");
        assert!(c.contains("-Xarch_device -O3"), "{c}");
    }

    #[test]
    fn dlink_runs_the_offload_wrapper_with_nvopt_cc_as_its_linker() {
        let o = opts(&["-dlink", "a.o", "b.o", "-o", "d.o"]);
        let objs = ["a.o".to_string(), "b.o".to_string()];
        let c = shell_join(&dlink(
            &tools(&o, true),
            &o,
            Path::new("/b/clang-linker-wrapper"),
            Path::new("/i/nvopt-cc"),
            &objs,
            "d.o",
        ));
        assert_eq!(
            c,
            "/b/clang-linker-wrapper --host-triple=x86_64-pc-linux-gnu --cuda-path=/cuda \
             --linker-path=/i/nvopt-cc -o d.o a.o b.o"
        );
        let dir = std::env::temp_dir().join(format!("nvopt-cc-dlink-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wrapped = dir.join("d.o.cuda.image.wrapper-1a2b3c.o");
        std::fs::write(&wrapped, b"object").unwrap();
        let out = dir.join("d.o");
        let args = ["-o".to_string(), "d.o".into(), s(&wrapped), "a.o".into(), "b.o".into()];
        capture_dlink(&args, &out).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"object");
        assert!(capture_dlink(&args[3..], &out).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn device_options_reach_clang() {
        let o = opts(&[
            "-dc",
            "--use_fast_math",
            "-maxrregcount=32",
            "-Xptxas",
            "-v",
            "-lineinfo",
            "-Xcompiler",
            "-fopenmp",
            "-gencode",
            "arch=compute_90,code=sm_90",
            "-Ofc=max",
            "a.cu",
        ]);
        let c = shell_join(&cuda_compile(&tools(&o, true), &o, "a.cu", None));
        for want in [
            "--cuda-gpu-arch=sm_90 --cuda-feature",
            "-Xarch_host -fopenmp",
            "-Xarch_device -gline-directives-only",
            "-mllvm -nv-pipeline=Ofcmax",
            "-Xarch_device -ffast-math -Xarch_device -fgpu-approx-transcendentals",
            "-mllvm -nvptx-prec-divf32=0",
            "-mllvm -nv-maxreg=32 -Xcuda-ptxas -maxrregcount=32",
            "-Xcuda-ptxas -v",
            "-fgpu-rdc --offload-new-driver -mllvm -nv-rdc",
        ] {
            assert!(c.contains(want), "{want}\n{c}");
        }
        assert!(!c.contains("--cuda-include-ptx"), "{c}");
    }

    #[test]
    fn link_line() {
        let o = opts(&["a.o", "-L/x", "-lfoo", "-Xlinker", "--as-needed", "-o", "app"]);
        let l = shell_join(&link(&tools(&o, true), &o, &["a.o".into()], false, "app"));
        assert_eq!(
            l,
            "/b/clang++ a.o -L/x -lfoo -Xlinker --as-needed -L/cuda/lib -lcudart \
             -Wl,--enable-new-dtags,-rpath,/cuda/lib -o app"
        );
        let o = opts(&["a.o", "-cudart", "static", "-o", "app"]);
        let l = shell_join(&link(&tools(&o, true), &o, &["a.o".into()], true, "app"));
        assert!(l.starts_with("/b/clang++ --offload-new-driver -fgpu-rdc --cuda-path=/cuda a.o"));
        assert!(
            l.ends_with(
                "-L/cuda/lib -lcudart_static -ldl -lpthread -lrt \
             -Wl,--enable-new-dtags,-rpath,/cuda/lib -o app"
            ),
            "{l}"
        );
    }
}
