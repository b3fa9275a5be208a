"""Shared by the project's Python tools (driver, bench, scripts, lit config): where LLVM 22, the
plugin, the CUDA compatibility header and NVIDIA's wheels are; the clang-22 command that turns a
.cu file into unoptimized sm_90 device IR (docs/ARCHITECTURE.md, "Platform facts" and
"Measuring": -O3 with LLVM passes disabled, --cuda-path at an empty folder); and the llc level of
each nvopt level (cicc runs its O0 code generator at every -Ofast-compile level,
docs/CICC-FACTS.md "Two optimizers inside cicc 13.5")."""
import functools
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"
# NVOPT_PLUGIN points every tool at another build of the plugin (nvopt_tools/same_output.py compares two).
PLUGIN = os.environ.get("NVOPT_PLUGIN") or os.path.join(ROOT, "target", "release", "libnvopt.so")
EMPTY_CUDA = os.path.join(ROOT, "build", "empty-cuda")


@functools.lru_cache(maxsize=None)
def levels(plugin=None):
    """nvopt's levels, as the plugin names them: the list is defined once, in the plugin
    (src/pipeline/mod.rs LEVEL_NAMES), which prints it in its answer to an unknown level."""
    plugin = plugin or PLUGIN
    if not os.path.exists(plugin):
        raise SystemExit(f"nvopt: the plugin {plugin} is not built (run scripts/build.sh)")
    r = subprocess.run([f"{LLVM_BIN}/opt", f"-load-pass-plugin={plugin}", "-passes=nvopt<?>",
                        "-disable-output", "/dev/null"], capture_output=True, text=True)
    m = re.search(r"valid levels are ([\w, ]+)", r.stderr)
    if not m:
        raise SystemExit(f"nvopt: could not read the levels from {plugin}:\n{r.stderr}")
    return tuple(m.group(1).split(", "))


def __getattr__(name):
    """`paths.LEVELS`: the plugin's levels (read on first use)."""
    if name == "LEVELS":
        return levels()
    raise AttributeError(name)


def llc_opt_level(level):
    """llc's -O flag for an nvopt level: -O0 at O0 and every fast-compile level."""
    if level not in levels():
        raise ValueError(f"unknown nvopt level {level!r}; valid: {', '.join(levels())}")
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


def module_cmd(module, *args, python=None):
    """The command that runs one of this package's tools, `python3 -m nvopt_tools.MODULE ARGS`;
    run it with tool_env() so that the package imports from any working directory."""
    return [python or sys.executable, "-m", f"nvopt_tools.{module}", *map(str, args)]


def tool_env(env=None):
    """A copy of env (default: os.environ) whose PYTHONPATH names the project root first."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    return env


# What a plugin build is made of: a file here, tracked or not, that changes it.
BUILD_INPUTS = ("src", "build.rs", "Cargo.toml", "Cargo.lock")


def file_md5(path):
    """The md5 of a file (hex), or None when it is missing."""
    import hashlib
    if not os.path.exists(path):
        return None
    h = hashlib.md5()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def git_state(root=ROOT):
    """`COMMIT` (12 hex digits) of root's checkout, with `+ uncommitted changes to N files under
    src/, build.rs, Cargo.*` when the build's inputs differ from it; None outside a git checkout."""
    r = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", "HEAD"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        return None
    st = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", *BUILD_INPUTS],
                        capture_output=True, text=True).stdout.splitlines()
    return r.stdout.strip() + (f" + uncommitted changes to {len(st)} files under src/, build.rs, "
                               "Cargo.*" if st else "")


def llvm_crashed(returncode, stderr):
    """Whether an LLVM tool crashed (a signal, or LLVM's crash report) rather than failed."""
    return returncode < 0 or "Stack dump:" in stderr or "PLEASE submit a bug report" in stderr


if __name__ == "__main__":
    # `python3 -m nvopt_tools.paths nvidia-cu13`: the wheels' cu13 folder, or nothing (lit.cfg.py).
    if sys.argv[1:] != ["nvidia-cu13"]:
        sys.exit("usage: python3 -m nvopt_tools.paths nvidia-cu13")
    print(nvidia_cu13() or "")
