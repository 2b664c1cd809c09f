//! A column of floats compressed with byte stream split followed by LZ4
//! (`byte-split-lz4`, as Parquet's `BYTE_STREAM_SPLIT` and Blosc's shuffle
//! do it), and back. Splitting puts the first byte of every value in one
//! stream, the second in the next, and so on: the sign, exponent and high
//! mantissa bytes of slowly varying readings repeat, which LZ4 finds, while
//! in the values' own order they are interleaved with noisy low bytes.
//!
//! `cargo run --release -p vecpress --example float_column`

use vecpress::{byte_split, lz4};

/// A day of readings, one a second, as a random walk of small steps (a
/// fixed xorshift, so every run makes the same column): neighbours share
/// their sign, exponent and high mantissa bytes, and no value repeats.
fn readings() -> Vec<f64> {
    let (mut x, mut value) = (0x2545_F491_4F6C_DD1Du64, 20.0);
    (0..86_400)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            value += ((x % 2001) as f64 - 1000.0) * 1e-6;
            value
        })
        .collect()
}

fn main() -> Result<(), vecpress::Error> {
    let column = readings();
    let width = std::mem::size_of::<f64>();
    // The codecs work on bytes: the values' little-endian bytes, whatever
    // the machine's order.
    let bytes: Vec<u8> = column.iter().flat_map(|v| v.to_le_bytes()).collect();

    let packed = byte_split::compress_lz4_to_vec(&bytes, width)?;
    let plain = lz4::block::compress(&bytes);
    println!(
        "{} values, {} bytes: byte-split-lz4 {} bytes (x{:.2}), LZ4 alone {} bytes (x{:.2})",
        column.len(),
        bytes.len(),
        packed.len(),
        bytes.len() as f64 / packed.len() as f64,
        plain.len(),
        bytes.len() as f64 / plain.len() as f64,
    );

    assert!(packed.len() < plain.len());

    // The packed bytes do not store the count: the caller keeps it (here the
    // column's length) and sizes the output from it.
    let mut back = vec![0u8; column.len() * width];
    byte_split::decompress_lz4(&packed, width, &mut back)?;
    let decoded: Vec<f64> = back
        .chunks_exact(width)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    // Bit for bit: the codecs are lossless, NaN payloads and -0.0 included.
    assert!(
        decoded
            .iter()
            .zip(&column)
            .all(|(a, b)| a.to_bits() == b.to_bits())
    );
    assert_eq!(decoded.len(), column.len());

    // A truncated or damaged column is an error, never a panic or garbage.
    assert!(byte_split::decompress_lz4(&packed[..packed.len() / 2], width, &mut back).is_err());
    Ok(())
}
