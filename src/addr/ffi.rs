//! The boundary between the address passes' C++ adapter (src/shim/addr.cpp) and their Rust
//! decisions (this module's parent): `#[repr(C)]` mirrors of what the adapter hands over, one
//! [`Session`] per function and phase, and the dumps (`dump-scev-cgp`,
//! `dump-base-address-strength-reduce`) and remark texts. Marshalling and printing only.
use super::basr::{self, BaseFacts, LoopFacts, PairFacts};
use super::cbe::{self, Rewrite};
use super::expr::{Flat, Tree};
use super::group::{normal_origin, Place, Record};
use super::record::split;
use super::Settings;
use crate::ffi::slice;
use crate::gpu::LaunchBounds;
use crate::knobs::Knobs;
use crate::scev_sources::ffi::NvStr;

/// Mirrors `NvAddrRecord` in src/shim/addr.cpp.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvRecord {
    pub offset: i64,
    pub base: u32,
    pub space: u32,
    pub block: u32,
    pub dfs_in: u32,
    pub dfs_out: u32,
    pub order: u32,
    pub value: u32,
    pub value_uses: u32,
    pub loop_id: i32,
    pub access: u32,
    pub loop_insts: u32,
    pub loop_const_geps: u32,
}

impl From<&NvRecord> for Record {
    fn from(r: &NvRecord) -> Record {
        let at = Place { block: r.block, dfs_in: r.dfs_in, dfs_out: r.dfs_out, order: r.order };
        Record {
            base: r.base,
            space: r.space,
            offset: r.offset,
            at,
            access: r.access != 0,
            value: r.value,
            value_uses: r.value_uses,
            loop_id: r.loop_id,
            loop_cost: super::group::loop_cost(r.loop_insts, r.loop_const_geps),
        }
    }
}

/// A CBE rewrite for the adapter: record `record` gets `value of record anchor + delta`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvRewrite {
    pub delta: i64,
    pub record: u32,
    pub anchor: u32,
    pub cross_block: u32,
}

/// Mirrors `NvLoop`, `NvBase`, `NvPair`.
#[repr(C)]
pub struct NvLoop {
    pub parent: i32,
    pub phis: u32,
    /// The header's block number (as in [`NvRecord::block`]).
    pub header: u32,
}
#[repr(C)]
pub struct NvBase {
    pub loop_id: i32,
    pub nodes: u32,
    pub has_phi: u32,
    pub walk: u32,
}
#[repr(C)]
pub struct NvPair {
    pub a: u32,
    pub b: u32,
    pub diff_nodes: u32,
    pub invariant: u32,
    pub diff: u32,
}

/// BASR's plan for the adapter: per class its loop, leader base, whether to build a PHI and
/// the offset the shared base is normalized on; per member base its class; per moved access its
/// member and the constant left after the member's base.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvClass {
    pub origin: i64,
    pub loop_id: i32,
    pub leader: u32,
    pub phi: u32,
}
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvMember {
    pub class: u32,
    pub base: u32,
    /// The member (index into the members output) this one is built on; itself for the leader.
    pub from: u32,
    /// The record it is computed right before (-1: at the top of the loop header).
    pub before: i32,
}
#[repr(C)]
#[derive(Clone, Copy)]
pub struct NvMove {
    pub delta: i64,
    pub record: u32,
    pub member: u32,
}

/// One function's work; outputs stay valid until the next call on the session.
pub struct Session {
    name: String,
    settings: Settings,
    bounds: LaunchBounds,
    flat: Vec<Flat>,
    rewrites: Vec<NvRewrite>,
    classes: Vec<NvClass>,
    members: Vec<NvMember>,
    moves: Vec<NvMove>,
}

/// Starts a function: `attrs` are `nvvm.maxntid`, `nvvm.reqntid`, `nvvm.minctasm` (empty when
/// absent); `phases` the parent module's phase bits. Free with [`nvopt_addr_end`].
///
/// # Safety
/// Every [`NvStr`] is valid; `attrs` has 3 entries.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_begin(
    name: NvStr,
    attrs: *const NvStr,
    phases: u32,
) -> *mut Session {
    let a = slice(attrs, 3);
    let (bounds, _) = LaunchBounds::parse(&a[0].as_str(), &a[1].as_str(), &a[2].as_str());
    let settings = Settings::from_knobs(&Knobs::current(), phases);
    let s = Session {
        name: name.as_str().into_owned(),
        settings,
        bounds,
        flat: Vec::new(),
        rewrites: Vec::new(),
        classes: Vec::new(),
        members: Vec::new(),
        moves: Vec::new(),
    };
    Box::into_raw(Box::new(s))
}

/// # Safety
/// `s` came from [`nvopt_addr_begin`] and is freed once.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_end(s: *mut Session) {
    drop(Box::from_raw(s));
}

