;; A PHI operand's use is at the end of its incoming block: nv-remat clones the chain there
;; (before the branch), not in the PHI's block. Target 4 registers; the two i64 PHIs and the
;; loop's values keep the pressure over it.
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-remat -verify-each -nv-maxreg=4 -pass-remarks=nv-remat %s -S -o - 2>%t.err | FileCheck %s
;; RUN: FileCheck %s --check-prefix=REMARK < %t.err
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -nv-maxreg=4 %s -o /dev/null

; CHECK-LABEL: side:
; CHECK-NEXT:    %k.remat = shl i32 %n, 3
; CHECK-NEXT:    br label %join
; CHECK-LABEL: join:
; CHECK-NEXT:    %r = phi i32 [ %k.remat, %side ], [ %s, %after ]
; REMARK: remark: {{.*}}%k recomputed next to its uses in side (1 instructions)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @f(ptr addrspace(1) %out, i32 %n, i64 %a, i64 %b) {
entry:
  %k = shl i32 %n, 3
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %x = phi i64 [ %a, %entry ], [ %x1, %loop ]
  %y = phi i64 [ %b, %entry ], [ %y1, %loop ]
  %x1 = mul i64 %x, %y
  %y1 = add i64 %y, %x
  %s = trunc i64 %x1 to i32
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 100
  br i1 %c, label %loop, label %after
after:
  %z = icmp eq i64 %y1, 0
  br i1 %z, label %side, label %join
side:
  br label %join
join:
  %r = phi i32 [ %k, %side ], [ %s, %after ]
  store i32 %r, ptr addrspace(1) %out
  ret void
}
