//! Readers are thread-safe by construction: message readers, generated
//! readers, owned typed readers and the untyped layer under them are `Send`
//! and `Sync`, whatever arena a message under construction lives in, and
//! builders are `Send` when their arena is. The compile-time assertions
//! below fail to build if a field that is not `Sync` (such as a reference
//! to a non-`Sync` arena) creeps into a reader.

#[allow(dead_code, rustdoc::broken_intra_doc_links)]
#[rustfmt::skip]
#[path = "generated/all_types_capnp.rs"]
mod all_types_capnp;

use std::cell::Cell;
use std::sync::Arc;

use all_types_capnp::{all_types, labeled};
use capnarena::typed::TypedReader;
use capnarena::{
    AllocError, Arena, GrowthPolicy, ListReader, Message, MessageReader, MultiSegmentArena,
    ReaderOptions, SegmentId, SingleSegmentArena, StructReader, Word,
};

fn send_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

/// The types a reader hands out, checked at compile time.
#[test]
fn readers_are_send_and_sync() {
    send_sync::<MessageReader<'static>>();
    send_sync::<StructReader<'static>>();
    send_sync::<ListReader<'static>>();
    send_sync::<all_types::Reader<'static>>();
    send_sync::<TypedReader<all_types::Owned, Arc<[Word]>>>();
    send_sync::<TypedReader<all_types::Owned, Vec<Word>>>();
    #[cfg(feature = "tokio")]
    send_sync::<capnarena::serialize::codec::Frame>();
    send::<Message<SingleSegmentArena>>();
    send::<Message<MultiSegmentArena>>();
    send::<all_types::Builder<'static, SingleSegmentArena>>();
}

/// What the crate docs' *Threads* section states of messages: a message on
/// a built-in arena is `Send` and `Sync`, so a built message can sit in an
/// `Arc` and be read from several threads through `Message::reader`.
#[test]
fn messages_on_built_in_arenas_are_send_and_sync() {
    send_sync::<Message<SingleSegmentArena>>();
    send_sync::<Message<MultiSegmentArena>>();
    send_sync::<Message<capnarena::FixedArena<'static>>>();
    send_sync::<Message<&'static mut SingleSegmentArena>>();
}

/// An arena that is `Send` but not `Sync` (it counts lookups in a `Cell`),
/// like a third-party arena with interior bookkeeping.
#[derive(Default)]
struct CountingArena {
    inner: MultiSegmentArena,
    lookups: Cell<u64>,
}

impl Arena for CountingArena {
    fn segment_count(&self) -> u32 {
        self.inner.segment_count()
    }
    fn segment(&self, id: SegmentId) -> &[Word] {
        self.lookups.set(self.lookups.get() + 1);
        self.inner.segment(id)
    }
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        self.inner.segment_mut(id)
    }
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        self.inner.allocate(len, hint)
    }
    fn reset(&mut self) {
        self.inner.reset()
    }
}

fn fill(root: &mut all_types::Builder<'_, impl Arena>, n: u32) {
    root.set_int64_field(-(i64::from(n)));
    root.set_text_field("shared across threads").unwrap();
    let mut list = root.init_struct_list(n).unwrap();
    for i in 0..n {
        let mut e = list.get(i);
        e.set_label(&format!("entry {i}")).unwrap();
        e.set_weight(f64::from(i) / 2.0);
    }
}

fn check(root: all_types::Reader<'_>, n: u32) {
    assert_eq!(root.get_int64_field(), -(i64::from(n)));
    assert_eq!(root.get_text_field().unwrap(), "shared across threads");
    let list = root.get_struct_list().unwrap();
    assert_eq!(list.len(), n);
    for i in 0..n {
        let e: labeled::Reader<'_> = list.get(i);
        assert_eq!(e.get_label().unwrap(), format!("entry {i}"));
        assert_eq!(e.get_weight(), f64::from(i) / 2.0);
    }
}

/// A reader over a message still in a non-`Sync` arena is shared by
/// several threads at once (`Message::reader` takes the arena's segment
/// slices when it is made, and never calls the arena afterwards: the
/// arena's lookup counter does not move while the threads read), here
/// with more segments than a reader holds inline.
#[test]
fn reader_of_a_non_sync_arena_is_shared_between_threads() {
    let n = 200;
    let mut msg = Message::new(CountingArena {
        inner: MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(16)),
        ..CountingArena::default()
    });
    fill(&mut msg.init_root::<all_types::Builder<_>>().unwrap(), n);
    assert!(msg.segment_count() > 8, "{} segments", msg.segment_count());
    let reader = msg.reader();
    let lookups = msg.arena().lookups.get();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| check(reader.get_root::<all_types::Reader>().unwrap(), n));
        }
    });
    assert_eq!(msg.arena().lookups.get(), lookups);
}

/// Owned typed readers behind an `Arc`, read from tasks on tokio's
/// multi-threaded runtime, each holding a generated reader across an
/// `.await` (which needs the reader to be `Send`).
#[test]
fn typed_readers_cross_awaits_on_a_multi_threaded_runtime() {
    let n = 50;
    let mut msg = Message::new(SingleSegmentArena::new());
    fill(&mut msg.init_root::<all_types::Builder<_>>().unwrap(), n);
    let words: Arc<[Word]> = msg
        .framed_bytes()
        .unwrap()
        .chunks_exact(8)
        .map(|c| Word::from_u64(u64::from_le_bytes(c.try_into().unwrap())))
        .collect();
    let shared =
        Arc::new(TypedReader::<all_types::Owned, _>::new(words, ReaderOptions::default()).unwrap());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .build()
        .unwrap();
    rt.block_on(async {
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let shared = Arc::clone(&shared);
                tokio::spawn(async move {
                    let words = shared.words();
                    let segs = [&words[1..]];
                    let reader =
                        MessageReader::from_segments(&segs, ReaderOptions::default()).unwrap();
                    let root = reader.get_root::<all_types::Reader>().unwrap();
                    tokio::task::yield_now().await;
                    check(root, n);
                    shared.get(|r| check(r, n)).unwrap();
                })
            })
            .collect();
        for t in tasks {
            t.await.unwrap();
        }
    });
}
