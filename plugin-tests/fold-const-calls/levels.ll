;; nv-fold-const-calls in the nvopt<LEVEL> pipelines: at O1-O3, after the first function
;; simplification round and before globalopt/globaldce/the inliner, not at O0 or the fast-compile
;; levels, not with -nv-disable-fold-const-calls. The IR is clang's for cooperative_groups'
;; constexpr log2 called with template constants (cuda-samples' reduction kernels): at O3 the
;; calls fold, the kernel stores constants and the recursive function is deleted.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-fold-const-calls -S %s \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O2>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-disable-fold-const-calls \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NOPIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O0>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=NOPIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmid>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=NOPIPE

target triple = "nvptx64-nvidia-cuda"

; CHECK-NOT: @log2
; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: store i32 3,
; CHECK: store i32 5,
; CHECK-NOT: call
; CHECK: ret void
; OFF: define ptx_kernel void @k(
; OFF: call {{.*}}@log2(i32 {{(noundef )?}}8)
; PIPE: nv-internalize,{{.*}},nv-fold-const-calls,globalopt,globaldce,ipsccp,
; NOPIPE-NOT: nv-fold-const-calls

define ptx_kernel void @k(ptr addrspace(1) %out) #0 {
  %a = call noundef i32 @log2(i32 noundef 8) #1
  store i32 %a, ptr addrspace(1) %out, align 4
  %b = call noundef i32 @log2(i32 noundef 32) #1
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 1
  store i32 %b, ptr addrspace(1) %p, align 4
  ret void
}

; clang -O3 -disable-llvm-passes output for
;   constexpr unsigned log2(unsigned x) { return x == 1 ? 0 : 1 + log2(x / 2); }
define internal noundef i32 @log2(i32 noundef %0) #0 {
  %2 = alloca i32, align 4
  store i32 %0, ptr %2, align 4
  %3 = load i32, ptr %2, align 4
  %4 = icmp eq i32 %3, 1
  br i1 %4, label %5, label %6

5:
  br label %11

6:
  %7 = load i32, ptr %2, align 4
  %8 = udiv i32 %7, 2
  %9 = call noundef i32 @log2(i32 noundef %8) #1
  %10 = add i32 1, %9
  br label %11

11:
  %12 = phi i32 [ 0, %5 ], [ %10, %6 ]
  ret i32 %12
}

attributes #0 = { convergent mustprogress noinline nounwind }
attributes #1 = { convergent nounwind }
