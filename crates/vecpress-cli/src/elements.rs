//! Elements between files and blocks: reading an input as blocks of
//! elements (fixed-width values, bytes or decimal text), and restoring the
//! content from decoded blocks. Posting lists pass through the gap transform
//! of `vecpress::container`, carried across blocks.
#![forbid(unsafe_code)]

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use anyhow::{Context, Result, bail};
use vecpress::container::{Element, PostingsState, gaps_to_postings, postings_to_gaps};

use crate::engine::Engine;
use crate::files::read_some;

/// The element type of a file by its extension, as `vecpress bench` reads
/// them: `.docs` posting lists, `.u32`, `.f64`, ... values, `.txt` decimal
/// integers only when asked; anything else bytes.
pub fn by_extension(path: &Path) -> Element {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "docs" => Element::Postings,
        _ => match Element::parse(ext) {
            Some(e) if e != Element::TextU64 && e != Element::Postings => e,
            _ => Element::Bytes,
        },
    }
}

/// One block on its way to compression.
#[derive(Default)]
pub struct Block {
    /// Elements in it.
    pub count: usize,
    /// The elements' little-endian bytes (posting lists as gaps).
    pub raw: Vec<u8>,
    /// For text: the lines the elements came from.
    pub text: Vec<u8>,
    /// The encoded block.
    pub payload: Vec<u8>,
    /// Whether `raw` is stored instead of `payload`.
    pub stored: bool,
    /// The codec `payload` was encoded with, when chosen for this block.
    pub engine: Option<Engine>,
    /// Whether its codec was chosen by a probe (see [`crate::choose`]).
    pub probed: bool,
}

impl Block {
    /// The content these elements restore to.
    pub fn content(&self, element: Element) -> &[u8] {
        if element == Element::TextU64 {
            &self.text
        } else {
            &self.raw
        }
    }
}

/// Reads an input as blocks of `block_len` elements.
pub struct BlockSource {
    reader: BufReader<Box<dyn Read + Send>>,
    name: String,
    element: Element,
    block_len: usize,
    line: u64,
    postings: PostingsState,
    /// Input bytes consumed so far.
    pub consumed: u64,
}

impl BlockSource {
    /// Blocks of `block_len` elements of `element` from `reader`, named `name`.
    pub fn new(
        reader: Box<dyn Read + Send>,
        name: &str,
        element: Element,
        block_len: usize,
    ) -> BlockSource {
        BlockSource {
            reader: BufReader::with_capacity(1 << 16, reader),
            name: name.to_string(),
            element,
            block_len,
            line: 0,
            postings: PostingsState::default(),
            consumed: 0,
        }
    }

    /// Fills `block` with the next elements; `false` at the end of the input.
    /// Posting lists are left as values: see [`BlockSource::make_gaps`].
    pub fn next(&mut self, block: &mut Block) -> Result<bool> {
        block.raw.clear();
        block.text.clear();
        block.count = 0;
        if self.element == Element::TextU64 {
            return self.next_text(block);
        }
        let width = self.element.width();
        block.raw.resize(self.block_len * width, 0);
        let got = read_some(&mut self.reader, &mut block.raw)
            .with_context(|| format!("{}: read failed", self.name))?;
        block.raw.truncate(got);
        self.consumed += got as u64;
        if got % width != 0 {
            bail!(
                "{}: its size, {} bytes, is not a multiple of {width} (the width of {}); pass another --type",
                self.name,
                self.consumed,
                self.element.name()
            );
        }
        block.count = got / width;
        Ok(got > 0)
    }

    /// The element type it reads.
    pub fn element(&self) -> Element {
        self.element
    }

    /// Turns a block of posting lists into gaps, after those before it.
    pub fn make_gaps(&mut self, block: &mut Block) {
        if self.element == Element::Postings {
            with_u32s(&mut block.raw, |v| postings_to_gaps(v, &mut self.postings));
        }
    }

