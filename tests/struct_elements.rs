//! `ListReader::struct_elements` (behind every generated struct list's
//! `iter()`) cuts the list's bytes into elements once instead of checking
//! each element's bounds: whatever the list's element size, it must yield
//! exactly the structs `ListReader::get_struct(i)` reads, element by
//! element, from the front, from the back, and interleaved.

use capnarena::{
    ElementSize, ListReader, Message, MessageReader, ReaderOptions, SingleSegmentArena,
    StructReader, StructSize,
};
use proptest::prelude::*;

/// Everything a reader of element `i` can observe: its size, data bytes,
/// and each pointer's target read as a text (or the error it gives).
fn observe(s: &StructReader<'_>) -> (StructSize, Vec<u8>, Vec<String>) {
    let ptrs = (0..usize::from(s.pointer_count()) + 1)
        .map(|k| match s.pointer(k).get_text_bytes() {
            Ok(b) => format!("{b:?}"),
            Err(e) => format!("error {e}"),
        })
        .collect();
    (s.size(), s.data_bytes().to_vec(), ptrs)
}

/// The `list_index`-th list of the root, read with no size check.
fn with_list<R>(bytes: &[u8], index: usize, f: impl FnOnce(ListReader<'_>) -> R) -> R {
    let reader = MessageReader::from_bytes(bytes, ReaderOptions::default()).unwrap();
    let root = reader.root().unwrap();
    f(root.pointer(index).get_list_any().unwrap())
}

/// Builds a root whose pointers hold a list of each element size, `n`
/// elements each, filled from `seed`; returns the framed message.
fn build(n: u32, seed: u64, data_words: u16, ptrs: u16) -> Vec<u8> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(0, 8)).unwrap();
    let sizes = [
        ElementSize::Void,
        ElementSize::Bit,
        ElementSize::Byte,
        ElementSize::TwoBytes,
        ElementSize::FourBytes,
        ElementSize::EightBytes,
    ];
    let v = |i: u32| seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(i);
    for (k, size) in sizes.into_iter().enumerate() {
        let mut l = root.init_list(k, size, n).unwrap();
        for i in 0..n {
            match size {
                ElementSize::Void => {}
                ElementSize::Bit => l.set_bool(i, v(i) & 1 == 1),
                ElementSize::Byte => l.set::<u8>(i, v(i) as u8),
                ElementSize::TwoBytes => l.set::<u16>(i, v(i) as u16),
                ElementSize::FourBytes => l.set::<u32>(i, v(i) as u32),
                _ => l.set::<u64>(i, v(i)),
            }
        }
    }
    let mut texts = root.init_list(6, ElementSize::Pointer, n).unwrap();
    for i in 0..n {
        if i % 3 != 0 {
            texts.set_text(i, &format!("t{}", v(i) % 1000)).unwrap();
        }
    }
    let mut structs = root
        .init_struct_list(7, n, StructSize::new(data_words, ptrs))
        .unwrap();
    for i in 0..n {
        let mut s = structs.get_struct(i);
        for w in 0..usize::from(data_words) {
            s.set::<u64>(w, v(i) ^ w as u64);
        }
        for p in 0..usize::from(ptrs) {
            if (i as usize + p) % 2 == 0 {
                s.set_text(p, &format!("e{i}.{p}")).unwrap();
            }
        }
    }
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

fn aligned(bytes: &[u8]) -> Vec<capnarena::Word> {
    capnarena::words_from_bytes(bytes).unwrap()
}

