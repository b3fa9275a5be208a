#!/usr/bin/env bash
# Makes DIR an LLVM bin folder for NVOPT_LLVM_BIN whose clang++ is REAL_BIN's and whose opt and
# llc are REAL_BIN's behind a wrapper that drops `-nv-maxreg=N` from their arguments: the
# driver's command lines (printed with -v) can then be checked whether or not the plugin
# registers that knob, and the compile still runs to the end.
# usage: llvm-bin-without-maxreg.sh DIR REAL_BIN
set -euo pipefail
dir=$1 real=$2
rm -rf "$dir"
mkdir -p "$dir"
ln -s "$real/clang++" "$dir/clang++"
for tool in opt llc; do
  cat > "$dir/$tool" <<WRAP
#!/usr/bin/env bash
args=()
for a in "\$@"; do
  case \$a in -nv-maxreg=*) ;; *) args+=("\$a") ;; esac
done
exec "$real/$tool" "\${args[@]}"
WRAP
  chmod +x "$dir/$tool"
done
