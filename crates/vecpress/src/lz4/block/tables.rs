//! Tables of the decoders' copies of overlapping matches, computed at compile
//! time.
//!
//! A match whose offset `n` is smaller than the copy width repeats the
//! pattern of its last `n` output bytes. After the first `k` bytes of such a
//! match are written, the rest can be copied in chunks of `k` bytes from
//! `DISTANCE[n]` bytes back, the smallest multiple of `n` that is at least
//! `k`: a copy from there reads only bytes already written and continues the
//! pattern in phase.
#![forbid(unsafe_code)]

/// The smallest multiple of `n` that is at least `k`, for `n` in `1..32`
/// (entry 0 unused).
const fn distances(k: usize) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut n = 1;
    while n < 32 {
        t[n] = k.div_ceil(n).saturating_mul(n) as u8;
        n += 1;
    }
    t
}

/// [`distances`] for 4 bytes written.
pub(super) static DISTANCE_4: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(distances(4));
/// [`distances`] for 8 bytes written.
pub(super) static DISTANCE_8: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(distances(8));
/// [`distances`] for 16 bytes written.
pub(super) static DISTANCE_16: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(distances(16));
/// [`distances`] for 32 bytes written (the AVX2 loop's).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) static DISTANCE_32: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(distances(32));

/// The largest multiple of `n` that is at most `k`, for `n` in `1..k`
/// (entry 0 and entries from `k` on unused): the first `k` bytes of a match
/// of offset `n`, stored again every that many bytes, write the rest of it.
const fn steps(k: usize) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut n = 1;
    while n < k {
        t[n] = (k - k % n) as u8;
        n += 1;
    }
    t
}

/// [`steps`] of 8 bytes.
pub(super) static STEP_8: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(steps(8));
/// [`steps`] of 16 bytes.
pub(super) static STEP_16: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(steps(16));
/// [`steps`] of 32 bytes (the AVX2 loop's).
pub(super) static STEP_32: crate::simd::Aligned<[u8; 32]> = crate::simd::Aligned(steps(32));

/// The [`steps`] table of `k`-byte copies (8, 16 or 32).
pub(super) fn steps_of(k: usize) -> &'static [u8; 32] {
    match k {
        8 => &STEP_8,
        16 => &STEP_16,
        _ => &STEP_32,
    }
}

/// For each offset `n` in `1..16`, the shuffle (pshufb, Neon `tbl`) that
/// fills 16 bytes with the pattern of `n` bytes: byte `i` takes byte `i % n`
/// (row 0 unused).
pub(super) static PATTERN_16: crate::simd::Aligned<[[u8; 16]; 16]> =
    crate::simd::Aligned(patterns(false));

/// For each offset `n` in `1..16`, the 32-byte shuffle (AVX2 `vpshufb`, on
/// the `n` bytes' 16-byte load in both lanes) that fills 32 bytes with their
/// pattern: byte `i` takes byte `i % n` (row 0 unused). The AVX2 loop makes
/// the first 32 bytes of a match in one register and one store, so that the
/// 32-byte load that copies them on reads what one store wrote.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) static PATTERN_32: crate::simd::Aligned<[[u8; 32]; 16]> =
    crate::simd::Aligned(patterns(false));

/// [`PATTERN_32`] for the 16 bytes that end where the pattern ends: byte
/// `i` takes byte `16 - n + i % n` (row 0 unused).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) static PATTERN_END_32: crate::simd::Aligned<[[u8; 32]; 16]> =
    crate::simd::Aligned(patterns(true));

/// Two windows of 32 bytes, read 16 bytes at a time from `16 - m` for `m` in
/// `0..16`, that join the last `m` bytes of one 16-byte register with the
/// first `16 - m` of another: row 0 (`0, 1, .., 15`, then 16 zeroing
/// indices) shuffles the first register's bytes `16 - m ..` into bytes
/// `0 .. m`, row 1 (16 zeroing indices, then `0, 1, .., 15`) the second's
/// bytes `0 .. 16 - m` into bytes `m ..`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) static JOIN_16: crate::simd::Aligned<[[u8; 32]; 2]> = crate::simd::Aligned(joins());

