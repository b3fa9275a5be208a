;; nv-cssa in llc's NVPTX pipeline (src/codegen.rs): inserted after CodeGenPrepare, before
;; instruction selection, at -O1..-O3 while -cssa-coalesce is on (the default); not at -O0, not
;; with -cssa-coalesce=0, not for other targets. The legacy pass shares the name nv-cssa with the
;; new-PM pass (opt -passes=nv-cssa); no knob has that name.
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=PIPE
;; RUN: %llc -load %plugin -O1 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=PIPE
;; RUN: %llc --load-pass-plugin=%plugin -O0 -mcpu=sm_90 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=NOPIPE
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mcpu=sm_90 -cssa-coalesce=0 %s -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=NOPIPE
;; RUN: %llc --load-pass-plugin=%plugin -O3 -mtriple=x86_64-unknown-linux-gnu /dev/null -o /dev/null -debug-pass=Structure 2>&1 | FileCheck %s --check-prefix=NOPIPE
;; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cssa -print-pipeline-passes %s -disable-output | FileCheck %s --check-prefix=NAME

; PIPE:     CodeGen Prepare
; PIPE-NOT: NVPTX DAG->DAG Pattern Instruction Selection
; PIPE:     PHI-operand (CSSA) coalescing (nvopt)
; PIPE:     NVPTX DAG->DAG Pattern Instruction Selection
; NOPIPE-NOT: PHI-operand (CSSA) coalescing (nvopt)
; NAME: function(nv-cssa)

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr addrspace(1) %out) {
  store i32 0, ptr addrspace(1) %out
  ret void
}
