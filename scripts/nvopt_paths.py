"""Shared by the project's Python tools (driver, bench, scripts, lit config): where LLVM 22, the
plugin, the CUDA compatibility header and NVIDIA's wheels are; the clang-22 command that turns a
.cu file into unoptimized sm_90 device IR (DESIGN.md, "Verified platform facts"; evaluation.md:
-O3 with LLVM passes disabled, --cuda-path at an empty folder); and the llc level of each nvopt
level (cicc runs its O0 code generator at every -Ofast-compile level, research-facts.md)."""
import glob
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"
# NVOPT_PLUGIN points every tool at another build of the plugin (scripts/same_output.py compares two).
PLUGIN = os.environ.get("NVOPT_PLUGIN") or os.path.join(ROOT, "target", "release", "libnvopt.so")
EMPTY_CUDA = os.path.join(ROOT, "build", "empty-cuda")
LEVELS = ("O0", "O1", "O2", "O3", "Ofcmax", "Ofcmid", "Ofcmin")


def llc_opt_level(level):
    """llc's -O flag for an nvopt level: -O0 at O0 and every fast-compile level."""
    if level not in LEVELS:
        raise ValueError(f"unknown nvopt level {level!r}; valid: {', '.join(LEVELS)}")
    return "-O0" if level.startswith("Ofc") else "-" + level


def device_ir_cmd(cu, out, clang=None):
    """clang-22 command: CUDA source -> unoptimized NVPTX bitcode, no CUDA SDK needed."""
    os.makedirs(EMPTY_CUDA, exist_ok=True)
    return [clang or f"{LLVM_BIN}/clang++", "-x", "cuda", "--cuda-device-only", "-nocudainc",
            "-nocudalib", f"--cuda-path={EMPTY_CUDA}", "--cuda-gpu-arch=sm_90",
            "-Xclang", "-target-feature", "-Xclang", "+ptx80", "-I", os.path.join(ROOT, "include"),
            "-O3", "-Xclang", "-disable-llvm-passes", "-emit-llvm", "-c", cu, "-o", out]


def nvidia_cu13():
    """The cu13 folder of the wheels scripts/nvidia-tools.sh installs, or None."""
    found = sorted(glob.glob(os.path.join(ROOT, "build", "nvidia-venv", "lib", "python3*",
                                          "site-packages", "nvidia", "cu13")))
    return found[0] if found else None


def cuda_files(*folders):
    """The .cu files of folders under the project root (e.g. "bench/kernels"), sorted."""
    return sorted(f for d in folders for f in glob.glob(os.path.join(ROOT, d, "*.cu")))


def llvm_crashed(returncode, stderr):
    """Whether an LLVM tool crashed (a signal, or LLVM's crash report) rather than failed."""
    return returncode < 0 or "Stack dump:" in stderr or "PLEASE submit a bug report" in stderr