proptest! {
    /// Front-to-back, back-to-front and interleaved iteration yield the
    /// elements `get_struct(i)` reads, with the lengths `len()` says, for
    /// lists of every element size (void and bit lists read as empty
    /// structs) and struct lists of every shape, including zero-sized.
    #[test]
    fn elements_match_get_struct(
        n in 0u32..40,
        seed: u64,
        data_words in 0u16..4,
        ptrs in 0u16..4,
        pattern in proptest::collection::vec(any::<bool>(), 0..90),
    ) {
        let words = aligned(&build(n, seed, data_words, ptrs));
        let bytes = capnarena::Word::slice_as_bytes(&words);
        for index in 0..8 {
            with_list(bytes, index, |list| {
                let want: Vec<_> = (0..list.len()).map(|i| observe(&list.get_struct(i))).collect();
                let it = list.struct_elements();
                prop_assert_eq!(it.len(), want.len());
                let fwd: Vec<_> = it.map(|s| observe(&s)).collect();
                prop_assert_eq!(&fwd, &want, "list {} forward", index);
                let mut back: Vec<_> = list.struct_elements().rev().map(|s| observe(&s)).collect();
                back.reverse();
                prop_assert_eq!(&back, &want, "list {} backward", index);
                // Interleaved: take from either end as `pattern` says.
                let mut it = list.struct_elements();
                let (mut lo, mut hi) = (0usize, want.len());
                for &front in pattern.iter().chain(std::iter::repeat(&true)).take(want.len() + 2) {
                    let got = if front { it.next() } else { it.next_back() };
                    match got {
                        Some(s) => {
                            let i = if front { lo += 1; lo - 1 } else { hi -= 1; hi };
                            prop_assert_eq!(&observe(&s), &want[i], "list {} element {}", index, i);
                        }
                        None => prop_assert_eq!(lo, hi),
                    }
                    prop_assert_eq!(it.len(), hi - lo);
                }
                Ok(())
            })?;
        }
    }
}

/// The elements of a struct list with data and pointers read back the
/// values they were built with, in order.
#[test]
fn struct_list_elements_hold_what_was_built() {
    let words = aligned(&build(25, 7, 2, 2));
    let bytes = capnarena::Word::slice_as_bytes(&words);
    with_list(bytes, 7, |list| {
        let v = |i: u64| 7u64.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i;
        for (i, s) in list.struct_elements().enumerate() {
            assert_eq!(s.get::<u64>(0), v(i as u64), "element {i} word 0");
            assert_eq!(s.get::<u64>(1), v(i as u64) ^ 1, "element {i} word 1");
            let text = s.pointer(i % 2).get_text_bytes().unwrap();
            assert_eq!(text, format!("e{i}.{}", i % 2).as_bytes(), "element {i}");
        }
    });
}

// ------------------------------------- edge cases through generated code

#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/evolution_v1_capnp.rs"]
mod evolution_v1_capnp;
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "generated/evolution_v3_capnp.rs"]
mod evolution_v3_capnp;

mod common;

use capnarena::{Arena, Error, Word};
use evolution_v1_capnp as v1;
use evolution_v3_capnp as v3;

/// Builds a version-1 root (`tests/schemas/evolution_v1.capnp`) with `n`
/// items (`id` = 10 * i, `name` = "item i"), `n` bytes (3 * i) and `n`
/// names ("name i") in `msg`.
fn build_v1<A: Arena>(msg: &mut Message<A>, n: u32) {
    let mut root = msg.init_root::<v1::root::Builder<_>>().unwrap();
    let mut items = root.init_items(n).unwrap();
    for i in 0..n {
        let mut item = items.get(i);
        item.set_id(10 * i);
        item.set_name(&format!("item {i}")).unwrap();
    }
    let mut bytes = root.init_bytes(n).unwrap();
    for i in 0..n {
        bytes.set(i, (3 * i) as u8);
    }
    let mut names = root.init_names(n).unwrap();
    for i in 0..n {
        names.set(i, &format!("name {i}")).unwrap();
    }
}

