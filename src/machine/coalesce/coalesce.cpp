// Adapts LLVM's MachineFunction and LiveIntervals to nv-coalesce's planner (src/machine/coalesce;
// docs/CICC-FACTS.md "Register coalescing" and "NVPTX in LLVM 22 (for the coalescer)"):
// the legacy MachineFunctionPass `nv-coalesce` and its PassRegistry entry (llc -run-pass; the
// codegen callback, src/shim/codegen.cpp with src/codegen.rs, puts it after RegisterCoalescer), the facts collected per copy (COPY and the isMoveReg MOV_B*_r), and the oracle
// calls that keep LiveIntervals exact after each rewrite: interference (overlap of the two
// intervals, except where both hold the copied value), merge (rename, erase the copy, recompute the interval), erasing an identity copy,
// and rewriting a copy into the immediate move that defines its source; optimization remarks
// (-pass-remarks=nv-coalesce, -pass-remarks-missed=nv-coalesce) for each copy removed or kept.
// Every decision is in Rust.
#include "llvm/CodeGen/LiveInterval.h"
#include "llvm/CodeGen/LiveIntervals.h"
#include "llvm/CodeGen/MachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/SlotIndexes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/PassInfo.h"
#include "llvm/PassRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <string>
#include <vector>

#include "boundary.h"
#include "register.h"

using namespace llvm;

namespace {

// The flag and source-definition codes of RawFacts (NvCoalesceFlag, NvCoalesceSourceDef) are
// defined in src/machine/coalesce/ffi.rs and generated into nvopt_boundary.h.

} // namespace

