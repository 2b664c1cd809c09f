//! Memory follows the input, not a claim: every decoder's allocations,
//! measured by a counting allocator, stay within its format's expansion
//! bound times the input's length, whatever the input states. Over every
//! registry codec (so a codec added to the registry is tested here), the
//! `_to_vec` decoders, queries on posting lists, LZ4 blocks and frames,
//! Blosc frames, bit shuffle with LZ4 and the container reader; fed
//! header-claim bombs (the largest count, size or block each field can
//! state) and damaged valid streams.
//!
//! The rule (SECURITY.md): with no limit from the caller, a decoder
//! allocates at most its output, which the format's bound caps at
//! `max_decoded_len(input)`, plus [`WORK`] times that in working memory,
//! plus [`SLACK`]. A decoder writing into the caller's buffer allocates no
//! output, only the working memory.

mod counting;

use counting::peak_of;
use vecpress::codec::{self, ByteCodec, IntCodec};
use vecpress::{Error, Isa, bit_split, blosc, container, lz4};

/// Working memory a decoder may hold besides its output, in multiples of
/// its format's bound (bit shuffle with LZ4 keeps two blocks as LZ4 leaves
/// them and the scratch of their unshuffling).
const WORK: usize = 3;
/// The constant part: tables, a frame's 64 KiB window, small buffers.
const SLACK: usize = 512 << 10;

/// Runs `f`, a decoder whose input decodes to at most `bound` bytes, and
/// asserts that it allocated within the rule: its output and [`WORK`]
/// times the bound, plus [`SLACK`].
fn within<T>(what: &str, bound: usize, f: impl FnOnce() -> T) -> T {
    let (res, peak) = peak_of(f);
    let allowed = bound.saturating_mul(WORK + 1).saturating_add(SLACK);
    assert!(
        peak <= allowed,
        "{what}: {peak} bytes allocated, {allowed} allowed"
    );
    res
}

/// Deterministic pseudo-random bytes.
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// The hostile forms of a valid stream: cut at many lengths, single bytes
/// set to their extremes, and each 4- and 8-byte field of the first 40
/// bytes set to the largest counts and sizes either byte order states.
fn damaged(valid: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![valid.to_vec()];
    let step = (valid.len() / 24).max(1);
    for cut in (0..valid.len()).step_by(step).chain(0..valid.len().min(40)) {
        out.push(valid[..cut].to_vec());
    }
    for at in 0..valid.len().min(40) {
        for b in [0xff, 0x80, 0x7f] {
            let mut v = valid.to_vec();
            v[at] = b;
            out.push(v);
        }
    }
    let words: [&[u8]; 6] = [
        &[0xff; 4],
        &[0xff, 0xff, 0xff, 0x7f],
        &[0x7f, 0xff, 0xff, 0xff],
        &[0, 0, 0, 0x80],
        &[0x80, 0, 0, 0],
        &[0xff; 8],
    ];
    for at in 0..valid.len().min(40) {
        for w in words {
            if at + w.len() <= valid.len() {
                let mut v = valid.to_vec();
                v[at..at + w.len()].copy_from_slice(w);
                out.push(v);
            }
        }
    }
    out
}

/// Inputs every codec is encoded from: the most compressible (zeros), a
/// slow ramp, noise; a few lengths.
fn samples() -> Vec<Vec<u8>> {
    let ramp: Vec<u8> = (0..24_576u32).flat_map(|i| (i / 5).to_le_bytes()).collect();
    vec![
        vec![0u8; 65_536],
        ramp,
        noise(8_192, 7),
        noise(40, 3),
        Vec::new(),
    ]
}

#[test]
fn byte_codec_bounds_hold_for_the_most_compressible_input() {
    for c in codec::byte_codecs() {
        for width in [1usize, 4, 8] {
            let zeros = vec![0u8; 1 << 20];
            let mut enc = vec![0u8; c.max_encoded_len(zeros.len())];
            let n = c.encode(&zeros, width, &mut enc).unwrap();
            assert!(
                zeros.len() <= c.max_decoded_len(n),
                "{}: {n} bytes decoded to {}, above its bound {}",
                c.name(),
                zeros.len(),
                c.max_decoded_len(n)
            );
        }
    }
}

