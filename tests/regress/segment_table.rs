//! Segment tables from untrusted input: the first u32 is `segment count -
//! 1`, so 0xFFFFFFFF means 2^32 segments, which must be computed without
//! overflow and refused with `Error::SegmentLimitExceeded { count:
//! 4294967296, .. }`; a table longer than the input must give
//! `Error::Truncated` with the bytes the table needs. Checked on every read
//! path: `from_words`, `from_bytes`, `read_from_bytes`, `read_from`.

use capnarena::{Error, ReaderOptions};

use super::{bytes_of, each_path, expect_err};

/// Segment count field 0xFFFFFFFF: 2^32 segments, over the default limit
/// of 512.
#[test]
fn segment_count_u32_max() {
    let bytes = bytes_of(&[
        0x0000_0000_FFFF_FFFF, // table: count - 1 = 0xFFFFFFFF, segment 0: 0 words
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::SegmentLimitExceeded {
                    count: 4_294_967_296,
                    limit: 512
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// Segment count field 0xFFFFFFFF with the segment limit raised to
/// `u32::MAX`: 2^32 is still one more than any limit, so the count must
/// not wrap to 0.
#[test]
fn segment_count_u32_max_beats_any_limit() {
    let bytes = bytes_of(&[
        0x0000_0000_FFFF_FFFF, // table: count - 1 = 0xFFFFFFFF, segment 0: 0 words
    ]);
    let options = ReaderOptions::new().segment_limit(u32::MAX);
    each_path(&bytes, options, |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::SegmentLimitExceeded {
                    count: 4_294_967_296,
                    limit: u32::MAX
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// 513 segments, one past the default limit.
#[test]
fn segment_count_one_past_limit() {
    let bytes = bytes_of(&[
        0x0000_0000_0000_0200, // table: count - 1 = 512, segment 0: 0 words
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::SegmentLimitExceeded {
                    count: 513,
                    limit: 512
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// A 3-segment table needs 16 bytes; the input has 8.
#[test]
fn table_longer_than_input() {
    let bytes = bytes_of(&[
        0x0000_0001_0000_0002, // table: count - 1 = 2, segment 0: 1 word (table ends here)
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    needed: 16,
                    available: 8
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// A 512-segment table (the most the default limit allows) needs
/// (512 + 2) / 2 * 8 = 2056 bytes; the input has 8.
#[test]
fn max_table_longer_than_input() {
    let bytes = bytes_of(&[
        0x0000_0000_0000_01FF, // table: count - 1 = 511, segment 0: 0 words (table ends here)
    ]);
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    needed: 2056,
                    available: 8
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// Half a table word (4 bytes): the first word of the table is missing.
#[test]
fn half_a_table_word() {
    let bytes = [0u8; 4]; // count - 1 = 0, then nothing
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::Truncated {
                    needed: 8,
                    available: 4
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// Half a table word whose count is over the limit: every path reports
/// the count (it is checked as soon as its 4 bytes are in), not the
/// missing sizes. A fuzz find: `read_from` said `Truncated` here while
/// the slice readers said `SegmentLimitExceeded`.
#[test]
fn half_a_table_word_over_the_segment_limit() {
    let bytes = 600u32.to_le_bytes(); // count - 1 = 600, then nothing
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        assert!(
            matches!(
                e,
                Error::SegmentLimitExceeded {
                    count: 601,
                    limit: 512
                }
            ),
            "{path}: {e:?}"
        );
    });
}

/// Empty input: no table at all. A stream that ends before its first byte
/// is a clean end of stream; every other path reports the missing table.
#[test]
fn empty_input() {
    each_path(&[], ReaderOptions::default(), |path, r| {
        let e = expect_err(path, r);
        if path == "read_from" {
            assert!(matches!(e, Error::EndOfStream), "{path}: {e:?}");
        } else {
            assert!(
                matches!(
                    e,
                    Error::Truncated {
                        needed: 8,
                        available: 0
                    }
                ),
                "{path}: {e:?}"
            );
        }
    });
}
