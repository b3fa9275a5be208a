// Machine-IR facts and edits shared by the machine passes that copy an instruction next to its
// readers and then erase it (nv-param-opt, nv-pre-sink, nv-pred-remat), and the pass skeleton
// of the two loop-aware ones. Adapter only: no decisions.
#pragma once

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetRegisterInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"
#include <cstdint>
#include <algorithm>
#include <set>
#include <vector>

// The machine function a fact-reporting loop-aware pass works on (nv-pre-sink, nv-pred-remat),
// and the lookups Rust's block numbers and opcode names go through.
struct NVMachineFunctionFacts {
  llvm::MachineFunction *MF = nullptr;
  llvm::MachineRegisterInfo *MRI = nullptr;
  const llvm::TargetInstrInfo *TII = nullptr;
  llvm::MachineLoopInfo *MLI = nullptr;

  void bind(llvm::MachineFunction &Fn, llvm::MachineLoopInfo &LI) {
    MF = &Fn;
    MRI = &Fn.getRegInfo();
    TII = Fn.getSubtarget().getInstrInfo();
    MLI = &LI;
  }

  // The block numbered Number, or null when there is none.
  llvm::MachineBasicBlock *block(uint32_t Number) const {
    return Number < MF->getNumBlockIDs() ? MF->getBlockNumbered(Number) : nullptr;
  }

  llvm::StringRef opcode(const llvm::MachineInstr &MI) const {
    return TII->getName(MI.getOpcode());
  }

  // Width in bits of virtual register R's class.
  unsigned regBits(llvm::Register R) const {
    return MRI->getTargetRegisterInfo()->getRegSizeInBits(*MRI->getRegClass(R));
  }
};

// The legacy machine pass of a loop-aware pass whose decisions are Rust's (nv-pre-sink,
// nv-pred-remat): it needs MachineLoopInfo and keeps the CFG (so the loops) as they are, binds
// the function's facts, lets Derived::prepare() gather what it hands out, then calls
// Run(Host, F), the Rust entry, with Host the Derived pass (which Run's shim calls cast back).
template <class Derived, bool (*Run)(void *, LLVMValueRef)>
class NVLoopFactsPass : public llvm::MachineFunctionPass, public NVMachineFunctionFacts {
public:
  explicit NVLoopFactsPass(char &ID) : llvm::MachineFunctionPass(ID) {}

  void getAnalysisUsage(llvm::AnalysisUsage &AU) const override {
    AU.addRequired<llvm::MachineLoopInfoWrapperPass>();
    AU.addPreserved<llvm::MachineLoopInfoWrapperPass>();
    AU.setPreservesCFG();
    llvm::MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(llvm::MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()))
      return false;
    bind(Fn, getAnalysis<llvm::MachineLoopInfoWrapperPass>().getLI());
    Derived &D = static_cast<Derived &>(*this);
    D.prepare();
    return Run(&D, llvm::wrap(&Fn.getFunction()));
  }

  // Nothing to gather before Run, unless Derived says otherwise.
  void prepare() {}
};

// The block in which a use reads the register: its own, or for a PHI operand the incoming block.
inline const llvm::MachineBasicBlock *nvUseBlock(const llvm::MachineOperand &MO) {
  const llvm::MachineInstr &U = *MO.getParent();
  if (!U.isPHI())
    return U.getParent();
  return U.getOperand(U.getOperandNo(&MO) + 1).getMBB();
}

// Whether a copy of MI computes the same value wherever its operands are available: one
// virtual def, virtual register (or immediate) operands only, no memory access, no other effect,
// no control flow.
inline bool nvIsCopyable(const llvm::MachineInstr &MI) {
  if (MI.mayLoadOrStore() || MI.hasUnmodeledSideEffects() || MI.isCall() || MI.isTerminator() ||
      MI.isPHI() || MI.isCopyLike() || MI.isDebugInstr() || MI.isInlineAsm() ||
      MI.getNumExplicitDefs() != 1 || !MI.getOperand(0).isReg() ||
      !MI.getOperand(0).getReg().isVirtual())
    return false;
  for (const llvm::MachineOperand &MO : MI.operands())
    if (MO.isReg() && (MO.isImplicit() || !MO.getReg().isVirtual()))
      return false;
  return true;
}

