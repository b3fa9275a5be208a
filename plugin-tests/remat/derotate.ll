;; nv-remat's loop de-rotation (src/llc/remat/derotate.rs) and its refusals, and the planner's
;; "no register freed" refusal (src/llc/remat/plan.rs). @acc: a guarded loop over the target whose
;; exit receives its two accumulators (their initial values on the bypass edge, which holds a
;; copy of the preheader's sext as llc's GVN leaves it): the test moves to a new top block, the
;; guard always enters, the bypass block goes, the exit reads the top block's PHIs and the
;; preheader's sext (which remat then moves next to its use). @used_after: the exit also reads a value of the body: left as it is.
;; %t (tid.x) is used by the high block itself, before its peak: recomputing it frees nothing.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat -nv-stats %s -S -o %t.1.ll 2>%t.1.err
;; RUN: FileCheck %s --check-prefix=IR < %t.1.ll
;; RUN: FileCheck %s --check-prefix=REMARK < %t.1.err
;; More carried values wanted than @acc has, or the rewrite off: no de-rotation.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -nv-remat-derotate=3 -pass-remarks-missed=nv-remat %s -S -o %t.2.ll 2>%t.2.err
;; RUN: FileCheck %s --check-prefix=FEW < %t.2.err
;; RUN: FileCheck %s --check-prefix=KEPT < %t.2.ll
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -nv-maxreg=4 -nv-remat-derotate=0 -pass-remarks=nv-remat %s -S -o %t.3.ll 2>%t.3.err
;; RUN: FileCheck %s --check-prefix=KEPT < %t.3.ll
;; RUN: not grep -q "moved to the top" %t.3.err
;; Within the target (no -nv-maxreg: 64): nothing.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat %s -S -o - | FileCheck %s --check-prefix=KEPT

; IR-LABEL: define ptx_kernel void @acc(
; IR: guard:
; IR-NEXT: %g = icmp sgt i32 %n, 0
; IR-NEXT: br label %pre
; IR-NOT: bypass:
; IR: pre:
; IR: br label %loop.top
; IR: loop.top:
; IR-NEXT: %[[I:[a-z0-9.]+]] = phi i32 [ 0, %pre ], [ %i1, %loop ]
; IR-NEXT: %[[A:[a-z0-9.]+]] = phi float [ 0.000000e+00, %pre ], [ %a1, %loop ]
; IR-NEXT: %[[B:[a-z0-9.]+]] = phi float [ 1.000000e+00, %pre ], [ %b1, %loop ]
; IR-NEXT: %nv.go = phi i1 [ %g, %pre ], [ %more, %loop ]
; IR-NEXT: br i1 %nv.go, label %loop, label %exit
; IR: loop:
; IR-NOT: phi
; IR: %a1 = fadd float %[[A]], %x
; IR: br label %loop.top, !llvm.loop
; IR: exit:
; IR-NOT: phi
; IR: store float %[[A]]
; IR: store float %[[B]]
; IR-LABEL: define ptx_kernel void @used_after(
; IR: br i1 %g, label %pre, label %exit
; IR: br i1 %more, label %loop, label %exit

; REMARK-DAG: remark: {{.*}}%t not rematerialized: frees no register: in each high-pressure block it is live into, a use keeps it live through the block's peak
; REMARK-DAG: remark: {{.*}}loop test moved to the top: 2 carried values start once for both paths
; REMARK-DAG: remark: {{.*}}loop over the register target not de-rotated: an exit PHI that is not a carried value with its initial value
; REMARK-DAG: 1 nv-remat               - loops de-rotated
; REMARK-DAG: 1 nv-remat               - loops over the target not de-rotated

; FEW: remark: {{.*}}loop over the register target not de-rotated: fewer carried values reach the exit than nv-remat-derotate

; KEPT-LABEL: define ptx_kernel void @acc(
; KEPT: br i1 %g, label %pre, label %bypass
; KEPT: bypass:
; KEPT: br i1 %more, label %loop, label %exit
; KEPT: %ra = phi float [ 0.000000e+00, %bypass ], [ %a1, %loop ]

target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Two accumulators and a count, carried around a guarded loop; the exit stores both.
define ptx_kernel void @acc(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n, i32 %s) {
guard:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %pre, label %bypass
bypass:
  %s.pre = sext i32 %s to i64
  br label %exit
pre:
  %s64 = sext i32 %s to i64
  %base = getelementptr float, ptr addrspace(1) %in, i32 %t
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %a = phi float [ 0.0, %pre ], [ %a1, %loop ]
  %b = phi float [ 1.0, %pre ], [ %b1, %loop ]
  %p = getelementptr float, ptr addrspace(1) %base, i32 %i
  %x = load float, ptr addrspace(1) %p
  %a1 = fadd float %a, %x
  %b1 = fmul float %b, %x
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  %ra = phi float [ 0.0, %bypass ], [ %a1, %loop ]
  %rb = phi float [ 1.0, %bypass ], [ %b1, %loop ]
  %rs = phi i64 [ %s.pre, %bypass ], [ %s64, %loop ]
  %q = getelementptr float, ptr addrspace(1) %out, i64 %rs
  store float %ra, ptr addrspace(1) %q
  %q1 = getelementptr float, ptr addrspace(1) %q, i32 1
  store float %rb, ptr addrspace(1) %q1
  ret void
}

; The same loop, but the exit also reads a value of the body (%x): left as it is.
define ptx_kernel void @used_after(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
guard:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = icmp sgt i32 %n, 0
  br i1 %g, label %pre, label %exit
pre:
  %base = getelementptr float, ptr addrspace(1) %in, i32 %t
  br label %loop
loop:
  %i = phi i32 [ 0, %pre ], [ %i1, %loop ]
  %a = phi float [ 0.0, %pre ], [ %a1, %loop ]
  %b = phi float [ 1.0, %pre ], [ %b1, %loop ]
  %p = getelementptr float, ptr addrspace(1) %base, i32 %i
  %x = load float, ptr addrspace(1) %p
  %a1 = fadd float %a, %x
  %b1 = fmul float %b, %x
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  %ra = phi float [ 0.0, %guard ], [ %a1, %loop ]
  %rx = phi float [ 0.0, %guard ], [ %x, %loop ]
  store float %ra, ptr addrspace(1) %out
  %q1 = getelementptr float, ptr addrspace(1) %out, i32 1
  store float %rx, ptr addrspace(1) %q1
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
