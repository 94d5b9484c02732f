//! Helpers shared by the fuzz targets. The traversal and the one-word
//! arena are the test suite's own (`tests/common`), included by path so
//! that the fuzzers and `tests/untrusted.rs` run the same logic.
#![allow(dead_code)]

#[path = "../../tests/common/mod.rs"]
pub mod common;

use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use common::walk::{Walked, walk_message};

/// The limits every target reads with: the default nesting and segment
/// limits, and a traversal limit small enough to keep one execution fast.
pub fn limits() -> ReaderOptions {
    ReaderOptions::new().traversal_limit_words(1 << 14)
}

/// Everything a caller can do with an untrusted message: traverse it all,
/// check it for canonical form, deep-copy it into a builder (plain and
/// canonical). Panics only on a broken property:
/// - a plain deep copy that succeeded reads back exactly as the source
///   did, when the source's traversal hit no limit;
/// - the canonical form of a readable root is canonical.
pub fn exercise(reader: &MessageReader<'_>, options: ReaderOptions) -> Walked {
    let walked = walk_message(reader, options.nesting_limit);
    reader.reset_traversal();
    let _ = reader.is_canonical();

    reader.reset_traversal();
    let mut copy = Message::new(SingleSegmentArena::new());
    let copied = match (copy.root_pointer(), reader.root_pointer()) {
        (Ok(mut dst), Ok(src)) => dst.set_from(&src).is_ok(),
        _ => false,
    };
    if copied && walked.limit_errors == 0 {
        let again = walk_message(&copy.reader(), options.nesting_limit);
        assert_eq!(walked, again, "a deep copy reads differently from its source");
    }

    reader.reset_traversal();
    if let Ok(root) = reader.root() {
        let mut canon = Message::new(SingleSegmentArena::new());
        if let Ok(words) = canon.set_root_canonical(&root) {
            let words = words.to_vec();
            let segs: [&[capnarena::Word]; 1] = [&words];
            let back = MessageReader::from_segments(&segs, ReaderOptions::default())
                .expect("one segment is within any limit");
            assert_eq!(
                back.is_canonical().ok(),
                Some(true),
                "canonical form is not canonical"
            );
        }
    }
    reader.reset_traversal();
    walked
}
