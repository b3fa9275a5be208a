"""Writes an NVPTX module whose functions make N address computations, for nv-scev's gating
tests and its scaling measurement (issue 4; docs/CICC-FACTS.md, "getSCEV gating (simple mode)").

Each step k loads a stride s_k (an opaque value to SCEV), adds it to the running offset
(off_k = off_(k-1) + s_k, so LLVM's expression for off_k has k+1 nodes) and stores through
base + off_k. `--kind` picks a kernel (ptx_kernel: no recursion budget), a device function, or
both with the same body.
"""
import argparse


def body(n):
    lines = ["entry:", "  %off0 = load i64, ptr %strides"]
    for k in range(1, n + 1):
        lines += [
            f"  %sp{k} = getelementptr i64, ptr %strides, i64 {k}",
            f"  %s{k} = load i64, ptr %sp{k}",
            f"  %off{k} = add i64 %off{k - 1}, %s{k}",
            f"  %p{k} = getelementptr float, ptr %base, i64 %off{k}",
            f"  store float 0.0, ptr %p{k}",
        ]
    return "\n".join(lines + ["  ret void"])


def function(name, kernel, n):
    cc = "ptx_kernel " if kernel else ""
    return f"define {cc}void @{name}(ptr %base, ptr %strides) {{\n{body(n)}\n}}\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("n", type=int, help="address computations per function")
    ap.add_argument("--kind", choices=["kernel", "device", "both"], default="kernel")
    args = ap.parse_args()
    print('target triple = "nvptx64-nvidia-cuda"\n')
    if args.kind in ("device", "both"):
        print(function("device_chain", False, args.n))
    if args.kind in ("kernel", "both"):
        print(function("kernel_chain", True, args.n))


if __name__ == "__main__":
    main()
