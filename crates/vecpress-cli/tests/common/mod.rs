//! Helpers the CLI test files share: running the built binary and
//! scratch directories. Each test file uses some of them.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built `vecpress` binary with `args`.
pub fn vecpress(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vecpress"))
        .args(args)
        .output()
        .expect("run vecpress")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts success and hands the output on.
pub fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", stderr(&out));
    out
}

/// A fresh directory under the target dir, named after the test file and
/// `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Whether the `lz4` command is installed.
pub fn lz4_command() -> bool {
    Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
