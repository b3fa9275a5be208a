//! Where the tools are: the project root (for the plugin, the compatibility header and the
//! NVIDIA wheels), LLVM 22's clang++/opt/llc, the nvopt plugin, NVIDIA's ptxas, and the CUDA
//! installation clang's `--cuda-path` takes (a real CUDA toolkit, or the one
//! scripts/cuda-path.sh assembles from NVIDIA's PyPI wheels in build/cuda).
//!
//! An installed driver (scripts/install.sh: PREFIX/bin/nvopt-cc, PREFIX/lib/libnvopt.so,
//! PREFIX/include/nvopt/nvopt_cuda.h) finds its plugin and header relative to its own
//! executable first, so a moved prefix works and the checkout it was built from is not needed.
use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where Debian's LLVM 22 installs its tools; `NVOPT_LLVM_BIN` overrides it.
const LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

/// The project root: the checkout this binary was built in (`<root>/target/<profile>/`),
/// else the one it was compiled from (an installed copy, `cargo install --path .`).
pub fn project_root() -> PathBuf {
    let from_exe = env::current_exe()
        .ok()
        .and_then(|exe| exe.canonicalize().ok())
        .and_then(|exe| exe.parent()?.parent()?.parent().map(Path::to_path_buf))
        .filter(|root| root.join("Cargo.toml").is_file());
    from_exe.unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

pub fn llvm_bin() -> PathBuf {
    env::var_os("NVOPT_LLVM_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(LLVM_BIN))
}

/// One LLVM 22 tool, or an error saying how to install it.
pub fn llvm_tool(name: &str, root: &Path) -> Result<PathBuf, String> {
    let path = llvm_bin().join(name);
    if path.exists() {
        return Ok(path);
    }
    Err(format!(
        "LLVM 22 tool missing: {} (install it with `bash {}/scripts/build.sh` or \
         `apt-get install llvm-22-tools clang-22`; or set NVOPT_LLVM_BIN)",
        path.display(),
        root.display()
    ))
}

/// The folder of the running executable (symlinks resolved).
fn exe_dir() -> Option<PathBuf> {
    let exe = env::current_exe().ok()?.canonicalize().ok()?;
    exe.parent().map(Path::to_path_buf)
}

/// The plugin: `--plugin`, else `$NVOPT_PLUGIN`, else an installation's `../lib/libnvopt.so`
/// next to the driver's `bin/`, else `libnvopt.so` beside the driver (cargo's target folder),
/// else `<root>/target/release/libnvopt.so`.
pub fn plugin(asked: Option<&str>, root: &Path) -> Result<PathBuf, String> {
    let explicit =
        asked.map(PathBuf::from).or_else(|| env::var_os("NVOPT_PLUGIN").map(PathBuf::from));
    if let Some(p) = explicit {
        return if p.exists() { Ok(p) } else { Err(format!("plugin not found: {}", p.display())) };
    }
    let mut tried: Vec<PathBuf> = Vec::new();
    if let Some(dir) = exe_dir() {
        tried.push(dir.join("../lib/libnvopt.so"));
        tried.push(dir.join("libnvopt.so"));
    }
    tried.push(root.join("target/release/libnvopt.so"));
    if let Some(found) = tried.iter().find(|p| p.is_file()) {
        return Ok(found.canonicalize().unwrap_or_else(|_| found.clone()));
    }
    let shown: Vec<String> = tried.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "plugin not built: none of {} (run `bash {}/scripts/build.sh`, or use scripts/nvopt-cc, \
         which builds it; an installation has it in PREFIX/lib)",
        shown.join(", "),
        root.display()
    ))
}

/// The folder holding `nvopt_cuda.h` (CUDA without an SDK): an installation's
/// `../include/nvopt` next to the driver's `bin/`, else `<root>/include`.
pub fn include_dir(root: &Path) -> PathBuf {
    exe_dir()
        .map(|dir| dir.join("../include/nvopt"))
        .filter(|dir| dir.join("nvopt_cuda.h").is_file())
        .and_then(|dir| dir.canonicalize().ok())
        .unwrap_or_else(|| root.join("include"))
}

/// The `cu13` folder of the wheels scripts/nvidia-tools.sh installs in build/nvidia-venv.
pub fn wheels_cu13(root: &Path) -> Option<PathBuf> {
    venv_cu13(&root.join("build/nvidia-venv"))
}

