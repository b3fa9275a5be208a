//! `nv-remat`'s IR adapter: builds the planner's [`Model`] from a function (the liveness graph
//! of src/analysis/pressure, what each value's definition costs to recompute, where its uses are, loop
//! depths), runs up to [`plan::ROUNDS`] rounds of planning and cloning, and reports: remarks
//! (`-pass-remarks=nv-remat`, `-pass-remarks-missed=nv-remat`), `-nv-stats` counters and the
//! `dump-remat` print. The C++ wrappers (src/llc/remat/remat.cpp) call [`nvopt_remat_run_function`]
//! with the function, its LoopInfo and its OptimizationRemarkEmitter.
use super::cost;
use super::plan::{self, Kind, Model, Node, Params, Refusal, Remat};
use crate::analysis::gpu::PTX_KERNEL_CC;
use crate::analysis::ir::facts::{self, RemarkArg, Remarks};
use crate::analysis::ir::{self, loops};
use crate::analysis::pressure::{self, target};
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use inkwell::values::{AsValueRef, FunctionValue, InstructionValue};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::{LLVMAtomicOrdering, LLVMOpcode};
use std::ffi::{c_void, CStr};

const PASS: &str = "nv-remat";
pub(crate) const REMARK_PASS: &CStr = c"nv-remat";

/// The cost of recomputing `i`: the table of [`cost::classify`], with the facts it asks for read
/// off the IR.
pub fn classify(i: InstructionValue, remat_load: bool) -> Kind {
    let r = i.as_value_ref();
    // SAFETY: a live instruction.
    let opcode = unsafe { LLVMGetInstructionOpcode(r) };
    cost::classify(opcode, &Read(r), remat_load)
}

/// The facts [`cost::classify`] asks of a live instruction.
struct Read(LLVMValueRef);

impl cost::Facts for Read {
    fn variable_indices(&self) -> u32 {
        let r = self.0;
        // SAFETY: queries on a live GEP.
        unsafe {
            let n = LLVMGetNumOperands(r) as u32;
            (1..n).filter(|&k| LLVMIsAConstant(LLVMGetOperand(r, k)).is_null()).count() as u32
        }
    }

    fn callee(&self) -> Option<String> {
        // SAFETY: queries on a live call and its callee.
        let callee = unsafe { LLVMGetCalledValue(self.0) };
        (!unsafe { LLVMIsAFunction(callee) }.is_null()).then(|| ir::name(callee))
    }

    fn load(&self) -> cost::Load {
        let r = self.0;
        // SAFETY: queries on a live load.
        unsafe {
            let space = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(r, 0)));
            let ctx = LLVMGetTypeContext(LLVMTypeOf(r));
            let md = c"invariant.load";
            let kind = LLVMGetMDKindIDInContext(ctx, md.as_ptr(), md.count_bytes() as u32);
            cost::Load {
                space,
                invariant: !LLVMGetMetadata(r, kind).is_null(),
                simple: LLVMGetVolatile(r) == 0
                    && LLVMGetOrdering(r) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic,
            }
        }
    }
}

/// `v` as an instruction; `None` for an argument.
fn inst<'ctx>(v: LLVMValueRef) -> Option<InstructionValue<'ctx>> {
    // SAFETY: v is a live value; the handle is an instruction when LLVMIsAInstruction says so.
    unsafe { (!LLVMIsAInstruction(v).is_null()).then(|| InstructionValue::new(v)) }
}

/// A function read for the planner, with the IR behind its numbers.
pub struct Reader {
    pub model: Model,
    pub numbered: pressure::ir::Numbered,
}

/// Loop depth of a block (0 outside loops).
///
/// # Safety
/// `li` is the live LoopInfo of `bb`'s function, or null (then every depth is 0).
unsafe fn depth(li: *const c_void, bb: LLVMBasicBlockRef) -> u32 {
    if li.is_null() {
        return 0;
    }
    let mut d = 0;
    let mut l = loops::loop_for(li, bb);
    while let Some(x) = l {
        d += 1;
        l = x.parent();
    }
    d
}

