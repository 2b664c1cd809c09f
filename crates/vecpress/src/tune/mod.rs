//! Which kernel runs by default: chosen per microarchitecture, from the
//! performance records, in this one table.
//!
//! The instruction set says which kernels *can* run; it does not say which
//! is fastest. Zen 4 executes 512-bit operations as two halves, Zen 5 at
//! full width, and Intel's cores differ again, so a kernel that wins on one
//! CPU can lose on another. Every dispatching function (`vbyte::decode`,
//! `stream_vbyte::decode_delta`, the encoders, `blosc::decompress`, the
//! queries of `postings`, ...) asks [`isa`] for its [`Op`]'s level, and the
//! LZ4 decoders ask
//! [`lz4_variant`] and [`lz4_arms`] for their loops. The explicit entries
//! (`decode_with(isa, ..)`) are untouched: tests and benchmarks still run
//! every kernel.
//!
//! A [`Profile`] holds the choices for one microarchitecture. Each was read
//! from that CPU's record in the repository's `perf/` folder (written by
//! `scripts/perf-record.sh`; `scripts/perf-tune.py` prints, per CPU and
//! codec, the kernel with the best geometric mean over the record's inputs,
//! and the safest one across CPUs). A CPU with no profile gets
//! [`SAFE`]: per codec, the kernel whose worst ratio to the fastest, over
//! the recorded CPUs, is the highest. A choice made on one CPU reaches no
//! other: a profile matches only the microarchitecture it was measured on.
//!
//! The choice never exceeds [`Isa::available`] (the CPU and the
//! `VECPRESS_ISA` cap): a level above it falls to the highest level below.
//!
//! ```
//! use vecpress::tune::{self, Op};
//! let cpu = tune::Cpu::current();
//! assert!(!cpu.key().is_empty());
//! assert!(vecpress::Isa::available().contains(&tune::isa(Op::StreamVByteDelta)));
//! assert!(tune::lz4_variant().is_available());
//! ```
#![forbid(unsafe_code)]

use std::sync::OnceLock;

mod cpu;
mod profiles;

pub use cpu::{Cpu, Identified, Traits};
pub use profiles::{PROFILES, SAFE};

use crate::Isa;
use crate::lz4::block::variant::Variant;

