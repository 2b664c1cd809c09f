//! LZ4 with dictionaries: blocks and frames round trip with every frame
//! option; a frame naming a dictionary fails clearly without it (or with
//! another); and, on x86-64, liblz4 decodes ours and we decode its, both ways
//! (`LZ4_decompress_safe_usingDict`, `LZ4_loadDict` +
//! `LZ4_compress_fast_continue`, `LZ4F_compressFrame_usingCDict`,
//! `LZ4F_decompress_usingDict`); and the `lz4 -D` command reads our frames
//! (skipped, with a note, when it is not on PATH).

use std::io::{Read, Write};

use crate::common::{self, Rng, infos, random_bytes, repetitive, text_like};
use vecpress::Error;
#[cfg(target_arch = "x86_64")]
use vecpress::lz4::block;
use vecpress::lz4::dict;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

/// Content that borrows from `dict` (pieces of it, with fresh bytes
/// between), `n` bytes.
fn borrowing(dict: &[u8], n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if dict.len() > 64 && r.below(4) != 0 {
            let from = r.below(dict.len() as u64 - 64) as usize;
            let take = 8 + r.below(56) as usize;
            out.extend_from_slice(&dict[from..from + take]);
        } else {
            out.extend(random_bytes(1 + r.below(20) as usize, r.next_u64()));
        }
    }
    out.truncate(n);
    out
}

/// Dictionaries of each size class: empty, tiny, small, exactly 64 KiB, and
/// longer than LZ4 can use.
fn dicts() -> Vec<(&'static str, Vec<u8>)> {
    let long = [text_like(90_000, 11), repetitive(30_000, 12)].concat();
    vec![
        ("empty", Vec::new()),
        ("tiny", b"abc".to_vec()),
        ("small", text_like(3000, 13)),
        ("64k", long[long.len() - 65_536..].to_vec()),
        ("120k", long),
    ]
}

/// A frame of `data` with `d`; a content size in `info` (any value)
/// declares `data`'s length.
fn encode(data: &[u8], info: FrameInfo, d: &[u8]) -> Vec<u8> {
    let info = info.content_size(info.get_content_size().map(|_| data.len() as u64));
    let mut enc = FrameEncoder::with_dictionary(Vec::new(), info, d);
    // Uneven writes, so blocks fill across calls.
    for piece in data.chunks(70_001) {
        enc.write_all(piece).unwrap();
    }
    enc.finish().unwrap()
}

#[test]
fn frames_with_a_dictionary_round_trip_with_every_option() {
    for (name, d) in dicts() {
        let data = borrowing(&d, 200_000, 3);
        let id = dict::dictionary_id(&d);
        for info in infos(BlockSize::Max64KB).chain(infos(BlockSize::Max256KB).step_by(3)) {
            let packed = encode(&data, info, &d);
            let mut dec = FrameDecoder::with_dictionary(&packed[..], &d);
            let mut back = Vec::new();
            dec.read_to_end(&mut back).unwrap();
            assert!(back == data, "{name} {info:?}");
            assert_eq!(frame::decompress_with_dict(&packed, &d).unwrap(), data);
            // The header names the dictionary.
            let mut dec = FrameDecoder::with_dictionary(&packed[..], &d);
            dec.read_exact(&mut [0u8; 1]).unwrap();
            assert_eq!(dec.frame_info().unwrap().get_dict_id(), Some(id));
        }
        let plain = frame::compress(&data).len();
        let with = frame::compress_with_dict(&data, &d).len();
        if d.len() > 1000 {
            assert!(
                with < plain * 9 / 10,
                "{name}: {with} with, {plain} without"
            );
        }
    }
}

