;; nv-dbe (src/opt/dbe.rs): dead barrier elimination. Each function names what must happen to its
;; __syncthreads() barriers; every hazard case keeps its barrier.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-dbe -verify-each -pass-remarks=nv-dbe -nv-stats %s -S -o - 2>%t.err | FileCheck %s
;; RUN: FileCheck %s --check-prefix=STATS < %t.err
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-dbe -nv-dbe-dataflow=0 %s -S -o - | FileCheck %s --check-prefix=BASIC
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-dbe -nv-dbe=0 %s -S -o - | FileCheck %s --check-prefix=OFF
;; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s | %opt -load-pass-plugin=%plugin -passes=nv-dbe -S -o - | FileCheck %s --check-prefix=OFF
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)
declare void @opaque()

;; The issue's shape: four barriers, one of which separates a shared write from another
;; thread's read. The entry barrier orders nothing before it, the third separates a shared read
;; from a global write, the last orders nothing after it.
; CHECK-LABEL: define ptx_kernel void @four(
; CHECK-NOT: barrier
; CHECK: store float %x, ptr addrspace(3) %a
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: %y = load float, ptr addrspace(3) %b
; CHECK-NOT: barrier
; CHECK: ret void
; BASIC-LABEL: define ptx_kernel void @four(
; BASIC: store float %x
; BASIC-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; BASIC: load float
; BASIC-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; BASIC-NEXT: store float %y
; BASIC-NEXT: ret void
; OFF-LABEL: define ptx_kernel void @four(
; OFF-COUNT-4: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
define ptx_kernel void @four(ptr addrspace(3) %a, ptr addrspace(3) %b, ptr addrspace(1) %out, float %x) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %x, ptr addrspace(3) %a
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %y = load float, ptr addrspace(3) %b
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %y, ptr addrspace(1) %out
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

;; Hazards that keep a barrier: write-after-read on shared memory, a generic pointer (it may
;; point into shared memory), an atomic, a call that may touch memory.
; CHECK-LABEL: define ptx_kernel void @hazards(
; CHECK: load float, ptr addrspace(3) %a
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: store float %x, ptr addrspace(3) %a
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: load float, ptr %g
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: atomicrmw add ptr addrspace(1) %out
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: call void @opaque()
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: store float %x, ptr addrspace(3) %b
define ptx_kernel void @hazards(ptr addrspace(3) %a, ptr addrspace(3) %b, ptr %g, ptr addrspace(1) %out, float %x) {
  %r = load float, ptr addrspace(3) %a
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %x, ptr addrspace(3) %a
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %s = load float, ptr %g
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %o = atomicrmw add ptr addrspace(1) %out, i32 1 monotonic
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  call void @opaque()
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %x, ptr addrspace(3) %b
  %v = fadd float %r, %s
  store float %v, ptr addrspace(1) %out
  ret void
}

;; A device function's entry and return lead to its caller's accesses: both barriers stay.
; CHECK-LABEL: define void @device(
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: store
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
define void @device(ptr addrspace(3) %a, float %x) {
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  store float %x, ptr addrspace(3) %a
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

;; __syncthreads_count is never removed, and it is a barrier too: the two plain barriers right
;; before it order nothing it does not. A barrier whose region leaves its block stays.
; CHECK-LABEL: define ptx_kernel void @kept(
; CHECK: store float %x, ptr addrspace(3) %a
; CHECK-NEXT: %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %c)
; CHECK-NEXT: br label %next
; CHECK: next:
; CHECK-NEXT: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NEXT: load float, ptr addrspace(3) %a
define ptx_kernel void @kept(ptr addrspace(3) %a, float %x, i1 %c, ptr addrspace(1) %out) {
  store float %x, ptr addrspace(3) %a
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 %c)
  br label %next
next:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %y = load float, ptr addrspace(3) %a
  store float %y, ptr addrspace(1) %out
  store i32 %n, ptr addrspace(1) %out
  ret void
}

; STATS-DAG: remark: <unknown>:0:0: barrier removed: no memory access on one side of it
; STATS-DAG: remark: <unknown>:0:0: barrier removed: no access before it can conflict with one after it
; STATS-DAG: 4 nv-dbe                 - barriers kept (accesses may conflict)
; STATS-DAG: 5 nv-dbe                 - barriers kept (a side is not known)
; STATS-DAG: 1 nv-dbe                 - barriers removed (no conflicting accesses)
; STATS-DAG: 4 nv-dbe                 - barriers removed (nothing on one side)
