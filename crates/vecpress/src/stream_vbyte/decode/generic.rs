//! The Stream VByte decoding loop, written once over [`Vector`] and
//! instantiated per ISA (SSSE3/SSE4.1, and VEX-encoded at the AVX2 and
//! AVX-512 levels, on `__m128i`; Neon on `uint8x16_t`).
//!
//! # Algorithm (paper §4, Fig. 4)
//!
//! ```text
//! key: index of the next control byte, pos: of the next data byte
//! step (control byte c, 4 values):
//!     values = pshufb(16 data bytes at pos, DECODE[c])
//!     delta: values = prefix_sum(values) + splat(prev); prev = splat(last(values))
//!     store 4 values; key += 1; pos += LENGTH[c]
//! block: 8 control bytes read as one u64 (8 steps), while the data
//!     it reads remains (128 bytes, or near the end the data of its first 7
//!     groups and 16 bytes); a zero u64 (32 values of the
//!     shortest code, common in posting lists) needs no table: its bytes are
//!     zero-extended (pmovzxbd), or, in the 0124 variant, its values are 0
//! then steps while 16 bytes remain (no step reads further)
//! then steps on the window of the last 16 data bytes,
//!     each mask's indices moved up by where the step's data starts in it
//!     (pshufb with a saturating add), while the step's data is all there
//! ```
//!
//! The kernel never reads outside `data` nor writes outside `out`, decodes
//! only whole groups of four values, and stops where the data runs short:
//! the checked scalar code then finishes or reports the error.
//!
//! The chain from one step to the next is one add (pos += length); the
//! control bytes and their table rows are known ahead. With delta coding the
//! running total is one add on the chain too: each step adds it to its
//! prefix sums, and adds to it the step's own total (its last sum
//! broadcast), computed off the chain, where adding the total to the sums
//! first and broadcasting the last of them would put an add and a shuffle
//! on it.

use crate::simd::Vector;
use crate::stream_vbyte::tables::Variant;

/// Decodes groups from control byte `key` and data byte `pos` while their
/// data is in `data`, to the last value of `out` if its data is all there;
/// returns the new `(key, pos)`. With `DELTA` the values are the running
/// sum from `*prev`, updated.
///
/// # Safety
/// The CPU supports `W`'s instruction set; `control.len() ==
/// out.len().div_ceil(4)`; `key <= out.len() / 4`, `pos <= data.len()`.
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
    debug_assert!(control.len() == out.len().div_ceil(4));
    let keys = out.len() / 4;
    debug_assert!(key <= keys && pos <= data.len());
    let end = data.len();
    let out_ptr = out.as_mut_ptr().cast::<u8>();
    // SAFETY: the CPU supports W (the caller's promise).
    let mut acc = unsafe { W::splat_u32(*prev) };

    while key + 8 <= keys {
        let Some(c) = block_word::<V>(control, key, end - pos) else {
            break;
        };
        if c == 0 {
            if DELTA && V::LENGTH[0] == 4 {
                // SAFETY: key <= keys, pos <= end; `out` holds 4 values per
                // control byte; the CPU supports W.
                let (k, p) =
                    unsafe { runs.run(&control[..keys], data, out_ptr, key, pos, &mut acc) };
                if k != key {
                    (key, pos) = (k, p);
                    continue;
                }
            }
            // 32 values of the shortest code (posting lists): one byte each,
            // zero-extended with no table; or, in the 0124 variant, zeros.
            for _ in 0..8 {
                // SAFETY: 4 bytes at `pos` are inside the 128 that remain;
                // key < keys; the CPU supports W.
                unsafe {
                    let values = if V::LENGTH[0] == 0 {
                        W::splat_u32(0)
                    } else {
                        W::widen_u8(data.as_ptr().add(pos))
                    };
                    running::<W, DELTA>(values, &mut acc).store(out_ptr.add(16 * key));
                }
                pos += V::LENGTH[0] as usize;
                key += 1;
            }
            continue;
        }
        for s in 0..8 {
            let k = usize::from((c >> (8 * s)) as u8);
            // SAFETY: the block's loads end within the data (`block_word`);
            // key < keys; the CPU supports W.
            unsafe {
                step::<W, V, DELTA>(k, data.as_ptr().add(pos), out_ptr.add(16 * key), &mut acc);
            }
            pos += V::LENGTH[k] as usize;
            key += 1;
        }
    }
    // Single steps while 16 data bytes remain.
    while key < keys && end - pos >= 16 {
        let k = usize::from(control[key]);
        // SAFETY: the load ends within `pos + 16 <= end`; key < keys; the
        // CPU supports W.
        unsafe { step::<W, V, DELTA>(k, data.as_ptr().add(pos), out_ptr.add(16 * key), &mut acc) };
        pos += V::LENGTH[k] as usize;
        key += 1;
    }
    // SAFETY: as this function's; the steps above leave `key == keys` or
    // fewer than 16 data bytes.
    (key, pos) = unsafe { last_groups::<W, V, DELTA>(control, data, out, key, pos, &mut acc) };
    if DELTA {
        // SAFETY: the CPU supports W.
        *prev = unsafe { acc.last_u32() };
    }
    (key, pos)
}

