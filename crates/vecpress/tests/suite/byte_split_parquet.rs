//! Byte stream split against real Parquet files (apache/parquet-testing's
//! `byte_stream_split*.parquet`), read with the `parquet` crate: every
//! `BYTE_STREAM_SPLIT` data page decodes, with every kernel, to the values of
//! its `PLAIN` twin column (and of the arrays pyarrow decoded, in
//! `parquet/expected/`), and vecpress's encoding of those values gives the
//! page's bytes back.
//!
//! The files live in the data folder (`$VECPRESS_DATA`, else `shared/data`
//! beside the repository). Without them the tests print a note and pass,
//! except under CI, where they fail.
#![cfg(target_arch = "x86_64")]

use std::fs::File;
use std::path::PathBuf;

use crate::common;
use parquet::basic::{Encoding, Type};
use parquet::column::page::Page;
use parquet::file::reader::{FileReader, SerializedFileReader};
use vecpress::{Isa, byte_split};

/// The data directory's `parquet/` folder, if present (a failure under CI).
fn parquet_dir() -> Option<PathBuf> {
    common::data::folder("parquet", "the Parquet BYTE_STREAM_SPLIT interop")
}

/// One column chunk: its name, value width, and the values section of each
/// data page with the page's encoding.
struct Column {
    name: String,
    width: usize,
    pages: Vec<(Encoding, Vec<u8>)>,
}

/// The fixed-width columns of a file, pages decompressed, levels skipped.
fn read_columns(file: &str) -> Option<Vec<Column>> {
    let path = parquet_dir()?.join(file);
    let Ok(f) = File::open(&path) else {
        eprintln!("note: {} is absent; skipped", path.display());
        return None;
    };
    let reader = SerializedFileReader::new(f).expect("a parquet file");
    let schema = reader.metadata().file_metadata().schema_descr_ptr();
    let mut columns: Vec<Column> = Vec::new();
    for g in 0..reader.num_row_groups() {
        let group = reader.get_row_group(g).unwrap();
        for c in 0..schema.num_columns() {
            let descr = schema.column(c);
            let width = match descr.physical_type() {
                Type::FLOAT | Type::INT32 => 4,
                Type::DOUBLE | Type::INT64 => 8,
                Type::FIXED_LEN_BYTE_ARRAY => descr.type_length() as usize,
                _ => continue,
            };
            assert_eq!(descr.max_rep_level(), 0, "flat columns only");
            let mut pages = Vec::new();
            for page in group.get_column_page_reader(c).unwrap() {
                match page.unwrap() {
                    Page::DataPage { buf, encoding, .. } => {
                        // V1: the definition levels (RLE, length-prefixed) come
                        // first when the column is optional.
                        let skip = if descr.max_def_level() > 0 {
                            4 + u32::from_le_bytes(buf[..4].try_into().unwrap()) as usize
                        } else {
                            0
                        };
                        pages.push((encoding, buf[skip..].to_vec()));
                    }
                    Page::DataPageV2 {
                        buf,
                        encoding,
                        def_levels_byte_len,
                        rep_levels_byte_len,
                        ..
                    } => {
                        let skip = (def_levels_byte_len + rep_levels_byte_len) as usize;
                        pages.push((encoding, buf[skip..].to_vec()));
                    }
                    Page::DictionaryPage { .. } => {}
                }
            }
            match columns.iter_mut().find(|col| col.name == descr.name()) {
                Some(col) => col.pages.extend(pages),
                None => columns.push(Column {
                    name: descr.name().to_string(),
                    width,
                    pages,
                }),
            }
        }
    }
    Some(columns)
}

