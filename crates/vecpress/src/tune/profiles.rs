//! The profiles: the choices of every recorded microarchitecture, and
//! [`SAFE`], those of a CPU with none. Adding a CPU is one block in
//! [`PROFILES`], its record in `perf/`, and its model in
//! [`Cpu::identify`](super::Cpu::identify).

use super::Profile;
use crate::Isa;
use crate::lz4::block::variant::Variant;

use Isa::{Avx2, Avx512, Sse41};
use Variant::{Copy8, Copy16, Copy32, Shuffle16};

/// The profiles, one per recorded microarchitecture, each naming what it
/// chooses otherwise than [`SAFE`]. Adding a CPU is one block here, its
/// record in `perf/`, and its model in
/// [`Cpu::identify`](super::Cpu::identify). A CPU without a record in
/// `perf/` has no profile: it runs [`SAFE`] (Zen 5, identified, among them).
///
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
/// back). Plain bp128
/// (and PFOR) at AVX2 runs a 256-bit 4-lane kernel measured on Zen 3
/// alone; Zen 4 runs plain blocks at AVX-512 in a form of their own, two
/// lane vectors a 256-bit register ([`bp128_halves`](super::bp128_halves)), where its record
/// ranked the 512-bit form below SSE4.1's baseline kernel; CPUs with no
/// profile choose SSE4.1.
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
    // with GFNI. PFOR adds its exceptions by scalar read-modify-writes. The
    // intersection's merge compares in vectors (the AVX2 kernel): eight
    // compares into mask registers and their `korw`s cost it a third.
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
        merge_in_vectors: true,
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
/// form of [`bp128_halves`](super::bp128_halves), which this profile does not run, and Zen 3
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
    stream_vbyte_encode: Avx512,
    stream_vbyte_seek: Avx512,
    stream_vbyte_short_lists: Avx512,
    stream_vbyte_64: Avx512,
    intersect: Avx512,
    byte_split_encode: Avx512,
    bit_split: Avx512,
    blosc: Avx512,
    bp128_encode: Avx512,
    bp128_lanes8: Avx512,
    fastlanes_encode: Avx512,
    lz4: &[Copy32, Shuffle16, Copy16, Copy8],
    lz4_register_patterns: false,
    bp128_halves: false,
    bit_split_one_pass: false,
    pfor_scalar_patch: false,
    merge_in_vectors: false,
};
