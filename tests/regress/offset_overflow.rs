//! CVE-2015-2310 class: pointer offsets and sizes that reach past either
//! end of a segment. Every target must be bounds-checked with arithmetic
//! that cannot wrap, and rejected with `Error::OutOfBounds` naming the
//! segment, the (possibly negative) first word, the span and the segment
//! length.

use capnarena::{ElementSize, Error, MessageReader, ReaderOptions, Word};

use super::{msg, reader};

/// CVE-2015-2310: a root struct pointer with the largest positive offset
/// (0x1FFFFFFF) must not wrap around to land inside the segment.
#[test]
fn struct_offset_max_positive() {
    let s0 = msg(&[
        0x0000_0001_7FFF_FFFC, // root: struct, offset 0x1FFFFFFF, 1 data word, 0 ptrs
        0x0000_0000_0000_0000, // padding: the segment has 2 words
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 0,
            start: 0x2000_0000,
            len: 1,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: the same struct pointer inside a framed message read
/// with `from_words` (the framing must not change the bounds).
#[test]
fn struct_offset_max_positive_framed() {
    let words = super::framed(&[
        0x0000_0001_7FFF_FFFC, // root: struct, offset 0x1FFFFFFF, 1 data word, 0 ptrs
        0x0000_0000_0000_0000, // padding
    ]);
    let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert_err!(
        r.root(),
        Error::OutOfBounds {
            segment: 0,
            start: 0x2000_0000,
            len: 1,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: a negative offset pointing one word before the start of
/// the segment.
#[test]
fn struct_offset_negative_before_start() {
    let s0 = msg(&[
        0x0000_0001_FFFF_FFF8, // root: struct, offset -2 (target word -1), 1 data word
        0x0000_0000_0000_0000, // padding
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 0,
            start: -1,
            len: 1,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: the most negative offset (-2^29).
#[test]
fn struct_offset_most_negative() {
    let s0 = msg(&[
        0x0000_0001_8000_0000, // root: struct, offset -0x20000000, 1 data word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 0,
            start: -0x1FFF_FFFF,
            len: 1,
            segment_len: 1
        }
    );
}

/// CVE-2015-2310: a struct that starts inside the segment but whose
/// data section runs one word past its end.
#[test]
fn struct_runs_past_end() {
    let s0 = msg(&[
        0x0000_0002_0000_0000, // root: struct, offset 0, 2 data words
        0x1111_1111_1111_1111, // data word 0 (word 1 is missing)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 2,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: the largest struct a pointer can describe (0xFFFF data
/// words, 0xFFFF pointers = 131070 words) in a 2-word segment.
#[test]
fn struct_max_size_past_end() {
    let s0 = msg(&[
        0xFFFF_FFFF_0000_0000, // root: struct, offset 0, 0xFFFF data, 0xFFFF ptrs
        0x0000_0000_0000_0000, // one word of the 131070 it claims
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root(),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 131_070,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: a struct's own pointer (not the root) pointing just
/// past the end of the segment is checked the same way.
#[test]
fn nested_struct_pointer_past_end() {
    let s0 = msg(&[
        0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 ptr (word 1)
        0x0000_0001_0000_0000, // ptr 0: struct, offset 0 (target word 2), 1 data word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let root = r.root().unwrap();
    assert_err!(
        root.get_struct(0),
        Error::OutOfBounds {
            segment: 0,
            start: 2,
            len: 1,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: a list of 8-byte elements whose count × size runs past
/// the end of the segment.
#[test]
fn list_count_times_size_past_end() {
    let s0 = msg(&[
        0x0000_001D_0000_0001, // root: list, offset 0, size 5 (8 bytes), 3 elements
        0x1111_1111_1111_1111, // element 0
        0x2222_2222_2222_2222, // element 1 (element 2 is missing)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs)
            .root_pointer()
            .unwrap()
            .get_list(ElementSize::EightBytes),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 3,
            segment_len: 3
        }
    );
}

/// CVE-2015-2310: the largest element count (2^29 - 1) of 8-byte
/// elements: 4 GiB of claimed data in an 8-byte segment.
#[test]
fn list_max_count_eight_bytes() {
    let s0 = msg(&[
        0xFFFF_FFFD_0000_0001, // root: list, offset 0, size 5 (8 bytes), 0x1FFFFFFF elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root_pointer().unwrap().get_list_any(),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 0x1FFF_FFFF,
            segment_len: 1
        }
    );
}

/// CVE-2015-2310: largest offset and largest count together (a pointer
/// list): start + len must be computed without wrapping.
#[test]
fn list_max_offset_and_count() {
    let s0 = msg(&[
        0xFFFF_FFFE_7FFF_FFFD, // root: list, offset 0x1FFFFFFF, size 6 (pointer), 0x1FFFFFFF elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs)
            .root_pointer()
            .unwrap()
            .get_list(ElementSize::Pointer),
        Error::OutOfBounds {
            segment: 0,
            start: 0x2000_0000,
            len: 0x1FFF_FFFF,
            segment_len: 1
        }
    );
}

/// CVE-2015-2310: a list with a negative offset before the segment start.
#[test]
fn list_offset_negative() {
    let s0 = msg(&[
        0x0000_000A_FFFF_FFED, // root: list, offset -5 (target word -4), size 2 (byte), 1 element
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs).root_pointer().unwrap().get_data(),
        Error::OutOfBounds {
            segment: 0,
            start: -4,
            len: 1,
            segment_len: 1
        }
    );
}

/// CVE-2015-2310: a bit list of 65 bits needs 2 words (rounded up); only
/// 1 is present.
#[test]
fn bit_list_rounds_up_past_end() {
    let s0 = msg(&[
        0x0000_0209_0000_0001, // root: list, offset 0, size 1 (bit), 65 elements
        0xFFFF_FFFF_FFFF_FFFF, // bits 0..63 (bit 64 is missing)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs)
            .root_pointer()
            .unwrap()
            .get_list(ElementSize::Bit),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 2,
            segment_len: 2
        }
    );
}

/// CVE-2015-2310: an inline-composite list whose word count (plus its tag
/// word) runs past the end of the segment.
#[test]
fn composite_list_words_past_end() {
    let s0 = msg(&[
        0x0000_0027_0000_0001, // root: list, offset 0, size 7 (composite), 4 words
        0x0000_0001_0000_0010, // tag: 4 elements, 1 data word, 0 ptrs
        0x1111_1111_1111_1111, // element 0 (elements 1..3 are missing)
    ]);
    let segs: [&[Word]; 1] = [&s0];
    assert_err!(
        reader(&segs)
            .root_pointer()
            .unwrap()
            .get_list(ElementSize::InlineComposite),
        Error::OutOfBounds {
            segment: 0,
            start: 1,
            len: 5,
            segment_len: 3
        }
    );
}
