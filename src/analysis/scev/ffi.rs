//! The boundary between the `nv-scev` adapter (src/analysis/scev/scev.cpp) and the gate: the shim's
//! accessors to LLVM's IR and ScalarEvolution, and the functions the shim calls. Marshalling
//! only.
use super::gate::{Built, Gate, Host, Limits, Why};
use super::score::{Config, Node, ScevId, ScoreGraph, ValueId};
use crate::analysis::scev_node::ScevNode;
use crate::analysis::scev_sources::ffi::decode_terms;
use crate::analysis::scev_sources::idiom::{classify, Idiom};
use crate::ffi::slice;
use crate::knobs::Knobs;
use std::ffi::{c_char, c_void};

/// One value as the shim describes it (`kind`: an [`NvScevValueKind`] code).
#[repr(C)]
#[derive(Default)]
pub(crate) struct RawNode {
    pub(crate) kind: u32,
    pub(crate) loop_depth: u32,
    pub(crate) num_operands: u32,
}

crate::shared_codes! {
    /// What the shim reports a value to be, in [`RawNode::kind`] (src/analysis/scev/scev.cpp uses
    /// the generated C++ enum `NvScevValueKind`).
    enum NvScevValueKind: u32 {
        /// A constant.
        SCEV_VALUE_CONSTANT = 0,
        /// A function argument.
        SCEV_VALUE_ARGUMENT = 1,
        /// A value ScalarEvolution does not model (`!isSCEVable` type).
        SCEV_VALUE_NOT_SCEVABLE = 2,
        /// An instruction of a SCEVable type, with its loop depth and operand count.
        SCEV_VALUE_INSTRUCTION = 3,
        /// Any other SCEVable value.
        SCEV_VALUE_OTHER = 4,
    }
}

extern "C" {
    fn nvopt_shim_scev_node(host: *mut c_void, v: ValueId, out: *mut RawNode);
    fn nvopt_shim_scev_operand(host: *mut c_void, v: ValueId, i: u32) -> ValueId;
    fn nvopt_shim_scev_begin_scoring(host: *mut c_void);
    fn nvopt_shim_scev_count(host: *mut c_void, s: ScevId, limit: u64) -> u64;
    fn nvopt_shim_scev_unknown(host: *mut c_void, v: ValueId) -> ScevId;
    fn nvopt_shim_scev_build_operands(
        host: *mut c_void,
        v: ValueId,
        out: *mut ValueId,
        cap: usize,
    ) -> usize;
    fn nvopt_shim_scev_build(
        host: *mut c_void,
        v: ValueId,
        ops: *const ScevId,
        n: usize,
        tainted: bool,
        add_items: *mut u32,
    ) -> ScevId;
}

/// The shim's `NVScev` object seen as the gate's host.
struct Shim {
    host: *mut c_void,
    kernel: bool,
}

impl Shim {
    fn node_kind(&mut self, v: ValueId) -> RawNode {
        let mut raw = RawNode::default();
        // SAFETY: host is the live NVScev that called into Rust; v is a Value* of its function.
        unsafe { nvopt_shim_scev_node(self.host, v, &mut raw) };
        raw
    }
}

impl ScoreGraph for Shim {
    fn node(&mut self, v: ValueId) -> Node {
        let raw = self.node_kind(v);
        match raw.kind {
            SCEV_VALUE_CONSTANT => Node::Constant,
            SCEV_VALUE_ARGUMENT => Node::Argument,
            SCEV_VALUE_NOT_SCEVABLE => Node::NotScevable,
            SCEV_VALUE_INSTRUCTION => Node::Instruction {
                loop_depth: raw.loop_depth,
                // SAFETY: as above; i < num_operands.
                operands: (0..raw.num_operands)
                    .map(|i| unsafe { nvopt_shim_scev_operand(self.host, v, i) })
                    .collect(),
            },
            _ => Node::Other,
        }
    }
    fn count_nodes(&mut self, s: ScevId, limit: u64) -> u64 {
        // SAFETY: s is a SCEV of the host's ScalarEvolution.
        unsafe { nvopt_shim_scev_count(self.host, s, limit) }
    }
    fn begin_scoring(&mut self) {
        // SAFETY: host is live.
        unsafe { nvopt_shim_scev_begin_scoring(self.host) }
    }
}

