//! `peer:lz4_flex`: the main pure-Rust LZ4, block format, default features
//! (its safe decoder).
#![forbid(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:lz4_flex";

#[cfg(feature = "peers")]
pub fn peer() -> ByteSlot {
    Ok(Box::new(Lz4Flex))
}

#[cfg(not(feature = "peers"))]
pub fn peer() -> ByteSlot {
    Err(super::Absent {
        name: NAME,
        family: "lz4",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
struct Lz4Flex;

#[cfg(feature = "peers")]
impl super::BytePeer for Lz4Flex {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "lz4"
    }

    fn encode(&self, input: &[u8], _width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let bound = lz4_flex::block::get_maximum_output_size(input.len());
        lz4_flex::block::compress_into(input, super::room(out, bound)).ok()
    }

    fn decode(&self, input: &[u8], _width: usize, out: &mut [u8]) -> Option<usize> {
        lz4_flex::block::decompress_into(input, out).ok()
    }
}
