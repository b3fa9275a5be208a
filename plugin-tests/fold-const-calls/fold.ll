;; nv-fold-const-calls (src/opt/fold_const_calls): a call whose arguments are all integer constants
;; is replaced by the value the callee returns, computed by interpreting the callee (recursion
;; included: cooperative_groups' constexpr log2, as clang emits it after mem2reg); calls with a
;; non-constant argument, callees that store, poison or undefined behaviour, and runs over the
;; step or depth budgets are kept, each refusal a missed remark with its reason.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-fold-const-calls -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-fold-const-calls -verify-each -disable-output %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-fold-const-calls -disable-output -nv-stats \
; RUN:   -pass-remarks=nv-fold-const-calls -pass-remarks-missed=nv-fold-const-calls %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REMARK
; A small step budget: log2(8) takes 28 steps, log2(32) 44, log2(2) 12.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-fold-const-calls -nv-fold-const-calls-max-steps=20 \
; RUN:   -pass-remarks-missed=nv-fold-const-calls -S %s 2>%t.err | FileCheck %s --check-prefix=STEPS
; RUN: FileCheck %s --check-prefix=STEPS-REMARK < %t.err
; A small depth: log2(8) and log2(32) nest 3 and 5 calls, log2(2) one.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-fold-const-calls -nv-fold-const-calls-max-depth=2 \
; RUN:   -S %s | FileCheck %s --check-prefix=DEPTH

target triple = "nvptx64-nvidia-cuda"

@g = internal addrspace(1) global i32 0

; cooperative_groups::details::log2(x) = x == 1 ? 0 : 1 + log2(x / 2)
define internal i32 @log2(i32 %x) {
entry:
  %one = icmp eq i32 %x, 1
  br i1 %one, label %done, label %rec
rec:
  %h = udiv i32 %x, 2
  %r = call i32 @log2(i32 %h)
  %s = add i32 1, %r
  br label %done
done:
  %v = phi i32 [ 0, %entry ], [ %s, %rec ]
  ret i32 %v
}

; CHECK-LABEL: define i32 @folds(
; CHECK-NEXT: %c = add i32 3, 5
; STEPS-LABEL: define i32 @folds(
; STEPS-NEXT: %a = call i32 @log2(i32 8)
; STEPS-NEXT: %b = call i32 @log2(i32 32)
; DEPTH-LABEL: define i32 @folds(
; DEPTH-NEXT: %a = call i32 @log2(i32 8)
; DEPTH-NEXT: %b = call i32 @log2(i32 32)
define i32 @folds() {
  %a = call i32 @log2(i32 8)
  %b = call i32 @log2(i32 32)
  %c = add i32 %a, %b
  ret i32 %c
}

; The same call twice: both folded (the second from the memo).
; CHECK-LABEL: define i32 @small(
; CHECK-NEXT: %c = add i32 1, 1
; STEPS-LABEL: define i32 @small(
; STEPS-NEXT: %c = add i32 1, 1
; DEPTH-LABEL: define i32 @small(
; DEPTH-NEXT: %c = add i32 1, 1
define i32 @small() {
  %a = call i32 @log2(i32 2)
  %b = call i32 @log2(i32 2)
  %c = add i32 %a, %b
  ret i32 %c
}

; CHECK-LABEL: define i32 @not_constant(
; CHECK-NEXT: call i32 @log2(i32 %w)
define i32 @not_constant(i32 %w) {
  %a = call i32 @log2(i32 %w)
  ret i32 %a
}

; A store on the path the arguments take: kept. On a path not taken: folded.
define internal i32 @stores(i32 %x) {
  %c = icmp ugt i32 %x, 10
  br i1 %c, label %big, label %small
big:
  store i32 %x, ptr addrspace(1) @g
  ret i32 1
small:
  ret i32 0
}

; CHECK-LABEL: define i32 @callee_stores(
; CHECK-NEXT: %a = call i32 @stores(i32 11)
; CHECK-NEXT: %c = add i32 %a, 0
define i32 @callee_stores() {
  %a = call i32 @stores(i32 11)
  %b = call i32 @stores(i32 3)
  %c = add i32 %a, %b
  ret i32 %c
}

define internal i32 @div(i32 %a, i32 %b) {
  %q = sdiv i32 %a, %b
  ret i32 %q
}

define internal i32 @shift(i32 %a, i32 %b) {
  %s = shl nuw i32 %a, %b
  ret i32 %s
}

define internal i8 @narrow(i32 %a) {
  %t = trunc nuw i32 %a to i8
  ret i8 %t
}

define internal i32 @sw(i8 %k) {
  switch i8 %k, label %other [
    i8 -1, label %minus
    i8 3, label %three
  ]
minus:
  ret i32 100
three:
  ret i32 300
other:
  %m = call i32 @llvm.umin.i32(i32 7, i32 9)
  %p = call i32 @llvm.ctlz.i32(i32 1, i1 true)
  %r = add nsw i32 %m, %p
  ret i32 %r
}

; CHECK-LABEL: define i32 @semantics(
; Division by zero, INT_MIN / -1 (undefined), shl nuw losing a bit and shifting by 32
; (poison), trunc nuw dropping a bit (poison): kept.
; CHECK-NEXT: %z = call i32 @div(i32 7, i32 0)
; CHECK-NEXT: %o = call i32 @div(i32 -2147483648, i32 -1)
; CHECK-NEXT: %s1 = call i32 @shift(i32 -1, i32 1)
; CHECK-NEXT: %s2 = call i32 @shift(i32 1, i32 32)
; CHECK-NEXT: %t1 = call i8 @narrow(i32 256)
; Signed division rounds toward zero: -7 / 2 = -3; 255 fits in i8: -1; switch on i8 -1.
; CHECK-NEXT: %r1 = add i32 %z, -3
; CHECK-NEXT: %r2 = add i32 %r1, %o
; CHECK-NEXT: %r3 = add i32 %r2, %s1
; CHECK-NEXT: %r4 = add i32 %r3, %s2
; CHECK-NEXT: %t8 = add i8 %t1, -1
; CHECK-NEXT: %r5 = add i32 %r4, 100
; CHECK-NEXT: %r6 = add i32 %r5, 300
; umin(7, 9) + ctlz(1) = 7 + 31
; CHECK-NEXT: %r7 = add i32 %r6, 38
define i32 @semantics() {
  %z = call i32 @div(i32 7, i32 0)
  %o = call i32 @div(i32 -2147483648, i32 -1)
  %s1 = call i32 @shift(i32 -1, i32 1)
  %s2 = call i32 @shift(i32 1, i32 32)
  %t1 = call i8 @narrow(i32 256)
  %d = call i32 @div(i32 -7, i32 2)
  %r1 = add i32 %z, %d
  %r2 = add i32 %r1, %o
  %r3 = add i32 %r2, %s1
  %r4 = add i32 %r3, %s2
  %t2 = call i8 @narrow(i32 255)
  %t8 = add i8 %t1, %t2
  %w1 = call i32 @sw(i8 -1)
  %r5 = add i32 %r4, %w1
  %w2 = call i32 @sw(i8 3)
  %r6 = add i32 %r5, %w2
  %w3 = call i32 @sw(i8 4)
  %r7 = add i32 %r6, %w3
  ret i32 %r7
}

; log2(0) recurses forever (0 / 2 = 0): the depth bound refuses it.
; CHECK-LABEL: define i32 @forever(
; CHECK-NEXT: call i32 @log2(i32 0)
define i32 @forever() {
  %a = call i32 @log2(i32 0)
  ret i32 %a
}

; An interposable body (weak) may not be the one that runs: kept.
define weak i32 @weak_seven() {
  ret i32 7
}

; CHECK-LABEL: define i32 @interposable(
; CHECK-NEXT: call i32 @weak_seven()
define i32 @interposable() {
  %a = call i32 @weak_seven()
  ret i32 %a
}

; A special-register read and inline asm are not modelled: kept.
define internal i32 @tid() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
}

define internal i32 @asm() {
  %a = call i32 asm sideeffect "mov.u32 $0, 1;", "=r"()
  ret i32 %a
}

; CHECK-LABEL: define i32 @not_modelled(
; CHECK-NEXT: call i32 @tid()
; CHECK-NEXT: call i32 @asm()
define i32 @not_modelled() {
  %a = call i32 @tid()
  %b = call i32 @asm()
  %c = add i32 %a, %b
  ret i32 %c
}

declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.ctlz.i32(i32, i1)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; REMARK-DAG: remark: {{.*}}call to @log2(8) folded to 3 (28 steps)
; REMARK-DAG: remark: {{.*}}call to @log2(32) folded to 5 (44 steps)
; REMARK-DAG: remark: {{.*}}call to @stores(11) kept: writes memory (`store`)
; REMARK-DAG: remark: {{.*}}call to @stores(3) folded to 0
; REMARK-DAG: remark: {{.*}}call to @div(7, 0) kept: undefined behaviour: division or remainder by zero
; REMARK-DAG: remark: {{.*}}call to @div(2147483648, 4294967295) kept: undefined behaviour: signed division of the minimum by -1
; REMARK-DAG: remark: {{.*}}call to @shift(4294967295, 1) kept: poison: shl nuw shifts out a set bit
; REMARK-DAG: remark: {{.*}}call to @shift(1, 32) kept: poison: shift by the width or more
; REMARK-DAG: remark: {{.*}}call to @narrow(256) kept: poison: trunc nuw drops a set bit
; REMARK-DAG: remark: {{.*}}call to @log2(0) kept: recursion depth exceeded (more than 128 nested calls
; REMARK-DAG: remark: {{.*}}call to @weak_seven() kept: @weak_seven's body may be replaced at link time (interposable)
; REMARK-DAG: remark: {{.*}}call to @tid() kept: calls llvm.nvvm.read.ptx.sreg.tid.x
; REMARK-DAG: remark: {{.*}}call to @asm() kept: executes inline asm
; REMARK-DAG: {{^ *}}10 nv-fold-const-calls{{ *}}- calls folded
; REMARK-DAG: {{^ *}}1 nv-fold-const-calls{{ *}}- calls refused: recursion depth exceeded
; REMARK-DAG: {{^ *}}3 nv-fold-const-calls{{ *}}- calls refused: poison computed
; REMARK-DAG: {{^ *}}2 nv-fold-const-calls{{ *}}- calls refused: undefined behaviour executed
; REMARK-DAG: {{^ *}}4 nv-fold-const-calls{{ *}}- calls refused: executes what is not modelled
; STEPS-REMARK: call to @log2(8) kept: step budget exceeded (more than 20, nv-fold-const-calls-max-steps)