    fn next_text(&mut self, block: &mut Block) -> Result<bool> {
        while block.count < self.block_len {
            let start = block.text.len();
            let n = self
                .reader
                .read_until(b'\n', &mut block.text)
                .with_context(|| format!("{}: read failed", self.name))?;
            if n == 0 {
                break;
            }
            self.line += 1;
            self.consumed += n as u64;
            let value = parse_line(&block.text[start..])
                .with_context(|| format!("{}: line {}", self.name, self.line))?;
            block.raw.extend_from_slice(&value.to_le_bytes());
            block.count += 1;
        }
        Ok(block.count > 0)
    }
}

/// One line of text-u64, with its `\n`: canonical decimal only, so that the
/// text is restored byte for byte.
fn parse_line(line: &[u8]) -> Result<u64> {
    let Some(digits) = line.strip_suffix(b"\n") else {
        bail!("no newline at the end of the last line (text-u64 restores files byte for byte)");
    };
    let shown = || {
        let s = String::from_utf8_lossy(digits);
        let s: String = s.chars().take(40).collect();
        s.escape_debug().to_string()
    };
    let canonical = !digits.is_empty()
        && digits.iter().all(u8::is_ascii_digit)
        && (digits[0] != b'0' || digits.len() == 1);
    if !canonical {
        bail!(
            "'{}' is not a decimal u64 (one per line: digits only, no sign, spaces or leading zeros)",
            shown()
        );
    }
    digits.iter().try_fold(0u64, |acc, &d| {
        acc.checked_mul(10)
            .and_then(|a| a.checked_add(u64::from(d - b'0')))
            .with_context(|| format!("'{}' is larger than u64::MAX", shown()))
    })
}

/// Restores content from decoded blocks, in order.
pub struct Restorer {
    element: Element,
    postings: PostingsState,
    text: Vec<u8>,
}

impl Restorer {
    /// A restorer for `element`.
    pub fn new(element: Element) -> Restorer {
        Restorer {
            element,
            postings: PostingsState::default(),
            text: Vec::new(),
        }
    }

    /// The content of the next decoded block (its elements' bytes, which it
    /// may change).
    pub fn restore<'a>(&'a mut self, decoded: &'a mut [u8]) -> &'a [u8] {
        match self.element {
            Element::Postings => {
                with_u32s(decoded, |v| gaps_to_postings(v, &mut self.postings));
                decoded
            }
            Element::TextU64 => {
                self.text.clear();
                for b in decoded.chunks_exact(8) {
                    let v = u64::from_le_bytes(b.try_into().unwrap_or_default());
                    push_decimal(&mut self.text, v);
                    self.text.push(b'\n');
                }
                &self.text
            }
            _ => decoded,
        }
    }
}

fn push_decimal(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// Runs `f` over `bytes` seen as little-endian u32s, writing them back.
fn with_u32s(bytes: &mut [u8], f: impl FnOnce(&mut [u32])) {
    let mut v: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    f(&mut v);
    for (b, x) in bytes.chunks_exact_mut(4).zip(v) {
        b.copy_from_slice(&x.to_le_bytes());
    }
}

/// Peeks at the first four bytes of `reader`, giving them back in front.
pub fn peek_magic(
    mut reader: Box<dyn Read + Send>,
) -> io::Result<([u8; 4], usize, Box<dyn Read + Send>)> {
    let mut magic = [0u8; 4];
    let got = read_some(&mut reader, &mut magic)?;
    let front = io::Cursor::new(magic[..got].to_vec());
    Ok((magic, got, Box::new(front.chain(reader))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines_are_canonical_decimals() {
        assert_eq!(parse_line(b"0\n").unwrap(), 0);
        assert_eq!(parse_line(b"18446744073709551615\n").unwrap(), u64::MAX);
        for bad in [
            &b"18446744073709551616\n"[..],
            b"01\n",
            b"+1\n",
            b" 1\n",
            b"1\r\n",
            b"\n",
            b"7",
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?}");
        }
        let mut s = Vec::new();
        for v in [0, 7, 10, u64::MAX] {
            push_decimal(&mut s, v);
            s.push(b' ');
        }
        assert_eq!(s, b"0 7 10 18446744073709551615 ");
    }
}
