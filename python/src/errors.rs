//! `vecpress::Error` as Python exceptions: one class per variant, all
//! subclasses of `vecpress.Error` (itself a `ValueError`), with the variant's
//! fields as attributes and the offset in the message. [`to_py`] is the only
//! place a library error becomes a Python exception: the Python code of the
//! package raises none of these classes itself, it calls a native function
//! that does.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    vecpress,
    Error,
    PyValueError,
    "Bad input to a vecpress decoder (a ValueError). Subclasses name what is wrong."
);
create_exception!(
    vecpress,
    TruncatedError,
    Error,
    "The input ended inside a value or structure: attributes `offset` (byte where the unfinished one starts), `needed` (how many more were expected) and `unit` (what `needed` counts: \"values\" for the integer codecs, \"bytes\" for LZ4 and the container)."
);
create_exception!(
    vecpress,
    CorruptError,
    Error,
    "The input breaks a rule of the format: attributes `offset` (byte index) and `what` (the rule)."
);
create_exception!(
    vecpress,
    OutputTooSmallError,
    Error,
    "The output cannot hold the result: attributes `needed` and `actual`."
);
create_exception!(
    vecpress,
    LimitExceededError,
    Error,
    "A count or size exceeds what the input could hold or a limit: attributes `what`, `requested`, `limit`."
);
create_exception!(
    vecpress,
    OutOfRangeError,
    Error,
    "An index is out of range: attributes `index` and `len`."
);
create_exception!(
    vecpress,
    ChecksumMismatchError,
    Error,
    "A stored checksum does not match the data."
);
create_exception!(
    vecpress,
    InvalidArgumentError,
    Error,
    "An argument breaks a rule of the codec (a byte length that is not a whole number of values, a width of zero): attributes `what` and `value`."
);
create_exception!(
    vecpress,
    DictionaryMismatchError,
    Error,
    "LZ4 data compressed with another dictionary than the one given (or given none): attributes `needed` (the id the data names) and `given` (the given dictionary's id, or None)."
);
create_exception!(
    vecpress,
    IoError,
    Error,
    "An I/O error from the stream under an LZ4 frame reader or writer: attributes `kind` (the Rust `std::io::ErrorKind`, e.g. \"UnexpectedEof\") and `message`."
);
create_exception!(
    vecpress,
    UnsupportedError,
    Error,
    "The CPU lacks the instruction set asked for: attribute `isa`."
);

create_exception!(
    vecpress,
    UnsupportedFormatError,
    Error,
    "A format or a part of one this library does not read (e.g. a Blosc frame of another compressor than LZ4): attributes `offset` (of the field that names it) and `what`."
);

/// Registers the exception classes on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("TruncatedError", py.get_type::<TruncatedError>())?;
    m.add("CorruptError", py.get_type::<CorruptError>())?;
    m.add("OutputTooSmallError", py.get_type::<OutputTooSmallError>())?;
    m.add("LimitExceededError", py.get_type::<LimitExceededError>())?;
    m.add("OutOfRangeError", py.get_type::<OutOfRangeError>())?;
    m.add(
        "ChecksumMismatchError",
        py.get_type::<ChecksumMismatchError>(),
    )?;
    m.add(
        "InvalidArgumentError",
        py.get_type::<InvalidArgumentError>(),
    )?;
    m.add(
        "DictionaryMismatchError",
        py.get_type::<DictionaryMismatchError>(),
    )?;
    m.add("IoError", py.get_type::<IoError>())?;
    m.add("UnsupportedError", py.get_type::<UnsupportedError>())?;
    m.add(
        "UnsupportedFormatError",
        py.get_type::<UnsupportedFormatError>(),
    )?;
    Ok(())
}

/// The one place where a library error becomes a Python exception.
pub fn to_py(py: Python<'_>, err: vecpress::Error) -> PyErr {
    use vecpress::Error as E;
    let msg = err.to_string();
    let (exc, attrs): (PyErr, Vec<(&str, Py<PyAny>)>) = match err {
        E::Truncated {
            offset,
            needed,
            unit,
        } => (
            TruncatedError::new_err(msg),
            vec![
                ("offset", int(py, offset)),
                ("needed", int(py, needed)),
                ("unit", text(py, unit.name())),
            ],
        ),
        E::Corrupt { offset, what } => (
            CorruptError::new_err(msg),
            vec![("offset", int(py, offset)), ("what", text(py, what))],
        ),
        E::OutputTooSmall { needed, actual } => (
            OutputTooSmallError::new_err(msg),
            vec![("needed", int(py, needed)), ("actual", int(py, actual))],
        ),
        E::LimitExceeded {
            what,
            requested,
            limit,
        } => (
            LimitExceededError::new_err(msg),
            vec![
                ("what", text(py, what)),
                ("requested", int(py, requested)),
                ("limit", int(py, limit)),
            ],
        ),
        E::OutOfRange { index, len } => (
            OutOfRangeError::new_err(msg),
            vec![("index", int(py, index)), ("len", int(py, len))],
        ),
        E::InvalidArgument { what, value } => (
            InvalidArgumentError::new_err(msg),
            vec![("what", text(py, what)), ("value", int(py, value))],
        ),
        E::Unsupported { isa } => (UnsupportedError::new_err(msg), vec![("isa", text(py, isa))]),
        E::UnsupportedFormat { offset, what } => (
            UnsupportedFormatError::new_err(msg),
            vec![("offset", int(py, offset)), ("what", text(py, what))],
        ),
        E::DictionaryMismatch { needed, given } => (
            DictionaryMismatchError::new_err(msg),
            vec![
                ("needed", int(py, needed as usize)),
                (
                    "given",
                    given.map_or_else(|| py.None(), |g| int(py, g as usize)),
                ),
            ],
        ),
        E::ChecksumMismatch { what, offset } => (
            ChecksumMismatchError::new_err(msg),
            vec![("what", text(py, what)), ("offset", int(py, offset))],
        ),
        E::Io { kind, message } => (
            IoError::new_err(msg),
            vec![
                ("kind", text(py, &format!("{kind:?}"))),
                ("message", text(py, &message)),
            ],
        ),
        // `vecpress::Error` is non-exhaustive: a variant added to the library
        // before a class is added here still raises the base class.
        _ => (Error::new_err(msg), vec![]),
    };
    let value = exc.value(py);
    for (name, v) in attrs {
        // Setting an attribute on a fresh exception instance cannot fail in
        // practice; if it did, the exception is still raised without it.
        let _ = value.setattr(name, v);
    }
    exc
}

fn int(py: Python<'_>, v: usize) -> Py<PyAny> {
    v.into_pyobject(py)
        .expect("usize to int")
        .into_any()
        .unbind()
}

fn text(py: Python<'_>, s: &str) -> Py<PyAny> {
    pyo3::types::PyString::new(py, s).into_any().unbind()
}

/// Runs the body of a function Python calls, turning a Rust panic (a bug:
/// no input is known to cause one) into `vecpress.Error` with the panic's
/// message. Without it pyo3 raises `PanicException`, a `BaseException`
/// that `except Exception` does not catch. Costs nothing when nothing panics.
pub fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(Error::new_err(format!(
                "internal error in vecpress (please report it): {what}"
            )))
        }
    }
}
