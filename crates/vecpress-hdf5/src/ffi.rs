//! The C side: HDF5's filter class (`H5Z_class2_t`), the filter function
//! it calls, the `malloc`ed buffers it owns, and [`plugin!`](crate::plugin), which
//! exports a plugin library's two entry points.
//!
//! The contract (HDF5's `H5Zpublic.h`, `H5PLextern.h`): a plugin library
//! exports `H5PLget_plugin_type` (0, a filter) and `H5PLget_plugin_info`
//! (a pointer to its class). HDF5 calls the filter function with the
//! chunk in `*buf` (`nbytes` valid bytes of `*buf_size`); on success the
//! function puts a new `malloc`ed buffer in `*buf` and its size in
//! `*buf_size`, frees the old one and returns the valid bytes; it returns 0
//! on failure, leaving `*buf` as it was. `flags & H5Z_FLAG_REVERSE` means
//! decode.

use core::ffi::{c_char, c_int, c_uint, c_void};
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::{Buffer, Filter, Filtered, decode, encode, hdf5};

/// `H5Z_CLASS_T_VERS`.
const CLASS_VERSION: c_int = 1;

/// `H5Z_FLAG_REVERSE`: the filter runs backwards (reads).
pub const FLAG_REVERSE: c_uint = 0x0100;

/// `H5PL_TYPE_FILTER`.
pub const PLUGIN_TYPE_FILTER: c_int = 0;

/// HDF5's `hid_t` (64 bits since HDF5 1.10).
pub type Hid = i64;

/// `H5Z_set_local_func_t` (and `H5Z_can_apply_func_t`).
pub type SetLocalFn = unsafe extern "C" fn(dcpl: Hid, type_id: Hid, space: Hid) -> c_int;

/// `H5Z_func_t`.
pub type FilterFn = unsafe extern "C" fn(
    flags: c_uint,
    cd_nelmts: usize,
    cd_values: *const c_uint,
    nbytes: usize,
    buf_size: *mut usize,
    buf: *mut *mut c_void,
) -> usize;

/// HDF5's `H5Z_class2_t`, field by field.
#[repr(C)]
#[derive(Debug)]
pub struct H5ZClass2 {
    /// `H5Z_CLASS_T_VERS` (1).
    pub version: c_int,
    /// The filter id.
    pub id: c_int,
    /// Whether the filter encodes.
    pub encoder_present: c_uint,
    /// Whether the filter decodes.
    pub decoder_present: c_uint,
    /// A NUL-terminated name for messages.
    pub name: *const c_char,
    /// Whether the filter applies to a dataset (none here).
    pub can_apply: Option<SetLocalFn>,
    /// Fills in the parameters that depend on the dataset.
    pub set_local: Option<SetLocalFn>,
    /// The filter function.
    pub filter: Option<FilterFn>,
}

// SAFETY: the classes are immutable statics whose pointers lead to static
// strings and functions, so sharing them between threads is sound.
unsafe impl Sync for H5ZClass2 {}

/// A class of `filter` with its functions.
const fn class(
    filter: Filter,
    name: &'static [u8],
    set_local: Option<SetLocalFn>,
    f: FilterFn,
) -> H5ZClass2 {
    H5ZClass2 {
        version: CLASS_VERSION,
        id: filter.id() as c_int,
        encoder_present: 1,
        decoder_present: 1,
        name: name.as_ptr().cast(),
        can_apply: None,
        set_local,
        filter: Some(f),
    }
}

static BLOSC: H5ZClass2 = class(
    Filter::Blosc,
    b"blosc (vecpress)\0",
    Some(blosc_set_local),
    blosc_filter,
);
static LZ4: H5ZClass2 = class(Filter::Lz4, b"lz4 (vecpress)\0", None, lz4_filter);
static BITSHUFFLE: H5ZClass2 = class(
    Filter::Bitshuffle,
    b"bitshuffle (vecpress)\0",
    Some(bitshuffle_set_local),
    bitshuffle_filter,
);

impl Filter {
    /// The filter's class, for `H5PLget_plugin_info` (or `H5Zregister`).
    ///
    /// ```
    /// use vecpress_hdf5::Filter;
    /// assert_eq!(Filter::Lz4.class().id, 32004);
    /// assert!(Filter::Lz4.class().set_local.is_none());
    /// ```
    pub fn class(self) -> &'static H5ZClass2 {
        match self {
            Filter::Blosc => &BLOSC,
            Filter::Lz4 => &LZ4,
            Filter::Bitshuffle => &BITSHUFFLE,
        }
    }
}

