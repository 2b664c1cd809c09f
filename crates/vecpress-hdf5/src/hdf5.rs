//! The few libhdf5 functions the filters call, found at run time, and the
//! `set_local` callbacks that use them.
//!
//! A plugin does not link libhdf5: the process that loads it has one
//! already. A C program linked with it (`h5dump`) exposes its symbols
//! globally; h5py loads its bundled copy with `RTLD_LOCAL`, so there the
//! library is found among the loaded objects (`dl_iterate_phdr`, a file
//! name with `libhdf5` but not `_hl`) and opened again with `RTLD_NOLOAD`.
//! When none is found, `set_local` fails with a message on stderr (writing
//! needs it; reading does not). A process with two different libhdf5
//! loaded gets the first; the plugin cannot tell which one called it.
//!
//! The signatures are those of `H5Ppublic.h` and `H5Tpublic.h` in HDF5
//! 1.10 to 2.0 (`hid_t` is 64 bits).

use core::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::ffi::CString;
use std::sync::OnceLock;

use crate::Filter;
use crate::ffi::Hid;

/// `H5T_ARRAY` in `H5T_class_t`.
const H5T_ARRAY: c_int = 10;

/// The largest chunk rank (`H5S_MAX_RANK`).
const MAX_RANK: usize = 32;

/// The most parameters the reference `set_local`s read back.
const MAX_CD: usize = 8;

type GetFilterById2 = unsafe extern "C" fn(
    Hid,
    c_int,
    *mut c_uint,
    *mut usize,
    *mut c_uint,
    usize,
    *mut c_char,
    *mut c_uint,
) -> c_int;
type ModifyFilter = unsafe extern "C" fn(Hid, c_int, c_uint, usize, *const c_uint) -> c_int;
type GetChunk = unsafe extern "C" fn(Hid, c_int, *mut u64) -> c_int;
type TypeSize = unsafe extern "C" fn(Hid) -> usize;
type TypeClass = unsafe extern "C" fn(Hid) -> c_int;
type TypeSuper = unsafe extern "C" fn(Hid) -> Hid;
type TypeClose = unsafe extern "C" fn(Hid) -> c_int;

/// The functions, from one loaded libhdf5.
struct Api {
    get_filter_by_id2: GetFilterById2,
    modify_filter: ModifyFilter,
    get_chunk: GetChunk,
    type_size: TypeSize,
    type_class: TypeClass,
    type_super: TypeSuper,
    type_close: TypeClose,
}

/// A symbol of `handle` as a function pointer of type `T`.
///
/// # Safety
/// `T` must be the function pointer type of the symbol's C declaration.
unsafe fn sym<T: Copy>(handle: *mut c_void, name: &CStr) -> Option<T> {
    // SAFETY: dlsym takes any handle dlopen returned (or RTLD_DEFAULT) and
    // a NUL-terminated name.
    let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
    if p.is_null() {
        return None;
    }
    assert_eq!(size_of::<T>(), size_of::<*mut c_void>());
    // SAFETY: `p` is the address of the function of that name, whose type
    // the caller gives; function pointers are pointer-sized (checked).
    Some(unsafe { core::mem::transmute_copy::<*mut c_void, T>(&p) })
}

impl Api {
    /// The functions of the library behind `handle`, if it has them all.
    fn from(handle: *mut c_void) -> Option<Api> {
        // SAFETY: each type is the C declaration's (module docs).
        unsafe {
            Some(Api {
                get_filter_by_id2: sym(handle, c"H5Pget_filter_by_id2")?,
                modify_filter: sym(handle, c"H5Pmodify_filter")?,
                get_chunk: sym(handle, c"H5Pget_chunk")?,
                type_size: sym(handle, c"H5Tget_size")?,
                type_class: sym(handle, c"H5Tget_class")?,
                type_super: sym(handle, c"H5Tget_super")?,
                type_close: sym(handle, c"H5Tclose")?,
            })
        }
    }
}

