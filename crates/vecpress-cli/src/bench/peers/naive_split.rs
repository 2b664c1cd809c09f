//! `peer:naive`: byte stream split as the plain nested loop, value by value
//! and byte by byte, the shape of most implementations. Like parquet-rs
//! (`join_streams_const` / `split_streams_const` in its byte stream split
//! coder, whose API is public only behind a feature that pulls in arrow),
//! the widths 2, 4 and 8 get the loop with the width known at compile time,
//! so that the compiler unrolls the inner loop, and other widths the loop
//! over a run-time width.
#![forbid(unsafe_code)]

use super::{BytePeer, ByteSlot};

struct Naive;

pub fn peer() -> ByteSlot {
    Ok(Box::new(Naive))
}

/// Value `i`'s byte `j` goes to stream `j`.
fn split<const W: usize>(input: &[u8], width: usize, out: &mut [u8]) {
    let width = if W == 0 { width } else { W };
    let n = input.len() / width;
    for i in 0..n {
        for j in 0..width {
            out[j * n + i] = input[i * width + j];
        }
    }
}

/// The inverse of [`split`].
fn join<const W: usize>(input: &[u8], width: usize, out: &mut [u8]) {
    let width = if W == 0 { width } else { W };
    let n = input.len() / width;
    for i in 0..n {
        for j in 0..width {
            out[i * width + j] = input[j * n + i];
        }
    }
}

impl BytePeer for Naive {
    fn name(&self) -> &'static str {
        "peer:naive"
    }

    fn family(&self) -> &'static str {
        "byte-split"
    }

    fn encode(&self, input: &[u8], width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let out = super::room(out, input.len());
        match width {
            2 => split::<2>(input, width, out),
            4 => split::<4>(input, width, out),
            8 => split::<8>(input, width, out),
            _ => split::<0>(input, width, out),
        }
        Some(input.len())
    }

    fn decodes_ours(&self) -> bool {
        false
    }

    fn decode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        if input.len() != out.len() || !input.len().is_multiple_of(width) {
            return None;
        }
        match width {
            2 => join::<2>(input, width, out),
            4 => join::<4>(input, width, out),
            8 => join::<8>(input, width, out),
            _ => join::<0>(input, width, out),
        }
        Some(out.len())
    }

    fn note(&self) -> Option<String> {
        Some("the nested loop, width fixed at compile time for 2, 4 and 8 (as parquet-rs)".into())
    }
}
