//! Layout of what the builders write, checked word by word.

use crate::arena::FixedArena;
use crate::arena::{Arena, SegmentId};
use crate::error::Result;
use crate::layout::pointer::{ElementSize, StructSize};
use crate::message::Message;
use crate::word::Word;

/// An arena that counts the calls to `segment` and `segment_mut` (a
/// lookup of a segment's words) in a counter the test keeps outside it:
/// asking the builder for its arena would forget the kept data section.
struct LookupCounting<A> {
    arena: A,
    lookups: ::alloc::rc::Rc<core::cell::Cell<u32>>,
}

impl<A: Arena> LookupCounting<A> {
    /// `arena` counted, and the counter.
    fn new(arena: A) -> (Self, ::alloc::rc::Rc<core::cell::Cell<u32>>) {
        let lookups = ::alloc::rc::Rc::new(core::cell::Cell::new(0));
        (
            LookupCounting {
                arena,
                lookups: lookups.clone(),
            },
            lookups,
        )
    }
}

impl<A: Arena> Arena for LookupCounting<A> {
    fn segment_count(&self) -> u32 {
        self.arena.segment_count()
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        self.lookups.set(self.lookups.get() + 1);
        self.arena.segment(id)
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        self.lookups.set(self.lookups.get() + 1);
        self.arena.segment_mut(id)
    }
    fn allocate(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> core::result::Result<(SegmentId, u32), crate::arena::AllocError> {
        self.arena.allocate(len, hint)
    }
    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        self.arena.allocate_in(len, id)
    }
    fn room(&self, id: SegmentId) -> Option<u32> {
        self.arena.room(id)
    }
    fn reset(&mut self) {
        self.arena.reset()
    }
}

fn words(msg: &Message<impl Arena>, seg: u32) -> ::alloc::vec::Vec<u64> {
    msg.segment(seg)
        .unwrap()
        .words()
        .iter()
        .map(|w| w.to_u64())
        .collect()
}

/// Field indices from a (wrong) schema as large as `usize` allows read
/// as 0 in builders and readers, and a set past the section is the
/// documented panic, not an arithmetic overflow.
#[test]
fn huge_field_indices_read_zero_without_overflow() {
    let mut buf = [Word::ZERO; 8];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(1, 0)).unwrap();
    root.set::<u64>(0, u64::MAX);
    assert_eq!(root.get::<u64>(usize::MAX / 8), 0);
    assert_eq!(root.get::<u8>(usize::MAX), 0);
    assert_eq!(root.get::<u8>(7), 0xFF);
    assert!(!root.get_bool(usize::MAX));
    let set_past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        root.reborrow().set::<u64>(usize::MAX / 8, 1);
    }));
    let message = set_past.unwrap_err();
    let text = message.downcast_ref::<::alloc::string::String>().unwrap();
    assert!(text.contains("past the data section of 1 words"), "{text}");
    let reader = msg.reader();
    let root = reader.root().unwrap();
    assert_eq!(root.get::<u64>(usize::MAX / 8), 0);
    assert_eq!(root.get::<u8>(usize::MAX), 0);
    assert_eq!(root.get::<u32>(1), u32::MAX);
    assert_eq!(root.get::<u32>(2), 0);
    assert!(!root.get_bool(usize::MAX));
}

// Expected words are spelled from the encoding spec, field by field.
#[test]
fn struct_with_text_is_laid_out_in_preorder() {
    let mut buf = [Word::ZERO; 16];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u32>(0, 0x1234_5678);
    root.set_text(0, "hi").unwrap();
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0001_0000_0000, // root: struct, offset 0, 1 data word, 1 pointer
            0x0000_0000_1234_5678, // data word
            0x0000_001a_0000_0001, // list, offset 0, bytes (2), 3 elements
            0x0000_0000_0000_6968, // "hi\0"
        ]
    );
}

#[test]
fn empty_struct_pointer_is_not_null() {
    let mut buf = [Word::ZERO; 4];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    msg.init_root_struct(StructSize::new(0, 0)).unwrap();
    // offset -1, no sections: 0xffff_fffc
    assert_eq!(words(&msg, 0), [0x0000_0000_ffff_fffc]);
}

