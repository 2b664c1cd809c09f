//! `peer:varint-simd`: the varint-simd crate's `decode::<u32>`, value by
//! value (each call reads 16 bytes, which the padded input always has),
//! compiled for this CPU with its `native-optimizations` feature (see
//! native.rs): it takes its SSSE3, AVX2 and BMI2 paths only when compiled
//! for them, and asks its users for `-C target-cpu=native`.
#![allow(unsafe_code)]

use super::Slot;

const NAME: &str = "peer:varint-simd";

#[cfg(all(feature = "peers", vecpress_native_peers))]
pub fn peer() -> Slot {
    super::native::slot::<dyn super::Peer>(NAME, "vbyte", |native| {
        match native.varint_simd_decode {
            Some(decode) => Ok(Box::new(VarintSimd { native, decode })),
            None => Err("x86-64 only (varint-simd uses x86 intrinsics)".into()),
        }
    })
}

#[cfg(not(all(feature = "peers", vecpress_native_peers)))]
pub fn peer() -> Slot {
    super::native::absent(NAME, "vbyte")
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
struct VarintSimd {
    native: &'static super::native::Native,
    decode: unsafe extern "C" fn(*const u8, usize, *mut u32, usize) -> isize,
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
impl super::Peer for VarintSimd {
    fn name(&self) -> &'static str {
        NAME
    }

    fn family(&self) -> &'static str {
        "vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        // SAFETY: the lengths passed are the slices' own, which do not
        // overlap; the library was checked to run on this CPU when loaded.
        let read =
            unsafe { (self.decode)(input.as_ptr(), input.len(), out.as_mut_ptr(), out.len()) };
        usize::try_from(read).ok()
    }

    fn note(&self) -> Option<String> {
        Some(super::native::note(self.native))
    }
}
