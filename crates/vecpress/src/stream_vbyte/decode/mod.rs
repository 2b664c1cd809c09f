//! Stream VByte decoding: the checked scalar reference and the SIMD kernels.
//!
//! Every kernel has one shape: `decode::<V, DELTA>(control, data, out, prev)
//! -> (control bytes, data bytes)` consumed, over whole groups of four
//! values only, stopping where the data runs short; the scalar code finishes.

pub(crate) mod scalar;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod generic;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(target_arch = "x86_64")]
mod sums16;

use super::tables::Variant;
use crate::Isa;

/// Whether `isa` has a decoding kernel of its own.
pub(super) fn has_kernel(isa: Isa) -> bool {
    match isa {
        Isa::Scalar => true,
        Isa::Sse41 | Isa::Avx2 | Isa::Avx512 => cfg!(target_arch = "x86_64"),
        Isa::Neon => cfg!(target_arch = "aarch64"),
    }
}

/// The one map from ISA level to decoding kernel: decodes a prefix of the
/// groups of `out`, the last partial one included (`control` is its full
/// control stream, `data` the bytes after it); returns (control bytes, data
/// bytes) consumed. `isa` is supported by the CPU.
pub(super) fn bulk<V: Variant, const DELTA: bool>(
    isa: Isa,
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    prev: &mut u32,
) -> (usize, usize) {
    let control = &control[..out.len().div_ceil(4)];
    if out.len() < 4 {
        return (0, 0);
    }
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
        // CPU has its features; `control` has a byte per 4 values of `out`.
        Isa::Sse41 => unsafe { sse41::decode::<V, DELTA>(control, data, out, prev) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Isa::Avx2 => unsafe { avx2::decode::<V, DELTA>(control, data, out, prev) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Isa::Avx512 => unsafe { avx512::decode::<V, DELTA>(control, data, out, prev) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above.
        Isa::Neon => unsafe { neon::decode::<V, DELTA>(control, data, out, prev) },
        _ => (0, 0),
    }
}

/// Decodes delta-coded lists from the first while each is short and whole
/// (see `generic::short_lists`), one after another into `out`; returns
/// (lists, values) decoded: none at a level without a short-stream kernel.
// Elsewhere than x86-64 no level has the kernel.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(super) fn short_lists_delta<V: Variant>(
    isa: Isa,
    bytes: &[u8],
    lists: &[(usize, usize)],
    out: &mut [u32],
) -> (usize, usize) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
        // has its features; the caller sizes `out` for every list.
        Isa::Avx512 => unsafe { avx512::short_lists_delta::<V>(bytes, lists, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (the AVX2 level has SSE4.1's features).
        Isa::Sse41 | Isa::Avx2 => unsafe { sse41::short_lists_delta::<V>(bytes, lists, out) },
        _ => (0, 0),
    }
}

/// Decodes a short stream's `n` gaps (`control` its control bytes, at
/// least a byte per four values; `data` what follows) into their running
/// sum from `prev`, the first `n` of `out`, with a kernel made for short
/// streams (AVX-512's, or the 16-byte one at the SSE4.1 and AVX2 levels),
/// which may write the rest of `out` too; returns the data bytes consumed
/// and the last value, or `None` when the data ends too soon or `isa` has
/// no such kernel (`out` may then hold some values).
// Elsewhere than x86-64 no level has the kernel.
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
pub(super) fn short_delta<V: Variant>(
    isa: Isa,
    control: &[u8],
    data: &[u8],
    out: &mut [u32],
    n: usize,
    prev: u32,
) -> Option<(usize, u32)> {
    assert!(n <= out.len() && control.len() >= n.div_ceil(4));
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
        // has its features; `out` and `control` are long enough (asserted).
        Isa::Avx512 => unsafe { avx512::short_block_delta::<V>(control, data, out, n, prev) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (the AVX2 level has SSE4.1's features).
        Isa::Sse41 | Isa::Avx2 => unsafe { sse41::short_delta::<V>(control, data, out, n, prev) },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream_vbyte::tables::{Codes0124, Codes1234};
    use crate::stream_vbyte::{control_len, encode_0124_to_vec, encode_to_vec};

    /// The AVX-512 kernels' `vpexpandb` masks, made by `pdep`, against the
    /// tables' rows side by side: every control byte in every place, and
    /// words of four at random.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn expand_masks_by_pdep_are_the_tables_rows() {
        use crate::stream_vbyte::tables::{Variant, expand_mask};
        fn check<V: Variant>(control: [u8; 4]) {
            let rows = control
                .iter()
                .rev()
                .fold(0, |m, &c| m << 16 | u64::from(V::EXPAND[usize::from(c)]));
            // SAFETY: the caller checked that the CPU has the AVX-512 level.
            assert_eq!(unsafe { expand_mask::<V>(control) }, rows, "{control:?}");
        }
        if Isa::Avx512.check().is_err() {
            eprintln!("skipped: no AVX-512 level");
            return;
        }
        for k in 0..4 {
            for c in 0..=255u8 {
                let mut control = [0x5a; 4];
                control[k] = c;
                check::<Codes1234>(control);
                check::<Codes0124>(control);
            }
        }
        let mut x = 0x9e37_79b9_u32;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            check::<Codes1234>(x.to_le_bytes());
            check::<Codes0124>(x.to_le_bytes());
        }
    }

    /// The short-stream kernels against the scalar decode, at every level
    /// that has one, for every count they take and gaps of every byte
    /// length: the first `n` values, the last returned, the bytes consumed,
    /// with `out` exactly `n` long (the values past it untouched) or with
    /// room to a multiple of 16 (their whole stores), with the data ending
    /// where the stream does or going on (as a list's bytes go on with the
    /// next list's); a stream cut short gives `None`. And the 0124 variant
    /// (zero gaps take no byte) against its scalar decode.
    #[test]
    fn short_kernel_is_the_scalar_decode_with_or_without_room() {
        use crate::stream_vbyte::{
            SHORT, decode_delta_with, encode_delta_0124_to_vec, encode_delta_to_vec,
        };
        let levels: Vec<Isa> = Isa::available()
            .iter()
            .copied()
            .filter(|&isa| short_delta::<Codes1234>(isa, &[0], &[1], &mut [0; 16], 1, 0).is_some())
            .collect();
        if levels.is_empty() {
            eprintln!("skipped: no level with a short-stream kernel");
            return;
        }
        let mut x = 0x2545_f491_u32;
        for n in (1..=SHORT).chain(1..=SHORT) {
            let mut v = 7u32;
            let values: Vec<u32> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    // Mostly one-byte gaps (short data, read as one window)
                    // the second time round.
                    v = v.wrapping_add(x >> (8 * (x % 4) + 24 * u32::from(v % 2 == 1)));
                    v
                })
                .collect();
            let prev = 5;
            let bytes = encode_delta_to_vec(&values, prev);
            let mut want = vec![0u32; n];
            decode_delta_with(Isa::Scalar, &bytes, &mut want, prev).unwrap();
            let (control, data) = bytes.split_at(control_len(n));
            let mut longer = data.to_vec();
            longer.extend_from_slice(&[0xa5; 20]);
            for &isa in &levels {
                for room in [n, n.next_multiple_of(16)] {
                    for data in [data, &longer[..data.len() + 3], &longer[..]] {
                        let mut out = vec![u32::MAX; room + 16];
                        let got =
                            short_delta::<Codes1234>(isa, control, data, &mut out[..room], n, prev);
                        let case = format!("{isa:?} n {n} room {room} data {}", data.len());
                        assert_eq!(
                            got,
                            Some((bytes.len() - control.len(), want[n - 1])),
                            "{case}"
                        );
                        assert_eq!(out[..n], want[..], "{case}");
                        assert!(out[room..].iter().all(|&v| v == u32::MAX), "{case}");
                    }
                    let mut out = vec![u32::MAX; room];
                    let cut = &data[..data.len() - 1];
                    let got = short_delta::<Codes1234>(isa, control, cut, &mut out, n, prev);
                    assert_eq!(got, None, "{isa:?} {n} {room}");
                }
                // The 0124 variant: its values' running sum against the
                // scalar decode of the same stream.
                let sums: Vec<u32> = values
                    .iter()
                    .scan(prev, |v, &g| {
                        *v += g % 3 * (g >> 20);
                        Some(*v)
                    })
                    .collect();
                let bytes = encode_delta_0124_to_vec(&sums, prev);
                let (control, data) = bytes.split_at(control_len(n));
                let want = sums;
                let mut out = vec![0u32; n.next_multiple_of(16)];
                let got = short_delta::<Codes0124>(isa, control, data, &mut out, n, prev);
                assert_eq!(got, Some((data.len(), want[n - 1])), "0124 {isa:?} {n}");
                assert_eq!(out[..n], want[..], "0124 {isa:?} {n}");
            }
        }
    }

    /// The first value read in place is the one the decoder gives first,
    /// for a first value of each byte length in streams of each length; a
    /// stream cut before its last byte gives none.
    #[test]
    fn first_values_read_in_place_are_the_decoders() {
        use crate::stream_vbyte::{decode_to_vec, first_value, value_len};
        for n in [1usize, 2, 4, 5, 9, 100] {
            for first in [0u32, 1, 255, 256, 65_535, 65_536, 1 << 24, u32::MAX] {
                let mut values: Vec<u32> = (0..n as u32).map(|i| i * 1000).collect();
                values[0] = first;
                let bytes = encode_to_vec(&values);
                assert_eq!(decode_to_vec(&bytes, n).unwrap()[0], first);
                let end = control_len(n) + value_len(first);
                assert_eq!(first_value(&bytes[..end], n), Some(first), "{n} {first}");
                assert_eq!(first_value(&bytes[..end - 1], n), None, "{n} {first}");
            }
        }
        assert_eq!(first_value(&[], 1), None);
    }

    /// The kernels decode every value of a valid stream themselves, the
    /// last partial group included, and consume exactly its bytes.
    #[test]
    fn kernels_take_every_whole_group() {
        for n in [4usize, 7, 8, 9, 33, 64, 65, 127, 1000] {
            let values: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(0x9e37_79b9) >> (i % 32))
                .collect();
            for (zero124, bytes) in [
                (false, encode_to_vec(&values)),
                (true, encode_0124_to_vec(&values)),
            ] {
                let (control, data) = bytes.split_at(control_len(n));
                for &isa in Isa::available() {
                    if isa == Isa::Scalar {
                        continue;
                    }
                    let mut out = vec![0u32; n];
                    let mut prev = 0;
                    let (keys, pos) = if zero124 {
                        bulk::<Codes0124, false>(isa, control, data, &mut out, &mut prev)
                    } else {
                        bulk::<Codes1234, false>(isa, control, data, &mut out, &mut prev)
                    };
                    assert_eq!(keys, n.div_ceil(4), "{isa} n {n} 0124 {zero124}");
                    assert_eq!(out, values, "{isa} n {n}");
                    assert_eq!(pos, data.len(), "{isa} n {n}");
                }
            }
        }
    }
}
