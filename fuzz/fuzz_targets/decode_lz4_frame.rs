//! Arbitrary bytes through the LZ4 frame decoder, under a limit, read in
//! arbitrary pieces: it may fail but never panic, and it never produces more
//! than the limit. Reading in pieces and reading at once must agree.
#![no_main]

use std::io::Read;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use vecpress::lz4::frame::{self, FrameDecoder};
use vecpress::Error;

#[derive(Arbitrary, Debug)]
struct Input {
    limit: u32,
    read_size: u16,
    bytes: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let limit = (input.limit % (1 << 24)) as usize;
    let whole = frame::decompress_with_limit(&input.bytes, limit);
    if let Ok(out) = &whole {
        assert!(out.len() <= limit);
    }
    let mut dec = FrameDecoder::with_limit(&input.bytes[..], limit as u64);
    let mut buf = vec![0u8; usize::from(input.read_size).max(1)];
    let mut got = Vec::new();
    let pieces = loop {
        match dec.read(&mut buf) {
            Ok(0) => break Ok(got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => break Err(Error::from(e)),
        }
    };
    assert_eq!(pieces, whole);

    // Into a slice as long as the limit (capped, to keep runs fast): the same
    // content, or the same error (a full slice where the limit was passed).
    let cap = limit.min(1 << 16);
    let mut dst = vec![0u8; cap];
    let into = frame::decompress_into(&input.bytes, &mut dst);
    let capped = frame::decompress_with_limit(&input.bytes, cap);
    match (into, capped) {
        (Ok(n), Ok(v)) => assert_eq!(&dst[..n], &v[..]),
        (Err(Error::OutputTooSmall { .. }), Err(Error::LimitExceeded { .. })) => {}
        (a, b) => assert_eq!(a.map(|_| ()), b.map(|_| ())),
    }
});
