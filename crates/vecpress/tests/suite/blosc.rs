//! Blosc version-1 frames: round trips over a table of parameters with
//! every kernel, hand-derived golden frames, interop with c-blosc 1.21
//! (built from source by `blosc-src`) in both directions, and bad input.

use crate::common::Rng;
use vecpress::blosc::{self, Compressor, Header, Params, Shuffle, SplitMode};
use vecpress::{Error, Isa};

/// Values that compress: a slow random walk, `typesize` bytes each.
fn walk(nbytes: usize, typesize: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut v = 1u64 << 20;
    let mut out = Vec::with_capacity(nbytes + 8);
    while out.len() < nbytes {
        v = v.wrapping_add(rng.below(9)).wrapping_sub(4);
        let bytes = v.to_le_bytes();
        out.extend((0..typesize).map(|k| bytes.get(k).copied().unwrap_or(0)));
    }
    out.truncate(nbytes);
    out
}

fn random(nbytes: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..nbytes).map(|_| rng.next_u64() as u8).collect()
}

/// The parameter table: every shuffle, typesizes across the split limit
/// and up to 255, low and high clevels, automatic and forced blocks, both
/// compressors.
fn table() -> Vec<Params> {
    let mut v = Vec::new();
    for compressor in [Compressor::Lz4, Compressor::Lz4hc] {
        for shuffle in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
            for typesize in [1usize, 2, 3, 4, 8, 16, 17, 255] {
                for clevel in [0u8, 1, 5, 9] {
                    for blocksize in [0usize, 256, 1000, 40_000] {
                        if compressor == Compressor::Lz4hc && (clevel == 1 || blocksize == 1000) {
                            continue;
                        }
                        v.push(Params {
                            compressor,
                            clevel,
                            shuffle,
                            typesize,
                            blocksize,
                            split: SplitMode::ForwardCompat,
                        });
                    }
                }
            }
        }
    }
    v
}

fn sizes() -> [usize; 6] {
    [0, 100, 128, 1001, 70_001, 300_000]
}

#[test]
fn round_trips_with_every_kernel() {
    for (k, p) in table().iter().enumerate() {
        for nbytes in sizes() {
            if nbytes == 300_000 && k % 5 != 0 {
                continue;
            }
            let input = walk(nbytes, p.typesize, k as u64);
            let frame = blosc::compress(&input, p).unwrap();
            let h = Header::parse(&frame).unwrap();
            assert_eq!((h.nbytes, h.cbytes), (nbytes, frame.len()), "{p:?}");
            for &isa in Isa::available() {
                let mut out = vec![0u8; nbytes];
                let res = blosc::decompress_with(isa, &frame, &mut out);
                assert_eq!(res, Ok(nbytes), "{isa} {p:?} n {nbytes}");
                assert!(out == input, "{isa} {p:?} n {nbytes}");
            }
        }
    }
}

#[test]
fn incompressible_data_is_stored_raw() {
    let input = random(50_000, 1);
    let frame = blosc::compress(&input, &Params::lz4(5, Shuffle::Byte, 4)).unwrap();
    assert_eq!(frame.len(), 50_016);
    assert_eq!(frame[2] & blosc::MEMCPYED, blosc::MEMCPYED);
    assert_eq!(&frame[16..], &input[..]);
    assert_eq!(blosc::decompress(&frame).unwrap(), input);
}

/// 40 bytes, under `MIN_BUFFERSIZE`: the header, then the data. Flags:
/// byte shuffle (0x01), memcpyed (0x02), don't split (0x10, 40 / 4 < 128
/// values), lz4 (1 << 5). The automatic block is the whole input.
const GOLDEN_RAW: [u8; 20] = [
    2, 1, 0x33, 4, 4, 0, 0, 0, 4, 0, 0, 0, 20, 0, 0, 0, // header
    1, 2, 3, 4, // data
];

/// 128 zero bytes, typesize 1, clevel 5, no shuffle: one block of 128
/// bytes (split: 128 values of 1 byte), its offset 20, its split 11 bytes
/// of LZ4: a literal zero, a match at offset 1 of 4 + 15 + 103 bytes, the
/// 5 last literals.
const GOLDEN_LZ4: [u8; 35] = [
    2, 1, 0x20, 1, 128, 0, 0, 0, 128, 0, 0, 0, 35, 0, 0, 0, // header
    20, 0, 0, 0, // offset of block 0
    11, 0, 0, 0, // size of its split
    0x1f, 0, 1, 0, 103, 0x50, 0, 0, 0, 0, 0, // the LZ4 block
];

