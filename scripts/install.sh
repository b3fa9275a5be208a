#!/usr/bin/env bash
# Installs nvopt into a prefix that stands alone (docs/DRIVER.md, "Installing"):
#   PREFIX/bin/nvopt-cc                the driver
#   PREFIX/lib/libnvopt.so             the plugin (for clang -fpass-plugin, opt, llc too)
#   PREFIX/include/nvopt/nvopt_cuda.h  CUDA's keywords without an SDK (device-only compiles)
#   PREFIX/include/nvopt/nvopt_nvcc_compat.h  what nvcc's headers add (program builds)
#   PREFIX/libexec/nvopt/nvcc          a link to ../../bin/nvopt-cc: put the folder first on
#                                      PATH for builds that run `nvcc` by name
#   PREFIX/share/nvopt/source          the checkout's commit the binaries were installed from
#                                      (`git describe --always --dirty`; "unknown" without git),
#                                      which the program pack records as nvopt's commit
# The driver finds the plugin and the header relative to its own executable, so the prefix can
# be moved and the checkout removed. It still needs LLVM 22 (/usr/lib/llvm-22, or
# NVOPT_LLVM_BIN) and, to build programs, a CUDA installation (--cuda-path, CUDA_PATH,
# /usr/local/cuda, or NVIDIA's wheels in the active virtual environment).
#   usage: scripts/install.sh --prefix DIR [--no-build]
#   --no-build  install what is built (the driver and the plugin in cargo's target folder,
#               $CARGO_TARGET_DIR or target/) without running scripts/build.sh first
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix=""
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix="${2:-}"; shift 2 || { echo "install: --prefix needs a folder" >&2; exit 2; } ;;
    --prefix=*) prefix="${1#--prefix=}"; shift ;;
    --no-build) build=0; shift ;;
    *) echo "usage: scripts/install.sh --prefix DIR [--no-build]" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ]; then
  echo "usage: scripts/install.sh --prefix DIR [--no-build]" >&2
  exit 2
fi
if [ "$build" = 1 ]; then
  bash "$root/scripts/build.sh" >&2
fi
target="${CARGO_TARGET_DIR:-$root/target}/release"
for f in "$target/nvopt-cc" "$target/libnvopt.so"; do
  [ -f "$f" ] || { echo "install: $f is not built (run bash scripts/build.sh)" >&2; exit 1; }
done
mkdir -p "$prefix/bin" "$prefix/lib" "$prefix/include/nvopt"
install -m 755 "$target/nvopt-cc" "$prefix/bin/nvopt-cc"
install -m 755 "$target/libnvopt.so" "$prefix/lib/libnvopt.so"
install -m 644 "$root/include/nvopt_cuda.h" "$prefix/include/nvopt/nvopt_cuda.h"
install -m 644 "$root/include/nvopt_nvcc_compat.h" "$prefix/include/nvopt/nvopt_nvcc_compat.h"
mkdir -p "$prefix/libexec/nvopt"
ln -sfn ../../bin/nvopt-cc "$prefix/libexec/nvopt/nvcc"
mkdir -p "$prefix/share/nvopt"
source_rev="$(git -C "$root" describe --always --dirty --abbrev=7 2>/dev/null || echo unknown)"
echo "$source_rev" > "$prefix/share/nvopt/source"
echo "installed nvopt in $prefix: bin/nvopt-cc, lib/libnvopt.so, include/nvopt/nvopt_cuda.h, libexec/nvopt/nvcc (from $source_rev)"
