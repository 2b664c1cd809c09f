//! The vecpress file format: a self-describing container of independently
//! compressed blocks, as the `vecpress` command writes it. `docs/FORMAT.md`
//! is its full specification; in short (all integers little-endian):
//!
//! ```text
//! header  28 bytes  magic 89 'V' 'P' 'R' | version u8 = 1 | element u8 | codec id u16
//!                   | block length u32 (elements) | flags u32 (bit 0: dictionary)
//!                   | total count u64 (u64::MAX: unknown) | xxh32 of the 24 bytes before
//! dict     8 bytes  (only with flag bit 0) dictionary id u32 (not 0)
//!                   | xxh32 of the 32 bytes before (header and id)
//! block   12 bytes  count u32 (1..=block length) | length u32 (bit 31: stored raw)
//!                   | xxh32 of count, length and payload
//!         + payload (length & 0x7FFF_FFFF bytes: the codec's encoding of the
//!                   block's elements, or their little-endian bytes when stored raw)
//! end     20 bytes  0u32 | total count u64 | xxh64 of the decompressed content
//! ```
//!
//! Blocks are independent (each decodes alone, from its own count), so
//! writers need not know the total in advance and readers go block by block in
//! bounded memory. This module frames blocks and checks them; compressing the
//! elements is up to the caller, through [`crate::codec`] by the id in the
//! header (id 0 means no codec: every block is stored raw).
//!
//! Blocks compressed by an LZ4 codec with an external dictionary record it
//! in the header ([`Header::dict_id`], flag [`FLAG_DICTIONARY`]): the
//! dictionary's [`dictionary_id`](crate::lz4::dict::dictionary_id), for the
//! caller to compare with the dictionary it has before decoding. The
//! dictionary itself is not in the file.
//!
//! [`Reader`] checks everything before trusting it: the magic, the version,
//! the header checksum (and the dictionary id's, when there is one), the
//! flags, the block length against [`Limits`] (before
//! allocating), each block's count and length, each block's checksum, the
//! end record's total and the content checksum. A violation gives an
//! [`io::Error`] of kind `InvalidData` wrapping an [`Error`] whose offset is
//! the byte offset in the file of the broken structure
//! ([`Error::ChecksumMismatch`] for a checksum: the header's at its checksum
//! field, a block's at the block's header, the content's at the end record's
//! checksum field); the end of the input
//! inside a structure gives [`Error::Truncated`] whose `needed` counts the
//! missing bytes.
//!
//! ```
//! use vecpress::container::{Element, Header, Reader, Writer};
//!
//! let values = [1u32, 2, 3, 4, 5];
//! let raw: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
//! let header = Header { codec: 0, element: Element::U32, block_len: 4, total: Some(5), dict_id: None };
//! let mut w = Writer::new(Vec::new(), header)?;
//! for block in raw.chunks(16) {
//!     w.write_block((block.len() / 4) as u32, block, true)?;
//!     w.hash_content(block);
//! }
//! let file = w.finish()?;
//!
//! let mut r = Reader::new(&file[..])?;
//! assert_eq!(r.header(), &header);
//! let mut payload = Vec::new();
//! let mut back = Vec::new();
//! while let Some(block) = r.next_block(&mut payload)? {
//!     assert!(block.stored);
//!     r.hash_content(&payload);
//!     back.extend_from_slice(&payload);
//! }
//! r.check_content()?;
//! assert_eq!(back, raw);
//! # Ok::<(), std::io::Error>(())
//! ```
#![forbid(unsafe_code)]

use std::io::{self, Read, Write};

use xxhash_rust::xxh32::{xxh32, Xxh32};
use xxhash_rust::xxh64::Xxh64;

use crate::{Error, Unit};

