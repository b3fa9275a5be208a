// Adapts LLVM's MachineFunction to nv-mul-wide-split (src/machine/mul_wide_split): the legacy
// MachineFunctionPass `nv-mul-wide-split` and its PassRegistry entry (llc -run-pass;
// src/codegen.rs inserts it after machine-sink), the facts Rust reads, and the one edit Rust
// asks for. Facts: the candidates (`mul.wide.u32`/`mul.wide.s32` of a register by an immediate,
// in SSA form), each candidate's readers (opcode name and register operands), and for any
// virtual register its unique definition (opcode name, flags, register operands). Edit: replace
// candidate I by `cvt.u64.u32`/`cvt.s64.s32` into a new register and `shl.b64` of that by K into
// the candidate's register, which computes the same 64-bit value (zext/sext(a) * 2^K ==
// zext/sext(a) << K). Which candidates are split is decided in Rust.
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Function.h"
#include "llvm-c/Core.h"
#include "register.h"
#include <cstdint>
#include <limits>
#include <vector>

using namespace llvm;

// Rust (src/machine/mul_wide_split/adapter.rs, nvopt_mul_wide_split_run): decides and asks for
// the edits; whether anything changed (prototype in the generated nvopt_boundary.h).

namespace {

// The flag bits of an instruction (NvMulWideFlag: MW_MAY_LOAD, ...) and the operand positions of
// a candidate (NvMulWideOperand: MW_OP_PRODUCT, ...) are defined in
// src/machine/mul_wide_split/adapter.rs and generated into nvopt_boundary.h.

class NVMulWideSplit : public MachineFunctionPass {
public:
  static char ID;
  NVMulWideSplit() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override {
    return "NVPTX mul.wide by a power of two as convert and shift (nvopt)";
  }

  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.setPreservesCFG();
    MachineFunctionPass::getAnalysisUsage(AU);
  }

  bool runOnMachineFunction(MachineFunction &Fn) override {
    if (skipFunction(Fn.getFunction()))
      return false;
    MRI = &Fn.getRegInfo();
    if (!MRI->isSSA())
      return false;
    TII = Fn.getSubtarget().getInstrInfo();
    Cands.clear();
    // The opcodes by name, looked up once (one NVPTX target per process).
    static const int U = opcode("MUL_WIDEu32_ri"), S = opcode("MUL_WIDEs32_ri");
    static const int CvtUOp = opcode("CVT_u64_u32"), CvtSOp = opcode("CVT_s64_s32");
    static const int ShlOp = opcode("SHL64_ri");
    CvtU = CvtUOp;
    CvtS = CvtSOp;
    Shl = ShlOp;
    if (U < 0 || S < 0 || CvtU < 0 || CvtS < 0 || Shl < 0)
      return false;
    for (MachineBasicBlock &MBB : Fn)
      for (MachineInstr &MI : MBB)
        if ((int)MI.getOpcode() == U || (int)MI.getOpcode() == S)
          if (MI.getNumOperands() == MW_OP_COUNT && MI.getOperand(MW_OP_PRODUCT).isReg() &&
              MI.getOperand(MW_OP_PRODUCT).getReg().isVirtual() &&
              MI.getOperand(MW_OP_SOURCE).isReg() &&
              MI.getOperand(MW_OP_SOURCE).getReg().isVirtual() &&
              MI.getOperand(MW_OP_MULTIPLIER).isImm())
            Cands.push_back(&MI);
    if (Cands.empty())
      return false;
    return nvopt_mul_wide_split_run(this, wrap(&Fn.getFunction()));
  }

  uint32_t count() const { return Cands.size(); }
  MachineInstr *cand(uint32_t I) const { return I < Cands.size() ? Cands[I] : nullptr; }
  bool isSigned(const MachineInstr &MI) const {
    return TII->getName(MI.getOpcode()) == "MUL_WIDEs32_ri";
  }
  StringRef name(const MachineInstr &MI) const { return TII->getName(MI.getOpcode()); }
  MachineRegisterInfo &mri() const { return *MRI; }

  // Replaces candidate I by convert + shift left by K.
  bool split(uint32_t I, uint32_t K) {
    MachineInstr *MI = cand(I);
    // The shift must compute the product: 2^K is the multiplier.
    if (!MI || K == 0 || K >= (uint32_t)std::numeric_limits<int64_t>::digits ||
        (int64_t{1} << K) != MI->getOperand(MW_OP_MULTIPLIER).getImm())
      return false;
    Register Dst = MI->getOperand(MW_OP_PRODUCT).getReg();
    Register Src = MI->getOperand(MW_OP_SOURCE).getReg();
    Register Wide = MRI->createVirtualRegister(MRI->getRegClass(Dst));
    MachineBasicBlock &MBB = *MI->getParent();
    const DebugLoc &DL = MI->getDebugLoc();
    BuildMI(MBB, MI, DL, TII->get(isSigned(*MI) ? CvtS : CvtU), Wide).addReg(Src).addImm(0);
    BuildMI(MBB, MI, DL, TII->get(Shl), Dst).addReg(Wide).addImm(K);
    MRI->clearKillFlags(Src);
    MI->eraseFromParent();
    Cands[I] = nullptr;
    return true;
  }

private:
  int opcode(StringRef Name) const {
    for (unsigned Op = 0, E = TII->getNumOpcodes(); Op < E; ++Op)
      if (TII->getName(Op) == Name)
        return Op;
    return -1;
  }

