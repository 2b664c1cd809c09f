//! An LZ4 file written and read as a stream, in the frame format the `lz4`
//! command uses: `FrameEncoder` is an `io::Write`, `FrameDecoder` an
//! `io::Read`, so `io::copy` moves data through them in blocks, never holding
//! the whole file in memory.
//!
//! `cargo run --release -p vecpress --example lz4_file`

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};

use vecpress::lz4::frame::{BlockSize, FrameDecoder, FrameEncoder, FrameInfo};

fn main() -> io::Result<()> {
    // A log of a few megabytes, generated so that the example needs no input.
    let log: Vec<u8> = (0..100_000)
        .flat_map(|i| format!("{i:08} GET /items/{} 200 {} ms\n", i % 977, i % 37).into_bytes())
        .collect();
    let path = std::env::temp_dir().join(format!("vecpress-example-{}.lz4", std::process::id()));

    // Compress: stream the log into the encoder, which writes each 256 KiB
    // block as it fills; `finish` writes the end mark and the checksum of
    // the whole content, and hands back the file.
    let info = FrameInfo::new()
        .block_size(BlockSize::Max256KB)
        .content_checksum(true);
    let mut encoder = FrameEncoder::with_info(BufWriter::new(File::create(&path)?), info);
    io::copy(&mut &log[..], &mut encoder)?;
    encoder.finish()?.flush()?;
    let size = std::fs::metadata(&path)?.len();
    println!(
        "{} bytes of log -> {size} bytes in {}",
        log.len(),
        path.display()
    );

    // Decompress: a `FrameDecoder` reads block by block and checks every
    // checksum; here it is read line by line, as a log reader would.
    let decoder = BufReader::new(FrameDecoder::new(BufReader::new(File::open(&path)?)));
    let mut back = Vec::with_capacity(log.len());
    let mut lines = 0;
    for line in decoder.split(b'\n') {
        back.extend_from_slice(&line?);
        back.push(b'\n');
        lines += 1;
    }
    assert_eq!(lines, 100_000);
    assert_eq!(back, log);

    // A file cut short is an error (`InvalidData`), never a silent short read.
    let frame = std::fs::read(&path)?;
    std::fs::remove_file(&path)?;
    let cut = &frame[..frame.len() - 10];
    let err = io::copy(&mut FrameDecoder::new(cut), &mut io::sink()).unwrap_err();
    println!("the file cut by 10 bytes: {err}");
    Ok(())
}
