#!/usr/bin/env bash
# The device script of an nvopt program pack (docs/PROGRAMS.md in nvopt's repository): on a
# machine with one GPU, CUDA (CUPTI, compute-sanitizer) and python3,
#   bash run.sh [RESULTS_DIR] [device.py options, e.g. --budget 450 --only llm.c]
# runs every program of manifest.json in its three builds (nvcc, nvopt-cc --upstream, nvopt-cc),
# checks their outputs, times every kernel through the CUPTI injection library kerneltime.c
# (compiled here first), runs compute-sanitizer memcheck over the nvopt builds, and writes
# RESULTS_DIR (default ./results): kernels.md, kernels.tsv, summary.txt, summary.json,
# runs.tsv, sanitizer.tsv, device.log and every run's output under runs/. It stops starting
# runs after --budget seconds (default 450: the whole script stays under 8 minutes).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-results}"
[ $# -gt 0 ] && shift
command -v python3 >/dev/null || { echo "run.sh: python3 is needed" >&2; exit 2; }
exec python3 "$here/device/device.py" --pack "$here" --out "$out" "$@"
