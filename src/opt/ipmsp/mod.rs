//! `nv-ipmsp`: inter-procedural memory-space propagation (cicc's `ipmemoryspaceprop`;
//! docs/CICC-FACTS.md "Memory spaces and barriers"). Upstream `infer-address-spaces` works
//! inside one function: a device function that stays a call (`__noinline__`, too big to
//! inline) receives its pointers generic, so a member function called on a `__shared__` object
//! reads `this` with generic `ld`/`st`, where nvcc emits `ld.shared`/`st.shared`. This module
//! pass proves, over the whole call graph, which space each generic pointer parameter (and
//! return) of an internal function always holds, and makes that space explicit:
//!
//! ```text
//! ; before: every call passes `this` of the __shared__ object @h
//! define internal void @add(ptr %this, i32 %v) {         ; ld/st through %this are generic
//!   %p = getelementptr i32, ptr %this, i32 %v
//!   %old = load i32, ptr %p
//! ; after nv-ipmsp (and the infer-address-spaces it runs on @add)
//! define internal void @add(ptr %this, i32 %v) {
//!   %this.as3 = addrspacecast ptr %this to ptr addrspace(3)
//!   %p = getelementptr i32, ptr addrspace(3) %this.as3, i32 %v     ; ld.shared in PTX
//!   %old = load i32, ptr addrspace(3) %p
//! ```
//!
//! **Analysis.** A function is eligible when it is a definition with internal or private
//! linkage (whole-program mode makes every device function so, src/opt/internalize.rs), not a
//! kernel, not variadic, and every use of it is a direct call of it with its own type (its
//! address is not taken, so every caller is in view). For each generic (`ptr`, space 0)
//! parameter the space is the meet over all call sites of the actual argument's space, walked
//! back through GEPs, bitcasts and addrspacecasts (instructions and constant expressions) and
//! through selects and PHIs (all of whose incoming values must agree): a pointer typed in space
//! k (a cast from it, a global variable in it) is k; an `alloca` is local (5: NVPTX keeps
//! private objects in local memory, llc's `nvptx-lower-alloca` casts each there); a kernel's pointer parameter that is not
//! `byval` is global (1), as `nvptx-lower-args` assumes; a parameter of another eligible
//! function, or the result of calling one, is whatever the analysis finds for it; `undef` and
//! `poison` constrain nothing; everything else (a load, `inttoptr`, a generic `null`, a
//! parameter of a non-eligible function) is unknown. The same meet over the returned values
//! gives a function's return space. The unknowns form one system solved as a greatest
//! fixpoint (all start unconstrained and only move down, so a recursive call that passes its
//! parameter on keeps the space of the outside calls; bounded by twice the number of
//! unknowns). Only global (1), shared (3) and local (5) are used: a constant-space (4) result
//! is left generic, since a store on a path never taken would become a store to the constant
//! space, which PTX does not have.
//!
//! A `byval` parameter is never a candidate: it points to the callee's own copy of the
//! argument, whatever space the caller's pointer is in.
//!
//! **Rewrite.** Where a parameter is proven to hold space k, the function's entry gets
//! `%p.ask = addrspacecast ptr %p to ptr addrspace(k)` and `%p.ask.gen = addrspacecast ... to
//! ptr`, and every other use of `%p` reads `%p.ask.gen` (no signature change, so call sites
//! stay as they are); where a return is proven, each call's result gets the same pair. The
//! round trip is the identity on a pointer of that space, exactly the IR that inlining the
//! call would have given `infer-address-spaces` to work on. The pass then runs upstream
//! `infer-address-spaces` itself on the functions it changed, because at O1-O3 and Ofcmid the
//! `nv:ipmsp` slot comes after the last `nv:memory-space-opt` slot (src/pipeline/levels.rs;
//! the common-tail one runs only with `nv-barrier-analysis`): running it there on every
//! function would repeat work already done, running it nowhere would leave the casts to llc's
//! own copy of the pass and hide the spaces from the opt passes in between.
//!
//! **Cloning.** Where every call site passes a known space but not all the same (a member
//! function called on a `__shared__` object and on a global one), the call sites are grouped
//! by the spaces they pass for those parameters; the function keeps the first group and each
//! further group gets a clone (`@f.as1`, LLVM's `CloneFunction` through src/opt/ipmsp/ipmsp.cpp)
//! to which its call sites are redirected; then the analysis runs again, so a clone's own
//! callees are specialized or cloned in turn (at most 16 rounds). `nv-ipmsp-max-clones`
//! (default 4) bounds the clones made from one original function, over all rounds.
//!
//! **Refused** (a missed remark under `-pass-remarks-missed=nv-ipmsp` with the reason, and a
//! `-nv-stats` counter): an internal function whose address is taken or that is variadic
//! (some callers are not in view); a non-internal function (`-nv-rdc`: callers outside the
//! module); a parameter one of whose actuals has no provable space ("unknown actual"); a
//! parameter whose call sites disagree when cloning is off ("mixed spaces") or would pass the
//! limit ("clone limit"). A parameter nothing reads, and one no call constrains, is left
//! alone without a remark. Modules other than NVPTX are left alone.
//!
//! Where nvopt differs from cicc (whose pass is described only as above): cicc rewrites an
//! internal callee's signature and clones external functions too (`do-clone-for-ip-msp`,
//! -1 = unlimited); nvopt keeps signatures (the cast pair), leaves external and
//! address-taken functions alone, and bounds clones per function by its own knob.
//!
//! Knobs: `do-ip-msp` (cicc's guard of the `nv:ipmsp` slot, O1-O3 and Ofcmid; off, the pass
//! run by name does nothing too), `nv-ipmsp-max-clones`.
pub mod solve;

