; nv-iv-rewrite (src/llc/iv_rewrite): in a loop over the register target, integer IVs of one step
; move onto the first of them. Four unsigned (wrapping) i32 indices of step %s and one of step
; %u index a float array through zext; with -nv-maxreg=4 the loop is over the target: %j, %k and
; %l become %i plus their start differences (expanded in the preheader), one add at each use,
; and their PHIs and updates go; %w, alone in its step class, stays. Under the default target
; (64) the loop is left alone, as with the guard knob or a growth bound of 0 %.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-rewrite -nv-maxreg=4 -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-rewrite -nv-maxreg=4 -disable-output -nv-stats \
; RUN:   -pass-remarks=nv-iv-rewrite %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-rewrite -disable-output \
; RUN:   -pass-remarks-missed=nv-iv-rewrite %s 2>&1 | FileCheck %s --check-prefix=UNDER
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-rewrite -nv-maxreg=4 -nv-iv-rewrite-max-growth=0 \
; RUN:   -disable-output -pass-remarks-missed=nv-iv-rewrite %s 2>&1 | FileCheck %s --check-prefix=GROWTH
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-iv-rewrite -nv-maxreg=4 -nv-disable-iv-rewrite -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; In llc it runs right after codegenpreparescev (BASR takes what it can first); the machine
; verifier accepts the code it leaves.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-maxreg=4 -verify-machineinstrs %s -o /dev/null

; CHECK-LABEL: pre:
; CHECK: sub i32 %b, %a
; CHECK-LABEL: loop:
; CHECK-NEXT: %i = phi i32
; CHECK-NEXT: %w = phi i32
; CHECK-NEXT: %t = phi i32
; CHECK-NOT: phi i32
; CHECK: add i32 %i, %
; CHECK: ret void

; REMARK: remark: {{.*}} loop loop: 3 IVs moved onto 1 of their step classes
; REMARK: 3 nv-iv-rewrite - IVs moved onto another of their step
; UNDER: remark: {{.*}} loop loop: register pressure within the target
; GROWTH: remark: {{.*}} loop loop: the loop body would grow beyond nv-iv-rewrite-max-growth
; OFF-LABEL: loop:
; OFF-COUNT-6: phi i32
; PIPE: -codegenpreparescev {{.*}}-nv-iv-rewrite {{.*}}-nv-cssa

target datalayout = "e-p:64:64:64-p3:32:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) noalias %x, ptr addrspace(1) noalias %out, i32 %a, i32 %b, i32 %c, i32 %d, i32 %e, i32 %s, i32 %u, i32 %n) {
entry:
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %pre, label %exit

pre:
  br label %loop

loop:
  %i = phi i32 [ %a, %pre ], [ %i.next, %loop ]
  %j = phi i32 [ %b, %pre ], [ %j.next, %loop ]
  %k = phi i32 [ %c, %pre ], [ %k.next, %loop ]
  %l = phi i32 [ %d, %pre ], [ %l.next, %loop ]
  %w = phi i32 [ %e, %pre ], [ %w.next, %loop ]
  %t = phi i32 [ 0, %pre ], [ %t.next, %loop ]
  %acc = phi float [ 0.0, %pre ], [ %acc5, %loop ]
  %xi = zext i32 %i to i64
  %pi = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xi
  %vi = load float, ptr addrspace(1) %pi, align 4
  %acc1 = fadd float %acc, %vi
  %xj = zext i32 %j to i64
  %pj = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xj
  %vj = load float, ptr addrspace(1) %pj, align 4
  %acc2 = fadd float %acc1, %vj
  %xk = zext i32 %k to i64
  %pk = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xk
  %vk = load float, ptr addrspace(1) %pk, align 4
  %acc3 = fadd float %acc2, %vk
  %xl = zext i32 %l to i64
  %pl = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xl
  %vl = load float, ptr addrspace(1) %pl, align 4
  %acc4 = fadd float %acc3, %vl
  %xw = zext i32 %w to i64
  %pw = getelementptr inbounds float, ptr addrspace(1) %x, i64 %xw
  %vw = load float, ptr addrspace(1) %pw, align 4
  %acc5 = fadd float %acc4, %vw
  %i.next = add i32 %i, %s
  %j.next = add i32 %j, %s
  %k.next = add i32 %k, %s
  %l.next = add i32 %l, %s
  %w.next = add i32 %w, %u
  %t.next = add nuw nsw i32 %t, 1
  %more = icmp slt i32 %t.next, %n
  br i1 %more, label %loop, label %done

done:
  store float %acc5, ptr addrspace(1) %out, align 4
  br label %exit

exit:
  ret void
}
