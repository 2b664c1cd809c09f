//! Which kernel runs by default: chosen per microarchitecture, from the
//! performance records, in this one table.
//!
//! The instruction set says which kernels *can* run; it does not say which
//! is fastest. Zen 4 executes 512-bit operations as two halves, Zen 5 at
//! full width, and Intel's cores differ again, so a kernel that wins on one
//! CPU can lose on another. Every dispatching function (`vbyte::decode`,
//! `stream_vbyte::decode_delta`, `lz4::block::decompress_into`, ...) asks
//! [`isa`] for its [`Op`]'s level, and the LZ4 decoders ask
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

use crate::Isa;
use crate::lz4::block::Variant;

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
}

impl Op {
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
        }
    }
}

use Isa::{Avx2, Avx512, Sse41};
use Variant::{Copy8, Copy16, Copy32, Shuffle16};

/// The profiles, one per recorded microarchitecture, each naming what it
/// chooses otherwise than [`SAFE`]. Adding a CPU is one block here, its
/// record in `perf/`, and its model in [`Cpu::identify`].
/// SIMD-BP128 (and PFOR, which unpacks with it) has a kernel of its own
/// at AVX-512 (`vpermt2d` and `vpshrdvd` on four packed words a register,
/// the gaps summed as they are unpacked); below it, the 4-lane kernel is the
/// same code above the baseline (one 128-bit register), whose sorted form
/// sums the gaps as it unpacks them at SSE4.1 and in a second pass at
/// AVX2 (the one-pass form is measured on Zen 3 alone). The streams'
/// VByte tails (in a posting index, most lists are all tail) run at the
/// vbyte and vbyte-delta columns' levels, not at the blocks'. Intel's and
/// Zen 4's records rank the AVX-512 delta kernel first, and so does [`SAFE`]
/// (its worst over the records is Zen 3's AVX2, where that level falls
/// back); Zen 5 keeps bp128-delta at AVX2 (the baseline kernel, 128-bit
/// sums) until a record shows the 512-bit one faster there. Plain bp128
/// (and PFOR) at AVX2 runs a 256-bit 4-lane kernel measured on Zen 3
/// alone; Zen 4 runs plain blocks at AVX-512 in a form of their own, two
/// lane vectors a 256-bit register ([`bp128_halves`]), where its record
/// ranked the 512-bit form below SSE4.1's baseline kernel; Zen 5 and CPUs
/// with none choose SSE4.1.
/// FastLanes runs at the highest level on every CPU but Zen 4: its
/// kernels widen with the registers, and Intel's and Zen 3's records rank
/// the widest the fastest on every posting list; Zen 4's does too, but
/// for the delta form, whose 512-bit running sums (two halves there) lose
/// to AVX2's.
pub const PROFILES: &[Profile] = &[
    // AMD Zen 4 (perf/amd-25-17.jsonl): the AVX2 Stream VByte and FastLanes
    // delta kernels beat the AVX-512 ones (their 512-bit running sums run as
    // two halves). Plain Stream VByte stays at AVX-512, the fastest on the
    // posting lists; it takes the zero-extension shortcut for one-byte
    // values (zero control bytes, no table), as the SSE4.1 kernel does.
    // SIMD-BP128 and PFOR unpack plain blocks at AVX-512 in 256-bit halves
    // (the 512-bit form's permutes lost 10-20% to SSE4.1 on census-income)
    // and delta blocks at AVX-512. The LZ4 `copy32` loop makes overlapping
    // matches' first 32 bytes in a register. Bit shuffle runs in one pass
    // with GFNI. PFOR adds its exceptions by scalar read-modify-writes.
    Profile {
        uarch: "zen4",
        record: "amd-25-17",
        stream_vbyte_delta: Avx2,
        stream_vbyte_0124_delta: Avx2,
        bp128: Avx512,
        fastlanes_delta: Avx2,
        lz4_register_patterns: true,
        bp128_halves: true,
        bit_split_one_pass: true,
        pfor_scalar_patch: true,
        ..SAFE
    },
    // AMD Zen 3 (perf/amd-25-1.jsonl): no AVX-512. The AVX2 kernels lead
    // (plain SIMD-BP128's two lane vectors a 256-bit register among them)
    // but for SIMD-BP128's delta form, where SSE4.1's kernel sums the gaps
    // in the registers it unpacks them in, and AVX2's in a second pass.
    // The VByte family has no AVX2 kernel.
    Profile {
        uarch: "zen3",
        record: "amd-25-1",
        vbyte: Sse41,
        vbyte_delta: Sse41,
        stream_vbyte: Avx2,
        stream_vbyte_delta: Avx2,
        stream_vbyte_0124: Avx2,
        stream_vbyte_0124_delta: Avx2,
        byte_split: Avx2,
        byte_split_lz4: Avx2,
        bp128: Avx2,
        bp128_delta: Sse41,
        fastlanes: Avx2,
        fastlanes_delta: Avx2,
        fastlanes_for: Avx2,
        ..SAFE
    },
    // AMD Zen 5: the levels the kernels were tuned with there (the highest).
    Profile {
        uarch: "zen5",
        record: "amd-26",
        bp128_delta: Avx2,
        ..SAFE
    },
    // Intel Sapphire and Emerald Rapids (perf/intel-6-207.jsonl).
    Profile {
        uarch: "golden-cove",
        record: "intel-6-207",
        bp128: Avx512,
        ..SAFE
    },
];