use crate::analysis::gpu::PTX_KERNEL_CC;
use crate::analysis::ir::{self, facts, facts::RemarkArg};
use crate::fast_hash::{HashMap, HashSet};
use crate::knobs::Knobs;
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};
use llvm_sys::{LLVMLinkage, LLVMOpcode, LLVMTypeKind};
use solve::{FnModel, Leaf, Solution, Space, Verdict};
use std::ffi::{c_char, c_void, CStr, CString};

pub const PASS: &str = "nv-ipmsp";

/// Rounds of analysis and cloning before the final rewrite.
const MAX_ROUNDS: usize = 16;
/// Values one actual's walk may visit before it is unknown.
const WALK_LIMIT: usize = 256;

extern "C" {
    fn nvopt_ipmsp_clone(f: LLVMValueRef, name: *const c_char, len: usize) -> LLVMValueRef;
    fn nvopt_ipmsp_infer_address_spaces(f: LLVMValueRef, fam: *mut c_void);
}

/// Why a function with generic pointer parameters is not looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    AddressTaken,
    Variadic,
    NotInternal,
}

/// The module as the analysis sees it.
struct View {
    /// The eligible functions, in module order.
    fns: Vec<LLVMValueRef>,
    models: Vec<FnModel>,
    /// Per eligible function, its calls in the order of `models[f].sites`.
    calls: Vec<Vec<LLVMValueRef>>,
    /// Functions with something to gain that are not eligible.
    refused: Vec<(LLVMValueRef, Refusal)>,
}

fn space_name(k: u32) -> &'static str {
    match k {
        1 => "global",
        3 => "shared",
        4 => "const",
        5 => "local",
        _ => "other",
    }
}

/// Whether a value is a generic (space 0) scalar pointer.
///
/// # Safety
/// `v` is a live value.
unsafe fn generic_ptr(v: LLVMValueRef) -> bool {
    let ty = LLVMTypeOf(v);
    LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind && LLVMGetPointerAddressSpace(ty) == 0
}

unsafe fn params(f: LLVMValueRef) -> Vec<LLVMValueRef> {
    (0..LLVMCountParams(f)).map(|i| LLVMGetParam(f, i)).collect()
}

unsafe fn returns_generic_ptr(f: LLVMValueRef) -> bool {
    let rt = LLVMGetReturnType(LLVMGlobalGetValueType(f));
    LLVMGetTypeKind(rt) == LLVMTypeKind::LLVMPointerTypeKind && LLVMGetPointerAddressSpace(rt) == 0
}

unsafe fn is_kernel(f: LLVMValueRef) -> bool {
    LLVMGetFunctionCallConv(f) == PTX_KERNEL_CC
}