/// The first four bytes of every vecpress file (a high byte first, so that a
/// 7-bit channel or a text-mode transfer is caught at once).
pub const MAGIC: [u8; 4] = [0x89, b'V', b'P', b'R'];
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;
/// Bytes in the header without a dictionary id (the fixed part).
pub const HEADER_LEN: usize = 28;
/// Bytes of the header's dictionary extension (id and checksum), present
/// when [`FLAG_DICTIONARY`] is set.
pub const DICT_EXT_LEN: usize = 8;
/// Header flag (bit 0 of `flags`): the blocks were compressed with an
/// external dictionary, whose id follows the fixed header (see
/// [`Header::dict_id`]).
pub const FLAG_DICTIONARY: u32 = 1;
/// Every flag this module knows; a reader rejects the others.
const KNOWN_FLAGS: u32 = FLAG_DICTIONARY;
/// Bytes in a block's header (before its payload).
pub const BLOCK_HEADER_LEN: usize = 12;
/// Bytes in the end record.
pub const END_LEN: usize = 20;
/// Bit of a block's length word that marks a payload stored raw.
pub const STORED_BIT: u32 = 1 << 31;
/// Codec id meaning no codec: every block is stored raw.
pub const STORED_CODEC: u16 = 0;
/// Header total meaning the writer did not know the count in advance.
pub const UNKNOWN_TOTAL: u64 = u64::MAX;
/// Seed of every checksum in the format.
const SEED: u32 = 0;

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
    /// itself) before compression; see [`postings_to_gaps`].
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
    /// The codec's id in [`crate::codec`], or [`STORED_CODEC`].
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
        b[4] = VERSION;
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
    /// 0); bytes after it are ignored. Limits are [`Reader`]'s concern.
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
    fn parse_fixed(b: &[u8; HEADER_LEN]) -> Result<(Header, u32), Error> {
        let corrupt = |offset, what| Err(Error::Corrupt { offset, what });
        if b[..4] != MAGIC {
            return corrupt(0, "not a vecpress file (bad magic)");
        }
        if b[4] != VERSION {
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
        let total = u64::from_le_bytes(b[16..24].try_into().unwrap_or_default());
        let header = Header {
            codec: u16::from_le_bytes([b[6], b[7]]),
            element,
            block_len,
            total: (total != UNKNOWN_TOTAL).then_some(total),
            dict_id: None,
        };
        Ok((header, flags))
    }

    /// Checks the dictionary extension: `b` is the fixed header followed by
    /// it (36 bytes).
    fn parse_dict_ext(header: Header, b: &[u8]) -> Result<Header, Error> {
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

/// Bounds a [`Reader`] enforces before allocating.
///
/// ```
/// let limits = vecpress::container::Limits::default();
/// assert_eq!(limits.max_block_bytes, 64 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest block, in bytes of elements, a file may declare.
    pub max_block_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_block_bytes: MAX_BLOCK_BYTES,
        }
    }
}

/// The default [`Limits::max_block_bytes`], 64 MiB, which also bounds what
/// [`Writer::new`] accepts.
pub const MAX_BLOCK_BYTES: u64 = 64 << 20;

/// Where a block sits, as [`Reader::next_block`] returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockInfo {
    /// Its index, from 0.
    pub index: u64,
    /// Byte offset in the file of its header.
    pub offset: u64,
    /// Elements in it.
    pub count: u32,
    /// Whether the payload is the elements' bytes rather than a codec's encoding.
    pub stored: bool,
}

/// Writes a vecpress file: the header at once, then blocks, then the end record.
///
/// See the [module](self) docs for an example.
pub struct Writer<W: Write> {
    inner: W,
    header: Header,
    total: u64,
    content: Xxh64,
}

impl<W: Write> std::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("header", &self.header)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}

