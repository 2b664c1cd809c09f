//! Compiles the C peers of `vecpress bench --peers` that no package builds as
//! they need: lemire's MaskedVByte decoder (`peer:maskedvbyte-c`), Masui's
//! bitshuffle library (`peer:bitshuffle`) and c-blosc (`peer:c-blosc`).
//!
//! The C sources come from the `maskedvbyte-sys` package, which ships them but
//! does not compile them. Cargo.toml lists it as a fetch-only dependency (under a
//! cfg that is never set), so `cargo fetch` downloads it and nothing builds it;
//! this script looks for it in `$CARGO_HOME/registry/src/*/` (running `cargo
//! fetch` itself when it is not there yet, as on a fresh machine), or in the
//! directory named by `VECPRESS_MASKEDVBYTE_SRC` (a checkout of
//! lemire/MaskedVByte). Nothing is copied into this repository.
//!
//! On success it sets `cfg(vecpress_maskedvbyte_c)` and
//! `VECPRESS_MASKEDVBYTE_CFLAGS`; otherwise `VECPRESS_MASKEDVBYTE_ABSENT`
//! holds the reason, which `vecpress bench --peers` prints.
//!
//! Bitshuffle the same way: its C sources (release 0.5.2) come from the
//! `hdf5-bitshuffle` package, fetch-only as well (its own build compiles HDF5),
//! or from `VECPRESS_BITSHUFFLE_SRC` (a kiyo-masui/bitshuffle checkout).
//! Only the library proper is compiled (`bitshuffle.c`, `bitshuffle_core.c`,
//! `iochain.c`), against the LZ4 of `lz4-sys`, which the CLI links already;
//! `cfg(vecpress_bitshuffle_c)` and `VECPRESS_BITSHUFFLE_CFLAGS`, or
//! `VECPRESS_BITSHUFFLE_ABSENT`.
//!
//! And c-blosc 1.21 for `peer:c-blosc`, from the sources the `blosc-src`
//! package ships (fetch-only too), or from `VECPRESS_CBLOSC_SRC` (a
//! Blosc/c-blosc 1.x checkout). `blosc-src`'s own build enables the SSE2 and
//! AVX2 shuffles only when the whole crate is compiled for them, so a build
//! for baseline x86-64 left its peer without the AVX2 unshuffle that c-blosc's
//! CMake build, and numcodecs' wheels, choose at run time. This script builds
//! it as that CMake build does: -O3, both shuffles compiled in (the AVX2 files
//! with -mavx2 alone) and chosen by c-blosc's CPU check, LZ4 from `lz4-sys`;
//! `cfg(vecpress_c_blosc)` and `VECPRESS_CBLOSC_CFLAGS`, or
//! `VECPRESS_CBLOSC_ABSENT`.
//!
//! Last, the Rust peers that are at their best only when compiled for the CPU
//! (`peer:fastlanes`, `peer:varint-simd`): the `native-peers` package, built
//! here by a cargo build of its own with `-C target-cpu=native` into
//! `OUT_DIR`, as those crates' READMEs build them; the CLI embeds the shared
//! library and loads it at run time (src/bench/peers/native.rs).
//! `cfg(vecpress_native_peers)` and `VECPRESS_NATIVE_PEERS_LIB`, or
//! `VECPRESS_NATIVE_PEERS_ABSENT`.
#![forbid(unsafe_code)]

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Where one peer's C sources are found: in a fetch-only package of the
/// cargo registry (the version pinned in the workspace Cargo.toml), or in a
/// checkout that an environment variable names.
struct Sources {
    /// The package's directory name in the registry.
    package: &'static str,
    /// The sources' root inside the package.
    in_package: &'static str,
    /// The variable that names a checkout instead.
    env: &'static str,
    /// What that checkout is, for the error message.
    checkout: &'static str,
    /// Files the root must hold, relative to it.
    files: &'static [&'static str],
}