#[test]
fn a_frame_naming_a_dictionary_fails_without_it_before_any_output() {
    let d = text_like(10_000, 21);
    let other = text_like(10_000, 22);
    let data = borrowing(&d, 100_000, 23);
    let packed = frame::compress_with_dict(&data, &d);
    let (id, other_id) = (dict::dictionary_id(&d), dict::dictionary_id(&other));
    let missing = Error::DictionaryMismatch {
        needed: id,
        given: None,
    };
    let wrong = Error::DictionaryMismatch {
        needed: id,
        given: Some(other_id),
    };
    assert_eq!(frame::decompress(&packed), Err(missing.clone()));
    assert_eq!(
        frame::decompress_with_dict(&packed, &other),
        Err(wrong.clone())
    );
    let mut out = vec![0u8; data.len()];
    assert_eq!(
        frame::decompress_into(&packed, &mut out),
        Err(missing.clone())
    );
    // Nothing comes out of the reader before the error.
    let mut dec = FrameDecoder::new(&packed[..]);
    let mut buf = [0u8; 100];
    let err = dec.read(&mut buf).unwrap_err();
    assert_eq!(Error::from(err), missing);
    assert!(
        missing.to_string().contains(&format!("{id:#010x}")),
        "{missing}"
    );
    assert!(
        wrong.to_string().contains(&format!("{other_id:#010x}")),
        "{wrong}"
    );
    // A frame after a plain one: the plain one comes out, then the error.
    let mut two = frame::compress(b"plain first");
    two.extend_from_slice(&packed);
    let mut dec = FrameDecoder::new(&two[..]);
    let mut got = Vec::new();
    let err = dec.read_to_end(&mut got).unwrap_err();
    assert_eq!(Error::from(err), missing);
    assert_eq!(got, b"plain first");
}

#[test]
fn dictionary_frames_with_flipped_bytes_give_errors_not_panics() {
    let d = text_like(2000, 31);
    let data = borrowing(&d, 3000, 32);
    let info = FrameInfo::new()
        .block_checksums(false)
        .content_checksum(false);
    for info in [info, info.independent_blocks(false)] {
        let packed = encode(&data, info, &d);
        for i in 0..packed.len() {
            for bit in [1u8, 0x80] {
                let mut bad = packed.clone();
                bad[i] ^= bit;
                // Either an error or some output; never a panic.
                let _ = frame::decompress_with_dict(&bad, &d);
                let _ = frame::decompress(&bad);
            }
        }
    }
}

#[test]
fn the_lz4_command_reads_our_dictionary_frames() {
    use std::process::Command;
    if !common::lz4_command() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("vecpress-lz4-dict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, d) in dicts().into_iter().filter(|(n, _)| *n != "empty") {
        let data = borrowing(&d, 150_000, 41);
        let dict_path = dir.join(format!("{name}.dict"));
        std::fs::write(&dict_path, &d).unwrap();
        for info in [FrameInfo::new(), FrameInfo::new().independent_blocks(false)] {
            let packed = encode(&data, info, &d);
            let src = dir.join(format!("{name}.lz4"));
            std::fs::write(&src, &packed).unwrap();
            let out = Command::new("lz4")
                .arg("-D")
                .arg(&dict_path)
                .args(["-d", "-c", "-q"])
                .arg(&src)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "lz4 -D -d {name}: {stderr}");
            assert!(out.stdout == data, "lz4 -D -d {name} {info:?}");
        }
        // And we read what `lz4 -D` writes (its header names no dictionary).
        let raw = dir.join(format!("{name}.raw"));
        std::fs::write(&raw, &data).unwrap();
        let out = Command::new("lz4")
            .arg("-D")
            .arg(&dict_path)
            .args(["-c", "-q"])
            .arg(&raw)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(
            frame::decompress_with_dict(&out.stdout, &d).unwrap() == data,
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_arch = "x86_64")]
mod liblz4 {
    //! liblz4 (built by `lz4-sys`) exports more than `lz4-sys` declares; the
    //! dictionary functions are declared here from `lz4.h` and `lz4frame.h`
    //! (liblz4 1.10).
    use std::ffi::{c_char, c_int, c_uint, c_void};

    use lz4::liblz4::{
        BlockChecksum, BlockMode, BlockSize as TheirSize, ContentChecksum, FrameType,
        LZ4_createStream, LZ4_freeStream, LZ4F_createDecompressionContext,
        LZ4F_freeDecompressionContext, LZ4F_isError, LZ4FDecompressionContext, LZ4FFrameInfo,
        LZ4FPreferences, LZ4StreamEncode,
    };

    use super::*;

