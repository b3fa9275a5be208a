; .ll and .bc inputs skip the front end: opt (nvopt<LEVEL>) then llc. The -v trace shows no
; clang++, and the kernel survives into the PTX at every level kind.
; RUN: %nvoptcc -v --no-ptxas %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=TRACE
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx
; RUN: %nvoptcc --no-ptxas -Ofc=max %s -o %t.max.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.max.ptx
; RUN: %opt %s -o %t.bc
; RUN: %nvoptcc --no-ptxas -O2 %t.bc -o %t.bc.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.bc.ptx
; -o - writes the PTX to stdout.
; RUN: %nvoptcc --no-ptxas %s -o - | FileCheck %s --check-prefix=PTX

; TRACE-NOT: clang++
; TRACE:     '-passes=nvopt<O3>' {{.*}}ll-input.ll -o
; TRACE:     llc --load-pass-plugin=

; PTX: .target sm_90
; PTX: .visible .entry scale(
; PTX: mul{{(.rn)?}}.f32

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale(ptr addrspace(1) %p, float %s, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ok = icmp slt i32 %tid, %n
  br i1 %ok, label %body, label %exit
body:
  %idx = sext i32 %tid to i64
  %a = getelementptr inbounds float, ptr addrspace(1) %p, i64 %idx
  %v = load float, ptr addrspace(1) %a
  %m = fmul float %v, %s
  store float %m, ptr addrspace(1) %a
  br label %exit
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
