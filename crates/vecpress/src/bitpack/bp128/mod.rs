//! SIMD-BP128 (Lemire and Boytsov, "Decoding billions of integers per second
//! through vectorization", 2015): blocks of 128 u32 packed in the width of
//! the block's largest value, four lanes interleaved so that one SIMD
//! register unpacks four values at a time; or blocks of 256 in eight lanes
//! for 256-bit registers.
//!
//! The bytes are those of the `bitpacking` crate (a port of simdcomp):
//! [`Lanes::X4`] is its `BitPacker4x`, [`Lanes::X8`] its `BitPacker8x`, both
//! ways, plain ([`pack`], [`unpack`]) and sorted ([`pack_sorted`],
//! [`unpack_sorted`]: each value stored as its gap to the one before it,
//! the first one's to an `initial` value the caller keeps).
//!
//! # Layout of one block (`L` lanes, width `W`)
//!
//! ```text
//! values:  v0 v1 .. v(L-1) | vL .. v(2L-1) | ... | 32 vectors of L values
//! lane j holds v(j), v(L+j), v(2L+j), ..., v(31L+j): value i of the lane
//!     at bits iW .. iW+W of the lane's W words (crossing a word's end
//!     into the next word's low bits)
//! bytes:   word 0 of lanes 0..L | word 1 of lanes 0..L | ... | word W-1
//!          (u32 little-endian): 4 W L bytes, 16 W for X4 and 32 W for X8
//! ```
//!
//! A block is always whole, and its width travels beside it: a packed block
//! has no header. The stream functions ([`encode`], [`decode`],
//! [`encode_delta`], [`decode_delta`]: the registry's `bp128` and
//! `bp128-delta`) store any number of values as width-prefixed blocks and a
//! VByte tail.
//!
//! ```
//! use vecpress::bitpack::bp128::{self, Lanes};
//! let values: Vec<u32> = (0..128).map(|i| i * 7 % 100).collect();
//! let width = bp128::width(Lanes::X4, &values)?;
//! assert_eq!(width, 7);
//! let mut packed = vec![0u8; Lanes::X4.packed_len(width)];
//! assert_eq!(bp128::pack(Lanes::X4, &values, width, &mut packed)?, 16 * 7);
//! let mut out = [0u32; 128];
//! bp128::unpack(Lanes::X4, &packed, width, &mut out)?;
//! assert_eq!(out[..], values[..]);
//! # Ok::<(), vecpress::Error>(())
//! ```

