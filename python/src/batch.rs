//! Many Blosc chunks at once, for codec pipelines: frames in memory, or
//! files read here, each decoded into its own place of the caller's array,
//! on threads of rayon's pool, with the GIL released. A pipeline that decodes a selection
//! this way keeps no stored bytes nor decoded copies between the store and
//! the array.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use numpy::{PyReadwriteArray1, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use vecpress::blosc;

use crate::buffers::{output, to_array, Bytes};
use crate::errors::to_py;

/// Decompresses each Blosc frame of `frames` into the array at the same
/// index of `outs` (writable, 1-D, C-contiguous uint8, exactly as long as
/// the frame's stated size), on up to `threads` threads with the GIL
/// released: the frames in parallel, and the blocks of each frame in
/// parallel when there are fewer frames than threads. Every buffer and
/// header is checked before anything is decoded; no out may share memory
/// with another out or a frame. An error is that of the first bad frame
/// in `frames`' order, its index in the message and the exception's
/// `chunk` attribute.
#[pyfunction]
pub fn blosc_decompress_many(
    py: Python<'_>,
    frames: Vec<Bound<'_, PyAny>>,
    outs: Vec<Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<()> {
    crate::errors::guarded(|| {
        same_count(frames.len(), outs.len())?;
        let inputs = frames
            .iter()
            .map(Bytes::get)
            .collect::<PyResult<Vec<_>>>()?;
        let srcs: Vec<&[u8]> = inputs.iter().map(Bytes::as_slice).collect();
        let mut sizes = Vec::with_capacity(srcs.len());
        for (i, src) in srcs.iter().enumerate() {
            let n = blosc::decompressed_len(src).map_err(|e| chunk_error(py, i, to_py(py, e)))?;
            sizes.push(n);
        }
        let mut guards = outputs(py, &outs, &sizes)?;
        let dsts = slices(&mut guards)?;
        disjoint(&srcs, &dsts)?;
        let jobs = srcs.into_iter().map(Source::Frame).zip(dsts).collect();
        match py.detach(|| run(jobs, threads)) {
            Ok(_) => Ok(()),
            Err((i, e)) => Err(chunk_error(py, i, e.into_py(py))),
        }
    })
}

/// Reads each file of `paths` (a Blosc frame, as a zarr store on disk
/// holds a chunk) and decompresses it into the array at the same index of
/// `outs`, as [`blosc_decompress_many`] does, the reads on the decoding
/// threads too. Returns the indices of the files that do not exist (chunks
/// never written, which the caller fills); a file whose frame states
/// another size than its out raises, as does any other I/O error (an
/// `OSError` naming the file).
#[pyfunction]
pub fn blosc_decompress_files(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    outs: Vec<Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<Vec<usize>> {
    crate::errors::guarded(|| {
        same_count(paths.len(), outs.len())?;
        let sizes: Vec<usize> = outs.iter().map(|o| o.len()).collect::<PyResult<_>>()?;
        let mut guards = outputs(py, &outs, &sizes)?;
        let dsts = slices(&mut guards)?;
        disjoint(&[], &dsts)?;
        let jobs = paths.iter().map(Source::File).zip(dsts).collect();
        match py.detach(|| run(jobs, threads)) {
            Ok(missing) => Ok(missing),
            Err((i, JobError::Io(e))) => Err(PyOSError::new_err(format!(
                "chunk {i}: {}: {e}",
                paths[i].display()
            ))),
            Err((i, e)) => {
                let err = chunk_error(py, i, e.into_py(py));
                let msg = err.value(py).str()?.to_string();
                let _ = err
                    .value(py)
                    .setattr("args", (format!("{msg} ({})", paths[i].display()),));
                Err(err)
            }
        }
    })
}

fn same_count(sources: usize, outs: usize) -> PyResult<()> {
    if sources == outs {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{sources} chunks and {outs} outs"
        )))
    }
}

/// Each out borrowed writable, exactly `sizes[i]` bytes long.
fn outputs<'py>(
    py: Python<'py>,
    outs: &[Bound<'py, PyAny>],
    sizes: &[usize],
) -> PyResult<Vec<PyReadwriteArray1<'py, u8>>> {
    let mut guards = Vec::with_capacity(outs.len());
    for (i, (out, &n)) in outs.iter().zip(sizes).enumerate() {
        let guard = output::<u8>(out, n, &[]).map_err(|e| chunk_error(py, i, e))?;
        if guard.len() != n {
            return Err(chunk_error(
                py,
                i,
                PyValueError::new_err(format!(
                    "the frame holds {n} bytes, its out {}",
                    guard.len()
                )),
            ));
        }
        guards.push(guard);
    }
    Ok(guards)
}

