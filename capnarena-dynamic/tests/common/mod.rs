//! Shared test helpers: the workspace's test vectors and schemas, and the
//! schema of `all_types.capnp` loaded through the compiler.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use capnarena::{MessageReader, ReaderOptions, Word};
use capnarena_dynamic::LoadedSchema;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate sits in the workspace")
        .to_path_buf()
}

/// `tests/vectors` of the workspace.
pub fn vectors_dir() -> PathBuf {
    workspace().join("tests/vectors")
}

/// The bytes of vector file `name`.
pub fn vector(name: &str) -> Vec<u8> {
    let path = vectors_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// The vector messages (each `NAME.txt` of tests/vectors).
pub const VECTORS: [&str; 5] = ["empty", "scalars", "lists", "full", "log"];

/// The framings of each vector: standard framing, one segment, and
/// written on segments of 1, 3 and 16 words (far and double-far pointers).
pub const FRAMED: [&str; 4] = ["bin", "seg1.bin", "seg3.bin", "seg16.bin"];

/// The root struct of vector `name`.
pub fn root_type(name: &str) -> &'static str {
    if name == "log" { "Log" } else { "AllTypes" }
}

/// Options that read every vector (log.seg1.bin has 1,186 segments).
pub fn options() -> ReaderOptions {
    ReaderOptions::new().segment_limit(4096)
}

/// `bytes` as words.
pub fn words(bytes: &[u8]) -> Vec<Word> {
    capnarena::words_from_bytes(bytes).expect("a whole number of words")
}

/// A reader of framed words.
pub fn framed(words: &[Word]) -> MessageReader<'_> {
    MessageReader::from_words(words, options()).expect("a framed vector")
}

/// `all_types.capnp`, compiled in process.
pub fn all_types() -> LoadedSchema {
    LoadedSchema::compile(
        &capnarena_compiler::Compiler::new()
            .no_standard_import()
            .src_prefix(vectors_dir())
            .file(vectors_dir().join("all_types.capnp")),
    )
    .expect("all_types.capnp compiles")
}
