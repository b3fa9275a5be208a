// Adapts LLVM's MachineFunction to nv-load-hoist (src/machine/load_hoist): the legacy
// MachineFunctionPass `nv-load-hoist` and its PassRegistry entry (llc -run-pass; src/codegen.rs
// inserts it after machine-sink), the facts Rust reads per candidate load (where its chain can
// go, see NvLoadHoistPlace; the bits of the roots only the chain reads; the bits of its result)
// and the one edit Rust asks for: move the chain, in order, to just after its last root
// definition. Whether a chain moves is decided in Rust; the shim reports a place as movable only
// when the move keeps every value: the load runs on the same paths (its block post-dominates the
// new place, in the same loop) and nothing between may write memory or has other effects.
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachinePostDominators.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"
#include "machine_copy.h"
#include "register.h"
#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

using namespace llvm;

// Rust (src/machine/load_hoist/adapter.rs, nvopt_load_hoist_run): decides and asks for the move;
// whether anything changed (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

// A load with one virtual result, register operands all virtual, that neither stores nor is
// volatile or atomic (or lacks the memory operand that would say so), and has no other effect.
bool isCandidate(const MachineInstr &MI) {
  if (!MI.mayLoad() || MI.mayStore() || MI.hasOrderedMemoryRef() || MI.isCall() ||
      MI.hasUnmodeledSideEffects() || MI.isInlineAsm() || MI.isPHI() || MI.isDebugInstr() ||
      MI.getNumExplicitDefs() != 1 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(0).getReg().isVirtual())
    return false;
  for (const MachineOperand &MO : MI.operands())
    if (MO.isReg() && (MO.isImplicit() || !MO.getReg().isVirtual()))
      return false;
  return true;
}

// Whether moving a load across MI could change what it reads or what the program does.
bool isEffect(const MachineInstr &MI) {
  return MI.mayStore() || MI.isCall() || MI.hasUnmodeledSideEffects() ||
         (MI.mayLoad() && MI.hasOrderedMemoryRef()) || MI.isInlineAsm();
}

// One candidate's chain (post-order: operands before their reader, the load last), its roots
// and where the chain would go.
struct Plan {
  std::vector<MachineInstr *> Chain;
  std::vector<Register> Roots;
  MachineBasicBlock *T = nullptr;
  MachineBasicBlock::iterator At;
  uint8_t Place = PLACE_NO_ROOT;
  uint32_t Freed = 0;
};

class NVLoadHoist : public MachineFunctionPass, public NVMachineFunctionFacts {
public:
  static char ID;
  NVLoadHoist() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return "NVPTX loads back next to their addresses (nvopt)"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<MachineDominatorTreeWrapperPass>();
    AU.addRequired<MachinePostDominatorTreeWrapperPass>();
    AU.addRequired<MachineLoopInfoWrapperPass>();
    AU.addPreserved<MachineDominatorTreeWrapperPass>();
    AU.addPreserved<MachinePostDominatorTreeWrapperPass>();
    AU.addPreserved<MachineLoopInfoWrapperPass>();
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()))
      return false;
    bind(Fn, getAnalysis<MachineLoopInfoWrapperPass>().getLI());
    DT = &getAnalysis<MachineDominatorTreeWrapperPass>().getDomTree();
    PDT = &getAnalysis<MachinePostDominatorTreeWrapperPass>().getPostDomTree();
    return nvopt_load_hoist_run(this, wrap(&Fn.getFunction()));
  }

  uint32_t collect() {
    Cands.clear();
    for (MachineBasicBlock &MBB : *MF)
      for (MachineInstr &MI : MBB)
        if (isCandidate(MI))
          Cands.push_back(&MI);
    return Cands.size();
  }

  MachineInstr *cand(uint32_t Id) const { return Id < Cands.size() ? Cands[Id] : nullptr; }

  // The chain of L, its roots and the place it can go (Plan::Place), as the function is now.
  Plan plan(MachineInstr &L, uint32_t MaxChain) const {
    Plan P;
    std::set<const MachineInstr *> In{&L};
    if (!addChain(L, In, P, MaxChain)) {
      P.Place = PLACE_CHAIN_TOO_LONG;
      return P;
    }
    if (P.Roots.empty())
      return P;
    MachineBasicBlock *B = L.getParent();
    // Every root's definition dominates B, so their blocks lie on one dominator-tree path: the
    // deepest is T, and the chain goes after the last root definition there.
    for (Register R : P.Roots) {
      MachineBasicBlock *D = MRI->getVRegDef(R)->getParent();
      if (!P.T || DT->dominates(P.T, D))
        P.T = D;
    }
    if (P.T == B) {
      P.Place = PLACE_SAME_BLOCK;
      return P;
    }
    if (!PDT->dominates(B, P.T) || MLI->getLoopFor(B) != MLI->getLoopFor(P.T)) {
      P.Place = PLACE_NOT_STRAIGHT;
      return P;
    }
    P.At = P.T->begin();
    for (auto I = P.T->begin(); I != P.T->end(); ++I)
      for (Register R : P.Roots)
        if (I->definesRegister(R, nullptr))
          P.At = std::next(I);
    P.At = P.T->SkipPHIsAndLabels(P.At);
    if (effectBetween(P, B, L, In)) {
      P.Place = PLACE_EFFECT_BETWEEN;
      return P;
    }
    for (Register R : P.Roots) {
      bool OnlyChain = true;
      for (const MachineInstr &U : MRI->use_nodbg_instructions(R))
        OnlyChain &= In.count(&U) > 0;
      if (OnlyChain)
        P.Freed += regBits(R);
    }
    P.Place = PLACE_MOVABLE;
    return P;
  }

  // Moves the chain of L, in order, to its place; false when the place is not movable.
  bool move(MachineInstr &L, uint32_t MaxChain) {
    Plan P = plan(L, MaxChain);
    if (P.Place != PLACE_MOVABLE)
      return false;
    // Chain instructions already at the place are moved too (in order): insert before the
    // first instruction there that is not one of them.
    std::set<const MachineInstr *> In(P.Chain.begin(), P.Chain.end());
    while (P.At != P.T->end() && In.count(&*P.At))
      ++P.At;
    for (MachineInstr *MI : P.Chain) {
      P.T->splice(P.At, MI->getParent(), MI->getIterator());
      for (const MachineOperand &MO : MI->uses())
        if (MO.isReg())
          MRI->clearKillFlags(MO.getReg());
    }
    return true;
  }