/// The 8 control bytes from `key` as a little-endian u64, if the loads of
/// their block, 16 bytes where each group's data starts, stay within the
/// `remaining` data bytes: the last ends 16 bytes after the start of the
/// last group's data, at most 128 bytes on (nearer the end of the data,
/// that sum).
#[inline(always)]
pub(super) fn block_word<V: Variant>(control: &[u8], key: usize, remaining: usize) -> Option<u64> {
    let mut word = [0u8; 8];
    word.copy_from_slice(&control[key..key + 8]);
    let c = u64::from_le_bytes(word);
    let reach = V::len8(c & u64::MAX >> 8) - V::LENGTH[0] as usize + 16;
    (remaining >= 128 || remaining >= reach).then_some(c)
}

/// The last groups, and the last partial one, on one
/// window of the 16 bytes that end where the data ends (or from `pos` if 16
/// remain there, or all of a shorter data, zero-padded), each group's mask
/// indices moved up by where its data starts in the window. Stops at a
/// group whose data is not all there; returns the new `(key, pos)`, `key`
/// past the partial group when it decoded it.
///
/// # Safety
/// As [`decode_groups`], and `key == out.len() / 4`
/// or `data.len() - pos < 16`.
#[inline(always)]
unsafe fn last_groups<W: Vector, V: Variant, const DELTA: bool>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    mut key: usize,
    mut pos: usize,
    acc: &mut W,
) -> (usize, usize) {
    let (n, end) = (out.len(), data.len());
    if key == control.len() {
        return (key, pos);
    }
    let (bytes, base) = if end >= 16 {
        let base = if end - pos >= 16 { pos } else { end - 16 };
        // SAFETY: the 16 bytes at `base` are in `data`; the CPU supports W.
        (unsafe { W::load(data.as_ptr().add(base)) }, base)
    } else {
        // SAFETY: the CPU supports W.
        (unsafe { W::from_u128(short_le(data)) }, 0)
    };
    // The group's data is at window bytes `pos - base..pos - base + len`,
    // inside the window when `len <= end - pos`: its mask indices stay
    // below 16 after the move (no saturation), the others stay 255.
    let decode = |k: usize, pos: usize, acc: &mut W| {
        // SAFETY: the row is inside DECODE (256 rows of 16 bytes); the CPU
        // supports W.
        unsafe {
            let mask = row::<W, V>(k).add_sat_u8((pos - base) as u8);
            running::<W, DELTA>(bytes.shuffle(mask), acc)
        }
    };
    while key < n / 4 {
        let k = control[key] as usize;
        let len = V::LENGTH[k] as usize;
        if len > end - pos {
            return (key, pos);
        }
        let values = decode(k, pos, acc);
        // SAFETY: `out` holds 4 values at `4 key` (key < n / 4).
        unsafe { values.store(out.as_mut_ptr().add(4 * key).cast()) };
        pos += len;
        key += 1;
    }
    // The partial group: only its first `rest` codes count.
    let rest = n % 4;
    if rest == 0 {
        return (key, pos);
    }
    let k = control[key] as usize;
    let len: usize = (0..rest).map(|i| V::LENS[k >> (2 * i) & 3]).sum();
    if len > end - pos {
        return (key, pos);
    }
    let mut last = [0u32; 4];
    // SAFETY: `last` holds 16 bytes; the CPU supports W.
    unsafe { decode(k, pos, acc).store(last.as_mut_ptr().cast()) };
    // Element by element: a copy of `rest` values would call memcpy.
    let tail = &mut out[4 * key..];
    tail[0] = last[0];
    if rest > 1 {
        tail[1] = last[1];
    }
    if rest > 2 {
        tail[2] = last[2];
    }
    if DELTA {
        // SAFETY: the CPU supports W.
        *acc = unsafe { W::splat_u32(last[rest - 1]) };
    }
    (key + 1, pos + len)
}