    unsafe extern "C" {
        fn LZ4_decompress_safe_usingDict(
            src: *const c_char,
            dst: *mut c_char,
            src_size: c_int,
            dst_capacity: c_int,
            dict_start: *const c_char,
            dict_size: c_int,
        ) -> c_int;
        fn LZ4_loadDict(
            stream: *mut LZ4StreamEncode,
            dict: *const c_char,
            dict_size: c_int,
        ) -> c_int;
        fn LZ4_compress_fast_continue(
            stream: *mut LZ4StreamEncode,
            src: *const c_char,
            dst: *mut c_char,
            src_size: c_int,
            dst_capacity: c_int,
            acceleration: c_int,
        ) -> c_int;
        fn LZ4F_createCompressionContext(ctx: *mut *mut c_void, version: c_uint) -> usize;
        fn LZ4F_freeCompressionContext(ctx: *mut c_void) -> usize;
        fn LZ4F_compressFrameBound(src_size: usize, prefs: *const LZ4FPreferences) -> usize;
        fn LZ4F_createCDict(dict: *const c_void, dict_size: usize) -> *mut c_void;
        fn LZ4F_freeCDict(cdict: *mut c_void);
        fn LZ4F_compressFrame_usingCDict(
            cctx: *mut c_void,
            dst: *mut c_void,
            dst_capacity: usize,
            src: *const c_void,
            src_size: usize,
            cdict: *const c_void,
            prefs: *const LZ4FPreferences,
        ) -> usize;
        fn LZ4F_decompress_usingDict(
            dctx: LZ4FDecompressionContext,
            dst: *mut c_void,
            dst_size: *mut usize,
            src: *const c_void,
            src_size: *mut usize,
            dict: *const c_void,
            dict_size: usize,
            options: *const c_void,
        ) -> usize;
    }

    /// `LZ4F_VERSION`.
    const LZ4F_VERSION: c_uint = 100;

