//! The peers of `vecpress bench` that must be compiled for the CPU they run
//! on to run at their best, behind a C interface.
//!
//! The `fastlanes` crate is written for the compiler to vectorise and has no
//! run-time dispatch: its README benchmarks it with
//! `RUSTFLAGS='-C target-cpu=native'`, and its kernels are `#[inline(never)]`,
//! so a `#[target_feature]` wrapper around them would still run the baseline
//! build. `varint-simd` chooses its SSSE3, AVX2 and BMI2 paths with
//! `cfg(target_feature)` when it is compiled, and asks for
//! `target-cpu=native` with its `native-optimizations` feature; `streamvbyte64`
//! compiles its x86 kernels only for a target with SSE3 (its `Coder1234`)
//! or SSE4.1 (its `Coder1248`), which baseline x86-64 lacks; and `lz4_flex`
//! is at its fastest with its default features off (its unsafe decoder,
//! here with the checks that keep it in bounds). Cargo cannot
//! give one dependency flags of its own, so the CLI's build script compiles
//! this crate in a separate cargo build with the native target, as a shared
//! library, and the bench loads it (crates/vecpress-cli/src/bench/peers/native.rs).
//!
//! Each function takes what the crate's own users pass it; the framing of
//! the bench's streams is read by the caller.
#![deny(clippy::undocumented_unsafe_blocks)]

/// The interface version: the loader refuses a library of another.
pub const ABI: u32 = 3;

/// The interface version of this library.
#[unsafe(no_mangle)]
pub extern "C" fn vp_native_abi() -> u32 {
    ABI
}

/// The target features this library was compiled with that matter to its
/// kernels, one bit each in the order of [`FEATURES`], for the bench's notes.
#[unsafe(no_mangle)]
pub extern "C" fn vp_native_features() -> u32 {
    let on = [
        cfg!(target_feature = "sse4.1"),
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "bmi2"),
        cfg!(target_feature = "avx512f"),
        cfg!(target_feature = "avx512bw"),
        cfg!(target_feature = "avx512vbmi2"),
        cfg!(target_feature = "neon"),
    ];
    on.iter()
        .enumerate()
        .fold(0, |bits, (i, &set)| bits | (u32::from(set) << i))
}

/// The names of the bits of [`vp_native_features`], as rustc names them.
pub const FEATURES: [&str; 7] = [
    "sse4.1",
    "avx2",
    "bmi2",
    "avx512f",
    "avx512bw",
    "avx512vbmi2",
    "neon",
];

/// `$body` with `$w` a constant width and `$b` its packed words (32 per
/// bit of width), for the run-time width `$width`; `$none` above 32.
macro_rules! by_width {
    ($width:expr, $none:expr, |$w:ident, $b:ident| $body:expr) => {
        by_width!(@arms $width, $none, $w, $b, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17
            18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
    };
    (@arms $width:expr, $none:expr, $w:ident, $b:ident, $body:expr; $($n:literal)*) => {
        match $width {
            $($n => {
                const $w: usize = $n;
                const $b: usize = 32 * $n;
                $body
            })*
            _ => $none,
        }
    };
}

/// Unpacks one FastLanes block of 1024 u32 values packed `width` bits each
/// (`32 * width` words at `packed`) with the crate's `BitPacking::unpack`;
/// with `bases` (32 per-lane bases) not null, with its fused
/// `Delta::undelta_pack` and then `Transpose::untranspose` into the values'
/// order, as the crate's users decode a delta block. Returns 0, or -1 for a
/// width above 32.
///
/// # Safety
/// `packed` points to `32 * width` readable, aligned u32 words, `out` to
/// 1024 writable, aligned u32 words that overlap nothing else passed, and
/// `bases`, when not null, to 32 readable u32 words.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vp_native_fastlanes_unpack(
    width: u32,
    packed: *const u32,
    bases: *const u32,
    out: *mut u32,
) -> i32 {
    use fastlanes::{BitPacking, Delta, Transpose};

    // SAFETY: the caller gives 1024 aligned writable words at `out`.
    let out: &mut [u32; 1024] = unsafe { &mut *out.cast::<[u32; 1024]>() };
    by_width!(width, -1, |W, B| {
        // SAFETY: the caller gives `32 * width` = B aligned words at `packed`.
        let packed: &[u32; B] = unsafe { &*packed.cast::<[u32; B]>() };
        if bases.is_null() {
            u32::unpack::<W, B>(packed, out);
        } else {
            // SAFETY: not null, so 32 readable words, as the caller promises.
            let bases: &[u32; 32] = unsafe { &*bases.cast::<[u32; 32]>() };
            let mut lanes = [0u32; 1024];
            u32::undelta_pack::<32, W, B>(packed, bases, &mut lanes);
            u32::untranspose(&lanes, out);
        }
        0
    })
}