/// Which phases run: bit 0 BASR, bit 1 CBE, bit 2 SCEV-CGP's thread-id split.
///
/// # Safety
/// `s` is live.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_active(s: *const Session) -> u32 {
    (*s).settings.active()
}

/// `scev-cgp-inst-limit`: the most SCEV nodes of one pointer the adapter encodes.
///
/// # Safety
/// `s` is live.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_inst_limit(s: *const Session) -> usize {
    (*s).settings.inst_limit
}

/// Bases per loop whose differences the adapter computes ([`basr::PAIRED_BASES_PER_LOOP`]).
#[no_mangle]
pub extern "C" fn nvopt_addr_paired_bases() -> usize {
    basr::PAIRED_BASES_PER_LOOP
}

/// `print-after-scev-cgp`.
///
/// # Safety
/// `s` is live.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_print_after(s: *const Session) -> bool {
    (*s).settings.print_after
}

/// `ignore-signed-32-bit-overflow`: the adapter distributes an address index's sign extension
/// through add/sub/mul/shl without an nsw flag too.
///
/// # Safety
/// `s` is live.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_assume_nsw(s: *const Session) -> bool {
    (*s).settings.rules.ignore_signed_overflow
}

/// Whether a record whose base pointer has (`rooted`) or lacks an identified root (an argument,
/// global, alloca or allocation under its GEPs and casts) is kept: always with
/// `ignore-bad-base`, else only when rooted.
///
/// # Safety
/// `s` comes from [`nvopt_addr_begin`].
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_keeps_base(s: *const Session, rooted: bool) -> bool {
    super::record::keeps_base(&(*s).settings.rules, rooted)
}

/// Whether a proven index add is rebuilt narrow ([`super::narrow::narrows`]).
#[no_mangle]
pub extern "C" fn nvopt_addr_narrows(uses: u32, index_uses: u32) -> bool {
    super::narrow::narrows(uses, index_uses)
}

/// Splits one pointer expression. Returns 0 when it is not split (the whole expression is the
/// base, offset 0), 1 when `*out`/`*out_len` hold the base to build and `*offset` the offset,
/// 2 when the encoding is malformed (no record).
///
/// # Safety
/// `s` is live; `nodes` has `n` entries; the outputs are writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_split(
    s: *mut Session,
    nodes: *const Flat,
    n: usize,
    out: *mut *const Flat,
    out_len: *mut usize,
    offset: *mut i64,
) -> u32 {
    let s = &mut *s;
    let Some(tree) = Tree::decode(slice(nodes, n)) else { return 2 };
    let sp = split(&tree, &s.settings.rules);
    *offset = sp.offset;
    s.flat.clear();
    match sp.base {
        None => 0,
        Some(b) => {
            b.encode(&mut s.flat);
            *out = s.flat.as_ptr();
            *out_len = s.flat.len();
            1
        }
    }
}

/// Plans CBE over the records; `*out`/`*out_len` receive the rewrites.
///
/// # Safety
/// `s` is live; `recs` has `n` entries; the outputs are writable.
#[no_mangle]
pub unsafe extern "C" fn nvopt_addr_cbe(
    s: *mut Session,
    recs: *const NvRecord,
    n: usize,
    out: *mut *const NvRewrite,
    out_len: *mut usize,
) {
    let s = &mut *s;
    let records: Vec<Record> = slice(recs, n).iter().map(Record::from).collect();
    let plan = cbe::plan(&records, &s.settings.cbe);
    if s.settings.dump_cgp {
        eprint!("{}", dump_cbe(&s.name, &records, &plan));
    }
    crate::stats::add("codegenpreparescev", "CBE rewrites", plan.len() as u64);
    s.rewrites = plan
        .iter()
        .map(|w| NvRewrite {
            delta: w.delta,
            record: w.record as u32,
            anchor: w.anchor as u32,
            cross_block: w.cross_block as u32,
        })
        .collect();
    *out = s.rewrites.as_ptr();
    *out_len = s.rewrites.len();
}

fn dump_cbe(name: &str, records: &[Record], plan: &[Rewrite]) -> String {
    let accesses = records.iter().filter(|r| r.access).count();
    let groups = super::group::groups(records);
    let largest =
        groups.iter().map(|g| g.iter().filter(|&&i| records[i].access).count()).max().unwrap_or(0);
    let mut out = format!(
        "scev-cgp: {name}: {accesses} accesses, {} bases, {} rewrites, largest group {largest}\n",
        groups.len(),
        plan.len()
    );
    for w in plan {
        let mode = if w.cross_block { "function" } else { "block" };
        out += &format!(
            "scev-cgp:   record {} = record {} {:+} ({mode})\n",
            w.record, w.anchor, w.delta
        );
    }
    out
}

