; Address records of loads and stores see through the sign extension of 32-bit IVs
; (src/llc/addr/access_scev.cpp; docs/CICC-FACTS.md "Address optimization": sext splits when the
; inner arithmetic is nsw). A load of a poison address is UB, so on every iteration the load runs,
; the nsw start `t + k*w` and the nsw updates `i + step` did not wrap: sext(i_k) is
; {sext(t) + k*sext(w),+,sext(step)}, six bases one `4*sext(w)` apart. BASR shares one
; loop-carried pointer among them, each member built on the previous one with that single
; difference (a chain), and the dead 32-bit IVs go. Negative: updates without nsw, and starts
; from a chain of wrapping adds (what SLSR leaves), are not split, unless
; -ignore-signed-32-bit-overflow says to assume no signed wrap.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUMP
; The walk does not depend on nv-scev's verdict on the address itself: with nv-scev's size gate
; at 1 (every address a SCEVUnknown to it), the same base is shared.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -scalar-evolution-max-expr-size=1 \
; RUN:   -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 | FileCheck %s --check-prefix=GATE
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -ignore-signed-32-bit-overflow=1 -dump-base-address-strength-reduce=1 \
; RUN:   -verify-each -disable-output %s 2>&1 | FileCheck %s --check-prefix=ASSUME

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @nsw_ivs(
; CHECK: loop:
; CHECK-NEXT: %nv.basr.base = phi ptr addrspace(1)
; CHECK-NOT: %i1 = phi
; CHECK: %v0 = load float, ptr addrspace(1) %nv.basr.base
; CHECK: %nv.basr.member = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 [[D:%[^ ]+]]
; CHECK-NEXT: %v1 = load float, ptr addrspace(1) %nv.basr.member
; CHECK: %nv.basr.member1 = getelementptr i8, ptr addrspace(1) %nv.basr.member, i64 [[D]]
; CHECK-NEXT: %v2 = load float, ptr addrspace(1) %nv.basr.member1
; CHECK: %nv.basr.member4 = getelementptr i8, ptr addrspace(1) %nv.basr.member3, i64 [[D]]
; CHECK-NEXT: %v5 = load float, ptr addrspace(1) %nv.basr.member4
; CHECK-NOT: %i1.next
; CHECK: ret void
; DUMP: basr: nsw_ivs: budget 255 registers, loop-header PHIs 8, 1 shared bases
; ASSUME: basr: nsw_ivs: {{.*}} 1 shared bases
; GATE: basr: nsw_ivs: {{.*}} 1 shared bases
; DUMP-NEXT: basr:   loop 0: bases [{{[0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+}}] share base {{.*}}: 6 accesses
define ptx_kernel void @nsw_ivs(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %t, i32 %w, i32 %step, i32 %n) {
entry:
  %s0 = add nsw i32 %t, 0
  %m1 = mul nsw i32 %w, 1
  %s1 = add nsw i32 %t, %m1
  %m2 = mul nsw i32 %w, 2
  %s2 = add nsw i32 %t, %m2
  %m3 = mul nsw i32 %w, 3
  %s3 = add nsw i32 %t, %m3
  %m4 = mul nsw i32 %w, 4
  %s4 = add nsw i32 %t, %m4
  %m5 = mul nsw i32 %w, 5
  %s5 = add nsw i32 %t, %m5
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc5, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %i2 = phi i32 [ %s2, %entry ], [ %i2.next, %loop ]
  %i3 = phi i32 [ %s3, %entry ], [ %i3.next, %loop ]
  %i4 = phi i32 [ %s4, %entry ], [ %i4.next, %loop ]
  %i5 = phi i32 [ %s5, %entry ], [ %i5.next, %loop ]
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
  %i0.next = add nsw i32 %i0, %step
  %i1.next = add nsw i32 %i1, %step
  %i2.next = add nsw i32 %i2, %step
  %i3.next = add nsw i32 %i3, %step
  %i4.next = add nsw i32 %i4, %step
  %i5.next = add nsw i32 %i5, %step
  %it.next = add nuw nsw i32 %it, 1
  %done = icmp eq i32 %it.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc5, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: @wrapping_steps(
; CHECK-NOT: nv.basr
; CHECK: ret void
; DUMP: basr: wrapping_steps: budget 255 registers, loop-header PHIs 8, 0 shared bases
; ASSUME: basr: wrapping_steps: {{.*}} 1 shared bases
define ptx_kernel void @wrapping_steps(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %t, i32 %w, i32 %step, i32 %n) {
entry:
  %s0 = add nsw i32 %t, 0
  %m1 = mul nsw i32 %w, 1
  %s1 = add nsw i32 %t, %m1
  %m2 = mul nsw i32 %w, 2
  %s2 = add nsw i32 %t, %m2
  %m3 = mul nsw i32 %w, 3
  %s3 = add nsw i32 %t, %m3
  %m4 = mul nsw i32 %w, 4
  %s4 = add nsw i32 %t, %m4
  %m5 = mul nsw i32 %w, 5
  %s5 = add nsw i32 %t, %m5
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc5, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %i2 = phi i32 [ %s2, %entry ], [ %i2.next, %loop ]
  %i3 = phi i32 [ %s3, %entry ], [ %i3.next, %loop ]
  %i4 = phi i32 [ %s4, %entry ], [ %i4.next, %loop ]
  %i5 = phi i32 [ %s5, %entry ], [ %i5.next, %loop ]
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
  %i0.next = add i32 %i0, %step
  %i1.next = add i32 %i1, %step
  %i2.next = add i32 %i2, %step
  %i3.next = add i32 %i3, %step
  %i4.next = add i32 %i4, %step
  %i5.next = add i32 %i5, %step
  %it.next = add nuw nsw i32 %it, 1
  %done = icmp eq i32 %it.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc5, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: @wrapping_starts(
; CHECK-NOT: nv.basr
; CHECK: ret void
; DUMP: basr: wrapping_starts: budget 255 registers, loop-header PHIs 8, 0 shared bases
; ASSUME: basr: wrapping_starts: {{.*}} 1 shared bases
define ptx_kernel void @wrapping_starts(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %t, i32 %w, i32 %step, i32 %n) {
entry:
  %s0 = add nsw i32 %t, 0
  %s1 = add i32 %s0, %w
  %s2 = add i32 %s1, %w
  %s3 = add i32 %s2, %w
  %s4 = add i32 %s3, %w
  %s5 = add i32 %s4, %w
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc5, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %i2 = phi i32 [ %s2, %entry ], [ %i2.next, %loop ]
  %i3 = phi i32 [ %s3, %entry ], [ %i3.next, %loop ]
  %i4 = phi i32 [ %s4, %entry ], [ %i4.next, %loop ]
  %i5 = phi i32 [ %s5, %entry ], [ %i5.next, %loop ]
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
  %i0.next = add nsw i32 %i0, %step
  %i1.next = add nsw i32 %i1, %step
  %i2.next = add nsw i32 %i2, %step
  %i3.next = add nsw i32 %i3, %step
  %i4.next = add nsw i32 %i4, %step
  %i5.next = add nsw i32 %i5, %step
  %it.next = add nuw nsw i32 %it, 1
  %done = icmp eq i32 %it.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc5, ptr addrspace(1) %out
  ret void
}
