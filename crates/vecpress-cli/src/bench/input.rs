//! Benchmark inputs: generated, or files (ds2i posting lists for the integer
//! codecs, values or bytes for the byte codecs, see `bytes.rs`).
//!
//! A ds2i `.docs` file is a sequence of lists, each `[n: u32 LE][n x u32 LE]`
//! (values strictly increasing inside a list; `n = 0` is allowed). Each list is
//! cut into blocks of at most `--block` values; a block never spans two lists.
//! Delta codecs code every block from 0 on its own, so the first value of a
//! block is stored whole, as a block-based index would store it.
#![forbid(unsafe_code)]

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::elem::Elem;
use super::generate::Generator;
use super::generate_bytes::ByteGenerator;

/// What a file holds: ds2i posting lists (for the integer codecs), or
/// fixed-width little-endian values (for the byte codecs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `[n: u32 LE][n x u32 LE]...`
    Postings,
    /// Values of one type; raw bytes are one-byte values.
    Values(Elem),
}

impl Kind {
    /// Parses `--type`: `postings`, or an element type.
    pub fn parse(name: &str) -> Result<Kind> {
        if name == "postings" {
            return Ok(Kind::Postings);
        }
        Elem::parse(name).map(Kind::Values).with_context(|| {
            let names: Vec<&str> = Elem::ALL.iter().map(|e| e.name).collect();
            format!(
                "unknown type '{name}' (known: postings, {}, or wN for values of N bytes, 1..={})",
                names.join(", "),
                Elem::MAX_FIXED
            )
        })
    }

    /// A file's kind by its extension: `.docs` for postings, `.f32`, `.u16`,
    /// ... for values, anything else raw bytes.
    pub fn of_path(path: &Path) -> Kind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("docs") => Kind::Postings,
            Some(ext) => Elem::parse(ext).map_or(Kind::Values(Elem::BYTES), Kind::Values),
            None => Kind::Values(Elem::BYTES),
        }
    }
}

/// An input: generated when its turn comes, or a file (posting lists are
/// loaded and checked up front, so that a bad file stops the run before any
/// timing; byte files are only checked for their size).
pub enum Source {
    /// A built-in integer generator.
    Generated(Generator),
    /// A built-in byte generator.
    GeneratedBytes(ByteGenerator),
    /// A posting-list file, loaded.
    Docs(Input),
    /// A file, not yet loaded, with its input name and kind.
    File(PathBuf, String, Kind),
}

impl Source {
    fn name(&self) -> String {
        match self {
            Source::Generated(g) => g.name(),
            Source::GeneratedBytes(g) => g.name(),
            Source::Docs(input) => input.name.clone(),
            Source::File(_, name, _) => name.clone(),
        }
    }

    /// Every input the options name: the generators (of `kind`, when given)
    /// without paths, else the files (of `kind`, or as their extension says),
    /// keeping those whose name contains one of `filters`.
    pub fn select(
        paths: &[PathBuf],
        kind: Option<Kind>,
        filters: Option<&[String]>,
        block: usize,
    ) -> Result<Vec<Source>> {
        let all: Vec<Source> = if paths.is_empty() {
            let ints = Generator::all().into_iter().map(Source::Generated);
            let bytes = ByteGenerator::all().into_iter().map(Source::GeneratedBytes);
            match kind {
                None => ints.chain(bytes).collect(),
                Some(Kind::Postings) => ints.collect(),
                Some(Kind::Values(e)) if e.is_fixed() => {
                    vec![Source::GeneratedBytes(ByteGenerator::Decimal(e))]
                }
                Some(Kind::Values(e)) => bytes
                    .filter(|s| matches!(s, Source::GeneratedBytes(g) if g.elem() == e))
                    .collect(),
            }
        } else {
            expand_paths(paths)?
                .into_iter()
                .map(|p| {
                    let name = p.file_stem().map_or_else(
                        || p.display().to_string(),
                        |s| s.to_string_lossy().into_owned(),
                    );
                    let kind = kind.unwrap_or_else(|| Kind::of_path(&p));
                    Source::File(p, name, kind)
                })
                .collect()
        };
        if all.is_empty() {
            bail!("no built-in input has that --type");
        }
        let chosen: Vec<Source> = match filters {
            None => all,
            Some(filters) => {
                let names: Vec<String> = all.iter().map(Source::name).collect();
                let chosen: Vec<Source> = all
                    .into_iter()
                    .filter(|s| filters.iter().any(|f| s.name().contains(f.trim())))
                    .collect();
                if chosen.is_empty() {
                    bail!(
                        "no input matches --inputs {} (inputs: {})",
                        filters.join(","),
                        names.join(", ")
                    );
                }
                chosen
            }
        };
        chosen
            .into_iter()
            .map(|s| match s {
                Source::File(path, name, Kind::Postings) => {
                    Input::load_docs(&path, name, block).map(Source::Docs)
                }
                Source::File(path, name, Kind::Values(elem)) => {
                    let len = std::fs::metadata(&path)
                        .with_context(|| format!("cannot read {}", path.display()))?
                        .len();
                    if len % elem.width as u64 != 0 {
                        bail!(
                            "{}: its size, {len} bytes, is not a multiple of {} (the width of {}); \
                             pass --type",
                            path.display(),
                            elem.width,
                            elem.name
                        );
                    }
                    Ok(Source::File(path, name, Kind::Values(elem)))
                }
                other => Ok(other),
            })
            .collect()
    }
}

