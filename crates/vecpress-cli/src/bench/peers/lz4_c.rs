//! `peer:lz4-c`: the reference liblz4 (1.10, built from the C source that
//! `lz4-sys` bundles): `LZ4_compress_default` and `LZ4_decompress_safe`.
// Calls C: unsafe code, each call with its reasons.
#![allow(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:lz4-c";

#[cfg(feature = "peers")]
pub fn peer() -> ByteSlot {
    Ok(Box::new(Lz4C))
}

#[cfg(not(feature = "peers"))]
pub fn peer() -> ByteSlot {
    Err(super::Absent {
        name: NAME,
        family: "lz4",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
struct Lz4C;

#[cfg(feature = "peers")]
impl super::BytePeer for Lz4C {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "lz4"
    }

    fn encode(&self, input: &[u8], _width: usize) -> Option<Vec<u8>> {
        let len = i32::try_from(input.len()).ok()?;
        // SAFETY: a pure function of its argument.
        let bound = unsafe { lz4_sys::LZ4_compressBound(len) };
        let mut out = vec![0u8; usize::try_from(bound).ok()?];
        // SAFETY: liblz4 reads `len` bytes of `input` and writes at most
        // `bound` bytes to `out`, which holds that many.
        let n = unsafe {
            lz4_sys::LZ4_compress_default(
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                len,
                bound,
            )
        };
        out.truncate(usize::try_from(n).ok().filter(|&n| n > 0)?);
        Some(out)
    }

    fn decode(&self, input: &[u8], _width: usize, out: &mut [u8]) -> Option<usize> {
        let src = i32::try_from(input.len()).ok()?;
        let cap = i32::try_from(out.len()).ok()?;
        // SAFETY: LZ4_decompress_safe reads at most `src` bytes of `input` and
        // writes at most `cap` bytes to `out`, whatever the input holds.
        let n = unsafe {
            lz4_sys::LZ4_decompress_safe(input.as_ptr().cast(), out.as_mut_ptr().cast(), src, cap)
        };
        usize::try_from(n).ok()
    }
}
