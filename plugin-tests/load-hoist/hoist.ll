; nv-load-hoist (src/machine/load_hoist): @k's load of *%p comes after a 64-bit srem, which
; CodeGenPrepare makes a 32/64-bit division diamond, so the load lands in the block after the
; diamond (machine-sink moves such loads there the same way); %p's 64-bit address is then held
; across the diamond instead of the 32-bit value. nv-load-hoist moves the load, with the address
; conversion only it reads, to just after %p's ld.param. @wide loads a 64-bit value: moving
; would hold as many bits as it frees, so it stays.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-disable-load-hoist %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -pass-remarks=nv-load-hoist -nv-stats %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O0 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=O0
; RUN: %if ptxas %{ %llc -O3 -mcpu=sm_90 -load %plugin %s -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

; CHECK-LABEL: .entry k(
; CHECK: ld.global.b32
; CHECK: rem.s64
; CHECK-LABEL: .entry wide(
; CHECK: rem.s64
; CHECK: ld.global.b64
; CHECK: ld.global.b64

; OFF-LABEL: .entry k(
; OFF: rem.s64
; OFF: ld.global.b32
; OFF: ld.global.b32

; REMARK: remark: {{.*}}1 load(s) moved back next to their address inputs
; REMARK-NOT: remark: {{.*}}load(s) moved back
; REMARK-DAG: 1 nv-load-hoist {{.*}}loads moved next to their address inputs
; REMARK-DAG: 1 nv-load-hoist {{.*}}loads left alone: no register bits freed

; PIPE: -machine-sink {{(-machine[a-z-]+ )*}}-nv-load-hoist -nv-pre-sink
; O0-NOT: nv-load-hoist

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(i64 %n, ptr addrspace(1) %p, ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %i = srem i64 %t, %n
  %first = load i32, ptr addrspace(1) %p, align 4
  %q = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %q, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  %o1 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 1
  store i32 %first, ptr addrspace(1) %o1, align 4
  ret void
}

define ptx_kernel void @wide(i64 %n, ptr addrspace(1) %p, ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %i = srem i64 %t, %n
  %first = load i64, ptr addrspace(1) %p, align 8
  %q = getelementptr inbounds i64, ptr addrspace(1) %in, i64 %i
  %v = load i64, ptr addrspace(1) %q, align 8
  store i64 %v, ptr addrspace(1) %out, align 8
  %o1 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  store i64 %first, ptr addrspace(1) %o1, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
