; A malformed launch bound is a clean no-op (with a warning in the log) where LLVM 22's own
; nvvm-intr-range stops with a fatal error; the well-formed attribute still counts.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -nv-log-level=2 -S %s 2>&1 | FileCheck %s
; RUN: not %opt -passes=nvvm-intr-range -disable-output %s 2>&1 | FileCheck %s --check-prefix=UPSTREAM

target triple = "nvptx64-nvidia-cuda"

; CHECK: WARN] {{.*}}nv-scev-sources: malformed: ignoring malformed "nvvm.maxntid" attribute
; CHECK-LABEL: @malformed(
; CHECK: call range(i32 0, 32) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; CHECK: call range(i32 3, 4) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
; UPSTREAM: can't parse integer attribute lots in nvvm.maxntid
define ptx_kernel i32 @malformed() "nvvm.maxntid"="lots" "nvvm.reqntid"="32,3" {
  %a = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %s = add i32 %a, %b
  ret i32 %s
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
