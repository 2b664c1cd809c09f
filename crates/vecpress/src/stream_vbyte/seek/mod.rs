//! Random access: the value at an index, and the first value at least a
//! target in a delta-coded sorted stream.
//!
//! The control stream tells where each value's data starts without reading
//! the data: the data bytes before value `i` are the sum of the lengths of
//! codes `0..i`, which [`data_len`] sums 8 control bytes (32 codes) at a
//! time from bit counts of a u64. So [`select`] reads one value and never
//! decodes the others. With delta coding the value is the sum of every gap
//! up to it: [`select_delta`] sums them with a kernel that shuffles each
//! group's bytes into u32 lanes, as decoding does, and adds them to an
//! accumulator instead of storing them (no prefix sum, no store); in the
//! group of value `i`, the shuffle zeroes the lanes after it.
//! [`seek_delta`] skips four groups at a time while the sum of their gaps
//! (summed as `select_delta` does) keeps the running sum below the target,
//! then decodes group by group as the delta decoders do, compares each
//! group's four values with the target, and stores nothing; it stops at the
//! first value that reaches the target, reading no data after the skipped
//! groups and that value's group.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse41;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use super::decode::generic::{row, running};
use super::decode::scalar::{control_truncated, read};
use super::tables::{Codes1234, Variant};
use super::{control_len, data_len};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::simd::Vector;
use crate::{Error, Isa, Unit};

/// The value at index `i` of a stream of `n` values; reads the control
/// bytes before it and its own data bytes only.
///
/// ```
/// use vecpress::{stream_vbyte, Error};
/// let bytes = stream_vbyte::encode_to_vec(&[5, 70_000, 300, 1 << 30, 9]);
/// assert_eq!(stream_vbyte::select(&bytes, 5, 3), Ok(1 << 30));
/// assert_eq!(stream_vbyte::select(&bytes, 5, 5), Err(Error::OutOfRange { index: 5, len: 5 }));
/// ```
pub fn select(input: &[u8], n: usize, i: usize) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), i + 1));
    }
    let (control, data) = input.split_at(clen);
    let pos = data_len::<Codes1234>(control, i);
    let len = Codes1234::LENS[code(control, i)];
    read(data, pos, len).ok_or_else(|| truncated(control, data.len(), clen, i))
}

/// The value at index `i` of a delta-coded stream of `n` values encoded from
/// `prev`: `prev` plus the sum of the gaps `0..=i` (wrapping), summed by the
/// best kernel without decoding them to memory. Reads no data past value `i`.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_delta_to_vec(&[10, 20, 25, 1000], 3);
/// assert_eq!(stream_vbyte::select_delta(&bytes, 4, 2, 3), Ok(25));
/// assert!(stream_vbyte::select_delta(&bytes, 4, 4, 3).is_err());
/// ```
pub fn select_delta(input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    select_delta_impl(
        crate::tune::isa(crate::tune::Op::StreamVByteSeek),
        input,
        n,
        i,
        prev,
    )
}

/// [`select_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let bytes = stream_vbyte::encode_delta_to_vec(&[1, 2, 3, 4, 5, 6], 0);
/// for &isa in Isa::available() {
///     assert_eq!(stream_vbyte::select_delta_with(isa, &bytes, 6, 5, 0), Ok(6));
/// }
/// ```
pub fn select_delta_with(
    isa: Isa,
    input: &[u8],
    n: usize,
    i: usize,
    prev: u32,
) -> Result<u32, Error> {
    select_delta_impl(isa.check()?, input, n, i, prev)
}

fn select_delta_impl(isa: Isa, input: &[u8], n: usize, i: usize, prev: u32) -> Result<u32, Error> {
    if i >= n {
        return Err(Error::OutOfRange { index: i, len: n });
    }
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), i + 1));
    }
    let (control, data) = input.split_at(clen);
    // Values 0..=i with the kernel while 16 data bytes remain, the rest
    // value by value.
    let (done, pos, sum) = sum_values(isa, control, i + 1, data);
    let mut sum = prev.wrapping_add(sum);
    for gap in Gaps::new(control, data, done, pos, i + 1) {
        sum = sum.wrapping_add(gap?.1);
    }
    Ok(sum)
}

