//! The block compressor: LZ4's fast greedy parse, as `LZ4_compress_fast` of
//! the reference implementation does it.
//!
//! A hash table maps the hash of the 4 (or 5) bytes at a position to the last
//! position that had it. At each position the compressor looks up the
//! candidate, keeps it when it lies within [`MAX_DISTANCE`] and its first 4
//! bytes agree, extends the match backwards over pending literals and
//! forwards as far as it goes, and emits a sequence. Where nothing matches it
//! skips ahead faster and faster (a first step of 1, then
//! `step = search_count >> SKIP_TRIGGER`, the count starting at
//! `acceleration << SKIP_TRIGGER`), which is what makes incompressible input
//! cheap. The table takes 16 KiB
//! (`LZ4_MEMORY_USAGE = 14`): 4096 u32 positions hashed from 5 bytes, or, for
//! inputs below 64 KiB, 8192 u16 positions hashed from 4 bytes.
//!
//! The search loop's reads are unchecked (`read_u64_unchecked`,
//! [`is_match`]): the loop's own bound (no probe past `len - MFLIMIT + 1`)
//! and the distance test (a candidate lies before the position) keep them
//! inside the input, and a bounds check per read costs a tenth of the
//! compressor's speed. Everything else is checked.

use super::{LASTLITERALS, MAX_DISTANCE, MFLIMIT, MINMATCH, max_compressed_len};
use crate::Error;

/// log2 of the number of u32 entries of the hash table (`LZ4_HASHLOG`).
pub(super) const HASH_LOG: u32 = 12;
/// Inputs below this size use the table of u16 positions (`LZ4_64Klimit`).
const LIMIT_64K: usize = 65536 + MFLIMIT - 1;
/// How fast the search accelerates over unmatched input (`LZ4_skipTrigger`).
const SKIP_TRIGGER: u32 = 6;
/// The largest acceleration that still changes anything
/// (`LZ4_ACCELERATION_MAX`).
pub(super) const ACCELERATION_MAX: u32 = 65537;

#[inline(always)]
pub(in crate::lz4) fn read_u32(data: &[u8], at: usize) -> u32 {
    let bytes: &[u8; 4] = data[at..at + 4].try_into().expect("4 bytes");
    u32::from_le_bytes(*bytes)
}

#[inline(always)]
fn read_u64(data: &[u8], at: usize) -> u64 {
    let bytes: &[u8; 8] = data[at..at + 8].try_into().expect("8 bytes");
    u64::from_le_bytes(*bytes)
}

/// The 8 bytes at `at`, little-endian, unchecked.
///
/// # Safety
/// `at + 8 <= data.len()`.
#[inline(always)]
unsafe fn read_u64_unchecked(data: &[u8], at: usize) -> u64 {
    debug_assert!(at + 8 <= data.len());
    // SAFETY: the 8 bytes are inside `data` (the caller's promise).
    u64::from_le(unsafe { data.as_ptr().add(at).cast::<u64>().read_unaligned() })
}

/// A hash table of positions.
trait Table {
    /// Whether a candidate may lie more than [`MAX_DISTANCE`] back: false
    /// for inputs below [`LIMIT_64K`], where no position that starts a match
    /// (below `len - MFLIMIT + 1`) is that far from any other.
    const FAR: bool;
    /// The table slot of the bytes `seq` (8 bytes read little-endian).
    fn slot(seq: u64) -> usize;
    /// The table slot of the bytes at `at`.
    #[inline(always)]
    fn hash(data: &[u8], at: usize) -> usize {
        Self::slot(read_u64(data, at))
    }
    fn get(&self, h: usize) -> usize;
    fn put(&mut self, h: usize, at: usize);
}

/// 8192 u16 positions, hashed from 4 bytes: for inputs below [`LIMIT_64K`].
struct Small([u16; 1 << (HASH_LOG + 1)]);

impl Table for Small {
    const FAR: bool = false;
    #[inline(always)]
    fn slot(seq: u64) -> usize {
        ((seq as u32).wrapping_mul(2_654_435_761) >> (32 - (HASH_LOG + 1))) as usize
    }
    #[inline(always)]
    fn get(&self, h: usize) -> usize {
        usize::from(self.0[h])
    }
    #[inline(always)]
    fn put(&mut self, h: usize, at: usize) {
        self.0[h] = at as u16;
    }
}

/// 4096 u32 positions, hashed from the 5 low bytes of a little-endian u64.
struct Large([u32; 1 << HASH_LOG]);

