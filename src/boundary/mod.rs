//! The one boundary definition between Rust and the C++ shim; the C++ side is generated or
//! checked from it, so that a side that differs does not build:
//!
//! - **Functions.** Every `nvopt_*` function that crosses is written once, in Rust: declared in an
//!   `extern "C"` block where the shim defines it, or defined with `#[no_mangle]` where the shim
//!   calls it. build.rs ([`gen`], src/boundary/gen.rs) writes their C++ prototypes into
//!   `nvopt_boundary.h` in the build's output folder and force-includes it in every `.cpp`: a C++
//!   definition whose signature differs is a "conflicting declaration of C function" error, and
//!   a C++ declaration written by hand, or a C++ definition Rust does not declare, fails the
//!   build script.
//! - **Codes.** Codes both sides use (flags, result codes, facts) are written once, with
//!   [`shared_codes!`]: Rust constants here, a C++ `enum` of the same names and values in the
//!   generated header.
//! - **Layouts.** Every struct that crosses is `#[repr(C)]` in Rust and defined once in C++, in
//!   src/shim/boundary.h; src/shim/boundary_layout.h (generated here from Rust's
//!   `size_of`/`offset_of`) holds a `static_assert` for every size and field offset, so the shim
//!   does not compile when its layout differs from Rust's, and the test below fails when Rust's
//!   layout changes without the header being regenerated (`NVOPT_UPDATE_BOUNDARY=1 cargo test
//!   --release boundary`). The node kinds of the SCEV encoding
//!   ([`crate::analysis::scev_node::kind`]) are checked the same way. The `layout!` list also
//!   gives the generator each struct's C++ name, and `handle!` the C++ name of each Rust object
//!   the shim holds by pointer only.