namespace {

// A register-to-register copy: COPY or a move whose MCInstrDesc says isMoveReg (MOV_B*_r).
bool isCopy(const MachineInstr &MI) {
  return (MI.isCopy() || MI.isMoveReg()) && MI.getNumOperands() == 2 && MI.getOperand(0).isReg() &&
         MI.getOperand(0).isDef() && MI.getOperand(1).isReg() && MI.getOperand(1).isUse();
}

class NVCoalesce : public MachineFunctionPass {
public:
  static char ID;
  NVCoalesce() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override { return "NVPTX copy coalescer (nvopt)"; }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    AU.addRequired<LiveIntervalsWrapperPass>();
    AU.addPreserved<LiveIntervalsWrapperPass>();
    AU.addPreserved<SlotIndexesWrapperPass>();
    AU.addRequired<MachineBlockFrequencyInfoWrapperPass>();
    AU.addPreserved<MachineBlockFrequencyInfoWrapperPass>();
    AU.addRequired<MachineOptimizationRemarkEmitterPass>();
    AU.addPreserved<MachineLoopInfoWrapperPass>();
    AU.addPreservedID(MachineDominatorsID);
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()))
      return false;
    MF = &Fn;
    MRI = &Fn.getRegInfo();
    TRI = Fn.getSubtarget().getRegisterInfo();
    LIS = &getAnalysis<LiveIntervalsWrapperPass>().getLIS();
    MBFI = &getAnalysis<MachineBlockFrequencyInfoWrapperPass>().getMBFI();
    ORE = &getAnalysis<MachineOptimizationRemarkEmitterPass>().getORE();
    Copies.clear();
    Weights.clear();
    std::vector<RawFacts> Facts;
    for (MachineBasicBlock &MBB : Fn)
      for (MachineInstr &MI : MBB)
        if (isCopy(MI)) {
          Copies.push_back(&MI);
          Facts.push_back(facts(MI));
        }
    return nvopt_coalesce_run(this, Facts.data(), Facts.size());
  }

  // ---- oracle (src/machine/coalesce/ffi.rs) ----

  MachineInstr *copy(uint32_t Id) const { return Id < Copies.size() ? Copies[Id] : nullptr; }
  static Register dst(const MachineInstr &MI) { return MI.getOperand(0).getReg(); }
  static Register src(const MachineInstr &MI) { return MI.getOperand(1).getReg(); }

  // Whether the two intervals overlap anywhere other than where the destination holds the value
  // this copy defines while the source still holds the value the copy read (there both hold
  // the same bits), or the source's value is defined again while the destination still holds
  // its copy of the previous instance (around a loop: same value numbers, different bits).
  bool interferes(const MachineInstr &MI) {
    LiveInterval &D = LIS->getInterval(dst(MI)), &S = LIS->getInterval(src(MI));
    if (D.hasSubRanges() || S.hasSubRanges())
      return true;
    SlotIndex Idx = LIS->getInstructionIndex(MI);
    const VNInfo *CopyDef = D.getVNInfoAt(Idx.getRegSlot());
    const VNInfo *Copied = S.Query(Idx).valueIn();
    if (CopyDef && Copied && D.getVNInfoAt(Copied->def) == CopyDef)
      return true;
    for (auto I = D.begin(), J = S.begin(); I != D.end() && J != S.end();) {
      if (I->end <= J->start) {
        ++I;
      } else if (J->end <= I->start) {
        ++J;
      } else {
        if (!CopyDef || !Copied || I->valno != CopyDef || J->valno != Copied)
          return true;
        if (I->end < J->end)
          ++I;
        else
          ++J;
      }
    }
    return false;
  }

  void merge(uint32_t Id, Register Keep) {
    MachineInstr *MI = copy(Id);
    Register D = dst(*MI), S = src(*MI);
    if (Keep != D && Keep != S)
      return;
    Register Drop = Keep == D ? S : D;
    ORE->emit([&] {
      return MachineOptimizationRemark(Name, "Merged", MI->getDebugLoc(), MI->getParent())
             << describe(*MI) << " merged: " << reg(Drop) << " renamed " << reg(Keep);
    });
    erase(Id);
    LIS->removeInterval(Drop);
    LIS->removeInterval(Keep);
    MRI->replaceRegWith(Drop, Keep);
    MRI->clearKillFlags(Keep);
    recompute(Keep);
  }

  void eraseIdentity(uint32_t Id) {
    Register R = dst(*copy(Id));
    erase(Id);
    LIS->removeInterval(R);
    recompute(R);
  }

  // The immediate move that defines the value copy MI reads, if that is what defines it.
  MachineInstr *immediateDef(const MachineInstr &MI) {
    Register S = src(MI);
    const VNInfo *V = LIS->getInterval(S).Query(LIS->getInstructionIndex(MI)).valueIn();
    if (!V || V->isPHIDef())
      return nullptr;
    MachineInstr *Def = LIS->getInstructionFromIndex(V->def);
    if (!Def || !Def->isMoveImmediate() || Def->getNumOperands() != 2 ||
        !Def->getOperand(0).isReg() || Def->getOperand(0).getReg() != S ||
        Def->getOperand(0).getSubReg() || Def->hasUnmodeledSideEffects() ||
        MRI->getRegClass(S) != MRI->getRegClass(dst(MI)))
      return nullptr;
    return Def;
  }

  // Replaces copy Id by a clone of the immediate move defining its source, at the copy's slot
  // (the destination's interval is unchanged); shrinks the source's interval and erases the
  // move if nothing reads it any more. Returns the source register.
  Register rematerialize(uint32_t Id) {
    MachineInstr *MI = copy(Id);
    Register D = dst(*MI), S = src(*MI);
    MachineInstr *Def = immediateDef(*MI);
    if (!Def)
      return S;
    ORE->emit([&] {
      return MachineOptimizationRemark(Name, "Rematerialized", MI->getDebugLoc(), MI->getParent())
             << describe(*MI) << " rewritten into the immediate move that defines " << reg(S);
    });
    MachineInstr *New = MF->CloneMachineInstr(Def);
    New->getOperand(0).setReg(D);
    New->getOperand(0).setIsDead(MI->getOperand(0).isDead());
    New->setDebugLoc(MI->getDebugLoc());
    MI->getParent()->insert(MI->getIterator(), New);
    LIS->ReplaceMachineInstrInMaps(*MI, *New);
    MI->eraseFromParent();
    Copies[Id] = nullptr;

    SmallVector<MachineInstr *, 2> Dead;
    LiveInterval &LI = LIS->getInterval(S);
    LIS->shrinkToUses(&LI, &Dead);
    bool Erased = false;
    for (MachineInstr *X : Dead)
      if (X->isMoveImmediate() && X->allDefsAreDead() && !X->hasUnmodeledSideEffects()) {
        LIS->RemoveMachineInstrFromMaps(*X);
        X->eraseFromParent();
        Erased = true;
      }
    if (Erased) {
      LIS->removeInterval(S);
      recompute(S);
    } else {
      SmallVector<LiveInterval *, 2> Split;
      LIS->splitSeparateComponents(LI, Split);
    }
    return S;
  }

  void kept(uint32_t Id, bool ByLimit) {
    const MachineInstr *MI = copy(Id);
    ORE->emit([&] {
      return MachineOptimizationRemarkMissed(Name, ByLimit ? "Limit" : "Interference",
                                             MI->getDebugLoc(), MI->getParent())
             << describe(*MI)
             << (ByLimit ? " kept: nv-coalesce-limit reached"
                         : " kept: the two registers are live at once with different values");
    });
  }

