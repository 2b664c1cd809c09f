//! The frame descriptor: FLG and BD bit fields, the optional content size and
//! dictionary id, and the header checksum
//! ([spec, "Frame Descriptor"](https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md#frame-descriptor)).
#![forbid(unsafe_code)]

use crate::Error;

/// Magic number of an LZ4 frame, little endian.
pub(crate) const MAGIC: u32 = 0x184D_2204;
/// Magic number of a legacy frame (LZ4Demo), little endian.
pub(crate) const LEGACY_MAGIC: u32 = 0x184C_2102;
/// Skippable frames use any magic `0x184D2A50..=0x184D2A5F`.
pub(crate) const SKIPPABLE_MAGIC: u32 = 0x184D_2A50;
/// The low four bits of a skippable magic are free.
pub(crate) const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
/// Uncompressed size of every block of a legacy frame but the last.
pub(crate) const LEGACY_BLOCK_SIZE: usize = 8 << 20;
/// How far back a match may reach: linked blocks keep this much history.
pub(crate) const WINDOW_SIZE: usize = 64 << 10;
/// The high bit of a block size: the block is stored uncompressed.
pub(crate) const UNCOMPRESSED_BIT: u32 = 1 << 31;

/// FLG bits 7-6: the version, which must be `01`.
const FLG_VERSION_MASK: u8 = 0b1100_0000;
const FLG_VERSION: u8 = 0b0100_0000;
/// FLG bit 5: blocks are independent (no matches into earlier blocks).
const FLG_INDEPENDENT: u8 = 1 << 5;
/// FLG bit 4: each block is followed by the xxh32 of its stored bytes.
const FLG_BLOCK_CHECKSUM: u8 = 1 << 4;
/// FLG bit 3: an 8-byte content size follows BD.
const FLG_CONTENT_SIZE: u8 = 1 << 3;
/// FLG bit 2: the xxh32 of the content follows the end mark.
const FLG_CONTENT_CHECKSUM: u8 = 1 << 2;
/// FLG bit 1: reserved, must be zero.
const FLG_RESERVED: u8 = 1 << 1;
/// FLG bit 0: a 4-byte dictionary id follows the content size.
const FLG_DICT_ID: u8 = 1;
/// BD bits 6-4: the block maximum size code.
const BD_BLOCK_SIZE_SHIFT: u32 = 4;
/// BD bit 7 and bits 3-0: reserved, must be zero.
const BD_RESERVED: u8 = 0b1000_1111;

/// Longest descriptor: FLG, BD, content size (8), dictionary id (4), HC.
pub(crate) const MAX_DESCRIPTOR_LEN: usize = 15;

/// The largest uncompressed size of one block of a frame (field BD).
///
/// Larger blocks compress a little better and make the decoder keep a larger
/// buffer. The default is 64 KiB, as in liblz4.
///
/// ```
/// use vecpress::lz4::frame::BlockSize;
///
/// assert_eq!(BlockSize::Max256KB.bytes(), 256 * 1024);
/// assert_eq!(BlockSize::default(), BlockSize::Max64KB);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BlockSize {
    /// 64 KiB (code 4).
    #[default]
    Max64KB = 4,
    /// 256 KiB (code 5).
    Max256KB = 5,
    /// 1 MiB (code 6).
    Max1MB = 6,
    /// 4 MiB (code 7).
    Max4MB = 7,
}

impl BlockSize {
    /// Every block size, smallest first.
    ///
    /// ```
    /// use vecpress::lz4::frame::BlockSize;
    /// assert_eq!(BlockSize::ALL.last(), Some(&BlockSize::Max4MB));
    /// ```
    pub const ALL: [BlockSize; 4] = [
        BlockSize::Max64KB,
        BlockSize::Max256KB,
        BlockSize::Max1MB,
        BlockSize::Max4MB,
    ];

    /// The size in bytes: `1 << (8 + 2 * code)`.
    ///
    /// ```
    /// use vecpress::lz4::frame::BlockSize;
    /// assert_eq!(BlockSize::Max4MB.bytes(), 4 << 20);
    /// ```
    pub const fn bytes(self) -> usize {
        1 << (8 + 2 * self as u32)
    }

    /// The block size with BD code `code` (4..=7), if there is one.
    ///
    /// ```
    /// use vecpress::lz4::frame::BlockSize;
    /// assert_eq!(BlockSize::from_code(6), Some(BlockSize::Max1MB));
    /// assert_eq!(BlockSize::from_code(3), None);
    /// ```
    pub const fn from_code(code: u8) -> Option<BlockSize> {
        match code {
            4 => Some(BlockSize::Max64KB),
            5 => Some(BlockSize::Max256KB),
            6 => Some(BlockSize::Max1MB),
            7 => Some(BlockSize::Max4MB),
            _ => None,
        }
    }
}