const fn joins() -> [[u8; 32]; 2] {
    let mut t = [[0x80u8; 32]; 2];
    let mut i = 0;
    while i < 16 {
        t[0][i] = i as u8;
        t[1][16 + i] = i as u8;
        i += 1;
    }
    t
}

/// Rows of `W` bytes for the offsets `n` in `1..16`: byte `i` is `i % n`,
/// or with `at_end` (a pattern that ends a 16-byte load) `16 - n + i % n`.
const fn patterns<const W: usize>(at_end: bool) -> [[u8; W]; 16] {
    let mut t = [[0u8; W]; 16];
    let mut n = 1;
    while n < 16 {
        let first = if at_end { 16 - n } else { 0 };
        let mut i = 0;
        while i < W {
            t[n][i] = (first + i % n) as u8;
            i += 1;
        }
        n += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_the_least_multiples_not_below_k() {
        for (k, table) in [
            (4, &DISTANCE_4),
            (8, &DISTANCE_8),
            (16, &DISTANCE_16),
            (32, &DISTANCE_32),
        ] {
            for (n, &d) in table.iter().enumerate().skip(1) {
                let want = (1..).map(|m| m * n).find(|&d| d >= k).unwrap();
                assert_eq!(usize::from(d), want, "k {k} n {n}");
            }
        }
    }

    #[test]
    fn steps_are_the_greatest_multiples_not_above_k() {
        for k in [8, 16, 32] {
            for (n, &step) in steps_of(k).iter().enumerate().take(k).skip(1) {
                let want = (1..).map(|m| m * n).take_while(|&d| d <= k).last().unwrap();
                assert_eq!(usize::from(step), want, "k {k} n {n}");
            }
        }
    }

    /// `vpshufb` on one register: index `i` takes byte `i % 16` of the
    /// lane, a set top bit gives zero.
    fn shuffle(source: &[u8; 16], index: u8) -> u8 {
        if index & 0x80 != 0 {
            0
        } else {
            source[usize::from(index & 15)]
        }
    }

    #[test]
    fn wide_patterns_repeat_the_first_n_bytes() {
        for (n, row) in PATTERN_32.iter().enumerate().skip(1) {
            let mut source = [0xEEu8; 16];
            for (i, b) in source.iter_mut().take(n).enumerate() {
                *b = i as u8;
            }
            let filled: Vec<u8> = (0..n as u8).cycle().take(32).collect();
            let shuffled: Vec<u8> = row.iter().map(|&i| shuffle(&source, i)).collect();
            assert_eq!(shuffled, filled, "n {n}");
        }
    }

    #[test]
    fn end_patterns_repeat_the_last_n_bytes() {
        for (n, row) in PATTERN_END_32.iter().enumerate().skip(1) {
            let mut source = [0xEEu8; 16];
            for (i, b) in source.iter_mut().skip(16 - n).enumerate() {
                *b = i as u8;
            }
            let filled: Vec<u8> = (0..n as u8).cycle().take(32).collect();
            let shuffled: Vec<u8> = row.iter().map(|&i| shuffle(&source, i)).collect();
            assert_eq!(shuffled, filled, "n {n}");
        }
    }

    #[test]
    fn joins_take_the_last_m_bytes_then_the_first() {
        let a: [u8; 16] = core::array::from_fn(|i| 100 + i as u8);
        let b: [u8; 16] = core::array::from_fn(|i| 200 + i as u8);
        for m in 0..16 {
            let joined: Vec<u8> = (0..16)
                .map(|i| shuffle(&a, JOIN_16[0][16 - m + i]) | shuffle(&b, JOIN_16[1][16 - m + i]))
                .collect();
            let want: Vec<u8> = a[16 - m..].iter().chain(&b[..16 - m]).copied().collect();
            assert_eq!(joined, want, "m {m}");
        }
    }

    #[test]
    fn patterns_repeat_the_first_n_bytes() {
        for (n, row) in PATTERN_16.iter().enumerate().skip(1) {
            let source: Vec<u8> = (0..n as u8).collect();
            let filled: Vec<u8> = source.iter().copied().cycle().take(16).collect();
            let shuffled: Vec<u8> = row.iter().map(|&i| source[i as usize]).collect();
            assert_eq!(shuffled, filled, "n {n}");
        }
    }
}
