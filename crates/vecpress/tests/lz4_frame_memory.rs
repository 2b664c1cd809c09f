//! The LZ4 frame decoder's memory stays bounded by the block size, whatever
//! the input declares: measured with a counting allocator. One test in its own
//! binary, so that nothing else allocates meanwhile.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Read};
use std::sync::atomic::{AtomicUsize, Ordering};

use vecpress::Error;
use vecpress::lz4::frame::{self, BlockSize, FrameDecoder, FrameInfo};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to the system allocator with the same
// arguments; the counters only observe sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Bytes allocated at the peak of `f`, above what was live before it.
fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed) - before)
}

/// Decodes through `FrameDecoder` into a sink.
fn drain(bytes: &[u8], limit: u64) -> Result<u64, Error> {
    let mut dec = FrameDecoder::with_limit(bytes, limit);
    Ok(io::copy(&mut dec, &mut io::sink())?)
}

/// An LZ4 block that decodes to `n` (>= 10) zero bytes: one literal, one long
/// match at offset 1, five literals.
fn zeros_block(n: usize) -> Vec<u8> {
    let mut block = vec![0x1F, 0, 1, 0];
    let mut rest = n - 1 - 5 - 4 - 15;
    while rest >= 255 {
        block.push(255);
        rest -= 255;
    }
    block.push(rest as u8);
    block.extend([0x50, 0, 0, 0, 0, 0]);
    block
}

#[test]
fn memory_is_bounded_by_the_block_size() {
    const MIB: usize = 1 << 20;

    // A frame declaring 2^60 bytes: refused before any buffer is made.
    let mut huge = vec![0x04, 0x22, 0x4D, 0x18, 0x6C, 0x40];
    huge.extend((1u64 << 60).to_le_bytes());
    huge.push((xxhash_of(&huge[4..14]) >> 8) as u8);
    huge.extend(&frame::compress(b"")[15..]);
    let (res, peak) = peak_of(|| frame::decompress_with_limit(&huge, 1 << 30));
    assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    assert!(peak < 64 << 10, "peak {peak}");
    let (res, peak) = peak_of(|| drain(&huge, u64::MAX));
    assert!(res.is_err());
    assert!(peak < 64 << 10, "peak {peak}");
    // The same through `decompress`, which holds to its default limit.
    let (res, peak) = peak_of(|| frame::decompress(&huge));
    assert_eq!(
        res,
        Err(Error::LimitExceeded {
            what: "decompressed size",
            requested: 1 << 60,
            limit: vecpress::lz4::DEFAULT_MAX_OUTPUT,
        })
    );
    assert!(peak < 64 << 10, "peak {peak}");
    // A size-prepended block declaring 4 GiB - 1 from 5 bytes.
    let mut prepended = u32::MAX.to_le_bytes().to_vec();
    prepended.push(0);
    let (res, peak) = peak_of(|| vecpress::lz4::block::decompress_size_prepended(&prepended));
    assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    assert!(peak < 4 << 10, "peak {peak}");

    // A legacy frame of 100 blocks of 8 MiB of zeros (800 MiB): one block's
    // buffer at a time, and the limit stops it.
    let mut legacy = 0x184C_2102u32.to_le_bytes().to_vec();
    let block = zeros_block(8 * MIB);
    for _ in 0..100 {
        legacy.extend((block.len() as u32).to_le_bytes());
        legacy.extend(&block);
    }
    assert!(legacy.len() < 4 * MIB);
    let (res, peak) = peak_of(|| drain(&legacy, 20 * MIB as u64));
    assert!(matches!(res, Err(Error::LimitExceeded { .. })), "{res:?}");
    assert!(peak < 8 * MIB + (256 << 10), "peak {peak}");

    // Frames of each block size, linked, with no declared size: a block and a
    // window at most.
    let data = common::repetitive(9 * MIB, 1);
    for size in BlockSize::ALL {
        let info = FrameInfo::new().block_size(size).independent_blocks(false);
        let bytes = frame::compress_with(&data, info);
        let (res, peak) = peak_of(|| drain(&bytes, u64::MAX));
        assert_eq!(res, Ok(data.len() as u64));
        let bound = 2 * size.bytes() + (64 << 10) + (64 << 10);
        assert!(peak <= bound, "{size:?}: peak {peak}, bound {bound}");
    }

    // Independent blocks read ahead, two at a time: two blocks and their
    // compressed forms (one decoded block of 4 MiB, which is not paired).
    for size in BlockSize::ALL {
        let info = FrameInfo::new().block_size(size);
        let bytes = frame::compress_with(&data, info);
        let (res, peak) = peak_of(|| {
            let mut dec = FrameDecoder::new(&bytes[..]).read_ahead(true);
            io::copy(&mut dec, &mut io::sink())
        });
        assert_eq!(res.ok(), Some(data.len() as u64));
        let decoded = if size.bytes() > MIB { 1 } else { 2 };
        let bound = (decoded + 2) * size.bytes() + (64 << 10);
        assert!(
            peak <= bound,
            "{size:?} read ahead: peak {peak}, bound {bound}"
        );
    }

    // Reading 1 MiB of a 9 MiB frame under a limit of 1 MiB fails.
    let bytes = frame::compress_with(&data, FrameInfo::new());
    let mut dec = FrameDecoder::with_limit(&bytes[..], MIB as u64);
    let mut out = Vec::new();
    let err = dec.read_to_end(&mut out).unwrap_err();
    assert!(matches!(Error::from(err), Error::LimitExceeded { .. }));
    assert!(out.len() <= MIB);
}

fn xxhash_of(bytes: &[u8]) -> u32 {
    xxhash_rust::xxh32::xxh32(bytes, 0)
}
