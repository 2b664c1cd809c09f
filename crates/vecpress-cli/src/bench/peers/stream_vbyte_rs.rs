//! `peer:stream-vbyte`: the `stream-vbyte` crate (a Rust port), with its
//! scalar decoder: its SIMD decoders need nightly features, and vecpress
//! builds on stable.
#![forbid(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:stream-vbyte";

#[cfg(feature = "peers")]
pub fn peer() -> Slot {
    Ok(Box::new(StreamVByteRs))
}

#[cfg(not(feature = "peers"))]
pub fn peer() -> Slot {
    Err(super::Absent {
        name: NAME,
        family: "stream-vbyte",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
use stream_vbyte::scalar::Scalar;

#[cfg(feature = "peers")]
struct StreamVByteRs;

#[cfg(feature = "peers")]
impl super::Peer for StreamVByteRs {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "stream-vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        // It asserts (panics) on an output shorter than a group, and reads
        // past a short input: give it the padded input, and a whole group of
        // output for a block of fewer than 4 values.
        if input.len() < super::min_input_len(out.len()) {
            return None;
        }
        let n = out.len();
        if n < 4 {
            let mut group = [0u32; 4];
            let used = stream_vbyte::decode::decode::<Scalar>(input, n, &mut group);
            out.copy_from_slice(&group[..n]);
            return Some(used);
        }
        Some(stream_vbyte::decode::decode::<Scalar>(input, n, out))
    }

    fn note(&self) -> Option<String> {
        Some("scalar decoder (its SIMD ones need nightly)".into())
    }
}