fn slices<'a>(guards: &'a mut [PyReadwriteArray1<'_, u8>]) -> PyResult<Vec<&'a mut [u8]>> {
    guards
        .iter_mut()
        .map(|g| {
            g.as_slice_mut()
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .collect()
}

/// `ValueError` unless every out is apart from every other buffer (two
/// numpy views of one array can overlap, and a frame could be a view of
/// an out). Frames may share memory with frames.
fn disjoint(srcs: &[&[u8]], dsts: &[&mut [u8]]) -> PyResult<()> {
    let mut spans: Vec<(usize, usize, bool)> = srcs
        .iter()
        .map(|s| (s.as_ptr() as usize, s.len(), false))
        .chain(dsts.iter().map(|d| (d.as_ptr() as usize, d.len(), true)))
        .filter(|&(_, len, _)| len > 0)
        .collect();
    spans.sort_unstable();
    // In order of start: a span overlaps an earlier one iff it starts
    // before the furthest end so far. Of two overlapping spans with an out
    // among them, either the later one is the out, or the earlier out
    // still holds the furthest end when the later one (or a span between,
    // itself overlapping the out) comes.
    let mut reach: Option<(usize, bool)> = None;
    for &(start, len, is_out) in &spans {
        if let Some((end, end_is_out)) = reach {
            if start < end && (is_out || end_is_out) {
                return Err(PyValueError::new_err(
                    "an out shares memory with another out or a frame: give each chunk a place of its own",
                ));
            }
        }
        let end = start + len;
        if reach.is_none_or(|(e, _)| end > e) {
            reach = Some((end, is_out));
        }
    }
    Ok(())
}

/// Where a chunk's frame is.
enum Source<'a> {
    Frame(&'a [u8]),
    File(&'a PathBuf),
}

/// A chunk's frame and the place it decodes into.
type Job<'a> = (Source<'a>, &'a mut [u8]);

enum JobError {
    Codec(vecpress::Error),
    Io(io::Error),
    Size { stated: usize, expected: usize },
}

impl JobError {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            JobError::Codec(e) => to_py(py, e),
            JobError::Io(e) => PyOSError::new_err(e.to_string()),
            JobError::Size { stated, expected } => PyValueError::new_err(format!(
                "the frame holds {stated} bytes, the chunk {expected}"
            )),
        }
    }
}

thread_local! {
    /// The file buffer of a decoding thread, kept from one chunk to the
    /// next: a fresh one would be fresh pages, faulted in on every read.
    static FILE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Buffers larger than this are freed after their chunk.
const KEEP: usize = 64 << 20;

/// Decodes one chunk; `Ok(false)` for a file that does not exist.
fn job((src, dst): Job<'_>, threads: usize) -> Result<bool, JobError> {
    let decode = |frame: &[u8], dst: &mut [u8]| {
        let stated = blosc::decompressed_len(frame).map_err(JobError::Codec)?;
        if stated != dst.len() {
            return Err(JobError::Size {
                stated,
                expected: dst.len(),
            });
        }
        blosc::decompress_into_threads(frame, dst, threads).map_err(JobError::Codec)?;
        Ok(true)
    };
    match src {
        Source::Frame(frame) => decode(frame, dst),
        Source::File(path) => {
            let mut file = match File::open(path) {
                Ok(f) => f,
                // As zarr's LocalStore has it: no chunk there.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound
                            | io::ErrorKind::IsADirectory
                            | io::ErrorKind::NotADirectory
                    ) =>
                {
                    return Ok(false);
                }
                Err(e) => return Err(JobError::Io(e)),
            };
            FILE.with_borrow_mut(|buf| {
                buf.clear();
                // A frame longer than the chunk's bound is refused unread:
                // the read stops one byte past it.
                let most = blosc::MAX_OVERHEAD + dst.len() + (dst.len() >> 8) + 64;
                (&mut file)
                    .take(most as u64 + 1)
                    .read_to_end(buf)
                    .map_err(JobError::Io)?;
                let r = decode(buf, dst);
                if buf.capacity() > KEEP {
                    *buf = Vec::new();
                }
                r
            })
        }
    }
}

/// Runs every job on up to `threads` threads (the blocks of a chunk on the
/// spare ones when there are fewer chunks than threads); the indices of
/// the missing files, or the error of the first bad job in order.
fn run(jobs: Vec<Job<'_>>, threads: usize) -> Result<Vec<usize>, (usize, JobError)> {
    let n = jobs.len();
    let threads = threads.max(1);
    let per_job = (threads / n.max(1)).max(1);
    let workers = threads.min(n);
    let mut missing = Vec::new();
    if workers <= 1 {
        for (i, j) in jobs.into_iter().enumerate() {
            if !job(j, per_job).map_err(|e| (i, e))? {
                missing.push(i);
            }
        }
        return Ok(missing);
    }
    let results = each(jobs, workers, |j| job(j, per_job));
    let mut first = None;
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(true) => {}
            Ok(false) => missing.push(i),
            Err(e) => {
                first.get_or_insert((i, e));
            }
        }
    }
    match first {
        Some(e) => Err(e),
        None => Ok(missing),
    }
}

