//! Real LZ4 blocks from other writers: the pages of Parquet files written
//! with the LZ4_RAW codec (`parquet/lz4_raw_compressed*` of the data folder,
//! from apache/parquet-testing) decode through our block decoder, with
//! every variant. Skipped when the data folder is absent (a failure under
//! CI, where it is present).
//!
//! The pages of a column chunk follow each other from byte 4 of the file:
//! a Thrift compact-protocol `PageHeader` (field 1: page type, 2:
//! uncompressed size, 3: compressed size; for a v2 data page, field 8 holds
//! the byte lengths of the uncompressed levels in front of the block), then
//! the compressed bytes. The walk stops at the first bytes that do not read
//! as a page header (the footer).

use crate::common;
use vecpress::lz4::block;

/// The few fields of a `PageHeader` the walk needs.
#[derive(Debug, Default)]
struct PageHeader {
    kind: i64,
    uncompressed: i64,
    compressed: i64,
    /// Definition plus repetition level bytes of a v2 data page.
    levels: i64,
}

/// A reader of the Thrift compact protocol, just enough to skip values.
struct Thrift<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Thrift<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn zigzag(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// Reads a value of compact type `t`; returns it when it is an integer.
    fn value(&mut self, t: u8, depth: u32) -> Option<Option<i64>> {
        if depth > 8 {
            return None;
        }
        match t {
            1 | 2 => Some(None),
            3 => self.byte().map(|_| None),
            4..=6 => self.zigzag().map(Some),
            7 => {
                self.at = self.at.checked_add(8).filter(|&a| a <= self.bytes.len())?;
                Some(None)
            }
            8 => {
                let n = usize::try_from(self.varint()?).ok()?;
                self.at = self.at.checked_add(n).filter(|&a| a <= self.bytes.len())?;
                Some(None)
            }
            9 | 10 => {
                let h = self.byte()?;
                let n = if h >> 4 == 15 {
                    self.varint()?
                } else {
                    u64::from(h >> 4)
                };
                for _ in 0..n {
                    self.value(h & 15, depth + 1)?;
                }
                Some(None)
            }
            11 => {
                let n = self.varint()?;
                if n > 0 {
                    let kv = self.byte()?;
                    for _ in 0..n {
                        self.value(kv >> 4, depth + 1)?;
                        self.value(kv & 15, depth + 1)?;
                    }
                }
                Some(None)
            }
            12 => {
                self.fields(depth + 1, &mut |_, _| {})?;
                Some(None)
            }
            _ => None,
        }
    }

    /// Reads a struct's fields up to its stop byte, handing integer fields
    /// (id, value) to `seen`.
    fn fields(&mut self, depth: u32, seen: &mut dyn FnMut(i64, i64)) -> Option<()> {
        let mut id = 0i64;
        loop {
            let h = self.byte()?;
            if h == 0 {
                return Some(());
            }
            id = if h >> 4 == 0 {
                self.zigzag()?
            } else {
                id + i64::from(h >> 4)
            };
            if let Some(v) = self.value(h & 15, depth)? {
                seen(id, v);
            }
        }
    }

    fn page_header(&mut self) -> Option<PageHeader> {
        let mut header = PageHeader::default();
        let mut id = 0i64;
        loop {
            let h = self.byte()?;
            if h == 0 {
                break;
            }
            id = if h >> 4 == 0 {
                self.zigzag()?
            } else {
                id + i64::from(h >> 4)
            };
            let t = h & 15;
            if id == 8 && t == 12 {
                let mut levels = 0;
                self.fields(1, &mut |f, v| {
                    if f == 5 || f == 6 {
                        levels += v;
                    }
                })?;
                header.levels = levels;
                continue;
            }
            match (id, self.value(t, 0)?) {
                (1, Some(v)) => header.kind = v,
                (2, Some(v)) => header.uncompressed = v,
                (3, Some(v)) => header.compressed = v,
                _ => {}
            }
        }
        Some(header)
    }
}

/// Decodes every page of the first column chunk(s); returns the page count.
fn walk(file: &[u8]) -> usize {
    let mut at = 4;
    let mut pages = 0;
    loop {
        let mut t = Thrift { bytes: file, at };
        let Some(h) = t.page_header() else { break };
        let sane = matches!(h.kind, 0 | 2 | 3)
            && h.compressed > 0
            && h.uncompressed >= 0
            && h.levels >= 0
            && h.levels <= h.compressed.min(h.uncompressed);
        let end = t.at + h.compressed as usize;
        if !sane || end > file.len() {
            break;
        }
        let start = t.at + h.levels as usize;
        let size = (h.uncompressed - h.levels) as usize;
        let packed = &file[start..end];
        let mut want = vec![0u8; size];
        assert_eq!(
            block::decompress_into(packed, &mut want),
            Ok(size),
            "page at {at}: {h:?}"
        );
        assert_eq!(block::validate(packed), Ok(size));
        for v in block::variants() {
            let mut got = vec![0xEEu8; size];
            assert_eq!(
                block::decompress_into_variant(v, packed, &mut got),
                Ok(size),
                "{v}"
            );
            assert_eq!(got, want, "{v}, page at {at}");
        }
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            lz4::block::decompress(packed, Some(size as i32)).unwrap(),
            want
        );
        pages += 1;
        at = end;
    }
    pages
}

#[test]
fn lz4_raw_parquet_pages_decode() {
    let Some(dir) = common::data::folder("parquet", "the Parquet LZ4_RAW interop") else {
        return;
    };
    for name in [
        "lz4_raw_compressed.parquet",
        "lz4_raw_compressed_larger.parquet",
    ] {
        let file = std::fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()));
        assert_eq!(&file[..4], b"PAR1");
        let pages = walk(&file);
        assert!(pages >= 1, "{name}: no page found");
        eprintln!("{name}: {pages} page(s) decoded");
    }
}