impl<W: Write> Writer<W> {
    /// Writes `header` to `inner`. Fails with `InvalidInput` for a block
    /// length of 0 or whose elements exceed [`MAX_BLOCK_BYTES`], or a
    /// dictionary id of 0.
    ///
    /// ```
    /// use vecpress::container::{Element, Header, Writer, HEADER_LEN};
    ///
    /// let h = Header { codec: 0, element: Element::U64, block_len: 8, total: None, dict_id: None };
    /// let w = Writer::new(Vec::new(), h)?;
    /// assert_eq!(w.finish()?.len(), HEADER_LEN + 20);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn new(mut inner: W, header: Header) -> io::Result<Writer<W>> {
        if header.block_len == 0 || header.block_bytes() > MAX_BLOCK_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "block length must be 1..={} bytes of elements",
                    MAX_BLOCK_BYTES
                ),
            ));
        }
        if header.dict_id == Some(0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "dictionary id 0 means no dictionary",
            ));
        }
        inner.write_all(&header.to_bytes())?;
        Ok(Writer {
            inner,
            header,
            total: 0,
            content: Xxh64::new(u64::from(SEED)),
        })
    }

    /// Writes one block of `count` elements (1..=block length): `payload` is
    /// their encoding by the header's codec, or with `stored` their bytes
    /// (then exactly `count * width` of them). An encoding must be no longer
    /// than the elements' bytes: store those instead. Fails with
    /// `InvalidInput` when these rules are broken.
    ///
    /// ```
    /// use vecpress::container::{Element, Header, Writer};
    ///
    /// let h = Header { codec: 0, element: Element::Bytes, block_len: 8, total: None, dict_id: None };
    /// let mut w = Writer::new(Vec::new(), h)?;
    /// w.write_block(3, b"abc", true)?;
    /// assert!(w.write_block(9, &[0; 9], true).is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_block(&mut self, count: u32, payload: &[u8], stored: bool) -> io::Result<()> {
        let raw_len = u64::from(count) * self.header.element.width() as u64;
        let ok = (1..=self.header.block_len).contains(&count)
            && if stored {
                payload.len() as u64 == raw_len
            } else {
                payload.len() as u64 <= raw_len
            };
        if !ok {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "block count or payload length out of bounds",
            ));
        }
        let len = payload.len() as u32 | if stored { STORED_BIT } else { 0 };
        let mut head = [0u8; BLOCK_HEADER_LEN];
        head[..4].copy_from_slice(&count.to_le_bytes());
        head[4..8].copy_from_slice(&len.to_le_bytes());
        let sum = block_checksum(&head[..8], payload);
        head[8..].copy_from_slice(&sum.to_le_bytes());
        self.inner.write_all(&head)?;
        self.inner.write_all(payload)?;
        self.total += u64::from(count);
        Ok(())
    }

    /// Feeds decompressed content (the file's bytes as they will be
    /// restored) to the content checksum, in order.
    pub fn hash_content(&mut self, content: &[u8]) {
        self.content.update(content);
    }

    /// Elements written so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Writes the end record and returns the inner writer. Fails with
    /// `InvalidInput` when the header's total does not match the elements written.
    pub fn finish(mut self) -> io::Result<W> {
        if self.header.total.is_some_and(|t| t != self.total) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "element count differs from the header's total",
            ));
        }
        let mut end = [0u8; END_LEN];
        end[4..12].copy_from_slice(&self.total.to_le_bytes());
        end[12..].copy_from_slice(&self.content.digest().to_le_bytes());
        self.inner.write_all(&end)?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// Reads a vecpress file block by block, checking as it goes.
///
/// See the [module](self) docs for an example.
pub struct Reader<R: Read> {
    inner: R,
    header: Header,
    offset: u64,
    index: u64,
    total: u64,
    content: Xxh64,
    /// The content checksum from the end record, once read.
    end_sum: Option<u64>,
}