    fn their_block_decode(packed: &[u8], d: &[u8], n: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; n];
        // SAFETY: every pointer comes with its slice's length; liblz4 reads
        // at most `packed.len()` and `d.len()` bytes and writes at most
        // `out.len()`.
        let got = unsafe {
            LZ4_decompress_safe_usingDict(
                packed.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                packed.len() as c_int,
                out.len() as c_int,
                d.as_ptr().cast(),
                d.len() as c_int,
            )
        };
        (got == n as c_int).then_some(out)
    }

    fn their_block_encode(src: &[u8], d: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; block::max_compressed_len(src.len())];
        // SAFETY: `LZ4_createStream` returns a stream or null (checked).
        let stream = unsafe { LZ4_createStream() };
        assert!(!stream.is_null());
        // SAFETY: `stream` is a live stream; `d` outlives it (the stream
        // refers to it until freed below) and is `d.len()` bytes.
        unsafe { LZ4_loadDict(stream, d.as_ptr().cast(), d.len() as c_int) };
        // SAFETY: `src` and `out` are valid for their lengths, `d` is still
        // alive, and `out` holds the worst case.
        let n = unsafe {
            LZ4_compress_fast_continue(
                stream,
                src.as_ptr().cast(),
                out.as_mut_ptr().cast(),
                src.len() as c_int,
                out.len() as c_int,
                1,
            )
        };
        // SAFETY: `stream` came from `LZ4_createStream` and is freed once.
        unsafe { LZ4_freeStream(stream) };
        assert!(n > 0 || src.is_empty(), "LZ4_compress_fast_continue failed");
        out.truncate(n.max(0) as usize);
        out
    }

    #[test]
    fn blocks_with_a_dictionary_both_ways() {
        for (name, d) in dicts() {
            for n in [0usize, 1, 12, 13, 100, 1024, 65_536, 200_000] {
                let src = borrowing(&d, n, n as u64 + 7);
                let mut ours = vec![0u8; block::max_compressed_len(n)];
                let len = block::compress_with_dict(&src, &d, &mut ours).unwrap();
                let back = their_block_decode(&ours[..len], &d, n);
                assert!(
                    back.as_deref() == Some(&src[..]),
                    "liblz4 decodes ours: {name} {n}"
                );
                let theirs = their_block_encode(&src, &d);
                let mut out = vec![0u8; n];
                let got = block::decompress_with_dict(&theirs, &d, &mut out);
                assert_eq!(got, Ok(n), "we decode liblz4's: {name} {n}");
                assert!(out == src, "we decode liblz4's: {name} {n}");
                // The harder search finds no less than liblz4's fast one.
                if n >= 1024 && d.len() > 1000 {
                    assert!(
                        len <= theirs.len() + theirs.len() / 50,
                        "{name} {n}: {len} vs {}",
                        theirs.len()
                    );
                }
            }
        }
    }

    fn prefs(info: FrameInfo, dict_id: u32, content_size: u64) -> LZ4FPreferences {
        LZ4FPreferences {
            frame_info: LZ4FFrameInfo {
                block_size_id: match info.get_block_size() {
                    BlockSize::Max64KB => TheirSize::Max64KB,
                    BlockSize::Max256KB => TheirSize::Max256KB,
                    BlockSize::Max1MB => TheirSize::Max1MB,
                    BlockSize::Max4MB => TheirSize::Max4MB,
                },
                block_mode: if info.get_independent_blocks() {
                    BlockMode::Independent
                } else {
                    BlockMode::Linked
                },
                content_checksum_flag: if info.get_content_checksum() {
                    ContentChecksum::ChecksumEnabled
                } else {
                    ContentChecksum::NoChecksum
                },
                frame_type: FrameType::Frame,
                content_size: if info.get_content_size().is_some() {
                    content_size
                } else {
                    0
                },
                dict_id,
                block_checksum_flag: if info.get_block_checksums() {
                    BlockChecksum::BlockChecksumEnabled
                } else {
                    BlockChecksum::NoBlockChecksum
                },
            },
            compression_level: 0,
            auto_flush: 0,
            favor_dec_speed: 0,
            reserved: [0; 3],
        }
    }

    /// `LZ4F_compressFrame_usingCDict` with `dict_id` in the header (0: none).
    fn their_frame_encode(src: &[u8], d: &[u8], info: FrameInfo, dict_id: u32) -> Vec<u8> {
        let p = prefs(info, dict_id, src.len() as u64);
        // SAFETY: `p` is a valid preferences struct for the call.
        let bound = unsafe { LZ4F_compressFrameBound(src.len(), &p) };
        let mut out = vec![0u8; bound];
        let mut cctx: *mut c_void = std::ptr::null_mut();
        // SAFETY: `cctx` is a valid place for the context pointer.
        let code = unsafe { LZ4F_createCompressionContext(&mut cctx, LZ4F_VERSION) };
        // SAFETY: `LZ4F_isError` only inspects the code.
        assert!(unsafe { LZ4F_isError(code) } == 0);
        // SAFETY: `d` is valid for `d.len()` bytes; the CDict copies it.
        let cdict = unsafe { LZ4F_createCDict(d.as_ptr().cast(), d.len()) };
        assert!(!cdict.is_null());
        // SAFETY: live context and CDict; `out` holds the bound for `p`,
        // `src` is valid for its length.
        let n = unsafe {
            LZ4F_compressFrame_usingCDict(
                cctx,
                out.as_mut_ptr().cast(),
                out.len(),
                src.as_ptr().cast(),
                src.len(),
                cdict,
                &p,
            )
        };
        // SAFETY: both were created above and are freed once.
        unsafe {
            LZ4F_freeCDict(cdict);
            LZ4F_freeCompressionContext(cctx);
        }
        // SAFETY: as above.
        assert!(
            unsafe { LZ4F_isError(n) } == 0,
            "LZ4F_compressFrame_usingCDict failed"
        );
        out.truncate(n);
        out
    }

    /// `LZ4F_decompress_usingDict` over the whole frame.
    fn their_frame_decode(packed: &[u8], d: &[u8], n: usize) -> Vec<u8> {
        let mut dctx = LZ4FDecompressionContext(std::ptr::null_mut());
        // SAFETY: `dctx` is a valid place for the context.
        let code = unsafe { LZ4F_createDecompressionContext(&mut dctx, LZ4F_VERSION) };
        // SAFETY: only inspects the code.
        assert!(unsafe { LZ4F_isError(code) } == 0);
        let mut out = vec![0u8; n + 1];
        let (mut ip, mut op) = (0usize, 0usize);
        loop {
            let mut src_size = packed.len() - ip;
            let mut dst_size = out.len() - op;
            // SAFETY: the sizes passed are the room left in `packed` and
            // `out` after the offsets; `d` stays alive for the whole frame.
            let hint = unsafe {
                LZ4F_decompress_usingDict(
                    LZ4FDecompressionContext(dctx.0),
                    out.as_mut_ptr().add(op).cast(),
                    &mut dst_size,
                    packed.as_ptr().add(ip).cast(),
                    &mut src_size,
                    d.as_ptr().cast(),
                    d.len(),
                    std::ptr::null(),
                )
            };
            // SAFETY: only inspects the code.
            assert!(
                unsafe { LZ4F_isError(hint) } == 0,
                "LZ4F_decompress_usingDict failed"
            );
            ip += src_size;
            op += dst_size;
            if hint == 0 || (src_size == 0 && dst_size == 0) {
                break;
            }
        }
        // SAFETY: created above, freed once.
        unsafe { LZ4F_freeDecompressionContext(dctx) };
        out.truncate(op);
        out
    }

    #[test]
    fn frames_with_a_dictionary_both_ways() {
        for (name, d) in dicts() {
            let data = borrowing(&d, 300_000, 51);
            let id = dict::dictionary_id(&d);
            for info in infos(BlockSize::Max64KB).chain([
                FrameInfo::new().block_size(BlockSize::Max256KB),
                FrameInfo::new()
                    .block_size(BlockSize::Max1MB)
                    .independent_blocks(false),
            ]) {
                let ours = encode(&data, info, &d);
                assert!(
                    their_frame_decode(&ours, &d, data.len()) == data,
                    "liblz4 decodes ours: {name} {info:?}"
                );
                let theirs = their_frame_encode(&data, &d, info, id);
                let got = frame::decompress_with_dict(&theirs, &d);
                assert!(
                    got.as_ref() == Ok(&data),
                    "we decode liblz4's: {name} {info:?}: {:?}",
                    got.map(|v| v.len())
                );
                // Without an id in its header, liblz4's frame decodes with
                // the dictionary, and never panics without it.
                let anonymous = their_frame_encode(&data, &d, info, 0);
                assert!(
                    frame::decompress_with_dict(&anonymous, &d).as_ref() == Ok(&data),
                    "{name} {info:?}"
                );
                if d.len() > 1000 {
                    assert!(frame::decompress(&anonymous).is_err(), "{name} {info:?}");
                }
            }
        }
    }
}

