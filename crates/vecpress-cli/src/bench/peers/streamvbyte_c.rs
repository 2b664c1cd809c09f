//! `peer:streamvbyte-c`: the reference Stream VByte in C (lemire/streamvbyte,
//! bundled by the `streamvbyte` crate, built by cmake with `-march=native`),
//! with its own delta decoder (`streamvbyte_delta_decode`).
#![forbid(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:streamvbyte-c";

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
pub fn peer() -> Slot {
    Ok(Box::new(StreamVByteC))
}

#[cfg(not(all(feature = "peers", target_arch = "x86_64")))]
pub fn peer() -> Slot {
    let reason = if cfg!(feature = "peers") {
        "built only on x86-64 here".into()
    } else {
        super::NO_FEATURE.into()
    };
    Err(super::Absent {
        name: NAME,
        family: "stream-vbyte",
        reason,
    })
}

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
struct StreamVByteC;

#[cfg(all(feature = "peers", target_arch = "x86_64"))]
impl super::Peer for StreamVByteC {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "stream-vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        // The C decoder trusts its input and may read 16 bytes past the
        // stream: the bench pads every block (see `min_input_len`).
        if input.len() < super::min_input_len(out.len()) || out.len() > u32::MAX as usize {
            return None;
        }
        Some(streamvbyte::decode(input, out)).filter(|&n| n <= input.len())
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        if input.len() < super::min_input_len(out.len()) || out.len() > u32::MAX as usize {
            return None;
        }
        Some(streamvbyte::decode_delta(input, out, 0)).filter(|&n| n <= input.len())
    }

    fn note(&self) -> Option<String> {
        Some("C built by cmake with -O3 -march=native".into())
    }
}
