//! `peer:fastlanes` and `peer:fastlanes-delta`: the `fastlanes` crate
//! (SpiralDB's Rust FastLanes) unpacking the blocks of vecpress's
//! `fastlanes` and `fastlanes-delta` streams, whose packed bytes are the
//! crate's `BitPacking` and `Delta` layout.
//!
//! The stream's framing (width bytes, the delta form's VByte bases, the
//! VByte tail of a partial block) is read with vecpress, as no peer has it.
//! The crate takes its packed words as an aligned `&[u32]`, and a stream
//! block starts after its width byte, so each block is first copied into
//! aligned words (at most 4 KiB, in L1; the copy is part of the peer's
//! time). Delta blocks go through the crate's fused `undelta_pack`, then
//! its `untranspose` to the values' order.
#![forbid(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:fastlanes";

#[cfg(feature = "peers")]
pub fn peer() -> Slot {
    Ok(Box::new(FastLanesCrate))
}

#[cfg(not(feature = "peers"))]
pub fn peer() -> Slot {
    Err(super::Absent {
        name: NAME,
        family: "fastlanes",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
struct FastLanesCrate;

/// `$body` with `$w` a constant width (0..=32) and `$b` its packed words,
/// for the runtime width `$width`; `None` from the function above 32.
#[cfg(feature = "peers")]
macro_rules! by_width {
    ($width:expr, |$w:ident, $b:ident| $body:expr) => {
        by_width!(@arms $width, $w, $b, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18
            19 20 21 22 23 24 25 26 27 28 29 30 31 32)
    };
    (@arms $width:expr, $w:ident, $b:ident, $body:expr; $($n:literal)*) => {
        match $width {
            $($n => {
                const $w: usize = $n;
                const $b: usize = 32 * $n;
                $body
            })*
            _ => return None,
        }
    };
}

#[cfg(feature = "peers")]
impl FastLanesCrate {
    /// Decodes a plain or delta stream; returns the bytes consumed.
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        use fastlanes::{BitPacking, Delta, Transpose};
        use vecpress::bitpack::fastlanes::transposed_index;

        let mut pos = 0;
        let mut prev = 0u32;
        let mut words = [0u32; 1024];
        let mut lanes = [0u32; 1024];
        let mut blocks = out.chunks_exact_mut(1024);
        for block in &mut blocks {
            let width = usize::from(*input.get(pos)?);
            pos += 1;
            let mut bases = [0u32; 32];
            if delta {
                let mut ends = [0u32; 32];
                pos += vecpress::vbyte::decode_delta(input.get(pos..)?, &mut ends, prev).ok()?;
                for (lane, base) in bases.iter_mut().enumerate() {
                    *base = ends[transposed_index(lane) / 32];
                }
            }
            let bytes = input.get(pos..pos + 128 * width)?;
            for (w, b) in words.iter_mut().zip(bytes.chunks_exact(4)) {
                *w = u32::from_le_bytes(b.try_into().expect("4 bytes"));
            }
            pos += bytes.len();
            let block: &mut [u32; 1024] = block.try_into().expect("a whole block");
            by_width!(width, |W, B| {
                let packed: &[u32; B] = words[..B].try_into().expect("B words");
                if delta {
                    u32::undelta_pack::<32, W, B>(packed, &bases, &mut lanes);
                    u32::untranspose(&lanes, block);
                } else {
                    u32::unpack::<W, B>(packed, block);
                }
            });
            prev = block[1023];
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
}

#[cfg(feature = "peers")]
impl super::Peer for FastLanesCrate {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "fastlanes"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, false)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, true)
    }

    fn note(&self) -> Option<String> {
        Some("the crate's kernels, after a copy of each block into aligned words".into())
    }
}