/// `f` of each item, in order, on up to `workers` tasks of rayon's pool
/// (the caller running one), each taking the next item in turn. The pool's
/// threads keep their file buffers and scratch from call to call, where a
/// thread spawned per call would fault in fresh ones each time.
fn each<T: Send, R: Send>(items: Vec<T>, workers: usize, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    if workers <= 1 {
        return items.into_iter().map(f).collect();
    }
    let slots: Vec<Mutex<(Option<T>, Option<R>)>> = items
        .into_iter()
        .map(|t| Mutex::new((Some(t), None)))
        .collect();
    let next = AtomicUsize::new(0);
    let lock = |i: usize| slots[i].lock().unwrap_or_else(|p| p.into_inner());
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= slots.len() {
            break;
        }
        let item = lock(i).0.take();
        if let Some(item) = item {
            let r = f(item);
            lock(i).1 = Some(r);
        }
    };
    rayon::in_place_scope(|s| {
        for _ in 1..workers {
            s.spawn(|_| work());
        }
        work();
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .1
                .expect("every item ran")
        })
        .collect()
}

/// `err` with the index of the chunk it concerns, in its message and as
/// its `chunk` attribute.
fn chunk_error(py: Python<'_>, chunk: usize, err: PyErr) -> PyErr {
    let value = err.value(py);
    let _ = value.setattr("chunk", chunk);
    if let Ok(msg) = value.str() {
        let _ = value.setattr("args", (format!("chunk {chunk}: {msg}"),));
    }
    err
}

/// Compresses each buffer of `srcs` into a Blosc frame (`cname` "lz4" or
/// "lz4hc", `clevel`, `shuffle` 0/1/2, `typesize`, `blocksize`: as
/// [`crate::blosc::blosc_compress`]), on up to `threads` threads with the
/// GIL released; returns the frames in order (uint8 arrays, each owning
/// its bytes), each byte-identical to the one-at-a-time encoder's.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn blosc_compress_many(
    py: Python<'_>,
    srcs: Vec<Bound<'_, PyAny>>,
    cname: &str,
    clevel: u8,
    shuffle: u8,
    typesize: usize,
    blocksize: usize,
    threads: usize,
) -> PyResult<Vec<Py<PyAny>>> {
    crate::errors::guarded(|| {
        let params = crate::blosc::params(cname, clevel, shuffle, typesize, blocksize)?;
        let inputs = srcs.iter().map(Bytes::get).collect::<PyResult<Vec<_>>>()?;
        let slices: Vec<&[u8]> = inputs.iter().map(Bytes::as_slice).collect();
        let frames = py.detach(|| compress_all(&slices, &params, threads.max(1)));
        frames
            .into_iter()
            .enumerate()
            .map(|(i, f)| match f {
                Ok(frame) => Ok(to_array(py, frame)),
                Err(e) => Err(chunk_error(py, i, to_py(py, e))),
            })
            .collect()
    })
}

thread_local! {
    /// A compressing thread's worst-case output, kept from chunk to chunk.
    static FRAME: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A chunk's frame, or why it could not be made.
type Frame = Result<Vec<u8>, vecpress::Error>;

fn compress_all(srcs: &[&[u8]], params: &blosc::Params, threads: usize) -> Vec<Frame> {
    let one = |src: &[u8]| {
        FRAME.with_borrow_mut(|buf| {
            let max = blosc::max_compressed_len(src.len());
            if buf.len() < max {
                buf.resize(max, 0);
            }
            let n = blosc::compress_into(src, params, &mut buf[..max])?;
            let frame = buf[..n].to_vec();
            if buf.capacity() > KEEP {
                *buf = Vec::new();
            }
            Ok(frame)
        })
    };
    each(srcs.to_vec(), threads.min(srcs.len()), one)
}
