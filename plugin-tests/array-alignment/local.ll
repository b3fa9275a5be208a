;; nv-set-local-array-alignment (src/opt/array_alignment): statically sized private arrays get the
;; largest power of two dividing their size, at most 16 bytes, and the loads and stores at
;; constant offsets from them the alignment that proves; each refusal has a missed remark.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-set-local-array-alignment -verify-each -S %s \
; RUN:   -pass-remarks=nv-set-local-array-alignment -pass-remarks-missed=nv-set-local-array-alignment \
; RUN:   -nv-stats -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: FileCheck %s --check-prefix=STATS < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-set-local-array-alignment -nv-max-array-alignment=8 -S %s -o - \
; RUN:   | FileCheck %s --check-prefix=BOUND8
; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s \
; RUN:   | %opt -load-pass-plugin=%plugin -passes=nv-set-local-array-alignment -S -o - | FileCheck %s --check-prefix=HOST
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @use(ptr)

;; float a[8] (32 bytes): 16. The stores at constant offsets get what the new alignment proves
;; (offset 0 and 16: 16, 8: 8, 4: 4), through the generic-to-local addrspacecast and i8 or
;; typed GEPs; the access at a variable offset is infer-alignment's.
; CHECK-LABEL: define ptx_kernel void @window8(
; CHECK: %a = alloca [8 x float], align 16
; CHECK: store float %x, ptr addrspace(5) %l, align 16
; CHECK: store float %x, ptr addrspace(5) %p4, align 4
; CHECK: store float %x, ptr addrspace(5) %p8, align 8
; CHECK: store float %x, ptr addrspace(5) %p16, align 16
; CHECK: %v = load float, ptr addrspace(5) %pi, align 4
; BOUND8-LABEL: define ptx_kernel void @window8(
; BOUND8: %a = alloca [8 x float], align 8
; BOUND8: store float %x, ptr addrspace(5) %l, align 8
; BOUND8: store float %x, ptr addrspace(5) %p16, align 8
; HOST-LABEL: define ptx_kernel void @window8(
; HOST: %a = alloca [8 x float], align 4
define ptx_kernel void @window8(float %x, i64 %i, ptr addrspace(1) %out) {
  %a = alloca [8 x float], align 4
  %l = addrspacecast ptr %a to ptr addrspace(5)
  store float %x, ptr addrspace(5) %l, align 4
  %p4 = getelementptr inbounds i8, ptr addrspace(5) %l, i64 4
  store float %x, ptr addrspace(5) %p4, align 4
  %p8 = getelementptr inbounds float, ptr addrspace(5) %l, i64 2
  store float %x, ptr addrspace(5) %p8, align 4
  %p16 = getelementptr inbounds [8 x float], ptr addrspace(5) %l, i64 0, i64 4
  store float %x, ptr addrspace(5) %p16, align 4
  %pi = getelementptr inbounds float, ptr addrspace(5) %l, i64 %i
  %v = load float, ptr addrspace(5) %pi, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

;; float w[6] (24 bytes): 8, the largest power of two dividing 24; a struct of 4 floats and
;; an int (20 bytes) and float t[3] (12 bytes) allow no more than their 4; char c[3] (3
;; bytes) no more than 1; an array aligned to 16 already; a dynamic alloca (variable count)
;; and one outside the entry block are refused; a scalar is not an array (no remark), four
;; floats of one alloca (a constant count) are.
; CHECK-LABEL: define void @sizes(
; CHECK: %w = alloca [6 x float], align 8
; CHECK: %s = alloca { [4 x float], i32 }, align 4
; CHECK: %t = alloca [3 x float], align 4
; CHECK: %c = alloca [3 x i8], align 1
; CHECK: %done = alloca [16 x float], align 16
; CHECK: %vla = alloca float, i64 %n, align 4
; CHECK: %d = alloca double, align 8
; CHECK: %count = alloca float, i32 4, align 16
; CHECK: %late = alloca [8 x float], align 4
define void @sizes(i64 %n, i1 %c1) {
entry:
  %w = alloca [6 x float], align 4
  %s = alloca { [4 x float], i32 }, align 4
  %t = alloca [3 x float], align 4
  %c = alloca [3 x i8], align 1
  %done = alloca [16 x float], align 16
  %vla = alloca float, i64 %n, align 4
  %d = alloca double, align 8
  %count = alloca float, i32 4, align 4
  call void @use(ptr %w)
  call void @use(ptr %s)
  call void @use(ptr %t)
  call void @use(ptr %c)
  call void @use(ptr %done)
  call void @use(ptr %vla)
  call void @use(ptr %d)
  call void @use(ptr %count)
  br i1 %c1, label %more, label %exit
more:
  %late = alloca [8 x float], align 4
  call void @use(ptr %late)
  br label %exit
exit:
  ret void
}

; REMARK: remark: {{.*}}private array %a (32 bytes) aligned from 4 to 16 bytes
; REMARK-NEXT: remark: {{.*}}private array %w (24 bytes) aligned from 4 to 8 bytes
; REMARK-NEXT: remark: {{.*}}private array %s (20 bytes) kept at align 4: its size is a multiple of no larger power of two
; REMARK-NEXT: remark: {{.*}}private array %t (12 bytes) kept at align 4: its size is a multiple of no larger power of two
; REMARK-NEXT: remark: {{.*}}private array %c (3 bytes) kept at align 1: its size is a multiple of no larger power of two
; REMARK-NEXT: remark: {{.*}}private array %done (64 bytes) kept at align 16: already aligned to the bound
; REMARK-NEXT: remark: {{.*}}private array %vla (? bytes) kept at align 4: a dynamic alloca (variable count or outside the entry block)
; REMARK-NEXT: remark: {{.*}}private array %count (16 bytes) aligned from 4 to 16 bytes
; REMARK-NEXT: remark: {{.*}}private array %late (32 bytes) kept at align 4: a dynamic alloca (variable count or outside the entry block)
; REMARK-NOT: remark

; STATS-DAG: 3 nv-set-local-array-alignment - loads/stores given a higher alignment
; STATS-DAG: 3 nv-set-local-array-alignment - private arrays aligned
; STATS-DAG: 1 nv-set-local-array-alignment - private arrays kept (already aligned)
; STATS-DAG: 2 nv-set-local-array-alignment - private arrays kept (dynamic alloca)
; STATS-DAG: 3 nv-set-local-array-alignment - private arrays kept (size allows no more)
