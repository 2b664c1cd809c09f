//! Appending to a stream without re-encoding it (paper, §4: "we append
//! extra data, and occasionally grow the control bytes stream").
//!
//! A stream of `n` values is `ceil(n/4)` control bytes, then the data. A new
//! value goes at the end of the data, and its code into the last control
//! byte while that has an unused code (`n % 4 != 0`); otherwise the control
//! area needs one more byte, so the whole data area moves right by one. The
//! format has no room to reserve control bytes ahead (the data must start
//! right after them), so [`Writer::extend`] amortises the move: it makes
//! room for all the new control bytes at once and moves the data once per
//! call, into a `Vec` whose capacity grows geometrically. [`Writer::push`]
//! moves the data every fourth value: for many values, prefer `extend`.
//!
//! The bytes are always a complete stream, equal to what a one-shot
//! [`encode`](super::encode) of all the values writes.
#![forbid(unsafe_code)]

use super::encode::encode_from;
use super::seek::truncated;
use super::tables::{Codes1234, Variant};
use super::{control_len, data_len, select_delta};
use crate::Error;

/// A Stream VByte stream that values can be appended to.
///
/// ```
/// use vecpress::stream_vbyte::{self, Writer};
///
/// let mut w = Writer::new();
/// w.extend(&[1, 300, 70_000]);
/// w.push(5);
/// w.push(1 << 30);
/// assert_eq!(w.len(), 5);
/// assert_eq!(w.as_bytes(), &stream_vbyte::encode_to_vec(&[1, 300, 70_000, 5, 1 << 30])[..]);
///
/// // Reopen the bytes later and keep appending.
/// let mut w = Writer::from_stream(w.into_bytes(), 5)?;
/// w.extend(&[6, 7]);
/// assert_eq!(stream_vbyte::decode_to_vec(w.as_bytes(), 7)?, [1, 300, 70_000, 5, 1 << 30, 6, 7]);
/// # Ok::<(), vecpress::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Writer {
    /// `control_len(n)` control bytes, then exactly the data bytes.
    bytes: Vec<u8>,
    /// Values in the stream.
    n: usize,
}

impl Writer {
    /// An empty stream.
    ///
    /// ```
    /// let w = vecpress::stream_vbyte::Writer::new();
    /// assert!(w.is_empty() && w.as_bytes().is_empty());
    /// ```
    pub fn new() -> Writer {
        Writer::default()
    }

