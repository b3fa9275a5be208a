//! Parser and evaluator of the level-table format described in levels.rs: lines become a tree
//! of adaptors and slots; evaluation against a [`Context`] decides, slot by slot, what runs
//! and why not, and emits LLVM 22 pipeline text.
use super::slots::{is_nvptx_only, nv_slot, pass_guard};
use super::Context;

const ADAPTORS: &[&str] = &["function", "cgscc", "cgscc-iter", "loop", "loop-mssa"];
const INSTCOMBINE: &str = "instcombine<max-iterations=1;no-verify-fixpoint>";

/// A parsed table line.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Adaptor { kind: String, children: Vec<Node> },
    Leaf { item: String, conds: Vec<String> },
}

/// Why a slot does or does not run.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    Runs,
    /// A condition or guard knob is off; names it.
    Off(String),
    /// An NVIDIA-only slot with no upstream equivalent.
    Empty,
    /// An NVPTX-only pass in a module without the NVPTX target.
    NoNvptx,
}

/// One evaluated slot, for the slot report and statistics.
#[derive(Debug, Clone)]
pub struct Slot {
    pub item: String,
    pub conds: Vec<String>,
    pub runs: String,
    pub status: Status,
}

/// Parses a level table into a forest.
pub fn parse(src: &str) -> Result<Vec<Node>, String> {
    let mut stack: Vec<(String, Vec<Node>)> = vec![(String::new(), Vec::new())];
    for (no, raw) in src.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let indent = raw.len() - raw.trim_start().len();
        let depth = indent / 2;
        if indent % 2 != 0 || depth + 1 > stack.len() {
            return Err(format!("table line {}: bad indentation: '{raw}'", no + 1));
        }
        while stack.len() > depth + 1 {
            close(&mut stack);
        }
        let (item, conds) = split_conds(raw.trim());
        if ADAPTORS.contains(&item.as_str()) {
            if !conds.is_empty() {
                return Err(format!("table line {}: adaptors take no conditions", no + 1));
            }
            stack.push((item, Vec::new()));
        } else {
            stack.last_mut().expect("root").1.push(Node::Leaf { item, conds });
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    Ok(stack.pop().expect("root").1)
}

fn close(stack: &mut Vec<(String, Vec<Node>)>) {
    let (kind, children) = stack.pop().expect("open adaptor");
    stack.last_mut().expect("parent").1.push(Node::Adaptor { kind, children });
}

fn split_conds(line: &str) -> (String, Vec<String>) {
    match line.split_once(" ? ") {
        Some((item, conds)) => {
            (item.trim().to_string(), conds.split_whitespace().map(String::from).collect())
        }
        None => (line.to_string(), Vec::new()),
    }
}

/// Evaluates the forest and returns its pipeline text (comma-separated), recording every slot.
pub fn emit(nodes: &[Node], ctx: &Context, slots: &mut Vec<Slot>) -> String {
    nodes
        .iter()
        .map(|n| emit_node(n, ctx, slots))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(",")
}

fn emit_node(node: &Node, ctx: &Context, slots: &mut Vec<Slot>) -> String {
    match node {
        Node::Leaf { item, conds } => {
            let slot = evaluate(item, conds, ctx);
            let text = if slot.status == Status::Runs { slot.runs.clone() } else { String::new() };
            slots.push(slot);
            text
        }
        Node::Adaptor { kind, children } => {
            let inner = emit(children, ctx, slots);
            if inner.is_empty() {
                return inner;
            }
            match kind.as_str() {
                "cgscc-iter" if ctx.cgscc_iterations > 1 => {
                    format!("cgscc(devirt<{}>({inner}))", ctx.cgscc_iterations)
                }
                "cgscc-iter" => format!("cgscc({inner})"),
                _ => format!("{kind}({inner})"),
            }
        }
    }
}

/// Decides what one slot runs and whether it runs.
fn evaluate(item: &str, conds: &[String], ctx: &Context) -> Slot {
    let mut slot = Slot {
        item: item.to_string(),
        conds: conds.to_vec(),
        runs: String::new(),
        status: Status::Runs,
    };
    if let Some(failed) = conds.iter().find(|c| !condition(c, ctx)) {
        slot.status = Status::Off(failed.clone());
        return slot;
    }
    let (runs, own_guard) = resolve(item, ctx);
    slot.runs = runs;
    if let Some(g) = own_guard.filter(|g| !g.is_empty() && !condition(g, ctx)) {
        slot.status = Status::Off(g.to_string());
    } else if slot.runs.is_empty() {
        slot.status = Status::Empty;
    } else if let Some(k) = pass_guard(&slot.runs).filter(|k| ctx.knobs.on_named(k)) {
        slot.status = Status::Off(k.to_string());
    } else if is_nvptx_only(&slot.runs) && !ctx.has_nvptx {
        slot.status = Status::NoNvptx;
    }
    slot
}

/// The pass text of an item and the NVIDIA slot's own guard, if any.
fn resolve(item: &str, ctx: &Context) -> (String, Option<&'static str>) {
    if let Some(name) = item.strip_prefix("nv:") {
        let s = nv_slot(name).unwrap_or_else(|| panic!("level table names unknown slot nv:{name}"));
        return (s.runs.to_string(), Some(s.enable));
    }
    if item == "@ic" {
        return (INSTCOMBINE.to_string(), None);
    }
    if let Some(spec) = item.strip_prefix("@scfg:") {
        return (simplifycfg(spec, |knob| ctx.knobs.on_named(knob)), None);
    }
    (item.replace("$U", &format!("O{}", ctx.level.tier())), None)
}

/// `@scfg:B[:rhs]` -> cicc's simplifycfg parameters (reference prints). A flag letter may be
/// followed by `{knob}`: the flag is then set only while that bool knob is on
/// (`@scfg:1:h{nv-hoist-common-insts}`), one table line for what would otherwise be a line per
/// combination of knobs.
fn simplifycfg(spec: &str, knob_on: impl Fn(&str) -> bool) -> String {
    let (bonus, flags) = spec.split_once(':').unwrap_or((spec, ""));
    let mut set = Vec::new();
    let mut rest = flags;
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        let on = match rest.strip_prefix('{').and_then(|r| r.split_once('}')) {
            Some((knob, after)) => {
                rest = after;
                knob_on(knob)
            }
            None => true,
        };
        if on {
            set.push(c);
        }
    }
    let opt = |c: char, name: &str| {
        if set.contains(&c) {
            name.to_string()
        } else {
            format!("no-{name}")
        }
    };
    format!(
        "simplifycfg<bonus-inst-threshold={bonus};no-forward-switch-cond;{};no-switch-to-arithmetic;\
         no-switch-to-lookup;keep-loops;{};no-hoist-loads-stores-with-cond-faulting;{};\
         speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>",
        opt('r', "switch-range-to-icmp"),
        opt('h', "hoist-common-insts"),
        opt('s', "sink-common-insts"),
    )
}

