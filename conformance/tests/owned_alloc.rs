//! Writing an owned value into a reused message allocates nothing: after
//! one warm-up round, `reset` + `build_root` + framing make zero heap
//! allocations (the message keeps its arena's memory), for the owned and
//! the borrowed value of the Log vector (2,000-odd structs, text and
//! lists of text). Allocations are counted by a `#[global_allocator]`
//! wrapping `System`, on the test's own thread only; it also tracks the
//! peak of bytes live, and refuses (so the process aborts) any single
//! allocation over [`REFUSE_OVER`] bytes while counting, so a decode that
//! would take gigabytes fails the test without taking the machine's memory.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::PathBuf;

use capnarena::{Message, MessageReader, ReaderOptions, Result, SingleSegmentArena};
use capnarena_conformance::all_types_capnp::{entry, log};

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

/// The largest single allocation the counting allocator grants while
/// counting.
const REFUSE_OVER: usize = 64 << 20;

struct CountingAlloc;

/// Notes an allocation of `bytes` (after freeing `freed`); false when it
/// is refused.
fn note(bytes: usize, freed: usize) -> bool {
    if !COUNTING.try_with(Cell::get).unwrap_or(false) {
        return true;
    }
    if bytes > REFUSE_OVER {
        return false;
    }
    let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + bytes as i64 - freed as i64);
        let _ = PEAK.try_with(|p| p.set(p.get().max(live.get())));
    });
    true
}

fn note_free(bytes: usize) {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = LIVE.try_with(|live| live.set(live.get() - bytes as i64));
    }
}

// SAFETY: every method forwards to `System` unchanged; counting touches
// only thread-locals and never allocates.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !note(layout.size(), 0) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !note(layout.size(), 0) {
            return std::ptr::null_mut();
        }
        // SAFETY: as `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !note(new_size, layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_free(layout.size());
        // SAFETY: the caller's contract for `dealloc` is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Allocations `f` makes on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let (r, n, _) = count_peak(f);
    (r, n)
}

/// Allocations `f` makes on this thread, and the peak of the bytes it
/// holds allocated at once (what is dropped inside `f` included).
fn count_peak<R>(f: impl FnOnce() -> R) -> (R, u64, u64) {
    COUNT.with(|c| c.set(0));
    LIVE.with(|c| c.set(0));
    PEAK.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    let peak = PEAK.with(Cell::get).max(0) as u64;
    (r, COUNT.with(Cell::get), peak)
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

/// A framed one-segment message: a `Log` root whose `entries` pointer is
/// `entries` (the words after it are `tail`).
fn hostile_log(entries: u64, tail: &[u64]) -> Vec<u8> {
    let mut words = vec![1u64 << 48, entries];
    words.extend_from_slice(tail);
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&(words.len() as u32).to_le_bytes());
    for w in words {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes
}

/// A struct list of `n` empty elements: an inline-composite list pointer
/// to no words, and a tag with `n` elements of no data and no pointers.
fn empty_struct_list(n: u64) -> Vec<u8> {
    hostile_log(1 | (7 << 32), &[n << 2])
}

/// A `List(Void)` of `n` elements where the schema has a struct list.
fn void_list(n: u64) -> Vec<u8> {
    hostile_log(1 | (n << 35), &[])
}

/// Decoding a message of 24 or 32 bytes that holds 8 million empty
/// entries (each costs its reader one word of the 8 Mi-word default
/// traversal limit, and would be a 64-byte `entry::Value`: 512 MB) fails
/// with `DecodeLimitExceeded` and its numbers, and the decode's peak heap
/// stays under 64 KiB; for an inline-composite list and a `List(Void)`
/// read as the struct list.
#[test]
fn empty_struct_list_cannot_amplify_memory() -> Result<()> {
    let n: u64 = 8_000_000;
    let element_bytes = std::mem::size_of::<entry::Value>() as u64;
    assert!(element_bytes > 8, "{element_bytes}");
    for (what, bytes) in [
        ("struct list", empty_struct_list(n)),
        ("void list", void_list(n)),
    ] {
        let words = capnarena::words_from_bytes(&bytes)?;
        let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
        let root = reader.get_root::<log::Reader<'_>>()?;
        assert_eq!(root.get_entries()?.len() as u64, n, "{what}");
        let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
        let root = reader.get_root::<log::Reader<'_>>()?;
        let (owned, _, peak) = count_peak(|| log::Value::try_from(root));
        match owned {
            Err(capnarena::Error::DecodeLimitExceeded {
                elements,
                element_bytes: per,
                extra_words,
                ..
            }) => {
                assert_eq!((elements, per), (n, element_bytes), "{what}");
                assert_eq!(extra_words, n * (element_bytes.div_ceil(8) - 1), "{what}");
            }
            other => panic!("{what}: {other:?}"),
        }
        assert!(peak < 64 << 10, "{what}: peak {peak} bytes");
        let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
        let root = reader.get_root::<log::Reader<'_>>()?;
        let (borrowed, _, peak) = count_peak(|| log::ValueRef::try_from(root));
        assert!(
            matches!(borrowed, Err(capnarena::Error::DecodeLimitExceeded { .. })),
            "{what}: {borrowed:?}"
        );
        assert!(peak < 64 << 10, "{what}: peak {peak} bytes");
        println!(
            "{what} of {n} empty entries, {} bytes: refused, peak {peak} bytes",
            bytes.len()
        );
    }
    Ok(())
}

/// Empty entries within the budget still decode: 1,000 of them read as
/// 1,000 default entries, and the decode's peak heap is within eight
/// bytes per word of the traversal budget it used.
#[test]
fn empty_struct_list_within_budget_decodes() -> Result<()> {
    let n = 1000;
    for bytes in [empty_struct_list(n), void_list(n)] {
        let words = capnarena::words_from_bytes(&bytes)?;
        let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
        let root = reader.get_root::<log::Reader<'_>>()?;
        let before = reader.traversal_remaining();
        let (owned, _, peak) = count_peak(|| log::Value::try_from(root));
        let owned = owned?;
        let used = before - reader.traversal_remaining();
        let entries = owned.entries.expect("entries");
        assert_eq!(entries.len() as u64, n);
        assert!(entries.iter().all(|e| *e == entry::Value::default()));
        assert!(peak <= 8 * used, "peak {peak} bytes, {used} words charged");
    }
    Ok(())
}
