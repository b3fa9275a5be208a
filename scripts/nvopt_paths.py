"""Shared by the project's Python scripts: where LLVM 22, the plugin and the CUDA compatibility
header are, and the clang-22 command that turns a .cu file into unoptimized sm_90 device IR
(DESIGN.md, "Verified platform facts"; evaluation.md: -O3 with LLVM passes disabled)."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"
PLUGIN = os.path.join(ROOT, "target", "release", "libnvopt.so")


def device_ir_cmd(cu, out):
    """clang-22 command: CUDA source -> unoptimized NVPTX bitcode, no CUDA SDK needed."""
    return [f"{LLVM_BIN}/clang++", "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
            "--cuda-gpu-arch=sm_90", "-Xclang", "-target-feature", "-Xclang", "+ptx80",
            "-I", os.path.join(ROOT, "include"), "-O3", "-Xclang", "-disable-llvm-passes",
            "-emit-llvm", "-c", cu, "-o", out]
