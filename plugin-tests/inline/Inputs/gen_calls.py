#!/usr/bin/env python3
# Writes the NVPTX module of plugin-tests/inline/thresholds.test: callees made of chains of
# floating-point operations (each costs LLVM's InstrCost, 5; nothing folds without fast-math),
# sized against the thresholds the test is about. Each callee has two blocks, so LLVM's
# single-block bonus does not apply.
#   @mid   520 operations: over plain cgscc(inline)'s 2475, under upstream O3's 2750
#   @big   1500 operations: over nvopt's 6534 for device callers, under 151525 in kernels
#   @fill  1400 operations and a private array argument: under 21032, over 6534
import sys


def chain(name, n, params, first, ptr_arg=False):
    out = [f"define float @{name}({params}) {{", "entry:",
           f"  %c = fcmp ogt float {first}, 0.0", "  br i1 %c, label %body, label %exit", "body:"]
    if ptr_arg:
        out += [f"  %e{k} = getelementptr inbounds float, ptr addrspace(5) %a, i64 {k}\n"
                f"  store float {first}, ptr addrspace(5) %e{k}, align 4" for k in range(4)]
    prev = first
    for k in range(n):
        op = "fmul" if k % 2 else "fadd"
        out.append(f"  %v{k} = {op} float {prev}, {first}")
        prev = f"%v{k}"
    out += ["  br label %exit", "exit:", f"  %r = phi float [ {first}, %entry ], [ {prev}, %body ]",
            "  ret float %r", "}", ""]
    return "\n".join(out)


def main():
    print('target triple = "nvptx64-nvidia-cuda"\n')
    print(chain("mid", 520, "float %x", "%x"))
    print(chain("big", 1500, "float %x", "%x"))
    print(chain("fill", 1400, "ptr addrspace(5) %a, float %x", "%x", ptr_arg=True))
    print("""define float @device_caller(float %x) {
  %r = call float @mid(float %x)
  %s = call float @big(float %r)
  ret float %s
}

define ptx_kernel void @kern(ptr addrspace(1) %out, float %x) {
  %r = call float @big(float %x)
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

define float @aggregate_caller(float %x) {
  %arr = alloca [4 x float], align 4, addrspace(5)
  %r = call float @fill(ptr addrspace(5) %arr, float %x)
  %off = getelementptr inbounds float, ptr addrspace(5) %arr, i64 1
  %s = call float @fill(ptr addrspace(5) %off, float %r)
  %v = load float, ptr addrspace(5) %arr, align 4
  %t = fadd float %s, %v
  ret float %t
}""")
    return 0


if __name__ == "__main__":
    sys.exit(main())
