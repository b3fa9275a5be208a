//! Keeps the generated tables of the documentation identical to the code's single definitions:
//! the knob table in docs/KNOBS.md (from src/knobs.rs) and the NVIDIA-only slot table in
//! docs/SLOTS.md (from src/pipeline/slots.rs), each between `<!-- begin NAME (generated) -->`
//! and `<!-- end NAME -->`. `NVOPT_UPDATE_README=1 cargo test --release readme` rewrites them.
#[cfg(test)]
mod tests {
    use std::path::Path;

    fn block(name: &str) -> (String, String) {
        (format!("<!-- begin {name} (generated) -->\n"), format!("<!-- end {name} -->"))
    }

    /// Checks (or, with NVOPT_UPDATE_README set, rewrites) the `name` block of `file`, a path
    /// relative to the crate root.
    fn check(file: &str, name: &str, table: &str) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let (begin, end) = block(name);
        let start =
            doc.find(&begin).unwrap_or_else(|| panic!("{file} lacks {begin}")) + begin.len();
        let stop = doc[start..].find(&end).expect("end marker") + start;
        if doc[start..stop] == *table {
            return;
        }
        if std::env::var_os("NVOPT_UPDATE_README").is_some() {
            std::fs::write(&path, format!("{}{table}{}", &doc[..start], &doc[stop..]))
                .unwrap_or_else(|e| panic!("write {file}: {e}"));
        } else {
            panic!("{file}'s {name} table is stale: run NVOPT_UPDATE_README=1 cargo test");
        }
    }

    #[test]
    fn knob_table_is_current() {
        check("docs/KNOBS.md", "knobs", &crate::knobs::markdown_table());
    }

    #[test]
    fn slot_table_is_current() {
        check("docs/SLOTS.md", "slots", &crate::pipeline::slots::markdown_table());
    }
}
