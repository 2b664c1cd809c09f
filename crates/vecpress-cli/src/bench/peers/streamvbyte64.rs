//! `peer:streamvbyte64`: the `streamvbyte64` crate's `Coder1234`, the
//! Stream VByte format in Rust, compiled for this CPU (see native.rs): its
//! x86 kernels exist only in a build for a target with SSE3 and up. It
//! decodes the bytes of vecpress's `stream-vbyte` and `stream-vbyte-delta`.
#![allow(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:streamvbyte64";

#[cfg(all(feature = "peers", vecpress_native_peers))]
pub fn peer() -> Slot {
    super::native::slot::<dyn super::Peer>(NAME, "stream-vbyte", |native| {
        Ok(Box::new(StreamVByte64 { native }))
    })
}

#[cfg(not(all(feature = "peers", vecpress_native_peers)))]
pub fn peer() -> Slot {
    super::native::absent(NAME, "stream-vbyte")
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
struct StreamVByte64 {
    native: &'static super::native::Native,
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
impl StreamVByte64 {
    /// Decodes plain values or gaps from 0; returns the bytes consumed.
    fn run(&self, input: &[u8], out: &mut [u32], delta: bool) -> Option<usize> {
        // SAFETY: the lengths passed are the slices' own, which do not
        // overlap; the library was checked to run on this CPU when loaded.
        let read = unsafe {
            (self.native.streamvbyte64_decode)(
                input.as_ptr(),
                input.len(),
                out.as_mut_ptr(),
                out.len(),
                delta,
            )
        };
        usize::try_from(read).ok()
    }
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
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

    fn note(&self) -> Option<String> {
        Some(super::native::note(self.native))
    }
}
