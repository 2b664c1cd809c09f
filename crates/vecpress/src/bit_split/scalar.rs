//! The portable bit transposition: the reference every kernel is tested
//! against, written as the definition reads (one 8 x 8 bit matrix at a time).
#![forbid(unsafe_code)]

/// Transposes the 8 x 8 bit matrix held in `x`, byte `m` being row `m` and
/// bit `b` of it column `b`: afterwards byte `b` holds bit `b` of every
/// input byte, input byte `m`'s bit at position `m`. Three rounds swap
/// 1 x 1, 2 x 2 and 4 x 4 sub-blocks across the diagonal (Hacker's Delight,
/// section 7-3).
#[inline(always)]
pub(super) fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

/// Transposes every 8-byte word of `buf` from byte `from` on (a multiple
/// of 8), as [`transpose8`] does.
pub(super) fn transpose_words(buf: &mut [u8], from: usize) {
    for w in buf[from..].chunks_exact_mut(8) {
        let x = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        w.copy_from_slice(&transpose8(x).to_le_bytes());
    }
}

/// Turns columns `from..` of the 8 rows of `rows` (each `rows.len() / 8`
/// bytes) into their stream's bytes `8 * from..` in `out`: byte `m` of
/// column `g`'s transposed word is the stream's byte `8 g + m`.
pub(super) fn rows_to_stream(rows: &[u8], out: &mut [u8], from: usize) {
    let r = rows.len() / 8;
    for g in from..r {
        let mut x = 0u64;
        for b in 0..8 {
            x |= u64::from(rows[b * r + g]) << (8 * b);
        }
        out[8 * g..8 * g + 8].copy_from_slice(&transpose8(x).to_le_bytes());
    }
}

/// The inverse of [`rows_to_stream`]: the stream's bytes `8 * from..` of
/// `stream` into columns `from..` of the 8 rows of `rows`.
pub(super) fn stream_to_rows(stream: &[u8], rows: &mut [u8], from: usize) {
    let r = stream.len() / 8;
    for g in from..r {
        let w = stream[8 * g..8 * g + 8].try_into().unwrap_or([0; 8]);
        let x = transpose8(u64::from_le_bytes(w));
        for b in 0..8 {
            rows[b * r + g] = (x >> (8 * b)) as u8;
        }
    }
}

/// Bit-shuffles one block: `input` holds `n` values of `width` bytes, `n` a
/// multiple of 8; bit `b` of byte `j` of value `i` goes to bit `i % 8` of
/// byte `i / 8` of row `8 * j + b`, each row `n / 8` bytes long.
pub(super) fn encode_block(input: &[u8], width: usize, out: &mut [u8]) {
    encode_columns(input, width, out, 0);
}

/// [`encode_block`] for the columns (bytes of each row) `from..` only.
/// Inlined, so that [`encode_block`]'s loop starts at a constant.
#[inline(always)]
pub(super) fn encode_columns(input: &[u8], width: usize, out: &mut [u8], from: usize) {
    let row = input.len() / width / 8;
    for j in 0..width {
        for g in from..row {
            let mut x = 0u64;
            for m in 0..8 {
                x |= u64::from(input[(8 * g + m) * width + j]) << (8 * m);
            }
            let x = transpose8(x);
            for b in 0..8 {
                out[(8 * j + b) * row + g] = (x >> (8 * b)) as u8;
            }
        }
    }
}

/// The inverse of [`encode_block`].
pub(super) fn decode_block(input: &[u8], width: usize, out: &mut [u8]) {
    decode_columns(input, width, out, 0);
}

/// [`decode_block`] for the columns (bytes of each row) `from..` only.
/// Inlined, so that [`decode_block`]'s loop starts at a constant.
#[inline(always)]
pub(super) fn decode_columns(input: &[u8], width: usize, out: &mut [u8], from: usize) {
    let row = input.len() / width / 8;
    for j in 0..width {
        for g in from..row {
            let mut x = 0u64;
            for b in 0..8 {
                x |= u64::from(input[(8 * j + b) * row + g]) << (8 * b);
            }
            let x = transpose8(x);
            for m in 0..8 {
                out[(8 * g + m) * width + j] = (x >> (8 * m)) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose8_moves_each_bit_across_the_diagonal() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..1000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let y = transpose8(seed);
            for m in 0..8 {
                for b in 0..8 {
                    assert_eq!((seed >> (8 * m + b)) & 1, (y >> (8 * b + m)) & 1);
                }
            }
            assert_eq!(transpose8(y), seed);
        }
    }
}
