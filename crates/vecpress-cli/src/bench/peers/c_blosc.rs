//! `peer:c-blosc`: c-blosc 1.21 (compiled by build.rs from the sources that
//! the `blosc-src` package ships, as c-blosc's CMake build compiles it: -O3,
//! the SSE2 and AVX2 shuffles both in and chosen at run time), with LZ4 1.10
//! of `lz4-sys`, one thread, beside `blosc-lz4`: numcodecs' default settings
//! (lz4, clevel 5, byte shuffle, the width as typesize). It decodes the
//! frames vecpress writes, a shared format.
// Calls C: unsafe code, each call with its reasons.
#![allow(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:c-blosc";

#[cfg(all(feature = "peers", vecpress_c_blosc))]
pub fn peer() -> ByteSlot {
    Ok(Box::new(imp::CBlosc))
}

#[cfg(not(all(feature = "peers", vecpress_c_blosc)))]
pub fn peer() -> ByteSlot {
    let reason = match option_env!("VECPRESS_CBLOSC_ABSENT") {
        Some(why) if cfg!(feature = "peers") => why.into(),
        _ => super::NO_FEATURE.into(),
    };
    Err(super::Absent {
        name: NAME,
        family: "blosc-lz4",
        reason,
    })
}

#[cfg(all(feature = "peers", vecpress_c_blosc))]
mod imp {
    use core::ffi::{c_char, c_int, c_void};

    use super::NAME;

    unsafe extern "C" {
        /// Compresses `nbytes` of `src` into `dest` (at most `destsize`
        /// bytes) with `numinternalthreads` threads; returns the frame's
        /// size, 0 if it does not fit, or a negative error code.
        fn blosc_compress_ctx(
            clevel: c_int,
            doshuffle: c_int,
            typesize: usize,
            nbytes: usize,
            src: *const c_void,
            dest: *mut c_void,
            destsize: usize,
            compressor: *const c_char,
            blocksize: usize,
            numinternalthreads: c_int,
        ) -> c_int;
        /// Decompresses the frame at `src` into `dest` (at most `destsize`
        /// bytes); returns the bytes written, or a negative error code.
        fn blosc_decompress_ctx(
            src: *const c_void,
            dest: *mut c_void,
            destsize: usize,
            numinternalthreads: c_int,
        ) -> c_int;
    }

    pub struct CBlosc;

    impl super::super::BytePeer for CBlosc {
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
            let out = super::super::room(out, cap);
            // SAFETY: c-blosc reads `input.len()` bytes of `input`, writes at
            // most `cap` bytes to `out`, which holds that many; the compressor
            // name is a NUL-terminated literal.
            let n = unsafe {
                blosc_compress_ctx(
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
            // SAFETY: the frame's stated size is within `input` (checked
            // above), and c-blosc writes at most `out.len()` bytes to `out`.
            let n = unsafe {
                blosc_decompress_ctx(input.as_ptr().cast(), out.as_mut_ptr().cast(), out.len(), 1)
            };
            usize::try_from(n).ok().filter(|&n| n == out.len())
        }

        fn note(&self) -> Option<String> {
            Some(format!(
                "c-blosc 1.21 ({}), one thread",
                env!("VECPRESS_CBLOSC_CFLAGS")
            ))
        }
    }
}