/// Decodes every page of a `BYTE_STREAM_SPLIT` column with every kernel
/// (all must agree, whole and in ranges) and checks that encoding the
/// values gives the page back; returns the values of all pages.
fn decode_bss_column(col: &Column) -> Vec<u8> {
    let mut values = Vec::new();
    for (p, (encoding, page)) in col.pages.iter().enumerate() {
        assert_eq!(
            *encoding,
            Encoding::BYTE_STREAM_SPLIT,
            "{} page {p}",
            col.name
        );
        assert_eq!(page.len() % col.width, 0, "{} page {p}", col.name);
        let want = byte_split::decode_to_vec(page, col.width).unwrap();
        for &isa in Isa::available() {
            let mut out = vec![0u8; page.len()];
            byte_split::decode_with(isa, page, col.width, &mut out).unwrap();
            assert_eq!(out, want, "{isa} {} page {p}", col.name);
            let mut enc = vec![0u8; page.len()];
            byte_split::encode_with(isa, &want, col.width, &mut enc).unwrap();
            assert_eq!(&enc, page, "{isa} re-encoding {} page {p}", col.name);
            // Batches of 7 rows straight from the page's streams.
            let rows = page.len() / col.width;
            let mut batched = vec![0u8; page.len()];
            for start in (0..rows).step_by(7) {
                let count = 7.min(rows - start);
                let at = start * col.width;
                let out = &mut batched[at..at + count * col.width];
                byte_split::decode_range_with(isa, page, col.width, start, count, out).unwrap();
            }
            assert_eq!(batched, want, "{isa} {} page {p} in ranges", col.name);
        }
        values.extend_from_slice(&want);
    }
    values
}

/// The values sections of a `PLAIN` column, joined.
fn plain_values(col: &Column) -> Vec<u8> {
    let mut values = Vec::new();
    for (p, (encoding, page)) in col.pages.iter().enumerate() {
        assert_eq!(*encoding, Encoding::PLAIN, "{} page {p}", col.name);
        values.extend_from_slice(page);
    }
    values
}

/// Compares with pyarrow's decoding in `expected/`, when the column has no
/// nulls (the file then holds exactly the values).
fn matches_expected(values: &[u8], file: &str) {
    let Some(path) = parquet_dir().map(|d| d.join("expected").join(file)) else {
        return;
    };
    match std::fs::read(&path) {
        Ok(expected) if expected.len() == values.len() => {
            assert_eq!(values, &expected[..], "{file}")
        }
        Ok(_) => eprintln!("note: {file} counts null slots; compared with the PLAIN twin only"),
        Err(_) => eprintln!("note: {} is absent", path.display()),
    }
}

#[test]
fn extended_file_matches_its_plain_twins() {
    let Some(columns) = read_columns("byte_stream_split_extended.gzip.parquet") else {
        eprintln!("note: parquet test data absent; skipped");
        return;
    };
    let expected_ext = [
        ("float16", "f16"),
        ("float", "f32"),
        ("double", "f64"),
        ("int32", "i32"),
        ("int64", "i64"),
        ("flba5", "flba5"),
    ];
    let mut pairs = 0;
    for bss in columns
        .iter()
        .filter(|c| c.name.ends_with("_byte_stream_split"))
    {
        let stem = bss.name.trim_end_matches("_byte_stream_split");
        let plain = columns
            .iter()
            .find(|c| c.name == format!("{stem}_plain"))
            .unwrap_or_else(|| panic!("no PLAIN twin for {}", bss.name));
        assert_eq!(bss.width, plain.width, "{stem}");
        let got = decode_bss_column(bss);
        assert!(!got.is_empty(), "{stem} has values");
        assert_eq!(
            got,
            plain_values(plain),
            "{stem}: BSS pages vs the PLAIN twin"
        );
        if let Some((_, ext)) = expected_ext.iter().find(|(s, _)| *s == stem) {
            matches_expected(
                &got,
                &format!("byte_stream_split_extended__{}.{ext}", bss.name),
            );
        }
        eprintln!(
            "{stem}: {} bytes, width {}, {} pages",
            got.len(),
            bss.width,
            bss.pages.len()
        );
        pairs += 1;
    }
    // float16, float, double, int32, int64, flba5, decimal.
    assert_eq!(pairs, 7, "columns: {:?}", names(&columns));
}

#[test]
fn zstd_file_matches_pyarrow() {
    let Some(columns) = read_columns("byte_stream_split.zstd.parquet") else {
        eprintln!("note: parquet test data absent; skipped");
        return;
    };
    let mut seen = 0;
    for col in &columns {
        let got = decode_bss_column(col);
        let ext = if col.width == 4 { "f32" } else { "f64" };
        matches_expected(&got, &format!("byte_stream_split__{}.{ext}", col.name));
        seen += 1;
    }
    assert_eq!(seen, 2, "columns: {:?}", names(&columns));
}

fn names(columns: &[Column]) -> Vec<(&str, usize)> {
    columns.iter().map(|c| (c.name.as_str(), c.width)).collect()
}
