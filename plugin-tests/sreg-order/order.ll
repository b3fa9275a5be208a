; nv-sreg-order (src/machine/sreg_order): in the entry block, the reads of %ntid and %nctaid move ahead of
; the parameter loads and of %ctaid/%tid, in their order; nothing else moves, and reads outside
; the entry block stay. Off with -nv-disable-sreg-order: LLVM's order (%ctaid.x first).
; nv-sreg-order is off by default (docs/DEPARTURES.md); -nv-disable-sreg-order=0 runs it.
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-disable-sreg-order=0 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-disable-sreg-order=0 -pass-remarks=nv-sreg-order -nv-stats \
; RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %llc --load-pass-plugin=%plugin -O0 -mcpu=sm_90 %s -o - | FileCheck %s --check-prefix=OFF
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-disable-sreg-order=0 -debug-pass=Structure %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SLOT

target triple = "nvptx64-nvidia-cuda"

; simpleKernel of cuda-samples' simpleIPC: for (i = blockIdx.x * blockDim.x + threadIdx.x;
; i < sz; i += gridDim.x * blockDim.x) p[i] = v;
; CHECK-LABEL: .entry fill(
; CHECK-NOT: ld.param
; CHECK-NOT: %ctaid
; CHECK: mov.u32 {{.*}}%ntid.x;
; CHECK: ld.param
; CHECK: mov.u32 {{.*}}%ctaid.x;
; CHECK: mov.u32 {{.*}}%tid.x;
; CHECK: mad.lo.s32
; CHECK: $L__BB0_
; CHECK: mov.u32 {{.*}}%nctaid.x;
; OFF-LABEL: .entry fill(
; OFF: mov.u32 {{.*}}%ctaid.x;
; OFF: mov.u32 {{.*}}%ntid.x;
define ptx_kernel void @fill(ptr addrspace(1) %p, i32 %sz, i8 %v) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = mul i32 %ctaid, %ntid
  %i0 = add i32 %bx, %tid
  %c0 = icmp slt i32 %i0, %sz
  br i1 %c0, label %pre, label %exit

pre:
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %stride = mul i32 %nctaid, %ntid
  br label %loop

loop:
  %i = phi i32 [ %i0, %pre ], [ %i1, %loop ]
  %w = sext i32 %i to i64
  %a = getelementptr i8, ptr addrspace(1) %p, i64 %w
  store i8 %v, ptr addrspace(1) %a, align 1
  %i1 = add i32 %i, %stride
  %c = icmp slt i32 %i1, %sz
  br i1 %c, label %loop, label %exit

exit:
  ret void
}

; No launch-configuration read: nothing changes, no remark.
; CHECK-LABEL: .entry no_config(
; CHECK: mov.u32 {{.*}}%ctaid.y;
; CHECK: mov.u32 {{.*}}%tid.y;
define ptx_kernel void @no_config(ptr addrspace(1) %p) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %s = mul i32 %ctaid, 96
  %t = add i32 %s, %tid
  store i32 %t, ptr addrspace(1) %p, align 4
  ret void
}

; REMARK: remark: {{.*}}1 launch-configuration read(s) moved to the start of the entry block
; REMARK-NOT: remark:
; REMARK: 1 nv-sreg-order {{.*}}- functions reordered
; REMARK: 1 nv-sreg-order {{.*}}- launch-configuration reads moved
; SLOT: Machine Instruction Scheduler
; SLOT-NEXT: NVPTX launch-configuration reads first (nvopt)

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
