//! `peer:bitshuffle`: Masui's bitshuffle C library (release 0.5.2, compiled
//! by build.rs from the sources that the `hdf5-bitshuffle` package ships),
//! one thread, against LZ4 1.10 of `lz4-sys`. Two rows:
//! - beside `bit-split`: `bshuf_bitshuffle` / `bshuf_bitunshuffle`, the
//!   transposition alone, in its default blocks as ours;
//! - `peer:bitshuffle-lz4`, beside `bit-split-lz4`: `bshuf_compress_lz4` /
//!   `bshuf_decompress_lz4`
//!   under the 12-byte header of the HDF5 filter 32008, which the filter
//!   writes around the library's blocks and the bench's frames carry.
//!
//! Both formats are shared, so each decodes the bytes vecpress wrote.
// Calls C: unsafe code, each call with its reasons.
#![allow(unsafe_code)]

use super::ByteSlot;

/// The row of the transposition; the LZ4 framing's is [`NAME_LZ4`], so
/// that a record tells the two apart.
const NAME: &str = "peer:bitshuffle";
const NAME_LZ4: &str = "peer:bitshuffle-lz4";

fn name(lz4: bool) -> &'static str {
    if lz4 { NAME_LZ4 } else { NAME }
}

/// The transposition alone, beside `bit-split`.
pub fn peer() -> ByteSlot {
    imp::slot(false)
}

/// Bit shuffle and LZ4 in the filter-32008 framing, beside `bit-split-lz4`.
pub fn peer_lz4() -> ByteSlot {
    imp::slot(true)
}

fn family(lz4: bool) -> &'static str {
    if lz4 { "bit-split-lz4" } else { "bit-split" }
}

#[cfg(not(all(feature = "peers", vecpress_bitshuffle_c)))]
mod imp {
    pub fn slot(lz4: bool) -> super::ByteSlot {
        let reason = match option_env!("VECPRESS_BITSHUFFLE_ABSENT") {
            Some(why) if cfg!(feature = "peers") => why.into(),
            _ => super::super::NO_FEATURE.into(),
        };
        Err(super::super::Absent {
            name: super::name(lz4),
            family: super::family(lz4),
            reason,
        })
    }
}

#[cfg(all(feature = "peers", vecpress_bitshuffle_c))]
mod imp {
    use super::super::{BytePeer, room};

    mod ffi {
        unsafe extern "C" {
            /// Bit-shuffles `size` elements of `elem_size` bytes from `input`
            /// into `out` in blocks of `block_size` elements (0: default);
            /// returns the bytes processed, or a negative error code.
            pub fn bshuf_bitshuffle(
                input: *const u8,
                out: *mut u8,
                size: usize,
                elem_size: usize,
                block_size: usize,
            ) -> i64;
            /// The inverse of `bshuf_bitshuffle`, same arguments.
            pub fn bshuf_bitunshuffle(
                input: *const u8,
                out: *mut u8,
                size: usize,
                elem_size: usize,
                block_size: usize,
            ) -> i64;
            /// Bit-shuffles and LZ4-compresses each block; returns the bytes
            /// written, or a negative error code.
            pub fn bshuf_compress_lz4(
                input: *const u8,
                out: *mut u8,
                size: usize,
                elem_size: usize,
                block_size: usize,
            ) -> i64;
            /// The inverse of `bshuf_compress_lz4`: writes `size` elements;
            /// returns the bytes read, or a negative error code.
            pub fn bshuf_decompress_lz4(
                input: *const u8,
                out: *mut u8,
                size: usize,
                elem_size: usize,
                block_size: usize,
            ) -> i64;
            /// The most bytes `bshuf_compress_lz4` writes.
            pub fn bshuf_compress_lz4_bound(
                size: usize,
                elem_size: usize,
                block_size: usize,
            ) -> usize;
        }
    }

    /// The filter-32008 header before the library's blocks.
    const HEADER: usize = 12;

    pub fn slot(lz4: bool) -> super::ByteSlot {
        Ok(Box::new(Bitshuffle { lz4 }))
    }

    /// `bshuf_bitshuffle` of `input` (whole values of `width` bytes) into
    /// the start of `out`, which must be as long; `None` on a bad length or
    /// an error code.
    pub fn bitshuffle(input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        let n = values(input.len(), width)?;
        if out.len() < input.len() {
            return None;
        }
        // SAFETY: the library reads `n * width = input.len()` bytes of
        // `input` and writes as many to `out`, which holds at least that.
        let r = unsafe { ffi::bshuf_bitshuffle(input.as_ptr(), out.as_mut_ptr(), n, width, 0) };
        (r == input.len() as i64).then_some(input.len())
    }

    /// `bshuf_bitunshuffle`, the inverse of [`bitshuffle`].
    pub fn bitunshuffle(input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        let n = values(input.len(), width)?;
        if out.len() < input.len() {
            return None;
        }
        // SAFETY: as in `bitshuffle`: `input.len()` bytes read, as many
        // written into `out`, which holds them.
        let r = unsafe { ffi::bshuf_bitunshuffle(input.as_ptr(), out.as_mut_ptr(), n, width, 0) };
        (r == input.len() as i64).then_some(input.len())
    }

