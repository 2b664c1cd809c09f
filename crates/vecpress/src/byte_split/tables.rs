//! Byte shuffles within a 16-byte lane, computed at compile time.
//!
//! A narrow width `k` (2 to 8) is padded to `p`, the next power of two, and
//! a lane holds `16 / p` values. [`SPLIT`]`[k]` regroups the bytes of such a
//! lane (its `16 / p` values of `k` bytes, one after the other) so that the
//! bytes of each stream sit together, value order kept: byte `j` of value
//! `v` moves from `v * k + j` to `j * (16 / p) + v`; the `p - k` padding
//! streams are zeros. [`JOIN`]`[k]` is the inverse, its bytes past the
//! lane's `16 / p * k` zeros. Entries 0 and 1 are unused.
#![forbid(unsafe_code)]

/// Byte `d` of the result takes byte `SPLIT[k][d]` of the lane (0x80: zero).
pub(crate) const SPLIT: [[u8; 16]; 9] = {
    let mut t = [[ZERO; 16]; 9];
    let mut k = 2;
    while k <= 8 {
        t[k] = split(k);
        k += 1;
    }
    t
};

/// The inverse of [`SPLIT`].
pub(super) const JOIN: [[u8; 16]; 9] = {
    let mut t = [[ZERO; 16]; 9];
    let mut k = 2;
    while k <= 8 {
        t[k] = join(k);
        k += 1;
    }
    t
};

/// A shuffle index that selects a zero byte (`pshufb` and `tbl` both).
const ZERO: u8 = 0x80;

/// Destination `j * (16 / p) + v` takes source `v * k + j`, for `j < k`.
const fn split(k: usize) -> [u8; 16] {
    let per = 16 / k.next_power_of_two();
    let mut t = [ZERO; 16];
    let mut d = 0;
    while d < 16 {
        let (j, v) = (d / per, d % per);
        if j < k {
            t[d] = (v * k + j) as u8;
        }
        d += 1;
    }
    t
}

/// Destination `v * k + j` takes source `j * (16 / p) + v`, for `v < 16 / p`.
const fn join(k: usize) -> [u8; 16] {
    let per = 16 / k.next_power_of_two();
    let mut t = [ZERO; 16];
    let mut d = 0;
    while d < 16 {
        let (v, j) = (d / k, d % k);
        if v < per {
            t[d] = (j * per + v) as u8;
        }
        d += 1;
    }
    t
}

/// Index of the AVX-512 merge tables: `log2(k)` for the widths 2, 4, 8, 16.
#[cfg(target_arch = "x86_64")]
pub(super) const fn log2(k: usize) -> usize {
    k.trailing_zeros() as usize
}

/// The AVX-512 transposition of 64 values of `k` bytes (`k` = 2, 4, 8, 16)
/// held in `k` registers of 64 bytes (register `r`: values `r * 64 / k..`,
/// one after the other) runs `log2(k)` stages. Stage `s` merges pairs of
/// groups of `2^(s-1)` registers into groups of `2^s`: register `t` of a
/// group of stage `s` holds streams `t * k / 2^s..(t + 1) * k / 2^s` of the
/// group's `2^s * 64 / k` values, stream by stream, in value order. After
/// the last stage register `j` is stream `j` of the 64 values.
///
/// `MERGE[log2(k)][s - 1][h]` is the `vpermt2b` index that makes register
/// `2t + h` of a group from register `t` of its first half (index bytes
/// 0..64) and register `t` of its second half (64..128).
#[cfg(target_arch = "x86_64")]
pub(super) const MERGE: [[[[u8; 64]; 2]; 4]; 5] = stages(false);

/// The inverse of [`MERGE`]: `UNMERGE[log2(k)][s - 1][w]` makes register
/// `t` of half `w` of a group of stage `s - 1` from registers `2t` (index
/// bytes 0..64) and `2t + 1` (64..128) of stage `s`.
#[cfg(target_arch = "x86_64")]
pub(super) const UNMERGE: [[[[u8; 64]; 2]; 4]; 5] = stages(true);

/// [`MERGE`] in 8-byte elements, for `vpermt2q`: from stage 2 on, the
/// stages move runs of at least `2 * 64 / k` (so 8) bytes that start at
/// multiples of 8.
#[cfg(target_arch = "x86_64")]
pub(super) const QMERGE: [[[[u64; 8]; 2]; 4]; 5] = qwords(MERGE);

/// [`UNMERGE`] in 8-byte elements, as [`QMERGE`].
#[cfg(target_arch = "x86_64")]
pub(super) const QUNMERGE: [[[[u64; 8]; 2]; 4]; 5] = qwords(UNMERGE);