impl Reader {
    /// Reads `f` (a definition). `li` is its LoopInfo, or null for depth 0 everywhere (tests).
    ///
    /// # Safety
    /// `li` as for [`depth`].
    /// `clones`: instructions earlier rounds made, which are not moved again (a clone's value
    /// would otherwise be chased from site to site).
    pub unsafe fn read(
        f: FunctionValue,
        li: *const c_void,
        remat_load: bool,
        clones: &crate::fast_hash::HashSet<LLVMValueRef>,
    ) -> Reader {
        let numbered = pressure::ir::graph(f);
        let kernel = f.get_call_conventions() == PTX_KERNEL_CC;
        let blocks = &numbered.block_index;
        let mut nodes = Vec::with_capacity(numbered.values.len());
        for &v in &numbered.values {
            let Some(i) = inst(v) else {
                let kind = if kernel { Kind::Free } else { Kind::Fixed };
                nodes.push(Node { block: None, kind, operands: vec![], sites: vec![] });
                continue;
            };
            let def = blocks[&LLVMGetInstructionParent(v)];
            let kind = if LLVMGetInstructionOpcode(v) == LLVMOpcode::LLVMPHI || clones.contains(&v)
            {
                Kind::Fixed
            } else {
                classify(i, remat_load)
            };
            let mut operands = Vec::new();
            for k in 0..LLVMGetNumOperands(v) as u32 {
                if let Some(&o) = numbered.index.get(&LLVMGetOperand(v, k)) {
                    if !operands.contains(&o) {
                        operands.push(o);
                    }
                }
            }
            let mut sites: Vec<usize> = ir::uses(v)
                .filter_map(|(user, k)| blocks.get(&use_block(user, k)).copied())
                .filter(|&b| b != def)
                .collect();
            sites.sort_unstable();
            sites.dedup();
            nodes.push(Node { block: Some(def), kind, operands, sites });
        }
        let depth = numbered.blocks.iter().map(|&bb| depth(li, bb)).collect();
        Reader { model: Model { graph: numbered.graph.clone(), nodes, depth }, numbered }
    }

    fn text(&self, v: usize) -> Vec<u8> {
        // SAFETY: a live value of the function.
        unsafe { facts::operand_text(self.numbered.values[v]) }
    }

    fn block_name(&self, b: usize) -> String {
        // SAFETY: a live block.
        let bb = unsafe { ir::block(self.numbered.blocks[b]) };
        let name = bb.get_name().to_string_lossy().into_owned();
        if name.is_empty() {
            format!("#{b}")
        } else {
            name
        }
    }

    /// Clones the chain of every site and points the uses there at the clone; deletes the
    /// original when nothing uses it any more. Returns the number of instructions cloned; adds
    /// the clones to `made`.
    pub fn apply(&self, r: &Remat, made: &mut crate::fast_hash::HashSet<LLVMValueRef>) -> usize {
        let v = self.numbered.values[r.value];
        let mut clones: HashMap<LLVMBasicBlockRef, LLVMValueRef> = HashMap::default();
        let mut cloned = 0;
        // SAFETY: every value named by the plan is a live value of this function (a chain's
        // instructions and its operands are operands of the value, which is alive until its
        // own application); clones are inserted into blocks of the same function.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(v));
            let builder = LLVMCreateBuilderInContext(ctx);
            for s in &r.sites {
                let bb = self.numbered.blocks[s.block];
                let Some(at) = insertion_point(bb, v) else { continue };
                LLVMPositionBuilderBefore(builder, at);
                let mut map: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::default();
                for &n in &s.chain {
                    let orig = self.numbered.values[n];
                    let c = LLVMInstructionClone(orig);
                    for k in 0..LLVMGetNumOperands(c) as u32 {
                        if let Some(&new) = map.get(&LLVMGetOperand(c, k)) {
                            LLVMSetOperand(c, k, new);
                        }
                    }
                    let name = format!("{}.remat\0", ir::name(orig));
                    LLVMInsertIntoBuilderWithName(builder, c, name.as_ptr() as *const _);
                    map.insert(orig, c);
                    made.insert(c);
                    cloned += 1;
                }
                clones.insert(bb, map[&v]);
            }
            LLVMDisposeBuilder(builder);
            let uses: Vec<_> = ir::uses(v).collect();
            for (user, k) in uses {
                if let Some(&c) = clones.get(&use_block(user, k)) {
                    LLVMSetOperand(user, k, c);
                }
            }
        }
        ir::delete_dead(v);
        cloned
    }
}

