//! The `VECPRESS_ISA` cap, as this process sees it: `scripts/test.sh` runs this
//! file under each cap, and once with none.

use vecpress::{Isa, vbyte};

#[test]
fn the_cap_bounds_available_levels_and_dispatch() {
    let avail = Isa::available();
    assert_eq!(avail[0], Isa::Scalar);
    match std::env::var("VECPRESS_ISA")
        .ok()
        .and_then(|s| s.parse::<Isa>().ok())
    {
        Some(cap) => {
            assert!(
                avail.iter().all(|&isa| isa == Isa::Scalar || isa <= cap),
                "{avail:?} above {cap}"
            );
            if cap.is_supported() {
                assert_eq!(Isa::best(), cap);
            }
        }
        None => assert_eq!(
            Isa::best(),
            *Isa::ALL.iter().filter(|i| i.is_supported()).max().unwrap()
        ),
    }
    // Levels above the cap still run through the explicit entry, if the CPU has them.
    for &isa in Isa::ALL.iter().filter(|i| i.is_supported()) {
        let mut out = [0u32; 2];
        assert_eq!(vbyte::decode_with(isa, &[0x96, 0x01, 7], &mut out), Ok(3));
        assert_eq!(out, [150, 7]);
    }
}
