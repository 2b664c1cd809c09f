//! `peer:maskedvbyte-c`: lemire's reference MaskedVByte in C (Plaisance,
//! Kurz, Lemire 2015), compiled by build.rs from the sources that the
//! `maskedvbyte-sys` package ships. Its delta decoder is its own
//! (`masked_vbyte_decode_delta`).
//!
//! The only unsafe code of the CLI: two calls into C.
#![allow(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:maskedvbyte-c";

#[cfg(all(feature = "peers", vecpress_maskedvbyte_c))]
pub fn peer() -> Slot {
    if std::arch::is_x86_feature_detected!("sse4.1") {
        Ok(Box::new(MaskedVByteC))
    } else {
        Err(super::Absent {
            name: NAME,
            family: "vbyte",
            reason: "this CPU lacks SSE4.1, which the C decoder was compiled for".into(),
        })
    }
}

#[cfg(not(all(feature = "peers", vecpress_maskedvbyte_c)))]
pub fn peer() -> Slot {
    let reason = match option_env!("VECPRESS_MASKEDVBYTE_ABSENT") {
        Some(why) if cfg!(feature = "peers") => why.into(),
        _ => super::NO_FEATURE.into(),
    };
    Err(super::Absent {
        name: NAME,
        family: "vbyte",
        reason,
    })
}

#[cfg(all(feature = "peers", vecpress_maskedvbyte_c))]
mod ffi {
    unsafe extern "C" {
        /// Decodes `length` u32 varints from `input` into `out`; returns the bytes read.
        pub fn masked_vbyte_decode(input: *const u8, out: *mut u32, length: u64) -> usize;
        /// Same, writing the running sum of the gaps from `prev`.
        pub fn masked_vbyte_decode_delta(
            input: *const u8,
            out: *mut u32,
            length: u64,
            prev: u32,
        ) -> usize;
    }
}

#[cfg(all(feature = "peers", vecpress_maskedvbyte_c))]
struct MaskedVByteC;

#[cfg(all(feature = "peers", vecpress_maskedvbyte_c))]
impl super::Peer for MaskedVByteC {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        if input.len() < super::min_input_len(out.len()) {
            return None;
        }
        // SAFETY: `peer()` checked SSE4.1, the level the C code was compiled for.
        // The decoder writes exactly `out.len()` values (its SIMD groups write only
        // while at least 16 values remain) and reads at most 5 bytes per value plus
        // a 48-byte look-ahead, all within `input`, checked above to hold
        // `5 * out.len() + 64` bytes, whatever they contain.
        let consumed =
            unsafe { ffi::masked_vbyte_decode(input.as_ptr(), out.as_mut_ptr(), out.len() as u64) };
        (consumed <= input.len()).then_some(consumed)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        if input.len() < super::min_input_len(out.len()) {
            return None;
        }
        // SAFETY: as in `decode`: same reads and writes, the prefix sum adds none.
        let consumed = unsafe {
            ffi::masked_vbyte_decode_delta(input.as_ptr(), out.as_mut_ptr(), out.len() as u64, 0)
        };
        (consumed <= input.len()).then_some(consumed)
    }

    fn note(&self) -> Option<String> {
        Some(format!(
            "C compiled with {}",
            env!("VECPRESS_MASKEDVBYTE_CFLAGS")
        ))
    }
}
