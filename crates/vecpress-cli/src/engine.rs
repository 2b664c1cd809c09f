//! The codecs a file can use: every codec of the registry, plus `store` (no
//! codec, id 0), over blocks of elements given as their little-endian bytes.
//!
//! Integer codecs (u32) take `u32` and `postings` elements as they are and
//! `i32` elements zigzag-encoded; byte codecs take every element type (those
//! that need a width only fixed-width values).
#![forbid(unsafe_code)]

use anyhow::{Result, bail};
use vecpress::Error;
use vecpress::codec::{self, ByteCodec, IntCodec};
use vecpress::container::{Element, STORED_CODEC};

/// One way of encoding blocks.
#[derive(Clone, Copy)]
pub enum Engine {
    /// No codec: blocks are stored raw.
    Store,
    /// A u32 codec of the registry.
    Int(&'static dyn IntCodec),
    /// A byte codec of the registry.
    Bytes(&'static dyn ByteCodec),
}

/// Reused buffers of one worker.
#[derive(Default)]
pub struct Scratch {
    values: Vec<u32>,
}

impl Engine {
    /// Every engine: store, the integer codecs, the byte codecs.
    pub fn all() -> Vec<Engine> {
        let ints = codec::int_codecs().iter().map(|&c| Engine::Int(c));
        let bytes = codec::byte_codecs().iter().map(|&c| Engine::Bytes(c));
        std::iter::once(Engine::Store)
            .chain(ints)
            .chain(bytes)
            .collect()
    }

    /// The engines that can encode `element`.
    pub fn fitting(element: Element) -> Vec<Engine> {
        Engine::all()
            .into_iter()
            .filter(|e| e.fits(element))
            .collect()
    }

    /// The engine of that name, if any.
    pub fn by_name(name: &str) -> Option<Engine> {
        Engine::all().into_iter().find(|e| e.name() == name)
    }

    /// The engine of that id, if any.
    pub fn by_id(id: u16) -> Option<Engine> {
        Engine::all().into_iter().find(|e| e.id() == id)
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Store => "store",
            Engine::Int(c) => c.name(),
            Engine::Bytes(c) => c.name(),
        }
    }

    /// Its id in files.
    pub fn id(&self) -> u16 {
        match self {
            Engine::Store => STORED_CODEC,
            Engine::Int(c) => c.id(),
            Engine::Bytes(c) => c.id(),
        }
    }

    /// Whether it can encode `element`.
    pub fn fits(&self, element: Element) -> bool {
        match self {
            Engine::Store => true,
            Engine::Int(_) => matches!(element, Element::U32 | Element::I32 | Element::Postings),
            Engine::Bytes(c) => !c.needs_width() || element != Element::Bytes,
        }
    }

    /// Names of the engines that fit `element`, for messages.
    pub fn names_fitting(element: Element) -> String {
        let names: Vec<_> = Engine::fitting(element).iter().map(|e| e.name()).collect();
        names.join(", ")
    }

    /// Encodes a block of elements (their bytes, `raw`) into `out`
    /// (replacing its contents).
    pub fn encode(
        &self,
        element: Element,
        raw: &[u8],
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
    ) -> Result<()> {
        // The encoders write every byte they count, so `out` is only
        // resized, not cleared: zeroing it first would cost a pass over
        // memory every block.
        match self {
            Engine::Store => {
                out.clear();
                out.extend_from_slice(raw);
            }
            Engine::Int(c) => {
                let values = &mut scratch.values;
                values.clear();
                let zigzag = element == Element::I32;
                values.extend(raw.chunks_exact(4).map(|b| {
                    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    if zigzag {
                        (v << 1) ^ ((v as i32 >> 31) as u32)
                    } else {
                        v
                    }
                }));
                out.resize(c.max_encoded_len(values.len()), 0);
                let len = c.encode(values, out);
                out.truncate(len);
            }
            Engine::Bytes(c) => {
                out.resize(c.max_encoded_len(raw.len()), 0);
                let len = c.encode(raw, element.width(), out)?;
                out.truncate(len);
            }
        }
        Ok(())
    }

    /// Decodes the payload of a block of `count` elements into their bytes
    /// (`out`, replacing its contents). The payload must hold exactly them.
    pub fn decode(
        &self,
        element: Element,
        payload: &[u8],
        count: usize,
        out: &mut Vec<u8>,
        scratch: &mut Scratch,
    ) -> Result<()> {
        let width = element.width();
        // `out` and the scratch values are resized, not cleared: the decoders
        // write every value they count (checked below), and zeroing them
        // first would cost a pass over memory every block.
        match self {
            Engine::Store => {
                out.clear();
                if payload.len() != count * width {
                    bail!(Error::Corrupt {
                        offset: 0,
                        what: "stored block of the wrong length"
                    });
                }
                out.extend_from_slice(payload);
            }
            Engine::Int(c) => {
                // A count beyond what the payload can hold is refused before
                // the values are sized from it.
                let most = c.max_decoded_len(payload.len());
                if count > most {
                    bail!(Error::LimitExceeded {
                        what: "block count beyond what its payload holds",
                        requested: count,
                        limit: most,
                    });
                }
                let values = &mut scratch.values;
                values.resize(count, 0);
                let used = c.decode_auto(payload, values)?;
                if used != payload.len() {
                    bail!(Error::Corrupt {
                        offset: used,
                        what: "bytes left after the block's values"
                    });
                }
                let zigzag = element == Element::I32;
                out.clear();
                out.reserve(count * 4);
                for &v in values.iter() {
                    let v = if zigzag {
                        (v >> 1) ^ (v & 1).wrapping_neg()
                    } else {
                        v
                    };
                    out.extend_from_slice(&v.to_le_bytes());
                }
            }
            Engine::Bytes(c) => {
                let most = c.max_decoded_len(payload.len());
                if count * width > most {
                    bail!(Error::LimitExceeded {
                        what: "block size beyond what its payload holds",
                        requested: count * width,
                        limit: most,
                    });
                }
                out.resize(count * width, 0);
                let written = c.decode_auto(payload, width, out)?;
                if written != out.len() {
                    bail!(Error::Corrupt {
                        offset: payload.len(),
                        what: "block decodes to fewer bytes than its count"
                    });
                }
            }
        }
        Ok(())
    }
}

/// The engine recorded in a file's header, checked against its element type.
pub fn for_file(id: u16, element: Element) -> Result<Engine> {
    let Some(engine) = Engine::by_id(id) else {
        bail!("unknown codec id {id} (this build knows {})", known_ids());
    };
    if !engine.fits(element) {
        bail!(
            "codec {} cannot hold {} elements",
            engine.name(),
            element.name()
        );
    }
    Ok(engine)
}

fn known_ids() -> String {
    let ids: Vec<_> = Engine::all()
        .iter()
        .map(|e| format!("{} = {}", e.id(), e.name()))
        .collect();
    ids.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_round_trips_every_fitting_element() {
        let raw: Vec<u8> = (0..64u32)
            .flat_map(|i| i.wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
        let mut s = Scratch::default();
        for element in Element::ALL {
            for engine in Engine::fitting(element) {
                let n = raw.len() / element.width();
                let (mut enc, mut dec) = (Vec::new(), Vec::new());
                engine.encode(element, &raw, &mut enc, &mut s).unwrap();
                engine.decode(element, &enc, n, &mut dec, &mut s).unwrap();
                assert_eq!(dec, raw, "{} on {}", engine.name(), element.name());
            }
        }
    }

    #[test]
    fn ids_and_names_are_unique() {
        let all = Engine::all();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.id(), b.id());
                assert_ne!(a.name(), b.name());
            }
        }
    }
}