/// The block where use `k` of `user` needs its value: the user's block, or for a PHI operand
/// its incoming block.
fn use_block(user: LLVMValueRef, k: u32) -> LLVMBasicBlockRef {
    // SAFETY: a live user and one of its operand numbers.
    unsafe {
        if !LLVMIsAPHINode(user).is_null() {
            LLVMGetIncomingBlock(user, k)
        } else {
            LLVMGetInstructionParent(user)
        }
    }
}

/// Where the clones for `v` go in `bb`: before the first non-PHI instruction reading `v`, else
/// before the terminator (the value only feeds PHIs of successors).
fn insertion_point(bb: LLVMBasicBlockRef, v: LLVMValueRef) -> Option<LLVMValueRef> {
    // SAFETY: a live block.
    let b = unsafe { ir::block(bb) };
    for i in ir::instructions(b) {
        let r = i.as_value_ref();
        // SAFETY: a live instruction.
        if unsafe { !LLVMIsAPHINode(r).is_null() } {
            continue;
        }
        if (0..i.get_num_operands()).any(|k| ir::operand(i, k) == v) {
            return Some(r);
        }
    }
    b.get_terminator().map(|t| t.as_value_ref())
}

/// nv-remat's register target: the function's (launch bounds, `-nv-maxreg`), else
/// `nv-remat-default-target` instead of the shared default (src/analysis/pressure/target.rs).
/// `threads_only`: the launch bounds name a thread count and no minimum of blocks per SM (or a
/// minimum of 1; `target::threads_only`). Such a kernel's target is its share capped at
/// `nv-remat-threads-only-target` (72; 0: the whole share): the bound caps registers but asks
/// for no occupancy, and ptxas picks an occupancy step itself and spills to reach it, so a
/// target of the whole share (168 for 384 threads) leaves nv-remat idle where ptxas spills.
pub fn own_target(k: &Knobs, t: target::Target, threads_only: bool) -> u32 {
    let threads_target = k.nv_remat_threads_only_target() as u32;
    match (t.source, threads_only) {
        (target::Source::Default, _) => k.nv_remat_default_target() as u32,
        (target::Source::LaunchBounds, true) if threads_target > 0 => t.regs.min(threads_target),
        _ => t.regs,
    }
}

/// The planner's parameters from the knobs and the function's target.
pub fn params(k: &Knobs, target: u32) -> Params {
    let ceiling = k.remat_maxreg_ceiling() as u32;
    Params {
        target: if ceiling > 0 { target.min(ceiling) } else { target },
        max_per_round: k.remat_max_live_limit() as usize,
        loop_trip: k.remat_loop_trip() as u64,
        lli_factor: k.remat_lli_factor() as u64,
        max_chain: k.nv_remat_max_chain() as usize,
        extend_blocks: k.nv_remat_extend_operands() as usize,
    }
}

fn is_nvptx(f: FunctionValue) -> bool {
    // SAFETY: a live function's module.
    unsafe {
        let m = LLVMGetGlobalParent(f.as_value_ref());
        let t = LLVMGetTarget(m);
        !t.is_null() && CStr::from_ptr(t).to_bytes().starts_with(b"nvptx")
    }
}

