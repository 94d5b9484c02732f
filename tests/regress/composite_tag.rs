//! Inline-composite lists whose tag word lies. The list pointer gives the
//! list's size in words (tag excluded); the tag gives the element count and
//! each element's struct size. The reader must check `count × words per
//! element <= list words` without wrapping (the product does not fit in
//! `u32`: up to 2^30 - 1 elements of up to 131,070 words), and that the tag
//! is struct-shaped at all: `Error::BadCompositeTag` with the tag's numbers
//! and the list's word count, on every read path and through deep copy.

use capnarena::{ElementSize, Error, Message, ReaderOptions, SingleSegmentArena, Word};

use super::{each_path, expect_err, framed_bytes, msg, reader};

const OVERRUN: &str = "elements overrun the list's words";
const NOT_STRUCT: &str = "tag word is not struct-shaped";

/// The tag claims 2 elements of 2 words (4 words) in a list of 2 words.
#[test]
fn tag_count_times_size_exceeds_list_words() {
    let s0 = msg(&[
        0x0000_0017_0000_0001, // root: list, offset 0, size 7 (composite), 2 words
        0x0000_0002_0000_0008, // tag: 2 elements, 2 data words, 0 ptrs
        0x0000_0000_0000_0001, // word 1 of the list
        0x0000_0000_0000_0002, // word 2 of the list; the segment ends here
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let p = r.root_pointer().unwrap();
    for result in [
        p.get_list_any().map(|_| ()),
        p.get_list(ElementSize::InlineComposite).map(|_| ()),
        p.get_list(ElementSize::EightBytes).map(|_| ()),
    ] {
        assert_err!(
            result,
            Error::BadCompositeTag {
                what: OVERRUN,
                elements: 2,
                element_words: 2,
                list_words: 2
            }
        );
    }
}

/// Control: a tag claiming fewer words than the list has is within bounds
/// (the spare word is ignored), and reads as 1 element.
#[test]
fn tag_smaller_than_list_control() {
    let s0 = msg(&[
        0x0000_0017_0000_0001, // root: list, offset 0, size 7 (composite), 2 words
        0x0000_0001_0000_0004, // tag: 1 element, 1 data word, 0 ptrs
        0x0000_0000_0000_002A, // element 0: 42
        0x0000_0000_0000_0000, // spare word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    let list = r.root_pointer().unwrap().get_list_any().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list.get_struct(0).get::<u64>(0), 42);
}

/// The element count times the element size is exactly 2^32 words
/// (0x10000000 elements of 16 words): a product computed in `u32` wraps
/// to 0 and would pass against a list of 0 words.
#[test]
fn tag_product_wraps_u32_to_zero() {
    let s0 = msg(&[
        0x0000_0007_0000_0001, // root: list, offset 0, size 7 (composite), 0 words
        0x0000_0010_4000_0000, // tag: 0x10000000 elements, 16 data words, 0 ptrs
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::BadCompositeTag {
            what: OVERRUN,
            elements: 0x1000_0000,
            element_words: 16,
            list_words: 0
        }
    );
}

/// The product is 2^32 + 1 words (6,700,417 elements of 641 words; 641 ×
/// 6,700,417 = 2^32 + 1), which a `u32` product wraps to 1: it would pass
/// against this list of 1 word, whose one word is present.
#[test]
fn tag_product_wraps_u32_to_one() {
    let s0 = msg(&[
        0x0000_000F_0000_0001, // root: list, offset 0, size 7 (composite), 1 word
        0x0000_0281_0198_F604, // tag: 6,700,417 (0x663D81) elements, 641 data words, 0 ptrs
        0x0000_0000_0000_0000, // the list's 1 word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::BadCompositeTag {
            what: OVERRUN,
            elements: 6_700_417,
            element_words: 641,
            list_words: 1
        }
    );
}

/// Every tag field at its largest: 2^30 - 1 elements of 0xFFFF data words
/// and 0xFFFF pointers (131,070 words each, about 2^47 words in all).
#[test]
fn tag_all_fields_max() {
    let s0 = msg(&[
        0x0000_000F_0000_0001, // root: list, offset 0, size 7 (composite), 1 word
        0xFFFF_FFFF_FFFF_FFFC, // tag: 0x3FFFFFFF elements, 0xFFFF data words, 0xFFFF ptrs
        0x0000_0000_0000_0000, // the list's 1 word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer().unwrap().get_list_any(),
        Error::BadCompositeTag {
            what: OVERRUN,
            elements: 0x3FFF_FFFF,
            element_words: 131_070,
            list_words: 1
        }
    );
}

/// The tag is a list pointer (kind 1), not struct-shaped.
#[test]
fn tag_is_list_pointer() {
    let s0 = msg(&[
        0x0000_000F_0000_0001, // root: list, offset 0, size 7 (composite), 1 word
        0x0000_0001_0000_0005, // tag: kind 1 (list); read as a tag: 1 element, 1 data word
        0x0000_0000_0000_0000, // the list's 1 word
    ]);
    let segs: [&[Word]; 1] = [&s0];
    let r = reader(&segs);
    assert_err!(
        r.root_pointer()
            .unwrap()
            .get_list(ElementSize::InlineComposite),
        Error::BadCompositeTag {
            what: NOT_STRUCT,
            elements: 1,
            element_words: 1,
            list_words: 1
        }
    );
}

/// The tag is a far pointer (kind 2) and, in another list, a capability
/// pointer (kind 3): neither may be followed or taken as a size.
#[test]
fn tag_is_far_or_capability() {
    for (tag, elements) in [
        (0x0000_0000_0000_000A_u64, 2), // far, pad word 1 of segment 0; as a tag: 2 elements
        (0x0000_0000_0000_0003_u64, 0), // capability 0; as a tag: 0 elements
    ] {
        let s0 = msg(&[
            0x0000_0007_0000_0001, // root: list, offset 0, size 7 (composite), 0 words
            tag,                   // tag: the pointer above
        ]);
        let segs: [&[Word]; 1] = [&s0];
        let r = reader(&segs);
        assert_err!(
            r.root_pointer().unwrap().get_list_any(),
            Error::BadCompositeTag {
                what: NOT_STRUCT,
                elements: e,
                element_words: 0,
                list_words: 0
            } if e == elements
        );
    }
}

/// The lying tag of [`tag_count_times_size_exceeds_list_words`] as a
/// struct field, framed, on every read path; then deep-copied with
/// `Message::set_root` and canonicalized: the same error each time, and
/// the copy's arena holds no more than the root it started.
#[test]
fn lying_tag_in_a_field_every_path_and_copy() {
    let bytes = framed_bytes(&[
        0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 ptr (word 1)
        0x0000_0017_0000_0001, // ptr 0: list, offset 0 (tag at word 2), size 7, 2 words
        0x0000_0002_0000_0008, // tag: 2 elements, 2 data words, 0 ptrs
        0x0000_0000_0000_0001, // word 1 of the list
        0x0000_0000_0000_0002, // word 2 of the list
    ]);
    let is_lie = |e: &Error| {
        matches!(
            e,
            Error::BadCompositeTag {
                what: OVERRUN,
                elements: 2,
                element_words: 2,
                list_words: 2
            }
        )
    };
    each_path(&bytes, ReaderOptions::default(), |path, r| {
        let r = r.unwrap_or_else(|e| panic!("{path}: framing is valid, got {e:?}"));
        let root = r.root().unwrap();
        let e = expect_err(path, root.get_list(0, ElementSize::InlineComposite));
        assert!(is_lie(&e), "{path}: {e:?}");
        let mut m = Message::new(SingleSegmentArena::new());
        let e = expect_err(path, m.set_root(&root));
        assert!(is_lie(&e), "{path}: set_root: {e:?}");
        assert!(m.segment(0).unwrap().len_words() <= 3, "{path}: copy grew");
        let e = expect_err(path, r.is_canonical());
        assert!(is_lie(&e), "{path}: is_canonical: {e:?}");
    });
}
