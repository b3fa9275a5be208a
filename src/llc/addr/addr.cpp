// ScalarEvolution for the address passes (the passes are src/llc/addr, in Rust; docs/CICC-FACTS.md
// "Address optimization"). LLVM's C API has no
// ScalarEvolution and no SCEVExpander, so Rust asks this file, per function and phase, for:
// a pointer's SCEV (nv-scev's expression, or for a load's or store's address the exact one of
// access_scev.cpp) encoded as a preorder array; the base expression Rust split off, built back
// with ScalarEvolution's builders; whether a base has an identified root; the facts BASR needs
// of each base (affine recurrence, its loop, size, an existing header PHI equal to it) and of
// pairs of bases (their difference: size, loop invariance, identity); and the code for a shared
// base (a new loop-carried pointer PHI or an expansion in the header) and a member's difference
// (expanded in the preheader). Also the pass plumbing: the new-PM passes `codegenpreparescev`,
// `nv-basr`, `nv-cbe`, `nv-scev-cgp` and the legacy `codegenpreparescev` that src/codegen.rs
// inserts after llc's CodeGenPrepare, which hand Rust the function and its analyses. Facts and
// mechanics only: what is an access, which bases share, where code goes and in what order the
// phases run is decided in Rust (src/llc/addr/pass.rs).
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm-c/Types.h"
#include "access_scev.h"
#include "boundary.h"
#include "register.h"
#include "scev.h"
#include "sreg_terms.h"
#include <cstdint>
#include <vector>

using namespace llvm;

namespace {

// The phase bits (NvAddrPhase: BASR, CBE, SCEV_CGP) are defined in src/llc/addr/mod.rs and
// generated into nvopt_boundary.h.

// The analyses of one function, handed to Rust as one opaque pointer.
struct Analyses {
  Function &F;
  ScalarEvolution &SE;
  LoopInfo &LI;
  DominatorTree &DT;
  OptimizationRemarkEmitter &ORE;
};

// One phase's SCEV work on one function.
class AddrScev {
public:
  AddrScev(Analyses &A, bool AssumeNsw)
      : NV(A.F, A.SE, A.LI, A.DT), SE(A.SE), F(A.F), Access(NV, AssumeNsw), Exp(A.SE, "nv.basr") {}

  // Ptr's expression, encoded into Flat (at most Limit nodes); null when there is none.
  const SCEV *pointer(Value *Ptr, bool Deref, size_t Limit) {
    const SCEV *P = Deref ? Access.address(Ptr) : NV.getSCEV(Ptr);
    Flat.clear();
    Nodes.clear();
    if (isa<SCEVCouldNotCompute>(P) || !encode(P, Limit))
      return nullptr;
    return P;
  }

  // Builds the expression Rust wrote in preorder; null when it cannot be built.
  const SCEV *build(const NvScevNode *R, size_t N) {
    size_t Pos = 0;
    const SCEV *B = buildAt(R, N, Pos);
    return Pos == N ? B : nullptr;
  }

  // Whether Base's pointer traces back (through GEPs and casts) to an argument, a global, an
  // alloca or an allocation.
  bool rooted(const SCEV *Base) {
    auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(Base));
    if (!U)
      return false;
    const Value *Root = getUnderlyingObject(U->getValue());
    return isa<Argument>(Root) || isa<GlobalValue>(Root) || isIdentifiedObject(Root);
  }

  // A base's loop (its affine pointer recurrence's, else null), size and existing header PHI.
  void baseFacts(const SCEV *B, const Loop **L, uint32_t *Size, PHINode **Phi) {
    auto *AR = dyn_cast<SCEVAddRecExpr>(B);
    bool Affine = AR && AR->isAffine() && B->getType()->isPointerTy();
    *L = Affine ? AR->getLoop() : nullptr;
    *Size = static_cast<uint32_t>(B->getExpressionSize());
    *Phi = Affine ? existingPhi(AR) : nullptr;
  }

