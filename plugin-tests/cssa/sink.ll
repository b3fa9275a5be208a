;; nv-cssa's sink rewrite (src/llc/cssa/plan.rs; docs/CICC-FACTS.md "CSSA coalescing"): the loop
;; compares the old value of %i after %i.next is computed, so %i and %i.next are live at once and
;; PHI elimination's copy into %i stays a mov inside the loop. nv-cssa moves %i.next below the
;; compare (its last read of %i); then the copy coalesces. The limit is loaded in the loop, so the
;; trip count is unknown and nvopt's LSR gate keeps llc's LSR off this loop (it would rewrite the IV
;; itself).
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -verify-each -pass-remarks=nv-cssa %s -S -o - 2>%t.remarks | FileCheck %s --check-prefix=IR
;; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=1 %s -o - | FileCheck %s --check-prefix=ON
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=0 %s -o - | FileCheck %s --check-prefix=OFF
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -nv-cssa-sink=0 %s -S -o - | FileCheck %s --check-prefix=NOSINK

; IR:      %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
; IR:      %c = icmp ult i32 %i, %lim
; IR-NEXT: %i.next = add nuw nsw i32 %i, 256
; IR-NEXT: br i1 %c, label %loop, label %exit

; NOSINK:      %i.next = add nuw nsw i32 %i, 256
; NOSINK-NEXT: %idx = zext i32 %i to i64

; REMARK: remark: {{.*}}%i.next moved below the last read of the PHI it feeds (icmp)

; OFF:      setp.lt.u32 {{%p[0-9]+}}, [[I:%r[0-9]+]], {{%r[0-9]+}};
; OFF-NEXT: mov.b32 [[I]], {{%r[0-9]+}};
; ON-NOT:   mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};
; ON:       setp.lt.u32 {{%p[0-9]+}}, [[J:%r[0-9]+]], {{%r[0-9]+}};
; ON-NEXT:  add.s32 [[J]], [[J]], 256;
; ON-NOT:   mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @old_iv(ptr addrspace(1) %a, ptr addrspace(1) %out, ptr addrspace(1) %limp, i32 %start) {
entry:
  br label %loop

loop:
  %i = phi i32 [ %start, %entry ], [ %i.next, %loop ]
  %i.next = add nuw nsw i32 %i, 256
  %idx = zext i32 %i to i64
  %pa = getelementptr float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %pa
  %m = fmul float %v, 2.0
  %po = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %m, ptr addrspace(1) %po
  %lim = load i32, ptr addrspace(1) %limp
  %c = icmp ult i32 %i, %lim
  br i1 %c, label %loop, label %exit

exit:
  ret void
}
