//! cicc's expression-size scorer (docs/CICC-FACTS.md, "getSCEV gating (simple mode)", sub_DB3670):
//! constants and arguments score 1, values SCEV cannot model 0, a value that already has a
//! SCEV scores that SCEV's node count, any other instruction 1 + its loop depth + the scores of
//! its operands, then the configuration bits (bit 0: x3/2, bit 1: + 2 x depth). The walk is
//! iterative (a 100,000-deep chain must not overflow the stack) and stops as soon as the score
//! passes the limit, so one query costs O(limit). A value met again on its own operand path (a
//! PHI cycle) adds nothing: cicc's recursive scorer, as the book describes
//! it, would not terminate there.
use crate::fast_hash::HashSet;

/// An LLVM `Value*` as the shim hands it over.
pub type ValueId = usize;
/// An LLVM `const SCEV*`.
pub type ScevId = usize;

/// What the scorer needs to know about one value.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Constant,
    Argument,
    /// Not an integer or pointer: SCEV does not model it.
    NotScevable,
    /// Already has a SCEV: scored by its node count.
    Cached(ScevId),
    /// Any other instruction.
    Instruction {
        loop_depth: u32,
        operands: Vec<ValueId>,
    },
    /// Any other SCEVable value (a global, an inline constant expression).
    Other,
}

/// The scorer's view of a function.
pub trait ScoreGraph {
    fn node(&mut self, v: ValueId) -> Node;
    /// Node count of a SCEV DAG, each distinct node once per scoring call, counting stops past
    /// `limit`.
    fn count_nodes(&mut self, s: ScevId, limit: u64) -> u64;
    /// Starts a scoring call (forget the nodes counted so far).
    fn begin_scoring(&mut self) {}
}

/// The configuration bits (cicc's SE+1572 byte).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Config(pub u8);

impl Config {
    fn apply(self, score: u64, depth: u32) -> u64 {
        let mut s = score;
        if self.0 & 1 != 0 {
            s = s * 3 / 2;
        }
        if self.0 & 2 != 0 {
            s += 2 * depth as u64;
        }
        s
    }
}

/// Result of scoring one value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    Within(u64),
    /// The walk stopped once the partial score passed the limit.
    Over,
}

struct Frame {
    value: ValueId,
    depth: u32,
    operands: Vec<ValueId>,
    next: usize,
    acc: u64,
}

/// Scores `root` against `limit` (cicc's expressionComplexity). `open` is the sum of the
/// partial scores of the instructions still being walked: a lower bound of the root's score,
/// so the walk stops as soon as it passes the limit, however deep the chain.
pub fn score(g: &mut impl ScoreGraph, root: ValueId, limit: u64, config: Config) -> Score {
    g.begin_scoring();
    let mut on_path: HashSet<ValueId> = HashSet::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut open: u64 = 0;
    let mut carry = enter(g, root, limit, &mut on_path, &mut stack, &mut open).unwrap_or(0);
    while let Some(top) = stack.last_mut() {
        top.acc += carry;
        open += carry;
        carry = 0;
        if open > limit {
            return Score::Over;
        }
        if top.next < top.operands.len() {
            let op = top.operands[top.next];
            top.next += 1;
            if let Some(s) = enter(g, op, limit - open, &mut on_path, &mut stack, &mut open) {
                carry = s;
            }
        } else {
            let done = stack.pop().expect("non-empty");
            on_path.remove(&done.value);
            open -= done.acc;
            carry = config.apply(done.acc, done.depth);
        }
    }
    if carry > limit {
        Score::Over
    } else {
        Score::Within(carry)
    }
}

