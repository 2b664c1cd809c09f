//! Each thread's scratch buffer, kept from one call to the next. Codecs
//! that need a block-sized buffer of their own (Blosc's split blocks, the
//! middle passes of bit split) would otherwise allocate and zero one per
//! call: as much work as a pass over the data, which small inputs feel.
#![forbid(unsafe_code)]

use std::cell::Cell;

thread_local! {
    static BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Buffers larger than this are freed after their call rather than kept.
const KEEP: usize = 8 << 20;

/// Runs `f` on a buffer of `len` bytes whose contents are unspecified
/// (what an earlier call on this thread left there): `f` writes every byte
/// before it reads it. A call from inside `f` gets a buffer of its own.
pub(crate) fn with<R>(len: usize, f: impl FnOnce(&mut [u8]) -> R) -> R {
    let mut buf = BUFFER.take();
    if buf.len() < len {
        buf.resize(len, 0);
    }
    let r = f(&mut buf[..len]);
    if buf.capacity() <= KEEP {
        BUFFER.set(buf);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_have_the_length_asked_and_are_kept_between_calls() {
        let first = with(1000, |b| {
            assert_eq!(b.len(), 1000);
            b.fill(7);
            b.as_ptr() as usize
        });
        // The same allocation again, as the last call left it.
        let again = with(10, |b| {
            assert_eq!(b, &[7u8; 10][..]);
            b.as_ptr() as usize
        });
        assert_eq!(first, again);
        // A nested call gets a buffer of its own.
        with(16, |outer| {
            with(16, |inner| assert_ne!(outer.as_ptr(), inner.as_ptr()));
        });
        // One too large to keep is freed.
        with(KEEP + 1, |b| assert_eq!(b.len(), KEEP + 1));
        with(1, |b| assert_eq!(b.len(), 1));
    }
}