/// Decodes the `n` gaps of a short stream (`control` its control bytes,
/// `data` what follows them) into their running sum from `prev`, the first
/// `n` of `out`, 16 bytes a step with no tail: each group's data read from
/// the window of 16 bytes at its start, or at the end of the data where
/// fewer than 16 remain (its mask's indices moved up by where it starts
/// there, as [`last_groups`] reads the last groups; a whole data shorter
/// than 16 is one window, read once), the partial group's codes past `n`
/// counting no bytes. Values are stored four at a time, past `n` too where
/// `out` has room for them. Returns the data bytes consumed and the last
/// value, or `None` when the data ends before the values do (`out` may
/// hold some of them). Its branches depend on the count alone, where the
/// kernels' loops, their last groups and the scalar tail take many for a
/// list of a few dozen values.
///
/// # Safety
/// The CPU supports `W`; `n <= out.len()`; `control.len() >= n.div_ceil(4)`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn short_delta<W: Vector, V: Variant>(
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
) -> Option<(usize, u32)> {
    debug_assert!(n <= out.len() && control.len() >= n.div_ceil(4));
    let end = data.len();
    // A data shorter than 16 bytes is one window, read once.
    // SAFETY: the CPU supports W (the caller's promise).
    let small = (end < 16).then(|| unsafe { W::from_u128(short_le(data)) });
    let window = |pos: usize| -> (W, u8) {
        match small {
            Some(bytes) => (bytes, pos as u8),
            None => {
                let base = pos.min(end - 16);
                // SAFETY: the 16 bytes at `base <= end - 16` are in `data`;
                // the CPU supports W.
                let bytes = unsafe { W::load(data.as_ptr().add(base)) };
                (bytes, (pos - base) as u8)
            }
        }
    };
    // The group's data at window bytes `shift..shift + len`, inside it when
    // `len <= end - pos`: its mask's indices stay below 16 after the move.
    let decode = |k: usize, (bytes, shift): (W, u8), acc: &mut W| {
        // SAFETY: the row is inside DECODE (256 rows of 16 bytes); the CPU
        // supports W.
        unsafe { running::<W, true>(bytes.shuffle(row::<W, V>(k).add_sat_u8(shift)), acc) }
    };
    // SAFETY: the CPU supports W.
    let mut acc = unsafe { W::splat_u32(prev) };
    let mut pos = 0;
    let groups = n / 4;
    for (key, &c) in control[..groups].iter().enumerate() {
        let k = usize::from(c);
        let len = usize::from(V::LENGTH[k]);
        if len > end - pos {
            return None;
        }
        let values = decode(k, window(pos), &mut acc);
        // SAFETY: `out` holds the group's 4 values (4 key + 4 <= n <=
        // out.len()); the CPU supports W.
        unsafe { values.store(out.as_mut_ptr().add(4 * key).cast()) };
        pos += len;
    }
    let rest = n % 4;
    if rest == 0 {
        // SAFETY: the CPU supports W.
        return Some((pos, unsafe { acc.last_u32() }));
    }
    // The partial group: its codes past `n` (zeroed) count no bytes.
    let k = usize::from(control[groups] & !(0xff << (2 * rest)));
    let len = usize::from(V::LENGTH[k]) - (4 - rest) * V::LENS[0];
    if len > end - pos {
        return None;
    }
    let values = decode(k, window(pos), &mut acc);
    let tail = &mut out[4 * groups..];
    if tail.len() >= 4 {
        // SAFETY: `tail` holds 4 values; the CPU supports W.
        unsafe { values.store(tail.as_mut_ptr().cast()) };
        return Some((pos + len, tail[rest - 1]));
    }
    let mut last = [0u32; 4];
    // SAFETY: `last` holds 16 bytes; the CPU supports W.
    unsafe { values.store(last.as_mut_ptr().cast()) };
    tail[..rest].copy_from_slice(&last[..rest]);
    Some((pos + len, last[rest - 1]))
}

/// The most values a list may hold for [`short_lists`]: longer lists go
/// through the kernels, whose set-up a list this short would not repay.
#[cfg(target_arch = "x86_64")]
pub(super) const SHORT_LIST: usize = 64;

