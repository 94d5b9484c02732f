//! What a capnproto-rust user porting generated-code tests reaches for
//! (issue 23): reader views of struct and list builders, getters on text
//! and data list builders, `total_size`, a typed owned builder, the
//! defaults of a message with no root, and typed roots in code generic
//! over `Owned` markers.
//!
//! Expected sizes come from the reference's canonical vectors
//! (`tests/vectors/NAME.canonical`, written by `capnp convert`), never from
//! the code under test.

mod common;

#[allow(dead_code, rustdoc::broken_intra_doc_links)]
#[rustfmt::skip]
#[path = "generated/all_types_capnp.rs"]
mod all_types_capnp;

use all_types_capnp::{Color, all_types, labeled};
use capnarena::typed::{StructOwned, TypedBuilder};
use capnarena::{
    Arena, Message, MessageReader, MessageSize, MultiSegmentArena, ReaderOptions, Result,
    SingleSegmentArena, StructSize, Word,
};
use common::{OneWordArena, vector};

/// A struct builder's `reborrow_as_reader` reads what was set so far and
/// leaves the builder usable; `into_reader` reads it after the builder is
/// given up; on an arena where every object lies in a segment of its own
/// (far pointers everywhere) as on a single segment.
#[test]
fn struct_builder_reader_views() -> Result<()> {
    fn check<A: Arena>(arena: A) -> Result<()> {
        let mut msg = Message::new(arena);
        let mut root = msg.init_root::<all_types::Builder<_>>()?;
        root.set_int32_field(-5);
        root.set_text_field("first")?;
        {
            let view = root.reborrow_as_reader();
            let r = view.get();
            assert_eq!((r.get_int32_field(), r.get_text_field()?), (-5, "first"));
        }
        // The builder is free again: later writes show in a later view.
        root.set_text_field("second")?;
        root.init_struct_field()?.set_uint8_field(9);
        assert_eq!(root.reborrow_as_reader().get().get_text_field()?, "second");
        let mut child = root.get_struct_field()?;
        child.set_bool_field(true);
        let child = child.into_reader();
        let c = child.get();
        assert_eq!((c.get_uint8_field(), c.get_bool_field()), (9, true));
        let root = msg.get_root::<all_types::Builder<_>>()?.into_reader();
        assert_eq!(root.get().get_struct_field()?.get_uint8_field(), 9);
        Ok(())
    }
    check(SingleSegmentArena::new())?;
    check(MultiSegmentArena::new())?;
    check(OneWordArena::default())
}

/// Every kind of typed list builder has `reborrow_as_reader`,
/// `into_reader` and `with_reader`, reading the elements set so far.
#[test]
fn list_builder_reader_views() -> Result<()> {
    let mut msg = Message::new(OneWordArena::default());
    let mut root = msg.init_root::<all_types::Builder<_>>()?;
    let mut ints = root.init_int32_list(3)?;
    ints.set(0, 7);
    ints.set(2, -1);
    assert_eq!(ints.reborrow_as_reader().get().to_vec(), [7, 0, -1]);
    ints.set(1, 5);
    assert_eq!(ints.with_reader(|l| l.get(1)), 5);
    let mut texts = root.init_text_list(2)?;
    texts.set(1, "b")?;
    assert_eq!(texts.reborrow_as_reader().get().get(1)?, "b");
    let mut colors = root.init_enum_list(1)?;
    colors.set(0, Color::Blue);
    assert_eq!(colors.into_reader().get().get(0), Ok(Color::Blue));
    let mut labels = root.init_struct_list(2)?;
    labels.get(1).set_label("two")?;
    let labels = labels.into_reader();
    let l = labels.get();
    assert_eq!((l.len(), l.get(1).get_label()?), (2, "two"));
    Ok(())
}

/// Text and data list builders read back their elements: set ones as set,
/// unset ones as empty.
#[test]
fn text_and_data_list_builder_getters() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<all_types::Builder<_>>()?;
    let mut texts = root.init_text_list(3)?;
    texts.set(0, "zero")?;
    texts.init(2, 3)?.copy_from_slice(b"two");
    assert_eq!(texts.get(0)?, "zero");
    assert_eq!(texts.get(1)?, "");
    assert_eq!(texts.get(2)?, "two");
    texts.get_bytes_mut(0)?[0] = b'Z';
    assert_eq!(texts.get(0)?, "Zero");
    // A text that is not UTF-8 is an error with the position, not a panic.
    texts.init(1, 2)?.copy_from_slice(&[b'a', 0xff]);
    assert!(matches!(
        texts.get(1),
        Err(capnarena::Error::Utf8 { valid_up_to: 1 })
    ));
    let mut data = root.init_data_list(2)?;
    data.set(1, &[1, 2, 3])?;
    assert_eq!(data.get(0)?, &[] as &[u8]);
    data.get(1)?[2] = 9;
    assert_eq!(data.get(1)?, &[1, 2, 9]);
    Ok(())
}