#[test]
fn struct_list_has_a_tag_word() {
    let mut buf = [Word::ZERO; 16];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let mut list = root.init_struct_list(0, 2, StructSize::new(1, 0)).unwrap();
    list.get_struct(1).set::<u64>(0, 7);
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 pointer
            0x0000_0017_0000_0001, // list, offset 0, inline composite (7), 2 words
            0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 pointers
            0,                     // element 0
            7,                     // element 1
        ]
    );
}

#[test]
fn bit_list_packs_bits_from_the_low_end() {
    let mut buf = [Word::ZERO; 8];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let mut bits = root.init_list(0, ElementSize::Bit, 10).unwrap();
    bits.set_bool(0, true);
    bits.set_bool(9, true);
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root
            0x0000_0051_0000_0001, // list, offset 0, bits (1), 10 elements
            0x0000_0000_0000_0201, // bits 0 and 9
        ]
    );
}

/// An object that does not fit in its pointer's segment goes, with its
/// landing pad in front of it, to another segment in one allocation
/// (the reference's layout), when the arena reports its room.
#[test]
fn object_in_another_segment_gets_a_single_far_pointer() {
    use crate::arena::{GrowthPolicy, MultiSegmentArena};
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(2) // root pointer, root struct
        .with_policy(GrowthPolicy::FixedSize(8));
    let mut msg = Message::new(arena);
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let mut child = root.init_struct(0, StructSize::new(1, 0)).unwrap();
    child.set::<u64>(0, 0xabcd);
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: 0 data, 1 pointer
            0x0000_0001_0000_0002, // far, single, landing pad at word 0 of segment 1
        ]
    );
    assert_eq!(
        words(&msg, 1),
        [
            0x0000_0001_0000_0000, // landing pad: struct, offset 0, 1 data word
            0xabcd,                // the child's data word
        ]
    );
    let reader = msg.reader();
    assert_eq!(
        reader.root().unwrap().get_struct(0).unwrap().get::<u64>(0),
        0xabcd
    );
}

/// An arena that does not report room (`Arena::room`'s default) gets
/// the object alone, then a landing pad allocated after it.
#[test]
fn without_room_the_landing_pad_follows_the_object() {
    use crate::arena::{AllocError, GrowthPolicy, MultiSegmentArena};
    struct NoRoom(MultiSegmentArena);
    impl Arena for NoRoom {
        fn segment_count(&self) -> u32 {
            self.0.segment_count()
        }
        fn segment(&self, id: SegmentId) -> &[Word] {
            self.0.segment(id)
        }
        fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
            self.0.segment_mut(id)
        }
        fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            self.0.allocate(len, hint)
        }
        fn reset(&mut self) {
            self.0.reset()
        }
    }
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(2)
        .with_policy(GrowthPolicy::FixedSize(8));
    let mut msg = Message::new(NoRoom(arena));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let mut child = root.init_struct(0, StructSize::new(1, 0)).unwrap();
    child.set::<u64>(0, 0xabcd);
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: 0 data, 1 pointer
            0x0000_0001_0000_000a, // far, single, landing pad at word 1 of segment 1
        ]
    );
    assert_eq!(
        words(&msg, 1),
        [
            0xabcd,                // the child's data word
            0x0000_0001_ffff_fff8, // landing pad: struct, offset -2, 1 data word
        ]
    );
}