/// What a frame header says, and so how a [`FrameEncoder`](super::FrameEncoder)
/// writes a frame: block size, block linking, checksums, content size.
///
/// Built in the builder style from [`FrameInfo::new`]; the defaults are 64
/// KiB independent blocks, no block checksums, a content checksum, and no
/// content size.
///
/// ```
/// use vecpress::lz4::frame::{BlockSize, FrameInfo};
///
/// let info = FrameInfo::new()
///     .block_size(BlockSize::Max1MB)
///     .independent_blocks(false)
///     .block_checksums(true)
///     .content_size(Some(1000));
/// assert_eq!(info.get_block_size(), BlockSize::Max1MB);
/// assert!(!info.get_independent_blocks());
/// assert!(info.get_content_checksum());
/// assert_eq!(info.get_content_size(), Some(1000));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameInfo {
    block_size: BlockSize,
    independent_blocks: bool,
    block_checksums: bool,
    content_checksum: bool,
    content_size: Option<u64>,
    dict_id: Option<u32>,
}

impl Default for FrameInfo {
    fn default() -> FrameInfo {
        FrameInfo::new()
    }
}

impl FrameInfo {
    /// The default settings (see the type's docs).
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new();
    /// assert!(info.get_independent_blocks() && !info.get_block_checksums());
    /// ```
    pub const fn new() -> FrameInfo {
        FrameInfo {
            block_size: BlockSize::Max64KB,
            independent_blocks: true,
            block_checksums: false,
            content_checksum: true,
            content_size: None,
            dict_id: None,
        }
    }

    /// Sets the block maximum size.
    ///
    /// ```
    /// use vecpress::lz4::frame::{BlockSize, FrameInfo};
    /// let info = FrameInfo::new().block_size(BlockSize::Max4MB);
    /// assert_eq!(info.get_block_size().bytes(), 4 << 20);
    /// ```
    pub const fn block_size(mut self, size: BlockSize) -> FrameInfo {
        self.block_size = size;
        self
    }

    /// Independent blocks (`true`) or linked blocks (`false`), whose matches
    /// may reach up to 64 KiB back into earlier blocks.
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new().independent_blocks(false);
    /// assert!(!info.get_independent_blocks());
    /// ```
    pub const fn independent_blocks(mut self, independent: bool) -> FrameInfo {
        self.independent_blocks = independent;
        self
    }

    /// Follows each block with the xxh32 of its stored bytes.
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new().block_checksums(true);
    /// assert!(info.get_block_checksums());
    /// ```
    pub const fn block_checksums(mut self, on: bool) -> FrameInfo {
        self.block_checksums = on;
        self
    }

    /// Ends the frame with the xxh32 of the whole content.
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new().content_checksum(false);
    /// assert!(!info.get_content_checksum());
    /// ```
    pub const fn content_checksum(mut self, on: bool) -> FrameInfo {
        self.content_checksum = on;
        self
    }

    /// Declares the uncompressed size of the frame in its header; the encoder
    /// then checks, when it finishes, that exactly that much was written.
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new().content_size(Some(12));
    /// assert_eq!(info.get_content_size(), Some(12));
    /// ```
    pub const fn content_size(mut self, size: Option<u64>) -> FrameInfo {
        self.content_size = size;
        self
    }

    /// Stores a dictionary id in the header.
    /// [`FrameEncoder::with_dictionary`](super::FrameEncoder::with_dictionary)
    /// sets it to its dictionary's id; a decoder refuses a frame naming a
    /// dictionary it was not given.
    ///
    /// ```
    /// let info = vecpress::lz4::frame::FrameInfo::new().dict_id(Some(7));
    /// assert_eq!(info.get_dict_id(), Some(7));
    /// ```
    pub const fn dict_id(mut self, id: Option<u32>) -> FrameInfo {
        self.dict_id = id;
        self
    }

    /// The block maximum size.
    ///
    /// ```
    /// use vecpress::lz4::frame::{BlockSize, FrameInfo};
    /// assert_eq!(FrameInfo::new().get_block_size(), BlockSize::Max64KB);
    /// ```
    pub const fn get_block_size(&self) -> BlockSize {
        self.block_size
    }

    /// Whether blocks are independent.
    ///
    /// ```
    /// assert!(vecpress::lz4::frame::FrameInfo::new().get_independent_blocks());
    /// ```
    pub const fn get_independent_blocks(&self) -> bool {
        self.independent_blocks
    }

    /// Whether blocks carry checksums.
    ///
    /// ```
    /// assert!(!vecpress::lz4::frame::FrameInfo::new().get_block_checksums());
    /// ```
    pub const fn get_block_checksums(&self) -> bool {
        self.block_checksums
    }