/// The index and value of the first value `>= target` in a delta-coded
/// sorted stream of `n` values encoded from `prev`, or `None` if every
/// value is smaller. The best kernel skips four groups at a time while the
/// sum of their gaps stays below the target, then decodes group by group
/// without storing, up to the value found: a stream cut after that value
/// still answers.
///
/// ```
/// use vecpress::stream_vbyte;
/// let bytes = stream_vbyte::encode_delta_to_vec(&[2, 4, 8, 1000], 0);
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 5, 0), Ok(Some((2, 8))));
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 8, 0), Ok(Some((2, 8))));
/// assert_eq!(stream_vbyte::seek_delta(&bytes, 4, 1001, 0), Ok(None));
/// ```
pub fn seek_delta(
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    seek_delta_impl(
        crate::tune::isa(crate::tune::Op::StreamVByteSeek),
        input,
        n,
        target,
        prev,
    )
}

/// [`seek_delta`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::{stream_vbyte, Isa};
/// let bytes = stream_vbyte::encode_delta_to_vec(&[3, 30, 300], 0);
/// for &isa in Isa::available() {
///     assert_eq!(stream_vbyte::seek_delta_with(isa, &bytes, 3, 31, 0), Ok(Some((2, 300))));
/// }
/// ```
pub fn seek_delta_with(
    isa: Isa,
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    seek_delta_impl(isa.check()?, input, n, target, prev)
}

fn seek_delta_impl(
    isa: Isa,
    input: &[u8],
    n: usize,
    target: u32,
    prev: u32,
) -> Result<Option<(usize, u32)>, Error> {
    let clen = control_len(n);
    if input.len() < clen {
        return Err(control_truncated(input.len(), n));
    }
    let (control, data) = input.split_at(clen);
    // Whole groups with the kernel, the rest value by value.
    let (groups, pos, mut acc) = match find_groups(isa, &control[..n / 4], data, prev, target) {
        Found::At { index, value, .. } => return Ok(Some((index, value))),
        Found::Not { groups, pos, acc } => (groups, pos, acc),
    };
    for gap in Gaps::new(control, data, 4 * groups, pos, n) {
        let (k, gap) = gap?;
        acc = acc.wrapping_add(gap);
        if acc >= target {
            return Ok(Some((k, acc)));
        }
    }
    Ok(None)
}

/// A delta-coded stream read forward a value at a time, the whole groups
/// of values below a target passed by the search kernel of [`seek_delta`]
/// (by the sums of their gaps, with no decode): for a caller that needs a
/// few of a long stream's values, as a query searching runs in place
/// ([`crate::postings::hybrid`]). A stream cut short gives its values up
/// to the cut, then ends.
pub(crate) struct Forward<'a> {
    isa: Isa,
    gaps: Gaps<'a>,
    /// The last value given or passed.
    acc: u32,
}

impl<'a> Forward<'a> {
    /// The `n` values of `input`, encoded from `prev`, searched with the
    /// kernel of `isa` (which the CPU has); `None` when `input` is shorter
    /// than their control bytes.
    pub(crate) fn new(isa: Isa, input: &'a [u8], n: usize, prev: u32) -> Option<Forward<'a>> {
        let clen = control_len(n);
        let control = input.get(..clen)?;
        Some(Forward {
            isa,
            gaps: Gaps::new(control, &input[clen..], 0, 0, n),
            acc: prev,
        })
    }

    /// Passes the whole groups, from the next value on where it starts a
    /// group, whose values all fall below `target`.
    pub(crate) fn pass_below(&mut self, target: u32) {
        let g = &mut self.gaps;
        let (from, whole) = (g.k / 4, g.end / 4);
        if !g.k.is_multiple_of(4) || from >= whole {
            return;
        }
        let (groups, pos, acc) = find_groups(
            self.isa,
            &g.control[from..whole],
            &g.data[g.pos..],
            self.acc,
            target,
        )
        .passed();
        g.k += 4 * groups;
        g.pos += pos;
        self.acc = acc;
    }
}

impl Iterator for Forward<'_> {
    type Item = u32;

