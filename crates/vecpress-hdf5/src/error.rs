//! The one error type of the filters.
#![forbid(unsafe_code)]

use core::fmt;

/// Why a filter failed; HDF5 sees only the failure (the filter returns 0).
///
/// ```
/// use vecpress_hdf5::{Error, Filter, decode_to_vec};
/// let err = decode_to_vec(Filter::Bitshuffle, &[0, 4], &[0u8; 20]).unwrap_err();
/// assert!(matches!(err, Error::Params { .. }));
/// assert_eq!(err.to_string(), "filter parameters: fewer than 3 cd_values (2)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The codec refused the bytes (truncated, corrupt, a size beyond
    /// what they can hold) or its arguments.
    Codec(vecpress::Error),
    /// The filter's parameters (`cd_values`) are missing or out of range.
    Params {
        /// The broken rule, in a few lowercase words.
        what: &'static str,
        /// The offending value.
        value: u64,
    },
    /// A variant of the format vecpress does not implement (a Blosc
    /// compressor other than LZ4, bitshuffle with zstd).
    Unsupported {
        /// What it is, in a few lowercase words.
        what: &'static str,
        /// Its code in the parameters or the header.
        code: u32,
    },
    /// The compressed chunk would be larger than `limit`, the size the
    /// reference filter gives up at.
    NotSmaller {
        /// The compressed size.
        size: usize,
        /// The largest size allowed.
        limit: usize,
    },
    /// A buffer of `size` bytes could not be allocated.
    OutOfMemory {
        /// The size asked for.
        size: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Codec(e) => write!(f, "{e}"),
            Error::Params { what, value } => write!(f, "filter parameters: {what} ({value})"),
            Error::Unsupported { what, code } => {
                write!(f, "not supported by vecpress: {what} (code {code})")
            }
            Error::NotSmaller { size, limit } => write!(
                f,
                "compressed chunk of {size} bytes is larger than the {limit} allowed"
            ),
            Error::OutOfMemory { size } => write!(f, "cannot allocate {size} bytes"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Codec(e) => Some(e),
            _ => None,
        }
    }
}

impl From<vecpress::Error> for Error {
    fn from(e: vecpress::Error) -> Error {
        Error::Codec(e)
    }
}
