//! Interleaved timing of SIMD-BP128 block unpacking against the `bitpacking`
//! crate, for every width 1 to 32, plain and sorted, at every kernel level this CPU
//! has: each round runs every contender once over the same 4096 values
//! (32 4-lane or 16 8-lane blocks, 16 KiB unpacked, which stay in L1: the
//! 4096 values `vecpress bench` decodes at a time), so that a busy machine
//! slows all of them alike; each contender's best round counts.
//! The table gives the crate's time over each level's (above 1: ours is
//! faster), 4-lane blocks against `BitPacker4x` and 8-lane ones against
//! `BitPacker8x` (plain only: its sorted decoder is not a fair peer, see
//! `vecpress bench`'s note).
//!
//! `cargo bench -p vecpress --bench bp128 -- [ROUNDS]` (default 100);
//! pin it to one core (`taskset -c 0`) on a shared machine.

use std::hint::black_box;
use std::time::{Duration, Instant};

use bitpacking::{BitPacker, BitPacker4x, BitPacker8x};
use vecpress::Isa;
use vecpress::bitpack::bp128::{self, Lanes};

/// Values per timed sample.
const VALUES: usize = 4096;

fn time(f: &mut dyn FnMut()) -> Duration {
    let start = Instant::now();
    f();
    start.elapsed()
}

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// What is timed: the default dispatch (`None`, `bp128::unpack`: the level
/// this CPU's profile chooses), then every level above scalar this CPU has.
fn levels() -> Vec<Option<Isa>> {
    std::iter::once(None)
        .chain(
            Isa::available()
                .iter()
                .filter(|&&i| i != Isa::Scalar)
                .map(|&i| Some(i)),
        )
        .collect()
}

fn head(level: Option<Isa>) -> String {
    level.map_or("auto".to_string(), |i| i.name().to_string())
}

/// One width's best times: each level's, then the crate's.
struct Row {
    ours: Vec<Duration>,
    theirs: Duration,
}

fn measure<B: BitPacker>(
    packer: B,
    lanes: Lanes,
    sorted: bool,
    width: u8,
    rounds: usize,
    seed: &mut u64,
) -> Row {
    let n = B::BLOCK_LEN;
    let blocks = VALUES / n;
    let mut values = vec![0u32; VALUES];
    for block in values.chunks_exact_mut(n) {
        let mut acc = 0u32;
        for v in block.iter_mut() {
            let x = if width == 0 {
                0
            } else {
                (xorshift(seed) >> (64 - u32::from(width))) as u32
            };
            if sorted {
                acc = acc.wrapping_add(x);
                *v = acc;
            } else {
                *v = x;
            }
        }
    }
    let len = lanes.packed_len(width);
    let mut packed = vec![0u8; len * blocks];
    for (block, out) in values.chunks_exact(n).zip(packed.chunks_exact_mut(len)) {
        if sorted {
            packer.compress_sorted(0, block, out, width);
        } else {
            packer.compress(block, out, width);
        }
    }
    let mut out = vec![0u32; VALUES];
    let levels = levels();
    let mut row = Row {
        ours: vec![Duration::MAX; levels.len()],
        theirs: Duration::MAX,
    };
    for _ in 0..rounds {
        for (best, &level) in row.ours.iter_mut().zip(&levels) {
            *best = (*best).min(time(&mut || {
                for (p, o) in packed.chunks_exact(len).zip(out.chunks_exact_mut(n)) {
                    let p = black_box(p);
                    match (level, sorted) {
                        (None, false) => bp128::unpack(lanes, p, width, o),
                        (None, true) => bp128::unpack_sorted(lanes, 0, p, width, o),
                        (Some(isa), false) => bp128::unpack_with(isa, lanes, p, width, o),
                        (Some(isa), true) => bp128::unpack_sorted_with(isa, lanes, 0, p, width, o),
                    }
                    .unwrap();
                }
            }));
        }
        row.theirs = row.theirs.min(time(&mut || {
            for (p, o) in packed.chunks_exact(len).zip(out.chunks_exact_mut(n)) {
                if sorted {
                    packer.decompress_sorted(0, black_box(p), o, width);
                } else {
                    packer.decompress(black_box(p), o, width);
                }
            }
        }));
    }
    assert_eq!(out, values, "width {width}: the last decoder's output");
    row
}

fn table<B: BitPacker>(name: &str, packer: B, lanes: Lanes, sorted: bool, rounds: usize) {
    let levels = levels();
    let heads: Vec<String> = levels.iter().map(|&l| format!("{:>7}", head(l))).collect();
    println!(
        "\n{name}: width, crate's time ÷ ours per level, ours in G values/s at the last level"
    );
    println!("  w  {}", heads.join(" "));
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut worst = vec![f64::MAX; levels.len()];
    let mut logs = vec![0f64; levels.len()];
    for width in 1..=32u8 {
        let row = measure(packer, lanes, sorted, width, rounds, &mut seed);
        let ratios: Vec<f64> = row
            .ours
            .iter()
            .map(|d| row.theirs.as_secs_f64() / d.as_secs_f64())
            .collect();
        for (j, &r) in ratios.iter().enumerate() {
            worst[j] = worst[j].min(r);
            logs[j] += r.ln();
        }
        let last = row.ours.last().expect("a level");
        let speed = VALUES as f64 / last.as_nanos() as f64;
        let cells: Vec<String> = ratios.iter().map(|r| format!("{r:>6.2}x")).collect();
        println!("{width:>3}  {}  {speed:>5.2}", cells.join(" "));
    }
    let geo: Vec<String> = logs
        .iter()
        .map(|l| format!("{:>6.2}x", (l / 32.0).exp()))
        .collect();
    let low: Vec<String> = worst.iter().map(|r| format!("{r:>6.2}x")).collect();
    println!("geo  {}", geo.join(" "));
    println!("low  {}", low.join(" "));
}

fn main() {
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(100);
    let heads: Vec<String> = levels().into_iter().map(head).collect();
    println!("{}, {rounds} rounds", heads.join(", "));
    table(
        "4 lanes ÷ BitPacker4x",
        BitPacker4x::new(),
        Lanes::X4,
        false,
        rounds,
    );
    table(
        "4 lanes sorted ÷ BitPacker4x sorted",
        BitPacker4x::new(),
        Lanes::X4,
        true,
        rounds,
    );
    table(
        "8 lanes ÷ BitPacker8x",
        BitPacker8x::new(),
        Lanes::X8,
        false,
        rounds,
    );
}