/// Samples far beyond the trainer's budget (here 200 MiB, as references to
/// two 1 MiB texts) are read as an evenly spread choice: training finishes
/// in bounded memory, and the dictionary draws on the second half of the
/// samples too, not only on the first 64 MiB.
#[test]
fn training_on_more_than_the_budget_reads_a_spread_choice() {
    let text = |seed: u64| -> Vec<u8> {
        let words = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
        ];
        let mut rng = seed | 1;
        let mut out = Vec::with_capacity(1 << 20);
        while out.len() < 1 << 20 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            out.extend_from_slice(words[(rng % 7) as usize].as_bytes());
            out.extend_from_slice(format!("-{} ", rng % 1000 + seed * 1000).as_bytes());
        }
        out
    };
    let (a, b) = (text(1), text(9));
    let samples: Vec<&[u8]> = (0..200)
        .map(|i| if i < 100 { &a[..] } else { &b[..] })
        .collect();
    assert!(samples.iter().map(|s| s.len()).sum::<usize>() > 3 * dict::MAX_TRAINING_BYTES);
    let d = dict::train_dictionary(&samples, 16 << 10);
    assert!(!d.is_empty() && d.len() <= 16 << 10);
    // Numbers 9000..9999 occur only in the second text.
    let from_b = d
        .windows(6)
        .any(|w| w.starts_with(b"-9") && w[2..5].iter().all(u8::is_ascii_digit));
    assert!(from_b, "nothing of the second half of the samples");
}