  // The differences of the first Limit bases of each loop, pairwise (Loops[i]: base i's loop
  // number, -1 for none; LoopList: the loops by number).
  void pairs(const SCEV *const *Bases, const int32_t *Loops, size_t N, const Loop *const *LoopList,
             size_t Limit) {
    Pairs.clear();
    DenseMap<int32_t, SmallVector<uint32_t, 8>> PerLoop;
    for (uint32_t B = 0; B < N; ++B)
      if (Loops[B] >= 0 && PerLoop[Loops[B]].size() < Limit)
        PerLoop[Loops[B]].push_back(B);
    DenseMap<const SCEV *, uint32_t> DiffIds;
    for (auto &[LoopId, Bs] : PerLoop)
      for (size_t I = 0; I < Bs.size(); ++I)
        for (size_t J = I + 1; J < Bs.size(); ++J) {
          const SCEV *D = SE.getMinusSCEV(Bases[Bs[J]], Bases[Bs[I]]);
          if (isa<SCEVCouldNotCompute>(D))
            continue;
          bool Inv = SE.isLoopInvariant(D, LoopList[LoopId]);
          uint32_t Id = DiffIds.try_emplace(D, DiffIds.size()).first->second;
          Pairs.push_back({Bs[I], Bs[J], static_cast<uint32_t>(D->getExpressionSize()), Inv, Id});
        }
  }

  // The value a class of bases builds on, for the affine recurrence Leader of L: Leader +
  // Origin as a new loop-carried PHI (Phi) or expanded at the top of the header; Reuse when
  // Rust chose an existing PHI. Null when L is not in simplified form.
  Value *sharedBase(const Loop *L, const SCEV *Leader, int64_t Origin, bool NewPhi,
                    Value *Reuse) {
    BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch(), *H = L->getHeader();
    auto *AR = cast<SCEVAddRecExpr>(Leader);
    if (!Pre || !Latch)
      return nullptr;
    if (Reuse)
      return Reuse;
    Type *PtrTy = AR->getType(), *IntTy = F.getDataLayout().getIndexType(PtrTy);
    const SCEV *Off = SE.getConstant(IntTy, Origin, true);
    if (!NewPhi)
      return Exp.expandCodeFor(SE.getAddExpr(AR, Off), PtrTy, H->getFirstInsertionPt());
    Value *Start = Exp.expandCodeFor(SE.getAddExpr(AR->getStart(), Off), PtrTy, Pre->getTerminator());
    Value *Step = Exp.expandCodeFor(AR->getStepRecurrence(SE), IntTy, Pre->getTerminator());
    PHINode *Phi = PHINode::Create(PtrTy, 2, "nv.basr.base");
    Phi->insertBefore(H->begin());
    IRBuilder<> B(Latch->getTerminator());
    Value *Next = B.CreatePtrAdd(Phi, Step, "nv.basr.next");
    for (BasicBlock *Pred : predecessors(H))
      Phi->addIncoming(Pred == Latch ? Next : Start, Pred);
    return Phi;
  }

  // To - From, as an integer of On's index type expanded in L's preheader; null when
  // ScalarEvolution cannot compute it.
  Value *difference(const Loop *L, const SCEV *From, const SCEV *To, Value *On) {
    const SCEV *D = SE.getMinusSCEV(To, From);
    if (isa<SCEVCouldNotCompute>(D))
      return nullptr;
    return Exp.expandCodeFor(D, F.getDataLayout().getIndexType(On->getType()),
                             L->getLoopPreheader()->getTerminator());
  }

  SmallVector<NvScevNode, 64> Flat;
  std::vector<NvPair> Pairs;

private:
  nvopt::NVScev NV;
  ScalarEvolution &SE;
  Function &F;
  nvopt::AccessScev Access;
  nvopt::SregTerms Sregs;
  SCEVExpander Exp;
  SmallVector<const SCEV *, 64> Nodes;

  PHINode *existingPhi(const SCEVAddRecExpr *AR) {
    for (PHINode &P : AR->getLoop()->getHeader()->phis())
      if (P.getType() == AR->getType() && SE.isSCEVable(P.getType()) &&
          (SE.getSCEV(&P) == AR || Access.address(&P) == AR))
        return &P;
    return nullptr;
  }

