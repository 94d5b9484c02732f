//! Truncated and degenerate framed input: a segment size that runs past
//! the input gives `Error::Truncated` with the bytes the table implies; an
//! all-zero stream is a well-formed table of one empty segment, whose root
//! pointer is then missing (`Error::OutOfBounds` naming segment 0 and
//! length 0); and every strict prefix of a valid message fails with
//! `Error::Truncated` on every read path, never a panic.

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};

use capnarena::{Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, Word};

use super::{bytes_of, each_path, expect_err, vector};
use crate::common::walk::walk_message;

/// A segment of 5 words declared, 1 present: 48 bytes needed, 16 given.
#[test]
fn segment_size_past_input() {
    let bytes = bytes_of(&[
        0x0000_0005_0000_0000, // table: 1 segment, segment 0: 5 words
        0x0000_0000_0000_0000, // segment 0 word 0 (words 1..4 are missing)
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    needed: 48,
                    available: 16
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// The second of two segments runs past the input.
#[test]
fn second_segment_past_input() {
    let bytes = bytes_of(&[
        0x0000_0001_0000_0001, // table: 2 segments, segment 0: 1 word
        0x0000_0000_0000_0003, // table: segment 1: 3 words, padding
        0x0000_0000_0000_0000, // segment 0 word 0
        0x0000_0000_0000_0000, // segment 1 word 0 (words 1..2 are missing)
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    needed: 48,
                    available: 32
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// A segment size of 0xFFFFFFFF words. The zero-copy paths, which do not
/// allocate, report the truncation (2^32 * 8 bytes needed); the paths
/// that copy into an arena first refuse the size against the traversal
/// limit (see `stream_limits`).
#[test]
fn segment_size_u32_max() {
    let bytes = bytes_of(&[
        0xFFFF_FFFF_0000_0000, // table: 1 segment, segment 0: 0xFFFFFFFF words
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        match path {
            "from_words" | "from_bytes" => assert!(
                matches!(
                    e,
                    Error::Truncated {
                        needed: 0x8_0000_0000,
                        available: 8
                    }
                ),
                "{path}: {e:?}"
            ),
            _ => assert!(
                matches!(
                    e,
                    Error::MessageTooLarge {
                        declared: 0xFFFF_FFFF,
                        limit: 0x80_0000
                    }
                ),
                "{path}: {e:?}"
            ),
        }
    });
}

/// Eight zero bytes: one segment of 0 words. The framing is valid, but
/// the spec puts the root pointer at word 0 of segment 0, which does not
/// exist: reading the root must fail with `OutOfBounds` for segment 0,
/// word 0, length 1, in a segment of 0 words.
#[test]
fn all_zero_stream() {
    let bytes = bytes_of(&[
        0x0000_0000_0000_0000, // table: 1 segment (count - 1 = 0), segment 0: 0 words
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let r = r.unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert_eq!(r.segment_count(), 1, "{path}");
        assert_eq!(r.segment(0).map(<[Word]>::len), Some(0), "{path}");
        for e in [
            expect_err(path, r.root_pointer()),
            expect_err(path, r.root()),
        ] {
            assert!(
                matches!(
                    e,
                    Error::OutOfBounds {
                        segment: 0,
                        start: 0,
                        len: 1,
                        segment_len: 0
                    }
                ),
                "{path}: {e:?}"
            );
        }
    });
}

/// Every strict prefix of `bytes` (a valid framed message) on every read
/// path: `from_bytes` over an aligned copy may only say `Truncated` (or
/// `Unaligned`, which an aligned copy never is); `read_from_bytes` and
/// `read_from` say `Truncated` with `available` = the prefix length, or,
/// for the stream and the empty prefix, `EndOfStream`. Never a panic.
fn every_prefix(name: &str) {
    let full = vector(name);
    let words = capnarena::words_from_bytes(&full).unwrap();
    let aligned = Word::slice_as_bytes(&words);
    // Control: the whole message reads and walks.
    let r = MessageReader::from_bytes(aligned, ReaderOptions::default()).unwrap();
    let walked = walk_message(&r, ReaderOptions::default().nesting_limit);
    assert!(walked.structs > 1, "{walked:?}");
    assert_eq!(walked.limit_errors, 0, "{walked:?}");

    let total = full.len() as u64;
    let check = |n: usize, path: &str, e: Error| match e {
        Error::Truncated { needed, available }
            if available == n as u64 && needed > available && needed <= total => {}
        Error::Unaligned { .. } if path == "from_bytes" => {}
        Error::EndOfStream if n == 0 && path == "read_from" => {}
        e => panic!("{name}: prefix of {n} bytes, {path}: {e:?}"),
    };
    let mut m = Message::new(SingleSegmentArena::new());
    for n in 0..full.len() {
        let prefix = &full[..n];
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let e = expect_err(
                "from_bytes",
                MessageReader::from_bytes(&aligned[..n], Default::default()),
            );
            check(n, "from_bytes", e);
            let e = expect_err(
                "read_from_bytes",
                m.read_from_bytes(prefix, Default::default()),
            );
            check(n, "read_from_bytes", e);
            let e = expect_err(
                "read_from",
                m.read_from(Cursor::new(prefix), Default::default()),
            );
            check(n, "read_from", e);
            if n % 8 == 0 {
                let e = expect_err(
                    "from_words",
                    MessageReader::from_words(&words[..n / 8], Default::default()),
                );
                check(n, "from_words", e);
            }
        }));
        if outcome.is_err() {
            panic!("{name}: a prefix of {n} bytes panicked (see the message above)");
        }
    }
}

/// Truncation at every byte boundary of the single-segment `full.bin`.
#[test]
fn every_prefix_of_full_bin() {
    every_prefix("full.bin");
}

/// Truncation at every byte boundary of `full.seg3.bin` (40 segments of
/// at most 3 words, so the table alone is 168 bytes and is cut too).
#[test]
fn every_prefix_of_full_seg3_bin() {
    every_prefix("full.seg3.bin");
}
