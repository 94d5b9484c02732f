//! Helpers shared by the fuzz targets. The traversal and the one-word
//! arena are the test suite's own (`tests/common`), included by path so
//! that the fuzzers and `tests/untrusted.rs` run the same logic.
#![allow(dead_code)]

#[path = "../../tests/common/mod.rs"]
pub mod common;

use capnarena::ReaderOptions;
#[allow(unused_imports)]
pub use common::walk::exercise;

/// The limits every target reads with: the default nesting and segment
/// limits, and a traversal limit small enough to keep one execution fast.
pub fn limits() -> ReaderOptions {
    ReaderOptions::new().traversal_limit_words(1 << 14)
}
