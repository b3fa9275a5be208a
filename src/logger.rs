//! A small stderr logger for the `log` crate, switched by the `nv-log-level` knob (LLVM's
//! `-debug-only` is compiled out of Debian's LLVM, docs/ARCHITECTURE.md "Platform facts").
use log::{Level, LevelFilter, Log, Metadata, Record};

struct KnobLogger;

fn level_from_knob(v: i64) -> Option<Level> {
    match v {
        1 => Some(Level::Error),
        2 => Some(Level::Warn),
        3 => Some(Level::Info),
        4 => Some(Level::Debug),
        5 => Some(Level::Trace),
        _ => None,
    }
}

fn current_level() -> Option<Level> {
    level_from_knob(crate::ffi::knob_value(crate::knobs::K::nv_log_level as usize))
}

impl Log for KnobLogger {
    fn enabled(&self, m: &Metadata) -> bool {
        current_level().is_some_and(|l| m.level() <= l)
    }

    fn log(&self, r: &Record) {
        if self.enabled(r.metadata()) {
            eprintln!("nvopt[{}] {}: {}", r.level(), r.target(), r.args());
        }
    }

    fn flush(&self) {}
}

/// Installs the logger (once; a second plugin load keeps the first).
pub fn install() {
    static LOGGER: KnobLogger = KnobLogger;
    if log::set_logger(&LOGGER).is_ok() {
        log::set_max_level(LevelFilter::Trace);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knob_values_map_to_levels() {
        assert_eq!(level_from_knob(0), None);
        assert_eq!(level_from_knob(3), Some(Level::Info));
        assert_eq!(level_from_knob(5), Some(Level::Trace));
    }
}
