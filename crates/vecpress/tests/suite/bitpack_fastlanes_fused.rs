//! FastLanes delta decoding into natural order (`delta_unpack_natural`, the
//! fused unpack, lane sums and un-transposition the `fastlanes-delta`
//! stream runs): every level at every width against the `fastlanes`
//! crate's `undelta` then `untranspose` and against our scalar two-pass
//! decode, on random, all-ones (wrapping) and all-zero blocks; streams of
//! every gap width with partial last blocks; bad arguments.

use crate::common::Rng;
use fastlanes::{BitPacking, Delta, Transpose};
use vecpress::bitpack::fastlanes as fl;
use vecpress::{Error, Isa};

/// What the `fastlanes` crate decodes from `packed` (width `width`) and
/// `bases`: unpack, sums down the lanes, then back to natural order.
fn crate_decode(packed: &[u8], bases: &[u32; 32], width: usize) -> [u32; 1024] {
    let words: Vec<u32> = packed[..128 * width]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut deltas = [0u32; 1024];
    // SAFETY: `1024 width / 32` words in, 1024 values out, width <= 32.
    unsafe { <u32 as BitPacking>::unchecked_unpack(width, &words, &mut deltas) };
    let mut summed = [0u32; 1024];
    <u32 as Delta>::undelta::<32>(&deltas, bases, &mut summed);
    let mut natural = [0u32; 1024];
    <u32 as Transpose>::untranspose(&summed, &mut natural);
    natural
}

/// Packed bytes of a block: random, all ones (the largest differences, so
/// the sums wrap) or all zeros, with `pad` bytes more.
fn packed_block(rng: &mut Rng, kind: usize, width: u8, pad: usize) -> Vec<u8> {
    (0..fl::packed_len(width) + pad)
        .map(|_| match kind {
            0 => 0xff,
            1 => 0,
            _ => rng.next_u64() as u8,
        })
        .collect()
}

#[test]
fn natural_delta_unpack_matches_the_crate_at_every_width_and_level() {
    let mut rng = Rng::new(0xf05e);
    for width in 0..=32u8 {
        for kind in 0..5 {
            let bases: [u32; 32] = match kind {
                0 => [u32::MAX - 3; 32],
                1 => [0; 32],
                _ => core::array::from_fn(|_| rng.next_u64() as u32),
            };
            // At an odd offset in its buffer too: the kernels' loads are
            // unaligned.
            let offset = kind % 3;
            let buf = packed_block(&mut rng, kind, width, offset + 3);
            let packed = &buf[offset..];
            let expect = crate_decode(packed, &bases, width.into());

            let mut lanes = [0u32; 1024];
            let mut two_pass = [0u32; 1024];
            fl::delta_unpack_with(Isa::Scalar, packed, &bases, width, &mut lanes).unwrap();
            fl::untranspose(&lanes, &mut two_pass).unwrap();
            assert_eq!(
                two_pass, expect,
                "scalar two-pass, width {width} kind {kind}"
            );

            for &isa in Isa::available() {
                let ctx = format!("width {width} kind {kind} {isa:?}");
                let mut out = vec![0x5eed_u32; 1027];
                assert_eq!(
                    fl::delta_unpack_natural_with(isa, packed, &bases, width, &mut out),
                    Ok(fl::packed_len(width)),
                    "{ctx}"
                );
                assert_eq!(out[..1024], expect[..], "{ctx}");
                assert_eq!(out[1024..], [0x5eed; 3], "wrote past the block, {ctx}");
            }
        }
    }
}

/// Each lane's run of 32 sorted values comes out in place: a block whose
/// every difference is 1 from bases 0 is `run_start + row + 1` at each
/// natural index, so a value in the wrong slot shows which one.
#[test]
fn natural_delta_unpack_places_every_lane_and_row() {
    let packed = {
        let mut t = [0u32; 1024];
        let ones = [1u32; 1024];
        <u32 as Delta>::undelta::<32>(&ones, &[0; 32], &mut t);
        let mut p = vec![0u8; fl::packed_len(1)];
        fl::delta_pack(&t, &[0; 32], 1, &mut p).unwrap();
        p
    };
    for &isa in Isa::available() {
        let mut out = [0u32; 1024];
        fl::delta_unpack_natural_with(isa, &packed, &[0; 32], 1, &mut out).unwrap();
        for (i, &v) in out.iter().enumerate() {
            assert_eq!(v as usize, i % 32 + 1, "index {i} {isa:?}");
        }
    }
}

#[test]
fn natural_delta_unpack_rejects_bad_arguments() {
    let packed = [0u8; 128 * 7];
    let bases = [0u32; 32];
    let mut out = [0u32; 1024];
    for &isa in Isa::available() {
        assert_eq!(
            fl::delta_unpack_natural_with(isa, &packed[..128 * 7 - 1], &bases, 7, &mut out),
            Err(Error::Truncated {
                offset: 128 * 7 - 1,
                needed: 1,
                unit: vecpress::Unit::Bytes
            }),
            "{isa:?}"
        );
        assert!(matches!(
            fl::delta_unpack_natural_with(isa, &packed, &bases[..31], 7, &mut out),
            Err(Error::InvalidArgument { .. })
        ));
        assert!(matches!(
            fl::delta_unpack_natural_with(isa, &packed, &bases, 33, &mut out),
            Err(Error::InvalidArgument { .. })
        ));
        assert!(matches!(
            fl::delta_unpack_natural_with(isa, &packed, &bases, 7, &mut out[..1023]),
            Err(Error::OutputTooSmall { .. })
        ));
    }
}

/// Delta streams of every gap width (32: any u32 step, the sums wrapping),
/// each with a partial last block, from a nonzero `prev`, at every level.
#[test]
fn delta_streams_of_every_gap_width() {
    let mut rng = Rng::new(0xd31a);
    let n = 3 * 1024 + 77;
    for gap_bits in 0..=32u32 {
        let prev = rng.next_u64() as u32;
        let mut acc = prev;
        let values: Vec<u32> = (0..n)
            .map(|i| {
                let gap = if gap_bits == 0 {
                    0
                } else {
                    (rng.next_u64() >> (64 - gap_bits)) as u32
                };
                // A jump now and then: a lane of one block much wider.
                let gap = if i % 997 == 5 { gap | 1 << 31 } else { gap };
                acc = acc.wrapping_add(gap);
                acc
            })
            .collect();
        let bytes = fl::encode_delta_to_vec(&values, prev);
        for &isa in Isa::available() {
            let mut out = vec![0u32; n];
            assert_eq!(
                fl::decode_delta_with(isa, &bytes, &mut out, prev),
                Ok(bytes.len()),
                "gap {gap_bits} {isa:?}"
            );
            assert_eq!(out, values, "gap {gap_bits} {isa:?}");
            // Cut short: an error, never a panic.
            let cut = bytes.len() - 100;
            assert!(
                fl::decode_delta_with(isa, &bytes[..cut], &mut out, prev).is_err(),
                "cut, gap {gap_bits} {isa:?}"
            );
        }
    }
}