/// `total_size` of each reference vector's canonical form is the
/// canonical message's words less the root pointer (a canonical message
/// is its root's objects laid out end to end, as the reference wrote it),
/// with no capabilities; and the stream-framed vectors, written with 1-,
/// 3- and 16-word segments (far and double-far pointers), give the same
/// size as their one-segment form (landing pads are not counted).
#[test]
fn total_size_matches_the_reference_vectors() -> Result<()> {
    for name in ["empty", "scalars", "lists", "full"] {
        let canonical = capnarena::words_from_bytes(&vector(&format!("{name}.canonical")))?;
        let segments: [&[Word]; 1] = [&canonical];
        let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
        let size = reader.get_root::<all_types::Reader>()?.total_size()?;
        let expected = MessageSize {
            word_count: canonical.len() as u64 - 1,
            cap_count: 0,
        };
        assert_eq!(size, expected, "{name}.canonical");

        let bin = |suffix: &str| -> Result<MessageSize> {
            let words = capnarena::words_from_bytes(&vector(&format!("{name}.{suffix}")))?;
            let options = ReaderOptions {
                segment_limit: 4096,
                ..ReaderOptions::default()
            };
            MessageReader::from_words(&words, options)?
                .root()?
                .total_size()
        };
        let one = bin("bin")?;
        assert!(one.word_count >= expected.word_count, "{name}.bin: {one:?}");
        for suffix in ["seg1.bin", "seg3.bin", "seg16.bin"] {
            assert_eq!(bin(suffix)?, one, "{name}.{suffix}");
        }
    }
    Ok(())
}

/// `total_size` counts capability pointers, and the words of lists of
/// every encoding: a struct of 0 data words and 3 pointers (3 words)
/// holding a capability, a list of 3 `UInt16` (1 word) and a list of 2
/// structs of 1 data word (tag + 2 words).
#[test]
fn total_size_counts_capabilities_and_lists() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(0, 3))?;
    root.pointer(0).set_capability(4);
    root.pointer(1)
        .init_list(capnarena::ElementSize::TwoBytes, 3)?;
    root.pointer(2).init_struct_list(2, StructSize::new(1, 0))?;
    let reader = msg.reader();
    assert_eq!(
        reader.root()?.total_size()?,
        MessageSize {
            word_count: 3 + 1 + 3,
            cap_count: 1
        }
    );
    Ok(())
}

/// A typed owned builder is built in one function and returned, read
/// there and framed; reading it before a root exists gives the defaults.
#[test]
fn typed_builder_returned_from_a_function() -> Result<()> {
    fn build(name: &str) -> Result<TypedBuilder<labeled::Owned, SingleSegmentArena>> {
        let mut msg = TypedBuilder::<labeled::Owned, _>::new(SingleSegmentArena::new());
        let mut root = msg.init_root()?;
        root.set_label(name)?;
        root.set_weight(2.5);
        Ok(msg)
    }
    let mut msg = build("kept")?;
    assert_eq!(msg.get(|r| r.get_weight())?, 2.5);
    msg.get_root()?.init_point()?.set_x(3);
    let framed = {
        let mut out = Vec::new();
        msg.message().append_to(&mut out);
        out
    };
    let words = capnarena::words_from_bytes(&framed)?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let r = reader.get_root::<labeled::Reader>()?;
    assert_eq!((r.get_label()?, r.get_point()?.get_x()), ("kept", 3));

    let fresh: TypedBuilder<all_types::Owned, SingleSegmentArena> = TypedBuilder::default();
    assert_eq!(
        fresh.get(|r| (r.get_int32_field(), r.has_text_field()))?,
        (0, false)
    );
    Ok(())
}

/// The root of a message with nothing built yet, or reset, reads as a
/// struct with every field at its default (as capnproto-rust's
/// `get_root_as_reader` on a new builder), on every arena.
#[test]
fn empty_message_root_reads_as_defaults() -> Result<()> {
    fn check<A: Arena>(mut msg: Message<A>) -> Result<()> {
        for _ in 0..2 {
            let reader = msg.reader();
            let root = reader.get_root::<all_types::Reader>()?;
            assert_eq!(root.get_uint64_field(), 0);
            assert_eq!(root.get_text_field()?, "");
            assert_eq!(root.get_int32_list()?.len(), 0);
            assert_eq!(root.total_size()?, MessageSize::default());
            msg.init_root::<all_types::Builder<_>>()?
                .set_uint64_field(1);
            msg.reset();
        }
        Ok(())
    }
    check(Message::new(SingleSegmentArena::new()))?;
    check(Message::new(MultiSegmentArena::new()))?;
    check(Message::new(OneWordArena::default()))
}

