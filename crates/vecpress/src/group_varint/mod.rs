//! Group varints: byte-oriented integer codecs that put the lengths of
//! several values in one control byte, so that a decoder reads one control
//! byte per group instead of one flag bit per byte (as VByte does).
//!
//! - [`gb`]: Varint-GB, Google's group varint (Dean, WSDM 2009): one control
//!   byte of four 2-bit lengths, then four values of 1 to 4 bytes.
//! - `g8iu` (cargo feature `g8iu`, on by default): Varint-G8IU (Stepanov
//!   et al., CIKM 2011): blocks of one control byte and 8 data bytes holding
//!   as many whole values as fit. The format is the subject of a patent
//!   application by its authors' employer (A9.com); see the module docs.
//!
//! Both are described side by side in Lemire, Kurz, Rupp, *Stream VByte:
//! Faster Byte-Oriented Integer Compression* (2018), §3, and both decode
//! with one `pshufb` (SSSE3) or `tbl` (Neon) per group, driven by tables of
//! shuffle masks indexed by the control byte. Neither stream stores its
//! count: the caller passes it, as with every vecpress integer codec.
//!
//! ```
//! use vecpress::group_varint::gb;
//!
//! let doc_ids = [3u32, 7, 8, 150, 151, 100_000];
//! let bytes = gb::encode_delta_to_vec(&doc_ids, 0);
//! assert_eq!(gb::decode_delta_to_vec(&bytes, doc_ids.len(), 0)?, doc_ids);
//! # Ok::<(), vecpress::Error>(())
//! ```

#[cfg(feature = "g8iu")]
pub mod g8iu;
pub mod gb;

/// Bytes a value takes in both formats: 1 to 4, with 0 taking one byte.
#[inline(always)]
const fn byte_len(value: u32) -> usize {
    // 1 + floor(log2(v | 1)) / 8
    4 - ((value | 1).leading_zeros() as usize) / 8
}

/// The value a decoder writes for the decoded `v`: `v`, or with `DELTA` the
/// running sum `*acc + v` (wrapping); leaves it in `*acc`.
#[inline(always)]
fn next<const DELTA: bool>(acc: &mut u32, v: u32) -> u32 {
    *acc = if DELTA { acc.wrapping_add(v) } else { v };
    *acc
}

/// The gaps of `values` from `prev`, wrapping.
fn gaps(values: &[u32], prev: u32) -> impl ExactSizeIterator<Item = u32> + '_ {
    let mut p = prev;
    values.iter().map(move |&v| {
        let gap = v.wrapping_sub(p);
        p = v;
        gap
    })
}

/// Panics with a clear message when `have` bytes cannot hold the encoding:
/// `worst` bytes always suffice, `exact()` is what it takes.
#[inline]
fn check_room(codec: &str, have: usize, worst: usize, exact: impl FnOnce() -> usize) {
    if have < worst {
        let need = exact();
        assert!(
            have >= need,
            "{codec}: output buffer of {have} bytes is too small, {need} needed"
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn byte_len_matches_the_bits() {
        for v in [
            0u32,
            1,
            255,
            256,
            65_535,
            65_536,
            (1 << 24) - 1,
            1 << 24,
            u32::MAX,
        ] {
            let want = (32 - v.leading_zeros() as usize).div_ceil(8).max(1);
            assert_eq!(super::byte_len(v), want, "{v}");
        }
    }
}
