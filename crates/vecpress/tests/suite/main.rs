//! The library's integration tests, one module a file, linked as one test
//! binary: a binary a file would link the library, its dependencies and the
//! harness once a file, and compile the shared helpers (`common`) as often.
//!
//! The tests that need a process of their own are binaries of their own,
//! beside this folder:
//!
//! - `memory_bound.rs` and `lz4_frame_memory.rs` install a counting
//!   `#[global_allocator]` (one a binary, and it would serve every test
//!   here); `lz4_frame_memory`'s counters are process-wide, so nothing else
//!   may allocate while it measures.
//! - `guard_pages.rs` maps inaccessible pages around the slices it hands the
//!   decoders: an access out of bounds ends the process with SIGSEGV, which
//!   here would take every test of the binary with it and name none.
//! - `isa_cap.rs` holds the `VECPRESS_ISA` cap its process was started
//!   under against the level the library read from it once, at its first
//!   dispatch: alone, nothing else in the process can have dispatched or
//!   touched the environment first.
//!
//! A new test file is a module below, unless it sets a global allocator,
//! sets or relies on process-wide state (environment variables, signal
//! handlers, the working directory) or counts on having the process to
//! itself: then it goes beside this folder, and this list says why.

#[path = "../common/mod.rs"]
mod common;

mod bit_split;
mod bitpack_bp128;
mod bitpack_fastlanes;
mod bitpack_fastlanes_fused;
mod bitpack_pfor;
mod blosc;
mod byte_split;
mod byte_split_parquet;
mod container;
mod container_per_block;
mod group_varint;
mod kernel_features;
mod lz4_adaptive;
mod lz4_block;
mod lz4_dict;
mod lz4_frame;
mod lz4_frame_bad_input;
mod lz4_frame_interop;
mod lz4_frame_pairs;
mod lz4_hc;
mod lz4_parquet;
mod registry;
mod stream_vbyte;
mod stream_vbyte64;
mod stream_vbyte_extra;
mod vbyte;
