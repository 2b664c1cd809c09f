//! Benchmark inputs: generated, or ds2i posting-list files, cut into blocks.
//!
//! A ds2i `.docs` file is a sequence of lists, each `[n: u32 LE][n x u32 LE]`
//! (values strictly increasing inside a list; `n = 0` is allowed). Each list is
//! cut into blocks of at most `--block` values; a block never spans two lists.
//! Delta codecs code every block from 0 on its own, so the first value of a
//! block is stored whole, as a block-based index would store it.
#![forbid(unsafe_code)]

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::generate::Generator;

/// An input: generated when its turn comes, or a file (loaded and checked up
/// front, so that a bad file stops the run before any timing).
pub enum Source {
    /// A built-in generator.
    Generated(Generator),
    /// A file not yet loaded, with its input name.
    File(PathBuf, String),
    /// A file, loaded.
    Loaded(Input),
}

impl Source {
    fn name(&self) -> String {
        match self {
            Source::Generated(g) => g.name(),
            Source::File(_, name) => name.clone(),
            Source::Loaded(input) => input.name.clone(),
        }
    }

    /// Every input the options name: the generators without paths, else the
    /// files, keeping those whose name contains one of `filters`.
    pub fn select(
        paths: &[PathBuf],
        filters: Option<&[String]>,
        block: usize,
    ) -> Result<Vec<Source>> {
        let all: Vec<Source> = if paths.is_empty() {
            Generator::all()
                .into_iter()
                .map(Source::Generated)
                .collect()
        } else {
            expand_paths(paths)?
                .into_iter()
                .map(|p| {
                    let name = p.file_stem().map_or_else(
                        || p.display().to_string(),
                        |s| s.to_string_lossy().into_owned(),
                    );
                    Source::File(p, name)
                })
                .collect()
        };
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
                Source::File(path, name) => {
                    Input::load_docs(&path, name, block).map(Source::Loaded)
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

/// Expands each path: a directory gives its `*.docs` files (sorted by name).
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
            .filter(|p| p.extension().is_some_and(|e| e == "docs") && p.is_file())
            .collect();
        if found.is_empty() {
            bail!("{} holds no *.docs files", path.display());
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
