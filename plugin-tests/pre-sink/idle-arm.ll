; nv-pre-sink with -nv-pre-sink-idle-blocks (off by default): CUB's DeviceRadixSortInitKernel
; zeroes two arrays in one grid-stride loop, each store guarded by its own bound. Both stores
; index by `i`, so MachineCSE computes `i << 2` once, in the loop header, and the 64-bit value
; is held through the first arm and the block after it, which never reads it. With the knob the
; shift is copied into each guarded arm (its operand `i` is live there anyway: the latch reads
; it) and the header's is erased; without it the pass leaves it (the value is held across no
; idle loop). The machine verifier accepts the result.
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin -verify-machineinstrs -nv-pre-sink-idle-blocks %s -o - \
; RUN:   | FileCheck %s
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin %s -o - | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: .visible .entry init(
; CHECK: // %loop{{$}}
; CHECK-NOT: shl.b64
; CHECK: @%p{{[0-9]+}} bra
; CHECK: shl.b64 [[O1:%rd[0-9]+]], [[I:%rd[0-9]+]], 2;
; CHECK-NEXT: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[O1]];
; CHECK: shl.b64 [[O2:%rd[0-9]+]], [[I]], 2;
; CHECK-NEXT: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[O2]];
; OFF-LABEL: .visible .entry init(
; OFF: // %loop{{$}}
; OFF: shl.b64
; OFF: @%p{{[0-9]+}} bra
; OFF-NOT: shl.b64
; OFF: ret;

target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @init(ptr %a, i64 %na, ptr %b, i64 %nb) {
entry:
  %ga = addrspacecast ptr %a to ptr addrspace(1)
  %gb = addrspacecast ptr %b to ptr addrspace(1)
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ntid64 = zext i32 %ntid to i64
  %nctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %nctaid64 = zext i32 %nctaid to i64
  %stride = mul nuw nsw i64 %ntid64, %nctaid64
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ctaid64 = zext i32 %ctaid to i64
  %base = mul nuw nsw i64 %ctaid64, %ntid64
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %start = add nuw nsw i64 %base, %tid64
  %n = tail call i64 @llvm.umax.i64(i64 %na, i64 %nb)
  %any = icmp ult i64 %start, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i64 [ %next, %latch ], [ %start, %entry ]
  %ina = icmp ult i64 %i, %na
  br i1 %ina, label %storea, label %checkb

storea:
  %pa = getelementptr inbounds i32, ptr addrspace(1) %ga, i64 %i
  store i32 0, ptr addrspace(1) %pa, align 4
  br label %checkb

checkb:
  %inb = icmp ult i64 %i, %nb
  br i1 %inb, label %storeb, label %latch

storeb:
  %pb = getelementptr inbounds i32, ptr addrspace(1) %gb, i64 %i
  store i32 0, ptr addrspace(1) %pb, align 4
  br label %latch

latch:
  %next = add i64 %i, %stride
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @llvm.umax.i64(i64, i64)