private:
  static constexpr const char *Name = "nv-coalesce";
  MachineFunction *MF = nullptr;
  MachineRegisterInfo *MRI = nullptr;
  const TargetRegisterInfo *TRI = nullptr;
  LiveIntervals *LIS = nullptr;
  MachineBlockFrequencyInfo *MBFI = nullptr;
  MachineOptimizationRemarkEmitter *ORE = nullptr;
  std::vector<MachineInstr *> Copies;
  DenseMap<Register, RawWeight> Weights;

  std::string reg(Register R) const {
    std::string S;
    raw_string_ostream(S) << printReg(R, TRI);
    return S;
  }

  std::string describe(const MachineInstr &MI) const {
    return "copy " + reg(dst(MI)) + " = " + reg(src(MI));
  }

  void erase(uint32_t Id) {
    MachineInstr *MI = Copies[Id];
    LIS->RemoveMachineInstrFromMaps(*MI);
    MI->eraseFromParent();
    Copies[Id] = nullptr;
  }

  // Rebuilds R's interval from its operands (splitting it should it fall apart); a register
  // left with debug uses only gets no interval and its debug uses become undef.
  void recompute(Register R) {
    if (MRI->reg_nodbg_empty(R)) {
      for (MachineOperand &MO : make_early_inc_range(MRI->reg_operands(R)))
        MO.setReg(Register());
      return;
    }
    LiveInterval &LI = LIS->createAndComputeVirtRegInterval(R);
    SmallVector<LiveInterval *, 2> Split;
    LIS->splitSeparateComponents(LI, Split);
  }

  RawWeight weight(Register R) {
    auto [It, New] = Weights.try_emplace(R);
    if (!New)
      return It->second;
    RawWeight W;
    for (const MachineInstr &I : MRI->reg_nodbg_instructions(R)) {
      auto [Reads, Writes] = I.readsWritesVirtualRegister(R);
      ++W.Instrs;
      W.Spill += LiveIntervals::getSpillWeight(Writes, Reads, MBFI, I);
    }
    for (const MachineOperand &MO : MRI->use_nodbg_operands(R)) {
      (void)MO;
      ++W.Uses;
    }
    It->second = W;
    return W;
  }

  static bool tailOfBlock(const MachineInstr &MI) {
    for (auto I = std::next(MI.getIterator()), E = MI.getParent()->instr_end(); I != E; ++I)
      if (!(isCopy(*I) || I->isTerminator() || I->isDebugInstr()))
        return false;
    return true;
  }

  RawFacts facts(const MachineInstr &MI) {
    RawFacts F;
    const MachineOperand &DO = MI.getOperand(0), &SO = MI.getOperand(1);
    Register D = DO.getReg(), S = SO.getReg();
    const MachineBasicBlock *MBB = MI.getParent();
    if (DO.getSubReg() || SO.getSubReg())
      F.Flags |= SUBREG;
    if (SO.isUndef())
      F.Flags |= SRC_UNDEF;
    if (tailOfBlock(MI))
      F.Flags |= AT_BLOCK_END;
    F.Freq = MBFI->getBlockFreqRelativeToEntryBlock(MBB);
    if (D.isVirtual()) {
      F.Flags |= DST_VIRTUAL;
      F.Dst = D.virtRegIndex();
      F.Width = TRI->getRegSizeInBits(*MRI->getRegClass(D));
      F.DstWeight = weight(D);
      if (LIS->isLiveOutOfMBB(LIS->getInterval(D), MBB))
        F.Flags |= DST_LIVE_OUT;
      for (const MachineInstr &U : MRI->use_nodbg_instructions(D))
        if (U.mayStore() && !U.memoperands_empty()) {
          F.DstStoredTo = U.memoperands().front()->getAddrSpace();
          break;
        }
    }
    if (S.isVirtual()) {
      F.Flags |= SRC_VIRTUAL;
      F.Src = S.virtRegIndex();
      F.SrcWeight = weight(S);
      const VNInfo *V = LIS->getInterval(S).Query(LIS->getInstructionIndex(MI)).valueIn();
      if (V && V->isPHIDef()) {
        F.SrcDef = DEF_PHI_JOIN;
      } else if (const MachineInstr *Def = V ? LIS->getInstructionFromIndex(V->def) : nullptr) {
        if (Def->isMoveImmediate()) {
          F.SrcDef = DEF_IMMEDIATE;
        } else if (Def->mayLoad() && !Def->memoperands_empty()) {
          F.SrcDef = DEF_LOAD;
          F.SrcDefAddrSpace = Def->memoperands().front()->getAddrSpace();
        }
      }
    }
    if (D.isVirtual() && S.isVirtual() && MRI->getRegClass(D) == MRI->getRegClass(S))
      F.Flags |= SAME_CLASS;
    return F;
  }
};