/// A list whose elements are smaller than the reader's struct (written by
/// an older schema, or a list of bytes or texts read as a list of structs)
/// reads each element's own fields, and every field past the element as
/// zero (or empty), from the front, from the back and through adapters.
#[test]
fn elements_smaller_than_the_schema_read_the_rest_as_zero() {
    let mut msg = Message::new(SingleSegmentArena::new());
    build_v1(&mut msg, 7);
    let reader = msg.reader();
    let root = reader.get_root::<v3::root::Reader>().unwrap();

    let items = root.get_items().unwrap();
    let check = |i: u32, item: v3::item::Reader<'_>| {
        assert_eq!(item.get_id(), 10 * i, "item {i}");
        assert_eq!(item.get_name().unwrap(), format!("item {i}"), "item {i}");
        assert_eq!(item.get_weight(), 0.0, "item {i} weight");
        assert_eq!(item.get_tags().unwrap().len(), 0, "item {i} tags");
        assert!(!item.get_flag(), "item {i} flag");
        assert_eq!(item.get_note().unwrap(), "", "item {i} note");
        assert_eq!(item.get_score(), 0, "item {i} score");
    };
    for (i, item) in (0..).zip(items.iter()) {
        check(i, item);
    }
    for (i, item) in (0..7).rev().zip(items.iter().rev()) {
        check(i, item);
    }
    let ids: u32 = items.iter().map(|item| item.get_id()).sum();
    assert_eq!(ids, 10 * (0..7).sum::<u32>());

    // A list of bytes read as a list of structs whose first field is a byte.
    let small: Vec<_> = root
        .get_bytes()
        .unwrap()
        .iter()
        .map(|s| (s.get_value(), s.get_extra(), s.get_more()))
        .collect();
    let want: Vec<_> = (0..7u8).map(|i| (3 * i, 0, 0)).collect();
    assert_eq!(small, want);

    // A list of texts read as a list of structs whose first field is a text.
    for (i, named) in (0..).zip(root.get_names().unwrap().iter()) {
        assert_eq!(named.get_name().unwrap(), format!("name {i}"));
        assert_eq!(named.get_rank(), 0);
        assert_eq!(named.get_alias().unwrap(), "");
    }
}

/// A struct list that claims more words than its segment holds, or whose
/// tag's elements do not fit the words the pointer gives, is refused when
/// the list is read (with the numbers that explain it), so its iterator is
/// never made.
#[test]
fn a_struct_list_past_its_segment_is_an_error() {
    // Word 0: root struct pointer, offset 0, no data, 3 pointers (item,
    // items, bytes). Word 1: null (`item`). Word 2: list pointer (`items`),
    // offset 1 (to word 4), inline composite, `words` words. Word 3: null.
    // Word 4: tag, `count` elements of 1 data word and 1 pointer. Words
    // 5-8: four words of elements.
    let words = |words: u64, count: u64| -> Vec<Word> {
        [
            0x0003_0000_0000_0000,
            0,
            (words << 35) | (7 << 32) | (1 << 2) | 1,
            0,
            (1 << 48) | (1 << 32) | (count << 2),
            1,
            0,
            2,
            0,
        ]
        .map(Word::from_u64)
        .to_vec()
    };
    let read = |w: &[Word]| -> capnarena::Result<u32> {
        let segments = [w];
        let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
        let root = reader.get_root::<v3::root::Reader>()?;
        Ok(root.get_items()?.iter().map(|i| i.get_id()).sum())
    };
    // The list as laid out: two elements of two words, ids 1 and 2.
    assert_eq!(read(&words(4, 2)).unwrap(), 3);
    // Five words claimed, four there.
    let err = read(&words(5, 2)).unwrap_err();
    assert!(
        matches!(
            err,
            Error::OutOfBounds {
                len: 6,
                segment_len: 9,
                ..
            }
        ),
        "{err:?}"
    );
    // Three elements of two words do not fit four words.
    let err = read(&words(4, 3)).unwrap_err();
    assert!(
        matches!(
            err,
            Error::BadCompositeTag {
                elements: 3,
                element_words: 2,
                list_words: 4,
                ..
            }
        ),
        "{err:?}"
    );
}

