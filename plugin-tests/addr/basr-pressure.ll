; BASR's register rule (src/llc/addr/basr.rs `paying`, src/analysis/pressure): six pointer IVs of one
; stride class, `p_k = {a + t + k*lda, +, s}` (floats), each loaded once per iteration. Sharing
; a base saves no loop instruction (each IV costs one add, as each chained member does), so
; under the default target (64 registers: the loop needs far fewer) BASR leaves them; when the
; loop's register pressure exceeds the target (-nv-maxreg=8 here), registers decide: one pointer
; IV stays, the other members are built on it with the one difference `4*lda` (the starts'
; `sext(k*lda)` distributed through the nsw multiply, src/llc/addr/access_scev.cpp), and the five
; other pointer PHIs and their updates are deleted.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ROOMY
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -nv-maxreg=8 -dump-base-address-strength-reduce=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TIGHT
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -nv-maxreg=8 -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-basr -nv-maxreg=8 -do-base-address-strength-reduce=0 -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF

; ROOMY: basr: k: budget 255 registers, loop-header PHIs 8, 0 shared bases (no shared base saves loop instructions)
; TIGHT: basr: k: budget 255 registers, loop-header PHIs 8, 1 shared bases
; TIGHT-NEXT: basr:   loop 0: bases [0, 1, 2, 3, 4, 5] share base 0

; CHECK-LABEL: loop:
; CHECK-COUNT-1: phi ptr addrspace(1)
; CHECK-NOT: phi ptr addrspace(1)
; CHECK: ret void

; OFF-LABEL: loop:
; OFF-COUNT-6: phi ptr addrspace(1)

target datalayout = "e-p:64:64:64-p3:32:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @k(ptr addrspace(1) noalias %a, ptr addrspace(1) noalias %out, i32 %n, i32 %lda, i32 %s) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = sext i32 %t to i64
  %row = getelementptr inbounds float, ptr addrspace(1) %a, i64 %t64
  %s64 = sext i32 %s to i64
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %pre, label %exit


pre:
  %p0.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 0
  %m1 = mul nsw i32 %lda, 1
  %o1 = sext i32 %m1 to i64
  %p1.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 %o1
  %m2 = mul nsw i32 %lda, 2
  %o2 = sext i32 %m2 to i64
  %p2.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 %o2
  %m3 = mul nsw i32 %lda, 3
  %o3 = sext i32 %m3 to i64
  %p3.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 %o3
  %m4 = mul nsw i32 %lda, 4
  %o4 = sext i32 %m4 to i64
  %p4.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 %o4
  %m5 = mul nsw i32 %lda, 5
  %o5 = sext i32 %m5 to i64
  %p5.start = getelementptr inbounds float, ptr addrspace(1) %row, i64 %o5
  br label %loop

loop:
  %i = phi i32 [ 0, %pre ], [ %i.next, %loop ]
  %acc = phi float [ 0.0, %pre ], [ %acc6, %loop ]
  %p0 = phi ptr addrspace(1) [ %p0.start, %pre ], [ %p0.next, %loop ]
  %p1 = phi ptr addrspace(1) [ %p1.start, %pre ], [ %p1.next, %loop ]
  %p2 = phi ptr addrspace(1) [ %p2.start, %pre ], [ %p2.next, %loop ]
  %p3 = phi ptr addrspace(1) [ %p3.start, %pre ], [ %p3.next, %loop ]
  %p4 = phi ptr addrspace(1) [ %p4.start, %pre ], [ %p4.next, %loop ]
  %p5 = phi ptr addrspace(1) [ %p5.start, %pre ], [ %p5.next, %loop ]
  %v0 = load float, ptr addrspace(1) %p0, align 4
  %acc1 = fadd float %acc, %v0
  %p0.next = getelementptr inbounds float, ptr addrspace(1) %p0, i64 %s64
  %v1 = load float, ptr addrspace(1) %p1, align 4
  %acc2 = fadd float %acc1, %v1
  %p1.next = getelementptr inbounds float, ptr addrspace(1) %p1, i64 %s64
  %v2 = load float, ptr addrspace(1) %p2, align 4
  %acc3 = fadd float %acc2, %v2
  %p2.next = getelementptr inbounds float, ptr addrspace(1) %p2, i64 %s64
  %v3 = load float, ptr addrspace(1) %p3, align 4
  %acc4 = fadd float %acc3, %v3
  %p3.next = getelementptr inbounds float, ptr addrspace(1) %p3, i64 %s64
  %v4 = load float, ptr addrspace(1) %p4, align 4
  %acc5 = fadd float %acc4, %v4
  %p4.next = getelementptr inbounds float, ptr addrspace(1) %p4, i64 %s64
  %v5 = load float, ptr addrspace(1) %p5, align 4
  %acc6 = fadd float %acc5, %v5
  %p5.next = getelementptr inbounds float, ptr addrspace(1) %p5, i64 %s64
  %i.next = add nuw nsw i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  %q = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t64
  store float %acc6, ptr addrspace(1) %q, align 4
  br label %exit

exit:
  ret void
}
