//! The boundary between `nv-cssa`'s adapter (src/shim/cssa.cpp) and its planner
//! (src/cssa/plan.rs; seed 002, "CSSA Coalescing (PHI-Specific)"): the flat arrays the shim
//! fills for one function, their decoding into the planner's model, the knob reads, the
//! rewrites handed back to the shim one by one, and the statistics (`-nv-stats`).
//! Marshalling only.
use super::plan::{self, Edit, Incoming, Inst, InstKind, Model, Phi, Rewrites, Use};
use crate::ffi::slice;
use crate::knobs::Knobs;
use std::ffi::c_void;

const NONE: u32 = u32::MAX;

/// One basic block: its successors `succs[succ_first..+succ_count]` and its instructions, ids
/// `inst_first..+inst_count` (the shim numbers instructions in block order).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawBlock {
    succ_first: u32,
    succ_count: u32,
    inst_first: u32,
    inst_count: u32,
}

// RawInst kinds.
const KIND_PHI: u32 = 0;
const KIND_TERMINATOR: u32 = 1;
const KIND_MOVABLE: u32 = 2;

/// One use of a register value (instruction id, or `insts + argument number`): an operand of
/// instruction `user` (`phi == NONE`), or operand `slot` of PHI number `phi`, read at the end
/// of block `from`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawUse {
    value: u32,
    user: u32,
    phi: u32,
    slot: u32,
    from: u32,
}

/// One PHI: its instruction and its operands `incoming[first..+count]`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawPhi {
    inst: u32,
    first: u32,
    count: u32,
}

/// One PHI operand: incoming block, register value (`NONE` for constants) and the values
/// proved equal to it on the edge, `equal[eq_first..+eq_count]`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct RawIncoming {
    pred: u32,
    value: u32,
    eq_first: u32,
    eq_count: u32,
}

/// One function, as arrays owned by the shim.
#[repr(C)]
pub struct RawFunction {
    blocks: *const RawBlock,
    n_blocks: usize,
    succs: *const u32,
    n_succs: usize,
    kinds: *const u32,
    n_insts: usize,
    n_args: usize,
    uses: *const RawUse,
    n_uses: usize,
    phis: *const RawPhi,
    n_phis: usize,
    incoming: *const RawIncoming,
    n_incoming: usize,
    equal: *const u32,
    n_equal: usize,
}

/// Decodes the shim's arrays into the planner's model; `None` when an index is out of range.
#[allow(clippy::too_many_arguments)]
pub fn decode(
    blocks: &[RawBlock],
    succs: &[u32],
    kinds: &[u32],
    args: usize,
    uses: &[RawUse],
    phis: &[RawPhi],
    incoming: &[RawIncoming],
    equal: &[u32],
) -> Option<Model> {
    let nb = blocks.len() as u32;
    let nv = kinds.len() + args;
    let range = |first: u32, count: u32, len: usize| {
        let (a, b) = (first as usize, first as usize + count as usize);
        (b <= len).then_some(a..b)
    };
    let mut insts = vec![Inst { block: 0, kind: InstKind::Fixed }; kinds.len()];
    let mut order = Vec::with_capacity(blocks.len());
    let mut out_succs = Vec::with_capacity(blocks.len());
    for (b, rb) in blocks.iter().enumerate() {
        let ss = &succs[range(rb.succ_first, rb.succ_count, succs.len())?];
        if ss.iter().any(|&s| s >= nb) {
            return None;
        }
        out_succs.push(ss.to_vec());
        let ids = range(rb.inst_first, rb.inst_count, kinds.len())?;
        for i in ids.clone() {
            insts[i] = Inst {
                block: b as u32,
                kind: match kinds[i] {
                    KIND_PHI => InstKind::Phi,
                    KIND_TERMINATOR => InstKind::Terminator,
                    KIND_MOVABLE => InstKind::Movable,
                    _ => InstKind::Fixed,
                },
            };
        }
        order.push(ids.map(|i| i as u32).collect());
    }
    let value = |v: u32| ((v as usize) < nv).then_some(v);
    let mut out_uses = vec![Vec::new(); nv];
    for u in uses {
        let v = value(u.value)? as usize;
        out_uses[v].push(if u.phi == NONE {
            if u.user as usize >= kinds.len() {
                return None;
            }
            Use::Inst(u.user)
        } else {
            if u.phi as usize >= phis.len() || u.from >= nb {
                return None;
            }
            Use::Edge { from: u.from, phi: u.phi, slot: u.slot }
        });
    }
    let mut out_phis = Vec::with_capacity(phis.len());
    for p in phis {
        if p.inst as usize >= kinds.len() {
            return None;
        }
        let mut inc = Vec::new();
        for i in &incoming[range(p.first, p.count, incoming.len())?] {
            if i.pred >= nb {
                return None;
            }
            let eq = equal[range(i.eq_first, i.eq_count, equal.len())?]
                .iter()
                .map(|&e| value(e))
                .collect::<Option<Vec<u32>>>()?;
            let v = if i.value == NONE { None } else { Some(value(i.value)?) };
            inc.push(Incoming { pred: i.pred, value: v, equal: eq });
        }
        out_phis.push(Phi { inst: p.inst, incoming: inc });
    }
    Some(Model::new(out_succs, order, insts, args as u32, out_uses, out_phis))
}

