//! The kernel benches' synthetic d-gaps: `#[path]`-included.

/// `n` deterministic gaps (xorshift64): mostly below `small`, one in `rare`
/// below `big`.
pub fn gaps(n: usize, small: u32, rare: u32, big: u32) -> Vec<u32> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if ((x >> 40) as u32).is_multiple_of(rare) {
                (x as u32) % big
            } else {
                (x as u32) % small
            }
        })
        .collect()
}
