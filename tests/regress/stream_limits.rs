//! Stream limits fail fast: a segment table declaring more words in all
//! than the traversal limit must be refused with `Error::MessageTooLarge`
//! as soon as the table is read, before a byte of the body is read and
//! before the arena allocates anything. Otherwise a 16-byte header could
//! make a server allocate (and wait for) gigabytes.

use std::cell::Cell;
use std::io::Read;

use capnarena::{Arena, Error, Message, ReaderOptions, SingleSegmentArena};

use super::bytes_of;

/// A stream that serves `header` and then panics if asked for one more
/// byte; it records how many bytes it served.
struct HeaderOnly<'a> {
    header: Vec<u8>,
    served: &'a Cell<usize>,
}

impl Read for HeaderOnly<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let at = self.served.get();
        assert!(
            at < self.header.len(),
            "read_from asked for body bytes after the {}-byte segment table",
            self.header.len()
        );
        let n = buf.len().min(self.header.len() - at);
        buf[..n].copy_from_slice(&self.header[at..at + n]);
        self.served.set(at + n);
        Ok(n)
    }
}

/// Reads `header` as a stream with `options`; asserts that exactly the
/// header was read and that the arena (a fresh one, with no capacity) has
/// allocated nothing; returns the error.
fn read_header_only(header: &[u64], options: ReaderOptions) -> Error {
    let header = bytes_of(header);
    let served = Cell::new(0);
    let stream = HeaderOnly {
        header: header.clone(),
        served: &served,
    };
    let mut m = Message::new(SingleSegmentArena::new());
    let e = match m.read_from(stream, options) {
        Ok(_) => panic!("expected MessageTooLarge, got Ok"),
        Err(e) => e,
    };
    assert_eq!(served.get(), header.len(), "read exactly the table");
    let arena = m.into_arena();
    assert_eq!(arena.segment_count(), 0, "no segment allocated");
    assert_eq!(arena.capacity(), 0, "no memory reserved");
    e
}

/// One segment of 8 Mi + 1 words: one word over the default traversal
/// limit.
#[test]
fn stream_one_segment_over_limit() {
    let e = read_header_only(
        &[
            0x0080_0001_0000_0000, // table: 1 segment, segment 0: 0x800001 words
        ],
        ReaderOptions::default(),
    );
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 0x80_0001,
                limit: 0x80_0000
            }
        ),
        "{e:?}"
    );
}

/// Three segments of 4 Mi words each: each under the limit, 12 Mi in all.
#[test]
fn stream_segments_sum_over_limit() {
    let e = read_header_only(
        &[
            0x0040_0000_0000_0002, // table: 3 segments, segment 0: 0x400000 words
            0x0040_0000_0040_0000, // table: segment 1: 0x400000, segment 2: 0x400000
        ],
        ReaderOptions::default(),
    );
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 0xC0_0000,
                limit: 0x80_0000
            }
        ),
        "{e:?}"
    );
}

/// Two segments of 0xFFFFFFFF words: the total (2^33 - 2) must be summed
/// without overflow.
#[test]
fn stream_max_sizes() {
    let e = read_header_only(
        &[
            0xFFFF_FFFF_0000_0001, // table: 2 segments, segment 0: 0xFFFFFFFF words
            0x0000_0000_FFFF_FFFF, // table: segment 1: 0xFFFFFFFF words, padding
        ],
        ReaderOptions::default(),
    );
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 0x1_FFFF_FFFE,
                limit: 0x80_0000
            }
        ),
        "{e:?}"
    );
}

/// A caller's small limit: 5 words declared, 4 allowed.
#[test]
fn stream_small_limit() {
    let e = read_header_only(
        &[
            0x0000_0005_0000_0000, // table: 1 segment, segment 0: 5 words
        ],
        ReaderOptions::new().traversal_limit_words(4),
    );
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 5,
                limit: 4
            }
        ),
        "{e:?}"
    );
}

/// `read_from_bytes` checks the declared size before anything else too:
/// given only the table (no body), it reports `MessageTooLarge`, not
/// `Truncated`, and allocates nothing.
#[test]
fn bytes_over_limit_before_truncation() {
    let bytes = bytes_of(&[
        0x0080_0001_0000_0000, // table: 1 segment, segment 0: 0x800001 words (no body)
    ]);
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.read_from_bytes(&bytes, ReaderOptions::default()),
        Error::MessageTooLarge {
            declared: 0x80_0001,
            limit: 0x80_0000
        }
    );
    assert_eq!(m.arena().segment_count(), 0);
    assert_eq!(m.arena().capacity(), 0);
}

/// Control: at exactly the limit the table is accepted and the stream is
/// then read for the body (which here is missing: `Truncated`).
#[test]
fn stream_at_limit_reads_body() {
    let header = bytes_of(&[
        0x0000_0004_0000_0000, // table: 1 segment, segment 0: 4 words
    ]);
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.read_from(
            std::io::Cursor::new(&header),
            ReaderOptions::new().traversal_limit_words(4)
        ),
        Error::Truncated {
            needed: 40,
            available: 8
        }
    );
}
