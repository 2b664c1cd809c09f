//! The fast decoding loop, written once over a [`Copier`] (the width of its
//! wild copies and how it starts an overlapping match), and the two portable
//! copiers, [`Copy8`] and [`Copy16`].
//!
//! The loop decodes whole sequences while the input holds a token and 16
//! bytes after it and the output has room for a sequence of short runs. It
//! reads where the next token is from a table it fills ahead, chunk by
//! chunk (see [`table_loop`]), rather than adding up the lengths of the
//! sequence before it. In each sequence:
//!
//! - literals: a run of up to 14 is copied as 16 bytes; a longer run in
//!   the copier's chunks, if the run plus 32 bytes fits both slices: up to
//!   [`MEDIUM`] bytes as [`MEDIUM`] bytes, with no loop and so no
//!   mispredicted loop exit (see [`copy_medium`]);
//! - match: if its offset is zero or reaches before the output, or the match
//!   plus one chunk does not fit the output, the loop stops;
//! - a match whose offset is at least the chunk width is copied in chunks
//!   (one of 19 to [`MEDIUM`] bytes as [`MEDIUM`] bytes, where the output
//!   has room);
//!   a closer one first gets one chunk of its pattern from the copier, then
//!   chunks from a distance that is a multiple of the offset (see
//!   [`tables`](super::tables)).
//!
//! Whenever it stops, it returns the start of the sequence it declined, both
//! in the input and in the output: the checked path decodes that sequence
//! again (or reports what is wrong with it). The chunks may write past the
//! end of a sequence, but never past the output slice, and those bytes are
//! overwritten by the sequences after; a match reads only bytes before its
//! own position, which this call wrote (or the caller's prefix holds).
//!
//! [`fast_loop_pair`] runs the same steps (one `sequence!`, written once,
//! which [`table_loop`] also runs for its long runs of literals) over two
//! blocks, a sequence of each in turn, without the table, and stops where
//! either block would stop; each block then goes on alone exactly as from
//! that point with [`fast_loop`], so the results, errors included, are
//! those of decoding each block by itself.

use core::mem::MaybeUninit;
use core::ptr;

use super::MINMATCH;
use super::tables::{DISTANCE_4, DISTANCE_8, DISTANCE_16, steps_of};

/// How a variant copies.
///
/// # Safety
/// Every method is `unsafe`: callers pass pointers valid for the bytes each
/// method names, and call them only where the CPU has the features the
/// implementation's intrinsics need (the kernel entry that instantiates
/// [`fast_loop`] enables them).
pub(super) trait Copier {
    /// Bytes of one wild copy.
    const W: usize;

    /// Copies `W` bytes from `src` to `dst`.
    ///
    /// # Safety
    /// `src` is readable and `dst` writable for `W` bytes, and the two ranges
    /// do not overlap.
    unsafe fn chunk(dst: *mut u8, src: *const u8);

    /// Writes the first `W` bytes of a match of offset `n` at `op`; returns
    /// the distance, a multiple of `n` and at least `W`, from which the rest
    /// is copied in chunks.
    ///
    /// # Safety
    /// `1 <= n < W`; `op - n .. op + W` is readable and `op .. op + W`
    /// writable, in one allocation.
    unsafe fn overlap(op: *mut u8, n: usize) -> usize;

    /// [`overlap`](Copier::overlap) where the 16 bytes before `op` are
    /// readable too: a copier that loads the pattern may load the bytes
    /// that end at `op` (see [`start_overlap`]). By default, the same.
    ///
    /// # Safety
    /// As [`overlap`](Copier::overlap), and `op - 16 .. op` readable.
    #[inline(always)]
    unsafe fn overlap_end(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract, a wider one than `overlap` asks.
        unsafe { Self::overlap(op, n) }
    }
}

