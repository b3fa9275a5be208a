//! The gate on hand-built functions: a fake host whose "SCEVs" are ids with a node count.
use super::*;
use crate::analysis::scev::score::Node;

const UNKNOWN: usize = 1 << 40;
/// Value ids from here on are constants.
const CONSTANTS: usize = 1 << 30;

/// Value ids with no operands are arguments. `chain(n)`: `%i = add %(i-1), %(n+1)` for i in 1..=n.
#[derive(Default)]
struct Fake {
    operands: HashMap<ValueId, Vec<ValueId>>,
    kernel: bool,
    sizes: HashMap<ScevId, u64>,
    next: ScevId,
    asked_llvm: usize,
    combined: usize,
    add_items: u32,
}

impl Fake {
    fn chain(n: usize, kernel: bool) -> Self {
        let mut f = Fake { kernel, next: 1, ..Default::default() };
        for i in 1..=n {
            f.operands.insert(i, vec![i - 1, n + 1]);
        }
        f
    }
}

impl ScoreGraph for Fake {
    fn node(&mut self, v: ValueId) -> Node {
        match self.operands.get(&v) {
            None => Node::Argument,
            Some(ops) => Node::Instruction { loop_depth: 0, operands: ops.clone() },
        }
    }
    fn count_nodes(&mut self, s: ScevId, limit: u64) -> u64 {
        self.sizes[&s].min(limit + 1)
    }
}

impl Host for Fake {
    fn is_kernel(&self) -> bool {
        self.kernel
    }
    fn unknown(&mut self, v: ValueId) -> ScevId {
        self.sizes.insert(UNKNOWN + v, 1);
        UNKNOWN + v
    }
    fn is_constant(&mut self, v: ValueId) -> bool {
        v >= CONSTANTS
    }
    fn operands(&mut self, v: ValueId) -> Vec<ValueId> {
        self.operands.get(&v).cloned().unwrap_or_default()
    }
    fn build(&mut self, _v: ValueId, ops: &[ScevId], tainted: bool) -> Built {
        if tainted {
            self.combined += 1;
        } else {
            self.asked_llvm += 1;
        }
        let size = 1 + ops.iter().map(|o| self.sizes[o]).sum::<u64>();
        self.next += 1;
        self.sizes.insert(self.next, size);
        Built { scev: self.next, add_items: self.add_items }
    }
}

fn limits(control: bool) -> Limits {
    Limits { complexity_control: control, ..Limits::cicc() }
}

#[test]
fn simple_mode_builds_small_expressions_through_llvm() {
    let mut f = Fake::chain(10, false);
    let mut g = Gate::new(limits(true));
    let s = g.get(&mut f, 10);
    assert_eq!(f.sizes[&s], 21);
    assert_eq!((f.asked_llvm, f.combined, g.failures()), (12, 0, 0));
    assert_eq!(g.why(10), Some(Why::Built));
    assert!(g.simple_mode(), "the mode toggles back after building");
}

#[test]
fn size_gate_gives_unknown_and_counts_a_failure() {
    // %i scores 2i + 1 when nothing is cached: %200 scores 401 > 384.
    let mut f = Fake::chain(200, false);
    let mut g = Gate::new(limits(true));
    assert_eq!(g.get(&mut f, 200), UNKNOWN + 200);
    assert_eq!((g.why(200), g.failures()), (Some(Why::SizeGate), 1));
    // cached: no second failure
    assert_eq!(g.get(&mut f, 200), UNKNOWN + 200);
    assert_eq!(g.failures(), 1);
    // %191 scores 383 and is built
    assert_eq!(g.why(191), None);
    g.get(&mut f, 191);
    assert_eq!(g.why(191), Some(Why::Built));
}

#[test]
fn in_order_queries_cut_a_long_chain_every_few_hundred_nodes() {
    let n = 2000;
    let mut f = Fake::chain(n, false);
    let mut g = Gate::new(limits(true));
    for v in 0..=n {
        g.get(&mut f, v);
    }
    // a cached node of size s scores the next one s + 2: %192 (385) is the first cut; the value
    // after a cut builds on an Unknown (size 1), so a cut comes every 192 values.
    let cuts: Vec<usize> = (1..=n).filter(|&v| g.why(v) == Some(Why::SizeGate)).collect();
    assert_eq!(cuts.len() as u32, g.failures());
    assert_eq!(cuts[..3], [192, 384, 576]);
    assert_eq!(cuts.len(), n / 192);
    assert!(f.combined > 0 && f.asked_llvm > 0);
    let biggest = (1..=n).filter_map(|v| g.cached(v)).map(|s| f.sizes[&s]).max().unwrap();
    assert!(biggest <= 384, "no expression passes the size limit: {biggest}");
}

