//! Writes seed inputs for every fuzz target into `CORPUS/TARGET/`, in each
//! target's input layout: the golden vectors of `crates/vecpress/tests/golden`
//! and small encodings of real data (a few postings lists, float and integer
//! columns, slices of text and binary files) from a data directory when one
//! is given.
//!
//!     cargo +nightly run --release --example seeds -- CORPUS [DATA] [TARGET...]
//!
//! Only the targets named (all when none is) get seeds, and a seed is
//! written under a name derived from its bytes, so running it twice adds
//! nothing.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use vecpress::bitpack::bp128;
use vecpress::bitpack::fastlanes;
use vecpress::bitpack::pfor;
use vecpress::container::{Element, Header, Writer, PER_BLOCK};
use vecpress::group_varint::{g8iu, gb};
use vecpress::lz4::{block, frame};
use vecpress::stream_vbyte::{self as svb, u64 as sv64};
use vecpress::{bit_split, byte_split, codec, vbyte};

/// What the seeds are built from.
#[derive(Default)]
struct Sources {
    /// Lists of 32-bit values (the golden vectors', postings lists, columns).
    values: Vec<Vec<u32>>,
    /// Lists of 64-bit values.
    wide: Vec<Vec<u64>>,
    /// Encoded streams from the golden files, by codec, with their counts.
    golden: Vec<(&'static str, usize, Vec<u8>)>,
    /// Byte strings (text and binary slices, float columns) and the width of
    /// their elements (1 for text).
    bytes: Vec<(usize, Vec<u8>)>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn list<T: std::str::FromStr>(s: &str) -> Vec<T> {
    s.split(',')
        .filter(|v| !v.is_empty())
        .filter_map(|v| v.parse().ok())
        .collect()
}

fn golden(root: &Path, src: &mut Sources) {
    let dir = root.join("crates/vecpress/tests/golden");
    let read = |p: &str| fs::read_to_string(dir.join(p)).unwrap_or_default();
    for line in read("vbyte/vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [value, stream] = f[..] {
            let v: u64 = value.parse().expect("value");
            src.golden.push(("vbyte", 1, hex(stream)));
            src.wide.push(vec![v]);
            if let Ok(v) = u32::try_from(v) {
                src.values.push(vec![v]);
            }
        }
    }
    for line in read("group_varint/vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        if let [name, values, stream] = f[..] {
            let values: Vec<u32> = list(values);
            let name = if name == "varintgb" { "gb" } else { "g8iu" };
            src.golden.push((name, values.len(), hex(stream)));
            src.values.push(values);
        }
    }
    for line in read("stream_vbyte/vectors_0124.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, values, stream) = match f[..] {
            [name, values, stream] => (name, list(values), hex(stream)),
            [name] => (name, Vec::new(), Vec::new()),
            _ => continue,
        };
        let name = if name == "plain" {
            "svb0124"
        } else {
            "svb0124delta"
        };
        src.golden.push((name, values.len(), stream));
        src.values.push(values);
    }
}

/// The first `n` bytes of a file, if it can be read.
fn head(path: &Path, n: usize) -> Option<Vec<u8>> {
    let mut bytes = fs::read(path).ok()?;
    bytes.truncate(n);
    Some(bytes)
}

