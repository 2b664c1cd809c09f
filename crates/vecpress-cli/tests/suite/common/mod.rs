//! Helpers the CLI test files share: running the built binary and
//! scratch directories. Each test file uses some of them.
#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs the built `vecpress` binary with `args`.
pub fn vecpress(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_vecpress"))
        .args(args)
        .output()
        .expect("run vecpress")
}

/// Runs vecpress with `input` on stdin (stdout a pipe).
pub fn vecpress_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_vecpress"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run vecpress");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts success and hands the output on.
pub fn ok(out: Output) -> Output {
    assert!(out.status.success(), "failed: {}", stderr(&out));
    out
}

/// A fresh directory under the target dir, named after the calling test
/// file and `name`. The files share one binary, and two of them may pick the
/// same `name` ("usage", "corrupt"): the file's name keeps their tests, which
/// run at once, out of each other's directories.
#[track_caller]
pub fn scratch(name: &str) -> PathBuf {
    let file = Path::new(std::panic::Location::caller().file());
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{stem}-{name}"));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Whether the `lz4` command is installed; says so on stderr when it is not,
/// and fails under CI (`CI` set), whose machine installs it (`.ci/run`).
pub fn lz4_command() -> bool {
    let found = Command::new("lz4")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
            panic!("the lz4 command is not on PATH under CI: interop with it cannot run");
        }
        eprintln!("note: the lz4 command is not on PATH; interop with it is skipped");
    }
    found
}