/// Objects that do not fit beside their pointer go, each with its
/// landing pad, to the newest segment (the reference's layout: a
/// one-word far pointer, the pad right before the object), and on to a
/// new segment when that one is full.
#[test]
fn overflowing_objects_fill_the_newest_segment_in_order() {
    use crate::arena::{GrowthPolicy, MultiSegmentArena};
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(7)
        .with_policy(GrowthPolicy::FixedSize(6));
    let mut msg = Message::new(arena);
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    // Segment 0: reserved word, root pointer, root, the list: tag + 4
    // one-pointer elements (8 words in all).
    let mut list = root.init_struct_list(0, 4, StructSize::new(0, 1)).unwrap();
    for i in 0..4u32 {
        let mut e = list.get_struct(i);
        e.init_struct(0, StructSize::new(1, 0))
            .unwrap()
            .set::<u64>(0, 0x10 + u64::from(i));
    }
    assert_eq!(msg.segment_count(), 3);
    let far = |pad: u64, seg: u64| (seg << 32) | (pad << 3) | 2;
    let seg0 = words(&msg, 0);
    assert_eq!(
        &seg0[3..],
        [far(0, 1), far(2, 1), far(4, 1), far(0, 2)],
        "element pointers"
    );
    let pad = 0x0000_0001_0000_0000; // struct, offset 0, 1 data word
    assert_eq!(words(&msg, 1), [pad, 0x10, pad, 0x11, pad, 0x12]);
    assert_eq!(words(&msg, 2), [pad, 0x13]);
}

/// The builder of a struct behind a far pointer starts with its data
/// section kept: its field writes make no call into the arena (they
/// looked the struct up again before, once per far struct).
#[test]
fn a_far_struct_is_written_without_calling_the_arena() {
    use crate::arena::{GrowthPolicy, MultiSegmentArena};
    // Segments of 3 words: the root behind a far pointer in segment
    // 1, each child (2 words and its pad) in a segment of its own.
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(2)
        .with_policy(GrowthPolicy::FixedSize(3));
    // Counted outside the arena: asking the builder for its arena would
    // forget the kept data section.
    let (counting, lookups) = LookupCounting::new(arena);
    let mut msg = Message::new(counting);
    let mut root = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
    for i in 0..2 {
        let mut child = root.init_struct(i, StructSize::new(2, 0)).unwrap();
        let before = lookups.get();
        child.set::<u64>(0, 0xabcd);
        child.set::<u32>(2, 7);
        child.set_bool(127, true);
        assert_eq!(lookups.get(), before, "child {i}");
    }
    assert_eq!(msg.segment_count(), 4);
    let reader = msg.reader();
    let child = reader.root().unwrap().get_struct(1).unwrap();
    assert_eq!(child.get::<u64>(0), 0xabcd);
    assert_eq!(child.get::<u32>(2), 7);
    assert!(child.get_bool(127));
}

/// A far pointer is written before the words of its object's segment are
/// checked (so that the object's words, looked up last, stay kept): when
/// the arena's `segment` then turns out not to hold the allocation, the
/// allocation is the arena-contract error and the pointer slot holds its
/// old word again, not a far pointer to words nobody can read.
#[test]
fn a_far_allocation_outside_its_segment_leaves_the_slot_as_it_was() {
    use crate::arena::{AllocError, MultiSegmentArena};
    use crate::error::Error;
    /// Reads of any segment but 0 report it empty.
    struct ShortReads(MultiSegmentArena);
    impl Arena for ShortReads {
        fn segment_count(&self) -> u32 {
            self.0.segment_count()
        }
        fn segment(&self, id: SegmentId) -> &[Word] {
            if id.0 == 0 { self.0.segment(id) } else { &[] }
        }
        fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
            self.0.segment_mut(id)
        }
        fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            self.0.allocate(len, hint)
        }
        fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
            self.0.allocate_in(len, id)
        }
        fn room(&self, id: SegmentId) -> Option<u32> {
            self.0.room(id)
        }
        fn reset(&mut self) {
            self.0.reset()
        }
    }
    // Segment 0: the reserved word, the root pointer and the root's one
    // pointer, full; the child goes to segment 1 behind a far pointer.
    let mut msg = Message::new(ShortReads(
        MultiSegmentArena::new().with_first_segment_words(2),
    ));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    root.pointer(0).set_capability(5);
    let err = root.init_struct(0, StructSize::new(1, 0)).err();
    assert!(
        matches!(err, Some(Error::ArenaContract { segment: 1, .. })),
        "{err:?}"
    );
    assert_eq!(
        msg.segment_count(),
        2,
        "the child was allocated in segment 1"
    );
    let capability = crate::layout::pointer::encode_capability(5);
    assert_eq!(words(&msg, 0)[1], capability, "the slot as it was");
}

