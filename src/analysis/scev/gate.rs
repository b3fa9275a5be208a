//! cicc's getSCEV gating around LLVM's ScalarEvolution (docs/CICC-FACTS.md, "getSCEV
//! gating (simple mode)"). A query is answered from the cache first. Simple mode (complexity
//! control on): past `scalar-evolution-max-expr-failures` failures every new value is Unknown
//! (cached); a value scoring over `scalar-evolution-max-expr-size` is Unknown (cached, one more
//! failure); otherwise the mode is toggled off and the value is built with a fresh recursion
//! budget. Normal mode: each uncached query counts against
//! `scalar-evolution-max-recursion-depth`, except in kernels, which bypass the budget.
//!
//! Building is an explicit worklist (cicc's builder, sub_DD8130, is non-recursive too): the
//! operands a node is built from are queried first, each query being a normal-mode getSCEV. The
//! host builds a node either by asking LLVM's ScalarEvolution for it (when no operand was gated,
//! LLVM's answer is the same expression with LLVM's own wrap flags) or from the gated operand
//! expressions (a node whose operand was gated is "tainted").
use super::score::{score, Config, Node, ScevId, Score, ScoreGraph, ValueId};
use crate::fast_hash::{HashMap, HashSet};

/// The limits, from the knobs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    pub complexity_control: bool,
    pub max_expr_size: u64,
    pub max_expr_failures: u32,
    pub max_add_items: u32,
    pub max_recursion: u32,
    pub config: Config,
}

impl Limits {
    /// cicc's defaults (docs/CICC-FACTS.md, "SCEV facts" and "getSCEV gating (simple mode)").
    pub fn cicc() -> Self {
        Limits {
            complexity_control: true,
            max_expr_size: 384,
            max_expr_failures: 100,
            max_add_items: 500,
            max_recursion: 100,
            config: Config(0),
        }
    }
}

/// A built node as the host reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Built {
    pub scev: ScevId,
    /// Operand count when the node is an add expression, else 0.
    pub add_items: u32,
}

/// What the gate needs from LLVM besides the scorer's view (whose `node` never answers
/// `Cached`: the gate's own cache is consulted first).
pub trait Host: ScoreGraph {
    /// The calling convention is `ptx_kernel`.
    fn is_kernel(&self) -> bool;
    fn unknown(&mut self, v: ValueId) -> ScevId;
    /// Constants are always LLVM's SCEVConstant (an Unknown wrapping a constant would break
    /// ScalarEvolution's invariants, e.g. struct GEP indices), so no gate applies to them.
    fn is_constant(&mut self, v: ValueId) -> bool;
    /// The values whose expressions building `v` combines; empty when LLVM builds `v` itself
    /// (PHI recurrences, calls, loads and every other opcode the host does not combine).
    fn operands(&mut self, v: ValueId) -> Vec<ValueId>;
    /// Builds `v` from its operands' expressions (`tainted`: one of them was gated), or asks
    /// LLVM for `v` when none was.
    fn build(&mut self, v: ValueId, operands: &[ScevId], tainted: bool) -> Built;
}

/// Why a value has the expression it has.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Why {
    Built,
    /// Simple mode: the score passed the size limit.
    SizeGate,
    /// Simple mode: the failure count had passed the failure budget.
    FailureGate(u32),
    /// Normal mode: the recursion budget was spent.
    RecursionBudget,
    /// An add expression with more operands than `scalar-evolution-max-add-items`.
    AddItems(u32),
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    scev: ScevId,
    why: Why,
    tainted: bool,
}

/// The per-function state of the wrapper (cicc's SE+1560..1572 fields and its cache).
#[derive(Debug)]
pub struct Gate {
    limits: Limits,
    simple_mode: bool,
    failures: u32,
    recursion: u32,
    cache: HashMap<ValueId, Entry>,
    /// Values answered Unknown for a spent recursion budget (uncached; for `why` only).
    budget_spent: HashSet<ValueId>,
}

enum Step {
    /// A normal-mode getSCEV of an operand.
    Query(ValueId),
    /// Build the value once its operands are known.
    Build(ValueId, Vec<ValueId>),
}

impl Gate {
    pub fn new(limits: Limits) -> Self {
        Gate {
            limits,
            simple_mode: limits.complexity_control,
            failures: 0,
            recursion: 0,
            cache: HashMap::default(),
            budget_spent: HashSet::default(),
        }
    }

    pub fn failures(&self) -> u32 {
        self.failures
    }

    pub fn simple_mode(&self) -> bool {
        self.simple_mode
    }

    /// Why `v` got its last expression (None: never queried).
    pub fn why(&self, v: ValueId) -> Option<Why> {
        match self.cache.get(&v) {
            Some(e) => Some(e.why),
            None => self.budget_spent.contains(&v).then_some(Why::RecursionBudget),
        }
    }

    /// The cached expression of `v`, if any.
    pub fn cached(&self, v: ValueId) -> Option<ScevId> {
        self.cache.get(&v).map(|e| e.scev)
    }

