//! `nv-internalize`: whole-program mode, nvcc's default. Without `-rdc`, nvcc
//! compiles a translation unit's device code as a closed world: nothing outside it can call a
//! device function (the host launches kernels only, and no other device object is linked), so
//! every non-kernel function is internal, and the inliner, argument promotion, IPSCCP,
//! dead-argument elimination and address-space inference may rewrite it or its signature
//! freely. clang compiles CUDA device code with C++ linkage instead (external, `.visible
//! .func` in PTX), which shuts those passes out. This pass gives nvopt's pipelines nvcc's
//! closed world:
//!
//! - every non-kernel function **definition** with an external, weak or linkonce linkage
//!   becomes `internal` (its comdat, which PTX does not have, is dropped);
//! - **weak and linkonce device data** that nothing in the module references and that the host
//!   cannot name (not `externally_initialized`, not in `llvm.used`/`llvm.compiler.used`) is
//!   deleted (`globaldce` keeps weak data: outside a closed world another unit might use it).
//!
//! ```text
//! ; before                                         ; after nv-internalize
//! @dvar = addrspace(1) externally_initialized      @dvar = addrspace(1) externally_initialized
//!         global i32 0                                     global i32 0          ; kept
//! @spare = weak_odr addrspace(1) global i32 1      ;  (deleted: unreferenced, host cannot name it)
//! define float @helper(float %x) {...}             define internal float @helper(float %x) {...}
//! define linkonce_odr i32 @twice(i32) comdat {...} define internal i32 @twice(i32) {...}
//! define ptx_kernel void @k(ptr %out) {...}        define ptx_kernel void @k(ptr %out) {...}
//! declare i32 @vprintf(ptr, ptr)                   declare i32 @vprintf(ptr, ptr)
//! ```
//!
//! Kept as they are, and why: kernels (`ptx_kernel`; LLVM 22 upgrades the older
//! `!nvvm.annotations` kernel entries to it when it reads IR), the host launches them by name;
//! declarations (libdevice's `__nv_*` before linking, `vprintf`, intrinsics), which are not
//! definitions; what `llvm.used` or `llvm.compiler.used` names (clang lists every
//! `__device__`, `__constant__` and `__managed__` variable there, which the host registers by
//! name); `available_externally` bodies (a declaration with a body); `externally_initialized`
//! variables (`__device__`/`__constant__`: the host writes them); `llvm.*` globals; members
//! of a comdat that also holds something that stays visible (internalizing one member alone
//! would split the group); data that is referenced or that is not weak or linkonce (variables
//! keep their linkage: only unreferenced weak/linkonce data goes). Modules whose target is not
//! NVPTX are left alone.
//!
//! Where it runs: first in the module pipeline of every optimizing level (O1-O3 and the three
//! fast-compile levels; not O0), before the first `globaldce`, which then removes the
//! internal functions nothing calls, and before the inliner, `globalopt`, `ipsccp`,
//! `deadargelim` and `argpromotion`, which need internal linkage. cicc has no slot for it in its
//! printed optimizer pipelines (docs/CICC-FACTS.md "The printed pipelines"): cicc runs its LNK
//! stage (the NVVM linker with libdevice, before the OPT stage that prints the pipeline; "LNK ->
//! OPT -> LLC" in the book page "Entry Point & CLI", docs/SOURCES.md), where whole-program
//! internalization belongs, so nvopt's earliest sensible point is the pipeline's start.
//!
//! Knob: `-nv-rdc` (default off) keeps today's linkage for relocatable device code (nvcc
//! `-rdc=true`, which `nvopt-cc -rdc=true` passes on): the `nv:internalize` slot is off and
//! the pass, run by name, does nothing. Inside clang (`-mllvm -nv-pipeline=LEVEL`) a
//! `-fgpu-rdc` build needs `-mllvm -nv-rdc` too: clang's device IR does not say whether it was
//! compiled for separate linking. Counters under `-nv-stats`; a remark for each function
//! internalized and each datum deleted under `-pass-remarks=nv-internalize`, and for each
//! device function kept visible, with the reason, under `-pass-remarks-missed=nv-internalize`.
use crate::analysis::gpu::PTX_KERNEL_CC;
use crate::analysis::ir::facts::{self, RemarkArg};
use crate::analysis::ir::name;
use crate::fast_hash::HashMap;
use crate::knobs::Knobs;
use llvm_sys::comdat::{LLVMGetComdat, LLVMSetComdat};
use llvm_sys::core::*;
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};
use llvm_sys::{LLVMLinkage, LLVMOpcode};
use std::ffi::CStr;

