//! The native half of the `vecpress` Python package: thin functions that
//! check and borrow numpy arrays and buffers, release the GIL, and call the
//! vecpress library. The Python modules in `vecpress/` wrap them with
//! keyword arguments and docstrings; no codec logic lives here.

mod buffers;
mod bytes;
mod call;
mod errors;
mod ints;
mod lz4;
mod lz4_stream;
mod stream_vbyte;
mod vbyte;

use pyo3::prelude::*;

/// The instruction-set level the dispatching functions use (`Isa::best`).
#[pyfunction]
fn isa() -> &'static str {
    vecpress::Isa::best().name()
}

/// The levels this process may use, lowest first.
#[pyfunction]
fn available_isas() -> Vec<&'static str> {
    vecpress::Isa::available()
        .iter()
        .map(|i| i.name())
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(isa, m)?)?;
    m.add_function(wrap_pyfunction!(available_isas, m)?)?;
    m.add_function(wrap_pyfunction!(vbyte::vbyte_encode, m)?)?;
    m.add_function(wrap_pyfunction!(vbyte::vbyte_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ints::u32_encode, m)?)?;
    m.add_function(wrap_pyfunction!(ints::u32_decode, m)?)?;
    m.add_function(wrap_pyfunction!(bytes::byte_split_encode, m)?)?;
    m.add_function(wrap_pyfunction!(bytes::byte_split_decode, m)?)?;
    m.add_function(wrap_pyfunction!(stream_vbyte::stream_vbyte_encode_wide, m)?)?;
    m.add_function(wrap_pyfunction!(stream_vbyte::stream_vbyte_decode_wide, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_compress, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_into, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_size_prepended, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_compress_frame, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_frame, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_train_dictionary, m)?)?;
    m.add_class::<lz4_stream::FrameReader>()?;
    m.add_class::<lz4_stream::FrameWriter>()?;
    Ok(())
}
