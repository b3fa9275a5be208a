; nv-hoist-common-insts (off by default): the simplifycfg after adce (O1-O3) hoists
; instructions common to both successors of a branch, as upstream's simplifycfg at that place
; does; cicc 13.5's table runs it with no-hoist-common-insts (src/pipeline/levels.rs). Off by
; default because it costs registers on CUB's reduce and scan kernels (docs/DEPARTURES.md).
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -S %s | FileCheck %s --check-prefix=CICC
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-hoist-common-insts -S %s \
; RUN:   | FileCheck %s --check-prefix=HOIST
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O1>' -nv-hoist-common-insts -S %s \
; RUN:   | FileCheck %s --check-prefix=HOIST
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-hoist-common-insts \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=PIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -print-pipeline-passes -disable-output %s \
; RUN:   | FileCheck %s --check-prefix=NOPIPE
; RUN: %opt -load-pass-plugin=%plugin -passes='nvopt<O3>' -nv-sink-common-insts \
; RUN:   -print-pipeline-passes -disable-output %s | FileCheck %s --check-prefix=SINK

; HOIST-LABEL: define ptx_kernel void @k(
; HOIST: entry:
; HOIST: %base.a = load i64, ptr addrspace(1)
; HOIST: br i1 %c, label %a, label %b
; HOIST: a:
; HOIST-NOT: load
; HOIST: b:
; HOIST-NOT: load
; HOIST: ret void

; CICC-LABEL: define ptx_kernel void @k(
; CICC: entry:
; CICC-NOT: load
; CICC: a:
; CICC: %base.a = load i64
; CICC: b:
; CICC: %base.b = load i64

; With the switch, one simplifycfg of the O3 function pipeline hoists; without, none does.
; PIPE: ;keep-loops;hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;no-sink-common-insts;
; PIPE-NOT: ;keep-loops;hoist-common-insts;
; NOPIPE-NOT: ;keep-loops;hoist-common-insts;
; SINK: ;keep-loops;no-hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;sink-common-insts;

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k(ptr readonly %in, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = icmp ult i32 %tid, %n
  br i1 %c, label %a, label %b

a:
  %base.a = load i64, ptr %in, align 8
  %p.a = inttoptr i64 %base.a to ptr
  %q.a = getelementptr inbounds float, ptr %p.a, i32 %tid
  store float 1.0, ptr %q.a, align 4
  br label %end

b:
  %base.b = load i64, ptr %in, align 8
  %p.b = inttoptr i64 %base.b to ptr
  store float 2.0, ptr %p.b, align 4
  br label %end

end:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