const MASKEDVBYTE: Sources = Sources {
    package: "maskedvbyte-sys-0.1.0",
    in_package: "MaskedVByte",
    env: "VECPRESS_MASKEDVBYTE_SRC",
    checkout: "a lemire/MaskedVByte checkout",
    files: &["src/varintdecode.c", "include/varintdecode.h"],
};

const BITSHUFFLE: Sources = Sources {
    package: "hdf5-bitshuffle-1.0.0",
    in_package: "ext/bitshuffle",
    env: "VECPRESS_BITSHUFFLE_SRC",
    checkout: "a kiyo-masui/bitshuffle checkout",
    files: &[
        "src/bitshuffle.c",
        "src/bitshuffle_core.c",
        "src/iochain.c",
        "src/bitshuffle.h",
    ],
};

const C_BLOSC: Sources = Sources {
    package: "blosc-src-0.3.8",
    in_package: "c-blosc",
    env: "VECPRESS_CBLOSC_SRC",
    checkout: "a Blosc/c-blosc 1.x checkout",
    files: &["blosc/blosc.c", "blosc/shuffle-avx2.c", "blosc/blosc.h"],
};

impl Sources {
    /// The sources' root: the checkout the variable names, else the package
    /// in `$CARGO_HOME/registry/src/*/`.
    fn find(&self) -> Result<PathBuf, String> {
        let has = |dir: &Path| self.files.iter().all(|f| dir.join(f).is_file());
        if let Some(dir) = env::var_os(self.env) {
            let dir = PathBuf::from(dir);
            return if has(&dir) {
                Ok(dir)
            } else {
                Err(format!(
                    "{}={} holds no {}",
                    self.env,
                    dir.display(),
                    self.files[0]
                ))
            };
        }
        let home = cargo_home().ok_or("cannot tell CARGO_HOME (neither it nor HOME is set)")?;
        let registry = home.join("registry").join("src");
        let search = || {
            std::fs::read_dir(&registry).ok().and_then(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path().join(self.package).join(self.in_package))
                    .find(|dir| has(dir))
            })
        };
        if let Some(dir) = search() {
            return Ok(dir);
        }
        // A build downloads only the packages it compiles, and these are
        // never compiled: fetch every package of the lock file, once.
        fetch_workspace().map_err(|e| {
            format!(
                "C sources of {} not found under {}, and {e}; run `cargo fetch` (or set {} to \
                 {}), `touch crates/vecpress-cli/build.rs`, and rebuild",
                self.package,
                registry.display(),
                self.env,
                self.checkout
            )
        })?;
        search().ok_or_else(|| {
            format!(
                "C sources of {} not found under {} after `cargo fetch`; set {} to {}",
                self.package,
                registry.display(),
                self.env,
                self.checkout
            )
        })
    }
}

