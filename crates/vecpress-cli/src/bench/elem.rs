//! The element type of a byte input (`--type`): a leaf module, so that the
//! inputs (`input.rs`), the generators (`generate_bytes.rs`) and the timing
//! (`bytes.rs`) import it without importing one another.
#![forbid(unsafe_code)]

/// An element type: its name (as `--type` spells it) and width in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Elem {
    /// `bytes`, `u16`, `f32`, ...
    pub name: &'static str,
    /// Bytes per value.
    pub width: usize,
}

impl Elem {
    /// Raw bytes: one-byte values.
    pub const BYTES: Elem = Elem::new("bytes", 1);
    /// IEEE 754 single.
    pub const F32: Elem = Elem::new("f32", 4);
    /// IEEE 754 double.
    pub const F64: Elem = Elem::new("f64", 8);
    /// Every fixed-width type `--type` accepts (little-endian).
    pub const ALL: [Elem; 9] = [
        Elem::BYTES,
        Elem::new("u16", 2),
        Elem::new("i16", 2),
        Elem::new("u32", 4),
        Elem::new("i32", 4),
        Elem::F32,
        Elem::new("u64", 8),
        Elem::new("i64", 8),
        Elem::F64,
    ];

    const fn new(name: &'static str, width: usize) -> Elem {
        Elem { name, width }
    }

    /// Widest value `wN` accepts.
    pub const MAX_FIXED: usize = 256;

    /// The type of that name: one of [`Elem::ALL`], or `wN` for opaque
    /// values of N bytes (1..=256), as Parquet's FIXED_LEN_BYTE_ARRAY(N).
    pub fn parse(name: &str) -> Option<Elem> {
        if let Some(e) = Elem::ALL.into_iter().find(|e| e.name == name) {
            return Some(e);
        }
        let width: usize = name.strip_prefix('w')?.parse().ok()?;
        (1..=Elem::MAX_FIXED)
            .contains(&width)
            .then(|| Elem::fixed(width))
    }

    /// Opaque values of `width` bytes, named `w{width}`. The name is leaked:
    /// this runs once per `--type`, for the life of the process.
    pub fn fixed(width: usize) -> Elem {
        Elem::new(Box::leak(format!("w{width}").into_boxed_str()), width)
    }

    /// Whether this is a `wN` type.
    pub fn is_fixed(&self) -> bool {
        self.name.starts_with('w')
    }
}