fn real(data: &Path, src: &mut Sources) {
    // Postings: the first short lists of a few collections.
    for name in [
        "uscensus2000",
        "wikileaks-noquotes",
        "clueweb09_1k",
        "clueweb09_1k_positions",
    ] {
        let Some(bytes) = head(&data.join(format!("postings/{name}.docs")), 1 << 16) else {
            continue;
        };
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let (mut at, mut kept) = (0, 0);
        while at < words.len() && kept < 6 {
            let n = words[at] as usize;
            let list = &words[at + 1..(at + 1 + n).min(words.len())];
            if (2..=700).contains(&list.len()) {
                src.values.push(list.to_vec());
                kept += 1;
            }
            at += 1 + n;
        }
    }
    // Integer columns: small, repetitive values.
    for name in [
        "nycflights13_flights_distance",
        "nycflights13_flights_sched_dep_time",
    ] {
        if let Some(bytes) = head(&data.join(format!("ints/{name}.i64")), 8 * 300) {
            let wide: Vec<u64> = bytes
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                .collect();
            src.values.push(wide.iter().map(|&v| v as u32).collect());
            src.wide.push(wide);
        }
    }
    // Float columns for byte stream split.
    for (name, width) in [
        ("elf_city_temp.f32", 4),
        ("elf_air_pressure.f64", 8),
        ("alp_food_prices_tw.f64", 8),
    ] {
        if let Some(bytes) = head(&data.join(format!("floats/{name}")), 2048) {
            if let Some(wide) = (width == 8).then(|| {
                bytes
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                    .take(64)
            }) {
                src.wide.push(wide.collect());
            }
            src.bytes.push((width, bytes));
        }
    }
    // Text and binary slices for LZ4.
    for (name, len) in [
        ("silesia/dickens", 3000),
        ("silesia/xml", 4000),
        ("silesia/mr", 2000),
        ("silesia/ooffice", 2000),
        ("canterbury/fields.c", 1500),
        ("canterbury/kennedy.xls", 1500),
        ("canterbury/sum", 1000),
    ] {
        if let Some(bytes) = head(&data.join(name), len) {
            src.bytes.push((1, bytes));
        }
    }
}

fn synthetic(src: &mut Sources) {
    src.values.push(Vec::new());
    src.values.push((0..100).collect());
    src.values.push((0..64).map(|i| 1u32 << (i % 32)).collect());
    src.values.push(
        (0..40)
            .map(|i| (i * 2_654_435_761u32) >> (i % 32))
            .collect(),
    );
    src.wide.push((0..40).map(|i| 1u64 << (i % 64)).collect());
    src.bytes
        .push((1, b"abcabcabcabcabcabcabcabc0123456789abcabcabc".repeat(8)));
    src.bytes.push((
        4,
        (0..256u32)
            .flat_map(|i| (i as f32 * 0.25).to_le_bytes())
            .collect(),
    ));
}