#[test]
fn golden_frames_decode() {
    assert_eq!(blosc::decompress(&GOLDEN_RAW).unwrap(), [1, 2, 3, 4]);
    assert_eq!(blosc::decompress(&GOLDEN_LZ4).unwrap(), [0u8; 128]);
    let mut raw40 = GOLDEN_RAW.to_vec();
    raw40.truncate(16);
    raw40.extend(1..=40u8);
    raw40[4] = 40;
    raw40[8] = 40;
    raw40[12] = 56;
    assert_eq!(
        blosc::decompress(&raw40).unwrap(),
        (1..=40u8).collect::<Vec<_>>()
    );
}

#[test]
fn golden_frames_are_what_we_write() {
    let raw = blosc::compress(&[1, 2, 3, 4], &Params::lz4(5, Shuffle::Byte, 4)).unwrap();
    assert_eq!(raw, GOLDEN_RAW);
    let lz4 = blosc::compress(&[0u8; 128], &Params::lz4(5, Shuffle::None, 1)).unwrap();
    assert_eq!(lz4, GOLDEN_LZ4);
}

#[test]
fn other_compressors_are_named() {
    for (code, name) in [(0u8, "blosclz"), (2, "snappy"), (3, "zlib"), (4, "zstd")] {
        let mut frame = GOLDEN_LZ4.to_vec();
        frame[2] = (frame[2] & 0x1f) | code << 5;
        let err = blosc::decompress(&frame).unwrap_err();
        assert_eq!(
            err,
            Error::UnsupportedFormat {
                offset: 2,
                what: match name {
                    "blosclz" => "blosc compressor blosclz",
                    "snappy" => "blosc compressor snappy",
                    "zlib" => "blosc compressor zlib",
                    _ => "blosc compressor zstd",
                }
            }
        );
        assert!(err.to_string().contains(name), "{err}");
    }
}

#[test]
fn bad_frames_give_errors() {
    let input = walk(70_001, 4, 3);
    let frames = [
        blosc::compress(&input, &Params::lz4(5, Shuffle::Byte, 4)).unwrap(),
        blosc::compress(
            &input[..5000],
            &Params {
                blocksize: 1024,
                ..Params::lz4(9, Shuffle::Bit, 4)
            },
        )
        .unwrap(),
    ];
    for frame in &frames {
        for cut in 0..frame.len() {
            assert!(blosc::decompress(&frame[..cut]).is_err(), "cut {cut}");
        }
        let step = (frame.len() / 3000).max(1);
        for at in (0..frame.len()).step_by(step) {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = frame.clone();
                bad[at] ^= flip;
                // Any result but a panic: a flip in a literal still decodes.
                let _ = blosc::decompress(&bad);
            }
        }
    }
    let frame = &frames[0];
    let mut big = frame.clone();
    big[4..8].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(matches!(
        blosc::decompress(&big),
        Err(Error::LimitExceeded { .. })
    ));
    assert!(matches!(
        blosc::decompress_with_limit(frame, 70_000),
        Err(Error::LimitExceeded { .. })
    ));
    let mut out = vec![0u8; 70_000];
    assert!(matches!(
        blosc::decompress_into(frame, &mut out),
        Err(Error::OutputTooSmall { .. })
    ));
    let mut off = frame.clone();
    off[16..20].copy_from_slice(&(frame.len() as i32 - 2).to_le_bytes());
    assert!(matches!(
        blosc::decompress(&off),
        Err(Error::Corrupt { .. })
    ));
    let mut zero = frame.clone();
    zero[8..12].copy_from_slice(&0i32.to_le_bytes());
    assert_eq!(
        blosc::decompress(&zero),
        Err(Error::Corrupt {
            offset: 8,
            what: "block size out of range"
        })
    );
    let mut v3 = frame.clone();
    v3[0] = 3;
    assert!(matches!(
        blosc::decompress(&v3),
        Err(Error::UnsupportedFormat { offset: 0, .. })
    ));
    let mut short = frame.clone();
    short[12..16].copy_from_slice(&20i32.to_le_bytes());
    assert!(matches!(
        blosc::decompress(&short),
        Err(Error::Corrupt { offset: 12, .. })
    ));
}

