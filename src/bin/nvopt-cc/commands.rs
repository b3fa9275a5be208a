//! The command line of each stage, from the options and the tools found:
//!
//! ```text
//! .cu  --clang++ -x cuda --cuda-device-only (-O3 -Xclang -disable-llvm-passes)-->  device IR
//!      --opt -load-pass-plugin=libnvopt.so -passes='nvopt<LEVEL>'-->                 optimized IR
//!      --llc --load-pass-plugin=libnvopt.so -mcpu=sm_XX -O<n>-->                     PTX
//!      --ptxas -arch=sm_XX -v-->                                                     cubin, figures
//! ```
//!
//! nvcc's device options map onto the stages as nvcc maps them onto cicc and ptxas (checked
//! with `nvcc --dryrun`, CUDA 13.5): cicc's `-ftz`/`-prec_div`/`-prec_sqrt` become the
//! `__CUDA_FTZ`/`__CUDA_PREC_DIV`/`__CUDA_PREC_SQRT` values of nvvm-reflect (which libdevice
//! reads) and NVPTX's `-nvptx-prec-divf32`/`-nvptx-prec-sqrtf32`; `-fast-math` becomes clang's
//! fast-math flags and approximate transcendentals; `-G` is cicc `-g -O0` plus ptxas `-g
//! --dont-merge-basicblocks --return-at-end`; `-lineinfo` is `.loc` lines only and ptxas
//! `--generate-line-info`; `-maxrregcount N` (for nvcc, cicc's `-maxreg N` and ptxas's
//! `-maxrregcount`) becomes the plugin knob `-nv-maxreg=N` in opt and llc and ptxas's
//! `-maxrregcount`; `-rdc=true` (`--compile-only`) reaches ptxas;
//! `-rdc=true` is also clang's `-fgpu-rdc` and opt's `-nv-rdc` (nvcc's whole-program mode off:
//! device functions keep their linkage for the device linker).
use crate::options::{Debug, Math, Options};
use crate::target::Target;
use crate::toolchain::Cuda;
use std::path::{Path, PathBuf};