/// Writes the first `C::W` bytes of a match of offset `n` at `dst`
/// ([`Copier::overlap`]); returns the copier's distance for the rest.
///
/// The bytes just before a match were written a moment ago, often by more
/// than one store (the literals' 16-byte copy, the end of the match or the
/// literals before), and a load across two stores is not forwarded from
/// the store buffer: it waits for both to reach the cache. A load of the
/// pattern from `op - n` that is wider than `n` reaches past `op` into the
/// literals' copy, this sequence's own store, whenever the pattern is
/// loaded; one that ends at `op` reads only stores before it, which have
/// had longer to leave. Long runs of short period (the byte planes of float
/// columns) start such a load every few sequences, so a copier is told,
/// where it is so (`back16`), that the 16 bytes before the match may be read.
///
/// # Safety
/// `1 <= n < C::W`; `dst - n .. dst + C::W` readable and `dst .. dst + C::W`
/// writable, in one allocation, and `dst - 16 .. dst` readable too if
/// `back16`; the CPU features of `C`.
#[inline(always)]
unsafe fn start_overlap<C: Copier>(dst: *mut u8, back16: bool, n: usize) -> usize {
    // SAFETY: the caller's contract; `overlap_end` only with `back16`.
    unsafe {
        if back16 {
            C::overlap_end(dst, n)
        } else {
            C::overlap(dst, n)
        }
    }
}

/// Wild copies of `N` bytes (8 or 16), plain copies the compiler turns into
/// one load and one store; overlapping matches start 4 + 4 (+ 8) bytes.
pub(super) struct Wild<const N: usize>;

/// Wild copies of 8 bytes.
pub(super) type Copy8 = Wild<8>;

/// Wild copies of 16 bytes.
pub(super) type Copy16 = Wild<16>;

impl<const N: usize> Copier for Wild<N> {
    const W: usize = N;

    #[inline(always)]
    unsafe fn chunk(dst: *mut u8, src: *const u8) {
        // SAFETY: the caller's contract: N readable, N writable, disjoint.
        unsafe { ptr::copy_nonoverlapping(src, dst, N) }
    }

    #[inline(always)]
    unsafe fn overlap(op: *mut u8, n: usize) -> usize {
        // SAFETY: the caller's contract, as `overlap_staged` asks it for N bytes.
        unsafe { overlap_staged::<N>(op, n) }
    }
}

/// Writes the first `N` bytes (8 or 16) of a match of offset `n`: 4 bytes
/// (one at a time when `n < 4`), then 4 and, for 16, 8 bytes from the
/// distances of [`tables`](super::tables). Returns the distance for the
/// chunks after.
///
/// # Safety
/// `N` is 8 or 16; `1 <= n < N`; `op - n .. op + N` is readable and
/// `op .. op + N` writable, in one allocation.
#[inline(always)]
unsafe fn overlap_staged<const N: usize>(op: *mut u8, n: usize) -> usize {
    // SAFETY: every read is at or after `op - n` and before the byte being
    // written, which is before `op + N`: inside the caller's range.
    // Each distance d satisfies d >= the chunk size (no overlap within a
    // copy) and d < k + n (the read starts after `op - n`).
    unsafe {
        if n < 4 {
            for i in 0..4 {
                *op.add(i) = *op.add(i).sub(n);
            }
        } else {
            ptr::copy_nonoverlapping(op.sub(n), op, 4);
        }
        let d4 = usize::from(DISTANCE_4[n]);
        ptr::copy_nonoverlapping(op.add(4).sub(d4), op.add(4), 4);
        let d8 = usize::from(DISTANCE_8[n]);
        if N == 8 {
            return d8;
        }
        ptr::copy_nonoverlapping(op.add(8).sub(d8), op.add(8), 8);
        usize::from(DISTANCE_16[n])
    }
}

/// Copies `len` bytes (rounded up to chunks) from `src` to `dst`.
///
/// # Safety
/// `src` readable and `dst` writable for `len` rounded up to a multiple of
/// `C::W` (at least one chunk), the two disjoint; the CPU features of `C`.
#[inline(always)]
unsafe fn wild<C: Copier>(dst: *mut u8, src: *const u8, len: usize) {
    let mut k = 0;
    loop {
        // SAFETY: k < len rounded up, so the chunk lies in the caller's ranges.
        unsafe { C::chunk(dst.add(k), src.add(k)) };
        k += C::W;
        if k >= len {
            break;
        }
    }
}