impl Table for Large {
    const FAR: bool = true;
    #[inline(always)]
    fn slot(seq: u64) -> usize {
        const PRIME_5_BYTES: u64 = 889_523_592_379;
        ((seq << 24).wrapping_mul(PRIME_5_BYTES) >> (64 - HASH_LOG)) as usize
    }
    #[inline(always)]
    fn get(&self, h: usize) -> usize {
        self.0[h] as usize
    }
    #[inline(always)]
    fn put(&mut self, h: usize, at: usize) {
        self.0[h] = at as u32;
    }
}

/// Compresses `data[start..]` into `dst`; `data[..start]` is history that
/// matches may reach into (up to [`MAX_DISTANCE`] back). Returns the block's
/// length.
pub(super) fn compress(
    data: &[u8],
    start: usize,
    dst: &mut [u8],
    acceleration: u32,
) -> Result<usize, Error> {
    let acceleration = acceleration.clamp(1, ACCELERATION_MAX);
    let mut out = Out {
        dst,
        pos: 0,
        bound: max_compressed_len(data.len() - start),
    };
    if data.len() < LIMIT_64K {
        let mut table = Small([0; 1 << (HASH_LOG + 1)]);
        parse(&mut table, data, start, &mut out, acceleration)?;
    } else {
        let mut table = Large([0; 1 << HASH_LOG]);
        parse(&mut table, data, start, &mut out, acceleration)?;
    }
    Ok(out.pos)
}

/// Whether the candidate `m` for position `ip`, whose first 4 bytes are
/// `seq`, is a match: 1 to [`MAX_DISTANCE`] back, with 4 equal bytes. With
/// `T::FAR` false only `m < ip` is tested (one compare), which every
/// candidate of such a table passes (the table holds earlier positions),
/// but the read below needs.
///
/// # Safety
/// `ip + 4 <= data.len()`.
#[inline(always)]
unsafe fn is_match<T: Table>(data: &[u8], m: usize, ip: usize, seq: u32) -> bool {
    debug_assert!(ip + 4 <= data.len());
    if T::FAR {
        if ip.wrapping_sub(m).wrapping_sub(1) >= MAX_DISTANCE {
            return false;
        }
    } else if m >= ip {
        return false;
    }
    // SAFETY: 1 <= ip - m, so m + 4 <= ip + 3 < data.len().
    let bytes = unsafe { data.as_ptr().add(m).cast::<u32>().read_unaligned() };
    u32::from_le(bytes) == seq
}

/// The greedy parse; writes every sequence, the last literals included.
fn parse<T: Table>(
    table: &mut T,
    data: &[u8],
    start: usize,
    out: &mut Out<'_>,
    acceleration: u32,
) -> Result<(), Error> {
    let len = data.len();
    let mut anchor = start;
    if len - start < MFLIMIT + 1 {
        return out.last_literals(data, anchor);
    }
    // Positions past this start no match (MFLIMIT before the end).
    let mflimit_plus_one = len - MFLIMIT + 1;
    // Matches stop here, leaving LASTLITERALS bytes to be literals.
    let match_limit = len - LASTLITERALS;
    for at in start.saturating_sub(MAX_DISTANCE)..start.min(mflimit_plus_one) {
        table.put(T::hash(data, at), at);
    }
    let mut ip = start;
    table.put(T::hash(data, ip), ip);
    ip += 1;
    // The 8 bytes at the next position to probe, and their slot.
    let mut forward_seq = read_u64(data, ip);
    let mut forward_h = T::slot(forward_seq);
    'sequences: loop {
        // Find a match, accelerating over input that has none.
        let mut m;
        let mut forward_ip = ip;
        // The position after a sequence's start is always probed; the
        // steps after it start at the acceleration.
        let mut step = 1;
        let mut search = acceleration << SKIP_TRIGGER;
        loop {
            let (h, seq) = (forward_h, forward_seq as u32);
            ip = forward_ip;
            forward_ip = ip + step;
            step = (search >> SKIP_TRIGGER) as usize;
            search += 1;
            if forward_ip > mflimit_plus_one {
                break 'sequences;
            }
            m = table.get(h);
            // SAFETY: forward_ip <= mflimit_plus_one = len - MFLIMIT + 1,
            // so forward_ip + 8 <= len - 3.
            forward_seq = unsafe { read_u64_unchecked(data, forward_ip) };
            forward_h = T::slot(forward_seq);
            table.put(h, ip);
            // SAFETY: ip (the last probe) <= mflimit_plus_one, so ip + 4 <= len.
            if unsafe { is_match::<T>(data, m, ip, seq) } {
                break;
            }
        }
        // Extend it backwards over the pending literals.
        let back = data[anchor..ip]
            .iter()
            .rev()
            .zip(data[..m].iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        ip -= back;
        m -= back;
        let mut match_len = count(data, ip + MINMATCH, m + MINMATCH, match_limit);
        out.sequence(data, anchor, ip, ip - m, match_len)?;
        loop {
            ip += MINMATCH + match_len;
            anchor = ip;
            if ip >= mflimit_plus_one {
                break 'sequences;
            }
            // SAFETY: ip < mflimit_plus_one, so ip + 8 <= len - 4.
            let before = unsafe { read_u64_unchecked(data, ip - 2) };
            table.put(T::slot(before), ip - 2);
            // A match right away needs no literals.
            // SAFETY: as above.
            let seq = unsafe { read_u64_unchecked(data, ip) };
            let h = T::slot(seq);
            m = table.get(h);
            table.put(h, ip);
            // SAFETY: as above, ip + 4 <= len.
            if !unsafe { is_match::<T>(data, m, ip, seq as u32) } {
                break;
            }
            match_len = count(data, ip + MINMATCH, m + MINMATCH, match_limit);
            out.match_only(ip - m, match_len)?;
        }
        ip += 1;
        // SAFETY: ip <= mflimit_plus_one (it was below it), so ip + 8 <= len - 3.
        forward_seq = unsafe { read_u64_unchecked(data, ip) };
        forward_h = T::slot(forward_seq);
    }
    out.last_literals(data, anchor)
}

