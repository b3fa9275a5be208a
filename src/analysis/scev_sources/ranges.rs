//! Special-register value ranges (docs/CICC-FACTS.md, "GPU SCEV sources and stride idioms"
//! and "SCEV facts"): the hardware ranges LLVM 22's intrinsic table already declares, tightened by
//! a kernel's launch bounds. `nvvm.reqntid` fixes each block dimension exactly (missing
//! dimensions are 1, as in PTX's `.reqntid` and upstream's later NVVMIntrRange); `nvvm.maxntid`
//! bounds the number of threads in a block, so every dimension is at most the product of its
//! values (CUDA launches any block shape within `__launch_bounds__`, which is why LLVM 22's
//! nvvm-intr-range also uses the product); `nvvm.minctasm` is an occupancy hint and bounds
//! nothing. A range is only ever intersected with the one a call already has, never widened.
use crate::analysis::gpu::Span;

/// The range to put on a call of width `width` whose current range (call site or declaration)
/// is `existing` (`None`: no range; `Some(None)`: a range of a shape not handled): `Some` only
/// when strictly tighter than what the call already has.
pub fn tighter(ours: Span, width: u32, existing: Option<Option<Span>>) -> Option<Span> {
    if width != 32 {
        return None;
    }
    let base = match existing {
        None => Span::new(0, 1 << 32),
        Some(Some(s)) => s,
        Some(None) => return None,
    };
    base.intersect(ours).filter(|s| *s != base)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::gpu::*;

    const TX: Sreg = Sreg::Tid(Dim::X);
    const NX: Sreg = Sreg::Ntid(Dim::X);

    fn lb(maxntid: &str, reqntid: &str) -> LaunchBounds {
        let (b, bad) = LaunchBounds::parse(maxntid, reqntid, "");
        assert!(bad.is_empty());
        b
    }

    #[test]
    fn hardware_matches_llvm_22_intrinsic_table() {
        let none = LaunchBounds::default();
        assert_eq!(sreg_span(TX, &none), Span::new(0, 1024));
        assert_eq!(sreg_span(Sreg::Tid(Dim::Y), &none), Span::new(0, 1024));
        assert_eq!(sreg_span(Sreg::Tid(Dim::Z), &none), Span::new(0, 64));
        assert_eq!(sreg_span(NX, &none), Span::new(1, 1025));
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Z), &none), Span::new(1, 65));
        assert_eq!(sreg_span(Sreg::Ctaid(Dim::X), &none), Span::new(0, (1 << 31) - 1));
        assert_eq!(sreg_span(Sreg::Ctaid(Dim::Z), &none), Span::new(0, 65535));
        assert_eq!(sreg_span(Sreg::Nctaid(Dim::X), &none), Span::new(1, 1 << 31));
        assert_eq!(sreg_span(Sreg::Nctaid(Dim::Y), &none), Span::new(1, 65536));
        assert_eq!(sreg_span(Sreg::Warpsize, &none), Span::new(32, 33));
        assert_eq!(sreg_span(Sreg::Laneid, &none), Span::new(0, 32));
    }

    #[test]
    fn maxntid_bounds_every_dimension_by_the_thread_count() {
        let b = lb("256", "");
        assert_eq!(sreg_span(TX, &b), Span::new(0, 256));
        assert_eq!(sreg_span(NX, &b), Span::new(1, 257));
        // A 16x16 block is a legal launch of a 256-thread kernel.
        assert_eq!(sreg_span(Sreg::Tid(Dim::Y), &b), Span::new(0, 256));
        assert_eq!(sreg_span(Sreg::Tid(Dim::Z), &b), Span::new(0, 64));
        let b = lb("16,8,2", "");
        assert_eq!(sreg_span(TX, &b), Span::new(0, 256));
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Z), &b), Span::new(1, 65));
        // Grid registers are not bounded by block bounds.
        assert_eq!(sreg_span(Sreg::Ctaid(Dim::X), &b), hardware(Sreg::Ctaid(Dim::X)));
        assert_eq!(sreg_span(Sreg::Nctaid(Dim::X), &b), hardware(Sreg::Nctaid(Dim::X)));
    }

    #[test]
    fn reqntid_fixes_each_dimension() {
        let b = lb("", "16,8,2");
        assert_eq!(sreg_span(NX, &b), Span::new(16, 17));
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Y), &b), Span::new(8, 9));
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Z), &b), Span::new(2, 3));
        assert_eq!(sreg_span(TX, &b), Span::new(0, 16));
        assert_eq!(sreg_span(Sreg::Tid(Dim::Z), &b), Span::new(0, 2));
        // Missing dimensions are 1.
        let b = lb("", "128");
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Y), &b), Span::new(1, 2));
        assert_eq!(sreg_span(Sreg::Tid(Dim::Y), &b), Span::new(0, 1));
    }

    #[test]
    fn minctasm_bounds_nothing() {
        let (b, bad) = LaunchBounds::parse("", "", "4");
        assert!(bad.is_empty());
        assert_eq!(b.minctasm, Some(4));
        assert!(b.is_empty());
        assert_eq!(sreg_span(TX, &b), hardware(TX));
    }

    #[test]
    fn huge_or_contradictory_bounds_are_harmless() {
        // Products past 2^64 saturate; bounds above the hardware leave the hardware range.
        let b = lb("4294967296,4294967296,4294967296", "");
        assert_eq!(sreg_span(TX, &b), hardware(TX));
        assert_eq!(sreg_span(NX, &b), hardware(NX));
        let b = lb("", "2048");
        assert_eq!(sreg_span(NX, &b), hardware(NX));
        assert_eq!(sreg_span(TX, &b), hardware(TX));
        let b = lb("", "128,1,128");
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Z), &b), hardware(Sreg::Ntid(Dim::Z)));
        // Both present: the tighter wins per dimension.
        let b = lb("64", "128");
        assert_eq!(sreg_span(NX, &b), Span::new(128, 129));
        assert_eq!(sreg_span(Sreg::Ntid(Dim::Y), &b), Span::new(1, 2));
    }

    #[test]
    fn malformed_attributes_are_dropped() {
        for text in ["", "0", "abc", "1,2,3,4", "-5", "16,,2", "1.5"] {
            let (b, bad) = LaunchBounds::parse(text, "", "");
            assert_eq!(b.maxntid, None, "{text}");
            assert_eq!(bad.is_empty(), text.is_empty(), "{text}");
        }
        assert_eq!(LaunchBounds::parse(" 32 , 4 ", "", "").0.maxntid, Some(vec![32, 4]));
        assert_eq!(LaunchBounds::parse("", "", "2,3").0.minctasm, None);
    }

    #[test]
    fn llvm_ranges() {
        assert_eq!(Span::from_llvm(0, 1024, 32), Some(Span::new(0, 1024)));
        assert_eq!(Span::from_llvm(1, 0, 32), Some(Span::new(1, 1 << 32)));
        assert_eq!(
            Span::from_llvm(u32::MAX as u64, u32::MAX as u64, 32),
            Some(Span::new(0, 1 << 32))
        );
        assert_eq!(Span::from_llvm(0, 0, 32), None, "empty");
        assert_eq!(Span::from_llvm(100, 10, 32), None, "wrapped");
        assert_eq!(Span::from_llvm(0, 10, 64), None, "64-bit ranges are not handled");
    }

    #[test]
    fn only_strictly_tighter_ranges_are_set() {
        let ours = Span::new(0, 256);
        assert_eq!(tighter(ours, 32, None), Some(ours));
        assert_eq!(tighter(ours, 32, Some(Some(Span::new(0, 1024)))), Some(ours));
        // Never widen; intersect with what is there.
        assert_eq!(tighter(ours, 32, Some(Some(Span::new(0, 100)))), None);
        assert_eq!(tighter(ours, 32, Some(Some(Span::new(10, 300)))), Some(Span::new(10, 256)));
        assert_eq!(tighter(ours, 32, Some(Some(ours))), None);
        // Disjoint (contradictory) ranges and unhandled shapes are left alone.
        assert_eq!(tighter(ours, 32, Some(Some(Span::new(300, 400)))), None);
        assert_eq!(tighter(ours, 32, Some(None)), None);
        assert_eq!(tighter(ours, 64, None), None);
    }
}