/// A decoding operation whose kernel is chosen per CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Op {
    /// [`vbyte::decode`](crate::vbyte::decode).
    VByte,
    /// [`vbyte::decode_delta`](crate::vbyte::decode_delta).
    VByteDelta,
    /// [`group_varint::gb::decode`](crate::group_varint::gb::decode).
    VarintGb,
    /// [`group_varint::gb::decode_delta`](crate::group_varint::gb::decode_delta).
    VarintGbDelta,
    /// Varint-G8IU decoding.
    VarintG8iu,
    /// Varint-G8IU delta decoding.
    VarintG8iuDelta,
    /// [`stream_vbyte::decode`](crate::stream_vbyte::decode).
    StreamVByte,
    /// [`stream_vbyte::decode_delta`](crate::stream_vbyte::decode_delta).
    StreamVByteDelta,
    /// The 0124 variant of Stream VByte.
    StreamVByte0124,
    /// The 0124 variant of Stream VByte, delta coded.
    StreamVByte0124Delta,
    /// [`byte_split::decode`](crate::byte_split::decode).
    ByteSplit,
    /// [`byte_split::decompress_lz4`](crate::byte_split::decompress_lz4)'s transposition.
    ByteSplitLz4,
    /// [`bitpack::bp128::decode`](crate::bitpack::bp128::decode).
    Bp128,
    /// [`bitpack::bp128::decode_delta`](crate::bitpack::bp128::decode_delta).
    Bp128Delta,
    /// [`bitpack::fastlanes::decode`](crate::bitpack::fastlanes::decode).
    FastLanes,
    /// [`bitpack::fastlanes::decode_delta`](crate::bitpack::fastlanes::decode_delta).
    FastLanesDelta,
    /// [`bitpack::fastlanes::decode_for`](crate::bitpack::fastlanes::decode_for).
    FastLanesFor,
    /// [`stream_vbyte::encode`](crate::stream_vbyte::encode), its delta and 0124 forms.
    StreamVByteEncode,
    /// [`stream_vbyte::seek_delta`](crate::stream_vbyte::seek_delta) and `select`, and the zigzag and 16-bit decoders, which walk a stream a chunk at a time.
    StreamVByteSeek,
    /// The short lists of [`stream_vbyte::decode_delta_lists`](crate::stream_vbyte::decode_delta_lists) and of its queries, and a cursor's short blocks.
    StreamVByteShortLists,
    /// [`stream_vbyte::u64::decode`](crate::stream_vbyte::u64::decode) and its delta and zigzag forms.
    StreamVByte64,
    /// The merges of [`postings::and`](crate::postings::and) and [`postings::or`](crate::postings::or), and the window kernels of [`postings::hybrid`](crate::postings::hybrid)'s queries.
    Intersect,
    /// [`byte_split::encode`](crate::byte_split::encode).
    ByteSplitEncode,
    /// [`bit_split::encode`](crate::bit_split::encode), [`bit_split::decode`](crate::bit_split::decode) and their LZ4 forms.
    BitSplit,
    /// [`blosc::compress_into`](crate::blosc::compress_into) and [`blosc::decompress`](crate::blosc::decompress).
    Blosc,
    /// [`bitpack::bp128::encode`](crate::bitpack::bp128::encode) and its delta form.
    Bp128Encode,
    /// SIMD-BP128's 8-lane blocks ([`bitpack::bp128::unpack`](crate::bitpack::bp128::unpack) with 8 lanes).
    Bp128Lanes8,
    /// [`bitpack::fastlanes::encode`](crate::bitpack::fastlanes::encode) and its delta and FOR forms.
    FastLanesEncode,
}

impl Op {
    /// The operation's name, as `vecpress inspect --cpu` lists it.
    ///
    /// ```
    /// assert_eq!(vecpress::tune::Op::Intersect.name(), "postings merges");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Op::VByte => "vbyte",
            Op::VByteDelta => "vbyte-delta",
            Op::VarintGb => "varint-gb",
            Op::VarintGbDelta => "varint-gb-delta",
            Op::VarintG8iu => "varint-g8iu",
            Op::VarintG8iuDelta => "varint-g8iu-delta",
            Op::StreamVByte => "stream-vbyte",
            Op::StreamVByteDelta => "stream-vbyte-delta",
            Op::StreamVByte0124 => "stream-vbyte-0124",
            Op::StreamVByte0124Delta => "stream-vbyte-0124-delta",
            Op::ByteSplit => "byte-split",
            Op::ByteSplitLz4 => "byte-split-lz4",
            Op::Bp128 => "bp128",
            Op::Bp128Delta => "bp128-delta",
            Op::FastLanes => "fastlanes",
            Op::FastLanesDelta => "fastlanes-delta",
            Op::FastLanesFor => "fastlanes-for",
            Op::StreamVByteEncode => "stream-vbyte encode",
            Op::StreamVByteSeek => "stream-vbyte seek",
            Op::StreamVByteShortLists => "stream-vbyte short lists",
            Op::StreamVByte64 => "stream-vbyte u64",
            Op::Intersect => "postings merges",
            Op::ByteSplitEncode => "byte-split encode",
            Op::BitSplit => "bit-split",
            Op::Blosc => "blosc",
            Op::Bp128Encode => "bp128 encode",
            Op::Bp128Lanes8 => "bp128 8 lanes",
            Op::FastLanesEncode => "fastlanes encode",
        }
    }

    /// Every operation, in the order of their discriminants.
    pub const ALL: &'static [Op] = &[
        Op::VByte,
        Op::VByteDelta,
        Op::VarintGb,
        Op::VarintGbDelta,
        Op::VarintG8iu,
        Op::VarintG8iuDelta,
        Op::StreamVByte,
        Op::StreamVByteDelta,
        Op::StreamVByte0124,
        Op::StreamVByte0124Delta,
        Op::ByteSplit,
        Op::ByteSplitLz4,
        Op::Bp128,
        Op::Bp128Delta,
        Op::FastLanes,
        Op::FastLanesDelta,
        Op::FastLanesFor,
        Op::StreamVByteEncode,
        Op::StreamVByteSeek,
        Op::StreamVByteShortLists,
        Op::StreamVByte64,
        Op::Intersect,
        Op::ByteSplitEncode,
        Op::BitSplit,
        Op::Blosc,
        Op::Bp128Encode,
        Op::Bp128Lanes8,
        Op::FastLanesEncode,
    ];
}

