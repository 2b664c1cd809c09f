//! The crate's one error type.
#![forbid(unsafe_code)]

use core::fmt;

/// Everything that can go wrong in a vecpress codec.
///
/// Decoders return these instead of panicking on bad input. Offsets are byte
/// indices into the input slice the caller passed.
///
/// ```
/// use vecpress::{vbyte, Error, Unit};
///
/// // 0x80 promises another byte that never comes.
/// let mut out = [0u32; 1];
/// let err = vbyte::decode(&[0x80], &mut out).unwrap_err();
/// assert_eq!(err, Error::Truncated { offset: 0, needed: 1, unit: Unit::Values });
/// assert_eq!(err.to_string(), "input truncated: value at byte 0 is incomplete (1 value(s) missing)");
///
/// // An LZ4 sequence (its token at byte 0) promises 5 literals; 2 are there.
/// let err = vecpress::lz4::block::decompress_into(&[0x50, b'a', b'b'], &mut [0u8; 16]).unwrap_err();
/// assert_eq!(err, Error::Truncated { offset: 0, needed: 3, unit: Unit::Bytes });
/// assert_eq!(err.to_string(), "input truncated: what starts at byte 0 lacks 3 byte(s)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input ended inside a value (or, in a byte-oriented format, a
    /// piece of its structure); `offset` is where that starts, `needed` how
    /// many more were expected, counted in `unit`.
    Truncated {
        /// Byte offset in the input where the unfinished value or piece starts.
        offset: usize,
        /// How many more values (counting the unfinished one) or bytes the
        /// input lacks.
        needed: usize,
        /// What `needed` counts: values for the integer codecs, bytes for
        /// LZ4 and the vecpress container.
        unit: Unit,
    },
    /// The input breaks a rule of the format at byte `offset`.
    Corrupt {
        /// Byte offset in the input of the offending byte.
        offset: usize,
        /// The broken rule, in a few lowercase words.
        what: &'static str,
    },
    /// The output slice cannot hold the result.
    OutputTooSmall {
        /// Length the output needed.
        needed: usize,
        /// Length the output had.
        actual: usize,
    },
    /// A count or size exceeds what the input could hold or a configured limit.
    LimitExceeded {
        /// What was limited, in a few lowercase words.
        what: &'static str,
        /// The value asked for.
        requested: usize,
        /// The largest value allowed.
        limit: usize,
    },
    /// An index passed by the caller is out of range.
    OutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of values there are.
        len: usize,
    },
    /// The CPU lacks the instruction set asked for.
    Unsupported {
        /// Name of the instruction-set level (as `Isa::name` gives it).
        isa: &'static str,
    },
    /// An argument the caller passed breaks a rule of the codec (a width of
    /// zero, a byte length that is not a whole number of values, a number
    /// of streams that differs from the width).
    InvalidArgument {
        /// The broken rule, in a few lowercase words.
        what: &'static str,
        /// The offending value.
        value: usize,
    },
    /// A checksum stored in the input does not match the data it covers.
    ChecksumMismatch {
        /// Which checksum failed, in a few lowercase words (e.g. "content").
        what: &'static str,
        /// Byte offset in the input where the stored checksum starts.
        offset: usize,
    },
    /// The data was compressed with a dictionary (LZ4) and names it by its
    /// id: no dictionary was given, or one with another id.
    DictionaryMismatch {
        /// The id the data names.
        needed: u32,
        /// The id of the dictionary given, if one was.
        given: Option<u32>,
    },
    /// The input uses a part of its format that this crate does not
    /// implement (such as a Blosc frame compressed with zstd).
    UnsupportedFormat {
        /// Byte offset in the input of the field that names it.
        offset: usize,
        /// What is not supported, in a few lowercase words.
        what: &'static str,
    },
    /// An I/O error from the reader or writer under a streaming adaptor
    /// (such as the LZ4 frame decoder), other than one of this crate's own.
    Io {
        /// The kind of the underlying [`std::io::Error`].
        kind: std::io::ErrorKind,
        /// Its message.
        message: String,
    },
}

impl Error {
    /// The same error, a truncation counting `more` values missing beside
    /// those it counts: for a part of a list decoded on its own, the values
    /// after the part that are missing too.
    pub(crate) fn missing_more(self, more: usize) -> Error {
        match self {
            Error::Truncated {
                offset,
                needed,
                unit: Unit::Values,
            } => Error::Truncated {
                offset,
                needed: needed + more,
                unit: Unit::Values,
            },
            other => other,
        }
    }

    /// The same error with its byte offset moved `by` bytes on: for a part
    /// of a format decoded on its own slice, its offset in the whole input.
    pub(crate) fn shifted(self, by: usize) -> Error {
        match self {
            Error::Truncated {
                offset,
                needed,
                unit,
            } => Error::Truncated {
                offset: offset + by,
                needed,
                unit,
            },
            Error::Corrupt { offset, what } => Error::Corrupt {
                offset: offset + by,
                what,
            },
            Error::ChecksumMismatch { what, offset } => Error::ChecksumMismatch {
                what,
                offset: offset + by,
            },
            Error::UnsupportedFormat { offset, what } => Error::UnsupportedFormat {
                offset: offset + by,
                what,
            },
            other => other,
        }
    }
}