    /// Whether the frame ends with a content checksum.
    ///
    /// ```
    /// assert!(vecpress::lz4::frame::FrameInfo::new().get_content_checksum());
    /// ```
    pub const fn get_content_checksum(&self) -> bool {
        self.content_checksum
    }

    /// The declared content size, if any.
    ///
    /// ```
    /// assert_eq!(vecpress::lz4::frame::FrameInfo::new().get_content_size(), None);
    /// ```
    pub const fn get_content_size(&self) -> Option<u64> {
        self.content_size
    }

    /// The dictionary id, if any.
    ///
    /// ```
    /// assert_eq!(vecpress::lz4::frame::FrameInfo::new().get_dict_id(), None);
    /// ```
    pub const fn get_dict_id(&self) -> Option<u32> {
        self.dict_id
    }

    /// Writes magic number and descriptor into `out`; returns the length
    /// (7 to 19 bytes).
    pub(crate) fn write_header(&self, out: &mut [u8; 4 + MAX_DESCRIPTOR_LEN]) -> usize {
        out[..4].copy_from_slice(&MAGIC.to_le_bytes());
        let mut flg = FLG_VERSION;
        flg |= if self.independent_blocks {
            FLG_INDEPENDENT
        } else {
            0
        };
        flg |= if self.block_checksums {
            FLG_BLOCK_CHECKSUM
        } else {
            0
        };
        flg |= if self.content_size.is_some() {
            FLG_CONTENT_SIZE
        } else {
            0
        };
        flg |= if self.content_checksum {
            FLG_CONTENT_CHECKSUM
        } else {
            0
        };
        flg |= if self.dict_id.is_some() {
            FLG_DICT_ID
        } else {
            0
        };
        out[4] = flg;
        out[5] = (self.block_size as u8) << BD_BLOCK_SIZE_SHIFT;
        let mut len = 6;
        if let Some(size) = self.content_size {
            out[len..len + 8].copy_from_slice(&size.to_le_bytes());
            len += 8;
        }
        if let Some(id) = self.dict_id {
            out[len..len + 4].copy_from_slice(&id.to_le_bytes());
            len += 4;
        }
        out[len] = header_checksum(&out[4..len]);
        len + 1
    }
}

/// Length of the whole descriptor (FLG through HC) announced by `flg`.
pub(crate) fn descriptor_len(flg: u8) -> usize {
    let content_size = if flg & FLG_CONTENT_SIZE != 0 { 8 } else { 0 };
    let dict_id = if flg & FLG_DICT_ID != 0 { 4 } else { 0 };
    3 + content_size + dict_id
}

/// The header checksum: the second byte of the xxh32 (seed 0) of the
/// descriptor from FLG up to, not including, HC.
pub(crate) fn header_checksum(descriptor: &[u8]) -> u8 {
    (xxhash_rust::xxh32::xxh32(descriptor, 0) >> 8) as u8
}

/// Parses a whole descriptor (FLG through HC, as long as
/// [`descriptor_len`] says), which starts at byte `offset` of the input.
pub(crate) fn parse_descriptor(desc: &[u8], offset: usize) -> Result<FrameInfo, Error> {
    debug_assert!(desc.len() >= 3 && desc.len() == descriptor_len(desc[0]));
    let corrupt = |at: usize, what| Error::Corrupt {
        offset: offset + at,
        what,
    };
    let (flg, bd) = (desc[0], desc[1]);
    if flg & FLG_VERSION_MASK != FLG_VERSION {
        return Err(corrupt(0, "unsupported frame version"));
    }
    if flg & FLG_RESERVED != 0 {
        return Err(corrupt(0, "reserved flag bit set"));
    }
    if bd & BD_RESERVED != 0 {
        return Err(corrupt(1, "reserved block descriptor bits set"));
    }
    let block_size = BlockSize::from_code(bd >> BD_BLOCK_SIZE_SHIFT)
        .ok_or(corrupt(1, "unknown block maximum size"))?;
    let hc = desc.len() - 1;
    if desc[hc] != header_checksum(&desc[..hc]) {
        return Err(Error::ChecksumMismatch {
            what: "header",
            offset: offset + hc,
        });
    }
    let mut at = 2;
    let content_size = (flg & FLG_CONTENT_SIZE != 0).then(|| {
        at += 8;
        u64::from_le_bytes(desc[at - 8..at].try_into().expect("8 bytes"))
    });
    let dict_id = (flg & FLG_DICT_ID != 0).then(|| {
        at += 4;
        u32::from_le_bytes(desc[at - 4..at].try_into().expect("4 bytes"))
    });
    Ok(FrameInfo {
        block_size,
        independent_blocks: flg & FLG_INDEPENDENT != 0,
        block_checksums: flg & FLG_BLOCK_CHECKSUM != 0,
        content_checksum: flg & FLG_CONTENT_CHECKSUM != 0,
        content_size,
        dict_id,
    })
}

