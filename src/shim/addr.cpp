// The address passes' LLVM adapter (src/addr, research-facts.md "Address optimization (SCEV-CGP,
// BASR, CBE) as the binary has it"): the new-PM function passes `codegenpreparescev` (BASR,
// then CBE, with SCEV-CGP's split), `nv-basr`, `nv-cbe`, `nv-scev-cgp`, and the legacy IR pass
// `codegenpreparescev` that src/codegen.rs inserts right after llc's CodeGenPrepare. It walks a
// function's loads, stores and calls with pointer arguments, encodes each pointer's SCEV (from
// nv-scev), builds the bases Rust splits off with ScalarEvolution's builders, hands Rust the
// records, loops and base differences, and applies the plans: BASR's shared bases through
// SCEVExpander (a loop-carried pointer PHI or a header expansion) and CBE's `anchor + delta`
// as an i8 GEP right before each access. What the rewrites leave dead is deleted. Address spaces
// and pointer types are kept (a rewrite of another pointer type is not applied). No decisions.
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm-c/Types.h"
#include "access_scev.h"
#include "ffi.h"
#include "scev.h"
#include "sreg_terms.h"
#include <cstdint>
#include <vector>

using namespace llvm;

// Layouts mirror src/addr/expr.rs and src/addr/ffi.rs.
struct NvAddrFlat {
  uint32_t Kind, Arity, Bits, Flags;
  int64_t Value, Ty;
  uint64_t UMax;
};
struct NvAddrRecord {
  int64_t Offset;
  uint32_t Base, Space, Block, DfsIn, DfsOut, Order, Value, ValueUses;
  int32_t Loop;
  uint32_t Access, LoopInsts, LoopConstGeps;
};
struct NvRewrite {
  int64_t Delta;
  uint32_t Record, Anchor, CrossBlock;
};
struct NvLoop {
  int32_t Parent;
  uint32_t Phis, Header;
};
struct NvBase {
  int32_t Loop;
  uint32_t Nodes, HasPhi, Walk;
};
struct NvPair {
  uint32_t A, B, DiffNodes, Invariant, Diff;
};
struct NvClass {
  int64_t Origin;
  int32_t Loop;
  uint32_t Leader, Phi;
};
struct NvMember {
  uint32_t Class, Base, From;
  int32_t Before;
};
struct NvMove {
  int64_t Delta;
  uint32_t Record, Member;
};
struct NvAddrSession;

extern "C" {
uint32_t nvopt_narrow_indices(LLVMValueRef F, void *SE, void *ORE); // src/addr/narrow.rs
NvAddrSession *nvopt_addr_begin(NvStr Name, const NvStr *Attrs, uint32_t Phases);
void nvopt_addr_end(NvAddrSession *S);
uint32_t nvopt_addr_active(const NvAddrSession *S);
size_t nvopt_addr_inst_limit(const NvAddrSession *S);
size_t nvopt_addr_paired_bases();
bool nvopt_addr_print_after(const NvAddrSession *S);
bool nvopt_addr_assume_nsw(const NvAddrSession *S);
bool nvopt_addr_keeps_base(const NvAddrSession *S, bool Rooted);
uint32_t nvopt_addr_split(NvAddrSession *S, const NvAddrFlat *Nodes, size_t N, const NvAddrFlat **Out,
                          size_t *OutLen, int64_t *Offset);
void nvopt_addr_cbe(NvAddrSession *S, const NvAddrRecord *Recs, size_t N, const NvRewrite **Out,
                    size_t *OutLen);
void nvopt_addr_basr(NvAddrSession *S, const NvAddrRecord *Recs, size_t NRecs, const NvLoop *Loops,
                     size_t NLoops, const NvBase *Bases, size_t NBases, const NvPair *Pairs,
                     size_t NPairs, const void **Out, size_t *OutLen);
}

namespace {

enum : uint32_t { KConst, KUnknown, KAdd, KMul, KAddRec, KSExt, KZExt, KOther, KRef };
enum : uint32_t { PhaseBasr = 1, PhaseCbe = 2, PhaseCgp = 4 };
constexpr const char *DebugType = "codegenpreparescev";


// One function's records: pointer uses (Access) and, as possible anchors, other pointer values.
class Records {
public:
  struct Use {
    Instruction *User; // null for a non-access value
    unsigned OpNo;
    Value *Ptr;
  };

