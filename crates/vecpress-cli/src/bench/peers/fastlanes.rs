//! `peer:fastlanes` and `peer:fastlanes-delta`: the `fastlanes` crate
//! (SpiralDB's Rust FastLanes), compiled for this CPU (see native.rs), on a
//! stream of its own in the crate's layout, as its users store blocks:
//! aligned words the crate reads in place, with no copy. The crate has no
//! form for a partial block, so the last values are VByte, read with
//! vecpress as vecpress's own `fastlanes` stream has them: the two differ
//! in their whole blocks alone.
//!
//! ```text
//! per 1024 values: [width: u32 LE][delta: 32 lane bases, u32 LE]
//!                  [32 * width words: the crate's BitPacking layout]
//! then the last n % 1024 values as VByte (delta: gaps from the value
//! before them), zero-padded to a whole word
//! ```
//!
//! A delta block is the crate's `Transpose::transpose` of the sorted values,
//! each lane's gaps from its first value (its base), packed; it decodes with
//! the fused `Delta::undelta_pack` and `Transpose::untranspose`. The bench
//! places every block on a word boundary (race.rs), so each is handed to the
//! crate where it lies.
#![allow(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:fastlanes";

#[cfg(all(feature = "peers", vecpress_native_peers))]
pub fn peer() -> Slot {
    super::native::slot::<dyn super::Peer>(NAME, "fastlanes", |native| {
        Ok(Box::new(FastLanesCrate { native }))
    })
}

#[cfg(not(all(feature = "peers", vecpress_native_peers)))]
pub fn peer() -> Slot {
    super::native::absent(NAME, "fastlanes")
}

/// Values per block.
#[cfg(all(feature = "peers", vecpress_native_peers))]
const BLOCK: usize = 1024;

#[cfg(all(feature = "peers", vecpress_native_peers))]
struct FastLanesCrate {
    native: &'static super::native::Native,
}

/// The u32 LE word at `pos`.
#[cfg(all(feature = "peers", vecpress_native_peers))]
fn word(input: &[u8], pos: usize) -> Option<u32> {
    Some(u32::from_le_bytes(
        input.get(pos..pos + 4)?.try_into().ok()?,
    ))
}

/// Encodes with the crate (not timed): see the module doc.
#[cfg(all(feature = "peers", vecpress_native_peers))]
fn encode(values: &[u32], delta: bool) -> Vec<u8> {
    use fastlanes::{BitPacking, Delta, Transpose};
    let mut out = Vec::new();
    let mut blocks = values.chunks_exact(BLOCK);
    let mut gaps = [0u32; BLOCK];
    let mut transposed = [0u32; BLOCK];
    let mut packed = [0u32; BLOCK];
    for block in &mut blocks {
        let block: &[u32; BLOCK] = block.try_into().expect("a whole block");
        let mut bases = [0u32; 32];
        if delta {
            u32::transpose(block, &mut transposed);
            bases.copy_from_slice(&transposed[..32]);
            u32::delta::<32>(&transposed, &bases, &mut gaps);
        } else {
            gaps = *block;
        }
        let width = 32 - gaps.iter().fold(0, |a, &g| a | g).leading_zeros() as usize;
        let packed = &mut packed[..32 * width];
        // SAFETY: 1024 values in, `32 * width` words out, width <= 32: the
        // lengths the crate asks for.
        unsafe { u32::unchecked_pack(width, &gaps, packed) };
        out.extend_from_slice(&(width as u32).to_le_bytes());
        if delta {
            bases
                .iter()
                .for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        }
        packed
            .iter()
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
    }
    let prev = values
        .len()
        .checked_sub(blocks.remainder().len() + 1)
        .map_or(0, |i| values[i]);
    out.extend_from_slice(&if delta {
        vecpress::vbyte::encode_delta_to_vec(blocks.remainder(), prev)
    } else {
        vecpress::vbyte::encode_to_vec(blocks.remainder())
    });
    out.resize(out.len().next_multiple_of(4), 0);
    out
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
impl FastLanesCrate {
    /// Decodes a plain or delta stream; returns the bytes consumed.
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        // A stream not on a word boundary (never in the bench; possible for
        // a caller's own buffer) is read through an aligned copy.
        let aligned = input.as_ptr().align_offset(4) == 0;
        let mut copy = if aligned {
            Vec::new()
        } else {
            vec![0u32; 32 + BLOCK]
        };
        let mut pos = 0;
        let mut prev = 0u32;
        let mut blocks = out.chunks_exact_mut(BLOCK);
        for block in &mut blocks {
            let width = word(input, pos)?;
            if width > 32 {
                return None;
            }
            pos += 4;
            let words = 32 * width as usize + if delta { 32 } else { 0 };
            let bytes = input.get(pos..pos + 4 * words)?;
            pos += bytes.len();
            let start = if aligned {
                bytes.as_ptr().cast::<u32>()
            } else {
                for (w, b) in copy.iter_mut().zip(bytes.chunks_exact(4)) {
                    *w = u32::from_le_bytes(b.try_into().expect("4 bytes"));
                }
                copy.as_ptr()
            };
            let (bases, packed) = if delta {
                // SAFETY: `words` holds the 32 bases first.
                (start, unsafe { start.add(32) })
            } else {
                (std::ptr::null(), start)
            };
            // SAFETY: `packed` points to the block's `32 * width` words (and
            // `bases`, when not null, to 32), in `input` (which lies on a
            // word boundary, and every block's length is whole words) or in
            // `copy`; `block` is 1024 writable words of `out`, apart from
            // both; the library was checked to run on this CPU when loaded.
            let rc =
                unsafe { (self.native.fastlanes_unpack)(width, packed, bases, block.as_mut_ptr()) };
            if rc != 0 {
                return None;
            }
            prev = block[BLOCK - 1];
        }
        let tail = blocks.into_remainder();
        let rest = input.get(pos..)?;
        let read = if delta {
            vecpress::vbyte::decode_delta(rest, tail, prev)
        } else {
            vecpress::vbyte::decode(rest, tail)
        };
        Some((pos + read.ok()?).next_multiple_of(4))
    }
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
impl super::Peer for FastLanesCrate {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "fastlanes"
    }

    fn encode(&self, values: &[u32], delta: bool) -> Option<Vec<u8>> {
        Some(encode(values, delta))
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, false)
    }

    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        self.run(input, out, true)
    }

    fn note(&self) -> Option<String> {
        Some(format!(
            "{}, on its own aligned blocks",
            super::native::note(self.native)
        ))
    }
}
