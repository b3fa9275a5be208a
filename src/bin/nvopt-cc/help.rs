//! `nvopt-cc --help` and `--version`.

/// The whole text: the device-only sections, the whole-program options (from
/// program_options::SPECS), the rest.
pub fn help() -> String {
    format!("{HEAD}{}{TAIL}", crate::program_options::help())
}

const HEAD: &str = "\
usage: nvopt-cc [options] INPUT.{cu,ll,bc}... [-o OUT.ptx]      device code (PTX, cubin)
       nvopt-cc [options] INPUT.{cu,cpp,c,o,a,so}... -o PROGRAM  whole programs, like nvcc

Device code: compiles CUDA or LLVM IR files to PTX (or cubin) with NVIDIA cicc's optimization
flow as rebuilt by the nvopt plugin: clang++-22 (for .cu) -> opt -passes='nvopt<LEVEL>' -> llc
(nvopt codegen passes) -> ptxas (figures, cubin) when NVIDIA's ptxas is installed. Device-side
options follow nvcc; optimization levels follow cicc.

Whole programs (docs/DRIVER.md): with -c, -dc, -dlink, -link, -lib, -M or -MM, a host or link
option (-Xcompiler, -Xlinker, -L, -l, -shared, -cudart), an input other than .cu/.ll/.bc, or an
output named other than *.ptx, *.cubin or -, nvopt-cc compiles host and device code like nvcc
through clang++-22's CUDA driver, with -fpass-plugin=libnvopt.so -mllvm -nv-pipeline=LEVEL on
the device side (--upstream: without them), and links the CUDA runtime (libcudart.so). -O<n>
is then the host code's level (nvcc's meaning; default: none); device code runs nvopt<O3>, or
the -Ofast-compile level, or O0 with -G. Needs a CUDA installation (--cuda-path).

