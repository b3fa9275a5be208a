// Adapts LLVM IR to nv-cssa's planner (src/cssa; seed 002 "CSSA Coalescing (PHI-Specific)";
// research-facts.md "NVPTX in LLVM 22 (for the coalescer)"): the new-PM function pass
// `nv-cssa` (opt -passes=nv-cssa) and the legacy FunctionPass of the same name that
// src/codegen.rs inserts into llc's NVPTX pipeline after CodeGenPrepare (knob cssa-coalesce).
// It numbers the blocks, instructions and arguments, records every use of a register value
// (a PHI operand as a use at the end of its incoming block), and for each PHI operand the values
// a dominating `icmp eq`/`icmp ne` branch edge proves equal to it (DominatorTree); Rust decides
// and calls back for each rewrite: set a PHI operand, or move an instruction after another in
// its block. Optimization remarks (-pass-remarks=nv-cssa) name each rewrite. No decisions here.
#include "llvm/ADT/DenseMap.h"
#include "search_budgets.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Pass.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "register.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

using namespace llvm;

namespace {

// Layouts mirror src/cssa/ffi.rs.
constexpr uint32_t None = ~0u;
enum : uint32_t { KindPhi = 0, KindTerminator = 1, KindMovable = 2, KindFixed = 3 };
struct RawBlock {
  uint32_t SuccFirst, SuccCount, InstFirst, InstCount;
};
struct RawUse {
  uint32_t Value, User, Phi, Slot, From;
};
struct RawPhi {
  uint32_t Inst, First, Count;
};
struct RawIncoming {
  uint32_t Pred, Value, EqFirst, EqCount;
};
struct RawFunction {
  const RawBlock *Blocks;
  size_t NBlocks;
  const uint32_t *Succs;
  size_t NSuccs;
  const uint32_t *Kinds;
  size_t NInsts;
  size_t NArgs;
  const RawUse *Uses;
  size_t NUses;
  const RawPhi *Phis;
  size_t NPhis;
  const RawIncoming *Incoming;
  size_t NIncoming;
  const uint32_t *Equal;
  size_t NEqual;
};

} // namespace

extern "C" bool nvopt_cssa_run(void *Host, const RawFunction *F);

namespace {

constexpr const char *Name = "nv-cssa";

// May move later within its block: no memory access, no side effects, no call, no PHI,
// terminator or EH pad.
// A value as IR prints it as an operand (`%12`, `i32 %n`, `0`); used only inside remarks.
std::string operand(const Value *V) {
  std::string S;
  raw_string_ostream OS(S);
  V->printAsOperand(OS, /*PrintType=*/false);
  return S;
}

bool movable(const Instruction &I) {
  return !isa<PHINode>(I) && !I.isTerminator() && !isa<CallBase>(I) && !isa<AllocaInst>(I) &&
         !I.isEHPad() && !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects() &&
         !I.getType()->isTokenTy();
}

class Adapter {
public:
  Adapter(Function &F, DominatorTree &DT, OptimizationRemarkEmitter &ORE)
      : F(F), DT(DT), ORE(ORE) {}