    /// cicc's getSCEV.
    pub fn get(&mut self, host: &mut impl Host, v: ValueId) -> ScevId {
        if let Some(e) = self.cache.get(&v) {
            return e.scev;
        }
        if host.is_constant(v) {
            return self.build_constant(host, v);
        }
        if !self.simple_mode {
            return self.run(host, Step::Query(v), v);
        }
        if self.failures > self.limits.max_expr_failures {
            return self.give_up(host, v, Why::FailureGate(self.failures));
        }
        let mut graph = WithCache { host: &mut *host, cache: &self.cache };
        if score(&mut graph, v, self.limits.max_expr_size, self.limits.config) == Score::Over {
            self.failures += 1;
            return self.give_up(host, v, Why::SizeGate);
        }
        self.simple_mode = false;
        self.recursion = 0;
        let ops = host.operands(v);
        let s = self.run(host, Step::Build(v, ops), v);
        self.simple_mode = true;
        s
    }

    fn give_up(&mut self, host: &mut impl Host, v: ValueId, why: Why) -> ScevId {
        let scev = host.unknown(v);
        self.cache.insert(v, Entry { scev, why, tainted: true });
        scev
    }

    /// The worklist: a `Query` is a normal-mode getSCEV (kernels bypass the budget; an Unknown
    /// for a spent budget is kept only for the build in progress, in `spent`, as cicc's
    /// normal path returns it uncached); a `Build` first queries the operands.
    fn run(&mut self, host: &mut impl Host, first: Step, root: ValueId) -> ScevId {
        let mut spent: HashMap<ValueId, ScevId> = HashMap::default();
        // Values being built: met again through their own operands only in unreachable code.
        let mut building: HashSet<ValueId> = HashSet::default();
        if let Step::Build(v, _) = &first {
            building.insert(*v);
        }
        let mut work = vec![first];
        while let Some(step) = work.pop() {
            match step {
                Step::Query(v) => {
                    if self.known(&v, &spent) {
                        continue;
                    }
                    if host.is_constant(v) {
                        self.build_constant(host, v);
                        continue;
                    }
                    if !building.insert(v) {
                        spent.insert(v, host.unknown(v));
                        continue;
                    }
                    if !host.is_kernel() {
                        self.recursion += 1;
                        if self.recursion > self.limits.max_recursion {
                            spent.insert(v, host.unknown(v));
                            self.budget_spent.insert(v);
                            continue;
                        }
                    }
                    let ops = host.operands(v);
                    work.push(Step::Build(v, ops));
                }
                Step::Build(v, ops)
                    if !self.cache.contains_key(&v)
                        && ops.iter().any(|o| !self.known(o, &spent)) =>
                {
                    let queries: Vec<Step> = ops.iter().rev().map(|&o| Step::Query(o)).collect();
                    work.push(Step::Build(v, ops));
                    work.extend(queries);
                }
                Step::Build(v, ops) => {
                    if !self.cache.contains_key(&v) {
                        self.build(host, v, &ops, &spent);
                    }
                }
            }
        }
        self.cache.get(&root).map(|e| e.scev).unwrap_or_else(|| spent[&root])
    }

    fn build_constant(&mut self, host: &mut impl Host, v: ValueId) -> ScevId {
        let scev = host.build(v, &[], false).scev;
        self.cache.insert(v, Entry { scev, why: Why::Built, tainted: false });
        scev
    }

    fn known(&self, v: &ValueId, spent: &HashMap<ValueId, ScevId>) -> bool {
        self.cache.contains_key(v) || spent.contains_key(v)
    }

    fn build(
        &mut self,
        host: &mut impl Host,
        v: ValueId,
        ops: &[ValueId],
        spent: &HashMap<ValueId, ScevId>,
    ) {
        let mut tainted = false;
        let scevs: Vec<ScevId> = ops
            .iter()
            .map(|o| match self.cache.get(o) {
                Some(e) => {
                    tainted |= e.tainted;
                    e.scev
                }
                None => {
                    tainted = true;
                    spent[o]
                }
            })
            .collect();
        let built = host.build(v, &scevs, tainted);
        let entry = if built.add_items > self.limits.max_add_items {
            Entry { scev: host.unknown(v), why: Why::AddItems(built.add_items), tainted: true }
        } else {
            Entry { scev: built.scev, why: Why::Built, tainted }
        };
        self.cache.insert(v, entry);
    }
}

/// The scorer's view: the wrapper's cache is the SCEV cache cicc's scorer consults.
struct WithCache<'a, H> {
    host: &'a mut H,
    cache: &'a HashMap<ValueId, Entry>,
}

impl<H: Host> ScoreGraph for WithCache<'_, H> {
    fn node(&mut self, v: ValueId) -> Node {
        match self.cache.get(&v) {
            Some(e) => Node::Cached(e.scev),
            None => self.host.node(v),
        }
    }
    fn count_nodes(&mut self, s: ScevId, limit: u64) -> u64 {
        self.host.count_nodes(s, limit)
    }
    fn begin_scoring(&mut self) {
        self.host.begin_scoring()
    }
}

#[cfg(test)]
mod tests;