optimization level (cicc's options and semantics):
  -O0 | -O1 | -O2 | -O3        optimizer nvopt<On>, codegen llc -On (default: -O3, as nvcc,
                               which never passes -O to cicc)
  -Ofast-compile=LEVEL         LEVEL is max, mid, min or 0 (0 = use the -O level). Also spelled
  -Ofc=LEVEL                   --Ofast-compile / --Ofc, with the level joined by = or next.
                               max|mid|min run nvopt<Ofcmax|Ofcmid|Ofcmin> and llc -O0 (cicc
                               uses its O0 codegen list at every fast-compile level); a
                               non-zero fast-compile level wins over -O<n>, as in cicc

target and output:
  -arch ARCH                   sm_XX[a|f] or compute_XX[a|f] (default: sm_90); also
                               --gpu-architecture ARCH, -arch=ARCH; given twice, the last wins
  -ptx | -cubin                write PTX (default) or a cubin assembled by ptxas (needs ptxas
                               and a real sm_XX target; also --ptx, --cubin)
  -o FILE                      output file (default: each INPUT's stem + .ptx or .cubin in the
                               current directory; - for stdout); one input only. A name other
                               than *.ptx/*.cubin builds a program (see whole programs)
  --ptx-isa NN                 PTX ISA version, e.g. 80 or 8.0 (also --ptx=NN; default:
                               max(8.0, llc-22's minimum for ARCH); whole programs: also at
                               least the CUDA installation's ISA, 9.0 for CUDA 13)

code generation (as nvcc passes them to cicc and ptxas; in whole-program mode through clang):
  -maxrregcount N              register limit per thread, 1 to 255 (also -maxrregcount=N,
                               --maxrregcount N): nvopt's register target (opt and llc get
                               -nv-maxreg=N; not with --upstream) and ptxas -maxrregcount=N.
                               ptxas raises values below its minimum (24 on sm_90), and
                               __launch_bounds__ take precedence over it
  -Xptxas A,B,...              options for ptxas (comma-separated, as in nvcc)
  --use_fast_math              -ftz=true -prec-div=false -prec-sqrt=false -fmad=true, plus
                               clang's fast-math flags and approximate transcendentals
  -ftz=BOOL, -prec-div=BOOL,   nvcc's individual floating-point options (true|false); they win
  -prec-sqrt=BOOL, -fmad=BOOL  over --use_fast_math. They set nvvm-reflect's __CUDA_FTZ,
                               __CUDA_PREC_DIV and __CUDA_PREC_SQRT (default 0, 1, 1, as nvcc)
  -lineinfo                    line information (.loc) in the PTX; ptxas --generate-line-info
  -G                           full device debug info at -O0; ptxas -g (also --device-debug)
  -rdc=BOOL                    relocatable device code: clang -fgpu-rdc, opt -nv-rdc (device
                               functions keep their linkage), ptxas --compile-only; default
                               false: whole-program mode, as nvcc (also --relocatable-device-code)

front end (.cu only; in whole-program mode every source):
  -I DIR, -D M[=V], -U M       also --include-path, --define-macro, --undefine-macro
  -include FILE, -isystem DIR  also --pre-include FILE
  --cuda-path DIR              CUDA installation for clang (headers, libdevice; for programs
                               also libcudart, ptxas, fatbinary): a CUDA toolkit, NVIDIA's
                               wheels' nvidia/cu13 folder, or `none` for no CUDA headers
                               (clang's builtins and include/nvopt_cuda.h only). Default:
                               $NVOPT_CUDA_PATH, else $CUDA_PATH, else <root>/build/cuda
                               assembled from NVIDIA's wheels by scripts/cuda-path.sh when they
                               are installed, else /usr/local/cuda, else the wheels in
                               $VIRTUAL_ENV, else none
  -Xcc ARG                     pass ARG to the clang++-22 driver

whole programs (nvcc's options):
";

const TAIL: &str = "
nvopt:
  --knob NAME=VALUE            set a plugin knob (cl::opt) in both opt and llc as -NAME=VALUE
                               (repeatable; NAME alone gives -NAME)
  -Xopt ARG                    pass ARG to opt (repeatable)
  -Xllc ARG                    pass ARG to llc (repeatable)
  --verify                     opt -verify-each, llc -verify-machineinstrs
  --upstream                   for comparisons: LLVM's own default<On> and llc without the
                               plugin, with everything else as above (no fast-compile levels)

driver:
  -v                           print each command before running it, and its time (--verbose)
  --keep                       keep the intermediate files in a temp dir (its name is printed)
  --no-ptxas                   do not run ptxas (no figures)
  --plugin PATH                use this libnvopt.so (default: $NVOPT_PLUGIN, else
                               ../lib/libnvopt.so next to the driver's folder (an installation,
                               scripts/install.sh), else libnvopt.so beside the driver, else
                               <root>/target/release/libnvopt.so)
  --no-build                   scripts/nvopt-cc: do not rebuild the crate when it is stale
  --version, -V, -h | --help

exit status: 0; 1 for a usage error or a failed front end, optimizer or code generator (the
tool's own status when it has one); ptxas's status (255) when ptxas rejects the PTX.

environment: NVOPT_LLVM_BIN (default /usr/lib/llvm-22/bin), NVOPT_PLUGIN, NVOPT_CUDA_PATH,
CUDA_PATH, VIRTUAL_ENV, NVOPT_NVIDIA_BIN (directory with ptxas; else ptxas on PATH, in the
CUDA installation, or in <root>/build/nvidia-venv, made by `bash scripts/nvidia-tools.sh`).

examples: scripts/nvopt-cc -O3 -arch sm_90 examples/saxpy.cu -o build/saxpy.ptx
          nvopt-cc -O3 -arch=sm_90 a.cu b.cu -o app     (a program; make NVCC=nvopt-cc)
";

pub fn version() -> String {
    format!(
        "nvopt-cc {}: nvcc-style driver of the nvopt plugin (NVIDIA cicc's NVPTX flow on LLVM 22)\n",
        env!("CARGO_PKG_VERSION")
    )
}