/// The choices for one microarchitecture: the x86 level of every [`Op`]
/// (a field each, named after it), the LZ4 loops in order, and the forms
/// some kernels take. A profile names what differs from [`SAFE`] and takes
/// the rest from it:
///
/// ```
/// use vecpress::{Isa, tune::{self, Op, Profile}};
/// const MINE: Profile = Profile {
///     uarch: "mine",
///     record: "vendor-family-model",
///     stream_vbyte_delta: Isa::Avx2,
///     ..tune::SAFE
/// };
/// assert_eq!(MINE.isa(Op::StreamVByteDelta), Isa::Avx2);
/// assert_eq!(MINE.isa(Op::VByte), tune::SAFE.isa(Op::VByte));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// The microarchitecture, as [`Cpu::uarch`] names it.
    pub uarch: &'static str,
    /// The record the choices come from (`perf/<record>.jsonl`), or where
    /// they were measured.
    pub record: &'static str,
    /// The level of [`Op::VByte`].
    pub vbyte: Isa,
    /// The level of [`Op::VByteDelta`].
    pub vbyte_delta: Isa,
    /// The level of [`Op::VarintGb`].
    pub varint_gb: Isa,
    /// The level of [`Op::VarintGbDelta`].
    pub varint_gb_delta: Isa,
    /// The level of [`Op::VarintG8iu`].
    pub varint_g8iu: Isa,
    /// The level of [`Op::VarintG8iuDelta`].
    pub varint_g8iu_delta: Isa,
    /// The level of [`Op::StreamVByte`].
    pub stream_vbyte: Isa,
    /// The level of [`Op::StreamVByteDelta`].
    pub stream_vbyte_delta: Isa,
    /// The level of [`Op::StreamVByte0124`].
    pub stream_vbyte_0124: Isa,
    /// The level of [`Op::StreamVByte0124Delta`].
    pub stream_vbyte_0124_delta: Isa,
    /// The level of [`Op::ByteSplit`].
    pub byte_split: Isa,
    /// The level of [`Op::ByteSplitLz4`].
    pub byte_split_lz4: Isa,
    /// The level of [`Op::Bp128`].
    pub bp128: Isa,
    /// The level of [`Op::Bp128Delta`].
    pub bp128_delta: Isa,
    /// The level of [`Op::FastLanes`].
    pub fastlanes: Isa,
    /// The level of [`Op::FastLanesDelta`].
    pub fastlanes_delta: Isa,
    /// The level of [`Op::FastLanesFor`].
    pub fastlanes_for: Isa,
    /// The level of [`Op::StreamVByteEncode`].
    pub stream_vbyte_encode: Isa,
    /// The level of [`Op::StreamVByteSeek`].
    pub stream_vbyte_seek: Isa,
    /// The level of [`Op::StreamVByteShortLists`].
    pub stream_vbyte_short_lists: Isa,
    /// The level of [`Op::StreamVByte64`].
    pub stream_vbyte_64: Isa,
    /// The level of [`Op::Intersect`].
    pub intersect: Isa,
    /// The level of [`Op::ByteSplitEncode`].
    pub byte_split_encode: Isa,
    /// The level of [`Op::BitSplit`].
    pub bit_split: Isa,
    /// The level of [`Op::Blosc`].
    pub blosc: Isa,
    /// The level of [`Op::Bp128Encode`].
    pub bp128_encode: Isa,
    /// The level of [`Op::Bp128Lanes8`].
    pub bp128_lanes8: Isa,
    /// The level of [`Op::FastLanesEncode`].
    pub fastlanes_encode: Isa,

    /// The LZ4 loops, fastest first: the first is the default of
    /// [`lz4::block::decompress_into`](crate::lz4::block::decompress_into)
    /// and the adaptive decompressor's first leader; the others are its arms.
    pub lz4: &'static [Variant],
    /// Whether the `copy32` loop makes the first 32 bytes of a match that
    /// overlaps its copies in a register, stored once (`true`), or as two
    /// stores of 16, the second copied from the first (see
    /// [`lz4_register_patterns`]).
    pub lz4_register_patterns: bool,
    /// Whether plain 4-lane SIMD-BP128 blocks (and PFOR's) at the AVX-512
    /// level unpack two lane vectors a 256-bit register, with immediate and
    /// funnel shifts (`true`), or sixteen values a 512-bit register by
    /// permutes (see [`bp128_halves`]).
    pub bp128_halves: bool,
    /// Whether bit shuffle at the AVX-512 level with GFNI turns values of
    /// 1, 2, 4 or 8 bytes to and from their bit rows in one pass in
    /// registers (`true`), or in three passes over the block (see
    /// [`bit_split_one_pass`]).
    pub bit_split_one_pass: bool,
    /// Whether PFOR's exceptions at the AVX-512 level are added by one
    /// scalar read-modify-write each (`true`), or by a gather and a
    /// scatter of eight (see [`pfor_scalar_patch`]).
    pub pfor_scalar_patch: bool,
    /// Whether the intersection's merge at the AVX-512 level compares in
    /// vector registers, as the AVX2 kernel does (`true`), or into mask
    /// registers (see [`merge_in_vectors`]).
    pub merge_in_vectors: bool,
}