  Records(Function &F, nvopt::NVScev &NV, NvAddrSession *S)
      : F(F), NV(NV), SE(NV.SE), S(S), Access(NV, nvopt_addr_assume_nsw(S)) {}

  void collect(bool WithValues) {
    NV.DT.updateDFSNumbers();
    unsigned BlockNo = 0;
    for (BasicBlock &BB : F) {
      if (!NV.DT.getNode(&BB))
        continue;
      Blocks[&BB] = BlockNo++;
      unsigned Order = 0;
      for (Instruction &I : BB) {
        Orders[&I] = ++Order;
        addAccesses(I);
      }
    }
    if (!WithValues)
      return;
    for (Argument &A : F.args())
      if (A.getType()->isPointerTy())
        addRecord({nullptr, 0, &A}, place(&F.getEntryBlock(), 0));
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (I.getType()->isPointerTy() && Blocks.count(&BB) && !isa<PHINode>(I))
          addRecord({nullptr, 0, &I}, place(&BB, Orders[&I]));
  }

  std::vector<Use> Uses;
  std::vector<NvAddrRecord> Out;
  std::vector<const SCEV *> Bases;
  std::vector<Loop *> LoopList;
  DenseMap<Loop *, int32_t> LoopIds;

  uint32_t blockId(BasicBlock *BB) const { return Blocks.lookup(BB); }

  int32_t loopId(Loop *L) {
    if (!L)
      return -1;
    if (LoopIds.empty())
      for (Loop *X : NV.LI.getLoopsInPreorder()) {
        LoopIds[X] = static_cast<int32_t>(LoopList.size());
        LoopList.push_back(X);
      }
    return LoopIds.lookup(L);
  }

private:
  Function &F;
  nvopt::NVScev &NV;
  ScalarEvolution &SE;
  NvAddrSession *S;
  nvopt::AccessScev Access;
  nvopt::SregTerms Sregs;
  DenseMap<BasicBlock *, unsigned> Blocks;
  DenseMap<Instruction *, unsigned> Orders;
  DenseMap<const SCEV *, unsigned> BaseIds;
  DenseMap<Value *, unsigned> ValueIds;
  SmallVector<const SCEV *, 64> Nodes;

  NvAddrRecord place(BasicBlock *BB, unsigned Order) {
    DomTreeNode *N = NV.DT.getNode(BB);
    NvAddrRecord R{};
    R.Block = Blocks.lookup(BB);
    R.DfsIn = N->getDFSNumIn();
    R.DfsOut = N->getDFSNumOut();
    R.Order = Order;
    return R;
  }

  void addAccesses(Instruction &I) {
    if (auto *L = dyn_cast<LoadInst>(&I))
      return addAccess(I, L->getPointerOperandIndex());
    if (auto *St = dyn_cast<StoreInst>(&I))
      return addAccess(I, St->getPointerOperandIndex());
    auto *C = dyn_cast<CallInst>(&I);
    if (!C || C->isInlineAsm() || (isa<IntrinsicInst>(C) && !isa<MemIntrinsic>(C)))
      return;
    for (unsigned A = 0, E = C->arg_size(); A != E; ++A)
      if (C->getArgOperand(A)->getType()->isPointerTy())
        addAccess(I, A);
  }

  void addAccess(Instruction &I, unsigned OpNo) {
    NvAddrRecord R = place(I.getParent(), Orders[&I]);
    R.Access = 1;
    Loop *L = NV.LI.getLoopFor(I.getParent());
    R.Loop = loopId(L);
    if (L)
      loopWork(I.getOperand(OpNo), *L, true, R);
    addRecord({&I, OpNo, I.getOperand(OpNo)}, R);
  }

