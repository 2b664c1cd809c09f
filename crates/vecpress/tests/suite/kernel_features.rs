//! Every kernel enables its whole level: each feature list in the
//! library's source (a `#[target_feature(enable = "...")]`, or a list that
//! a macro writes into one) spells one level's [`Isa::features`] exactly,
//! and the detection checks the same features. The attribute takes a
//! literal, not the constant, so this test is what keeps them one.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use vecpress::Isa;

/// What the GFNI kernels of `bit_split` add to the AVX-512 level (they
/// detect it apart).
const EXTRA: &str = "gfni";

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the library's source is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `line` (none holds an escaped quote here).
fn literals(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.match_indices('"')
        .map(|(i, _)| i)
        .collect::<Vec<_>>()
        .chunks_exact(2)
        .map(|p| (p[0], &line[p[0] + 1..p[1]]))
        .collect::<Vec<_>>()
        .into_iter()
}

#[test]
fn every_feature_list_is_a_levels() {
    let levels: Vec<&str> = Isa::ALL
        .iter()
        .map(|i| i.features())
        .filter(|f| !f.is_empty())
        .collect();
    let known: BTreeSet<&str> = levels
        .iter()
        .flat_map(|f| f.split(','))
        .chain([EXTRA])
        .collect();
    let with_extra = format!("{},{EXTRA}", Isa::Avx512.features());
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let (mut lists, mut wrong) = (0, Vec::new());
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file is readable");
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for (at, lit) in literals(line) {
                let is_list = !lit.is_empty() && lit.split(',').all(|f| known.contains(f));
                // A detection names one feature; `Isa::name` and the
                // detection are `isa.rs`'s, checked below.
                let detection = line[..at].ends_with("feature_detected!(");
                if !is_list || detection || path.ends_with("isa.rs") {
                    continue;
                }
                lists += 1;
                if !levels.contains(&lit) && lit != with_extra {
                    let rel = path.strip_prefix(&src).unwrap_or(path);
                    wrong.push(format!("src/{}:{}: \"{lit}\"", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "feature lists that are no level's Isa::features:\n{}",
        wrong.join("\n")
    );
    // The scan finds the kernels (dozens of them), so an empty `wrong`
    // means something.
    assert!(
        lists >= 40,
        "only {lists} feature lists found under {}",
        src.display()
    );
}

#[test]
fn the_detection_checks_each_levels_features() {
    let isa = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/isa.rs"))
        .expect("isa.rs is readable");
    let detected = |arch: &str| -> BTreeSet<String> {
        let call = format!("is_{arch}_feature_detected!(\"");
        isa.match_indices(&call)
            .map(|(i, _)| {
                let rest = &isa[i + call.len()..];
                rest[..rest.find('"').expect("a closing quote")].to_string()
            })
            .collect()
    };
    let of = |levels: &[Isa]| -> BTreeSet<String> {
        levels
            .iter()
            .flat_map(|i| i.features().split(','))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(detected("x86"), of(&[Isa::Sse41, Isa::Avx2, Isa::Avx512]));
    assert_eq!(detected("aarch64"), of(&[Isa::Neon]));
}
