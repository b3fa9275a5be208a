//! nvopt-cc: an nvcc-style driver that compiles CUDA (.cu) and LLVM IR (.ll/.bc) files to PTX
//! or cubin through nvopt, running stock LLVM 22 tools and NVIDIA's ptxas as subprocesses
//! (docs/ARCHITECTURE.md, "How the flow runs"; the stages are in commands.rs). It follows nvcc's
//! device-side options and exit codes and NVIDIA cicc 13.5's optimization levels, with
//! libnvvm's exact texts for the errors libnvvm owns. It links nothing of LLVM: the plugin is
//! loaded by opt and llc. `nvopt-cc --help` lists every option.
mod commands;
mod help;
mod options;
mod program;
mod program_options;
mod ptxas;
mod target;
mod toolchain;

use commands::{shell_join, Setup};
use options::{ArgError, Emit, Options, Request};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

/// How the driver stops: a message and nvcc's exit status for it.
struct Failure {
    message: String,
    /// Printed as is (a tool's or libnvvm's text), not after "nvopt-cc: error: ".
    verbatim: bool,
    code: u8,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Self {
        Failure { message: message.into(), verbatim: false, code: 1 }
    }
}

type Result<T> = std::result::Result<T, Failure>;

fn note(message: &str) {
    eprintln!("nvopt-cc: {message}");
}

const INPUT_EXTS: [&str; 3] = ["cu", "ll", "bc"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(out) = std::env::var_os(program::DLINK_CAPTURE) {
        // Run by clang-linker-wrapper as its host linker during -dlink (program.rs).
        return match program::capture_dlink(&args, Path::new(&out)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(m) => {
                eprintln!("nvopt-cc: error: -dlink: {m}");
                ExitCode::from(1)
            }
        };
    }
    let outcome = match options::parse(&args) {
        Ok(Request::Help) => {
            print!("{}", help::help());
            Ok(())
        }
        Ok(Request::Version) => {
            print!("{}", help::version());
            Ok(())
        }
        Ok(Request::Compile(o)) => compile_all(&o),
        Err(ArgError::Usage(m)) => Err(Failure::usage(m)),
        Err(ArgError::Nvvm(m)) => Err(Failure { message: m, verbatim: true, code: 1 }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            let _ = std::io::stdout().flush();
            if f.verbatim {
                eprintln!("{}", f.message);
            } else {
                eprintln!("nvopt-cc: error: {}", f.message);
            }
            ExitCode::from(f.code)
        }
    }
}

fn compile_all(o: &Options) -> Result<()> {
    for w in &o.warnings {
        note(&format!("warning: {w}"));
    }
    if o.whole_program() {
        return program::run(o);
    }
    if o.program.program_only || !o.program.deps.is_empty() {
        note("warning: host, link and dependency options are ignored with -ptx/-cubin");
    }
    if o.debug == options::Debug::Full
        && (o.olevel.is_some_and(|l| l != 0) || o.fast_compile.is_some())
    {
        note("warning: -G compiles device code at O0 (as nvcc passes -O0 to cicc); the level given is ignored");
    }
    for input in &o.inputs {
        check_input(o, input)?;
    }
    let setup = resolve(o)?;
    if o.emit == Emit::Cubin && setup.target.is_virtual {
        return Err(Failure::usage(
            "option '-cubin' is not allowed when compiling for a virtual compute architecture \
             (give -arch sm_XX)",
        ));
    }
    for input in &o.inputs {
        compile(o, &setup, input)?;
    }
    Ok(())
}

/// Whether a device-only input is CUDA source: `.cu`, or any file under `-x cu`.
fn is_cuda_source(o: &Options, input: &str) -> bool {
    input.to_lowercase().ends_with(".cu") || o.program.lang.as_deref() == Some("cu")
}

fn check_input(o: &Options, input: &str) -> Result<()> {
    let ext = Path::new(input).extension().map(|e| e.to_string_lossy().to_lowercase());
    let known = ext.as_deref().is_some_and(|e| INPUT_EXTS.contains(&e));
    if !known && !is_cuda_source(o, input) {
        let shown = ext.map(|e| format!(".{e}")).unwrap_or_else(|| "(none)".into());
        return Err(Failure::usage(format!(
            "unknown input file extension '{shown}' for {input} (accepted: .cu, .ll, .bc)"
        )));
    }
    if !Path::new(input).is_file() {
        return Err(Failure::usage(format!("input file not found: {input}")));
    }
    Ok(())
}