/// Copies a match of `len` bytes at offset `offset` to `out + op`.
///
/// # Safety
/// `1 <= offset <= op`; `out .. out + op + len + C::W` is writable (and
/// readable) in one allocation; the CPU features of `C`.
#[inline(always)]
unsafe fn copy_match<C: Copier>(out: *mut u8, op: usize, offset: usize, len: usize) {
    // SAFETY: all writes end before `op + len + W`; reads start at or after
    // `op - offset >= 0`, and each chunk reads from at least `W` bytes back
    // (offset >= W) or from a copy off the output, so source and
    // destination never overlap within a chunk.
    unsafe {
        let dst = out.add(op);
        if offset >= C::W {
            wild::<C>(dst, dst.sub(offset), len);
        } else {
            start_overlap::<C>(dst, op >= 16, offset);
            if len > C::W {
                // The match repeats every `offset` bytes, so its first W
                // bytes, stored every `step` bytes (a multiple of the offset,
                // at most W), write the rest. Stored from a copy of them,
                // each chunk waits for no store before it, where a copy from
                // the output just written would wait for the last one: long
                // runs (zeros, repeated values) go at the speed of stores.
                let step = usize::from(steps_of(C::W)[offset]);
                let mut first = [0u8; 32];
                ptr::copy_nonoverlapping(dst, first.as_mut_ptr(), C::W);
                let mut k = step;
                while k < len {
                    C::chunk(dst.add(k), first.as_ptr());
                    k += step;
                }
            }
        }
    }
}

/// The longest run of literals or match that [`copy_medium`] copies.
const MEDIUM: usize = 128;

/// Copies [`MEDIUM`] bytes from `src` to `dst` in chunks, without a loop
/// at run time: for a long run of literals or a long match (most are
/// shorter than this), whose chunk loop would end after one or two chunks
/// of 32, a branch that goes either way.
///
/// # Safety
/// `src .. src + MEDIUM` readable and `dst .. dst + MEDIUM` writable; the
/// source starts at least `C::W` bytes before the destination, or in
/// another allocation; the CPU features of `C`.
#[inline(always)]
unsafe fn copy_medium<C: Copier>(dst: *mut u8, src: *const u8) {
    let mut k = 0;
    while k < MEDIUM {
        // SAFETY: each chunk lies in the caller's ranges; a chunk of a
        // match reads from at least W back, so it does not overlap itself.
        unsafe { C::chunk(dst.add(k), src.add(k)) };
        k += C::W;
    }
}

/// Copies a match of at most [`SHORT_MATCH`] bytes at offset `offset` to
/// `out + op`, writing at most [`SHORT_WRITE`] bytes: copies of 8, 8 and 2
/// bytes when the offset is at least 8 (as liblz4 does: a third copy of 8
/// bytes, reading across more of the stores just made, measured slower),
/// else the copier's start of an overlapping match.
///
/// # Safety
/// `1 <= offset <= op`, `len <= SHORT_MATCH`; `out .. out + op +
/// SHORT_WRITE` is writable (and readable) in one allocation; the CPU
/// features of `C`.
#[inline(always)]
unsafe fn copy_short_match<C: Copier>(out: *mut u8, op: usize, offset: usize, len: usize) {
    debug_assert!(len <= SHORT_MATCH);
    // SAFETY: as in `copy_match`; writes end by op + 32 (8 + 8 + 2, or
    // an overlap start of W <= 32 bytes then chunks while k < len <= 18,
    // which for W = 8 ends at 24 and for W = 16 at 32).
    unsafe {
        let dst = out.add(op);
        if offset >= 8 {
            let src = dst.sub(offset);
            ptr::copy_nonoverlapping(src, dst, 8);
            ptr::copy_nonoverlapping(src.add(8), dst.add(8), 8);
            ptr::copy_nonoverlapping(src.add(16), dst.add(16), 2);
        } else {
            // Out of line: the copies above then fall through to the next
            // sequence, where this path in line made them jump over it.
            cold();
            let d = start_overlap::<C>(dst, op >= 16, offset);
            let mut k = C::W;
            while k < len {
                C::chunk(dst.add(k), dst.add(k).sub(d));
                k += C::W;
            }
        }
    }
}

