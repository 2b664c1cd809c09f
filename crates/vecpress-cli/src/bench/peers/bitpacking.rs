//! `peer:bitpacking-4x` and `peer:bitpacking-8x` (and their `-delta`
//! rows): the `bitpacking` crate (tantivy's port of simdcomp) unpacking
//! SIMD-BP128 blocks; and `bp128-8x`, vecpress's own 8-lane unpacking on
//! the bytes `peer:bitpacking-8x` decodes.
//!
//! `BitPacker4x` decodes the blocks of vecpress's `bp128` and `bp128-delta`
//! streams, whose packed bytes are its layout: 128 values a block, the
//! block's width in the byte before it, each delta block's gaps summed from
//! the value before the block. The stream's framing (width bytes, the VByte
//! tail of a partial block) is read with vecpress, as no peer has it.
//!
//! No registry codec stores 8-lane blocks, so `BitPacker8x` gets a stream
//! of its own, framed as `bp128`'s but with blocks of 256 values:
//!
//! ```text
//! [width: u8][32 width bytes] per 256 values, then the last n % 256 as
//! VByte; delta: gaps, each block's first one to the value before it
//! ```
//!
//! and `bp128-8x` times vecpress's `bp128::unpack` at `Lanes::X8` (default
//! dispatch) on the same bytes, the row `peer:bitpacking-8x` is compared
//! with.
#![forbid(unsafe_code)]

use super::Slot;

const NAME_4X: &str = "peer:bitpacking-4x";
const NAME_8X: &str = "peer:bitpacking-8x";
/// The row of vecpress's own 8-lane kernels.
const NAME_OURS_8X: &str = "bp128-8x";

#[cfg(feature = "peers")]
pub fn peer_4x() -> Slot {
    Ok(Box::new(BitPacking4x))
}

#[cfg(feature = "peers")]
pub fn peer_8x() -> Slot {
    Ok(Box::new(Stream8x { ours: false }))
}

#[cfg(feature = "peers")]
pub fn ours_8x() -> Slot {
    Ok(Box::new(Stream8x { ours: true }))
}

#[cfg(not(feature = "peers"))]
fn absent(name: &'static str) -> Slot {
    Err(super::Absent {
        name,
        family: "bp128",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(not(feature = "peers"))]
pub fn peer_4x() -> Slot {
    absent(NAME_4X)
}

#[cfg(not(feature = "peers"))]
pub fn peer_8x() -> Slot {
    absent(NAME_8X)
}

/// The 8-lane stream is written with the bitpacking crate's layout, so its
/// row needs the crate too (for the comparison it exists for).
#[cfg(not(feature = "peers"))]
pub fn ours_8x() -> Slot {
    absent(NAME_OURS_8X)
}

/// Reads a stream of width-prefixed blocks of `LEN` values and its VByte
/// tail, unpacking each block with `unpack(packed, width, prev, block)`
/// (`prev`: the value before the block, for delta); returns the bytes
/// consumed, or `None` if malformed.
#[cfg(feature = "peers")]
fn read_stream<const LEN: usize>(
    input: &[u8],
    out: &mut [u32],
    delta: bool,
    mut unpack: impl FnMut(&[u8], u8, u32, &mut [u32]) -> Option<()>,
) -> Option<usize> {
    let mut pos = 0;
    let mut prev = 0u32;
    let mut blocks = out.chunks_exact_mut(LEN);
    for block in &mut blocks {
        let width = *input.get(pos)?;
        if width > 32 {
            return None;
        }
        pos += 1;
        let len = LEN / 8 * usize::from(width);
        unpack(input.get(pos..pos + len)?, width, prev, block)?;
        pos += len;
        prev = block[LEN - 1];
    }
    let tail = blocks.into_remainder();
    let rest = input.get(pos..)?;
    let read = if delta {
        vecpress::vbyte::decode_delta(rest, tail, prev)
    } else {
        vecpress::vbyte::decode(rest, tail)
    };
    Some(pos + read.ok()?)
}

#[cfg(feature = "peers")]
struct BitPacking4x;

#[cfg(feature = "peers")]
impl BitPacking4x {
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        use bitpacking::{BitPacker, BitPacker4x};
        let packer = BitPacker4x::new();
        read_stream::<{ BitPacker4x::BLOCK_LEN }>(
            input,
            out,
            delta,
            |packed, width, prev, block| {
                if delta {
                    packer.decompress_sorted(prev, packed, block, width);
                } else {
                    packer.decompress(packed, block, width);
                }
                Some(())
            },
        )
    }
}

#[cfg(feature = "peers")]
impl super::Peer for BitPacking4x {
    fn name(&self) -> &'static str {
        NAME_4X
    }

    fn family(&self) -> &'static str {
        "bp128"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, false)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, true)
    }

    fn note(&self) -> Option<String> {
        Some("BitPacker4x on the blocks of vecpress's bp128 stream".into())
    }
}

