//! Instruction-set levels, detected once, capped by `VECPRESS_ISA`.
//!
//! Every codec with SIMD kernels maps an [`Isa`] to a kernel in one `match`.
//! The dispatching functions (`vbyte::decode`, ...) use [`Isa::best`], the
//! highest level that both the CPU supports and the cap allows; the explicit
//! entries (`vbyte::decode_with`, ...) take any level the CPU supports, so a
//! test or a benchmark can run every kernel in one process.
//!
//! Each level's kernels are compiled with the feature list
//! [`Isa::features`] gives, the whole list (the GFNI kernels of
//! `bit_split` add `gfni`, which they detect apart), and the level is
//! detected when the CPU has every feature in it.
//!
//! Set `VECPRESS_ISA=scalar|sse41|avx2|avx512|neon` to cap the level for the
//! whole process (an unknown name is ignored with no cap).
//!
//! ```
//! use vecpress::Isa;
//! assert!(Isa::available().contains(&Isa::Scalar));
//! assert!(Isa::available().contains(&Isa::best()));
//! ```
#![forbid(unsafe_code)]

use core::fmt;
use core::str::FromStr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set level that kernels are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Isa {
    /// Portable Rust, no SIMD: the reference every kernel is tested against.
    Scalar,
    /// x86-64 with SSSE3 and SSE4.1.
    Sse41,
    /// x86-64 with AVX2 and BMI2.
    Avx2,
    /// x86-64 with AVX-512 F, BW, VL, VBMI and VBMI2.
    Avx512,
    /// aarch64 with Advanced SIMD.
    Neon,
}

/// Every level, lowest first within each architecture.
const ALL: [Isa; 5] = [Isa::Scalar, Isa::Sse41, Isa::Avx2, Isa::Avx512, Isa::Neon];

impl Isa {
    /// Every level this crate knows, whether or not this CPU has it.
    pub const ALL: &'static [Isa] = &ALL;

    /// The lowercase name used by `VECPRESS_ISA`, the CLI and the benchmarks.
    ///
    /// ```
    /// assert_eq!(vecpress::Isa::Sse41.name(), "sse41");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Sse41 => "sse41",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
            Isa::Neon => "neon",
        }
    }

    /// The target features its kernels enable, as their
    /// `#[target_feature(enable = ...)]` spells them (empty for
    /// [`Isa::Scalar`]): the whole list on every kernel of the level, so
    /// that any helper inlines into any of them. The attribute takes a
    /// literal, not this constant; a test holds each kernel's to it.
    ///
    /// ```
    /// use vecpress::Isa;
    /// assert_eq!(Isa::Sse41.features(), "sse2,ssse3,sse4.1");
    /// assert!(Isa::Avx512.features().starts_with(Isa::Avx2.features()));
    /// ```
    pub const fn features(self) -> &'static str {
        match self {
            Isa::Scalar => "",
            Isa::Sse41 => "sse2,ssse3,sse4.1",
            Isa::Avx2 => "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt",
            Isa::Avx512 => {
                "sse2,ssse3,sse4.1,avx,avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
            }
            Isa::Neon => "neon",
        }
    }

    /// Whether this CPU can run kernels of this level (the cap is not applied).
    ///
    /// ```
    /// assert!(vecpress::Isa::Scalar.is_supported());
    /// ```
    #[inline]
    pub fn is_supported(self) -> bool {
        supported_bits() & (1 << self as u8) != 0
    }

    /// The levels this process may use: supported by the CPU and not above the
    /// `VECPRESS_ISA` cap, lowest first. Always holds [`Isa::Scalar`].
    pub fn available() -> &'static [Isa] {
        static AVAILABLE: OnceLock<Vec<Isa>> = OnceLock::new();
        AVAILABLE.get_or_init(|| {
            let cap = std::env::var("VECPRESS_ISA")
                .ok()
                .and_then(|s| s.parse::<Isa>().ok());
            detected()
                .iter()
                .copied()
                .filter(|&isa| match cap {
                    None => true,
                    Some(cap) => isa == Isa::Scalar || (same_family(isa, cap) && isa <= cap),
                })
                .collect()
        })
    }

    /// The highest level in [`Isa::available`]: what the dispatching
    /// functions use.
    pub fn best() -> Isa {
        static BEST: OnceLock<Isa> = OnceLock::new();
        *BEST.get_or_init(|| *Isa::available().last().unwrap_or(&Isa::Scalar))
    }

    /// `Ok(self)` when the CPU supports this level, else `Err(Unsupported)`.
    ///
    /// ```
    /// assert!(vecpress::Isa::Scalar.check().is_ok());
    /// ```
    pub fn check(self) -> Result<Isa, crate::Error> {
        if self.is_supported() {
            Ok(self)
        } else {
            Err(crate::Error::Unsupported { isa: self.name() })
        }
    }
}