/// A fixed arena over dirty memory (every word all ones): `set_text`'s
/// words are handed out without zeroing, so the text's padding and NUL
/// must be written by the setter. A text that ends exactly at the arena's
/// last word fits; one word less is an allocation error naming the
/// numbers, with the slot left null.
#[test]
fn text_at_the_end_of_a_fixed_arena_over_dirty_memory() {
    // Reserved word, root pointer, the root's one pointer, "1234567\0".
    let mut buf = [Word::from_u64(u64::MAX); 4];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    root.set_text(0, "1234567").unwrap();
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: 0 data, 1 pointer
            0x0000_0042_0000_0001, // list, offset 0, bytes, 8 elements
            u64::from_le_bytes(*b"1234567\0"),
        ]
    );
    let mut buf = [Word::from_u64(u64::MAX); 4];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let err = root.set_text(0, "12345678").err();
    assert!(
        matches!(
            err,
            Some(crate::Error::Alloc(crate::arena::AllocError {
                requested: 2,
                available: 1
            }))
        ),
        "{err:?}"
    );
    assert!(!root.has_pointer(0), "the slot is still null");
}

/// Empty text is one word holding the NUL (zeroed over dirty memory);
/// empty data takes no words and points at the segment's end.
#[test]
fn empty_text_and_data_over_dirty_memory() {
    let mut buf = [Word::from_u64(u64::MAX); 8];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
    root.set_text(0, "").unwrap();
    root.set_data(1, b"").unwrap();
    assert_eq!(
        words(&msg, 0),
        [
            0x0002_0000_0000_0000, // root: 0 data, 2 pointers
            0x0000_000a_0000_0005, // list, offset 1, bytes, 1 element
            0x0000_0002_0000_0005, // list, offset 1 (the end), bytes, 0 elements
            0,                     // "\0"
        ]
    );
    let reader = msg.reader();
    let r = reader.root().unwrap();
    assert_eq!(r.get_text(0).unwrap(), "");
    assert_eq!(r.get_data(1).unwrap(), b"");
}

/// A text that does not fit in its pointer's full segment goes to the
/// next one with its landing pad in front of it (single far pointer), its
/// NUL and padding written there.
#[test]
fn text_behind_a_far_pointer_in_the_next_segment() {
    use crate::arena::{GrowthPolicy, MultiSegmentArena};
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(2) // root pointer, root struct
        .with_policy(GrowthPolicy::FixedSize(8));
    let mut msg = Message::new(arena);
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    root.set_text(0, "123456789").unwrap();
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: 0 data, 1 pointer
            0x0000_0001_0000_0002, // far, single, landing pad at word 0 of segment 1
        ]
    );
    assert_eq!(
        words(&msg, 1),
        [
            0x0000_0052_0000_0001, // landing pad: list, offset 0, bytes, 10 elements
            u64::from_le_bytes(*b"12345678"),
            u64::from(b'9'), // "9\0" and zero padding
        ]
    );
    let reader = msg.reader();
    assert_eq!(reader.root().unwrap().get_text(0).unwrap(), "123456789");
}

/// A list of texts made in one allocation over dirty memory: pointers,
/// then each text with its NUL and zero padding, word for word.
#[test]
fn text_list_in_one_allocation_over_dirty_memory() {
    let mut buf = [Word::from_u64(u64::MAX); 16];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    root.pointer(0)
        .set_text_list(["", "ab", "12345678"])
        .unwrap();
    assert_eq!(
        words(&msg, 0),
        [
            0x0001_0000_0000_0000, // root: 0 data, 1 pointer
            0x0000_001e_0000_0001, // list, offset 0, pointers, 3 elements
            0x0000_000a_0000_0009, // list, offset 2, bytes, 1 element
            0x0000_001a_0000_0009, // list, offset 2, bytes, 3 elements
            0x0000_004a_0000_0009, // list, offset 2, bytes, 9 elements
            0,                     // "\0"
            0x6261,                // "ab\0"
            u64::from_le_bytes(*b"12345678"),
            0, // "\0" and padding
        ]
    );
}