fn le32(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn cat(head: &[u8], tail: &[u8]) -> Vec<u8> {
    [head, tail].concat()
}

/// The two count bytes of the decoding targets: `n` with the top bit clear,
/// taken modulo the stream length plus one (so `n` itself when it fits).
fn count(n: usize) -> [u8; 2] {
    (n.min(0x7fff) as u16).to_le_bytes()
}

fn seeds(target: &str, src: &Sources) -> Vec<Vec<u8>> {
    let golden = |name: &'static str| src.golden.iter().filter(move |g| g.0 == name);
    let mut out = Vec::new();
    match target {
        "decode_vbyte" => {
            for g in golden("vbyte") {
                out.push(cat(&[count(g.1)[0], 0, 0, 0, 0, 0], &g.2));
            }
            for v in &src.values {
                let c = count(v.len());
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &vbyte::encode_to_vec(v)));
                out.push(cat(
                    &[c[0], c[1], 0, 0, 0, 0],
                    &vbyte::encode_delta_to_vec(v, 0),
                ));
            }
        }
        "decode_fastlanes" => {
            for v in &src.values {
                let c = count(v.len());
                let head = [c[0], c[1], 0, 0, 0, 0];
                out.push(cat(&head, &fastlanes::encode_to_vec(v)));
                out.push(cat(&head, &fastlanes::encode_for_to_vec(v)));
                out.push(cat(&head, &fastlanes::encode_delta_to_vec(v, 0)));
            }
        }
        "decode_varint_gb" | "decode_varint_g8iu" => {
            let gb = target == "decode_varint_gb";
            for g in golden(if gb { "gb" } else { "g8iu" }) {
                let c = count(g.1);
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &g.2));
            }
            for v in &src.values {
                let c = count(v.len());
                let (a, b) = if gb {
                    (gb::encode_to_vec(v), gb::encode_delta_to_vec(v, 0))
                } else {
                    (g8iu::encode_to_vec(v), g8iu::encode_delta_to_vec(v, 0))
                };
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &a));
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &b));
            }
        }
        "decode_stream_vbyte" => {
            for (variant, name) in [(2u8, "svb0124"), (3, "svb0124delta")] {
                for g in golden(name) {
                    let c = count(g.1);
                    out.push(cat(&[variant, c[0], c[1], 0, 0, 0, 0], &g.2));
                }
            }
            for v in &src.values {
                let c = count(v.len());
                let streams = [
                    svb::encode_to_vec(v),
                    svb::encode_delta_to_vec(v, 0),
                    svb::encode_0124_to_vec(v),
                    svb::encode_delta_0124_to_vec(v, 0),
                ];
                for (variant, s) in streams.iter().enumerate() {
                    out.push(cat(&[variant as u8, c[0], c[1], 0, 0, 0, 0], s));
                }
            }
        }
        "decode_stream_vbyte64" => {
            for v in &src.wide {
                let c = count(v.len());
                let h = [c[0], c[1], 0, 0, 0, 0, 0, 0, 0, 0];
                out.push(cat(&h, &sv64::encode_to_vec(v)));
                out.push(cat(&h, &sv64::encode_delta_to_vec(v, 0)));
            }
        }
        "decode_byte_split" => {
            for (width, bytes) in &src.bytes {
                for w in [*width, 2, 3] {
                    let bytes = &bytes[..bytes.len() / w * w];
                    if let Ok(enc) = byte_split::encode_to_vec(bytes, w) {
                        out.push(cat(&[w as u8, 0, 0], &enc));
                    }
                    if let Ok(enc) = byte_split::compress_lz4_to_vec(bytes, w) {
                        let c = (0x8000 | bytes.len().min(0x7fff) as u16).to_le_bytes();
                        out.push(cat(&[w as u8, c[0], c[1]], &enc));
                    }
                }
            }
        }
        "decode_bit_split" => {
            for (width, bytes) in &src.bytes {
                for w in [*width, 2, 3] {
                    let bytes = &bytes[..bytes.len() / w * w];
                    if let Ok(enc) = bit_split::encode_to_vec(bytes, w) {
                        out.push(cat(&[w as u8, 0, 0], &enc));
                    }
                    if let Ok(enc) = bit_split::compress_lz4_to_vec(bytes, w, 0) {
                        let c = (bytes.len().min(0x7fff) as u16).to_le_bytes();
                        out.push(cat(&[w as u8, c[0], c[1]], &enc));
                    }
                }
            }
        }
        "decode_blosc" => {
            use vecpress::blosc::{Params, Shuffle};
            for (i, (width, bytes)) in src.bytes.iter().enumerate() {
                let shuffle = [Shuffle::None, Shuffle::Byte, Shuffle::Bit][i % 3];
                let p = Params {
                    blocksize: [0, 256, 1024][i % 3],
                    ..Params::lz4(5, shuffle, *width)
                };
                if let Ok(frame) = vecpress::blosc::compress(bytes, &p) {
                    out.push(frame);
                }
            }
        }
        "decode_claims" => {
            use vecpress::blosc::{Params, Shuffle};
            for (i, (width, bytes)) in src.bytes.iter().enumerate() {
                let w = *width as u8;
                let shuffle = [Shuffle::None, Shuffle::Byte, Shuffle::Bit][i % 3];
                if let Ok(frame) =
                    vecpress::blosc::compress(bytes, &Params::lz4(5, shuffle, *width))
                {
                    out.push(cat(&[w], &frame));
                }
                let bytes_w = &bytes[..bytes.len() / width * width];
                if let Ok(enc) = bit_split::compress_lz4_to_vec(bytes_w, *width, 0) {
                    out.push(cat(&[w], &enc));
                }
                out.push(cat(
                    &[0],
                    &vecpress::lz4::block::compress_size_prepended(bytes),
                ));
                out.push(cat(&[0], &frame::compress(bytes)));
            }
        }
        "decode_hdf5_filters" => {
            use vecpress_hdf5::{encode_to_vec, Filter};
            for (i, (width, bytes)) in src.bytes.iter().enumerate() {
                let w = *width as u32;
                let whole = &bytes[..bytes.len() / width * width];
                let blosc = [2, 2, w, whole.len() as u32, 5, (i % 3) as u32, 1];
                if let Ok(c) = encode_to_vec(Filter::Blosc, &blosc, whole) {
                    out.push(cat(&[0, 0], &c));
                }
                let units = (i % 4) as u8 * 64; // the block size in units of 64 bytes
                if let Ok(c) = encode_to_vec(Filter::Lz4, &[u32::from(units) * 64], bytes) {
                    out.push(cat(&[1, units], &c));
                }
                // Byte 0 as the target reads it: bitshuffle, LZ4 on, this width.
                let first = 2 | 4 | (((*width as u8).saturating_sub(1) % 16) << 3);
                let bshuf = [0, 4, w, 0, 2];
                if let Ok(c) = encode_to_vec(Filter::Bitshuffle, &bshuf, whole) {
                    out.push(cat(&[first, 0], &c));
                }
            }
        }
        "decode_lz4_block" => {
            for (_, bytes) in &src.bytes {
                out.push(cat(&[0, 0, 0], &block::compress(bytes)));
                let mut packed = vec![0u8; block::max_compressed_len(bytes.len())];
                let half = bytes.len() / 2;
                let k = block::compress_with_prefix(bytes, half, &mut packed).expect("compress");
                out.push(cat(&[0, 0, half.min(255) as u8], &packed[..k]));
                out.push(cat(
                    &[0, 0, 0],
                    &vecpress::lz4::block::compress_size_prepended(bytes),
                ));
            }
        }
        "decode_lz4_frame" => {
            use frame::{BlockSize, FrameInfo};
            for (i, (_, bytes)) in src.bytes.iter().enumerate() {
                let info = FrameInfo::new()
                    .block_size(BlockSize::ALL[i % 4])
                    .independent_blocks(i % 2 == 0)
                    .block_checksums(i % 3 == 0)
                    .content_checksum(i % 2 == 1)
                    .content_size((i % 3 != 1).then_some(bytes.len() as u64));
                out.push(cat(&[24, 0, 1], &frame::compress_with(bytes, info)));
                out.push(cat(&[12, 100, 0], &frame::compress(bytes)));
            }
        }
        "decode_container" => {
            let ints = codec::int_codecs();
            for (i, v) in src.values.iter().enumerate().filter(|(_, v)| v.len() > 1) {
                let c = ints[i % ints.len()];
                out.push(int_file(&[c], v, 1 + v.len() / 3));
                // Version 2: blocks of two codecs in turn.
                let other = ints[(i + 1) % ints.len()];
                out.push(int_file(&[c, other], v, 1 + v.len() / 3));
            }
            for (i, (width, bytes)) in src.bytes.iter().enumerate() {
                let c = codec::byte_codecs()[i % codec::byte_codecs().len()];
                out.push(byte_file(c, *width, bytes));
            }
        }
        "decode_bp128" => {
            for v in &src.values {
                let c = count(v.len());
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &bp128::encode_to_vec(v)));
                out.push(cat(
                    &[c[0], c[1], 0, 0, 0, 0],
                    &bp128::encode_delta_to_vec(v, 0),
                ));
            }
        }
        "decode_pfor" => {
            for v in &src.values {
                let c = count(v.len());
                out.push(cat(&[c[0], c[1], 0, 0, 0, 0], &pfor::encode_to_vec(v)));
                out.push(cat(
                    &[c[0], c[1], 0, 0, 0, 0],
                    &pfor::encode_delta_to_vec(v, 0),
                ));
            }
        }
        "select_bitpack" => {
            // The delta streams of both codecs (the first byte also serves
            // the block entries as a block), and a FastLanes u32 block at
            // its width: the key halfway up the list.
            for v in &src.values {
                let c = count(v.len());
                let key = v.get(v.len() / 2).map_or(0, |k| k << 12).to_le_bytes();
                let head = |width: u8| {
                    let mut h = vec![width, 0, 7, 0, 0, 0, 0, 0];
                    h.extend(key);
                    h.extend(c);
                    h
                };
                for stream in [
                    bp128::encode_delta_to_vec(v, 0),
                    pfor::encode_delta_to_vec(v, 0),
                ] {
                    let width = stream.first().map_or(0, |w| w & 0x3f);
                    out.push(cat(&head(width), &stream));
                }
                let mut block = v.clone();
                block.resize(fastlanes::BLOCK, 0);
                let width = fastlanes::width(&block).expect("a block");
                let mut packed = vec![0u8; fastlanes::packed_len(width)];
                fastlanes::pack(&block, width, &mut packed).expect("its width");
                out.push(cat(&head(width), &packed));
            }
        }
        "roundtrip_pfor" => {
            for v in &src.values {
                out.push(cat(&[0, 0, 0, 0, 0], &le32(v)));
                out.push(cat(&[3, 0, 0, 0, 0], &le32(v)));
            }
        }
        "roundtrip_vbyte"
        | "roundtrip_group_varint"
        | "roundtrip_stream_vbyte"
        | "roundtrip_bp128"
        | "roundtrip_fastlanes" => {
            for v in &src.values {
                out.push(cat(&[0, 0, 0, 0, 0], &le32(v)));
            }
        }
        "roundtrip_container" => {
            for v in &src.values {
                out.push(cat(&[(v.len() / 3).clamp(1, 255) as u8, 1], &le32(v)));
                out.push(cat(&[(v.len() / 3).clamp(1, 255) as u8, 3], &le32(v)));
            }
        }
        "roundtrip_stream_vbyte_extra" => {
            for (v, w) in src.values.iter().zip(src.wide.iter().cycle()) {
                let body = [le32(v), w.iter().flat_map(|x| x.to_le_bytes()).collect()].concat();
                let cut = (v.len() * 4 * 256 / body.len().max(1)).min(255) as u8;
                let mut h = vec![0, 0, 0, 0, 3, 0, 100, 0, 0, 0, 8, 0, cut, 255, 0];
                h[12] = cut;
                out.push(cat(&h, &body));
            }
        }
        "roundtrip_byte_split" => {
            for (width, bytes) in &src.bytes {
                out.push(cat(&[*width as u8, 1, 0, 4, 0], bytes));
            }
        }
        "roundtrip_lz4_block" => {
            for (_, bytes) in &src.bytes {
                out.push(cat(
                    &[1, (bytes.len() / 2) as u8, (bytes.len() / 512) as u8],
                    bytes,
                ));
            }
        }
        "query_postings" => {
            // Each list of values sorted, with every third of it, in each
            // format: AND and OR of lists that share values.
            for v in src.values.iter().take(24) {
                let mut long: Vec<u32> = v.iter().copied().take(3000).collect();
                long.sort_unstable();
                long.dedup();
                let short: Vec<u32> = long.iter().step_by(3).copied().collect();
                for f in 0..5u8 {
                    let mut s = vec![f, 1];
                    for l in [&long, &short] {
                        let b = match f {
                            0 => svb::encode_delta_to_vec(l, 0),
                            1 => vbyte::encode_delta_to_vec(l, 0),
                            2 => bp128::encode_delta_to_vec(l, 0),
                            3 => fastlanes::encode_delta_to_vec(l, 0),
                            _ => pfor::encode_delta_to_vec(l, 0),
                        };
                        // The count as it is (top bit set), then the length.
                        s.extend((0x8000 | l.len() as u16).to_le_bytes());
                        s.extend((b.len() as u16).to_le_bytes());
                        s.extend(b);
                    }
                    out.push(s);
                }
            }
        }
        "roundtrip_lz4_frame" => {
            for (i, (_, bytes)) in src.bytes.iter().enumerate() {
                out.push(cat(&[i as u8 * 13, 1, 3, i as u8], bytes));
            }
        }
        _ => {}
    }
    out
}