/// Runs `cargo fetch` on the workspace, once per run of this script: it
/// downloads every package of the lock file, the fetch-only ones included.
fn fetch_workspace() -> Result<(), String> {
    static FETCHED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    FETCHED
        .get_or_init(|| {
            let cargo = env::var_os("CARGO").ok_or("no CARGO")?;
            let manifest =
                PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").ok_or("no CARGO_MANIFEST_DIR")?)
                    .join("Cargo.toml");
            let output = Command::new(cargo)
                .args(["fetch", "--locked", "--quiet", "--manifest-path"])
                .arg(manifest)
                .output()
                .map_err(|e| format!("running `cargo fetch` failed: {e}"))?;
            if output.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "`cargo fetch` failed: {}",
                    last_line(&output.stderr)
                ))
            }
        })
        .clone()
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vecpress_maskedvbyte_c)");
    println!("cargo::rustc-check-cfg=cfg(vecpress_fetch_only)");
    println!("cargo::rustc-check-cfg=cfg(vecpress_bitshuffle_c)");
    println!("cargo::rustc-check-cfg=cfg(vecpress_c_blosc)");
    println!("cargo::rustc-check-cfg=cfg(vecpress_native_peers)");
    println!("cargo::rerun-if-changed=build.rs");
    for sources in [&MASKEDVBYTE, &BITSHUFFLE, &C_BLOSC] {
        println!("cargo::rerun-if-env-changed={}", sources.env);
    }
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
    match build_bitshuffle() {
        Ok(cflags) => {
            println!("cargo::rustc-cfg=vecpress_bitshuffle_c");
            println!("cargo::rustc-env=VECPRESS_BITSHUFFLE_CFLAGS={cflags}");
        }
        Err(reason) => {
            println!("cargo::rustc-env=VECPRESS_BITSHUFFLE_ABSENT={reason}");
        }
    }
    match build_native_peers() {
        Ok(lib) => {
            println!("cargo::rustc-cfg=vecpress_native_peers");
            println!(
                "cargo::rustc-env=VECPRESS_NATIVE_PEERS_LIB={}",
                lib.display()
            );
        }
        Err(reason) => {
            println!("cargo::rustc-env=VECPRESS_NATIVE_PEERS_ABSENT={reason}");
        }
    }
    match build_c_blosc() {
        Ok(cflags) => {
            println!("cargo::rustc-cfg=vecpress_c_blosc");
            println!("cargo::rustc-env=VECPRESS_CBLOSC_CFLAGS={cflags}");
        }
        Err(reason) => {
            println!("cargo::rustc-env=VECPRESS_CBLOSC_ABSENT={reason}");
        }
    }
}

/// Builds the `native-peers` package for this CPU; returns its shared library.
fn build_native_peers() -> Result<PathBuf, String> {
    if env::var("HOST") != env::var("TARGET") {
        return Err("a cross build: these peers are compiled for the CPU that builds them".into());
    }
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").ok_or("no CARGO_MANIFEST_DIR")?);
    let package = manifest_dir.join("native-peers");
    for f in ["Cargo.toml", "src/lib.rs"] {
        println!("cargo::rerun-if-changed={}", package.join(f).display());
    }
    // One build for every profile of the outer build: in the outer target
    // directory (the ancestor of OUT_DIR that cargo tags), else in OUT_DIR.
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);
    let target_dir = out_dir
        .ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .unwrap_or(&out_dir)
        .join("native-peers");
    let cargo = env::var_os("CARGO").ok_or("no CARGO")?;
    // A build of its own, with the workspace's lock file (it downloads what
    // the outer build did not need: `-p vecpress-cli` alone leaves out this
    // package's own dependencies), into a target directory of its own (the
    // outer build holds a lock on the workspace's). Only the native flag:
    // not the outer build's flags, nor clippy's wrapper when this runs under
    // `cargo clippy`.
    let output = Command::new(cargo)
        .args(["build", "--release", "--lib", "--locked", "--quiet"])
        .arg("--manifest-path")
        .arg(package.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .env("CARGO_ENCODED_RUSTFLAGS", "-Ctarget-cpu=native")
        // The library is embedded in the CLI: no debug info to carry.
        .env("CARGO_PROFILE_RELEASE_DEBUG", "0")
        .env("CARGO_PROFILE_RELEASE_STRIP", "true")
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTC_WORKSPACE_WRAPPER")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_BUILD_TARGET")
        .output()
        .map_err(|e| format!("running cargo for the native peers failed: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building crates/vecpress-cli/native-peers with -C target-cpu=native failed: {}",
            last_line(&output.stderr)
        ));
    }
    let lib = target_dir.join("release").join(format!(
        "{}vecpress_native_peers{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    if lib.is_file() {
        Ok(lib)
    } else {
        Err(format!("the native peers' build made no {}", lib.display()))
    }
}

