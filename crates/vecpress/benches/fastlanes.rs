//! Interleaved timing of FastLanes block packing and unpacking against the
//! `fastlanes` crate, for every type and width: each round runs every
//! contender once on the same block (so that a busy machine slows all of
//! them alike), each contender's best round counts, and the table gives
//! the crate's time over ours (above 1: ours is faster) and our speed in
//! GB/s of unpacked bytes, with its ratio to u32's at the same width.
//!
//! `cargo bench -p vecpress --bench fastlanes -- [ROUNDS]` (default 200);
//! pin it to one core (`taskset -c 0`) on a shared machine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fastlanes::BitPacking;
use vecpress::Isa;
use vecpress::bitpack::fastlanes::{self as fl, Word};

/// Calls per timed sample: about a microsecond or more each.
const CALLS: usize = 64;

fn time(f: &mut dyn FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..CALLS {
        f();
    }
    start.elapsed()
}

/// Best times of pack and unpack, ours and the crate's, at one width.
struct Times {
    ours_pack: Duration,
    theirs_pack: Duration,
    ours_unpack: Duration,
    theirs_unpack: Duration,
}

trait Crate: Word + BitPacking + Copy {
    fn from_u64(v: u64) -> Self;
}
impl Crate for u8 {
    fn from_u64(v: u64) -> Self {
        v as u8
    }
}
impl Crate for u16 {
    fn from_u64(v: u64) -> Self {
        v as u16
    }
}
impl Crate for u32 {
    fn from_u64(v: u64) -> Self {
        v as u32
    }
}
impl Crate for u64 {
    fn from_u64(v: u64) -> Self {
        v
    }
}

fn measure<T: Crate>(width: usize, rounds: usize, seed: &mut u64) -> Times {
    let values: Vec<T> = (0..1024)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            T::from_u64(*seed >> (64 - width))
        })
        .collect();
    let w = width as u8;
    let mut bytes = vec![0u8; fl::packed_len(w)];
    let mut words = vec![T::ZERO; 1024 * width / T::BITS];
    let mut out = vec![T::ZERO; 1024];
    let isa = Isa::best();
    let mut t = Times {
        ours_pack: Duration::MAX,
        theirs_pack: Duration::MAX,
        ours_unpack: Duration::MAX,
        theirs_unpack: Duration::MAX,
    };
    for _ in 0..rounds {
        t.ours_pack = t.ours_pack.min(time(&mut || {
            fl::pack_with(isa, black_box(&values), w, &mut bytes).unwrap();
        }));
        t.theirs_pack = t.theirs_pack.min(time(&mut || {
            // SAFETY: 1024 values in, 1024 W / T words out, W <= T.
            unsafe { T::unchecked_pack(width, black_box(&values), &mut words) };
        }));
        t.ours_unpack = t.ours_unpack.min(time(&mut || {
            fl::unpack_with(isa, black_box(&bytes), w, &mut out).unwrap();
        }));
        t.theirs_unpack = t.theirs_unpack.min(time(&mut || {
            // SAFETY: as above.
            unsafe { T::unchecked_unpack(width, black_box(&words), &mut out) };
        }));
    }
    black_box(&out);
    t
}

fn gbs(bytes: usize, d: Duration) -> f64 {
    (bytes * CALLS) as f64 / d.as_nanos() as f64
}

fn table<T: Crate>(name: &str, rounds: usize, u32_speeds: &mut Vec<(f64, f64)>) {
    println!(
        "\n{name}: width, unpack theirs/ours, pack theirs/ours, ours GB/s unpack, pack (of unpacked bytes), vs u32 at this width"
    );
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut worst_unpack, mut worst_pack) = (f64::MAX, f64::MAX);
    for width in 1..=T::BITS {
        let t = measure::<T>(width, rounds, &mut seed);
        let unpack = t.theirs_unpack.as_secs_f64() / t.ours_unpack.as_secs_f64();
        let pack = t.theirs_pack.as_secs_f64() / t.ours_pack.as_secs_f64();
        worst_unpack = worst_unpack.min(unpack);
        worst_pack = worst_pack.min(pack);
        let (su, sp) = (
            gbs(1024 * T::SIZE, t.ours_unpack),
            gbs(1024 * T::SIZE, t.ours_pack),
        );
        let vs = if T::BITS == 32 {
            u32_speeds.push((su, sp));
            String::new()
        } else if let Some(&(u, p)) = u32_speeds.get(width - 1) {
            format!("  unpack {:.2}x  pack {:.2}x", su / u, sp / p)
        } else {
            String::new()
        };
        println!("{width:>3}  {unpack:>5.2}x  {pack:>5.2}x  {su:>6.1}  {sp:>6.1}{vs}");
    }
    println!("{name}: lowest unpack ratio {worst_unpack:.2}x, lowest pack ratio {worst_pack:.2}x");
}

fn main() {
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    println!("kernel level {:?}, {rounds} rounds", Isa::best());
    let mut u32_speeds = Vec::new();
    table::<u32>("u32", rounds, &mut u32_speeds);
    table::<u16>("u16", rounds, &mut u32_speeds);
    table::<u64>("u64", rounds, &mut u32_speeds);
    table::<u8>("u8", rounds, &mut u32_speeds);
}