/// Everything resolved before any stage runs.
pub struct Setup {
    pub root: PathBuf,
    /// The folder of `nvopt_cuda.h` (toolchain::include_dir).
    pub include: PathBuf,
    pub clang: PathBuf,
    pub opt: PathBuf,
    pub llc: PathBuf,
    /// The nvopt plugin; `None` with `--upstream` (LLVM's own pipeline and codegen).
    pub plugin: Option<PathBuf>,
    pub cuda: Cuda,
    pub target: Target,
    pub ptx: u32,
    pub math: Math,
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// clang++: CUDA source to unoptimized device IR. The optimizer is nvopt's, so clang's LLVM
/// passes are off (`-disable-llvm-passes` at -O3, so the front end emits what -O3 code
/// generation expects); at O0 clang runs its O0 pipeline without `optnone`, so nvopt<O0>'s
/// passes still act.
pub fn clang(
    setup: &Setup,
    o: &Options,
    input: &str,
    out: &Path,
    empty_cuda: &Path,
) -> Vec<String> {
    let mut cmd = vec![s(&setup.clang), "-x".into(), "cuda".into(), "--cuda-device-only".into()];
    match &setup.cuda {
        Cuda::Sdk(dir) => {
            cmd.push(format!("--cuda-path={}", dir.display()));
            // CUDA 13 is newer than clang-22 knows; clang then treats it as its newest.
            cmd.push("-Wno-unknown-cuda-version".into());
            let cccl = dir.join("include/cccl");
            if cccl.is_dir() {
                // nvcc puts CCCL (CUB, Thrust, libcu++) on the system include path itself.
                cmd.extend(["-isystem".into(), s(&cccl)]);
            }
        }
        Cuda::None => cmd.extend([
            "-nocudainc".into(),
            "-nocudalib".into(),
            format!("--cuda-path={}", empty_cuda.display()),
        ]),
    }
    cmd.push(format!("--cuda-gpu-arch={}", setup.target.front_end_arch()));
    cmd.push(format!("--cuda-feature=+ptx{}", setup.ptx));
    cmd.push(format!("-I{}", setup.include.display()));
    if o.level() == "O0" {
        cmd.extend(["-O0".into(), "-Xclang".into(), "-disable-O0-optnone".into()]);
    } else {
        cmd.extend(["-O3".into(), "-Xclang".into(), "-disable-llvm-passes".into()]);
    }
    cmd.extend(clang_math(&setup.math));
    match o.debug {
        Debug::Full => cmd.push("-g".into()),
        Debug::LineInfo => cmd.push("-gline-directives-only".into()),
        Debug::None => {}
    }
    if o.rdc {
        cmd.push("-fgpu-rdc".into());
    }
    cmd.extend(o.cc_args.iter().cloned());
    cmd.extend(["-emit-llvm".into(), "-c".into(), input.into(), "-o".into(), s(out)]);
    cmd
}

pub fn clang_math(m: &Math) -> Vec<String> {
    let mut flags = Vec::new();
    if m.fast {
        flags.extend(["-ffast-math".to_string(), "-fgpu-approx-transcendentals".to_string()]);
    }
    if m.ftz {
        flags.push("-fgpu-flush-denormals-to-zero".into());
    }
    if !m.fmad {
        flags.push("-ffp-contract=off".into());
    }
    flags
}

/// The nvvm-reflect values cicc gets from nvcc's `-ftz`/`-prec_div`/`-prec_sqrt` (nvcc always
/// passes all three; libdevice reads `__CUDA_FTZ` and `__CUDA_PREC_SQRT`).
pub fn reflect_values(m: &Math) -> Vec<String> {
    [("__CUDA_FTZ", m.ftz), ("__CUDA_PREC_DIV", m.prec_div), ("__CUDA_PREC_SQRT", m.prec_sqrt)]
        .iter()
        .map(|(name, on)| format!("-nvvm-reflect-add={name}={}", u8::from(*on)))
        .collect()
}

/// What clang's CUDA toolchain gives the optimizer of every device compile (`clang -###`):
/// memset/memcpy formation although NVPTX has no C library. The driver passes it too, so its
/// optimizer sees what nvopt sees inside clang (`-nv-pipeline`, src/clang_pipeline).
pub const CLANG_DEVICE_OPT_FLAGS: [&str; 1] = ["-enable-memcpyopt-without-libcalls"];

/// The plugin knob that carries `-maxrregcount` to nvopt's passes in opt and llc.
const MAXREG_KNOB: &str = "-nv-maxreg";

/// `-nv-maxreg=N` for `-maxrregcount N` when the plugin is loaded (LLVM's own pipeline and
/// codegen, `--upstream`, have no such option: there only ptxas gets the cap). It comes before
/// the `--knob`s, so an explicit `--knob nv-maxreg=M` wins.
fn maxreg_knob(setup: &Setup, o: &Options) -> Option<String> {
    o.maxrregcount.filter(|_| setup.plugin.is_some()).map(|n| format!("{MAXREG_KNOB}={n}"))
}

/// opt: nvopt's pipeline at the level (LLVM's `default<On>` with `--upstream`), clang's device
/// flags, nvcc's reflect values, `-nv-rdc` for `-rdc=true` (nvopt's whole-program
/// internalization off), the register cap of `-maxrregcount`, the knobs.
pub fn opt(setup: &Setup, o: &Options, input: &str, out: &Path) -> Vec<String> {
    let mut cmd = vec![s(&setup.opt)];
    match &setup.plugin {
        Some(plugin) => cmd.extend([
            format!("-load-pass-plugin={}", plugin.display()),
            format!("-passes=nvopt<{}>", o.level()),
        ]),
        None => cmd.push(format!("-passes=default<{}>", o.level())),
    }
    cmd.extend(CLANG_DEVICE_OPT_FLAGS.map(String::from));
    cmd.extend(reflect_values(&setup.math));
    if o.rdc && setup.plugin.is_some() {
        // Relocatable device code: nvopt keeps every linkage (no whole-program internalization).
        cmd.push("-nv-rdc".into());
    }
    cmd.extend(maxreg_knob(setup, o));
    cmd.extend(o.knobs.iter().cloned());
    if o.verify {
        cmd.push("-verify-each".into());
    }
    cmd.extend(o.opt_args.iter().cloned());
    cmd.extend([input.to_string(), "-o".into(), s(out)]);
    cmd
}

/// llc: NVPTX code generation with nvopt's codegen passes (and the register cap of
/// `-maxrregcount`).
pub fn llc(setup: &Setup, o: &Options, input: &Path, out: &Path, ir_input: bool) -> Vec<String> {
    let mut cmd = vec![s(&setup.llc)];
    if let Some(plugin) = &setup.plugin {
        cmd.push(format!("--load-pass-plugin={}", plugin.display()));
    }
    cmd.extend([
        "-mtriple=nvptx64-nvidia-cuda".into(),
        format!("-mcpu={}", setup.target.sm),
        format!("-mattr=+ptx{}", setup.ptx),
        format!("-O{}", o.llc_level()),
    ]);
    cmd.extend(llc_math(&setup.math, ir_input));
    cmd.extend(maxreg_knob(setup, o));
    cmd.extend(o.knobs.iter().cloned());
    if o.verify {
        cmd.push("-verify-machineinstrs".into());
    }
    cmd.extend(o.llc_args.iter().cloned());
    cmd.extend([s(input), "-o".into(), s(out)]);
    cmd
}

/// Contraction as nvcc's `-fmad` says (clang's CUDA default, `-ffp-contract=fast`, also
/// reaches clang's code generator: without it llc would not fuse the libdevice code clang
/// links in); NVPTX's division and square-root precision where nvcc's settings differ from
/// what the IR's own flags give: approximate when asked, IEEE when asked for under fast-math
/// flags. For IR inputs, which carry no clang flags, ftz becomes the functions' f32 denormal
/// mode.
pub fn llc_math(m: &Math, ir_input: bool) -> Vec<String> {
    let contract = if m.fmad { "fast" } else { "off" };
    let mut flags = vec![format!("-fp-contract={contract}")];
    if !m.prec_div {
        flags.push("-nvptx-prec-divf32=0".to_string());
    } else if m.fast {
        flags.push("-nvptx-prec-divf32=2".to_string());
    }
    if !m.prec_sqrt {
        flags.push("-nvptx-prec-sqrtf32=0".to_string());
    } else if m.fast {
        flags.push("-nvptx-prec-sqrtf32=1".to_string());
    }
    if ir_input && m.ftz {
        flags.push("-denormal-fp-math-f32=preserve-sign".into());
    }
    flags
}

/// ptxas: assembles the PTX (`-v` for the figures) with nvcc's ptxas options.
pub fn ptxas(ptxas: &Path, setup: &Setup, o: &Options, ptx: &Path, cubin: &Path) -> Vec<String> {
    let mut cmd = vec![s(ptxas), format!("-arch={}", setup.target.sm)];
    if !o.ptxas_args.iter().any(|a| a == "-v" || a == "--verbose") {
        cmd.push("-v".into());
    }
    if let Some(n) = o.maxrregcount {
        cmd.push(format!("-maxrregcount={n}"));
    }
    match o.debug {
        Debug::Full => {
            cmd.extend(["-g", "--dont-merge-basicblocks", "--return-at-end"].map(String::from))
        }
        Debug::LineInfo => cmd.push("--generate-line-info".into()),
        Debug::None => {}
    }
    if !setup.math.fmad {
        cmd.extend(["--fmad".into(), "false".into()]);
    }
    if o.rdc {
        cmd.push("--compile-only".into());
    }
    cmd.extend(o.ptxas_args.iter().cloned());
    cmd.extend([s(ptx), "-o".into(), s(cubin)]);
    cmd
}

/// A command as a shell would need it typed (POSIX quoting, as Python's shlex.join).
pub fn shell_join(cmd: &[String]) -> String {
    cmd.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

fn quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./-_".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\"'\"'"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{parse, Request};

    fn setup(cuda: Cuda, math: Math) -> Setup {
        Setup {
            root: "/r".into(),
            include: "/r/include".into(),
            clang: "/b/clang++".into(),
            opt: "/b/opt".into(),
            llc: "/b/llc".into(),
            plugin: Some("/p/libnvopt.so".into()),
            cuda,
            target: crate::target::resolve_arch(Some("sm_90")).unwrap(),
            ptx: 80,
            math,
        }
    }

    fn opts(args: &[&str]) -> Options {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).chain(["x.cu".into()]).collect();
        match parse(&args).unwrap() {
            Request::Compile(o) => *o,
            _ => unreachable!(),
        }
    }

