//! The command's allocator: the system's, but on Linux a block of a
//! mebibyte or more (the blocks read, decoded and written) is placed on
//! 2 MiB boundaries, rounded up to whole 2 MiB, and marked for transparent
//! huge pages (`MADV_HUGEPAGE`).
//!
//! The command touches each such buffer for the first time while it works,
//! and a short run touches many: every first touch of a 4 KiB page is a
//! fault that the kernel answers by clearing the page, a few microseconds
//! each, which on a file of some tens of megabytes costs as much as the
//! decoding's hashing. A huge page costs one fault for 512 of them. Where
//! the kernel has no huge page to give, or THP is off, the advice does
//! nothing and the pages are the usual ones.
// Unsafe code is allowed here: a global allocator is unsafe by nature.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

/// The size of a huge page on x86-64 and (with 4 KiB pages) on aarch64.
const HUGE: usize = 2 << 20;
/// Blocks from this size up go on huge pages.
const MIN: usize = 1 << 20;

/// The system allocator, with large blocks on huge pages.
pub struct Allocator;

/// The layout a block of `layout` is allocated with: its own below [`MIN`],
/// else rounded up to whole huge pages and aligned to one. The same layout
/// always gives the same answer, so that `dealloc` and `realloc` free a
/// block with the layout it was allocated with.
fn actual(layout: Layout) -> Layout {
    if layout.size() < MIN {
        return layout;
    }
    layout
        .size()
        .checked_next_multiple_of(HUGE)
        .and_then(|size| Layout::from_size_align(size, HUGE.max(layout.align())).ok())
        .unwrap_or(layout)
}

/// Marks a fresh block for huge pages. The advice changes how pages are
/// backed, not what they hold; a failure (THP not built in) leaves them
/// as they are.
fn advise(p: *mut u8, layout: Layout) {
    if !p.is_null() && layout.size() >= MIN && layout.align() >= HUGE {
        // SAFETY: `p` starts a live allocation of `layout.size()` bytes,
        // aligned to a page (HUGE); MADV_HUGEPAGE neither frees nor
        // changes its contents.
        unsafe {
            libc::madvise(p.cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
    }
}

// SAFETY: every block comes from `System` with the layout `actual` gives,
// which is as large and as aligned as the one asked for, and goes back to
// `System` with that same layout (`actual` is a function of the layout).
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let actual = actual(layout);
        // SAFETY: `actual` has a non-zero size (at least `layout`'s, which
        // the caller guarantees non-zero).
        let p = unsafe { System.alloc(actual) };
        advise(p, actual);
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let actual = actual(layout);
        if actual == layout {
            // SAFETY: as in `alloc`.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // SAFETY: as in `alloc`.
        let p = unsafe { System.alloc(actual) };
        advise(p, actual);
        if !p.is_null() {
            // SAFETY: `p` has `actual.size() >= layout.size()` writable
            // bytes. Only the bytes asked for are cleared: the rest of the
            // rounding is never read, and stays untouched.
            unsafe { p.write_bytes(0, layout.size()) };
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` was allocated by `alloc`/`alloc_zeroed`/`realloc`
        // with `actual(layout)`.
        unsafe { System.dealloc(p, actual(layout)) }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees `new_size`, rounded to `layout`'s
        // alignment, does not overflow.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let (old_actual, new_actual) = (actual(layout), actual(new));
        if old_actual == layout && new_actual == new {
            // SAFETY: both blocks are the system's own: `p` was allocated
            // with `layout`.
            return unsafe { System.realloc(p, layout, new_size) };
        }
        if old_actual == new_actual {
            // The rounding already holds the new size.
            return p;
        }
        // SAFETY: as in `alloc`.
        let q = unsafe { self.alloc(new) };
        if !q.is_null() {
            // SAFETY: both blocks are live, distinct, and hold at least the
            // bytes copied; then `p` is freed with the layout it has.
            unsafe {
                std::ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                self.dealloc(p, layout);
            }
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_blocks_are_rounded_and_aligned_small_ones_are_not() {
        let small = Layout::from_size_align(MIN - 1, 8).unwrap();
        assert_eq!(actual(small), small);
        let big = Layout::from_size_align(MIN, 8).unwrap();
        assert_eq!(actual(big), Layout::from_size_align(HUGE, HUGE).unwrap());
        let odd = Layout::from_size_align(3 * HUGE + 1, 16).unwrap();
        assert_eq!(
            actual(odd),
            Layout::from_size_align(4 * HUGE, HUGE).unwrap()
        );
    }

    #[test]
    fn blocks_keep_their_bytes_through_every_growth_and_shrink() {
        // Sizes across the threshold both ways, within one rounding and across.
        let sizes = [
            100,
            MIN - 1,
            MIN,
            MIN + 5,
            HUGE - 1,
            HUGE + 1,
            3 * HUGE,
            MIN - 7,
            17,
        ];
        let mut v: Vec<u8> = Vec::new();
        for (k, &size) in sizes.iter().enumerate() {
            let kept = v.len().min(size);
            let old: Vec<u8> = v[..kept].to_vec();
            v.resize(size, k as u8);
            v.shrink_to_fit();
            assert_eq!(&v[..kept], &old[..], "size {size}");
            assert!(v[kept..].iter().all(|&b| b == k as u8), "size {size}");
            if size >= MIN {
                assert_eq!(v.as_ptr() as usize % HUGE, 0, "size {size}");
            }
        }
        let zeroed = vec![0u8; 3 * HUGE + 3];
        assert!(zeroed.iter().all(|&b| b == 0));
        assert_eq!(zeroed.as_ptr() as usize % HUGE, 0);
    }
}