/// Decodes `n` LEB128 u32 values from the `len` bytes at `input` with
/// varint-simd's `decode::<u32>`, value by value, as its README decodes a
/// stream; the caller's input carries 16 readable bytes past any value, so
/// every call takes the crate's 16-byte path. Returns the bytes read, or -1
/// for a malformed or truncated stream.
///
/// # Safety
/// `input` points to `len` readable bytes and `out` to `n` writable u32
/// words, not overlapping.
#[cfg(target_arch = "x86_64")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vp_native_varint_simd_decode(
    input: *const u8,
    len: usize,
    out: *mut u32,
    n: usize,
) -> isize {
    // SAFETY: the caller gives `len` readable bytes at `input`.
    let input = unsafe { std::slice::from_raw_parts(input, len) };
    // SAFETY: the caller gives `n` writable words at `out`, apart from `input`.
    let out = unsafe { std::slice::from_raw_parts_mut(out, n) };
    let mut pos = 0;
    for slot in out.iter_mut() {
        let Some(rest) = input.get(pos..) else {
            return -1;
        };
        match varint_simd::decode::<u32>(rest) {
            Ok((value, read)) if read <= rest.len() => {
                *slot = value;
                pos += read;
            }
            _ => return -1,
        }
    }
    pos as isize
}

/// Decodes `n` u32 values (`delta`: gaps from 0, written as their running
/// sum) of a Stream VByte stream, its `ceil(n / 4)` control bytes and then
/// its data, from the `len` bytes at `input`, with the `streamvbyte64`
/// crate's `Coder1234`. The crate decodes whole groups of four, so the last,
/// partial group goes through a scratch group (the control bits of absent
/// values are 0: one phantom data byte each). Returns the bytes read, or -1
/// when `len` is less than `5 * n + 64` (the crate reads whole groups and
/// trusts its input).
///
/// # Safety
/// `input` points to `len` readable bytes and `out` to `n` writable u32
/// words, not overlapping.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vp_native_streamvbyte64_decode(
    input: *const u8,
    len: usize,
    out: *mut u32,
    n: usize,
    delta: bool,
) -> isize {
    use streamvbyte64::{Coder, Coder1234};

    // SAFETY: the caller gives `len` readable bytes at `input`.
    let input = unsafe { std::slice::from_raw_parts(input, len) };
    // SAFETY: the caller gives `n` writable words at `out`, apart from `input`.
    let out = unsafe { std::slice::from_raw_parts_mut(out, n) };
    let tag_len = n.div_ceil(4);
    if input.len() < 5 * n + 64 {
        return -1;
    }
    let (tags, data) = input.split_at(tag_len);
    let coder = Coder1234::new();
    let whole = n / 4 * 4;
    let decode = |tags: &[u8], data: &[u8], values: &mut [u32], initial: u32| {
        if delta {
            coder.decode_deltas(initial, tags, data, values)
        } else {
            coder.decode(tags, data, values)
        }
    };
    let mut used = decode(&tags[..whole / 4], data, &mut out[..whole], 0);
    if whole < n {
        let mut group = [0u32; 4];
        let initial = if delta && whole > 0 {
            out[whole - 1]
        } else {
            0
        };
        used += decode(&tags[whole / 4..], &data[used..], &mut group, initial);
        out[whole..].copy_from_slice(&group[..n - whole]);
        used -= 4 - (n - whole);
    }
    (tag_len + used) as isize
}

/// Compresses the `len` bytes at `input` into the `cap` bytes at `out` as
/// one LZ4 block with `lz4_flex::block::compress_into`; returns the
/// compressed length, or -1 when `cap` is below the crate's bound.
///
/// # Safety
/// `input` points to `len` readable bytes and `out` to `cap` writable
/// bytes, not overlapping.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vp_native_lz4_flex_compress(
    input: *const u8,
    len: usize,
    out: *mut u8,
    cap: usize,
) -> isize {
    // SAFETY: the caller gives `len` readable bytes at `input`.
    let input = unsafe { std::slice::from_raw_parts(input, len) };
    // SAFETY: the caller gives `cap` writable bytes at `out`, apart from `input`.
    let out = unsafe { std::slice::from_raw_parts_mut(out, cap) };
    lz4_flex::block::compress_into(input, out).map_or(-1, |n| n as isize)
}