/// A struct list reached through a far pointer, whose elements' pointers
/// are far pointers too (every object in a segment of its own), iterates
/// in its own segment: each element's fields and pointers read back what
/// was built, from both ends.
#[test]
fn a_struct_list_behind_a_far_pointer_iterates_in_its_segment() {
    let mut msg = Message::new(common::OneWordArena::default());
    {
        let mut root = msg.init_root::<v3::root::Builder<_>>().unwrap();
        let mut items = root.init_items(5).unwrap();
        for i in 0..5 {
            let mut item = items.get(i);
            item.set_id(i + 1);
            item.set_score(-(i64::from(i)));
            item.set_name(&format!("far {i}")).unwrap();
        }
    }
    let mut framed = Vec::new();
    msg.append_to(&mut framed);
    let words = aligned(&framed);
    let reader = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert!(
        reader.segment_count() > 3,
        "every object in its own segment"
    );
    let items = reader
        .get_root::<v3::root::Reader>()
        .unwrap()
        .get_items()
        .unwrap();
    let got: Vec<_> = items
        .iter()
        .map(|i| (i.get_id(), i.get_score(), i.get_name().unwrap().to_owned()))
        .collect();
    let want: Vec<_> = (0..5u32)
        .map(|i| (i + 1, -i64::from(i), format!("far {i}")))
        .collect();
    assert_eq!(got, want);
    let mut back: Vec<_> = items.iter().rev().map(|i| i.get_id()).collect();
    back.reverse();
    assert_eq!(back, [1, 2, 3, 4, 5]);
}

/// Lists whose elements take no space (a struct list of zero-sized
/// structs, a list of voids) read as structs yield one empty struct per
/// element, every field zero or empty, and report their length.
#[test]
fn zero_sized_elements_read_as_empty_structs() {
    let mut msg = Message::new(SingleSegmentArena::new());
    {
        let mut root = msg.init_root_struct(StructSize::new(2, 7)).unwrap();
        root.init_struct_list(1, 4, StructSize::new(0, 0)).unwrap();
        root.init_list(2, ElementSize::Void, 6).unwrap();
    }
    let reader = msg.reader();
    let root = reader.get_root::<v3::root::Reader>().unwrap();
    let items = root.get_items().unwrap();
    assert_eq!((items.len(), items.iter().len()), (4, 4));
    for item in items.iter().chain(items.iter().rev()) {
        assert_eq!((item.get_id(), item.get_score()), (0, 0));
        assert_eq!(item.get_name().unwrap(), "");
    }
    let small = root.get_bytes().unwrap();
    assert_eq!(small.iter().len(), 6);
    assert!(
        small
            .iter()
            .all(|s| (s.get_value(), s.get_more()) == (0, 0))
    );
}

// ------------------------- pointers read from elements, on hand-made words

/// A struct pointer word: `offset` words past the word after it, `data`
/// data words, `ptrs` pointers.
fn sp(offset: i64, data: u64, ptrs: u64) -> u64 {
    ((offset as u64) << 2 & 0xFFFF_FFFC) | data << 32 | ptrs << 48
}

/// The words of a message whose root (no data, one pointer) holds a
/// struct list: word 1 the list pointer, word 2 its tag (`elements`
/// elements of `data` data words and `ptrs` pointers), the elements from
/// word 3 (filled by `element(i, word)` for element `i`'s `word`-th word),
/// then `tail` words after the list.
fn list_message(
    elements: u64,
    data: u64,
    ptrs: u64,
    element: impl Fn(u64, u64) -> u64,
    tail: &[u64],
) -> Vec<Word> {
    let per = data + ptrs;
    let mut w = vec![sp(0, 0, 1), ((elements * per) << 35) | (7 << 32) | 1];
    w.push(sp(elements as i64, data, ptrs));
    for i in 0..elements {
        for k in 0..per {
            w.push(element(i, k));
        }
    }
    w.extend_from_slice(tail);
    w.into_iter().map(Word::from_u64).collect()
}