  bool encode(const SCEV *X, size_t Limit) {
    if (Nodes.size() >= Limit)
      return false;
    NvScevNode N{};
    N.Bits = static_cast<uint32_t>(SE.getTypeSizeInBits(X->getType()));
    N.UMax = SE.getUnsignedRangeMax(X).getLimitedValue();
    N.Value = -1;
    ArrayRef<const SCEV *> Ops;
    if (auto *C = dyn_cast<SCEVConstant>(X)) {
      N.Kind = N.Bits <= 64 ? KConst : KOther;
      N.Value = N.Bits <= 64 ? C->getAPInt().getSExtValue() : 0;
    } else if (auto *U = dyn_cast<SCEVUnknown>(X)) {
      N.Kind = KUnknown;
      N.Value = Sregs.code(U->getValue());
    } else if (auto *NA = dyn_cast<SCEVNAryExpr>(X)) {
      N.Kind = isa<SCEVAddExpr>(X) ? KAdd : isa<SCEVMulExpr>(X) ? KMul : isa<SCEVAddRecExpr>(X) ? KAddRec : KOther;
      N.Flags = NA->hasNoUnsignedWrap() | NA->hasNoSignedWrap() << 1;
      if (N.Kind != KOther)
        Ops = NA->operands();
    } else if (isa<SCEVSignExtendExpr>(X) || isa<SCEVZeroExtendExpr>(X)) {
      N.Kind = isa<SCEVSignExtendExpr>(X) ? KSExt : KZExt;
      Ops = cast<SCEVCastExpr>(X)->operands();
    } else {
      N.Kind = KOther;
    }
    N.Arity = static_cast<uint32_t>(Ops.size());
    Flat.push_back(N);
    Nodes.push_back(X);
    for (const SCEV *Op : Ops)
      if (!encode(Op, Limit))
        return false;
    return true;
  }

  Type *intType(const SCEV *Of) { return SE.getEffectiveSCEVType(Of->getType()); }

  const SCEV *buildAt(const NvScevNode *R, size_t N, size_t &Pos) {
    if (Pos >= N)
      return nullptr;
    const NvScevNode &X = R[Pos++];
    auto node = [&](int64_t I) -> const SCEV * {
      return I >= 0 && static_cast<size_t>(I) < Nodes.size() ? Nodes[I] : nullptr;
    };
    SmallVector<const SCEV *, 4> Ops;
    for (uint32_t I = 0; I < X.Arity; ++I) {
      const SCEV *Op = buildAt(R, N, Pos);
      if (!Op)
        return nullptr;
      Ops.push_back(Op);
    }
    const SCEV *Ty = node(X.Ty);
    switch (X.Kind) {
    case KRef:
      return node(X.Value);
    case KConst:
      return Ty ? SE.getConstant(intType(Ty), X.Value, /*isSigned=*/true) : nullptr;
    case KAdd:
      return SE.getAddExpr(Ops);
    case KMul:
      return SE.getMulExpr(Ops);
    case KAddRec:
      if (auto *AR = dyn_cast_or_null<SCEVAddRecExpr>(Ty); AR && Ops.size() == 2)
        return SE.getAddRecExpr(Ops[0], Ops[1], AR->getLoop(), SCEV::FlagAnyWrap);
      return nullptr;
    case KSExt:
      return Ty && Ops.size() == 1 ? SE.getSignExtendExpr(Ops[0], intType(Ty)) : nullptr;
    case KZExt:
      return Ty && Ops.size() == 1 ? SE.getZeroExtendExpr(Ops[0], intType(Ty)) : nullptr;
    default:
      return nullptr;
    }
  }
};

AddrScev &scev(void *S) { return *static_cast<AddrScev *>(S); }

