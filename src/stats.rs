//! The plugin's own statistics (Debian's LLVM has `-stats` compiled out): per-pass counters
//! that the passes add to, printed at exit in LLVM's `-stats` layout when `-nv-stats` is on.
use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;

static COUNTERS: Mutex<BTreeMap<(String, &'static str), u64>> = Mutex::new(BTreeMap::new());

/// Whether `-nv-stats` is on: 0 not read yet, 1 off, 2 on. Read once, at the first count (the
/// passes count only after LLVM has parsed the command line), so that a count costs a load when
/// nothing will print it (nv-scev counts every query).
static ON: AtomicU8 = AtomicU8::new(0);

fn on() -> bool {
    match ON.load(Ordering::Relaxed) {
        0 => {
            let on = crate::ffi::knob_value(crate::knobs::K::nv_stats as usize) != 0;
            ON.store(1 + on as u8, Ordering::Relaxed);
            on
        }
        v => v == 2,
    }
}

/// Adds `n` to the counter `what` of pass `pass` (kept only under `-nv-stats`).
pub fn add(pass: &str, what: &'static str, n: u64) {
    if !on() {
        return;
    }
    let mut c = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
    *c.entry((pass.to_string(), what)).or_insert(0) += n;
}

/// Adds `n` to the counter `what` of pass `pass` when it is not 0 (a counter that never moved
/// is not printed).
pub fn add_nonzero(pass: &str, what: &'static str, n: u64) {
    if n > 0 {
        add(pass, what, n);
    }
}

/// Adds to the counter `what` of pass `pass` how many of `items` satisfy `pred` (a pass's
/// verdicts of one kind), when that is not 0.
pub fn add_matching<T>(pass: &str, what: &'static str, items: &[T], pred: impl Fn(&T) -> bool) {
    add_nonzero(pass, what, items.iter().filter(|&i| pred(i)).count() as u64);
}

/// Renders the counters like LLVM's `-stats`.
pub fn render(counters: &BTreeMap<(String, &'static str), u64>) -> String {
    let rule = "===-------------------------------------------------------------------------===";
    let mut out = format!("{rule}\n                          ... nvopt statistics ...\n{rule}\n\n");
    for ((pass, what), n) in counters {
        let _ = writeln!(out, "{n:>8} {pass:<22} - {what}");
    }
    out
}

extern "C" fn print_now() {
    let on = crate::ffi::knob_value(crate::knobs::K::nv_stats as usize) != 0;
    if on {
        let c = COUNTERS.lock().unwrap_or_else(|e| e.into_inner());
        eprint!("{}", render(&c));
    }
}

extern "C" {
    fn atexit(f: extern "C" fn()) -> i32;
}

/// Arranges for the statistics to be printed when the process exits.
pub fn print_at_exit() {
    // SAFETY: registering a plain extern "C" function with libc's atexit.
    unsafe {
        atexit(print_now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_each_counter() {
        let mut m = BTreeMap::new();
        m.insert(("nvopt<O3>".to_string(), "slots that run a pass"), 97);
        let text = render(&m);
        assert!(text.contains("nvopt statistics"));
        assert!(text.contains("      97 nvopt<O3>"));
    }
}