    /// The next value; `None` after the last, or where the data ends.
    #[inline]
    fn next(&mut self) -> Option<u32> {
        let (_, gap) = self.gaps.next()?.ok()?;
        self.acc = self.acc.wrapping_add(gap);
        Some(self.acc)
    }
}

/// Values `k..end` read one by one from data byte `pos` (where value `k`
/// starts), with their index; a value cut by the end of the data ends the
/// iteration with `Err(Truncated)` counting it and those after it up to
/// `end` as missing.
struct Gaps<'a> {
    control: &'a [u8],
    data: &'a [u8],
    k: usize,
    pos: usize,
    end: usize,
}

impl<'a> Gaps<'a> {
    fn new(control: &'a [u8], data: &'a [u8], k: usize, pos: usize, end: usize) -> Self {
        Gaps {
            control,
            data,
            k,
            pos,
            end,
        }
    }
}

impl Iterator for Gaps<'_> {
    type Item = Result<(usize, u32), Error>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.k >= self.end {
            return None;
        }
        let (k, len) = (self.k, Codes1234::LENS[code(self.control, self.k)]);
        let Some(v) = read(self.data, self.pos, len) else {
            self.k = self.end;
            return Some(Err(Error::Truncated {
                offset: self.control.len() + self.pos,
                needed: self.end - k,
                unit: Unit::Values,
            }));
        };
        self.k += 1;
        self.pos += len;
        Some(Ok((k, v)))
    }
}

/// What a search kernel found.
pub(super) enum Found {
    /// The index and value of the first value at least the target, and
    /// where its group starts: the groups before it, their data bytes and
    /// their last value.
    At {
        index: usize,
        value: u32,
        groups: usize,
        pos: usize,
        acc: u32,
    },
    /// No value of the first `groups` groups reaches the target; their data
    /// takes `pos` bytes, and `acc` is their last value.
    Not { groups: usize, pos: usize, acc: u32 },
}

impl Found {
    /// The groups found below the target (before the one that reaches it,
    /// if any), their data bytes and their last value.
    pub(super) fn passed(self) -> (usize, usize, u32) {
        match self {
            Found::At {
                groups, pos, acc, ..
            }
            | Found::Not { groups, pos, acc } => (groups, pos, acc),
        }
    }
}

/// The one map from ISA level to search kernel: the running sum from `acc`
/// of the values of a prefix of the groups of `control`, from the start of
/// `data`, up to the first value at least `target`. The kernels stop where
/// less than 16 data bytes remain.
pub(super) fn find_groups(isa: Isa, control: &[u8], data: &[u8], acc: u32, target: u32) -> Found {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
        // CPU has SSE4.1.
        Isa::Sse41 => unsafe { sse41::find_groups(control, data, acc, target) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX2 (the AVX-512 level implies it).
        Isa::Avx2 | Isa::Avx512 => unsafe { avx2::find_groups(control, data, acc, target) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::find_groups(control, data, acc, target) },
        _ => Found::Not {
            groups: 0,
            pos: 0,
            acc,
        },
    }
}

