//! Compiles lemire's MaskedVByte C decoder for the `peer:maskedvbyte-c` benchmark peer.
//!
//! The C sources come from the `maskedvbyte-sys` package, which ships them but
//! does not compile them. Cargo.toml lists it as a fetch-only dependency (under a
//! cfg that is never set), so `cargo fetch` downloads it and nothing builds it;
//! this script looks for it in `$CARGO_HOME/registry/src/*/`, or in the
//! directory named by `VECPRESS_MASKEDVBYTE_SRC` (a checkout of
//! lemire/MaskedVByte). Nothing is copied into this repository.
//!
//! On success it sets `cfg(vecpress_maskedvbyte_c)` and
//! `VECPRESS_MASKEDVBYTE_CFLAGS`; otherwise `VECPRESS_MASKEDVBYTE_ABSENT`
//! holds the reason, which `vecpress bench --peers` prints.
#![forbid(unsafe_code)]

use std::env;
use std::path::{Path, PathBuf};

/// The package version pinned in the workspace Cargo.toml.
const SYS_PACKAGE: &str = "maskedvbyte-sys-0.1.0";
const SRC_ENV: &str = "VECPRESS_MASKEDVBYTE_SRC";

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vecpress_maskedvbyte_c)");
    println!("cargo::rustc-check-cfg=cfg(vecpress_fetch_only)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed={SRC_ENV}");
    println!("cargo::rerun-if-env-changed=CARGO_HOME");

    if env::var_os("CARGO_FEATURE_PEERS").is_none() {
        return;
    }
    match build_maskedvbyte() {
        Ok(cflags) => {
            println!("cargo::rustc-cfg=vecpress_maskedvbyte_c");
            println!("cargo::rustc-env=VECPRESS_MASKEDVBYTE_CFLAGS={cflags}");
        }
        Err(reason) => {
            println!("cargo::rustc-env=VECPRESS_MASKEDVBYTE_ABSENT={reason}");
        }
    }
}

fn build_maskedvbyte() -> Result<String, String> {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return Err("x86-64 only (the C decoder uses SSE4.1 intrinsics)".into());
    }
    let dir = find_sources()?;
    let decode_c = dir.join("src").join("varintdecode.c");
    println!("cargo::rerun-if-changed={}", decode_c.display());

    // As the reference makefile: -O3 -march=native when Rust also targets the
    // native CPU; otherwise SSE4.1, the least the decoder needs (checked at run time).
    let native = env::var("CARGO_ENCODED_RUSTFLAGS")
        .map(|f| f.split('\x1f').any(|a| a.ends_with("target-cpu=native")))
        .unwrap_or(false);
    let arch_flag = if native { "-march=native" } else { "-msse4.1" };
    let mut build = cc::Build::new();
    build
        .file(&decode_c)
        .include(dir.join("include"))
        .opt_level(3)
        .flag("-std=c99")
        .flag(arch_flag)
        .warnings(false)
        .cargo_warnings(false);
    build
        .try_compile("vecpress_maskedvbyte")
        .map_err(|e| format!("compiling {} failed: {e}", decode_c.display()))?;
    Ok(format!("-O3 -std=c99 {arch_flag}"))
}

/// The MaskedVByte directory (holding `src/varintdecode.c` and `include/`).
fn find_sources() -> Result<PathBuf, String> {
    if let Some(dir) = env::var_os(SRC_ENV) {
        let dir = PathBuf::from(dir);
        return if has_sources(&dir) {
            Ok(dir)
        } else {
            Err(format!(
                "{SRC_ENV}={} holds no src/varintdecode.c",
                dir.display()
            ))
        };
    }
    let home = cargo_home().ok_or("cannot tell CARGO_HOME (neither it nor HOME is set)")?;
    let registry = home.join("registry").join("src");
    let found = std::fs::read_dir(&registry).ok().and_then(|entries| {
        entries
            .filter_map(Result::ok)
            .map(|e| e.path().join(SYS_PACKAGE).join("MaskedVByte"))
            .find(|dir| has_sources(dir))
    });
    match found {
        Some(dir) => Ok(dir),
        // Cargo does not rerun this script when the sources appear later, hence the `touch`.
        None => Err(format!(
            "C sources of {SYS_PACKAGE} not found under {}; run `cargo fetch` (or set \
             {SRC_ENV} to a lemire/MaskedVByte checkout), `touch crates/vecpress-cli/build.rs`, \
             and rebuild",
            registry.display()
        )),
    }
}

fn has_sources(dir: &Path) -> bool {
    dir.join("src").join("varintdecode.c").is_file()
        && dir.join("include").join("varintdecode.h").is_file()
}

fn cargo_home() -> Option<PathBuf> {
    env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
}
