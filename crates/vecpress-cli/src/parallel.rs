//! Blocks worked on by several threads and written in order: the shape of
//! every `--threads` path (compress and decompress, vecpress files and LZ4
//! frames).
//!
//! This thread reads the blocks (the input is one stream), hands each to a
//! pool of workers, and writes the results in the order read as soon as the
//! next one is done. No batch waits for its slowest block, and the reading
//! and writing overlap the work. At most `threads + 1` blocks are in flight
//! (one more than the workers, so that one is read or written while every
//! worker works), their buffers reused: memory grows by a block a thread.
//!
//! Errors come out as one thread would give them: the work's error of block
//! `i` is returned only after the blocks before `i` were written, and an
//! error reading block `k` only after the blocks before `k` were worked on
//! and written (the first failing block by its position wins).
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::mpsc::{self, TryRecvError};

use anyhow::{Result, bail};

/// The thread count `-T N` asks for: `N`, or one per core for 0.
pub fn threads(n: usize) -> usize {
    match n {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Reads jobs with `read` (into a reused job; `false` at the end), works on
/// them with `work` on `threads` threads (each with its scratch `S`), and
/// gives them to `write` in the order read. `read` and `write` run on this
/// thread and share `ctx`. With one thread, all of it runs here.
pub fn ordered<C, J, S, R, F, W>(
    threads: usize,
    ctx: &mut C,
    mut read: R,
    work: F,
    mut write: W,
) -> Result<()>
where
    J: Default + Send,
    S: Default,
    R: FnMut(&mut C, &mut J) -> Result<bool>,
    F: Fn(&mut S, &mut J) -> Result<()> + Sync,
    W: FnMut(&mut C, &mut J) -> Result<()>,
{
    if threads <= 1 {
        let (mut job, mut scratch) = (J::default(), S::default());
        while read(ctx, &mut job)? {
            work(&mut scratch, &mut job)?;
            write(ctx, &mut job)?;
        }
        return Ok(());
    }
    let in_flight = threads as u64 + 1;
    let (job_tx, job_rx) = mpsc::sync_channel::<(u64, J)>(threads + 1);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = mpsc::channel::<(u64, J, Result<()>)>();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..threads {
            let (job_rx, done_tx, work) = (&job_rx, done_tx.clone(), &work);
            scope.spawn(move || {
                let mut scratch = S::default();
                loop {
                    // A poisoned lock means another worker panicked: stop.
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((i, mut job)) = job else { return };
                    let r = work(&mut scratch, &mut job);
                    if done_tx.send((i, job, r)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);
        // Dropping `job_tx` on any return ends the workers.
        let job_tx = job_tx;
        let (mut sent, mut written) = (0u64, 0u64);
        let mut read_error = None;
        let mut ended = false;
        let mut done: BTreeMap<u64, (J, Result<()>)> = BTreeMap::new();
        let mut free: Vec<J> = Vec::new();
        loop {
            if !ended && sent - written < in_flight {
                let mut job = free.pop().unwrap_or_default();
                match read(ctx, &mut job) {
                    Ok(true) => {
                        if job_tx.send((sent, job)).is_err() {
                            bail!("a worker thread stopped");
                        }
                        sent += 1;
                    }
                    Ok(false) => ended = true,
                    Err(e) => {
                        ended = true;
                        read_error = Some(e);
                    }
                }
            }
            if ended && written == sent {
                return read_error.map_or(Ok(()), Err);
            }
            // Wait for a result only when no more can be read now.
            let next = if !ended && sent - written < in_flight {
                match done_rx.try_recv() {
                    Ok(d) => Some(d),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => bail!("a worker thread stopped"),
                }
            } else {
                match done_rx.recv() {
                    Ok(d) => Some(d),
                    Err(_) => bail!("a worker thread stopped"),
                }
            };
            if let Some((i, job, r)) = next {
                done.insert(i, (job, r));
            }
            while let Some((mut job, r)) = done.remove(&written) {
                r?;
                write(ctx, &mut job)?;
                free.push(job);
                written += 1;
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares 0..n on `threads` threads, block `fail` failing in the work
    /// and block `bad_read` failing to read; returns what was written and
    /// the error.
    fn run(threads: usize, n: u64, fail: u64, bad_read: u64) -> (Vec<u64>, Option<String>) {
        let mut ctx = (0u64, Vec::new());
        let r = ordered(
            threads,
            &mut ctx,
            |c: &mut (u64, Vec<u64>), job: &mut u64| {
                if c.0 == bad_read {
                    bail!("read {}", c.0);
                }
                *job = c.0;
                c.0 += 1;
                Ok(c.0 <= n)
            },
            |_: &mut (), job: &mut u64| {
                // Later blocks finish first.
                std::thread::sleep(std::time::Duration::from_micros(200 * (*job % 3)));
                if *job == fail {
                    bail!("work {job}");
                }
                *job *= *job;
                Ok(())
            },
            |c, job| {
                c.1.push(*job);
                Ok(())
            },
        );
        (ctx.1, r.err().map(|e| e.to_string()))
    }

    #[test]
    fn results_in_order_and_errors_as_one_thread_gives_them() {
        for threads in [1, 2, 3, 8] {
            let (out, err) = run(threads, 100, u64::MAX, u64::MAX);
            assert_eq!(out, (0..100).map(|i| i * i).collect::<Vec<_>>());
            assert_eq!(err, None);
            for (fail, bad_read, want) in [
                (40, u64::MAX, "work 40"),
                (40, 43, "work 40"),
                (45, 43, "read 43"),
                (u64::MAX, 0, "read 0"),
            ] {
                let (out, err) = run(threads, 100, fail, bad_read);
                assert_eq!(err.as_deref(), Some(want), "{threads} threads");
                let upto = fail.min(bad_read);
                assert_eq!(out, (0..upto).map(|i| i * i).collect::<Vec<_>>());
            }
        }
    }
}
