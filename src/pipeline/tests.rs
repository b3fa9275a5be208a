//! Tests of the level tables and the builder (no LLVM needed).
use super::*;

fn built(level: Level, f: impl FnOnce(&mut Knobs)) -> Built {
    let mut k = Knobs::defaults();
    f(&mut k);
    build(&Context::new(level, k, true)).expect("tables parse")
}

fn text(level: Level) -> String {
    built(level, |_| {}).text
}

/// Leaf pass names of a pipeline text, adaptors and parameters dropped.
fn leaves(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0, String::new());
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' | ')' | ',' if depth == 0 => {
                if c != '(' && !cur.is_empty() {
                    out.push(cur.clone());
                }
                cur.clear();
            }
            _ if depth == 0 => cur.push(c),
            _ => {}
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[test]
fn every_level_builds() {
    for l in Level::ALL {
        let t = text(l);
        assert!(t.ends_with("verify"), "{l:?}: {t}");
        assert!(t.starts_with("require<profile-summary>"), "{l:?}");
    }
}

#[test]
fn parse_element_levels_and_errors() {
    assert_eq!(parse_element("nvopt<O3>"), Ok(Some(Level::O3)));
    assert_eq!(parse_element("nvopt<Ofcmid>"), Ok(Some(Level::Ofcmid)));
    assert_eq!(parse_element("instcombine"), Ok(None));
    assert_eq!(parse_element("nvoptx"), Ok(None));
    for bad in ["nvopt<O4>", "nvopt<>", "nvopt<O3;bogus>", "nvopt"] {
        let e = parse_element(bad).unwrap_err();
        assert!(e.contains(LEVEL_NAMES), "{bad}: {e}");
    }
}

#[test]
fn o1_o2_o3_differences() {
    let (o1, o2, o3) = (text(Level::O1), text(Level::O2), text(Level::O3));
    // O1 also inlines (nv-o1-inline, so that it never inlines less than upstream default<O1>);
    // with the knob off it is cicc's O1, always-inline only.
    assert!(o1.contains("always-inline") && o1.contains("nv-inline-advisor,cgscc(inline)"));
    let cicc_o1 = built(Level::O1, |k| k.set(K::nv_o1_inline, 0)).text;
    assert!(cicc_o1.contains("always-inline") && !cicc_o1.contains("cgscc(inline)"));
    assert!(!cicc_o1.contains("nv-inline-advisor"));
    assert!(o2.contains("nv-inline-advisor,cgscc(inline)") && !o2.contains("always-inline"));
    assert!(o2.contains(
        "nv-local-array-unroll,nv-shuffle-loop-unroll,nv-stride-loop-unroll,loop-unroll<O2>"
    ));
    assert!(!o1.contains("nv-local-array-unroll") && !o1.contains("loop-unroll"));
    assert!(!o1.contains("nv-shuffle-loop-unroll"));
    let no_shuffle = built(Level::O3, |k| k.set(K::nv_disable_shuffle_loop_unroll, 1)).text;
    assert!(no_shuffle.contains("nv-local-array-unroll,nv-stride-loop-unroll,loop-unroll<O3>"));
    assert!(!o1.contains("nv-stride-loop-unroll"));
    let no_stride = built(Level::O3, |k| k.set(K::nv_disable_stride_loop_unroll, 1)).text;
    assert!(no_stride.contains("nv-shuffle-loop-unroll,loop-unroll<O3>"));
    let o1_unroll = built(Level::O1, |k| k.set(K::nv_o1_local_array_unroll, 1)).text;
    assert!(o1_unroll.contains(
        "nv-local-array-unroll,loop-unroll<no-partial;no-peeling;no-runtime;no-upperbound;\
         full-unroll-max=0;O1>"
    ));
    assert!(
        !o1.contains("loop-unroll")
            && o2.contains("loop-unroll<O2>")
            && o3.contains("loop-unroll<O3>")
    );
    assert!(!o2.contains("argpromotion") && o3.contains("argpromotion"));
    assert_eq!(o1.matches("gvn<").count(), 1);
    assert_eq!(o2.matches("gvn<").count(), 2);
    assert_eq!(o2.matches("constmerge").count(), 2);
    assert_eq!(o2.matches("globaldce").count() + 1, o3.matches("globaldce").count());
}