  // Counts into R the instructions of L that compute only V (V itself, whatever its uses; then
  // single-use operands; PHIs end the walk), and among them the GEPs with constant indices.
  static void loopWork(Value *V, const Loop &L, bool Root, NvAddrRecord &R) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || isa<PHINode>(I) || !L.contains(I) || (!Root && !I->hasOneUse()))
      return;
    ++R.LoopInsts;
    auto *G = dyn_cast<GetElementPtrInst>(I);
    R.LoopConstGeps += G && G->hasAllConstantIndices();
    for (Value *Op : I->operands())
      loopWork(Op, L, false, R);
  }

  // A load's or store's address is UB when poison, which proves its nsw index arithmetic exact
  // (AccessScev); other pointer values get nv-scev's expression.
  void addRecord(Use U, NvAddrRecord R) {
    bool Deref = U.User && (isa<LoadInst>(U.User) || isa<StoreInst>(U.User));
    const SCEV *P = Deref ? Access.address(U.Ptr) : NV.getSCEV(U.Ptr);
    if (isa<SCEVCouldNotCompute>(P))
      return;
    SmallVector<NvAddrFlat, 64> Flat;
    Nodes.clear();
    if (!encode(P, Flat, nvopt_addr_inst_limit(S)))
      return;
    const NvAddrFlat *Recipe = nullptr;
    size_t RecipeLen = 0, Pos = 0;
    uint32_t Split = nvopt_addr_split(S, Flat.data(), Flat.size(), &Recipe, &RecipeLen, &R.Offset);
    if (Split == 2)
      return;
    const SCEV *Base = Split == 1 ? build(Recipe, RecipeLen, Pos) : P;
    if (!Base || Pos != RecipeLen || !nvopt_addr_keeps_base(S, rooted(Base)))
      return;
    auto B = BaseIds.try_emplace(Base, Bases.size());
    if (B.second)
      Bases.push_back(Base);
    R.Base = B.first->second;
    R.Space = U.Ptr->getType()->getPointerAddressSpace();
    auto V = ValueIds.try_emplace(U.Ptr, ValueIds.size());
    R.Value = V.first->second;
    R.ValueUses = U.Ptr->getNumUses();
    Uses.push_back(U);
    Out.push_back(R);
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

  bool encode(const SCEV *X, SmallVectorImpl<NvAddrFlat> &Flat, size_t Limit) {
    if (Nodes.size() >= Limit)
      return false;
    NvAddrFlat N{};
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
      if (!encode(Op, Flat, Limit))
        return false;
    return true;
  }

  Type *intType(const SCEV *Of) { return SE.getEffectiveSCEVType(Of->getType()); }

  // Builds the expression Rust wrote in preorder from Pos; null when it cannot be built.
  const SCEV *build(const NvAddrFlat *R, size_t N, size_t &Pos) {
    if (Pos >= N)
      return nullptr;
    const NvAddrFlat &X = R[Pos++];
    auto node = [&](int64_t I) -> const SCEV * {
      return I >= 0 && static_cast<size_t>(I) < Nodes.size() ? Nodes[I] : nullptr;
    };
    SmallVector<const SCEV *, 4> Ops;
    for (uint32_t I = 0; I < X.Arity; ++I) {
      const SCEV *Op = build(R, N, Pos);
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

// Runs the phases Rust switches on over one function.
class AddrOpt {
public:
  AddrOpt(Function &F, ScalarEvolution &SE, LoopInfo &LI, DominatorTree &DT, uint32_t Phases)
      : F(F), SE(SE), LI(LI), DT(DT), ORE(&F) {
    NvStr Attrs[3];
    nvLaunchBounds(F, Attrs);
    S = nvopt_addr_begin(nvStr(F.getName()), Attrs, Phases);
  }
  ~AddrOpt() { nvopt_addr_end(S); }

  bool run() {
    uint32_t Active = nvopt_addr_active(S);
    bool Changed = false;
    if (Active & PhaseBasr)
      Changed |= basr();
    deleteDead();
    if (Active & PhaseCbe)
      Changed |= cbe();
    deleteDead();
    if (Active & PhaseCgp)
      Changed |= nvopt_narrow_indices(wrap(&F), &SE, &ORE) > 0;
    if (nvopt_addr_print_after(S)) {
      errs() << "*** IR Dump After codegenpreparescev (" << F.getName() << ") ***\n";
      F.print(errs());
    }
    return Changed;
  }

private:
  Function &F;
  ScalarEvolution &SE;
  LoopInfo &LI;
  DominatorTree &DT;
  OptimizationRemarkEmitter ORE;
  NvAddrSession *S;
  SmallVector<WeakTrackingVH, 32> Dead;

  // Deletes the address computations the rewrites left unused (before CBE looks for anchors).
  void deleteDead() {
    for (WeakTrackingVH &V : Dead)
      if (auto *I = dyn_cast_or_null<Instruction>(V))
        RecursivelyDeleteTriviallyDeadInstructions(I);
    Dead.clear();
  }

  // Deletes the header PHIs whose only remaining use is their own update (IVs whose addresses
  // moved onto a shared base).
  void deadCycles(BasicBlock *Header) {
    SmallVector<WeakTrackingVH, 16> Phis;
    for (PHINode &P : Header->phis())
      Phis.push_back(&P);
    for (WeakTrackingVH &V : Phis)
      if (auto *P = dyn_cast_or_null<PHINode>(V))
        RecursivelyDeleteDeadPHINode(P);
  }

  // Points access U at Base + Delta (an i8 GEP right before it); false if the types differ.
  bool repoint(const Records::Use &U, Value *Base, int64_t Delta) {
    if (Base->getType() != U.Ptr->getType())
      return false;
    Value *P = Base;
    if (Delta != 0) {
      IRBuilder<> B(U.User);
      P = B.CreatePtrAdd(Base, B.getInt64(Delta), "nv.addr");
    }
    Dead.push_back(U.Ptr);
    U.User->setOperand(U.OpNo, P);
    return true;
  }

  bool cbe() {
    nvopt::NVScev NV(F, SE, LI, DT);
    Records R(F, NV, S);
    R.collect(/*WithValues=*/true);
    const NvRewrite *W = nullptr;
    size_t N = 0;
    nvopt_addr_cbe(S, R.Out.data(), R.Out.size(), &W, &N);
    bool Changed = false;
    for (const NvRewrite &X : ArrayRef<NvRewrite>(W, N)) {
      const Records::Use &U = R.Uses[X.Record];
      Value *Anchor = R.Uses[X.Anchor].Ptr;
      if (!repoint(U, Anchor, X.Delta))
        continue;
      Changed = true;
      ORE.emit([&] {
        return OptimizationRemark(DebugType, "CommonBase", U.User)
               << "address rebased on a common base at offset " << ore::NV("Delta", X.Delta)
               << (X.CrossBlock ? " (function level)" : " (same block)");
      });
    }
    return Changed;
  }

  // Each base's walk: immediate dominators from the deepest block of its accesses in its loop up
  // to the loop header.
  void walks(const Records &R, std::vector<NvBase> &Bases) {
    for (size_t I = 0; I < R.Out.size(); ++I) {
      NvBase &B = Bases[R.Out[I].Base];
      Instruction *User = R.Uses[I].User;
      if (B.Loop < 0 || !User)
        continue;
      Loop *L = R.LoopList[B.Loop];
      if (!L->contains(User->getParent()))
        continue;
      unsigned Walk = DT.getNode(User->getParent())->getLevel() - DT.getNode(L->getHeader())->getLevel();
      B.Walk = std::max<uint32_t>(B.Walk, Walk);
    }
  }

  bool basr() {
    nvopt::NVScev NV(F, SE, LI, DT);
    Records R(F, NV, S);
    R.collect(/*WithValues=*/false);
    R.loopId(nullptr);
    std::vector<NvLoop> Loops;
    for (Loop *L : NV.LI.getLoopsInPreorder()) {
      unsigned Phis = 0;
      for (PHINode &P : L->getHeader()->phis())
        Phis += !P.getType()->isIntegerTy(1);
      Loops.push_back({R.loopId(L->getParentLoop()), Phis, R.blockId(L->getHeader())});
    }
    std::vector<NvBase> Bases;
    std::vector<PHINode *> ExistingPhi;
    for (const SCEV *B : R.Bases) {
      auto *AR = dyn_cast<SCEVAddRecExpr>(B);
      bool Affine = AR && AR->isAffine() && B->getType()->isPointerTy();
      PHINode *Phi = Affine ? existingPhi(AR) : nullptr;
      Bases.push_back({Affine ? R.loopId(const_cast<Loop *>(AR->getLoop())) : -1,
                       static_cast<uint32_t>(B->getExpressionSize()), Phi != nullptr, 0});
      ExistingPhi.push_back(Phi);
    }
    walks(R, Bases);
    std::vector<NvPair> Pairs = pairs(R, Bases);
    const void *Out[3];
    size_t Len[3];
    nvopt_addr_basr(S, R.Out.data(), R.Out.size(), Loops.data(), Loops.size(), Bases.data(),
                    Bases.size(), Pairs.data(), Pairs.size(), Out, Len);
    ArrayRef<NvClass> Classes(static_cast<const NvClass *>(Out[0]), Len[0]);
    ArrayRef<NvMember> Members(static_cast<const NvMember *>(Out[1]), Len[1]);
    ArrayRef<NvMove> Moves(static_cast<const NvMove *>(Out[2]), Len[2]);
    std::vector<Value *> ClassBase, MemberBase;
    SCEVExpander Exp(SE, "nv.basr");
    for (const NvClass &C : Classes)
      ClassBase.push_back(sharedBase(Exp, R, C, ExistingPhi[C.Leader]));
    for (const NvMember &M : Members)
      MemberBase.push_back(M.From == MemberBase.size()
                               ? ClassBase[M.Class]
                               : memberBase(Exp, R, Classes[M.Class], MemberBase[M.From],
                                            Members[M.From].Base, M.Base,
                                            M.Before < 0 ? nullptr : R.Uses[M.Before].User));
    bool Changed = false;
    for (const NvMove &M : Moves)
      if (Value *B = MemberBase[M.Member])
        Changed |= repoint(R.Uses[M.Record], B, M.Delta);
    deleteDead();
    for (size_t C = 0; C < Classes.size(); ++C)
      if (ClassBase[C]) {
        Changed = true;
        Loop *L = R.LoopList[Classes[C].Loop];
        deadCycles(L->getHeader());
        ORE.emit([&] {
          return OptimizationRemark(DebugType, "SharedBase", L->getStartLoc(), L->getHeader())
                 << "bases of this loop share one "
                 << (Classes[C].Phi ? "loop-carried pointer" : "base expanded in the header");
        });
      }
    return Changed;
  }

  PHINode *existingPhi(const SCEVAddRecExpr *AR) {
    for (PHINode &P : AR->getLoop()->getHeader()->phis())
      if (P.getType() == AR->getType() && SE.isSCEVable(P.getType()) && SE.getSCEV(&P) == AR)
        return &P;
    return nullptr;
  }

  std::vector<NvPair> pairs(Records &R, const std::vector<NvBase> &Bases) {
    std::vector<NvPair> Out;
    DenseMap<int32_t, SmallVector<uint32_t, 8>> PerLoop;
    size_t Limit = nvopt_addr_paired_bases();
    for (uint32_t B = 0; B < Bases.size(); ++B)
      if (Bases[B].Loop >= 0 && PerLoop[Bases[B].Loop].size() < Limit)
        PerLoop[Bases[B].Loop].push_back(B);
    DenseMap<const SCEV *, uint32_t> DiffIds;
    for (auto &[LoopId, Bs] : PerLoop)
      for (size_t I = 0; I < Bs.size(); ++I)
        for (size_t J = I + 1; J < Bs.size(); ++J) {
          const SCEV *D = SE.getMinusSCEV(R.Bases[Bs[J]], R.Bases[Bs[I]]);
          if (isa<SCEVCouldNotCompute>(D))
            continue;
          bool Inv = SE.isLoopInvariant(D, R.LoopList[LoopId]);
          uint32_t Id = DiffIds.try_emplace(D, DiffIds.size()).first->second;
          Out.push_back({Bs[I], Bs[J], static_cast<uint32_t>(D->getExpressionSize()), Inv, Id});
        }
    return Out;
  }

  // The value every member of class C builds on: an existing PHI, a new loop-carried PHI, or
  // the leader's base expanded in the header. Null when the loop is not in simplified form.
  Value *sharedBase(SCEVExpander &Exp, Records &R, const NvClass &C, PHINode *Existing) {
    Loop *L = R.LoopList[C.Loop];
    BasicBlock *Pre = L->getLoopPreheader(), *Latch = L->getLoopLatch(), *H = L->getHeader();
    auto *AR = cast<SCEVAddRecExpr>(R.Bases[C.Leader]);
    if (!Pre || !Latch)
      return nullptr;
    if (Existing && C.Origin == 0)
      return Existing;
    const DataLayout &DL = F.getDataLayout();
    Type *PtrTy = AR->getType(), *IntTy = DL.getIndexType(PtrTy);
    const SCEV *Origin = SE.getConstant(IntTy, C.Origin, true);
    if (!C.Phi)
      return Exp.expandCodeFor(SE.getAddExpr(AR, Origin), PtrTy, H->getFirstInsertionPt());
    Value *Start = Exp.expandCodeFor(SE.getAddExpr(AR->getStart(), Origin), PtrTy, Pre->getTerminator());
    Value *Step = Exp.expandCodeFor(AR->getStepRecurrence(SE), IntTy, Pre->getTerminator());
    PHINode *Phi = PHINode::Create(PtrTy, 2, "nv.basr.base");
    Phi->insertBefore(H->begin());
    IRBuilder<> B(Latch->getTerminator());
    Value *Next = B.CreatePtrAdd(Phi, Step, "nv.basr.next");
    for (BasicBlock *Pred : predecessors(H))
      Phi->addIncoming(Pred == Latch ? Next : Start, Pred);
    return Phi;
  }

  // Member base B of class C, built on the member From (value On): On plus the invariant
  // difference (expanded in the preheader, where equal differences share one value), computed
  // once in the header: right before Use (where Rust placed it) when On is available by then,
  // else right after On.
  Value *memberBase(SCEVExpander &Exp, Records &R, const NvClass &C, Value *On, uint32_t From,
                    uint32_t Base, Instruction *Use) {
    if (!On)
      return nullptr;
    Loop *L = R.LoopList[C.Loop];
    const DataLayout &DL = F.getDataLayout();
    const SCEV *D = SE.getMinusSCEV(R.Bases[Base], R.Bases[From]);
    if (isa<SCEVCouldNotCompute>(D))
      return nullptr;
    Value *Diff = Exp.expandCodeFor(D, DL.getIndexType(On->getType()),
                                    L->getLoopPreheader()->getTerminator());
    BasicBlock::iterator At = L->getHeader()->getFirstInsertionPt();
    auto *I = dyn_cast<Instruction>(On);
    bool InHeader = I && I->getParent() == L->getHeader();
    if (Use && !(InHeader && Use->comesBefore(I)))
      At = Use->getIterator();
    else if (InHeader)
      At = *I->getInsertionPointAfterDef();
    IRBuilder<> B(L->getHeader(), At);
    return B.CreatePtrAdd(On, Diff, "nv.basr.member");
  }
};

bool runOn(Function &F, ScalarEvolution &SE, LoopInfo &LI, DominatorTree &DT, uint32_t Phases) {
  if (F.isDeclaration())
    return false;
  return AddrOpt(F, SE, LI, DT, Phases).run();
}

struct AddrPass : PassInfoMixin<AddrPass> {
  uint32_t Phases;
  explicit AddrPass(uint32_t P) : Phases(P) {}
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    bool Changed = runOn(F, FAM.getResult<ScalarEvolutionAnalysis>(F),
                         FAM.getResult<LoopAnalysis>(F), FAM.getResult<DominatorTreeAnalysis>(F),
                         Phases);
    if (!Changed)
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }
};

class CodeGenPrepareSCEV : public FunctionPass {
public:
  static char ID;
  CodeGenPrepareSCEV() : FunctionPass(ID) {}
  StringRef getPassName() const override { return "Optimize address mode with Scalar Evolution"; }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<LoopInfoWrapperPass>();
    AU.addRequired<ScalarEvolutionWrapperPass>();
    AU.addRequired<DominatorTreeWrapperPass>();
    AU.setPreservesCFG();
  }
  bool runOnFunction(Function &F) override {
    if (skipFunction(F))
      return false;
    return runOn(F, getAnalysis<ScalarEvolutionWrapperPass>().getSE(),
                 getAnalysis<LoopInfoWrapperPass>().getLoopInfo(),
                 getAnalysis<DominatorTreeWrapperPass>().getDomTree(),
                 PhaseBasr | PhaseCbe | PhaseCgp);
  }
};

char CodeGenPrepareSCEV::ID = 0;
RegisterPass<CodeGenPrepareSCEV> Registration("codegenpreparescev",
                                             "Optimize address mode with Scalar Evolution (nvopt)",
                                             false, false);

} // namespace

void nvopt_register_addr(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM, ArrayRef<PassBuilder::PipelineElement>) {
        uint32_t Phases = Name == "codegenpreparescev" ? PhaseBasr | PhaseCbe | PhaseCgp
                          : Name == "nv-basr"          ? PhaseBasr
                          : Name == "nv-cbe"           ? PhaseCbe
                          : Name == "nv-scev-cgp"      ? uint32_t(PhaseCgp)
                                                       : 0u;
        if (!Phases)
          return false;
        FPM.addPass(AddrPass(Phases));
        return true;
      });
}