/// Decodes delta-coded lists, each whole stream in `bytes` from its
/// `(start, count)` and its values the running sum of its gaps from 0,
/// one after another into `out`, by a short-stream kernel (`kernel(control,
/// data, out, n)`, as [`short_delta`]), while each holds at most
/// [`SHORT_LIST`] values and all its bytes are there; returns how many
/// lists it decoded and the values it wrote. The list it stops at is the
/// caller's. It may write values past those it decodes (of no use), as
/// far as `out` goes. Inlined into each level's function, with its kernel.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn short_lists(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
    mut kernel: impl FnMut(&[u8], &[u8], &mut [u32], usize) -> Option<(usize, u32)>,
) -> (usize, usize) {
    let mut at = 0;
    for (i, &(start, n)) in lists.iter().enumerate() {
        let clen = n.div_ceil(4);
        if n > SHORT_LIST || start > bytes.len() || clen > bytes.len() - start || n > out.len() - at
        {
            return (i, at);
        }
        let (control, data) = bytes[start..].split_at(clen);
        // Values stored past the list's are the next lists' to write.
        if kernel(control, data, &mut out[at..], n).is_none() {
            return (i, at);
        }
        at += n;
    }
    (lists.len(), at)
}

/// The bytes of `data` (fewer than 16) as a little-endian number, from two
/// overlapping loads (no copy through memory that a vector load would then
/// wait on).
#[inline(always)]
fn short_le(data: &[u8]) -> u128 {
    let n = data.len();
    debug_assert!(n < 16);
    if n >= 8 {
        let lo = u64::from_le_bytes(data[..8].try_into().unwrap());
        let hi = u64::from_le_bytes(data[n - 8..].try_into().unwrap());
        u128::from(lo) | u128::from(hi) << (8 * (n - 8))
    } else if n >= 4 {
        let lo = u32::from_le_bytes(data[..4].try_into().unwrap());
        let hi = u32::from_le_bytes(data[n - 4..].try_into().unwrap());
        u128::from(lo) | u128::from(hi) << (8 * (n - 4))
    } else {
        data.iter().rev().fold(0, |v, &b| v << 8 | u128::from(b))
    }
}

/// One step: the group of control byte `c`, its data at `src`, its values
/// stored at `out`.
///
/// # Safety
/// The CPU supports `W`; the 16 bytes at `src` are readable, and the 16 at
/// `out` writable.
#[inline(always)]
unsafe fn step<W: Vector, V: Variant, const DELTA: bool>(
    c: usize,
    src: *const u8,
    out: *mut u8,
    acc: &mut W,
) {
    // SAFETY: the caller's promises.
    unsafe { running::<W, DELTA>(W::load(src).shuffle(row::<W, V>(c)), acc).store(out) }
}

/// The `DECODE` row of control byte `c`: the shuffle that moves a group's
/// data bytes (from byte 0) into its four u32 values.
///
/// # Safety
/// The CPU supports `W`.
#[inline(always)]
pub(crate) unsafe fn row<W: Vector, V: Variant>(c: usize) -> W {
    // SAFETY: the row is 16 bytes; the CPU supports W (the caller's promise).
    unsafe { W::load(V::DECODE[c].as_ptr()) }
}

/// A group's four values as stored: with `DELTA`, `values` are gaps and
/// become their running sum from `acc` (the previous value in every
/// element), which takes their total, one add on the chain from step to
/// step; otherwise `values` unchanged.
///
/// # Safety
/// The CPU supports `W`.
#[inline(always)]
pub(crate) unsafe fn running<W: Vector, const DELTA: bool>(values: W, acc: &mut W) -> W {
    if !DELTA {
        return values;
    }
    // SAFETY: the CPU supports W (the caller's promise).
    unsafe {
        let sums = values.prefix_sum_u32();
        let values = sums.add_u32(*acc);
        *acc = acc.add_u32(sums.splat_last_u32());
        values
    }
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
#[cfg(target_arch = "aarch64")]
pub(super) struct NoRuns;

#[cfg(target_arch = "aarch64")]
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

#[cfg(test)]
mod tests {
    use super::short_le;

    #[test]
    fn short_le_reads_every_byte_in_place() {
        let bytes: Vec<u8> = (1..=15).map(|b| b * 13).collect();
        for n in 0..16 {
            let slow = bytes[..n]
                .iter()
                .enumerate()
                .fold(0u128, |v, (i, &b)| v | u128::from(b) << (8 * i));
            assert_eq!(short_le(&bytes[..n]), slow, "{n}");
        }
    }
}
