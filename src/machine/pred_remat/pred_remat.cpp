// Adapts LLVM's MachineFunction to nv-pred-remat (src/machine/pred_remat): the legacy
// MachineFunctionPass `nv-pred-remat` and its PassRegistry entry (llc -run-pass;
// src/codegen.rs inserts it after machine-sink, i.e. after early MachineLICM and MachineCSE),
// the facts Rust reads per loop (the predicate registers live into its header and, for each,
// its defining instruction's opcode name, whether that definition is outside the loop, whether
// a PHI reads the predicate, whether every register operand of the definition is live into the
// loop's header, and the loop's blocks that read the predicate), and the two edits Rust asks
// for: copy the definition into a block (before the first reader there, which then reads the
// copy) and erase it when nothing reads it. Which predicates are recomputed is decided in Rust.
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
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

// Rust (src/machine/pred_remat/adapter.rs, nvopt_pred_remat_run): decides and asks for the edits;
// whether anything changed (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

class NVPredRemat : public NVLoopFactsPass<NVPredRemat, nvopt_pred_remat_run> {
public:
  static char ID;
  NVPredRemat() : NVLoopFactsPass(ID) {}

  StringRef getPassName() const override { return "NVPTX predicate rematerialization (nvopt)"; }

  // The function's loops, inner loops before the loops holding them (NVLoopFactsPass).
  void prepare() {
    Loops.clear();
    for (MachineLoop *L : MLI->getLoopsInPreorder())
      Loops.push_back(L);
    std::reverse(Loops.begin(), Loops.end());
  }

  uint32_t loopCount() const { return Loops.size(); }

  // Collects the predicate registers live into loop Id's header (afresh: Rust asks once per
  // loop, after the edits made for the loops before it); their number, or 0 for a bad Id.
  uint32_t collect(uint32_t Id) {
    Preds.clear();
    if (Id >= Loops.size())
      return 0;
    Loop = Loops[Id];
    for (unsigned I = 0, E = MRI->getNumVirtRegs(); I != E; ++I) {
      Register R = Register::index2VirtReg(I);
      if (MRI->reg_nodbg_empty(R) || regBits(R) != 1)
        continue;
      if (liveIn(R).count(Loop->getHeader()))
        Preds.push_back(R);
    }
    return Preds.size();
  }

  // The definition of predicate Id of the current loop, when it may be copied.
  MachineInstr *def(uint32_t Id) const {
    if (Id >= Preds.size() || !Preds[Id])
      return nullptr;
    MachineInstr *MI = MRI->getVRegDef(Preds[Id]);
    return MI && nvIsCopyable(*MI) ? MI : nullptr;
  }

  using NVMachineFunctionFacts::block;
  using NVMachineFunctionFacts::opcode;

  bool inLoop(const MachineBasicBlock *B) const { return Loop->contains(B); }

  // The current loop's blocks that read R (PHI operands: the incoming block), each once;
  // whether a PHI in the loop reads it.
  std::vector<const MachineBasicBlock *> loopReaders(Register R, bool &PhiUse) const {
    std::vector<const MachineBasicBlock *> Out;
    PhiUse = false;
    for (const MachineOperand &MO : MRI->use_nodbg_operands(R)) {
      const MachineInstr &User = *MO.getParent();
      PhiUse |= User.isPHI() && inLoop(User.getParent());
      const MachineBasicBlock *B = nvUseBlock(MO);
      if (inLoop(B) && std::find(Out.begin(), Out.end(), B) == Out.end())
        Out.push_back(B);
    }
    return Out;
  }

  // Whether every register operand of MI is live into the current loop's header: then it is
  // live in every block of the loop (defined outside it, SSA), and a copy there reads it.
  bool operandsLive(const MachineInstr &MI) const {
    for (const MachineOperand &MO : MI.uses())
      if (MO.isReg() && !liveIn(MO.getReg()).count(Loop->getHeader()))
        return false;
    return true;
  }

  // Copies predicate Id's definition into MBB before the first reader there (nvCopyToReaders).
  bool copyInto(uint32_t Id, MachineBasicBlock &MBB) {
    MachineInstr *MI = def(Id);
    return MI && inLoop(&MBB) && nvCopyToReaders(*MF, *MRI, *MI, MBB);
  }

  // Erases predicate Id's definition when nothing reads it any more (nvEraseIfUnread).
  bool eraseIfUnread(uint32_t Id) {
    MachineInstr *MI = def(Id);
    if (!MI)
      return false;
    std::vector<MachineInstr *> List{MI};
    if (!nvEraseIfUnread(*MRI, *MI, List))
      return false;
    Preds[Id] = Register();
    return true;
  }

private:
  // The blocks at whose entry R is live (nvLiveIn, machine_copy.h).
  std::set<const MachineBasicBlock *> liveIn(Register R) const { return nvLiveIn(*MRI, R); }

  std::vector<MachineLoop *> Loops;
  MachineLoop *Loop = nullptr;
  std::vector<Register> Preds;
};

char NVPredRemat::ID = 0;

NVPredRemat &pass(void *H) { return *static_cast<NVPredRemat *>(H); }

} // namespace

extern "C" void nvopt_shim_register_pred_remat() {
  nvRegisterMachinePass<NVPredRemat>("NVPTX predicate rematerialization (nvopt)",
                                     "nv-pred-remat");
}

extern "C" uint32_t nvopt_shim_pred_remat_loops(void *H) { return pass(H).loopCount(); }

extern "C" uint32_t nvopt_shim_pred_remat_collect(void *H, uint32_t Loop) {
  return pass(H).collect(Loop);
}

// The facts of predicate Id of the loop last collected. False when its definition may not be
// copied (a PHI, a load, a physical register operand...: the predicate then only counts).
// Otherwise: the definition's opcode name; whether it is outside the loop; whether a PHI in
// the loop reads the predicate; whether every register operand of the definition is live into
// the loop's header; up to Cap numbers of the loop's blocks that read the predicate in Blocks
// (their count in *NBlocks).
extern "C" bool nvopt_shim_pred_remat_facts(void *H, uint32_t Id, const char **Name, size_t *Len,
                                            bool *Outside, bool *PhiUse, bool *OperandsLive,
                                            uint32_t *Blocks, uint32_t *NBlocks, uint32_t Cap) {
  const MachineInstr *MI = pass(H).def(Id);
  if (!MI)
    return false;
  StringRef S = pass(H).opcode(*MI);
  *Name = S.data();
  *Len = S.size();
  *Outside = !pass(H).inLoop(MI->getParent());
  std::vector<const MachineBasicBlock *> Readers =
      pass(H).loopReaders(MI->getOperand(0).getReg(), *PhiUse);
  *OperandsLive = pass(H).operandsLive(*MI);
  *NBlocks = Readers.size();
  for (uint32_t I = 0; I < Readers.size() && I < Cap; ++I)
    Blocks[I] = Readers[I]->getNumber();
  return true;
}

extern "C" bool nvopt_shim_pred_remat_copy_into(void *H, uint32_t Id, uint32_t Block) {
  MachineBasicBlock *MBB = pass(H).block(Block);
  return MBB && pass(H).copyInto(Id, *MBB);
}

extern "C" bool nvopt_shim_pred_remat_erase_if_unread(void *H, uint32_t Id) {
  return pass(H).eraseIfUnread(Id);
}
