//! The slot report (`-nv-print-pipeline-slots`): every slot of the level in order, with its
//! conditions, what runs in it, or why nothing does.
use super::table::{Slot, Status};
use super::{slots::nv_slot, Built, Context};
use std::fmt::Write;

pub fn slot_report(ctx: &Context, built: &Built) -> String {
    let mut out = format!(
        "nvopt<{}> slots (tier {}, feature flags {}, cgscc iterations {}):\n",
        ctx.level.name(),
        ctx.level.tier(),
        ctx.feature_flags,
        ctx.cgscc_iterations
    );
    for (i, s) in built.slots.iter().enumerate() {
        let _ = writeln!(out, "  {:3} {:<34} {}", i + 1, label(s), outcome(s));
    }
    out
}

fn label(s: &Slot) -> String {
    let item = s.item.split('<').next().unwrap_or(&s.item);
    if s.conds.is_empty() {
        item.to_string()
    } else {
        format!("{item} [{}]", s.conds.join(" "))
    }
}

fn outcome(s: &Slot) -> String {
    match &s.status {
        Status::Runs => format!("runs {}", s.runs),
        Status::Off(why) => format!("off ({why})"),
        Status::NoNvptx => format!("skipped: {} needs the NVPTX target", s.runs),
        Status::Empty => {
            let note = s.item.strip_prefix("nv:").and_then(nv_slot).map_or("", |n| n.note);
            format!("nothing runs: {note}")
        }
    }
}
