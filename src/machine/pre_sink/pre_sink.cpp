// Adapts LLVM's MachineFunction to nv-pre-sink (src/machine/pre_sink): the legacy MachineFunctionPass
// `nv-pre-sink` and its PassRegistry entry (llc -run-pass; src/codegen.rs inserts it after
// machine-sink, i.e. after MachineCSE), the facts Rust reads per candidate instruction (its
// opcode name, its block, the blocks that read its register, and liveness facts: whether the
// register is live into a loop that never reads it, whether each operand is live where the
// register is read, whether an operand's only reader is the candidate), and the two edits Rust
// asks for: copy the instruction into a block (before the first reader there, which then reads
// the copy) and erase it when nothing reads it. A candidate defines one virtual register, reads
// only virtual registers, touches no memory and has no other effect, so a copy computes the
// same value wherever its operands are available. Which instructions move is decided in Rust.
#include "llvm/CodeGen/MachineDominators.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineLoopInfo.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
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

// Rust (src/machine/pre_sink/adapter.rs, nvopt_pre_sink_run): decides and asks for the edits;
// whether anything changed (prototype in the generated nvopt_boundary.h, src/boundary).

namespace {

// Per operand of a candidate, operandFacts reports one of the codes NvPreSinkOperand (OPERAND_*,
// defined in src/machine/pre_sink/mod.rs and generated into nvopt_boundary.h).

class NVPreSink : public NVLoopFactsPass<NVPreSink, nvopt_pre_sink_run> {
public:
  static char ID;
  NVPreSink() : NVLoopFactsPass(ID) {}

  StringRef getPassName() const override { return "NVPTX hoisted-value sinking (nvopt)"; }

  // Collects the candidates afresh (Rust calls this once per round).
  uint32_t collect() {
    Cands.clear();
    for (MachineBasicBlock &MBB : *MF)
      for (MachineInstr &MI : MBB)
        if (nvIsCopyable(MI))
          Cands.push_back(&MI);
    return Cands.size();
  }

  MachineInstr *cand(uint32_t Id) const { return Id < Cands.size() ? Cands[Id] : nullptr; }

  using NVMachineFunctionFacts::block;
  using NVMachineFunctionFacts::opcode;

  // The blocks that read R (PHI operands: the incoming block), each once; whether a PHI reads it.
  std::vector<const MachineBasicBlock *> useBlocks(Register R, bool &PhiUse) const {
    std::vector<const MachineBasicBlock *> Out;
    PhiUse = false;
    for (const MachineOperand &MO : MRI->use_nodbg_operands(R)) {
      PhiUse |= MO.getParent()->isPHI();
      const MachineBasicBlock *B = nvUseBlock(MO);
      if (std::find(Out.begin(), Out.end(), B) == Out.end())
        Out.push_back(B);
    }
    return Out;
  }

  // The blocks at whose entry R is live (nvLiveIn, machine_copy.h).
  std::set<const MachineBasicBlock *> liveIn(Register R) const { return nvLiveIn(*MRI, R); }

  // Whether R, live into the blocks Live and read in the blocks Uses, is live into the header
  // of a loop none of whose blocks reads it.
  bool liveAcrossIdleLoop(const std::set<const MachineBasicBlock *> &Live,
                          const std::vector<const MachineBasicBlock *> &Uses) const {
    for (const MachineLoop *L : MLI->getLoopsInPreorder()) {
      if (!Live.count(L->getHeader()))
        continue;
      bool Reads = std::any_of(Uses.begin(), Uses.end(),
                               [&](const MachineBasicBlock *B) { return L->contains(B); });
      if (!Reads)
        return true;
    }
    return false;
  }