/// How many bytes from `p` equal those from `m` (`m < p`), stopping at
/// `limit`: 8 bytes at a time, the first difference found by its lowest set
/// bit.
#[inline(always)]
pub(super) fn count(data: &[u8], p: usize, m: usize, limit: usize) -> usize {
    let a = &data[p..limit];
    let b = &data[m..m + a.len()];
    // Most matches end within their first 8 bytes: that compare stands
    // alone, before the loop.
    let mut start = 0;
    if let (Some(x), Some(y)) = (a.first_chunk::<8>(), b.first_chunk::<8>()) {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return (diff.trailing_zeros() / 8) as usize;
        }
        start = 8;
    }
    let (a, b) = (&a[start..], &b[start..]);
    let mut n = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes(x.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(y.try_into().expect("8 bytes"));
        let diff = x ^ y;
        if diff != 0 {
            return start + n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    start
        + n
        + a[n..]
            .iter()
            .zip(&b[n..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// Bytes of the extension of a nibble-coded length `n`.
#[inline(always)]
pub(in crate::lz4) fn extension_len(n: usize) -> usize {
    if n >= 15 { (n - 15) / 255 + 1 } else { 0 }
}

/// Writes the length extension of `n` (the part of a length beyond its
/// nibble's 15) at `dst[pos..]`: 255s, then the remainder; returns the
/// position after it. The caller has checked the room.
#[inline(always)]
pub(in crate::lz4) fn put_extension(dst: &mut [u8], mut pos: usize, mut n: usize) -> usize {
    while n >= 255 {
        dst[pos] = 255;
        pos += 1;
        n -= 255;
    }
    dst[pos] = n as u8;
    pos + 1
}

/// The output, every write checked against its length first.
pub(super) struct Out<'a> {
    pub(super) dst: &'a mut [u8],
    pub(super) pos: usize,
    /// The worst-case size, reported when `dst` is too small.
    pub(super) bound: usize,
}

impl Out<'_> {
    #[inline(always)]
    fn room(&self, n: usize) -> Result<(), Error> {
        if n > self.dst.len() - self.pos {
            return Err(self.too_small());
        }
        Ok(())
    }

    #[cold]
    fn too_small(&self) -> Error {
        Error::OutputTooSmall {
            needed: self.bound,
            actual: self.dst.len(),
        }
    }

    /// Appends a length extension: 255s, then the remainder.
    #[inline(always)]
    fn extension(&mut self, n: usize) {
        self.pos = put_extension(self.dst, self.pos, n);
    }

    /// Starts a sequence: its token (literal nibble set) and its literals
    /// `data[from..to]`. Returns where the token is. Room is checked
    /// exactly, so any output that can hold the block will do.
    #[inline(always)]
    pub(super) fn literals(&mut self, data: &[u8], from: usize, to: usize) -> Result<usize, Error> {
        self.room(1 + extension_len(to - from) + to - from)?;
        Ok(self.put_literals(data, from, to))
    }

    /// Ends the sequence begun at `token_at` with a match (`len` counts the
    /// bytes past the first MINMATCH).
    #[inline(always)]
    pub(super) fn matched(
        &mut self,
        token_at: usize,
        offset: usize,
        len: usize,
    ) -> Result<(), Error> {
        self.room(2 + extension_len(len))?;
        self.dst[self.pos..self.pos + 2].copy_from_slice(&(offset as u16).to_le_bytes());
        self.pos += 2;
        if len >= 15 {
            self.dst[token_at] |= 15;
            self.extension(len - 15);
        } else {
            self.dst[token_at] |= len as u8;
        }
        Ok(())
    }

    /// A whole sequence: the literals `data[from..to]` and a match `offset`
    /// back (`len` counts the bytes past the first MINMATCH). The common
    /// short one (both lengths below 15, 16 bytes of input from `from` and
    /// 19 bytes of room) is written into one checked 19-byte window: its
    /// token, 16 bytes of literals, then the offset over the bytes past them.
    #[inline(always)]
    pub(super) fn sequence(
        &mut self,
        data: &[u8],
        from: usize,
        to: usize,
        offset: usize,
        len: usize,
    ) -> Result<(), Error> {
        let n = to - from;
        if n < 15 && len < 15 {
            let src = data.get(from..).and_then(|d| d.first_chunk::<16>());
            let pos = self.pos;
            let dst = self
                .dst
                .get_mut(pos..)
                .and_then(|d| d.first_chunk_mut::<19>());
            if let (Some(src), Some(dst)) = (src, dst) {
                dst[0] = (n << 4 | len) as u8;
                dst[1..17].copy_from_slice(src);
                dst[1 + n..3 + n].copy_from_slice(&(offset as u16).to_le_bytes());
                self.pos += 3 + n;
                return Ok(());
            }
        }
        let token_at = self.literals(data, from, to)?;
        self.matched(token_at, offset, len)
    }

    /// A sequence without literals: a match `offset` back (`len` counts the
    /// bytes past the first MINMATCH), as most sequences of compressible
    /// input are (the match that follows another at once). The short one
    /// takes one checked 3-byte window.
    #[inline(always)]
    fn match_only(&mut self, offset: usize, len: usize) -> Result<(), Error> {
        if len < 15
            && let Some(dst) = self.dst.get_mut(self.pos..self.pos + 3)
        {
            dst[0] = len as u8;
            dst[1..].copy_from_slice(&(offset as u16).to_le_bytes());
            self.pos += 3;
            return Ok(());
        }
        self.room(1)?;
        let token_at = self.pos;
        self.dst[token_at] = 0;
        self.pos += 1;
        self.matched(token_at, offset, len)
    }

    /// The last sequence: literals only, `data[from..]`.
    pub(super) fn last_literals(&mut self, data: &[u8], from: usize) -> Result<(), Error> {
        let n = data.len() - from;
        self.room(1 + extension_len(n) + n)?;
        self.put_literals(data, from, data.len());
        Ok(())
    }

    /// Writes a token with the literal nibble set, the literal length's
    /// extension and the literals `data[from..to]` (room checked by the
    /// caller); returns where the token is. A short run is copied as 16
    /// bytes when both slices have them: the bytes past the run are
    /// overwritten by what follows, or lie past the block's end.
    #[inline(always)]
    fn put_literals(&mut self, data: &[u8], from: usize, to: usize) -> usize {
        let n = to - from;
        let token_at = self.pos;
        self.pos += 1;
        self.dst[token_at] = if n >= 15 {
            self.extension(n - 15);
            15 << 4
        } else {
            (n as u8) << 4
        };
        if n <= 16 && data.len() - from >= 16 && self.dst.len() - self.pos >= 16 {
            self.dst[self.pos..self.pos + 16].copy_from_slice(&data[from..from + 16]);
        } else {
            self.dst[self.pos..self.pos + n].copy_from_slice(&data[from..to]);
        }
        self.pos += n;
        token_at
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn count_is_the_length_of_the_common_run() {
        // Two copies of a pattern with one byte changed at every distance
        // from the start, up to limits on both sides of each 8-byte step.
        let base: Vec<u8> = (0..40u32).map(|i| (i * 37 % 251) as u8).collect();
        for diff_at in 0..=40 {
            let mut data = base.clone();
            data.extend_from_slice(&base);
            if diff_at < 40 {
                data[40 + diff_at] ^= 0x5a;
            }
            for limit in 40..=80 {
                let want = diff_at.min(limit - 40);
                assert_eq!(
                    count(&data, 40, 0, limit),
                    want,
                    "diff {diff_at} limit {limit}"
                );
            }
        }
    }
}