/// The longest match a token codes without extension: 14 + MINMATCH.
const SHORT_MATCH: usize = 14 + MINMATCH;
/// Bytes copied for a run of at most 14 literals.
const SHORT_LITERALS: usize = 16;
/// The most bytes [`copy_short_match`] writes.
const SHORT_WRITE: usize = 32;

/// Marks the branch that calls it as rarely taken, so that the compiler
/// lays it out of the way of the common path (`core::hint::cold_path`, which
/// needs Rust 1.95).
#[cold]
#[inline]
fn cold() {}

/// Reads a length extension at `*ip`, adding to `len`; `None` when the input
/// ends first or the length passes `cap` (the fast loop then declines).
#[inline(always)]
fn extension(src: &[u8], ip: &mut usize, mut len: usize, cap: usize) -> Option<usize> {
    loop {
        let b = *src.get(*ip)?;
        *ip += 1;
        len += usize::from(b);
        if b != 255 {
            return Some(len);
        }
        if len > cap {
            return None;
        }
    }
}

/// Copies a match of `$len` bytes at offset `$offset` to the output at
/// `$op` (`$out`, `$out_len` bytes): as [`MEDIUM`] bytes when it is no
/// longer, the offset is at least the chunk width and the output has room,
/// else as [`copy_match`] does if the match plus one chunk fits the output;
/// if not, runs `$decline`, having copied nothing. The caller knows `1 <=
/// $offset <= $op <= $out_len`. A macro rather than a function returning
/// whether it copied: that function, the same steps, measured slower (the
/// loop's code moved).
macro_rules! long_match {
    ($C:ty, $out:expr, $out_len:expr, $op:expr, $offset:expr, $len:expr, $decline:expr) => {
        if $len <= MEDIUM && $offset >= <$C>::W && MEDIUM <= $out_len - $op {
            // SAFETY: W <= offset <= op and op + MEDIUM <= out_len: the reads
            // start at op - offset >= 0, the writes end by out_len.
            unsafe { copy_medium::<$C>($out.add($op), $out.add($op - $offset)) };
        } else {
            if $len + <$C>::W > $out_len - $op {
                $decline;
            }
            // SAFETY: 1 <= offset <= op, and op + len + W <= out_len
            // (checked).
            unsafe { copy_match::<$C>($out, $op, $offset, $len) };
        }
    };
}

