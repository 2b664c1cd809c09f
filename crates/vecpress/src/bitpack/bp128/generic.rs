//! The SIMD-BP128 algorithm, written once over lanes of `[u32; L]` with the
//! width a constant, so that every shift is an immediate and LLVM turns
//! each lane array into one vector register at the level its caller is
//! compiled for (SSE4.1 and Neon: 4 lanes a register; AVX2: 8).
//!
//! ```text
//! vector i (values L i .. L i + L), i in 0..32, goes to bits i W .. i W + W
//! of its lanes: lane j's word k is u32 number L k + j of the block
//!     pack:   word |= v << (i W mod 32); a value that crosses a word's end
//!             leaves its high bits, v >> (32 - i W mod 32), in the next
//!     unpack: v = (word >> (i W mod 32)) | (next word << ...), masked to W bits
//! sorted: v is the gap to the value before it in the block (the first one's
//!     to `initial`); unpacking sums the gaps back, in the registers they
//!     are unpacked in (`unpack_map`, four lanes at x86's SSE4.1 level)
//!     or in a second pass over the block (in L1); four lanes at a
//!     time take one add on the chain from step to step
//! ```
#![forbid(unsafe_code)]

/// Values per lane in a block: every lane holds 32 of them.
pub(super) const PER_LANE: usize = 32;

/// `$body` 32 times, with `$i` a constant 0..32 in each: every shift and
/// word index of a step is then known when it compiles, as in simdcomp's
/// generated code.
macro_rules! unroll32 {
    ($i:ident => $body:block) => {
        unroll32!(@each $i, $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
            16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
    };
    (@each $i:ident, $body:block; $($n:literal)*) => {
        $({
            #[allow(non_upper_case_globals)]
            const $i: usize = $n;
            $body
        })*
    };
}

/// The lane vector of values `L i .. L i + L`, turned into their gaps (the
/// first one's to `*last`) when `SORTED`, and `*last` moved on.
#[inline(always)]
fn gaps<const L: usize, const SORTED: bool>(v: [u32; L], last: &mut u32) -> [u32; L] {
    if !SORTED {
        return v;
    }
    let mut d = [0u32; L];
    let mut prev = *last;
    for j in 0..L {
        d[j] = v[j].wrapping_sub(prev);
        prev = v[j];
    }
    *last = prev;
    d
}

/// Lane vector `word` of a packed block: the `L` little-endian u32 at
/// bytes `4 L word ..`.
#[inline(always)]
fn load<const L: usize>(input: &[u8], word: usize) -> [u32; L] {
    let mut v = [0u32; L];
    for (j, slot) in v.iter_mut().enumerate() {
        let at = 4 * (L * word + j);
        *slot = u32::from_le_bytes(input[at..at + 4].try_into().unwrap());
    }
    v
}

/// Stores `v` as lane vector `word` of a packed block.
#[inline(always)]
fn store<const L: usize>(out: &mut [u8], word: usize, v: [u32; L]) {
    for (j, x) in v.iter().enumerate() {
        let at = 4 * (L * word + j);
        out[at..at + 4].copy_from_slice(&x.to_le_bytes());
    }
}

/// Packs the `32 L` values of `values` in `W` bits each into the first
/// `4 W L` bytes of `out`; with `SORTED`, their gaps from `initial` on.
/// Every value (gap) must fit in `W` bits.
#[inline(always)]
pub(super) fn pack<const L: usize, const W: usize, const SORTED: bool>(
    values: &[u32],
    initial: u32,
    out: &mut [u8],
) {
    let values = &values[..PER_LANE * L];
    let out = &mut out[..4 * W * L];
    if W == 0 {
        return;
    }
    let mut last = initial;
    let mut acc = [0u32; L];
    unroll32!(I => {
        let v: [u32; L] = values[L * I..L * I + L].try_into().unwrap();
        let v = gaps::<L, SORTED>(v, &mut last);
        let (word, cursor) = (I * W / 32, I * W % 32);
        for j in 0..L {
            acc[j] = if cursor == 0 { v[j] } else { acc[j] | v[j] << cursor };
        }
        if cursor + W >= 32 {
            store::<L>(out, word, acc);
            if cursor + W > 32 {
                for j in 0..L {
                    acc[j] = v[j] >> (32 - cursor);
                }
            }
        }
    });
}

/// Unpacks the `32 L` values of `W` bits each from the first `4 W L` bytes
/// of `input` into `out` (a sorted block's gaps are summed after, by
/// [`running_sum`] or a kernel's own). Returns the bytes read.
#[inline(always)]
pub(super) fn unpack<const L: usize, const W: usize>(input: &[u8], out: &mut [u32]) -> usize {
    unpack_map::<L, W>(input, out, |v| v)
}

/// [`unpack`] with `f` applied to each lane vector, in order, before it is
/// stored: the sorted kernels sum the gaps there, in the registers they
/// were unpacked in.
#[inline(always)]
pub(super) fn unpack_map<const L: usize, const W: usize>(
    input: &[u8],
    out: &mut [u32],
    mut f: impl FnMut([u32; L]) -> [u32; L],
) -> usize {
    let len = 4 * W * L;
    let input = &input[..len];
    let out = &mut out[..PER_LANE * L];
    let mask = if W == 32 { u32::MAX } else { (1u32 << W) - 1 };
    unroll32!(I => {
        let (word, cursor) = (I * W / 32, I * W % 32);
        let mut v = [0u32; L];
        if W != 0 {
            let cur = load::<L>(input, word);
            for j in 0..L {
                v[j] = cur[j] >> cursor & mask;
            }
            if cursor + W > 32 {
                let next = load::<L>(input, word + 1);
                for j in 0..L {
                    v[j] |= next[j] << (32 - cursor) & mask;
                }
            }
        }
        out[L * I..L * I + L].copy_from_slice(&f(v));
    });
    len
}

/// `out` replaced by its running sum from `initial`, one value at a time.
#[inline(always)]
pub(super) fn running_sum(out: &mut [u32], initial: u32) {
    let mut acc = initial;
    for x in out.iter_mut() {
        acc = acc.wrapping_add(*x);
        *x = acc;
    }
}

/// The bits the largest of `values` needs (its gaps from `initial` on, when
/// `SORTED`): 0 when all are 0.
#[inline(always)]
pub(super) fn width<const L: usize, const SORTED: bool>(values: &[u32], initial: u32) -> u32 {
    let mut acc = [0u32; L];
    let mut last = initial;
    for chunk in values.chunks_exact(L) {
        let v: [u32; L] = chunk.try_into().unwrap();
        let v = gaps::<L, SORTED>(v, &mut last);
        for j in 0..L {
            acc[j] |= v[j];
        }
    }
    32 - acc.iter().fold(0, |a, &b| a | b).leading_zeros()
}
