//! The shared data folder, found one way by tests, benches and examples:
//! `$VECPRESS_DATA`, else `shared/data` beside the repository (the
//! repository root's `../shared/data`). Benches and examples include this
//! file with `#[path]`.
//!
//! A test that needs a data folder asks [`folder`]: when the folder is
//! absent it fails under CI (`CI` set: there the data is present, and the
//! interop checks that read it must run), and elsewhere says that it
//! skipped.
#![allow(dead_code)]

use std::path::PathBuf;

/// `$VECPRESS_DATA`, else `shared/data` beside the repository.
pub fn data_root() -> PathBuf {
    match std::env::var_os("VECPRESS_DATA") {
        Some(dir) => dir.into(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    }
}

/// `sub` (e.g. `"silesia"`) of the data folder when it is there. When it is
/// not: a panic under CI, else a line saying that `what` was skipped, and
/// `None`.
pub fn folder(sub: &str, what: &str) -> Option<PathBuf> {
    let dir = data_root().join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!(
            "{}: data folder missing under CI (set VECPRESS_DATA): {what} cannot run",
            dir.display()
        );
    }
    eprintln!(
        "{}: absent, {what} skipped (set VECPRESS_DATA)",
        dir.display()
    );
    None
}

/// `sub` of the data folder for a bench or an example: the folder when it is
/// there, else `None` with a line saying so (never a failure).
pub fn optional(sub: &str) -> Option<PathBuf> {
    let dir = data_root().join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("{}: absent (set VECPRESS_DATA)", dir.display());
        None
    }
}