fn resolve(o: &Options) -> Result<Setup> {
    let root = toolchain::project_root();
    let arch = program_options::device_arch(o).map_err(Failure::usage)?;
    let target = target::resolve_arch(arch.as_deref()).map_err(Failure::usage)?;
    let ptx = target::resolve_ptx(&target, o.ptx_isa.as_deref()).map_err(Failure::usage)?;
    let any_cu = o.inputs.iter().any(|i| is_cuda_source(o, i));
    let cuda = if any_cu {
        toolchain::cuda(o.cuda_path.as_deref(), &root).map_err(Failure::usage)?
    } else {
        toolchain::Cuda::None
    };
    let tool = |name| toolchain::llvm_tool(name, &root).map_err(Failure::usage);
    Ok(Setup {
        clang: tool("clang++")?,
        opt: tool("opt")?,
        llc: tool("llc")?,
        plugin: if o.upstream {
            None
        } else {
            Some(toolchain::plugin(o.plugin.as_deref(), &root).map_err(Failure::usage)?)
        },
        cuda,
        target,
        ptx,
        math: o.math.resolve(),
        include: toolchain::include_dir(&root),
        root,
    })
}

/// A scratch directory for one input's intermediates, removed on drop unless `--keep`.
struct Scratch {
    dir: PathBuf,
    keep: bool,
}

