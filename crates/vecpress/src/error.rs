//! The crate's one error type.
#![forbid(unsafe_code)]

use core::fmt;

/// Everything that can go wrong in a vecpress codec.
///
/// Decoders return these instead of panicking on bad input. Offsets are byte
/// indices into the input slice the caller passed.
///
/// ```
/// use vecpress::{vbyte, Error};
///
/// // 0x80 promises another byte that never comes.
/// let mut out = [0u32; 1];
/// let err = vbyte::decode(&[0x80], &mut out).unwrap_err();
/// assert_eq!(err, Error::Truncated { offset: 0, needed: 1 });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input ended inside a value; `offset` is where that value starts,
    /// `needed` how many more values were expected (counting that one).
    Truncated {
        /// Byte offset in the input where the unfinished value starts.
        offset: usize,
        /// Values still missing when the input ran out.
        needed: usize,
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
    /// An I/O error from the reader or writer under a streaming adaptor
    /// (such as the LZ4 frame decoder), other than one of this crate's own.
    Io {
        /// The kind of the underlying [`std::io::Error`].
        kind: std::io::ErrorKind,
        /// Its message.
        message: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated { offset, needed } => write!(
                f,
                "input truncated: value at byte {offset} is incomplete ({needed} value(s) missing)"
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
            Error::Io { kind, message } => write!(f, "i/o error ({kind}): {message}"),
        }
    }
}

impl std::error::Error for Error {}

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
