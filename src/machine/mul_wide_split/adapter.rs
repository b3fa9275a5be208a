//! nv-mul-wide-split on a MachineFunction: reads the candidates, their readers and the
//! definitions the uniformity walk needs from the shim
//! (src/machine/mul_wide_split/mul_wide_split.cpp), asks [`super::decide`] and has the shim
//! split the chosen ones. Remarks (`-pass-remarks=nv-mul-wide-split`, about the function) and
//! `-nv-stats`.
use super::{decide, Defs, Inst, Rule, Uniformity, PASS};
use crate::analysis::ir::facts;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue};
use llvm_sys::prelude::LLVMValueRef;
use std::ffi::{c_char, c_void, CStr};

const REMARK_PASS: &CStr = c"nv-mul-wide-split";

crate::shared_codes! {
    /// Flag bits of an instruction the shim describes (`nvopt_shim_mul_wide_split_inst`; C++:
    /// the generated enum `NvMulWideFlag`).
    pub enum NvMulWideFlag: u32 {
        MW_MAY_LOAD = 1,
        MW_MAY_STORE = 2,
        MW_SIDE_EFFECTS = 4,
        MW_PHI = 8,
        MW_CALL = 16,
    }
}

crate::shared_codes! {
    /// The operands of NVPTX's `MUL_WIDEu32_ri`/`MUL_WIDEs32_ri` in LLVM 22 (C++: the generated
    /// enum `NvMulWideOperand`): the 64-bit product, the 32-bit source, the immediate multiplier,
    /// and their number.
    pub enum NvMulWideOperand: u32 {
        MW_OP_PRODUCT = 0,
        MW_OP_SOURCE = 1,
        MW_OP_MULTIPLIER = 2,
        MW_OP_COUNT = 3,
    }
}

/// How many register operands are read per query before a second, exact-size query.
const READS_CAP: usize = 8;

extern "C" {
    fn nvopt_shim_register_mul_wide_split();
    fn nvopt_shim_mul_wide_split_count(host: *mut c_void) -> u32;
    fn nvopt_shim_mul_wide_split_candidate(
        host: *mut c_void,
        idx: u32,
        signed: *mut bool,
        imm: *mut i64,
        dst: *mut u32,
        src: *mut u32,
    ) -> bool;
    fn nvopt_shim_mul_wide_split_readers(
        host: *mut c_void,
        reg: u32,
        users: *mut *mut c_void,
        cap: u32,
    ) -> u32;
    fn nvopt_shim_mul_wide_split_def(host: *mut c_void, reg: u32) -> *mut c_void;
    fn nvopt_shim_mul_wide_split_inst(
        host: *mut c_void,
        inst: *mut c_void,
        name: *mut *const c_char,
        len: *mut usize,
        flags: *mut u32,
        addr_space: *mut u32,
        regs: *mut u32,
        cap: u32,
        n: *mut u32,
    ) -> bool;
    fn nvopt_shim_mul_wide_split_split(host: *mut c_void, idx: u32, shift: u32) -> bool;
}

/// Registers the legacy machine pass `nv-mul-wide-split` with LLVM's PassRegistry (for
/// `llc -run-pass=nv-mul-wide-split` and the TargetPassConfig insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_mul_wide_split() }
}

/// The shim's machine function, read through its handle.
struct Host(*mut c_void);

impl Host {
    /// One instruction (a handle the shim gave out).
    ///
    /// # Safety
    /// `inst` is a live instruction of the host's function.
    unsafe fn inst(&self, inst: *mut c_void) -> Inst {
        let (mut name, mut len, mut flags, mut space, mut n) =
            (std::ptr::null(), 0usize, 0u32, 0u32, 0u32);
        let mut regs = vec![0u32; READS_CAP];
        // At most two queries: the second with room for every register the first counted.
        let virt = loop {
            let virt = nvopt_shim_mul_wide_split_inst(
                self.0,
                inst,
                &mut name,
                &mut len,
                &mut flags,
                &mut space,
                regs.as_mut_ptr(),
                regs.len() as u32,
                &mut n,
            );
            if n as usize <= regs.len() {
                break virt;
            }
            regs = vec![0u32; n as usize];
        };
        regs.truncate(n as usize);
        let opaque_flags = MW_MAY_STORE | MW_PHI | MW_CALL;
        Inst {
            opcode: crate::ffi::string(name, len),
            may_load: flags & MW_MAY_LOAD != 0,
            opaque: !virt || flags & opaque_flags != 0,
            side_effects: flags & MW_SIDE_EFFECTS != 0,
            addr_space: (space != u32::MAX).then_some(space),
            reads: regs,
        }
    }