impl Profile {
    /// The level this profile chooses for `op`.
    pub const fn isa(&self, op: Op) -> Isa {
        match op {
            Op::VByte => self.vbyte,
            Op::VByteDelta => self.vbyte_delta,
            Op::VarintGb => self.varint_gb,
            Op::VarintGbDelta => self.varint_gb_delta,
            Op::VarintG8iu => self.varint_g8iu,
            Op::VarintG8iuDelta => self.varint_g8iu_delta,
            Op::StreamVByte => self.stream_vbyte,
            Op::StreamVByteDelta => self.stream_vbyte_delta,
            Op::StreamVByte0124 => self.stream_vbyte_0124,
            Op::StreamVByte0124Delta => self.stream_vbyte_0124_delta,
            Op::ByteSplit => self.byte_split,
            Op::ByteSplitLz4 => self.byte_split_lz4,
            Op::Bp128 => self.bp128,
            Op::Bp128Delta => self.bp128_delta,
            Op::FastLanes => self.fastlanes,
            Op::FastLanesDelta => self.fastlanes_delta,
            Op::FastLanesFor => self.fastlanes_for,
            Op::StreamVByteEncode => self.stream_vbyte_encode,
            Op::StreamVByteSeek => self.stream_vbyte_seek,
            Op::StreamVByteShortLists => self.stream_vbyte_short_lists,
            Op::StreamVByte64 => self.stream_vbyte_64,
            Op::Intersect => self.intersect,
            Op::ByteSplitEncode => self.byte_split_encode,
            Op::BitSplit => self.bit_split,
            Op::Blosc => self.blosc,
            Op::Bp128Encode => self.bp128_encode,
            Op::Bp128Lanes8 => self.bp128_lanes8,
            Op::FastLanesEncode => self.fastlanes_encode,
        }
    }
}