impl<R: Read> std::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("header", &self.header)
            .field("offset", &self.offset)
            .field("blocks", &self.index)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header with the default [`Limits`].
    ///
    /// ```
    /// use vecpress::container::Reader;
    ///
    /// let err = Reader::new(&b"\x89VPR"[..]).unwrap_err();
    /// assert_eq!(err.to_string(), "input truncated: what starts at byte 0 lacks 24 byte(s)");
    /// ```
    pub fn new(inner: R) -> io::Result<Reader<R>> {
        Reader::with_limits(inner, Limits::default())
    }

    /// Reads and checks the header; a block length beyond `limits` is
    /// rejected with [`Error::LimitExceeded`].
    ///
    /// ```
    /// use vecpress::container::{Element, Header, Limits, Reader};
    ///
    /// let h = Header { codec: 0, element: Element::U32, block_len: 1 << 20, total: None, dict_id: None };
    /// let limits = Limits { max_block_bytes: 1 << 20 };
    /// assert!(Reader::with_limits(&h.to_bytes()[..], limits).is_err());
    /// ```
    pub fn with_limits(mut inner: R, limits: Limits) -> io::Result<Reader<R>> {
        let mut fixed = [0u8; HEADER_LEN];
        read_full(&mut inner, &mut fixed, 0)?;
        let (mut header, flags) = Header::parse_fixed(&fixed).map_err(invalid)?;
        if flags & FLAG_DICTIONARY != 0 {
            let mut all = [0u8; HEADER_LEN + DICT_EXT_LEN];
            all[..HEADER_LEN].copy_from_slice(&fixed);
            read_full(&mut inner, &mut all[HEADER_LEN..], HEADER_LEN as u64)?;
            header = Header::parse_dict_ext(header, &all).map_err(invalid)?;
        }
        if header.block_bytes() > limits.max_block_bytes {
            return Err(invalid(Error::LimitExceeded {
                what: "block bytes",
                requested: header.block_bytes() as usize,
                limit: limits.max_block_bytes as usize,
            }));
        }
        Ok(Reader {
            inner,
            header,
            offset: header.encoded_len() as u64,
            index: 0,
            total: 0,
            content: Xxh64::new(u64::from(SEED)),
            end_sum: None,
        })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Blocks read so far.
    pub fn blocks(&self) -> u64 {
        self.index
    }

    /// Elements in the blocks read so far.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Bytes of the file read so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads the next block's payload into `payload` (replacing its
    /// contents) after checking its count, length and checksum; at the end
    /// record, checks the total and that the input ends there, and returns
    /// `None`. The payload grows with the bytes actually read, so a hostile
    /// length allocates no more than the input holds.
    pub fn next_block(&mut self, payload: &mut Vec<u8>) -> io::Result<Option<BlockInfo>> {
        if self.end_sum.is_some() {
            return Ok(None);
        }
        let start = self.offset;
        let mut head = [0u8; BLOCK_HEADER_LEN];
        // The end record is shorter than a block header but starts alike.
        read_full(&mut self.inner, &mut head[..4], start)?;
        let count = le32(&head);
        if count == 0 {
            return self.read_end(start).map(|()| None);
        }
        read_full(&mut self.inner, &mut head[4..], start)?;
        let corrupt = |offset: u64, what| {
            invalid(Error::Corrupt {
                offset: offset as usize,
                what,
            })
        };
        if count > self.header.block_len {
            return Err(corrupt(start, "block count exceeds the block length"));
        }
        let word = le32(&head[4..]);
        let stored = word & STORED_BIT != 0;
        let len = u64::from(word & !STORED_BIT);
        let raw_len = u64::from(count) * self.header.element.width() as u64;
        if stored && len != raw_len {
            return Err(corrupt(
                start + 4,
                "stored block length differs from its count",
            ));
        }
        if len > raw_len {
            return Err(corrupt(
                start + 4,
                "block length exceeds its elements' size",
            ));
        }
        payload.clear();
        let got = (&mut self.inner).take(len).read_to_end(payload)?;
        if (got as u64) < len {
            return Err(truncated(start, len - got as u64));
        }
        if le32(&head[8..]) != block_checksum(&head[..8], payload) {
            return Err(invalid(Error::ChecksumMismatch {
                what: "block",
                offset: start as usize,
            }));
        }
        let info = BlockInfo {
            index: self.index,
            offset: start,
            count,
            stored,
        };
        self.offset += BLOCK_HEADER_LEN as u64 + len;
        self.index += 1;
        self.total += u64::from(count);
        Ok(Some(info))
    }

    /// Reads the end record that starts at `start` (its zero word read).
    fn read_end(&mut self, start: u64) -> io::Result<()> {
        let mut end = [0u8; END_LEN - 4];
        read_full(&mut self.inner, &mut end, start)?;
        let corrupt = |offset: u64, what| {
            invalid(Error::Corrupt {
                offset: offset as usize,
                what,
            })
        };
        let total = u64::from_le_bytes(end[..8].try_into().unwrap_or_default());
        if total != self.total || self.header.total.is_some_and(|t| t != total) {
            return Err(corrupt(start + 4, "total count differs from the blocks'"));
        }
        self.offset += END_LEN as u64;
        let mut extra = [0u8; 1];
        if read_some(&mut self.inner, &mut extra)? != 0 {
            return Err(corrupt(self.offset, "data after the end record"));
        }
        self.end_sum = Some(u64::from_le_bytes(end[8..].try_into().unwrap_or_default()));
        Ok(())
    }

    /// Feeds decompressed content to the content checksum, in order.
    pub fn hash_content(&mut self, content: &[u8]) {
        self.content.update(content);
    }

    /// After [`Reader::next_block`] returned `None`: checks the content fed
    /// to [`Reader::hash_content`] against the end record's checksum.
    pub fn check_content(&self) -> io::Result<()> {
        let at = (self.offset - END_LEN as u64 + 12) as usize;
        match self.end_sum {
            None => Err(invalid(Error::Corrupt {
                offset: self.offset as usize,
                what: "end record not reached",
            })),
            Some(sum) if sum != self.content.digest() => Err(invalid(Error::ChecksumMismatch {
                what: "content",
                offset: at,
            })),
            Some(_) => Ok(()),
        }
    }
}

