//! The Stream VByte decoding loop, written once over [`Vector`] and
//! instantiated per ISA (SSSE3/SSE4.1, AVX2, Neon).
//!
//! # Algorithm (paper §4, Fig. 4)
//!
//! ```text
//! key: index of the next control byte, pos: of the next data byte
//! step (LANES control bytes, 4 LANES values):
//!     lane i: data at pos + offset_i, offset_0 = 0, offset_i+1 = offset_i + LENGTH[c_i]
//!     mask lane i = DECODE[c_i]
//!     values = pshufb(data, mask)          // per 16-byte lane
//!     delta: values = prefix_sum(values) + splat(prev); prev = splat(last(values))
//!     store 4 LANES values; key += LANES; pos += sum of LENGTH[c_i]
//! block: 8 control bytes read as one u64 (8 / LANES steps), while 128 bytes
//!     of data remain (the most 8 steps read); a zero u64 (32 values of the
//!     shortest code, common in posting lists) needs no table: its bytes are
//!     zero-extended (pmovzxbd), or, in the 0124 variant, its values are 0
//! then steps while 16 LANES bytes remain (no step reads further)
//! then steps on a copy of the last bytes in a zeroed buffer, while the
//!     data of the step's values is all there
//! ```
//!
//! The kernel never reads outside `data` nor writes outside `out`, decodes
//! only whole groups of four values, and stops where the data runs short:
//! the checked scalar code then finishes or reports the error.
//!
//! The chain from one step to the next is one add (pos += length); the
//! control bytes and their table rows are known ahead. With delta coding the
//! prefix sum within the register is off the chain too; only the add of the
//! previous total and the broadcast of the new one are on it.

use crate::simd::Vector;
use crate::stream_vbyte::tables::Variant;

/// Decodes whole groups from control byte `key` and data byte `pos` while
/// steps of `W::LANES` control bytes remain and their data is in `data`;
/// returns the new `(key, pos)`. With `DELTA` the values are the running
/// sum from `*prev`, updated.
///
/// # Safety
/// The CPU supports `W`'s instruction set; `out.len() >= 4 * control.len()`;
/// `key <= control.len()`, `pos <= data.len()`.
#[inline(always)]
pub(super) unsafe fn decode_groups<W: Vector, V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    mut key: usize,
    mut pos: usize,
    prev: &mut u32,
    runs: &impl OneByteRuns<W>,
) -> (usize, usize) {
    debug_assert!(out.len() >= 4 * control.len() && key <= control.len() && pos <= data.len());
    let lanes = W::LANES;
    let keys = control.len();
    let end = data.len();
    let out_ptr = out.as_mut_ptr().cast::<u8>();
    // SAFETY: the CPU supports W (the caller's promise).
    let mut acc = unsafe { W::splat_u32(*prev) };

    // Blocks of 8 control bytes, while the most they can read (8 steps of
    // at most 16 bytes, the last load ending 16 bytes after its start)
    // remains: a compare, not a sum of lengths.
    while key + 8 <= keys && end - pos >= 128 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&control[key..key + 8]);
        let c = u64::from_le_bytes(word);
        if c == 0 {
            if DELTA && V::LENGTH[0] == 4 {
                // SAFETY: key <= keys, pos <= end; `out` holds 4 values per
                // control byte; the CPU supports W.
                let (k, p) = unsafe { runs.run(control, data, out_ptr, key, pos, &mut acc) };
                if k != key {
                    (key, pos) = (k, p);
                    continue;
                }
            }
            // 32 values of the shortest code (posting lists): one byte each,
            // zero-extended with no table; or, in the 0124 variant, zeros.
            for _ in 0..8 / lanes {
                // SAFETY: `4 lanes` bytes at `pos` are inside the 128 that
                // remain; key + lanes <= keys; the CPU supports W.
                unsafe {
                    let mut values = if V::LENGTH[0] == 0 {
                        W::splat_u32(0)
                    } else {
                        W::widen_u8(data.as_ptr().add(pos))
                    };
                    if DELTA {
                        values = values.prefix_sum_u32().add_u32(acc);
                        acc = values.splat_last_u32();
                    }
                    values.store(out_ptr.add(16 * key));
                }
                pos += lanes * V::LENGTH[0] as usize;
                key += lanes;
            }
            continue;
        }
        for s in 0..8 / lanes {
            // SAFETY: the block's loads end within `pos + 128 <= end`; key +
            // lanes <= keys; the CPU supports W.
            pos += unsafe {
                step::<W, V, DELTA>(
                    c >> (8 * lanes * s),
                    data.as_ptr(),
                    pos,
                    out_ptr,
                    key,
                    &mut acc,
                )
            };
            key += lanes;
        }
    }
    // Single steps while a full register of data remains.
    while key + lanes <= keys && end - pos >= 16 * lanes {
        let c = group(control, key, lanes);
        // SAFETY: every load ends within `pos + 16 lanes <= end`; key +
        // lanes <= keys; the CPU supports W.
        pos += unsafe { step::<W, V, DELTA>(c, data.as_ptr(), pos, out_ptr, key, &mut acc) };
        key += lanes;
    }
    // The last bytes, copied to a zeroed buffer with room for any load.
    if key + lanes <= keys && end - pos < 16 * lanes {
        let rest = end - pos;
        let mut buf = [0u8; 128];
        buf[..rest].copy_from_slice(&data[pos..]);
        let mut at = 0;
        while key + lanes <= keys {
            let c = group(control, key, lanes);
            let need: usize = (0..lanes)
                .map(|i| V::LENGTH[(c >> (8 * i)) as u8 as usize] as usize)
                .sum();
            // Every load starts at or before `at + need <= rest < 16 lanes`
            // and ends within 32 lanes <= 128 bytes.
            if at + need > rest {
                break;
            }
            // SAFETY: as said above, every load is inside `buf`; key + lanes
            // <= keys; the CPU supports W.
            at += unsafe { step::<W, V, DELTA>(c, buf.as_ptr(), at, out_ptr, key, &mut acc) };
            key += lanes;
        }
        pos += at;
    }
    if DELTA {
        // SAFETY: the CPU supports W.
        *prev = unsafe { acc.last_u32() };
    }
    (key, pos)
}

