//! The registry: every codec under a stable id and name, behind one trait per
//! kind of data, so that the CLI, the benchmarks and the bindings treat them
//! alike: [`IntCodec`] for slices of u32 ([`int_codecs`]), [`ByteCodec`] for
//! bytes, raw or fixed-width values ([`byte_codecs`]). Ids are unique across
//! both kinds.
//!
//! ```
//! use vecpress::{codec, Isa};
//!
//! let c = codec::find("vbyte-delta").unwrap();
//! let values = [10u32, 20, 30];
//! let mut bytes = vec![0u8; c.max_encoded_len(values.len())];
//! let len = c.encode(&values, &mut bytes);
//! let mut out = [0u32; 3];
//! assert_eq!(c.decode(Isa::best(), &bytes[..len], &mut out), Ok(len));
//! assert_eq!(out, values);
//! ```
#![forbid(unsafe_code)]

use crate::bitpack::bp128;
use crate::bitpack::fastlanes;
use crate::bitpack::pfor;
#[cfg(feature = "g8iu")]
use crate::group_varint::g8iu;
use crate::group_varint::gb;
use crate::lz4::block as lz4;
use crate::lz4::hc;
use crate::tune::{self, Op};
use crate::{Error, Isa, bit_split, blosc, byte_split, stream_vbyte as svb, vbyte};