/// The choices of a CPU with no profile: per operation, the level whose
/// worst geometric mean of its speed over the fastest kernel's, across the
/// recorded CPUs, is the highest (`scripts/perf-tune.py`); for plain Stream
/// VByte, AVX-512, as on Zen 4 above. Plain bp128 stays at SSE4.1 although
/// the script ranks AVX-512 first: Zen 4's AVX-512 rows are the 256-bit
/// form of [`bp128_halves`], which this profile does not run, and Zen 3
/// has no AVX-512 row.
pub const SAFE: Profile = Profile {
    uarch: "other",
    record: "every record",
    vbyte: Avx512,
    vbyte_delta: Avx512,
    varint_gb: Sse41,
    varint_gb_delta: Sse41,
    varint_g8iu: Avx2,
    varint_g8iu_delta: Avx2,
    stream_vbyte: Avx512,
    stream_vbyte_delta: Avx512,
    stream_vbyte_0124: Avx512,
    stream_vbyte_0124_delta: Avx512,
    byte_split: Avx512,
    byte_split_lz4: Avx512,
    bp128: Sse41,
    bp128_delta: Avx512,
    fastlanes: Avx512,
    fastlanes_delta: Avx512,
    fastlanes_for: Avx512,
    lz4: &[Copy32, Shuffle16, Copy16, Copy8],
    lz4_register_patterns: false,
    bp128_halves: false,
    bit_split_one_pass: false,
    pfor_scalar_patch: false,
};

/// The CPU this process runs on, as CPUID (or the platform) tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cpu {
    /// `intel`, `amd`, the vendor string lowercased, or the architecture
    /// where there is no CPUID.
    pub vendor: String,
    /// The family (base plus extended, as Linux's `cpu family`).
    pub family: u32,
    /// The model (with the extended model, as Linux's `model`).
    pub model: u32,
    /// The brand string, e.g. `AMD EPYC 9R14 96-Core Processor`.
    pub name: String,
    /// What CPUID says it can do, where that tells its generation.
    pub traits: Traits,
}

/// The CPUID features that tell a microarchitecture apart where the model
/// number does not: a virtual machine may report a model of another
/// generation than the core it runs on, or one that no profile lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traits {
    /// AVX-512 Foundation.
    pub avx512: bool,
    /// AVX-512 FP16: Intel's Golden Cove server cores and later.
    pub avx512_fp16: bool,
    /// AMX tiles: Intel's Sapphire Rapids and later.
    pub amx: bool,
}

/// How a CPU's profile was chosen ([`Cpu::identify`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identified {
    /// The microarchitecture, or `other` for the [`SAFE`] choices.
    pub uarch: &'static str,
    /// Why, in words, for `vecpress inspect --cpu`.
    pub why: String,
}

