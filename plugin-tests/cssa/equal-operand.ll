;; nv-cssa's equal-operand rewrite (src/llc/cssa/plan.rs; docs/CICC-FACTS.md "CSSA coalescing"): the
;; remainder loop after a loop unrolled by 4 starts from the trip count %unroll, which stays live
;; around the outer loop, so PHI elimination's copy of it into %r0 interferes and stays a mov. The
;; unrolled loop's exit test (`icmp eq %unroll, %k4`) proves %k4 equal to %unroll on the only path
;; into main.exit, and %k4 dies there: nv-cssa makes %k4 the operand and the copy coalesces.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -verify-each -pass-remarks=nv-cssa %s -S -o - 2>%t.remarks | FileCheck %s --check-prefix=IR
;; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=1 -nv-stats %s -o %t.on.ptx 2>%t.stats
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=0 %s -o %t.off.ptx
;; RUN: FileCheck %s --check-prefix=ON < %t.on.ptx
;; RUN: FileCheck %s --check-prefix=OFF < %t.off.ptx
;; RUN: FileCheck %s --check-prefix=STATS < %t.stats
;; The rewrite alone can be switched off.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -nv-cssa-equal-operand=0 %s -S -o - | FileCheck %s --check-prefix=NOREWRITE

; IR:       rem.check:
; IR-NEXT:  %r0 = phi i32 [ 0, %outer ], [ %k4, %main.exit ]
; NOREWRITE: %r0 = phi i32 [ 0, %outer ], [ %unroll, %main.exit ]

; REMARK: remark: {{.*}}operand %unroll of PHI %r0 from block main.exit replaced by the equal %k4, which does not interfere with the PHI

; OFF-LABEL: .entry remainder(
; OFF:       mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};
; ON-LABEL:  .entry remainder(
; ON-NOT:    mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};
; ON:        ret;

; STATS-DAG: 1 nv-cssa                - PHI operands interfering with their PHI
; STATS-DAG: 1 nv-cssa                - operands replaced by an equal value

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @remainder(ptr addrspace(1) %a, i32 %n, i32 %rows) {
entry:
  %unroll = and i32 %n, -4
  %xtra = and i32 %n, 3
  %has.main = icmp ugt i32 %n, 3
  %has.rem = icmp ne i32 %xtra, 0
  br label %outer

outer:
  %row = phi i32 [ 0, %entry ], [ %row.next, %outer.latch ]
  br i1 %has.main, label %main, label %rem.check

main:
  %k = phi i32 [ 0, %outer ], [ %k4, %main ]
  %s = add i32 %k, %row
  %ks = zext i32 %s to i64
  %p = getelementptr float, ptr addrspace(1) %a, i64 %ks
  store float 1.0, ptr addrspace(1) %p
  %k4 = add nuw nsw i32 %k, 4
  %done = icmp eq i32 %unroll, %k4
  br i1 %done, label %main.exit, label %main

main.exit:
  br label %rem.check

rem.check:
  %r0 = phi i32 [ 0, %outer ], [ %unroll, %main.exit ]
  br i1 %has.rem, label %rem, label %outer.latch

rem:
  %r = phi i32 [ %r0, %rem.check ], [ %r1, %rem ]
  %rs = zext i32 %r to i64
  %q = getelementptr float, ptr addrspace(1) %a, i64 %rs
  store float 2.0, ptr addrspace(1) %q
  %r1 = add i32 %r, 1
  %rc = icmp eq i32 %r1, %n
  br i1 %rc, label %outer.latch, label %rem

outer.latch:
  %row.next = add i32 %row, 1
  %oc = icmp eq i32 %row.next, %rows
  br i1 %oc, label %exit, label %outer

exit:
  ret void
}