char NVCoalesce::ID = 0;

NVCoalesce &pass(void *H) { return *static_cast<NVCoalesce *>(H); }

} // namespace

extern "C" void nvopt_shim_register_coalesce() {
  nvRegisterMachinePass<NVCoalesce>("NVPTX copy coalescer (nvopt)", "nv-coalesce");
}

extern "C" bool nvopt_shim_coalesce_current(void *H, uint32_t Id, uint32_t *Dst, uint32_t *Src) {
  const MachineInstr *MI = pass(H).copy(Id);
  if (!MI)
    return false;
  *Dst = NVCoalesce::dst(*MI).virtRegIndex();
  *Src = NVCoalesce::src(*MI).virtRegIndex();
  return true;
}

extern "C" bool nvopt_shim_coalesce_interferes(void *H, uint32_t Id) {
  const MachineInstr *MI = pass(H).copy(Id);
  return !MI || pass(H).interferes(*MI);
}

extern "C" void nvopt_shim_coalesce_merge(void *H, uint32_t Id, uint32_t Keep) {
  if (pass(H).copy(Id))
    pass(H).merge(Id, Register::index2VirtReg(Keep));
}

extern "C" void nvopt_shim_coalesce_erase_identity(void *H, uint32_t Id) {
  if (pass(H).copy(Id))
    pass(H).eraseIdentity(Id);
}

extern "C" bool nvopt_shim_coalesce_immediate_source(void *H, uint32_t Id) {
  const MachineInstr *MI = pass(H).copy(Id);
  return MI && pass(H).immediateDef(*MI);
}

extern "C" void nvopt_shim_coalesce_kept(void *H, uint32_t Id, bool ByLimit) {
  if (pass(H).copy(Id))
    pass(H).kept(Id, ByLimit);
}

extern "C" uint32_t nvopt_shim_coalesce_rematerialize(void *H, uint32_t Id) {
  if (!pass(H).copy(Id))
    return 0;
  return pass(H).rematerialize(Id).virtRegIndex();
}