/// Items whose clone yields other items than the first pass counted (a
/// `Clone` that does not clone) are an error, not a panic, and leave the
/// list's words zero rather than as the arena handed them out.
#[test]
fn text_list_items_that_change_between_passes_are_an_error() {
    /// Two items, long ones; its clones yield short ones.
    struct Fickle {
        left: usize,
        long: bool,
    }
    impl Clone for Fickle {
        fn clone(&self) -> Self {
            Fickle {
                left: self.left,
                long: false,
            }
        }
    }
    impl Iterator for Fickle {
        type Item = &'static str;
        fn next(&mut self) -> Option<&'static str> {
            self.left = self.left.checked_sub(1)?;
            Some(if self.long { "a longer text" } else { "a" })
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            (self.left, Some(self.left))
        }
    }
    impl ExactSizeIterator for Fickle {}
    let mut buf = [Word::from_u64(u64::MAX); 16];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let err = root
        .pointer(0)
        .set_text_list(Fickle {
            left: 2,
            long: true,
        })
        .err();
    assert!(
        matches!(err, Some(crate::Error::ItemsChanged { items: 2, words: 4 })),
        "{err:?}"
    );
    // The list (2 pointers, 2 one-word texts) is there, all zero.
    assert_eq!(
        words(&msg, 0)[2..],
        [0, 0, 0, 0],
        "the list's words are zero"
    );
}

/// `copy_bytes` (fixed-size moves for short copies) copies exactly the
/// source's bytes for every length up to past its largest special case,
/// and leaves the bytes after them alone.
#[test]
fn copy_bytes_copies_every_length_exactly() {
    let src: ::alloc::vec::Vec<u8> = (1..=40).collect();
    for n in 0..=40 {
        let mut dst = [0xEEu8; 48];
        super::copy_bytes(&mut dst[..n], &src[..n]);
        assert_eq!(&dst[..n], &src[..n], "{n} bytes");
        assert!(
            dst[n..].iter().all(|&b| b == 0xEE),
            "{n} bytes: past the end"
        );
    }
}

/// `write_blob` leaves a blob's words (dirty, as `Fill::Overwritten`
/// hands them out) holding exactly its bytes and then zeros, for every
/// length up to past its special cases, with and without a terminator.
#[test]
fn write_blob_leaves_the_bytes_then_zeros() {
    let src: ::alloc::vec::Vec<u8> = (1..=40).collect();
    for n in 0..=40 {
        for terminator in [0usize, 1] {
            let len = (n + terminator).div_ceil(8) * 8;
            let mut dst = [0xEEu8; 48];
            super::write_blob(&mut dst[..len], &src[..n]);
            assert_eq!(&dst[..n], &src[..n], "{n} bytes, terminator {terminator}");
            assert!(
                dst[n..len].iter().all(|&b| b == 0),
                "{n} bytes, terminator {terminator}: zeros to the last word"
            );
            assert!(
                dst[len..].iter().all(|&b| b == 0xEE),
                "{n} bytes, terminator {terminator}: nothing past the words"
            );
        }
    }
}

