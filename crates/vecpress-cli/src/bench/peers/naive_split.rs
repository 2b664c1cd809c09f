//! `peer:naive`: byte stream split as a plain nested loop, value by value
//! and byte by byte (the shape of most implementations, arrow-rs's included).
#![forbid(unsafe_code)]

use super::{BytePeer, ByteSlot};

struct Naive;

pub fn peer() -> ByteSlot {
    Ok(Box::new(Naive))
}

impl BytePeer for Naive {
    fn name(&self) -> &'static str {
        "peer:naive"
    }

    fn family(&self) -> &'static str {
        "byte-split"
    }

    fn encode(&self, input: &[u8], width: usize) -> Option<Vec<u8>> {
        let n = input.len() / width;
        let mut out = vec![0u8; input.len()];
        for i in 0..n {
            for j in 0..width {
                out[j * n + i] = input[i * width + j];
            }
        }
        Some(out)
    }

    fn decodes_ours(&self) -> bool {
        false
    }

    fn decode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        if input.len() != out.len() || !input.len().is_multiple_of(width) {
            return None;
        }
        let n = input.len() / width;
        for i in 0..n {
            for j in 0..width {
                out[i * width + j] = input[j * n + i];
            }
        }
        Some(out.len())
    }
}