impl Cpu {
    /// The CPU, read once.
    pub fn current() -> &'static Cpu {
        static CPU: OnceLock<Cpu> = OnceLock::new();
        CPU.get_or_init(read_cpu)
    }

    /// `vendor-family-model`, the name of its record in `perf/` (e.g.
    /// `amd-25-17`).
    ///
    /// ```
    /// let cpu = vecpress::tune::Cpu { vendor: "amd".into(), family: 25, model: 17, name: String::new(), traits: Default::default() };
    /// assert_eq!(cpu.key(), "amd-25-17");
    /// ```
    pub fn key(&self) -> String {
        format!("{}-{}-{}", self.vendor, self.family, self.model)
    }

    /// The microarchitecture of a profile, or `other`.
    ///
    /// ```
    /// use vecpress::tune::{Cpu, Traits};
    /// let zen4 = Cpu { vendor: "amd".into(), family: 25, model: 17, name: String::new(), traits: Traits::default() };
    /// assert_eq!(zen4.uarch(), "zen4");
    /// let zen3 = Cpu { model: 1, ..zen4.clone() };
    /// assert_eq!(zen3.uarch(), "zen3");
    /// let zen2 = Cpu { family: 23, model: 49, ..zen4 };
    /// assert_eq!(zen2.uarch(), "other");
    /// ```
    pub fn uarch(&self) -> &'static str {
        self.identify().uarch
    }

    /// The microarchitecture and why: by the model number where a profile
    /// lists it; else by the features, which no generation before the one
    /// they mark has (AVX-512 FP16 or AMX on Intel: Golden Cove's server
    /// cores or later; AVX-512 on AMD's family 25: Zen 4, whose Zen 3
    /// siblings have none); else `other`, for the [`SAFE`] choices.
    ///
    /// ```
    /// use vecpress::tune::{Cpu, Traits};
    /// // A virtual machine that reports Rocket Lake's model on a core with AMX.
    /// let traits = Traits { avx512: true, avx512_fp16: true, amx: true };
    /// let cpu = Cpu { vendor: "intel".into(), family: 6, model: 167, name: String::new(), traits };
    /// assert_eq!(cpu.identify().uarch, "golden-cove");
    /// assert!(cpu.identify().why.contains("AMX"));
    /// ```
    pub fn identify(&self) -> Identified {
        let id = format!(
            "{} family {} model {}",
            self.vendor, self.family, self.model
        );
        let by_model = match (self.vendor.as_str(), self.family, self.model) {
            // Milan, Vermeer, Rembrandt, Cezanne and their kin.
            ("amd", 25, 0x00..=0x0f | 0x20..=0x2f | 0x40..=0x5f) => Some(("zen3", "Zen 3")),
            // Genoa, Raphael, Phoenix, Storm Peak and their kin.
            ("amd", 25, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf) => Some(("zen4", "Zen 4")),
            ("amd", 26, _) => Some(("zen5", "Zen 5")),
            // Sapphire Rapids and Emerald Rapids.
            ("intel", 6, 143 | 207) => Some(("golden-cove", "Sapphire or Emerald Rapids")),
            _ => None,
        };
        if let Some((uarch, what)) = by_model {
            return Identified {
                uarch,
                why: format!("{id} is {what}"),
            };
        }
        let t = self.traits;
        let by_traits = match (self.vendor.as_str(), self.family) {
            ("intel", 6) if t.avx512_fp16 || t.amx => {
                let marks = match (t.avx512_fp16, t.amx) {
                    (true, true) => "AVX-512 FP16 and AMX",
                    (true, false) => "AVX-512 FP16",
                    _ => "AMX",
                };
                Some((
                    "golden-cove",
                    format!(
                        "{marks}, which Golden Cove's server cores brought: Sapphire Rapids or later"
                    ),
                ))
            }
            ("amd", 25) if t.avx512 => {
                Some(("zen4", "AVX-512, which Zen 4 alone of family 25 has".into()))
            }
            ("amd", 25) => Some(("zen3", "no AVX-512, as Zen 3 of family 25".into())),
            _ => None,
        };
        match by_traits {
            Some((uarch, marks)) => Identified {
                uarch,
                why: format!("{id} is not a model any profile lists; its features tell: {marks}"),
            },
            None => Identified {
                uarch: SAFE.uarch,
                why: format!(
                    "{id} is not a model any profile lists, and its features mark no recorded \
                     generation"
                ),
            },
        }
    }

    /// The profile this CPU dispatches by: its microarchitecture's, else [`SAFE`].
    pub fn profile(&self) -> &'static Profile {
        let uarch = self.uarch();
        PROFILES.iter().find(|p| p.uarch == uarch).unwrap_or(&SAFE)
    }
}

