//! Arbitrary bytes read as a vecpress file, every block decoded by the codec
//! the header names (or, version 2, the block) with every kernel it has: errors are fine, panics and
//! reads out of bounds are not, every kernel must return what the scalar one
//! returns (the same values, or the same error), and no allocation may
//! follow a count the input did not back.
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
        let int = codec::int_codecs().iter().find(|c| c.id() == block.codec);
        let byte = codec::byte_codecs().iter().find(|c| c.id() == block.codec);
        assert!(payload.len() <= n * width, "the reader checks lengths");
        if block.stored {
            r.hash_content(&payload);
        } else if let Some(c) = int {
            let mut want = vec![0u32; n];
            let want_res = c.decode(Isa::Scalar, &payload, &mut want);
            for isa in c.kernels() {
                let mut got = vec![0u32; n];
                let res = c.decode(isa, &payload, &mut got);
                assert_eq!(res, want_res, "{} {isa}", c.name());
                if res.is_ok() {
                    assert_eq!(got, want, "{} {isa}", c.name());
                }
            }
            if want_res.is_ok() {
                r.hash_content(
                    &want
                        .iter()
                        .flat_map(|v| v.to_le_bytes())
                        .collect::<Vec<u8>>(),
                );
            }
        } else if let Some(c) = byte {
            let mut want = vec![0u8; n * width];
            let want_res = c.decode(Isa::Scalar, &payload, width, &mut want);
            for isa in c.kernels() {
                let mut got = vec![0u8; n * width];
                let res = c.decode(isa, &payload, width, &mut got);
                assert_eq!(res, want_res, "{} {isa}", c.name());
                if res.is_ok() {
                    assert_eq!(got, want, "{} {isa}", c.name());
                }
            }
            if want_res.is_ok() {
                r.hash_content(&want);
            }
        }
    }
});
