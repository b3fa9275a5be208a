# lit configuration for nvopt's plugin tests (plugin-tests/). Substitutions:
#   %plugin  libnvopt.so        %opt %llc %clang %lli  LLVM 22 tools
#   %root    project root       %python   python3      %ptxas (when the 'ptxas' feature is on)
#   %cudaflags  clang-22 flags that compile a .cu to NVPTX device IR without a CUDA SDK
# The project's Python tools run as modules of the nvopt_tools package (`%python -m
# nvopt_tools.ptx_check ...`): PYTHONPATH names the project root in every test's environment.
# Features: 'ptxas' and 'cicc' when NVIDIA's tools are installed (scripts/nvidia-tools.sh);
# tests needing them say `REQUIRES: ptxas` and are reported UNSUPPORTED when absent.
import os
import shutil
import subprocess

import lit.formats

config.name = "nvopt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".test", ".mir"]
root = os.path.dirname(os.path.abspath(__file__))
# The suite root is the project root; tests live under plugin-tests/ only (excludes match
# directory names at any depth, so only names that never hold tests are listed).
config.excludes = ["Inputs", "inputs", "target", "build", "src", "scripts", "include", "examples",
                   "kernels", "nvopt_tools", ".ci", ".git"]
config.test_source_root = root
config.test_exec_root = os.path.join(root, "build", "lit")

llvm_bin = os.environ.get("NVOPT_LLVM_BIN", "/usr/lib/llvm-22/bin")
plugin = os.environ.get("NVOPT_PLUGIN", os.path.join(root, "target", "release", "libnvopt.so"))
if not os.path.exists(plugin):
    lit_config.fatal(f"plugin not built: {plugin} (run scripts/build.sh)")


def tool(name):
    path = os.path.join(llvm_bin, name)
    if not os.path.exists(path):
        lit_config.fatal(f"LLVM 22 tool missing: {path} (apt-get install llvm-22-tools clang-22)")
    return path


config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", "")])
config.environment["PYTHONPATH"] = os.pathsep.join(
    p for p in (root, os.environ.get("PYTHONPATH")) if p)
for var in ("NVOPT_NVIDIA_BIN", "NVOPT_NVVM_BIN", "NVOPT_NVIDIA_INCLUDE", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

python = shutil.which("python3") or "python3"
cudaflags = ("-x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_90 "
             "-Xclang -target-feature -Xclang +ptx80 -I" + os.path.join(root, "include"))
config.substitutions += [
    ("%plugin", plugin),
    ("%opt", tool("opt")),
    ("%llc", tool("llc")),
    ("%clang", tool("clang++")),
    ("%lli", tool("lli")),
    ("%root", root),
    ("%python", python),
    ("%cudaflags", cudaflags),
]

# NVIDIA's tools: $NVOPT_NVIDIA_BIN, else the wheels scripts/nvidia-tools.sh installs, else PATH.
cu13 = subprocess.run([python, "-m", "nvopt_tools.paths", "nvidia-cu13"], cwd=root, check=True,
                      capture_output=True, text=True).stdout.strip()
nv_bin = os.environ.get("NVOPT_NVIDIA_BIN") or (os.path.join(cu13, "bin") if cu13 else "")
nvvm_bin = os.environ.get("NVOPT_NVVM_BIN") or (os.path.join(cu13, "nvvm", "bin") if cu13 else "")
ptxas = os.path.join(nv_bin, "ptxas") if nv_bin else shutil.which("ptxas")
if ptxas and os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
if nv_bin:
    config.environment["NVOPT_NVIDIA_BIN"] = nv_bin
# valgrind (callgrind) for the bench's instruction counts (bench.py --count-instructions).
if shutil.which("valgrind"):
    config.available_features.add("valgrind")
cicc = os.path.join(nvvm_bin, "cicc")
if os.path.exists(cicc):
    config.available_features.add("cicc")
    config.substitutions.append(("%cicc", cicc))
ref = os.path.join(os.path.dirname(root), "shared", "reference", "cicc-pipelines")
if os.path.isdir(ref):
    config.available_features.add("cicc-reference")
    config.substitutions.append(("%reference", ref))