#[test]
fn parameters_are_checked() {
    let p = Params::lz4(10, Shuffle::None, 1);
    assert!(matches!(
        blosc::compress(&[0; 10], &p),
        Err(Error::InvalidArgument { .. })
    ));
    let p = Params::lz4(5, Shuffle::None, 0);
    assert!(matches!(
        blosc::compress(&[0; 10], &p),
        Err(Error::InvalidArgument { .. })
    ));
    let mut out = [0u8; 20];
    assert!(matches!(
        blosc::compress_into(&[0; 10], &Params::default(), &mut out),
        Err(Error::OutputTooSmall {
            needed: 26,
            actual: 20
        })
    ));
}

#[cfg(target_arch = "x86_64")]
mod c_blosc {
    use super::*;
    use std::ffi::{CString, c_int, c_void};
    use std::sync::Mutex;

    /// c-blosc's split mode is a process global: tests that set it hold this.
    static SPLIT_MODE: Mutex<()> = Mutex::new(());

    fn c_compress(input: &[u8], p: &Params) -> Vec<u8> {
        let mut out = vec![0u8; input.len() + 16];
        let cname = CString::new(p.compressor.name()).unwrap();
        let shuffle = match p.shuffle {
            Shuffle::None => 0,
            Shuffle::Byte => 1,
            Shuffle::Bit => 2,
        };
        // SAFETY: `input` and `out` are valid for the lengths passed; c-blosc
        // writes at most `destsize` bytes; `cname` is a NUL-terminated string.
        let n = unsafe {
            blosc_src::blosc_compress_ctx(
                c_int::from(p.clevel),
                shuffle,
                p.typesize,
                input.len(),
                input.as_ptr().cast::<c_void>(),
                out.as_mut_ptr().cast::<c_void>(),
                out.len(),
                cname.as_ptr(),
                p.blocksize,
                1,
            )
        };
        assert!(n > 0, "c-blosc compress {p:?}: {n}");
        out.truncate(n as usize);
        out
    }