  bool run() {
    DenseMap<const BasicBlock *, uint32_t> BlockIds;
    for (BasicBlock &BB : F)
      BlockIds[&BB] = BlockIds.size();
    std::vector<RawBlock> Blocks;
    std::vector<uint32_t> Succs, Kinds;
    for (BasicBlock &BB : F) {
      RawBlock B{static_cast<uint32_t>(Succs.size()), 0, static_cast<uint32_t>(Insts.size()), 0};
      for (BasicBlock *S : successors(&BB)) {
        Succs.push_back(BlockIds.lookup(S));
        ++B.SuccCount;
      }
      for (Instruction &I : BB) {
        Ids[&I] = Insts.size();
        Insts.push_back(&I);
        Kinds.push_back(isa<PHINode>(I)     ? KindPhi
                        : I.isTerminator() ? KindTerminator
                        : movable(I)       ? KindMovable
                                           : KindFixed);
        ++B.InstCount;
        if (auto *PN = dyn_cast<PHINode>(&I))
          Phis.push_back(PN);
      }
      Blocks.push_back(B);
    }
    for (Argument &A : F.args())
      Ids[&A] = Insts.size() + A.getArgNo();
    Values.assign(Insts.begin(), Insts.end());
    for (Argument &A : F.args())
      Values.push_back(&A);

    DenseMap<const PHINode *, uint32_t> PhiIds;
    for (PHINode *PN : Phis)
      PhiIds[PN] = PhiIds.size();
    std::vector<RawUse> Uses;
    for (uint32_t Id = 0; Id < Insts.size(); ++Id) {
      Instruction *I = Insts[Id];
      auto *PN = dyn_cast<PHINode>(I);
      for (Use &U : I->operands()) {
        auto It = Ids.find(U.get());
        if (It == Ids.end())
          continue;
        if (PN)
          Uses.push_back({It->second, Id, PhiIds.lookup(PN), U.getOperandNo(),
                          BlockIds.lookup(PN->getIncomingBlock(U))});
        else
          Uses.push_back({It->second, Id, None, 0, 0});
      }
    }

    std::vector<RawPhi> RawPhis;
    std::vector<RawIncoming> Incoming;
    std::vector<uint32_t> Equal;
    for (PHINode *PN : Phis) {
      RawPhis.push_back({Ids.lookup(PN), static_cast<uint32_t>(Incoming.size()),
                         PN->getNumIncomingValues()});
      for (unsigned K = 0, E = PN->getNumIncomingValues(); K != E; ++K) {
        auto It = Ids.find(PN->getIncomingValue(K));
        RawIncoming In{BlockIds.lookup(PN->getIncomingBlock(K)),
                       It == Ids.end() ? None : It->second,
                       static_cast<uint32_t>(Equal.size()), 0};
        if (It != Ids.end())
          equalities(*PN, K, Equal);
        In.EqCount = Equal.size() - In.EqFirst;
        Incoming.push_back(In);
      }
    }

    RawFunction Raw{Blocks.data(),   Blocks.size(),   Succs.data(),    Succs.size(),
                    Kinds.data(),    Kinds.size(),    F.arg_size(),    Uses.data(),
                    Uses.size(),     RawPhis.data(),  RawPhis.size(),  Incoming.data(),
                    Incoming.size(), Equal.data(),    Equal.size()};
    return nvopt_cssa_run(this, &Raw);
  }

  void substitute(uint32_t Phi, uint32_t Slot, uint32_t With) {
    if (Phi >= Phis.size() || With >= Values.size() || Slot >= Phis[Phi]->getNumIncomingValues())
      return;
    PHINode *PN = Phis[Phi];
    Value *Old = PN->getIncomingValue(Slot), *New = Values[With];
    ORE.emit([&] {
      return OptimizationRemark(Name, "EqualOperand", PN)
             << "operand " << ore::NV("Old", operand(Old)) << " of PHI "
             << ore::NV("Phi", operand(PN)) << " from block "
             << ore::NV("Block", PN->getIncomingBlock(Slot)->getName()) << " replaced by the equal "
             << ore::NV("New", operand(New))
             << ", which does not interfere with the PHI";
    });
    PN->setIncomingValue(Slot, New);
  }

  void sink(uint32_t Inst, uint32_t After) {
    if (Inst >= Insts.size() || After >= Insts.size())
      return;
    Instruction *I = Insts[Inst], *A = Insts[After];
    if (I->getParent() != A->getParent())
      return;
    ORE.emit([&] {
      return OptimizationRemark(Name, "Sunk", I)
             << ore::NV("Inst", operand(I)) << " moved below the last read of the PHI it feeds ("
             << ore::NV("After", A->getOpcodeName()) << ")";
    });
    I->moveAfter(A);
  }

private:
  Function &F;
  DominatorTree &DT;
  OptimizationRemarkEmitter &ORE;
  std::vector<Instruction *> Insts;
  std::vector<Value *> Values;
  std::vector<PHINode *> Phis;
  DenseMap<const Value *, uint32_t> Ids;