/// Decompresses the LZ4 block of `len` bytes at `input` into the `cap`
/// bytes at `out` with `lz4_flex::block::decompress_into`; returns the
/// decompressed length, or -1 for a malformed block or one that does not fit.
///
/// # Safety
/// As [`vp_native_lz4_flex_compress`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn vp_native_lz4_flex_decompress(
    input: *const u8,
    len: usize,
    out: *mut u8,
    cap: usize,
) -> isize {
    // SAFETY: the caller gives `len` readable bytes at `input`.
    let input = unsafe { std::slice::from_raw_parts(input, len) };
    // SAFETY: the caller gives `cap` writable bytes at `out`, apart from `input`.
    let out = unsafe { std::slice::from_raw_parts_mut(out, cap) };
    lz4_flex::block::decompress_into(input, out).map_or(-1, |n| n as isize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every width round-trips through the crate's pack and this unpack,
    /// plain and delta, and a width above 32 is refused.
    #[test]
    fn fastlanes_unpack_every_width() {
        use fastlanes::{BitPacking, Delta, Transpose};
        for width in 0..=32u32 {
            let mask = if width == 32 {
                u32::MAX
            } else {
                (1u32 << width) - 1
            };
            let values: Vec<u32> = (0..1024u32)
                .map(|i| i.wrapping_mul(2_654_435_761) & mask)
                .collect();
            let values: [u32; 1024] = values.try_into().unwrap();
            let mut packed = vec![0u32; 32 * width as usize];
            // SAFETY: 1024 inputs, `32 * width` output words, width <= 32.
            unsafe { u32::unchecked_pack(width as usize, &values, &mut packed) };
            let mut out = [0u32; 1024];
            // SAFETY: the sizes the function asks for, apart from each other.
            let rc = unsafe {
                vp_native_fastlanes_unpack(
                    width,
                    packed.as_ptr(),
                    std::ptr::null(),
                    out.as_mut_ptr(),
                )
            };
            assert_eq!(rc, 0);
            assert_eq!(out, values, "width {width}");

            // Delta: the gaps of a transposed sorted block from per-lane bases.
            let mut sorted = values;
            sorted.iter_mut().for_each(|v| *v >>= 10);
            for i in 1..1024 {
                sorted[i] = sorted[i - 1].wrapping_add(sorted[i]);
            }
            let bases = [7u32; 32];
            let mut transposed = [0u32; 1024];
            u32::transpose(&sorted, &mut transposed);
            let mut gaps = [0u32; 1024];
            u32::delta(&transposed, &bases, &mut gaps);
            let gap_width = 32 - gaps.iter().fold(0, |a, &g| a | g).leading_zeros();
            let mut packed = vec![0u32; 32 * gap_width as usize];
            // SAFETY: as above.
            unsafe { u32::unchecked_pack(gap_width as usize, &gaps, &mut packed) };
            // SAFETY: as above, with 32 bases.
            let rc = unsafe {
                vp_native_fastlanes_unpack(
                    gap_width,
                    packed.as_ptr(),
                    bases.as_ptr(),
                    out.as_mut_ptr(),
                )
            };
            assert_eq!(rc, 0);
            assert_eq!(out, sorted, "delta width {gap_width}");
        }
        let mut out = [0u32; 1024];
        // SAFETY: width 33 is refused before any pointer is read.
        let rc = unsafe {
            vp_native_fastlanes_unpack(33, [0u32; 8].as_ptr(), std::ptr::null(), out.as_mut_ptr())
        };
        assert_eq!(rc, -1);
    }

    /// A block round-trips; a cut block or a short buffer is refused.
    #[test]
    fn lz4_flex_round_trips() {
        let text: Vec<u8> = (0..20_000u32)
            .map(|i| ((i % 251) ^ (i / 97)) as u8)
            .collect();
        let mut packed = vec![0u8; lz4_flex::block::get_maximum_output_size(text.len())];
        // SAFETY: the lengths given are the buffers'.
        let n = unsafe {
            vp_native_lz4_flex_compress(
                text.as_ptr(),
                text.len(),
                packed.as_mut_ptr(),
                packed.len(),
            )
        };
        assert!(n > 0);
        let mut out = vec![0u8; text.len()];
        // SAFETY: as above.
        let m = unsafe {
            vp_native_lz4_flex_decompress(packed.as_ptr(), n as usize, out.as_mut_ptr(), out.len())
        };
        assert_eq!(m, text.len() as isize);
        assert_eq!(out, text);
        // SAFETY: as above.
        let cut = unsafe {
            vp_native_lz4_flex_decompress(
                packed.as_ptr(),
                n as usize / 2,
                out.as_mut_ptr(),
                out.len(),
            )
        };
        assert_eq!(cut, -1);
        // SAFETY: as above.
        let short = unsafe {
            vp_native_lz4_flex_decompress(packed.as_ptr(), n as usize, out.as_mut_ptr(), 100)
        };
        assert_eq!(short, -1);
    }

    /// Values of every length round-trip; a cut stream is refused.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn varint_simd_decodes_leb128() {
        let values: Vec<u32> = (0..500u32)
            .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
            .collect();
        let mut bytes = Vec::new();
        for &v in &values {
            let mut v = v;
            while v >= 0x80 {
                bytes.push(v as u8 | 0x80);
                v >>= 7;
            }
            bytes.push(v as u8);
        }
        let len = bytes.len();
        bytes.resize(len + 16, 0);
        let mut out = vec![0u32; values.len()];
        // SAFETY: the lengths given are the buffers'.
        let read = unsafe {
            vp_native_varint_simd_decode(bytes.as_ptr(), bytes.len(), out.as_mut_ptr(), out.len())
        };
        assert_eq!(read, len as isize);
        assert_eq!(out, values);
        // A value whose continuation bits run past the stream.
        let cut = [0xffu8; 3];
        // SAFETY: as above.
        let read =
            unsafe { vp_native_varint_simd_decode(cut.as_ptr(), cut.len(), out.as_mut_ptr(), 1) };
        assert_eq!(read, -1);
        assert!(vp_native_features() < 1 << FEATURES.len());
    }
}
