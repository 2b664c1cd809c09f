//! `peer:lz4-c`: the reference liblz4 (1.10, built from the C source that
//! `lz4-sys` bundles): `LZ4_compress_default` and `LZ4_decompress_safe`;
//! `peer:lz4-c-hc`: its high compression, `LZ4_compress_HC` at the level of
//! the bench's `--level`, beside `lz4-hc`.
// Calls C: unsafe code, each call with its reasons.
#![allow(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:lz4-c";
const HC_NAME: &str = "peer:lz4-c-hc";

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

/// liblz4's high compression at `level`.
#[cfg(feature = "peers")]
pub fn peer_hc(level: u32) -> ByteSlot {
    Ok(Box::new(Lz4CHc {
        level: i32::try_from(level).unwrap_or(i32::MAX),
    }))
}

#[cfg(not(feature = "peers"))]
pub fn peer_hc(_level: u32) -> ByteSlot {
    Err(super::Absent {
        name: HC_NAME,
        family: "lz4-hc",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
struct Lz4C;

#[cfg(feature = "peers")]
struct Lz4CHc {
    level: i32,
}

#[cfg(feature = "peers")]
impl super::BytePeer for Lz4CHc {
    fn name(&self) -> &'static str {
        HC_NAME
    }

    fn family(&self) -> &'static str {
        "lz4-hc"
    }

    fn level(&self) -> Option<u32> {
        u32::try_from(self.level).ok()
    }

    fn encode(&self, input: &[u8], _width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let len = i32::try_from(input.len()).ok()?;
        // SAFETY: a pure function of its argument.
        let bound = unsafe { lz4_sys::LZ4_compressBound(len) };
        let out = super::room(out, usize::try_from(bound).ok()?);
        // SAFETY: liblz4 reads `len` bytes of `input` and writes at most
        // `bound` bytes to `out`, which holds that many.
        let n = unsafe {
            lz4_sys::LZ4_compress_HC(
                input.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                len,
                bound,
                self.level,
            )
        };
        usize::try_from(n).ok().filter(|&n| n > 0)
    }

    fn decode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        Lz4C.decode(input, width, out)
    }
}

#[cfg(feature = "peers")]
impl super::BytePeer for Lz4C {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "lz4"
    }

    fn encode(&self, input: &[u8], _width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let len = i32::try_from(input.len()).ok()?;
        // SAFETY: a pure function of its argument.
        let bound = unsafe { lz4_sys::LZ4_compressBound(len) };
        let out = super::room(out, usize::try_from(bound).ok()?);
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
        usize::try_from(n).ok().filter(|&n| n > 0)
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
