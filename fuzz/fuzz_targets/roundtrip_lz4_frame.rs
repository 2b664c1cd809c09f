//! Arbitrary data and frame options: what the frame encoder writes (in
//! arbitrary pieces, with flushes) decodes to the data, through every entry.
//!
//! Input: four bytes of options, then the data as it is.
#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use vecpress::lz4::frame::{self, BlockSize, FrameEncoder, FrameInfo};

fuzz_target!(|input: &[u8]| {
    let Some((opts, data)) = input.split_first_chunk::<4>() else {
        return;
    };
    let bits = opts[0];
    let info = FrameInfo::new()
        .block_size(BlockSize::ALL[usize::from(bits & 3)])
        .independent_blocks(bits & 4 != 0)
        .block_checksums(bits & 8 != 0)
        .content_checksum(bits & 16 != 0)
        .content_size((bits & 32 != 0).then_some(data.len() as u64));
    let acceleration = u32::from(opts[1] % 16);
    let chunk = usize::from(opts[2]).max(1) * 37;
    let flush_every = usize::from(opts[3] % 8);

    let mut enc = FrameEncoder::with_info(Vec::new(), info).with_acceleration(acceleration);
    for (i, piece) in data.chunks(chunk).enumerate() {
        enc.write_all(piece).unwrap();
        if flush_every != 0 && i % flush_every == 0 {
            enc.flush().unwrap();
        }
    }
    let bytes = enc.finish().unwrap();
    assert_eq!(frame::decompress(&bytes).unwrap(), data);

    let one = frame::compress_with(data, info);
    assert_eq!(
        frame::decompress_with_limit(&one, data.len()).unwrap(),
        data
    );
    let mut out = vec![0u8; data.len()];
    assert_eq!(frame::decompress_into(&one, &mut out), Ok(data.len()));
    assert_eq!(out, data);
});
