; Special-register ranges (docs/CICC-FACTS.md "GPU SCEV sources and stride idioms"): launch bounds
; tighten the hardware ranges LLVM 22 declares on the intrinsics. reqntid fixes each block dimension
; (missing ones are 1); maxntid bounds every dimension by the thread count (a 16x16 block is a legal
; launch of a 256-thread kernel); minctasm bounds nothing; non-kernels get no launch bounds; an
; existing range is only ever narrowed. LLVM 22's nvvm-intr-range uses the reqntid product (256)
; where nv-scev-sources has the exact dimensions.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s | FileCheck %s
; RUN: %opt -passes=nvvm-intr-range -S %s | FileCheck %s --check-prefix=UPSTREAM
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -nv-stats -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STATS

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: @maxntid(
; CHECK: call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call range(i32 1, 257) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
; The hardware bound of tid.z (64) is already tighter: nothing added.
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; Grid registers are not block bounds.
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
define ptx_kernel i32 @maxntid() "nvvm.maxntid"="256" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %e = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  ret i32 %s4
}

; CHECK-LABEL: @reqntid(
; CHECK: call range(i32 0, 16) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call range(i32 16, 17) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: call range(i32 8, 9) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
; CHECK: call range(i32 0, 2) i32 @llvm.nvvm.read.ptx.sreg.tid.z()
; UPSTREAM-LABEL: @reqntid(
; UPSTREAM: call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; UPSTREAM: call range(i32 1, 257) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
define ptx_kernel i32 @reqntid() "nvvm.reqntid"="16,8,2" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  ret i32 %s3
}

; A one-dimensional reqntid: y and z are 1.
; CHECK-LABEL: @reqntid_1d(
; CHECK: call range(i32 128, 129) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
; CHECK: call range(i32 1, 2) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
; CHECK: call range(i32 0, 1) i32 @llvm.nvvm.read.ptx.sreg.tid.z()
define ptx_kernel i32 @reqntid_1d() "nvvm.reqntid"="128" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  ret i32 %s2
}

; minctasm is an occupancy hint: no range.
; CHECK-LABEL: @minctasm(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
define ptx_kernel i32 @minctasm() "nvvm.minctasm"="4" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %s = add i32 %a, %b
  ret i32 %s
}

; Launch bounds belong to kernels: a device function keeps the hardware ranges.
; CHECK-LABEL: @device(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define i32 @device() "nvvm.maxntid"="64" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %a
}

; Never widen: a narrower call-site range stays; an overlapping one is intersected.
; CHECK-LABEL: @existing(
; CHECK: call range(i32 0, 100) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call range(i32 10, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
define ptx_kernel i32 @existing() "nvvm.maxntid"="256" {
  %a = call range(i32 0, 100) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call range(i32 10, 500) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %s = add i32 %a, %b
  ret i32 %s
}

; The older !nvvm.annotations form: LLVM 22 upgrades it to the attributes when it reads IR.
; CHECK-LABEL: @annotated(
; CHECK: call range(i32 0, 32) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define void @annotated() {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret void
}

; STATS: 11 nv-scev-sources {{ *}}- special-register ranges attached
; STATS: 1 nv-scev-sources {{ *}}- special-register ranges tightened

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @annotated, !"kernel", i32 1}
!1 = !{ptr @annotated, !"maxntidx", i32 32}