/// The search of [`find_groups`], written once over [`Vector`]: each group
/// decoded as the decoders do (table shuffle, prefix sum, plus the previous
/// value), compared with the target, nothing stored; four groups whose
/// gaps cannot bring the running sum to the target are skipped by their sum
/// (a byte sum for one-byte gaps, else the sum of their shuffles, when no
/// gap takes 4 bytes and the sum cannot wrap).
///
/// # Safety
/// The CPU supports `W` (16-byte registers).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
unsafe fn find_groups_with<W: Vector>(control: &[u8], data: &[u8], acc: u32, target: u32) -> Found {
    let (mut g, mut pos) = (0, 0);
    // Groups before this one are searched one by one (a skip failed there).
    let mut one_by_one = 0;
    // SAFETY: the CPU supports W.
    let (mut sum, goal) = unsafe { (W::splat_u32(acc), W::splat_u32(target)) };
    while g < control.len() && data.len() - pos >= 16 {
        if g >= one_by_one
            && let Some(&k) = control[g..].first_chunk::<4>()
        {
            // Four groups skipped whole by the sum of their gaps when
            // the running sum stays below the target without wrapping:
            // 16 one-byte gaps by their byte sum, or groups with no
            // 4-byte gap (16 gaps below 2^24, whose sum cannot wrap)
            // by the sum of their shuffles.
            let w = u32::from_le_bytes(k);
            if w == 0 {
                // SAFETY: the CPU supports W; 16 bytes remain at `pos`.
                let (total, last) =
                    unsafe { (W::load(data.as_ptr().add(pos)).sum_u8(), sum.last_u32()) };
                if u64::from(last) + u64::from(total) < u64::from(target) {
                    // SAFETY: the CPU supports W.
                    sum = unsafe { W::splat_u32(last + total) };
                    pos += 16;
                    g += 4;
                    continue;
                }
                one_by_one = g + 4;
            } else if w & w >> 1 & 0x5555_5555 == 0 && data.len() - pos >= 64 {
                // SAFETY: the CPU supports W; 64 bytes remain at `pos`.
                let ((sums, end), last) =
                    unsafe { (four_groups::<W>(data, k, pos), sum.last_u32()) };
                // SAFETY: the CPU supports W.
                let total = unsafe { sums.sum_u32() };
                if u64::from(last) + u64::from(total) < u64::from(target) {
                    // SAFETY: the CPU supports W.
                    sum = unsafe { W::splat_u32(last + total) };
                    pos = end;
                    g += 4;
                    continue;
                }
                one_by_one = g + 4;
            }
        }
        let c = control[g];
        // SAFETY: the CPU supports W; 16 bytes remain at `pos` (the loop
        // condition).
        let (values, hit) = unsafe {
            let values = running::<W, true>(group(data, c, pos), &mut sum);
            (values, values.ge_mask_u32(goal))
        };
        if hit != 0 {
            let lane = hit.trailing_zeros() as usize;
            let (mut four, mut gaps) = ([0u32; 4], [0u32; 4]);
            // SAFETY: `four` and `gaps` hold 16 bytes each; the CPU supports
            // W; 16 bytes remain at `pos`.
            unsafe {
                values.store(four.as_mut_ptr().cast());
                group::<W>(data, c, pos).store(gaps.as_mut_ptr().cast());
            }
            return Found::At {
                index: 4 * g + lane,
                value: four[lane],
                groups: g,
                pos,
                acc: four[0].wrapping_sub(gaps[0]),
            };
        }
        pos += length(c);
        g += 1;
    }
    // SAFETY: the CPU supports W.
    let acc = unsafe { sum.last_u32() };
    Found::Not {
        groups: g,
        pos,
        acc,
    }
}

/// The data bytes of the group of control byte `c`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn length(c: u8) -> usize {
    usize::from(Codes1234::LENGTH[usize::from(c)])
}

/// The values (gaps) of the group of control byte `c` whose data starts at
/// `data[at]`.
///
/// # Safety
/// The CPU supports `W`; `at + 16 <= data.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
unsafe fn group<W: Vector>(data: &[u8], c: u8, at: usize) -> W {
    debug_assert!(at + 16 <= data.len());
    // SAFETY: the caller's promises.
    unsafe { W::load(data.as_ptr().add(at)).shuffle(row::<W, Codes1234>(usize::from(c))) }
}

/// The sums, lane by lane (wrapping), of the values of the four groups of
/// control bytes `k` whose data starts at `data[pos]`, and the data byte
/// after them.
///
/// # Safety
/// The CPU supports `W`; `pos + 64 <= data.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
unsafe fn four_groups<W: Vector>(data: &[u8], k: [u8; 4], pos: usize) -> (W, usize) {
    let p1 = pos + length(k[0]);
    let p2 = p1 + length(k[1]);
    let p3 = p2 + length(k[2]);
    // SAFETY: the CPU supports W; each group starts at most 48 bytes after
    // `pos`, so its 16 bytes are there.
    let sums = unsafe {
        let a = group::<W>(data, k[0], pos).add_u32(group(data, k[1], p1));
        let b = group::<W>(data, k[2], p2).add_u32(group(data, k[3], p3));
        a.add_u32(b)
    };
    (sums, p3 + length(k[3]))
}

