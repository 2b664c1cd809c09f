//! Arbitrary bytes as a Blosc frame through every available kernel: each
//! must return what the scalar kernels return (the same bytes, or the same
//! error) and none may panic, read outside the frame or allocate more than
//! the limit allows.
//!
//! Input: the frame, decoded with a limit of 1 MiB.
#![no_main]

mod common;

use common::agree;
use libfuzzer_sys::fuzz_target;
use vecpress::blosc;

const LIMIT: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Ok(h) = blosc::Header::parse(data) else {
        assert!(blosc::decompress_with_limit(data, LIMIT).is_err());
        return;
    };
    let want_res = blosc::decompress_with_limit(data, LIMIT);
    if h.nbytes > LIMIT {
        assert!(want_res.is_err());
        return;
    }
    let (want, res) = agree(h.nbytes, "", |isa, out| {
        blosc::decompress_with(isa, data, out)
    });
    assert_eq!(res.as_ref().map(|_| &want), want_res.as_ref());
});
