//! What the targets share: the head that gives a count and a previous
//! value, the check that every available level agrees with the scalar one,
//! and the values the round-trip targets draw from their input. Each target includes it with `mod common;`, so the parts a target
//! does not use are allowed to be dead there.
#![allow(dead_code)]

use std::fmt::Debug;

use vecpress::{Error, Isa};

/// The decode input of most targets: two bytes for the count (little
/// endian: with the top bit clear it is taken modulo `per_byte` times the
/// stream length plus one, so that it fits the stream; with the top bit set
/// the low 15 bits are used as they are), `P` bytes for the previous value
/// of the delta forms (little endian), then the stream as it is.
pub struct Input<'a, const P: usize> {
    /// The two bytes of the count as they came, for targets that draw more
    /// from them.
    pub head: [u8; 2],
    /// The bytes of the previous value.
    pub prev: [u8; P],
    /// The count.
    pub n: usize,
    /// The stream.
    pub bytes: &'a [u8],
}

impl<'a, const P: usize> Input<'a, P> {
    /// `None` when `data` is shorter than the head.
    pub fn parse(data: &'a [u8], per_byte: usize) -> Option<Self> {
        let (head, rest) = data.split_first_chunk::<2>()?;
        let (prev, bytes) = rest.split_first_chunk::<P>()?;
        let c = u16::from_le_bytes(*head);
        let n = if c & 0x8000 != 0 {
            usize::from(c & 0x7fff)
        } else {
            usize::from(c) % (per_byte * bytes.len() + 1)
        };
        Some(Input {
            head: *head,
            prev: *prev,
            n,
            bytes,
        })
    }
}

/// Decodes `n` values with `decode` at the scalar level, then at every
/// available level into a fresh output, asserting the same result and,
/// where it is `Ok`, the same values; returns the scalar output and result.
pub fn agree<T: Clone + Default + PartialEq + Debug>(
    n: usize,
    what: &str,
    decode: impl Fn(Isa, &mut [T]) -> Result<usize, Error>,
) -> (Vec<T>, Result<usize, Error>) {
    let mut want = vec![T::default(); n];
    let want_res = decode(Isa::Scalar, &mut want);
    for &isa in Isa::available() {
        let mut got = vec![T::default(); n];
        let res = decode(isa, &mut got);
        assert_eq!(res, want_res, "{isa} {what}");
        if res.is_ok() {
            assert_eq!(got, want, "{isa} {what}");
        }
    }
    (want, want_res)
}

/// A `_to_vec` entry's result `got` agrees with the decode into a buffer
/// (`want`, `want_res`): the same values, or an error where that failed.
pub fn same_to_vec<T: PartialEq + Debug>(
    got: Result<Vec<T>, Error>,
    want: &[T],
    want_res: &Result<usize, Error>,
    what: &str,
) {
    match got {
        Ok(v) => assert_eq!(v, want, "{what}"),
        Err(_) => assert!(want_res.is_err(), "{what}"),
    }
}

/// The round-trip targets' values: `bytes` as little-endian `u32`s; with
/// bit 0 of `opts` set, each value `v` becomes `v >> (v & 31)`, for a mix of
/// widths.
pub fn values(opts: u8, bytes: &[u8]) -> Vec<u32> {
    let raw = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    if opts & 1 != 0 {
        raw.map(|v| v >> (v & 31)).collect()
    } else {
        raw.collect()
    }
}