/// A vecpress file of `values` in blocks of `block_len`: of one codec
/// (version 1), or of several in turn, each block naming its own (version 2).
fn int_file(cs: &[&dyn codec::IntCodec], values: &[u32], block_len: usize) -> Vec<u8> {
    let header = Header {
        codec: if cs.len() > 1 { PER_BLOCK } else { cs[0].id() },
        element: Element::U32,
        block_len: block_len as u32,
        total: Some(values.len() as u64),
        dict_id: None,
    };
    let mut w = Writer::new(Vec::new(), header).expect("header");
    for (i, block) in values.chunks(block_len).enumerate() {
        let c = cs[i % cs.len()];
        let mut enc = vec![0u8; c.max_encoded_len(block.len())];
        let k = c.encode(block, &mut enc);
        let raw = le32(block);
        if k < raw.len() {
            w.write_block_with(block.len() as u32, &enc[..k], c.id(), 0)
        } else {
            w.write_block(block.len() as u32, &raw, true)
        }
        .expect("block");
        w.hash_content(&le32(block));
    }
    w.finish().expect("finish")
}

fn byte_file(c: &dyn codec::ByteCodec, width: usize, bytes: &[u8]) -> Vec<u8> {
    let (element, width) = match width {
        4 => (Element::F32, 4),
        8 => (Element::F64, 8),
        _ => (Element::Bytes, 1),
    };
    let n = bytes.len() / width;
    let block_len = (n / 2).max(1);
    let header = Header {
        codec: c.id(),
        element,
        block_len: block_len as u32,
        total: None,
        dict_id: None,
    };
    let mut w = Writer::new(Vec::new(), header).expect("header");
    for block in bytes[..n * width].chunks(block_len * width) {
        let mut enc = vec![0u8; c.max_encoded_len(block.len())];
        let count = (block.len() / width) as u32;
        match c.encode(block, width, &mut enc) {
            Ok(k) if k < block.len() => w.write_block(count, &enc[..k], false),
            _ => w.write_block(count, block, true),
        }
        .expect("block");
        w.hash_content(block);
    }
    w.finish().expect("finish")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(corpus) = args.first().map(PathBuf::from) else {
        eprintln!("usage: seeds CORPUS [DATA] [TARGET...]");
        std::process::exit(2);
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut src = Sources::default();
    golden(&root, &mut src);
    let mut targets = &args[1..];
    if let Some(data) = args.get(1).filter(|d| Path::new(d).is_dir()) {
        real(Path::new(data), &mut src);
        targets = &args[2..];
    }
    synthetic(&mut src);
    let all: Vec<String> = fs::read_dir(root.join("fuzz/fuzz_targets"))
        .expect("fuzz_targets")
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".rs")
                .map(String::from)
        })
        .collect();
    let targets = if targets.is_empty() {
        &all[..]
    } else {
        targets
    };
    for target in targets {
        let dir = corpus.join(target);
        fs::create_dir_all(&dir).expect("corpus directory");
        let seeds = seeds(target, &src);
        for s in &seeds {
            let mut h = DefaultHasher::new();
            s.hash(&mut h);
            fs::write(dir.join(format!("seed-{:016x}", h.finish())), s).expect("seed");
        }
        println!("{target}: {} seeds", seeds.len());
    }
}