extern "C" {
    fn nvopt_shim_register_cssa();
    fn nvopt_shim_cssa_substitute(host: *mut c_void, phi: u32, slot: u32, with: u32);
    fn nvopt_shim_cssa_sink(host: *mut c_void, inst: u32, after: u32);
}

/// Registers the legacy IR pass `nv-cssa` with LLVM's PassRegistry (for the TargetPassConfig
/// insertion in llc).
pub fn register() {
    // SAFETY: plain registration call, once at load.
    unsafe { nvopt_shim_register_cssa() }
}

/// The rewrites the knobs allow.
pub fn rewrites(k: &Knobs) -> Rewrites {
    Rewrites { equal_operand: k.nv_cssa_equal_operand(), sink: k.nv_cssa_sink() }
}

const PASS: &str = "nv-cssa";

fn record(out: &plan::Outcome) {
    for (what, n) in [
        ("PHI operands that are registers", out.operands),
        ("PHI operands interfering with their PHI", out.interfering),
        ("operands replaced by an equal value", out.substituted),
        ("operand definitions sunk below the PHI's last use", out.sunk),
        ("interfering operands left as they are", out.left),
    ] {
        if n > 0 {
            crate::stats::add(PASS, what, n);
        }
    }
}

/// Plans the rewrites of one function and hands each to the shim; returns whether any was made.
///
/// # Safety
/// `host` is the shim's live adapter; `f` describes arrays the shim keeps alive for the call.
#[no_mangle]
pub unsafe extern "C" fn nvopt_cssa_run(host: *mut c_void, f: *const RawFunction) -> bool {
    let f = &*f;
    let model = decode(
        slice(f.blocks, f.n_blocks),
        slice(f.succs, f.n_succs),
        slice(f.kinds, f.n_insts),
        f.n_args,
        slice(f.uses, f.n_uses),
        slice(f.phis, f.n_phis),
        slice(f.incoming, f.n_incoming),
        slice(f.equal, f.n_equal),
    );
    let Some(mut model) = model else {
        log::warn!("nv-cssa: the adapter's function description is inconsistent; nothing done");
        return false;
    };
    let out = plan::plan(&mut model, rewrites(&Knobs::current()));
    record(&out);
    for e in &out.edits {
        log::debug!("nv-cssa: {e:?}");
        match *e {
            Edit::Substitute { phi, slot, with } => {
                nvopt_shim_cssa_substitute(host, phi, slot, with)
            }
            Edit::Sink { inst, after } => nvopt_shim_cssa_sink(host, inst, after),
        }
    }
    !out.edits.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// entry(0) -> loop(1) -> loop | exit(2); %iv = phi [0, entry], [%next, loop];
    /// %next = add %iv, 1; %c = icmp %iv, %n; br %c.
    fn arrays() -> (Vec<RawBlock>, Vec<u32>, Vec<u32>, Vec<RawUse>, Vec<RawPhi>, Vec<RawIncoming>) {
        let blocks = vec![
            RawBlock { succ_first: 0, succ_count: 1, inst_first: 0, inst_count: 1 },
            RawBlock { succ_first: 1, succ_count: 2, inst_first: 1, inst_count: 4 },
            RawBlock { succ_first: 3, succ_count: 0, inst_first: 5, inst_count: 1 },
        ];
        let succs = vec![1, 1, 2];
        let kinds = vec![
            KIND_TERMINATOR,
            KIND_PHI,
            KIND_MOVABLE,
            KIND_MOVABLE,
            KIND_TERMINATOR,
            KIND_TERMINATOR,
        ];
        let u = |value, user| RawUse { value, user, phi: NONE, slot: 0, from: 0 };
        let uses = vec![
            u(1, 2),
            u(1, 3),
            u(6, 3),
            u(3, 4),
            RawUse { value: 2, user: 1, phi: 0, slot: 1, from: 1 },
        ];
        let phis = vec![RawPhi { inst: 1, first: 0, count: 2 }];
        let incoming = vec![
            RawIncoming { pred: 0, value: NONE, eq_first: 0, eq_count: 0 },
            RawIncoming { pred: 1, value: 2, eq_first: 0, eq_count: 0 },
        ];
        (blocks, succs, kinds, uses, phis, incoming)
    }

    #[test]
    fn decodes_and_plans_a_sink() {
        let (b, s, k, u, p, i) = arrays();
        let mut m = decode(&b, &s, &k, 1, &u, &p, &i, &[]).expect("consistent");
        let out = plan::plan(&mut m, Rewrites::default());
        assert_eq!(out.edits, vec![Edit::Sink { inst: 2, after: 3 }]);
    }

    #[test]
    fn out_of_range_indices_are_refused() {
        let (b, s, k, mut u, p, i) = arrays();
        assert!(decode(&b, &s, &k, 0, &u, &p, &i, &[]).is_none(), "argument 0 does not exist");
        u.pop();
        let mut bad = i.clone();
        bad[1].eq_count = 1;
        assert!(decode(&b, &s, &k, 1, &u, &p, &bad, &[]).is_none());
        let mut bad = b.clone();
        bad[2].inst_count = 2;
        assert!(decode(&bad, &s, &k, 1, &u, &p, &i, &[]).is_none());
    }

    #[test]
    fn both_rewrites_are_on_by_default() {
        assert_eq!(rewrites(&Knobs::defaults()), Rewrites::default());
    }
}
