//! Arbitrary bytes read as a vecpress file, every block decoded by the codec
//! the header names: errors are fine, panics and reads out of bounds are not,
//! and no allocation may follow a count the input did not back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::codec;
use vecpress::container::{Limits, Reader};
use vecpress::Isa;

fuzz_target!(|bytes: &[u8]| {
    let limits = Limits {
        max_block_bytes: 1 << 20,
    };
    let Ok(mut r) = Reader::with_limits(bytes, limits) else {
        return;
    };
    let h = *r.header();
    let width = h.element.width();
    let int = codec::int_codecs().iter().find(|c| c.id() == h.codec);
    let byte = codec::byte_codecs().iter().find(|c| c.id() == h.codec);
    let mut payload = Vec::new();
    loop {
        let block = match r.next_block(&mut payload) {
            Ok(Some(block)) => block,
            Ok(None) => {
                let _ = r.check_content();
                return;
            }
            Err(_) => return,
        };
        let n = block.count as usize;
        assert!(payload.len() <= n * width, "the reader checks lengths");
        if block.stored {
            r.hash_content(&payload);
        } else if let Some(c) = int {
            let mut out = vec![0u32; n];
            for &isa in c.kernels().iter().chain([Isa::Scalar].iter()) {
                let _ = c.decode(isa, &payload, &mut out);
            }
        } else if let Some(c) = byte {
            let mut out = vec![0u8; n * width];
            for &isa in c.kernels().iter().chain([Isa::Scalar].iter()) {
                let _ = c.decode(isa, &payload, width, &mut out);
            }
        }
    }
});
