//! Decoding one frame on several threads, as c-blosc's `nthreads` does: a
//! frame of several blocks in runs of blocks, one run a thread; a frame of
//! one block (c-blosc's automatic block size makes a chunk of up to a few
//! MiB one block) with its LZ4 splits spread over the threads, then its
//! byte unshuffle in ranges of values. The result, errors included, is the
//! one-thread decoder's: a frame in which any check fails is decoded again
//! on one thread, which finds the error the one-thread decoder reports.
//!
//! The work runs on rayon's global pool, cut into `threads` pieces: a pool
//! kept from call to call, since spawning a thread costs about as much as
//! the share of a 1 MiB chunk it would take.
#![forbid(unsafe_code)]

use super::decode::{blocks, checked, read_i32};
use super::{
    DOBITSHUFFLE, DONT_SPLIT, DOSHUFFLE, HEADER_LEN, Header, MAX_SPLITS, MEMCPYED, MIN_BUFFERSIZE,
};
use crate::lz4::block;
use crate::{Error, Isa, bit_split, byte_split, scratch};

/// [`decompress_into`](super::decompress_into) on up to `threads`
/// threads: for a caller with spare cores and a large frame. `threads` of
/// 0 or 1, and frames too small to share, decode on the calling thread.
/// Output and errors are those of `decompress_into`.
///
/// ```
/// use vecpress::blosc::{self, Params, Shuffle};
/// let data: Vec<u8> = (0..1u32 << 18).flat_map(|v| (v / 5).to_le_bytes()).collect();
/// let frame = blosc::compress(&data, &Params::lz4(5, Shuffle::Byte, 4))?;
/// let mut out = vec![0u8; data.len()];
/// assert_eq!(blosc::decompress_into_threads(&frame, &mut out, 2)?, data.len());
/// assert_eq!(out, data);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn decompress_into_threads(
    frame: &[u8],
    out: &mut [u8],
    threads: usize,
) -> Result<usize, Error> {
    decompress_threads_with(
        crate::tune::isa(crate::tune::Op::Blosc),
        frame,
        out,
        threads,
    )
}

/// [`decompress_into_threads`] with the kernels of `isa`.
pub fn decompress_threads_with(
    isa: Isa,
    frame: &[u8],
    out: &mut [u8],
    threads: usize,
) -> Result<usize, Error> {
    let isa = isa.check()?;
    let h = checked(frame)?;
    if threads <= 1 || h.nbytes == 0 || h.flags & MEMCPYED != 0 {
        return super::decompress_with(isa, frame, out);
    }
    if out.len() < h.nbytes {
        return Err(Error::OutputTooSmall {
            needed: h.nbytes,
            actual: out.len(),
        });
    }
    let frame = &frame[..h.cbytes];
    let out = &mut out[..h.nbytes];
    let nblocks = h.nbytes.div_ceil(h.blocksize);
    if nblocks == 1 {
        one_block(isa, &h, frame, out, threads)?;
    } else {
        runs(isa, &h, frame, out, threads.min(nblocks))?;
    }
    Ok(h.nbytes)
}

/// Thread `t` of `threads` decodes blocks `[t n / T, (t + 1) n / T)`.
fn runs(isa: Isa, h: &Header, frame: &[u8], out: &mut [u8], threads: usize) -> Result<(), Error> {
    let nblocks = h.nbytes.div_ceil(h.blocksize);
    let mut runs = Vec::with_capacity(threads);
    let mut rest = out;
    let mut first = 0;
    for t in 0..threads {
        let end = (t + 1) * nblocks / threads;
        let len = ((end - first) * h.blocksize).min(rest.len());
        let (run, tail) = rest.split_at_mut(len);
        runs.push((first, run));
        rest = tail;
        first = end;
    }
    let results = share(runs, |(first, run)| blocks(isa, h, frame, run, first));
    // The runs are in block order, and each stops at its first bad block:
    // the first error is the one-thread decoder's.
    results.into_iter().collect()
}

