//! Far pointers from untrusted input: a far pointer names a segment and a
//! landing pad in it, and a double-far pad names a second segment. Every
//! hop must be checked: a segment the message lacks gives
//! `Error::MissingSegment`, a pad (or the object it points to) outside its
//! segment gives `Error::OutOfBounds`, and a pad holding the wrong kind of
//! pointer gives `Error::BadLandingPad` (never a further hop, so far
//! pointers cannot loop).

use capnarena::{Error, MessageReader, ReaderOptions, Word};

use super::{msg, reader};

/// Far pointer into segment 5 of a 1-segment message.
#[test]
fn far_to_missing_segment() {
    let s0 = msg(&[
        0x0000_0005_0000_0002, // root: far, single, pad word 0 of segment 5
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::MissingSegment {
            segment: 5,
            count: 1
        }
    );
}

/// Far pointer into segment 0xFFFFFFFF.
#[test]
fn far_to_max_segment_id() {
    let s0 = msg(&[
        0xFFFF_FFFF_0000_0002, // root: far, single, pad word 0 of segment 0xFFFFFFFF
    ]);
    let s1 = msg(&[
        0x0000_0000_0000_0000, // unused
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::MissingSegment {
            segment: 0xFFFF_FFFF,
            count: 2
        }
    );
}

/// Single-far landing pad at word 7 of a 1-word segment.
#[test]
fn far_pad_past_segment_end() {
    let s0 = msg(&[
        0x0000_0001_0000_003A, // root: far, single, pad word 7 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0001_0000_0000, // a struct pointer that is never reached
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 7,
            len: 1,
            segment_len: 1
        }
    );
}

/// Single-far landing pad at the largest offset (0x1FFFFFFF).
#[test]
fn far_pad_max_offset() {
    let s0 = msg(&[
        0x0000_0001_FFFF_FFFA, // root: far, single, pad word 0x1FFFFFFF of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0000_0000_0000, // segment 1: one word
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 0x1FFF_FFFF,
            len: 1,
            segment_len: 1
        }
    );
}

/// Far pointer into an existing but empty segment.
#[test]
fn far_into_empty_segment() {
    let s0 = msg(&[
        0x0000_0001_0000_0002, // root: far, single, pad word 0 of segment 1
    ]);
    let segs: [&[Word]; 2] = [&s0, &[]];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 0,
            len: 1,
            segment_len: 0
        }
    );
}

/// A single-far landing pad that is itself a far pointer (here, back to
/// the root: followed naively it would loop forever).
#[test]
fn landing_pad_is_far() {
    let s0 = msg(&[
        0x0000_0001_0000_0002, // root: far, single, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0000_0000_0002, // pad: far, single, pad word 0 of segment 0 (the root)
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// The far-pad loop of [`landing_pad_is_far`], framed as a 2-segment
/// stream message and read with `from_words`.
#[test]
fn landing_pad_is_far_framed() {
    let words = msg(&[
        0x0000_0001_0000_0001, // table: 2 segments (count - 1 = 1), segment 0: 1 word
        0x0000_0000_0000_0001, // table: segment 1: 1 word, padding
        0x0000_0001_0000_0002, // seg 0 root: far, single, pad word 0 of segment 1
        0x0000_0000_0000_0002, // seg 1 pad: far, single, pad word 0 of segment 0
    ]);
    let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert_eq!(r.segment_count(), 2);
    assert_err!(
        r.root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// A single-far landing pad holding a capability pointer.
#[test]
fn landing_pad_is_capability() {
    let s0 = msg(&[
        0x0000_0001_0000_0002, // root: far, single, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0000_0000_0003, // pad: other/capability, index 0
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// A valid single-far pad whose struct runs past its segment's end.
#[test]
fn landing_pad_target_past_end() {
    let s0 = msg(&[
        0x0000_0001_0000_0002, // root: far, single, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0001_0000_0000, // pad: struct, offset 0 (word 1), 1 data word
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 1,
            len: 1,
            segment_len: 1
        }
    );
}

/// A double-far pad needs 2 words; segment 1 has only 1.
#[test]
fn double_far_pad_past_end() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0002_0000_0002, // pad word 0: far to segment 2 (pad word 1 is missing)
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 0,
            len: 2,
            segment_len: 1
        }
    );
}

/// A double-far pad starting at the last word of its segment.
#[test]
fn double_far_pad_at_last_word() {
    let s0 = msg(&[
        0x0000_0001_0000_0016, // root: far, double, pad word 2 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0000_0000_0000, // unused
        0x0000_0000_0000_0000, // unused
        0x0000_0001_0000_0002, // pad word 0: far to segment 1 word 0 (pad word 1 missing)
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 1,
            start: 2,
            len: 2,
            segment_len: 3
        }
    );
}

/// A double-far pad whose first word is a struct pointer, not a far
/// pointer.
#[test]
fn double_far_first_word_not_far() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0001_0000_0000, // pad word 0: struct pointer (should be a far pointer)
        0x0000_0001_0000_0000, // pad word 1: tag, struct of 1 data word
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// A double-far pad whose first word is itself a double-far pointer.
#[test]
fn double_far_first_word_double_far() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0001_0000_0006, // pad word 0: far, double, to itself (should be single)
        0x0000_0001_0000_0000, // pad word 1: tag, struct of 1 data word
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// A double-far pad whose second word (the tag) is a far pointer instead
/// of a struct or list pointer.
#[test]
fn double_far_tag_not_object() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0001_0000_0002, // pad word 0: far, single, segment 1 word 0
        0x0000_0001_0000_0002, // pad word 1: far (should be a struct/list tag)
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}

/// A double-far pad whose far word names a missing segment.
#[test]
fn double_far_content_missing_segment() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0009_0000_0002, // pad word 0: far, single, segment 9 word 0
        0x0000_0001_0000_0000, // pad word 1: tag, struct of 1 data word
    ]);
    let segs: [&[Word]; 2] = [&s0, &s1];
    assert_err!(
        reader(&segs).root(),
        Error::MissingSegment {
            segment: 9,
            count: 2
        }
    );
}

/// A double-far pad whose content lies past the end of its segment.
#[test]
fn double_far_content_past_end() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0002_0000_002A, // pad word 0: far, single, segment 2 word 5
        0x0000_0001_0000_0000, // pad word 1: tag, struct of 1 data word
    ]);
    let s2 = msg(&[
        0x0000_0000_0000_0000, // segment 2: one word
    ]);
    let segs: [&[Word]; 3] = [&s0, &s1, &s2];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 2,
            start: 5,
            len: 1,
            segment_len: 1
        }
    );
}

