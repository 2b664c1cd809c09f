//! The CPU this process runs on, and which profile it dispatches by.

use std::sync::OnceLock;

use super::{PROFILES, Profile, SAFE};

/// The CPU this process runs on, as CPUID (or the platform) tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cpu {
    /// `intel`, `amd`, the vendor string lowercased, or the architecture
    /// where there is no CPUID.
    pub vendor: String,
    /// The family (base plus extended, as Linux's `cpu family`).
    pub family: u32,
    /// The model (with the extended model, as Linux's `model`).
    pub model: u32,
    /// The brand string, e.g. `AMD EPYC 9R14 96-Core Processor`.
    pub name: String,
    /// What CPUID says it can do, where that tells its generation.
    pub traits: Traits,
}

/// The CPUID features that tell a microarchitecture apart where the model
/// number does not: a virtual machine may report a model of another
/// generation than the core it runs on, or one that no profile lists.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traits {
    /// AVX-512 Foundation.
    pub avx512: bool,
    /// AVX-512 FP16: Intel's Golden Cove server cores and later.
    pub avx512_fp16: bool,
    /// AMX tiles: Intel's Sapphire Rapids and later.
    pub amx: bool,
}

/// How a CPU's profile was chosen ([`Cpu::identify`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identified {
    /// The microarchitecture, or `other` for the [`SAFE`] choices.
    pub uarch: &'static str,
    /// Why, in words, for `vecpress inspect --cpu`.
    pub why: String,
}

impl Cpu {
    /// The CPU, read once.
    pub fn current() -> &'static Cpu {
        static CPU: OnceLock<Cpu> = OnceLock::new();
        CPU.get_or_init(read_cpu)
    }

    /// `vendor-family-model`, the name of its record in `perf/` (e.g.
    /// `amd-25-17`).
    ///
    /// ```
    /// let cpu = vecpress::tune::Cpu { vendor: "amd".into(), family: 25, model: 17, name: String::new(), traits: Default::default() };
    /// assert_eq!(cpu.key(), "amd-25-17");
    /// ```
    pub fn key(&self) -> String {
        format!("{}-{}-{}", self.vendor, self.family, self.model)
    }

    /// The microarchitecture of a profile, or `other`.
    ///
    /// ```
    /// use vecpress::tune::{Cpu, Traits};
    /// let zen4 = Cpu { vendor: "amd".into(), family: 25, model: 17, name: String::new(), traits: Traits::default() };
    /// assert_eq!(zen4.uarch(), "zen4");
    /// let zen3 = Cpu { model: 1, ..zen4.clone() };
    /// assert_eq!(zen3.uarch(), "zen3");
    /// let zen2 = Cpu { family: 23, model: 49, ..zen4 };
    /// assert_eq!(zen2.uarch(), "other");
    /// ```
    pub fn uarch(&self) -> &'static str {
        self.identify().uarch
    }

    /// The microarchitecture and why: by the model number where a profile
    /// lists it; else by the features, which no generation before the one
    /// they mark has (AVX-512 FP16 or AMX on Intel: Golden Cove's server
    /// cores or later; AVX-512 on AMD's family 25: Zen 4, whose Zen 3
    /// siblings have none); else `other`, for the [`SAFE`] choices.
    ///
    /// ```
    /// use vecpress::tune::{Cpu, Traits};
    /// // A virtual machine that reports Rocket Lake's model on a core with AMX.
    /// let traits = Traits { avx512: true, avx512_fp16: true, amx: true };
    /// let cpu = Cpu { vendor: "intel".into(), family: 6, model: 167, name: String::new(), traits };
    /// assert_eq!(cpu.identify().uarch, "golden-cove");
    /// assert!(cpu.identify().why.contains("AMX"));
    /// ```
    pub fn identify(&self) -> Identified {
        let id = format!(
            "{} family {} model {}",
            self.vendor, self.family, self.model
        );
        let by_model = match (self.vendor.as_str(), self.family, self.model) {
            // Milan, Vermeer, Rembrandt, Cezanne and their kin.
            ("amd", 25, 0x00..=0x0f | 0x20..=0x2f | 0x40..=0x5f) => Some(("zen3", "Zen 3")),
            // Genoa, Raphael, Phoenix, Storm Peak and their kin.
            ("amd", 25, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf) => Some(("zen4", "Zen 4")),
            ("amd", 26, _) => Some(("zen5", "Zen 5")),
            // Sapphire Rapids and Emerald Rapids.
            ("intel", 6, 143 | 207) => Some(("golden-cove", "Sapphire or Emerald Rapids")),
            _ => None,
        };
        if let Some((uarch, what)) = by_model {
            return Identified {
                uarch,
                why: format!("{id} is {what}"),
            };
        }
        let t = self.traits;
        let by_traits = match (self.vendor.as_str(), self.family) {
            ("intel", 6) if t.avx512_fp16 || t.amx => {
                let marks = match (t.avx512_fp16, t.amx) {
                    (true, true) => "AVX-512 FP16 and AMX",
                    (true, false) => "AVX-512 FP16",
                    _ => "AMX",
                };
                Some((
                    "golden-cove",
                    format!(
                        "{marks}, which Golden Cove's server cores brought: Sapphire Rapids or later"
                    ),
                ))
            }
            ("amd", 25) if t.avx512 => {
                Some(("zen4", "AVX-512, which Zen 4 alone of family 25 has".into()))
            }
            ("amd", 25) => Some(("zen3", "no AVX-512, as Zen 3 of family 25".into())),
            _ => None,
        };
        match by_traits {
            Some((uarch, marks)) => Identified {
                uarch,
                why: format!("{id} is not a model any profile lists; its features tell: {marks}"),
            },
            None => Identified {
                uarch: SAFE.uarch,
                why: format!(
                    "{id} is not a model any profile lists, and its features mark no recorded \
                     generation"
                ),
            },
        }
    }

    /// The profile this CPU dispatches by: its microarchitecture's, else [`SAFE`].
    pub fn profile(&self) -> &'static Profile {
        let uarch = self.uarch();
        PROFILES.iter().find(|p| p.uarch == uarch).unwrap_or(&SAFE)
    }
}

