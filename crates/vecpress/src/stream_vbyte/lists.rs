//! Many delta-coded lists decoded by one call: the posting lists of a
//! query's terms, or of a whole index, stored in one buffer.
//!
//! A search engine's lists are short: most terms occur in a few documents,
//! and a list of a few values spends its time on what a call costs, the
//! kernel's set-up, its last groups and the scalar tail, not on decoding.
//! One call for many lists pays the dispatch once; at the AVX-512 level the
//! lists of up to 64 values are decoded by a kernel made for them, sixteen
//! gaps a step, with masked loads and stores in place of every tail
//! (`decode/avx512.rs`, `short_lists_delta`). Longer lists go to
//! [`decode_delta`](super::decode_delta)'s kernel.

use super::decode;
use super::tables::Codes1234;
use crate::{Error, Isa};

/// Decodes delta-coded lists, each `(start, count)`: `count` values whose
/// stream starts at `bytes[start]` (as [`encode_delta`](super::encode_delta)
/// writes it from `prev` 0), one after another into `out`, with the best
/// kernels this process may use; returns the values written (the sum of the
/// counts). Lists may lie anywhere in `bytes`, in any order, and share bytes.
///
/// The output must hold every list (`Err(OutputTooSmall)`, before anything
/// is decoded). A list whose bytes end too soon gives the error its own
/// decoding would give, its offset counted from the start of `bytes`; a
/// start past the end of `bytes` is `Err(OutOfRange)`. The lists before it
/// are decoded.
///
/// ```
/// use vecpress::stream_vbyte;
///
/// let (a, b) = ([3u32, 7, 300], [1u32, 2, 4, 8, 16]);
/// let mut bytes = stream_vbyte::encode_delta_to_vec(&a, 0);
/// let start_b = bytes.len();
/// bytes.extend(stream_vbyte::encode_delta_to_vec(&b, 0));
///
/// let mut out = [0u32; 8];
/// let lists = [(0, a.len()), (start_b, b.len())];
/// assert_eq!(stream_vbyte::decode_delta_lists(&bytes, &lists, &mut out), Ok(8));
/// assert_eq!(out, [3, 7, 300, 1, 2, 4, 8, 16]);
///
/// // The second list's last byte is missing: the error names where it ends.
/// let short = &bytes[..bytes.len() - 1];
/// assert!(stream_vbyte::decode_delta_lists(short, &lists, &mut out).is_err());
/// ```
pub fn decode_delta_lists(
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> Result<usize, Error> {
    lists_impl(
        crate::tune::isa(crate::tune::Op::StreamVByteShortLists),
        crate::tune::isa(crate::tune::Op::StreamVByteDelta),
        bytes,
        lists,
        out,
    )
}

/// [`decode_delta_lists`] with the kernels of `isa`; `Err(Unsupported)` if
/// the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let bytes = stream_vbyte::encode_delta_to_vec(&[5, 6, 9], 0);
/// for &isa in Isa::available() {
///     let mut out = [0u32; 5];
///     let n = stream_vbyte::decode_delta_lists_with(isa, &bytes, &[(0, 3), (0, 2)], &mut out);
///     assert_eq!(n, Ok(5));
///     assert_eq!(out, [5, 6, 9, 5, 6]);
/// }
/// ```
pub fn decode_delta_lists_with(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> Result<usize, Error> {
    let isa = isa.check()?;
    lists_impl(isa, isa, bytes, lists, out)
}

/// The short lists with the kernel of `short` (if it has one), the others,
/// and any the short-list kernel declines, by the checked decoder at `long`.
pub(super) fn lists_impl(
    short: Isa,
    long: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> Result<usize, Error> {
    let total = lists
        .iter()
        .try_fold(0usize, |sum, &(_, n)| sum.checked_add(n))
        .unwrap_or(usize::MAX);
    if total > out.len() {
        return Err(Error::OutputTooSmall {
            needed: total,
            actual: out.len(),
        });
    }
    let (mut i, mut at) = (0, 0);
    while i < lists.len() {
        let (k, values) =
            decode::short_lists_delta::<Codes1234>(short, bytes, &lists[i..], &mut out[at..total]);
        (i, at) = (i + k, at + values);
        let Some(&(start, n)) = lists.get(i) else {
            break;
        };
        let input = bytes.get(start..).ok_or(Error::OutOfRange {
            index: start,
            len: bytes.len(),
        })?;
        super::decode_impl::<Codes1234, true>(long, input, &mut out[at..at + n], 0)
            .map_err(|e| e.shifted(start))?;
        (i, at) = (i + 1, at + n);
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream_vbyte::{decode_delta, encode_delta_to_vec};

    /// Lists of `counts` values, their gaps of up to `bits` bits, encoded one
    /// after another: (bytes, (start, count) of each, the values).
    fn lists(counts: &[usize], bits: u32, seed: u64) -> (Vec<u8>, Vec<(usize, usize)>, Vec<u32>) {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut bytes, mut spans, mut all) = (Vec::new(), Vec::new(), Vec::new());
        for &n in counts {
            let mut v = 0u32;
            let list: Vec<u32> = (0..n)
                .map(|_| {
                    let width = (next() % u64::from(bits + 1)) as u32;
                    v = v.wrapping_add(
                        (next() as u32) >> (32 - width.max(1)) >> (width == 0) as u32,
                    );
                    v
                })
                .collect();
            spans.push((bytes.len(), n));
            bytes.extend(encode_delta_to_vec(&list, 0));
            all.extend(list);
        }
        (bytes, spans, all)
    }

    #[test]
    fn every_level_decodes_lists_of_every_count_as_one_by_one() {
        let counts: Vec<usize> = (0..=70).chain([127, 128, 129, 300, 1000]).collect();
        for bits in [1, 7, 8, 9, 16, 17, 24, 25, 32] {
            for (round, order) in [counts.clone(), counts.iter().rev().copied().collect()]
                .into_iter()
                .enumerate()
            {
                let (bytes, spans, want) = lists(&order, bits, u64::from(bits) << 8 | round as u64);
                for &isa in Isa::available() {
                    let mut out = vec![u32::MAX; want.len() + 3];
                    let n = decode_delta_lists_with(isa, &bytes, &spans, &mut out);
                    assert_eq!(n, Ok(want.len()), "{isa} bits {bits}");
                    assert_eq!(&out[..want.len()], want, "{isa} bits {bits}");
                    assert_eq!(
                        out[want.len()..],
                        [u32::MAX; 3],
                        "{isa}: wrote past the lists"
                    );
                }
                let mut out = vec![0; want.len()];
                assert_eq!(decode_delta_lists(&bytes, &spans, &mut out), Ok(want.len()));
                assert_eq!(out, want);
            }
        }
    }

    /// Each list decoded alone, by the reference.
    fn one_by_one(bytes: &[u8], spans: &[(usize, usize)]) -> Result<Vec<u32>, Error> {
        let mut all = Vec::new();
        for &(start, n) in spans {
            let mut out = vec![0; n];
            decode_delta_with(Isa::Scalar, &bytes[start..], &mut out)
                .map_err(|e| e.shifted(start))?;
            all.extend(out);
        }
        Ok(all)
    }

    fn decode_delta_with(isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
        crate::stream_vbyte::decode_delta_with(isa, input, out, 0)
    }

    #[test]
    fn lists_cut_short_fail_where_their_own_decoding_fails() {
        // The last list ends at every byte of its stream; the lists before
        // it are whole, and each level names the offset the reference does.
        for n in [1usize, 3, 4, 5, 15, 16, 17, 33, 64, 65, 100] {
            let (bytes, spans, want) = lists(&[5, 40, n], 20, n as u64);
            for cut in spans[2].0..bytes.len() {
                let reference = one_by_one(&bytes[..cut], &spans).unwrap_err();
                for &isa in Isa::available() {
                    let mut out = vec![0; want.len()];
                    let got = decode_delta_lists_with(isa, &bytes[..cut], &spans, &mut out);
                    assert_eq!(got, Err(reference.clone()), "{isa} n {n} cut {cut}");
                    assert_eq!(out[..45], want[..45], "{isa}: the whole lists before");
                }
            }
        }
    }

    #[test]
    fn random_bytes_decode_as_the_reference_or_fail_as_it_does() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..400 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let len = (state >> 40) as usize % 90;
            let bytes: Vec<u8> = (0..len)
                .map(|i| (state.rotate_left(i as u32 * 7) >> 13) as u8)
                .collect();
            let spans: Vec<(usize, usize)> = (0..4)
                .map(|k| {
                    let s = state.rotate_left(16 * k);
                    ((s as usize) % (len + 1), (s >> 20) as usize % 80)
                })
                .collect();
            let reference = one_by_one(&bytes, &spans);
            let total = spans.iter().map(|s| s.1).sum::<usize>();
            for &isa in Isa::available() {
                let mut out = vec![0; total];
                let got = decode_delta_lists_with(isa, &bytes, &spans, &mut out);
                match &reference {
                    Ok(values) => {
                        assert_eq!(got, Ok(total), "{isa} round {round}");
                        assert_eq!(&out, values, "{isa} round {round}");
                    }
                    Err(e) => assert_eq!(got.as_ref(), Err(e), "{isa} round {round}"),
                }
            }
        }
    }

    #[test]
    fn arguments_out_of_range_are_errors() {
        let bytes = encode_delta_to_vec(&[1, 2, 3], 0);
        let mut out = [0u32; 4];
        assert_eq!(
            decode_delta_lists(&bytes, &[(0, 3), (0, 2)], &mut out),
            Err(Error::OutputTooSmall {
                needed: 5,
                actual: 4
            })
        );
        assert_eq!(
            decode_delta_lists(&bytes, &[(0, usize::MAX), (0, 2)], &mut out),
            Err(Error::OutputTooSmall {
                needed: usize::MAX,
                actual: 4
            })
        );
        assert_eq!(
            decode_delta_lists(&bytes, &[(0, 1), (bytes.len() + 1, 0)], &mut out),
            Err(Error::OutOfRange {
                index: bytes.len() + 1,
                len: bytes.len()
            })
        );
        // An empty list at the very end is whole.
        assert_eq!(
            decode_delta_lists(&bytes, &[(bytes.len(), 0), (0, 3)], &mut out),
            Ok(3)
        );
        assert_eq!(out[..3], [1, 2, 3]);
        let mut one = [0u32; 3];
        assert_eq!(decode_delta(&bytes, &mut one, 0), Ok(bytes.len()));
        assert_eq!(decode_delta_lists(&[], &[], &mut []), Ok(0));
    }
}
