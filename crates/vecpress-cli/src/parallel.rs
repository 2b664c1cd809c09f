//! Blocks worked on by several threads and written in order: the shape of
//! every `--threads` path (compress and decompress, vecpress files and LZ4
//! frames).
//!
//! The input is one stream and the output another: blocks are read one at a
//! time, and written one at a time in order (with what goes with the output
//! in order, such as its checksum); the rest runs in parallel, and so do
//! the reading of one block and the writing of another. `-T N` means N
//! threads in all, this one and N - 1 more, all alike: each writes the
//! block next in order once it is done, whoever worked on it, else reads a
//! block and works on it. So no thread waits on a reading thread for its
//! next block, no batch waits for its slowest block, and the block just
//! worked on is most often written by the thread that has it in its cache.
//!
//! At most `threads + 1` blocks are in flight (read and not yet written),
//! their buffers reused: memory grows by a block a thread.
//!
//! Errors come out as one thread would give them: the work's error of block
//! `i` is returned only after the blocks before `i` were written, and an
//! error reading block `k` only after the blocks before `k` were worked on
//! and written (the first failing block by its position wins).
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};

use anyhow::{Result, anyhow};

/// The thread count `-T N` asks for: `N`, or one per core for 0.
pub fn threads(n: usize) -> usize {
    match n {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// One end of the stream and what works it, held by the one thread using
/// it at the time.
struct End<'a, C, F> {
    ctx: &'a mut C,
    f: F,
}

/// What the threads share, under one lock.
struct State<'a, RC, WC, J, R, W> {
    /// `None` while a thread reads, or writes.
    input: Option<End<'a, RC, R>>,
    output: Option<End<'a, WC, W>>,
    /// Jobs read, and written.
    sent: u64,
    written: u64,
    /// No more jobs: the input ended, or reading failed (`read_error`).
    ended: bool,
    read_error: Option<anyhow::Error>,
    /// Jobs worked on, waiting for their turn to be written.
    done: BTreeMap<u64, (J, Result<()>)>,
    /// Buffers of jobs written, for the next ones read.
    free: Vec<J>,
    /// The outcome, once there is one: every thread then stops.
    outcome: Option<Result<()>>,
}

/// Reads jobs with `read` (into a reused job; `false` at the end), works on
/// them with `work` on `threads` threads, this one included (each with its
/// scratch `S`), and gives them to `write` in the order read. `read` runs
/// on one thread at a time with `input`, `write` likewise with `output`,
/// each beside the other. With one thread, all of it runs here.
pub fn ordered<RC, WC, J, S, R, F, W>(
    threads: usize,
    input: &mut RC,
    mut read: R,
    work: F,
    output: &mut WC,
    mut write: W,
) -> Result<()>
where
    RC: Send,
    WC: Send,
    J: Default + Send,
    S: Default,
    R: FnMut(&mut RC, &mut J) -> Result<bool> + Send,
    F: Fn(&mut S, &mut J) -> Result<()> + Sync,
    W: FnMut(&mut WC, &mut J) -> Result<()> + Send,
{
    if threads <= 1 {
        let (mut job, mut scratch) = (J::default(), S::default());
        while read(input, &mut job)? {
            work(&mut scratch, &mut job)?;
            write(output, &mut job)?;
        }
        return Ok(());
    }
    let shared = Mutex::new(State {
        input: Some(End {
            ctx: input,
            f: read,
        }),
        output: Some(End {
            ctx: output,
            f: write,
        }),
        sent: 0,
        written: 0,
        ended: false,
        read_error: None,
        done: BTreeMap::new(),
        free: Vec::new(),
        outcome: None,
    });
    let changed = Condvar::new();
    let in_flight = threads as u64 + 1;
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let (shared, changed, work) = (&shared, &changed, &work);
            scope.spawn(move || run(shared, changed, in_flight, work));
        }
        run(&shared, &changed, in_flight, &work);
    });
    let state = shared
        .into_inner()
        .map_err(|_| anyhow!("a worker thread panicked"))?;
    state
        .outcome
        .unwrap_or_else(|| Err(anyhow!("a worker thread stopped")))
}

/// [`ordered`] for reading and writing that share one context (which then
/// take turns).
pub fn ordered_shared<C, J, S, R, F, W>(
    threads: usize,
    ctx: &mut C,
    mut read: R,
    work: F,
    mut write: W,
) -> Result<()>
where
    C: Send,
    J: Default + Send,
    S: Default,
    R: FnMut(&mut C, &mut J) -> Result<bool> + Send,
    F: Fn(&mut S, &mut J) -> Result<()> + Sync,
    W: FnMut(&mut C, &mut J) -> Result<()> + Send,
{
    let shared = Mutex::new(ctx);
    let poisoned = || anyhow!("a thread panicked");
    let (mut input, mut output) = (&shared, &shared);
    ordered(
        threads,
        &mut input,
        |c: &mut &Mutex<&mut C>, job: &mut J| read(*c.lock().map_err(|_| poisoned())?, job),
        work,
        &mut output,
        |c: &mut &Mutex<&mut C>, job: &mut J| write(*c.lock().map_err(|_| poisoned())?, job),
    )
}

