//! The AVX2 kernel: the loop of [`super::generic`] on 256-bit groups
//! ([`super::wide`]), both pairs of a control byte spread by one `vpshufb`.
//!
//! ```text
//! x <- (load16(data + pos), load16(data + pos + len(c & 15)))   // a lane each
//! x <- vpshufb(x, LANE_SHUFFLE[c])                             // 4 u64 lanes
//! ```

use core::arch::x86_64::*;

use super::generic;
use super::tables::{LANE_SHUFFLE, PAIR_LENGTHS};
use super::wide::{Spread, Wide};

/// The in-lane shuffle of two 16-byte loads, one at each pair's start.
struct Pshufb;

impl Spread for Pshufb {
    /// `PAIR_LENGTHS` and `LANE_SHUFFLE`.
    type Tables = (&'static [u8; 16], &'static [[u8; 32]; 256]);

    #[inline(always)]
    unsafe fn spread(
        (pair_lengths, lane_shuffle): Self::Tables,
        data: *const u8,
        c: usize,
    ) -> __m256i {
        let mid = pair_lengths[c & 15] as usize;
        // SAFETY: both 16-byte loads end within the 32 readable bytes at
        // `data` (mid <= 16); the mask is a 32-byte row (c < 256); the
        // caller provides AVX2.
        unsafe {
            let x = _mm256_loadu2_m128i(data.add(mid).cast(), data.cast());
            _mm256_shuffle_epi8(x, _mm256_loadu_si256(lane_shuffle[c].as_ptr().cast()))
        }
    }
}

/// Decodes whole control bytes while 32 data bytes remain; returns (data
/// bytes consumed, values produced). With `prev`, writes the running sum
/// from `*prev` and leaves the last value in it.
///
/// # Safety
/// The CPU must have every feature of the Avx2 level (see `isa.rs`).
#[target_feature(enable = "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn decode_bulk(
    ctrl: &[u8],
    data: &[u8],
    out: &mut [u64],
    prev: Option<&mut u64>,
) -> (usize, usize) {
    // SAFETY: this function's contract gives the features `Pshufb` needs.
    unsafe {
        generic::decode_bulk::<Wide<Pshufb>>((&PAIR_LENGTHS, &LANE_SHUFFLE), ctrl, data, out, prev)
    }
}
