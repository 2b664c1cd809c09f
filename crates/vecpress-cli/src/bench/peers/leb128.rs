//! `peer:leb128-scalar`: the textbook LEB128 loop, one byte at a time.
#![forbid(unsafe_code)]

use super::{Peer, Slot};

struct Leb128;

pub fn peer() -> Slot {
    Ok(Box::new(Leb128))
}

impl Peer for Leb128 {
    fn name(&self) -> &'static str {
        "peer:leb128-scalar"
    }

    fn family(&self) -> &'static str {
        "vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        let mut pos = 0;
        for slot in out.iter_mut() {
            let mut value = 0u32;
            let mut shift = 0;
            loop {
                let byte = *input.get(pos)?;
                pos += 1;
                value |= u32::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    break;
                }
                shift += 7;
                if shift > 28 {
                    return None;
                }
            }
            *slot = value;
        }
        Some(pos)
    }
}
