//! The file header: what the elements are ([`Element`]) and how the file
//! was written ([`Header`]), with its bytes and their checks.

use xxhash_rust::xxh32::xxh32;

use super::{
    BLOCK_HEADER_LEN, BLOCK_HEADER_LEN_V2, DICT_EXT_LEN, FLAG_DICTIONARY, HEADER_LEN, KNOWN_FLAGS,
    MAGIC, PER_BLOCK, SEED, UNKNOWN_TOTAL, VERSION, VERSION_1, le32,
};
use crate::{Error, Unit};

/// What the elements are; the decompressed content is their little-endian
/// bytes, except for [`Element::TextU64`].
///
/// ```
/// use vecpress::container::Element;
///
/// assert_eq!(Element::parse("i64"), Some(Element::I64));
/// assert_eq!(Element::I64.width(), 8);
/// assert_eq!(Element::from_code(Element::I64.code()), Some(Element::I64));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Element {
    /// Unsigned 32-bit integers.
    U32,
    /// Unsigned 64-bit integers.
    U64,
    /// Signed 32-bit integers.
    I32,
    /// Signed 64-bit integers.
    I64,
    /// 32-bit IEEE-754 floats.
    F32,
    /// 64-bit IEEE-754 floats.
    F64,
    /// Bytes.
    Bytes,
    /// ds2i posting lists, `[n: u32][n x u32 increasing]...`, as u32 elements
    /// whose values inside each list are replaced by their gaps (the first by
    /// itself) before compression; see [`postings_to_gaps`](super::postings_to_gaps).
    Postings,
    /// Decimal u64, one per line (`\n`, no sign, no leading zero, a newline
    /// after the last), kept as u64 elements; the content is the text.
    TextU64,
}

impl Element {
    /// Every element type, in code order.
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::ALL.len(), 9);
    /// ```
    pub const ALL: [Element; 9] = [
        Element::U32,
        Element::U64,
        Element::I32,
        Element::I64,
        Element::F32,
        Element::F64,
        Element::Bytes,
        Element::Postings,
        Element::TextU64,
    ];

    /// Its code in the header (1-based).
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::U32.code(), 1);
    /// ```
    pub fn code(self) -> u8 {
        Element::ALL.iter().position(|&e| e == self).unwrap_or(0) as u8 + 1
    }

    /// The element type of a header code, if any.
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::from_code(0), None);
    /// ```
    pub fn from_code(code: u8) -> Option<Element> {
        Element::ALL.get(usize::from(code).checked_sub(1)?).copied()
    }

    /// Its name, as the CLI's `--type` spells it.
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::TextU64.name(), "text-u64");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Element::U32 => "u32",
            Element::U64 => "u64",
            Element::I32 => "i32",
            Element::I64 => "i64",
            Element::F32 => "f32",
            Element::F64 => "f64",
            Element::Bytes => "bytes",
            Element::Postings => "postings",
            Element::TextU64 => "text-u64",
        }
    }

    /// The element type of that name, if any.
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::parse("f32").map(|e| e.width()), Some(4));
    /// ```
    pub fn parse(name: &str) -> Option<Element> {
        Element::ALL.iter().copied().find(|e| e.name() == name)
    }

    /// Bytes per element as stored in blocks.
    ///
    /// ```
    /// assert_eq!(vecpress::container::Element::Bytes.width(), 1);
    /// ```
    pub fn width(self) -> usize {
        match self {
            Element::Bytes => 1,
            Element::U32 | Element::I32 | Element::F32 | Element::Postings => 4,
            Element::U64 | Element::I64 | Element::F64 | Element::TextU64 => 8,
        }
    }
}

/// The file header.
///
/// ```
/// use vecpress::container::{Element, Header};
///
/// let h = Header { codec: 1, element: Element::U32, block_len: 1 << 18, total: None, dict_id: None };
/// assert_eq!(Header::parse(&h.to_bytes()), Ok(h));
/// let d = Header { codec: 17, element: Element::Bytes, dict_id: Some(0x1234_5678), ..h };
/// assert_eq!(d.to_bytes().len(), 36);
/// assert_eq!(Header::parse(&d.to_bytes()), Ok(d));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The codec's id in [`crate::codec`], or [`STORED_CODEC`](super::STORED_CODEC);
    /// [`PER_BLOCK`] when each block names its own (a version 2 file).
    pub codec: u16,
    /// What the elements are.
    pub element: Element,
    /// Elements in every block but the last, which may hold fewer.
    pub block_len: u32,
    /// Elements in the file, when the writer knew it in advance.
    pub total: Option<u64>,
    /// The id of the dictionary the blocks were compressed with (LZ4
    /// codecs: [`dictionary_id`](crate::lz4::dict::dictionary_id)), if
    /// any; never 0. Stored after the fixed header, with
    /// [`FLAG_DICTIONARY`] set.
    pub dict_id: Option<u32>,
}

