; A module without an NVPTX triple still runs every level: the NVPTX-only slots are skipped and
; that is said once on stderr.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -verify-each -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=WARN < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s 2>/dev/null | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmax>' -verify-each -disable-output %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O0>' -verify-each -disable-output %s
; RUN: grep -v '^target triple' %s > %t.notriple.ll
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -verify-each -S %t.notriple.ll -o - 2>/dev/null | FileCheck %s

; WARN: nvopt: warning: no NVPTX target for this module: skipping the NVPTX-only slots (nvvm-intr-range, nvvm-reflect, generic-to-nvvm)
; WARN-NOT: warning
; PIPE-NOT: nvvm-reflect
; PIPE-NOT: generic-to-nvvm
; PIPE: infer-address-spaces

; CHECK-LABEL: define void @fill(
; CHECK: store i32
; CHECK: ret void
target triple = "x86_64-pc-linux-gnu"

define void @fill(ptr %p, i32 %n) {
entry:
  %c0 = icmp sgt i32 %n, 0
  br i1 %c0, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %g = getelementptr i32, ptr %p, i32 %i
  store i32 %i, ptr %g
  %i1 = add nuw nsw i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