pub const PASS: &str = "nv-internalize";

/// A global's linkage, as far as the decision needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    External,
    /// `weak`, `weak_odr`.
    Weak,
    /// `linkonce`, `linkonce_odr`.
    LinkOnce,
    AvailableExternally,
    /// `internal`, `private`.
    Local,
    /// `appending`, `common`, `extern_weak` and the obsolete kinds.
    Other,
}

impl Linkage {
    fn of(l: LLVMLinkage) -> Self {
        use LLVMLinkage::*;
        match l {
            LLVMExternalLinkage => Linkage::External,
            LLVMWeakAnyLinkage | LLVMWeakODRLinkage => Linkage::Weak,
            LLVMLinkOnceAnyLinkage | LLVMLinkOnceODRLinkage => Linkage::LinkOnce,
            LLVMAvailableExternallyLinkage => Linkage::AvailableExternally,
            LLVMInternalLinkage | LLVMPrivateLinkage => Linkage::Local,
            _ => Linkage::Other,
        }
    }
}

/// What the pass knows about one function or global variable of the module.
#[derive(Clone, Debug)]
pub struct Symbol {
    pub function: bool,
    pub definition: bool,
    pub linkage: Linkage,
    /// `ptx_kernel` calling convention.
    pub kernel: bool,
    /// Named by `llvm.used` or `llvm.compiler.used`.
    pub used: bool,
    pub externally_initialized: bool,
    /// Has a use (an instruction, a constant, another global's initializer).
    pub referenced: bool,
    /// Its name starts with `llvm.` (intrinsics, `llvm.used`, `llvm.global_ctors`, ...).
    pub llvm_name: bool,
    /// Its comdat, as an index shared by the members of one comdat.
    pub comdat: Option<usize>,
}

/// Why a global stays as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// A declaration, already local, or an `llvm.*` global: nothing to decide.
    NotOurs,
    Kernel,
    Used,
    AvailableExternally,
    /// A comdat member beside a member that stays visible.
    Comdat,
    /// A variable the host names: `externally_initialized`.
    HostVisible,
    /// Weak or linkonce data that something references.
    Referenced,
    /// A variable that is neither weak nor linkonce (its linkage is kept).
    StrongData,
}

/// What happens to one global.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Internalize,
    Drop,
    Keep(Kept),
}

/// The decision for one global, before comdats are looked at.
fn decide_alone(s: &Symbol) -> Decision {
    use Decision::*;
    if !s.definition || s.linkage == Linkage::Local || s.llvm_name {
        return Keep(Kept::NotOurs);
    }
    if s.function {
        return if s.kernel {
            Keep(Kept::Kernel)
        } else if s.used {
            Keep(Kept::Used)
        } else if s.linkage == Linkage::AvailableExternally {
            Keep(Kept::AvailableExternally)
        } else if s.linkage == Linkage::Other {
            Keep(Kept::NotOurs)
        } else {
            Internalize
        };
    }
    if !matches!(s.linkage, Linkage::Weak | Linkage::LinkOnce) {
        Keep(Kept::StrongData)
    } else if s.externally_initialized || s.used {
        Keep(Kept::HostVisible)
    } else if s.referenced {
        Keep(Kept::Referenced)
    } else {
        Drop
    }
}

/// The decisions for every global of a module: each alone, then comdats: a member is
/// internalized or dropped only when every other member of its comdat is internalized (a
/// dropped datum must be its comdat's only member), else it stays (repeated until nothing
/// changes, since a member that stays pins the rest of its group).
pub fn plan(symbols: &[Symbol]) -> Vec<Decision> {
    let mut out: Vec<Decision> = symbols.iter().map(decide_alone).collect();
    let mut members: HashMap<usize, Vec<usize>> = HashMap::default();
    for (i, s) in symbols.iter().enumerate() {
        if let Some(c) = s.comdat {
            members.entry(c).or_default().push(i);
        }
    }
    loop {
        let mut changed = false;
        for group in members.values() {
            let pinned =
                group.iter().any(|&i| matches!(out[i], Decision::Keep(_)) && symbols[i].definition);
            for &i in group {
                let alone_dropped = out[i] == Decision::Drop && group.len() > 1;
                if (pinned || alone_dropped) && !matches!(out[i], Decision::Keep(_)) {
                    out[i] = Decision::Keep(Kept::Comdat);
                    changed = true;
                }
            }
        }
        if !changed {
            return out;
        }
    }
}

