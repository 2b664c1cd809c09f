use super::*;

fn cpu(vendor: &str, family: u32, model: u32) -> Cpu {
    Cpu {
        vendor: vendor.into(),
        family,
        model,
        name: String::new(),
        traits: Traits::default(),
    }
}

/// A model no profile lists, or one that names another generation than
/// the core's, is told by its features; without them, the safe choices.
#[test]
fn unlisted_models_are_told_by_their_features() {
    let amx = Traits {
        avx512: true,
        avx512_fp16: true,
        amx: true,
    };
    let avx512 = Traits {
        avx512: true,
        ..Traits::default()
    };
    let with = |mut c: Cpu, traits| {
        c.traits = traits;
        c
    };
    // A VM reporting Rocket Lake's model on a Sapphire Rapids core.
    let vm = with(cpu("intel", 6, 167), amx);
    assert_eq!(vm.profile().uarch, "golden-cove");
    assert!(
        vm.identify().why.contains("model 167"),
        "{:?}",
        vm.identify()
    );
    // Granite Rapids (model 173), not listed: AMX tells.
    assert_eq!(with(cpu("intel", 6, 173), amx).uarch(), "golden-cove");
    // Rocket Lake itself: AVX-512 without FP16 or AMX is no Golden Cove.
    assert_eq!(with(cpu("intel", 6, 167), avx512).profile(), &SAFE);
    // AMD family 25, an unlisted model: AVX-512 means Zen 4, none Zen 3.
    assert_eq!(with(cpu("amd", 25, 0x90), avx512).uarch(), "zen4");
    assert_eq!(cpu("amd", 25, 0x90).uarch(), "zen3");
    // A listed model is its profile whatever the features say.
    assert_eq!(with(cpu("amd", 25, 1), avx512).uarch(), "zen3");
    let safe = cpu("amd", 23, 49).identify();
    assert_eq!(safe.uarch, SAFE.uarch);
    assert!(safe.why.contains("family 23"), "{safe:?}");
}

/// `vecpress inspect --cpu` lists operations by name: none shares one.
#[test]
fn every_operation_has_a_name_of_its_own() {
    let mut names: Vec<&str> = Op::ALL.iter().map(|op| op.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), Op::ALL.len());
}

/// A profile is read from a record: every one names a record that
/// `perf/` holds.
#[test]
fn every_profile_cites_a_record_in_perf() {
    let perf = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../perf");
    for p in PROFILES {
        let record = perf.join(format!("{}.jsonl", p.record));
        assert!(record.is_file(), "{}: no {}", p.uarch, record.display());
    }
}

#[test]
fn recorded_cpus_find_their_profile() {
    assert_eq!(cpu("amd", 25, 17).profile().record, "amd-25-17");
    assert_eq!(cpu("amd", 25, 0x61).profile().uarch, "zen4");
    // Identified, but with no record in perf/: the safe choices.
    assert_eq!(cpu("amd", 26, 2).uarch(), "zen5");
    assert_eq!(cpu("amd", 26, 2).profile(), &SAFE);
    assert_eq!(cpu("intel", 6, 207).profile().record, "intel-6-207");
    assert_eq!(cpu("intel", 6, 143).profile().uarch, "golden-cove");
    assert_eq!(cpu("amd", 25, 1).profile().record, "amd-25-1");
    assert_eq!(cpu("amd", 25, 0x21).profile().uarch, "zen3");
    // Zen 2, an older Intel core, another vendor: the safe choices.
    for other in [
        cpu("amd", 23, 49),
        cpu("intel", 6, 106),
        cpu("hygon", 24, 0),
    ] {
        assert_eq!(other.profile(), &SAFE, "{other:?}");
    }
}