impl Host for Shim {
    fn is_kernel(&self) -> bool {
        self.kernel
    }
    fn unknown(&mut self, v: ValueId) -> ScevId {
        // SAFETY: host is live; v is a Value* of its function.
        unsafe { nvopt_shim_scev_unknown(self.host, v) }
    }
    fn is_constant(&mut self, v: ValueId) -> bool {
        matches!(self.node_kind(v).kind, SCEV_VALUE_CONSTANT)
    }
    fn operands(&mut self, v: ValueId) -> Vec<ValueId> {
        let mut buf = vec![0usize; 8];
        loop {
            // SAFETY: buf has buf.len() writable slots.
            let n = unsafe {
                nvopt_shim_scev_build_operands(self.host, v, buf.as_mut_ptr(), buf.len())
            };
            if n <= buf.len() {
                buf.truncate(n);
                return buf;
            }
            buf.resize(n, 0);
        }
    }
    fn build(&mut self, v: ValueId, operands: &[ScevId], tainted: bool) -> Built {
        let mut add_items = 0u32;
        // SAFETY: operands are the SCEVs of the values build_operands listed, in order.
        let scev = unsafe {
            nvopt_shim_scev_build(
                self.host,
                v,
                operands.as_ptr(),
                operands.len(),
                tainted,
                &mut add_items,
            )
        };
        Built { scev, add_items }
    }
}

/// The wrapper's per-function state, owned by the shim's analysis result.
pub struct State {
    gate: Gate,
    kernel: bool,
}

fn limits(k: &Knobs) -> Limits {
    Limits {
        complexity_control: k.scalar_evolution_complexity_control(),
        max_expr_size: k.scalar_evolution_max_expr_size() as u64,
        max_expr_failures: k.scalar_evolution_max_expr_failures() as u32,
        max_add_items: k.scalar_evolution_max_add_items() as u32,
        max_recursion: k.scalar_evolution_max_recursion_depth() as u32,
        config: Config(k.nv_scev_complexity_config() as u8),
    }
}

/// A new state for one function (`kernel`: calling convention `ptx_kernel`).
#[no_mangle]
pub extern "C" fn nvopt_scev_new(kernel: bool) -> *mut State {
    Box::into_raw(Box::new(State { gate: Gate::new(limits(&Knobs::current())), kernel }))
}

/// # Safety
/// `s` came from [`nvopt_scev_new`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn nvopt_scev_free(s: *mut State) {
    if !s.is_null() {
        drop(Box::from_raw(s));
    }
}

/// The wrapper's getSCEV.
///
/// # Safety
/// `s` is live; `host` is the NVScev that owns it; `v` is a Value* of its function.
#[no_mangle]
pub unsafe extern "C" fn nvopt_scev_get(s: *mut State, host: *mut c_void, v: ValueId) -> ScevId {
    let s = &mut *s;
    let mut shim = Shim { host, kernel: s.kernel };
    let failures = s.gate.failures();
    let scev = s.gate.get(&mut shim, v);
    crate::stats::add("nv-scev", "values queried", 1);
    if s.gate.failures() > failures {
        crate::stats::add("nv-scev", "values over the size limit (Unknown)", 1);
    }
    scev
}

/// Writes why `v` is Unknown (empty when it is not a gated Unknown) into `buf`; returns the
/// full length.
///
/// # Safety
/// `s` is live; `buf` has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_scev_explain(
    s: *const State,
    v: ValueId,
    buf: *mut c_char,
    cap: usize,
) -> usize {
    let s = &*s;
    copy_out(&explain(s.gate.why(v), &Knobs::current()), buf, cap)
}