/// The level [`Op`] runs at by default on this CPU: the profile's choice,
/// lowered to the highest level of [`Isa::available`] below it; on a CPU
/// of another architecture (Neon), [`Isa::best`].
///
/// ```
/// use vecpress::{tune, Isa};
/// for &op in tune::Op::ALL {
///     assert!(Isa::available().contains(&tune::isa(op)));
/// }
/// ```
pub fn isa(op: Op) -> Isa {
    static CHOSEN: OnceLock<[Isa; Op::ALL.len()]> = OnceLock::new();
    let chosen = CHOSEN.get_or_init(|| {
        let profile = Cpu::current().profile();
        core::array::from_fn(|i| available_at_most(profile.isa(Op::ALL[i])))
    });
    chosen[op as usize]
}

/// `want` if available, else the highest available level below it; on a
/// non-x86 CPU, [`Isa::best`].
fn available_at_most(want: Isa) -> Isa {
    if !cfg!(target_arch = "x86_64") {
        return Isa::best();
    }
    Isa::available()
        .iter()
        .copied()
        .filter(|&l| l <= want && l != Isa::Neon)
        .max()
        .unwrap_or(Isa::Scalar)
}

/// The LZ4 loops this process may run, in the profile's order (fastest
/// first), then any other available loop but the checked one.
///
/// ```
/// let arms = vecpress::tune::lz4_arms();
/// assert!(!arms.is_empty() && arms.iter().all(|v| v.is_available()));
/// ```
pub fn lz4_arms() -> Vec<Variant> {
    let mut arms: Vec<Variant> = Cpu::current()
        .profile()
        .lz4
        .iter()
        .copied()
        .filter(|v| v.is_available())
        .collect();
    for v in crate::lz4::block::variants() {
        if v != Variant::Checked && !arms.contains(&v) {
            arms.push(v);
        }
    }
    arms
}

/// The LZ4 loop [`lz4::block::decompress_into`](crate::lz4::block::decompress_into)
/// uses: the first of [`lz4_arms`].
pub fn lz4_variant() -> Variant {
    static CHOSEN: OnceLock<Variant> = OnceLock::new();
    *CHOSEN.get_or_init(|| lz4_arms().first().copied().unwrap_or(Variant::Checked))
}

/// Whether the `copy32` LZ4 loop makes the first 32 bytes of a match that
/// overlaps its copies (offset below 32) in a register and stores them once,
/// as this CPU's profile says. On Zen 4, where it was measured, that form
/// runs long matches of short period (byte-split floats are full of them)
/// about a third faster than two 16-byte stores, the second copied from the
/// first, which the other profiles keep until their records measure it.
/// The register form loads a pattern below 16 bytes as the bytes that end
/// at the match (2 of them for offsets 1 and 2, else 16), which do not reach
/// into the literals just copied past it (a load across two stores waits
/// for both to reach the cache).
///
/// ```
/// let _ = vecpress::tune::lz4_register_patterns(); // the same answer every call
/// assert_eq!(vecpress::tune::lz4_register_patterns(), vecpress::tune::Cpu::current().profile().lz4_register_patterns);
/// ```
pub fn lz4_register_patterns() -> bool {
    static CHOSEN: OnceLock<bool> = OnceLock::new();
    *CHOSEN.get_or_init(|| Cpu::current().profile().lz4_register_patterns)
}

