#!/usr/bin/env bash
# For each CUDA file: (1) the device IR clang produces with the plugin and -nv-pipeline=LEVEL,
# against opt -passes='nvopt<LEVEL>' on clang's -disable-llvm-passes output (with the flag
# clang's CUDA toolchain gives every device optimizer, -enable-memcpyopt-without-libcalls);
# (2) clang's PTX against nvopt-cc's. Value names are stripped (clang's context discards the
# names opt gives new values) and so are PTX comments (they quote block names). Prints
# "ir same|DIFF FILE" and "ptx same|DIFF FILE".
# usage: same-as-driver.sh CLANG OPT PLUGIN DRIVER LEVEL SCRATCH FILE.cu...   ($NVOPT_DEVFLAGS)
set -uo pipefail
clang=$1 opt=$2 plugin=$3 driver=$4 level=$5 scratch=$6
shift 6
mkdir -p "$scratch"
# clang's front end as nvopt-cc runs it: -O3 without LLVM passes; at O0 without optnone.
if [ "$level" = O0 ]; then fe="-O0 -Xclang -disable-O0-optnone"; else fe="-O3"; fi
case $level in Ofc*) dlevel="-Ofc=${level#Ofc}" ;; *) dlevel="-$level" ;; esac
strip_ptx() { sed -e 's|//.*$||' -e 's/[[:space:]]*$//' "$1" | grep -v '^$'; }
for cu in "$@"; do
  k="$scratch/$(basename "$cu" .cu)"
  # shellcheck disable=SC2086
  "$clang" $NVOPT_DEVFLAGS $fe -Xclang -disable-llvm-passes -emit-llvm -c "$cu" -o "$k.fe.bc"
  "$opt" -load-pass-plugin="$plugin" -enable-memcpyopt-without-libcalls "-passes=nvopt<$level>" "$k.fe.bc" -o "$k.opt.bc"
  # shellcheck disable=SC2086
  "$clang" $NVOPT_DEVFLAGS $fe -fpass-plugin="$plugin" -mllvm -nv-pipeline="$level" -emit-llvm -c "$cu" -o "$k.clang.bc"
  "$opt" -passes=strip "$k.opt.bc" -S -o - | tail -n +2 > "$k.opt.ll"
  "$opt" -passes=strip "$k.clang.bc" -S -o - | tail -n +2 > "$k.clang.ll"
  if cmp -s "$k.opt.ll" "$k.clang.ll"; then echo "ir same $cu"; else echo "ir DIFF $cu"; fi
  # shellcheck disable=SC2086
  "$clang" $NVOPT_DEVFLAGS $fe -fpass-plugin="$plugin" -mllvm -nv-pipeline="$level" -S "$cu" -o "$k.clang.ptx"
  NVOPT_CUDA_PATH=none "$driver" --plugin "$plugin" --no-ptxas "$dlevel" "$cu" -o "$k.driver.ptx"
  if cmp -s <(strip_ptx "$k.clang.ptx") <(strip_ptx "$k.driver.ptx"); then
    echo "ptx same $cu"
  else
    echo "ptx DIFF $cu"
  fi
done
