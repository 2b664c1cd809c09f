//! `peer:lz4_flex`: the main pure-Rust LZ4, block format, compiled for this
//! CPU with its default features off (see native.rs): its unsafe decoder,
//! the faster of its two, with the `checked-decode` bounds checks kept, so
//! that it stays within its buffers on any input as vecpress's decoder does.
#![allow(unsafe_code)]

use super::ByteSlot;

const NAME: &str = "peer:lz4_flex";

#[cfg(all(feature = "peers", vecpress_native_peers))]
pub fn peer() -> ByteSlot {
    super::native::slot::<dyn super::BytePeer>(NAME, "lz4", |native| {
        Ok(Box::new(Lz4Flex { native }))
    })
}

#[cfg(not(all(feature = "peers", vecpress_native_peers)))]
pub fn peer() -> ByteSlot {
    super::native::absent(NAME, "lz4")
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
struct Lz4Flex {
    native: &'static super::native::Native,
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
impl super::BytePeer for Lz4Flex {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "lz4"
    }

    fn encode(&self, input: &[u8], _width: usize, out: &mut Vec<u8>) -> Option<usize> {
        // The crate's bound, `get_maximum_output_size`: 110% of the input and
        // 20 bytes (a smaller buffer is refused, not overrun).
        let bound = input.len() * 110 / 100 + 20;
        let out = super::room(out, bound);
        // SAFETY: the lengths passed are the slices' own, which do not
        // overlap; the library was checked to run on this CPU when loaded.
        let n = unsafe {
            (self.native.lz4_flex_compress)(
                input.as_ptr(),
                input.len(),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        usize::try_from(n).ok()
    }

    fn decode(&self, input: &[u8], _width: usize, out: &mut [u8]) -> Option<usize> {
        // SAFETY: as in `encode`.
        let n = unsafe {
            (self.native.lz4_flex_decompress)(
                input.as_ptr(),
                input.len(),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        usize::try_from(n).ok()
    }

    fn note(&self) -> Option<String> {
        Some(format!(
            "{}, default features off (unsafe decoder, checked-decode on)",
            super::native::note(self.native)
        ))
    }
}
