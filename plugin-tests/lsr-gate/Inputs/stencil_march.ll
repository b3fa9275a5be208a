target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite)
define dso_local ptx_kernel void @stencil3d_march(ptr noalias noundef readonly captures(none) %0, ptr noalias noundef writeonly captures(none) %1, i32 noundef %2, i32 noundef %3, i32 noundef %4, float noundef %5, float noundef %6) local_unnamed_addr #0 {
  %8 = addrspacecast ptr %0 to ptr addrspace(1)
  %9 = addrspacecast ptr %1 to ptr addrspace(1)
  %10 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %11 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %12 = mul i32 %10, %11
  %13 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %14 = add i32 %12, %13
  %15 = tail call noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %16 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %17 = mul nuw nsw i32 %15, %16
  %18 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %19 = add nuw nsw i32 %17, %18
  %20 = icmp slt i32 %14, 1
  %21 = icmp eq i32 %19, 0
  %or.cond = or i1 %20, %21
  %22 = add nsw i32 %2, -1
  %23 = icmp sge i32 %14, %22
  %or.cond5 = select i1 %or.cond, i1 true, i1 %23
  %24 = add nsw i32 %3, -1
  %25 = icmp sge i32 %19, %24
  %or.cond7 = select i1 %or.cond5, i1 true, i1 %25
  %or.cond7.not = xor i1 %or.cond7, true
  %26 = icmp sgt i32 %4, 2
  %or.cond20 = and i1 %or.cond7.not, %26
  br i1 %or.cond20, label %.lr.ph, label %.loopexit

.lr.ph:                                           ; preds = %7
  %27 = sext i32 %2 to i64
  %28 = sext i32 %3 to i64
  %29 = mul nsw i64 %28, %27
  %30 = zext nneg i32 %19 to i64
  %31 = mul nsw i64 %27, %30
  %32 = zext nneg i32 %14 to i64
  %33 = add nsw i64 %31, %32
  %34 = getelementptr float, ptr addrspace(1) %8, i64 %33
  %35 = getelementptr float, ptr addrspace(1) %34, i64 %29
  %36 = load float, ptr addrspace(1) %35, align 4, !tbaa !8
  %37 = load float, ptr addrspace(1) %34, align 4, !tbaa !8
  %38 = icmp eq i32 %4, 3
  br i1 %38, label %.epil.preheader, label %.lr.ph.new

.lr.ph.new:                                       ; preds = %.lr.ph
  %39 = and i32 %4, 2147483646
  %40 = add nsw i32 %39, -4
  br label %41

41:                                               ; preds = %41, %.lr.ph.new
  %.012 = phi i32 [ 1, %.lr.ph.new ], [ %91, %41 ]
  %.0111 = phi float [ %36, %.lr.ph.new ], [ %72, %41 ]
  %.0210 = phi float [ %37, %.lr.ph.new ], [ %47, %41 ]
  %niter = phi i32 [ 0, %.lr.ph.new ], [ %niter.next.1, %41 ]
  %42 = zext nneg i32 %.012 to i64
  %43 = mul nsw i64 %29, %42
  %44 = add nsw i64 %43, %33
  %45 = getelementptr float, ptr addrspace(1) %8, i64 %44
  %46 = getelementptr float, ptr addrspace(1) %45, i64 %29
  %47 = load float, ptr addrspace(1) %46, align 4, !tbaa !8
  %48 = fmul contract float %5, %.0111
  %49 = getelementptr i8, ptr addrspace(1) %45, i64 -4
  %50 = load float, ptr addrspace(1) %49, align 4, !tbaa !8
  %51 = getelementptr i8, ptr addrspace(1) %45, i64 4
  %52 = load float, ptr addrspace(1) %51, align 4, !tbaa !8
  %53 = fadd contract float %50, %52
  %54 = sub nsw i64 %44, %27
  %55 = getelementptr inbounds float, ptr addrspace(1) %8, i64 %54
  %56 = load float, ptr addrspace(1) %55, align 4, !tbaa !8
  %57 = fadd contract float %53, %56
  %58 = getelementptr float, ptr addrspace(1) %45, i64 %27
  %59 = load float, ptr addrspace(1) %58, align 4, !tbaa !8
  %60 = fadd contract float %57, %59
  %61 = fadd contract float %.0210, %60
  %62 = fadd contract float %47, %61
  %63 = fmul contract float %6, %62
  %64 = fadd contract float %48, %63
  %65 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %44
  store float %64, ptr addrspace(1) %65, align 4, !tbaa !8
  %66 = add nuw nsw i32 %.012, 1
  %67 = zext nneg i32 %66 to i64
  %68 = mul nsw i64 %29, %67
  %69 = add nsw i64 %68, %33
  %70 = getelementptr float, ptr addrspace(1) %8, i64 %69
  %71 = getelementptr float, ptr addrspace(1) %70, i64 %29
  %72 = load float, ptr addrspace(1) %71, align 4, !tbaa !8
  %73 = fmul contract float %5, %47
  %74 = getelementptr i8, ptr addrspace(1) %70, i64 -4
  %75 = load float, ptr addrspace(1) %74, align 4, !tbaa !8
  %76 = getelementptr i8, ptr addrspace(1) %70, i64 4
  %77 = load float, ptr addrspace(1) %76, align 4, !tbaa !8
  %78 = fadd contract float %75, %77
  %79 = sub nsw i64 %69, %27
  %80 = getelementptr inbounds float, ptr addrspace(1) %8, i64 %79
  %81 = load float, ptr addrspace(1) %80, align 4, !tbaa !8
  %82 = fadd contract float %78, %81
  %83 = getelementptr float, ptr addrspace(1) %70, i64 %27
  %84 = load float, ptr addrspace(1) %83, align 4, !tbaa !8
  %85 = fadd contract float %82, %84
  %86 = fadd contract float %.0111, %85
  %87 = fadd contract float %72, %86
  %88 = fmul contract float %6, %87
  %89 = fadd contract float %73, %88
  %90 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %69
  store float %89, ptr addrspace(1) %90, align 4, !tbaa !8
  %91 = add nuw nsw i32 %.012, 2
  %niter.next.1 = add nuw i32 %niter, 2
  %niter.ncmp.1.not = icmp eq i32 %niter, %40
  br i1 %niter.ncmp.1.not, label %.loopexit.loopexit.unr-lcssa, label %41, !llvm.loop !10