/// Whether plain 4-lane SIMD-BP128 blocks at the AVX-512 level unpack two
/// lane vectors a 256-bit register, with immediate and funnel shifts
/// (`vpsrld`, `vpshrdd`) and one join, as this CPU's profile says. On Zen 4,
/// which runs 512-bit operations as two halves and where it was measured,
/// that form (no table, no permute) unpacks the blocks faster than the
/// 512-bit form's two permutes a step, and than the 128-bit baseline
/// kernel. Intel's profile keeps the 512-bit form its record ranks first,
/// and the others unpack plain blocks below AVX-512.
///
/// ```
/// assert_eq!(vecpress::tune::bp128_halves(), vecpress::tune::Cpu::current().profile().bp128_halves);
/// ```
pub fn bp128_halves() -> bool {
    *BP128_HALVES.get_or_init(|| Cpu::current().profile().bp128_halves)
}

/// [`bp128_halves`] once a call has read the profile, else `None`: for
/// the per-block dispatch, whose fast path then makes no call (a call,
/// even one taken once, made it save and restore six registers on every
/// block).
pub(crate) fn bp128_halves_known() -> Option<bool> {
    BP128_HALVES.get().copied()
}

static BP128_HALVES: OnceLock<bool> = OnceLock::new();

/// Whether bit shuffle ([`crate::bit_split`]) at the AVX-512 level, on a
/// CPU with GFNI, turns values of 1, 2, 4 or 8 bytes to and from their bit
/// rows in one pass (each row's bytes gathered into words by `vpermt2b`,
/// the words transposed by `gf2p8affineqb`, the values' bytes joined by
/// `vpermt2b`/`w`/`d`, all in registers), as this CPU's profile says;
/// otherwise in three passes over the block (byte split, one
/// `gf2p8affineqb` per register, byte split), each a load and a store of
/// every byte. Measured faster on Zen 4 only (`perf/amd-25-17.md`); the
/// other profiles keep the three passes until their records measure it.
///
/// ```
/// assert_eq!(vecpress::tune::bit_split_one_pass(), vecpress::tune::Cpu::current().profile().bit_split_one_pass);
/// ```
pub fn bit_split_one_pass() -> bool {
    static CHOSEN: OnceLock<bool> = OnceLock::new();
    *CHOSEN.get_or_init(|| Cpu::current().profile().bit_split_one_pass)
}

/// Whether PFOR's exceptions ([`crate::bitpack::pfor`]) at the AVX-512
/// level are added to the unpacked values by one scalar read-modify-write
/// each, from a buffer of their high parts (taken out eight at a time in
/// registers), as this CPU's profile says; otherwise, eight at a time, by
/// a gather and a scatter. Measured faster on Zen 4 only
/// (`perf/amd-25-17.md`), where a gather or a scatter of eight waits tens
/// of cycles; the other profiles keep the gather and scatter until their
/// records measure it.
///
/// ```
/// assert_eq!(vecpress::tune::pfor_scalar_patch(), vecpress::tune::Cpu::current().profile().pfor_scalar_patch);
/// ```
pub fn pfor_scalar_patch() -> bool {
    static CHOSEN: OnceLock<bool> = OnceLock::new();
    *CHOSEN.get_or_init(|| Cpu::current().profile().pfor_scalar_patch)
}

/// Whether the intersection's merge at the AVX-512 level
/// ([`Op::Intersect`]) runs the AVX2 kernel, whose compares of eight
/// candidates with eight values are vector compares joined by `vpor` and
/// one `vmovmskps`, as this CPU's profile says; otherwise the AVX-512 one,
/// whose compares go into mask registers joined by `korw`. Zen 4 runs the
/// mask form at two thirds of the vector form's speed (`perf/amd-25-17.md`);
/// the other profiles keep it until their records measure both. The
/// choice is made where the function is compiled: with AVX-512 enabled,
/// the compiler turns the vector form into the mask form.
///
/// ```
/// assert_eq!(vecpress::tune::merge_in_vectors(), vecpress::tune::Cpu::current().profile().merge_in_vectors);
/// ```
pub fn merge_in_vectors() -> bool {
    static CHOSEN: OnceLock<bool> = OnceLock::new();
    *CHOSEN.get_or_init(|| Cpu::current().profile().merge_in_vectors)
}

#[cfg(test)]
mod tests;
