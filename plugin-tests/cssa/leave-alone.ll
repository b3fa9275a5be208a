;; What nv-cssa must leave alone (src/llc/cssa/plan.rs): a true swap of two PHIs (both values are
;; needed at once; only unrolling removes those copies); an equality of pointers (equal addresses
;; need not carry the same provenance); an interfering operand defined by a load (it may not
;; move); a PHI whose old value is read after the loop (sinking the increment cannot end the
;; overlap); and an equality whose branch edge does not dominate the incoming block. Each of the
;; six operands interferes with its PHI and none is rewritten: the IR and the PTX are the same
;; with and without the pass.
;; RUN: %opt -passes=verify %s -S -o %t.base.ll
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -verify-each -pass-remarks=nv-cssa -nv-stats %s -S -o %t.cssa.ll 2>%t.err
;; RUN: diff %t.base.ll %t.cssa.ll
;; RUN: FileCheck %s --check-prefix=STATS < %t.err
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=1 %s -o %t.on.ptx
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -verify-machineinstrs -cssa-coalesce=0 %s -o %t.off.ptx
;; RUN: diff %t.on.ptx %t.off.ptx
;; RUN: FileCheck %s --check-prefix=PTX < %t.on.ptx

; STATS-NOT: remark
; STATS-DAG: 6 nv-cssa                - PHI operands interfering with their PHI
; STATS-DAG: 6 nv-cssa                - interfering operands left as they are
; STATS-NOT: operands replaced by an equal value
; STATS-NOT: operand definitions sunk

; PTX-LABEL: .entry swap(
; PTX-COUNT-3: mov.b32 {{%r[0-9]+}}, {{%r[0-9]+}};

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @swap(ptr addrspace(1) %out, i32 %x, i32 %y, i32 %n) {
entry:
  br label %loop

loop:
  %a = phi i32 [ %x, %entry ], [ %b, %loop ]
  %b = phi i32 [ %y, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %d = sub i32 %a, %b
  %ix = zext i32 %i to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %ix
  store i32 %d, ptr addrspace(1) %p
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @pointer_equality(ptr addrspace(1) %p, ptr addrspace(1) %q, ptr addrspace(1) %out) {
entry:
  %e = icmp eq ptr addrspace(1) %p, %q
  br i1 %e, label %same, label %join

same:
  br label %join

join:
  %r = phi ptr addrspace(1) [ %p, %same ], [ %out, %entry ]
  store i32 1, ptr addrspace(1) %r
  store i32 2, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @loaded_operand(ptr addrspace(1) %g, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop

loop:
  %v = phi i32 [ 0, %entry ], [ %nv, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %vx = zext i32 %v to i64
  %gp = getelementptr i32, ptr addrspace(1) %g, i64 %vx
  %nv = load i32, ptr addrspace(1) %gp
  %ix = zext i32 %i to i64
  %op = getelementptr i32, ptr addrspace(1) %out, i64 %ix
  store i32 %v, ptr addrspace(1) %op
  %i1 = add i32 %i, 1
  %c = icmp eq i32 %i1, %n
  br i1 %c, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @old_value_after_loop(ptr addrspace(1) %limp, ptr addrspace(1) %out) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %i.next = add i32 %i, 3
  %lim = load i32, ptr addrspace(1) %limp
  %c = icmp ult i32 %i, %lim
  br i1 %c, label %loop, label %exit

exit:
  store i32 %i, ptr addrspace(1) %out
  ret void
}

define ptx_kernel void @equality_not_dominating(i32 %a, i32 %b, i1 %f, ptr addrspace(1) %out) {
entry:
  %e = icmp eq i32 %a, %b
  br i1 %e, label %mid, label %other

other:
  br i1 %f, label %mid, label %join

mid:
  br label %join

join:
  %r = phi i32 [ %a, %mid ], [ 0, %other ]
  store i32 %r, ptr addrspace(1) %out
  store i32 %a, ptr addrspace(1) %out
  ret void
}
