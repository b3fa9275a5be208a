;; nv-ipmsp (src/opt/ipmsp): a generic pointer parameter that every call site passes in one space
;; (through GEPs, casts, PHIs and selects; kernel parameters count as global, allocas as local)
;; gets a cast pair at the callee's entry, and the pass's own infer-address-spaces run turns its
;; accesses into that space; the space propagates to the callee's callees and, through returns,
;; to the callers' uses of a call's result. Refused: an address-taken callee, a parameter one of
;; whose actuals comes from memory. With -do-ip-msp=0 the pass does nothing.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -verify-each -S %s \
; RUN:   -pass-remarks=nv-ipmsp -pass-remarks-missed=nv-ipmsp -nv-stats -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.err
; RUN: FileCheck %s --check-prefix=STATS < %t.err
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -do-ip-msp=0 -S %s -o - | FileCheck %s --check-prefix=OFF
; RUN: sed 's/nvptx64-nvidia-cuda/x86_64-unknown-linux-gnu/' %s \
; RUN:   | %opt -load-pass-plugin=%plugin -passes=nv-ipmsp -S -o - | FileCheck %s --check-prefix=OFF
; A second run finds the pairs of the first and adds nothing.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp,nv-ipmsp -S %s -o - | FileCheck %s --check-prefix=TWICE
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-ipmsp %s -o - | %llc -mcpu=sm_90 -O3 -o - | FileCheck %s --check-prefix=PTX
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@a = internal addrspace(3) global [64 x i32] undef, align 4
@b = internal addrspace(3) global [64 x i32] undef, align 4
@fp = internal addrspace(1) global ptr null

;; `this` of two shared objects, from two call sites (one a constant expression, one a select
;; of two shared objects): shared; its callee @leaf receives a GEP of it: shared too.
; CHECK-LABEL: define internal void @add(
; CHECK-NEXT: %this.as3 = addrspacecast ptr %this to ptr addrspace(3)
; CHECK: load i32, ptr addrspace(3)
; CHECK: store i32 %n, ptr addrspace(3)
; OFF-LABEL: define internal void @add(
; OFF-NOT: addrspace(3)
; OFF: ret void
; PTX-LABEL: .func add(
; PTX: ld.shared.b32
; PTX: st.shared.b32
define internal void @add(ptr %this, i32 %v) noinline {
  %p = getelementptr i32, ptr %this, i32 %v
  %old = load i32, ptr %p
  %n = add i32 %old, 1
  store i32 %n, ptr %p
  call void @leaf(ptr %p)
  ret void
}

; TWICE-LABEL: define internal void @add(
; TWICE-NEXT: %this.as3 = addrspacecast ptr %this to ptr addrspace(3)
; TWICE-NEXT: getelementptr
; TWICE-LABEL: define ptx_kernel void @k(
; TWICE: %x = call ptr @pick(
; TWICE-NEXT: %x.as1 = addrspacecast ptr %x to ptr addrspace(1)
; TWICE-NEXT: store i32 1, ptr addrspace(1) %x.as1

; CHECK-LABEL: define internal void @leaf(
; CHECK-NEXT: %q.as3 = addrspacecast ptr %q to ptr addrspace(3)
; CHECK-NEXT: store i32 0, ptr addrspace(3) %q.as3
; PTX-LABEL: .func leaf(
; PTX: st.shared.b32
define internal void @leaf(ptr %q) noinline {
  store i32 0, ptr %q
  ret void
}

;; A kernel's pointer parameter is global; the returned GEP of it too, so the kernel's store
;; through the call's result becomes a global store.
; CHECK-LABEL: define internal ptr @pick(
; CHECK-NEXT: %a.as1 = addrspacecast ptr %a to ptr addrspace(1)
; PTX-LABEL: .func  (.param .b64 func_retval0) pick(
define internal ptr @pick(ptr %a, i32 %i) noinline {
  %r = getelementptr i32, ptr %a, i32 %i
  ret ptr %r
}

;; A private object (alloca) is local; a PHI of two of them too.
; CHECK-LABEL: define internal void @bump(
; CHECK-NEXT: %s.as5 = addrspacecast ptr %s to ptr addrspace(5)
; PTX-LABEL: .func bump(
; PTX: ld.local.b32
define internal void @bump(ptr %s) noinline {
  %x = load i32, ptr %s
  %y = add i32 %x, 1
  store i32 %y, ptr %s
  ret void
}

;; Not a candidate: a byval parameter points to the callee's own copy.
; CHECK-LABEL: define internal void @copy(
; CHECK-NEXT: store i32 0, ptr %q
define internal void @copy(ptr byval(i32) %q) noinline {
  store i32 0, ptr %q
  ret void
}

;; Refused: its address is stored, so not every caller is in view.
; CHECK-LABEL: define internal void @taken(
; CHECK-NEXT: store i32 0, ptr %q
define internal void @taken(ptr %q) noinline {
  store i32 0, ptr %q
  ret void
}

;; Refused: one actual is a pointer loaded from memory.
; CHECK-LABEL: define internal void @unknown(
; CHECK-NEXT: store i32 0, ptr %q
define internal void @unknown(ptr %q) noinline {
  store i32 0, ptr %q
  ret void
}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %x.as1 = addrspacecast ptr %x to ptr addrspace(1)
; CHECK: store i32 1, ptr addrspace(1) %x.as1
; PTX-LABEL: .entry k(
; PTX: st.global.b32
define ptx_kernel void @k(ptr %out, i32 %i, i1 %c, ptr addrspace(1) %pp) {
entry:
  %priv0 = alloca i32, align 4
  %priv1 = alloca i32, align 4
  call void @add(ptr addrspacecast (ptr addrspace(3) @a to ptr), i32 %i)
  %sel = select i1 %c, ptr addrspacecast (ptr addrspace(3) @a to ptr), ptr addrspacecast (ptr addrspace(3) @b to ptr)
  call void @add(ptr %sel, i32 %i)
  %x = call ptr @pick(ptr %out, i32 %i)
  store i32 1, ptr %x
  br i1 %c, label %then, label %join
then:
  br label %join
join:
  %priv = phi ptr [ %priv0, %entry ], [ %priv1, %then ]
  call void @bump(ptr %priv)
  store ptr @taken, ptr addrspace(1) @fp
  call void @taken(ptr %out)
  call void @copy(ptr byval(i32) %out)
  %l = load ptr, ptr addrspace(1) %pp
  call void @unknown(ptr %l)
  call void @unknown(ptr %out)
  ret void
}

; REMARK-DAG: remark: {{.*}} add: parameter %this is shared at every call site: accessed in that space
; REMARK-DAG: remark: {{.*}} leaf: parameter %q is shared at every call site: accessed in that space
; REMARK-DAG: remark: {{.*}} pick: parameter %a is global at every call site: accessed in that space
; REMARK-DAG: remark: {{.*}} pick: returns a global pointer: its callers access the result in that space
; REMARK-DAG: remark: {{.*}} bump: parameter %s is local at every call site: accessed in that space
; REMARK-DAG: remark: {{.*}} taken: pointer parameters left generic: its address is taken, so not every caller is in view
; REMARK-DAG: remark: {{.*}} unknown: parameter %q left generic: a call in @k passes a pointer of no provable space

; STATS-DAG: 1 nv-ipmsp - function returns specialized
; STATS-DAG: 4 nv-ipmsp - pointer parameters specialized
; STATS-DAG: 1 nv-ipmsp - refused: address taken
; STATS-DAG: 1 nv-ipmsp - refused: unknown actual