/// `$body` 16 times, with `$g` a constant 0..16 in each, so that every
/// step's words and shifts are constants where they are used (LLVM leaves
/// a loop over sixteen steps rolled, and the tables then go through
/// registers): the steps of the AVX2 and AVX-512 kernels.
#[cfg(target_arch = "x86_64")]
macro_rules! unroll16 {
    ($g:ident => $body:block) => {
        unroll16!(@each $g, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@each $g:ident, $body:block; $($n:literal)*) => {
        $({
            const $g: usize = $n;
            $body
        })*
    };
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod generic;
mod select;
mod stream;

pub use select::{select, select_sorted};
pub use stream::{
    DeltaCursor, decode, decode_delta, decode_delta_to_vec, decode_delta_with, decode_to_vec,
    decode_with, encode, encode_delta, encode_delta_to_vec, encode_to_vec, max_encoded_len,
    search_delta,
};

use crate::tune::Op;
use crate::{Error, Isa};

/// The widest a value can be: 32 bits.
pub const MAX_WIDTH: u8 = 32;

/// How many lanes a block is interleaved in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lanes {
    /// Four lanes, 128 values a block: `bitpacking::BitPacker4x`, one
    /// 128-bit register.
    X4,
    /// Eight lanes, 256 values a block: `bitpacking::BitPacker8x`, one
    /// 256-bit register.
    X8,
}

impl Lanes {
    /// Lanes in a block.
    pub const fn count(self) -> usize {
        match self {
            Lanes::X4 => 4,
            Lanes::X8 => 8,
        }
    }

    /// Values in a block: 128 or 256.
    pub const fn block_len(self) -> usize {
        generic::PER_LANE * self.count()
    }

    /// Bytes of a block packed at `width` bits: `4 * width * lanes`.
    pub const fn packed_len(self, width: u8) -> usize {
        4 * width as usize * self.count()
    }
}

/// The bits the largest of the block's `values` needs (0 when all are 0).
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// assert_eq!(bp128::width(Lanes::X4, &[5; 128]), Ok(3));
/// ```
pub fn width(lanes: Lanes, values: &[u32]) -> Result<u8, Error> {
    block(lanes, values)?;
    Ok(widest::<false>(lanes, values, 0))
}

/// The bits the largest gap of the sorted block `values` needs, the first
/// gap being to `initial` (gaps are wrapping differences, so a block that
/// is not sorted still packs and unpacks exactly, only wider).
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let values: Vec<u32> = (0..128).map(|i| 1000 + 3 * i).collect();
/// assert_eq!(bp128::width_sorted(Lanes::X4, 1000, &values), Ok(2));
/// ```
pub fn width_sorted(lanes: Lanes, initial: u32, values: &[u32]) -> Result<u8, Error> {
    block(lanes, values)?;
    Ok(widest::<true>(lanes, values, initial))
}

/// Packs the block `values` (128 or 256 of them, as `lanes` says) in
/// `width` bits each into `out`; returns the bytes written,
/// [`Lanes::packed_len`]. `Err(InvalidArgument)` when a value needs more
/// bits than `width` (see [`width`]), or the block or width is not one.
pub fn pack(lanes: Lanes, values: &[u32], width: u8, out: &mut [u8]) -> Result<usize, Error> {
    pack_impl::<false>(Isa::best(), lanes, 0, values, width, out)
}

/// [`pack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
pub fn pack_with(
    isa: Isa,
    lanes: Lanes,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<false>(isa.check()?, lanes, 0, values, width, out)
}

/// Packs the gaps of the sorted block `values`, the first one's to
/// `initial`, in `width` bits each ([`width_sorted`]); returns the bytes
/// written.
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// let docs: Vec<u32> = (0..128).map(|i| 5000 + 9 * i + i % 3).collect();
/// let width = bp128::width_sorted(Lanes::X4, 4990, &docs)?;
/// let mut packed = vec![0u8; Lanes::X4.packed_len(width)];
/// bp128::pack_sorted(Lanes::X4, 4990, &docs, width, &mut packed)?;
/// let mut out = [0u32; 128];
/// bp128::unpack_sorted(Lanes::X4, 4990, &packed, width, &mut out)?;
/// assert_eq!(out[..], docs[..]);
/// # Ok::<(), vecpress::Error>(())
/// ```
pub fn pack_sorted(
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<true>(Isa::best(), lanes, initial, values, width, out)
}

/// [`pack_sorted`] with the kernel of `isa`; `Err(Unsupported)` if the CPU
/// lacks it.
pub fn pack_sorted_with(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    pack_impl::<true>(isa.check()?, lanes, initial, values, width, out)
}

/// Unpacks one block of `width`-bit values from the start of `input` into
/// the first 128 or 256 values of `out`; returns the bytes read,
/// [`Lanes::packed_len`]. Every bit pattern is a valid block: only a short
/// `input` (`Truncated`), a short `out` or a width above 32 is an error.
/// Four lanes unpack at the level this CPU's profile (`tune`) chooses for
/// `bp128` streams, and sorted ones at `bp128-delta`'s.
pub fn unpack(lanes: Lanes, input: &[u8], width: u8, out: &mut [u32]) -> Result<usize, Error> {
    unpack_impl::<false>(default_level(lanes, Op::Bp128), lanes, 0, input, width, out)
}

/// [`unpack`] with the kernel of `isa`; `Err(Unsupported)` if the CPU lacks it.
///
/// ```
/// use vecpress::bitpack::bp128::{self, Lanes};
/// use vecpress::Isa;
/// let packed = [0xffu8; 16]; // width 1: 128 ones
/// for &isa in Isa::available() {
///     let mut out = [0u32; 128];
///     assert_eq!(bp128::unpack_with(isa, Lanes::X4, &packed, 1, &mut out), Ok(16));
///     assert!(out.iter().all(|&v| v == 1));
/// }
/// ```
pub fn unpack_with(
    isa: Isa,
    lanes: Lanes,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<false>(isa.check()?, lanes, 0, input, width, out)
}

/// Unpacks one block of gaps and sums them from `initial` into `out`;
/// returns the bytes read.
pub fn unpack_sorted(
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<true>(
        default_level(lanes, Op::Bp128Delta),
        lanes,
        initial,
        input,
        width,
        out,
    )
}

/// The level [`unpack`] and [`unpack_sorted`] run: for four lanes, the one
/// this CPU's profile chooses for the streams of `op` (`tune`), which are
/// 4-lane blocks; for eight lanes, which no stream stores, the highest
/// (every level from AVX2 up runs the same 8-lane AVX2 code for plain
/// blocks, the code each record's `bp128-8x` row measures).
fn default_level(lanes: Lanes, op: Op) -> Isa {
    match lanes {
        Lanes::X4 => crate::tune::isa(op),
        Lanes::X8 => Isa::best(),
    }
}

/// [`unpack_sorted`] with the kernel of `isa`; `Err(Unsupported)` if the
/// CPU lacks it.
pub fn unpack_sorted_with(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    unpack_impl::<true>(isa.check()?, lanes, initial, input, width, out)
}

/// Replaces the gaps of `out`, whole 4-lane blocks (a multiple of 128
/// values), by their running sum from `initial`, with the kernel of `isa`
/// (checked by the caller): the second pass of [`unpack_sorted`], for
/// formats that change the gaps between unpacking and summing (PFOR
/// patches its exceptions) and for streams that sum every block in one go.
pub(crate) fn running_sum_with(isa: Isa, out: &mut [u32], initial: u32) {
    debug_assert!(out.len().is_multiple_of(Lanes::X4.block_len()));
    kernels::running_sum(isa, out, initial);
}

/// Unpacks one 4-lane block of `width` bits (0..=32) from `input`, which
/// holds at least [`Lanes::packed_len`] bytes of it, with the kernel of
/// `isa` (checked by the caller): for formats that check the width and the
/// length as they read their blocks (PFOR), and would pay for the public
/// entry's checks again on every block.
pub(crate) fn unpack_block_with(isa: Isa, input: &[u8], width: u8, out: &mut [u32; 128]) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack(isa, Lanes::X4, input, usize::from(width), out);
}

