//! Peer libraries measured beside vecpress's codecs.
//!
//! Each peer is one file adapting a library to [`Peer`]. A peer belongs to one
//! codec family (`vbyte`, `stream-vbyte`, ...): its rows appear beside that
//! codec's and its `-delta` twin's. It decodes the bytes vecpress encoded for
//! the family (a byte-compatible format), or encodes the blocks its own way. Peers that need the
//! `peers` cargo feature, an x86-64 target or a C compiler report themselves
//! [`Absent`] with the reason, so the bench lists them instead of dropping them.
// `deny`, not `forbid`: maskedvbyte.rs, bitshuffle.rs, c_blosc.rs and
// lz4_c.rs call C, native.rs loads the peers built for this CPU
// and fastlanes.rs and varint_simd.rs call them. Other files forbid it.
#![deny(unsafe_code)]

mod bitpacking;
mod bitshuffle;
mod c_blosc;
mod fastlanes;
mod integer_encoding;
mod leb128;
mod lz4_c;
mod lz4_flex;
mod maskedvbyte;
mod naive_split;
mod native;
mod stream_vbyte_rs;
mod streamvbyte64;
mod streamvbyte_c;
mod varint_simd;

/// Bytes a peer may read past the encoded values, per value, at most: a u32
/// varint takes at most 5 bytes.
const MAX_BYTES_PER_VALUE: usize = 5;
/// Bytes a peer may read past the largest valid stream (MaskedVByte's look-ahead).
const SLACK: usize = 64;

/// The readable bytes a peer needs from the start of a block of `n` values:
/// the bench passes each block as a slice running to the end of a buffer
/// padded with at least this many bytes past the last block.
pub const fn min_input_len(n: usize) -> usize {
    MAX_BYTES_PER_VALUE * n + SLACK
}

/// An integer decoder from another library.
pub trait Peer {
    /// The row name, `peer:...` (`-delta` is appended for delta streams);
    /// without `peer:` for a row of vecpress's own library on a peer's
    /// layout that no registry codec stores (`bp128-8x`).
    fn name(&self) -> &'static str;

    /// The row's `isa` column: `-` for another library (the default), the
    /// level of vecpress's own kernels otherwise.
    fn isa(&self) -> &'static str {
        "-"
    }

    /// The vecpress codec it is measured beside, without `-delta`.
    fn family(&self) -> &'static str;

    /// Encodes one block its own way (the gaps from 0 when `delta`), for a
    /// peer whose bytes differ from vecpress's; `None` (the default): it
    /// decodes the bytes vecpress wrote for the family's codec.
    fn encode(&self, _values: &[u32], _delta: bool) -> Option<Vec<u8>> {
        None
    }

    /// Decodes `out.len()` values from the start of `input` (which holds at
    /// least [`min_input_len`]`(out.len())` bytes; trailing bytes are not part
    /// of the stream); returns the bytes consumed, or `None` if malformed.
    fn decode(&self, input: &[u8], out: &mut [u32]) -> Option<usize>;

    /// Like [`Peer::decode`] for gaps from 0, writing their running sum. The
    /// default decodes, then runs a plain prefix-sum pass.
    fn decode_delta(&self, input: &[u8], out: &mut [u32]) -> Option<usize> {
        let consumed = self.decode(input, out)?;
        vecpress::delta::prefix_sum_in_place(out, 0);
        Some(consumed)
    }

    /// How it was built, when that matters for reading its numbers.
    fn note(&self) -> Option<String> {
        None
    }
}

/// A byte codec from another library (LZ4, byte stream split).
pub trait BytePeer {
    /// The row name, `peer:...`.
    fn name(&self) -> &'static str;

    /// The vecpress byte codec it is measured beside.
    fn family(&self) -> &'static str;

    /// Encodes one block of values `width` bytes wide its own way (timed,
    /// and its size reported) into the start of `out`, which it grows when
    /// too short and never shrinks, so that the timing loop's reused buffer
    /// costs no allocation (vecpress's encoders are timed the same way);
    /// returns the encoded length, or `None` (the default): it has no
    /// encoder here.
    fn encode(&self, _input: &[u8], _width: usize, _out: &mut Vec<u8>) -> Option<usize> {
        None
    }

    /// Whether its decoder is timed on the bytes vecpress wrote (a shared
    /// format: every decoder then works on the same blocks) rather than on
    /// its own encoding.
    fn decodes_ours(&self) -> bool {
        true
    }

    /// Decodes exactly one block (`input` is its bytes, no more) into `out`,
    /// sized to the decoded length; returns the bytes written, or `None`.
    fn decode(&self, input: &[u8], width: usize, out: &mut [u8]) -> Option<usize>;

    /// How it was built, when that matters for reading its numbers.
    fn note(&self) -> Option<String> {
        None
    }

    /// The compression level it runs at, for a peer that has levels.
    fn level(&self) -> Option<u32> {
        None
    }
}

/// A byte peer, or why it is absent.
pub type ByteSlot = Result<Box<dyn BytePeer>, Absent>;

/// Every byte peer, present or absent, in table order; those with levels at
/// `level` (the bench's `--level`).
pub fn all_bytes(level: u32) -> Vec<ByteSlot> {
    vec![
        lz4_c::peer(),
        lz4_c::peer_hc(level),
        lz4_flex::peer(),
        naive_split::peer(),
        c_blosc::peer(),
        bitshuffle::peer(),
        bitshuffle::peer_lz4(),
    ]
}

/// A peer that is not in this build, and why.
pub struct Absent {
    /// The row name it would have.
    pub name: &'static str,
    /// The codec family it would join.
    pub family: &'static str,
    /// Why it is missing, and how to get it where possible.
    pub reason: String,
}

