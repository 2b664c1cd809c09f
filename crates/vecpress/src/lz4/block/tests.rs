//! The block decoders' loops against the checked path, at every level.

use super::pair::decode_pair_form;
use super::*;

/// A block written with the compressor's own writer: when `lead` is not
/// zero, `lead` literals and a match of offset 5 and 11 bytes; then
/// `head` literals, the match under test at `offset` of `len` bytes,
/// and `tail` literals (at least 12, the end-of-block rules; with 64,
/// the input leaves the fast loop room to copy the match itself); and
/// the bytes it decodes to.
fn one_match(
    seed: u8,
    lead: usize,
    head: usize,
    offset: usize,
    len: usize,
    tail: usize,
) -> (Vec<u8>, Vec<u8>) {
    let mut x = u32::from(seed).wrapping_mul(2_654_435_761).wrapping_add(1);
    let mut byte = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as u8
    };
    let mut data: Vec<u8> = (0..lead).map(|_| byte()).collect();
    if lead > 0 {
        for _ in 0..11 {
            data.push(data[data.len() - 5]);
        }
    }
    let start = data.len();
    data.extend((0..head).map(|_| byte()));
    for _ in 0..len {
        data.push(data[data.len() - offset]);
    }
    data.extend((0..tail).map(|_| byte()));
    let mut packed = vec![0u8; max_compressed_len(data.len())];
    let bound = packed.len();
    let mut out = compress::Out {
        dst: &mut packed,
        pos: 0,
        bound,
    };
    if lead > 0 {
        out.sequence(&data, 0, lead, 5, 11 - MINMATCH).unwrap();
    }
    out.sequence(&data, start, start + head, offset, len - MINMATCH)
        .unwrap();
    out.last_literals(&data, start + head + len).unwrap();
    let end = out.pos;
    packed.truncate(end);
    (packed, data)
}

/// Both forms of `copy32`'s overlapping matches (the profile runs one
/// on each CPU; the integration tests see only that one), alone and as
/// either block of a pair: every offset below its width and past it, at
/// lengths around its copies and steps, with the pattern loaded both
/// ways (`fast::start_overlap`): as the bytes that end at the match (2
/// for offsets 1 and 2, else 16; 16 bytes or more into the output, after
/// as many literals as the offset, fewer, or none) and from `op -
/// offset` (fewer than 16).
#[test]
fn both_copy32_forms_write_every_short_offset() {
    if !Variant::Copy32.is_available() {
        eprintln!("skipped: no AVX2");
        return;
    }
    let lengths = (4..=70).chain([95, 96, 97, 127, 128, 129, 200, 1000, 4099]);
    let partner_data = b"a partner block, decoded beside the other. ".repeat(40);
    let partner = compress(&partner_data);
    let partner_len = partner_data.len();
    for len in lengths {
        for offset in 1..=40usize {
            let heads = [
                (0, offset, 12),
                (0, offset + 5, 64),
                (0, 48.max(offset), 64),
                (40, 0, 64),
                (40, offset / 2, 12),
                (16, offset / 2, 64),
            ];
            for (lead, head, tail) in heads {
                let seed = len as u8 ^ offset as u8;
                let (packed, data) = one_match(seed, lead, head, offset, len, tail);
                for register in [false, true] {
                    let ctx = format!(
                        "register {register}, offset {offset}, lead {lead}, head {head}, \
                         match {len}"
                    );
                    for room in [0, 40] {
                        let mut out = vec![0xA5u8; data.len() + room];
                        let got = decode_from_form(
                            Variant::Copy32,
                            register,
                            &packed,
                            &mut out,
                            0,
                            &[],
                            (0, 0),
                        );
                        assert_eq!(got, Ok(data.len()), "{ctx}, room {room}");
                        assert!(out[..data.len()] == data[..], "{ctx}, room {room}");
                    }
                    let mut out = vec![0xA5u8; data.len() + 40];
                    let mut other = vec![0u8; partner_len];
                    let (got, got_other) = decode_pair_form(
                        Variant::Copy32,
                        register,
                        (&packed, &mut out),
                        (&partner, &mut other),
                    );
                    assert_eq!(
                        (got, got_other),
                        (Ok(data.len()), Ok(partner_len)),
                        "{ctx}, pair"
                    );
                    assert!(out[..data.len()] == data[..], "{ctx}, pair");
                    assert!(other == partner_data, "{ctx}, partner");
                }
            }
        }
    }
}