/// [`unpack_block_with`] for a block of gaps that the caller patches and
/// then sums ([`running_sum_with`]): PFOR's delta form, on the kernels
/// bp128-delta's second pass unpacks with.
pub(crate) fn unpack_gaps_block_with(isa: Isa, input: &[u8], width: u8, out: &mut [u32; 128]) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack_gaps(isa, Lanes::X4, input, usize::from(width), out);
}

/// Unpacks one 4-lane block of gaps as [`unpack_block_with`] does, and
/// sums them from `initial`: bp128-delta's own path (one pass at the
/// AVX-512 level), for PFOR blocks that have no exceptions.
pub(crate) fn unpack_sorted_block_with(
    isa: Isa,
    input: &[u8],
    width: u8,
    out: &mut [u32; 128],
    initial: u32,
) {
    debug_assert!(width <= MAX_WIDTH && input.len() >= Lanes::X4.packed_len(width));
    kernels::unpack_sorted(isa, Lanes::X4, input, usize::from(width), out, initial);
}

/// The levels with a kernel of their own on this CPU, scalar first.
pub fn kernels() -> Vec<Isa> {
    Isa::available().to_vec()
}

/// `Ok` when `values` is one whole block.
fn block(lanes: Lanes, values: &[u32]) -> Result<(), Error> {
    if values.len() == lanes.block_len() {
        Ok(())
    } else {
        Err(Error::InvalidArgument {
            what: "values in a block (128 with Lanes::X4, 256 with Lanes::X8)",
            value: values.len(),
        })
    }
}

