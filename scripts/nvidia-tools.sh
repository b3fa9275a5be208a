#!/usr/bin/env bash
# Installs NVIDIA's reference tools (nvcc, ptxas, cicc, cuobjdump, nvdisasm) from their PyPI
# wheels, and CMake and ninja (best effort), into build/nvidia-venv (docs/ARCHITECTURE.md,
# "Measuring") and prints `export` lines for NVOPT_NVIDIA_BIN (nvcc, ptxas,
# cuobjdump, nvdisasm),
# NVOPT_NVVM_BIN (cicc) and NVOPT_NVIDIA_INCLUDE. Test and bench tool only: nothing in the
# plugin depends on it. Exits 1 (with the reason on stderr) when the wheels cannot be had.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/build/nvidia-venv"
# nvidia-curand: clang's CUDA runtime wrapper includes its curand_mtgp32_kernel.h
# (scripts/cuda-path.sh assembles the headers into clang's --cuda-path layout).
wheels="nvidia-cuda-nvcc nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-crt nvidia-cuda-cccl
nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm nvidia-curand"

find_cu() {
  ls -d "$venv"/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -1
}

if [ -z "$(find_cu)" ] || [ ! -x "$(find_cu)/bin/ptxas" ] ||
  [ ! -e "$(find_cu)/include/curand_mtgp32_kernel.h" ]; then
  echo "nvidia-tools: installing NVIDIA's CUDA wheels into $venv (first use only)" >&2
  python3 -m venv "$venv" >&2 || { echo "nvidia-tools: python3 -m venv failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q $wheels >&2 || { echo "nvidia-tools: pip install failed" >&2; exit 1; }
fi
# CMake and ninja from PyPI into the same venv, best effort (plugin-tests/cmake builds a CMake
# CUDA project with them; without them that test is UNSUPPORTED).
if [ ! -x "$venv/bin/cmake" ] || [ ! -x "$venv/bin/ninja" ]; then
  "$venv/bin/pip" install -q cmake ninja >&2 ||
    echo "nvidia-tools: pip install cmake ninja failed (CMake tests will be UNSUPPORTED)" >&2
fi
cu="$(find_cu)"
[ -x "$cu/bin/ptxas" ] || { echo "nvidia-tools: ptxas not found under $cu" >&2; exit 1; }
echo "export NVOPT_NVIDIA_BIN=$cu/bin"
echo "export NVOPT_NVVM_BIN=$cu/nvvm/bin"
echo "export NVOPT_NVIDIA_INCLUDE=$cu/include"
