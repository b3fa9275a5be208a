; nv-pre-sink (src/machine/pre_sink): llc's MachineCSE hoists the `mul.wide` that both preheaders
; compute (12 * tid.x, the start offset of each loop's pointer) into the entry block, and the
; 64-bit value is then held across the first loop, which never reads it. The pass copies it
; back into the two preheaders (one instruction each) and erases the hoisted one. The guard
; `tx < n` is read in the entry block and again after the barrier: its compare is copied there
; (its operands are live there anyway) and kept for the entry block, so no predicate is held
; across the first loop. Left alone:
; a kernel with launch bounds (a register cap: @two_loops_bounded), everything with the guard
; knob, and at -O0 (not in the pipeline). @reread_sregs: blockIdx.x, read in the entry block
; and after a loop and a barrier, is read again there (split) instead of held; a performance
; counter (%pm0, which changes between reads) is never copied. The machine verifier accepts the
; result.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-disable-pre-sink %s -o - | FileCheck %s --check-prefix=OFF
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -nv-stats -pass-remarks=nv-pre-sink %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %llc -O0 -mcpu=sm_90 -load %plugin -debug-pass=Arguments %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPIPE

; CHECK-LABEL: .visible .entry two_loops(
; CHECK: setp.ge.u32 [[G1:%p[0-9]+]], [[TX:%r[0-9]+]], [[N:%r[0-9]+]];
; CHECK-NEXT: @[[G1]] bra
; CHECK: mul.wide.u32 %rd{{[0-9]+}}, [[TX]], 12;
; CHECK: // %loop1
; CHECK: bar.sync 0;
; CHECK-NEXT: setp.ge.u32 [[G2:%p[0-9]+]], [[TX]], [[N]];
; CHECK-NEXT: @[[G2]] bra
; CHECK: mul.wide.u32 %rd{{[0-9]+}}, [[TX]], 12;
; CHECK: // %loop2
; CHECK-LABEL: .visible .entry two_loops_bounded(
; CHECK: mul.wide.u32
; CHECK: bar.sync 0;
; CHECK-NOT: mul.wide.u32
; CHECK: ret;
; CHECK-LABEL: .visible .entry reread_sregs(
; CHECK-DAG: mov.u32 %r{{[0-9]+}}, %pm0;
; CHECK-DAG: mov.u32 %r{{[0-9]+}}, %ctaid.x;
; CHECK: // %loop
; CHECK: bar.sync 0;
; CHECK-NOT: %pm0
; CHECK: mov.u32 %r{{[0-9]+}}, %ctaid.x;
; CHECK-NOT: %pm0
; CHECK: ret;
; OFF-LABEL: .visible .entry two_loops(
; OFF: mul.wide.u32
; OFF: bar.sync 0;
; OFF-NOT: setp.ge
; OFF-NOT: mul.wide.u32
; OFF: ret;
; REMARK: remark: <unknown>:0:0: 2 hoisted instruction(s) copied back into the blocks that read them (each was held across a loop that never reads it)
; REMARK: remark: <unknown>:0:0: 1 hoisted instruction(s) copied back into the blocks that read them (each was held across a loop that never reads it)
; REMARK-DAG: 4 nv-pre-sink {{ *}}- copies made
; REMARK-DAG: 3 nv-pre-sink {{ *}}- instructions copied to their readers
; REMARK-DAG: 1 nv-pre-sink {{ *}}- moved into the blocks that read them
; REMARK-DAG: 2 nv-pre-sink {{ *}}- copied into the other blocks that read them, kept for their own
; REMARK-DAG: 1 nv-pre-sink {{ *}}- functions left alone: register cap
; PIPE: -machine-cse {{.*}}-machine-sink {{(-machine[a-z-]+ )*}}-nv-load-hoist -nv-pre-sink -nv-pred-remat -nv-param-opt
; NOPIPE-NOT: nv-pre-sink

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @two_loops(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) {
entry:
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c1 = icmp ult i32 %tx, %n
  br i1 %c1, label %pre1, label %mid
pre1:
  %z1 = zext i32 %tx to i64
  %o1 = mul nuw nsw i64 %z1, 12
  %p1 = getelementptr i8, ptr addrspace(1) %a, i64 %o1
  br label %loop1
loop1:
  %q = phi ptr addrspace(1) [ %p1, %pre1 ], [ %q.next, %loop1 ]
  %i = phi i32 [ %tx, %pre1 ], [ %i.next, %loop1 ]
  store float 1.0, ptr addrspace(1) %q, align 4
  %q.next = getelementptr i8, ptr addrspace(1) %q, i64 384
  %i.next = add nuw nsw i32 %i, 32
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop1, label %mid
mid:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %c1, label %pre2, label %exit
pre2:
  %z2 = zext i32 %tx to i64
  %o2 = mul nuw nsw i64 %z2, 12
  %p2 = getelementptr i8, ptr addrspace(1) %b, i64 %o2
  br label %loop2
loop2:
  %r = phi ptr addrspace(1) [ %p2, %pre2 ], [ %r.next, %loop2 ]
  %j = phi i32 [ %tx, %pre2 ], [ %j.next, %loop2 ]
  store float 2.0, ptr addrspace(1) %r, align 4
  %r.next = getelementptr i8, ptr addrspace(1) %r, i64 384
  %j.next = add nuw nsw i32 %j, 32
  %d = icmp ult i32 %j.next, %n
  br i1 %d, label %loop2, label %exit
exit:
  ret void
}

define ptx_kernel void @two_loops_bounded(ptr addrspace(1) %a, ptr addrspace(1) %b, i32 %n) #0 {
entry:
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c1 = icmp ult i32 %tx, %n
  br i1 %c1, label %pre1, label %mid
pre1:
  %z1 = zext i32 %tx to i64
  %o1 = mul nuw nsw i64 %z1, 12
  %p1 = getelementptr i8, ptr addrspace(1) %a, i64 %o1
  br label %loop1
loop1:
  %q = phi ptr addrspace(1) [ %p1, %pre1 ], [ %q.next, %loop1 ]
  %i = phi i32 [ %tx, %pre1 ], [ %i.next, %loop1 ]
  store float 1.0, ptr addrspace(1) %q, align 4
  %q.next = getelementptr i8, ptr addrspace(1) %q, i64 384
  %i.next = add nuw nsw i32 %i, 32
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop1, label %mid
mid:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %c1, label %pre2, label %exit
pre2:
  %z2 = zext i32 %tx to i64
  %o2 = mul nuw nsw i64 %z2, 12
  %p2 = getelementptr i8, ptr addrspace(1) %b, i64 %o2
  br label %loop2
loop2:
  %r = phi ptr addrspace(1) [ %p2, %pre2 ], [ %r.next, %loop2 ]
  %j = phi i32 [ %tx, %pre2 ], [ %j.next, %loop2 ]
  store float 2.0, ptr addrspace(1) %r, align 4
  %r.next = getelementptr i8, ptr addrspace(1) %r, i64 384
  %j.next = add nuw nsw i32 %j, 32
  %d = icmp ult i32 %j.next, %n
  br i1 %d, label %loop2, label %exit
exit:
  ret void
}

define ptx_kernel void @reread_sregs(ptr addrspace(1) %out, ptr addrspace(1) %a, i32 %n) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %pm = call i32 @llvm.nvvm.read.ptx.sreg.pm0()
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %s0 = add i32 %bx, %pm
  store i32 %s0, ptr addrspace(1) %out, align 4
  %e = icmp ult i32 %tx, %n
  br i1 %e, label %loop, label %mid
loop:
  %i = phi i32 [ %tx, %entry ], [ %i.next, %loop ]
  %iz = zext i32 %i to i64
  %ap = getelementptr inbounds float, ptr addrspace(1) %a, i64 %iz
  store float 1.0, ptr addrspace(1) %ap, align 4
  %i.next = add nuw nsw i32 %i, 256
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %mid
mid:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %bz = zext i32 %bx to i64
  %op = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %bz
  %v = mul i32 %pm, 3
  store i32 %v, ptr addrspace(1) %op, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.pm0()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

attributes #0 = { "nvvm.maxntid"="256" }