/// The one map from ISA level to summing kernel: the sum (wrapping) of
/// the first `n` values of the stream whose control bytes start `control`
/// (at least `n.div_ceil(4)` of them) and data bytes are `data`; returns
/// (values summed, data bytes of the whole groups among them, sum). The
/// kernels sum while 16 data bytes remain: `n` values, or a multiple of 4
/// below it.
fn sum_values(isa: Isa, control: &[u8], n: usize, data: &[u8]) -> (usize, usize, u32) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the
        // CPU has SSE4.1.
        Isa::Sse41 => unsafe { sse41::sum_values(control, n, data) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has AVX2.
        Isa::Avx2 => unsafe { avx2::sum_values(control, n, data) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, the CPU has every feature of the AVX-512 level.
        Isa::Avx512 => unsafe { avx512::sum_values(control, n, data) },
        #[cfg(target_arch = "aarch64")]
        // SAFETY: as above, the CPU has Neon.
        Isa::Neon => unsafe { neon::sum_values(control, n, data) },
        _ => (0, 0, 0),
    }
}

/// `pshufb`/`tbl` bytes that zero the u32 lanes from `r` on (high bit set),
/// or-ed into a `DECODE` row for a group of which only `r` values count.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static FIRST_LANES: crate::simd::Aligned<[[u8; 16]; 4]> = crate::simd::Aligned({
    let mut t = [[0u8; 16]; 4];
    let mut r = 0;
    while r < 4 {
        let mut i = 4 * r;
        while i < 16 {
            t[r][i] = 0x80;
            i += 1;
        }
        r += 1;
    }
    t
});

/// The summing of [`sum_values`], written once over [`Vector`]: each
/// group's bytes shuffled into its four values by its `DECODE` row, as
/// decoding does, and added, four groups at a time ([`four_groups`]), into
/// one accumulator (no prefix sum, no store); into a second, four groups
/// of one-byte values (a zero control u32) by their byte sums, and the
/// last group, when only some of its values count, with the other lanes
/// zeroed by its shuffle. It starts at group `g`, data byte `pos` (the
/// groups before summed elsewhere), and returns as [`sum_values`] does.
///
/// # Safety
/// The CPU supports `W`; `control.len() >= n.div_ceil(4)`; `pos` is the
/// data offset of group `g`, within `data`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
unsafe fn sum_values_with<W: Vector>(
    control: &[u8],
    n: usize,
    data: &[u8],
    (mut g, mut pos): (usize, usize),
) -> (usize, usize, u32) {
    debug_assert!(control.len() >= n.div_ceil(4));
    let whole = n / 4;
    // SAFETY: the CPU supports W.
    let (mut acc, mut acc2) = unsafe { (W::splat_u32(0), W::splat_u32(0)) };
    // Four groups a pass while their data (at most 64 bytes, or 16 bytes
    // of one-byte values) is all there.
    while g + 4 <= whole {
        let k: [u8; 4] = control[g..g + 4].try_into().expect("4 bytes");
        if k == [0; 4] && data.len() - pos >= 16 {
            // SAFETY: 16 bytes remain at `pos`; the CPU supports W.
            acc2 = unsafe { acc2.add_u32(W::load(data.as_ptr().add(pos)).sum_u8_lanes()) };
            pos += 16;
            g += 4;
            continue;
        }
        if data.len() - pos < 64 {
            break;
        }
        // SAFETY: the CPU supports W; 64 bytes remain at `pos`.
        let (sums, end) = unsafe { four_groups::<W>(data, k, pos) };
        // SAFETY: the CPU supports W.
        acc = unsafe { acc.add_u32(sums) };
        pos = end;
        g += 4;
    }
    while g < whole && data.len() - pos >= 16 {
        // SAFETY: the CPU supports W; 16 bytes remain at `pos`.
        acc = unsafe { acc.add_u32(group(data, control[g], pos)) };
        pos += length(control[g]);
        g += 1;
    }
    let mut done = 4 * g;
    let rest = n % 4;
    if g == whole && rest != 0 && data.len() - pos >= 16 {
        let c = control[g];
        // SAFETY: the CPU supports W; 16 bytes remain at `pos`, and
        // `FIRST_LANES[rest]` is 16 bytes.
        unsafe {
            let mask = row::<W, Codes1234>(usize::from(c)).or(W::load(FIRST_LANES[rest].as_ptr()));
            acc2 = acc2.add_u32(W::load(data.as_ptr().add(pos)).shuffle(mask));
        }
        done = n;
    }
    // SAFETY: the CPU supports W.
    let sum = unsafe { acc.add_u32(acc2).sum_u32() };
    (done, pos, sum)
}