/// One sequence of the fast loop: decodes the sequence at `$ip` of the
/// input (`$src`, `$inp` its pointer, `$in_len` its length) into the output
/// at `$op` (`$out`, `$out_len`), advancing both; when the loop declines the
/// sequence, puts `$ip` and `$op` back at its start and runs `$decline`.
/// Written once for [`fast_loop`] and [`fast_loop_pair`]; the caller checks
/// `$ip < $in_len - SHORT_LITERALS` and `$op + 14 + SHORT_WRITE <= $out_len`
/// first (the SAFETY comments' "loop condition") and has the CPU features
/// of `$C`.
macro_rules! sequence {
    (
        $C:ty,
        $src:expr, $inp:expr, $in_len:expr,
        $out:expr, $out_len:expr,
        $ip:ident, $op:ident,
        $decline:expr
    ) => {{
        let (seq_ip, seq_op) = ($ip, $op);
        // SAFETY: ip < in_len (the loop condition).
        let token = unsafe { *$inp.add($ip) };
        $ip += 1;
        let mut lit = usize::from(token >> 4);
        if lit != 15 {
            // SAFETY: ip + SHORT_LITERALS <= in_len and op + SHORT_LITERALS
            // <= out_len (the loop condition); input and output are distinct
            // slices.
            unsafe { ptr::copy_nonoverlapping($inp.add($ip), $out.add($op), SHORT_LITERALS) };
        } else {
            cold();
            let Some(n) = extension($src, &mut $ip, lit, $in_len) else {
                ($ip, $op) = (seq_ip, seq_op);
                $decline;
            };
            lit = n;
            if lit + 32 > $in_len - $ip || lit + SHORT_WRITE + <$C>::W > $out_len - $op {
                ($ip, $op) = (seq_ip, seq_op);
                $decline;
            }
            if lit <= MEDIUM && MEDIUM <= $in_len - $ip && MEDIUM <= $out_len - $op {
                // SAFETY: MEDIUM bytes fit both slices (just checked), which
                // are distinct.
                unsafe { copy_medium::<$C>($out.add($op), $inp.add($ip)) };
            } else {
                // SAFETY: the run plus one chunk fits both slices (checked).
                unsafe { wild::<$C>($out.add($op), $inp.add($ip), lit) };
            }
        }
        $ip += lit;
        $op += lit;
        // The offset's 2 bytes are inside the input: a short run leaves at
        // least SHORT_LITERALS - 14 bytes after it, a long one at least 32.
        // SAFETY: ip + 2 <= in_len, as said.
        let field = unsafe { ptr::read_unaligned($inp.add($ip).cast::<[u8; 2]>()) };
        let offset = usize::from(u16::from_le_bytes(field));
        $ip += 2;
        // offset == 0 or offset > op: the checked path names the error.
        if offset.wrapping_sub(1) >= $op {
            ($ip, $op) = (seq_ip, seq_op);
            $decline;
        }
        let len = usize::from(token & 15);
        if len != 15 {
            // SAFETY: 1 <= offset <= op; a short run leaves op + SHORT_WRITE
            // <= out_len by the loop condition, a long one by its check.
            unsafe { copy_short_match::<$C>($out, $op, offset, len + MINMATCH) };
            $op += len + MINMATCH;
        } else {
            cold();
            let Some(n) = extension($src, &mut $ip, len, $out_len) else {
                ($ip, $op) = (seq_ip, seq_op);
                $decline;
            };
            let len = n + MINMATCH;
            long_match!($C, $out, $out_len, $op, offset, len, {
                ($ip, $op) = (seq_ip, seq_op);
                $decline;
            });
            $op += len;
        }
    }};
}

/// The bounds of the fast loop for an input of `in_len` bytes and an
/// output of `out_len`: it runs while `ip < ip_limit` (`ip + SHORT_LITERALS
/// < in_len`) and `op <= op_limit` (`op + 14 + SHORT_WRITE <= out_len`);
/// `None` when the slices are too short for it to run at all.
#[inline(always)]
fn limits(in_len: usize, out_len: usize) -> Option<(usize, usize)> {
    let out_margin = 14 + SHORT_WRITE;
    if in_len <= SHORT_LITERALS || out_len < out_margin {
        return None;
    }
    Some((in_len - SHORT_LITERALS, out_len - out_margin))
}

/// Input bytes per chunk of the next-token table (8 KiB of table, which
/// stays in the L1 cache beside the data it describes).
const CHUNK: usize = 4096;

/// The most input bytes one pass of [`table_loop`] covers: its table holds
/// 16-bit positions, and a position's entry adds at most 18 to it.
const WINDOW: usize = 60 * 1024;

/// Decodes sequences from `src[ip..]` into `dst[op..]` while both have room
/// for wide copies; returns the input and output offsets of the first
/// sequence it did not decode. Matches may reach back into `dst[..op]`.
///
/// At the top of the loop the output has room for a whole sequence of
/// short literals (up to 14, copied as 16 bytes) and a short match
/// (up to 18, [`SHORT_WRITE`] bytes written); only longer runs check again.
///
/// The input goes to [`table_loop`] in windows of at most [`WINDOW`]
/// bytes, the positions of each counted from its start.
///
/// # Safety
/// The CPU has the features of `C`.
#[inline(always)]
pub(super) unsafe fn fast_loop<C: Copier>(
    src: &[u8],
    mut ip: usize,
    dst: &mut [u8],
    mut op: usize,
) -> (usize, usize) {
    if ip > src.len() || op > dst.len() {
        return (ip, op);
    }
    loop {
        // SAFETY: the caller's CPU features.
        let (wip, wop, more) = unsafe { table_loop::<C>(&src[ip..], dst, op) };
        (ip, op) = (ip + wip, wop);
        if !more {
            return (ip, op);
        }
    }
}