unsafe fn has_byval(f: LLVMValueRef, i: u32) -> bool {
    let kind = crate::analysis::ir::attribute_kind(c"byval");
    !LLVMGetEnumAttributeAtIndex(f, i + 1, kind).is_null()
}

/// Whether `f` is eligible; `Err` with the reason where it is not but has generic pointers to
/// gain from; `Ok(false)` where there is nothing to decide.
unsafe fn eligibility(f: LLVMValueRef) -> Result<bool, Refusal> {
    if LLVMIsDeclaration(f) != 0 || is_kernel(f) || ir::name(f).starts_with("llvm.") {
        return Ok(false);
    }
    let gains = params(f).iter().any(|&p| generic_ptr(p)) || returns_generic_ptr(f);
    if !gains {
        return Ok(false);
    }
    if !matches!(
        LLVMGetLinkage(f),
        LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage
    ) {
        return Err(Refusal::NotInternal);
    }
    let fty = LLVMGlobalGetValueType(f);
    if LLVMIsFunctionVarArg(fty) != 0 {
        return Err(Refusal::Variadic);
    }
    for (user, k) in ir::uses(f) {
        let direct = !LLVMIsACallInst(user).is_null()
            && k + 1 == LLVMGetNumOperands(user) as u32
            && LLVMGetCalledFunctionType(user) == fty;
        if !direct {
            return Err(Refusal::AddressTaken);
        }
    }
    Ok(true)
}

/// The leaves of a generic pointer (see the header).
unsafe fn leaves(v: LLVMValueRef, idx: &HashMap<LLVMValueRef, usize>) -> Vec<Leaf> {
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if seen.len() > WALK_LIMIT {
            out.push(Leaf::Unknown);
            break;
        }
        let ty = LLVMTypeOf(v);
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMPointerTypeKind {
            out.push(Leaf::Unknown);
            continue;
        }
        let space = LLVMGetPointerAddressSpace(ty);
        if space != 0 {
            out.push(Leaf::Known(space));
            continue;
        }
        if LLVMIsUndef(v) != 0 {
            continue;
        }
        let op = if !LLVMIsAInstruction(v).is_null() {
            Some(LLVMGetInstructionOpcode(v))
        } else if !LLVMIsAConstantExpr(v).is_null() {
            Some(LLVMGetConstOpcode(v))
        } else {
            None
        };
        use LLVMOpcode::*;
        match op {
            Some(LLVMAddrSpaceCast | LLVMBitCast | LLVMGetElementPtr) => {
                stack.push(LLVMGetOperand(v, 0))
            }
            Some(LLVMSelect) if !LLVMIsAInstruction(v).is_null() => {
                stack.push(LLVMGetOperand(v, 1));
                stack.push(LLVMGetOperand(v, 2));
            }
            Some(LLVMPHI) => {
                for k in 0..LLVMCountIncoming(v) {
                    stack.push(LLVMGetIncomingValue(v, k));
                }
            }
            // A private object: NVPTX allocas live in local memory (llc's nvptx-lower-alloca
            // casts each to the local space).
            Some(LLVMAlloca) => out.push(Leaf::Known(crate::analysis::gpu::addrspace::LOCAL)),
            Some(LLVMCall) => match idx.get(&LLVMGetCalledValue(v)) {
                Some(&fi) => out.push(Leaf::Ret(fi)),
                None => out.push(Leaf::Unknown),
            },
            Some(_) => out.push(Leaf::Unknown),
            None if !LLVMIsAArgument(v).is_null() => {
                let f = LLVMGetParamParent(v);
                let i =
                    params(f).iter().position(|&p| p == v).expect("a parameter of its function");
                if is_kernel(f) && !has_byval(f, i as u32) {
                    out.push(Leaf::Known(crate::analysis::gpu::addrspace::GLOBAL));
                } else if let Some(&fi) = idx.get(&f) {
                    out.push(Leaf::Param(fi, i));
                } else {
                    out.push(Leaf::Unknown);
                }
            }
            None => out.push(Leaf::Unknown),
        }
    }
    out
}

