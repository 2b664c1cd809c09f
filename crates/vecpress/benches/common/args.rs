//! The file arguments of a timing harness.

/// The paths named on the command line, or `default()` when none are.
/// `cargo bench` passes `--bench` to every bench target, which names no file.
pub fn paths(default: impl FnOnce() -> Vec<String>) -> Vec<String> {
    let paths: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if paths.is_empty() { default() } else { paths }
}