/// [`fast_loop`] over one window, `src` from the window's start (a token),
/// tokens at most [`WINDOW`] bytes in. Returns the input (in the window)
/// and output offsets where it stopped, and whether it stopped only at the
/// window's end.
///
/// Where the next sequence starts depends on this one's token: decoding one
/// sequence after another is a chain of loads, each address waiting on the
/// load before and on the arithmetic after it. This loop takes that
/// arithmetic out of the chain. For each [`CHUNK`] of input, it first fills
/// a table (a loop the compiler vectorizes) with, for every byte, where the
/// next sequence would start if that byte were a token of fewer than 15
/// literals and a match of fewer than 15 + 4 bytes: `k + 1 + (b >> 4) + 2`.
/// For such tokens (nearly all of them in text, most in other data), the
/// next token's place is then one load from the table. A longer run of
/// literals, or a longer match, computes it (the chain of the loop before
/// this one, liblz4's).
///
/// # Safety
/// The CPU has the features of `C`.
#[inline(always)]
unsafe fn table_loop<C: Copier>(src: &[u8], dst: &mut [u8], mut op: usize) -> (usize, usize, bool) {
    let mut ip = 0;
    let (in_len, out_len) = (src.len(), dst.len());
    let Some((ip_limit, op_limit)) = limits(in_len, out_len) else {
        return (ip, op, false);
    };
    let window = ip_limit > WINDOW;
    let ip_limit = ip_limit.min(WINDOW);
    let inp = src.as_ptr();
    let out = dst.as_mut_ptr();
    let mut table = [const { MaybeUninit::<u16>::uninit() }; CHUNK];
    while ip < ip_limit && op <= op_limit {
        let base = ip;
        let end = (base + CHUNK).min(in_len);
        // The entries, from base + 3 on; base < WINDOW, so no sum wraps.
        for (at, (t, &b)) in (base as u16 + 3..).zip(table.iter_mut().zip(&src[base..end])) {
            t.write(at + u16::from(b >> 4));
        }
        let lim = ip_limit.min(end);
        // Entry `ip` of the table, for base <= ip < end.
        let tbl = table.as_ptr().cast::<u16>().wrapping_sub(base);
        while ip < lim && op <= op_limit {
            let (seq_ip, seq_op) = (ip, op);
            // SAFETY: ip < in_len (the loop condition).
            let token = unsafe { *inp.add(ip) };
            // SAFETY: base <= ip < lim <= end: the loop above wrote it.
            let next = usize::from(unsafe { *tbl.wrapping_add(ip) });
            if token >= 0xf0 {
                cold();
                sequence!(C, src, inp, in_len, out, out_len, ip, op, {
                    return (ip, op, false);
                });
                continue;
            }
            let lit = usize::from(token >> 4);
            // SAFETY: ip + 1 + SHORT_LITERALS <= in_len and op +
            // SHORT_LITERALS <= out_len (the loop condition); input and
            // output are distinct slices.
            unsafe { ptr::copy_nonoverlapping(inp.add(ip + 1), out.add(op), SHORT_LITERALS) };
            op += lit;
            // SAFETY: ip + 1 + lit + 2 <= ip + 17 <= in_len, as above.
            let field = unsafe { ptr::read_unaligned(inp.add(ip + 1 + lit).cast::<[u8; 2]>()) };
            let offset = usize::from(u16::from_le_bytes(field));
            // offset == 0 or offset > op: the checked path names the error.
            if offset.wrapping_sub(1) >= op {
                return (seq_ip, seq_op, false);
            }
            let len = usize::from(token & 15);
            if len != 15 {
                // SAFETY: 1 <= offset <= op; op + SHORT_WRITE <= out_len by
                // the loop condition (op grew by at most 14).
                unsafe { copy_short_match::<C>(out, op, offset, len + MINMATCH) };
                op += len + MINMATCH;
                ip = next;
            } else {
                cold();
                ip += 3 + lit;
                let Some(n) = extension(src, &mut ip, len, out_len) else {
                    return (seq_ip, seq_op, false);
                };
                let len = n + MINMATCH;
                long_match!(C, out, out_len, op, offset, len, {
                    return (seq_ip, seq_op, false);
                });
                op += len;
            }
        }
        if op > op_limit {
            // The output ran out of room.
            return (ip, op, false);
        }
    }
    (ip, op, window && ip >= ip_limit && op <= op_limit)
}