#[test]
fn the_unroll_guards_end_the_function_pipeline_of_o1_to_o3() {
    for level in [Level::O1, Level::O2, Level::O3] {
        let t = text(level);
        assert!(t.contains("nv-texture-unroll-guard,nv-pressure-unroll-guard),"), "{level:?}");
        let off = built(level, |k| k.set(K::nv_disable_texture_unroll_guard, 1)).text;
        assert!(!off.contains("nv-texture-unroll-guard"), "{level:?}");
        assert!(off.contains("nv-pressure-unroll-guard),"), "{level:?}");
        let off = built(level, |k| k.set(K::nv_disable_pressure_unroll_guard, 1)).text;
        assert!(!off.contains("nv-pressure-unroll-guard"), "{level:?}");
        assert!(off.contains("nv-texture-unroll-guard),"), "{level:?}");
    }
    for level in [Level::O0, Level::Ofcmax, Level::Ofcmid, Level::Ofcmin] {
        assert!(!text(level).contains("nv-texture-unroll-guard"), "{level:?}");
        assert!(!text(level).contains("nv-pressure-unroll-guard"), "{level:?}");
    }
}

#[test]
fn o3_escalates_feature_flags_to_six() {
    assert_eq!(Context::new(Level::O3, Knobs::defaults(), true).feature_flags, 6);
    assert_eq!(Context::new(Level::O2, Knobs::defaults(), true).feature_flags, 0);
    let dbe = |b: &Built| b.slots.iter().find(|s| s.item == "nv:dbe").map(|s| s.status.clone());
    assert_eq!(dbe(&built(Level::O3, |_| {})), Some(Status::Runs));
    assert_eq!(dbe(&built(Level::O2, |_| {})), Some(Status::Off("feature-bit-1".into())));
    assert_eq!(dbe(&built(Level::O2, |k| k.set(K::nv_feature_flags, 2))), Some(Status::Runs));
}

#[test]
fn ofcmax_forces_memory_space_and_lsa_off() {
    let ctx = Context::new(Level::Ofcmax, Knobs::defaults(), true);
    assert!(!ctx.knobs.memory_space_opt() && !ctx.knobs.lsa_opt());
    let on = |k: &mut Knobs| k.set(K::nv_barrier_analysis, 1);
    assert!(!built(Level::Ofcmax, on).text.contains("infer-address-spaces"));
    assert!(built(Level::Ofcmin, on).text.matches("infer-address-spaces").count() == 2);
}

#[test]
fn ofcmax_has_no_inliner_sroa_or_loop_passes() {
    let l = leaves(&text(Level::Ofcmax));
    assert!(l.contains(&"instcombine".to_string()));
    for p in
        ["inline", "always-inline", "sroa", "licm", "gvn", "loop-rotate", "indvars", "loop-unroll"]
    {
        assert!(!l.contains(&p.to_string()), "{p} in {l:?}");
    }
}

#[test]
fn cgscc_iterations_by_level_and_knob() {
    assert!(text(Level::Ofcmid).contains("cgscc(devirt<5>(inline,"));
    assert!(text(Level::O3).contains("cgscc(inline)"));
    assert!(built(Level::O3, |k| k.set(K::nv_cgscc_iterations, 3))
        .text
        .contains("cgscc(devirt<3>(inline))"));
}

#[test]
fn guard_knobs_switch_slots_off() {
    assert!(!built(Level::O3, |k| k.set(K::nv_disable_licm, 1)).text.contains("licm"));
    assert!(!built(Level::O3, |k| k.set(K::memory_space_opt, 0))
        .text
        .contains("infer-address-spaces"));
    assert_eq!(text(Level::O3).matches("infer-address-spaces").count(), 3);
    // nv-phi-load-spaces: before the first instcombine, off with its knob or memory-space-opt=0
    assert!(text(Level::O3).contains("function(nv-phi-load-spaces,instcombine<"));
    for off in [K::nv_disable_phi_load_spaces, K::memory_space_opt] {
        let v = if off == K::memory_space_opt { 0 } else { 1 };
        assert!(!built(Level::O3, |k| k.set(off, v)).text.contains("nv-phi-load-spaces"));
    }
    let lv = built(Level::O3, |k| k.set(K::nv_loop_vectorize, 1)).text;
    assert!(
        lv.contains("loop-vectorize<no-interleave-forced-only") && lv.contains("slp-vectorizer")
    );
    assert!(built(Level::O1, |k| k.set(K::nv_loop_vectorize, 1))
        .text
        .contains("loop-vectorize<interleave-forced-only"));
}

#[test]
fn without_nvptx_the_nvptx_slots_are_skipped() {
    let b = build(&Context::new(Level::O3, Knobs::defaults(), false)).unwrap();
    for p in slots::NVPTX_ONLY {
        assert!(!b.text.contains(p), "{p}");
    }
    assert!(b.count(|s| s.status == Status::NoNvptx) >= 3);
}

#[test]
fn empty_adaptors_are_dropped() {
    let t = text(Level::O1);
    assert!(!t.contains("function()") && !t.contains("cgscc()") && !t.contains("loop()"));
}