/// `f` of each piece, in order: the first piece on the calling thread,
/// the others on the pool meanwhile (the caller working rather than waiting
/// for a pool thread to wake up for the first piece too).
fn share<P: Send, R: Send>(pieces: Vec<P>, f: impl Fn(P) -> R + Sync) -> Vec<R> {
    let mut pieces = pieces.into_iter();
    let Some(own) = pieces.next() else {
        return Vec::new();
    };
    let slots: Vec<std::sync::Mutex<Option<R>>> =
        pieces.len().checked_add(1).map_or(Vec::new(), |n| {
            (0..n).map(|_| std::sync::Mutex::new(None)).collect()
        });
    let (f, slots_ref) = (&f, &slots);
    rayon::in_place_scope(|s| {
        for (k, piece) in pieces.enumerate() {
            s.spawn(move |_| {
                let r = f(piece);
                *slots_ref[k + 1].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            });
        }
        let r = f(own);
        *slots_ref[0].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .expect("every piece ran")
        })
        .collect()
}

/// Where a split of the block is: stored raw at an offset of the frame, or
/// LZ4 data there.
#[derive(Clone, Copy)]
enum Part<'a> {
    Raw(usize),
    Lz4(&'a [u8]),
}

/// The frame's one block (all of `out`), its splits on `threads` threads.
fn one_block(
    isa: Isa,
    h: &Header,
    frame: &[u8],
    out: &mut [u8],
    threads: usize,
) -> Result<(), Error> {
    let bsize = out.len();
    let ts = h.typesize;
    let byte = h.flags & DOSHUFFLE != 0 && ts > 1;
    let bit = !byte && h.flags & DOBITSHUFFLE != 0 && bsize >= ts;
    let split = h.flags & DONT_SPLIT == 0 && ts <= MAX_SPLITS && bsize / ts >= MIN_BUFFERSIZE;
    // The leftover (a block shorter than the block size) is not split.
    let nsplits = if split && bsize == h.blocksize { ts } else { 1 };
    let Some(parts) = splits(frame, nsplits, bsize).filter(|_| nsplits > 1) else {
        return blocks(isa, h, frame, out, 0);
    };
    let neblock = bsize / nsplits;
    let copy_raw = |dst: &mut [u8]| {
        for (k, p) in parts.iter().enumerate() {
            if let Part::Raw(at) = *p {
                dst[k * neblock..(k + 1) * neblock].copy_from_slice(&frame[at..at + neblock]);
            }
        }
    };
    let ok = if !(byte || bit) {
        let ok = lz4_splits(isa, &parts, out, neblock, threads);
        if ok {
            copy_raw(out);
        }
        ok
    } else {
        scratch::with(2 * bsize, |buf| {
            let (tmp, bit_scratch) = buf.split_at_mut(bsize);
            if !lz4_splits(isa, &parts, tmp, neblock, threads) {
                return false;
            }
            if byte {
                // Raw parts are joined from the frame itself.
                let tmp: &[u8] = tmp;
                let mut streams = [&[][..]; MAX_SPLITS];
                for (k, s) in streams[..nsplits].iter_mut().enumerate() {
                    *s = match parts[k] {
                        Part::Raw(at) => &frame[at..at + neblock],
                        Part::Lz4(_) => &tmp[k * neblock..(k + 1) * neblock],
                    };
                }
                unshuffle(isa, &streams[..nsplits], out, threads);
            } else {
                // Bit shuffle reads the block whole: its raw parts in place first.
                copy_raw(tmp);
                let n = bsize / ts;
                if n.is_multiple_of(8) {
                    let w = n * ts;
                    bit_split::decode_block(
                        isa,
                        &tmp[..w],
                        ts,
                        &mut out[..w],
                        &mut bit_scratch[..w],
                    );
                    out[w..].copy_from_slice(&tmp[w..]);
                } else {
                    out.copy_from_slice(tmp);
                }
            }
            true
        })
    };
    if ok {
        Ok(())
    } else {
        // A bad split: the one-thread decoder finds it, and which error
        // comes first.
        blocks(isa, h, frame, out, 0)
    }
}