// The pass plumbing: `codegenpreparescev` (all phases; the llc pass) and one name per phase.
struct AddrPasses {
  static constexpr unsigned Needs = NvNeedLoops | NvNeedScev | NvNeedDomTree;
  static constexpr uint32_t LegacyArg = BASR | CBE | SCEV_CGP;
  // cicc's own name for the pass (what -debug-pass=Structure prints in llc).
  static constexpr const char *Description = "Optimize address mode with Scalar Evolution";
  static const char *name(uint32_t Phases) {
    return Phases == BASR  ? "nv-basr"
           : Phases == CBE ? "nv-cbe"
           : Phases == SCEV_CGP ? "nv-scev-cgp"
                                : "codegenpreparescev";
  }
  static bool run(Function &F, NvAnalyses &A, uint32_t Phases) {
    Analyses X{F, *A.SE, *A.LI, *A.DT, A.ORE};
    return nvopt_addr_run(wrap(&F), &X, Phases);
  }
};

const bool Registered = (nvRegisterLegacyPass<AddrPasses>(), true);

} // namespace

// The analyses Rust passes on: ScalarEvolution, LoopInfo, DominatorTree, the remark emitter.
extern "C" void *nvopt_addr_analysis(void *A, uint32_t Which) {
  Analyses &X = *static_cast<Analyses *>(A);
  void *All[] = {&X.SE, &X.LI, &X.DT, &X.ORE};
  return All[Which];
}

extern "C" void *nvopt_addr_scev_new(void *A, bool AssumeNsw) {
  return new AddrScev(*static_cast<Analyses *>(A), AssumeNsw);
}

extern "C" void nvopt_addr_scev_free(void *S) { delete static_cast<AddrScev *>(S); }

extern "C" const void *nvopt_addr_scev_pointer(void *S, LLVMValueRef Ptr, bool Deref, size_t Limit,
                                               const NvScevNode **Out, size_t *Len) {
  const SCEV *P = scev(S).pointer(unwrap(Ptr), Deref, Limit);
  *Out = scev(S).Flat.data();
  *Len = scev(S).Flat.size();
  return P;
}

extern "C" const void *nvopt_addr_scev_build(void *S, const NvScevNode *R, size_t N) {
  return scev(S).build(R, N);
}

extern "C" bool nvopt_addr_scev_rooted(void *S, const void *Base) {
  return scev(S).rooted(static_cast<const SCEV *>(Base));
}

extern "C" void nvopt_addr_scev_base_facts(void *S, const void *Base, const void **L,
                                           uint32_t *Size, LLVMValueRef *Phi) {
  PHINode *P = nullptr;
  const Loop *Lp = nullptr;
  scev(S).baseFacts(static_cast<const SCEV *>(Base), &Lp, Size, &P);
  *L = Lp;
  *Phi = wrap(P);
}

extern "C" const NvPair *nvopt_addr_scev_pairs(void *S, const void *const *Bases,
                                               const int32_t *Loops, size_t N,
                                               const void *const *LoopList, size_t Limit,
                                               size_t *Len) {
  scev(S).pairs(reinterpret_cast<const SCEV *const *>(Bases), Loops, N,
                reinterpret_cast<const Loop *const *>(LoopList), Limit);
  *Len = scev(S).Pairs.size();
  return scev(S).Pairs.data();
}

extern "C" LLVMValueRef nvopt_addr_scev_shared_base(void *S, const void *L, const void *Leader,
                                                    int64_t Origin, bool Phi, LLVMValueRef Reuse) {
  return wrap(scev(S).sharedBase(static_cast<const Loop *>(L), static_cast<const SCEV *>(Leader),
                                 Origin, Phi, unwrap(Reuse)));
}

extern "C" LLVMValueRef nvopt_addr_scev_difference(void *S, const void *L, const void *From,
                                                   const void *To, LLVMValueRef On) {
  return wrap(scev(S).difference(static_cast<const Loop *>(L), static_cast<const SCEV *>(From),
                                 static_cast<const SCEV *>(To), unwrap(On)));
}

void nvopt_register_addr(PassBuilder &PB) {
  nvRegisterNewPMPass<AddrPasses>(PB, {AddrPasses::LegacyArg, BASR, CBE, SCEV_CGP});
}