/// One input, ready to be encoded.
pub struct Input {
    /// Name in the table and in JSON: the generator's, or the file's stem.
    pub name: String,
    /// What delta codecs encode: the (sorted) lists, concatenated.
    pub sorted: Vec<u32>,
    /// What plain codecs encode, when it is not `sorted` (generated inputs: the gaps).
    pub plain: Option<Vec<u32>>,
    /// Blocks of at most `--block` values, ranges into `sorted` (and `plain`).
    pub blocks: Vec<Range<usize>>,
}

impl Input {
    /// The values a codec encodes.
    pub fn values(&self, delta: bool) -> &[u32] {
        match (&self.plain, delta) {
            (Some(plain), false) => plain,
            _ => &self.sorted,
        }
    }

    /// A generated input of `n` values, one list.
    pub fn generated(generator: Generator, n: usize, block: usize) -> Input {
        let (sorted, gaps) = generator.generate(n);
        Input {
            name: generator.name(),
            blocks: cut(std::slice::from_ref(&(0..n)), block),
            sorted,
            plain: Some(gaps),
        }
    }

    /// Loads a ds2i `.docs` file under the given input name.
    pub fn load_docs(path: &Path, name: String, block: usize) -> Result<Input> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let (values, lists) = parse_docs(&bytes)
            .with_context(|| format!("{} is not a ds2i .docs file", path.display()))?;
        Ok(Input {
            name,
            blocks: cut(&lists, block),
            sorted: values,
            plain: None,
        })
    }
}

/// The lists of a ds2i `.docs` file.
pub fn read_lists(path: &Path) -> Result<Vec<Vec<u32>>> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: read failed", path.display()))?;
    let (values, lists) = parse_docs(&bytes)
        .with_context(|| format!("{}: not ds2i posting lists", path.display()))?;
    Ok(lists.into_iter().map(|r| values[r].to_vec()).collect())
}

/// The shared data folder: `VECPRESS_DATA`, else `../shared/data` from the
/// repository root.
pub fn data_dir() -> Result<PathBuf> {
    let dir = match std::env::var_os("VECPRESS_DATA") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    if !dir.is_dir() {
        bail!(
            "no data folder at {} (set VECPRESS_DATA, or name .docs files)",
            dir.display()
        );
    }
    Ok(dir)
}

/// Splits each list into blocks of at most `block` values (empty lists give none).
fn cut(lists: &[Range<usize>], block: usize) -> Vec<Range<usize>> {
    let mut blocks = Vec::new();
    for list in lists {
        let mut start = list.start;
        while start < list.end {
            let end = list.end.min(start + block);
            blocks.push(start..end);
            start = end;
        }
    }
    blocks
}

/// Parses `[n][n values]...`; returns the values and each list's range in them.
fn parse_docs(bytes: &[u8]) -> Result<(Vec<u32>, Vec<Range<usize>>)> {
    if !bytes.len().is_multiple_of(4) {
        bail!(
            "its size, {} bytes, is not a multiple of 4 (truncated?)",
            bytes.len()
        );
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    let mut values = Vec::with_capacity(words.len());
    let mut lists = Vec::new();
    let mut pos = 0;
    while pos < words.len() {
        let n = words[pos] as usize;
        let body = pos + 1;
        let remaining = words.len() - body;
        if n > remaining {
            bail!(
                "list {} at byte {} promises {n} values but only {remaining} remain (truncated?)",
                lists.len(),
                pos * 4
            );
        }
        let start = values.len();
        values.extend_from_slice(&words[body..body + n]);
        lists.push(start..values.len());
        pos = body + n;
    }
    Ok((values, lists))
}

/// Expands each path: a directory gives its files (sorted by name), leaving
/// out hidden files and READMEs.
pub fn expand_paths(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let meta =
            std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot list {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .filter(|p| {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy())
                    .unwrap_or_default();
                !name.starts_with('.') && !name.starts_with("README")
            })
            .collect();
        if found.is_empty() {
            bail!("{} holds no files", path.display());
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs(lists: &[&[u32]]) -> Vec<u8> {
        let mut out = Vec::new();
        for list in lists {
            out.extend_from_slice(&(list.len() as u32).to_le_bytes());
            for v in *list {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    #[test]
    fn parses_lists_and_cuts_blocks() {
        let bytes = docs(&[&[1, 2, 3, 4, 5], &[], &[7, 9]]);
        let (values, lists) = parse_docs(&bytes).unwrap();
        assert_eq!(values, [1, 2, 3, 4, 5, 7, 9]);
        assert_eq!(lists, [0..5, 5..5, 5..7]);
        assert_eq!(cut(&lists, 2), [0..2, 2..4, 4..5, 5..7]);
    }

    #[test]
    fn truncated_is_an_error() {
        let bytes = docs(&[&[1, 2, 3]]);
        assert!(parse_docs(&bytes[..12]).is_err());
        assert!(parse_docs(&bytes[..13]).is_err());
        assert!(parse_docs(&[]).unwrap().0.is_empty());
    }
}
