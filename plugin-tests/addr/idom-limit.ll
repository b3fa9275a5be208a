; BASR's placement walk (docs/CICC-FACTS.md "Address optimization": the shared base goes where it
; dominates, searching up to scev-cgp-idom-level-limit immediate dominators): the shared base sits in the
; loop header, so a base whose accesses lie more than scev-cgp-idom-level-limit (3) immediate
; dominators below the header is not shared. Here six rows are read four conditional blocks
; deep: no shared base with the default, one with a limit of 4.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -scev-cgp-idom-level-limit=4 -verify-each \
; RUN:   -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 | FileCheck %s --check-prefix=FOUR
; DEFAULT: basr: deep_rows: budget 255 registers, loop-header PHIs 8, 0 shared bases
; FOUR: basr: deep_rows: budget 255 registers, loop-header PHIs 8, 1 shared bases
; FOUR-NEXT: basr:   loop 0: bases [{{[0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+}}] share base {{.*}}: 6 accesses

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @deep_rows(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %t, i32 %w, i32 %step, i32 %n, i32 %m) {
entry:
  %m0 = mul nsw i32 %w, 0
  %s0 = add nsw i32 %m0, %t
  %m1 = mul nsw i32 %w, 1
  %s1 = add nsw i32 %m1, %t
  %m2 = mul nsw i32 %w, 2
  %s2 = add nsw i32 %m2, %t
  %m3 = mul nsw i32 %w, 3
  %s3 = add nsw i32 %m3, %t
  %m4 = mul nsw i32 %w, 4
  %s4 = add nsw i32 %m4, %t
  %m5 = mul nsw i32 %w, 5
  %s5 = add nsw i32 %m5, %t
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %latch ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %latch ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %latch ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %latch ]
  %i2 = phi i32 [ %s2, %entry ], [ %i2.next, %latch ]
  %i3 = phi i32 [ %s3, %entry ], [ %i3.next, %latch ]
  %i4 = phi i32 [ %s4, %entry ], [ %i4.next, %latch ]
  %i5 = phi i32 [ %s5, %entry ], [ %i5.next, %latch ]
  %c1 = icmp sgt i32 %it, %m
  br i1 %c1, label %b1, label %latch
b1:
  %c2 = icmp sgt i32 %it, 1
  br i1 %c2, label %b2, label %latch
b2:
  %c3 = icmp sgt i32 %it, 2
  br i1 %c3, label %b3, label %latch
b3:
  %c4 = icmp sgt i32 %it, 3
  br i1 %c4, label %b4, label %latch
b4:
  %x0 = sext i32 %i0 to i64
  %p0 = getelementptr float, ptr addrspace(1) %a, i64 %x0
  %v0 = load float, ptr addrspace(1) %p0
  %acc0 = fadd float %acc, %v0
  %x1 = sext i32 %i1 to i64
  %p1 = getelementptr float, ptr addrspace(1) %a, i64 %x1
  %v1 = load float, ptr addrspace(1) %p1
  %acc1 = fadd float %acc0, %v1
  %x2 = sext i32 %i2 to i64
  %p2 = getelementptr float, ptr addrspace(1) %a, i64 %x2
  %v2 = load float, ptr addrspace(1) %p2
  %acc2 = fadd float %acc1, %v2
  %x3 = sext i32 %i3 to i64
  %p3 = getelementptr float, ptr addrspace(1) %a, i64 %x3
  %v3 = load float, ptr addrspace(1) %p3
  %acc3 = fadd float %acc2, %v3
  %x4 = sext i32 %i4 to i64
  %p4 = getelementptr float, ptr addrspace(1) %a, i64 %x4
  %v4 = load float, ptr addrspace(1) %p4
  %acc4 = fadd float %acc3, %v4
  %x5 = sext i32 %i5 to i64
  %p5 = getelementptr float, ptr addrspace(1) %a, i64 %x5
  %v5 = load float, ptr addrspace(1) %p5
  %acc5 = fadd float %acc4, %v5
  br label %latch
latch:
  %acc.next = phi float [ %acc, %loop ], [ %acc, %b1 ], [ %acc, %b2 ], [ %acc, %b3 ], [ %acc5, %b4 ]
  %i0.next = add nsw i32 %i0, %step
  %i1.next = add nsw i32 %i1, %step
  %i2.next = add nsw i32 %i2, %step
  %i3.next = add nsw i32 %i3, %step
  %i4.next = add nsw i32 %i4, %step
  %i5.next = add nsw i32 %i5, %step
  %it.next = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store float %acc.next, ptr addrspace(1) %out
  ret void
}