/// One condition: tier tags, `feature-bit-N`, `knob` or `!knob`.
fn condition(cond: &str, ctx: &Context) -> bool {
    let tier = ctx.level.tier();
    match cond {
        "T1" => tier == 1,
        "T2" => tier >= 2,
        "T3" => tier == 3,
        _ => {
            if let Some(bit) = cond.strip_prefix("feature-bit-") {
                let bit: u32 = bit.parse().expect("feature bit number");
                return (ctx.feature_flags >> bit) & 1 == 1;
            }
            match cond.strip_prefix('!') {
                Some(knob) => !ctx.knobs.on_named(knob),
                None => ctx.knobs.on_named(cond),
            }
        }
    }
}

#[cfg(test)]
mod scfg_tests {
    use super::simplifycfg;

    #[test]
    fn knob_driven_flags_follow_their_knob() {
        let spec = "1:h{a}s{b}";
        let none = simplifycfg(spec, |_| false);
        assert!(
            none.contains(";no-hoist-common-insts;") && none.contains(";no-sink-common-insts;")
        );
        let hoist = simplifycfg(spec, |k| k == "a");
        assert!(hoist.contains(";hoist-common-insts;") && hoist.contains(";no-sink-common-insts;"));
        let both = simplifycfg(spec, |_| true);
        assert!(both.contains(";hoist-common-insts;") && both.contains(";sink-common-insts;"));
        // Plain letters are set whatever the knobs say.
        assert_eq!(simplifycfg("1:rh", |_| false), simplifycfg("1:r{x}h{y}", |_| true));
    }
}
