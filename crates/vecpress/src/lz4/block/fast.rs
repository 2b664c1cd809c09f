//! The fast decoding loop, written once over a [`Copier`] (the width of its
//! wild copies and how it starts an overlapping match: `copier.rs`, with the
//! two portable copiers, [`Copy8`] and [`Copy16`]).
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
pub(super) use super::copier::{Copier, Copy8, Copy16};
use super::copier::{
    MEDIUM, SHORT_LITERALS, SHORT_WRITE, cold, copy_match, copy_medium, copy_short_match, wild,
};

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
/// whether it copied, so that `$decline` (a `return`, or a `break` out of
/// the pair loop) acts in the loop itself, with no flag to return and
/// test, and the steps stay in the loop's own code.
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