    /// Takes over the bytes of a stream of `n` values, to append to it.
    /// They must hold exactly `n` values (as [`validate`](super::validate)
    /// checks): a shorter stream is `Err(Truncated)`, bytes after the last
    /// value are `Err(Corrupt)`. Unused codes in a last, partial control
    /// byte, which decoders ignore, are cleared.
    ///
    /// ```
    /// use vecpress::{stream_vbyte::{self, Writer}, Error};
    /// let bytes = stream_vbyte::encode_to_vec(&[1, 2, 3]);
    /// assert_eq!(Writer::from_stream(bytes.clone(), 3)?.len(), 3);
    /// assert!(matches!(Writer::from_stream(bytes[..3].to_vec(), 3), Err(Error::Truncated { .. })));
    /// assert!(matches!(Writer::from_stream(bytes, 2), Err(Error::Corrupt { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_stream(mut bytes: Vec<u8>, n: usize) -> Result<Writer, Error> {
        let clen = control_len(n);
        if bytes.len() < clen {
            return Err(super::decode::scalar::control_truncated(bytes.len(), n));
        }
        let end = clen + data_len::<Codes1234>(&bytes, n);
        if bytes.len() < end {
            return Err(truncated(&bytes[..clen], bytes.len() - clen, clen, n - 1));
        }
        if bytes.len() > end {
            return Err(Error::Corrupt {
                offset: end,
                what: "bytes after the last value",
            });
        }
        if !n.is_multiple_of(4) {
            bytes[clen - 1] &= (1u8 << (2 * (n % 4))) - 1;
        }
        Ok(Writer { bytes, n })
    }

    /// The number of values in the stream.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::Writer::new();
    /// w.push(9);
    /// assert_eq!(w.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether the stream holds no value.
    ///
    /// ```
    /// assert!(vecpress::stream_vbyte::Writer::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The stream: `ceil(len/4)` control bytes, then the data.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::Writer::new();
    /// w.push(300);
    /// assert_eq!(w.as_bytes(), &[0b01, 44, 1]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The stream's bytes, for storing or decoding.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::Writer::new();
    /// w.extend(&[1, 2]);
    /// assert_eq!(w.into_bytes(), vec![0, 1, 2]);
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// Appends one value. Every fourth value moves the data one byte right
    /// to make room for a control byte; [`Writer::extend`] moves it once for
    /// many values.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::Writer::new();
    /// for v in [1, 2, 3, 4, 5] {
    ///     w.push(v);
    /// }
    /// assert_eq!(w.as_bytes(), &[0, 0, 1, 2, 3, 4, 5]);
    /// ```
    pub fn push(&mut self, value: u32) {
        self.extend(&[value]);
    }

    /// Appends `values`: makes room for their control bytes (moving the data
    /// once), then encodes them after the data.
    ///
    /// ```
    /// use vecpress::stream_vbyte::{self, Writer};
    /// let mut w = Writer::new();
    /// w.extend(&[1, 2, 3]);
    /// w.extend(&[1 << 20; 6]);
    /// let mut all = vec![1, 2, 3];
    /// all.extend([1 << 20; 6]);
    /// assert_eq!(w.as_bytes(), &stream_vbyte::encode_to_vec(&all)[..]);
    /// ```
    pub fn extend(&mut self, values: &[u32]) {
        if values.is_empty() {
            return;
        }
        let (old_n, new_n) = (self.n, self.n + values.len());
        let (old_clen, new_clen) = (control_len(old_n), control_len(new_n));
        let old_data = self.bytes.len() - old_clen;
        let added: usize = values
            .iter()
            .map(|&v| Codes1234::LENS[Codes1234::code(v) as usize])
            .sum();
        self.bytes.resize(new_clen + old_data + added, 0);
        if new_clen > old_clen {
            self.bytes
                .copy_within(old_clen..old_clen + old_data, new_clen);
            self.bytes[old_clen..new_clen].fill(0);
        }
        let (control, data) = self.bytes.split_at_mut(new_clen);
        // Fill the last, partial group, then whole groups from the encoder.
        let head = values.len().min((4 - old_n % 4) % 4);
        let mut pos = old_data;
        for (k, &v) in values[..head].iter().enumerate() {
            let i = old_n + k;
            let code = Codes1234::code(v);
            control[i / 4] |= code << (2 * (i % 4));
            let len = Codes1234::LENS[code as usize];
            data[pos..pos + len].copy_from_slice(&v.to_le_bytes()[..len]);
            pos += len;
        }
        let first = (old_n + head) / 4;
        encode_from::<Codes1234, false>(
            &values[head..],
            &mut control[first..],
            data,
            0,
            pos,
            &mut 0,
        );
        self.n = new_n;
    }
}

/// A [`Writer`] of a delta-coded stream: it keeps the last value and
/// appends gaps, so that the bytes equal what
/// [`encode_delta`](super::encode_delta) of all the values writes.
///
/// ```
/// use vecpress::stream_vbyte::{self, DeltaWriter};
/// let mut w = DeltaWriter::new(0);
/// w.extend(&[10, 20, 30]);
/// w.push(1000);
/// assert_eq!(w.last(), 1000);
/// assert_eq!(w.as_bytes(), &stream_vbyte::encode_delta_to_vec(&[10, 20, 30, 1000], 0)[..]);
/// let mut w = DeltaWriter::from_stream(w.into_bytes(), 4, 0)?;
/// w.push(1001);
/// assert_eq!(stream_vbyte::decode_delta_to_vec(w.as_bytes(), 5, 0)?, [10, 20, 30, 1000, 1001]);
/// # Ok::<(), vecpress::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeltaWriter {
    inner: Writer,
    last: u32,
}