    /// A filter-32008 frame of `input` (whole values of `width` bytes) by
    /// `bshuf_compress_lz4`, in its default blocks, into `out` (grown to
    /// the bound, never shrunk); returns its length.
    pub fn compress_lz4(input: &[u8], width: usize, out: &mut Vec<u8>) -> Option<usize> {
        let n = values(input.len(), width)?;
        // SAFETY: a pure function of its arguments.
        let bound = unsafe { ffi::bshuf_compress_lz4_bound(n, width, 0) };
        let block_bytes =
            u32::try_from(vecpress::bit_split::default_block_size(width) * width).ok()?;
        let out = room(out, HEADER + bound);
        out[..8].copy_from_slice(&(input.len() as u64).to_be_bytes());
        out[8..HEADER].copy_from_slice(&block_bytes.to_be_bytes());
        let body = &mut out[HEADER..];
        // SAFETY: the library reads `input.len()` bytes of `input` and
        // writes at most `bshuf_compress_lz4_bound` bytes, which `body` holds.
        let r = unsafe { ffi::bshuf_compress_lz4(input.as_ptr(), body.as_mut_ptr(), n, width, 0) };
        usize::try_from(r).ok().map(|r| HEADER + r)
    }

    /// Decodes a filter-32008 frame of values of `width` bytes that fills
    /// `out` exactly by `bshuf_decompress_lz4`; returns the bytes written.
    /// The library does not know the input's length and trusts the block
    /// sizes it reads, so they are checked first (see [`walk`]).
    pub fn decompress_lz4(input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
        let n = values(out.len(), width)?;
        let total = u64::from_be_bytes(input.get(..8)?.try_into().ok()?);
        let block_bytes = u32::from_be_bytes(input.get(8..HEADER)?.try_into().ok()?) as usize;
        if total != out.len() as u64 || block_bytes == 0 || !block_bytes.is_multiple_of(8 * width) {
            return None;
        }
        let block = block_bytes / width;
        walk(&input[HEADER..], n, width, block)?;
        // SAFETY: `walk` checked that the blocks and the leftover values the
        // library reads for `n` values in blocks of `block` all lie within
        // `input[HEADER..]`; LZ4 decodes each block with the safe decoder
        // bounded by its size; the library writes `n * width = out.len()`
        // bytes to `out`.
        let r = unsafe {
            ffi::bshuf_decompress_lz4(input[HEADER..].as_ptr(), out.as_mut_ptr(), n, width, block)
        };
        (r == (input.len() - HEADER) as i64).then_some(out.len())
    }

    /// Whether the blocks that `bshuf_decompress_lz4` reads for `n` values
    /// of `width` bytes in blocks of `block` values fit in `body` exactly:
    /// each block's 4-byte big-endian size (below 2^31, as the library
    /// reads it as an `int32_t`) and its bytes, then the `n % 8` leftover
    /// values.
    fn walk(body: &[u8], n: usize, width: usize, block: usize) -> Option<()> {
        let last = n % block / 8 * 8;
        let count = n / block + usize::from(last > 0);
        let mut at = 0usize;
        for _ in 0..count {
            let size = u32::from_be_bytes(body.get(at..at + 4)?.try_into().ok()?);
            if size >= 1 << 31 {
                return None;
            }
            at = at.checked_add(4 + size as usize)?;
        }
        (at.checked_add(n % 8 * width)? == body.len()).then_some(())
    }

    /// The number of values of `width` bytes in `len` bytes, if whole.
    fn values(len: usize, width: usize) -> Option<usize> {
        (width > 0 && len.is_multiple_of(width)).then_some(len / width)
    }

    struct Bitshuffle {
        lz4: bool,
    }

    impl BytePeer for Bitshuffle {
        fn name(&self) -> &'static str {
            super::name(self.lz4)
        }

        fn family(&self) -> &'static str {
            super::family(self.lz4)
        }

        fn encode(&self, input: &[u8], width: usize, out: &mut Vec<u8>) -> Option<usize> {
            if self.lz4 {
                compress_lz4(input, width, out)
            } else {
                bitshuffle(input, width, room(out, input.len()))
            }
        }

        fn decode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Option<usize> {
            if self.lz4 {
                decompress_lz4(input, width, out)
            } else {
                bitunshuffle(input, width, out)
            }
        }

        fn note(&self) -> Option<String> {
            let calls = if self.lz4 {
                "bshuf_compress_lz4 / bshuf_decompress_lz4 under the filter-32008 header, \
                 LZ4 of lz4-sys"
            } else {
                "bshuf_bitshuffle / bshuf_bitunshuffle"
            };
            Some(format!(
                "bitshuffle 0.5.2 C ({}), one thread: {calls}",
                env!("VECPRESS_BITSHUFFLE_CFLAGS")
            ))
        }
    }
}

