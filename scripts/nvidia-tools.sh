#!/usr/bin/env bash
# Installs NVIDIA's reference tools (nvcc, ptxas, cicc, cuobjdump, nvdisasm) from their PyPI
# wheels into build/nvidia-venv (evaluation.md, "Installing the NVIDIA reference tools") and
# prints `export` lines for NVOPT_NVIDIA_BIN (nvcc, ptxas, cuobjdump, nvdisasm),
# NVOPT_NVVM_BIN (cicc) and NVOPT_NVIDIA_INCLUDE. Test and bench tool only: nothing in the
# plugin depends on it. Exits 1 (with the reason on stderr) when the wheels cannot be had.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/build/nvidia-venv"
wheels="nvidia-cuda-nvcc nvidia-nvvm nvidia-cuda-runtime nvidia-cuda-crt nvidia-cuda-cccl
nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm"

find_cu() {
  ls -d "$venv"/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -1
}

if [ -z "$(find_cu)" ] || [ ! -x "$(find_cu)/bin/ptxas" ]; then
  echo "nvidia-tools: installing NVIDIA's CUDA wheels into $venv (first use only)" >&2
  python3 -m venv "$venv" >&2 || { echo "nvidia-tools: python3 -m venv failed" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q $wheels >&2 || { echo "nvidia-tools: pip install failed" >&2; exit 1; }
fi
cu="$(find_cu)"
[ -x "$cu/bin/ptxas" ] || { echo "nvidia-tools: ptxas not found under $cu" >&2; exit 1; }
echo "export NVOPT_NVIDIA_BIN=$cu/bin"
echo "export NVOPT_NVVM_BIN=$cu/nvvm/bin"
echo "export NVOPT_NVIDIA_INCLUDE=$cu/include"