fn refusal_text(r: &Reader, x: &Refusal) -> (usize, &'static CStr, String) {
    match *x {
        Refusal::NotCheap { value } => {
            (value, c"NotCheap", "its definition cannot be recomputed".into())
        }
        Refusal::Unavailable { value, operand, block } => (
            value,
            c"OperandUnavailable",
            format!(
                "operand {} is not available in block {} and cannot be recomputed",
                String::from_utf8_lossy(&r.text(operand)),
                r.block_name(block)
            ),
        ),
        Refusal::TooLong { value, len } => {
            (value, c"TooCostly", format!("chain too costly: {len} instructions at one use"))
        }
        Refusal::LoadIntoLoop { value, load, block } => (
            value,
            c"TooCostly",
            format!(
                "chain too costly: it would re-issue the load {} inside a loop in block {}",
                String::from_utf8_lossy(&r.text(load)),
                r.block_name(block)
            ),
        ),
        Refusal::NoGain { value } => (
            value,
            c"NoGain",
            "frees no register: in each high-pressure block it is live into, a use keeps it live through the block's peak".into(),
        ),
        Refusal::TooCostly { value, score, limit } => (
            value,
            c"TooCostly",
            format!("chain too costly: weighted cost {score} over the bound {limit}"),
        ),
    }
}

/// Runs nv-remat on `f`; whether the IR changed.
///
/// # Safety
/// `f` is a live definition, `li` its LoopInfo (or null), `remarks` its emitter.
pub unsafe fn run(f: FunctionValue, li: *const c_void, remarks: &Remarks, k: &Knobs) -> bool {
    if k.do_remat() == 0 || !is_nvptx(f) || f.get_first_basic_block().is_none() {
        return false;
    }
    let t = target::for_function(f, k);
    let own = own_target(k, t, target::threads_only(&target::launch_bounds(f)).is_some());
    let p = params(k, own);
    let dump = k.dump_remat() > 0;
    let fname = f.get_name().to_string_lossy().into_owned();
    let mut changed = false;
    let mut made = crate::fast_hash::HashSet::default();
    let mut last_max = u32::MAX;
    for round in 0..plan::ROUNDS {
        let r = Reader::read(f, li, k.remat_load() != 0, &made);
        let out = plan::plan(&r.model, &p);
        if dump {
            eprintln!(
                "nv-remat: @{fname} round {round}: pressure {} target {} ({}{}), {} high blocks, {} chosen, {} refused",
                out.max,
                p.target,
                t.source.describe(),
                if p.target < own { ", remat-maxreg-ceiling" } else { "" },
                out.high.len(),
                out.remats.len(),
                out.refusals.len()
            );
        }
        if round == 0 {
            crate::stats::add(PASS, "functions read", 1);
            if out.under_target() {
                crate::stats::add(PASS, "functions within their register target", 1);
                if remarks.enabled() {
                    let first = f.get_first_basic_block().and_then(|b| b.get_first_instruction());
                    if let Some(at) = first {
                        let msg = format!(
                            "register pressure {} is already within the target {} ({})",
                            out.max,
                            p.target,
                            t.source.describe()
                        );
                        remarks.emit_missed(
                            REMARK_PASS,
                            c"UnderTarget",
                            at,
                            &[RemarkArg::text(msg.as_bytes())],
                        );
                    }
                }
            } else {
                crate::stats::add(PASS, "functions above their register target", 1);
            }
            for x in &out.refusals {
                let what = match x {
                    Refusal::NotCheap { .. } => "values refused: definition not recomputable",
                    Refusal::Unavailable { .. } => "values refused: operand unavailable",
                    Refusal::NoGain { .. } => "values refused: no register freed",
                    _ => "values refused: chain too costly",
                };
                crate::stats::add(PASS, what, 1);
                if !dump && !remarks.enabled() {
                    continue;
                }
                let (v, name, why) = refusal_text(&r, x);
                if dump {
                    eprintln!("nv-remat:   refused {}: {why}", String::from_utf8_lossy(&r.text(v)));
                }
                if remarks.enabled() {
                    if let Some(at) = inst(r.numbered.values[v]) {
                        let text = r.text(v);
                        remarks.emit_missed(
                            REMARK_PASS,
                            name,
                            at,
                            &[
                                RemarkArg::named("Value", &text),
                                RemarkArg::text(b" not rematerialized: "),
                                RemarkArg::text(why.as_bytes()),
                            ],
                        );
                    }
                }
            }
        }
        // First, once: the guarded loops over the target whose carried values reach their
        // exit (src/llc/remat/derotate.rs). They change the CFG, so the round starts again on the
        // new IR; remat adds no blocks, and the LoopInfo of the loops not rewritten still holds
        // (the new top block of a rewritten loop is in none, which only its PHIs are in).
        if round == 0 && !out.under_target() && k.nv_remat_derotate() > 0 && !li.is_null() {
            let high: crate::fast_hash::HashSet<LLVMBasicBlockRef> =
                out.high.iter().map(|&b| r.numbered.blocks[b]).collect();
            let n = super::derotate::run(
                f.as_value_ref(),
                li,
                &high,
                k.nv_remat_derotate() as usize,
                remarks,
                dump.then_some(fname.as_str()),
            );
            if n > 0 {
                changed = true;
                continue;
            }
        }
        // Another round only while the estimate does not rise.
        if out.remats.is_empty() || out.max > last_max {
            break;
        }
        last_max = out.max;
        let report = dump || remarks.enabled();
        for x in &out.remats {
            // Printing a value numbers its whole function: only for a dump or a remark.
            let (text, blocks) = if report {
                (r.text(x.value), x.sites.iter().map(|s| r.block_name(s.block)).collect())
            } else {
                (Vec::new(), Vec::<String>::new())
            };
            let n: usize = x.sites.iter().map(|s| s.chain.len()).sum();
            if dump {
                eprintln!(
                    "nv-remat:   {} recomputed in {} ({n} instructions, score {}), live across {} high blocks",
                    String::from_utf8_lossy(&text),
                    blocks.join(", "),
                    x.score,
                    x.across.len()
                );
            }
            if remarks.enabled() {
                if let Some(at) = inst(r.numbered.values[x.value]) {
                    let msg = format!(
                        " recomputed next to its uses in {} ({n} instructions); its live range across {} high-pressure blocks ends",
                        blocks.join(", "),
                        x.across.len()
                    );
                    remarks.emit(
                        REMARK_PASS,
                        c"Rematerialized",
                        at,
                        &[RemarkArg::named("Value", &text), RemarkArg::text(msg.as_bytes())],
                    );
                }
            }
            let cloned = r.apply(x, &mut made);
            crate::stats::add(PASS, "values rematerialized", 1);
            crate::stats::add(PASS, "instructions cloned", cloned as u64);
            changed = true;
        }
    }
    changed
}

