; print<nv-scev> per loop: backedge-taken counts (exact, constant max, symbolic max), max trip
; count, loop dispositions of each value, and the per-function summary. The analysis result is
; invalidated with LLVM's ScalarEvolution (instcombine in between) and stays verifiable.
; RUN: %opt -load-pass-plugin=%plugin -passes='print<nv-scev>' -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='require<nv-scev>,instcombine,print<nv-scev>,invalidate<nv-scev>' \
; RUN:   -verify-each -disable-output %s 2>&1 | FileCheck %s --check-prefix=INVAL

target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: Classifying expressions for: @count
; CHECK-NEXT:  %inv = mul i32 %a, 3
; CHECK-NEXT:  -->  (3 * %a) U: full-set S: full-set{{$}}
; CHECK-NEXT:  %i = phi i32
; CHECK-NEXT:  -->  {0,+,1}<nuw><nsw><%loop> U: [0,100) S: [0,100)		LoopDispositions: { %loop: Computable }
; CHECK:       %in = add i32 %inv, %j
; CHECK-NEXT:  -->  {(3 * %a),+,1}<nw><%inner> U: full-set S: full-set		LoopDispositions: { %inner: Computable, %loop: Variant }
; CHECK-LABEL: Determining loop execution counts for: @count
; CHECK-NEXT:  Loop %loop: idiom: none
; CHECK-NEXT:  Loop %loop: backedge-taken count is 99
; CHECK-NEXT:  Loop %loop: constant max backedge-taken count is 99
; CHECK-NEXT:  Loop %loop: symbolic max backedge-taken count is 99
; CHECK-NEXT:  Loop %loop: max trip count is 100
; CHECK-NEXT:  Loop %inner: idiom: none
; CHECK-NEXT:  Loop %inner: backedge-taken count is (-1 + (1 umax %n))
; CHECK-NEXT:  Loop %inner: constant max backedge-taken count is -2
; CHECK-NEXT:  Loop %inner: symbolic max backedge-taken count is (-1 + (1 umax %n))
; CHECK-NEXT:  Loop %inner: max trip count is 4294967295
; CHECK-NEXT:  nv-scev for @count: mode: simple (complexity control), failures: 0, kernel budget bypass: no (device function)
define void @count(ptr %p, i32 %a, i32 %n) {
entry:
  %inv = mul i32 %a, 3
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %loop ], [ %j.next, %inner ]
  %in = add i32 %inv, %j
  store i32 %in, ptr %p
  %j.next = add nuw i32 %j, 1
  %jc = icmp ult i32 %j.next, %n
  br i1 %jc, label %inner, label %latch
latch:
  %i.next = add nuw nsw i32 %i, 1
  %c = icmp ult i32 %i.next, 100
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; After instcombine the printer asks a result built on the new ScalarEvolution and gets the same
; answers.
; INVAL:      %i = phi i32
; INVAL-NEXT: -->  {0,+,1}<nuw><nsw><%loop> U: [0,100) S: [0,100)
; INVAL:      Loop %loop: backedge-taken count is 99
; INVAL:      nv-scev for @count: mode: simple (complexity control), failures: 0