#[test]
fn int_codec_bounds_hold_for_the_most_compressible_input() {
    for c in codec::int_codecs() {
        let zeros = vec![0u32; 1 << 16];
        let mut enc = vec![0u8; c.max_encoded_len(zeros.len())];
        let n = c.encode(&zeros, &mut enc);
        assert!(
            zeros.len() <= c.max_decoded_len(n),
            "{}: {n} bytes decoded to {} values, above its bound {}",
            c.name(),
            zeros.len(),
            c.max_decoded_len(n)
        );
    }
}

fn check_byte_codec(c: &dyn ByteCodec) {
    let widths: &[usize] = if c.needs_width() { &[1, 4, 8] } else { &[1] };
    for sample in samples() {
        for &width in widths {
            let sample = &sample[..sample.len() / width * width];
            let mut enc = vec![0u8; c.max_encoded_len(sample.len())];
            let n = c.encode(sample, width, &mut enc).unwrap();
            for bad in damaged(&enc[..n]) {
                let bound = c.max_decoded_len(bad.len());
                // The size the caller expects, and the most the input allows.
                let most = bound.min(64 << 20) / width * width;
                for size in [sample.len(), most] {
                    let mut out = vec![0u8; size];
                    for &isa in Isa::available() {
                        let _ = within(
                            &format!("{} width {width} isa {isa:?}", c.name()),
                            bound,
                            || c.decode(isa, &bad, width, &mut out),
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn registry_byte_codecs_allocate_within_their_bound() {
    for c in codec::byte_codecs() {
        check_byte_codec(*c);
    }
}

fn check_int_codec(c: &dyn IntCodec) {
    let values: [Vec<u32>; 3] = [
        vec![0; 5000],
        (0..3000u32).map(|i| i * 37).collect(),
        noise(4 * 700, 11)
            .chunks(4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .collect(),
    ];
    for v in values {
        let mut enc = vec![0u8; c.max_encoded_len(v.len())];
        let n = c.encode(&v, &mut enc);
        for bad in damaged(&enc[..n]) {
            let bound = c.max_decoded_len(bad.len());
            let most = bound.min(1 << 22);
            for count in [v.len(), most] {
                let mut out = vec![0u32; count];
                for &isa in Isa::available() {
                    let _ = within(&format!("{} isa {isa:?}", c.name()), 4 * bound, || {
                        c.decode(isa, &bad, &mut out)
                    });
                }
            }
        }
    }
}

#[test]
fn registry_int_codecs_allocate_within_their_bound() {
    for c in codec::int_codecs() {
        check_int_codec(*c);
    }
}

/// The `_to_vec` decoders allocate their output from the caller's count
/// only as far as the input could hold it.
#[test]
fn to_vec_decoders_allocate_no_more_than_the_input_holds() {
    use vecpress::bitpack::{bp128, fastlanes, pfor};
    use vecpress::group_varint::gb;
    use vecpress::{byte_split, stream_vbyte as svb, vbyte};
    type ToVec = (
        &'static str,
        usize,
        fn(&[u8], usize) -> Result<usize, Error>,
    );
    fn len<T>(r: Result<Vec<T>, Error>) -> Result<usize, Error> {
        r.map(|v| v.len())
    }
    // Name, bytes of output one byte of input can hold at most, decoder.
    let cases: [ToVec; 16] = [
        ("vbyte", 4, |i, n| len(vbyte::decode_to_vec(i, n))),
        ("vbyte delta", 4, |i, n| {
            len(vbyte::decode_delta_to_vec(i, n, 0))
        }),
        ("vbyte u64", 8, |i, n| len(vbyte::decode_u64_to_vec(i, n))),
        ("stream-vbyte", 4, |i, n| len(svb::decode_to_vec(i, n))),
        ("stream-vbyte delta", 4, |i, n| {
            len(svb::decode_delta_to_vec(i, n, 0))
        }),
        ("stream-vbyte 0124", 16, |i, n| {
            len(svb::decode_0124_to_vec(i, n))
        }),
        ("stream-vbyte i32", 4, |i, n| {
            len(svb::decode_i32_to_vec(i, n))
        }),
        ("stream-vbyte u16", 2, |i, n| {
            len(svb::decode_u16_to_vec(i, n))
        }),
        ("stream-vbyte u64", 8, |i, n| {
            len(svb::u64::decode_to_vec(i, n))
        }),
        ("varint-gb", 4, |i, n| len(gb::decode_to_vec(i, n))),
        ("bp128", 512, |i, n| len(bp128::decode_to_vec(i, n))),
        ("bp128 delta", 512, |i, n| {
            len(bp128::decode_delta_to_vec(i, n, 0))
        }),
        ("fastlanes", 4096, |i, n| {
            len(fastlanes::decode_to_vec(i, n))
        }),
        ("fastlanes for", 4096, |i, n| {
            len(fastlanes::decode_for_to_vec(i, n))
        }),
        ("pfor", 512, |i, n| len(pfor::decode_to_vec(i, n))),
        ("byte-split", 1, |i, n| {
            len(byte_split::decode_to_vec(i, n.clamp(1, 8)))
        }),
    ];
    let inputs = [vec![0u8; 64], vec![0xff; 64], noise(300, 5), vec![0u8; 3]];
    for (name, per_byte, decode) in cases {
        for input in &inputs {
            for n in [0, 1, 1000, 1 << 30, usize::MAX / 16, usize::MAX] {
                let _ = within(&format!("{name} n={n}"), per_byte * input.len(), || {
                    decode(input, n)
                });
            }
        }
    }
}

/// The 14 bytes of a filter-32008 frame stating 2 GiB in blocks of 2 GiB
/// (issue 62): refused before anything is allocated, whether the caller
/// sizes its output from the header or not.
#[test]
fn bit_split_lz4_header_claims_are_refused_before_allocating() {
    let bomb = [0, 0, 0, 0, 0x80, 0, 0, 0, 0x80, 0, 0, 0, 0xbc, 0x55];
    let bound = bit_split::max_decompressed_len_lz4(bomb.len());
    let res = within("decompressed_len_lz4", bound, || {
        bit_split::decompressed_len_lz4(&bomb)
    });
    assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    // A caller that sized its output from the header (zeroed pages the
    // system gives untouched: nothing is written to them).
    let mut out = vec![0u8; 1 << 31];
    for width in [1, 4, 8] {
        let res = within("decompress_lz4 into 2 GiB", bound, || {
            bit_split::decompress_lz4(&bomb, width, &mut out)
        });
        assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    }
    drop(out);
    // Every stated size and block size from 2^10 to 2^40 bytes, whole blocks
    // of LZ4 zeros behind them.
    for total_log in 10..=40 {
        for block_log in [3, 13, 20, 31] {
            let mut frame = (1u64 << total_log).to_be_bytes().to_vec();
            frame.extend((1u32 << block_log).to_be_bytes());
            frame.extend(10u32.to_be_bytes());
            frame.extend([0x1f, 0, 1, 0, 0xff, 0xff, 0x50, 0, 0, 0]);
            let bound = bit_split::max_decompressed_len_lz4(frame.len());
            let total = 1usize << total_log;
            let mut out = if total <= bound {
                vec![0u8; total]
            } else {
                Vec::new()
            };
            let res = within(
                &format!("2^{total_log} in blocks of 2^{block_log}"),
                bound,
                || bit_split::decompress_lz4(&frame, 8, &mut out),
            );
            assert!(res.is_err(), "{total_log} {block_log}: {res:?}");
        }
    }
}

/// Blosc frame headers stating the largest sizes: the 20-byte frame of
/// issue 62 (typesize 8, `nbytes` and `blocksize` 715,827,536) and each
/// field at its extremes.
#[test]
fn blosc_header_claims_are_refused_before_allocating() {
    let n = 715_827_536i32;
    let mut bomb = vec![2u8, 1, 0x21, 8];
    for v in [n, n, 20, 20] {
        bomb.extend(v.to_le_bytes());
    }
    let bound = blosc::max_decompressed_len(bomb.len());
    let res = within("decompressed_len", bound, || blosc::decompressed_len(&bomb));
    assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    let res = within("decompress", bound, || blosc::decompress(&bomb));
    assert!(res.is_err());
    let res = within("decompress_with_limit", bound, || {
        blosc::decompress_with_limit(&bomb, usize::MAX)
    });
    assert!(res.is_err());
    // A caller that sized its output from the header.
    let mut out = vec![0u8; n as usize];
    for &isa in Isa::available() {
        let res = within("decompress_with", bound, || {
            blosc::decompress_with(isa, &bomb, &mut out)
        });
        assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    }
    drop(out);
    for flags in [0x21u8, 0x01, 0x04, 0x25, 0x31, 0x03, 0x00, 0x41] {
        for typesize in [1u8, 4, 8, 16, 255] {
            for nbytes in [i32::MAX, 1 << 30, 1 << 20, 4096] {
                for blocksize in [i32::MAX, nbytes, 1 << 16, 8] {
                    let mut frame = vec![2u8, 1, flags, typesize];
                    for v in [nbytes, blocksize, 40, 20, 24, 0x1f00_0000] {
                        frame.extend(v.to_le_bytes());
                    }
                    let bound = blosc::max_decompressed_len(frame.len());
                    let res = within("decompress", bound, || blosc::decompress(&frame));
                    assert!(res.is_err(), "{flags:#x} {typesize} {nbytes} {blocksize}");
                    let res = within("decompressed_len", bound, || {
                        blosc::decompressed_len(&frame)
                    });
                    if let Ok(len) = res {
                        assert!(len <= bound);
                    }
                }
            }
        }
    }
}

/// LZ4 blocks with their size in front and frames stating a content size:
/// every claim is checked against the 255-to-1 bound before allocating.
#[test]
fn lz4_claims_are_refused_before_allocating() {
    for size in [u32::MAX, 1 << 31, 1 << 24, 70_000] {
        for body in [&[0u8][..], &[0x1f, 0, 1, 0, 0xff, 0xff, 0x50, 0, 0, 0]] {
            let mut src = size.to_le_bytes().to_vec();
            src.extend_from_slice(body);
            let bound = lz4::block::max_decompressed_len(src.len());
            let res = within("size prepended", bound, || {
                lz4::block::decompress_size_prepended_with_limit(&src, usize::MAX)
            });
            assert!(res.is_err());
        }
    }
    let data = noise(200_000, 9);
    let frame = lz4::frame::compress(&data);
    for bad in damaged(&frame) {
        let bound = lz4::block::max_decompressed_len(bad.len());
        let _ = within("frame", bound, || lz4::frame::decompress(&bad));
    }
    let zeros = lz4::frame::compress(&vec![0u8; 1 << 20]);
    for bad in damaged(&zeros) {
        let bound = lz4::block::max_decompressed_len(bad.len());
        let _ = within("frame of zeros", bound, || lz4::frame::decompress(&bad));
    }
}

/// The container reader holds a block's payload only as far as the file
/// has bytes, whatever the block states.
#[test]
fn container_blocks_are_read_as_far_as_the_file_goes() {
    use container::{Element, Header, Reader};
    let header = Header {
        codec: 0,
        element: Element::U32,
        block_len: 1 << 24,
        total: None,
        dict_id: None,
    };
    for length in [u32::MAX, 0x7fff_ffff, 1 << 26, 1 << 20] {
        let mut file = header.to_bytes();
        file.extend(1u32.to_le_bytes());
        file.extend(length.to_le_bytes());
        file.extend([0u8; 4]);
        file.extend(noise(100, 1));
        let bound = file.len();
        within(&format!("block of {length:#x}"), bound, || {
            let mut r = Reader::new(&file[..])?;
            let mut payload = Vec::new();
            r.next_block(&mut payload)
        })
        .unwrap_err();
    }
}

/// Queries on posting lists decode a list only as far as its bytes go,
/// whatever count it claims: AND, OR and the count of two lists over the
/// same bytes allocate within what two such inputs can hold.
#[test]
fn posting_queries_allocate_no_more_than_the_input_holds() {
    use vecpress::bitpack::{bp128, fastlanes, pfor};
    use vecpress::postings::{self, Cursor};
    use vecpress::{stream_vbyte as svb, vbyte};
    type Make = for<'a> fn(&'a [u8], usize) -> Result<Box<dyn Cursor + 'a>, Error>;
    // Name, bytes of values one byte of input can hold at most, cursor.
    let cases: [(&str, usize, Make); 5] = [
        ("stream-vbyte", 4, |i, n| {
            Ok(Box::new(svb::DeltaCursor::new(i, n, 0)?))
        }),
        ("vbyte", 4, |i, n| {
            Ok(Box::new(vbyte::DeltaCursor::new(i, n, 0)))
        }),
        ("bp128", 512, |i, n| {
            Ok(Box::new(bp128::DeltaCursor::new(i, n, 0)))
        }),
        ("fastlanes", 4096, |i, n| {
            Ok(Box::new(fastlanes::DeltaCursor::new(i, n, 0)))
        }),
        ("pfor", 512, |i, n| {
            Ok(Box::new(pfor::DeltaCursor::new(i, n, 0)))
        }),
    ];
    let inputs = [vec![0u8; 64], vec![0xff; 64], noise(300, 5), vec![0u8; 3]];
    for (name, per_byte, make) in cases {
        for input in &inputs {
            for n in [0, 1, 1000, 1 << 30, usize::MAX / 16, usize::MAX] {
                let bound = 2 * per_byte * input.len();
                let pair = || -> Result<Vec<Box<dyn Cursor + '_>>, Error> {
                    Ok(vec![make(input, n)?, make(input, n / 2)?])
                };
                let what = format!("{name} n={n}");
                let _ = within(&format!("{what} or"), bound, || {
                    pair().and_then(|mut c| postings::or(&mut c, &mut Vec::new()))
                });
                let _ = within(&format!("{what} and"), bound, || {
                    pair().and_then(|mut c| postings::and(&mut c, &mut Vec::new()))
                });
                let _ = within(&format!("{what} count"), bound, || {
                    pair().and_then(|mut c| postings::and_count(&mut c))
                });
            }
        }
    }
}

/// Queries by one call on lists stored in one buffer take room for a list
/// only as far as its bytes could hold it (a value a byte, at most), whatever
/// count it claims: two lists over the same bytes allocate within what two
/// such inputs can hold, the largest with 1 MiB of zeros (control bytes
/// that each announce four one-byte values).
#[test]
fn stored_list_queries_allocate_no_more_than_the_input_holds() {
    use vecpress::stream_vbyte as svb;
    let inputs = [
        vec![0u8; 64],
        vec![0xff; 64],
        noise(300, 5),
        vec![0u8; 3],
        vec![0u8; 1 << 20],
    ];
    for input in &inputs {
        let len = input.len();
        for n in [0, 1, 1000, 4 * len / 5, len, 4 * len, 1 << 30, usize::MAX] {
            let bound = 2 * 4 * len;
            let spans = [(0, n), (0, n / 2)];
            let _ = within(&format!("and n={n} of {len}"), bound, || {
                svb::and_delta_lists(input, &spans, &mut Vec::new())
            });
            let _ = within(&format!("or n={n} of {len}"), bound, || {
                svb::or_delta_lists(input, &spans, &mut Vec::new())
            });
        }
    }
}

/// Hybrid posting lists (bitmaps, runs and gaps): decoding and queries
/// take room for ids only as far as their bytes can hold them
/// (`hybrid::max_decoded_len`), whatever a block's header claims: valid
/// lists of each form (and a short list of one block), their damaged
/// forms, and blocks claiming the most
/// ids, runs or windows their fields can state.
#[test]
fn hybrid_postings_allocate_within_their_bound() {
    use vecpress::postings::hybrid;
    let varint = |out: &mut Vec<u8>, mut v: u32| {
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    };
    let dense: Vec<u32> = (0..300_000).filter(|v| v % 3 != 0).collect();
    let runs: Vec<u32> = (0..100u32).flat_map(|r| r * 5000..r * 5000 + 900).collect();
    let sparse: Vec<u32> = (0..5000).map(|v| v * 977).collect();
    // One block of gaps: a query reads it by one decode, outside the walk.
    let short: Vec<u32> = (0..300).map(|v| v * 13).collect();
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for list in [&dense, &runs, &sparse, &short] {
        inputs.extend(damaged(&hybrid::encode(list).unwrap()));
        // With arrays (the short list becomes one).
        let mut arrays = Vec::new();
        hybrid::encode_within(list, hybrid::Room::Roaring, &mut arrays).unwrap();
        inputs.extend(damaged(&arrays));
    }
    // One block of each kind claiming the most its header can state, then
    // bytes that cannot back it.
    for kind in 0..4u32 {
        let mut b = vec![1];
        varint(&mut b, kind | (u32::MAX >> 2) << 2);
        varint(&mut b, 0);
        varint(&mut b, 40);
        b.extend(noise(40, u64::from(kind)));
        inputs.push(b);
    }
    for input in &inputs {
        let bound = 4 * hybrid::max_decoded_len(2 * input.len());
        let pair: [&[u8]; 2] = [input, input];
        let _ = within("hybrid decode", bound, || hybrid::decode_to_vec(input));
        let _ = within("hybrid and", bound, || hybrid::and(&pair, &mut Vec::new()));
        let _ = within("hybrid count", bound, || hybrid::and_count(&pair));
        let _ = within("hybrid or", bound, || hybrid::or(&pair, &mut Vec::new()));
    }
}