    fn c_decompress(frame: &[u8], nbytes: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; nbytes];
        // SAFETY: c-blosc reads the frame within the sizes its header states,
        // which our frames keep within `frame`, and writes at most
        // `destsize` bytes of `out`.
        let n = unsafe {
            blosc_src::blosc_decompress_ctx(
                frame.as_ptr().cast::<c_void>(),
                out.as_mut_ptr().cast::<c_void>(),
                out.len(),
                1,
            )
        };
        (n >= 0 && n as usize == nbytes).then_some(out)
    }

    fn set_split_mode(mode: SplitMode) {
        let m = match mode {
            SplitMode::Always => blosc_src::BLOSC_ALWAYS_SPLIT,
            SplitMode::Never => blosc_src::BLOSC_NEVER_SPLIT,
            SplitMode::Auto => blosc_src::BLOSC_AUTO_SPLIT,
            SplitMode::ForwardCompat => blosc_src::BLOSC_FORWARD_COMPAT_SPLIT,
        };
        // SAFETY: sets a global int; callers hold `SPLIT_MODE`.
        unsafe { blosc_src::blosc_set_splitmode(m as c_int) };
    }

    /// Both directions for one parameter set and input; whether the two
    /// frames are identical.
    fn both_ways(input: &[u8], p: &Params, ctx: &str) -> bool {
        both_ways_frame(input, p, ctx).0
    }

    /// [`both_ways`], and our frame.
    fn both_ways_frame(input: &[u8], p: &Params, ctx: &str) -> (bool, Vec<u8>) {
        let theirs = c_compress(input, p);
        let theirs_ok = c_decompress(&theirs, input.len()).is_some();
        for &isa in Isa::available() {
            let mut out = vec![0u8; input.len()];
            let res = blosc::decompress_with(isa, &theirs, &mut out);
            if !theirs_ok {
                // c-blosc cannot read this frame of its own (split blocks of
                // more than 16 byte streams): neither do we.
                assert!(
                    res.is_err(),
                    "{isa} decoding c-blosc's unreadable frame, {ctx}"
                );
                continue;
            }
            assert_eq!(
                res,
                Ok(input.len()),
                "{isa} decoding c-blosc's frame, {ctx}"
            );
            assert!(out == input, "{isa} decoding c-blosc's frame, {ctx}");
        }
        let ours = blosc::compress(input, p).unwrap();
        let back = c_decompress(&ours, input.len());
        assert!(
            back.as_deref() == Some(input),
            "c-blosc decoding our frame, {ctx}"
        );
        // The same header but the frame size. Where LZ4 leaves the data
        // within a few bytes of its size, one side may fall back to a raw
        // frame and the other not, as our LZ4 blocks are not always
        // liblz4's to the byte.
        assert_eq!(ours[..2], theirs[..2], "header bytes 0..2, {ctx}");
        assert_eq!(ours[3..12], theirs[3..12], "header bytes 3..12, {ctx}");
        let flags = ours[2] ^ theirs[2];
        assert_eq!(flags & !blosc::MEMCPYED, 0, "flags, {ctx}");
        if flags != 0 {
            let tight = (input.len() + 16).saturating_sub(input.len() / 50 + 32);
            assert!(ours.len().min(theirs.len()) >= tight, "raw fallback, {ctx}");
        }
        (ours == theirs, ours)
    }

    /// LZ4HC at clevel 1 is c-blosc's to the byte: `LZ4_compress_HC` at
    /// level 1 runs level 2's parser, not the fast compressor that level 1
    /// means in the LZ4 frame API (issue 62).
    #[test]
    fn lz4hc_at_clevel_1_is_c_blosc_to_the_byte() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        set_split_mode(SplitMode::ForwardCompat);
        for (k, shuffle) in [Shuffle::None, Shuffle::Byte, Shuffle::Bit]
            .into_iter()
            .enumerate()
        {
            for typesize in [1usize, 4, 8] {
                let input = walk(200_003, typesize, 40 + k as u64);
                let p = Params {
                    compressor: Compressor::Lz4hc,
                    ..Params::lz4(1, shuffle, typesize)
                };
                let ctx = format!("{p:?}");
                let (identical, _) = both_ways_frame(&input, &p, &ctx);
                assert!(identical, "{ctx}: not c-blosc's frame");
            }
        }
    }

    #[test]
    fn both_ways_over_the_table() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        set_split_mode(SplitMode::ForwardCompat);
        let (mut same, mut total) = (0, 0);
        for (k, p) in table().iter().enumerate() {
            for nbytes in sizes() {
                if nbytes == 300_000 && k % 5 != 0 {
                    continue;
                }
                let input = walk(nbytes, p.typesize, k as u64);
                same += usize::from(both_ways(&input, p, &format!("{p:?} n {nbytes}")));
                total += 1;
            }
        }
        // Our LZ4 parse is liblz4's, so most frames match byte for byte.
        assert!(same * 2 > total, "{same} of {total} frames identical");
    }

    /// Every typesize 1 to 255 with LZ4, a few KB each, every shuffle, in
    /// each split mode (Auto is Never for LZ4), as one automatic block and
    /// as forced blocks of 1 KB (split or not by the block's values, with
    /// a short last block); the clevel turns with the typesize.
    #[test]
    fn both_ways_at_every_typesize() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        let (mut same, mut total) = (0, 0);
        for mode in [
            SplitMode::ForwardCompat,
            SplitMode::Always,
            SplitMode::Never,
        ] {
            set_split_mode(mode);
            for typesize in 1..=255usize {
                // Not a whole number of values: a leftover in the last block.
                let nbytes = 2048 + 7 * typesize + typesize / 2;
                let input = walk(nbytes, typesize, typesize as u64);
                for shuffle in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
                    for blocksize in [0, 1024] {
                        let p = Params {
                            blocksize,
                            split: mode,
                            ..Params::lz4(1 + (typesize % 9) as u8, shuffle, typesize)
                        };
                        let ctx = format!("{p:?} n {nbytes}");
                        same += usize::from(both_ways(&input, &p, &ctx));
                        total += 1;
                    }
                }
            }
        }
        set_split_mode(SplitMode::ForwardCompat);
        assert!(same * 2 > total, "{same} of {total} frames identical");
    }

    /// Every clevel of LZ4 and LZ4HC with the automatic block size, which
    /// grows with the clevel (twice as fast for LZ4HC, up to 1 MB) and with
    /// the typesize of split blocks: inputs over 1 MB hold several blocks
    /// of each size (header bytes 8..12, which `both_ways` compares), for
    /// each shuffle and a split and an unsplit typesize.
    #[test]
    fn both_ways_at_every_clevel() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        set_split_mode(SplitMode::ForwardCompat);
        let (mut same, mut total) = (0, 0);
        let mut blocksizes = std::collections::BTreeSet::new();
        for compressor in [Compressor::Lz4, Compressor::Lz4hc] {
            for clevel in 0..=9u8 {
                for (s, shuffle) in [Shuffle::None, Shuffle::Byte, Shuffle::Bit]
                    .into_iter()
                    .enumerate()
                {
                    let k = usize::from(clevel) * 3 + s;
                    let split = [1usize, 2, 4, 8, 16][k % 5];
                    let unsplit = [24usize, 17, 33, 255][k % 4];
                    for typesize in [split, unsplit] {
                        let nbytes = (1 << 20) + 3 * typesize + 1;
                        let input = walk(nbytes, typesize, k as u64);
                        let p = Params {
                            compressor,
                            ..Params::lz4(clevel, shuffle, typesize)
                        };
                        let ctx = format!("{p:?} n {nbytes}");
                        let (identical, frame) = both_ways_frame(&input, &p, &ctx);
                        same += usize::from(identical);
                        total += 1;
                        let h = Header::parse(&frame).unwrap();
                        blocksizes.insert((compressor.name(), h.blocksize));
                    }
                }
            }
        }
        assert!(same * 2 > total, "{same} of {total} frames identical");
        // The clevels chose blocks of many sizes, from LZ4's 8 KB at
        // clevel 0 to LZ4HC's 1 MB at clevel 9.
        for name in ["lz4", "lz4hc"] {
            let n = blocksizes.iter().filter(|b| b.0 == name).count();
            assert!(n >= 8, "{name}: block sizes {blocksizes:?}");
        }
        assert!(blocksizes.contains(&("lz4", 8 << 10)), "{blocksizes:?}");
        assert!(blocksizes.contains(&("lz4hc", 1 << 20)), "{blocksizes:?}");
    }

    #[test]
    fn both_ways_in_every_split_mode() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        for mode in [
            SplitMode::Always,
            SplitMode::Never,
            SplitMode::Auto,
            SplitMode::ForwardCompat,
        ] {
            set_split_mode(mode);
            for typesize in [1usize, 4, 8, 24] {
                for shuffle in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
                    let p = Params {
                        split: mode,
                        ..Params::lz4(5, shuffle, typesize)
                    };
                    let input = walk(100_003, typesize, 5);
                    both_ways(&input, &p, &format!("{p:?}"));
                }
            }
        }
        set_split_mode(SplitMode::ForwardCompat);
    }

    #[test]
    fn golden_frames_match_c_blosc() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        assert_eq!(
            c_compress(&[1, 2, 3, 4], &Params::lz4(5, Shuffle::Byte, 4)),
            GOLDEN_RAW
        );
        assert_eq!(
            c_compress(&[0u8; 128], &Params::lz4(5, Shuffle::None, 1)),
            GOLDEN_LZ4
        );
    }

    /// Values whose low bytes are noise and high bytes a slow walk, as
    /// measured floats are: within one split block some splits shrink and
    /// others, not fitting their own size, are stored raw.
    fn noisy_floats(nbytes: usize, typesize: usize, seed: u64) -> Vec<u8> {
        let mut rng = Rng::new(seed);
        let high = walk(nbytes, typesize, seed);
        high.iter()
            .enumerate()
            .map(|(i, &b)| {
                if i % typesize < typesize / 2 {
                    rng.next_u64() as u8
                } else {
                    b
                }
            })
            .collect()
    }

    #[test]
    fn raw_and_compressed_splits_in_one_block_both_ways() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        set_split_mode(SplitMode::ForwardCompat);
        for typesize in [2usize, 4, 8] {
            for nbytes in [65_536, 200_000, 1 << 20] {
                let input = noisy_floats(nbytes, typesize, nbytes as u64);
                let p = Params::lz4(5, Shuffle::Byte, typesize);
                let frame = blosc::compress(&input, &p).unwrap();
                // Not the raw frame: the walk's bytes shrink.
                assert_eq!(frame[2] & blosc::MEMCPYED, 0, "{p:?} n {nbytes}");
                assert!(both_ways(&input, &p, &format!("{p:?} n {nbytes}")));
            }
        }
    }

    #[test]
    fn lz4_frames_at_numcodecs_settings_are_c_blosc_s_to_the_byte() {
        // Our LZ4 parse is liblz4's, acceleration included (c-blosc's
        // `10 - clevel`), and each split is bounded by its own size as
        // c-blosc bounds it.
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        set_split_mode(SplitMode::ForwardCompat);
        for clevel in [1u8, 5, 9] {
            for typesize in [4usize, 8] {
                for nbytes in [1001, 65_536, 300_000] {
                    let input = walk(nbytes, typesize, u64::from(clevel));
                    let p = Params::lz4(clevel, Shuffle::Byte, typesize);
                    assert!(both_ways(&input, &p, &format!("{p:?} n {nbytes}")));
                }
            }
        }
    }

    #[test]
    fn incompressible_and_random_data_both_ways() {
        let _guard = SPLIT_MODE.lock().unwrap_or_else(|e| e.into_inner());
        for typesize in [1usize, 4, 7] {
            for shuffle in [Shuffle::None, Shuffle::Byte, Shuffle::Bit] {
                let input = random(100_000, typesize as u64);
                let p = Params::lz4(5, shuffle, typesize);
                assert!(both_ways(&input, &p, &format!("{p:?}")));
            }
        }
    }
}

