;; nv-remat's place in llc's NVPTX pipeline (src/codegen.rs): the last IR pass, right after
;; nvptx-lower-aggr-copies and before alloca-hoisting and instruction selection, as in cicc's
;; llc; not at -O0, not with -do-remat=0.
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -debug-pass=Structure %s -o /dev/null 2>&1 | FileCheck %s
;; RUN: %llc --load-pass-plugin=%plugin -O1 -mcpu=sm_90 -debug-pass=Structure %s -o /dev/null 2>&1 | FileCheck %s
;; RUN: %llc --load-pass-plugin=%plugin -O0 -mcpu=sm_90 -debug-pass=Structure %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -do-remat=0 -debug-pass=Structure %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

; CHECK:      Lower aggregate copies/intrinsics into loops
; CHECK:      Register rematerialization on IR (nvopt)
; CHECK-NEXT: NVPTX specific alloca hoisting
; CHECK:      NVPTX DAG->DAG Pattern Instruction Selection
; OFF-NOT:    Register rematerialization on IR (nvopt)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %p) {
  store i32 1, ptr addrspace(1) %p
  ret void
}
