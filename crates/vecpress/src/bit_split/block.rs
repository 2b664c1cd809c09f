//! One block bit-shuffled or unshuffled: the kernel of the level in one
//! pass, or, with GFNI at the AVX-512 level, by byte splits and one
//! `gf2p8affineqb` per word.

#[cfg(target_arch = "x86_64")]
use super::avx512;
use super::{Kernels, scalar};
use crate::{Isa, byte_split};

/// Bit-shuffles one block of `n` values, `n` a multiple of 8 (`input`,
/// `out` and `scratch` are all `n * width` bytes long).
pub(crate) fn encode_block(
    isa: Isa,
    input: &[u8],
    width: usize,
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let one_pass = crate::tune::bit_split_one_pass();
    encode_block_in(isa, one_pass, input, width, out, scratch);
}

/// [`encode_block`] in the one-pass GFNI form or not (where `isa` has it
/// at all: see [`crate::tune::bit_split_one_pass`]).
pub(super) fn encode_block_in(
    isa: Isa,
    gfni_one_pass: bool,
    input: &[u8],
    width: usize,
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let n = input.len() / width;
    if gfni_one_pass && gfni(isa) && matches!(width, 1 | 2 | 4 | 8) {
        let done = one_pass_gfni::<true>(isa, input, width, out);
        return scalar::encode_columns(input, width, out, done);
    }
    if gfni(isa) {
        let _ = byte_split::encode_with(isa, input, width, scratch);
        transpose_words(isa, scratch);
        for (s, o) in scratch.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
            let _ = byte_split::encode_with(isa, s, 8, o);
        }
        return;
    }
    let Some(k) = Kernels::of(isa) else {
        return scalar::encode_block(input, width, out);
    };
    if width == 1 {
        k.stream_to_rows(input, out);
    } else if one_pass(isa, width) {
        k.values_to_rows(input, width, out);
    } else {
        let _ = byte_split::encode_with(isa, input, width, scratch);
        for (s, o) in scratch.chunks_exact(n).zip(out.chunks_exact_mut(n)) {
            k.stream_to_rows(s, o);
        }
    }
}

/// Undoes [`encode_block`].
pub(crate) fn decode_block(
    isa: Isa,
    input: &[u8],
    width: usize,
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let one_pass = crate::tune::bit_split_one_pass();
    decode_block_in(isa, one_pass, input, width, out, scratch);
}

/// Undoes [`encode_block_in`].
pub(super) fn decode_block_in(
    isa: Isa,
    gfni_one_pass: bool,
    input: &[u8],
    width: usize,
    out: &mut [u8],
    scratch: &mut [u8],
) {
    let n = input.len() / width;
    if gfni_one_pass && gfni(isa) && matches!(width, 1 | 2 | 4 | 8) {
        let done = one_pass_gfni::<false>(isa, input, width, out);
        return scalar::decode_columns(input, width, out, done);
    }
    if gfni(isa) {
        for (i, s) in input.chunks_exact(n).zip(scratch.chunks_exact_mut(n)) {
            let _ = byte_split::decode_with(isa, i, 8, s);
        }
        transpose_words(isa, scratch);
        let _ = byte_split::decode_with(isa, scratch, width, out);
        return;
    }
    let Some(k) = Kernels::of(isa) else {
        return scalar::decode_block(input, width, out);
    };
    if width == 1 {
        k.rows_to_stream(input, out);
    } else if one_pass(isa, width) {
        k.rows_to_values(input, width, out);
    } else {
        for (i, s) in input.chunks_exact(n).zip(scratch.chunks_exact_mut(n)) {
            k.rows_to_stream(i, s);
        }
        let _ = byte_split::decode_with(isa, scratch, width, out);
    }
}

/// Whether values of `width` bytes go to and from their bit rows in one
/// pass (`Kernels::rows_to_values`, `values_to_rows`) rather than through
/// byte split in a second. Widths 2, 4 and 8 have one-pass kernels; at the
/// Sse41 level widths 4 and 8 take two passes, since their 32 and 64
/// registers of streams spill from the 16 that SSE has (`perf/amd-25-1.md`,
/// "Bit split").
fn one_pass(isa: Isa, width: usize) -> bool {
    width == 2 || (matches!(width, 4 | 8) && isa != Isa::Sse41)
}

/// Whether `isa` transposes in three passes with GFNI (the Avx512 level on
/// a CPU that has it) rather than in the one-pass kernels of `generic.rs`.
fn gfni(isa: Isa) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 {
        return avx512::has_gfni();
    }
    let _ = isa;
    false
}

/// The columns of each row that a step of the one-pass GFNI kernels takes.
const GFNI_STEP: usize = 16;

/// Decodes the bit rows `from` into values of `width` = 1, 2, 4 or 8
/// bytes in `to` (`avx512::rows_to_values_gfni`), or when `ENCODE` the
/// values `from` into their rows (`avx512::values_to_rows_gfni`), in one pass
/// with GFNI at the Avx512 level; returns the columns done (all of them,
/// or none where the CPU or level has no such kernel), which the scalar
/// code finishes.
fn one_pass_gfni<const ENCODE: bool>(isa: Isa, from: &[u8], width: usize, to: &mut [u8]) -> usize {
    let f = |i: &[u8], o: &mut [u8]| gfni_steps::<ENCODE>(isa, i, width, o);
    in_steps(ENCODE, width, GFNI_STEP, from, to, f)
}

