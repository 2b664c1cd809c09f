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
pub(super) const SPLIT: [[u8; 16]; 9] = {
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
}
