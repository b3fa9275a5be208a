;; nv-const-pointers (src/opt/const_pointers.rs): pointers loaded from __constant__ memory (directly,
;; through a GEP constant expression, a dynamically indexed table, or as an integer used only
;; by inttoptr) are marked global; infer-address-spaces then gives their accesses the global
;; space. Pointers loaded from global or shared memory stay generic.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-const-pointers -verify-each -pass-remarks=nv-const-pointers -nv-stats %s -S -o - 2>%t.err | FileCheck %s
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: %opt -load-pass-plugin=%plugin -passes='nv-const-pointers,infer-address-spaces' %s -S -o - | FileCheck %s --check-prefix=INFER
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-const-pointers -nv-disable-const-pointers %s -S -o - | FileCheck %s --check-prefix=OFF
;; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s | %opt -load-pass-plugin=%plugin -passes=nv-const-pointers -S -o - | FileCheck %s --check-prefix=OFF
;; In nvopt's pipelines it runs first in the MemorySpaceOpt slot.
;; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE
; PIPE: nv-const-pointers,infer-address-spaces
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Frame = type { ptr, ptr, i64, i32 }
@frame = addrspace(4) externally_initialized global %struct.Frame zeroinitializer, align 8
@tables = addrspace(4) externally_initialized global [4 x ptr] zeroinitializer, align 8
@gptrs = addrspace(1) externally_initialized global [4 x ptr] zeroinitializer, align 8

; CHECK-LABEL: define ptx_kernel void @from_constant(
; CHECK: %img = load ptr, ptr addrspacecast (ptr addrspace(4) @frame to ptr), align 8
; CHECK-NEXT: [[G:%.*]] = addrspacecast ptr %img to ptr addrspace(1)
; CHECK-NEXT: [[GEN:%.*]] = addrspacecast ptr addrspace(1) [[G]] to ptr
; CHECK: %out = load ptr, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(4) @frame to ptr), i64 8)
; CHECK-NEXT: addrspacecast ptr %out to ptr addrspace(1)
; CHECK: %raw = load i64
; CHECK-NEXT: %asptr = inttoptr i64 %raw to ptr
; CHECK-NEXT: addrspacecast ptr %asptr to ptr addrspace(1)
; CHECK: %t = load ptr, ptr addrspace(4) %slot
; CHECK-NEXT: addrspacecast ptr %t to ptr addrspace(1)
; INFER-LABEL: define ptx_kernel void @from_constant(
; INFER: load float, ptr addrspace(1)
; INFER: store float {{.*}}, ptr addrspace(1)
; INFER: store float {{.*}}, ptr addrspace(1)
; INFER: store float {{.*}}, ptr addrspace(1)
define ptx_kernel void @from_constant(i32 %i) {
  %img = load ptr, ptr addrspacecast (ptr addrspace(4) @frame to ptr), align 8
  %out = load ptr, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(4) @frame to ptr), i64 8), align 8
  %v = load float, ptr %img, align 4
  store float %v, ptr %out, align 4
  %raw = load i64, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(4) @frame to ptr), i64 16), align 8
  %asptr = inttoptr i64 %raw to ptr
  store float %v, ptr %asptr, align 4
  %slot = getelementptr inbounds [4 x ptr], ptr addrspace(4) @tables, i64 0, i32 %i
  %t = load ptr, ptr addrspace(4) %slot, align 8
  store float %v, ptr %t, align 4
  ret void
}

;; A pointer loaded from global memory may have been stored there by the kernel from a shared
;; or local address: left generic. So is an integer used as a number.
; CHECK-LABEL: define ptx_kernel void @not_constant(
; CHECK-NOT: addrspacecast ptr %{{.*}} to ptr addrspace(1)
; CHECK: ret void
define ptx_kernel void @not_constant(i32 %i) {
  %slot = getelementptr inbounds [4 x ptr], ptr addrspace(1) @gptrs, i64 0, i32 %i
  %p = load ptr, ptr addrspace(1) %slot, align 8
  store float 1.0, ptr %p, align 4
  %n = load i32, ptr getelementptr inbounds nuw (i8, ptr addrspacecast (ptr addrspace(4) @frame to ptr), i64 24), align 8
  %m = add i32 %n, %i
  store i32 %m, ptr %p, align 4
  ret void
}

; OFF-NOT: addrspacecast ptr %{{[a-z]+}} to ptr addrspace(1)

; REMARK: remark: {{.*}}pointer loaded from constant memory by %img marked global
; REMARK: remark: {{.*}}pointer loaded from constant memory by %t marked global
; REMARK-NOT: by %p marked
; REMARK: 4 nv-const-pointers {{ *}}- pointers loaded from constant memory marked global
