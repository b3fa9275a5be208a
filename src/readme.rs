//! Keeps README.md's generated tables (knobs, NVIDIA slots) identical to the code's single
//! definitions. `NVOPT_UPDATE_README=1 cargo test` rewrites them.
#[cfg(test)]
mod tests {
    use std::path::Path;

    fn block(name: &str) -> (String, String) {
        (format!("<!-- begin {name} (generated) -->\n"), format!("<!-- end {name} -->"))
    }

    fn check(name: &str, table: &str) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
        let readme = std::fs::read_to_string(&path).expect("README.md");
        let (begin, end) = block(name);
        let start =
            readme.find(&begin).unwrap_or_else(|| panic!("README lacks {begin}")) + begin.len();
        let stop = readme[start..].find(&end).expect("end marker") + start;
        if readme[start..stop] == *table {
            return;
        }
        if std::env::var_os("NVOPT_UPDATE_README").is_some() {
            std::fs::write(&path, format!("{}{table}{}", &readme[..start], &readme[stop..]))
                .expect("write README");
        } else {
            panic!("README.md's {name} table is stale: run NVOPT_UPDATE_README=1 cargo test");
        }
    }

    #[test]
    fn knob_table_is_current() {
        check("knobs", &crate::knobs::markdown_table());
    }

    #[test]
    fn slot_table_is_current() {
        check("slots", &crate::pipeline::slots::markdown_table());
    }
}