/// One thread's loop: write the next job if it is done, else read a job and
/// work on it, else wait for one of those to become possible.
fn run<RC, WC, J, S, R, F, W>(
    shared: &Mutex<State<'_, RC, WC, J, R, W>>,
    changed: &Condvar,
    in_flight: u64,
    work: &F,
) where
    J: Default,
    S: Default,
    R: FnMut(&mut RC, &mut J) -> Result<bool>,
    F: Fn(&mut S, &mut J) -> Result<()>,
    W: FnMut(&mut WC, &mut J) -> Result<()>,
{
    let mut scratch = S::default();
    // The lock is held only to look and to count, never while reading,
    // working or writing: nothing under it panics, so it is never poisoned
    // but by a bug, and then the thread stops.
    let Ok(mut state) = shared.lock() else { return };
    while state.outcome.is_none() {
        if state.output.is_some() && state.done.contains_key(&state.written) {
            let written = state.written;
            let (Some((mut job, r)), Some(mut out)) =
                (state.done.remove(&written), state.output.take())
            else {
                return;
            };
            drop(state);
            let r = guarded(shared, changed, || {
                r.and_then(|()| (out.f)(out.ctx, &mut job))
            });
            let Ok(s) = shared.lock() else { return };
            state = s;
            state.output = Some(out);
            match r {
                Ok(()) => {
                    state.written += 1;
                    state.free.push(job);
                    finish_if_all_written(&mut state);
                }
                Err(e) => state.outcome = Some(Err(e)),
            }
        } else if state.input.is_some() && !state.ended && state.sent - state.written < in_flight {
            let Some(mut inp) = state.input.take() else {
                return;
            };
            let mut job = state.free.pop().unwrap_or_default();
            let i = state.sent;
            drop(state);
            let r = guarded(shared, changed, || (inp.f)(inp.ctx, &mut job));
            let Ok(s) = shared.lock() else { return };
            state = s;
            state.input = Some(inp);
            match r {
                Ok(true) => {
                    state.sent += 1;
                    // The input is free again for the others.
                    changed.notify_all();
                    drop(state);
                    let r = guarded(shared, changed, || work(&mut scratch, &mut job));
                    let Ok(s) = shared.lock() else { return };
                    state = s;
                    state.done.insert(i, (job, r));
                }
                Ok(false) => {
                    state.ended = true;
                    state.free.push(job);
                    finish_if_all_written(&mut state);
                }
                Err(e) => {
                    state.ended = true;
                    state.read_error = Some(e);
                    finish_if_all_written(&mut state);
                }
            }
        } else {
            let Ok(s) = changed.wait(state) else { return };
            state = s;
            continue;
        }
        changed.notify_all();
    }
    drop(state);
    changed.notify_all();
}

/// Once the input has ended and every job read was written: the outcome,
/// the read error if reading failed.
fn finish_if_all_written<RC, WC, J, R, W>(state: &mut State<'_, RC, WC, J, R, W>) {
    if state.ended && state.written == state.sent && state.outcome.is_none() {
        state.outcome = Some(state.read_error.take().map_or(Ok(()), Err));
    }
}

/// Runs `f`; if it panics, tells the other threads to stop (they would
/// wait forever for its job) before the panic goes on.
fn guarded<RC, WC, J, R, W, T>(
    shared: &Mutex<State<'_, RC, WC, J, R, W>>,
    changed: &Condvar,
    f: impl FnOnce() -> T,
) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(t) => t,
        Err(panic) => {
            if let Ok(mut state) = shared.lock() {
                state.outcome = Some(Err(anyhow!("a thread panicked")));
            }
            changed.notify_all();
            std::panic::resume_unwind(panic)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::bail;

    /// Squares 0..n on `threads` threads, block `fail` failing in the work
    /// and block `bad_read` failing to read; returns what was written and
    /// the error.
    fn run(threads: usize, n: u64, fail: u64, bad_read: u64) -> (Vec<u64>, Option<String>) {
        let mut ctx = (0u64, Vec::new());
        let r = ordered_shared(
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

    /// A panic in the work, the reading or the writing goes on out of
    /// `ordered` on every thread count: the threads waiting for the failed
    /// job stop instead of waiting forever.
    #[test]
    fn a_panic_stops_every_thread() {
        for threads in [2, 3] {
            for stage in 0..3 {
                let r = std::panic::catch_unwind(|| {
                    let mut next = 0u64;
                    ordered_shared(
                        threads,
                        &mut (),
                        |_, job: &mut u64| {
                            assert!(!(stage == 0 && next == 7), "read panics");
                            *job = next;
                            next += 1;
                            Ok(next <= 50)
                        },
                        |_: &mut (), job: &mut u64| {
                            assert!(!(stage == 1 && *job == 7), "work panics");
                            Ok(())
                        },
                        |_, job: &mut u64| {
                            assert!(!(stage == 2 && *job == 7), "write panics");
                            Ok(())
                        },
                    )
                });
                assert!(r.is_err(), "{threads} threads, stage {stage}");
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
            ordered_shared(
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