  MachineRegisterInfo *MRI = nullptr;
  const TargetInstrInfo *TII = nullptr;
  std::vector<MachineInstr *> Cands;
  int CvtU = -1, CvtS = -1, Shl = -1;
};

char NVMulWideSplit::ID = 0;

NVMulWideSplit &pass(void *H) { return *static_cast<NVMulWideSplit *>(H); }

// Up to Cap virtual registers MI reads (explicit and implicit uses) into Regs; their number in
// *N; false when MI reads a physical register.
bool readRegs(const MachineInstr &MI, uint32_t *Regs, uint32_t Cap, uint32_t *N) {
  uint32_t Count = 0;
  bool AllVirtual = true;
  for (const MachineOperand &MO : MI.operands()) {
    if (!MO.isReg() || !MO.isUse() || !MO.getReg())
      continue;
    if (!MO.getReg().isVirtual()) {
      AllVirtual = false;
      continue;
    }
    if (Count < Cap)
      Regs[Count] = MO.getReg().virtRegIndex();
    ++Count;
  }
  *N = Count;
  return AllVirtual;
}

} // namespace

extern "C" void nvopt_shim_register_mul_wide_split() {
  nvRegisterMachinePass<NVMulWideSplit>(
      "NVPTX mul.wide by a power of two as convert and shift (nvopt)", "nv-mul-wide-split");
}

extern "C" uint32_t nvopt_shim_mul_wide_split_count(void *H) { return pass(H).count(); }

// Candidate I: whether it is signed, its immediate, its result and source registers (virtual
// register indices). False when I is out of range or already split.
extern "C" bool nvopt_shim_mul_wide_split_candidate(void *H, uint32_t I, bool *Signed,
                                                    int64_t *Imm, uint32_t *Dst, uint32_t *Src) {
  const MachineInstr *MI = pass(H).cand(I);
  if (!MI)
    return false;
  *Signed = pass(H).isSigned(*MI);
  *Imm = MI->getOperand(MW_OP_MULTIPLIER).getImm();
  *Dst = MI->getOperand(MW_OP_PRODUCT).getReg().virtRegIndex();
  *Src = MI->getOperand(MW_OP_SOURCE).getReg().virtRegIndex();
  return true;
}

// The instructions that read virtual register Reg (debug instructions left out): up to Cap of
// them written to Users as opaque handles for the two functions below; their number.
extern "C" uint32_t nvopt_shim_mul_wide_split_readers(void *H, uint32_t Reg, void **Users,
                                                      uint32_t Cap) {
  uint32_t Count = 0;
  for (MachineInstr &MI : pass(H).mri().use_nodbg_instructions(Register::index2VirtReg(Reg))) {
    if (Count < Cap)
      Users[Count] = &MI;
    ++Count;
  }
  return Count;
}

// The unique definition of virtual register Reg as an opaque handle; null when it has none or
// several (not SSA).
extern "C" void *nvopt_shim_mul_wide_split_def(void *H, uint32_t Reg) {
  return pass(H).mri().getUniqueVRegDef(Register::index2VirtReg(Reg));
}

// Instruction In (a handle from the two functions above): its opcode name, its flags (the
// NvMulWideFlag bits), the address space all its memory operands share in *AddrSpace
// (UINT32_MAX when it has none or they differ), and up to Cap of the virtual registers it reads
// into Regs with their number in *N. False when it reads a physical register.
extern "C" bool nvopt_shim_mul_wide_split_inst(void *H, void *In, const char **Name, size_t *Len,
                                               uint32_t *Flags, uint32_t *AddrSpace,
                                               uint32_t *Regs, uint32_t Cap, uint32_t *N) {
  const MachineInstr &MI = *static_cast<const MachineInstr *>(In);
  StringRef S = pass(H).name(MI);
  *Name = S.data();
  *Len = S.size();
  uint32_t F = 0;
  if (MI.mayLoad())
    F |= MW_MAY_LOAD;
  if (MI.mayStore())
    F |= MW_MAY_STORE;
  if (MI.hasUnmodeledSideEffects())
    F |= MW_SIDE_EFFECTS;
  if (MI.isPHI())
    F |= MW_PHI;
  if (MI.isCall())
    F |= MW_CALL;
  *Flags = F;
  uint32_t AS = UINT32_MAX;
  for (const MachineMemOperand *MMO : MI.memoperands()) {
    if (AS != UINT32_MAX && AS != MMO->getAddrSpace()) {
      AS = UINT32_MAX;
      break;
    }
    AS = MMO->getAddrSpace();
  }
  *AddrSpace = AS;
  return readRegs(MI, Regs, Cap, N);
}

extern "C" bool nvopt_shim_mul_wide_split_split(void *H, uint32_t I, uint32_t K) {
  return pass(H).split(I, K);
}
