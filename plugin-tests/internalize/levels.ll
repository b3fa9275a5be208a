;; Whole-program mode in the nvopt<LEVEL> pipelines: the nv:internalize slot runs first at every
;; optimizing level (O1-O3, Ofcmax, Ofcmid, Ofcmin), not at O0, not with -nv-rdc, and the pass
;; leaves modules of other targets alone. A noinline device helper becomes internal, which the
;; PTX shows as `.func` instead of `.visible .func`; an unreferenced weak_odr datum disappears;
;; the kernel and the __device__ variable stay visible.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O0>' -S %s | FileCheck %s --check-prefix=KEPT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O2>' -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -verify-each -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmax>' -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmid>' -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<Ofcmin>' -S %s | FileCheck %s --check-prefix=WPM
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc -S %s | FileCheck %s --check-prefix=KEPT
; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s > %t.x86.ll
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-internalize -S %t.x86.ll | FileCheck %s --check-prefix=KEPT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -S %t.x86.ll 2>/dev/null | FileCheck %s --check-prefix=KEPT
; The slot report and the pipeline text.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-print-pipeline-slots -disable-output %s 2>&1 | FileCheck %s --check-prefix=SLOT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc -nv-print-pipeline-slots -disable-output %s 2>&1 | FileCheck %s --check-prefix=SLOT-RDC
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=TEXT
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O0>' -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=TEXT-O0
; The PTX of nvopt<O3> and llc with the plugin.
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' %s -o %t.bc
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 %t.bc -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-rdc %s -o %t.rdc.bc
; RUN: %llc --load-pass-plugin=%plugin -mcpu=sm_90 -O3 %t.rdc.bc -o - | FileCheck %s --check-prefix=PTX-RDC

target triple = "nvptx64-nvidia-cuda"

@dvar = addrspace(1) externally_initialized global float 0.0, align 4
@spare = weak_odr addrspace(1) global i32 1, align 4
@llvm.compiler.used = appending global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @dvar to ptr)], section "llvm.metadata"

define float @helper(ptr addrspace(1) %p) noinline {
  %x = load float, ptr addrspace(1) %p
  %y = fmul float %x, 2.0
  ret float %y
}

define ptx_kernel void @k(ptr addrspace(1) %out) {
  %a = call float @helper(ptr addrspace(1) %out)
  store float %a, ptr addrspace(1) @dvar
  ret void
}

; WPM-NOT: @spare
; WPM-DAG: @dvar = {{.*}}externally_initialized global
; WPM-DAG: define internal {{.*}}@helper(
; WPM-DAG: define ptx_kernel void @k(

; KEPT-DAG: @spare = weak_odr {{.*}}global i32 1
; KEPT-DAG: @dvar = {{.*}}externally_initialized global
; KEPT-DAG: define {{(noundef )?}}float @helper(
; KEPT-DAG: define ptx_kernel void @k(

; SLOT: 5 require {{ *}}runs require<assumptions>
; SLOT-NEXT: 6 nv:internalize{{ *}}runs nv-internalize
; SLOT-RDC: 6 nv:internalize{{ *}}off (!nv-rdc)

; TEXT: require<assumptions>),nv-internalize,nv-asm-convergence,forceattrs,
; TEXT-O0-NOT: nv-internalize

; PTX-NOT: spare
; PTX: .visible .global .align 4 .f32 dvar
; PTX-NOT: .visible .func
; PTX: .func {{.*}}helper
; PTX: .visible .entry k(

; PTX-RDC: .weak .global .align 4 .u32 spare
; PTX-RDC: .visible .func {{.*}}helper
