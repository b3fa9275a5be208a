; What nv-local-array-unroll leaves alone, and the missed remark it gives for each
; (src/opt/local_array_unroll/mod.rs, "What it refuses"): loops that index no private array;
; an index loaded from memory; the user's #pragma unroll 1; a loop without a constant trip
; count; an array whose address escapes into a call (silently: SROA could not promote it
; anyway); an array whose offsets are constant already (SROA's business, silently).
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-local-array-unroll -verify-each -S %s \
; RUN:   -pass-remarks-missed=nv-local-array-unroll -pass-remarks=nv-local-array-unroll 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err

target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: llvm.loop.unroll.full
; REMARK-NOT: global_only
; REMARK: remark: {{.*}}private array %a (16 elements): not unrolled: an index depends on a value unrolling cannot make constant
; REMARK: remark: {{.*}}private array %p (16 elements): not unrolled: the loop at %loop has the user's unroll pragma
; REMARK: remark: {{.*}}private array %q (16 elements): not unrolled: the loop at %loop has no constant trip count
; REMARK-NOT: remark

; Constant-trip loop over global memory only: nothing to promote.
define void @global_only(ptr addrspace(1) %g) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %g, i64 %i64
  store float 1.0, ptr addrspace(1) %p, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, 16
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; a[idx[i]] += 1: the index comes from memory.
define void @loaded_index(ptr addrspace(1) %idx, ptr addrspace(1) %out) {
entry:
  %a = alloca [16 x float], align 4, addrspace(5)
  call void @llvm.memset.p5.i64(ptr addrspace(5) %a, i8 0, i64 64, i1 false)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %ip = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %i64
  %k = load i32, ptr addrspace(1) %ip, align 4
  %k64 = and i32 %k, 15
  %kk = zext nneg i32 %k64 to i64
  %cell = getelementptr inbounds float, ptr addrspace(5) %a, i64 %kk
  %old = load float, ptr addrspace(5) %cell, align 4
  %new = fadd float %old, 1.0
  store float %new, ptr addrspace(5) %cell, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, 16
  br i1 %more, label %loop, label %exit
exit:
  %first = load float, ptr addrspace(5) %a, align 4
  store float %first, ptr addrspace(1) %out, align 4
  ret void
}

; p[i] = i under #pragma unroll 1.
define void @user_pragma(ptr addrspace(1) %out) {
entry:
  %p = alloca [16 x float], align 4, addrspace(5)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %cell = getelementptr inbounds float, ptr addrspace(5) %p, i64 %i64
  %f = sitofp i32 %i to float
  store float %f, ptr addrspace(5) %cell, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, 16
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  %last = getelementptr inbounds float, ptr addrspace(5) %p, i64 15
  %v = load float, ptr addrspace(5) %last, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

; q[i % 16] for i < n: the trip count is a runtime value.
define void @runtime_trip(ptr addrspace(1) %out, i32 %n) {
entry:
  %q = alloca [16 x float], align 4, addrspace(5)
  call void @llvm.memset.p5.i64(ptr addrspace(5) %q, i8 0, i64 64, i1 false)
  %has = icmp sgt i32 %n, 0
  br i1 %has, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %m = and i32 %i, 15
  %m64 = zext nneg i32 %m to i64
  %cell = getelementptr inbounds float, ptr addrspace(5) %q, i64 %m64
  %old = load float, ptr addrspace(5) %cell, align 4
  %new = fadd float %old, 1.0
  store float %new, ptr addrspace(5) %cell, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, %n
  br i1 %more, label %loop, label %exit
exit:
  %v = load float, ptr addrspace(5) %q, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

; e[i] = i, then e escapes into a call.
define void @escapes(ptr addrspace(1) %out) {
entry:
  %e = alloca [16 x float], align 4, addrspace(5)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %cell = getelementptr inbounds float, ptr addrspace(5) %e, i64 %i64
  %f = sitofp i32 %i to float
  store float %f, ptr addrspace(5) %cell, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, 16
  br i1 %more, label %loop, label %exit
exit:
  call void @consume(ptr addrspace(5) %e)
  ret void
}

; c[0] and c[1] only, inside a constant-trip loop.
define void @constant_offsets(ptr addrspace(1) %g, ptr addrspace(1) %out) {
entry:
  %c = alloca [2 x float], align 4, addrspace(5)
  %c1 = getelementptr inbounds float, ptr addrspace(5) %c, i64 1
  store float 0.0, ptr addrspace(5) %c, align 4
  store float 0.0, ptr addrspace(5) %c1, align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i64 = zext nneg i32 %i to i64
  %gp = getelementptr inbounds float, ptr addrspace(1) %g, i64 %i64
  %x = load float, ptr addrspace(1) %gp, align 4
  %o0 = load float, ptr addrspace(5) %c, align 4
  %n0 = fadd float %o0, %x
  store float %n0, ptr addrspace(5) %c, align 4
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp ne i32 %i.next, 16
  br i1 %more, label %loop, label %exit
exit:
  %v = load float, ptr addrspace(5) %c, align 4
  store float %v, ptr addrspace(1) %out, align 4
  ret void
}

declare void @consume(ptr addrspace(5))
declare void @llvm.memset.p5.i64(ptr addrspace(5), i8, i64, i1)

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