impl Scratch {
    fn new(keep: bool) -> Result<Self> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("nvopt-cc-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display())))?;
        Ok(Scratch { dir, keep })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.keep {
            note(&format!("intermediates kept in {}", self.dir.display()));
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn stem(input: &str) -> String {
    Path::new(input).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

fn default_output(o: &Options, input: &str) -> String {
    let ext = if o.emit == Emit::Cubin { "cubin" } else { "ptx" };
    o.output.clone().unwrap_or_else(|| format!("{}.{ext}", stem(input)))
}

fn compile(o: &Options, setup: &Setup, input: &str) -> Result<()> {
    let scratch = Scratch::new(o.keep)?;
    let name = stem(input);
    let is_cu = is_cuda_source(o, input);
    if !is_cu && !o.cc_args.is_empty() {
        note("warning: -I/-D/-U/-include/-Xcc only apply to .cu inputs; ignored");
    }
    let mut ir = input.to_string();
    if is_cu {
        let bc = scratch.dir.join(format!("{name}.bc"));
        let empty_cuda = scratch.dir.join("empty-cuda");
        std::fs::create_dir_all(&empty_cuda).ok();
        let cmd = commands::clang(setup, o, input, &bc, &empty_cuda);
        run_stage("clang++ (CUDA front end)", &cmd, o).map_err(|f| hint_headers(f, setup))?;
        ir = bc.display().to_string();
    }
    let opt_out = scratch.dir.join(format!("{name}.opt.bc"));
    let pipeline = if o.upstream { "default" } else { "nvopt" };
    let stage = format!("opt (optimizer, {pipeline}<{}>)", o.level());
    run_stage(&stage, &commands::opt(setup, o, &ir, &opt_out), o)?;

    let output = default_output(o, input);
    let to_stdout = output == "-";
    let ptx_out = if o.emit == Emit::Ptx && !to_stdout {
        PathBuf::from(&output)
    } else {
        scratch.dir.join(format!("{name}.ptx"))
    };
    make_parent(&ptx_out)?;
    let llc = commands::llc(setup, o, &opt_out, &ptx_out, !is_cu);
    run_stage(&format!("llc (codegen, -O{})", o.llc_level()), &llc, o)?;
    if to_stdout && o.emit == Emit::Ptx {
        copy_to_stdout(&ptx_out)?;
    }
    assemble(o, setup, &ptx_out, &output, &scratch.dir, &name)
}

/// A front-end failure without CUDA headers: say how to get them.
fn hint_headers(mut f: Failure, setup: &Setup) -> Failure {
    if setup.cuda == toolchain::Cuda::None {
        f.message.push_str(
            "\n(no CUDA installation in use: code that includes CUDA headers needs \
             --cuda-path DIR, or NVIDIA's wheels: `bash scripts/cuda-path.sh --install`)",
        );
    }
    f
}

fn make_parent(path: &Path) -> Result<()> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir)
            .map_err(|e| Failure::usage(format!("cannot create {}: {e}", dir.display()))),
        None => Ok(()),
    }
}

fn copy_to_stdout(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    let mut out = std::io::stdout();
    out.write_all(&bytes)
        .and_then(|_| out.flush())
        .map_err(|e| Failure::usage(format!("stdout: {e}")))
}

/// ptxas: the cubin for `-cubin`, else the figures of the PTX.
fn assemble(
    o: &Options,
    setup: &Setup,
    ptx: &Path,
    output: &str,
    dir: &Path,
    name: &str,
) -> Result<()> {
    let cubin_wanted = o.emit == Emit::Cubin;
    let report_to_stderr = output == "-";
    if !o.run_ptxas && !cubin_wanted {
        return Ok(());
    }
    let Some(ptxas) = toolchain::ptxas(&setup.root, &setup.cuda) else {
        let how = "get it with `bash scripts/nvidia-tools.sh`, or set NVOPT_NVIDIA_BIN";
        if cubin_wanted {
            return Err(Failure::usage(format!(
                "-cubin needs NVIDIA's ptxas, which is not installed ({how})"
            )));
        }
        say(
            report_to_stderr,
            &format!("nvopt-cc: ptxas figures skipped: ptxas is not installed ({how})"),
        );
        return Ok(());
    };
    let cubin = if cubin_wanted && output != "-" {
        PathBuf::from(output)
    } else {
        dir.join(format!("{name}.cubin"))
    };
    if cubin_wanted {
        make_parent(&cubin)?;
    }
    let cmd = commands::ptxas(&ptxas, setup, o, ptx, &cubin);
    let report = run_ptxas(&cmd, o, ptx, cubin_wanted)?;
    let sm = &setup.target.sm;
    let Some(report) = report else {
        say(
            report_to_stderr,
            &format!(
                "nvopt-cc: ptxas figures skipped: this ptxas ({}) does not support {sm}",
                ptxas.display()
            ),
        );
        return Ok(());
    };
    if o.run_ptxas {
        let lines = ptxas::format(sm, &ptxas::parse(&report));
        if lines.is_empty() {
            say(report_to_stderr, &format!("ptxas {sm}: no functions"));
        }
        for line in lines {
            say(report_to_stderr, &line);
        }
    }
    if cubin_wanted && output == "-" {
        copy_to_stdout(&cubin)?;
    }
    Ok(())
}

fn say(to_stderr: bool, line: &str) {
    if to_stderr {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

/// Runs ptxas; `None` when it does not know the target and only figures were wanted.
fn run_ptxas(
    cmd: &[String],
    o: &Options,
    ptx: &Path,
    cubin_wanted: bool,
) -> Result<Option<String>> {
    let out = spawn(cmd, o, true)?;
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if out.status.success() {
        return Ok(Some(text));
    }
    if !cubin_wanted && ptxas::unknown_target(&text) {
        return Ok(None);
    }
    eprint!("{text}");
    let code = exit_code(out.status);
    Err(Failure::usage(format!(
        "ptxas rejected the PTX ({}); the PTX is kept in {}; command: {}",
        how_failed(out.status),
        ptx.display(),
        shell_join(cmd)
    )))
    .map_err(|f| Failure { code, ..f })
}

fn spawn(cmd: &[String], o: &Options, capture: bool) -> Result<std::process::Output> {
    if o.verbose {
        let _ = std::io::stdout().flush();
        eprintln!("{}", shell_join(cmd));
    }
    let mut c = Command::new(&cmd[0]);
    c.args(&cmd[1..]);
    let result = if capture {
        c.output()
    } else {
        c.status().map(|status| std::process::Output {
            status,
            stdout: Vec::new(),
            stderr: Vec::new(),
        })
    };
    result.map_err(|e| Failure::usage(format!("cannot run {}: {e}", cmd[0])))
}

fn run_stage(stage: &str, cmd: &[String], o: &Options) -> Result<()> {
    let start = Instant::now();
    let out = spawn(cmd, o, false)?;
    if o.verbose {
        note(&format!("{stage} took {:.3} s", start.elapsed().as_secs_f64()));
    }
    if out.status.success() {
        return Ok(());
    }
    Err(Failure {
        message: format!(
            "{stage} failed ({}); command: {}",
            how_failed(out.status),
            shell_join(cmd)
        ),
        verbatim: false,
        code: exit_code(out.status),
    })
}

fn how_failed(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit code {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => "unknown status".into(),
    }
}

/// nvcc passes a failing tool's status on; a tool killed by a signal gives 1.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    status.code().and_then(|c| u8::try_from(c).ok()).filter(|c| *c != 0).unwrap_or(1)
}
