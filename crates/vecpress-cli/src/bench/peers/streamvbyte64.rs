//! `peer:streamvbyte64`: the `streamvbyte64` crate's `Coder1234`, the Stream
//! VByte format in pure Rust (accelerated on aarch64 only).
//!
//! It decodes groups of four values, so it decodes the whole groups of a
//! block in place and its last, partial group into a scratch group (the
//! control bits of absent values are 0, one phantom data byte each).
#![forbid(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:streamvbyte64";

#[cfg(feature = "peers")]
pub fn peer() -> Slot {
    Ok(Box::new(StreamVByte64))
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
struct StreamVByte64;

#[cfg(feature = "peers")]
impl StreamVByte64 {
    /// Decodes plain values or gaps from 0; returns the bytes consumed.
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        use streamvbyte64::{Coder, Coder1234};

        let n = out.len();
        let tag_len = n.div_ceil(4);
        if input.len() < super::min_input_len(n) {
            return None;
        }
        let (tags, data) = input.split_at(tag_len);
        let coder = Coder1234::new();
        let whole = n / 4 * 4;
        let decode = |tags: &[u8], data: &[u8], values: &mut [u32], initial: u32| {
            if delta {
                coder.decode_deltas(initial, tags, data, values)
            } else {
                coder.decode(tags, data, values)
            }
        };
        let mut used = decode(&tags[..whole / 4], data, &mut out[..whole], 0);
        if whole < n {
            let mut group = [0u32; 4];
            let initial = if delta && whole > 0 {
                out[whole - 1]
            } else {
                0
            };
            used += decode(&tags[whole / 4..], &data[used..], &mut group, initial);
            out[whole..].copy_from_slice(&group[..n - whole]);
            used -= 4 - (n - whole);
        }
        Some(tag_len + used)
    }
}

#[cfg(feature = "peers")]
impl super::Peer for StreamVByte64 {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "stream-vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, false)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, true)
    }
}