    #[test]
    fn clang_without_and_with_cuda() {
        let o = opts(&[]);
        let c = clang(
            &setup(Cuda::None, o.math.resolve()),
            &o,
            "x.cu",
            Path::new("x.bc"),
            Path::new("/e"),
        );
        assert_eq!(
            shell_join(&c),
            "/b/clang++ -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-path=/e \
             --cuda-gpu-arch=sm_90 --cuda-feature=+ptx80 -I/r/include -O3 -Xclang \
             -disable-llvm-passes -emit-llvm -c x.cu -o x.bc"
        );
        let c = clang(
            &setup(Cuda::Sdk("/cuda".into()), o.math.resolve()),
            &o,
            "x.cu",
            Path::new("x.bc"),
            Path::new("/e"),
        );
        assert!(
            shell_join(&c).contains("--cuda-path=/cuda -Wno-unknown-cuda-version --cuda-gpu-arch")
        );
    }

    #[test]
    fn fast_math_everywhere() {
        let o = opts(&["--use_fast_math"]);
        let st = setup(Cuda::None, o.math.resolve());
        let c = shell_join(&clang(&st, &o, "x.cu", Path::new("x.bc"), Path::new("/e")));
        assert!(
            c.contains("-ffast-math -fgpu-approx-transcendentals -fgpu-flush-denormals-to-zero")
        );
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        assert!(p.contains(
            "-nvvm-reflect-add=__CUDA_FTZ=1 -nvvm-reflect-add=__CUDA_PREC_DIV=0 -nvvm-reflect-add=__CUDA_PREC_SQRT=0"
        ));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
        assert!(l.contains("-fp-contract=fast -nvptx-prec-divf32=0 -nvptx-prec-sqrtf32=0 y.bc"));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), true));
        assert!(l.contains("-denormal-fp-math-f32=preserve-sign"));
    }

    #[test]
    fn default_math_is_nvccs() {
        let o = opts(&[]);
        let st = setup(Cuda::None, o.math.resolve());
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        assert!(p.contains("'-passes=nvopt<O3>' -enable-memcpyopt-without-libcalls -nvvm-reflect-add=__CUDA_FTZ=0 -nvvm-reflect-add=__CUDA_PREC_DIV=1 -nvvm-reflect-add=__CUDA_PREC_SQRT=1 x.bc"));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
        assert!(l.ends_with("-mattr=+ptx80 -O3 -fp-contract=fast y.bc -o y.ptx"));
    }

    #[test]
    fn ptxas_options() {
        let o = opts(&[
            "-G",
            "-maxrregcount=32",
            "-rdc=true",
            "-fmad=false",
            "-Xptxas",
            "-v,-warn-spills",
        ]);
        let st = setup(Cuda::None, o.math.resolve());
        let c = shell_join(&ptxas(
            Path::new("/n/ptxas"),
            &st,
            &o,
            Path::new("a.ptx"),
            Path::new("a.cubin"),
        ));
        assert_eq!(
            c,
            "/n/ptxas -arch=sm_90 -maxrregcount=32 -g --dont-merge-basicblocks --return-at-end \
             --fmad false --compile-only -v -warn-spills a.ptx -o a.cubin"
        );
    }

    #[test]
    fn rdc_keeps_linkage_in_nvopt_only() {
        let o = opts(&["-rdc=true"]);
        let mut st = setup(Cuda::None, o.math.resolve());
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        assert!(p.contains("-nvvm-reflect-add=__CUDA_PREC_SQRT=1 -nv-rdc x.bc"), "{p}");
        let p = shell_join(&opt(&st, &opts(&["-rdc=false"]), "x.bc", Path::new("y.bc")));
        assert!(!p.contains("-nv-rdc"), "{p}");
        // LLVM's own pipeline has no such knob (and no internalization to turn off).
        st.plugin = None;
        let p =
            shell_join(&opt(&st, &opts(&["--upstream", "-rdc=true"]), "x.bc", Path::new("y.bc")));
        assert!(!p.contains("-nv-rdc"), "{p}");
    }

    #[test]
    fn maxrregcount_reaches_opt_llc_and_ptxas() {
        for spelling in
            [&["-maxrregcount", "32"][..], &["-maxrregcount=32"], &["--maxrregcount", "32"]]
        {
            let o = opts(spelling);
            let st = setup(Cuda::None, o.math.resolve());
            let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
            assert!(p.contains("-nvvm-reflect-add=__CUDA_PREC_SQRT=1 -nv-maxreg=32 x.bc"), "{p}");
            let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
            assert!(l.ends_with("-fp-contract=fast -nv-maxreg=32 y.bc -o y.ptx"), "{l}");
            let x = shell_join(&ptxas(
                Path::new("/n/ptxas"),
                &st,
                &o,
                Path::new("a.ptx"),
                Path::new("a.cubin"),
            ));
            assert_eq!(x, "/n/ptxas -arch=sm_90 -v -maxrregcount=32 a.ptx -o a.cubin");
        }
        // --knob comes after it, so an explicit value wins; without the option, no knob.
        let o = opts(&["-maxrregcount", "32", "--knob", "nv-maxreg=40"]);
        let st = setup(Cuda::None, o.math.resolve());
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        assert!(p.contains("-nv-maxreg=32 -nv-maxreg=40 x.bc"), "{p}");
        let o = opts(&[]);
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
        assert!(!p.contains("-nv-maxreg") && !l.contains("-nv-maxreg"), "{p}\n{l}");
        // LLVM's own pipeline and codegen (--upstream) have no such knob: only ptxas gets it.
        let o = opts(&["--upstream", "-maxrregcount", "32"]);
        let mut st = setup(Cuda::None, o.math.resolve());
        st.plugin = None;
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
        assert!(!p.contains("-nv-maxreg") && !l.contains("-nv-maxreg"), "{p}\n{l}");
        let x = shell_join(&ptxas(
            Path::new("/n/ptxas"),
            &st,
            &o,
            Path::new("a.ptx"),
            Path::new("a.cubin"),
        ));
        assert!(x.contains("-maxrregcount=32"), "{x}");
    }

    #[test]
    fn upstream_runs_llvms_pipeline_without_the_plugin() {
        let o = opts(&["--upstream", "-O2"]);
        let mut st = setup(Cuda::None, o.math.resolve());
        st.plugin = None;
        let p = shell_join(&opt(&st, &o, "x.bc", Path::new("y.bc")));
        assert!(p.starts_with("/b/opt '-passes=default<O2>' -enable-memcpyopt-without-libcalls"));
        let l = shell_join(&llc(&st, &o, Path::new("y.bc"), Path::new("y.ptx"), false));
        assert!(l.starts_with("/b/llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 -O2"));
    }

    #[test]
    fn quoting() {
        assert_eq!(
            shell_join(&["-passes=nvopt<O3>".into(), "a b".into(), "it's".into()]),
            "'-passes=nvopt<O3>' 'a b' 'it'\"'\"'s'"
        );
    }
}