/// An arena's answer to `allocate_in_mut` is checked as every answer is:
/// words before segment 0's reserved word, or past the words it returned
/// with them, are the arena-contract error with the numbers, not a panic
/// or a write outside the object; the slot keeps its old word.
#[test]
fn near_allocations_outside_the_returned_words_are_errors() {
    use crate::arena::{AllocError, SingleSegmentArena};
    use crate::error::Error;
    /// How the near allocation after the first two (the segment table's
    /// and root pointer's, and the root's) lies.
    #[derive(Clone, Copy)]
    enum Lie {
        /// At raw offset 0: over the reserved word.
        OverReservedWord,
        /// The words returned end one word before the allocation's end.
        ShortWords,
        /// Truthful.
        None,
    }
    struct Lying {
        arena: SingleSegmentArena,
        honest: u32,
        lie: Lie,
    }
    impl Arena for Lying {
        fn segment_count(&self) -> u32 {
            self.arena.segment_count()
        }
        fn segment(&self, id: SegmentId) -> &[Word] {
            self.arena.segment(id)
        }
        fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
            self.arena.segment_mut(id)
        }
        fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            self.arena.allocate(len, hint)
        }
        fn allocate_in_mut(
            &mut self,
            len: u32,
            id: SegmentId,
            zeroed: bool,
        ) -> Option<(u32, &mut [Word])> {
            let lie = if self.honest == 0 {
                self.lie
            } else {
                self.honest -= 1;
                Lie::None
            };
            let (raw, words) = self.arena.allocate_in_mut(len, id, zeroed)?;
            match lie {
                Lie::OverReservedWord => Some((0, words)),
                Lie::ShortWords => {
                    let n = words.len() - 1;
                    Some((raw, &mut words[..n]))
                }
                Lie::None => Some((raw, words)),
            }
        }
        fn reset(&mut self) {
            self.arena.reset()
        }
    }
    for (lie, offset) in [(Lie::OverReservedWord, 0), (Lie::ShortWords, 3)] {
        let mut msg = Message::new(Lying {
            arena: SingleSegmentArena::new(),
            honest: 1,
            lie,
        });
        let mut root = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
        root.pointer(0).set_capability(7);
        // A text of 9 bytes and its NUL: two words, after the root's
        // two pointers (raw offsets 2 and 3, builder offsets 1 and 2).
        let err = root.pointer(0).set_text("123456789").err();
        let want = match lie {
            Lie::OverReservedWord => "allocation overlaps the reserved first word of segment 0",
            _ => "allocated words lie outside the segment the arena reports",
        };
        assert!(
            matches!(
                err,
                Some(Error::ArenaContract { what, segment: 0, offset: o, len: 2 })
                    if what == want && o == offset
            ),
            "{err:?}"
        );
        // A struct's allocation is checked the same way.
        let err = root.init_struct(1, StructSize::new(1, 0)).err();
        assert!(
            matches!(err, Some(Error::ArenaContract { segment: 0, .. })),
            "{err:?}"
        );
        let reader = msg.reader();
        let root = reader.root().unwrap();
        assert_eq!(
            root.pointer(0).get_capability().ok(),
            Some(7),
            "the slot kept its word"
        );
        assert!(!root.has_pointer(1));
    }
}

/// A data list whose items outnumber what its iterator's `len` says
/// (empty ones, which add no words to what the sizing pass counted) is an
/// error with its words zeroed, not a list that drops the extra items;
/// a list of no items is an empty list of pointers.
#[test]
fn data_list_items_past_the_stated_count_are_an_error() {
    /// Yields `left` empty items, and says there is one fewer.
    #[derive(Clone)]
    struct Undercounted {
        left: usize,
    }
    impl Iterator for Undercounted {
        type Item = &'static [u8];
        fn next(&mut self) -> Option<&'static [u8]> {
            self.left = self.left.checked_sub(1)?;
            Some(&[])
        }
        fn size_hint(&self) -> (usize, Option<usize>) {
            let n = self.left.saturating_sub(1);
            (n, Some(n))
        }
    }
    impl ExactSizeIterator for Undercounted {}
    let mut buf = [Word::from_u64(u64::MAX); 16];
    let mut msg = Message::new(FixedArena::new(&mut buf));
    let mut root = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
    let err = root
        .pointer(0)
        .set_data_list(Undercounted { left: 3 })
        .err();
    assert!(
        matches!(err, Some(crate::Error::ItemsChanged { items: 2, words: 2 })),
        "{err:?}"
    );
    root.pointer(1).set_data_list([]).unwrap();
    assert_eq!(
        words(&msg, 0)[2..],
        [
            0x0000_0006_0000_0009, // list, offset 2 (past the words), pointers, 0 elements
            0,                     // the failed list's two pointers, zeroed
            0,
        ]
    );
}

