; Common Base Elimination (docs/CICC-FACTS.md "Address optimization", CBE): accesses off one base
; at constant offsets become `anchor + delta`, an i8 GEP off the dominating anchor right before
; each access; the old address computations are deleted. Each negative function is a case CBE
; must leave alone.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -dump-scev-cgp=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUMP
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -pass-remarks=codegenpreparescev -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -ignore-signed-32-bit-overflow -S %s \
; RUN:   | FileCheck %s --check-prefix=IGNORE
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -do-scev-cgp=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -scev-cgp-control=1 -dump-scev-cgp=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=CONTROL

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; p[i], p[i+1], p[i+2] with nsw index arithmetic: one base, offsets 0, 4, 8.
; CHECK-LABEL: @same_block(
; CHECK: %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
; CHECK-NEXT: %v0 = load float, ptr addrspace(1) %a0
; CHECK-NEXT: %[[A1:.*]] = getelementptr i8, ptr addrspace(1) %a0, i64 4
; CHECK-NEXT: %v1 = load float, ptr addrspace(1) %[[A1]]
; CHECK: %[[A2:.*]] = getelementptr i8, ptr addrspace(1) %a0, i64 8
; CHECK-NEXT: store float %s, ptr addrspace(1) %[[A2]]
; CHECK-NOT: %a1 =
; CHECK: ret void
; DUMP: scev-cgp: same_block: 3 accesses, {{[0-9]+}} bases, 2 rewrites
; REMARK: remark: {{.*}}address rebased on a common base at offset 4 (same block)
; REMARK: remark: {{.*}}address rebased on a common base at offset 8 (same block)
; OFF-LABEL: @same_block(
; OFF: %a1 = getelementptr float
; OFF-NOT: getelementptr i8
; CONTROL: scev-cgp: same_block: 3 accesses, {{[0-9]+}} bases, 1 rewrites
define ptx_kernel void @same_block(ptr addrspace(1) %p, i32 %i) {
entry:
  %i1 = add nsw i32 %i, 1
  %i2 = add nsw i32 %i, 2
  %e0 = sext i32 %i to i64
  %e1 = sext i32 %i1 to i64
  %e2 = sext i32 %i2 to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
  %a2 = getelementptr float, ptr addrspace(1) %p, i64 %e2
  %v0 = load float, ptr addrspace(1) %a0
  %v1 = load float, ptr addrspace(1) %a1
  %s = fadd float %v0, %v1
  store float %s, ptr addrspace(1) %a2
  ret void
}

; The entry block's access dominates both branches: function level. (64-bit index arithmetic:
; an i32 `add nsw` in a branch would not keep its nsw in SCEV, which cannot see UB there.)
; CHECK-LABEL: @dominating(
; CHECK: then:
; CHECK-NEXT: %[[T:.*]] = getelementptr i8, ptr addrspace(1) %a0, i64 -8
; CHECK-NEXT: store float 1.000000e+00, ptr addrspace(1) %[[T]]
; CHECK: else:
; CHECK-NEXT: %[[E:.*]] = getelementptr i8, ptr addrspace(1) %a0, i64 12
; CHECK-NEXT: store float 2.000000e+00, ptr addrspace(1) %[[E]]
; DUMP: scev-cgp: dominating: 3 accesses, {{[0-9]+}} bases, 2 rewrites
; DUMP: (function)
; DUMP: (function)
define ptx_kernel void @dominating(ptr addrspace(1) %p, i32 %i, i1 %c) {
entry:
  %e0 = sext i32 %i to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  store float 0.0, ptr addrspace(1) %a0
  br i1 %c, label %then, label %else
then:
  %em2 = add i64 %e0, -2
  %am2 = getelementptr float, ptr addrspace(1) %p, i64 %em2
  store float 1.0, ptr addrspace(1) %am2
  br label %exit
else:
  %e3 = add i64 %e0, 3
  %a3 = getelementptr float, ptr addrspace(1) %p, i64 %e3
  store float 2.0, ptr addrspace(1) %a3
  br label %exit
exit:
  ret void
}

; Negative: two accesses in sibling blocks, neither dominates the other (and nothing else of
; their base does).
; CHECK-LABEL: @siblings(
; CHECK: %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
; CHECK: %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
; CHECK-NOT: getelementptr i8
; CHECK: ret void
; DUMP: scev-cgp: siblings: 2 accesses, {{[0-9]+}} bases, 0 rewrites
define ptx_kernel void @siblings(ptr addrspace(1) %p, i32 %i, i1 %c) {
entry:
  br i1 %c, label %then, label %else
then:
  %e0 = sext i32 %i to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  store float 1.0, ptr addrspace(1) %a0
  br label %exit
else:
  %i1 = add nsw i32 %i, 1
  %e1 = sext i32 %i1 to i64
  %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
  store float 2.0, ptr addrspace(1) %a1
  br label %exit
exit:
  ret void
}

; Negative: the address of p[i+1] is also stored as a value, so its computation would stay.
; CHECK-LABEL: @escaping(
; CHECK: store ptr addrspace(1) %a1, ptr %q
; CHECK: %v1 = load float, ptr addrspace(1) %a1
; DUMP: scev-cgp: escaping: 4 accesses, {{[0-9]+}} bases, 0 rewrites
define ptx_kernel void @escaping(ptr addrspace(1) %p, ptr %q, i32 %i) {
entry:
  %i1 = add nsw i32 %i, 1
  %e0 = sext i32 %i to i64
  %e1 = sext i32 %i1 to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
  store ptr addrspace(1) %a1, ptr %q
  %v0 = load float, ptr addrspace(1) %a0
  %v1 = load float, ptr addrspace(1) %a1
  %s = fadd float %v0, %v1
  store float %s, ptr addrspace(1) %a0
  ret void
}

; Negative: i + 1 may wrap in 32 bits (no nsw), so sext(i + 1) is not sext(i) + 1: two bases.
; Only -ignore-signed-32-bit-overflow (cicc's default, not nvopt's) splits it.
; CHECK-LABEL: @may_wrap(
; CHECK: %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
; CHECK-NOT: getelementptr i8
; CHECK: ret void
; DUMP: scev-cgp: may_wrap: 2 accesses, {{[0-9]+}} bases, 0 rewrites
; IGNORE-LABEL: @may_wrap(
; IGNORE: getelementptr i8, ptr addrspace(1) %a0, i64 4
define ptx_kernel void @may_wrap(ptr addrspace(1) %p, i32 %i) {
entry:
  %i1 = add i32 %i, 1
  %e0 = sext i32 %i to i64
  %e1 = sext i32 %i1 to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  %a1 = getelementptr float, ptr addrspace(1) %p, i64 %e1
  %v0 = load float, ptr addrspace(1) %a0
  store float %v0, ptr addrspace(1) %a1
  ret void
}

; Negative: the same offsets in two address spaces are two groups.
; CHECK-LABEL: @spaces(
; CHECK-NOT: getelementptr i8
; CHECK: ret void
; DUMP: scev-cgp: spaces: 2 accesses, {{[0-9]+}} bases, 0 rewrites
define ptx_kernel void @spaces(ptr addrspace(1) %p, ptr addrspace(3) %s, i32 %i) {
entry:
  %e0 = sext i32 %i to i64
  %a0 = getelementptr float, ptr addrspace(1) %p, i64 %e0
  %b0 = getelementptr float, ptr addrspace(3) %s, i64 %e0
  %v0 = load float, ptr addrspace(1) %a0
  store float %v0, ptr addrspace(3) %b0
  ret void
}
