//! The decoding loops one can choose from: a leaf of the library, which
//! `tune` names in its profiles (the loop each CPU runs first is chosen in
//! `super`, which reads `tune`).
#![forbid(unsafe_code)]

use core::fmt;

use crate::{Error, Isa};

/// A decompression loop. All give the same output and the same errors; they
/// differ in how wide they copy and how they start a match that overlaps its
/// own output (offset below the copy width), which suits different data and
/// CPUs (Milovidov's talk measured each winning somewhere).
///
/// ```
/// use vecpress::lz4::block::{self, Variant};
/// assert!(block::variants().contains(&Variant::Copy16));
/// assert_eq!(Variant::Shuffle16.name(), "shuffle16");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Variant {
    /// The checked path alone, one sequence at a time: the reference.
    Checked,
    /// 8-byte wild copies; a close match starts with 4 + 4 bytes.
    Copy8,
    /// 16-byte wild copies; a close match starts with 4 + 4 + 8 bytes.
    Copy16,
    /// 16-byte copies; a match of offset below 16 starts with one shuffle of
    /// its pattern (`pshufb`, SSSE3 at the `Sse41` level; `tbl` on Neon).
    Shuffle16,
    /// 32-byte copies (AVX2); offsets below 16 start with a `pshufb`.
    Copy32,
}

impl Variant {
    /// Every variant, whether or not this CPU can run it.
    pub const ALL: &'static [Variant] = &[
        Variant::Checked,
        Variant::Copy8,
        Variant::Copy16,
        Variant::Shuffle16,
        Variant::Copy32,
    ];

    /// The variant's lowercase name.
    ///
    /// ```
    /// assert_eq!(vecpress::lz4::block::Variant::Copy8.name(), "copy8");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Checked => "checked",
            Variant::Copy8 => "copy8",
            Variant::Copy16 => "copy16",
            Variant::Shuffle16 => "shuffle16",
            Variant::Copy32 => "copy32",
        }
    }

    /// The instruction-set level the variant needs on this architecture, or
    /// `None` where it has no implementation.
    ///
    /// ```
    /// use vecpress::{lz4::block::Variant, Isa};
    /// assert_eq!(Variant::Copy16.isa(), Some(Isa::Scalar));
    /// ```
    pub const fn isa(self) -> Option<Isa> {
        match self {
            Variant::Checked | Variant::Copy8 | Variant::Copy16 => Some(Isa::Scalar),
            Variant::Shuffle16 if cfg!(target_arch = "x86_64") => Some(Isa::Sse41),
            Variant::Shuffle16 if cfg!(target_arch = "aarch64") => Some(Isa::Neon),
            Variant::Copy32 if cfg!(target_arch = "x86_64") => Some(Isa::Avx2),
            _ => None,
        }
    }

    /// Whether this process may run the variant: its level is in
    /// [`Isa::available`].
    ///
    /// ```
    /// assert!(vecpress::lz4::block::Variant::Checked.is_available());
    /// ```
    pub fn is_available(self) -> bool {
        self.isa()
            .is_some_and(|isa| Isa::available().contains(&isa))
    }

    /// `Ok(self)` when [`Variant::is_available`], else `Err(Unsupported)`.
    ///
    /// ```
    /// assert!(vecpress::lz4::block::Variant::Copy8.check().is_ok());
    /// ```
    pub fn check(self) -> Result<Variant, Error> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(Error::Unsupported {
                isa: self.isa().map_or(self.name(), Isa::name),
            })
        }
    }

    /// The variant that stands for the level `isa` (assumed supported): the
    /// fastest measured on it.
    pub(super) fn for_isa(isa: Isa) -> Variant {
        match isa {
            Isa::Scalar => Variant::Copy16,
            Isa::Sse41 | Isa::Neon => Variant::Shuffle16,
            Isa::Avx2 | Isa::Avx512 => Variant::Copy32,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The variants this process may run ([`Variant::is_available`]), in the
/// order of [`Variant::ALL`].
///
/// ```
/// let all = vecpress::lz4::block::variants();
/// assert_eq!(all[0], vecpress::lz4::block::Variant::Checked);
/// ```
pub fn variants() -> Vec<Variant> {
    Variant::ALL
        .iter()
        .copied()
        .filter(|v| v.is_available())
        .collect()
}
