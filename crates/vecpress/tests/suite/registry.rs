//! The registry: every codec, of either kind, round-trips through the trait
//! with every kernel it lists, and ids and names are unique across kinds.
use std::collections::HashSet;

use crate::common::Rng;
use vecpress::codec::{self, ByteCodec, IntCodec};
use vecpress::{Error, Isa};

#[test]
fn ids_and_names_are_unique_across_kinds() {
    let mut ids = HashSet::new();
    let mut names = HashSet::new();
    let ints = codec::int_codecs().iter().map(|c| (c.id(), c.name()));
    let bytes = codec::byte_codecs().iter().map(|c| (c.id(), c.name()));
    for (id, name) in ints.chain(bytes) {
        assert!(ids.insert(id), "id {id} ({name}) is used twice");
        assert!(names.insert(name), "name {name} is used twice");
        let found_int = codec::find(name).map(|c| c.id());
        let found_bytes = codec::find_bytes(name).map(|c| c.id());
        assert_eq!(found_int.or(found_bytes), Some(id), "{name}");
        assert!(found_int.is_none() || found_bytes.is_none(), "{name}");
    }
}

fn int_round_trip(c: &dyn IntCodec, values: &[u32]) {
    let mut bytes = vec![0u8; c.max_encoded_len(values.len())];
    let len = c.encode(values, &mut bytes);
    assert!(len <= bytes.len(), "{}", c.name());
    for isa in c.kernels() {
        let mut out = vec![0u32; values.len()];
        assert_eq!(
            c.decode(isa, &bytes[..len], &mut out),
            Ok(len),
            "{} {isa} n={}",
            c.name(),
            values.len()
        );
        assert_eq!(out, values, "{} {isa}", c.name());
    }
}

#[test]
fn every_int_codec_round_trips_with_every_kernel() {
    let mut rng = Rng::new(7);
    for c in codec::int_codecs() {
        assert!(c.kernels().contains(&Isa::Scalar), "{}", c.name());
        for n in [0usize, 1, 3, 4, 5, 15, 16, 17, 100, 1000, 5000] {
            let mut values: Vec<u32> = (0..n)
                .map(|_| (rng.next_u64() as u32) >> rng.below(32))
                .collect();
            if c.is_delta() {
                values.sort_unstable();
            }
            int_round_trip(*c, &values);
        }
    }
}

#[test]
fn int_codecs_refuse_unsupported_levels() {
    for c in codec::int_codecs() {
        for isa in [Isa::Scalar, Isa::Sse41, Isa::Avx2, Isa::Avx512, Isa::Neon] {
            let mut out = [0u32; 1];
            let result = c.decode(isa, &[1], &mut out);
            if !isa.is_supported() {
                assert!(
                    matches!(result, Err(Error::Unsupported { .. })),
                    "{} {isa}: {result:?}",
                    c.name()
                );
            }
        }
    }
}

fn byte_round_trip(c: &dyn ByteCodec, input: &[u8], width: usize) {
    let mut bytes = vec![0u8; c.max_encoded_len(input.len())];
    let len = c
        .encode(input, width, &mut bytes)
        .unwrap_or_else(|e| panic!("{} width {width}: {e}", c.name()));
    for isa in c.kernels() {
        // A reused buffer full of stale bytes: each must be overwritten.
        let mut out = vec![0xa5u8; input.len()];
        assert_eq!(
            c.decode(isa, &bytes[..len], width, &mut out),
            Ok(input.len()),
            "{} {isa} width {width} n={}",
            c.name(),
            input.len()
        );
        assert!(out == input, "{} {isa} width {width}", c.name());
    }
}

#[test]
fn every_byte_codec_round_trips_with_every_kernel() {
    let mut rng = Rng::new(11);
    for c in codec::byte_codecs() {
        assert!(c.kernels().contains(&Isa::Scalar), "{}", c.name());
        let widths: &[usize] = if c.needs_width() {
            &[1, 2, 3, 4, 5, 8, 12, 16]
        } else {
            &[1]
        };
        for &width in widths {
            for values in [0usize, 1, 7, 16, 33, 1000, 20_000] {
                let n = values * width;
                // Repetitive at the start, random at the end.
                let input: Vec<u8> = (0..n)
                    .map(|i| {
                        if i < n / 2 {
                            (i % 7) as u8
                        } else {
                            rng.next_u64() as u8
                        }
                    })
                    .collect();
                byte_round_trip(*c, &input, width);
            }
        }
    }
}
