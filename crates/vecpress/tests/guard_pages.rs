//! Decoders against guard pages: every input and output slice is placed so
//! that it starts or ends exactly at an inaccessible (`PROT_NONE`) page, so a
//! kernel that reads or writes one byte outside the slices it is given dies
//! with SIGSEGV instead of passing unnoticed. Each ISA decodes valid streams
//! and blocks (checked value for value) and every truncated prefix (checked
//! to fail). Entries that pick their level themselves (`search_delta`, the
//! block entries without `_with`) run at each level under the
//! `VECPRESS_ISA` cap, as scripts/test.sh runs this file.
#![cfg(unix)]

mod common;

use std::ptr::{self, NonNull};

use common::{Rng, random_bytes, repetitive, running_sum, text_like};
use vecpress::lz4::block;
use vecpress::stream_vbyte::{self as svb, u64 as sv64};
use vecpress::{Error, Isa, byte_split, group_varint::gb, vbyte};

/// Counts of values: empty, around the 4-value groups, 16- and 32-value
/// blocks (Stream VByte's seek chunk is 32), and long runs.
const LENGTHS: [usize; 17] = [
    0, 1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257, 1000,
];

/// The `prev` of the delta codecs: nonzero, so a decoder that ignores it fails.
const PREV: u32 = 5;

/// Poison written to output buffers before a decode.
const FILL: u8 = 0xA5;

/// A read-write region of whole pages between two `PROT_NONE` guard pages.
struct Guarded {
    /// The first byte after the leading guard page.
    start: NonNull<u8>,
    /// The usable bytes, a multiple of the page size.
    len: usize,
    page: usize,
}

impl Guarded {
    /// A region of at least `capacity` usable bytes.
    fn new(capacity: usize) -> Guarded {
        // SAFETY: `sysconf` only reads a configuration value.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let len = capacity.max(1).div_ceil(page) * page;
        // SAFETY: a new anonymous private mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                ptr::null_mut(),
                len + 2 * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED, "mmap");
        let base = base.cast::<u8>();
        // SAFETY: both ranges are whole pages at the ends of the mapping just
        // made, which nothing else refers to.
        unsafe {
            assert_eq!(libc::mprotect(base.cast(), page, libc::PROT_NONE), 0);
            let tail = base.add(page + len).cast();
            assert_eq!(libc::mprotect(tail, page, libc::PROT_NONE), 0);
        }
        // SAFETY: `base + page` is inside the mapping, which is not null.
        let start = unsafe { NonNull::new_unchecked(base.add(page)) };
        Guarded { start, len, page }
    }

    /// All usable bytes, zero-filled by the kernel at first and then holding
    /// whatever was placed last.
    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: the `len` bytes after the leading guard page are mapped
        // read-write and initialised (anonymous pages start zeroed); they
        // belong to `self` alone, and the `&mut self` borrow keeps them mapped
        // and unaliased for the slice's lifetime.
        unsafe { std::slice::from_raw_parts_mut(self.start.as_ptr(), self.len) }
    }

    /// `src` copied so that it ends right before the trailing guard page.
    fn at_end(&mut self, src: &[u8]) -> &[u8] {
        let start = self.len - src.len();
        let dst = &mut self.bytes()[start..];
        dst.copy_from_slice(src);
        dst
    }

    /// `src` copied so that it starts right after the leading guard page.
    fn at_start(&mut self, src: &[u8]) -> &[u8] {
        let dst = &mut self.bytes()[..src.len()];
        dst.copy_from_slice(src);
        dst
    }

    /// `src` copied to the end (`at_end`) or the start of the region.
    fn place(&mut self, src: &[u8], at_end: bool) -> &[u8] {
        if at_end {
            self.at_end(src)
        } else {
            self.at_start(src)
        }
    }

    /// `n` words filled with [`FILL`] bytes, ending right before the trailing
    /// guard page (`at_end`) or starting right after the leading one.
    fn out<T: Word>(&mut self, n: usize, at_end: bool) -> &mut [T] {
        let size = n * size_of::<T>();
        let offset = if at_end { self.len - size } else { 0 };
        self.bytes()[offset..offset + size].fill(FILL);
        // SAFETY: the `size` bytes at `offset` lie in the usable range (the
        // slice above checked it) and are initialised; any bit pattern is a
        // valid `T` (see `Word`); the start is aligned for `T` because both
        // ends of the range are page-aligned and `size` is a multiple of
        // `size_of::<T>()`, itself a multiple of `align_of::<T>()`; the
        // `&mut self` borrow keeps the bytes mapped and unaliased.
        unsafe {
            let p = self.start.as_ptr().add(offset).cast::<T>();
            std::slice::from_raw_parts_mut(p, n)
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: exactly the mapping made in `new`; no slice of it outlives
        // `self`, since every slice borrows it.
        let rc = unsafe {
            let base = self.start.as_ptr().sub(self.page);
            libc::munmap(base.cast(), self.len + 2 * self.page)
        };
        assert_eq!(rc, 0, "munmap");
    }
}