/// Reads the root's list over `segments` with `options` and gives, for
/// each element in iteration order, its pointer 0 read as a struct (its
/// first data word, or the error), and checks that `get_struct(i)` gives
/// the same for each.
fn element_targets(
    segments: &[&[Word]],
    options: ReaderOptions,
) -> capnarena::Result<Vec<Result<u64, Error>>> {
    let reader = MessageReader::from_segments(segments, options)?;
    let list = reader.root()?.pointer(0).get_list_any()?;
    let read = |s: StructReader<'_>| s.pointer(0).get_struct().map(|t| t.get::<u64>(0));
    let got: Vec<_> = list.struct_elements().map(read).collect();
    // The same through `get_struct(i)`, on a fresh reader (a fresh budget).
    let again = MessageReader::from_segments(segments, options)?;
    let list2 = again.root()?.pointer(0).get_list_any()?;
    let by_index: Vec<_> = (0..list2.len())
        .map(|i| read(list2.get_struct(i)))
        .collect();
    assert_eq!(
        format!("{got:?}"),
        format!("{by_index:?}"),
        "iterator and get_struct(i) differ"
    );
    Ok(got)
}

/// A list of many elements whose pointers all reach one large struct is
/// charged that struct's words each time one is read in a loop over the
/// elements: the read that would pass the traversal limit fails with the
/// limit and the words it asked for, after exactly as many reads as the
/// budget left for them (the amplification guard holds in element loops).
#[test]
fn element_pointers_to_one_big_struct_hit_the_traversal_limit() {
    let (n, big) = (1000u64, 100u64);
    // Element `i` (word `3 + i`) points at the big struct at word `3 + n`.
    let mut tail = vec![0u64; big as usize];
    tail[0] = 42;
    let words = list_message(n, 0, 1, |i, _| sp((n - 1 - i) as i64, big, 0), &tail);
    // Root 1 word, list `n` words, then 7 reads of the big struct and 50
    // words over.
    let limit = 1 + n + 7 * big + 50;
    let options = ReaderOptions {
        traversal_limit_words: limit,
        ..ReaderOptions::default()
    };
    let got = element_targets(&[&words], options).unwrap();
    assert_eq!(got.len(), n as usize);
    assert!(
        got[..7].iter().all(|r| matches!(r, Ok(42))),
        "{:?}",
        &got[..8]
    );
    for r in &got[7..] {
        assert!(
            matches!(
                r,
                Err(Error::TraversalLimitExceeded {
                    limit: l,
                    requested: 100
                }) if *l == limit
            ),
            "{r:?}"
        );
    }
}

/// An element's pointer whose target lies past the segment's end, before
/// its start, or that starts at the segment's end (the last element's
/// pointer is the segment's last word) is an `OutOfBounds` error with the
/// target's start and length and the segment's length; the elements
/// around it read their targets.
#[test]
fn element_pointers_outside_the_segment_are_errors_with_their_numbers() {
    // Four elements of one data word and one pointer (words 3-10), then a
    // one-word struct holding 7 at word 11 (12 words in all).
    let words = list_message(
        4,
        1,
        1,
        |i, k| match (i, k) {
            (_, 0) => i,
            // Element 0's pointer (word 4) reaches word 11.
            (0, _) => sp(6, 1, 0),
            // Element 1's pointer (word 6) reaches words 12-13: past the end.
            (1, _) => sp(5, 2, 0),
            // Element 2's pointer (word 8) reaches word -2: before the start.
            (2, _) => sp(-11, 1, 0),
            // Element 3's pointer (word 10) reaches words 11-12.
            _ => sp(0, 1, 1),
        },
        &[7],
    );
    assert_eq!(words.len(), 12);
    let got = element_targets(&[&words], ReaderOptions::default()).unwrap();
    assert!(matches!(got[0], Ok(7)), "{:?}", got[0]);
    let oob = |r: &Result<u64, Error>, s: i64, l: u64| {
        matches!(r, Err(Error::OutOfBounds { segment: 0, start, len, segment_len: 12 })
            if *start == s && *len == l)
    };
    assert!(oob(&got[1], 12, 2), "{:?}", got[1]);
    assert!(oob(&got[2], -2, 1), "{:?}", got[2]);
    assert!(oob(&got[3], 11, 2), "{:?}", got[3]);
}