#[test]
fn slot_report_names_every_slot() {
    let ctx = Context::new(Level::O3, Knobs::defaults(), true);
    let b = build(&ctx).unwrap();
    let r = report::slot_report(&ctx, &b);
    assert_eq!(r.lines().count(), b.slots.len() + 1);
    assert!(r.contains("nothing runs: no upstream equivalent"));
}

#[test]
fn whole_program_internalization_first_at_optimizing_levels_unless_rdc() {
    // The first slot after the always-added analyses.
    let first = |b: &Built| {
        let s = b.slots.iter().find(|s| !s.item.starts_with("require<")).expect("a pass slot");
        (s.item.clone(), s.status.clone())
    };
    for l in Level::ALL {
        let b = built(l, |_| {});
        if l == Level::O0 {
            assert!(!b.text.contains("nv-internalize") && first(&b).0 != "nv:internalize");
            continue;
        }
        assert_eq!(first(&b), ("nv:internalize".to_string(), Status::Runs), "{l:?}");
        let after_analyses = b.text.split_once("require<assumptions>),").expect("analyses").1;
        assert!(after_analyses.starts_with("nv-internalize,"), "{l:?}: {}", b.text);
        let rdc = built(l, |k| k.set(K::nv_rdc, 1));
        assert!(!rdc.text.contains("nv-internalize"), "{l:?}");
        assert_eq!(first(&rdc), ("nv:internalize".to_string(), Status::Off("!nv-rdc".into())));
    }
}

#[test]
fn array_alignment_slots_by_level_and_knob() {
    let status = |b: &Built, slot: &str| {
        b.slots.iter().filter(|s| s.item == slot).map(|s| s.status.clone()).collect::<Vec<_>>()
    };
    let (local, global) = ("nv:set-local-array-alignment", "nv:set-global-array-alignment");
    for l in [Level::O1, Level::O2, Level::O3] {
        let b = built(l, |k| k.set(K::nv_opt_load_store_vectorizer, 1));
        assert_eq!(status(&b, local), [Status::Runs], "{l:?}");
        assert_eq!(status(&b, global), [Status::Runs], "{l:?}");
        // Global first (module), then local in the function adaptor, then infer-alignment
        // before the load-store vectorizer (cicc's table; by default llc vectorizes).
        let t = &b.text;
        let (g, lo) = (
            t.find("nv-set-global-array-alignment,function(").unwrap(),
            t.find("nv-set-local-array-alignment,infer-alignment").unwrap(),
        );
        assert!(g < lo && lo < t.rfind("load-store-vectorizer").unwrap(), "{l:?}: {t}");
    }
    for l in [Level::Ofcmid, Level::Ofcmin] {
        let b = built(l, |_| {});
        assert_eq!(status(&b, local), [Status::Runs], "{l:?}");
        assert!(status(&b, global).is_empty() && !b.text.contains("nv-set-global"), "{l:?}");
    }
    // No such slot at O0 and Ofcmax (cicc's tables).
    for l in [Level::O0, Level::Ofcmax] {
        let b = built(l, |_| {});
        assert!(status(&b, local).is_empty() && status(&b, global).is_empty(), "{l:?}");
        assert!(!b.text.contains("array-alignment"), "{l:?}");
    }
    let lsa_off = built(Level::O3, |k| k.set(K::lsa_opt, 0));
    assert_eq!(status(&lsa_off, local), [Status::Off("lsa-opt".into())]);
    assert_eq!(status(&lsa_off, global), [Status::Runs]);
    let local_off = built(Level::Ofcmid, |k| k.set(K::nv_disable_set_local_array_alignment, 1));
    assert_eq!(
        status(&local_off, local),
        [Status::Off("nv-disable-set-local-array-alignment".into())]
    );
    let global_off = built(Level::O2, |k| k.set(K::nv_disable_set_global_array_alignment, 1));
    assert_eq!(
        status(&global_off, global),
        [Status::Off("!nv-disable-set-global-array-alignment".into())]
    );
    assert!(!global_off.text.contains("nv-set-global") && global_off.text.contains("nv-set-local"));
}

#[test]
fn opt_side_load_store_vectorizer_only_on_request_at_o1_to_o3() {
    for l in [Level::O1, Level::O2, Level::O3] {
        assert!(!text(l).contains("load-store-vectorizer"), "{l:?}");
        let cicc = built(l, |k| k.set(K::nv_opt_load_store_vectorizer, 1)).text;
        assert!(cicc.contains("infer-alignment,load-store-vectorizer"), "{l:?}");
    }
    // The fast-compile levels' llc runs at -O0, without the vectorizer: theirs stays.
    for l in [Level::Ofcmid, Level::Ofcmin] {
        assert!(text(l).contains("load-store-vectorizer"), "{l:?}");
    }
}