/// Every function and global variable of a module, in module order.
fn globals(m: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let mut out = crate::analysis::ir::module_functions(m);
    // SAFETY: a live module; its global list is walked before anything is changed.
    unsafe {
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            out.push(g);
            g = LLVMGetNextGlobal(g);
        }
    }
    out
}

/// A constant with its pointer casts (`addrspacecast`, `bitcast`) stripped.
fn strip_casts(mut v: LLVMValueRef) -> LLVMValueRef {
    // SAFETY: live constants; a cast expression has its operand at 0.
    unsafe {
        while !LLVMIsAConstantExpr(v).is_null()
            && matches!(
                LLVMGetConstOpcode(v),
                LLVMOpcode::LLVMAddrSpaceCast | LLVMOpcode::LLVMBitCast
            )
        {
            v = LLVMGetOperand(v, 0);
        }
    }
    v
}

/// The globals `llvm.used` and `llvm.compiler.used` name.
fn used_globals(m: LLVMModuleRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    for list in [c"llvm.used", c"llvm.compiler.used"] {
        // SAFETY: a live module; the lists are arrays of pointer constants.
        unsafe {
            let g = LLVMGetNamedGlobal(m, list.as_ptr());
            if g.is_null() || LLVMIsDeclaration(g) != 0 {
                continue;
            }
            let init = LLVMGetInitializer(g);
            if init.is_null() || LLVMIsAConstantArray(init).is_null() {
                continue;
            }
            let n = LLVMGetNumOperands(init);
            out.extend((0..n as u32).map(|k| strip_casts(LLVMGetOperand(init, k))));
        }
    }
    out
}

/// The facts of each global (raw handles in the same order).
fn symbols(m: LLVMModuleRef, gs: &[LLVMValueRef]) -> Vec<Symbol> {
    let used = used_globals(m);
    let mut comdats: HashMap<usize, usize> = HashMap::default();
    gs.iter()
        .map(|&g| {
            // SAFETY: live globals of the module.
            unsafe {
                let function = !LLVMIsAFunction(g).is_null();
                let c = LLVMGetComdat(g);
                let next = comdats.len();
                Symbol {
                    function,
                    definition: LLVMIsDeclaration(g) == 0,
                    linkage: Linkage::of(LLVMGetLinkage(g)),
                    kernel: function && LLVMGetFunctionCallConv(g) == PTX_KERNEL_CC,
                    used: used.contains(&g),
                    externally_initialized: !function && LLVMIsExternallyInitialized(g) != 0,
                    referenced: !LLVMGetFirstUse(g).is_null(),
                    llvm_name: name(g).starts_with("llvm."),
                    comdat: (!c.is_null()).then(|| *comdats.entry(c as usize).or_insert(next)),
                }
            }
        })
        .collect()
}

/// A linkage as IR spells it, for the remarks (`external` for every other kind).
fn linkage_text(l: LLVMLinkage) -> &'static str {
    use LLVMLinkage::*;
    match l {
        LLVMWeakAnyLinkage => "weak",
        LLVMWeakODRLinkage => "weak_odr",
        LLVMLinkOnceAnyLinkage => "linkonce",
        LLVMLinkOnceODRLinkage => "linkonce_odr",
        LLVMAvailableExternallyLinkage => "available_externally",
        _ => "external",
    }
}

/// Why a device function keeps its linkage (missed remarks).
fn keep_reason(k: Kept) -> &'static str {
    match k {
        Kept::Used => "kept visible: named by llvm.used or llvm.compiler.used",
        Kept::AvailableExternally => "kept: available_externally (a declaration with a body)",
        Kept::Comdat => "kept visible: its comdat holds a symbol that stays visible",
        _ => "kept",
    }
}