/// Integers that any bit pattern inhabits, so [`Guarded::out`] may hand out
/// poisoned memory as `&mut [Self]`.
///
/// # Safety
/// Every bit pattern of `size_of::<Self>()` bytes must be a valid `Self`.
unsafe trait Word: Copy + Default + PartialEq + std::fmt::Debug {}
// SAFETY: primitive unsigned integers: every bit pattern is a value.
unsafe impl Word for u8 {}
// SAFETY: as for u8.
unsafe impl Word for u16 {}
// SAFETY: as for u8.
unsafe impl Word for u32 {}
// SAFETY: as for u8.
unsafe impl Word for u64 {}

/// The prefix lengths tried for a stream of `len` bytes: all of them for
/// short streams, else the last 80 and a few near the start and middle.
fn cuts(len: usize) -> impl Iterator<Item = usize> {
    (0..len).filter(move |&c| len <= 100 || c + 80 >= len || c < 4 || c % 97 == 0)
}

/// Indices to probe in `n` values: all when few, else a spread and the end.
fn probes(n: usize) -> impl Iterator<Item = usize> {
    (0..n).filter(move |&i| n <= 40 || i % 7 == 0 || i + 3 >= n)
}

type Generate = fn(&mut Rng, usize) -> Vec<u32>;

/// Value generators: (name, values of `n`). Byte widths mixed for the group
/// formats, for VByte, and all-small values (one byte, some zero).
fn generators() -> [(&'static str, Generate); 3] {
    [
        ("byte mix", |r, n| r.values_with_byte_mix(n, 0b1111)),
        ("vbyte mix", |r, n| r.values_with_mix(n, 0b1_1111)),
        ("small", |r, n| {
            (0..n).map(|_| r.below(100) as u32).collect()
        }),
    ]
}

/// A decoder with a chosen kernel, as `decode_with`.
type Decode<T> = fn(Isa, &[u8], &mut [T]) -> Result<usize, Error>;

/// A u32 codec: (name, delta coded, encode, decode with a kernel).
type Codec32 = (&'static str, bool, fn(&[u32]) -> Vec<u8>, Decode<u32>);

fn codecs32() -> Vec<Codec32> {
    #[cfg_attr(not(feature = "g8iu"), allow(unused_mut))]
    let mut v: Vec<Codec32> = vec![
        ("stream vbyte", false, svb::encode_to_vec, svb::decode_with),
        (
            "stream vbyte delta",
            true,
            |v| svb::encode_delta_to_vec(v, PREV),
            |isa, i, o| svb::decode_delta_with(isa, i, o, PREV),
        ),
        (
            "stream vbyte 0124",
            false,
            svb::encode_0124_to_vec,
            svb::decode_0124_with,
        ),
        (
            "stream vbyte 0124 delta",
            true,
            |v| svb::encode_delta_0124_to_vec(v, PREV),
            |isa, i, o| svb::decode_delta_0124_with(isa, i, o, PREV),
        ),
        ("vbyte", false, vbyte::encode_to_vec, vbyte::decode_with),
        (
            "vbyte delta",
            true,
            |v| vbyte::encode_delta_to_vec(v, PREV),
            |isa, i, o| vbyte::decode_delta_with(isa, i, o, PREV),
        ),
        ("gb", false, gb::encode_to_vec, gb::decode_with),
        (
            "gb delta",
            true,
            |v| gb::encode_delta_to_vec(v, PREV),
            |isa, i, o| gb::decode_delta_with(isa, i, o, PREV),
        ),
    ];
    #[cfg(feature = "g8iu")]
    {
        use vecpress::group_varint::g8iu;
        v.push(("g8iu", false, g8iu::encode_to_vec, g8iu::decode_with));
        v.push((
            "g8iu delta",
            true,
            |v| g8iu::encode_delta_to_vec(v, PREV),
            |isa, i, o| g8iu::decode_delta_with(isa, i, o, PREV),
        ));
    }
    v
}

#[test]
fn u32_decoders_stay_inside_their_slices() {
    for (codec, delta, encode, decode) in codecs32() {
        for (generator, make) in generators() {
            for n in LENGTHS {
                let gaps = make(&mut Rng::new(n as u64 + 17), n);
                let values = if delta {
                    running_sum(gaps.iter().copied(), PREV)
                } else {
                    gaps
                };
                check_stream(
                    decode,
                    &encode(&values),
                    &values,
                    &format!("{codec}, {generator}"),
                );
            }
        }
    }
}

/// Decodes `bytes` with every kernel: whole at both ends of the input
/// region, then truncated, then (when short) with each byte flipped.
fn check_stream<T: Word>(decode: Decode<T>, bytes: &[u8], values: &[T], ctx: &str) {
    let n = values.len();
    let (mut input, mut output) = (Guarded::new(bytes.len()), Guarded::new(size_of_val(values)));
    for &isa in Isa::available() {
        let ctx = format!("{ctx}, {isa}, n {n}");
        for at_end in [true, false] {
            let src = input.place(bytes, at_end);
            let out = output.out::<T>(n, true);
            let res = decode(isa, src, out);
            assert_eq!(
                (res, &out[..]),
                (Ok(bytes.len()), values),
                "{ctx}, at end {at_end}"
            );
        }
        for cut in cuts(bytes.len()) {
            let res = decode(isa, input.at_end(&bytes[..cut]), output.out(n, true));
            assert!(res.is_err(), "{ctx}, cut {cut}: {res:?}");
        }
        // Short streams with one byte changed (lengths that claim more or
        // fewer bytes): the scalar kernel's outcome.
        for i in (0..bytes.len()).filter(|_| n <= 33) {
            let mut bad = bytes.to_vec();
            bad[i] ^= 0xFF;
            let mut want = vec![T::default(); n];
            let want_res = decode(Isa::Scalar, &bad, &mut want);
            let out = output.out::<T>(n, true);
            let res = decode(isa, input.at_end(&bad), out);
            let ctx = format!("{ctx}, byte {i} flipped: {res:?}, scalar {want_res:?}");
            assert_eq!(res.is_ok(), want_res.is_ok(), "{ctx}");
            if res.is_ok() {
                assert_eq!((res, &out[..]), (want_res, &want[..]), "{ctx}");
            }
        }
    }
}

/// `n` gaps of one to three bytes whose running sum from [`PREV`] stays
/// below `u32::MAX` for `n <= 1000`: sorted values for `seek_delta`.
fn sorted_gaps(r: &mut Rng, n: usize, small: bool) -> Vec<u32> {
    let mut gap = || match if small { 0 } else { r.below(3) } {
        0 => r.below(1 << 7),
        1 => 1 << 8 | r.below(1 << 15),
        _ => 1 << 16 | r.below(1 << 21),
    };
    (0..n).map(|_| gap() as u32).collect()
}

#[test]
fn stream_vbyte_random_access_stays_inside_its_slice() {
    let mut input = Guarded::new(5 * 1000 + 256);
    for small in [false, true] {
        for n in LENGTHS {
            let gaps = sorted_gaps(&mut Rng::new(n as u64 + 91), n, small);
            let values = running_sum(gaps.iter().copied(), PREV);
            let plain = svb::encode_to_vec(&gaps);
            let delta = svb::encode_delta_to_vec(&values, PREV);
            let mut targets = vec![0, PREV, u32::MAX];
            targets.extend(probes(n).flat_map(|i| [values[i], values[i] + 1]));
            for &isa in Isa::available() {
                let ctx = format!("small {small}, {isa}, n {n}");
                for at_end in [true, false] {
                    let ctx = format!("{ctx}, at end {at_end}");
                    for i in probes(n) {
                        let src = input.place(&plain, at_end);
                        assert_eq!(svb::select(src, n, i), Ok(gaps[i]), "select {i}, {ctx}");
                        let src = input.place(&delta, at_end);
                        let got = svb::select_delta_with(isa, src, n, i, PREV);
                        assert_eq!(got, Ok(values[i]), "select_delta {i}, {ctx}");
                    }
                    let src = input.place(&delta, at_end);
                    for &t in &targets {
                        let want = values.iter().position(|&v| v >= t).map(|j| (j, values[j]));
                        let got = svb::seek_delta_with(isa, src, n, t, PREV);
                        assert_eq!(got, Ok(want), "seek_delta {t}, {ctx}");
                    }
                }
                // Truncated: the last value, and a seek past every value,
                // need every byte.
                for cut in cuts(plain.len()) {
                    let res = svb::select(input.at_end(&plain[..cut]), n, n - 1);
                    assert!(res.is_err(), "select, {ctx}, cut {cut}: {res:?}");
                }
                for cut in cuts(delta.len()) {
                    let src = input.at_end(&delta[..cut]);
                    let res = svb::select_delta_with(isa, src, n, n - 1, PREV);
                    assert!(res.is_err(), "select_delta, {ctx}, cut {cut}: {res:?}");
                    let res = svb::seek_delta_with(isa, src, n, u32::MAX, PREV);
                    assert!(res.is_err(), "seek_delta, {ctx}, cut {cut}: {res:?}");
                }
            }
        }
    }
}

/// Posting lists decoded by one call (two lists: a short one, then `n`
/// values ending the slice) and read by cursors, at every level, the
/// output slice against a guard page too; every truncated prefix fails.
#[test]
fn stream_vbyte_lists_and_cursors_stay_inside_their_slices() {
    use vecpress::postings::Cursor;
    let mut input = Guarded::new(5 * 1000 + 256);
    let mut output = Guarded::new(4 * 1003);
    let first = [3u32, 8, 1 << 20];
    for small in [false, true] {
        for n in LENGTHS {
            let gaps = sorted_gaps(&mut Rng::new(n as u64 + 17), n, small);
            let values = running_sum(gaps.iter().copied(), 0);
            let mut bytes = svb::encode_delta_to_vec(&first, 0);
            let start = bytes.len();
            bytes.extend(svb::encode_delta_to_vec(&values, 0));
            let lists = [(0, first.len()), (start, n)];
            let mut want = first.to_vec();
            want.extend(&values);
            for &isa in Isa::available() {
                for at_end in [true, false] {
                    let ctx = format!("small {small}, {isa}, n {n}, at end {at_end}");
                    let src = input.place(&bytes, at_end);
                    let out = output.out::<u32>(want.len(), at_end);
                    let got = svb::decode_delta_lists_with(isa, src, &lists, out);
                    assert_eq!(got, Ok(want.len()), "{ctx}");
                    assert_eq!(out, &want[..], "{ctx}");
                    let mut c = svb::DeltaCursor::new_with(isa, &src[start..], n, 0).unwrap();
                    let mut read = Vec::new();
                    while let Some(v) = c.next().unwrap() {
                        read.push(v);
                    }
                    assert_eq!(read, values, "cursor, {ctx}");
                }
                for cut in cuts(bytes.len()).filter(|&c| c > start) {
                    let ctx = format!("small {small}, {isa}, n {n}, cut {cut}");
                    let src = input.at_end(&bytes[..cut]);
                    let out = output.out::<u32>(want.len(), true);
                    let res = svb::decode_delta_lists_with(isa, src, &lists, out);
                    assert!(res.is_err(), "{ctx}: {res:?}");
                    let res = svb::DeltaCursor::new_with(isa, &src[start..], n, 0)
                        .and_then(|mut c| c.advance_to(u32::MAX));
                    assert!(res.is_err(), "cursor, {ctx}: {res:?}");
                }
            }
        }
    }
}

#[test]
fn stream_vbyte_u64_decoders_stay_inside_their_slices() {
    let codecs: [(&str, bool, Decode<u64>); 2] = [
        ("u64", false, sv64::decode_with),
        ("u64 delta", true, |isa, i, o| {
            sv64::decode_delta_with(isa, i, o, PREV.into())
        }),
    ];
    for (codec, delta, decode) in codecs {
        for small in [false, true] {
            for n in LENGTHS {
                let mut r = Rng::new(n as u64 + 33);
                let values: Vec<u64> = (0..n)
                    .map(|_| match small {
                        true => r.below(100),
                        false => {
                            let len = 1 + r.below(10) as u32;
                            r.u64_of_len(len)
                        }
                    })
                    .scan(u64::from(PREV), |acc, x| {
                        *acc = if delta { acc.wrapping_add(x) } else { x };
                        Some(*acc)
                    })
                    .collect();
                let bytes = match delta {
                    true => sv64::encode_delta_to_vec(&values, PREV.into()),
                    false => sv64::encode_to_vec(&values),
                };
                check_stream(decode, &bytes, &values, &format!("{codec}, small {small}"));
            }
        }
    }
}

/// Byte stream split by definition: stream `j` holds byte `j` of each value.
fn split(data: &[u8], width: usize) -> Vec<u8> {
    let n = data.len() / width;
    (0..data.len())
        .map(|k| data[(k % n) * width + k / n])
        .collect()
}

#[test]
fn byte_split_stays_inside_its_slices() {
    for width in [1usize, 2, 3, 4, 5, 8, 12, 16] {
        for n in [
            0usize, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257,
        ] {
            let data = random_bytes(n * width, (n * width) as u64);
            let streams = split(&data, width);
            let len = data.len();
            let (mut input, mut output) = (Guarded::new(len + 1), Guarded::new(len + 1));
            for &isa in Isa::available() {
                for at_end in [true, false] {
                    let ctx = format!("width {width}, {isa}, n {n}, at end {at_end}");
                    let src = input.place(&data, at_end);
                    let out = output.out::<u8>(len, at_end);
                    assert_eq!(
                        byte_split::encode_with(isa, src, width, out),
                        Ok(len),
                        "{ctx}"
                    );
                    assert_eq!(out, &streams[..], "encode, {ctx}");
                    let src = input.place(&streams, at_end);
                    let out = output.out::<u8>(len, at_end);
                    assert_eq!(
                        byte_split::decode_with(isa, src, width, out),
                        Ok(len),
                        "{ctx}"
                    );
                    assert_eq!(out, &data[..], "decode, {ctx}");
                }
                if width > 1 {
                    // Not a whole number of values.
                    let ragged = random_bytes(len + 1, 7);
                    let src = input.at_end(&ragged);
                    let res = byte_split::decode_with(isa, src, width, output.out(len + 1, true));
                    assert!(res.is_err(), "ragged, width {width}, {isa}, n {n}");
                }
            }
        }
    }
}

/// Bytes that repeat with a short period: matches at offsets 1..16, which
/// the pattern-shuffle loops start with a shuffle.
fn short_periods(n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let period = 1 + r.below(16) as usize;
        let pattern = random_bytes(period, r.next_u64());
        let run = 4 + r.below(64) as usize;
        out.extend((0..run).map(|i| pattern[i % period]));
        out.extend(random_bytes(r.below(4) as usize, r.next_u64()));
    }
    out.truncate(n);
    out
}

/// Decodes `src` with every variant into exactly `n` bytes at both ends of
/// `output`, and checks against `block::validate`: `Ok(size)` when the block
/// is valid and fits, with `data[..size]` when given, else `Err`.
fn check_lz4(src: &[u8], n: usize, output: &mut Guarded, data: Option<&[u8]>, ctx: &str) {
    let want = block::validate(src).ok().filter(|&size| size <= n);
    for v in block::variants() {
        for at_end in [true, false] {
            let out = output.out::<u8>(n, at_end);
            let res = block::decompress_into_variant(v, src, out);
            let ctx = format!("{ctx}, {v}, out at end {at_end}: {res:?}");
            match want {
                Some(size) => {
                    assert_eq!(res, Ok(size), "{ctx}");
                    if let Some(data) = data {
                        assert_eq!(&out[..size], &data[..size], "{ctx}");
                    }
                }
                None => assert!(res.is_err(), "{ctx}"),
            }
        }
    }
}

#[test]
fn lz4_block_decoders_stay_inside_their_slices() {
    type Make = fn(usize, u64) -> Vec<u8>;
    let kinds: [(&str, Make); 4] = [
        ("text", text_like),
        ("random", random_bytes),
        ("repetitive", repetitive),
        ("short periods", short_periods),
    ];
    for (kind, make) in kinds {
        let sizes = [
            0, 1, 5, 12, 13, 15, 16, 17, 31, 32, 33, 64, 65, 100, 257, 1000, 5000, 70_000,
        ];
        for n in sizes {
            let data = make(n, n as u64 + 5);
            let packed = block::compress(&data);
            let (mut input, mut output) = (Guarded::new(packed.len()), Guarded::new(n));
            for at_end in [true, false] {
                let src = input.place(&packed, at_end);
                let ctx = format!("{kind}, n {n}, input at end {at_end}");
                assert_eq!(block::validate(src), Ok(n), "{ctx}");
                check_lz4(src, n, &mut output, Some(&data), &ctx);
            }
            for cut in cuts(packed.len()) {
                let ctx = format!("{kind}, n {n}, cut {cut}");
                check_lz4(
                    input.at_end(&packed[..cut]),
                    n,
                    &mut output,
                    Some(&data),
                    &ctx,
                );
            }
            // Corrupt blocks: matches that reach before the output's start
            // or past its end must be caught, not followed.
            if n <= 1000 {
                for i in packed.len().saturating_sub(64)..packed.len() {
                    let mut bad = packed.clone();
                    bad[i] ^= 0xFF;
                    let ctx = format!("{kind}, n {n}, byte {i} flipped");
                    check_lz4(input.at_end(&bad), n, &mut output, None, &ctx);
                }
            }
        }
    }
}

#[path = "guard_pages/bitpack.rs"]
mod bitpack;
