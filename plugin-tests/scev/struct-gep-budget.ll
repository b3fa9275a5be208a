; Regression (nvopt_tools/fuzz.py seed 785, reduced with llvm-reduce): with the recursion budget spent,
; a struct GEP's constant field index was made SCEVUnknown and LLVM's getGEPExpr crashed on it.
; Constants are never gated now: they stay SCEVConstant.
; RUN: %opt -load-pass-plugin=%plugin -passes='print<nv-scev>' -scalar-evolution-max-recursion-depth=0 \
; RUN:   -scalar-evolution-max-expr-failures=0 -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes='print<nv-scev>' -scalar-evolution-complexity-control=0 \
; RUN:   -scalar-evolution-max-recursion-depth=2 -disable-output %s 2>&1 | FileCheck %s --check-prefix=NORMAL

target triple = "nvptx64-nvidia-cuda"

%struct.float4 = type { float, float, float, float }

; Simple mode builds %2 with the fresh budget of 0: %p and %i are Unknown, the index a constant.
; CHECK:      %2 = getelementptr %struct.float4, ptr %p, i64 %i, i32 2
; CHECK-NEXT: -->  (8 + (16 * %i) + %p) U: full-set S: full-set{{$}}

; Normal mode: %1 and %2 are the budget's two queries; %p and %i are Unknown.
; NORMAL:      %2 = getelementptr %struct.float4, ptr %p, i64 %i, i32 2
; NORMAL-NEXT: -->  (8 + (16 * %i) + %p) U: full-set S: full-set{{$}}
define ptr @make_float4(ptr %p, i64 %i) {
  %1 = getelementptr %struct.float4, ptr poison, i32 0, i32 0
  %2 = getelementptr %struct.float4, ptr %p, i64 %i, i32 2
  ret ptr %2
}
