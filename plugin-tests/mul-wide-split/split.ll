; nv-mul-wide-split (src/machine/mul_wide_split): a mul.wide by a power of two whose product only
; feeds 64-bit adds of a block-uniform base (kernel parameters, %ctaid, arithmetic on them)
; becomes cvt + shl.b64; a product added to a varying base (loaded from global memory) keeps
; its mul.wide unless -nv-mul-wide-split-rule=2, and -nv-mul-wide-split-rule=0 (or -O0) splits
; nothing. The machine verifier accepts the result.
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs %s -o - | FileCheck %s
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-mul-wide-split-rule=0 %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-mul-wide-split-rule=2 -verify-machineinstrs %s -o - \
; RUN:   | FileCheck %s --check-prefix=EVERY
; A pressure limit below the kernel's estimated pressure leaves it alone.
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -nv-mul-wide-split-max-pressure=2 %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc --load-pass-plugin=%plugin -O0 -mcpu=sm_90 -debug-pass=Structure %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=O0
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -pass-remarks=nv-mul-wide-split -nv-stats \
; RUN:   %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -debug-pass=Structure %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SLOT

target triple = "nvptx64-nvidia-cuda"

; Thrust's uninitialized_fill shape: a 512-element tile per block, full tiles in one arm,
; the partial tile under a bound in the other; the row base is the same in every thread.
; The row base (%ctaid.x * 2048 added to the parameter) and both thread offsets are split.
; CHECK-LABEL: .entry fill(
; CHECK: mul.wide.u32 {{%rd[0-9]+}}, [[C:%r[0-9]+]], 512;
; CHECK: cvt.u64.u32 [[CW:%rd[0-9]+]], [[C]];
; CHECK-NEXT: shl.b64 [[CS:%rd[0-9]+]], [[CW]], 11;
; CHECK-NEXT: add.s64 [[ROW:%rd[0-9]+]], {{%rd[0-9]+}}, [[CS]];
; CHECK-NOT: mul.wide
; CHECK: mov.u32 [[T:%r[0-9]+]], %tid.x;
; CHECK-NEXT: cvt.u64.u32 [[W:%rd[0-9]+]], [[T]];
; CHECK-NEXT: shl.b64 [[S:%rd[0-9]+]], [[W]], 2;
; CHECK-NEXT: add.s64 {{%rd[0-9]+}}, [[ROW]], [[S]];
; CHECK-NOT: mul.wide
; CHECK: cvt.u64.u32 [[W2:%rd[0-9]+]], {{%r[0-9]+}};
; CHECK-NEXT: shl.b64 [[S2:%rd[0-9]+]], [[W2]], 2;
; CHECK-NEXT: add.s64 {{%rd[0-9]+}}, [[ROW]], [[S2]];
; CHECK-NOT: mul.wide
; CHECK: ret;
; OFF-LABEL: .entry fill(
; OFF-NOT: cvt.u64.u32
; OFF: mul.wide.u32 {{%rd[0-9]+}}, {{%r[0-9]+}}, 4;
; OFF-NOT: cvt.u64.u32
; OFF: ret;
define ptx_kernel void @fill(i64 %n, ptr addrspace(1) %p, i32 %v) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c64 = zext i32 %ctaid to i64
  %base = shl nuw nsw i64 %c64, 9
  %rem = sub i64 %n, %base
  %full = icmp ugt i64 %rem, 511
  %row = getelementptr inbounds i32, ptr addrspace(1) %p, i64 %base
  br i1 %full, label %all, label %part

all:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %a = getelementptr inbounds i32, ptr addrspace(1) %row, i64 %t64
  store i32 %v, ptr addrspace(1) %a, align 4
  %a2 = getelementptr inbounds i8, ptr addrspace(1) %a, i64 1024
  store i32 %v, ptr addrspace(1) %a2, align 4
  br label %exit

part:
  %tid2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rem32 = trunc i64 %rem to i32
  %in = icmp ult i32 %tid2, %rem32
  br i1 %in, label %st, label %exit

st:
  %u64 = zext i32 %tid2 to i64
  %b = getelementptr inbounds i32, ptr addrspace(1) %row, i64 %u64
  store i32 %v, ptr addrspace(1) %b, align 4
  br label %exit

exit:
  ret void
}

; The base is loaded from global memory (it may differ between threads): the rule leaves the
; mul.wide alone; rule 2 splits it.
; CHECK-LABEL: .entry varying(
; CHECK: mul.wide.u32 {{%rd[0-9]+}}, {{%r[0-9]+}}, 8;
; EVERY-LABEL: .entry varying(
; EVERY-NOT: mul.wide
; EVERY: shl.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, 3;
; EVERY: ret;
define ptx_kernel void @varying(ptr addrspace(1) %pp, double %v) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %slot = getelementptr inbounds ptr addrspace(1), ptr addrspace(1) %pp, i32 %tid
  %q = load ptr addrspace(1), ptr addrspace(1) %slot, align 8
  %t64 = zext i32 %tid to i64
  %a = getelementptr inbounds double, ptr addrspace(1) %q, i64 %t64
  store double %v, ptr addrspace(1) %a, align 8
  ret void
}

; REMARK: remark: {{.*}}3 mul.wide by a power of two split into convert and shift
; REMARK-NOT: remark:
; REMARK: 1 nv-mul-wide-split {{.*}}- functions changed
; REMARK: 3 nv-mul-wide-split {{.*}}- mul.wide split into convert and shift
; O0: Pass Arguments:
; O0-NOT: NVPTX mul.wide by a power of two
; SLOT: NVPTX ld.param re-issue (nvopt)
; SLOT-NEXT: NVPTX mul.wide by a power of two as convert and shift (nvopt)

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