/// A codec for slices of u32 whose count is kept by the caller.
pub trait IntCodec: Send + Sync {
    /// Stable numeric id (recorded in files; never reused).
    fn id(&self) -> u16;
    /// Stable name, as the CLI and benchmarks spell it.
    fn name(&self) -> &'static str;
    /// Whether the codec stores gaps (values are then expected sorted).
    fn is_delta(&self) -> bool;
    /// Worst-case encoded size of `n` values.
    fn max_encoded_len(&self, n: usize) -> usize;
    /// The most values `len` bytes can decode to: the format's expansion
    /// bound. A caller that takes its count from elsewhere (a file, a
    /// header) can refuse a count above it before allocating.
    fn max_decoded_len(&self, len: usize) -> usize;
    /// Encodes `values`; returns the bytes written. `out` must hold
    /// [`IntCodec::max_encoded_len`] bytes.
    fn encode(&self, values: &[u32], out: &mut [u8]) -> usize;
    /// Decodes `out.len()` values with the kernel of `isa`; returns the bytes consumed.
    fn decode(&self, isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error>;
    /// The available levels that have a decoding kernel of their own.
    fn kernels(&self) -> Vec<Isa>;
    /// Decodes as the codec's own `decode` function does: with the default
    /// dispatch, the kernel [`IntCodec::auto_kernel`] names.
    fn decode_auto(&self, input: &[u8], out: &mut [u32]) -> Result<usize, Error>;
    /// The level the default dispatch decodes with on this CPU
    /// ([`tune::isa`]).
    fn auto_kernel(&self) -> Isa;
}

/// A decoder of u32 with the kernel of an ISA level.
type DecodeFn = fn(Isa, &[u8], &mut [u32]) -> Result<usize, Error>;

/// An integer codec described by its functions: one row of the table below.
struct Int {
    id: u16,
    name: &'static str,
    delta: bool,
    max_encoded_len: fn(usize) -> usize,
    max_decoded_len: fn(usize) -> usize,
    encode: fn(&[u32], &mut [u8]) -> usize,
    decode: DecodeFn,
    decode_auto: fn(&[u8], &mut [u32]) -> Result<usize, Error>,
    op: Op,
    kernels: fn() -> Vec<Isa>,
}

impl IntCodec for Int {
    fn id(&self) -> u16 {
        self.id
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn is_delta(&self) -> bool {
        self.delta
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        (self.max_encoded_len)(n)
    }
    fn max_decoded_len(&self, len: usize) -> usize {
        (self.max_decoded_len)(len)
    }
    fn encode(&self, values: &[u32], out: &mut [u8]) -> usize {
        (self.encode)(values, out)
    }
    fn decode(&self, isa: Isa, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
        (self.decode)(isa, input, out)
    }
    fn kernels(&self) -> Vec<Isa> {
        (self.kernels)()
    }
    fn decode_auto(&self, input: &[u8], out: &mut [u32]) -> Result<usize, Error> {
        (self.decode_auto)(input, out)
    }
    fn auto_kernel(&self) -> Isa {
        tune::isa(self.op)
    }
}

/// Every integer codec, in id order. Delta codecs code the gaps from 0, with
/// the prefix sum fused into decoding.
static CODECS: &[&dyn IntCodec] = &[
    &Int {
        id: 1,
        name: "vbyte",
        delta: false,
        max_encoded_len: vbyte::max_encoded_len,
        max_decoded_len: |len| len,
        encode: vbyte::encode,
        decode: vbyte::decode_with,
        decode_auto: vbyte::decode,
        op: Op::VByte,
        kernels: vbyte::kernels,
    },
    &Int {
        id: 2,
        name: "vbyte-delta",
        delta: true,
        max_encoded_len: vbyte::max_encoded_len,
        max_decoded_len: |len| len,
        encode: |v, out| vbyte::encode_delta(v, 0, out),
        decode: |isa, input, out| vbyte::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| vbyte::decode_delta(i, o, 0),
        op: Op::VByteDelta,
        kernels: vbyte::kernels,
    },
    &Int {
        id: 3,
        name: "varint-gb",
        delta: false,
        max_encoded_len: gb::max_encoded_len,
        max_decoded_len: |len| len,
        encode: gb::encode,
        decode: gb::decode_with,
        decode_auto: gb::decode,
        op: Op::VarintGb,
        kernels: gb::kernels,
    },
    &Int {
        id: 4,
        name: "varint-gb-delta",
        delta: true,
        max_encoded_len: gb::max_encoded_len,
        max_decoded_len: |len| len,
        encode: |v, out| gb::encode_delta(v, 0, out),
        decode: |isa, input, out| gb::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| gb::decode_delta(i, o, 0),
        op: Op::VarintGbDelta,
        kernels: gb::kernels,
    },
    #[cfg(feature = "g8iu")]
    &Int {
        id: 5,
        name: "varint-g8iu",
        delta: false,
        max_encoded_len: g8iu::max_encoded_len,
        max_decoded_len: |len| len,
        encode: g8iu::encode,
        decode: g8iu::decode_with,
        decode_auto: g8iu::decode,
        op: Op::VarintG8iu,
        kernels: g8iu::kernels,
    },
    #[cfg(feature = "g8iu")]
    &Int {
        id: 6,
        name: "varint-g8iu-delta",
        delta: true,
        max_encoded_len: g8iu::max_encoded_len,
        max_decoded_len: |len| len,
        encode: |v, out| g8iu::encode_delta(v, 0, out),
        decode: |isa, input, out| g8iu::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| g8iu::decode_delta(i, o, 0),
        op: Op::VarintG8iuDelta,
        kernels: g8iu::kernels,
    },
    &Int {
        id: 7,
        name: "stream-vbyte",
        delta: false,
        max_encoded_len: svb::max_encoded_len,
        max_decoded_len: |len| len,
        encode: svb::encode,
        decode: svb::decode_with,
        decode_auto: svb::decode,
        op: Op::StreamVByte,
        kernels: svb::kernels,
    },
    &Int {
        id: 8,
        name: "stream-vbyte-delta",
        delta: true,
        max_encoded_len: svb::max_encoded_len,
        max_decoded_len: |len| len,
        encode: |v, out| svb::encode_delta(v, 0, out),
        decode: |isa, input, out| svb::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| svb::decode_delta(i, o, 0),
        op: Op::StreamVByteDelta,
        kernels: svb::kernels,
    },
    &Int {
        id: 9,
        name: "stream-vbyte-0124",
        delta: false,
        max_encoded_len: svb::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(4),
        encode: svb::encode_0124,
        decode: svb::decode_0124_with,
        decode_auto: svb::decode_0124,
        op: Op::StreamVByte0124,
        kernels: svb::kernels,
    },
    &Int {
        id: 10,
        name: "stream-vbyte-0124-delta",
        delta: true,
        max_encoded_len: svb::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(4),
        encode: |v, out| svb::encode_delta_0124(v, 0, out),
        decode: |isa, input, out| svb::decode_delta_0124_with(isa, input, out, 0),
        decode_auto: |i, o| svb::decode_delta_0124(i, o, 0),
        op: Op::StreamVByte0124Delta,
        kernels: svb::kernels,
    },
    &Int {
        id: 11,
        name: "bp128",
        delta: false,
        max_encoded_len: bp128::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(128),
        encode: bp128::encode,
        decode: bp128::decode_with,
        decode_auto: bp128::decode,
        op: Op::Bp128,
        kernels: bp128::kernels,
    },
    &Int {
        id: 12,
        name: "bp128-delta",
        delta: true,
        max_encoded_len: bp128::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(128),
        encode: |v, out| bp128::encode_delta(v, 0, out),
        decode: |isa, input, out| bp128::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| bp128::decode_delta(i, o, 0),
        op: Op::Bp128Delta,
        kernels: bp128::kernels,
    },
    &Int {
        id: 20,
        name: "fastlanes",
        delta: false,
        max_encoded_len: fastlanes::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(fastlanes::BLOCK),
        encode: fastlanes::encode,
        decode: fastlanes::decode_with,
        decode_auto: fastlanes::decode,
        op: Op::FastLanes,
        kernels: fastlanes::kernels,
    },
    &Int {
        id: 21,
        name: "fastlanes-delta",
        delta: true,
        max_encoded_len: fastlanes::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(fastlanes::BLOCK),
        encode: |v, out| fastlanes::encode_delta(v, 0, out),
        decode: |isa, input, out| fastlanes::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| fastlanes::decode_delta(i, o, 0),
        op: Op::FastLanesDelta,
        kernels: fastlanes::kernels,
    },
    &Int {
        id: 22,
        name: "fastlanes-for",
        delta: false,
        max_encoded_len: fastlanes::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(fastlanes::BLOCK),
        encode: fastlanes::encode_for,
        decode: fastlanes::decode_for_with,
        decode_auto: fastlanes::decode_for,
        op: Op::FastLanesFor,
        kernels: fastlanes::kernels,
    },
    // PFOR: its packed part runs the bp128 kernels, so it follows bp128's
    // levels.
    &Int {
        id: 23,
        name: "pfor",
        delta: false,
        max_encoded_len: pfor::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(pfor::BLOCK_LEN),
        encode: pfor::encode,
        decode: pfor::decode_with,
        decode_auto: pfor::decode,
        op: Op::Bp128,
        kernels: pfor::kernels,
    },
    &Int {
        id: 24,
        name: "pfor-delta",
        delta: true,
        max_encoded_len: pfor::max_encoded_len,
        max_decoded_len: |len| len.saturating_mul(pfor::BLOCK_LEN),
        encode: |v, out| pfor::encode_delta(v, 0, out),
        decode: |isa, input, out| pfor::decode_delta_with(isa, input, out, 0),
        decode_auto: |i, o| pfor::decode_delta(i, o, 0),
        op: Op::Bp128Delta,
        kernels: pfor::kernels,
    },
];

/// Every integer codec, in id order.
///
/// ```
/// let names: Vec<_> = vecpress::codec::int_codecs().iter().map(|c| c.name()).collect();
/// assert!(names.contains(&"vbyte"));
/// ```
pub fn int_codecs() -> &'static [&'static dyn IntCodec] {
    CODECS
}

/// A codec for bytes: a general-purpose compressor, or a transform of
/// fixed-width values (whose width it is told).
pub trait ByteCodec: Send + Sync {
    /// Stable numeric id (recorded in files; never reused; unique across kinds).
    fn id(&self) -> u16;
    /// Stable name, as the CLI and benchmarks spell it.
    fn name(&self) -> &'static str;
    /// Whether it works on values of a fixed width (given to `encode` and
    /// `decode`); one that does not takes any bytes and ignores the width.
    fn needs_width(&self) -> bool;
    /// Worst-case encoded size of `n` bytes.
    fn max_encoded_len(&self, n: usize) -> usize;
    /// The most bytes `len` bytes can decode to: the format's expansion
    /// bound. A caller that takes the decoded size from elsewhere (a file,
    /// a header) can refuse a size above it before allocating.
    fn max_decoded_len(&self, len: usize) -> usize;
    /// Encodes `input` (values of `width` bytes where the codec needs a
    /// width); returns the bytes written to `out`, which must hold
    /// [`ByteCodec::max_encoded_len`] bytes.
    fn encode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error>;
    /// Decodes `input` into `out`, sized by the caller to the decoded length,
    /// with the kernel of `isa`; returns the bytes written.
    fn decode(&self, isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error>;
    /// [`ByteCodec::encode`] with the kernel of `isa`, for a codec whose
    /// encoder has kernels per level; `None` for the others (their one
    /// encoder serves every level).
    fn encode_with(
        &self,
        isa: Isa,
        input: &[u8],
        width: usize,
        out: &mut [u8],
    ) -> Option<Result<usize, Error>>;
    /// The available levels that have a decoding kernel of their own.
    fn kernels(&self) -> Vec<Isa>;
    /// Decodes as the codec's own `decode` function does: with the default
    /// dispatch, the kernel [`ByteCodec::auto_kernel`] names.
    fn decode_auto(&self, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error>;
    /// The kernel the default dispatch decodes with on this CPU: a level's
    /// name, or for LZ4 a loop's ([`tune::lz4_variant`]).
    fn auto_kernel(&self) -> &'static str;
}

/// An encoder of values of a width (ignored by codecs without one).
type ByteEncodeFn = fn(&[u8], usize, &mut [u8]) -> Result<usize, Error>;
/// An encoder of values of a width with the kernel of an ISA level.
type ByteEncodeWithFn = fn(Isa, &[u8], usize, &mut [u8]) -> Result<usize, Error>;
/// A decoder of values of a width with the default dispatch.
type ByteDecodeAutoFn = fn(&[u8], usize, &mut [u8]) -> Result<usize, Error>;
/// A decoder of values of a width with the kernel of an ISA level.
type ByteDecodeFn = fn(Isa, &[u8], usize, &mut [u8]) -> Result<usize, Error>;

/// A byte codec described by its functions: one row of the table below.
struct Bytes {
    id: u16,
    name: &'static str,
    needs_width: bool,
    max_encoded_len: fn(usize) -> usize,
    max_decoded_len: fn(usize) -> usize,
    encode: ByteEncodeFn,
    encode_with: Option<ByteEncodeWithFn>,
    decode: ByteDecodeFn,
    decode_auto: ByteDecodeAutoFn,
    auto_kernel: fn() -> &'static str,
    kernels: fn() -> Vec<Isa>,
}

impl ByteCodec for Bytes {
    fn id(&self) -> u16 {
        self.id
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn needs_width(&self) -> bool {
        self.needs_width
    }
    fn max_encoded_len(&self, n: usize) -> usize {
        (self.max_encoded_len)(n)
    }
    fn max_decoded_len(&self, len: usize) -> usize {
        (self.max_decoded_len)(len)
    }
    fn encode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
        (self.encode)(input, width, out)
    }
    fn decode(&self, isa: Isa, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
        (self.decode)(isa, input, width, out)
    }
    fn encode_with(
        &self,
        isa: Isa,
        input: &[u8],
        width: usize,
        out: &mut [u8],
    ) -> Option<Result<usize, Error>> {
        self.encode_with.map(|f| f(isa, input, width, out))
    }
    fn kernels(&self) -> Vec<Isa> {
        (self.kernels)()
    }
    fn decode_auto(&self, input: &[u8], width: usize, out: &mut [u8]) -> Result<usize, Error> {
        (self.decode_auto)(input, width, out)
    }
    fn auto_kernel(&self) -> &'static str {
        (self.auto_kernel)()
    }
}

/// Every byte codec, in id order.
static BYTE_CODECS: &[&dyn ByteCodec] = &[
    &Bytes {
        id: 16,
        name: "byte-split",
        needs_width: true,
        max_encoded_len: byte_split::max_encoded_len,
        max_decoded_len: |len| len,
        encode: byte_split::encode,
        encode_with: Some(byte_split::encode_with),
        decode: byte_split::decode_with,
        decode_auto: byte_split::decode,
        auto_kernel: || tune::isa(Op::ByteSplit).name(),
        kernels: byte_split::kernels,
    },
    // An LZ4 block: the caller keeps the decoded size (the bench and the
    // container record it).
    &Bytes {
        id: 17,
        name: "lz4",
        needs_width: false,
        max_encoded_len: lz4::max_compressed_len,
        max_decoded_len: lz4::max_decompressed_len,
        encode: |input, _, out| lz4::compress_into(input, out),
        encode_with: None,
        decode: |isa, input, _, out| lz4::decompress_with(isa, input, out),
        decode_auto: |input, _, out| lz4::decompress_into(input, out),
        auto_kernel: || tune::lz4_variant().name(),
        kernels: lz4::kernels,
    },
    // Byte stream split, then one LZ4 block of the streams.
    &Bytes {
        id: 18,
        name: "byte-split-lz4",
        needs_width: true,
        max_encoded_len: byte_split::max_compressed_len_lz4,
        max_decoded_len: lz4::max_decompressed_len,
        encode: byte_split::compress_lz4,
        encode_with: None,
        decode: byte_split::decompress_lz4_with,
        decode_auto: byte_split::decompress_lz4,
        auto_kernel: || tune::isa(Op::ByteSplitLz4).name(),
        kernels: byte_split::kernels,
    },
    // An LZ4 block written by the high-compression parser at its default
    // level (9); it decodes as `lz4` does.
    &Bytes {
        id: 19,
        name: "lz4-hc",
        needs_width: false,
        max_encoded_len: lz4::max_compressed_len,
        max_decoded_len: lz4::max_decompressed_len,
        encode: |input, _, out| hc::compress_into(input, out, hc::DEFAULT_LEVEL),
        encode_with: None,
        decode: |isa, input, _, out| lz4::decompress_with(isa, input, out),
        decode_auto: |input, _, out| lz4::decompress_into(input, out),
        auto_kernel: || tune::lz4_variant().name(),
        kernels: lz4::kernels,
    },
    // Masui's bit shuffle in the bitshuffle library's default blocks.
    &Bytes {
        id: 40,
        name: "bit-split",
        needs_width: true,
        max_encoded_len: |n| n,
        max_decoded_len: |len| len,
        encode: bit_split::encode,
        encode_with: Some(bit_split::encode_with),
        decode: bit_split::decode_with,
        decode_auto: bit_split::decode,
        auto_kernel: || crate::tune::isa(crate::tune::Op::BitSplit).name(),
        kernels: bit_split::kernels,
    },
    // Bit shuffle and LZ4 per block, framed as the HDF5 filter 32008
    // (bitshuffle's `compress_lz4`) writes it.
    &Bytes {
        id: 41,
        name: "bit-split-lz4",
        needs_width: true,
        max_encoded_len: bit_split::max_compressed_len_lz4_default,
        max_decoded_len: bit_split::max_decompressed_len_lz4,
        encode: |input, width, out| bit_split::compress_lz4(input, width, 0, out),
        encode_with: None,
        decode: bit_split::decompress_lz4_with,
        decode_auto: bit_split::decompress_lz4,
        auto_kernel: || crate::tune::isa(crate::tune::Op::BitSplit).name(),
        kernels: bit_split::kernels,
    },
    // A Blosc version-1 frame as numcodecs' default `Blosc()` writes it
    // (lz4, clevel 5, byte shuffle), the width as its typesize.
    &Bytes {
        id: 42,
        name: "blosc-lz4",
        needs_width: true,
        max_encoded_len: blosc::max_compressed_len,
        max_decoded_len: blosc::max_decompressed_len,
        encode: |input, width, out| {
            blosc::compress_into(
                input,
                &blosc::Params::lz4(5, blosc::Shuffle::Byte, width),
                out,
            )
        },
        encode_with: None,
        decode: blosc_exact,
        decode_auto: |input, _, out| {
            blosc_exact(crate::tune::isa(crate::tune::Op::Blosc), input, 0, out)
        },
        auto_kernel: || crate::tune::isa(crate::tune::Op::Blosc).name(),
        kernels: bit_split::kernels,
    },
];

/// Decodes a Blosc frame that must fill `out` exactly (its header names the
/// typesize, so the width is not needed).
fn blosc_exact(isa: Isa, input: &[u8], _width: usize, out: &mut [u8]) -> Result<usize, Error> {
    let n = blosc::decompress_with(isa, input, out)?;
    if n != out.len() {
        return Err(Error::Corrupt {
            offset: 4,
            what: "uncompressed size differs from the output length",
        });
    }
    Ok(n)
}

/// Every byte codec, in id order.
///
/// ```
/// for c in vecpress::codec::byte_codecs() {
///     assert!(vecpress::codec::find(c.name()).is_none());
/// }
/// ```
pub fn byte_codecs() -> &'static [&'static dyn ByteCodec] {
    BYTE_CODECS
}

/// The byte codec of that name, if any.
///
/// ```
/// assert!(vecpress::codec::find_bytes("vbyte").is_none());
/// ```
pub fn find_bytes(name: &str) -> Option<&'static dyn ByteCodec> {
    BYTE_CODECS.iter().copied().find(|c| c.name() == name)
}

/// The integer codec of that name, if any.
///
/// ```
/// assert_eq!(vecpress::codec::find("vbyte").map(|c| c.id()), Some(1));
/// assert!(vecpress::codec::find("nope").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static dyn IntCodec> {
    CODECS.iter().copied().find(|c| c.name() == name)
}