/// Scores a leaf at once, or pushes an instruction frame (returns None then).
fn enter(
    g: &mut impl ScoreGraph,
    v: ValueId,
    remaining: u64,
    on_path: &mut HashSet<ValueId>,
    stack: &mut Vec<Frame>,
    open: &mut u64,
) -> Option<u64> {
    if on_path.contains(&v) {
        return Some(0);
    }
    match g.node(v) {
        Node::Constant | Node::Argument | Node::Other => Some(1),
        Node::NotScevable => Some(0),
        Node::Cached(s) => Some(g.count_nodes(s, remaining)),
        Node::Instruction { loop_depth, operands } => {
            on_path.insert(v);
            *open += 1 + loop_depth as u64;
            stack.push(Frame {
                value: v,
                depth: loop_depth,
                operands,
                next: 0,
                acc: 1 + loop_depth as u64,
            });
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast_hash::HashMap;

    /// A hand-built function: value id → node; SCEV id → node count.
    #[derive(Default)]
    struct Fake {
        nodes: HashMap<ValueId, Node>,
        sizes: HashMap<ScevId, u64>,
        visits: usize,
    }

    impl ScoreGraph for Fake {
        fn node(&mut self, v: ValueId) -> Node {
            self.visits += 1;
            self.nodes[&v].clone()
        }
        fn count_nodes(&mut self, s: ScevId, limit: u64) -> u64 {
            self.sizes[&s].min(limit + 1)
        }
    }

    fn inst(depth: u32, ops: &[ValueId]) -> Node {
        Node::Instruction { loop_depth: depth, operands: ops.to_vec() }
    }

    fn sample() -> Fake {
        // %3 = add %1(arg), 7(const); %4 = mul %3, %2(arg) in a depth-2 loop; %5 = sitofp (0)
        let mut f = Fake::default();
        f.nodes.insert(1, Node::Argument);
        f.nodes.insert(2, Node::Argument);
        f.nodes.insert(7, Node::Constant);
        f.nodes.insert(3, inst(0, &[1, 7]));
        f.nodes.insert(4, inst(2, &[3, 2]));
        f.nodes.insert(5, Node::NotScevable);
        f.nodes.insert(6, inst(1, &[4, 5, 9]));
        f.nodes.insert(9, Node::Cached(100));
        f.sizes.insert(100, 5);
        f
    }

    #[test]
    fn leaves_and_instructions_score_as_seed_000_says() {
        let mut f = sample();
        assert_eq!(score(&mut f, 1, 384, Config(0)), Score::Within(1));
        assert_eq!(score(&mut f, 5, 384, Config(0)), Score::Within(0));
        // %3: 1 + 0 + 1 + 1
        assert_eq!(score(&mut f, 3, 384, Config(0)), Score::Within(3));
        // %4: 1 + 2 + 3 + 1
        assert_eq!(score(&mut f, 4, 384, Config(0)), Score::Within(7));
        // %6: 1 + 1 + 7 + 0 + 5 (cached SCEV of 5 nodes)
        assert_eq!(score(&mut f, 6, 384, Config(0)), Score::Within(14));
    }

    #[test]
    fn configuration_bits_scale_each_instruction() {
        let mut f = sample();
        // bit 0: %3 = 3*3/2 = 4; %4 = (1+2+4+1)*3/2 = 12
        assert_eq!(score(&mut f, 4, 384, Config(1)), Score::Within(12));
        // bit 1: %3 = 3 + 0; %4 = 7 + 2*2 = 11
        assert_eq!(score(&mut f, 4, 384, Config(2)), Score::Within(11));
        // both: %3 = 4; %4 = (1+2+4+1)*3/2 + 4 = 16
        assert_eq!(score(&mut f, 4, 384, Config(3)), Score::Within(16));
    }

    #[test]
    fn limit_is_inclusive_and_over_stops_early() {
        let mut f = sample();
        assert_eq!(score(&mut f, 4, 7, Config(0)), Score::Within(7));
        assert_eq!(score(&mut f, 4, 6, Config(0)), Score::Over);
    }

    #[test]
    fn shared_operands_count_per_use_like_the_seeds_recursion() {
        let mut f = Fake::default();
        f.nodes.insert(1, Node::Argument);
        f.nodes.insert(2, inst(0, &[1, 1]));
        f.nodes.insert(3, inst(0, &[2, 2]));
        // %2 = 3; %3 = 1 + 3 + 3
        assert_eq!(score(&mut f, 3, 384, Config(0)), Score::Within(7));
    }

    #[test]
    fn phi_cycles_terminate() {
        let mut f = Fake::default();
        f.nodes.insert(1, Node::Argument);
        f.nodes.insert(2, inst(1, &[1, 3])); // %phi = phi [%a, ...], [%next, ...]
        f.nodes.insert(3, inst(1, &[2, 4])); // %next = add %phi, 1
        f.nodes.insert(4, Node::Constant);
        // %phi: 1 + 1 + 1 + (%next: 1 + 1 + 0 + 1)
        assert_eq!(score(&mut f, 2, 384, Config(0)), Score::Within(6));
    }

    #[test]
    fn deep_chain_is_iterative_and_bounded_by_the_limit() {
        let n = 100_000;
        let mut f = Fake::default();
        f.nodes.insert(0, Node::Argument);
        for i in 1..=n {
            f.nodes.insert(i, inst(0, &[i - 1, n + 1]));
        }
        f.nodes.insert(n + 1, Node::Constant);
        assert_eq!(score(&mut f, n, u64::MAX / 4, Config(0)), Score::Within(2 * n as u64 + 1));
        f.visits = 0;
        assert_eq!(score(&mut f, n, 384, Config(0)), Score::Over);
        assert!(f.visits < 400, "an over-limit query visits O(limit) nodes, not {}", f.visits);
    }
}