  // Whether R, defined in block Def, live into the blocks Live and read in the blocks Uses, is
  // live into a block other than Def that does not read it: held past a block (a conditional
  // arm, a join) on the way to its readers.
  static bool liveAcrossIdleBlock(const MachineBasicBlock *Def,
                                  const std::set<const MachineBasicBlock *> &Live,
                                  const std::vector<const MachineBasicBlock *> &Uses) {
    return std::any_of(Live.begin(), Live.end(), [&](const MachineBasicBlock *B) {
      return B != Def && std::find(Uses.begin(), Uses.end(), B) == Uses.end();
    });
  }

  // Whether a use block lies in a loop that does not hold the definition's block (a copy there
  // would run on every iteration).
  bool useInDeeperLoop(const MachineInstr &MI, const std::vector<const MachineBasicBlock *> &Uses) const {
    for (const MachineBasicBlock *B : Uses) {
      const MachineLoop *L = MLI->getLoopFor(B);
      if (L && !L->contains(MI.getParent()))
        return true;
    }
    return false;
  }

  // Whether R is live at the start of every block in Uses.
  bool liveAtAll(Register R, const std::vector<const MachineBasicBlock *> &Uses) const {
    std::set<const MachineBasicBlock *> Live = liveIn(R);
    return std::all_of(Uses.begin(), Uses.end(),
                       [&](const MachineBasicBlock *B) { return Live.count(B); });
  }

  // Whether R's definition could be copied into every block in Uses with no register more: it
  // is copyable and each of its register operands is live at the start of those blocks or, up
  // to Depth links down, read by it alone, no wider than its result and defined the same way.
  bool definedFromLive(Register R, const std::vector<const MachineBasicBlock *> &Uses,
                       unsigned Depth) const {
    const MachineInstr *Def = MRI->getVRegDef(R);
    if (!Depth || !Def || !nvIsCopyable(*Def))
      return false;
    return std::all_of(Def->uses().begin(), Def->uses().end(), [&](const MachineOperand &MO) {
      return !MO.isReg() || liveAtAll(MO.getReg(), Uses) ||
             (MRI->hasOneNonDBGUse(MO.getReg()) && regBits(MO.getReg()) <= regBits(R) &&
              definedFromLive(MO.getReg(), Uses, Depth - 1));
    });
  }

  // Per register operand of MI, in order: live at the start of every use block of MI's result
  // (OPERAND_LIVE), else read by MI alone and no wider than MI's result (OPERAND_SOLE_READER, or
  // OPERAND_SOLE_READER_OF_LIVE when definedFromLive within ChainDepth links), else
  // OPERAND_NOT_LIVE.
  std::vector<uint8_t> operandFacts(const MachineInstr &MI,
                                    const std::vector<const MachineBasicBlock *> &Uses,
                                    unsigned ChainDepth) const {
    std::vector<uint8_t> Out;
    unsigned DefBits = regBits(MI.getOperand(0).getReg());
    for (const MachineOperand &MO : MI.uses()) {
      if (!MO.isReg())
        continue;
      Register R = MO.getReg();
      bool Sole = MRI->hasOneNonDBGUse(R) && regBits(R) <= DefBits;
      Out.push_back(liveAtAll(R, Uses) ? OPERAND_LIVE
                    : !Sole            ? OPERAND_NOT_LIVE
                    : definedFromLive(R, Uses, ChainDepth) ? OPERAND_SOLE_READER_OF_LIVE
                                               : OPERAND_SOLE_READER);
    }
    return Out;
  }

  // Copies MI into MBB before the first reader there (nvCopyToReaders, machine_copy.h).
  bool copyInto(MachineInstr &MI, MachineBasicBlock &MBB) {
    return nvCopyToReaders(*MF, *MRI, MI, MBB);
  }

  // Erases MI when no instruction reads its register any more (nvEraseIfUnread).
  bool eraseIfDead(MachineInstr &MI) { return nvEraseIfUnread(*MRI, MI, Cands); }

private:
  std::vector<MachineInstr *> Cands;
};

char NVPreSink::ID = 0;

NVPreSink &pass(void *H) { return *static_cast<NVPreSink *>(H); }

} // namespace

