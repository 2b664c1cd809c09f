//! Arbitrary bytes through the LZ4 frame decoder, under a limit, read in
//! arbitrary pieces: it may fail but never panic, and it never produces more
//! than the limit. Reading in pieces (one block at a time, and two when
//! reading ahead), reading at once and decoding into a slice must agree.
//!
//! Input: one byte for the limit (a power of two), two for the read size,
//! then the frame bytes as they are (so that real `.lz4` files, behind three
//! bytes, make good seeds).
#![no_main]

use std::io::Read;

use libfuzzer_sys::fuzz_target;
use vecpress::lz4::frame::{self, FrameDecoder};
use vecpress::Error;

fuzz_target!(|data: &[u8]| {
    let Some((head, bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let limit = 1usize << (head[0] % 25);
    let read_size = usize::from(u16::from_le_bytes([head[1], head[2]])).max(1);

    let whole = frame::decompress_with_limit(bytes, limit);
    if let Ok(out) = &whole {
        assert!(out.len() <= limit);
    }
    // One block at a time and two (reading ahead): the same bytes before
    // the same error.
    let read = |ahead: bool| {
        let mut dec = FrameDecoder::with_limit(bytes, limit as u64).read_ahead(ahead);
        let mut buf = vec![0u8; read_size];
        let mut got = Vec::new();
        loop {
            match dec.read(&mut buf) {
                Ok(0) => break (got, None),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => break (got, Some(Error::from(e))),
            }
        }
    };
    let single = read(false);
    assert_eq!(read(true), single);
    let pieces = match single {
        (got, None) => Ok(got),
        (_, Some(err)) => Err(err),
    };
    assert_eq!(pieces, whole);

    // Into a slice as long as the limit (capped, to keep runs fast): the same
    // content, or the same error (a full slice where the limit was passed).
    let cap = limit.min(1 << 16);
    let mut dst = vec![0u8; cap];
    let into = frame::decompress_into(bytes, &mut dst);
    let capped = frame::decompress_with_limit(bytes, cap);
    match (into, capped) {
        (Ok(n), Ok(v)) => assert_eq!(&dst[..n], &v[..]),
        (Err(Error::OutputTooSmall { .. }), Err(Error::LimitExceeded { .. })) => {}
        (a, b) => assert_eq!(a.map(|_| ()), b.map(|_| ())),
    }
});