fn executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// NVIDIA's ptxas: `$NVOPT_NVIDIA_BIN`, else PATH, else the CUDA installation in use, else
/// the wheels.
pub fn ptxas(root: &Path, cuda: &Cuda) -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(dir) = env::var_os("NVOPT_NVIDIA_BIN") {
        candidates.push(PathBuf::from(dir).join("ptxas"));
    }
    if let Some(path) = env::var_os("PATH") {
        candidates.extend(env::split_paths(&path).map(|d| d.join("ptxas")));
    }
    if let Cuda::Sdk(dir) = cuda {
        candidates.push(dir.join("bin/ptxas"));
    }
    if let Some(cu) = wheels_cu13(root) {
        candidates.push(cu.join("bin/ptxas"));
    }
    candidates.into_iter().find(|p| executable(p))
}

/// How to give the driver a CUDA installation.
pub const CUDA_HOW: &str = "--cuda-path DIR, CUDA_PATH, /usr/local/cuda, or NVIDIA's wheels \
(`bash scripts/cuda-path.sh --install` in a checkout)";

/// The CUDA installation clang compiles against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cuda {
    /// A directory with clang's layout: include/ (cuda_runtime.h, CCCL under include/cccl),
    /// nvvm/libdevice/libdevice.10.bc, bin/.
    Sdk(PathBuf),
    /// No CUDA headers: clang's builtins only, plus include/nvopt_cuda.h.
    None,
}

/// The files clang needs in a CUDA installation, and the wheel that ships each.
const CUDA_PARTS: &[(&str, &str)] = &[
    ("include/cuda_runtime.h", "nvidia-cuda-runtime"),
    ("include/crt/host_defines.h", "nvidia-cuda-crt"),
    ("nvvm/libdevice/libdevice.10.bc", "nvidia-nvvm"),
    ("include/curand_mtgp32_kernel.h", "nvidia-curand"),
    ("bin", "nvidia-cuda-nvcc"),
];

fn check_cuda(dir: &Path, how: &str) -> Result<Cuda, String> {
    let missing: Vec<String> = CUDA_PARTS
        .iter()
        .filter(|(file, _)| !dir.join(file).exists())
        .map(|(file, wheel)| format!("{file} (CUDA toolkit part; wheel {wheel})"))
        .collect();
    if missing.is_empty() {
        Ok(Cuda::Sdk(dir.to_path_buf()))
    } else {
        Err(format!(
            "{how} '{}' is not a CUDA installation clang can use: missing {}",
            dir.display(),
            missing.join(", ")
        ))
    }
}

/// Picks the CUDA installation: `--cuda-path DIR` (`none`: no CUDA headers), else
/// `$NVOPT_CUDA_PATH`, else `$CUDA_PATH`, else the checkout's wheels' layout (build/cuda,
/// assembled by scripts/cuda-path.sh when the wheels are installed), else /usr/local/cuda,
/// else NVIDIA's wheels in the active Python virtual environment
/// (`$VIRTUAL_ENV/lib/python3*/site-packages/nvidia/cu13`), else none.
pub fn cuda(asked: Option<&str>, root: &Path) -> Result<Cuda, String> {
    if asked == Some("none") {
        return Ok(Cuda::None);
    }
    if let Some(dir) = asked {
        return check_cuda(Path::new(dir), "--cuda-path");
    }
    for var in ["NVOPT_CUDA_PATH", "CUDA_PATH"] {
        if let Some(dir) = env::var_os(var).filter(|d| !d.is_empty()) {
            if dir == "none" {
                return Ok(Cuda::None);
            }
            return check_cuda(Path::new(&dir), var);
        }
    }
    let assembled = root.join("build/cuda");
    if let Ok(found) = check_cuda(&assembled, "build/cuda") {
        return Ok(found);
    }
    if wheels_cu13(root).is_some() {
        if let Some(found) = assemble_from_wheels(root) {
            return Ok(found);
        }
    }
    if let Ok(found) = check_cuda(Path::new("/usr/local/cuda"), "/usr/local/cuda") {
        return Ok(found);
    }
    if let Some(venv) = env::var_os("VIRTUAL_ENV").filter(|v| !v.is_empty()) {
        if let Some(cu) = venv_cu13(Path::new(&venv)) {
            return check_cuda(&cu, "$VIRTUAL_ENV's wheels");
        }
    }
    Ok(Cuda::None)
}

/// The `cu13` folder of NVIDIA's wheels in a Python virtual environment.
fn venv_cu13(venv: &Path) -> Option<PathBuf> {
    let mut pythons: Vec<PathBuf> = std::fs::read_dir(venv.join("lib"))
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("python3")))
        .collect();
    pythons.sort();
    pythons.into_iter().map(|p| p.join("site-packages/nvidia/cu13")).find(|p| p.is_dir())
}

/// Runs scripts/cuda-path.sh (quietly); the wheels may lack a part, then there is no CUDA.
fn assemble_from_wheels(root: &Path) -> Option<Cuda> {
    let script = root.join("scripts/cuda-path.sh");
    let out = Command::new("bash").arg(&script).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    check_cuda(Path::new(&dir), "cuda-path.sh's").ok()
}
