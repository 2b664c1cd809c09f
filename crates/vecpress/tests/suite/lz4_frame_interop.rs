//! LZ4 frames against the reference: the `lz4` command (skipped, with a note,
//! when it is not on PATH) and liblz4's LZ4F through the `lz4` crate (x86-64
//! only), each way, byte-exactly.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::common::{all_infos, corpus_files, lz4_command, random_bytes, repetitive, text_like};
use vecpress::lz4::frame::{self, FrameInfo};

/// Generated inputs, and the corpora's files when present (their first
/// 2 MiB: the tests run unoptimised).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut v = vec![
        ("empty".to_string(), Vec::new()),
        ("one byte".to_string(), vec![42]),
        ("text 300k".to_string(), text_like(300_000, 1)),
        ("random 200k".to_string(), random_bytes(200_000, 2)),
        ("repetitive 5M".to_string(), repetitive(5 << 20, 3)),
    ];
    v.extend(corpus_files(2 << 20));
    v
}

/// A scratch file path unique to this process and `tag`.
fn scratch(tag: &str) -> PathBuf {
    std::env::temp_dir().join(format!("vecpress-lz4-frame-{}-{tag}", std::process::id()))
}

/// Runs `lz4 args... input output` on files and returns the output file.
fn lz4_files(args: &[&str], input: &[u8], tag: &str) -> Vec<u8> {
    let (src, dst) = (
        scratch(&format!("{tag}.in")),
        scratch(&format!("{tag}.out")),
    );
    std::fs::write(&src, input).unwrap();
    let run = Command::new("lz4")
        .args(args)
        .args(["-q", "-f"])
        .arg(&src)
        .arg(&dst)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "lz4 {args:?} failed on {tag}: {stderr}"
    );
    let out = std::fs::read(&dst).unwrap();
    let _ = std::fs::remove_file(src);
    let _ = std::fs::remove_file(dst);
    out
}

#[test]
fn vecpress_reads_what_the_lz4_command_writes() {
    if !lz4_command() {
        return;
    }
    let settings: [&[&str]; 13] = [
        &["-1"],
        &["-9"],
        &["-BD"],
        &["-BD", "-B4"],
        &["--content-size"],
        &["-B4"],
        &["-B5"],
        &["-B6"],
        &["-B7"],
        &["-BX"],
        &["--no-frame-crc"],
        &["-l"],
        &["-BD", "-BX", "-B5", "--content-size", "-3"],
    ];
    for (name, data) in inputs() {
        for (i, args) in settings.iter().enumerate() {
            let packed = lz4_files(args, &data, &format!("c{i}"));
            let got = frame::decompress(&packed);
            assert!(
                got.as_ref() == Ok(&data),
                "{name} lz4 {args:?}: {:?}",
                got.map(|v| v.len())
            );
        }
    }
}

fn lz4_decompress(packed: &[u8]) -> Vec<u8> {
    let mut child = Command::new("lz4")
        .args(["-d", "-c", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = packed.to_vec();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "lz4 -d failed: {stderr}");
    out.stdout
}

#[test]
fn the_lz4_command_reads_what_vecpress_writes() {
    if !lz4_command() {
        return;
    }
    let data = [text_like(600_000, 4), repetitive(300_000, 5)].concat();
    for info in all_infos() {
        let packed = frame::compress_with(&data, info);
        assert!(lz4_decompress(&packed) == data, "{info:?}");
    }
    for (name, data) in inputs() {
        let info = FrameInfo::new()
            .independent_blocks(false)
            .block_checksums(true);
        let packed = frame::compress_with(&data, info.content_size(Some(0)));
        assert!(lz4_decompress(&packed) == data, "{name}");
    }
}

#[cfg(target_arch = "x86_64")]
mod liblz4 {
    use std::io::{Read, Write};

    use lz4::liblz4::BlockChecksum;
    use lz4::{BlockMode, ContentChecksum, Decoder, EncoderBuilder};
    use vecpress::lz4::frame::{self, BlockSize, FrameInfo};

    fn their_size(size: BlockSize) -> lz4::BlockSize {
        match size {
            BlockSize::Max64KB => lz4::BlockSize::Max64KB,
            BlockSize::Max256KB => lz4::BlockSize::Max256KB,
            BlockSize::Max1MB => lz4::BlockSize::Max1MB,
            BlockSize::Max4MB => lz4::BlockSize::Max4MB,
        }
    }

    fn liblz4_compress(data: &[u8], info: FrameInfo, level: u32) -> Vec<u8> {
        let mut b = EncoderBuilder::new();
        b.block_size(their_size(info.get_block_size()))
            .block_mode(if info.get_independent_blocks() {
                BlockMode::Independent
            } else {
                BlockMode::Linked
            })
            .block_checksum(if info.get_block_checksums() {
                BlockChecksum::BlockChecksumEnabled
            } else {
                BlockChecksum::NoBlockChecksum
            })
            .checksum(if info.get_content_checksum() {
                ContentChecksum::ChecksumEnabled
            } else {
                ContentChecksum::NoChecksum
            })
            .level(level);
        if info.get_content_size().is_some() {
            b.content_size(data.len() as u64);
        }
        let mut enc = b.build(Vec::new()).unwrap();
        // Odd write sizes, so that blocks are cut by the library, not by us.
        for piece in data.chunks(100_003) {
            enc.write_all(piece).unwrap();
        }
        let (out, res) = enc.finish();
        res.unwrap();
        out
    }

    fn liblz4_decompress(packed: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        Decoder::new(packed).unwrap().read_to_end(&mut out).unwrap();
        out
    }

    #[test]
    fn both_ways_over_every_option() {
        let data = [super::text_like(500_000, 6), super::random_bytes(70_000, 7)].concat();
        for (i, info) in super::all_infos().enumerate() {
            let level = [0, 1, 9][i % 3];
            let theirs = liblz4_compress(&data, info, level);
            assert!(
                frame::decompress(&theirs).unwrap() == data,
                "{info:?} level {level}"
            );
            let ours = frame::compress_with(&data, info);
            assert!(liblz4_decompress(&ours) == data, "{info:?}");
        }
    }

    #[test]
    fn both_ways_over_the_inputs() {
        let info = FrameInfo::new()
            .independent_blocks(false)
            .content_size(Some(0));
        for (name, data) in super::inputs() {
            let theirs = liblz4_compress(&data, info, 1);
            assert!(frame::decompress(&theirs).unwrap() == data, "{name}");
            let ours = frame::compress_with(&data, info);
            assert!(liblz4_decompress(&ours) == data, "{name}");
        }
    }
}
