//! [`Reader`]: block by block, every structure checked before it is trusted.

use std::io::{self, Read};

use xxhash_rust::xxh64::Xxh64;

use super::{
    BLOCK_HEADER_LEN_V2, DICT_EXT_LEN, END_LEN, FLAG_DICTIONARY, HEADER_LEN, Header,
    MAX_BLOCK_BYTES, PER_BLOCK, SEED, STORED_BIT, STORED_CODEC, block_checksum, le32,
};
use crate::{Error, Unit};

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
    /// The id of the codec whose encoding the payload is: the block's own
    /// in a version 2 file, else the header's; [`STORED_CODEC`] when
    /// `stored`.
    pub codec: u16,
    /// The level the block was encoded at, as a version 2 file records it;
    /// 0 when the codec has none, used its default, or the file is version 1.
    pub level: u8,
}

/// A block whose payload was read but whose checksum is not yet checked, as
/// [`Reader::next_block_unverified`] returns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnverifiedBlock {
    info: BlockInfo,
    /// The header fields the checksum covers with the payload: the first
    /// `len` bytes.
    fields: [u8; BLOCK_HEADER_LEN_V2 - 4],
    len: u8,
    checksum: u32,
}

impl UnverifiedBlock {
    /// Where the block sits (its payload not yet checked).
    pub fn info(&self) -> BlockInfo {
        self.info
    }

    /// Checks `payload`, the bytes read with this block, against the block's
    /// checksum: the block's [`BlockInfo`], or `ChecksumMismatch` at the
    /// block's header.
    pub fn verify(&self, payload: &[u8]) -> io::Result<BlockInfo> {
        let fields = &self.fields[..usize::from(self.len)];
        if self.checksum != block_checksum(fields, payload) {
            return Err(invalid(Error::ChecksumMismatch {
                what: "block",
                offset: self.info.offset as usize,
            }));
        }
        Ok(self.info)
    }
}

/// Reads a vecpress file block by block, checking as it goes.
///
/// See the [module](super) docs for an example.
pub struct Reader<R: Read> {
    inner: R,
    header: Header,
    offset: u64,
    index: u64,
    total: u64,
    content: ContentHash,
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
            content: ContentHash::new(),
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
        match self.next_block_unverified(payload)? {
            Some(block) => block.verify(payload).map(Some),
            None => Ok(None),
        }
    }

    /// [`Reader::next_block`] without the check of the block's checksum,
    /// which [`UnverifiedBlock::verify`] makes later, on any thread: a
    /// reader that hands blocks to threads keeps the hashing off its own.
    /// The payload is untrusted until `verify` passes.
    pub fn next_block_unverified(
        &mut self,
        payload: &mut Vec<u8>,
    ) -> io::Result<Option<UnverifiedBlock>> {
        if self.end_sum.is_some() {
            return Ok(None);
        }
        let start = self.offset;
        let head_len = self.header.block_header_len();
        let mut head = [0u8; BLOCK_HEADER_LEN_V2];
        // The end record is shorter than a block header but starts alike.
        read_full(&mut self.inner, &mut head[..4], start)?;
        let count = le32(&head);
        if count == 0 {
            return self.read_end(start).map(|()| None);
        }
        read_full(&mut self.inner, &mut head[4..head_len], start)?;
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
        let (codec, level) = if self.header.codec == PER_BLOCK {
            let codec = u16::from_le_bytes([head[8], head[9]]);
            let level = head[10];
            if head[11] != 0 {
                return Err(corrupt(start + 11, "block's reserved byte is not zero"));
            }
            if stored != (codec == STORED_CODEC) {
                return Err(corrupt(
                    start + 8,
                    "block's codec disagrees with its stored bit",
                ));
            }
            if codec == PER_BLOCK || (stored && level != 0) {
                return Err(corrupt(start + 8, "block's codec or level is not one"));
            }
            (codec, level)
        } else if stored {
            (STORED_CODEC, 0)
        } else {
            (self.header.codec, 0)
        };
        payload.clear();
        let got = (&mut self.inner).take(len).read_to_end(payload)?;
        if (got as u64) < len {
            return Err(truncated(start, len - got as u64));
        }
        let info = BlockInfo {
            index: self.index,
            offset: start,
            count,
            stored,
            codec,
            level,
        };
        self.offset += head_len as u64 + len;
        self.index += 1;
        self.total += u64::from(count);
        let mut fields = [0u8; BLOCK_HEADER_LEN_V2 - 4];
        fields.copy_from_slice(&head[..BLOCK_HEADER_LEN_V2 - 4]);
        Ok(Some(UnverifiedBlock {
            info,
            fields,
            len: (head_len - 4) as u8,
            checksum: le32(&head[head_len - 4..]),
        }))
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
        self.check_content_hash(&self.content)
    }

    /// [`Reader::check_content`] for content hashed apart from the reader,
    /// in order, with a [`ContentHash`]: by a caller that writes the content
    /// on other threads than the one reading (see [`UnverifiedBlock`]).
    ///
    /// ```
    /// use vecpress::container::{ContentHash, Element, Header, Reader, Writer};
    ///
    /// let header = Header { codec: 0, element: Element::Bytes, block_len: 4, total: None, dict_id: None };
    /// let mut w = Writer::new(Vec::new(), header)?;
    /// w.hash_content(b"abcdef");
    /// w.write_block(4, b"abcd", true)?;
    /// w.write_block(2, b"ef", true)?;
    /// let file = w.finish()?;
    ///
    /// let mut r = Reader::new(&file[..])?;
    /// let (mut payload, mut hash) = (Vec::new(), ContentHash::new());
    /// while r.next_block(&mut payload)?.is_some() {
    ///     hash.update(&payload); // stored blocks: the payload is the content
    /// }
    /// r.check_content_hash(&hash)?;
    /// let mut wrong = ContentHash::new();
    /// wrong.update(b"abcdeF");
    /// assert!(r.check_content_hash(&wrong).is_err());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn check_content_hash(&self, hash: &ContentHash) -> io::Result<()> {
        let at = (self.offset - END_LEN as u64 + 12) as usize;
        match self.end_sum {
            None => Err(invalid(Error::Corrupt {
                offset: self.offset as usize,
                what: "end record not reached",
            })),
            Some(sum) if sum != hash.0.digest() => Err(invalid(Error::ChecksumMismatch {
                what: "content",
                offset: at,
            })),
            Some(_) => Ok(()),
        }
    }
}

/// The content checksum of a vecpress file (XXH64 of the content, as
/// FORMAT.md gives it), computed apart from a [`Reader`]: fed the content
/// in order, then given to [`Reader::check_content_hash`].
#[derive(Clone)]
pub struct ContentHash(Xxh64);

impl ContentHash {
    /// The checksum of no content yet.
    pub fn new() -> ContentHash {
        ContentHash(Xxh64::new(u64::from(SEED)))
    }

    /// Feeds the next content.
    pub fn update(&mut self, content: &[u8]) {
        self.0.update(content);
    }
}

impl Default for ContentHash {
    fn default() -> ContentHash {
        ContentHash::new()
    }
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