#[test]
fn failure_gate_makes_everything_unknown_past_the_budget() {
    let mut f = Fake::default();
    // 3 independent chains of 400 over one argument: the last of each scores 401.
    for c in 0..3 {
        let base = 1000 * (c + 1);
        f.operands.insert(base + 1, vec![0]);
        for i in 2..=400 {
            f.operands.insert(base + i, vec![base + i - 1]);
        }
    }
    let mut g = Gate::new(Limits { max_expr_failures: 1, ..limits(true) });
    g.get(&mut f, 1400);
    g.get(&mut f, 2400);
    assert_eq!(g.failures(), 2);
    // failures (2) > budget (1): even a tiny value is Unknown now
    assert_eq!(g.get(&mut f, 3001), UNKNOWN + 3001);
    assert_eq!(g.why(3001), Some(Why::FailureGate(2)));
}

#[test]
fn normal_mode_spends_the_recursion_budget_in_device_functions() {
    let mut f = Fake::chain(300, false);
    let mut g = Gate::new(limits(false));
    let s = g.get(&mut f, 300);
    // 100 queries are built (%300 .. %201), then %200 and every %301 are Unknown:
    // %201 = 3 nodes, %300 = 3 + 2 * 99.
    assert_eq!(f.sizes[&s], 201);
    assert_eq!(g.cached(200), None, "budget Unknowns are not cached");
    assert_eq!(g.why(200), Some(Why::RecursionBudget));
    assert_eq!(f.combined, 100);
    assert_eq!(f.asked_llvm, 0);
}

#[test]
fn kernels_bypass_the_recursion_budget() {
    let mut f = Fake::chain(300, true);
    let mut g = Gate::new(limits(false));
    let s = g.get(&mut f, 300);
    assert_eq!(f.sizes[&s], 601);
    assert_eq!((f.asked_llvm, f.combined), (302, 0));
}

#[test]
fn huge_add_expressions_become_unknown() {
    let mut f = Fake::chain(3, false);
    f.add_items = 501;
    let mut g = Gate::new(limits(true));
    assert_eq!(g.get(&mut f, 3), UNKNOWN + 3);
    assert_eq!(g.why(3), Some(Why::AddItems(501)));
}

#[test]
fn a_100000_deep_chain_builds_without_recursion() {
    let n = 100_000;
    let mut f = Fake::chain(n, true);
    let mut g = Gate::new(limits(false));
    let s = g.get(&mut f, n);
    assert_eq!(f.sizes[&s], 2 * n as u64 + 1);
    let mut f = Fake::chain(n, true);
    let mut g = Gate::new(limits(true));
    assert_eq!(g.get(&mut f, n), UNKNOWN + n);
}

#[test]
fn constants_are_never_gated() {
    // %1 = add %0, C: with a budget of one query (%1 itself) the argument is Unknown, the constant not.
    let mut f = Fake::default();
    f.operands.insert(1, vec![0, CONSTANTS]);
    let mut g = Gate::new(Limits { max_recursion: 1, ..limits(false) });
    g.get(&mut f, 1);
    assert_eq!(g.why(0), Some(Why::RecursionBudget));
    assert_eq!(g.why(CONSTANTS), Some(Why::Built));
    let mut g = Gate::new(Limits { max_expr_failures: 0, ..limits(true) });
    g.get(&mut f, 1);
    assert_eq!(g.get(&mut f, CONSTANTS), g.cached(CONSTANTS).unwrap());
    assert_eq!(g.why(CONSTANTS), Some(Why::Built));
}

#[test]
fn unreachable_self_reference_terminates() {
    let mut f = Fake::default();
    f.operands.insert(1, vec![2]);
    f.operands.insert(2, vec![1]);
    let mut g = Gate::new(limits(false));
    g.get(&mut f, 1);
    assert_eq!(g.why(1), Some(Why::Built));
}