/// The `-nv-stats` counter a decision adds to (none for what is not the pass's to decide).
fn counter(d: Decision, function: bool) -> Option<&'static str> {
    Some(match (d, function) {
        (Decision::Internalize, _) => "device functions internalized",
        (Decision::Drop, _) => "unreferenced weak/linkonce device data deleted",
        (Decision::Keep(Kept::Kernel), _) => "kernels kept visible",
        (Decision::Keep(Kept::NotOurs | Kept::StrongData), _) => return None,
        (Decision::Keep(_), true) => {
            "device functions kept visible (used, comdat, available_externally)"
        }
        (Decision::Keep(Kept::HostVisible), false) => {
            "weak/linkonce device data kept (the host names it)"
        }
        (Decision::Keep(_), false) => "weak/linkonce device data kept (referenced or in a comdat)",
    })
}

/// Emits one remark of the pass about function `f`: `<key>` names `what`, then `text`.
fn remark(name: &CStr, missed: bool, f: LLVMValueRef, key: &str, what: &str, text: &str) {
    let args = [RemarkArg::named(key, what.as_bytes()), RemarkArg::text(text.as_bytes())];
    facts::remark_function(c"nv-internalize", name, missed, f, &args);
}

/// Internalizes and deletes as planned, with counters and remarks; whether anything changed.
fn apply(gs: &[LLVMValueRef], syms: &[Symbol], plan: &[Decision]) -> bool {
    // An LLVM remark belongs to a function: those about deleted data are anchored on the
    // module's first function definition (without one, only the counters report them).
    let anchor = gs.iter().zip(syms).find(|(_, s)| s.function && s.definition).map(|(&g, _)| g);
    let remarks = anchor.is_some_and(facts::remarks_enabled_for);
    let mut changed = false;
    for ((&g, s), &d) in gs.iter().zip(syms).zip(plan) {
        if let Some(c) = counter(d, s.function) {
            crate::stats::add(PASS, c, 1);
        }
        if d == Decision::Keep(Kept::NotOurs) {
            continue;
        }
        let gname = name(g);
        // SAFETY: a live global.
        let old = linkage_text(unsafe { LLVMGetLinkage(g) });
        match d {
            Decision::Internalize => {
                log::debug!("{PASS}: @{gname}: {old} -> internal");
                if remarks {
                    let text = format!(
                        " internalized ({old} before): a device function of a whole-program compile"
                    );
                    remark(c"Internalized", false, g, "Function", &gname, &text);
                }
                // SAFETY: a live function definition; its comdat (PTX has none) goes with the
                // linkage, as every other member of the comdat is internalized too (plan).
                unsafe {
                    LLVMSetLinkage(g, LLVMLinkage::LLVMInternalLinkage);
                    LLVMSetComdat(g, std::ptr::null_mut());
                }
                changed = true;
            }
            Decision::Drop => {
                log::debug!("{PASS}: @{gname}: unreferenced {old} data deleted");
                if let (true, Some(a)) = (remarks, anchor) {
                    let text =
                        format!(" deleted: unreferenced {old} device data the host cannot name");
                    remark(c"DeletedData", false, a, "Global", &gname, &text);
                }
                // SAFETY: a live global variable without uses; nothing refers to it afterwards.
                unsafe { LLVMDeleteGlobal(g) };
                changed = true;
            }
            Decision::Keep(k) if s.function && remarks && k != Kept::Kernel => {
                let text = format!(" {}", keep_reason(k));
                remark(c"KeptVisible", true, g, "Function", &gname, &text);
            }
            Decision::Keep(_) => {}
        }
    }
    changed
}

/// Whether the pass applies to a module with this target triple: NVPTX only.
pub fn applies_to_triple(triple: &[u8]) -> bool {
    triple.starts_with(b"nvptx")
}

