//! [`DeltaCursor`]: a forward cursor over a delta-coded stream, for queries
//! on posting lists ([`crate::postings`]).
//!
//! The cursor decodes a block of values at a time (512 while it reads on,
//! 128 while it skips) with the kernel the CPU's profile chooses for
//! [`decode_delta`](super::decode_delta), into a buffer of its own. [`advance_to`](crate::postings::Cursor::advance_to)
//! first looks in that buffer; past it, it skips whole groups with the
//! search kernel of [`seek_delta`](super::seek_delta) (four groups at a
//! time by the sum of their gaps, from the cursor's position, never from
//! the start), then decodes the block that holds the value found.
#![forbid(unsafe_code)]

use super::control_len;
use super::decode::{self, scalar::control_truncated, scalar::decode_from};
use super::seek::find_groups;
use super::tables::Codes1234;
use crate::postings::{Decoded, block_cursor};
use crate::{Error, Isa};

/// Blocks of at most this many values decode with the kernel made for short
/// streams where the CPU has AVX-512, else with the SSE4.1 kernel at the AVX2
/// level.
const SHORT_BLOCK: usize = 64;

/// A forward cursor over a delta-coded Stream VByte stream of `n` values
/// (as [`encode_delta`](super::encode_delta) writes it): sorted values,
/// read in order, skipped by target.
///
/// ```
/// use vecpress::postings::Cursor;
/// use vecpress::stream_vbyte::{self, DeltaCursor};
///
/// let docs: Vec<u32> = (0..1000).map(|i| i * 7).collect();
/// let bytes = stream_vbyte::encode_delta_to_vec(&docs, 0);
/// let mut c = DeltaCursor::new(&bytes, docs.len(), 0)?;
/// assert_eq!(c.next()?, Some(0));
/// assert_eq!(c.advance_to(5000)?, Some(5005)); // the first value >= 5000
/// assert_eq!(c.advance_to(100)?, Some(5005)); // never backwards
/// assert_eq!(c.next()?, Some(5005));
/// assert_eq!(c.next()?, Some(5012));
/// assert_eq!(c.advance_to(7000)?, None);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub struct DeltaCursor<'a> {
    control: &'a [u8],
    data: &'a [u8],
    n: usize,
    isa: Isa,
    /// The level of the blocks of up to [`SHORT_BLOCK`] values.
    short: Isa,
    block: Decoded,
    /// The first value not decoded yet: its index (a multiple of 4 until
    /// the end), where its data starts, and the value before it.
    next: usize,
    pos: usize,
    acc: u32,
    /// Where the stream starts in the buffer its errors' offsets count from.
    origin: usize,
}

impl<'a> DeltaCursor<'a> {
    /// A cursor at the first of the `n` values of `input`, encoded from
    /// `prev`. Fails only when the control bytes are cut short; damaged
    /// data is found as the cursor reaches it.
    pub fn new(input: &'a [u8], n: usize, prev: u32) -> Result<DeltaCursor<'a>, Error> {
        use crate::tune::{Op, isa};
        let (long, short) = (isa(Op::StreamVByteDelta), isa(Op::StreamVByteShortLists));
        DeltaCursor::at(long, short, input, 0, n).map(|c| DeltaCursor { acc: prev, ..c })
    }

    /// [`DeltaCursor::new`] decoding and skipping with the kernels of
    /// `isa`; `Err(Unsupported)` if the CPU lacks it.
    pub fn new_with(
        isa: Isa,
        input: &'a [u8],
        n: usize,
        prev: u32,
    ) -> Result<DeltaCursor<'a>, Error> {
        let isa = isa.check()?;
        DeltaCursor::at(isa, isa, input, 0, n).map(|c| DeltaCursor { acc: prev, ..c })
    }

    /// A cursor over the `n` values encoded from 0 at `bytes[start..]`,
    /// whose errors count their offsets from the start of `bytes`.
    pub(crate) fn at(
        isa: Isa,
        short: Isa,
        bytes: &'a [u8],
        start: usize,
        n: usize,
    ) -> Result<DeltaCursor<'a>, Error> {
        let input = bytes.get(start..).ok_or(Error::OutOfRange {
            index: start,
            len: bytes.len(),
        })?;
        let clen = control_len(n);
        if input.len() < clen {
            return Err(control_truncated(input.len(), n).shifted(start));
        }
        let (control, data) = input.split_at(clen);
        Ok(DeltaCursor {
            control,
            data,
            n,
            isa,
            short,
            block: Decoded::new(),
            next: 0,
            pos: 0,
            acc: 0,
            origin: start,
        })
    }

    /// Decodes the next block; `false` at the end.
    fn refill(&mut self) -> Result<bool, Error> {
        if self.next >= self.n {
            self.block.ended(self.n);
            return Ok(false);
        }
        let m = (self.n - self.next).min(self.block.span());
        let values = self.block.room(self.next, m);
        let ctrl = &self.control[self.next / 4..(self.next + m).div_ceil(4)];
        let rest = &self.data[self.pos..];
        let mut prev = self.acc;
        if m <= SHORT_BLOCK {
            // A short block (most posting lists are short) takes the
            // short-stream kernel, with no tail; if its data is cut short,
            // the checked path below says where.
            if let Some((used, last)) =
                decode::short_delta::<Codes1234>(self.short, ctrl, rest, values, m, prev)
            {
                self.pos += used;
                self.acc = last;
                self.block.filled(self.next, m);
                self.next += m;
                return Ok(true);
            }
        }
        // Where that kernel declines, a short block decodes in 16-byte
        // steps at every x86 level: the wider kernels' setup (their tables
        // loaded into registers) costs more than such a block's decoding
        // (perf/queries-amd-25-17.md).
        let isa = if m <= SHORT_BLOCK && self.isa > Isa::Sse41 && cfg!(target_arch = "x86_64") {
            Isa::Sse41
        } else {
            self.isa
        };
        let (keys, p) = decode::bulk::<Codes1234, true>(isa, ctrl, rest, values, &mut prev);
        let base = self.origin + self.control.len() + self.pos;
        let used = decode_from::<Codes1234, true>(ctrl, rest, values, keys, p, &mut prev, base)
            .map_err(|e| e.missing_more(self.n - self.next - m))?;
        self.pos += used;
        self.acc = prev;
        self.block.filled(self.next, m);
        self.next += m;
        Ok(true)
    }

    /// Skips whole groups after the decoded block while their gaps keep
    /// the sum below `target`; not when one block holds all that is left,
    /// which the next decode reads anyway, nor while targets fall in the
    /// next values.
    fn skip_to(&mut self, target: u32) {
        let (from, whole) = (self.next / 4, self.n / 4);
        if from >= whole || self.n - self.next <= self.block.span() || !self.block.probing() {
            return;
        }
        let (groups, pos, acc) = find_groups(
            self.isa,
            &self.control[from..whole],
            &self.data[self.pos..],
            self.acc,
            target,
        )
        .passed();
        self.next += 4 * groups;
        self.pos += pos;
        self.acc = acc;
        if groups == 0 {
            self.block.near();
        } else {
            self.block.far();
        }
    }
}

block_cursor!(DeltaCursor<'_>);