/// The threaded decoder gives what the one-thread decoder gives, output
/// and errors alike, at every kernel and thread count, including frames
/// damaged in their block offsets, split sizes and LZ4 data.
#[test]
fn threads_decode_as_one_thread_does() {
    let input = walk(300_001, 8, 9);
    let mut frames = Vec::new();
    for (shuffle, blocksize) in [
        (Shuffle::Byte, 16_384),
        (Shuffle::Bit, 4096),
        (Shuffle::None, 40_000),
    ] {
        frames.push(
            blosc::compress(
                &input,
                &Params {
                    blocksize,
                    ..Params::lz4(5, shuffle, 8)
                },
            )
            .unwrap(),
        );
    }
    frames.push(blosc::compress(&input[..1000], &Params::lz4(5, Shuffle::Byte, 8)).unwrap());
    frames.push(blosc::compress(&random(50_000, 2), &Params::lz4(5, Shuffle::Byte, 4)).unwrap());
    // Frames of one block: their splits are what the threads share.
    for (shuffle, typesize, len) in [
        (Shuffle::Byte, 8, 300_000),
        (Shuffle::Byte, 4, 300_000),
        (Shuffle::Byte, 16, 299_920),
        (Shuffle::Bit, 8, 300_000),
        (Shuffle::None, 8, 300_000),
        (Shuffle::Byte, 8, 299_999),
    ] {
        let p = Params {
            blocksize: len,
            ..Params::lz4(5, shuffle, typesize)
        };
        frames.push(blosc::compress(&input[..len], &p).unwrap());
    }
    let mut damaged = Vec::new();
    for frame in &frames {
        let mut rng = Rng::new(frame.len() as u64);
        for _ in 0..40 {
            let mut bad = frame.clone();
            let at = 16 + rng.below((bad.len() - 16) as u64) as usize;
            bad[at] ^= 1 << rng.below(8);
            damaged.push(bad);
        }
        damaged.push(frame[..frame.len() - 1].to_vec());
    }
    for (k, frame) in frames.iter().enumerate() {
        let h = Header::parse(frame).unwrap();
        if (5..10).contains(&k) {
            assert!(h.blocksize >= h.nbytes, "frame {k} is one block");
        }
        let mut out = vec![0u8; h.nbytes];
        assert_eq!(
            blosc::decompress_into_threads(frame, &mut out, 2),
            Ok(h.nbytes)
        );
        assert!(k == 4 || out == input[..h.nbytes], "frame {k}");
    }
    for frame in frames.iter().chain(&damaged) {
        for &isa in Isa::available() {
            let mut want = vec![0u8; input.len()];
            let one = blosc::decompress_with(isa, frame, &mut want);
            for threads in [0, 1, 2, 3, 7, 64] {
                let mut got = vec![0u8; input.len()];
                let res = blosc::decompress_threads_with(isa, frame, &mut got, threads);
                assert_eq!(res, one, "{isa} threads {threads}");
                if let Ok(n) = one {
                    assert!(got[..n] == want[..n], "{isa} threads {threads}");
                }
            }
        }
    }
    let mut small = vec![0u8; input.len() - 1];
    assert!(matches!(
        blosc::decompress_into_threads(&frames[0], &mut small, 2),
        Err(Error::OutputTooSmall { .. })
    ));
}
