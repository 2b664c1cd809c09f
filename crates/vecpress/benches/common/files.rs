//! The benches' input files: `#[path]`-included.
// Each harness uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The files of `dir` (none when it cannot be read), sorted; only those
/// whose extension is `ext` when one is given.
pub fn sorted(dir: &Path, ext: Option<&str>) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter(|p| ext.is_none_or(|ext| p.extension().is_some_and(|e| e == ext)))
        .collect();
    files.sort();
    files
}

/// The lists of a ds2i posting-list file (`[n: u32 LE][n x u32 LE]...`),
/// each read from `raw` when asked for, up to a list the bytes cut short:
/// a harness that wants the first few values reads no more.
pub fn ds2i_lists(raw: &[u8]) -> impl Iterator<Item = Vec<u32>> + '_ {
    let mut rest = raw;
    std::iter::from_fn(move || {
        let (head, tail) = rest.split_first_chunk::<4>()?;
        let n = u32::from_le_bytes(*head) as usize;
        let body = tail.get(..n.checked_mul(4)?)?;
        rest = &tail[body.len()..];
        let words = body.chunks_exact(4);
        Some(
            words
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    })
}