/// Whether `magic` opens a skippable frame.
pub(crate) const fn is_skippable(magic: u32) -> bool {
    magic & SKIPPABLE_MASK == SKIPPABLE_MAGIC
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(info: &FrameInfo) -> Vec<u8> {
        let mut buf = [0u8; 4 + MAX_DESCRIPTOR_LEN];
        let len = info.write_header(&mut buf);
        buf[..len].to_vec()
    }

    #[test]
    fn block_sizes_follow_the_table() {
        let want = [64 << 10, 256 << 10, 1 << 20, 4 << 20];
        for (size, want) in BlockSize::ALL.iter().zip(want) {
            assert_eq!(size.bytes(), want);
            assert_eq!(BlockSize::from_code(*size as u8), Some(*size));
        }
        for code in (0..4).chain(8..=255) {
            assert_eq!(BlockSize::from_code(code), None, "{code}");
        }
    }

    /// The header liblz4 writes for its defaults (64 KiB independent blocks,
    /// no checksums): FLG 0x60, BD 0x40, HC 0x82, as in every `lz4 -B4
    /// --no-frame-crc` file.
    #[test]
    fn known_header_bytes() {
        let info = FrameInfo::new().content_checksum(false);
        assert_eq!(header(&info), [0x04, 0x22, 0x4D, 0x18, 0x60, 0x40, 0x82]);
        // What the lz4 command writes for a short input: a content checksum.
        let info = FrameInfo::new();
        assert_eq!(header(&info), [0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7]);
    }

    #[test]
    fn every_combination_round_trips() {
        for &size in &BlockSize::ALL {
            for bits in 0..32u32 {
                let info = FrameInfo::new()
                    .block_size(size)
                    .independent_blocks(bits & 1 != 0)
                    .block_checksums(bits & 2 != 0)
                    .content_checksum(bits & 4 != 0)
                    .content_size((bits & 8 != 0).then_some(0x0123_4567_89AB_CDEF))
                    .dict_id((bits & 16 != 0).then_some(0xDEAD_BEEF));
                let bytes = header(&info);
                assert_eq!(u32::from_le_bytes(bytes[..4].try_into().unwrap()), MAGIC);
                let desc = &bytes[4..];
                assert_eq!(desc.len(), descriptor_len(desc[0]));
                assert_eq!(parse_descriptor(desc, 4), Ok(info));
            }
        }
    }

    #[test]
    fn header_checksum_is_second_byte_of_xxh32() {
        let info = FrameInfo::new().content_size(Some(5));
        let bytes = header(&info);
        let desc = &bytes[4..bytes.len() - 1];
        let h = xxhash_rust::xxh32::xxh32(desc, 0);
        assert_eq!(*bytes.last().unwrap(), h.to_le_bytes()[1]);
    }

    #[test]
    fn bad_descriptors_are_refused_with_offsets() {
        let good = header(&FrameInfo::new().content_size(Some(3)));
        let parse = |desc: &mut Vec<u8>| {
            let hc = desc.len() - 1;
            desc[hc] = header_checksum(&desc[..hc]);
            parse_descriptor(desc, 100)
        };
        let corrupt = |offset, what| Err(Error::Corrupt { offset, what });

        let mut d = good[4..].to_vec();
        d[0] = (d[0] & !FLG_VERSION_MASK) | 0b1000_0000;
        assert_eq!(parse(&mut d), corrupt(100, "unsupported frame version"));
        let mut d = good[4..].to_vec();
        d[0] |= FLG_RESERVED;
        assert_eq!(parse(&mut d), corrupt(100, "reserved flag bit set"));
        for bit in [0, 1, 2, 3, 7] {
            let mut d = good[4..].to_vec();
            d[1] |= 1 << bit;
            let want = corrupt(101, "reserved block descriptor bits set");
            assert_eq!(parse(&mut d), want, "{bit}");
        }
        for code in 0..4 {
            let mut d = good[4..].to_vec();
            d[1] = code << 4;
            assert_eq!(parse(&mut d), corrupt(101, "unknown block maximum size"));
        }
        let mut d = good[4..].to_vec();
        let hc = d.len() - 1;
        d[hc] ^= 1;
        assert_eq!(
            parse_descriptor(&d, 100),
            Err(Error::ChecksumMismatch {
                what: "header",
                offset: 100 + hc
            })
        );
    }

    #[test]
    fn skippable_magics() {
        for low in 0..16 {
            assert!(is_skippable(SKIPPABLE_MAGIC + low));
        }
        assert!(!is_skippable(SKIPPABLE_MAGIC - 1));
        assert!(!is_skippable(SKIPPABLE_MAGIC + 16));
        assert!(!is_skippable(MAGIC) && !is_skippable(LEGACY_MAGIC));
    }
}