/// The `nsplits` splits of the frame's one block, if every size holds.
fn splits(frame: &[u8], nsplits: usize, bsize: usize) -> Option<Vec<Part<'_>>> {
    if nsplits == 0 || !bsize.is_multiple_of(nsplits) {
        return None;
    }
    let neblock = bsize / nsplits;
    let mut pos = read_i32(frame, HEADER_LEN)?;
    let mut parts = Vec::with_capacity(nsplits);
    for _ in 0..nsplits {
        let cbytes = read_i32(frame, pos)?;
        let data = pos.checked_add(4)?;
        let end = data.checked_add(cbytes).filter(|&e| e <= frame.len())?;
        parts.push(if cbytes == neblock {
            Part::Raw(data)
        } else {
            Part::Lz4(&frame[data..end])
        });
        pos = end;
    }
    Some(parts)
}

/// An LZ4 split and the part of the block it decodes into.
type Job<'a> = (&'a [u8], &'a mut [u8]);

/// Decodes the LZ4 splits into their parts of `unpacked` on up to
/// `threads` threads, each taking splits (the largest first, to the
/// thread with the least compressed bytes so far) and decoding them two
/// at a time; whether every split decoded to its full part.
fn lz4_splits(
    isa: Isa,
    parts: &[Part<'_>],
    unpacked: &mut [u8],
    neblock: usize,
    threads: usize,
) -> bool {
    let mut jobs: Vec<Job<'_>> = parts
        .iter()
        .zip(unpacked.chunks_exact_mut(neblock))
        .filter_map(|(p, dst)| match *p {
            Part::Lz4(src) => Some((src, dst)),
            Part::Raw(_) => None,
        })
        .collect();
    jobs.sort_by_key(|(src, _)| std::cmp::Reverse(src.len()));
    let threads = threads.min(jobs.len()).max(1);
    let mut shares: Vec<(usize, Vec<Job<'_>>)> = (0..threads).map(|_| (0, Vec::new())).collect();
    for job in jobs {
        let least = shares
            .iter_mut()
            .min_by_key(|(load, _)| *load)
            .expect("one share or more");
        least.0 += job.0.len();
        least.1.push(job);
    }
    let decode = move |share: Vec<Job<'_>>| {
        let mut ok = true;
        let mut it = share.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => {
                    let (x, y) = block::decompress_pair_with(isa, a, b);
                    ok &= x == Ok(neblock) && y == Ok(neblock);
                }
                None => ok &= block::decompress_with(isa, a.0, a.1) == Ok(neblock),
            }
        }
        ok
    };
    let shares: Vec<_> = shares.into_iter().map(|(_, jobs)| jobs).collect();
    share(shares, decode).into_iter().all(|ok| ok)
}

/// Joins the byte streams into `out` in ranges of values, one a thread.
fn unshuffle(isa: Isa, streams: &[&[u8]], out: &mut [u8], threads: usize) {
    let width = streams.len();
    let n = streams[0].len();
    // Ranges of whole vectors' worth of values, so that each thread's
    // kernel runs its wide loop.
    const ALIGN: usize = 64;
    let mut bounds: Vec<usize> = (0..=threads)
        .map(|t| (t * n / threads) / ALIGN * ALIGN)
        .collect();
    bounds[threads] = n;
    let mut pieces = Vec::with_capacity(threads);
    let mut rest = out;
    for t in 0..threads {
        let (a, b) = (bounds[t], bounds[t + 1]);
        let (piece, tail) = rest.split_at_mut((b - a) * width);
        rest = tail;
        if b > a {
            pieces.push((a, b, piece));
        }
    }
    let join_range = move |(a, b, piece): (usize, usize, &mut [u8])| {
        let mut sub = [&[][..]; MAX_SPLITS];
        for (s, stream) in sub.iter_mut().zip(streams) {
            *s = &stream[a..b];
        }
        byte_split::join_streams(isa, &sub[..width], piece);
    };
    share(pieces, join_range);
}
