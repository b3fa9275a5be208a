//! `ptxas -v` figures: registers, stack frame, spill stores and loads, shared memory, per
//! function in ptxas's order, and the one-line summary the driver prints for each.

/// What `ptxas -v` says about one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub name: String,
    pub is_entry: bool,
    pub registers: Option<u32>,
    /// (stack frame, spill stores, spill loads) in bytes.
    pub frame: Option<(u32, u32, u32)>,
    pub smem: Option<u32>,
}

/// Whether ptxas failed only because it does not know the target (CUDA 13's ptxas dropped
/// sm_50..sm_72): the PTX is fine, there are just no figures.
pub fn unknown_target(report: &str) -> bool {
    report.contains("is not defined for option 'gpu-name'")
        || report.to_ascii_lowercase().contains("unsupported gpu architecture")
}

/// The text between the first pair of single quotes after `marker`.
fn quoted_after<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    let rest = &line[line.find(marker)? + marker.len()..];
    let start = rest.find('\'')? + 1;
    let len = rest[start..].find('\'')?;
    Some(&rest[start..start + len])
}

/// The number right before `unit` in `line` ("160 bytes stack frame" -> 160).
fn number_before(line: &str, unit: &str) -> Option<u32> {
    let head = line[..line.find(unit)?].trim_end();
    let digits = head.rsplit(|c: char| !c.is_ascii_digit()).next()?;
    digits.parse().ok()
}

/// Parses a `ptxas -v` report.
pub fn parse(report: &str) -> Vec<Figures> {
    let mut out: Vec<Figures> = Vec::new();
    let mut current: Option<usize> = None;
    for line in report.lines() {
        let entry = quoted_after(line, "Compiling entry function");
        let props = line
            .find("Function properties for ")
            .map(|i| line[i + "Function properties for ".len()..].trim());
        if let Some(name) = entry.or(props) {
            let idx = match out.iter().position(|f| f.name == name) {
                Some(i) => i,
                None => {
                    out.push(Figures { name: name.to_string(), ..Default::default() });
                    out.len() - 1
                }
            };
            out[idx].is_entry |= entry.is_some();
            current = Some(idx);
            continue;
        }
        let Some(f) = current.map(|i| &mut out[i]) else { continue };
        if let (Some(stack), Some(stores), Some(loads)) = (
            number_before(line, "bytes stack frame"),
            number_before(line, "bytes spill stores"),
            number_before(line, "bytes spill loads"),
        ) {
            f.frame = Some((stack, stores, loads));
        } else if let Some(regs) = number_before(line, "registers") {
            if line.contains("Used ") {
                f.registers = Some(regs);
                f.smem = number_before(line, "bytes smem");
            }
        }
    }
    out
}

/// One line per function: `ptxas sm_90: entry k: 26 registers, 0 bytes stack, ...`.
pub fn format(sm: &str, figures: &[Figures]) -> Vec<String> {
    figures
        .iter()
        .map(|f| {
            let mut parts = Vec::new();
            if let Some(r) = f.registers {
                parts.push(format!("{r} registers"));
            }
            if let Some((stack, stores, loads)) = f.frame {
                parts.push(format!("{stack} bytes stack"));
                parts.push(format!("{stores} bytes spill stores"));
                parts.push(format!("{loads} bytes spill loads"));
            }
            if let Some(s) = f.smem {
                parts.push(format!("{s} bytes smem"));
            }
            if parts.is_empty() {
                parts.push("no figures".to_string());
            }
            let kind = if f.is_entry { "entry" } else { "function" };
            format!("ptxas {sm}: {kind} {}: {}", f.name, parts.join(", "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'k1' for 'sm_90'
ptxas info    : Function properties for k1
    160 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 26 registers, used 0 barriers, 160 bytes cumulative stack size
ptxas info    : Compile time = 3.737 ms
ptxas info    : Function properties for helper
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function 'k2' for 'sm_90'
ptxas info    : Function properties for k2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 14 registers, used 1 barriers, 1024 bytes smem
";

    #[test]
    fn parses_ptxas_v() {
        let f = parse(REPORT);
        assert_eq!(f.len(), 3);
        assert_eq!(
            f[0],
            Figures {
                name: "k1".into(),
                is_entry: true,
                registers: Some(26),
                frame: Some((160, 8, 4)),
                smem: None
            }
        );
        assert_eq!((f[1].name.as_str(), f[1].is_entry, f[1].registers), ("helper", false, None));
        assert_eq!((f[2].registers, f[2].smem), (Some(14), Some(1024)));
    }

    #[test]
    fn formats_one_line_per_function() {
        let lines = format("sm_90", &parse(REPORT));
        assert_eq!(
            lines[0],
            "ptxas sm_90: entry k1: 26 registers, 160 bytes stack, 8 bytes spill stores, 4 bytes spill loads"
        );
        assert_eq!(
            lines[1],
            "ptxas sm_90: function helper: 0 bytes stack, 0 bytes spill stores, 0 bytes spill loads"
        );
        assert!(lines[2].ends_with("0 bytes spill loads, 1024 bytes smem"));
    }

    #[test]
    fn unknown_targets_are_recognized() {
        assert!(unknown_target(
            "ptxas fatal   : Value 'sm_52' is not defined for option 'gpu-name'"
        ));
        assert!(!unknown_target("ptxas fatal   : Unknown option 'bogus'"));
    }
}
