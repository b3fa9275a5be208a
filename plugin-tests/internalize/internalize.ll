;; nv-internalize, nvcc's whole-program mode (src/opt/internalize.rs): non-kernel function
;; definitions become internal (their comdat dropped); unreferenced weak/linkonce device data
;; the host cannot name is deleted; kernels, declarations, what llvm.used/llvm.compiler.used
;; names, available_externally bodies, externally_initialized (__device__/__constant__) and
;; referenced data, and members of a comdat with a visible member stay as they are.
;; -nv-rdc (relocatable device code) keeps every linkage.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -S %s | FileCheck %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -verify-each -disable-output %s
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -nv-rdc -S %s | FileCheck %s --check-prefix=RDC
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -disable-output -nv-stats \
; RUN:   -pass-remarks=nv-internalize -pass-remarks-missed=nv-internalize %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=NAME

target triple = "nvptx64-nvidia-cuda"

$twice = comdat any
$spare.comdat = comdat any
$with.kernel = comdat any

; Device data the host names (clang lists it in llvm.compiler.used and marks it
; externally_initialized): kept.
; CHECK-DAG: @dvar = addrspace(1) externally_initialized global i32 0
; CHECK-DAG: @cvar = addrspace(4) externally_initialized constant [4 x float] zeroinitializer
@dvar = addrspace(1) externally_initialized global i32 0, align 4
@cvar = addrspace(4) externally_initialized constant [4 x float] zeroinitializer, align 4
; Weak/linkonce data: deleted when unreferenced and the host cannot name it.
; CHECK-NOT: @spare.weak =
; CHECK-NOT: @spare.linkonce =
; CHECK-NOT: @spare.comdat =
@spare.weak = weak_odr addrspace(1) global i32 1, align 4
@spare.linkonce = linkonce_odr addrspace(1) global i32 2, align 4
@spare.comdat = linkonce_odr addrspace(1) global i32 3, comdat, align 4
; CHECK-DAG: @counter = linkonce_odr addrspace(1) global i32 0
; CHECK-DAG: @tvar = linkonce_odr addrspace(1) externally_initialized global i32 1
; CHECK-DAG: @plain = addrspace(1) global i32 5
@counter = linkonce_odr addrspace(1) global i32 0, align 4
@tvar = linkonce_odr addrspace(1) externally_initialized global i32 1, align 4
@plain = addrspace(1) global i32 5, align 4
@llvm.compiler.used = appending global [2 x ptr] [ptr addrspacecast (ptr addrspace(1) @dvar to ptr), ptr addrspacecast (ptr addrspace(4) @cvar to ptr)], section "llvm.metadata"
@llvm.used = appending global [1 x ptr] [ptr @kept_used], section "llvm.metadata"

; CHECK-DAG: define internal float @helper(float %x)
define float @helper(float %x) {
  %y = fmul float %x, 2.0
  ret float %y
}

; CHECK-DAG: define internal i32 @twice(i32 %x) {
define linkonce_odr i32 @twice(i32 %x) comdat {
  %y = add i32 %x, %x
  %c = load i32, ptr addrspace(1) @counter
  %z = add i32 %y, %c
  ret i32 %z
}

; CHECK-DAG: define internal void @unused_weak()
define weak void @unused_weak() {
  ret void
}

; CHECK-DAG: define void @kept_used()
define void @kept_used() {
  ret void
}

; CHECK-DAG: define available_externally i32 @avail(i32 %x)
define available_externally i32 @avail(i32 %x) {
  ret i32 %x
}

; CHECK-DAG: define internal i32 @already_internal(i32 %x)
define internal i32 @already_internal(i32 %x) {
  ret i32 %x
}

; A device function in a comdat with a kernel: both stay.
; CHECK-DAG: define linkonce_odr void @in_kernel_comdat() comdat($with.kernel)
define linkonce_odr void @in_kernel_comdat() comdat($with.kernel) {
  ret void
}

; CHECK-DAG: declare i32 @vprintf(ptr, ptr)
declare i32 @vprintf(ptr, ptr)

; CHECK-DAG: define ptx_kernel void @k(ptr addrspace(1) %out)
define ptx_kernel void @k(ptr addrspace(1) %out) comdat($with.kernel) {
  %a = call float @helper(float 1.0)
  %b = call i32 @twice(i32 3)
  %c = call i32 @avail(i32 4)
  %d = call i32 @already_internal(i32 5)
  %p = call i32 @vprintf(ptr null, ptr null)
  store float %a, ptr addrspace(1) %out
  ret void
}

; RDC: @spare.weak = weak_odr addrspace(1) global i32 1
; RDC: @spare.linkonce = linkonce_odr addrspace(1) global i32 2
; RDC: define float @helper(float %x)
; RDC: define linkonce_odr i32 @twice(i32 %x) comdat {
; RDC: define weak void @unused_weak()

; REMARK-DAG: remark: <unknown>:0:0: helper internalized (external before): a device function of a whole-program compile
; REMARK-DAG: remark: <unknown>:0:0: twice internalized (linkonce_odr before): a device function of a whole-program compile
; REMARK-DAG: remark: <unknown>:0:0: unused_weak internalized (weak before): a device function of a whole-program compile
; REMARK-DAG: remark: <unknown>:0:0: spare.weak deleted: unreferenced weak_odr device data the host cannot name
; REMARK-DAG: remark: <unknown>:0:0: spare.linkonce deleted: unreferenced linkonce_odr device data the host cannot name
; REMARK-DAG: remark: <unknown>:0:0: kept_used kept visible: named by llvm.used or llvm.compiler.used
; REMARK-DAG: remark: <unknown>:0:0: avail kept: available_externally (a declaration with a body)
; REMARK-DAG: remark: <unknown>:0:0: in_kernel_comdat kept visible: its comdat holds a symbol that stays visible
; REMARK: nvopt statistics
; REMARK-DAG: 3 nv-internalize {{ *}}- device functions internalized
; REMARK-DAG: 1 nv-internalize {{ *}}- kernels kept visible
; REMARK-DAG: 3 nv-internalize {{ *}}- device functions kept visible (used, comdat, available_externally)
; REMARK-DAG: 3 nv-internalize {{ *}}- unreferenced weak/linkonce device data deleted
; REMARK-DAG: 1 nv-internalize {{ *}}- weak/linkonce device data kept (the host names it)
; REMARK-DAG: 1 nv-internalize {{ *}}- weak/linkonce device data kept (referenced or in a comdat)

; NAME: nv-internalize