/// A peer, or why it is absent.
pub type Slot = Result<Box<dyn Peer>, Absent>;

/// The family of a codec: its name without `-delta`.
pub fn family_of(codec: &str) -> &str {
    codec.strip_suffix("-delta").unwrap_or(codec)
}

/// Every peer, present or absent, in table order.
pub fn all() -> Vec<Slot> {
    vec![
        leb128::peer(),
        maskedvbyte::peer(),
        varint_simd::peer(),
        integer_encoding::peer(),
        streamvbyte_c::peer(),
        stream_vbyte_rs::peer(),
        streamvbyte64::peer(),
        fastlanes::peer(),
        bitpacking::peer_4x(),
        bitpacking::peer_8x(),
        bitpacking::ours_8x(),
    ]
}

/// The first `n` bytes of `out`, grown (zeroed) to hold them if it is shorter.
fn room(out: &mut Vec<u8>, n: usize) -> &mut [u8] {
    if out.len() < n {
        out.resize(n, 0);
    }
    &mut out[..n]
}

/// The reason given by peers that need the `peers` feature when it is off.
#[allow(dead_code)] // unused when every peer is built
const NO_FEATURE: &str = "built without the `peers` cargo feature (on by default)";

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes a peer decodes for `values` (gaps from 0 when `delta`):
    /// its own encoding, or vecpress's codec of its family; with the padding
    /// the bench gives, and the stream's length.
    fn encoded(peer: &dyn Peer, values: &[u32], delta: bool) -> (Vec<u8>, usize) {
        let mut bytes = peer.encode(values, delta).unwrap_or_else(|| {
            let name = if delta {
                format!("{}-delta", peer.family())
            } else {
                peer.family().to_string()
            };
            let codec = vecpress::codec::find(&name).expect("a family is a codec");
            let mut bytes = vec![0u8; codec.max_encoded_len(values.len())];
            let len = codec.encode(values, &mut bytes);
            bytes.truncate(len);
            bytes
        });
        let len = bytes.len();
        bytes.resize(len + min_input_len(values.len()), 0);
        (bytes, len)
    }

    /// Every present peer decodes what vecpress's codec of its family
    /// encodes (or its own encoding), plain and as gaps, at lengths that end
    /// mid-group and mid-block, on values of every width.
    #[test]
    fn present_peers_round_trip() {
        for n in [1usize, 3, 4, 127, 128, 255, 256, 299, 300, 1024, 2100] {
            let values: Vec<u32> = (0..n as u32)
                .map(|i| i.wrapping_mul(2_654_435_761) >> (i % 32))
                .collect();
            for peer in all().into_iter().flatten() {
                let peer = &*peer;
                let mut out = vec![0u32; n];
                let (bytes, len) = encoded(peer, &values, false);
                assert_eq!(
                    peer.decode(&bytes, &mut out),
                    Some(len),
                    "{} n={n}",
                    peer.name()
                );
                assert_eq!(out, values, "{}", peer.name());

                let (bytes, len) = encoded(peer, &values, true);
                assert_eq!(
                    peer.decode_delta(&bytes, &mut out),
                    Some(len),
                    "{} delta n={n}",
                    peer.name()
                );
                assert_eq!(out, values, "{} delta", peer.name());
            }
        }
    }

    /// The bitpacking peers decode blocks of each width 0 to 32 (sorted
    /// lists whose gaps take exactly that width, and their gaps).
    #[test]
    fn bitpacking_peers_every_width() {
        let names = ["peer:bitpacking-4x", "peer:bitpacking-8x", "bp128-8x"];
        let peers: Vec<Box<dyn Peer>> = all()
            .into_iter()
            .flatten()
            .filter(|p| names.contains(&p.name()))
            .collect();
        if cfg!(feature = "peers") {
            assert_eq!(peers.len(), names.len());
        }
        for width in 0..=32u32 {
            let top = if width == 0 {
                0
            } else {
                u32::MAX >> (32 - width)
            };
            let gaps: Vec<u32> = (0..600u32)
                .map(|i| {
                    if i % 7 == 0 {
                        top
                    } else {
                        i.wrapping_mul(40_503) & top
                    }
                })
                .collect();
            let mut sorted = gaps.clone();
            vecpress::delta::prefix_sum_in_place(&mut sorted, 0);
            for peer in &peers {
                let mut out = vec![0u32; gaps.len()];
                let (bytes, len) = encoded(&**peer, &gaps, false);
                assert_eq!(
                    peer.decode(&bytes, &mut out),
                    Some(len),
                    "{} w={width}",
                    peer.name()
                );
                assert_eq!(out, gaps, "{} w={width}", peer.name());
                let (bytes, len) = encoded(&**peer, &sorted, true);
                assert_eq!(
                    peer.decode_delta(&bytes, &mut out),
                    Some(len),
                    "{} w={width}",
                    peer.name()
                );
                assert_eq!(out, sorted, "{} delta w={width}", peer.name());
            }
        }
    }

    /// A width byte above 32 or a stream cut short is malformed, not a panic.
    #[test]
    fn bitpacking_peers_reject_bad_streams() {
        let values: Vec<u32> = (0..512).map(|i| i * 3).collect();
        for peer in all().into_iter().flatten() {
            if !peer.name().contains("bitpacking") && peer.name() != "bp128-8x" {
                continue;
            }
            let (mut bytes, len) = encoded(&*peer, &values, false);
            let mut out = vec![0u32; values.len()];
            assert_eq!(
                peer.decode(&bytes[..len - 1], &mut out),
                None,
                "{}",
                peer.name()
            );
            bytes[0] = 33;
            assert_eq!(peer.decode(&bytes, &mut out), None, "{}", peer.name());
        }
    }
}