/// Runs `nv-internalize` on a module (called by the pass plumbing in
/// src/shim/rust_module_passes.cpp); whether it changed the IR.
///
/// # Safety
/// `m` is a live module that no one else changes during the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_internalize_run(m: LLVMModuleRef) -> bool {
    let triple = CStr::from_ptr(LLVMGetTarget(m));
    if Knobs::current().nv_rdc() || !applies_to_triple(triple.to_bytes()) {
        return false;
    }
    let gs = globals(m);
    let syms = symbols(m, &gs);
    let decisions = plan(&syms);
    apply(&gs, &syms, &decisions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(linkage: Linkage) -> Symbol {
        Symbol {
            function: true,
            definition: true,
            linkage,
            kernel: false,
            used: false,
            externally_initialized: false,
            referenced: true,
            llvm_name: false,
            comdat: None,
        }
    }

    fn data(linkage: Linkage, referenced: bool) -> Symbol {
        Symbol { function: false, referenced, ..f(linkage) }
    }

    #[test]
    fn device_functions_are_internalized_kernels_and_declarations_kept() {
        let kernel = Symbol { kernel: true, ..f(Linkage::External) };
        let decl = Symbol { definition: false, ..f(Linkage::External) };
        let syms = [f(Linkage::External), f(Linkage::LinkOnce), f(Linkage::Weak), kernel, decl];
        assert_eq!(
            plan(&syms),
            [
                Decision::Internalize,
                Decision::Internalize,
                Decision::Internalize,
                Decision::Keep(Kept::Kernel),
                Decision::Keep(Kept::NotOurs)
            ]
        );
    }

    #[test]
    fn used_available_externally_local_and_llvm_functions_stay() {
        let used = Symbol { used: true, ..f(Linkage::External) };
        let llvm = Symbol { llvm_name: true, ..f(Linkage::External) };
        let syms = [used, f(Linkage::AvailableExternally), f(Linkage::Local), llvm];
        assert_eq!(
            plan(&syms),
            [
                Decision::Keep(Kept::Used),
                Decision::Keep(Kept::AvailableExternally),
                Decision::Keep(Kept::NotOurs),
                Decision::Keep(Kept::NotOurs)
            ]
        );
    }

    #[test]
    fn only_unreferenced_weak_or_linkonce_data_the_host_cannot_name_goes() {
        let host = Symbol { externally_initialized: true, ..data(Linkage::LinkOnce, false) };
        let used = Symbol { used: true, ..data(Linkage::Weak, false) };
        let syms = [
            data(Linkage::LinkOnce, false),
            data(Linkage::Weak, false),
            data(Linkage::LinkOnce, true),
            data(Linkage::External, false),
            host,
            used,
        ];
        assert_eq!(
            plan(&syms),
            [
                Decision::Drop,
                Decision::Drop,
                Decision::Keep(Kept::Referenced),
                Decision::Keep(Kept::StrongData),
                Decision::Keep(Kept::HostVisible),
                Decision::Keep(Kept::HostVisible)
            ]
        );
    }

    #[test]
    fn a_comdat_with_a_visible_member_pins_the_others() {
        let c = |s: Symbol| Symbol { comdat: Some(0), ..s };
        let kernel = c(Symbol { kernel: true, ..f(Linkage::External) });
        let syms = [c(f(Linkage::LinkOnce)), kernel, c(data(Linkage::LinkOnce, false))];
        assert_eq!(
            plan(&syms),
            [
                Decision::Keep(Kept::Comdat),
                Decision::Keep(Kept::Kernel),
                Decision::Keep(Kept::Comdat)
            ]
        );
        // Two internalized functions share a comdat: both go internal.
        let both = [c(f(Linkage::LinkOnce)), c(f(Linkage::LinkOnce))];
        assert_eq!(plan(&both), [Decision::Internalize, Decision::Internalize]);
        // A datum is dropped only as its comdat's single member.
        let lone = [c(data(Linkage::LinkOnce, false))];
        assert_eq!(plan(&lone), [Decision::Drop]);
        let pair = [c(data(Linkage::LinkOnce, false)), c(f(Linkage::LinkOnce))];
        assert_eq!(plan(&pair), [Decision::Keep(Kept::Comdat), Decision::Keep(Kept::Comdat)]);
    }

    #[test]
    fn nvptx_modules_only() {
        assert!(applies_to_triple(b"nvptx64-nvidia-cuda"));
        assert!(!applies_to_triple(b"x86_64-unknown-linux-gnu"));
        assert!(!applies_to_triple(b""));
    }
}
