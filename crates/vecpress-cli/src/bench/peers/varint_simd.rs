//! `peer:varint-simd`: the varint-simd crate's safe `decode::<u32>`, value by
//! value (each call reads 16 bytes, which the padded input always has).
//!
//! The crate builds for any x86-64 target, but uses BMI2 (PEXT) only when the
//! target enables it: build with `RUSTFLAGS='-C target-cpu=native'` to bench
//! it at its best. The note on its row says which path it was built with.
#![forbid(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:varint-simd";

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
pub fn peer() -> Slot {
    Ok(Box::new(VarintSimd))
}

#[cfg(not(all(feature = "peers", target_arch = "x86_64")))]
pub fn peer() -> Slot {
    let reason = if cfg!(feature = "peers") {
        "x86-64 only (varint-simd uses x86 intrinsics)".into()
    } else {
        super::NO_FEATURE.into()
    };
    Err(super::Absent {
        name: NAME,
        family: "vbyte",
        reason,
    })
}

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
struct VarintSimd;

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
impl super::Peer for VarintSimd {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        let mut pos = 0;
        for slot in out.iter_mut() {
            let (value, len) = varint_simd::decode::<u32>(input.get(pos..)?).ok()?;
            *slot = value;
            pos += len;
        }
        Some(pos)
    }

    fn note(&self) -> Option<String> {
        if cfg!(all(target_feature = "bmi2", target_feature = "avx2")) {
            None
        } else {
            Some(
                "built without -C target-cpu=native, so without its BMI2 path; for that, run \
                 RUSTFLAGS='-C target-cpu=native' cargo run --release -p vecpress-cli -- bench --peers"
                    .into(),
            )
        }
    }
}
