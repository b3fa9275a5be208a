#!/usr/bin/env bash
# Assembles, from NVIDIA's CUDA wheels in build/nvidia-venv (scripts/nvidia-tools.sh), the
# directory layout clang's --cuda-path expects, in build/cuda, and prints its path:
#   include/  cuda_runtime.h, crt/, cooperative_groups, cuda_fp16.h, ... (nvidia-cuda-runtime,
#             nvidia-cuda-crt), CCCL (CUB, Thrust, libcu++) under include/cccl
#             (nvidia-cuda-cccl; nvcc and nvopt-cc add it with -isystem), curand_*.h
#             (nvidia-curand: clang's CUDA runtime wrapper includes curand_mtgp32_kernel.h)
#   nvvm/libdevice/libdevice.10.bc  (nvidia-nvvm; clang links it for math functions)
#   bin/      ptxas, fatbinary, nvlink, nvcc + nvcc.profile, ... (nvidia-cuda-nvcc; a device-only
#             compile only needs the folder to exist, a whole clang CUDA compile runs ptxas and
#             fatbinary from it; CMake's CUDAToolkit_ROOT needs bin/nvcc, which then reports
#             this folder as its TOP)
#   nvvm/bin  cicc (nvidia-nvvm; NVIDIA's nvcc run from this layout needs it)
#   lib64/    libcudart.so.13, libcudart_static.a (nvidia-cuda-runtime), the other wheels'
#             libraries, and an unversioned libX.so for each libX.so.N (clang and nvopt-cc link
#             -lcudart from here), lib -> lib64 (where nvcc.profile looks)
# clang's version check reads include/cuda.h (CUDA 13.x: clang-22 warns that it is newer than
# it knows, -Wunknown-cuda-version, and treats it as its newest).
# The cu13 wheels install into one folder, site-packages/nvidia/cu13, so the layout is a set of
# links into it. Used by nvopt-cc (when build/cuda is missing), the tests and the real-code check.
#   --install   first install the wheels that are missing (bash scripts/nvidia-tools.sh)
# Exits 1, naming the missing wheels, when the layout cannot be made. Never commit its output.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build/cuda"

if [ "${1:-}" = "--install" ]; then
  bash "$root/scripts/nvidia-tools.sh" >/dev/null
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/cuda-path.sh [--install]" >&2
  exit 2
fi

cu="$(ls -d "$root"/build/nvidia-venv/lib/python3*/site-packages/nvidia/cu13 2>/dev/null | head -1 || true)"
if [ -z "$cu" ]; then
  echo "cuda-path: NVIDIA's CUDA wheels are not installed (run: bash scripts/cuda-path.sh --install)" >&2
  exit 1
fi

# file in the wheels' folder -> the wheel that ships it
parts="include/cuda_runtime.h:nvidia-cuda-runtime
include/crt/host_defines.h:nvidia-cuda-crt
include/cccl/cub/cub.cuh:nvidia-cuda-cccl
include/curand_mtgp32_kernel.h:nvidia-curand
nvvm/libdevice/libdevice.10.bc:nvidia-nvvm"
missing=""
while IFS=: read -r file wheel; do
  [ -e "$cu/$file" ] || missing="$missing $wheel"
done <<< "$parts"
if [ -n "$missing" ]; then
  echo "cuda-path: missing wheels:$missing (run: bash scripts/cuda-path.sh --install)" >&2
  exit 1
fi

shopt -s nullglob
# Built beside the current layout and swapped in only when it differs, so that a run that finds
# the layout current (every lit run does) leaves it alone under concurrent builds that use it.
tmp="$out.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp/bin" "$tmp/nvvm"
ln -s "$cu/include" "$tmp/include"
ln -s "$cu/nvvm/libdevice" "$tmp/nvvm/libdevice"
[ -d "$cu/nvvm/bin" ] && ln -s "$cu/nvvm/bin" "$tmp/nvvm/bin"
# Every tool of the wheels, nvcc and its nvcc.profile included: nvcc run from here takes this
# folder as its TOP, which is how CMake finds a toolkit (CUDAToolkit_ROOT needs bin/nvcc).
for tool in "$cu"/bin/*; do
  ln -s "$tool" "$tmp/bin/$(basename "$tool")"
done
if [ -d "$cu/lib" ]; then
  mkdir "$tmp/lib64"
  for f in "$cu"/lib/*; do
    ln -s "$f" "$tmp/lib64/$(basename "$f")"
  done
  # The unversioned names `-lcudart`, `-lcublas`, ... need (the wheels ship libX.so.N only).
  for f in "$cu"/lib/lib*.so.*; do
    so="$(basename "$f")"
    [ -e "$tmp/lib64/${so%%.so.*}.so" ] || ln -s "$so" "$tmp/lib64/${so%%.so.*}.so"
  done
  ln -s lib64 "$tmp/lib"
fi
# Each entry with its link's final target: a layout made from another checkout whose build/ is
# this one (a worktree with build -> here) names the same files by another path.
listing() {
  (cd "$1" && find . -printf '%p %l\n' | sort | while read -r p l; do
    case "$l" in /*) l="$(readlink -f "$p")" ;; esac
    printf '%s %s\n' "$p" "$l"
  done)
}
if [ -d "$out" ] && [ "$(listing "$out")" = "$(listing "$tmp")" ]; then
  rm -rf "$tmp"
else
  rm -rf "$out.old.$$"
  [ -e "$out" ] && mv "$out" "$out.old.$$"
  mv "$tmp" "$out"
  rm -rf "$out.old.$$"
fi
echo "$out"
