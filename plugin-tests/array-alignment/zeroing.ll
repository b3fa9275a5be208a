;; nv-set-local-array-alignment (src/opt/array_alignment/local.rs): once a private float[8] is
;; raised to align 16, a memset that zeroes the whole array becomes two <4 x float> zero stores
;; (nvcc's st.local.v4.f32), not the 8-byte stores NVPTX would lower the aligned memset into:
;; ptxas keeps an array with mixed 8- and 4-byte accesses in local memory (llm.c's
;; softmax_autoregressive_backward_kernel4: a 32-byte frame that nvcc and upstream avoid).
;; Left alone: a volatile memset, a non-zero fill, a memset of part of the array, and arrays the
;; pass does not raise.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-set-local-array-alignment -verify-each -nv-stats \
; RUN:   -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=STATS < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-set-local-array-alignment %s -o %t.bc
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs %t.bc -o - | FileCheck %s --check-prefix=PTX

target triple = "nvptx64-nvidia-cuda"

declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memset.p5.i64(ptr addrspace(5), i8, i64, i1)

; CHECK-LABEL: define ptx_kernel void @whole(
; CHECK: %r = alloca [8 x float], align 16
; CHECK-NOT: llvm.memset
; CHECK: store <4 x float> zeroinitializer, ptr addrspace(5) %l, align 16
; CHECK-NEXT: [[P:%.*]] = getelementptr inbounds i8, ptr addrspace(5) %l, i64 16
; CHECK-NEXT: store <4 x float> zeroinitializer, ptr addrspace(5) [[P]], align 16
; CHECK-NOT: llvm.memset
; CHECK: ret void
; PTX-LABEL: .entry whole(
; PTX: st.local.v4.b32 {{.*}}{0f00000000, 0f00000000, 0f00000000, 0f00000000};
; PTX: st.local.v4.b32 {{.*}}+16], {0f00000000, 0f00000000, 0f00000000, 0f00000000};
; PTX-NOT: st.local.b64
define ptx_kernel void @whole(ptr addrspace(1) %out, i32 %k, i32 %j) {
  %r = alloca [8 x float], align 4
  %l = addrspacecast ptr %r to ptr addrspace(5)
  call void @llvm.memset.p5.i64(ptr addrspace(5) align 4 %l, i8 0, i64 32, i1 false)
  %e = getelementptr inbounds float, ptr addrspace(5) %l, i32 %k
  store float 1.0, ptr addrspace(5) %e, align 4
  %g = getelementptr inbounds float, ptr addrspace(5) %l, i32 %j
  %v = load float, ptr addrspace(5) %g, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

; PTX-LABEL: .entry kept(
; CHECK-LABEL: define ptx_kernel void @kept(
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 32, i1 true)
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %b, i8 1, i64 32, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %c, i8 0, i64 16, i1 false)
; CHECK: call void @llvm.memset.p0.i64(ptr align 4 %d, i8 0, i64 12, i1 false)
define ptx_kernel void @kept(ptr addrspace(1) %out, i32 %k) {
  %a = alloca [8 x float], align 4
  %b = alloca [8 x i32], align 4
  %c = alloca [8 x float], align 4
  %d = alloca [3 x float], align 4
  call void @llvm.memset.p0.i64(ptr align 4 %a, i8 0, i64 32, i1 true)
  call void @llvm.memset.p0.i64(ptr align 4 %b, i8 1, i64 32, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %c, i8 0, i64 16, i1 false)
  call void @llvm.memset.p0.i64(ptr align 4 %d, i8 0, i64 12, i1 false)
  %pa = getelementptr inbounds float, ptr %a, i32 %k
  %pb = getelementptr inbounds i32, ptr %b, i32 %k
  %pc = getelementptr inbounds float, ptr %c, i32 %k
  %pd = getelementptr inbounds float, ptr %d, i32 %k
  %va = load float, ptr %pa, align 4
  %vb = load i32, ptr %pb, align 4
  %vc = load float, ptr %pc, align 4
  %vd = load float, ptr %pd, align 4
  %fb = sitofp i32 %vb to float
  %s1 = fadd float %va, %fb
  %s2 = fadd float %s1, %vc
  %s3 = fadd float %s2, %vd
  store float %s3, ptr addrspace(1) %out, align 4
  ret void
}

; STATS: 1 nv-set-local-array-alignment {{.*}}- zeroing memsets stored by element