fn same_family(a: Isa, b: Isa) -> bool {
    (a == Isa::Neon) == (b == Isa::Neon)
}

/// Bit `isa as u8` set for each level the CPU supports, bit 7 once known: a
/// relaxed load on the hot path of every `*_with` call.
#[inline]
fn supported_bits() -> u8 {
    static BITS: AtomicU8 = AtomicU8::new(0);
    let bits = BITS.load(Ordering::Relaxed);
    if bits != 0 {
        return bits;
    }
    let bits = detected().iter().fold(0x80, |b, &isa| b | 1 << isa as u8);
    BITS.store(bits, Ordering::Relaxed);
    bits
}

/// Levels the CPU supports, detected once.
fn detected() -> &'static [Isa] {
    static DETECTED: OnceLock<Vec<Isa>> = OnceLock::new();
    DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Vec<Isa> {
    let mut levels = vec![Isa::Scalar];
    let sse41 = is_x86_feature_detected!("sse2")
        && is_x86_feature_detected!("ssse3")
        && is_x86_feature_detected!("sse4.1");
    if !sse41 {
        return levels;
    }
    levels.push(Isa::Sse41);
    let avx2 = is_x86_feature_detected!("avx")
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt");
    if !avx2 {
        return levels;
    }
    levels.push(Isa::Avx2);
    let avx512 = is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512vbmi")
        && is_x86_feature_detected!("avx512vbmi2");
    if avx512 {
        levels.push(Isa::Avx512);
    }
    levels
}

#[cfg(target_arch = "aarch64")]
fn detect() -> Vec<Isa> {
    if std::arch::is_aarch64_feature_detected!("neon") {
        vec![Isa::Scalar, Isa::Neon]
    } else {
        vec![Isa::Scalar]
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn detect() -> Vec<Isa> {
    vec![Isa::Scalar]
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing an unknown ISA name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseIsaError(pub String);

impl fmt::Display for ParseIsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown instruction set '{}' (expected scalar, sse41, avx2, avx512 or neon)",
            self.0
        )
    }
}

impl std::error::Error for ParseIsaError {}

impl FromStr for Isa {
    type Err = ParseIsaError;

    /// Parses a name as [`Isa::name`] gives it (case-insensitive).
    fn from_str(s: &str) -> Result<Isa, ParseIsaError> {
        let lower = s.trim().to_ascii_lowercase();
        ALL.iter()
            .copied()
            .find(|isa| isa.name() == lower)
            .ok_or_else(|| ParseIsaError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &isa in Isa::ALL {
            assert_eq!(isa.name().parse::<Isa>(), Ok(isa));
        }
        assert!("sse9".parse::<Isa>().is_err());
    }

    #[test]
    fn available_is_sorted_and_supported() {
        let avail = Isa::available();
        assert_eq!(avail[0], Isa::Scalar);
        assert!(avail.windows(2).all(|w| w[0] < w[1]));
        assert!(avail.iter().all(|i| i.is_supported()));
        assert_eq!(Isa::best(), *avail.last().unwrap());
    }
}