/// The paths of the loaded objects whose file name says libhdf5.
#[cfg(target_os = "linux")]
fn loaded_libhdf5() -> Vec<CString> {
    unsafe extern "C" fn each(info: *mut libc::dl_phdr_info, _: usize, data: *mut c_void) -> c_int {
        // SAFETY: dl_iterate_phdr passes a valid `info` and our `data`, a
        // `Vec<CString>` borrowed for the call.
        let (info, found) = unsafe { (&*info, &mut *data.cast::<Vec<CString>>()) };
        if info.dlpi_name.is_null() {
            return 0;
        }
        // SAFETY: the name is a NUL-terminated string while the object is loaded.
        let path = unsafe { CStr::from_ptr(info.dlpi_name) };
        let file = path.to_bytes().rsplit(|&b| b == b'/').next().unwrap_or(&[]);
        let has = |s: &[u8]| file.windows(s.len()).any(|w| w == s);
        if has(b"libhdf5") && !has(b"_hl") {
            found.push(path.to_owned());
        }
        0
    }
    let mut found: Vec<CString> = Vec::new();
    // SAFETY: the callback only reads `info` and pushes to `found`, which
    // outlives the call.
    unsafe { libc::dl_iterate_phdr(Some(each), (&raw mut found).cast()) };
    found
}

#[cfg(not(target_os = "linux"))]
fn loaded_libhdf5() -> Vec<CString> {
    Vec::new()
}

/// The functions of the libhdf5 in this process, found once.
fn api() -> Option<&'static Api> {
    static API: OnceLock<Option<Api>> = OnceLock::new();
    API.get_or_init(|| {
        if let Some(api) = Api::from(libc::RTLD_DEFAULT) {
            return Some(api);
        }
        loaded_libhdf5().iter().find_map(|path| {
            // SAFETY: RTLD_NOLOAD only returns a handle to an object that
            // is loaded already, adding a reference that is never dropped.
            let h = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOLOAD | libc::RTLD_LAZY) };
            if h.is_null() { None } else { Api::from(h) }
        })
    })
    .as_ref()
}

/// Reports a filter's failure on stderr when `VECPRESS_HDF5_VERBOSE` is
/// set; HDF5 itself only says that the filter failed. (An error pushed on
/// HDF5's stack with `H5Epush2` from inside the filter was tried: with
/// HDF5 2.0 under h5py it did not appear in the stack the caller sees.)
pub fn report(filter: Filter, message: &str) {
    if std::env::var_os("VECPRESS_HDF5_VERBOSE").is_some() {
        eprintln!("vecpress-hdf5 {}: {message}", filter.name());
    }
}

/// `set_local` failing: a message on stderr, and -1.
fn fail(filter: Filter, message: &str) -> c_int {
    eprintln!("vecpress-hdf5 {}: set_local: {message}", filter.name());
    -1
}

/// The libhdf5 functions, or the message of their absence.
fn need(filter: Filter) -> Result<&'static Api, c_int> {
    api().ok_or_else(|| {
        fail(
            filter,
            "cannot find the loaded libhdf5 (its H5P/H5T functions), so cannot write this filter",
        )
    })
}

/// The filter's parameters as the dataset creation list `dcpl` holds them
/// (at most [`MAX_CD`]), and its flags.
fn parameters(api: &Api, filter: Filter, dcpl: Hid) -> Result<(c_uint, Vec<c_uint>), c_int> {
    let mut flags: c_uint = 0;
    let mut n: usize = MAX_CD;
    let mut values = [0 as c_uint; MAX_CD];
    // SAFETY: the pointers are valid for the sizes given (n values, no name).
    let r = unsafe {
        (api.get_filter_by_id2)(
            dcpl,
            filter.id() as c_int,
            &mut flags,
            &mut n,
            values.as_mut_ptr(),
            0,
            core::ptr::null_mut(),
            core::ptr::null_mut(),
        )
    };
    if r < 0 {
        return Err(-1);
    }
    Ok((flags, values[..n.min(MAX_CD)].to_vec()))
}