/// Plans BASR. Outputs: classes, member bases, moved accesses (see [`NvClass`]).
///
/// # Safety
/// `s` is live; each array has its count of entries; the outputs are writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn nvopt_addr_basr(
    s: *mut Session,
    recs: *const NvRecord,
    n_recs: usize,
    loops: *const NvLoop,
    n_loops: usize,
    bases: *const NvBase,
    n_bases: usize,
    pairs: *const NvPair,
    n_pairs: usize,
    out: *mut [*const u8; 3],
    out_len: *mut [usize; 3],
) {
    let s = &mut *s;
    let records: Vec<Record> = slice(recs, n_recs).iter().map(Record::from).collect();
    let headers: Vec<u32> = slice(loops, n_loops).iter().map(|l| l.header).collect();
    let loops: Vec<LoopFacts> = slice(loops, n_loops)
        .iter()
        .map(|l| LoopFacts { parent: l.parent, phis: l.phis })
        .collect();
    let bases: Vec<BaseFacts> = slice(bases, n_bases)
        .iter()
        .map(|b| BaseFacts {
            loop_id: b.loop_id,
            nodes: b.nodes,
            has_phi: b.has_phi != 0,
            walk: b.walk,
        })
        .collect();
    let pairs: Vec<PairFacts> = slice(pairs, n_pairs)
        .iter()
        .map(|p| PairFacts {
            a: p.a as usize,
            b: p.b as usize,
            diff_nodes: p.diff_nodes,
            invariant: p.invariant != 0,
            diff: p.diff,
        })
        .collect();
    let accesses = records.iter().filter(|r| r.access).count();
    let plan = basr::plan(&s.settings.basr, accesses, &s.bounds, &loops, &bases, &pairs);
    let (plan, moves) = basr::paying(plan, basr::moves_for(&records, &loops), &records);
    s.classes.clear();
    s.members.clear();
    s.moves.clear();
    for (ci, c) in plan.classes.iter().enumerate() {
        let offsets = moves.iter().filter(|m| m.class == ci).map(|m| records[m.record].offset);
        let origin = normal_origin(offsets, s.settings.norm);
        s.classes.push(NvClass {
            origin,
            loop_id: c.loop_id,
            leader: c.leader as u32,
            phi: c.phi as u32,
        });
        let first = s.members.len();
        for (&b, f) in c.members.iter().zip(&c.from) {
            let member = s.members.len() as u32;
            let from = (first
                + c.members.iter().position(|m| m == f).expect("a link names a member"))
                as u32;
            let before = basr::first_access(&moves, &records, ci, b, headers[c.loop_id as usize])
                .map_or(-1, |r| r as i32);
            s.members.push(NvMember { class: ci as u32, base: b as u32, from, before });
            for m in moves.iter().filter(|m| m.class == ci && records[m.record].base as usize == b)
            {
                s.moves.push(NvMove {
                    delta: records[m.record].offset - origin,
                    record: m.record as u32,
                    member,
                });
            }
        }
    }
    if s.settings.dump_basr {
        eprint!("{}", dump_basr(&s.name, &plan, &s.classes, &s.members, &s.moves));
    }
    crate::stats::add("codegenpreparescev", "BASR shared bases", s.classes.len() as u64);
    crate::stats::add("codegenpreparescev", "BASR moved accesses", s.moves.len() as u64);
    *out = [
        s.classes.as_ptr() as *const u8,
        s.members.as_ptr() as *const u8,
        s.moves.as_ptr() as *const u8,
    ];
    *out_len = [s.classes.len(), s.members.len(), s.moves.len()];
}

fn dump_basr(
    name: &str,
    plan: &basr::Plan,
    classes: &[NvClass],
    members: &[NvMember],
    moves: &[NvMove],
) -> String {
    let note = if plan.note.is_empty() { String::new() } else { format!(" ({})", plan.note) };
    let mut out = format!(
        "basr: {name}: budget {} registers, loop-header PHIs {}, {} shared bases{note}\n",
        plan.budget,
        plan.loop_phis,
        classes.len()
    );
    for (ci, c) in classes.iter().enumerate() {
        let kind = if c.phi != 0 { "new loop-carried PHI" } else { "expanded base" };
        let bases: Vec<String> =
            members.iter().filter(|m| m.class as usize == ci).map(|m| m.base.to_string()).collect();
        let n = moves.iter().filter(|m| members[m.member as usize].class as usize == ci).count();
        out += &format!(
            "basr:   loop {}: bases [{}] share base {} ({kind}, origin {:+}): {n} accesses\n",
            c.loop_id,
            bases.join(", "),
            c.leader,
            c.origin
        );
    }
    out
}
