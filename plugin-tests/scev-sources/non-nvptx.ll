; nv-scev-sources is a no-op outside NVPTX modules: the same kernel shape with an x86 triple
; (launch-bound attribute, special-register reads, a provable block-stride loop) comes out
; byte-identical to what opt alone prints, and no statistics are counted.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -verify-each -S %s -o %t.pass.ll
; RUN: %opt -S %s -o %t.plain.ll
; RUN: diff %t.plain.ll %t.pass.ll
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -nv-stats -disable-output %s 2>&1 | FileCheck %s
; The same input with an NVPTX triple does change (so the diff above can fail).
; RUN: sed 's/x86_64-unknown-linux-gnu/nvptx64-nvidia-cuda/' %s > %t.nvptx.ll
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-scev-sources -S %t.nvptx.ll | FileCheck %s --check-prefix=NVPTX

; CHECK-NOT: nv-scev-sources
; NVPTX: call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
; NVPTX: %next = add nuw nsw i32 %c, %ntid

target triple = "x86_64-unknown-linux-gnu"

define ptx_kernel void @k(ptr %p) "nvvm.maxntid"="128" {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  br label %cond
cond:
  %c = phi i32 [ %tid, %entry ], [ %next, %body ]
  %cmp = icmp ult i32 %c, 4096
  br i1 %cmp, label %body, label %exit
body:
  %idx = zext i32 %c to i64
  %q = getelementptr inbounds float, ptr %p, i64 %idx
  store float 0.0, ptr %q
  %next = add i32 %c, %ntid
  br label %cond
exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
