; IV-start widening (src/llc/addr/widen.rs). The starts `t + k*w`
; of IVs that index an array are nsw, so each IV's address is exactly
; {4*(sext(t) + k*sext(w)),+,4*sext(d)} and IVs of one stride are a constant times 4*sext(w)
; apart (BASR's shared base). llc's SLSR rewrites those starts into a chain `s[k] = s[k-1] + w`
; without nsw; the difference is then unprovable and BASR shares nothing. Rebuilt as
; `trunc nsw` of the same arithmetic in 64 bits (the same value wherever the start is not poison),
; the starts keep the fact through SLSR's rewrite, now in 64 bits.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-start-widening -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-start-widening -nv-widen-iv-starts=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-start-widening -do-base-address-strength-reduce=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='function(nv-iv-start-widening,slsr,nv-basr)' -verify-each \
; RUN:   -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 | FileCheck %s --check-prefix=SHARED
; RUN: %opt -load-pass-plugin=%plugin -passes='function(slsr,nv-basr)' \
; RUN:   -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOST

; In llc: right after speculative-execution, i.e. before slsr; not at -O0, not with the knob or
; BASR off. With LSR off (as nv-lsr-gate leaves it for kernels with many IVs), BASR shares two
; bases and the loop computes no 32-to-64-bit index product; without the widening it shares none.
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -nv-widen-iv-starts=0 -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPIPE
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -do-base-address-strength-reduce=0 -debug-pass=Arguments %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPIPE
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O0 -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPIPE
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -disable-lsr -verify-machineinstrs \
; RUN:   -dump-base-address-strength-reduce=1 %s -o - 2>&1 | FileCheck %s --check-prefix=PTX
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -disable-lsr -nv-widen-iv-starts=0 \
; RUN:   -dump-base-address-strength-reduce=1 %s -o - 2>&1 | FileCheck %s --check-prefix=PTXOFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @rows(
; CHECK: %t.sext = sext i32 %t to i64
; CHECK-NEXT: %w.sext = sext i32 %w to i64
; CHECK-NEXT: %m0.wide = mul i64 %w.sext, 1
; CHECK-NEXT: %s0.wide = add i64 %m0.wide, %t.sext
; CHECK-NEXT: %s0.narrow = trunc nsw i64 %s0.wide to i32
; CHECK: %s7.narrow = trunc nsw i64 %s7.wide to i32
; CHECK-NOT: %s7 = add
; CHECK: %i0 = phi i32 [ %s0.narrow, %entry ], [ %i0.next, %loop ]
; CHECK: %i7 = phi i32 [ %s7.narrow, %entry ], [ %i7.next, %loop ]
; OFF-LABEL: @rows(
; OFF-NOT: trunc nsw
; OFF: %i0 = phi i32 [ %s0, %entry ]
; SHARED-LABEL: basr: rows: budget 255 registers, loop-header PHIs 10, 2 shared bases
; SHARED-NEXT: basr:   loop 0: bases [0, 2, 4, 6] share base 0 {{.*}}: 4 accesses
; SHARED-NEXT: basr:   loop 0: bases [1, 3, 5, 7] share base 1 {{.*}}: 4 accesses
; LOST-LABEL: basr: rows: budget 255 registers, loop-header PHIs 10, 0 shared bases
; PIPE: -speculative-execution -nv-iv-start-widening {{.*}}-slsr
; NOPIPE-NOT: nv-iv-start-widening
; PTX: basr: rows: {{.*}} 2 shared bases
; PTX-LABEL: .entry rows(
; PTX: $L__BB0_1:
; PTX-NOT: mul.wide
; PTX: bra $L__BB0_1;
; PTXOFF: basr: rows: {{.*}} 0 shared bases
; PTXOFF-LABEL: .entry rows(
; PTXOFF: $L__BB0_1:
; PTXOFF: mul.wide.s32
define ptx_kernel void @rows(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %t, i32 %w, i32 %step, i32 %n) {
entry:
  %m0 = mul nsw i32 %w, 1
  %s0 = add nsw i32 %m0, %t
  %m1 = mul nsw i32 %w, 2
  %s1 = add nsw i32 %m1, %t
  %m2 = mul nsw i32 %w, 3
  %s2 = add nsw i32 %m2, %t
  %m3 = mul nsw i32 %w, 4
  %s3 = add nsw i32 %m3, %t
  %m4 = mul nsw i32 %w, 5
  %s4 = add nsw i32 %m4, %t
  %m5 = mul nsw i32 %w, 6
  %s5 = add nsw i32 %m5, %t
  %m6 = mul nsw i32 %w, 7
  %s6 = add nsw i32 %m6, %t
  %m7 = mul nsw i32 %w, 8
  %s7 = add nsw i32 %m7, %t
  %d1 = mul nsw i32 %step, 3
  %d0 = shl nsw i32 %step, 1
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc7, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %i2 = phi i32 [ %s2, %entry ], [ %i2.next, %loop ]
  %i3 = phi i32 [ %s3, %entry ], [ %i3.next, %loop ]
  %i4 = phi i32 [ %s4, %entry ], [ %i4.next, %loop ]
  %i5 = phi i32 [ %s5, %entry ], [ %i5.next, %loop ]
  %i6 = phi i32 [ %s6, %entry ], [ %i6.next, %loop ]
  %i7 = phi i32 [ %s7, %entry ], [ %i7.next, %loop ]
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
  %x6 = sext i32 %i6 to i64
  %p6 = getelementptr float, ptr addrspace(1) %a, i64 %x6
  %v6 = load float, ptr addrspace(1) %p6
  %acc6 = fadd float %acc5, %v6
  %x7 = sext i32 %i7 to i64
  %p7 = getelementptr float, ptr addrspace(1) %a, i64 %x7
  %v7 = load float, ptr addrspace(1) %p7
  %acc7 = fadd float %acc6, %v7
  %i0.next = add nsw i32 %i0, %d0
  %i1.next = add nsw i32 %i1, %d1
  %i2.next = add nsw i32 %i2, %d0
  %i3.next = add nsw i32 %i3, %d1
  %i4.next = add nsw i32 %i4, %d0
  %i5.next = add nsw i32 %i5, %d1
  %i6.next = add nsw i32 %i6, %d0
  %i7.next = add nsw i32 %i7, %d1
  %it.next = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store float %acc7, ptr addrspace(1) %out
  ret void
}

; Negative: one address IV in its loop (nothing to share a base with), starts without nsw, and
; IVs that index nothing keep their 32-bit starts.
; CHECK-LABEL: @one_iv(
; CHECK-NOT: trunc nsw
; CHECK: ret void
define ptx_kernel void @one_iv(ptr addrspace(1) %a, i32 %t, i32 %w, i32 %n) {
entry:
  %m = mul nsw i32 %w, 3
  %s = add nsw i32 %m, %t
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %i = phi i32 [ %s, %entry ], [ %i.next, %loop ]
  %x = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %a, i64 %x
  store float 0.0, ptr addrspace(1) %p
  %i.next = add nsw i32 %i, %w
  %it.next = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: @wrapping_starts(
; CHECK-NOT: trunc nsw
; CHECK: ret void
define ptx_kernel void @wrapping_starts(ptr addrspace(1) %a, i32 %t, i32 %w, i32 %n) {
entry:
  %s0 = add i32 %w, %t
  %m1 = shl i32 %w, 1
  %s1 = add i32 %m1, %t
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %x0 = sext i32 %i0 to i64
  %p0 = getelementptr float, ptr addrspace(1) %a, i64 %x0
  store float 0.0, ptr addrspace(1) %p0
  %x1 = sext i32 %i1 to i64
  %p1 = getelementptr float, ptr addrspace(1) %a, i64 %x1
  store float 1.0, ptr addrspace(1) %p1
  %i0.next = add nsw i32 %i0, %w
  %i1.next = add nsw i32 %i1, %w
  %it.next = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it.next, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: @no_address(
; CHECK-NOT: trunc nsw
; CHECK: ret void
define ptx_kernel void @no_address(ptr addrspace(1) %out, i32 %t, i32 %w, i32 %n) {
entry:
  %s0 = add nsw i32 %w, %t
  %m1 = shl nsw i32 %w, 1
  %s1 = add nsw i32 %m1, %t
  br label %loop
loop:
  %it = phi i32 [ 0, %entry ], [ %it.next, %loop ]
  %i0 = phi i32 [ %s0, %entry ], [ %i0.next, %loop ]
  %i1 = phi i32 [ %s1, %entry ], [ %i1.next, %loop ]
  %i0.next = add nsw i32 %i0, %w
  %i1.next = add nsw i32 %i1, %w
  %it.next = add nuw nsw i32 %it, 1
  %c = icmp slt i32 %it.next, %n
  br i1 %c, label %loop, label %exit
exit:
  %sum = add i32 %i0.next, %i1.next
  store i32 %sum, ptr addrspace(1) %out
  ret void
}