extern "C" {
    fn nvopt_shim_register_remat();
}

/// Registers the legacy IR pass `nv-remat` with LLVM's PassRegistry (for llc's insertion).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_remat() }
}

/// Runs nv-remat on one function; whether it changed the IR.
///
/// # Safety
/// `f` is a live function definition; `li` its `llvm::LoopInfo*`; `ore` a live
/// `llvm::OptimizationRemarkEmitter*` for it. All outlive the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_remat_run_function(
    f: LLVMValueRef,
    li: *const c_void,
    ore: *mut c_void,
) -> bool {
    let f = ir::function(f);
    let remarks = Remarks::from_raw(ore);
    run(f, li, &remarks, &Knobs::current())
}

#[cfg(test)]
mod tests {
    use super::*;
    use inkwell::context::Context;
    use inkwell::memory_buffer::MemoryBuffer;

    const IR: &str = r#"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.clock()
define ptx_kernel void @k(ptr addrspace(1) %a, i32 %n, ptr addrspace(101) %p) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = call i32 @llvm.nvvm.read.ptx.sreg.clock()
  %x = shl i32 %t, 2
  %d = udiv i32 %n, %t
  %f = freeze i32 %x
  %g = getelementptr float, ptr addrspace(1) %a, i32 %x
  %h = getelementptr float, ptr addrspace(1) %a, i32 4
  %l = load i32, ptr addrspace(101) %p
  %m = load i32, ptr addrspace(1) %a
  %s = fptosi float 1.0 to i32
  br label %exit
exit:
  %q = phi i32 [ %x, %entry ]
  store i32 %x, ptr addrspace(1) %g
  ret void
}"#;

    #[test]
    fn costs_and_refusals_by_instruction() {
        let context = Context::create();
        let buf = MemoryBuffer::create_from_memory_range_copy(IR.as_bytes(), "t");
        let module = context.create_module_from_ir(buf).expect("valid IR");
        let f = module.get_first_function().expect("f");
        let f = module.get_function("k").unwrap_or(f);
        let kinds: Vec<Kind> = ir::function_instructions(f).map(|i| classify(i, true)).collect();
        use Kind::*;
        assert_eq!(
            kinds,
            vec![
                Cheap(1), // tid
                Fixed,    // clock changes
                Cheap(1), // shl
                Fixed,    // udiv
                Fixed,    // freeze
                Cheap(1), // gep, one variable index
                Cheap(1), // gep, constant
                Cheap(2), // param load
                Fixed,    // global load
                Cheap(2), // conversion
                Fixed,    // br
                Fixed,    // phi (the reader marks PHIs fixed too)
                Fixed,    // store
                Fixed,    // ret
            ]
        );
        let loads: Vec<Kind> = ir::function_instructions(f).map(|i| classify(i, false)).collect();
        assert_eq!(loads[7], Fixed, "remat-load=0");
        // SAFETY: a live function, no LoopInfo.
        let r = unsafe { Reader::read(f, std::ptr::null(), true, &Default::default()) };
        // Arguments of a kernel are free; %x is used in exit (a store and a PHI's edge from
        // entry, its own block).
        assert_eq!(r.model.nodes[0].kind, Free);
        let x = r.numbered.index[&ir::raw(ir::function_instructions(f).nth(2).unwrap())];
        assert_eq!(r.model.nodes[x].sites, vec![1]);
        assert_eq!(r.model.nodes[x].operands.len(), 1);
        assert_eq!(r.model.depth, vec![0, 0]);
    }

    #[test]
    fn functions_without_a_cap_get_remats_own_default() {
        use target::{Source, Target};
        let k = Knobs::defaults();
        assert_eq!(own_target(&k, Target { regs: 64, source: Source::Default }, true), 48);
        assert_eq!(own_target(&k, Target { regs: 64, source: Source::LaunchBounds }, false), 64);
        assert_eq!(own_target(&k, Target { regs: 40, source: Source::Knob }, true), 40);
    }

    #[test]
    fn thread_only_bounds_get_their_share_capped_by_the_knob() {
        use target::{Source, Target};
        let mut k = Knobs::defaults();
        let lb = |regs| Target { regs, source: Source::LaunchBounds };
        // CUB's onesweep kernel: .maxntid 384 only, a share of 168; by default capped at 72,
        // below the two-block step (80) that ptxas settles it at.
        assert_eq!(own_target(&k, lb(168), true), 72);
        assert_eq!(own_target(&k, lb(255), true), 72);
        // A share below the cap, or bounds that ask for blocks per SM, keep the share.
        assert_eq!(own_target(&k, lb(64), true), 64);
        assert_eq!(own_target(&k, lb(80), false), 80);
        k.set(crate::knobs::K::nv_remat_threads_only_target, 64);
        assert_eq!(own_target(&k, lb(168), true), 64);
        k.set(crate::knobs::K::nv_remat_threads_only_target, 0);
        assert_eq!(own_target(&k, lb(168), true), 168);
    }

    #[test]
    fn the_ceiling_caps_the_target() {
        let mut k = Knobs::defaults();
        assert_eq!(params(&k, 64).target, 64);
        k.set(crate::knobs::K::remat_maxreg_ceiling, 40);
        assert_eq!(params(&k, 64).target, 40);
        assert_eq!(params(&k, 32).target, 32);
        assert_eq!(params(&k, 32).max_per_round, 10);
    }
}
