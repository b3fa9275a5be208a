;; nv-ipmsp cloning: where every call site of an internal function passes a pointer of a known
;; space but not all the same, the call sites are grouped by space; the function keeps the
;; first group and each further group gets a clone (@f.asK) its call sites are redirected to;
;; the next round then specializes (or clones) the callees of each copy. nv-ipmsp-max-clones
;; bounds the clones made from one function: 0 keeps such a parameter generic ("mixed spaces"),
;; a limit below the groups' count too ("clone limit").
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -verify-each -S %s \
; RUN:   -pass-remarks=nv-ipmsp -pass-remarks-missed=nv-ipmsp -nv-stats -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: FileCheck %s --check-prefix=STATS < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -nv-ipmsp-max-clones=0 -S %s \
; RUN:   -pass-remarks-missed=nv-ipmsp -nv-stats -o - 2>%t0.err | FileCheck %s --check-prefix=NOCLONE
; RUN: FileCheck %s --check-prefix=NOCLONE-REMARK < %t0.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -nv-ipmsp-max-clones=1 -S %s \
; RUN:   -pass-remarks-missed=nv-ipmsp -nv-stats -o - 2>%t1.err | FileCheck %s --check-prefix=LIMIT
; RUN: FileCheck %s --check-prefix=LIMIT-REMARK < %t1.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp %s -o - | %llc -mcpu=sm_90 -O3 -o - | FileCheck %s --check-prefix=PTX
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s = internal addrspace(3) global [64 x float] undef, align 4

;; @scale is called on the shared object and on the kernel's (global) buffer: the shared
;; caller keeps @scale, the global one calls @scale.as1; @store_one, called by @scale with its
;; pointer, is then cloned the same way.
; CHECK-LABEL: define internal void @scale(
; CHECK-NEXT: %p.as3 = addrspacecast ptr %p to ptr addrspace(3)
; CHECK: call void @store_one(
; CHECK-LABEL: define internal void @store_one(
; CHECK-NEXT: %q.as3 = addrspacecast ptr %q to ptr addrspace(3)
; NOCLONE-LABEL: define internal void @scale(
; NOCLONE-NEXT: getelementptr float, ptr %p
define internal void @scale(ptr %p, i32 %i, float %f) noinline {
  %a = getelementptr float, ptr %p, i32 %i
  %x = load float, ptr %a
  %y = fmul float %x, %f
  call void @store_one(ptr %a, float %y)
  ret void
}

define internal void @store_one(ptr %q, float %v) noinline {
  store float %v, ptr %q
  ret void
}

;; Three spaces (shared, global, local): two clones.
; LIMIT-LABEL: define internal void @three(
; LIMIT-NEXT: store float 0.000000e+00, ptr %q
define internal void @three(ptr %q) noinline {
  store float 0.0, ptr %q
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @scale(ptr addrspacecast (ptr addrspace(3) @s to ptr)
; CHECK: call void @scale.as1(ptr %out
; CHECK: call void @three(ptr addrspacecast (ptr addrspace(3) @s to ptr))
; CHECK: call void @three.as1(ptr %out)
; CHECK: call void @three.as5(ptr %priv)
define ptx_kernel void @k(ptr %out, i32 %i) {
  %priv = alloca float, align 4
  call void @scale(ptr addrspacecast (ptr addrspace(3) @s to ptr), i32 %i, float 2.0)
  call void @scale(ptr %out, i32 %i, float 3.0)
  call void @three(ptr addrspacecast (ptr addrspace(3) @s to ptr))
  call void @three(ptr %out)
  call void @three(ptr %priv)
  %v = load float, ptr %priv
  store float %v, ptr %out
  ret void
}

; CHECK-LABEL: define internal void @scale.as1(
; CHECK-NEXT: %p.as1 = addrspacecast ptr %p to ptr addrspace(1)
; CHECK: call void @store_one.as1(
; CHECK-LABEL: define internal void @three.as1(
; CHECK-LABEL: define internal void @three.as5(
; CHECK-LABEL: define internal void @store_one.as1(
; CHECK-NEXT: %q.as1 = addrspacecast ptr %q to ptr addrspace(1)

;; (PTX spells a `.` in a name `_$_`.)
; PTX-LABEL: .func scale(
; PTX: ld.shared.b32
; PTX-LABEL: .func store_one(
; PTX: st.shared.b32
; PTX-LABEL: .func three(
; PTX: st.shared.b32
; PTX-LABEL: .entry k(
; PTX-LABEL: .func scale_$_as1(
; PTX: ld.global.b32
; PTX-LABEL: .func three_$_as1(
; PTX: st.global.b32
; PTX-LABEL: .func three_$_as5(
; PTX: st.local.b32
; PTX-LABEL: .func store_one_$_as1(
; PTX: st.global.b32

; REMARK-DAG: remark: {{.*}} scale: cloned as @scale.as1 for the 1 call site(s) passing global
; REMARK-DAG: remark: {{.*}} three: cloned as @three.as1 for the 1 call site(s) passing global
; REMARK-DAG: remark: {{.*}} three: cloned as @three.as5 for the 1 call site(s) passing local
; REMARK-DAG: remark: {{.*}} store_one: cloned as @store_one.as1 for the 1 call site(s) passing global
; STATS-DAG: 4 nv-ipmsp - clones made
; STATS-DAG: 7 nv-ipmsp - pointer parameters specialized

; NOCLONE-REMARK-DAG: remark: {{.*}} scale: parameter %p left generic: call sites pass different spaces and cloning is off (nv-ipmsp-max-clones=0)
; NOCLONE-REMARK-DAG: remark: {{.*}} store_one: parameter %q left generic: a call in @scale passes a pointer of no provable space
; LIMIT-REMARK-DAG: remark: {{.*}} three: parameter %q left generic: call sites pass different spaces and cloning would pass nv-ipmsp-max-clones=1 (0 made)
