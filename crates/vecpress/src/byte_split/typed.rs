//! Typed conveniences: values split in their little-endian byte order, as
//! Parquet stores them.

use crate::Error;

/// Plain numbers whose every bit pattern is a valid value and whose memory
/// holds exactly `size_of::<Self>()` bytes, no padding.
///
/// # Safety
/// Implement only for types with those two properties.
unsafe trait Plain: Copy {
    /// `self` with its bytes read as little-endian (a swap on big-endian targets).
    fn le_swapped(self) -> Self;
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        // SAFETY: a primitive number: no padding, every bit pattern valid.
        unsafe impl Plain for $t {
            #[inline(always)]
            fn le_swapped(self) -> Self {
                <$t>::from_le_bytes(self.to_ne_bytes())
            }
        }
    )*};
}
plain!(f32, f64, u16, u32, u64);

/// The bytes of `values` in memory order.
fn bytes_of<T: Plain>(values: &[T]) -> &[u8] {
    // SAFETY: `T: Plain` has no padding, so its `size_of_val` bytes are
    // initialised; u8 has alignment 1; the borrow keeps `values` alive and shared.
    unsafe { core::slice::from_raw_parts(values.as_ptr().cast(), size_of_val(values)) }
}

/// The bytes of `values` in memory order, writable.
fn bytes_of_mut<T: Plain>(values: &mut [T]) -> &mut [u8] {
    // SAFETY: as in `bytes_of`; any bytes written form a valid `T` (`Plain`),
    // and the exclusive borrow of `values` is moved into the result.
    unsafe { core::slice::from_raw_parts_mut(values.as_mut_ptr().cast(), size_of_val(values)) }
}

fn encode_typed<T: Plain>(values: &[T], out: &mut [u8]) -> Result<usize, Error> {
    let width = size_of::<T>();
    if cfg!(target_endian = "little") {
        super::encode(bytes_of(values), width, out)
    } else {
        let le: Vec<T> = values.iter().map(|v| v.le_swapped()).collect();
        super::encode(bytes_of(&le), width, out)
    }
}

fn decode_typed<T: Plain>(bytes: &[u8], out: &mut [T]) -> Result<usize, Error> {
    let width = size_of::<T>();
    let n = super::count(bytes.len(), width)?;
    if out.len() < n {
        return Err(Error::OutputTooSmall {
            needed: n,
            actual: out.len(),
        });
    }
    super::decode(bytes, width, bytes_of_mut(&mut out[..n]))?;
    if cfg!(target_endian = "big") {
        out[..n].iter_mut().for_each(|v| *v = v.le_swapped());
    }
    Ok(n)
}

macro_rules! typed {
    ($enc:ident, $dec:ident, $t:ty, $values:expr) => {
        #[doc = concat!("Splits `", stringify!($t), "` values (little-endian) into ",
            "`size_of::<", stringify!($t), ">()` streams at the start of `out`; returns the bytes written.")]
        ///
        /// ```
        #[doc = concat!("let values: [", stringify!($t), "; 3] = ", stringify!($values), ";")]
        #[doc = concat!("let mut bytes = [0u8; 3 * size_of::<", stringify!($t), ">()];")]
        #[doc = concat!("let n = vecpress::byte_split::", stringify!($enc), "(&values, &mut bytes)?;")]
        /// assert_eq!(n, bytes.len());
        #[doc = concat!("let mut out = [0 as ", stringify!($t), "; 3];")]
        #[doc = concat!("vecpress::byte_split::", stringify!($dec), "(&bytes, &mut out)?;")]
        /// assert_eq!(out, values);
        /// # Ok::<(), vecpress::Error>(())
        /// ```
        pub fn $enc(values: &[$t], out: &mut [u8]) -> Result<usize, Error> {
            encode_typed(values, out)
        }

        #[doc = concat!("Joins the streams of `bytes` into `", stringify!($t),
            "` values at the start of `out`; returns the number of values.")]
        ///
        /// ```
        #[doc = concat!("let bytes = vecpress::byte_split::encode_to_vec(&[7u8; 2 * size_of::<",
            stringify!($t), ">()], size_of::<", stringify!($t), ">())?;")]
        #[doc = concat!("let mut out = [0 as ", stringify!($t), "; 2];")]
        #[doc = concat!("assert_eq!(vecpress::byte_split::", stringify!($dec), "(&bytes, &mut out)?, 2);")]
        #[doc = concat!("assert_eq!(out[1], ", stringify!($t), "::from_le_bytes([7; size_of::<",
            stringify!($t), ">()]));")]
        /// # Ok::<(), vecpress::Error>(())
        /// ```
        pub fn $dec(bytes: &[u8], out: &mut [$t]) -> Result<usize, Error> {
            decode_typed(bytes, out)
        }
    };
}

typed!(encode_f32, decode_f32, f32, [1.5, -0.0, f32::MAX]);
typed!(encode_f64, decode_f64, f64, [1.5, -0.0, f64::MIN_POSITIVE]);
typed!(encode_u16, decode_u16, u16, [1, 0x1234, u16::MAX]);
typed!(encode_u32, decode_u32, u32, [1, 0x1234_5678, u32::MAX]);
typed!(encode_u64, decode_u64, u64, [1, 1 << 40, u64::MAX]);
