//! `compress` without `--codec` chooses each block's codec: a file whose
//! character changes halfway comes out smaller than any single codec makes
//! it, in the same bytes at every thread count, `inspect` and `-v` say
//! which codecs and why, and a block naming a codec it cannot have is an
//! error naming the block.

use crate::common::{ok, s, scratch, stderr, vecpress};

use std::fs;
use std::path::Path;

use vecpress::container::{BLOCK_HEADER_LEN_V2, HEADER_LEN};

/// 64 Ki slowly rising f64 (which bit-split-lz4 packs best), then 64 Ki
/// drawn from 16 random bit patterns (which only LZ4 finds repeats in).
fn changing_floats() -> Vec<u8> {
    let mut out: Vec<u8> = (0..65536)
        .flat_map(|i| (1000.0 + (i / 4) as f64 * 0.25).to_le_bytes())
        .collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let patterns: Vec<u64> = (0..16).map(|_| next()).collect();
    for _ in 0..65536 {
        out.extend_from_slice(&patterns[(next() >> 60) as usize].to_le_bytes());
    }
    out
}

fn size(p: &Path) -> u64 {
    fs::metadata(p).unwrap().len()
}

#[test]
fn a_changing_file_gets_a_codec_per_block_and_beats_every_single_codec() {
    let dir = scratch("per-block");
    let input = dir.join("column.f64");
    let data = changing_floats();
    fs::write(&input, &data).unwrap();
    let auto = dir.join("auto.vp");
    let out = ok(vecpress(&[
        "compress",
        "-v",
        "--block",
        "64K",
        s(&input),
        "-o",
        s(&auto),
    ]));
    let err = stderr(&out);
    assert!(err.contains("blocks per codec: "), "{err}");
    assert!(err.contains("probed"), "{err}");
    let file = fs::read(&auto).unwrap();
    assert_eq!(file[4], 2, "version 2: blocks name their codecs");

    for codec in ["lz4", "bit-split-lz4", "byte-split-lz4", "blosc-lz4"] {
        let single = dir.join(format!("{codec}.vp"));
        ok(vecpress(&[
            "compress",
            "--codec",
            codec,
            "--block",
            "64K",
            s(&input),
            "-o",
            s(&single),
        ]));
        assert_eq!(fs::read(&single).unwrap()[4], 1, "one codec: version 1");
        assert!(
            (size(&auto) as f64) < 0.9 * size(&single) as f64,
            "auto {} bytes, {codec} {}",
            size(&auto),
            size(&single)
        );
    }

    let shown = String::from_utf8(ok(vecpress(&["inspect", s(&auto)])).stdout).unwrap();
    assert!(shown.contains("version 2"), "{shown}");
    let per_codec = shown
        .lines()
        .find_map(|l| l.strip_prefix("per codec:"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        per_codec.contains("lz4 ") && per_codec.contains("bit-split-lz4 "),
        "{shown}"
    );
    assert!(shown.contains("checksums:     ok"), "{shown}");

    let back = dir.join("back.f64");
    ok(vecpress(&["decompress", s(&auto), "-o", s(&back)]));
    assert_eq!(fs::read(&back).unwrap(), data);

    for threads in ["2", "3"] {
        let other = dir.join(format!("t{threads}.vp"));
        ok(vecpress(&[
            "compress",
            "-T",
            threads,
            "--block",
            "64K",
            s(&input),
            "-o",
            s(&other),
        ]));
        assert_eq!(fs::read(&other).unwrap(), file, "-T {threads}");
        let back = dir.join(format!("t{threads}.f64"));
        ok(vecpress(&[
            "decompress",
            "-T",
            threads,
            s(&other),
            "-o",
            s(&back),
        ]));
        assert_eq!(fs::read(&back).unwrap(), data, "-T {threads}");
    }
}

#[test]
fn where_one_codec_fits_the_file_names_it_in_version_1() {
    let dir = scratch("per-block-bytes");
    let input = dir.join("text.bin");
    fs::write(&input, b"the same words again and again, ".repeat(4000)).unwrap();
    let vp = dir.join("text.vp");
    ok(vecpress(&[
        "compress",
        "--block",
        "16K",
        s(&input),
        "-o",
        s(&vp),
    ]));
    let file = fs::read(&vp).unwrap();
    assert_eq!(file[4], 1);
    let shown = String::from_utf8(ok(vecpress(&["inspect", s(&vp)])).stdout).unwrap();
    assert!(shown.contains("codec:         lz4"), "{shown}");
    assert!(!shown.contains("per codec:"), "{shown}");
}

/// Rewrites the checksum of the block at `at` after an edit of its fields.
fn fix_block_sum(file: &mut [u8], at: usize) {
    let len = (u32::from_le_bytes(file[at + 4..at + 8].try_into().unwrap()) & 0x7FFF_FFFF) as usize;
    let mut h = xxhash_rust::xxh32::Xxh32::new(0);
    h.update(&file[at..at + 12]);
    h.update(&file[at + 16..at + 16 + len]);
    file[at + 12..at + 16].copy_from_slice(&h.digest().to_le_bytes());
}

#[test]
fn a_block_naming_a_codec_it_cannot_have_is_an_error_at_that_block() {
    let dir = scratch("per-block-bad");
    let input = dir.join("column.f64");
    fs::write(&input, changing_floats()).unwrap();
    let vp = dir.join("column.vp");
    ok(vecpress(&[
        "compress",
        "--block",
        "64K",
        s(&input),
        "-o",
        s(&vp),
    ]));
    let file = fs::read(&vp).unwrap();
    let vbyte = vecpress::codec::find("vbyte").unwrap().id();
    for (codec, what) in [
        (999u16, "unknown codec id 999"),
        (vbyte, "codec vbyte cannot hold f64 elements"),
    ] {
        let mut bad = file.clone();
        let at = HEADER_LEN;
        assert_eq!(BLOCK_HEADER_LEN_V2, 16);
        bad[at + 8..at + 10].copy_from_slice(&codec.to_le_bytes());
        fix_block_sum(&mut bad, at);
        let path = dir.join("bad.vp");
        fs::write(&path, &bad).unwrap();
        let out_path = dir.join("bad.out");
        for cmd in ["decompress", "inspect"] {
            let args = match cmd {
                "inspect" => vec![cmd, s(&path)],
                _ => vec![cmd, "-f", s(&path), "-o", s(&out_path)],
            };
            let out = vecpress(&args);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(1), "{cmd}: {err}");
            assert!(!err.contains("panicked"), "{err}");
            assert!(
                err.contains("block 0") && err.contains(what),
                "{cmd}: {err}"
            );
        }
    }
}
