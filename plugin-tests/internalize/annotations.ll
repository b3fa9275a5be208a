;; A kernel marked the older way (`!nvvm.annotations` "kernel", no ptx_kernel calling
;; convention): LLVM 22 upgrades it to ptx_kernel when it reads the IR, so nv-internalize keeps it
;; visible; the device function beside it is internalized.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -S %s | FileCheck %s

target triple = "nvptx64-nvidia-cuda"

; CHECK-DAG: define ptx_kernel void @old_kernel()
; CHECK-DAG: define internal void @device_fn()
define void @old_kernel() {
  call void @device_fn()
  ret void
}

define void @device_fn() {
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @old_kernel, !"kernel", i32 1}