/// The code of value `i`.
#[inline(always)]
fn code(control: &[u8], i: usize) -> usize {
    (control[i / 4] >> (2 * (i % 4)) & 3) as usize
}

/// The error when value `i` does not fit in `data`: the first value up to
/// `i` that is cut, as decoding the first `i + 1` values reports it.
#[cold]
pub(crate) fn truncated(control: &[u8], data_len: usize, clen: usize, i: usize) -> Error {
    let mut pos = 0;
    for k in 0..=i {
        let len = Codes1234::LENS[code(control, k)];
        if pos + len > data_len {
            return Error::Truncated {
                offset: clen + pos,
                needed: i + 1 - k,
                unit: Unit::Values,
            };
        }
        pos += len;
    }
    // Not reached: the caller found value `i` cut.
    Error::Truncated {
        offset: clen + pos,
        needed: 1,
        unit: Unit::Values,
    }
}

#[cfg(test)]
mod tests {
    use super::Forward;
    use crate::Isa;
    use crate::postings::tests::Rng;
    use crate::stream_vbyte::encode_delta_to_vec;

    /// Values read forward, targets passed below at random, at every
    /// level: each value given is the next of the stream not passed, and
    /// those passed are below the target; a stream cut short gives a prefix
    /// of them and ends.
    #[test]
    fn forward_gives_each_value_not_passed_below_a_target() {
        let mut rng = Rng(41);
        for _ in 0..400 {
            let n = rng.below(300) as usize;
            let prev = rng.below(1000) as u32;
            let mut values = Vec::with_capacity(n);
            let mut v = prev;
            for _ in 0..n {
                // Gaps of one to four bytes, runs of one-byte gaps among them.
                let bits = [0, 3, 7, 7, 7, 12, 20][rng.below(7) as usize];
                v += rng.below(1 << bits) as u32;
                values.push(v);
            }
            let bytes = encode_delta_to_vec(&values, prev);
            let cut = if rng.below(4) == 0 {
                rng.below(bytes.len() as u64 + 1) as usize
            } else {
                bytes.len()
            };
            for &isa in Isa::available() {
                let Some(mut f) = Forward::new(isa, &bytes[..cut], n, prev) else {
                    assert!(cut < n.div_ceil(4), "{isa:?}: control bytes whole");
                    continue;
                };
                let (mut at, mut target) = (0, 0);
                loop {
                    if rng.below(3) == 0 {
                        let ahead = at + rng.below(80) as usize;
                        target = target.max(values.get(ahead).map_or(u32::MAX, |&v| v + 1));
                        f.pass_below(target);
                    }
                    let Some(got) = f.next() else {
                        break;
                    };
                    let k = at
                        + values[at..]
                            .iter()
                            .position(|&x| x == got)
                            .unwrap_or_else(|| panic!("{isa:?}: {got} not after value {at}"));
                    assert!(
                        values[at..k].iter().all(|&x| x < target),
                        "{isa:?}: values {at}..{k} passed, target {target}"
                    );
                    at = k + 1;
                }
                if cut == bytes.len() {
                    assert!(
                        values[at..].iter().all(|&x| x < target),
                        "{isa:?}: ended at {at} of {n}"
                    );
                }
            }
        }
    }
}
