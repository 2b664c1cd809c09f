//! `peer:integer-encoding`: the integer-encoding crate, `VarInt::decode_var`
//! value by value.
#![forbid(unsafe_code)]

use super::Slot;

#[cfg(feature = "peers")]
pub fn peer() -> Slot {
    Ok(Box::new(IntegerEncoding))
}

#[cfg(not(feature = "peers"))]
pub fn peer() -> Slot {
    Err(super::Absent {
        name: "peer:integer-encoding",
        family: "vbyte",
        reason: super::NO_FEATURE.into(),
    })
}

#[cfg(feature = "peers")]
struct IntegerEncoding;

#[cfg(feature = "peers")]
impl super::Peer for IntegerEncoding {
    fn name(&self) -> &'static str {
        "peer:integer-encoding"
    }

    fn family(&self) -> &'static str {
        "vbyte"
    }

    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        use integer_encoding::VarInt;
        let mut pos = 0;
        for slot in out.iter_mut() {
            let (value, len) = u32::decode_var(input.get(pos..)?)?;
            *slot = value;
            pos += len;
        }
        Some(pos)
    }
}