fn build_c_blosc() -> Result<String, String> {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return Err("built on x86-64 only here".into());
    }
    let src = C_BLOSC.find()?.join("blosc");
    let lz4_include = lz4_include()?;
    let base = [
        "blosc.c",
        "blosclz.c",
        "fastcopy.c",
        "shuffle.c",
        "shuffle-generic.c",
        "shuffle-sse2.c",
        "bitshuffle-generic.c",
        "bitshuffle-sse2.c",
    ];
    let avx2 = ["shuffle-avx2.c", "bitshuffle-avx2.c"];
    for f in base.iter().chain(&avx2) {
        println!("cargo::rerun-if-changed={}", src.join(f).display());
    }
    // One library per instruction set, as CMake sets flags per file: the
    // dispatcher in shuffle.c must stay runnable on any x86-64, and only the
    // AVX2 kernels may use AVX2. The library that calls comes first, for the
    // linker.
    let build = |files: &[&str], flag: &str, name: &str| {
        cc::Build::new()
            .files(files.iter().map(|f| src.join(f)))
            .include(&src)
            .include(&lz4_include)
            .define("HAVE_LZ4", None)
            .define("SHUFFLE_SSE2_ENABLED", None)
            .define("SHUFFLE_AVX2_ENABLED", None)
            .opt_level(3)
            .flag("-std=gnu99")
            .flag(flag)
            .warnings(false)
            .cargo_warnings(false)
            .try_compile(name)
            .map_err(|e| format!("compiling c-blosc in {} failed: {e}", src.display()))
    };
    build(&base, "-msse2", "vecpress_cblosc")?;
    build(&avx2, "-mavx2", "vecpress_cblosc_avx2")?;
    Ok("-O3 -msse2, -mavx2 for the AVX2 shuffles, chosen at run time".into())
}

fn build_bitshuffle() -> Result<String, String> {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return Err("built on x86-64 only here".into());
    }
    let dir = BITSHUFFLE.find()?;
    let src = dir.join("src");
    let lz4_include = lz4_include()?;
    let files = ["bitshuffle.c", "bitshuffle_core.c", "iochain.c"].map(|f| src.join(f));
    for f in &files {
        println!("cargo::rerun-if-changed={}", f.display());
    }
    // As bitshuffle's own setup.py: -O3 -march=native -std=c99. Its kernels
    // are chosen at compile time (AVX-512, AVX2 or SSE2 by the predefined
    // macros), so only a native build runs its best one; a cross build gets
    // the SSE2 baseline. No -fopenmp: one thread, as every peer.
    let native = env::var("HOST") == env::var("TARGET");
    let arch_flag = if native { "-march=native" } else { "-msse2" };
    let mut build = cc::Build::new();
    build
        .files(&files)
        .include(&src)
        .include(&lz4_include)
        .opt_level(3)
        .flag("-std=c99")
        .flag(arch_flag)
        .warnings(false)
        .cargo_warnings(false);
    build
        .try_compile("vecpress_bitshuffle")
        .map_err(|e| format!("compiling bitshuffle in {} failed: {e}", src.display()))?;
    Ok(format!("-O3 -std=c99 {arch_flag}"))
}

fn build_maskedvbyte() -> Result<String, String> {
    if env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
        return Err("x86-64 only (the C decoder uses SSE4.1 intrinsics)".into());
    }
    let dir = MASKEDVBYTE.find()?;
    let decode_c = dir.join("src").join("varintdecode.c");
    println!("cargo::rerun-if-changed={}", decode_c.display());

    // As the reference makefile: -O3 -march=native, for the CPU that builds
    // it; a cross build gets SSE4.1, the least the decoder needs (checked at
    // run time).
    let native = env::var("HOST") == env::var("TARGET");
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

/// The directory of `lz4.h` for the C peers that call LZ4. LZ4 comes from
/// lz4-sys (a `links = "lz4"` package, hence this variable): its header, and
/// its library at link time; a peer's own copy of LZ4 would define the same
/// symbols a second time.
fn lz4_include() -> Result<PathBuf, String> {
    env::var_os("DEP_LZ4_INCLUDE")
        .map(PathBuf::from)
        .ok_or_else(|| "lz4-sys did not name its include directory (DEP_LZ4_INCLUDE)".into())
}

/// The last line of a command's error output that is not blank: cargo's
/// own summary of what failed.
fn last_line(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}

fn cargo_home() -> Option<PathBuf> {
    env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
}
