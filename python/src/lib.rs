//! The native half of the `vecpress` Python package: thin functions that
//! check and borrow numpy arrays and buffers, release the GIL, and call the
//! vecpress library. The Python modules in `vecpress/` wrap them with
//! keyword arguments and docstrings; no codec logic lives here.

mod batch;
mod bit_split;
mod blosc;
mod buffers;
mod bytes;
mod call;
mod errors;
mod ints;
mod lz4;
mod lz4_stream;
mod postings;
mod sized;
mod stream_vbyte;
mod vbyte;

use pyo3::prelude::*;

/// The highest instruction-set level this process may use (`Isa::best`).
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

/// Panics inside the last-resort guard, for the tests that check that a
/// panic reaches Python as `vecpress.Error`.
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    errors::guarded(|| panic!("a deliberate panic"))
}

/// The kernel each codec decodes with by default on this CPU (chosen per
/// microarchitecture from the performance records: `vecpress inspect --cpu`).
#[pyfunction]
fn default_kernels() -> Vec<(&'static str, &'static str)> {
    let ints = vecpress::codec::int_codecs()
        .iter()
        .map(|c| (c.name(), c.auto_kernel().name()));
    let bytes = vecpress::codec::byte_codecs()
        .iter()
        .map(|c| (c.name(), c.auto_kernel()));
    ints.chain(bytes).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_function(wrap_pyfunction!(isa, m)?)?;
    m.add_function(wrap_pyfunction!(available_isas, m)?)?;
    m.add_function(wrap_pyfunction!(default_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add_function(wrap_pyfunction!(postings::postings_query, m)?)?;
    m.add_function(wrap_pyfunction!(postings::postings_decode_lists, m)?)?;
    m.add_function(wrap_pyfunction!(postings::postings_query_lists, m)?)?;
    m.add_function(wrap_pyfunction!(postings::postings_hybrid_encode, m)?)?;
    m.add_function(wrap_pyfunction!(postings::postings_hybrid_query, m)?)?;
    m.add_function(wrap_pyfunction!(vbyte::vbyte_encode, m)?)?;
    m.add_function(wrap_pyfunction!(vbyte::vbyte_decode, m)?)?;
    m.add_function(wrap_pyfunction!(ints::u32_encode, m)?)?;
    m.add_function(wrap_pyfunction!(ints::u32_decode, m)?)?;
    m.add_function(wrap_pyfunction!(bytes::byte_split_encode, m)?)?;
    m.add_function(wrap_pyfunction!(bytes::byte_split_encode_into, m)?)?;
    m.add_function(wrap_pyfunction!(bytes::byte_split_decode, m)?)?;
    m.add_function(wrap_pyfunction!(stream_vbyte::stream_vbyte_encode_wide, m)?)?;
    m.add_function(wrap_pyfunction!(stream_vbyte::stream_vbyte_decode_wide, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_compress, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_into, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_size_prepended, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_sized_len, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_sized_into, m)?)?;
    m.add_function(wrap_pyfunction!(sized::sized_len, m)?)?;
    m.add_function(wrap_pyfunction!(bit_split::bit_split_encode, m)?)?;
    m.add_function(wrap_pyfunction!(bit_split::bit_split_decode, m)?)?;
    m.add_function(wrap_pyfunction!(bit_split::bit_split_compress_lz4, m)?)?;
    m.add_function(wrap_pyfunction!(bit_split::bit_split_lz4_len, m)?)?;
    m.add_function(wrap_pyfunction!(
        bit_split::bit_split_decompress_lz4_into,
        m
    )?)?;
    m.add_function(wrap_pyfunction!(blosc::blosc_compress, m)?)?;
    m.add_function(wrap_pyfunction!(blosc::blosc_nbytes, m)?)?;
    m.add_function(wrap_pyfunction!(blosc::blosc_decompress_into, m)?)?;
    m.add_function(wrap_pyfunction!(batch::blosc_decompress_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::blosc_decompress_files, m)?)?;
    m.add_function(wrap_pyfunction!(batch::blosc_compress_many, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_compress_frame, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_decompress_frame, m)?)?;
    m.add_function(wrap_pyfunction!(lz4::lz4_train_dictionary, m)?)?;
    m.add_class::<lz4_stream::FrameReader>()?;
    m.add_class::<lz4_stream::FrameWriter>()?;
    Ok(())
}