/// Byte compatibility with the C library, both ways: the transposition at
/// every width 1 to 16 and some larger, on value counts that are not
/// multiples of 8 and that span several default blocks; the LZ4 frames
/// each side writes decode on the other.
#[cfg(all(test, feature = "peers", vecpress_bitshuffle_c))]
mod tests {
    use super::imp::{bitshuffle, bitunshuffle, compress_lz4, decompress_lz4};
    use vecpress::bit_split;

    /// `n` values of `width` bytes: slowly varying low bytes (so LZ4 finds
    /// matches), noise in some positions.
    fn values(n: usize, width: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n * width)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let (v, j) = (i / width, i % width);
                if j == 0 {
                    (v / 3) as u8
                } else if j % 3 == 1 {
                    x as u8
                } else {
                    (v >> 9) as u8
                }
            })
            .collect()
    }

    const WIDTHS: [usize; 21] = [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 24, 32, 33, 64, 255,
    ];

    /// Counts around 8 and around the default block (8 KiB of values) and
    /// past it, most not multiples of 8.
    fn counts(width: usize) -> Vec<usize> {
        let block = bit_split::default_block_size(width);
        vec![
            0,
            1,
            7,
            8,
            9,
            63,
            1001,
            block - 1,
            block + 5,
            2 * block + 8,
            3 * block + 13,
        ]
    }

    #[test]
    fn bit_shuffle_matches_the_c_library_both_ways() {
        for width in WIDTHS {
            for n in counts(width) {
                let input = values(n, width, (n * 31 + width) as u64);
                let mut ours = vec![0u8; input.len()];
                let mut theirs = vec![0u8; input.len()];
                bit_split::encode(&input, width, &mut ours).unwrap();
                assert_eq!(bitshuffle(&input, width, &mut theirs), Some(input.len()));
                assert!(
                    ours == theirs,
                    "width {width}, {n} values: transposed bytes differ"
                );
                let mut back = vec![0u8; input.len()];
                assert_eq!(bitunshuffle(&ours, width, &mut back), Some(input.len()));
                assert!(
                    back == input,
                    "width {width}, {n} values: C does not undo ours"
                );
                back.fill(0);
                bit_split::decode(&theirs, width, &mut back).unwrap();
                assert!(
                    back == input,
                    "width {width}, {n} values: we do not undo C's"
                );
            }
        }
    }

    #[test]
    fn lz4_frames_decode_on_the_other_side() {
        for width in WIDTHS {
            for n in counts(width) {
                let input = values(n, width, (n * 17 + width) as u64);
                let ours = bit_split::compress_lz4_to_vec(&input, width, 0).unwrap();
                let mut back = vec![0u8; input.len()];
                assert_eq!(
                    decompress_lz4(&ours, width, &mut back),
                    Some(input.len()),
                    "width {width}, {n} values: C does not decode our frame"
                );
                assert!(
                    back == input,
                    "width {width}, {n} values: C decodes ours wrong"
                );
                let mut theirs = Vec::new();
                let len = compress_lz4(&input, width, &mut theirs).unwrap();
                assert_eq!(
                    theirs[..12],
                    ours[..12],
                    "width {width}, {n} values: headers"
                );
                back.fill(0);
                assert_eq!(
                    bit_split::decompress_lz4(&theirs[..len], width, &mut back),
                    Ok(input.len()),
                    "width {width}, {n} values: we do not decode C's frame"
                );
                assert!(
                    back == input,
                    "width {width}, {n} values: we decode C's wrong"
                );
            }
        }
    }

    /// The walk refuses what would send the library outside the input: a
    /// block size past the end, a frame cut short or with bytes left over.
    #[test]
    fn decode_refuses_frames_the_library_would_overrun() {
        let input = values(5000, 4, 9);
        let frame = bit_split::compress_lz4_to_vec(&input, 4, 0).unwrap();
        let mut out = vec![0u8; input.len()];
        assert_eq!(decompress_lz4(&frame, 4, &mut out), Some(input.len()));
        assert_eq!(decompress_lz4(&frame[..frame.len() - 1], 4, &mut out), None);
        let mut longer = frame.clone();
        longer.push(0);
        assert_eq!(decompress_lz4(&longer, 4, &mut out), None);
        let mut huge = frame.clone();
        huge[12..16].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(decompress_lz4(&huge, 4, &mut out), None);
        assert_eq!(decompress_lz4(&frame, 4, &mut out[..16]), None);
    }
}

/// In CI, where `cargo fetch` has put the sources on disk, the peer is
/// built: the compatibility tests above cannot vanish unnoticed.
#[cfg(all(test, feature = "peers", target_arch = "x86_64"))]
mod presence {
    #[test]
    fn built_in_ci() {
        if std::env::var_os("CI").is_none_or(|v| v.is_empty()) {
            return;
        }
        for slot in [super::peer(), super::peer_lz4()] {
            if let Err(absent) = slot {
                panic!("{} absent in CI: {}", absent.name, absent.reason);
            }
        }
    }
}