    /// The instructions that read `reg`.
    ///
    /// # Safety
    /// `reg` is a virtual register index of the host's function.
    unsafe fn readers(&self, reg: u32) -> Vec<Inst> {
        let n = nvopt_shim_mul_wide_split_readers(self.0, reg, std::ptr::null_mut(), 0);
        let mut users = vec![std::ptr::null_mut(); n as usize];
        nvopt_shim_mul_wide_split_readers(self.0, reg, users.as_mut_ptr(), n);
        users.into_iter().map(|u| self.inst(u)).collect()
    }
}

impl Defs for Host {
    fn def(&mut self, reg: u32) -> Option<Inst> {
        // SAFETY: the host is live for the whole run (nvopt_mul_wide_split_run's contract) and
        // `reg` is a register index the shim reported.
        unsafe {
            let d = nvopt_shim_mul_wide_split_def(self.0, reg);
            (!d.is_null()).then(|| self.inst(d))
        }
    }
}

fn remark(f: FunctionValue, split: usize) {
    facts::remark_function_text(REMARK_PASS, c"Split", false, f.as_value_ref(), || {
        format!("{split} mul.wide by a power of two split into convert and shift")
    });
}

/// Entry point from the machine pass; whether it changed the function.
///
/// # Safety
/// `host` is the live pass object (src/machine/mul_wide_split/mul_wide_split.cpp) running on
/// the machine function of the IR function `f`.
#[no_mangle]
pub unsafe extern "C" fn nvopt_mul_wide_split_run(host: *mut c_void, f: LLVMValueRef) -> bool {
    let rule = Rule::from_knob(Knobs::current().nv_mul_wide_split_rule());
    if rule == Rule::Off {
        return false;
    }
    let Some(func) = FunctionValue::new(f) else { return false };
    let mut h = Host(host);
    let mut u = Uniformity::default();
    let mut plan = Vec::new();
    for i in 0..nvopt_shim_mul_wide_split_count(host) {
        let (mut signed, mut imm, mut dst, mut src) = (false, 0i64, 0u32, 0u32);
        if !nvopt_shim_mul_wide_split_candidate(host, i, &mut signed, &mut imm, &mut dst, &mut src)
        {
            continue;
        }
        let readers = if rule == Rule::UniformBase { h.readers(dst) } else { Vec::new() };
        let k = decide(rule, imm, dst, &readers, &mut h, &mut u);
        log::debug!(
            "{}: {} by {imm}, read by [{}]: {}",
            func.get_name().to_string_lossy(),
            if signed { "mul.wide.s32" } else { "mul.wide.u32" },
            readers.iter().map(|r| r.opcode.as_str()).collect::<Vec<_>>().join(", "),
            if k.is_some() { "split" } else { "kept" }
        );
        if let Some(k) = k {
            plan.push((i, k));
        }
    }
    // The pressure limit last: the estimate costs a liveness run, and most functions have
    // nothing to split.
    if plan.is_empty() || over_pressure_limit(func) {
        return false;
    }
    let split = plan.iter().filter(|&&(i, k)| nvopt_shim_mul_wide_split_split(host, i, k)).count();
    if split == 0 {
        return false;
    }
    crate::stats::add(PASS, "mul.wide split into convert and shift", split as u64);
    crate::stats::add(PASS, "functions changed", 1);
    remark(func, split);
    true
}

/// Whether the function's estimated register pressure exceeds `nv-mul-wide-split-max-pressure`
/// (0: no limit).
fn over_pressure_limit(func: FunctionValue) -> bool {
    let max_pressure = Knobs::current().nv_mul_wide_split_max_pressure();
    if max_pressure == 0 {
        return false;
    }
    let peak = crate::analysis::pressure::ir::machine_phase_peak(func);
    let over = peak as i64 > max_pressure;
    if over {
        log::debug!(
            "{}: pressure {peak} over {max_pressure}: left alone",
            func.get_name().to_string_lossy()
        );
    }
    over
}