private:
  // Adds I's chain to P in post-order: an operand computed by a copyable instruction (no memory,
  // no effect) that only I reads joins the chain, any other register operand is a root. False
  // when the chain would exceed MaxChain instructions.
  bool addChain(MachineInstr &I, std::set<const MachineInstr *> &In, Plan &P,
                uint32_t MaxChain) const {
    for (const MachineOperand &MO : I.uses()) {
      if (!MO.isReg())
        continue;
      Register R = MO.getReg();
      MachineInstr *D = MRI->getVRegDef(R);
      if (D && nvIsCopyable(*D) && MRI->hasOneNonDBGUse(R) && !In.count(D)) {
        if (In.size() + 1 > MaxChain)
          return false;
        In.insert(D);
        if (!addChain(*D, In, P, MaxChain))
          return false;
      } else if (std::find(P.Roots.begin(), P.Roots.end(), R) == P.Roots.end()) {
        P.Roots.push_back(R);
      }
    }
    P.Chain.push_back(&I);
    return true;
  }

  // Whether an effect (isEffect) lies from P.At to the end of P.T, in a block on a path from
  // P.T to B, or in B before L; the chain's own instructions do not count. A path back into
  // P.T counts as an effect (the place would not run once per run of L).
  bool effectBetween(const Plan &P, MachineBasicBlock *B, const MachineInstr &L,
                     const std::set<const MachineInstr *> &In) const {
    auto Effect = [&](const MachineInstr &MI) { return !In.count(&MI) && isEffect(MI); };
    for (auto I = P.At; I != P.T->end(); ++I)
      if (Effect(*I))
        return true;
    std::set<const MachineBasicBlock *> Seen;
    std::vector<MachineBasicBlock *> Work(P.T->succ_begin(), P.T->succ_end());
    while (!Work.empty()) {
      MachineBasicBlock *X = Work.back();
      Work.pop_back();
      if (X == B || !Seen.insert(X).second)
        continue;
      if (X == P.T)
        return true;
      for (const MachineInstr &MI : *X)
        if (Effect(MI))
          return true;
      Work.insert(Work.end(), X->succ_begin(), X->succ_end());
    }
    for (const MachineInstr &MI : *B) {
      if (&MI == &L)
        break;
      if (Effect(MI))
        return true;
    }
    return false;
  }

  MachineDominatorTree *DT = nullptr;
  MachinePostDominatorTree *PDT = nullptr;
  std::vector<MachineInstr *> Cands;
};

char NVLoadHoist::ID = 0;

NVLoadHoist &pass(void *H) { return *static_cast<NVLoadHoist *>(H); }

} // namespace

extern "C" void nvopt_shim_register_load_hoist() {
  nvRegisterMachinePass<NVLoadHoist>("NVPTX loads back next to their addresses (nvopt)",
                                     "nv-load-hoist");
}

extern "C" uint32_t nvopt_shim_load_hoist_collect(void *H) { return pass(H).collect(); }

// The facts of candidate Id as the function is now (false when out of range): where its chain
// can go (NvLoadHoistPlace), the bits of the roots only the chain reads, the bits of its result.
extern "C" bool nvopt_shim_load_hoist_facts(void *H, uint32_t Id, uint32_t MaxChain,
                                            uint8_t *Place, uint32_t *FreedBits,
                                            uint32_t *ResultBits) {
  MachineInstr *L = pass(H).cand(Id);
  if (!L)
    return false;
  Plan P = pass(H).plan(*L, MaxChain);
  *Place = P.Place;
  *FreedBits = P.Freed;
  *ResultBits = pass(H).regBits(L->getOperand(0).getReg());
  return true;
}

extern "C" bool nvopt_shim_load_hoist_move(void *H, uint32_t Id, uint32_t MaxChain) {
  MachineInstr *L = pass(H).cand(Id);
  return L && pass(H).move(*L, MaxChain);
}
