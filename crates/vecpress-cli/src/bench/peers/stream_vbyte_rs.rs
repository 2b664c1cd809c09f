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
        // It asserts (panics) on a short output and reads past a short input:
        // give it a whole group of output and the padded input.
        if out.len() < 4 || input.len() < super::min_input_len(out.len()) {
            return None;
        }
        let n = out.len();
        Some(stream_vbyte::decode::decode::<stream_vbyte::scalar::Scalar>(input, n, out))
    }

    fn note(&self) -> Option<String> {
        Some("scalar decoder (its SIMD ones need nightly)".into())
    }
}
