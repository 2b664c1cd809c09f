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
/// up to a list the bytes cut short.
pub fn ds2i_lists(raw: &[u8]) -> Vec<Vec<u32>> {
    let words: Vec<u32> = raw
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut lists = Vec::new();
    let mut at = 0;
    while let Some(&n) = words.get(at) {
        let Some(list) = words.get(at + 1..at + 1 + n as usize) else {
            break;
        };
        lists.push(list.to_vec());
        at += 1 + n as usize;
    }
    lists
}