/// [`fast_loop`] over two blocks at once, a sequence of each in turn, from
/// their starts: the two chains of loads (a token, its lengths, the next
/// token's place) run side by side, where one block's chain leaves the CPU
/// waiting. Stops when either block leaves the loop; returns where each got
/// to (the checked path and [`fast_loop`] finish them).
///
/// # Safety
/// The CPU has the features of `C`.
#[inline(always)]
pub(super) unsafe fn fast_loop_pair<C: Copier>(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    let ((a_src, a_dst), (b_src, b_dst)) = (a, b);
    let (a_in_len, a_out_len, b_in_len, b_out_len) =
        (a_src.len(), a_dst.len(), b_src.len(), b_dst.len());
    let (Some((a_ip_limit, a_op_limit)), Some((b_ip_limit, b_op_limit))) =
        (limits(a_in_len, a_out_len), limits(b_in_len, b_out_len))
    else {
        return ((0, 0), (0, 0));
    };
    let (a_inp, a_out) = (a_src.as_ptr(), a_dst.as_mut_ptr());
    let (b_inp, b_out) = (b_src.as_ptr(), b_dst.as_mut_ptr());
    let (mut a_ip, mut a_op, mut b_ip, mut b_op) = (0, 0, 0, 0);
    'pair: while a_ip < a_ip_limit && a_op <= a_op_limit && b_ip < b_ip_limit && b_op <= b_op_limit
    {
        sequence!(
            C,
            a_src,
            a_inp,
            a_in_len,
            a_out,
            a_out_len,
            a_ip,
            a_op,
            break 'pair
        );
        sequence!(
            C,
            b_src,
            b_inp,
            b_in_len,
            b_out,
            b_out_len,
            b_ip,
            b_op,
            break 'pair
        );
    }
    ((a_ip, a_op), (b_ip, b_op))
}

/// The [`Copy8`] loop.
pub(super) fn decode_copy8(src: &[u8], ip: usize, dst: &mut [u8], op: usize) -> (usize, usize) {
    // SAFETY: the dispatcher passes offsets inside the slices; Copy8 needs
    // no CPU feature.
    unsafe { fast_loop::<Copy8>(src, ip, dst, op) }
}

/// The [`Copy16`] loop.
pub(super) fn decode_copy16(src: &[u8], ip: usize, dst: &mut [u8], op: usize) -> (usize, usize) {
    // SAFETY: as for `decode_copy8`; Copy16 needs no CPU feature.
    unsafe { fast_loop::<Copy16>(src, ip, dst, op) }
}

/// The [`Copy8`] loop over two blocks.
pub(super) fn decode_pair_copy8(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: Copy8 needs no CPU feature.
    unsafe { fast_loop_pair::<Copy8>(a, b) }
}

/// The [`Copy16`] loop over two blocks.
pub(super) fn decode_pair_copy16(
    a: (&[u8], &mut [u8]),
    b: (&[u8], &mut [u8]),
) -> ((usize, usize), (usize, usize)) {
    // SAFETY: Copy16 needs no CPU feature.
    unsafe { fast_loop_pair::<Copy16>(a, b) }
}
