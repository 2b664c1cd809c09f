//! `peer:c-blosc`: c-blosc 1.21 (built from source by `blosc-src`, with its
//! LZ4 codec), one thread, beside `blosc-lz4`: numcodecs' default settings
//! (lz4, clevel 5, byte shuffle, the width as typesize). It decodes the
//! frames vecpress writes, a shared format.
// Calls C: unsafe code, each call with its reasons.
#![allow(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:c-blosc";

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
pub fn peer() -> ByteSlot {
    Ok(Box::new(CBlosc))
}

#[cfg(not(all(feature = "peers", target_arch = "x86_64")))]
pub fn peer() -> ByteSlot {
    let reason = if cfg!(feature = "peers") {
        "built only on x86-64 here".into()
    } else {
        super::NO_FEATURE.into()
    };
    Err(super::Absent {
        name: NAME,
        family: "blosc-lz4",
        reason,
    })
}

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
struct CBlosc;

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
impl super::BytePeer for CBlosc {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "blosc-lz4"
    }

    fn level(&self) -> Option<u32> {
        Some(5)
    }

    fn encode(&self, input: &[u8], width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let cap = input.len() + 16;
        let out = super::room(out, cap);
        // SAFETY: c-blosc reads `input.len()` bytes of `input`, writes at most
        // `cap` bytes to `out`, which holds that many; the compressor name is
        // a NUL-terminated literal.
        let n = unsafe {
            blosc_src::blosc_compress_ctx(
                5,
                1,
                width,
                input.len(),
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                cap,
                c"lz4".as_ptr(),
                0,
                1,
            )
        };
        usize::try_from(n).ok().filter(|&n| n > 0)
    }

    fn decode(&self, input: &[u8], _width: usize, out: &mut [u8]) -> Option<usize> {
        // c-blosc trusts the sizes in the header: check them against the
        // slice first, as it reads up to the frame size the header states.
        let h = vecpress::blosc::Header::parse(input).ok()?;
        if h.cbytes > input.len() {
            return None;
        }
        // SAFETY: the frame's stated size is within `input` (checked above),
        // and c-blosc writes at most `out.len()` bytes to `out`.
        let n = unsafe {
            blosc_src::blosc_decompress_ctx(
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                out.len(),
                1,
            )
        };
        usize::try_from(n).ok().filter(|&n| n == out.len())
    }

    fn note(&self) -> Option<String> {
        Some("c-blosc 1.21 built by blosc-src (cc), one thread".into())
    }
}