extern "C" void nvopt_shim_register_pre_sink() {
  nvRegisterMachinePass<NVPreSink>("NVPTX hoisted-value sinking (nvopt)", "nv-pre-sink");
}

extern "C" uint32_t nvopt_shim_pre_sink_collect(void *H) { return pass(H).collect(); }

// The facts of candidate Id (false when out of range or erased): its opcode name; its block's
// number; whether a PHI reads its register; whether its register is read in its own block;
// whether the register is live into a loop that never reads it; whether it is live into a block
// other than its own that does not read it (computed only when WantIdleBlock); whether a use block is in a
// loop that does not hold its block; up to Cap numbers of the blocks other than its own that
// read it in Blocks (their count in *NBlocks) and up to Cap operand facts in Ops (count in *NOps; see operandFacts, which follows
// a chain of definitions down to ChainDepth links). The liveness
// facts (the last five) cost a walk of the CFG per register, so they are left false and empty
// for a register no other block reads or a PHI reads, which the first facts already describe;
// for the others they are about the other blocks that read it.
extern "C" bool nvopt_shim_pre_sink_facts(void *H, uint32_t Id, const char **Name, size_t *Len,
                                          uint32_t *Block, bool *PhiUse, bool *OwnBlockUse,
                                          bool *IdleLoop, bool *IdleBlock, bool *DeeperLoop,
                                          uint32_t *Blocks,
                                          uint32_t *NBlocks, uint8_t *Ops, uint32_t *NOps,
                                          uint32_t Cap, uint32_t ChainDepth, bool WantIdleBlock) {
  const MachineInstr *MI = pass(H).cand(Id);
  if (!MI)
    return false;
  StringRef S = pass(H).opcode(*MI);
  *Name = S.data();
  *Len = S.size();
  *Block = MI->getParent()->getNumber();
  Register R = MI->getOperand(0).getReg();
  std::vector<const MachineBasicBlock *> Uses = pass(H).useBlocks(R, *PhiUse);
  const std::vector<const MachineBasicBlock *> AllUses = Uses;
  auto Own = std::find(Uses.begin(), Uses.end(), MI->getParent());
  *OwnBlockUse = Own != Uses.end();
  if (*OwnBlockUse)
    Uses.erase(Own);
  *NBlocks = Uses.size();
  for (uint32_t I = 0; I < Uses.size() && I < Cap; ++I)
    Blocks[I] = Uses[I]->getNumber();
  *IdleLoop = false;
  *IdleBlock = false;
  *DeeperLoop = false;
  *NOps = 0;
  if (Uses.empty() || *PhiUse)
    return true;
  std::set<const MachineBasicBlock *> Live = pass(H).liveIn(R);
  *IdleLoop = pass(H).liveAcrossIdleLoop(Live, AllUses);
  *IdleBlock = WantIdleBlock && NVPreSink::liveAcrossIdleBlock(MI->getParent(), Live, AllUses);
  *DeeperLoop = pass(H).useInDeeperLoop(*MI, Uses);
  std::vector<uint8_t> Facts = pass(H).operandFacts(*MI, Uses, ChainDepth);
  *NOps = Facts.size();
  for (uint32_t I = 0; I < Facts.size() && I < Cap; ++I)
    Ops[I] = Facts[I];
  return true;
}

extern "C" bool nvopt_shim_pre_sink_copy_into(void *H, uint32_t Id, uint32_t Block) {
  MachineInstr *MI = pass(H).cand(Id);
  MachineBasicBlock *MBB = pass(H).block(Block);
  return MI && MBB && pass(H).copyInto(*MI, *MBB);
}

extern "C" bool nvopt_shim_pre_sink_erase_if_dead(void *H, uint32_t Id) {
  MachineInstr *MI = pass(H).cand(Id);
  return MI && pass(H).eraseIfDead(*MI);
}