/// Element pointers that are far pointers land in the segment they name:
/// single-far and double-far landing pads are followed, and a far pointer
/// to a missing segment or a landing pad past its segment's end is an
/// error with its numbers, element by element.
#[test]
fn far_pointers_in_elements_land_in_their_segments() {
    let far = |double: u64, pad: u64, segment: u64| 2 | double << 2 | pad << 3 | segment << 32;
    let words = list_message(
        5,
        0,
        1,
        |i, _| match i {
            // Single far to segment 1, pad at word 0.
            0 => far(0, 0, 1),
            // Double far to segment 1, pad at words 2-3.
            1 => far(1, 2, 1),
            // A missing segment.
            2 => far(0, 0, 9),
            // A pad past segment 1's end.
            3 => far(0, 6, 1),
            // A near pointer, null: reads as the empty struct.
            _ => 0,
        },
        &[],
    );
    // Segment 1: word 0 the landing pad (struct at word 1), word 1 the
    // struct (5), words 2-3 the double-far pad (its content at word 4 of
    // segment 1), word 4 the struct (6).
    let seg1: Vec<Word> = [sp(0, 1, 0), 5, far(0, 4, 1), sp(0, 1, 0), 6]
        .map(Word::from_u64)
        .to_vec();
    let got = element_targets(&[&words, &seg1], ReaderOptions::default()).unwrap();
    assert!(matches!(got[0], Ok(5)), "{:?}", got[0]);
    assert!(matches!(got[1], Ok(6)), "{:?}", got[1]);
    assert!(
        matches!(
            got[2],
            Err(Error::MissingSegment {
                segment: 9,
                count: 2
            })
        ),
        "{:?}",
        got[2]
    );
    assert!(
        matches!(
            got[3],
            Err(Error::OutOfBounds {
                segment: 1,
                start: 6,
                len: 1,
                segment_len: 5
            })
        ),
        "{:?}",
        got[3]
    );
    assert!(matches!(got[4], Ok(0)), "{:?}", got[4]);
}

/// An element's pointer is read one level below the list's: with a
/// nesting limit that the root and the list use up, every element's
/// struct pointer fails with the limit, in the loop as by index.
#[test]
fn element_pointers_keep_the_nesting_limit() {
    let words = list_message(3, 0, 1, |i, _| sp((2 - i) as i64, 1, 0), &[9]);
    for (limit, ok) in [(2, false), (3, true)] {
        let options = ReaderOptions {
            nesting_limit: limit,
            ..ReaderOptions::default()
        };
        let got = element_targets(&[&words], options).unwrap();
        assert_eq!(got.len(), 3);
        for r in &got {
            if ok {
                assert!(matches!(r, Ok(9)), "limit {limit}: {r:?}");
            } else {
                assert!(
                    matches!(r, Err(Error::NestingLimitExceeded { limit: 2 })),
                    "limit {limit}: {r:?}"
                );
            }
        }
    }
}

/// A struct read from a list element and copied into a new message (its
/// pointer section found from the element's own words) copies what the
/// same element read by index copies, and holds the texts it was built
/// with.
#[test]
fn elements_copy_like_get_struct() {
    let words = aligned(&build(9, 3, 1, 3));
    let bytes = capnarena::Word::slice_as_bytes(&words);
    with_list(bytes, 7, |list| {
        for (i, s) in (0..).zip(list.struct_elements()) {
            let copy = |src: &StructReader<'_>| {
                let mut m = Message::new(SingleSegmentArena::new());
                m.set_root(src).unwrap();
                let mut out = Vec::new();
                m.append_to(&mut out);
                out
            };
            let (a, b) = (copy(&s), copy(&list.get_struct(i)));
            assert_eq!(a, b, "element {i}");
            let w = aligned(&a);
            let r = MessageReader::from_bytes(
                capnarena::Word::slice_as_bytes(&w),
                ReaderOptions::default(),
            )
            .unwrap();
            let root = r.root().unwrap();
            for p in 0..3usize {
                let want = if (i as usize + p) % 2 == 0 {
                    format!("e{i}.{p}")
                } else {
                    String::new()
                };
                assert_eq!(
                    root.pointer(p).get_text().unwrap(),
                    want,
                    "element {i} pointer {p}"
                );
            }
        }
    });
}