/// Turns ds2i posting lists `[n][n values]...` into `[n][n gaps]...` in place,
/// the first gap of a list from 0; `state` carries a list across calls (start
/// with `PostingsState::default()`). Any u32 sequence is accepted and
/// [`gaps_to_postings`] undoes it exactly (gaps wrap).
///
/// ```
/// use vecpress::container::{gaps_to_postings, postings_to_gaps, PostingsState};
///
/// let lists = [2u32, 5, 9, 0, 1, 7];
/// let mut v = lists;
/// postings_to_gaps(&mut v, &mut PostingsState::default());
/// assert_eq!(v, [2, 5, 4, 0, 1, 7]);
/// gaps_to_postings(&mut v, &mut PostingsState::default());
/// assert_eq!(v, lists);
/// ```
pub fn postings_to_gaps(values: &mut [u32], state: &mut PostingsState) {
    for v in values {
        if state.left == 0 {
            state.left = *v;
            state.prev = 0;
        } else {
            let x = *v;
            *v = x.wrapping_sub(state.prev);
            state.prev = x;
            state.left -= 1;
        }
    }
}

/// Undoes [`postings_to_gaps`].
pub fn gaps_to_postings(values: &mut [u32], state: &mut PostingsState) {
    for v in values {
        if state.left == 0 {
            state.left = *v;
            state.prev = 0;
        } else {
            state.prev = state.prev.wrapping_add(*v);
            *v = state.prev;
            state.left -= 1;
        }
    }
}

/// Where a posting-list transform stands between calls: values left in the
/// current list and the last value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PostingsState {
    left: u32,
    prev: u32,
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn block_checksum(head: &[u8], payload: &[u8]) -> u32 {
    let mut h = Xxh32::new(SEED);
    h.update(head);
    h.update(payload);
    h.digest()
}

fn invalid(e: Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

fn truncated(offset: u64, needed: u64) -> io::Error {
    invalid(Error::Truncated {
        offset: offset as usize,
        needed: needed as usize,
        unit: Unit::Bytes,
    })
}

/// Reads as much as `buf` holds or the input has; returns the count.
fn read_some<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Fills `buf` or fails with `Truncated` at `start`, the structure's offset.
fn read_full<R: Read>(r: &mut R, buf: &mut [u8], start: u64) -> io::Result<()> {
    let got = read_some(r, buf)?;
    if got < buf.len() {
        return Err(truncated(start, (buf.len() - got) as u64));
    }
    Ok(())
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

    #[test]
    fn postings_transform_round_trips_across_calls() {
        let lists: Vec<u32> = vec![3, 1, 4, 9, 0, 2, 7, 7, 1, u32::MAX, 5];
        let mut v = lists.clone();
        let mut s = PostingsState::default();
        for chunk in v.chunks_mut(2) {
            postings_to_gaps(chunk, &mut s);
        }
        assert_eq!(v, [3, 1, 3, 5, 0, 2, 7, 0, 1, u32::MAX, 5]);
        let mut s = PostingsState::default();
        for chunk in v.chunks_mut(3) {
            gaps_to_postings(chunk, &mut s);
        }
        assert_eq!(v, lists);
    }
}