#[cfg(target_arch = "x86_64")]
fn read_cpu() -> Cpu {
    use core::arch::x86_64::__cpuid;
    // CPUID exists on every x86-64 CPU (the intrinsic is safe to call).
    let leaf = __cpuid;
    let l0 = leaf(0);
    let mut vendor = Vec::with_capacity(12);
    for r in [l0.ebx, l0.edx, l0.ecx] {
        vendor.extend_from_slice(&r.to_le_bytes());
    }
    let vendor = match &vendor[..] {
        b"GenuineIntel" => "intel".to_string(),
        b"AuthenticAMD" => "amd".to_string(),
        v => String::from_utf8_lossy(v).trim().to_lowercase(),
    };
    let eax = if l0.eax >= 1 { leaf(1).eax } else { 0 };
    let base_family = (eax >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((eax >> 20) & 0xff)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xf {
        ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0)
    } else {
        (eax >> 4) & 0xf
    };
    let mut name = Vec::with_capacity(48);
    if leaf(0x8000_0000).eax >= 0x8000_0004 {
        for n in 0x8000_0002..=0x8000_0004 {
            let r = leaf(n);
            for x in [r.eax, r.ebx, r.ecx, r.edx] {
                name.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let name = String::from_utf8_lossy(&name)
        .trim_matches(char::from(0))
        .trim()
        .to_string();
    // Leaf 7: AVX-512F is EBX bit 16, AVX512-FP16 EDX bit 23, AMX-TILE EDX
    // bit 24 (Intel SDM, vol. 2A, CPUID).
    let traits = if l0.eax >= 7 {
        let l7 = core::arch::x86_64::__cpuid_count(7, 0);
        Traits {
            avx512: l7.ebx >> 16 & 1 == 1,
            avx512_fp16: l7.edx >> 23 & 1 == 1,
            amx: l7.edx >> 24 & 1 == 1,
        }
    } else {
        Traits::default()
    };
    Cpu {
        vendor,
        family,
        model,
        name,
        traits,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn read_cpu() -> Cpu {
    Cpu {
        vendor: std::env::consts::ARCH.to_string(),
        family: 0,
        model: 0,
        name: std::env::consts::ARCH.to_string(),
        traits: Traits::default(),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(vendor: &str, family: u32, model: u32) -> Cpu {
        Cpu {
            vendor: vendor.into(),
            family,
            model,
            name: String::new(),
            traits: Traits::default(),
        }
    }

    /// A model no profile lists, or one that names another generation than
    /// the core's, is told by its features; without them, the safe choices.
    #[test]
    fn unlisted_models_are_told_by_their_features() {
        let amx = Traits {
            avx512: true,
            avx512_fp16: true,
            amx: true,
        };
        let avx512 = Traits {
            avx512: true,
            ..Traits::default()
        };
        let with = |mut c: Cpu, traits| {
            c.traits = traits;
            c
        };
        // A VM reporting Rocket Lake's model on a Sapphire Rapids core.
        let vm = with(cpu("intel", 6, 167), amx);
        assert_eq!(vm.profile().uarch, "golden-cove");
        assert!(
            vm.identify().why.contains("model 167"),
            "{:?}",
            vm.identify()
        );
        // Granite Rapids (model 173), not listed: AMX tells.
        assert_eq!(with(cpu("intel", 6, 173), amx).uarch(), "golden-cove");
        // Rocket Lake itself: AVX-512 without FP16 or AMX is no Golden Cove.
        assert_eq!(with(cpu("intel", 6, 167), avx512).profile(), &SAFE);
        // AMD family 25, an unlisted model: AVX-512 means Zen 4, none Zen 3.
        assert_eq!(with(cpu("amd", 25, 0x90), avx512).uarch(), "zen4");
        assert_eq!(cpu("amd", 25, 0x90).uarch(), "zen3");
        // A listed model is its profile whatever the features say.
        assert_eq!(with(cpu("amd", 25, 1), avx512).uarch(), "zen3");
        let safe = cpu("amd", 23, 49).identify();
        assert_eq!(safe.uarch, SAFE.uarch);
        assert!(safe.why.contains("family 23"), "{safe:?}");
    }

    #[test]
    fn recorded_cpus_find_their_profile() {
        assert_eq!(cpu("amd", 25, 17).profile().record, "amd-25-17");
        assert_eq!(cpu("amd", 25, 0x61).profile().uarch, "zen4");
        assert_eq!(cpu("amd", 26, 2).profile().uarch, "zen5");
        assert_eq!(cpu("intel", 6, 207).profile().record, "intel-6-207");
        assert_eq!(cpu("intel", 6, 143).profile().uarch, "golden-cove");
        assert_eq!(cpu("amd", 25, 1).profile().record, "amd-25-1");
        assert_eq!(cpu("amd", 25, 0x21).profile().uarch, "zen3");
        // Zen 2, an older Intel core, another vendor: the safe choices.
        for other in [
            cpu("amd", 23, 49),
            cpu("intel", 6, 106),
            cpu("hygon", 24, 0),
        ] {
            assert_eq!(other.profile(), &SAFE, "{other:?}");
        }
    }

    #[test]
    fn profiles_are_one_per_uarch_and_name_only_x86_levels() {
        for (i, p) in PROFILES.iter().enumerate() {
            assert!(PROFILES[..i].iter().all(|q| q.uarch != p.uarch));
            assert!(!p.lz4.is_empty() && !p.lz4.contains(&Variant::Checked));
        }
        for p in PROFILES.iter().chain([&SAFE]) {
            assert!(
                Op::ALL.iter().all(|&op| p.isa(op) != Isa::Neon),
                "{}",
                p.uarch
            );
        }
    }

    #[test]
    fn ops_index_their_choices() {
        for (i, &op) in Op::ALL.iter().enumerate() {
            assert_eq!(op as usize, i);
        }
        // Each op reads its own field: a profile that differs from SAFE in
        // one op's field differs in that op's level alone.
        for &op in Op::ALL {
            let mut one = SAFE;
            let other = if SAFE.isa(op) == Isa::Scalar {
                Isa::Sse41
            } else {
                Isa::Scalar
            };
            match op {
                Op::VByte => one.vbyte = other,
                Op::VByteDelta => one.vbyte_delta = other,
                Op::VarintGb => one.varint_gb = other,
                Op::VarintGbDelta => one.varint_gb_delta = other,
                Op::VarintG8iu => one.varint_g8iu = other,
                Op::VarintG8iuDelta => one.varint_g8iu_delta = other,
                Op::StreamVByte => one.stream_vbyte = other,
                Op::StreamVByteDelta => one.stream_vbyte_delta = other,
                Op::StreamVByte0124 => one.stream_vbyte_0124 = other,
                Op::StreamVByte0124Delta => one.stream_vbyte_0124_delta = other,
                Op::ByteSplit => one.byte_split = other,
                Op::ByteSplitLz4 => one.byte_split_lz4 = other,
                Op::Bp128 => one.bp128 = other,
                Op::Bp128Delta => one.bp128_delta = other,
                Op::FastLanes => one.fastlanes = other,
                Op::FastLanesDelta => one.fastlanes_delta = other,
                Op::FastLanesFor => one.fastlanes_for = other,
            }
            for &o in Op::ALL {
                assert_eq!(one.isa(o) != SAFE.isa(o), o == op, "{op:?} then {o:?}");
            }
        }
    }

    #[test]
    fn choices_never_exceed_the_available_levels() {
        let top = *Isa::available().last().unwrap();
        for &op in Op::ALL {
            let l = isa(op);
            assert!(Isa::available().contains(&l));
            if cfg!(target_arch = "x86_64") {
                let want = Cpu::current().profile().isa(op);
                assert_eq!(l, want.min(top), "{op:?}");
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn cpuid_agrees_with_the_kernel() {
        let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
            return;
        };
        let field = |k: &str| {
            info.lines()
                .find(|l| l.split(':').next().map(str::trim) == Some(k))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| v.trim().to_string())
        };
        let cpu = Cpu::current();
        if let Some(f) = field("cpu family") {
            assert_eq!(f, cpu.family.to_string());
        }
        if let Some(m) = field("model") {
            assert_eq!(m, cpu.model.to_string());
        }
        if let Some(v) = field("vendor_id") {
            let v = match v.as_str() {
                "GenuineIntel" => "intel".to_string(),
                "AuthenticAMD" => "amd".to_string(),
                other => other.to_lowercase(),
            };
            assert_eq!(v, cpu.vendor);
        }
    }
}