/// One step of `W::LANES` control bytes from `c` (byte i = control byte
/// `key + i`), their data at `src + at`, the values stored at value `4 key`
/// of `out`; returns the data bytes consumed.
///
/// # Safety
/// The CPU supports `W`; the 16 bytes from each lane's data offset are
/// readable at `src`; `out` has room for `4 LANES` values at `4 key`.
#[inline(always)]
unsafe fn step<W: Vector, V: Variant, const DELTA: bool>(
    c: u64,
    src: *const u8,
    at: usize,
    out: *mut u8,
    key: usize,
    acc: &mut W,
) -> usize {
    let mut offsets = [0usize; 4];
    let mut rows = [0usize; 4];
    let mut len = 0;
    for i in 0..W::LANES {
        let k = (c >> (8 * i)) as u8 as usize;
        offsets[i] = at + len;
        rows[i] = 16 * k;
        len += V::LENGTH[k] as usize;
    }
    // SAFETY: the caller's promises; the rows are inside DECODE (256 rows of
    // 16 bytes).
    unsafe {
        let v = W::load_lanes(src, offsets);
        let mask = W::load_lanes(V::DECODE.as_ptr().cast(), rows);
        let mut values = v.shuffle_lanes(mask);
        if DELTA {
            values = values.prefix_sum_u32().add_u32(*acc);
            *acc = values.splat_last_u32();
        }
        values.store(out.add(16 * key));
    }
    len
}

/// A kernel's faster path for runs of one-byte gaps (delta coding, the
/// standard format's zero control bytes), tried where a zero control word
/// starts.
pub(super) trait OneByteRuns<W> {
    /// Decodes the whole runs it can from control byte `key` and data byte
    /// `pos`, each value the running sum from `acc` (updated); returns the
    /// new `(key, pos)`, unchanged when it decoded nothing.
    ///
    /// # Safety
    /// The CPU supports `W`; `key <= control.len()`, `pos <= data.len()`;
    /// `out` is writable for 4 u32 values per control byte.
    unsafe fn run(
        &self,
        control: &[u8],
        data: &[u8],
        out: *mut u8,
        key: usize,
        pos: usize,
        acc: &mut W,
    ) -> (usize, usize);
}

/// No faster path: every run goes through the steps.
pub(super) struct NoRuns;

impl<W> OneByteRuns<W> for NoRuns {
    #[inline(always)]
    unsafe fn run(
        &self,
        _: &[u8],
        _: &[u8],
        _: *mut u8,
        key: usize,
        pos: usize,
        _: &mut W,
    ) -> (usize, usize) {
        (key, pos)
    }
}

/// Control bytes `key..key + lanes` as the low bytes of a u64.
#[inline(always)]
fn group(control: &[u8], key: usize, lanes: usize) -> u64 {
    control[key..key + lanes]
        .iter()
        .rev()
        .fold(0, |c, &k| c << 8 | u64::from(k))
}
