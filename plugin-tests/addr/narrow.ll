; SCEV-CGP's 32-bit address arithmetic (src/llc/addr/narrow.rs; docs/CICC-FACTS.md "Address
; optimization" and "SCEV-CGP"): a GEP index `ext(a) + ext(b)` (what SeparateConstOffsetFromGEP
; leaves of `ext(a + b)`) becomes `ext(a + b)` when ScalarEvolution's ranges prove the narrow add
; cannot overflow: signed for sign extensions, unsigned for zero extensions. Negative: an operand
; without a bound, a constant operand (kept apart for [reg+imm]), an index with another use, a
; sign and a zero extension mixed. It is part of SCEV-CGP, which nv-disable-scev-cgp (true, as
; in cicc's LLVM 20 copy) leaves off inside codegenpreparescev. (In llc, SelectionDAG may widen
; such an add again where it shares the 64-bit sum among several addresses, as here.)
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-cgp -verify-each -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=codegenpreparescev -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes=codegenpreparescev -nv-disable-scev-cgp=0 -S %s | FileCheck %s

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

; CHECK-LABEL: @bounded(
; CHECK: %i.narrow = add nsw i32 %row, %tx
; CHECK-NEXT: %i.ext = sext i32 %i.narrow to i64
; CHECK-NEXT: %q = getelementptr float, ptr addrspace(1) %p, i64 %i.ext
; CHECK: %j.narrow = add nuw i32 %row, %tx
; CHECK-NEXT: %j.ext = zext i32 %j.narrow to i64
; CHECK-NEXT: %q2 = getelementptr float, ptr addrspace(1) %p2, i64 %j.ext
; CHECK: %u = add i64 %kk, %sx
; CHECK: %c = add i64 %sx, 7
; CHECK: %m = add i64 %sr, %zx
; CHECK: %o = add i64 %zr, %zx
; OFF-LABEL: @bounded(
; OFF-NOT: narrow
; OFF: ret void
define ptx_kernel void @bounded(ptr addrspace(1) %p, ptr addrspace(1) %p2, ptr addrspace(1) %p3,
                                ptr addrspace(1) %p4, ptr addrspace(1) %p5, ptr addrspace(1) %p6, i32 %k) {
  %tx = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %row = shl nuw nsw i32 %ty, 5
  %sx = sext i32 %tx to i64
  %sr = sext i32 %row to i64
  %i = add i64 %sr, %sx
  %q = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 0.0, ptr addrspace(1) %q
  %zx = zext i32 %tx to i64
  %zr = zext i32 %row to i64
  %j = add i64 %zr, %zx
  %q2 = getelementptr float, ptr addrspace(1) %p2, i64 %j
  store float 1.0, ptr addrspace(1) %q2
  %kk = sext i32 %k to i64
  %u = add i64 %kk, %sx
  %q3 = getelementptr float, ptr addrspace(1) %p3, i64 %u
  store float 2.0, ptr addrspace(1) %q3
  %c = add i64 %sx, 7
  %q4 = getelementptr float, ptr addrspace(1) %p4, i64 %c
  store float 3.0, ptr addrspace(1) %q4
  %m = add i64 %sr, %zx
  %q5 = getelementptr float, ptr addrspace(1) %p5, i64 %m
  store float 4.0, ptr addrspace(1) %q5
  %o = add i64 %zr, %zx
  store i64 %o, ptr addrspace(1) %p6
  %q6 = getelementptr float, ptr addrspace(1) %p6, i64 %o
  store float 5.0, ptr addrspace(1) %q6
  ret void
}