/// The 8-lane stream, decoded by the crate's `BitPacker8x` or (`ours`) by
/// vecpress's `bp128` at `Lanes::X8`.
#[cfg(feature = "peers")]
struct Stream8x {
    ours: bool,
}

#[cfg(feature = "peers")]
impl Stream8x {
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        use bitpacking::{BitPacker, BitPacker8x};
        use vecpress::bitpack::bp128::{self, Lanes};
        const LEN: usize = BitPacker8x::BLOCK_LEN;
        if self.ours {
            read_stream::<LEN>(input, out, delta, |packed, width, prev, block| {
                let done = if delta {
                    bp128::unpack_sorted(Lanes::X8, prev, packed, width, block)
                } else {
                    bp128::unpack(Lanes::X8, packed, width, block)
                };
                done.ok().map(drop)
            })
        } else {
            let packer = BitPacker8x::new();
            read_stream::<LEN>(input, out, delta, |packed, width, prev, block| {
                if delta {
                    packer.decompress_sorted(prev, packed, block, width);
                } else {
                    packer.decompress(packed, block, width);
                }
                Some(())
            })
        }
    }
}

#[cfg(feature = "peers")]
impl super::Peer for Stream8x {
    fn name(&self) -> &'static str {
        if self.ours { NAME_OURS_8X } else { NAME_8X }
    }

    fn family(&self) -> &'static str {
        "bp128"
    }

    fn isa(&self) -> &'static str {
        if self.ours {
            crate::bench::measure::AUTO
        } else {
            "-"
        }
    }

    /// The 8-lane stream (the same bytes for both rows), packed by
    /// vecpress, whose 8-lane blocks are `BitPacker8x`'s.
    fn encode(&self, values: &[u32], delta: bool) -> Option<Vec<u8>> {
        use vecpress::bitpack::bp128::{self, Lanes};
        let mut out = Vec::new();
        let mut prev = 0u32;
        let mut blocks = values.chunks_exact(Lanes::X8.block_len());
        for block in &mut blocks {
            let width = if delta {
                bp128::width_sorted(Lanes::X8, prev, block)
            } else {
                bp128::width(Lanes::X8, block)
            }
            .ok()?;
            out.push(width);
            let start = out.len();
            out.resize(start + Lanes::X8.packed_len(width), 0);
            if delta {
                bp128::pack_sorted(Lanes::X8, prev, block, width, &mut out[start..]).ok()?;
            } else {
                bp128::pack(Lanes::X8, block, width, &mut out[start..]).ok()?;
            }
            prev = block[block.len() - 1];
        }
        let tail = blocks.remainder();
        if delta {
            out.extend(vecpress::vbyte::encode_delta_to_vec(tail, prev));
        } else {
            out.extend(vecpress::vbyte::encode_to_vec(tail));
        }
        Some(out)
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, false)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, true)
    }

    fn note(&self) -> Option<String> {
        Some(if self.ours {
            "vecpress's bp128 unpack at Lanes::X8 (default dispatch) on the blocks of 256 that \
             peer:bitpacking-8x decodes (no registry codec stores them)"
                .into()
        } else {
            "BitPacker8x on blocks of 256 values, framed as bp128's blocks of 128; its \
             decompress_sorted (the -delta row) runs at a small fraction of its decompress's \
             speed even when called alone, outside this harness (bitpacking 0.9.3)"
                .into()
        })
    }
}