/// The bytes of [`in_steps`]'s copies: a step of the widest kernels
/// (32 columns at AVX2) on the widest values a kernel takes (8 bytes).
const PADDED: usize = 8 * 8 * 32;

/// Runs a kernel of whole steps of `step` columns over `8 width` bit rows
/// of `r` columns and their `8 r` values (or byte stream, `width` 1), then
/// once more on zero-padded copies of the columns its steps left, of which
/// the columns wanted are copied out. `from` is the values when `encode`,
/// else the rows. Returns the columns done: all of them, or what the
/// whole steps did where the kernel does not take the padded step (a
/// width it has no kernel for). The scalar code finishes the rest; it runs
/// at a few percent of the kernels' speed, and on a small input a last
/// block's columns left over by the steps had taken as long as all the
/// rest.
pub(super) fn in_steps(
    encode: bool,
    width: usize,
    step: usize,
    from: &[u8],
    to: &mut [u8],
    kernel: impl Fn(&[u8], &mut [u8]) -> usize,
) -> usize {
    let done = kernel(from, to);
    let r = from.len() / (8 * width);
    let left = r - done;
    if left == 0 || left >= step {
        return done;
    }
    // The copies are zeroed first, so they are no larger than the step:
    // a step of 8 rows (width 1) or of the widest values.
    let bytes = 8 * width * step;
    let took = if bytes <= PADDED / 8 {
        padded::<{ PADDED / 8 }>(encode, width, step, from, to, done, &kernel)
    } else {
        bytes <= PADDED && padded::<PADDED>(encode, width, step, from, to, done, &kernel)
    };
    if took { r } else { done }
}

/// The padded step of [`in_steps`] on copies of `N` bytes (at least the
/// step's); whether the kernel took it.
fn padded<const N: usize>(
    encode: bool,
    width: usize,
    step: usize,
    from: &[u8],
    to: &mut [u8],
    done: usize,
    kernel: &impl Fn(&[u8], &mut [u8]) -> usize,
) -> bool {
    let r = from.len() / (8 * width);
    let left = r - done;
    let bytes = 8 * width * step;
    let mut pad_from = [0u8; N];
    let mut pad_to = [0u8; N];
    let (pad_from, pad_to) = (&mut pad_from[..bytes], &mut pad_to[..bytes]);
    if encode {
        pad_from[..8 * width * left].copy_from_slice(&from[8 * width * done..8 * width * r]);
    } else {
        for (i, row) in pad_from.chunks_exact_mut(step).enumerate() {
            row[..left].copy_from_slice(&from[i * r + done..i * r + r]);
        }
    }
    if kernel(pad_from, pad_to) != step {
        return false;
    }
    if encode {
        for (i, row) in pad_to.chunks_exact(step).enumerate() {
            to[i * r + done..i * r + r].copy_from_slice(&row[..left]);
        }
    } else {
        to[8 * width * done..8 * width * r].copy_from_slice(&pad_to[..8 * width * left]);
    }
    true
}

/// The whole steps of [`one_pass_gfni`]: the columns done, 0 where the
/// CPU or level has no such kernel.
fn gfni_steps<const ENCODE: bool>(isa: Isa, from: &[u8], width: usize, to: &mut [u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if isa == Isa::Avx512 && avx512::has_gfni() {
        use avx512::{rows_to_values_gfni as decode, values_to_rows_gfni as encode};
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or
        // `tune::isa()`, so the CPU has every feature of the Avx512 level;
        // `has_gfni` checked GFNI here; `to` is as long as `from` (the
        // callers' chunks).
        return unsafe {
            match (ENCODE, width) {
                (false, 1) => decode::<1>(from, to),
                (false, 2) => decode::<2>(from, to),
                (false, 4) => decode::<4>(from, to),
                (false, 8) => decode::<8>(from, to),
                (true, 1) => encode::<1>(from, to),
                (true, 2) => encode::<2>(from, to),
                (true, 4) => encode::<4>(from, to),
                (true, 8) => encode::<8>(from, to),
                _ => 0,
            }
        };
    }
    let _ = (isa, from, width, to);
    0
}

/// Transposes every 8-byte word of `buf` (a multiple of 8 bytes long):
/// with GFNI a register at a time, the rest in scalar code.
fn transpose_words(isa: Isa, buf: &mut [u8]) {
    let done = match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `isa` came from `Isa::best()`, `Isa::check()` or `tune::isa()`, so the CPU
        // has every feature of the Avx512 level; `has_gfni` checked GFNI
        // here, where the soundness is argued, not only in the caller.
        Isa::Avx512 if avx512::has_gfni() => unsafe { avx512::transpose_gfni(buf) },
        _ => 0,
    };
    scalar::transpose_words(buf, done);
}