/// Exports a plugin library's entry points, `H5PLget_plugin_type` and
/// `H5PLget_plugin_info`, for one [`Filter`] (named by its variant). Use it
/// once, in a `cdylib`.
///
/// ```ignore
/// vecpress_hdf5::plugin!(Blosc);
/// ```
#[macro_export]
macro_rules! plugin {
    ($filter:ident) => {
        /// HDF5 asks what kind of plugin this library holds: a filter.
        #[unsafe(no_mangle)]
        pub extern "C" fn H5PLget_plugin_type() -> ::core::ffi::c_int {
            $crate::ffi::PLUGIN_TYPE_FILTER
        }

        /// HDF5 asks for the filter's class (`const H5Z_class2_t *`).
        #[unsafe(no_mangle)]
        pub extern "C" fn H5PLget_plugin_info() -> *const ::core::ffi::c_void {
            ::core::ptr::from_ref($crate::Filter::$filter.class()).cast()
        }
    };
}

/// A buffer from `calloc`, freed with `free` unless handed to HDF5.
#[derive(Debug)]
pub struct MallocBuf {
    ptr: NonNull<u8>,
    len: usize,
}

impl MallocBuf {
    /// The pointer and the length, for HDF5 to own (and `free`).
    pub fn into_raw(self) -> (*mut c_void, usize) {
        let out = (self.ptr.as_ptr().cast(), self.len);
        core::mem::forget(self);
        out
    }
}

impl Buffer for MallocBuf {
    fn zeroed(len: usize) -> Option<MallocBuf> {
        // SAFETY: calloc has no preconditions; a null result is handled.
        // One byte at least, so that a length of 0 is no null pointer.
        let ptr = unsafe { libc::calloc(len.max(1), 1) };
        Some(MallocBuf {
            ptr: NonNull::new(ptr.cast())?,
            len,
        })
    }
}

impl Deref for MallocBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `ptr` holds `len` initialised (zeroed) bytes that this
        // value owns alone.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl DerefMut for MallocBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for MallocBuf {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from calloc and is freed once, here.
        unsafe { libc::free(self.ptr.as_ptr().cast()) }
    }
}

// SAFETY: a MallocBuf owns its memory alone, as a Vec<u8> does.
unsafe impl Send for MallocBuf {}

/// Runs `filter` on HDF5's buffer: the body of each filter function.
///
/// # Safety
/// The arguments must be as HDF5 passes them: `cd_values` points at
/// `cd_nelmts` values (or `cd_nelmts` is 0), `*buf` points at a `malloc`ed
/// buffer holding at least `nbytes` initialised bytes, and `buf_size`
/// and `buf` are valid for reads and writes.
pub unsafe fn run(
    filter: Filter,
    flags: c_uint,
    cd_nelmts: usize,
    cd_values: *const c_uint,
    nbytes: usize,
    buf_size: *mut usize,
    buf: *mut *mut c_void,
) -> usize {
    if buf.is_null() || buf_size.is_null() {
        return 0;
    }
    // SAFETY: `buf` is valid for reads (checked not null, and HDF5 passes a
    // valid pointer).
    let input_ptr = unsafe { *buf };
    if input_ptr.is_null() && nbytes > 0 {
        return 0;
    }
    let cd: &[c_uint] = if cd_values.is_null() || cd_nelmts == 0 {
        &[]
    } else {
        // SAFETY: HDF5 passes `cd_nelmts` values at `cd_values`.
        unsafe { core::slice::from_raw_parts(cd_values, cd_nelmts) }
    };
    let input: &[u8] = if nbytes == 0 {
        &[]
    } else {
        // SAFETY: HDF5's buffer holds `nbytes` valid bytes, and nothing
        // else writes it while the filter runs.
        unsafe { core::slice::from_raw_parts(input_ptr.cast(), nbytes) }
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        if flags & FLAG_REVERSE != 0 {
            decode::<MallocBuf>(filter, cd, input)
        } else {
            encode::<MallocBuf>(filter, cd, input)
        }
    }));
    match result {
        Ok(Ok(Filtered { buf: out, len })) if len > 0 => {
            let (ptr, size) = out.into_raw();
            // SAFETY: the old buffer is HDF5's, malloc'ed; it is replaced
            // by ours and freed once, as the reference filters do. `buf`
            // and `buf_size` are valid for writes.
            unsafe {
                libc::free(input_ptr);
                *buf = ptr;
                *buf_size = size;
            }
            len
        }
        Ok(Ok(_)) => 0,
        Ok(Err(e)) => {
            hdf5::report(filter, &e.to_string());
            0
        }
        Err(_) => {
            hdf5::report(filter, "panic in the filter");
            0
        }
    }
}

