#!/usr/bin/env bash
# Builds libnvopt.so (target/release/libnvopt.so). Installs LLVM 22 from Debian's packages
# first when it is missing and we are root (README: "fresh Debian machine"). libomp-22-dev is
# LLVM's OpenMP runtime: whole programs built with `-Xcompiler -fopenmp` need it, as nvcc's need
# libgomp.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
need_llvm() {
  [ -x /usr/lib/llvm-22/bin/llvm-config ] && [ -x /usr/lib/llvm-22/bin/opt ] &&
    [ -x /usr/lib/llvm-22/bin/FileCheck ] && [ -x /usr/lib/llvm-22/bin/clang++ ] &&
    [ -f /usr/lib/llvm-22/include/llvm/Plugins/PassPlugin.h ] &&
    [ -f /usr/lib/llvm-22/lib/clang/22/include/omp.h ]
}
if ! need_llvm && [ -z "${LLVM_CONFIG:-}" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "build: installing LLVM 22 (llvm-22-dev llvm-22-tools clang-22 libomp-22-dev)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq llvm-22-dev llvm-22-tools clang-22 libomp-22-dev >&2
  else
    echo "build: LLVM 22 is missing: run as root: apt-get update && apt-get install llvm-22-dev llvm-22-tools clang-22 libomp-22-dev" >&2
    exit 1
  fi
fi
cd "$root"
cargo build --release --quiet >&2
echo "$root/target/release/libnvopt.so"