impl Header {
    /// The header's bytes: [`HEADER_LEN`] (28), and [`DICT_EXT_LEN`] (8)
    /// more with a dictionary id.
    ///
    /// ```
    /// use vecpress::container::{Element, Header, MAGIC};
    ///
    /// let h = Header { codec: 0, element: Element::Bytes, block_len: 1, total: Some(0), dict_id: None };
    /// assert_eq!(h.to_bytes()[..4], MAGIC);
    /// assert_eq!(h.to_bytes().len(), h.encoded_len());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = vec![0u8; self.encoded_len()];
        b[..4].copy_from_slice(&MAGIC);
        b[4] = self.version();
        b[5] = self.element.code();
        b[6..8].copy_from_slice(&self.codec.to_le_bytes());
        b[8..12].copy_from_slice(&self.block_len.to_le_bytes());
        let flags = if self.dict_id.is_some() {
            FLAG_DICTIONARY
        } else {
            0
        };
        b[12..16].copy_from_slice(&flags.to_le_bytes());
        b[16..24].copy_from_slice(&self.total.unwrap_or(UNKNOWN_TOTAL).to_le_bytes());
        let sum = xxh32(&b[..24], SEED);
        b[24..28].copy_from_slice(&sum.to_le_bytes());
        if let Some(id) = self.dict_id {
            b[28..32].copy_from_slice(&id.to_le_bytes());
            let sum = xxh32(&b[..32], SEED);
            b[32..36].copy_from_slice(&sum.to_le_bytes());
        }
        b
    }

    /// The format version the header is written in: [`VERSION`] (2) when
    /// each block names its codec ([`PER_BLOCK`]), else [`VERSION_1`].
    ///
    /// ```
    /// use vecpress::container::{Element, Header, PER_BLOCK};
    ///
    /// let h = Header { codec: 17, element: Element::Bytes, block_len: 1, total: None, dict_id: None };
    /// assert_eq!(h.version(), 1);
    /// assert_eq!(Header { codec: PER_BLOCK, ..h }.version(), 2);
    /// ```
    pub fn version(&self) -> u8 {
        if self.codec == PER_BLOCK {
            VERSION
        } else {
            VERSION_1
        }
    }

    /// Bytes in each block's header: [`BLOCK_HEADER_LEN`] (12), or
    /// [`BLOCK_HEADER_LEN_V2`] (16) when blocks name their codecs.
    pub fn block_header_len(&self) -> usize {
        if self.codec == PER_BLOCK {
            BLOCK_HEADER_LEN_V2
        } else {
            BLOCK_HEADER_LEN
        }
    }

    /// Bytes in the header as written: [`HEADER_LEN`], plus
    /// [`DICT_EXT_LEN`] with a dictionary id.
    ///
    /// ```
    /// use vecpress::container::{Element, Header};
    ///
    /// let h = Header { codec: 17, element: Element::Bytes, block_len: 1, total: None, dict_id: Some(9) };
    /// assert_eq!(h.encoded_len(), 36);
    /// ```
    pub fn encoded_len(&self) -> usize {
        HEADER_LEN
            + if self.dict_id.is_some() {
                DICT_EXT_LEN
            } else {
                0
            }
    }

    /// Parses and checks the header at the start of `b` (magic, version,
    /// checksum, element type, flags, a block length of at least 1, and with
    /// [`FLAG_DICTIONARY`] the dictionary id's checksum and that it is not
    /// 0); bytes after it are ignored. Limits are [`Reader`](super::Reader)'s concern.
    ///
    /// ```
    /// use vecpress::{container::Header, Error, Unit};
    ///
    /// let err = Header::parse(b"PK\x03\x04 and so on, not ours....").unwrap_err();
    /// assert_eq!(err, Error::Corrupt { offset: 0, what: "not a vecpress file (bad magic)" });
    /// let err = Error::Truncated { offset: 0, needed: 24, unit: Unit::Bytes };
    /// assert_eq!(Header::parse(b"\x89VPR"), Err(err));
    /// ```
    pub fn parse(b: &[u8]) -> Result<Header, Error> {
        let Some(fixed) = b.first_chunk::<HEADER_LEN>() else {
            return Err(Error::Truncated {
                offset: 0,
                needed: HEADER_LEN - b.len(),
                unit: Unit::Bytes,
            });
        };
        let (header, flags) = Header::parse_fixed(fixed)?;
        if flags & FLAG_DICTIONARY == 0 {
            return Ok(header);
        }
        let Some(ext) = b.get(..HEADER_LEN + DICT_EXT_LEN) else {
            return Err(Error::Truncated {
                offset: HEADER_LEN,
                needed: HEADER_LEN + DICT_EXT_LEN - b.len(),
                unit: Unit::Bytes,
            });
        };
        Header::parse_dict_ext(header, ext)
    }

    /// Parses and checks the fixed 28 bytes; returns the header without a
    /// dictionary id, and the flags (known ones only).
    pub(super) fn parse_fixed(b: &[u8; HEADER_LEN]) -> Result<(Header, u32), Error> {
        let corrupt = |offset, what| Err(Error::Corrupt { offset, what });
        if b[..4] != MAGIC {
            return corrupt(0, "not a vecpress file (bad magic)");
        }
        if b[4] != VERSION && b[4] != VERSION_1 {
            return corrupt(4, "unknown format version");
        }
        if le32(&b[24..]) != xxh32(&b[..24], SEED) {
            return Err(Error::ChecksumMismatch {
                what: "header",
                offset: 24,
            });
        }
        let Some(element) = Element::from_code(b[5]) else {
            return corrupt(5, "unknown element type");
        };
        let flags = le32(&b[12..]);
        if flags & !KNOWN_FLAGS != 0 {
            return corrupt(12, "unknown header flags");
        }
        let block_len = le32(&b[8..]);
        if block_len == 0 {
            return corrupt(8, "block length is zero");
        }
        let codec = u16::from_le_bytes([b[6], b[7]]);
        if b[4] == VERSION && codec != PER_BLOCK {
            return corrupt(
                6,
                "a version 2 header names a codec (its blocks name theirs)",
            );
        }
        if b[4] == VERSION_1 && codec == PER_BLOCK {
            return corrupt(6, "a version 1 header leaves the codec to its blocks");
        }
        let total = u64::from_le_bytes(b[16..24].try_into().unwrap_or_default());
        let header = Header {
            codec,
            element,
            block_len,
            total: (total != UNKNOWN_TOTAL).then_some(total),
            dict_id: None,
        };
        Ok((header, flags))
    }

    /// Checks the dictionary extension: `b` is the fixed header followed by
    /// it (36 bytes).
    pub(super) fn parse_dict_ext(header: Header, b: &[u8]) -> Result<Header, Error> {
        let end = HEADER_LEN + DICT_EXT_LEN;
        if le32(&b[end - 4..]) != xxh32(&b[..end - 4], SEED) {
            return Err(Error::ChecksumMismatch {
                what: "header dictionary id",
                offset: end - 4,
            });
        }
        let id = le32(&b[HEADER_LEN..]);
        if id == 0 {
            return Err(Error::Corrupt {
                offset: HEADER_LEN,
                what: "dictionary id is zero",
            });
        }
        Ok(Header {
            dict_id: Some(id),
            ..header
        })
    }

    /// Bytes in a full block's elements.
    ///
    /// ```
    /// use vecpress::container::{Element, Header};
    ///
    /// let h = Header { codec: 0, element: Element::F64, block_len: 10, total: None, dict_id: None };
    /// assert_eq!(h.block_bytes(), 80);
    /// ```
    pub fn block_bytes(&self) -> u64 {
        u64::from(self.block_len) * self.element.width() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_codes_round_trip() {
        for e in Element::ALL {
            assert_eq!(Element::from_code(e.code()), Some(e));
            assert_eq!(Element::parse(e.name()), Some(e));
        }
        assert_eq!(Element::from_code(10), None);
    }
}
