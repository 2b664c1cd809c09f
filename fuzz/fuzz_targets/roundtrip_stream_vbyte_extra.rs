//! Arbitrary values through the Stream VByte extras: u64 encode -> decode
//! with every kernel, zigzag and u16 round trips, select and seek against
//! the decoded values, and appending with the writers equal to a one-shot
//! encode. On arbitrary bytes, select and seek must not panic.
//!
//! Input: twelve bytes (the previous value, a split point, a search target
//! and a count for the arbitrary-bytes calls), three bytes that cut the rest
//! into four parts (each a fraction of what is left: the `u32` values, the
//! `u64` values, the `i32` values, and arbitrary bytes), then the rest.
#![no_main]

use libfuzzer_sys::fuzz_target;
use vecpress::stream_vbyte::{self as sv, u64 as sv64, DeltaWriter, Writer};
use vecpress::Isa;

/// Splits off `frac / 256` of `rest`.
fn take<'a>(rest: &mut &'a [u8], frac: u8) -> &'a [u8] {
    let k = rest.len() * usize::from(frac) / 256;
    let (a, b) = rest.split_at(k);
    *rest = b;
    a
}

fuzz_target!(|data: &[u8]| {
    let Some((head, mut rest)) = data.split_first_chunk::<15>() else {
        return;
    };
    let prev = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let split = u16::from_le_bytes([head[4], head[5]]);
    let target = u32::from_le_bytes([head[6], head[7], head[8], head[9]]);
    let count = u16::from_le_bytes([head[10], head[11]]);
    let values: Vec<u32> = take(&mut rest, head[12])
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .map(|v| v >> (v & 31))
        .collect();
    let wide: Vec<u64> = take(&mut rest, head[13])
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .map(|v| v >> (v & 63))
        .collect();
    let signed: Vec<i32> = take(&mut rest, head[14])
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .map(|v| v >> (v & 31))
        .collect();
    let bytes = rest.to_vec();

    // u64: every kernel, plain and delta.
    let enc = sv64::encode_to_vec(&wide);
    let enc_d = sv64::encode_delta_to_vec(&wide, u64::from(prev));
    for &isa in Isa::available() {
        let mut out = vec![0u64; wide.len()];
        assert_eq!(
            sv64::decode_with(isa, &enc, &mut out),
            Ok(enc.len()),
            "{isa}"
        );
        assert_eq!(out, wide, "{isa}");
        assert_eq!(
            sv64::decode_delta_with(isa, &enc_d, &mut out, u64::from(prev)),
            Ok(enc_d.len())
        );
        assert_eq!(out, wide, "{isa} delta");
    }

    // Zigzag and u16.
    let z = sv::encode_zigzag_delta_to_vec(&signed, prev as i32);
    assert_eq!(
        sv::decode_zigzag_delta_to_vec(&z, signed.len(), prev as i32),
        Ok(signed.clone())
    );
    let short: Vec<u16> = values.iter().map(|&v| v as u16).collect();
    assert_eq!(
        sv::decode_u16_to_vec(&sv::encode_u16_to_vec(&short), short.len()),
        Ok(short)
    );

    // select / seek against the values (sorted for seek).
    let n = values.len();
    let plain = sv::encode_to_vec(&values);
    let mut sorted = values.clone();
    sorted.sort_unstable();
    let delta = sv::encode_delta_to_vec(&sorted, 0);
    if n > 0 {
        let i = split as usize % n;
        assert_eq!(sv::select(&plain, n, i), Ok(values[i]));
        assert_eq!(sv::select_delta(&delta, n, i, 0), Ok(sorted[i]));
    }
    let want = sorted
        .iter()
        .position(|&v| v >= target)
        .map(|i| (i, sorted[i]));
    assert_eq!(sv::seek_delta(&delta, n, target, 0), Ok(want));

    // Writers: two batches, reopened in between, equal one-shot encodes.
    let cut = if n == 0 { 0 } else { split as usize % (n + 1) };
    let mut w = Writer::new();
    w.extend(&values[..cut]);
    let mut w = Writer::from_stream(w.into_bytes(), cut).unwrap();
    for &v in &values[cut..] {
        w.push(v);
    }
    assert_eq!(w.as_bytes(), &plain[..]);
    let mut d = DeltaWriter::new(prev);
    d.extend(&values[..cut]);
    let mut d = DeltaWriter::from_stream(d.into_bytes(), cut, prev).unwrap();
    d.extend(&values[cut..]);
    assert_eq!(d.as_bytes(), &sv::encode_delta_to_vec(&values, prev)[..]);

    // Arbitrary bytes: errors, never panics.
    let m = count as usize;
    let _ = sv::select(&bytes, m, split as usize);
    let _ = sv::select_delta(&bytes, m, split as usize, prev);
    let _ = sv::seek_delta(&bytes, m, target, prev);
    let _ = Writer::from_stream(bytes.clone(), m);
    let _ = sv::decode_u16_to_vec(&bytes, m);
    let _ = sv::decode_zigzag_delta_to_vec(&bytes, m, 0);
    let _ = sv64::decode_i64_to_vec(&bytes, m);
});