#[test]
fn profiles_are_one_per_uarch_and_name_only_x86_levels() {
    for (i, p) in PROFILES.iter().enumerate() {
        assert!(PROFILES[..i].iter().all(|q| q.uarch != p.uarch));
        assert!(!p.lz4.is_empty() && !p.lz4.contains(&Variant::Checked));
    }
    for p in PROFILES.iter().chain([&SAFE]) {
        assert!(
            Op::ALL.iter().all(|&op| p.isa(op) != Isa::Neon),
            "{}",
            p.uarch
        );
    }
}

#[test]
fn ops_index_their_choices() {
    for (i, &op) in Op::ALL.iter().enumerate() {
        assert_eq!(op as usize, i);
    }
    // Each op reads its own field: a profile that differs from SAFE in
    // one op's field differs in that op's level alone.
    for &op in Op::ALL {
        let mut one = SAFE;
        let other = if SAFE.isa(op) == Isa::Scalar {
            Isa::Sse41
        } else {
            Isa::Scalar
        };
        match op {
            Op::VByte => one.vbyte = other,
            Op::VByteDelta => one.vbyte_delta = other,
            Op::VarintGb => one.varint_gb = other,
            Op::VarintGbDelta => one.varint_gb_delta = other,
            Op::VarintG8iu => one.varint_g8iu = other,
            Op::VarintG8iuDelta => one.varint_g8iu_delta = other,
            Op::StreamVByte => one.stream_vbyte = other,
            Op::StreamVByteDelta => one.stream_vbyte_delta = other,
            Op::StreamVByte0124 => one.stream_vbyte_0124 = other,
            Op::StreamVByte0124Delta => one.stream_vbyte_0124_delta = other,
            Op::ByteSplit => one.byte_split = other,
            Op::ByteSplitLz4 => one.byte_split_lz4 = other,
            Op::Bp128 => one.bp128 = other,
            Op::Bp128Delta => one.bp128_delta = other,
            Op::FastLanes => one.fastlanes = other,
            Op::FastLanesDelta => one.fastlanes_delta = other,
            Op::FastLanesFor => one.fastlanes_for = other,
            Op::StreamVByteEncode => one.stream_vbyte_encode = other,
            Op::StreamVByteSeek => one.stream_vbyte_seek = other,
            Op::StreamVByteShortLists => one.stream_vbyte_short_lists = other,
            Op::StreamVByte64 => one.stream_vbyte_64 = other,
            Op::Intersect => one.intersect = other,
            Op::ByteSplitEncode => one.byte_split_encode = other,
            Op::BitSplit => one.bit_split = other,
            Op::Blosc => one.blosc = other,
            Op::Bp128Encode => one.bp128_encode = other,
            Op::Bp128Lanes8 => one.bp128_lanes8 = other,
            Op::FastLanesEncode => one.fastlanes_encode = other,
        }
        for &o in Op::ALL {
            assert_eq!(one.isa(o) != SAFE.isa(o), o == op, "{op:?} then {o:?}");
        }
    }
}

#[test]
fn choices_never_exceed_the_available_levels() {
    let top = *Isa::available().last().unwrap();
    for &op in Op::ALL {
        let l = isa(op);
        assert!(Isa::available().contains(&l));
        if cfg!(target_arch = "x86_64") {
            let want = Cpu::current().profile().isa(op);
            assert_eq!(l, want.min(top), "{op:?}");
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn cpuid_agrees_with_the_kernel() {
    let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
        return;
    };
    let field = |k: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(k))
            .and_then(|l| l.split(':').nth(1))
            .map(|v| v.trim().to_string())
    };
    let cpu = Cpu::current();
    if let Some(f) = field("cpu family") {
        assert_eq!(f, cpu.family.to_string());
    }
    if let Some(m) = field("model") {
        assert_eq!(m, cpu.model.to_string());
    }
    if let Some(v) = field("vendor_id") {
        let v = match v.as_str() {
            "GenuineIntel" => "intel".to_string(),
            "AuthenticAMD" => "amd".to_string(),
            other => other.to_lowercase(),
        };
        assert_eq!(v, cpu.vendor);
    }
}
