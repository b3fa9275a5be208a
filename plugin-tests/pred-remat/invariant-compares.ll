; nv-pred-remat (src/machine/pred_remat): nine loop-invariant compares of %t are used before the loop
; (selects) and inside it (branches). CodeGenPrepare sinks a copy of each compare into the loop
; and MachineCSE replaces those copies by the compares before the loop, so all nine
; predicates are live across it: more than SASS's seven predicate registers. The pass
; recomputes all nine inside the loop, each next to its branch (nvcc's PTX compares there);
; the originals stay for the selects. Left alone: a loop within the budget
; (-nv-pred-remat-budget=9), everything with the guard knob, and at -O0 (not in the pipeline).
; The machine verifier accepts the result.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-pred-remat-budget=9 %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-disable-pred-remat %s -o - | FileCheck %s --check-prefix=OFF
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-stats -pass-remarks=nv-pred-remat %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O0 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPIPE

; CHECK-LABEL: .visible .entry invariant_tests(
; CHECK-COUNT-9: setp.lt.s32 %p{{[0-9]+}}, [[T:%r[0-9]+]], {{[0-9]+}};
; CHECK: // %loop
; CHECK-NOT: // %exit
; CHECK: setp.lt.s32 [[P0:%p[0-9]+]], [[T]], 1;
; CHECK-NEXT: @[[P0]] bra
; CHECK-COUNT-7: setp.lt.s32 %p{{[0-9]+}}, [[T]], {{[0-9]+}};
; CHECK-NOT: // %exit
; CHECK: setp.lt.s32 [[P8:%p[0-9]+]], [[T]], 129;
; CHECK-NEXT: @[[P8]] bra
; CHECK-NOT: setp.lt.s32
; CHECK: // %exit
; OFF: // %loop
; OFF-NOT: setp.lt.s32
; OFF: // %exit
; REMARK: remark: <unknown>:0:0: 9 loop-invariant compare(s) recomputed inside their loop (more predicates were live into it than the budget)
; REMARK-DAG: 1 nv-pred-remat {{ *}}- loops over the predicate budget
; REMARK-DAG: 9 nv-pred-remat {{ *}}- compares recomputed
; REMARK-DAG: 9 nv-pred-remat {{ *}}- copies made
; PIPE: -machine-sink {{(-machine[a-z-]+ )*}}-nv-load-hoist -nv-pre-sink -nv-pred-remat -nv-param-opt
; NOPIPE-NOT: nv-pred-remat

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @invariant_tests(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %n, i32 %t) {
entry:
  %c0 = icmp slt i32 %t, 1
  %c1 = icmp slt i32 %t, 17
  %c2 = icmp slt i32 %t, 33
  %c3 = icmp slt i32 %t, 49
  %c4 = icmp slt i32 %t, 65
  %c5 = icmp slt i32 %t, 81
  %c6 = icmp slt i32 %t, 97
  %c7 = icmp slt i32 %t, 113
  %c8 = icmp slt i32 %t, 129
  %e0 = select i1 %c0, i32 1, i32 0
  %e1 = select i1 %c1, i32 2, i32 0
  %e2 = select i1 %c2, i32 3, i32 0
  %e3 = select i1 %c3, i32 4, i32 0
  %e4 = select i1 %c4, i32 5, i32 0
  %e5 = select i1 %c5, i32 6, i32 0
  %e6 = select i1 %c6, i32 7, i32 0
  %e7 = select i1 %c7, i32 8, i32 0
  %e8 = select i1 %c8, i32 9, i32 0
  %m0 = add i32 %e0, %e1
  %m1 = add i32 %m0, %e2
  %m2 = add i32 %m1, %e3
  %m3 = add i32 %m2, %e4
  %m4 = add i32 %m3, %e5
  %m5 = add i32 %m4, %e6
  %m6 = add i32 %m5, %e7
  %m7 = add i32 %m6, %e8
  %ocnt = getelementptr inbounds i32, ptr addrspace(1) %out, i32 16
  store i32 %m7, ptr addrspace(1) %ocnt, align 4
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %t9 ]
  %acc0 = phi float [ 0.0, %entry ], [ %r0, %t9 ]
  %acc1 = phi float [ 0.0, %entry ], [ %r1, %t9 ]
  %acc2 = phi float [ 0.0, %entry ], [ %r2, %t9 ]
  %acc3 = phi float [ 0.0, %entry ], [ %r3, %t9 ]
  %acc4 = phi float [ 0.0, %entry ], [ %r4, %t9 ]
  %acc5 = phi float [ 0.0, %entry ], [ %r5, %t9 ]
  %acc6 = phi float [ 0.0, %entry ], [ %r6, %t9 ]
  %acc7 = phi float [ 0.0, %entry ], [ %r7, %t9 ]
  %acc8 = phi float [ 0.0, %entry ], [ %r8, %t9 ]
  %it = xor i32 %i, %t
  %p = getelementptr inbounds float, ptr addrspace(1) %a, i32 %it
  %x = load float, ptr addrspace(1) %p, align 4
  br label %t0
t0:
  br i1 %c0, label %j0, label %u0
u0:
  %s0 = fadd float %acc0, %x
  br label %j0
j0:
  %r0 = phi float [ %acc0, %t0 ], [ %s0, %u0 ]
  br label %t1
t1:
  br i1 %c1, label %j1, label %u1
u1:
  %s1 = fadd float %acc1, %x
  br label %j1
j1:
  %r1 = phi float [ %acc1, %t1 ], [ %s1, %u1 ]
  br label %t2
t2:
  br i1 %c2, label %j2, label %u2
u2:
  %s2 = fadd float %acc2, %x
  br label %j2
j2:
  %r2 = phi float [ %acc2, %t2 ], [ %s2, %u2 ]
  br label %t3
t3:
  br i1 %c3, label %j3, label %u3
u3:
  %s3 = fadd float %acc3, %x
  br label %j3
j3:
  %r3 = phi float [ %acc3, %t3 ], [ %s3, %u3 ]
  br label %t4
t4:
  br i1 %c4, label %j4, label %u4
u4:
  %s4 = fadd float %acc4, %x
  br label %j4
j4:
  %r4 = phi float [ %acc4, %t4 ], [ %s4, %u4 ]
  br label %t5
t5:
  br i1 %c5, label %j5, label %u5
u5:
  %s5 = fadd float %acc5, %x
  br label %j5
j5:
  %r5 = phi float [ %acc5, %t5 ], [ %s5, %u5 ]
  br label %t6
t6:
  br i1 %c6, label %j6, label %u6
u6:
  %s6 = fadd float %acc6, %x
  br label %j6
j6:
  %r6 = phi float [ %acc6, %t6 ], [ %s6, %u6 ]
  br label %t7
t7:
  br i1 %c7, label %j7, label %u7
u7:
  %s7 = fadd float %acc7, %x
  br label %j7
j7:
  %r7 = phi float [ %acc7, %t7 ], [ %s7, %u7 ]
  br label %t8
t8:
  br i1 %c8, label %j8, label %u8
u8:
  %s8 = fadd float %acc8, %x
  br label %j8
j8:
  %r8 = phi float [ %acc8, %t8 ], [ %s8, %u8 ]
  br label %t9
t9:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %o0 = getelementptr inbounds float, ptr addrspace(1) %out, i32 0
  store float %r0, ptr addrspace(1) %o0, align 4
  %o1 = getelementptr inbounds float, ptr addrspace(1) %out, i32 1
  store float %r1, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr inbounds float, ptr addrspace(1) %out, i32 2
  store float %r2, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr inbounds float, ptr addrspace(1) %out, i32 3
  store float %r3, ptr addrspace(1) %o3, align 4
  %o4 = getelementptr inbounds float, ptr addrspace(1) %out, i32 4
  store float %r4, ptr addrspace(1) %o4, align 4
  %o5 = getelementptr inbounds float, ptr addrspace(1) %out, i32 5
  store float %r5, ptr addrspace(1) %o5, align 4
  %o6 = getelementptr inbounds float, ptr addrspace(1) %out, i32 6
  store float %r6, ptr addrspace(1) %o6, align 4
  %o7 = getelementptr inbounds float, ptr addrspace(1) %out, i32 7
  store float %r7, ptr addrspace(1) %o7, align 4
  %o8 = getelementptr inbounds float, ptr addrspace(1) %out, i32 8
  store float %r8, ptr addrspace(1) %o8, align 4
  ret void
}