/// Codes shared with the C++ shim, written once. In Rust each code is a constant (at the place of
/// the invocation, with the given visibility); build.rs generates from the same text the C++
/// `enum Name : type { CODE = value, ... };` with the same names into the force-included header
/// (src/boundary/gen.rs). Values are integer literals.
///
/// ```ignore
/// crate::shared_codes! {
///     /// What the shim reports per operand.
///     pub enum NvPreSinkOperand: u8 {
///         OPERAND_NOT_LIVE = 0,
///         OPERAND_LIVE = 1,
///     }
/// }
/// ```
#[macro_export]
macro_rules! shared_codes {
    ($(#[$meta:meta])* $vis:vis enum $name:ident: $ty:ty {
        $($(#[$cmeta:meta])* $code:ident = $value:literal),* $(,)?
    }) => {
        $($(#[$cmeta])* #[allow(dead_code)] $vis const $code: $ty = $value;)*
    };
}

#[cfg(test)]
mod gen;

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};
    use std::path::Path;

    /// One struct: its C++ name, Rust's size, and (C++ field, Rust offset) pairs.
    struct Layout {
        cpp: &'static str,
        size: usize,
        fields: Vec<(&'static str, usize)>,
    }

    macro_rules! layout {
        ($rust:ty, $cpp:literal, [$($f:ident => $cf:literal),* $(,)?]) => {
            Layout { cpp: $cpp, size: size_of::<$rust>(), fields: vec![$(($cf, offset_of!($rust, $f))),*] }
        };
    }

    fn layouts() -> Vec<Layout> {
        use crate::analysis::scev_sources::ffi as ss;
        vec![
            layout!(crate::ffi::NvStr, "NvStr", [ptr => "Ptr", len => "Len"]),
            layout!(crate::analysis::scev_node::ScevNode, "NvScevNode", [
                kind => "Kind", arity => "Arity", bits => "Bits", flags => "Flags",
                value => "Value", ty => "Ty", umax => "UMax",
            ]),
            layout!(crate::analysis::search_budgets::SearchBudgets, "NvSearchBudgets", [
                access_scev_max_depth => "AccessScevMaxDepth",
                sources_max_operand_depth => "SourcesMaxOperandDepth",
                sreg_max_term_nodes => "SregMaxTermNodes",
            ]),
            layout!(crate::analysis::ir::facts::RemarkArg, "NvRemarkArg", [key => "Key", value => "Value"]),
            layout!(crate::llc::addr::scev::NvPair, "NvPair", [
                a => "A", b => "B", diff_nodes => "DiffNodes", invariant => "Invariant", diff => "Diff",
            ]),
            layout!(crate::llc::lsr_gate::CLoopFacts, "CLoopFacts", [
                function => "Function", function_len => "FunctionLen", header => "Header",
                header_len => "HeaderLen", level => "Level", trip_count_known => "TripCountKnown",
                function_value => "Fn", header_block => "HeaderBlock", num_phis => "NumPhis",
                loop_handle => "LoopHandle", trial => "Trial",
            ]),
            layout!(crate::machine::coalesce::ffi::RawWeight, "RawWeight", [
                instrs => "Instrs", uses => "Uses", spill => "Spill",
            ]),
            layout!(crate::machine::coalesce::ffi::RawFacts, "RawFacts", [
                dst => "Dst", src => "Src", width => "Width", flags => "Flags", src_def => "SrcDef",
                src_def_addrspace => "SrcDefAddrSpace", dst_stored_to => "DstStoredTo",
                freq => "Freq", dst_weight => "DstWeight", src_weight => "SrcWeight",
            ]),
            layout!(crate::analysis::scev::ffi::RawNode, "RawNode", [
                kind => "Kind", loop_depth => "LoopDepth", num_operands => "NumOperands",
            ]),
            layout!(ss::NvBounds, "NvBounds", [umin => "UMin", umax => "UMax", smin => "SMin", smax => "SMax"]),
            layout!(ss::NvGuard, "NvGuard", [
                pred => "Pred", tests_next => "TestsNext", iv_is_lhs => "IvIsLhs",
                go_on_true => "GoOnTrue", bound => "Bound",
            ]),
            layout!(ss::NvIvFacts, "NvIvFacts", [
                width => "Width", existing => "Existing", start => "Start", step => "Step",
                start_terms => "StartTerms", n_start_terms => "NStartTerms",
                step_terms => "StepTerms", n_step_terms => "NStepTerms", guards => "Guards",
                n_guards => "NGuards",
            ]),
            layout!(ss::NvIvDecision, "NvIvDecision", [
                idiom => "Idiom", flags => "Flags", check_operands => "CheckOperands",
            ]),
        ]
    }

    /// The Rust objects the shim holds by pointer only, with the C++ name the generated header
    /// forward-declares for each (src/boundary/gen.rs reads this list).
    macro_rules! handle {
        ($rust:ty, $cpp:literal) => {
            (std::any::type_name::<$rust>(), $cpp)
        };
    }

    fn handles() -> Vec<(&'static str, &'static str)> {
        vec![
            handle!(crate::analysis::scev::ffi::State, "NVScevState"),
            handle!(crate::analysis::scev_sources::FunctionRun, "NvFunctionRun"),
        ]
    }

    /// The crate's own boundary, read as build.rs reads it: every Rust file under src/ (but the
    /// driver's), the layout and handle lists above; it maps, and it is the size it should be.
    #[test]
    fn the_crate_boundary_generates() {
        fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() && !p.ends_with("bin") {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        walk(&src, &mut files);
        let this = std::fs::read_to_string(src.join("boundary/mod.rs")).unwrap();
        let mut names = super::gen::Names {
            structs: super::gen::struct_names(&this, "layout"),
            handles: super::gen::struct_names(&this, "handle"),
            ..Default::default()
        };
        assert_eq!(names.structs.len(), layouts().len());
        assert_eq!(names.handles.len(), handles().len());
        let (mut fns, mut codes) = (Vec::new(), Vec::new());
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            names.aliases.extend(super::gen::aliases(&text));
            let (a, b) = super::gen::scan_rust(&f.display().to_string(), &text);
            fns.extend(a);
            codes.extend(b);
        }
        let header = super::gen::header(&fns, &codes, &names).unwrap();
        let prototypes = header
            .lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_alphabetic()) && l.contains("nvopt_"))
            .count();
        assert!(prototypes >= 90, "{prototypes} prototypes:\n{header}");
        assert!(codes.iter().any(|c| c.name == "NvPreSinkOperand"));
    }

    /// Every handle names a Rust type (the list compiles) and a C++ name of its own.
    #[test]
    fn handles_are_distinct() {
        let cpp: std::collections::BTreeSet<_> = handles().iter().map(|h| h.1).collect();
        assert_eq!(cpp.len(), handles().len());
    }

    fn kinds() -> Vec<(&'static str, u32)> {
        use crate::analysis::scev_node::kind::*;
        vec![
            ("KConst", CONST),
            ("KUnknown", UNKNOWN),
            ("KAdd", ADD),
            ("KMul", MUL),
            ("KAddRec", ADDREC),
            ("KSExt", SEXT),
            ("KZExt", ZEXT),
            ("KOther", OTHER),
            ("KRef", REF),
            ("KTrunc", TRUNC),
        ]
    }

    fn render() -> String {
        let mut out = String::from(
            "// Generated by src/boundary/mod.rs from Rust's layouts (NVOPT_UPDATE_BOUNDARY=1 cargo test\n\
             // --release boundary); do not edit. Included at the end of boundary.h.\n#pragma once\n\n",
        );
        for l in layouts() {
            let c = l.cpp;
            out += &format!("static_assert(sizeof({c}) == {}, \"{c}: Rust's size\");\n", l.size);
            for (f, off) in &l.fields {
                out += &format!(
                    "static_assert(offsetof({c}, {f}) == {off}, \"{c}::{f}: Rust's offset\");\n"
                );
            }
        }
        for (k, v) in kinds() {
            out += &format!("static_assert({k} == {v}, \"{k}: Rust's kind code\");\n");
        }
        out
    }

    #[test]
    fn boundary_layout_is_current() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shim/boundary_layout.h");
        let want = render();
        if std::fs::read_to_string(&path).ok().as_deref() == Some(want.as_str()) {
            return;
        }
        if std::env::var_os("NVOPT_UPDATE_BOUNDARY").is_some() {
            std::fs::write(&path, want).expect("write boundary_layout.h");
        } else {
            panic!("src/shim/boundary_layout.h is stale: run NVOPT_UPDATE_BOUNDARY=1 cargo test --release boundary");
        }
    }
}