/// `clear_pointer` nulls the pointer (a set one, or one already null) and
/// keeps the data section from the same lookup: the field writes after it
/// make no call into the arena, and land; a struct with no data words, and
/// a pointer past the section (the documented panic), too.
#[test]
fn clear_pointer_keeps_the_data_section() {
    use crate::arena::SingleSegmentArena;
    let (counting, lookups) = LookupCounting::new(SingleSegmentArena::new());
    let mut msg = Message::new(counting);
    let mut root = msg.init_root_struct(StructSize::new(2, 2)).unwrap();
    root.set_text(1, "set").unwrap();
    root.clear_pointer(1);
    root.clear_pointer(0);
    let before = lookups.get();
    root.set::<u64>(0, 0x1234);
    root.set::<u32>(2, 9);
    root.set_bool(127, true);
    assert_eq!(lookups.get(), before, "no lookup after clear_pointer");
    let mut empty = root.init_struct(0, StructSize::new(0, 1)).unwrap();
    empty.set_text(0, "x").unwrap();
    empty.clear_pointer(0);
    let past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        root.reborrow().clear_pointer(2);
    }));
    assert!(past.is_err(), "pointer 2 of 2 panics");
    let reader = msg.reader();
    let root = reader.root().unwrap();
    assert_eq!(root.get::<u64>(0), 0x1234);
    assert_eq!(root.get::<u32>(2), 9);
    assert!(root.get_bool(127));
    assert!(!root.has_pointer(1), "the text's pointer is null");
    let empty = root.get_struct(0).unwrap();
    assert!(!empty.has_pointer(0));
}

/// An arena whose `allocate_far_mut` answers through `answer` (given the
/// arena, the length and the segment to avoid), every other call counted
/// in a counter the test keeps outside it.
struct FarAnswering<F> {
    arena: crate::arena::MultiSegmentArena,
    answer: F,
    calls: ::alloc::rc::Rc<core::cell::Cell<u32>>,
}

impl<F> FarAnswering<F> {
    fn count(&self) {
        self.calls.set(self.calls.get() + 1);
    }
}

impl<F> Arena for FarAnswering<F>
where
    F: FnMut(
        &mut crate::arena::MultiSegmentArena,
        u32,
        SegmentId,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])>,
{
    fn segment_count(&self) -> u32 {
        self.count();
        self.arena.segment_count()
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        self.count();
        self.arena.segment(id)
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        self.count();
        self.arena.segment_mut(id)
    }
    fn allocate(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> core::result::Result<(SegmentId, u32), crate::arena::AllocError> {
        self.count();
        self.arena.allocate(len, hint)
    }
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        self.arena.allocate_in_mut(len, id, zeroed)
    }
    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        _zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        (self.answer)(&mut self.arena, len, from)
    }
    fn room(&self, id: SegmentId) -> Option<u32> {
        self.count();
        self.arena.room(id)
    }
    fn reset(&mut self) {
        self.arena.reset()
    }
}

/// A message over a [`FarAnswering`] arena whose segment 0 holds the
/// reserved word, the root pointer and a root of one pointer (full), then
/// segments of 8 words; and the counter of its other calls.
fn far_answering<F>(
    answer: F,
) -> (
    Message<FarAnswering<F>>,
    ::alloc::rc::Rc<core::cell::Cell<u32>>,
)
where
    F: FnMut(
        &mut crate::arena::MultiSegmentArena,
        u32,
        SegmentId,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])>,
{
    use crate::arena::{GrowthPolicy, MultiSegmentArena};
    let calls = ::alloc::rc::Rc::new(core::cell::Cell::new(0));
    let arena = FarAnswering {
        arena: MultiSegmentArena::new()
            .with_first_segment_words(2)
            .with_policy(GrowthPolicy::FixedSize(8)),
        answer,
        calls: calls.clone(),
    };
    (Message::new(arena), calls)
}

