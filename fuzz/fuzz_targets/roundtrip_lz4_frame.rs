//! Arbitrary data and frame options: what the frame encoder writes (in
//! arbitrary pieces, with flushes) decodes to the data.
#![no_main]

use std::io::Write;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::lz4::frame::{self, BlockSize, FrameEncoder, FrameInfo};

#[derive(Arbitrary, Debug)]
struct Input {
    block_size: u8,
    independent: bool,
    block_checksums: bool,
    content_checksum: bool,
    content_size: bool,
    acceleration: u8,
    chunk: u16,
    flush_every: u8,
    data: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let size = BlockSize::ALL[usize::from(input.block_size % 4)];
    let info = FrameInfo::new()
        .block_size(size)
        .independent_blocks(input.independent)
        .block_checksums(input.block_checksums)
        .content_checksum(input.content_checksum)
        .content_size(input.content_size.then_some(input.data.len() as u64));
    let mut enc = FrameEncoder::with_info(Vec::new(), info)
        .with_acceleration(u32::from(input.acceleration));
    for (i, piece) in input.data.chunks(usize::from(input.chunk).max(1)).enumerate() {
        enc.write_all(piece).unwrap();
        if input.flush_every != 0 && i % usize::from(input.flush_every) == 0 {
            enc.flush().unwrap();
        }
    }
    let bytes = enc.finish().unwrap();
    assert_eq!(frame::decompress(&bytes).unwrap(), input.data);
    let one = frame::compress_with(&input.data, info);
    assert_eq!(frame::decompress_with_limit(&one, input.data.len()).unwrap(), input.data);
});