/// Code generic over a struct's `Owned` marker makes and reads typed roots
/// with `init_root`/`get_root` (the bounds of `StructOwned` imply theirs)
/// and with `init_root_as`/`get_root_as`.
#[test]
fn typed_roots_in_code_generic_over_owned() -> Result<()> {
    fn roundtrip<T: StructOwned, A: Arena>(
        msg: &mut Message<A>,
        fill: impl FnOnce(&mut T::Builder<'_, A>),
        check: impl Fn(T::Reader<'_>),
    ) -> Result<()> {
        {
            let mut root = msg.init_root::<T::Builder<'_, A>>()?;
            fill(&mut root);
        }
        let reader = msg.reader();
        check(reader.get_root::<T::Reader<'_>>()?);
        check(reader.get_root_as::<T>()?);
        msg.get_root_as::<T>()?;
        let reader = msg.reader();
        check(reader.get_root_as::<T>()?);
        let _fresh: T::Builder<'_, A> = msg.init_root_as::<T>()?;
        Ok(())
    }
    let mut msg = Message::new(SingleSegmentArena::new());
    roundtrip::<labeled::Owned, _>(
        &mut msg,
        |b| b.set_weight(0.5),
        |r| assert_eq!(r.get_weight(), 0.5),
    )
}

/// Reader views are `Send` and `Sync` whatever the arena (they hold the
/// segments' slices, not the arena): a view of a builder over an arena
/// that is not `Sync` (a `Cell` inside) is read from another thread.
#[test]
fn reader_views_are_send_and_sync() -> Result<()> {
    fn send_sync<T: Send + Sync>(_: &T) {}
    struct CellArena(SingleSegmentArena, std::cell::Cell<u32>);
    impl Arena for CellArena {
        fn segment_count(&self) -> u32 {
            self.1.set(self.1.get() + 1);
            self.0.segment_count()
        }
        fn segment(&self, id: capnarena::SegmentId) -> &[Word] {
            self.0.segment(id)
        }
        fn segment_mut(&mut self, id: capnarena::SegmentId) -> &mut [Word] {
            self.0.segment_mut(id)
        }
        fn allocate(
            &mut self,
            len: u32,
            hint: capnarena::SegmentId,
        ) -> core::result::Result<(capnarena::SegmentId, u32), capnarena::AllocError> {
            self.0.allocate(len, hint)
        }
        fn reset(&mut self) {
            self.0.reset()
        }
    }
    let mut msg = Message::new(CellArena(SingleSegmentArena::new(), Default::default()));
    let mut root = msg.init_root::<all_types::Builder<_>>()?;
    root.set_int16_field(-3);
    root.init_int32_list(2)?.set(1, 4);
    let view = root.into_reader();
    send_sync(&view);
    send_sync(view.untyped());
    let read = std::thread::scope(|s| {
        s.spawn(|| {
            let r = view.get();
            Ok::<_, capnarena::Error>((r.get_int16_field(), r.get_int32_list()?.get(1)))
        })
        .join()
    })
    .expect("reader thread");
    assert_eq!(read?, (-3, 4));
    Ok(())
}

/// Text builders take `&str` pieces: `push_str` appends after what was
/// pushed, refuses a piece past the text's length with the numbers (and
/// writes nothing of it), on fields and on text list elements; `get_x`
/// gives a full builder whose bytes can be overwritten.
#[test]
fn text_builders_push_str() -> Result<()> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root::<all_types::Builder<_>>()?;
    let mut t = root.init_text_field(8)?;
    t.push_str("ab")?;
    t.push_str("cdef")?;
    assert!(matches!(
        t.push_str("xyz"),
        Err(capnarena::Error::TextFull {
            len: 8,
            pos: 6,
            pushed: 3
        })
    ));
    t.push_str("gh")?;
    assert_eq!(t.as_str()?, "abcdefgh");
    let mut got = root.get_text_field()?;
    assert!(got.push_str("i").is_err());
    got[0] = b'A';
    let mut list = root.init_text_list(1)?;
    let mut e = list.init(0, 3)?;
    e.push_str("é")?; // two bytes
    e.push_str("!")?;
    let view = root.reborrow_as_reader();
    let r = view.get();
    assert_eq!(r.get_text_field()?, "Abcdefgh");
    assert_eq!(r.get_text_list()?.get(0)?, "é!");
    Ok(())
}