/// An object that does not fit beside its pointer is placed with one
/// call, `allocate_far_mut`, after `allocate_in_mut` said no: no lookup,
/// no `room`, no `allocate`. The layout is the reference's (the far
/// pointer to a landing pad right before the object), texts and lists
/// included, and the struct's builder starts with its data section kept.
#[test]
fn a_far_object_is_placed_with_one_arena_call() {
    let (mut msg, calls) = far_answering(|a: &mut crate::arena::MultiSegmentArena, len, from| {
        a.allocate_far_mut(len, from, true)
    });
    let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let before = calls.get();
    let mut child = root.init_struct(0, StructSize::new(1, 3)).unwrap();
    child.set::<u64>(0, 0xabcd);
    assert_eq!(calls.get(), before, "the child, placed and written");
    // The text fits in segment 1 after the child (6 of its 8 words); the
    // list of 3 words does not, and goes to segment 2.
    child.set_text(0, "hi").unwrap();
    let mut list = child.init_list(1, ElementSize::FourBytes, 6).unwrap();
    assert_eq!(calls.get(), before, "the text and the list placed");
    // A list builder looks its segment up for each element it sets.
    list.set::<u32>(3, 7);
    let far = |pad: u64, seg: u64| (seg << 32) | (pad << 3) | 2;
    assert_eq!(words(&msg, 0), [0x0001_0000_0000_0000, far(0, 1)]);
    assert_eq!(
        words(&msg, 1),
        [
            0x0003_0001_0000_0000, // pad: struct, offset 0, 1 data word, 3 pointers
            0xabcd,
            0x0000_001a_0000_0009, // the text: offset 2 (after the pointers), 3 bytes
            far(0, 2),             // the list behind a far pointer
            0,
            0x0000_0000_0000_6968, // "hi\0"
        ]
    );
    assert_eq!(
        words(&msg, 2),
        [
            0x0000_0034_0000_0001, // pad: list, offset 0, four bytes, 6 elements
            0,
            0x0000_0007_0000_0000, // element 3: bytes 12..16
            0,
        ]
    );
    let reader = msg.reader();
    let child = reader.root().unwrap().get_struct(0).unwrap();
    assert_eq!(child.get::<u64>(0), 0xabcd);
    assert_eq!(child.get_text(0).unwrap(), "hi");
    assert_eq!(
        child
            .get_list(1, ElementSize::FourBytes)
            .unwrap()
            .get::<u32>(3),
        7
    );
}

/// `allocate_far_mut` answers that the message cannot use (the segment it
/// was asked to avoid, words outside the segment returned, an offset past
/// every encodable one) are arena-contract errors, with nothing written:
/// the pointer slot keeps its old word.
#[test]
fn bad_far_answers_are_errors_with_the_slot_as_it_was() {
    use crate::error::Error;
    /// The segment and offset answered, from the segment to avoid, the
    /// honest answer and the length of the words returned.
    type Answer = fn(SegmentId, SegmentId, u32, usize) -> (SegmentId, u32);
    let answers: [(&str, Answer); 3] = [
        ("the pointer's own segment", |from, _, o, _| (from, o)),
        ("past the words returned", |_, s, _, len| (s, len as u32)),
        ("past the encodable offsets", |_, s, _, _| (s, u32::MAX - 1)),
    ];
    for (what, answer) in answers {
        let (mut msg, _) =
            far_answering(move |a: &mut crate::arena::MultiSegmentArena, len, from| {
                a.allocate_far_mut(len, from, true)
                    .map(|(s, o, near, far)| {
                        let (s, o) = answer(from, s, o, far.len());
                        (s, o, near, far)
                    })
            });
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        root.pointer(0).set_capability(5);
        let err = root.init_struct(0, StructSize::new(1, 0)).err();
        assert!(
            matches!(err, Some(Error::ArenaContract { .. })),
            "{what}: {err:?}"
        );
        let capability = crate::layout::pointer::encode_capability(5);
        assert_eq!(words(&msg, 0)[1], capability, "{what}: the slot as it was");
        let reader = msg.reader();
        assert!(reader.root().unwrap().get_struct(0).is_err(), "{what}");
    }
}
