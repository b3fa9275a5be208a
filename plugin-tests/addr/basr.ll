; Base Address Strength Reduction (docs/CICC-FACTS.md "Address optimization", BASR): in a loop,
; groups whose bases differ by a cheap invariant share one base. At the default level (4) the
; shared base is a new loop-carried pointer PHI (start in the preheader, update in the latch);
; the other groups add their invariant difference, once per iteration, in the header right
; before their first access; rows evenly apart chain on one difference (`m2 = m1 + d`, not
; `base + 2d`), so one register holds it. The accesses become `base + constant`. Negative cases: too few records, register budget spent,
; a difference that varies in the loop.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUMP
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -do-base-address-strength-reduce=3 -S %s \
; RUN:   | FileCheck %s --check-prefix=LEVEL3
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -pass-remarks=codegenpreparescev -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes='nv-basr,nv-cbe' -verify-each -disable-output %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Three rows y, y+1, y+2 of a pitch-w array, two columns each: bases {in + 4*y*w,+,4} plus
; 0, 4w, 8w.
; CHECK-LABEL: @rows(
; CHECK: %scevgep = getelementptr i8, ptr addrspace(1) %in
; CHECK: loop:
; CHECK-NEXT: %nv.basr.base = phi ptr addrspace(1) {{.*}}[ %nv.basr.next, %loop ]
; CHECK: %v0 = load float, ptr addrspace(1) %nv.basr.base
; CHECK-NEXT: %nv.basr.member = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 [[D:%[0-9]+]]
; CHECK-NEXT: %v1 = load float, ptr addrspace(1) %nv.basr.member
; CHECK-NEXT: %nv.basr.member1 = getelementptr i8, ptr addrspace(1) %nv.basr.member, i64 [[D]]
; CHECK-NOT: %p1 = 
; CHECK: %nv.basr.next = getelementptr i8, ptr addrspace(1) %nv.basr.base, i64 4
; CHECK-NEXT: br i1
; DUMP: basr: rows: budget 255 registers, loop-header PHIs 2, 1 shared bases
; DUMP-NEXT: basr:   loop 0: bases [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}] share base {{[0-9]+}} (new loop-carried PHI, origin +0): 6 accesses
; LEVEL3-LABEL: @rows(
; LEVEL3-NOT: phi ptr
; LEVEL3: %nv.basr.member = getelementptr i8
; LEVEL3: ret void
; REMARK: remark: {{.*}}bases of this loop share one loop-carried pointer
define ptx_kernel void @rows(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %w, i64 %y, i64 %n) {
entry:
  %row0 = mul i64 %y, %w
  %row1 = add i64 %row0, %w
  %row2 = add i64 %row1, %w
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %i0 = add i64 %row0, %x
  %i1 = add i64 %row1, %x
  %i2 = add i64 %row2, %x
  %p0 = getelementptr float, ptr addrspace(1) %in, i64 %i0
  %p1 = getelementptr float, ptr addrspace(1) %in, i64 %i1
  %p2 = getelementptr float, ptr addrspace(1) %in, i64 %i2
  %j0 = add i64 %i0, 1
  %q0 = getelementptr float, ptr addrspace(1) %in, i64 %j0
  %j1 = add i64 %i1, 1
  %q1 = getelementptr float, ptr addrspace(1) %in, i64 %j1
  %j2 = add i64 %i2, 1
  %q2 = getelementptr float, ptr addrspace(1) %in, i64 %j2
  %v0 = load float, ptr addrspace(1) %p0
  %v1 = load float, ptr addrspace(1) %p1
  %v2 = load float, ptr addrspace(1) %p2
  %u0 = load float, ptr addrspace(1) %q0
  %u1 = load float, ptr addrspace(1) %q1
  %u2 = load float, ptr addrspace(1) %q2
  %s0 = fadd float %v0, %v1
  %s1 = fadd float %v2, %u0
  %s2 = fadd float %u1, %u2
  %s3 = fadd float %s0, %s1
  %s4 = fadd float %s3, %s2
  %acc.next = fadd float %acc, %s4
  %x.next = add i64 %x, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out
  ret void
}

; Negative: 1024 threads and 32 blocks per SM leave 2 registers per thread, fewer than the 2
; loop-header PHIs plus one new base.
; CHECK-LABEL: @tight(
; CHECK-NOT: nv.basr
; CHECK: ret void
; DUMP: basr: tight: budget 2 registers, loop-header PHIs 2, 0 shared bases (register headroom spent)
define ptx_kernel void @tight(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %w, i64 %y, i64 %n) "nvvm.maxntid"="1024" "nvvm.minctasm"="32" {
entry:
  %row0 = mul i64 %y, %w
  %row1 = add i64 %row0, %w
  %row2 = add i64 %row1, %w
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %i0 = add i64 %row0, %x
  %i1 = add i64 %row1, %x
  %i2 = add i64 %row2, %x
  %p0 = getelementptr float, ptr addrspace(1) %in, i64 %i0
  %p1 = getelementptr float, ptr addrspace(1) %in, i64 %i1
  %p2 = getelementptr float, ptr addrspace(1) %in, i64 %i2
  %j0 = add i64 %i0, 1
  %q0 = getelementptr float, ptr addrspace(1) %in, i64 %j0
  %j1 = add i64 %i1, 1
  %q1 = getelementptr float, ptr addrspace(1) %in, i64 %j1
  %j2 = add i64 %i2, 1
  %q2 = getelementptr float, ptr addrspace(1) %in, i64 %j2
  %v0 = load float, ptr addrspace(1) %p0
  %v1 = load float, ptr addrspace(1) %p1
  %v2 = load float, ptr addrspace(1) %p2
  %u0 = load float, ptr addrspace(1) %q0
  %u1 = load float, ptr addrspace(1) %q1
  %u2 = load float, ptr addrspace(1) %q2
  %s0 = fadd float %v0, %v1
  %s1 = fadd float %v2, %u0
  %s2 = fadd float %u1, %u2
  %s3 = fadd float %s0, %s1
  %s4 = fadd float %s3, %s2
  %acc.next = fadd float %acc, %s4
  %x.next = add i64 %x, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out
  ret void
}

; Negative: four accesses (BASR needs more than 5).
; CHECK-LABEL: @few(
; CHECK-NOT: nv.basr
; CHECK: ret void
; DUMP: basr: few: {{.*}} 0 shared bases (5 records or fewer)
define ptx_kernel void @few(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %w, i64 %y, i64 %n) {
entry:
  %row0 = mul i64 %y, %w
  %row1 = add i64 %row0, %w
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %i0 = add i64 %row0, %x
  %i1 = add i64 %row1, %x
  %p0 = getelementptr float, ptr addrspace(1) %in, i64 %i0
  %p1 = getelementptr float, ptr addrspace(1) %in, i64 %i1
  %v0 = load float, ptr addrspace(1) %p0
  %v1 = load float, ptr addrspace(1) %p1
  %s0 = fadd float %v0, %v1
  %acc.next = fadd float %acc, %s0
  %x.next = add i64 %x, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out
  ret void
}

; Negative: rows x*w and x*w + x differ by x, which varies in the loop.
; CHECK-LABEL: @variant(
; CHECK-NOT: nv.basr
; CHECK: ret void
; DUMP: basr: variant: {{.*}} 0 shared bases
define ptx_kernel void @variant(ptr addrspace(1) %in, ptr addrspace(1) %out, i64 %w, i64 %n) {
entry:
  br label %loop
loop:
  %x = phi i64 [ 0, %entry ], [ %x.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %xw = mul i64 %x, %w
  %d = add i64 %xw, %x
  %p0 = getelementptr float, ptr addrspace(1) %in, i64 %xw
  %p1 = getelementptr float, ptr addrspace(1) %in, i64 %d
  %j0 = add i64 %xw, 1
  %q0 = getelementptr float, ptr addrspace(1) %in, i64 %j0
  %j1 = add i64 %d, 1
  %q1 = getelementptr float, ptr addrspace(1) %in, i64 %j1
  %r0 = getelementptr float, ptr addrspace(1) %p0, i64 2
  %r1 = getelementptr float, ptr addrspace(1) %p1, i64 2
  %v0 = load float, ptr addrspace(1) %p0
  %v1 = load float, ptr addrspace(1) %p1
  %u0 = load float, ptr addrspace(1) %q0
  %u1 = load float, ptr addrspace(1) %q1
  %t0 = load float, ptr addrspace(1) %r0
  %t1 = load float, ptr addrspace(1) %r1
  %s0 = fadd float %v0, %v1
  %s1 = fadd float %u0, %u1
  %s2 = fadd float %t0, %t1
  %s3 = fadd float %s0, %s1
  %s4 = fadd float %s3, %s2
  %acc.next = fadd float %acc, %s4
  %x.next = add i64 %x, 1
  %done = icmp eq i64 %x.next, %n
  br i1 %done, label %exit, label %loop
exit:
  store float %acc.next, ptr addrspace(1) %out
  ret void
}