  // Register values equal to operand K of PN on its edge: the other side of an integer
  // `icmp eq`/`icmp ne` whose branch edge into the equal side is the PHI's edge itself or
  // dominates the incoming block. A PHI with several entries for that block gets none (the
  // entries must stay identical).
  void equalities(PHINode &PN, unsigned K, std::vector<uint32_t> &Out) {
    Value *V = PN.getIncomingValue(K);
    BasicBlock *P = PN.getIncomingBlock(K), *S = PN.getParent();
    if (!V->getType()->isIntegerTy() || !DT.isReachableFromEntry(P))
      return;
    unsigned Entries = 0;
    for (BasicBlock *B : PN.blocks())
      Entries += B == P;
    if (Entries != 1)
      return;
    unsigned Depth = 0;
    for (DomTreeNode *N = DT.getNode(P); N && Depth < nvopt::searchBudgets().CssaMaxDominatorDepth; N = N->getIDom(), ++Depth) {
      BasicBlock *D = N->getBlock();
      auto *Br = dyn_cast<BranchInst>(D->getTerminator());
      if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
        continue;
      auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
      if (!Cmp || !Cmp->isEquality())
        continue;
      BasicBlock *EqSucc = Br->getSuccessor(Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1);
      bool Holds = D == P ? EqSucc == S : DT.dominates(BasicBlockEdge(D, EqSucc), P);
      if (!Holds)
        continue;
      Value *A = Cmp->getOperand(0), *B = Cmp->getOperand(1);
      Value *Other = A == V ? B : B == V ? A : nullptr;
      if (!Other || Other == V)
        continue;
      auto It = Ids.find(Other);
      if (It != Ids.end())
        Out.push_back(It->second);
    }
  }
};

struct NvCssaPass : PassInfoMixin<NvCssaPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM) {
    if (F.isDeclaration())
      return PreservedAnalyses::all();
    Adapter A(F, AM.getResult<DominatorTreeAnalysis>(F),
              AM.getResult<OptimizationRemarkEmitterAnalysis>(F));
    if (!A.run())
      return PreservedAnalyses::all();
    PreservedAnalyses PA;
    PA.preserveSet<CFGAnalyses>();
    return PA;
  }

  void printPipeline(raw_ostream &OS, function_ref<StringRef(StringRef)>) { OS << Name; }
};

class NvCssaLegacy : public FunctionPass {
public:
  static char ID;
  NvCssaLegacy() : FunctionPass(ID) {}

  StringRef getPassName() const override { return "PHI-operand (CSSA) coalescing (nvopt)"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<DominatorTreeWrapperPass>();
    AU.setPreservesCFG();
  }

  bool runOnFunction(Function &F) override {
    if (F.isDeclaration() || skipFunction(F))
      return false;
    OptimizationRemarkEmitter ORE(&F);
    Adapter A(F, getAnalysis<DominatorTreeWrapperPass>().getDomTree(), ORE);
    return A.run();
  }
};

char NvCssaLegacy::ID = 0;

Adapter &adapter(void *H) { return *static_cast<Adapter *>(H); }

} // namespace

extern "C" void nvopt_shim_cssa_substitute(void *H, uint32_t Phi, uint32_t Slot, uint32_t With) {
  adapter(H).substitute(Phi, Slot, With);
}

extern "C" void nvopt_shim_cssa_sink(void *H, uint32_t Inst, uint32_t After) {
  adapter(H).sink(Inst, After);
}

// The legacy pass, for llc (inserted by name through src/codegen.rs).
extern "C" void nvopt_shim_register_cssa() {
  static PassInfo Info("PHI-operand (CSSA) coalescing (nvopt)", "nv-cssa", &NvCssaLegacy::ID,
                       PassInfo::NormalCtor_t(callDefaultCtor<NvCssaLegacy>), false, false);
  PassRegistry::getPassRegistry()->registerPass(Info);
}

// Makes `nv-cssa` a function pass name for opt -passes=.
void nvopt_register_cssa(PassBuilder &PB) {
  nvRegisterFunctionPass<NvCssaPass>(PB, "nv-cssa");
}
