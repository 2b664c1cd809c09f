//! How much a trained dictionary helps LZ4 on small records.
//!
//! Each file is cut into records of `--record` bytes (1 KiB by default); a
//! dictionary of `--size` bytes (64 KiB) is trained on the records of the
//! first half of the file, and every record of the second half is
//! compressed on its own as an LZ4 block, without and with the dictionary.
//! The ratio is the held-out records' bytes over their compressed bytes.
//! "no dict" is `block::compress` (LZ4's default, fast parse); "chain" is
//! the parse `block::compress_with_dict` uses (hash chains, lazy matching)
//! given an empty dictionary, to tell the parse's share of the gain from the
//! dictionary's; "dict" is `block::compress_with_dict` with the trained
//! dictionary, and "gain" the ratio of "dict" to "no dict".
//!
//! ```text
//! cargo bench -p vecpress --bench dict_ratio -- FILE... [--record N] [--size N] [--segment N]
//! cargo bench -p vecpress --bench dict_ratio -- silesia/{dickens,mr,ooffice,xml}
//! ```

use std::time::Instant;

use vecpress::lz4::{block, dict};

fn main() {
    let (mut record, mut size, mut segment) = (1024usize, 64usize << 10, dict::SEGMENT_LEN);
    let mut files = Vec::new();
    // `cargo bench` passes `--bench` to every bench target.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    while let Some(a) = args.next() {
        let mut number = |name: &str| -> usize {
            let v = args.next().unwrap_or_default();
            v.parse()
                .unwrap_or_else(|_| fail(&format!("{name} needs a number, got '{v}'")))
        };
        match a.as_str() {
            "--record" => record = number("--record").max(1),
            "--size" => size = number("--size"),
            "--segment" => segment = number("--segment"),
            "-h" | "--help" => {
                println!("usage: dict_ratio FILE... [--record N] [--size N] [--segment N]");
                return;
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        // A plain `cargo bench` runs every bench target with no files: say what
        // this one needs without failing the others.
        println!(
            "dict_ratio: no files given (e.g. the Silesia corpus's dickens, mr, ooffice, xml)"
        );
        return;
    }
    println!(
        "records of {record} B; dictionary of {size} B (segments of {segment} B) trained on the first half; ratio on the second half"
    );
    println!(
        "{:<12} {:>8} {:>10} {:>9} {:>9} {:>7} {:>7} {:>9}",
        "file", "records", "train MB", "train s", "no dict", "chain", "dict", "gain"
    );
    let (mut all_raw, mut all_plain, mut all_chain, mut all_dict) =
        (0usize, 0usize, 0usize, 0usize);
    for path in &files {
        let data = std::fs::read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        let records: Vec<&[u8]> = data.chunks(record).collect();
        let (train, test) = records.split_at(records.len() / 2);
        let t = Instant::now();
        let d = dict::train_dictionary_with(train, size, segment);
        let secs = t.elapsed().as_secs_f64();
        let (raw, plain, chain, with) = measure(test, &d);
        all_raw += raw;
        all_chain += chain;
        all_plain += plain;
        all_dict += with;
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        let train_mb = train.iter().map(|r| r.len()).sum::<usize>() as f64 / 1e6;
        let (r0, rc, r1) = (ratio(raw, plain), ratio(raw, chain), ratio(raw, with));
        println!(
            "{name:<12} {:>8} {train_mb:>10.1} {secs:>9.2} {r0:>9.3} {rc:>7.3} {r1:>7.3} {:>8.2}x",
            test.len(),
            r1 / r0
        );
    }
    let (r0, rc, r1) = (
        ratio(all_raw, all_plain),
        ratio(all_raw, all_chain),
        ratio(all_raw, all_dict),
    );
    println!(
        "{:<12} {:>8} {:>10} {:>9} {r0:>9.3} {rc:>7.3} {r1:>7.3} {:>8.2}x",
        "all",
        "",
        "",
        "",
        r1 / r0
    );
}

/// Compresses each record alone, without and with `d`, checking the round
/// trip; returns (raw bytes, bytes without, with the empty dictionary,
/// with `d`).
fn measure(records: &[&[u8]], d: &[u8]) -> (usize, usize, usize, usize) {
    let (mut raw, mut plain, mut chain, mut with) = (0, 0, 0, 0);
    let mut packed = vec![0u8; block::max_compressed_len(records.first().map_or(0, |r| r.len()))];
    let mut out = Vec::new();
    for r in records {
        raw += r.len();
        plain += block::compress(r).len();
        chain += block::compress_with_dict(r, &[], &mut packed).expect("room for the block");
        let n = block::compress_with_dict(r, d, &mut packed).expect("room for the block");
        out.resize(r.len(), 0);
        let got = block::decompress_with_dict(&packed[..n], d, &mut out);
        assert_eq!(got, Ok(r.len()));
        assert_eq!(&out, r);
        with += n;
    }
    (raw, plain, chain, with)
}

fn ratio(raw: usize, packed: usize) -> f64 {
    raw as f64 / packed.max(1) as f64
}

fn fail(msg: &str) -> ! {
    eprintln!("dict_ratio: {msg}");
    std::process::exit(2)
}