impl DeltaWriter {
    /// An empty stream whose first gap is taken from `prev`.
    ///
    /// ```
    /// let w = vecpress::stream_vbyte::DeltaWriter::new(7);
    /// assert_eq!((w.len(), w.last()), (0, 7));
    /// ```
    pub fn new(prev: u32) -> DeltaWriter {
        DeltaWriter {
            inner: Writer::new(),
            last: prev,
        }
    }

    /// Takes over a delta-coded stream of `n` values encoded from `prev`
    /// (checked as [`Writer::from_stream`] does; its last value is decoded).
    ///
    /// ```
    /// use vecpress::stream_vbyte::{self, DeltaWriter};
    /// let bytes = stream_vbyte::encode_delta_to_vec(&[5, 9], 1);
    /// assert_eq!(DeltaWriter::from_stream(bytes, 2, 1)?.last(), 9);
    /// # Ok::<(), vecpress::Error>(())
    /// ```
    pub fn from_stream(bytes: Vec<u8>, n: usize, prev: u32) -> Result<DeltaWriter, Error> {
        let inner = Writer::from_stream(bytes, n)?;
        let last = match n {
            0 => prev,
            _ => select_delta(inner.as_bytes(), n, n - 1, prev)?,
        };
        Ok(DeltaWriter { inner, last })
    }

    /// The last value appended (or `prev` while empty).
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::DeltaWriter::new(0);
    /// w.push(42);
    /// assert_eq!(w.last(), 42);
    /// ```
    pub fn last(&self) -> u32 {
        self.last
    }

    /// The number of values in the stream.
    ///
    /// ```
    /// assert_eq!(vecpress::stream_vbyte::DeltaWriter::new(0).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the stream holds no value.
    ///
    /// ```
    /// assert!(vecpress::stream_vbyte::DeltaWriter::new(0).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// The stream of gaps.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::DeltaWriter::new(100);
    /// w.push(103);
    /// assert_eq!(w.as_bytes(), &[0, 3]);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        self.inner.as_bytes()
    }

    /// The stream's bytes.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::DeltaWriter::new(0);
    /// w.push(1);
    /// assert_eq!(w.into_bytes(), vec![0, 1]);
    /// ```
    pub fn into_bytes(self) -> Vec<u8> {
        self.inner.into_bytes()
    }

    /// Appends one value (its gap from the last, wrapping).
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::DeltaWriter::new(0);
    /// w.push(5);
    /// w.push(3);
    /// assert_eq!(vecpress::stream_vbyte::decode_delta_to_vec(w.as_bytes(), 2, 0), Ok(vec![5, 3]));
    /// ```
    pub fn push(&mut self, value: u32) {
        self.extend(&[value]);
    }

    /// Appends `values` (their gaps), moving the data once per 256 values.
    ///
    /// ```
    /// let mut w = vecpress::stream_vbyte::DeltaWriter::new(0);
    /// w.extend(&[1, 2, 4, 8, 16]);
    /// assert_eq!(w.as_bytes(), &vecpress::stream_vbyte::encode_delta_to_vec(&[1, 2, 4, 8, 16], 0)[..]);
    /// ```
    pub fn extend(&mut self, values: &[u32]) {
        let mut gaps = [0u32; 256];
        for chunk in values.chunks(gaps.len()) {
            for (g, &v) in gaps.iter_mut().zip(chunk) {
                *g = v.wrapping_sub(self.last);
                self.last = v;
            }
            self.inner.extend(&gaps[..chunk.len()]);
        }
    }
}
