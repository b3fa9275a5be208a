; ignore-bad-base (default true, as in cicc): with it off, an address whose base pointer does not
; trace back through GEPs and casts to an argument, global, alloca or allocation (here a pointer
; loaded from memory; the load of it, off an argument, keeps its record) gets no record, so CBE leaves it alone; bases rooted at an argument are
; still rewritten. (What cicc's check is exactly is not known; this is nvopt's reading.)
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -dump-scev-cgp=1 -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DEFAULT
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-cbe -ignore-bad-base=0 -dump-scev-cgp=1 -verify-each \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=CHECKED
; DEFAULT: scev-cgp: loaded_base: 5 accesses, 3 bases, 3 rewrites, largest group 4
; DEFAULT: scev-cgp: argument_base: 4 accesses, {{[0-9]+}} bases, 3 rewrites
; CHECKED: scev-cgp: loaded_base: 1 accesses, 1 bases, 0 rewrites, largest group 1
; CHECKED: scev-cgp: argument_base: 4 accesses, {{[0-9]+}} bases, 3 rewrites

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @loaded_base(ptr addrspace(1) %pp, i64 %i) {
  %p = load ptr addrspace(1), ptr addrspace(1) %pp
  %q = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 0.0, ptr addrspace(1) %q
  %q1 = getelementptr i8, ptr addrspace(1) %q, i64 4
  store float 1.0, ptr addrspace(1) %q1
  %q2 = getelementptr i8, ptr addrspace(1) %q, i64 8
  store float 2.0, ptr addrspace(1) %q2
  %q3 = getelementptr i8, ptr addrspace(1) %q, i64 12
  store float 3.0, ptr addrspace(1) %q3
  ret void
}

define ptx_kernel void @argument_base(ptr addrspace(1) %p, i64 %i) {
  %q = getelementptr float, ptr addrspace(1) %p, i64 %i
  store float 0.0, ptr addrspace(1) %q
  %q1 = getelementptr i8, ptr addrspace(1) %q, i64 4
  store float 1.0, ptr addrspace(1) %q1
  %q2 = getelementptr i8, ptr addrspace(1) %q, i64 8
  store float 2.0, ptr addrspace(1) %q2
  %q3 = getelementptr i8, ptr addrspace(1) %q, i64 12
  store float 3.0, ptr addrspace(1) %q3
  ret void
}