.loopexit.loopexit.unr-lcssa:                     ; preds = %41
  %xtraiter = and i32 %4, 1
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %.loopexit, label %.epil.preheader

.epil.preheader:                                  ; preds = %.loopexit.loopexit.unr-lcssa, %.lr.ph
  %.012.epil.init = phi i32 [ 1, %.lr.ph ], [ %91, %.loopexit.loopexit.unr-lcssa ]
  %.0111.epil.init = phi float [ %36, %.lr.ph ], [ %72, %.loopexit.loopexit.unr-lcssa ]
  %.0210.epil.init = phi float [ %37, %.lr.ph ], [ %47, %.loopexit.loopexit.unr-lcssa ]
  %92 = zext nneg i32 %.012.epil.init to i64
  %93 = mul nsw i64 %29, %92
  %94 = add nsw i64 %93, %33
  %95 = getelementptr float, ptr addrspace(1) %8, i64 %94
  %96 = getelementptr float, ptr addrspace(1) %95, i64 %29
  %97 = load float, ptr addrspace(1) %96, align 4, !tbaa !8
  %98 = fmul contract float %5, %.0111.epil.init
  %99 = getelementptr i8, ptr addrspace(1) %95, i64 -4
  %100 = load float, ptr addrspace(1) %99, align 4, !tbaa !8
  %101 = getelementptr i8, ptr addrspace(1) %95, i64 4
  %102 = load float, ptr addrspace(1) %101, align 4, !tbaa !8
  %103 = fadd contract float %100, %102
  %104 = sub nsw i64 %94, %27
  %105 = getelementptr inbounds float, ptr addrspace(1) %8, i64 %104
  %106 = load float, ptr addrspace(1) %105, align 4, !tbaa !8
  %107 = fadd contract float %103, %106
  %108 = getelementptr float, ptr addrspace(1) %95, i64 %27
  %109 = load float, ptr addrspace(1) %108, align 4, !tbaa !8
  %110 = fadd contract float %107, %109
  %111 = fadd contract float %.0210.epil.init, %110
  %112 = fadd contract float %97, %111
  %113 = fmul contract float %6, %112
  %114 = fadd contract float %98, %113
  %115 = getelementptr inbounds float, ptr addrspace(1) %9, i64 %94
  store float %114, ptr addrspace(1) %115, align 4, !tbaa !8
  br label %.loopexit

.loopexit:                                        ; preds = %.epil.preheader, %.loopexit.loopexit.unr-lcssa, %7
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx42,+ptx80,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C++ TBAA"}
!8 = !{!9, !9, i64 0}
!9 = !{!"float", !6, i64 0}
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.mustprogress"}
