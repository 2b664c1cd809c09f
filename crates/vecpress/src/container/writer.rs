//! [`Writer`]: the header at once, then blocks, then the end record.

use std::io::{self, Write};

use xxhash_rust::xxh64::Xxh64;

use super::{
    BLOCK_HEADER_LEN_V2, END_LEN, Header, MAX_BLOCK_BYTES, PER_BLOCK, SEED, STORED_BIT,
    STORED_CODEC, block_checksum,
};

/// Writes a vecpress file: the header at once, then blocks, then the end record.
///
/// See the [module](super) docs for an example.
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
    /// `InvalidInput` when these rules are broken, and for an encoded block
    /// of a file whose blocks name their codecs ([`PER_BLOCK`]: use
    /// [`Writer::write_block_with`]).
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
        let codec = if stored {
            STORED_CODEC
        } else {
            self.header.codec
        };
        self.write_block_with(count, payload, codec, 0)
    }

    /// Writes one block of `count` elements encoded by the codec of id
    /// `codec` at `level` (0: the codec has none, or its default), or stored
    /// raw when `codec` is [`STORED_CODEC`] (`payload` then holds exactly the
    /// elements' bytes). In a version 2 file ([`PER_BLOCK`]) the block's
    /// header records both; in a version 1 file `codec` must be the header's
    /// (or [`STORED_CODEC`]) and the level is not recorded. An encoding must
    /// be no longer than the elements' bytes. Fails with `InvalidInput` when
    /// these rules are broken.
    ///
    /// ```
    /// use vecpress::container::{Element, Header, Writer, PER_BLOCK};
    ///
    /// let h = Header { codec: PER_BLOCK, element: Element::Bytes, block_len: 8, total: None, dict_id: None };
    /// let mut w = Writer::new(Vec::new(), h)?;
    /// w.write_block_with(3, b"abc", 0, 0)?; // stored
    /// assert!(w.write_block_with(3, b"abc", PER_BLOCK, 0).is_err());
    /// assert!(w.write_block(3, b"ab", false).is_err()); // which codec?
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn write_block_with(
        &mut self,
        count: u32,
        payload: &[u8],
        codec: u16,
        level: u8,
    ) -> io::Result<()> {
        let stored = codec == STORED_CODEC;
        let per_block = self.header.codec == PER_BLOCK;
        let raw_len = u64::from(count) * self.header.element.width() as u64;
        let ok = (1..=self.header.block_len).contains(&count)
            && if stored {
                payload.len() as u64 == raw_len && level == 0
            } else {
                payload.len() as u64 <= raw_len
            }
            && codec != PER_BLOCK
            && (per_block || stored || codec == self.header.codec);
        if !ok {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "block count, payload length or codec out of bounds",
            ));
        }
        let len = payload.len() as u32 | if stored { STORED_BIT } else { 0 };
        let mut head = [0u8; BLOCK_HEADER_LEN_V2];
        head[..4].copy_from_slice(&count.to_le_bytes());
        head[4..8].copy_from_slice(&len.to_le_bytes());
        head[8..10].copy_from_slice(&codec.to_le_bytes());
        head[10] = level;
        let fields = self.header.block_header_len() - 4;
        let sum = block_checksum(&head[..fields], payload);
        head[fields..fields + 4].copy_from_slice(&sum.to_le_bytes());
        self.inner.write_all(&head[..fields + 4])?;
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