/// Allocates and fills the output of a `decode_to_vec`: `n` values of which
/// `input` can hold at most `per_byte` per byte, so that a hostile `n` never
/// allocates more than the input could describe. The values the input cannot
/// hold are reported as missing at the offset where decoding stopped.
pub(crate) fn decode_to_vec<T: Copy + Default>(
    input: &[u8],
    n: usize,
    per_byte: usize,
    decode: impl FnOnce(&mut [T]) -> Result<usize, Error>,
) -> Result<Vec<T>, Error> {
    let mut out = vec![T::default(); n.min(input.len().saturating_mul(per_byte))];
    let consumed = decode(&mut out)?;
    if n > out.len() {
        return Err(Error::Truncated {
            offset: consumed,
            needed: n - out.len(),
            unit: Unit::Values,
        });
    }
    Ok(out)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated {
                offset,
                needed,
                unit: Unit::Values,
            } => write!(
                f,
                "input truncated: value at byte {offset} is incomplete ({needed} value(s) missing)"
            ),
            Error::Truncated {
                offset,
                needed,
                unit: Unit::Bytes,
            } => write!(
                f,
                "input truncated: what starts at byte {offset} lacks {needed} byte(s)"
            ),
            Error::Corrupt { offset, what } => write!(f, "corrupt input at byte {offset}: {what}"),
            Error::OutputTooSmall { needed, actual } => {
                write!(f, "output too small: need {needed}, have {actual}")
            }
            Error::LimitExceeded {
                what,
                requested,
                limit,
            } => write!(f, "limit exceeded: {what} is {requested}, limit {limit}"),
            Error::OutOfRange { index, len } => {
                write!(f, "index {index} out of range for {len} value(s)")
            }
            Error::Unsupported { isa } => {
                write!(f, "instruction set {isa} is not supported by this CPU")
            }
            Error::InvalidArgument { what, value } => {
                write!(f, "invalid argument: {what} ({value})")
            }
            Error::ChecksumMismatch { what, offset } => {
                write!(f, "{what} checksum mismatch at byte {offset}")
            }
            Error::DictionaryMismatch { needed, given } => match given {
                None => write!(f, "needs dictionary {needed:#010x}; none was given"),
                Some(given) => write!(
                    f,
                    "needs dictionary {needed:#010x}; the one given is {given:#010x}"
                ),
            },
            Error::UnsupportedFormat { offset, what } => {
                write!(f, "unsupported at byte {offset}: {what}")
            }
            Error::Io { kind, message } => write!(f, "i/o error ({kind}): {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// What the count of an [`Error::Truncated`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Values (the integer codecs: VByte, Stream VByte, the group varints).
    Values,
    /// Bytes (LZ4 blocks and frames, the vecpress container).
    Bytes,
}

impl Unit {
    /// The unit's name in lowercase, plural: `"values"` or `"bytes"`.
    ///
    /// ```
    /// assert_eq!(vecpress::Unit::Bytes.name(), "bytes");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Unit::Values => "values",
            Unit::Bytes => "bytes",
        }
    }
}

/// Streaming adaptors (the LZ4 frame reader and writer) report a vecpress
/// error as an [`std::io::Error`] of kind `InvalidData` that wraps it; an
/// [`Error::Io`] becomes an I/O error of its own kind again.
///
/// ```
/// use std::io;
/// use vecpress::Error;
///
/// let err = Error::Corrupt { offset: 4, what: "bad magic" };
/// let io_err = io::Error::from(err.clone());
/// assert_eq!(io_err.kind(), io::ErrorKind::InvalidData);
/// assert_eq!(Error::from(io_err), err);
/// ```
impl From<Error> for std::io::Error {
    fn from(err: Error) -> std::io::Error {
        match err {
            Error::Io { kind, message } => std::io::Error::new(kind, message),
            other => std::io::Error::new(std::io::ErrorKind::InvalidData, other),
        }
    }
}

/// The inverse of `From<Error> for io::Error`: an I/O error that wraps a
/// vecpress [`Error`] gives that error back; any other becomes [`Error::Io`].
///
/// ```
/// use std::io;
/// use vecpress::Error;
///
/// let err = Error::from(io::Error::new(io::ErrorKind::BrokenPipe, "gone"));
/// assert_eq!(err, Error::Io { kind: io::ErrorKind::BrokenPipe, message: "gone".into() });
/// assert_eq!(io::Error::from(err).kind(), io::ErrorKind::BrokenPipe);
/// ```
impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Error {
        if let Some(inner) = err.get_ref().and_then(|e| e.downcast_ref::<Error>()) {
            return inner.clone();
        }
        Error::Io {
            kind: err.kind(),
            message: err.to_string(),
        }
    }
}
