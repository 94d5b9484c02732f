//! Writing an owned value into a reused message allocates nothing: after
//! one warm-up round, `reset` + `build_root` + framing make zero heap
//! allocations (the message keeps its arena's memory), for the owned and
//! the borrowed value of the Log vector (2,000-odd structs, text and
//! lists of text). Allocations are counted by a `#[global_allocator]`
//! wrapping `System`, on the test's own thread only.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

use capnarena::{Message, MessageReader, ReaderOptions, Result, SingleSegmentArena};
use capnarena_conformance::all_types_capnp::log;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

struct CountingAlloc;

fn note() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every method forwards to `System` unchanged; counting touches
// only thread-locals and never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Allocations `f` makes on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, u64) {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, COUNT.with(Cell::get))
}

fn log_bytes() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/log.bin");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `build_root` into a reset message, then framing: zero allocations
/// once warm, for `log::Value` and `log::ValueRef`; the framed bytes are
/// the same each round.
#[test]
fn build_into_reused_message_allocates_nothing() -> Result<()> {
    let words = capnarena::words_from_bytes(&log_bytes())?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root = reader.get_root::<log::Reader<'_>>()?;
    let owned = log::Value::try_from(root)?;
    let borrowed = log::ValueRef::try_from(root)?;
    let mut message = Message::new(SingleSegmentArena::new());
    owned.build_root(&mut message)?;
    let first = message.framed_bytes()?.to_vec();
    for round in 0..3 {
        let (bytes, n) = count(|| -> Result<usize> {
            message.reset();
            owned.build_root(&mut message)?;
            Ok(message.framed_bytes()?.len())
        });
        assert_eq!(n, 0, "owned, round {round}: {n} allocations");
        assert_eq!(bytes?, first.len());
        assert_eq!(message.framed_bytes()?, &first[..]);
        let (bytes, n) = count(|| -> Result<usize> {
            message.reset();
            borrowed.build_root(&mut message)?;
            Ok(message.framed_bytes()?.len())
        });
        assert_eq!(n, 0, "borrowed, round {round}: {n} allocations");
        assert_eq!(bytes?, first.len());
        assert_eq!(message.framed_bytes()?, &first[..]);
    }
    Ok(())
}

/// Reading the borrowed value allocates only its `Vec`s (one per list:
/// the entries, and each entry's tags), never for text; the owned value
/// adds one per text. The counts are exact, from the vector's contents.
#[test]
fn decode_allocations_are_one_per_list_and_text() -> Result<()> {
    let words = capnarena::words_from_bytes(&log_bytes())?;
    let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    let root = reader.get_root::<log::Reader<'_>>()?;
    let (borrowed, n_borrowed) = count(|| log::ValueRef::try_from(root));
    let borrowed = borrowed?;
    let entries = borrowed.entries.as_ref().map_or(0, Vec::len) as u64;
    let tag_lists = borrowed
        .entries
        .iter()
        .flatten()
        .filter(|e| e.tags.as_ref().is_some_and(|t| !t.is_empty()))
        .count() as u64;
    let texts = borrowed
        .entries
        .iter()
        .flatten()
        .map(|e| {
            let tags = e.tags.iter().flatten().flatten().filter(|t| !t.is_empty());
            u64::from(e.message.is_some_and(|m| !m.is_empty())) + tags.count() as u64
        })
        .sum::<u64>();
    assert!(entries > 0);
    // `Vec::with_capacity(0)` does not allocate, nor does `String::new()`.
    assert_eq!(n_borrowed, u64::from(entries > 0) + tag_lists);
    let (owned, n_owned) = count(|| log::Value::try_from(root));
    owned?;
    assert_eq!(n_owned, n_borrowed + texts);
    println!("log vector, {entries} entries: ValueRef {n_borrowed} allocations, Value {n_owned}");
    Ok(())
}