// The blocks at whose entry virtual register R is live: backward reachability from the blocks
// that read it (nvUseBlock), never through its defining block (SSA: the definition dominates
// every read).
inline std::set<const llvm::MachineBasicBlock *> nvLiveIn(const llvm::MachineRegisterInfo &MRI,
                                                          llvm::Register R) {
  std::set<const llvm::MachineBasicBlock *> Live;
  const llvm::MachineInstr *Def = MRI.getVRegDef(R);
  if (!Def)
    return Live;
  const llvm::MachineBasicBlock *DefBB = Def->getParent();
  std::vector<const llvm::MachineBasicBlock *> Work;
  for (const llvm::MachineOperand &MO : MRI.use_nodbg_operands(R)) {
    const llvm::MachineBasicBlock *B = nvUseBlock(MO);
    if (B != DefBB && Live.insert(B).second)
      Work.push_back(B);
  }
  while (!Work.empty()) {
    const llvm::MachineBasicBlock *B = Work.back();
    Work.pop_back();
    for (const llvm::MachineBasicBlock *P : B->predecessors())
      if (P != DefBB && Live.insert(P).second)
        Work.push_back(P);
  }
  return Live;
}

// Copies MI (one virtual-register def) into MBB before the first instruction there that reads
// its register (the terminators when only PHI operands of successors read it there) and makes
// those reads read the copy; the operands' kill flags are cleared (MI, kept where it has other
// readers, no longer reads them last). False when nothing in MBB
// reads the register or MBB is MI's own block.
inline bool nvCopyToReaders(llvm::MachineFunction &MF, llvm::MachineRegisterInfo &MRI,
                            llvm::MachineInstr &MI, llvm::MachineBasicBlock &MBB) {
  llvm::Register Old = MI.getOperand(0).getReg();
  if (MI.getParent() == &MBB)
    return false;
  std::vector<llvm::MachineOperand *> Uses;
  for (llvm::MachineOperand &MO : MRI.use_nodbg_operands(Old))
    if (nvUseBlock(MO) == &MBB)
      Uses.push_back(&MO);
  if (Uses.empty())
    return false;
  llvm::MachineBasicBlock::iterator At = MBB.getFirstTerminator();
  for (llvm::MachineInstr &I : MBB.instrs())
    if (!I.isPHI() && I.readsRegister(Old, nullptr)) {
      At = I.getIterator();
      break;
    }
  llvm::Register New = MRI.createVirtualRegister(MRI.getRegClass(Old));
  llvm::MachineInstr *Copy = MF.CloneMachineInstr(&MI);
  Copy->getOperand(0).setReg(New);
  for (llvm::MachineOperand &MO : Copy->uses())
    if (MO.isReg()) {
      MO.setIsKill(false);
      MRI.clearKillFlags(MO.getReg()); // MI's own reads (kept when it has other readers)
    }
  MBB.insert(At, Copy);
  for (llvm::MachineOperand *MO : Uses)
    MO->setReg(New);
  return true;
}

// Erases MI (one virtual-register def) when nothing reads its register any more, clearing the
// kill flags of its register operands (their last reads are now elsewhere) and nulling its slot
// in the pass's candidate list. False when the register is still read.
inline bool nvEraseIfUnread(llvm::MachineRegisterInfo &MRI, llvm::MachineInstr &MI,
                            std::vector<llvm::MachineInstr *> &List) {
  if (!MRI.use_nodbg_empty(MI.getOperand(0).getReg()))
    return false;
  for (const llvm::MachineOperand &MO : MI.uses())
    if (MO.isReg())
      MRI.clearKillFlags(MO.getReg());
  std::replace(List.begin(), List.end(), &MI, static_cast<llvm::MachineInstr *>(nullptr));
  MI.eraseFromParent();
  return true;
}