/// Writes the per-function summary line into `buf`; returns the full length.
///
/// # Safety
/// `s` is live; `buf` has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_scev_summary(
    s: *const State,
    buf: *mut c_char,
    cap: usize,
) -> usize {
    let s = &*s;
    copy_out(&summary(&s.gate, s.kernel), buf, cap)
}

/// Writes a loop's stride idiom (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms") into
/// `buf`: that of the first of its recurrences `{start,+,step}` that has one, else "none"; returns
/// the full length. The recurrences come as one array of nodes in the preorder encoding of
/// src/shim/sreg_terms.h and `2 * n` lengths (start, step, start, step, ...).
///
/// # Safety
/// `nodes` holds the sum of the `2 * n` lengths in `lens`; `buf` has `cap` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn nvopt_scev_loop_idiom(
    nodes: *const ScevNode,
    lens: *const usize,
    n: usize,
    buf: *mut c_char,
    cap: usize,
) -> usize {
    let lens = slice(lens, 2 * n);
    let nodes = slice(nodes, lens.iter().sum());
    let mut at = 0;
    let mut take = |len: usize| {
        let t = decode_terms(&nodes[at..at + len]);
        at += len;
        t
    };
    let idioms: Vec<Idiom> = lens
        .chunks(2)
        .map(|p| {
            let start = take(p[0]);
            classify(&start, &take(p[1]))
        })
        .collect();
    copy_out(loop_idiom(&idioms).name(), buf, cap)
}

/// The idiom of a loop: that of its first recurrence with one.
pub fn loop_idiom(recurrences: &[Idiom]) -> Idiom {
    recurrences.iter().copied().find(|i| *i != Idiom::None).unwrap_or(Idiom::None)
}

unsafe fn copy_out(text: &str, buf: *mut c_char, cap: usize) -> usize {
    let n = text.len().min(cap);
    std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
    text.len()
}

/// The reason printed next to a gated Unknown.
pub fn explain(why: Option<Why>, k: &Knobs) -> String {
    match why {
        None | Some(Why::Built) => String::new(),
        Some(Why::SizeGate) => format!(
            "Unknown: expression size > {} (scalar-evolution-max-expr-size)",
            k.scalar_evolution_max_expr_size()
        ),
        Some(Why::FailureGate(n)) => format!(
            "Unknown: failure gate, {n} failures > {} (scalar-evolution-max-expr-failures)",
            k.scalar_evolution_max_expr_failures()
        ),
        Some(Why::RecursionBudget) => format!(
            "Unknown: recursion budget of {} spent (scalar-evolution-max-recursion-depth)",
            k.scalar_evolution_max_recursion_depth()
        ),
        Some(Why::AddItems(n)) => format!(
            "Unknown: add of {n} operands > {} (scalar-evolution-max-add-items)",
            k.scalar_evolution_max_add_items()
        ),
    }
}

/// The per-function summary of `print<nv-scev>`.
pub fn summary(gate: &Gate, kernel: bool) -> String {
    let mode = if gate.simple_mode() {
        "simple (complexity control)"
    } else {
        "normal (recursion budget)"
    };
    let bypass = if kernel { "yes (ptx_kernel)" } else { "no (device function)" };
    format!("mode: {mode}, failures: {}, kernel budget bypass: {bypass}", gate.failures())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loop_takes_the_idiom_of_its_first_recurrence_with_one() {
        assert_eq!(loop_idiom(&[]), Idiom::None);
        assert_eq!(
            loop_idiom(&[Idiom::None, Idiom::GridStride, Idiom::WarpStride]),
            Idiom::GridStride
        );
        assert_eq!(loop_idiom(&[Idiom::BlockStride, Idiom::None]), Idiom::BlockStride);
    }
}