/// Declares the `extern "C"` filter function of a filter.
macro_rules! filter_fn {
    ($name:ident, $filter:expr) => {
        /// The filter function HDF5 calls (`H5Z_func_t`).
        ///
        /// # Safety
        /// As [`run`].
        unsafe extern "C" fn $name(
            flags: c_uint,
            cd_nelmts: usize,
            cd_values: *const c_uint,
            nbytes: usize,
            buf_size: *mut usize,
            buf: *mut *mut c_void,
        ) -> usize {
            // SAFETY: HDF5 calls this with the arguments `run` asks for.
            unsafe { run($filter, flags, cd_nelmts, cd_values, nbytes, buf_size, buf) }
        }
    };
}

filter_fn!(blosc_filter, Filter::Blosc);
filter_fn!(lz4_filter, Filter::Lz4);
filter_fn!(bitshuffle_filter, Filter::Bitshuffle);

/// `set_local` of Blosc: see [`hdf5::blosc_set_local`].
unsafe extern "C" fn blosc_set_local(dcpl: Hid, type_id: Hid, space: Hid) -> c_int {
    catch_unwind(|| hdf5::blosc_set_local(dcpl, type_id, space)).unwrap_or(-1)
}

/// `set_local` of bitshuffle: see [`hdf5::bitshuffle_set_local`].
unsafe extern "C" fn bitshuffle_set_local(dcpl: Hid, type_id: Hid, space: Hid) -> c_int {
    catch_unwind(|| hdf5::bitshuffle_set_local(dcpl, type_id, space)).unwrap_or(-1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chunk through the C entry point, as HDF5 calls it.
    fn call(filter: Filter, flags: c_uint, cd: &[c_uint], data: &[u8]) -> Option<Vec<u8>> {
        let Some(mut buf) = MallocBuf::zeroed(data.len()) else {
            panic!("calloc failed");
        };
        buf.copy_from_slice(data);
        let (mut ptr, mut size) = buf.into_raw();
        let f = filter.class().filter.unwrap();
        // SAFETY: the arguments are as HDF5 passes them; the buffer is ours.
        let n = unsafe {
            f(
                flags,
                cd.len(),
                cd.as_ptr(),
                data.len(),
                &mut size,
                &mut ptr,
            )
        };
        // SAFETY: `ptr` holds `size >= n` bytes, malloc'ed; freed once.
        unsafe {
            let out = (n > 0).then(|| core::slice::from_raw_parts(ptr.cast::<u8>(), n).to_vec());
            assert!(n <= size);
            libc::free(ptr);
            out
        }
    }

    #[test]
    fn filters_through_the_c_entry_point() {
        let data: Vec<u8> = (0..30_000u32).map(|i| (i / 11) as u8).collect();
        for (filter, cd) in [
            (Filter::Blosc, &[2, 2, 4, 30_000, 5, 1, 1][..]),
            (Filter::Lz4, &[][..]),
            (Filter::Bitshuffle, &[0, 4, 4, 0, 2][..]),
            (Filter::Bitshuffle, &[0, 4, 4, 0, 0][..]),
        ] {
            let packed = call(filter, 0, cd, &data).unwrap();
            let back = call(filter, FLAG_REVERSE, cd, &packed);
            assert!(back.as_deref() == Some(&data[..]), "{filter:?} {cd:?}");
            if cd.get(4) != Some(&0) {
                // Framed chunks (not the bare bit shuffle) know their length.
                assert!(call(filter, FLAG_REVERSE, cd, &packed[..packed.len() / 2]).is_none());
                assert!(call(filter, FLAG_REVERSE, cd, &[0xff; 40]).is_none());
            }
        }
    }

    #[test]
    fn classes_are_hdf5s_layout() {
        assert_eq!(core::mem::size_of::<H5ZClass2>(), 48);
        for f in [Filter::Blosc, Filter::Lz4, Filter::Bitshuffle] {
            let c = f.class();
            assert_eq!((c.version, c.id as u32), (1, f.id()));
            // SAFETY: the names are static NUL-terminated strings.
            let name = unsafe { core::ffi::CStr::from_ptr(c.name) };
            assert_eq!(name.to_str().unwrap(), f.name());
        }
    }
}
