;; nv-remat with -nv-remat-extend-operands (src/llc/remat/plan.rs, Ctx::extension): %s, the sum
;; of a global load %a and a __constant__ value that LICM would hoist out of a loop, is read only
;; in the rare branch. %a's own range ends in %mid, before the branch. With the knob at 0, %s is
;; refused: its operand %a is not live into %rare and cannot be recomputed (a global load). By
;; default,
;; %a's range is extended through %mid, where %s is live anyway (one register for the other),
;; into %rare, and %s is recomputed there with a copy of the __constant__ load. %s then no longer
;; crosses %mid0, the high-pressure block the extension does not reach. The verifier accepts the
;; result.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -nv-remat-extend-operands=0 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat %s -S -o %t.off.ll 2>%t.off.err
;; RUN: FileCheck %s --check-prefix=OFF < %t.off.err
;; The default (8).
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -pass-remarks=nv-remat -pass-remarks-missed=nv-remat %s -S -o %t.on.ll 2>%t.on.err
;; RUN: FileCheck %s --check-prefix=ON < %t.on.err
;; RUN: FileCheck %s --check-prefix=IR < %t.on.ll
;; A limit of one block (only %rare itself) is too few: %mid must be covered too.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -nv-maxreg=4 -nv-remat-extend-operands=1 -pass-remarks-missed=nv-remat %s -S -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

; OFF: remark: {{.*}}%s not rematerialized: operand %a is not available in block rare and cannot be recomputed
; ON: remark: {{.*}}%s recomputed next to its uses in rare (2 instructions); its live range across 1 high-pressure blocks ends
; IR-LABEL: entry:
; IR-NOT: fadd
; IR-LABEL: mid0:
; IR-LABEL: rare:
; IR-NEXT: %c.remat = load float, ptr addrspace(4) @ff
; IR-NEXT: %s.remat = fadd float %a, %c.remat
; IR-NEXT: store float %s.remat

target triple = "nvptx64-nvidia-cuda"

@ff = internal addrspace(4) global float 1.000000e+00

define ptx_kernel void @f(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  %a = load float, ptr addrspace(1) %in
  %c = load float, ptr addrspace(4) @ff
  %s = fadd float %a, %c
  %p1 = getelementptr float, ptr addrspace(1) %in, i64 1
  %b1 = load float, ptr addrspace(1) %p1
  %p2 = getelementptr float, ptr addrspace(1) %in, i64 2
  %b2 = load float, ptr addrspace(1) %p2
  %p3 = getelementptr float, ptr addrspace(1) %in, i64 3
  %b3 = load float, ptr addrspace(1) %p3
  %p4 = getelementptr float, ptr addrspace(1) %in, i64 4
  %b4 = load float, ptr addrspace(1) %p4
  br label %mid0
mid0:
  %x = fmul float %b1, %b2
  %q1 = getelementptr float, ptr addrspace(1) %out, i64 1
  store float %x, ptr addrspace(1) %q1
  br label %mid
mid:
  %u = fmul float %a, %b1
  store float %u, ptr addrspace(1) %out
  %cond = icmp sgt i32 %n, 0
  br i1 %cond, label %common, label %rare
common:
  %t1 = fadd float %b2, %b3
  %t2 = fadd float %t1, %b4
  %q2 = getelementptr float, ptr addrspace(1) %out, i64 2
  store float %t2, ptr addrspace(1) %q2
  br label %end
rare:
  store float %s, ptr addrspace(1) %out
  br label %end
end:
  ret void
}
