//! The peers compiled for this CPU: the `native-peers` package, which
//! build.rs compiles with `-C target-cpu=native` in a cargo build of its own
//! (see native-peers/src/lib.rs for why). The shared library is embedded in
//! the binary, written to a temporary file on first use, loaded, and the file
//! removed; the functions stay mapped until the process ends.
//!
//! The library runs the instructions of the CPU that built it. Before any of
//! its kernels runs, the features it was compiled with are checked against
//! this CPU's, so a binary carried to an older CPU reports these peers
//! absent instead of faulting.
#![allow(unsafe_code)]

#[cfg(all(feature = "peers", vecpress_native_peers))]
mod loaded {
    use std::io::Write;
    use std::sync::OnceLock;

    /// The library's bytes, built by build.rs.
    static LIB: &[u8] = include_bytes!(env!("VECPRESS_NATIVE_PEERS_LIB"));

    /// The interface version this loader speaks (`vp_native_abi`).
    const ABI: u32 = 3;

    /// The names of the bits of `vp_native_features`, in order.
    const FEATURES: [&str; 7] = [
        "sse4.1",
        "avx2",
        "bmi2",
        "avx512f",
        "avx512bw",
        "avx512vbmi2",
        "neon",
    ];

    type Unpack = unsafe extern "C" fn(u32, *const u32, *const u32, *mut u32) -> i32;
    type VarintDecode = unsafe extern "C" fn(*const u8, usize, *mut u32, usize) -> isize;
    type StreamDecode = unsafe extern "C" fn(*const u8, usize, *mut u32, usize, bool) -> isize;
    type Bytes = unsafe extern "C" fn(*const u8, usize, *mut u8, usize) -> isize;

    /// The loaded library's functions.
    pub struct Native {
        /// Keeps the functions mapped.
        _lib: libloading::Library,
        /// `vp_native_fastlanes_unpack`.
        pub fastlanes_unpack: Unpack,
        /// `vp_native_varint_simd_decode`, on x86-64.
        pub varint_simd_decode: Option<VarintDecode>,
        /// `vp_native_streamvbyte64_decode`.
        pub streamvbyte64_decode: StreamDecode,
        /// `vp_native_lz4_flex_compress`.
        pub lz4_flex_compress: Bytes,
        /// `vp_native_lz4_flex_decompress`.
        pub lz4_flex_decompress: Bytes,
        /// The features it was compiled with, by name.
        pub features: Vec<&'static str>,
    }