/// `Ok` when `width` is one.
fn check_width(width: u8) -> Result<u32, Error> {
    if width <= MAX_WIDTH {
        Ok(u32::from(width))
    } else {
        Err(Error::InvalidArgument {
            what: "bit width (at most 32)",
            value: usize::from(width),
        })
    }
}

fn widest<const SORTED: bool>(lanes: Lanes, values: &[u32], initial: u32) -> u8 {
    let w = match lanes {
        Lanes::X4 => generic::width::<4, SORTED>(values, initial),
        Lanes::X8 => generic::width::<8, SORTED>(values, initial),
    };
    w as u8
}

fn pack_impl<const SORTED: bool>(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    values: &[u32],
    width: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    block(lanes, values)?;
    let w = check_width(width)?;
    let len = lanes.packed_len(width);
    if out.len() < len {
        return Err(Error::OutputTooSmall {
            needed: len,
            actual: out.len(),
        });
    }
    let needed = widest::<SORTED>(lanes, values, initial);
    if needed > width {
        return Err(Error::InvalidArgument {
            what: "bits a value of the block needs, above the width given",
            value: usize::from(needed),
        });
    }
    kernels::pack::<SORTED>(isa, lanes, values, initial, w as usize, out);
    Ok(len)
}

fn unpack_impl<const SORTED: bool>(
    isa: Isa,
    lanes: Lanes,
    initial: u32,
    input: &[u8],
    width: u8,
    out: &mut [u32],
) -> Result<usize, Error> {
    let w = check_width(width)?;
    let len = lanes.packed_len(width);
    if input.len() < len {
        return Err(Error::Truncated {
            offset: input.len(),
            needed: len - input.len(),
            unit: crate::Unit::Bytes,
        });
    }
    if out.len() < lanes.block_len() {
        return Err(Error::OutputTooSmall {
            needed: lanes.block_len(),
            actual: out.len(),
        });
    }
    if SORTED {
        kernels::unpack_sorted(isa, lanes, input, w as usize, out, initial);
    } else {
        kernels::unpack(isa, lanes, input, w as usize, out);
    }
    Ok(len)
}

/// The compiled kernels: [`generic`] for every lane count, width and form,
/// each its own function (one large function holding every width is more
/// than LLVM optimises in reasonable time).
///
/// Four lanes are one 128-bit register, which the baseline of x86-64 (SSE2)
/// and of aarch64 (Neon) already has: the code compiled without extra
/// features is the 4-lane kernel below AVX-512 (at AVX2, for gaps a second
/// pass sums), and the 8-lane one below AVX2. AVX2 and AVX-512 run eight
/// lanes in one 256-bit register. Plain 4-lane blocks at AVX2 take
/// `avx2`'s kernel, two lane vectors a 256-bit register with per-lane
/// shifts (so only Zen 3's profile, which measured it faster, runs it by
/// default; the others choose SSE4.1, the same baseline kernel they ran
/// at AVX2 before). The AVX-512 level has `avx512`'s kernel, sixteen values a
/// register, for four lanes, and for sorted blocks of either lane count
/// (whose running sum it computes in the same registers); plain 4-lane
/// blocks have a second form there, two lane vectors a 256-bit register with
/// immediate and funnel shifts, for CPUs whose profile chooses it
/// ([`crate::tune::bp128_halves`]: Zen 4, which splits 512-bit permutes
/// in two); plain 8-lane
/// blocks stay with the AVX2 code, which unpacks them faster on Intel's
/// Sapphire Rapids than sixteen at a time. At SSE4.1, sorted 4-lane blocks
/// sum their gaps in the registers they are unpacked in (`sse41`), which
/// saves a second pass's load and store of every value; AVX2 keeps the
/// second pass, so that `tune.rs` chooses between the two per CPU (the
/// one-pass form is measured faster on Zen 3 only).
mod kernels {
    use super::{Lanes, generic};
    use crate::Isa;

