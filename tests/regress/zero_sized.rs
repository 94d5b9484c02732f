//! CVE-2015-2312 / CVE-2015-2313 class: lists of zero-sized elements (a
//! `Void` list, or an inline-composite list of 0-word structs) take no
//! space in the message but can claim up to 2^29 - 1 (or, in a tag word,
//! 2^30 - 1) elements. Each element is charged one word of traversal, so
//! the default limit (8 Mi words) stops them with
//! `Error::TraversalLimitExceeded`; a deep copy must fail the same way
//! instead of building a huge list.

use capnarena::{ElementSize, Error, Message, ReaderOptions, SingleSegmentArena, Word};

use super::{reader, reader_with};

const DEFAULT_LIMIT: u64 = 8 * 1024 * 1024;

/// CVE-2015-2312: a `Void` list of 2^29 - 1 elements in one word.
#[test]
fn void_list_max_count() {
    let s0 = super::msg(&[
        0xFFFF_FFF8_0000_0001, // root: list, offset 0, size 0 (void), 0x1FFFFFFF elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list(ElementSize::Void),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x1FFF_FFFF
        }
    );
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x1FFF_FFFF
        }
    );
}

/// CVE-2015-2312 (control): a `Void` list of exactly 8 Mi elements is
/// within the default limit and uses all of it, one word per element.
#[test]
fn void_list_charged_one_word_each() {
    let s0 = super::msg(&[
        0x0400_0000_0000_0001, // root: list, offset 0, size 0 (void), 0x800000 elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let list = r
        .root_pointer()
        .unwrap()
        .get_list(ElementSize::Void)
        .unwrap();
    assert_eq!(list.len(), 0x80_0000);
    assert_eq!(r.traversal_remaining(), 0);
}

/// CVE-2015-2313: an inline-composite list of 0 words whose tag claims
/// 2^29 - 1 structs of 0 words each.
#[test]
fn zero_word_struct_list() {
    let s0 = super::msg(&[
        0x0000_0007_0000_0001, // root: list, offset 0, size 7 (composite), 0 words
        0x0000_0000_7FFF_FFFC, // tag: 0x1FFFFFFF elements, 0 data, 0 ptrs
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer()
            .unwrap()
            .get_list(ElementSize::InlineComposite),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x1FFF_FFFF
        }
    );
}

/// CVE-2015-2313: the tag's element count is 30 bits: 2^30 - 1 structs of
/// 0 words.
#[test]
fn zero_word_struct_list_max_tag_count() {
    let s0 = super::msg(&[
        0x0000_0007_0000_0001, // root: list, offset 0, size 7 (composite), 0 words
        0x0000_0000_FFFF_FFFC, // tag: 0x3FFFFFFF elements, 0 data, 0 ptrs
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x3FFF_FFFF
        }
    );
}

/// CVE-2015-2313 under a small limit: 11 zero-word structs against a
/// limit of 10 words.
#[test]
fn zero_word_struct_list_small_limit() {
    let s0 = super::msg(&[
        0x0000_0007_0000_0001, // root: list, offset 0, size 7 (composite), 0 words
        0x0000_0000_0000_002C, // tag: 11 elements, 0 data, 0 ptrs
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader_with(&segs, ReaderOptions::new().traversal_limit_words(10));
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::TraversalLimitExceeded {
            limit: 10,
            requested: 11
        }
    );
}

/// CVE-2015-2312 through deep copy: `set_from` of a 2^29 - 1 element
/// `Void` list fails with the reader's error and builds nothing big.
#[test]
fn void_list_set_from() {
    let s0 = super::msg(&[
        0xFFFF_FFF8_0000_0001, // root: list, offset 0, size 0 (void), 0x1FFFFFFF elements
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.root_pointer()
            .unwrap()
            .set_from(&r.root_pointer().unwrap()),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x1FFF_FFFF
        }
    );
    assert!(m.root_pointer().unwrap().is_null(), "no list was written");
    assert!(m.segment(0).unwrap().len_words() <= 2);
}

/// CVE-2015-2313 through deep copy: `Message::set_root` of a struct whose
/// field is a 2^29 - 1 element list of 0-word structs.
#[test]
fn zero_word_struct_list_set_root() {
    let s0 = super::msg(&[
        0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 ptr (word 1)
        0x0000_0007_0000_0001, // ptr 0: list, offset 0 (tag at word 2), size 7, 0 words
        0x0000_0000_7FFF_FFFC, // tag: 0x1FFFFFFF elements, 0 data, 0 ptrs
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let root = r.root().unwrap();
    let mut m = Message::new(SingleSegmentArena::new());
    assert_err!(
        m.set_root(&root),
        Error::TraversalLimitExceeded {
            limit: DEFAULT_LIMIT,
            requested: 0x1FFF_FFFF
        }
    );
    assert!(m.segment(0).unwrap().len_words() <= 4);
}