#[cfg(target_arch = "x86_64")]
fn read_cpu() -> Cpu {
    use core::arch::x86_64::__cpuid;
    // CPUID exists on every x86-64 CPU (the intrinsic is safe to call).
    let leaf = __cpuid;
    let l0 = leaf(0);
    let mut vendor = Vec::with_capacity(12);
    for r in [l0.ebx, l0.edx, l0.ecx] {
        vendor.extend_from_slice(&r.to_le_bytes());
    }
    let vendor = match &vendor[..] {
        b"GenuineIntel" => "intel".to_string(),
        b"AuthenticAMD" => "amd".to_string(),
        v => String::from_utf8_lossy(v).trim().to_lowercase(),
    };
    let eax = if l0.eax >= 1 { leaf(1).eax } else { 0 };
    let base_family = (eax >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((eax >> 20) & 0xff)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xf {
        ((eax >> 4) & 0xf) | ((eax >> 12) & 0xf0)
    } else {
        (eax >> 4) & 0xf
    };
    let mut name = Vec::with_capacity(48);
    if leaf(0x8000_0000).eax >= 0x8000_0004 {
        for n in 0x8000_0002..=0x8000_0004 {
            let r = leaf(n);
            for x in [r.eax, r.ebx, r.ecx, r.edx] {
                name.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let name = String::from_utf8_lossy(&name)
        .trim_matches(char::from(0))
        .trim()
        .to_string();
    // Leaf 7: AVX-512F is EBX bit 16, AVX512-FP16 EDX bit 23, AMX-TILE EDX
    // bit 24 (Intel SDM, vol. 2A, CPUID).
    let traits = if l0.eax >= 7 {
        let l7 = core::arch::x86_64::__cpuid_count(7, 0);
        Traits {
            avx512: l7.ebx >> 16 & 1 == 1,
            avx512_fp16: l7.edx >> 23 & 1 == 1,
            amx: l7.edx >> 24 & 1 == 1,
        }
    } else {
        Traits::default()
    };
    Cpu {
        vendor,
        family,
        model,
        name,
        traits,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn read_cpu() -> Cpu {
    Cpu {
        vendor: std::env::consts::ARCH.to_string(),
        family: 0,
        model: 0,
        name: std::env::consts::ARCH.to_string(),
        traits: Traits::default(),
    }
}