/// Control: a well-formed double-far pointer to a one-word struct reads.
#[test]
fn double_far_valid_control() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0002_0000_0002, // pad word 0: far, single, segment 2 word 0
        0x0000_0001_0000_0000, // pad word 1: tag, struct of 1 data word
    ]);
    let s2 = msg(&[
        0x0000_0000_0000_002A, // the struct's data word: 42
    ]);
    let segs: [&[Word]; 3] = [&s0, &s1, &s2];
    assert_eq!(reader(&segs).root().unwrap().get::<u64>(0), 42);
}

/// Found by `fuzz/read_framed`: a single-far pointer whose landing pad is
/// the null word. Read naively, the pad is a struct pointer of 0 words at
/// offset 0, so `get_struct` returned an empty struct while `kind()`
/// called the pointer null, and a deep copy turned it into a null pointer
/// (the copy then read differently from its source). No writer produces a
/// far pointer to a null pad; it must be `Error::BadLandingPad` on every
/// accessor.
#[test]
fn landing_pad_is_null() {
    let s0 = msg(&[
        0x0000_0000_0000_0012, // root: far, single, pad word 2 of segment 0
        0x0000_0000_0000_0000, // unused
        0x0000_0000_0000_0000, // pad word 2: null
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let p = r.root_pointer().unwrap();
    assert!(!p.is_null(), "the far pointer word itself is not null");
    let bad = |e: &Error| {
        matches!(
            e,
            Error::BadLandingPad {
                segment: 0,
                offset: 2,
                what: "landing pad is a null pointer"
            }
        )
    };
    assert_err!(p.kind(), ref e if bad(e));
    assert_err!(p.get_struct(), ref e if bad(e));
    assert_err!(p.get_list_any(), ref e if bad(e));
    assert_err!(p.get_text(), ref e if bad(e));
    let mut m = capnarena::Message::new(capnarena::SingleSegmentArena::new());
    assert_err!(m.root_pointer().unwrap().set_from(&p), ref e if bad(e));
}

/// The double-far form of [`landing_pad_is_null`]: the pad's second word
/// (the tag describing the object) is null.
#[test]
fn double_far_tag_is_null() {
    let s0 = msg(&[
        0x0000_0001_0000_0006, // root: far, double, pad word 0 of segment 1
    ]);
    let s1 = msg(&[
        0x0000_0002_0000_0002, // pad word 0: far, single, word 0 of segment 2
        0x0000_0000_0000_0000, // pad word 1: tag, null
    ]);
    let s2 = msg(&[
        0x0000_0000_0000_0000, // content (a struct of 0 words would start here)
    ]);
    let segs: [&[Word]; 3] = [&s0, &s1, &s2];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().kind(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            what: "second word of a double-far landing pad is not a struct or list pointer"
        }
    );
    assert_err!(
        r.root(),
        Error::BadLandingPad {
            segment: 1,
            offset: 0,
            ..
        }
    );
}
