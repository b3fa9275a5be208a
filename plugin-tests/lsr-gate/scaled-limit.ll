; The register-pressure gate's limit grows with a register target above the default 64
; (src/llc/lsr_gate.rs, rp_limit; nv-lsr-rp-limit-scale): under __launch_bounds__(256, 2) the
; target is 65536 / 512 = 128 registers, so lsr-rp-limit=4 becomes 8 and a loop at pressure 7
; keeps LSR, while the same loop in a kernel without launch bounds (target 64) is vetoed. With
; -nv-lsr-rp-limit-scale=0 both are vetoed (cicc's limit for every kernel).
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -lsr-rp-limit=4 -nv-log-level=4 \
; RUN:   -stop-after=loop-reduce %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=LOG < %t.err
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -lsr-rp-limit=4 -nv-lsr-rp-limit-scale=0 \
; RUN:   -nv-log-level=4 -stop-after=loop-reduce %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 -verify-machineinstrs %s -o /dev/null

target triple = "nvptx64-nvidia-cuda"

; LOG-DAG: lsr_gate: bounded: loop %loop: level 1, trip count known, pressure 7 {{.*}}: LSR runs
; LOG-DAG: lsr_gate: unbounded: loop %loop: level 1, trip count known, pressure 7 {{.*}}: LSR skipped (register pressure)
; OFF-DAG: lsr_gate: bounded: loop %loop: {{.*}}: LSR skipped (register pressure)
; OFF-DAG: lsr_gate: unbounded: loop %loop: {{.*}}: LSR skipped (register pressure)
; IR-LABEL: define ptx_kernel void @bounded(
; IR: %lsr.iv
; IR-LABEL: define ptx_kernel void @unbounded(
; IR-NOT: lsr.iv
; IR: ret void

define ptx_kernel void @bounded(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) "nvvm.maxntid"="256" "nvvm.minctasm"="2" {
entry:
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext nneg i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}

define ptx_kernel void @unbounded(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n) {
entry:
  %guard = icmp sgt i32 %n, 0
  br i1 %guard, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %idx = zext nneg i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %acc.next = fadd float %acc, %v
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  store float %r, ptr addrspace(1) %out, align 4
  ret void
}
