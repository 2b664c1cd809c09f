//! Blocks worked on by several threads and written in order: the shape of
//! every `--threads` path (compress and decompress, vecpress files and LZ4
//! frames).
//!
//! This thread reads the blocks (the input is one stream), hands each to a
//! pool of workers, and writes the results in the order read as soon as the
//! next one is done. No batch waits for its slowest block, and the reading
//! and writing overlap the work. `-T N` means N threads in all: N - 1
//! workers and this one, which works on a waiting block itself whenever it
//! has nothing to read or write. With a worker per core and this thread on
//! top, the three would share two cores and this one, which every block
//! passes through twice, would wait its turn behind the workers.
//!
//! At most `threads + 1` blocks are in flight (one more than the threads, so
//! that one is read or written while every thread works), their buffers
//! reused: memory grows by a block a thread.
//!
//! Errors come out as one thread would give them: the work's error of block
//! `i` is returned only after the blocks before `i` were written, and an
//! error reading block `k` only after the blocks before `k` were worked on
//! and written (the first failing block by its position wins).
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::time::Duration;

use anyhow::{Result, bail};

/// The thread count `-T N` asks for: `N`, or one per core for 0.
pub fn threads(n: usize) -> usize {
    match n {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Reads jobs with `read` (into a reused job; `false` at the end), works on
/// them with `work` on `threads` threads, this one included (each with its
/// scratch `S`), and gives them to `write` in the order read. `read` and
/// `write` run on this thread and share `ctx`. With one thread, all of it
/// runs here.
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
    // This thread's scratch, for the jobs it takes itself.
    let mut scratch = S::default();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 1..threads {
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
            // A finished job if there is one; else, when no more can be read
            // now, a job no worker has taken yet, worked on here; else wait,
            // looking again for a job to take every millisecond: a worker
            // just woken by the last job sent holds the queue's lock a moment
            // before it takes that job, and the ones sent after it wait.
            let next = match done_rx.try_recv() {
                Ok(d) => Some(d),
                Err(TryRecvError::Disconnected) => bail!("a worker thread stopped"),
                Err(TryRecvError::Empty) if !ended && sent - written < in_flight => None,
                Err(TryRecvError::Empty) => loop {
                    if let Some((i, mut job)) = take_waiting(&job_rx) {
                        let r = work(&mut scratch, &mut job);
                        break Some((i, job, r));
                    }
                    match done_rx.recv_timeout(Duration::from_millis(1)) {
                        Ok(d) => break Some(d),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => bail!("a worker thread stopped"),
                    }
                },
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

/// A job sent to the workers that none has taken yet. A worker holds the
/// lock only while it waits for a job, that is while none is waiting: then
/// this gives up rather than wait for the lock.
fn take_waiting<J>(job_rx: &Mutex<mpsc::Receiver<(u64, J)>>) -> Option<(u64, J)> {
    job_rx.try_lock().ok()?.try_recv().ok()
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

    /// `threads` counts this thread: the first `threads` jobs run all at
    /// once (each waits for the others to start), one of them here, and no
    /// more threads than that ever work.
    #[test]
    fn this_thread_is_one_of_the_threads() {
        use std::collections::HashSet;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::time::{Duration, Instant};

        for threads in [2, 3, 4] {
            let started = AtomicUsize::new(0);
            let all_at_once = AtomicBool::new(true);
            let ids = Mutex::new(HashSet::new());
            let mut next = 0u64;
            let mut written = Vec::new();
            ordered(
                threads,
                &mut (),
                |_, job: &mut u64| {
                    *job = next;
                    next += 1;
                    Ok(next <= 50)
                },
                |_: &mut (), job: &mut u64| {
                    ids.lock().unwrap().insert(std::thread::current().id());
                    if *job < threads as u64 {
                        started.fetch_add(1, Ordering::SeqCst);
                        let deadline = Instant::now() + Duration::from_secs(20);
                        while started.load(Ordering::SeqCst) < threads {
                            if Instant::now() > deadline {
                                all_at_once.store(false, Ordering::SeqCst);
                                break;
                            }
                            std::thread::sleep(Duration::from_millis(1));
                        }
                    }
                    Ok(())
                },
                |_, job: &mut u64| {
                    written.push(*job);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(written, (0..50).collect::<Vec<_>>());
            assert!(all_at_once.load(Ordering::SeqCst), "{threads} threads");
            let ids = ids.into_inner().unwrap();
            assert!(
                ids.contains(&std::thread::current().id()),
                "{threads} threads"
            );
            assert!(
                ids.len() <= threads,
                "{} threads worked for -T {threads}",
                ids.len()
            );
        }
    }
}