    type PackFn = unsafe fn(&[u32], u32, &mut [u8]);
    type UnpackFn = unsafe fn(&[u8], &mut [u32]);
    #[cfg(target_arch = "x86_64")]
    type UnpackSortedFn = unsafe fn(&[u8], &mut [u32], u32);

    #[cfg(target_arch = "x86_64")]
    use super::{avx2, avx512};

    /// Entry points of one level: the generic code under its features.
    macro_rules! level {
        ($name:ident $(, $features:literal)?) => {
            mod $name {
                use super::generic;

                $(#[target_feature(enable = $features)])?
                pub(super) unsafe fn pack<const L: usize, const W: usize, const S: bool>(
                    values: &[u32],
                    initial: u32,
                    out: &mut [u8],
                ) {
                    generic::pack::<L, W, S>(values, initial, out)
                }

                $(#[target_feature(enable = $features)])?
                pub(super) unsafe fn unpack<const L: usize, const W: usize>(
                    input: &[u8],
                    out: &mut [u32],
                ) {
                    generic::unpack::<L, W>(input, out);
                }
            }
        };
    }

    level!(baseline);
    #[cfg(target_arch = "x86_64")]
    level!(generic_avx2, "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2");

    /// The 4-lane sorted kernel of the SSE4.1 level: each vector
    /// of gaps summed in the register it was unpacked in (two shifted adds,
    /// then the last sum of the vector before it added to every lane), one
    /// store a vector, as the `bitpacking` crate's sorted decoder does.
    #[cfg(target_arch = "x86_64")]
    mod sse41 {
        use super::generic;
        use crate::simd::Vector;
        use core::arch::x86_64::__m128i;

        #[target_feature(enable = "sse2,ssse3,sse4.1")]
        pub(super) unsafe fn unpack_sorted<const L: usize, const W: usize>(
            input: &[u8],
            out: &mut [u32],
            initial: u32,
        ) {
            const { assert!(L == 4, "four lanes, one 128-bit register") };
            // SAFETY: registers only; this function's features.
            let mut acc = unsafe { __m128i::splat_u32(initial) };
            generic::unpack_map::<4, W>(input, out, |v| {
                let mut sums = [0u32; 4];
                // SAFETY: `v` and `sums` are 16 bytes each; this
                // function's features.
                unsafe {
                    let x = __m128i::load(v.as_ptr().cast())
                        .prefix_sum_u32()
                        .add_u32(acc);
                    acc = x.splat_last_u32();
                    x.store(sums.as_mut_ptr().cast());
                }
                sums
            });
        }
    }

    /// The function of `$level::$op` for lanes `$l` (and form `$s`) at the
    /// width `$w` (0..=32, checked by the caller), as a `$ty` pointer.
    macro_rules! pick {
        ($level:ident::$op:ident::<$l:literal $(, $s:ident)?>($w:expr) as $ty:ty) => {
            pick!(@arms ($w, $ty) [$level::$op, $l, $($s)?]; 0 1 2 3 4 5 6 7 8 9 10 11 12
                13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
        };
        (@arms ($w:expr, $ty:ty) $f:tt; $($n:literal)*) => {
            match $w {
                $($n => pick!(@one $f, $n) as $ty,)*
                _ => unreachable!("the width is checked before a kernel runs"),
            }
        };
        (@one [$level:ident::$op:ident, $l:literal, $($s:ident)?], $n:literal) => {
            $level::$op::<$l, $n $(, $s)?>
        };
    }

    /// Whether `isa` runs eight lanes at AVX2.
    #[cfg(target_arch = "x86_64")]
    fn wide(isa: Isa, lanes: Lanes) -> bool {
        lanes == Lanes::X8 && matches!(isa, Isa::Avx2 | Isa::Avx512)
    }

    /// Packs with the kernel of `isa` (checked by the caller).
    pub(super) fn pack<const S: bool>(
        isa: Isa,
        lanes: Lanes,
        values: &[u32],
        initial: u32,
        width: usize,
        out: &mut [u8],
    ) {
        let _ = isa; // one 4-lane kernel serves every level; so do 8 lanes off x86
        let f = match lanes {
            #[cfg(target_arch = "x86_64")]
            Lanes::X8 if wide(isa, lanes) => pick!(generic_avx2::pack::<8, S>(width) as PackFn),
            Lanes::X8 => pick!(baseline::pack::<8, S>(width) as PackFn),
            Lanes::X4 => pick!(baseline::pack::<4, S>(width) as PackFn),
        };
        // SAFETY: the AVX2 function is picked only for a level that
        // `Isa::best()`, `Isa::check()` or `tune::isa()` gave, so the CPU has AVX2; the
        // others need no more than the target's baseline. Each checks its
        // slices' bounds.
        unsafe { f(values, initial, out) }
    }

    /// Unpacks with the kernel of `isa` (checked by the caller), in the
    /// form this CPU's profile chooses for plain 4-lane blocks at AVX-512
    /// ([`crate::tune::bp128_halves`], read only there: this runs per block).
    pub(super) fn unpack(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
        let halves = if isa == Isa::Avx512 && lanes == Lanes::X4 {
            match crate::tune::bp128_halves_known() {
                Some(halves) => halves,
                None => return unpack_reading_profile(isa, lanes, input, width, out),
            }
        } else {
            false
        };
        unpack_form(isa, halves, lanes, input, width, out);
    }

    /// [`unpack`] on the first call that reads the profile.
    #[cold]
    #[inline(never)]
    fn unpack_reading_profile(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
        unpack_form(isa, crate::tune::bp128_halves(), lanes, input, width, out);
    }

    /// [`unpack`] in a given form: with `halves`, plain 4-lane blocks at
    /// AVX-512 unpack two lane vectors a 256-bit register
    /// (`avx512::unpack_halves`), else sixteen values a 512-bit one. Plain
    /// 8-lane blocks take the AVX2 code in either form: a funnel shift
    /// for each 8-lane vector that crosses a word measured slower on Zen 4
    /// than its shift, shift and or.
    pub(super) fn unpack_form(
        isa: Isa,
        halves: bool,
        lanes: Lanes,
        input: &[u8],
        width: usize,
        out: &mut [u32],
    ) {
        let _ = (isa, halves); // as in `pack`
        let f = match lanes {
            #[cfg(target_arch = "x86_64")]
            Lanes::X4 if isa == Isa::Avx512 && halves => {
                pick!(avx512::unpack_halves::<4>(width) as UnpackFn)
            }
            #[cfg(target_arch = "x86_64")]
            Lanes::X4 if isa == Isa::Avx512 => pick!(avx512::unpack::<4>(width) as UnpackFn),
            #[cfg(target_arch = "x86_64")]
            Lanes::X4 if isa == Isa::Avx2 => pick!(avx2::unpack::<4>(width) as UnpackFn),
            #[cfg(target_arch = "x86_64")]
            Lanes::X8 if wide(isa, lanes) => pick!(generic_avx2::unpack::<8>(width) as UnpackFn),
            Lanes::X8 => pick!(baseline::unpack::<8>(width) as UnpackFn),
            Lanes::X4 => pick!(baseline::unpack::<4>(width) as UnpackFn),
        };
        // SAFETY: as in `pack`; the AVX-512 function is picked only for
        // the `Avx512` level, which has every feature it enables.
        unsafe { f(input, out) }
    }

    /// [`unpack`] for gaps that a second pass sums: at AVX2, four lanes
    /// keep the 128-bit baseline kernel here, the path the records of the
    /// CPUs that sum at AVX2 measured (the 256-bit kernel is measured on
    /// plain blocks alone).
    pub(super) fn unpack_gaps(isa: Isa, lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
        #[cfg(target_arch = "x86_64")]
        if lanes == Lanes::X4 && isa == Isa::Avx2 {
            return unpack(Isa::Sse41, lanes, input, width, out);
        }
        unpack(isa, lanes, input, width, out);
    }

    /// Unpacks a sorted block with the kernel of `isa` (checked by the
    /// caller), summing its gaps from `initial`: in the same pass at the
    /// AVX-512 level and, for four lanes, at SSE4.1; in a second pass over
    /// the block otherwise.
    pub(super) fn unpack_sorted(
        isa: Isa,
        lanes: Lanes,
        input: &[u8],
        width: usize,
        out: &mut [u32],
        initial: u32,
    ) {
        #[cfg(target_arch = "x86_64")]
        if isa == Isa::Avx512 {
            let f = match lanes {
                Lanes::X4 => pick!(avx512::unpack_sorted::<4>(width) as UnpackSortedFn),
                Lanes::X8 => pick!(avx512::unpack_sorted::<8>(width) as UnpackSortedFn),
            };
            // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
            // the CPU has every feature the function enables. It checks its
            // slices' bounds.
            return unsafe { f(input, out, initial) };
        }
        #[cfg(target_arch = "x86_64")]
        if lanes == Lanes::X4 && isa == Isa::Sse41 {
            let f = pick!(sse41::unpack_sorted::<4>(width) as UnpackSortedFn);
            // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
            // the CPU has SSE4.1. The function checks its slices' bounds.
            return unsafe { f(input, out, initial) };
        }
        unpack_gaps(isa, lanes, input, width, out);
        running_sum(isa, &mut out[..lanes.block_len()], initial);
    }

    /// Replaces the gaps of `out` (a whole block) by their running sum from
    /// `initial`: sixteen at a time at the AVX-512 level, four at a time in
    /// a vector at the SSE4.1, AVX2 and Neon levels (one add on the chain
    /// from one vector to the next), one at a time below them. The sums are
    /// bound by shuffles (three for four values in 128-bit steps, five for
    /// sixteen in 512-bit ones), not by the adds.
    pub(super) fn running_sum(isa: Isa, out: &mut [u32], initial: u32) {
        debug_assert!(out.len().is_multiple_of(16));
        #[cfg(target_arch = "x86_64")]
        if isa == Isa::Avx512 {
            // SAFETY: the level came from `Isa::best()`, `Isa::check()` or `tune::isa()`:
            // the CPU has AVX-512 F and BW.
            return unsafe { sums_avx512(out, initial) };
        }
        #[cfg(target_arch = "x86_64")]
        if isa != Isa::Scalar {
            // SAFETY: every level above scalar that `Isa::best()`,
            // `Isa::check()` or `tune::isa()` gives has SSSE3 and SSE4.1.
            return unsafe { sums_sse41(out, initial) };
        }
        #[cfg(target_arch = "aarch64")]
        if isa == Isa::Neon {
            // SAFETY: the level was checked: the CPU has Neon.
            return unsafe { sums_neon(out, initial) };
        }
        let _ = isa;
        generic::running_sum(out, initial);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse2,ssse3,sse4.1")]
    unsafe fn sums_sse41(out: &mut [u32], initial: u32) {
        // SAFETY: the features `__m128i`'s `Vector` methods need.
        unsafe { sums::<core::arch::x86_64::__m128i>(out, initial) }
    }

    /// The running sum of `out` in place, sixteen values a register.
    ///
    /// # Safety
    /// The CPU has AVX-512 F and BW; `out.len()` is a multiple of 16.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn sums_avx512(out: &mut [u32], initial: u32) {
        use core::arch::x86_64::*;
        // SAFETY: AVX-512 F per the caller.
        let (prefix, mut acc) = unsafe {
            (
                crate::simd::x86::Prefix16::new(),
                _mm512_set1_epi32(initial as i32),
            )
        };
        for sixteen in out.chunks_exact_mut(16) {
            // SAFETY: `sixteen` is 64 bytes, read and written in place; the
            // caller's features.
            unsafe {
                let sums = prefix.sums(_mm512_loadu_si512(sixteen.as_ptr().cast()));
                _mm512_storeu_si512(sixteen.as_mut_ptr().cast(), _mm512_add_epi32(sums, acc));
                acc = _mm512_add_epi32(acc, prefix.total(sums));
            }
        }
    }

    #[cfg(target_arch = "aarch64")]
    #[target_feature(enable = "neon")]
    unsafe fn sums_neon(out: &mut [u32], initial: u32) {
        // SAFETY: the features `uint8x16_t`'s `Vector` methods need.
        unsafe { sums::<core::arch::aarch64::uint8x16_t>(out, initial) }
    }

    /// The running sum of `out` in place, four values a vector.
    ///
    /// # Safety
    /// The CPU supports `V`'s instruction set; `out.len()` is a multiple of 4.
    #[inline(always)]
    unsafe fn sums<V: crate::simd::Vector>(out: &mut [u32], initial: u32) {
        // SAFETY: registers only; the caller's features.
        let mut acc = unsafe { V::splat_u32(initial) };
        for four in out.chunks_exact_mut(4) {
            // SAFETY: `four` is 16 bytes, read and written in place; the
            // caller's features.
            unsafe {
                let sums = V::load(four.as_ptr().cast()).prefix_sum_u32();
                sums.add_u32(acc).store(four.as_mut_ptr().cast());
                acc = acc.add_u32(sums.splat_last_u32());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Lanes, kernels};
    use crate::Isa;

    /// Both forms of plain unpacking at every level this CPU has (the form
    /// the profile does not choose runs nowhere else here), for both lane
    /// counts at every width, on random words and on the extremes (all ones, all
    /// zeros, alternating bits), against a bit-by-bit reference. Eight lanes
    /// run the same code in both forms.
    #[test]
    fn both_forms_unpack_every_width_as_the_reference() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        };
        for (lanes, width) in [Lanes::X4, Lanes::X8]
            .into_iter()
            .flat_map(|l| (0..=32usize).map(move |w| (l, w)))
        {
            let len = lanes.packed_len(width as u8);
            let fills: [Vec<u8>; 4] = [
                (0..len).map(|_| next()).collect(),
                vec![0xff; len],
                vec![0; len],
                (0..len)
                    .map(|i| if i % 2 == 0 { 0xaa } else { 0x55 })
                    .collect(),
            ];
            for input in &fills {
                let mut want = vec![0u32; lanes.block_len()];
                reference(lanes, input, width, &mut want);
                for &isa in Isa::available() {
                    for halves in [false, true] {
                        let mut out = vec![!0u32; lanes.block_len()];
                        kernels::unpack_form(isa, halves, lanes, input, width, &mut out);
                        assert_eq!(out, want, "{isa} {lanes:?} width {width} halves {halves}");
                    }
                }
            }
        }
    }

    /// Every value of a block, bit by bit from the layout.
    fn reference(lanes: Lanes, input: &[u8], width: usize, out: &mut [u32]) {
        let l = lanes.block_len() / 32;
        for (n, slot) in out.iter_mut().enumerate() {
            let (i, lane) = (n / l, n % l);
            let mut v = 0u32;
            for b in 0..width {
                let bit = i * width + b;
                let word = l * (bit / 32) + lane;
                let byte = input[4 * word + (bit % 32) / 8];
                v |= u32::from(byte >> (bit % 8) & 1) << b;
            }
            *slot = v;
        }
    }
}