/// Writes the parameters back.
fn modify(api: &Api, filter: Filter, dcpl: Hid, flags: c_uint, values: &[c_uint]) -> c_int {
    // SAFETY: `values` holds `values.len()` parameters.
    let r = unsafe {
        (api.modify_filter)(
            dcpl,
            filter.id() as c_int,
            flags,
            values.len(),
            values.as_ptr(),
        )
    };
    if r < 0 { -1 } else { 1 }
}

/// The size of an element of `type_id`, or an error.
fn type_size(api: &Api, type_id: Hid) -> Result<usize, c_int> {
    // SAFETY: H5Tget_size takes any id and returns 0 for a bad one.
    match unsafe { (api.type_size)(type_id) } {
        0 => Err(-1),
        n => Ok(n),
    }
}

/// Blosc's `set_local`, as hdf5-blosc's: `[0]` filter revision 2, `[1]`
/// Blosc format 2, `[2]` the type size (of an array type's elements; 1
/// above 255), `[3]` the chunk's size in bytes (modulo 2^32, as the C
/// code's `unsigned int`), keeping the user's `[4..]`. A compressor vecpress
/// does not write is refused here, when the dataset is created, rather
/// than leaving every chunk unfiltered.
pub fn blosc_set_local(dcpl: Hid, type_id: Hid, _space: Hid) -> c_int {
    let filter = Filter::Blosc;
    let result = (|| -> Result<c_int, c_int> {
        let api = need(filter)?;
        let (flags, mut values) = parameters(api, filter, dcpl)?;
        if values.len() < 4 {
            values.resize(4, 0);
        }
        values[0] = 2;
        values[1] = 2;
        let compressor = values.get(6).copied().unwrap_or(0);
        if let Err(e) = crate::blosc::compressor(compressor) {
            return Err(fail(filter, &e.to_string()));
        }
        let mut dims = [0u64; MAX_RANK];
        // SAFETY: `dims` holds MAX_RANK values.
        let rank = unsafe { (api.get_chunk)(dcpl, MAX_RANK as c_int, dims.as_mut_ptr()) };
        let rank = usize::try_from(rank).map_err(|_| -1)?;
        if rank > MAX_RANK {
            return Err(fail(filter, "chunk rank above 32"));
        }
        let size = type_size(api, type_id)?;
        // SAFETY: H5Tget_class takes any id.
        let base = if unsafe { (api.type_class)(type_id) } == H5T_ARRAY {
            // SAFETY: an array type has a base type, closed once here.
            unsafe {
                let base_type = (api.type_super)(type_id);
                let s = (api.type_size)(base_type);
                (api.type_close)(base_type);
                s
            }
        } else {
            size
        };
        values[2] = if base > 255 { 1 } else { base as c_uint };
        let chunk = dims[..rank]
            .iter()
            .fold(size as c_uint, |acc, &d| acc.wrapping_mul(d as c_uint));
        values[3] = chunk;
        Ok(modify(api, filter, dcpl, flags, &values))
    })();
    result.unwrap_or_else(|e| e)
}

/// Bitshuffle's `set_local`, as the library's: the user's parameters move
/// up three places behind `[0..2]` the version and `[2]` the element size;
/// a block size that is not a multiple of 8, or zstd, is refused.
pub fn bitshuffle_set_local(dcpl: Hid, type_id: Hid, _space: Hid) -> c_int {
    let filter = Filter::Bitshuffle;
    let result = (|| -> Result<c_int, c_int> {
        let api = need(filter)?;
        let (flags, user) = parameters(api, filter, dcpl)?;
        let size = type_size(api, type_id)?;
        let mut values = vec![
            crate::bitshuffle::VERSION[0],
            crate::bitshuffle::VERSION[1],
            size as c_uint,
        ];
        values.extend(&user);
        if values.len() > 3 && values[3] % 8 != 0 {
            return Err(fail(
                filter,
                &format!("block size {} not a multiple of 8", values[3]),
            ));
        }
        if let Some(&3) = values.get(4) {
            return Err(fail(
                filter,
                "zstd compression is not supported by vecpress",
            ));
        }
        Ok(modify(api, filter, dcpl, flags, &values))
    })();
    result.unwrap_or_else(|e| e)
}