    /// The library, loaded once; or why it cannot be.
    pub fn get() -> Result<&'static Native, String> {
        static NATIVE: OnceLock<Result<Native, String>> = OnceLock::new();
        NATIVE.get_or_init(load).as_ref().map_err(Clone::clone)
    }

    fn load() -> Result<Native, String> {
        let mut file = tempfile::Builder::new()
            .prefix("vecpress-native-peers")
            .suffix(std::env::consts::DLL_SUFFIX)
            .tempfile()
            .map_err(|e| format!("no temporary file for the native peers: {e}"))?;
        file.write_all(LIB)
            .and_then(|()| file.flush())
            .map_err(|e| format!("writing the native peers' library failed: {e}"))?;
        // SAFETY: the library is the `native-peers` package, built by this
        // crate's build script from this repository: its initialisers are
        // Rust's own, which have no requirement of the loading process.
        let lib = unsafe { libloading::Library::new(file.path()) }
            .map_err(|e| format!("loading the native peers' library failed: {e}"))?;
        // The mapping outlives the file.
        drop(file);
        // SAFETY: these symbols are defined by native-peers/src/lib.rs with
        // exactly these signatures, for the ABI version checked next.
        let (abi, features, fastlanes_unpack, varint_simd_decode, streamvbyte64_decode, lz4_flex) = unsafe {
            let abi = *lib
                .get::<extern "C" fn() -> u32>(b"vp_native_abi\0")
                .map_err(|e| e.to_string())?;
            let features = *lib
                .get::<extern "C" fn() -> u32>(b"vp_native_features\0")
                .map_err(|e| e.to_string())?;
            let unpack = *lib
                .get::<Unpack>(b"vp_native_fastlanes_unpack\0")
                .map_err(|e| e.to_string())?;
            let varint = lib
                .get::<VarintDecode>(b"vp_native_varint_simd_decode\0")
                .ok()
                .map(|f| *f);
            let stream = *lib
                .get::<StreamDecode>(b"vp_native_streamvbyte64_decode\0")
                .map_err(|e| e.to_string())?;
            let compress = *lib
                .get::<Bytes>(b"vp_native_lz4_flex_compress\0")
                .map_err(|e| e.to_string())?;
            let decompress = *lib
                .get::<Bytes>(b"vp_native_lz4_flex_decompress\0")
                .map_err(|e| e.to_string())?;
            (
                abi,
                features,
                unpack,
                varint,
                stream,
                (compress, decompress),
            )
        };
        // Both return constants: they run no instruction this CPU may lack.
        if abi() != ABI {
            return Err(format!(
                "the native peers' library speaks interface {}, not {ABI}",
                abi()
            ));
        }
        let bits = features();
        let features: Vec<&'static str> = FEATURES
            .iter()
            .enumerate()
            .filter(|&(i, _)| bits >> i & 1 == 1)
            .map(|(_, &f)| f)
            .collect();
        if let Some(lacking) = features.iter().find(|&&f| !has(f)) {
            return Err(format!(
                "compiled with -C target-cpu=native on a CPU with {lacking}, which this one lacks; \
                 rebuild the CLI here"
            ));
        }
        Ok(Native {
            _lib: lib,
            fastlanes_unpack,
            varint_simd_decode,
            streamvbyte64_decode,
            lz4_flex_compress: lz4_flex.0,
            lz4_flex_decompress: lz4_flex.1,
            features,
        })
    }

    /// Whether this CPU has a feature named as rustc names it.
    fn has(feature: &str) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            match feature {
                "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
                "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                "bmi2" => std::arch::is_x86_feature_detected!("bmi2"),
                "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
                "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
                "avx512vbmi2" => std::arch::is_x86_feature_detected!("avx512vbmi2"),
                _ => false,
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            feature == "neon" && std::arch::is_aarch64_feature_detected!("neon")
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            let _ = feature;
            false
        }
    }

    /// The note of a peer run from this library.
    pub fn note(native: &Native) -> String {
        format!(
            "built with -C target-cpu=native ({})",
            if native.features.is_empty() {
                "no SIMD level above the baseline".to_string()
            } else {
                native.features.join(", ")
            }
        )
    }
}

#[cfg(all(feature = "peers", vecpress_native_peers))]
pub use loaded::{Native, note};

/// A peer run from the library, made by `make`; absent, with the reason,
/// when the library cannot run here or `make` refuses.
#[cfg(all(feature = "peers", vecpress_native_peers))]
pub fn slot<P: ?Sized>(
    name: &'static str,
    family: &'static str,
    make: impl FnOnce(&'static Native) -> Result<Box<P>, String>,
) -> Result<Box<P>, super::Absent> {
    loaded::get()
        .and_then(make)
        .map_err(|reason| super::Absent {
            name,
            family,
            reason,
        })
}

/// A peer of the library in a build without it: absent, with the reason.
#[cfg(not(all(feature = "peers", vecpress_native_peers)))]
pub fn absent<P: ?Sized>(
    name: &'static str,
    family: &'static str,
) -> Result<Box<P>, super::Absent> {
    let reason = match option_env!("VECPRESS_NATIVE_PEERS_ABSENT") {
        Some(why) if cfg!(feature = "peers") => why.into(),
        _ => super::NO_FEATURE.into(),
    };
    Err(super::Absent {
        name,
        family,
        reason,
    })
}
