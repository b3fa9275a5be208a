# Finds (and on first use installs) the tools the bench needs: LLVM 22 (clang++, opt, llc),
# NVIDIA's wheels via scripts/nvidia-tools.sh, the nvopt plugin via scripts/build.sh, and a
# matplotlib venv in build/bench-venv for the charts. Follows docs/ARCHITECTURE.md "Measuring" (the
# three compilers, the NVIDIA tools as wheels) and the bench brief (one command from a fresh clone).
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

from nvopt_tools.paths import ROOT, device_ir_cmd, llc_opt_level  # noqa: F401


@dataclass
class Tools:
    llvm_bin: str
    overrides: dict = field(default_factory=dict)  # tool name -> explicit path (--opt, --llc, --clang)
    nvidia_bin: str = ""      # nvcc, ptxas, cuobjdump, nvdisasm ("" when unavailable)
    nvvm_bin: str = ""        # cicc
    plugin: str = ""
    plugin_error: str = ""    # why the nvopt column cannot run ("" when it can)
    notes: list = field(default_factory=list)

    def llvm(self, name):
        return self.overrides.get(name) or os.path.join(self.llvm_bin, name)

    def nv(self, name):
        return os.path.join(self.nvidia_bin, name)

    def cicc(self):
        return os.path.join(self.nvvm_bin, "cicc")


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def find_llvm_bin(overrides):
    """LLVM 22 bin dir: the folder of --opt, else $NVOPT_LLVM_BIN, else /usr/lib/llvm-22/bin;
    exits when a tool is missing."""
    llvm_bin = (os.path.dirname(overrides["opt"]) if overrides.get("opt")
                else os.environ.get("NVOPT_LLVM_BIN", "/usr/lib/llvm-22/bin"))
    for name in ("clang++", "opt", "llc", "llvm-dis", "llvm-as"):
        path = overrides.get(name) or os.path.join(llvm_bin, name)
        if not os.path.exists(path):
            sys.exit(f"bench: LLVM 22 tool missing: {path} (apt-get install llvm-22-tools clang-22)")
    return llvm_bin


def nvidia_tools():
    """(bin, nvvm_bin, error): from the environment, else via scripts/nvidia-tools.sh."""
    nv_bin = os.environ.get("NVOPT_NVIDIA_BIN", "")
    nvvm_bin = os.environ.get("NVOPT_NVVM_BIN", "")
    if nv_bin and os.path.exists(os.path.join(nv_bin, "ptxas")):
        return nv_bin, nvvm_bin, ""
    script = os.path.join(ROOT, "scripts", "nvidia-tools.sh")
    proc = subprocess.run(["bash", script], capture_output=True, text=True)
    if proc.returncode != 0:
        return "", "", f"scripts/nvidia-tools.sh failed: {proc.stderr.strip()[-400:]}"
    env = dict(line[len("export "):].split("=", 1) for line in proc.stdout.splitlines()
               if line.startswith("export ") and "=" in line)
    return env.get("NVOPT_NVIDIA_BIN", ""), env.get("NVOPT_NVVM_BIN", ""), ""


def ensure_plugin(path, build):
    """Returns (plugin path, error). Builds with scripts/build.sh when missing and allowed."""
    if os.path.exists(path):
        return path, ""
    script = os.path.join(ROOT, "scripts", "build.sh")
    if not build:
        return path, f"plugin not built: {path} (run scripts/build.sh or drop --no-build)"
    if not os.path.exists(script):
        return path, f"plugin not built: {path}, and scripts/build.sh does not exist yet"
    log(f"building the plugin: bash scripts/build.sh (log in build/bench-plugin-build.log)")
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench-plugin-build.log"), "w") as out:
        rc = subprocess.run(["bash", script], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT).returncode
    if rc != 0 or not os.path.exists(path):
        return path, f"scripts/build.sh failed (exit {rc}); see build/bench-plugin-build.log"
    return path, ""


def chart_python():
    """A python with matplotlib: the current one, else build/bench-venv (created on first use).
    Returns (python path, error)."""
    try:
        import matplotlib  # noqa: F401
        return sys.executable, ""
    except ImportError:
        pass
    venv = os.path.join(ROOT, "build", "bench-venv")
    py = os.path.join(venv, "bin", "python")
    if os.path.exists(py) and subprocess.run([py, "-c", "import matplotlib"],
                                             capture_output=True).returncode == 0:
        return py, ""
    log("installing matplotlib into build/bench-venv (first use only)")
    if subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True).returncode != 0:
        return "", "python3 -m venv build/bench-venv failed"
    proc = subprocess.run([py, "-m", "pip", "install", "-q", "matplotlib"], capture_output=True, text=True)
    if proc.returncode != 0:
        return "", f"pip install matplotlib failed: {proc.stderr.strip()[-300:]}"
    return py, ""


def discover(plugin, build_plugin, want_nvopt, overrides):
    overrides = {k: v for k, v in overrides.items() if v}
    tools = Tools(llvm_bin=find_llvm_bin(overrides), overrides=overrides)
    tools.nvidia_bin, tools.nvvm_bin, err = nvidia_tools()
    if err:
        tools.notes.append(err)
    tools.plugin = plugin
    if want_nvopt:
        tools.plugin, tools.plugin_error = ensure_plugin(plugin, build_plugin)
    return tools


def which_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    lines = [l for l in out.splitlines() if l.strip()]
    return lines[-1].strip() if lines else "unknown"


def have(path):
    return bool(path) and os.path.exists(path) and shutil.which(path) is not None
