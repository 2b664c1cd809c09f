//! Writing to a pipe from a thread of its own, so that producing the output
//! and the reader draining it run at the same time.
//!
//! A pipe holds 64 KiB. A decoder that writes each block it decodes (2-4
//! MiB) in one call waits inside that call until the reader has taken
//! nearly all of it, and only then decodes the next block: the two take
//! turns. Here each write is copied into chunks that a writer thread sends
//! to the pipe while the caller goes on; a small bounded queue keeps the
//! memory to a few chunks, and the first write error is reported by the
//! next call (or by [`PipeWriter::finish`]).
#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

/// Bytes gathered before a chunk goes to the writer thread.
const CHUNK: usize = 1 << 20;
/// Chunks that may wait for the writer thread: with the one it writes and
/// the one being filled, at most `QUEUE + 2` chunks are held.
const QUEUE: usize = 3;

/// A message to the writer thread.
enum Msg {
    Data(Vec<u8>),
    /// Write out everything before it, flush, and answer.
    Flush(SyncSender<io::Result<()>>),
}

/// A `Write` that hands its bytes to a thread writing them to `W`.
pub struct PipeWriter {
    pending: Vec<u8>,
    to_writer: Option<SyncSender<Msg>>,
    /// Emptied chunks coming back for reuse.
    spare: Receiver<Vec<u8>>,
    thread: Option<JoinHandle<io::Result<()>>>,
}

impl PipeWriter {
    /// Starts the writer thread over `out`.
    pub fn new<W: Write + Send + 'static>(mut out: W) -> PipeWriter {
        let (to_writer, from_caller) = sync_channel::<Msg>(QUEUE);
        let (give_back, spare) = sync_channel::<Vec<u8>>(QUEUE + 2);
        let thread = std::thread::spawn(move || -> io::Result<()> {
            for msg in from_caller {
                match msg {
                    Msg::Data(mut chunk) => {
                        out.write_all(&chunk)?;
                        chunk.clear();
                        let _ = give_back.try_send(chunk);
                    }
                    Msg::Flush(answer) => {
                        let _ = answer.send(out.flush());
                    }
                }
            }
            out.flush()
        });
        PipeWriter {
            pending: Vec::with_capacity(CHUNK),
            to_writer: Some(to_writer),
            spare,
            thread: Some(thread),
        }
    }

    /// Sends the chunk being filled, if it holds anything.
    fn send_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(CHUNK));
        let chunk = std::mem::replace(&mut self.pending, next);
        let sent = match &self.to_writer {
            Some(tx) => tx.send(Msg::Data(chunk)).is_ok(),
            None => false,
        };
        if sent {
            Ok(())
        } else {
            // The writer thread stopped: on an error, which finish() gives.
            Err(self.stop())
        }
    }

    /// Stops the writer thread and returns its error (or a generic one).
    fn stop(&mut self) -> io::Error {
        self.to_writer = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(Err(e))) => e,
            Some(Err(_)) => io::Error::other("the output thread panicked"),
            _ => io::Error::new(io::ErrorKind::BrokenPipe, "the output was closed"),
        }
    }

    /// Writes out everything, flushes, and stops the thread: the first
    /// error of any write.
    pub fn finish(mut self) -> io::Result<()> {
        self.send_pending()?;
        self.to_writer = None;
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(io::Error::other("the output thread panicked")),
            None => Ok(()),
        }
    }
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = CHUNK - self.pending.len();
        let n = buf.len().min(room);
        self.pending.extend_from_slice(&buf[..n]);
        if self.pending.len() >= CHUNK {
            self.send_pending()?;
        }
        Ok(n)
    }

    /// Sends what is gathered and waits until the thread has written and
    /// flushed it.
    fn flush(&mut self) -> io::Result<()> {
        self.send_pending()?;
        let (answer, reply) = sync_channel(1);
        let sent = match &self.to_writer {
            Some(tx) => tx.send(Msg::Flush(answer)).is_ok(),
            None => false,
        };
        match sent.then(|| reply.recv()) {
            Some(Ok(result)) => result,
            _ => Err(self.stop()),
        }
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        // Unfinished (an error elsewhere): stop the thread, dropping what
        // was not written.
        self.to_writer = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A sink that keeps what it is given, in pieces of at most `max`.
    #[derive(Clone)]
    struct Sink {
        got: Arc<Mutex<Vec<u8>>>,
        max: usize,
        fail_after: usize,
    }

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let mut got = self.got.lock().unwrap();
            if got.len() >= self.fail_after {
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"));
            }
            let n = buf.len().min(self.max);
            got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn sink(max: usize, fail_after: usize) -> Sink {
        Sink {
            got: Arc::new(Mutex::new(Vec::new())),
            max,
            fail_after,
        }
    }

    #[test]
    fn bytes_arrive_whole_and_in_order() {
        let data: Vec<u8> = (0..5 * CHUNK + 12345)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        for piece in [1usize, 1000, CHUNK - 1, CHUNK, 3 * CHUNK + 5] {
            let s = sink(70_000, usize::MAX);
            let mut w = PipeWriter::new(s.clone());
            for part in data.chunks(piece) {
                w.write_all(part).unwrap();
            }
            w.flush().unwrap();
            assert_eq!(s.got.lock().unwrap().len(), data.len(), "flush writes all");
            w.write_all(b"tail").unwrap();
            w.finish().unwrap();
            let got = s.got.lock().unwrap();
            assert_eq!(got[..data.len()], data[..], "piece {piece}");
            assert_eq!(&got[data.len()..], b"tail");
        }
    }

    #[test]
    fn a_write_error_is_reported() {
        let s = sink(1 << 16, 3 * CHUNK / 2);
        let mut w = PipeWriter::new(s);
        let data = vec![9u8; 8 * CHUNK];
        let early = w.write_all(&data);
        let late = w.finish();
        assert!(early.is_err() || late.is_err());
        let e = early.err().or(late.err()).unwrap();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe, "{e}");
    }
}
