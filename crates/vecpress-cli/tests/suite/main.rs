//! The CLI's integration tests, one module a file, linked as one test
//! binary: a binary a file would link the library, the command's
//! dependencies and the harness once a file. Every test runs the built
//! `vecpress` binary in a process of its own, so none needs this one to
//! itself; the tests share only the scratch directories under the target
//! dir, which `common::scratch` names after the calling file.
#![forbid(unsafe_code)]

mod common;

mod cli;
mod files;
mod lz4_options;
mod per_block;
mod threads;