unsafe fn view(m: LLVMModuleRef) -> View {
    let mut fns = Vec::new();
    let mut refused = Vec::new();
    let all = crate::analysis::ir::module_functions(m);
    for &f in &all {
        match eligibility(f) {
            Ok(true) => fns.push(f),
            Ok(false) => {}
            Err(r) => refused.push((f, r)),
        }
    }
    let idx: HashMap<LLVMValueRef, usize> = fns.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    // The call sites of each eligible function in module order (use lists are in no useful
    // order): the original keeps the group of its first call site when it is cloned.
    let mut calls: Vec<Vec<LLVMValueRef>> = vec![Vec::new(); fns.len()];
    for &g in &all {
        for i in crate::analysis::ir::function_raw_instructions(g) {
            if !LLVMIsACallInst(i).is_null() {
                if let Some(&fi) = idx.get(&LLVMGetCalledValue(i)) {
                    calls[fi].push(i);
                }
            }
        }
    }
    let mut models = Vec::new();
    for (fi, &f) in fns.iter().enumerate() {
        let ps = params(f);
        // A `byval` parameter points to the callee's own copy, not to what the caller passes.
        let candidates: Vec<bool> = ps
            .iter()
            .enumerate()
            .map(|(i, &p)| generic_ptr(p) && !has_byval(f, i as u32))
            .collect();
        let cs = &calls[fi];
        let sites = cs
            .iter()
            .map(|&c| {
                (0..ps.len())
                    .map(|i| {
                        if candidates[i] {
                            leaves(LLVMGetOperand(c, i as u32), &idx)
                        } else {
                            Vec::new()
                        }
                    })
                    .collect()
            })
            .collect();
        let returns_ptr = returns_generic_ptr(f);
        let mut rets = Vec::new();
        if returns_ptr {
            for i in crate::analysis::ir::function_raw_instructions(f) {
                if LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMRet && LLVMGetNumOperands(i) == 1
                {
                    rets.extend(leaves(LLVMGetOperand(i, 0), &idx));
                }
            }
        }
        models.push(FnModel { candidates, returns_ptr, sites, rets });
    }
    View { fns, models, calls, refused }
}

/// Emits a remark of the pass about `f` when remarks are on.
fn remark(f: LLVMValueRef, name: &CStr, missed: bool, text: impl FnOnce() -> String) {
    if !facts::remarks_enabled_for(f) {
        return;
    }
    let fname = ir::name(f);
    let text = text();
    let args = [RemarkArg::named("Function", fname.as_bytes()), RemarkArg::text(text.as_bytes())];
    facts::remark_function(c"nv-ipmsp", name, missed, f, &args);
}

/// A parameter's name for remarks (`%3` style where it has none).
fn param_text(p: LLVMValueRef, i: usize) -> String {
    let n = ir::name(p);
    if n.is_empty() {
        format!("#{i}")
    } else {
        format!("%{n}")
    }
}

unsafe fn has_uses(v: LLVMValueRef) -> bool {
    !LLVMGetFirstUse(v).is_null()
}

/// Whether every use of `v` is an addrspacecast to space `k` (a pair an earlier run inserted).
unsafe fn already_cast(v: LLVMValueRef, k: u32) -> bool {
    ir::users(v).all(|u| {
        ir::is(u, LLVMOpcode::LLVMAddrSpaceCast) && LLVMGetPointerAddressSpace(LLVMTypeOf(u)) == k
    })
}

/// The clone state across rounds: each clone's original, and the clones made from each.
#[derive(Default)]
struct Clones {
    origin: HashMap<LLVMValueRef, LLVMValueRef>,
    made: HashMap<LLVMValueRef, i64>,
}

impl Clones {
    fn origin(&self, f: LLVMValueRef) -> LLVMValueRef {
        *self.origin.get(&f).unwrap_or(&f)
    }
    fn made(&self, f: LLVMValueRef) -> i64 {
        *self.made.get(&self.origin(f)).unwrap_or(&0)
    }
}

/// The parameters of eligible function `fi` whose verdict is `Mixed` (and are read).
unsafe fn mixed_params(v: &View, s: &Solution, fi: usize) -> Vec<usize> {
    let ps = params(v.fns[fi]);
    let m = &v.models[fi];
    (0..ps.len())
        .filter(|&i| m.candidates[i] && has_uses(ps[i]))
        .filter(|&i| solve::param_verdict(m, fi, i, s) == Verdict::Mixed)
        .collect()
}

