//! Byte shuffles within a 16-byte lane, computed at compile time.
//!
//! A lane of `16 / K` values of `K` bytes (`K` = 2, 4, 8) is regrouped by
//! [`GROUP`] so that the bytes of each stream sit together, value order
//! kept: byte `j` of value `v` moves from `v * K + j` to `j * (16 / K) + v`.
//! [`UNGROUP`] is the inverse. Entry `log2(K) - 1` holds the shuffle for `K`.
#![forbid(unsafe_code)]

/// `GROUP[log2(K) - 1][p]` is the source byte of destination byte `p`.
pub(super) const GROUP: [[u8; 16]; 3] = [group(2), group(4), group(8)];
/// The inverse of [`GROUP`].
pub(super) const UNGROUP: [[u8; 16]; 3] = [ungroup(2), ungroup(4), ungroup(8)];

/// Destination `j * (16 / k) + v` takes source `v * k + j`.
const fn group(k: usize) -> [u8; 16] {
    let per = 16 / k;
    let mut t = [0u8; 16];
    let mut p = 0;
    while p < 16 {
        let (j, v) = (p / per, p % per);
        t[p] = (v * k + j) as u8;
        p += 1;
    }
    t
}

/// Destination `v * k + j` takes source `j * (16 / k) + v`.
const fn ungroup(k: usize) -> [u8; 16] {
    let per = 16 / k;
    let mut t = [0u8; 16];
    let mut p = 0;
    while p < 16 {
        let (v, j) = (p / k, p % k);
        t[p] = (j * per + v) as u8;
        p += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_gathers_each_stream_and_ungroup_inverts_it() {
        for (e, k) in [2usize, 4, 8].into_iter().enumerate() {
            // A lane of values whose byte j of value v is (v, j).
            let lane: Vec<(usize, usize)> = (0..16 / k)
                .flat_map(|v| (0..k).map(move |j| (v, j)))
                .collect();
            let grouped: Vec<(usize, usize)> = GROUP[e].iter().map(|&s| lane[s as usize]).collect();
            let mut want = lane.clone();
            want.sort_by_key(|&(v, j)| (j, v));
            assert_eq!(grouped, want, "k = {k}");
            let back: Vec<(usize, usize)> =
                UNGROUP[e].iter().map(|&s| grouped[s as usize]).collect();
            assert_eq!(back, lane, "k = {k}");
        }
    }
}