/// Byte index tables as 8-byte element tables (the index of each 8-byte
/// group's first byte, over 8); stage 1 is left as zeros (bytes move one
/// by one there).
#[cfg(target_arch = "x86_64")]
const fn qwords(b: [[[[u8; 64]; 2]; 4]; 5]) -> [[[[u64; 8]; 2]; 4]; 5] {
    let mut t = [[[[0u64; 8]; 2]; 4]; 5];
    let mut l = 1;
    while l <= 4 {
        let mut s = 2;
        while s <= l {
            let mut h = 0;
            while h < 2 {
                let mut q = 0;
                while q < 8 {
                    t[l][s - 1][h][q] = (b[l][s - 1][h][8 * q] / 8) as u64;
                    q += 1;
                }
                h += 1;
            }
            s += 1;
        }
        l += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
const fn stages(inverse: bool) -> [[[[u8; 64]; 2]; 4]; 5] {
    let mut t = [[[[0u8; 64]; 2]; 4]; 5];
    let mut l = 1;
    while l <= 4 {
        let mut s = 1;
        while s <= l {
            let mut h = 0;
            while h < 2 {
                t[l][s - 1][h] = if inverse {
                    unmerge(1 << l, s, h)
                } else {
                    merge(1 << l, s, h)
                };
                h += 1;
            }
            s += 1;
        }
        l += 1;
    }
    t
}

/// Byte `p` of register `2t + h` of a group after stage `s`: stream
/// `h * per + p / g` of value `p % g` of the group (`g` values, `per`
/// streams a register), found in the first or second half group's register
/// `t`, whose layout is value by value before stage 1 and stream by stream
/// after.
#[cfg(target_arch = "x86_64")]
const fn merge(k: usize, s: usize, h: usize) -> [u8; 64] {
    let g = (64 / k) << s;
    let per = k >> s;
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 64 {
        let j = h * per + p / g;
        let (half, v) = if p % g < g / 2 {
            (0, p % g)
        } else {
            (64, p % g - g / 2)
        };
        let at = if s == 1 { v * k + j } else { j * (g / 2) + v };
        t[p] = (half + at) as u8;
        p += 1;
    }
    t
}

/// Inverts [`merge`]: where each byte of the first (`w = 0`) or second half
/// group's register went, among the two merged registers.
#[cfg(target_arch = "x86_64")]
const fn unmerge(k: usize, s: usize, w: usize) -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut h = 0;
    while h < 2 {
        let from = merge(k, s, h);
        let mut p = 0;
        while p < 64 {
            let src = from[p] as usize;
            if src / 64 == w {
                t[src % 64] = (h * 64 + p) as u8;
            }
            p += 1;
        }
        h += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies a shuffle to a lane of labels (None: zero byte).
    fn apply<T: Copy>(table: &[u8; 16], lane: &[Option<T>]) -> Vec<Option<T>> {
        table
            .iter()
            .map(|&s| {
                if s & 0x80 != 0 {
                    None
                } else {
                    lane[s as usize]
                }
            })
            .collect()
    }

    #[test]
    fn split_gathers_each_stream_and_join_inverts_it() {
        for k in 2..=8usize {
            let p = k.next_power_of_two();
            let per = 16 / p;
            // Byte j of value v is labelled (v, j); the lane's tail is other values' bytes.
            let mut lane: Vec<Option<(usize, usize)>> = (0..per)
                .flat_map(|v| (0..k).map(move |j| Some((v, j))))
                .collect();
            lane.resize(16, Some((99, 99)));
            let split = apply(&SPLIT[k], &lane);
            for j in 0..p {
                for v in 0..per {
                    let want = (j < k).then_some((v, j));
                    assert_eq!(split[j * per + v], want, "k {k} stream {j} value {v}");
                }
            }
            let joined = apply(&JOIN[k], &split);
            assert_eq!(&joined[..per * k], &lane[..per * k], "k {k}");
            assert!(joined[per * k..].iter().all(Option::is_none), "k {k}");
        }
    }

    /// Runs the AVX-512 stages on labelled registers, the slow way.
    #[cfg(target_arch = "x86_64")]
    fn permute2(idx: &[u8; 64], a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
        idx.iter()
            .map(|&i| {
                if i < 64 {
                    a[i as usize]
                } else {
                    b[i as usize - 64]
                }
            })
            .collect()
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn merge_stages_transpose_and_unmerge_inverts_them() {
        for l in 1..=4usize {
            let k = 1 << l;
            let m = 64 / k;
            // Register r holds values r * m.., byte j of value v labelled (v, j).
            let input: Vec<Vec<(usize, usize)>> = (0..k)
                .map(|r| (0..64).map(|p| (r * m + p / k, p % k)).collect())
                .collect();
            let mut regs = input.clone();
            for s in 1..=l {
                let half = 1 << (s - 1);
                let mut next = regs.clone();
                for base in (0..k).step_by(2 * half) {
                    for t in 0..half {
                        for h in 0..2 {
                            next[base + 2 * t + h] = permute2(
                                &MERGE[l][s - 1][h],
                                &regs[base + t],
                                &regs[base + half + t],
                            );
                        }
                    }
                }
                regs = next;
            }
            for (j, reg) in regs.iter().enumerate() {
                let want: Vec<(usize, usize)> = (0..64).map(|v| (v, j)).collect();
                assert_eq!(reg, &want, "k {k} stream {j}");
            }
            for s in (1..=l).rev() {
                let half = 1 << (s - 1);
                let mut next = regs.clone();
                for base in (0..k).step_by(2 * half) {
                    for t in 0..half {
                        for w in 0..2 {
                            next[base + w * half + t] = permute2(
                                &UNMERGE[l][s - 1][w],
                                &regs[base + 2 * t],
                                &regs[base + 2 * t + 1],
                            );
                        }
                    }
                }
                regs = next;
            }
            assert_eq!(regs, input, "k {k} round trip");
            // From stage 2 on, the byte tables move whole 8-byte elements.
            for s in 2..=l {
                for h in 0..2 {
                    for (tables, q) in [(&MERGE, &QMERGE), (&UNMERGE, &QUNMERGE)] {
                        for p in 0..64 {
                            let want = q[l][s - 1][h][p / 8] as usize * 8 + p % 8;
                            assert_eq!(
                                tables[l][s - 1][h][p] as usize,
                                want,
                                "k {k} s {s} h {h} p {p}"
                            );
                        }
                    }
                }
            }
        }
    }
}