/// One round of cloning; whether any clone was made.
unsafe fn clone_round(v: &View, s: &Solution, max: i64, clones: &mut Clones) -> bool {
    let mut any = false;
    for fi in 0..v.fns.len() {
        let mixed = mixed_params(v, s, fi);
        if mixed.is_empty() || max == 0 {
            continue;
        }
        let f = v.fns[fi];
        let groups = solve::clone_groups(&v.models[fi], &mixed, s);
        let need = groups.len() as i64 - 1;
        if need < 1 || clones.made(f) + need > max {
            continue;
        }
        for (key, sites) in groups.iter().skip(1) {
            let tag: Vec<String> = key
                .iter()
                .map(|k| match k {
                    Space::In(k) => k.to_string(),
                    _ => "g".to_string(),
                })
                .collect();
            let name = format!("{}.as{}", ir::name(f), tag.join("_"));
            let c = nvopt_ipmsp_clone(f, name.as_ptr().cast(), name.len());
            let origin = clones.origin(f);
            clones.origin.insert(c, origin);
            for &si in sites {
                let call = v.calls[fi][si];
                LLVMSetOperand(call, LLVMGetNumOperands(call) as u32 - 1, c);
            }
            log::debug!(
                "{PASS}: @{name} cloned from @{} for {} call sites",
                ir::name(f),
                sites.len()
            );
            remark(f, c"Cloned", false, || {
                format!(
                    ": cloned as @{name} for the {} call site(s) passing {}",
                    sites.len(),
                    key.iter()
                        .map(|k| match k {
                            Space::In(k) => space_name(*k),
                            _ => "generic",
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            });
            crate::stats::add(PASS, "clones made", 1);
        }
        *clones.made.entry(clones.origin(f)).or_insert(0) += need;
        any = true;
    }
    any
}

/// Inserts `v.ask = addrspacecast v to addrspace(k)`, `v.ask.gen = addrspacecast back` before
/// `at` and makes every other use of `v` read the latter.
unsafe fn cast_pair(v: LLVMValueRef, k: u32, at: LLVMValueRef, before_records: bool) {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(v));
    let b = LLVMCreateBuilderInContext(ctx);
    if before_records {
        LLVMPositionBuilderBeforeInstrAndDbgRecords(b, at);
    } else {
        LLVMPositionBuilderBefore(b, at);
    }
    let base = ir::name(v);
    let n1 = CString::new(format!("{base}.as{k}")).expect("no NUL in a name");
    let n2 = CString::new(format!("{base}.as{k}.gen")).expect("no NUL in a name");
    let spec = LLVMBuildAddrSpaceCast(b, v, LLVMPointerTypeInContext(ctx, k), n1.as_ptr());
    let gen = LLVMBuildAddrSpaceCast(b, spec, LLVMTypeOf(v), n2.as_ptr());
    LLVMDisposeBuilder(b);
    LLVMReplaceAllUsesWith(v, gen);
    LLVMSetOperand(spec, 0, v);
}

/// The final round: rewrites what is proven, reports what is not; the functions changed.
unsafe fn rewrite(v: &View, s: &Solution, max: i64, clones: &Clones) -> Vec<LLVMValueRef> {
    let mut changed = Vec::new();
    for (f, r) in &v.refused {
        let (what, text) = match r {
            Refusal::AddressTaken => (
                "refused: address taken",
                ": pointer parameters left generic: its address is taken, so not every caller is in view",
            ),
            Refusal::Variadic => ("refused: variadic", ": pointer parameters left generic: variadic"),
            Refusal::NotInternal => (
                "refused: not internal",
                ": pointer parameters left generic: not internal (-nv-rdc), callers outside the module",
            ),
        };
        crate::stats::add(PASS, what, 1);
        remark(*f, c"Refused", true, || text.to_string());
    }
    for (fi, &f) in v.fns.iter().enumerate() {
        let m = &v.models[fi];
        let ps = params(f);
        let mut did = false;
        for (i, &p) in ps.iter().enumerate() {
            if !m.candidates[i] || !has_uses(p) {
                continue;
            }
            match solve::param_verdict(m, fi, i, s) {
                Verdict::Specialize(k) if already_cast(p, k) => {}
                Verdict::Specialize(k) => {
                    let entry = LLVMGetEntryBasicBlock(f);
                    let at = ir::first_insertion_point(entry).expect("an entry block has room");
                    cast_pair(p, k, at, true);
                    did = true;
                    crate::stats::add(PASS, "pointer parameters specialized", 1);
                    remark(f, c"Specialized", false, || {
                        format!(
                            ": parameter {} is {} at every call site: accessed in that space",
                            param_text(p, i),
                            space_name(k)
                        )
                    });
                }
                Verdict::Unconstrained => {}
                Verdict::Mixed => {
                    let (what, why) = if max == 0 {
                        (
                            "refused: mixed spaces",
                            "cloning is off (nv-ipmsp-max-clones=0)".to_string(),
                        )
                    } else {
                        (
                            "refused: clone limit",
                            format!(
                                "cloning would pass nv-ipmsp-max-clones={max} ({} made)",
                                clones.made(f)
                            ),
                        )
                    };
                    crate::stats::add(PASS, what, 1);
                    remark(f, c"MixedSpaces", true, || {
                        format!(
                            ": parameter {} left generic: call sites pass different spaces and {why}",
                            param_text(p, i)
                        )
                    });
                }
                Verdict::UnknownActual => {
                    crate::stats::add(PASS, "refused: unknown actual", 1);
                    let site = m.sites.iter().position(|site| s.eval(&site[i]) == Space::Bottom);
                    let caller = site.map(|si| {
                        ir::name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(v.calls[fi][si])))
                    });
                    remark(f, c"UnknownActual", true, || {
                        format!(
                            ": parameter {} left generic: a call{} passes a pointer of no provable space",
                            param_text(p, i),
                            caller.map(|c| format!(" in @{c}")).unwrap_or_default()
                        )
                    });
                }
            }
        }
        if did {
            changed.push(f);
        }
        if let Space::In(k) = s.rets[fi] {
            let mut any = false;
            for &call in &v.calls[fi] {
                if !has_uses(call) || already_cast(call, k) {
                    continue;
                }
                let Some((at, before_records)) = ir::insertion_point_after_def(call) else {
                    continue;
                };
                cast_pair(call, k, at, before_records);
                changed.push(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
                any = true;
            }
            if any {
                crate::stats::add(PASS, "function returns specialized", 1);
                remark(f, c"SpecializedReturn", false, || {
                    format!(
                        ": returns a {} pointer: its callers access the result in that space",
                        space_name(k)
                    )
                });
            }
        }
    }
    let mut seen = HashSet::default();
    changed.retain(|f| seen.insert(*f));
    changed
}

/// Runs `nv-ipmsp` on a module (called by the pass plumbing in src/opt/ipmsp/ipmsp.cpp, which
/// passes its FunctionAnalysisManager for the infer-address-spaces runs); whether it changed
/// the IR.
///
/// # Safety
/// `m` is a live module that no one else changes during the call; `fam` its live
/// `llvm::FunctionAnalysisManager` (or null: no inference run).
#[no_mangle]
pub unsafe extern "C" fn nvopt_ipmsp_run(m: LLVMModuleRef, fam: *mut c_void) -> bool {
    let triple = CStr::from_ptr(LLVMGetTarget(m));
    let knobs = Knobs::current();
    if !knobs.do_ip_msp() || !crate::opt::internalize::applies_to_triple(triple.to_bytes()) {
        return false;
    }
    let max = knobs.nv_ipmsp_max_clones();
    let mut clones = Clones::default();
    let mut changed = false;
    for round in 0.. {
        let v = view(m);
        let s = solve::solve(&v.models);
        if round + 1 < MAX_ROUNDS && clone_round(&v, &s, max, &mut clones) {
            changed = true;
            continue;
        }
        let fs = rewrite(&v, &s, max, &clones);
        changed |= !fs.is_empty();
        if !fam.is_null() {
            for f in fs {
                nvopt_ipmsp_infer_address_spaces(f, fam);
            }
        }
        break;
    }
    changed
}
