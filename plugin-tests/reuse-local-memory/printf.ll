; nv-reuse-local-memory (src/opt/reuse_local_memory.rs), in the nv:reuse-local-memory slot: each
; private buffer that only stores feed before its one vprintf call, in the call's block, gets
; llvm.lifetime.start before its first store and llvm.lifetime.end after the call, so llc's
; stack coloring gives @k's three printf buffers (12, 4 and 8 bytes) one 16-byte stretch of
; local memory instead of 32 bytes (nvcc's PTX has one 16-byte buffer too). @loaded's buffer is
; also loaded from, and @two_calls' is passed to two calls: both are left alone.
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-reuse-local-memory -nv-stats %s -S -o - 2>%t.stats | FileCheck %s
; RUN: FileCheck %s --check-prefix=STATS < %t.stats
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-reuse-local-memory %s -o %t.bc
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin %t.bc -o - | FileCheck %s --check-prefix=FRAME
; RUN: %llc -O3 -mcpu=sm_90 -load %plugin %s -o - | FileCheck %s --check-prefix=UNMARKED
; RUN: %opt -load-pass-plugin=%plugin -passes=nv-reuse-local-memory -nv-disable-reuse-local-memory %s -S -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %opt -load-pass-plugin=%plugin '-passes=nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin '-passes=nvopt<O3>' -lsa-opt=0 -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=NOLSA
; RUN: %if ptxas %{ %llc -O3 -mcpu=sm_90 -load %plugin %t.bc -o %t.ptx && %ptxas -arch=sm_90 %t.ptx -o /dev/null %}

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: call void @llvm.lifetime.start.p0(ptr %a)
; CHECK-NEXT: store i32 %x, ptr addrspace(5) %a.l
; CHECK: call i32 @vprintf({{.*}}, ptr %a)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(ptr %a)
; CHECK: call void @llvm.lifetime.start.p0(ptr %b)
; CHECK: call i32 @vprintf({{.*}}, ptr %b)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(ptr %b)
; CHECK: call void @llvm.lifetime.start.p0(ptr %c)
; CHECK: call i32 @vprintf({{.*}}, ptr %c)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(ptr %c)
; CHECK-LABEL: define ptx_kernel void @loaded(
; CHECK-NOT: lifetime
; CHECK-LABEL: define ptx_kernel void @two_calls(
; CHECK-NOT: lifetime
; CHECK-LABEL: declare

; STATS-DAG: 3 nv-reuse-local-memory {{.*}}vprintf buffers given a lifetime
; STATS-DAG: 1 nv-reuse-local-memory {{.*}}a use other than stores and one vprintf
; STATS-DAG: 1 nv-reuse-local-memory {{.*}}not exactly one vprintf call

; FRAME-LABEL: .entry k(
; FRAME: .local .align 8 .b8 __local_depot0[16];
; UNMARKED-LABEL: .entry k(
; UNMARKED: .local .align 8 .b8 __local_depot0[32];

; OFF-NOT: lifetime

; PIPE: function(nv-dbe),constmerge,nv-set-global-array-alignment,function(nv-reuse-local-memory,nv-set-local-array-alignment
; NOLSA-NOT: nv-reuse-local-memory

target triple = "nvptx64-nvidia-cuda"

%args3 = type { i32, i32, i32 }
%args1 = type { i32 }
%args2 = type { i32, i32 }

@fmt = internal addrspace(1) constant [4 x i8] c"%d\0A\00"

define ptx_kernel void @k(i32 %x, i32 %y, i1 %c1) {
entry:
  %a = alloca %args3, align 8
  %a.l = addrspacecast ptr %a to ptr addrspace(5)
  %b = alloca %args1, align 8
  %b.l = addrspacecast ptr %b to ptr addrspace(5)
  %c = alloca %args2, align 8
  %c.l = addrspacecast ptr %c to ptr addrspace(5)
  store i32 %x, ptr addrspace(5) %a.l, align 4
  %a1 = getelementptr inbounds i8, ptr addrspace(5) %a.l, i64 4
  store i32 %y, ptr addrspace(5) %a1, align 4
  %a2 = getelementptr inbounds i8, ptr addrspace(5) %a.l, i64 8
  store i32 7, ptr addrspace(5) %a2, align 4
  %r0 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %a)
  store i32 %y, ptr addrspace(5) %b.l, align 4
  %r1 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %b)
  br i1 %c1, label %then, label %done

then:
  store i32 %x, ptr addrspace(5) %c.l, align 4
  %c1p = getelementptr inbounds i8, ptr addrspace(5) %c.l, i64 4
  store i32 120, ptr addrspace(5) %c1p, align 4
  %r2 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %c)
  br label %done

done:
  ret void
}

define ptx_kernel void @loaded(i32 %x, ptr addrspace(1) %out) {
entry:
  %a = alloca %args1, align 8
  %a.l = addrspacecast ptr %a to ptr addrspace(5)
  store i32 %x, ptr addrspace(5) %a.l, align 4
  %r0 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %a)
  %v = load i32, ptr addrspace(5) %a.l, align 4
  store i32 %v, ptr addrspace(1) %out, align 4
  ret void
}

define ptx_kernel void @two_calls(i32 %x) {
entry:
  %a = alloca %args1, align 8
  %a.l = addrspacecast ptr %a to ptr addrspace(5)
  store i32 %x, ptr addrspace(5) %a.l, align 4
  %r0 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %a)
  %r1 = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %a)
  ret void
}

declare i32 @vprintf(ptr, ptr)
