//! Heap allocations, counted by a `#[global_allocator]` that wraps
//! `std::alloc::System`.
//!
//! The design's promise (DESIGN.md, "Reuse is the normal path"): after
//! warm-up, resetting, building, framing and reading a message allocate
//! nothing. These tests count every `alloc`, `alloc_zeroed` and `realloc`
//! made on the test's own thread while a measured closure runs (tests run
//! on parallel threads, so counting is per thread) and require exactly 0
//! for every warm iteration, on `SingleSegmentArena`, `MultiSegmentArena`
//! and `FixedArena`. The first (cold) iteration's counts are printed, and
//! asserted where the crate's own code fixes them.
//!
//! To find where an unexpected allocation comes from, run with
//! `CAPNARENA_ALLOC_TRACE=1 cargo test --test alloc -- --nocapture`: each
//! counted allocation then prints a backtrace.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::OnceLock;

use capnarena::{
    Arena, ElementSize, FixedArena, Message, MessageReader, MultiSegmentArena, ReaderOptions,
    Result, SingleSegmentArena, StructReader, StructSize, Word, words_from_bytes,
};
use common::build::{ENTRY, LOG, build_log, log_entries};
use common::logtxt::Entry;

// ---- the counting allocator ----

thread_local! {
    /// Whether allocations on this thread are being counted.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    /// Allocations counted on this thread.
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

/// Set once from `CAPNARENA_ALLOC_TRACE` before any counting starts.
static TRACE: OnceLock<bool> = OnceLock::new();

struct CountingAlloc;

impl CountingAlloc {
    /// Counts one allocation of `size` bytes if this thread is counting.
    fn note(size: usize) {
        // `try_with`: the thread-locals may be gone while a thread exits.
        let counting = COUNTING.try_with(Cell::get).unwrap_or(false);
        if !counting {
            return;
        }
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        if TRACE.get().copied().unwrap_or(false) {
            // Printing allocates: stop counting while it runs.
            COUNTING.with(|c| c.set(false));
            eprintln!(
                "counted allocation of {size} bytes at:\n{}",
                std::backtrace::Backtrace::force_capture()
            );
            COUNTING.with(|c| c.set(true));
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; `note` only touches
// const-initialised thread-locals without destructors (which allocate
// nothing) and, when tracing, allocates with counting switched off first
// so it never recurses into counting.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size());
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract for
        // `layout`, which is `System.alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by this allocator, that is by
        // `System`, with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note(new_size);
        // SAFETY: `ptr` was allocated by `System` with `layout` and
        // `new_size` is valid, as the caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Runs `f` and returns its result with the heap allocations (allocs,
/// zeroed allocs and reallocs) it made on this thread.
fn count<R>(f: impl FnOnce() -> R) -> (R, u64) {
    TRACE.get_or_init(|| std::env::var_os("CAPNARENA_ALLOC_TRACE").is_some());
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (r, COUNT.with(Cell::get))
}

/// The counter counts: a `Vec` that must grow is seen, so a 0 below means
/// no allocation rather than a blind counter.
#[test]
fn the_counter_sees_allocations() {
    let (v, n) = count(|| {
        let mut v: Vec<u64> = Vec::with_capacity(1);
        v.extend_from_slice(&[1, 2, 3]);
        v
    });
    assert_eq!(v, [1, 2, 3]);
    assert_eq!(n, 2, "one allocation, one reallocation");
    let (_, n) = count(|| std::hint::black_box(1 + 1));
    assert_eq!(n, 0);
}

// ---- the messages ----

/// Root of the small message: 2 data words, 2 pointers.
const SMALL: StructSize = StructSize::new(2, 2);
const SMALL_TEXT: &str = "hello, arena";
const SMALL_LIST: [u16; 4] = [1, 22, 333, 4444];

fn build_small<A: Arena>(msg: &mut Message<A>) -> Result<()> {
    let mut root = msg.init_root_struct(SMALL)?;
    root.set::<u64>(0, 0x0123_4567_89ab_cdef);
    root.set::<u32>(2, 42);
    root.set_text(0, SMALL_TEXT)?;
    let mut l = root.init_list(1, ElementSize::TwoBytes, SMALL_LIST.len() as u32)?;
    for (i, x) in SMALL_LIST.into_iter().enumerate() {
        l.set::<u16>(i as u32, x);
    }
    Ok(())
}

/// Reads the small message back; panics on any difference. Allocates
/// nothing unless it fails.
fn check_small(root: StructReader<'_>) {
    assert_eq!(root.get::<u64>(0), 0x0123_4567_89ab_cdef);
    assert_eq!(root.get::<u32>(2), 42);
    assert_eq!(root.get_text(0).unwrap(), SMALL_TEXT);
    let l = root.get_list(1, ElementSize::TwoBytes).unwrap();
    assert_eq!(l.len() as usize, SMALL_LIST.len());
    for (i, x) in SMALL_LIST.into_iter().enumerate() {
        assert_eq!(l.get::<u16>(i as u32), x);
    }
}

/// The `Log` message of `tests/vectors/log.txt`, built from entries parsed
/// beforehand. `common::build::build_log` itself reads and parses
/// `log.txt` on every call (which allocates), so the measured loop uses
/// this builder, with the same layout; `log_builders_agree` checks that
/// both write the same bytes.
fn build_log_from<A: Arena>(msg: &mut Message<A>, entries: &[Entry]) -> Result<()> {
    let mut root = msg.init_root_struct(LOG)?;
    let mut list = root.init_struct_list(0, entries.len() as u32, ENTRY)?;
    for (i, e) in entries.iter().enumerate() {
        let mut s = list.get_struct(i as u32);
        s.set::<u64>(0, e.timestamp);
        s.set::<u8>(8, e.level);
        s.set_text(0, &e.message)?;
        let mut tags = s.init_list(1, ElementSize::Pointer, e.tags.len() as u32)?;
        for (j, t) in e.tags.iter().enumerate() {
            tags.set_text(j as u32, t)?;
        }
    }
    Ok(())
}

/// Reads the log message back against `entries`; panics on any
/// difference. Allocates nothing unless it fails.
fn check_log(root: StructReader<'_>, entries: &[Entry]) {
    let list = root.get_list(0, ElementSize::InlineComposite).unwrap();
    assert_eq!(list.len() as usize, entries.len());
    for (i, e) in entries.iter().enumerate() {
        let s = list.get_struct(i as u32);
        assert_eq!(s.get::<u64>(0), e.timestamp);
        assert_eq!(s.get::<u8>(8), e.level);
        assert_eq!(s.get_text(0).unwrap(), e.message);
        let tags = s.get_list(1, ElementSize::Pointer).unwrap();
        assert_eq!(tags.len() as usize, e.tags.len());
        for (j, t) in e.tags.iter().enumerate() {
            assert_eq!(tags.get_text(j as u32).unwrap(), t);
        }
    }
}

/// The measured builder (from pre-parsed entries) and the shared
/// `build_log` write byte-identical messages, so measuring one measures
/// the other's encoding work.
#[test]
fn log_builders_agree() {
    let entries = log_entries();
    let mut a = Message::new(SingleSegmentArena::new());
    build_log(&mut a).unwrap();
    let mut b = Message::new(SingleSegmentArena::new());
    build_log_from(&mut b, &entries).unwrap();
    let (mut x, mut y) = (Vec::new(), Vec::new());
    a.append_to(&mut x);
    b.append_to(&mut y);
    assert_eq!(x, y);
}

// ---- the measurements ----

/// Warm iterations after the cold one; each must allocate nothing.
const WARM: usize = 5;

/// What one message on one arena cost, in allocations.
#[derive(Debug, Default)]
struct Counts {
    /// The first reset + build on a fresh arena.
    cold_build: u64,
    /// The first `append_to` into an empty `Vec`.
    cold_append: u64,
    /// Every later reset + build + `append_to` (into the reused `Vec`)
    /// and `write_to` (into a reused `Vec`), summed.
    warm_build_frame: u64,
    /// The first `read_from_bytes` into a fresh arena.
    cold_read_bytes: u64,
    /// Later `read_from_bytes` into the warmed arena, with a full read
    /// of the content, summed.
    warm_read_bytes: u64,
    /// The first `read_from` (stream) into a fresh arena, read in full.
    cold_read_stream: u64,
    /// Later `read_from` into the warmed arena, read in full, summed.
    warm_read_stream: u64,
    /// Zero-copy `from_bytes` and the in-place `reader()`, read in full,
    /// every iteration (cold included), summed.
    zero_copy: u64,
    /// Segments of the message as built on this arena.
    segments: u32,
}

/// Measures one message on one kind of arena. `arena` makes a fresh
/// arena (called three times: to build, to read bytes into, to read a
/// stream into); `build` builds the
/// message; `check` reads a root back in full.
fn measure<A: Arena>(
    mut arena: impl FnMut() -> A,
    build: impl Fn(&mut Message<A>) -> Result<()>,
    check: impl Fn(StructReader<'_>),
) -> Counts {
    let mut c = Counts::default();
    let options = ReaderOptions::default();

    // Building and framing.
    let mut msg = Message::new(arena());
    let mut out = Vec::new();
    let mut written = Vec::new();
    let ((), n) = count(|| {
        msg.reset();
        build(&mut msg).unwrap();
    });
    c.cold_build = n;
    let ((), n) = count(|| msg.append_to(&mut out));
    c.cold_append = n;
    c.segments = msg.segment_count();
    let bytes = out.clone();
    written.reserve(bytes.len());
    for _ in 0..WARM {
        let ((), n) = count(|| {
            msg.reset();
            build(&mut msg).unwrap();
            out.clear();
            msg.append_to(&mut out);
            written.clear();
            msg.write_to(&mut written).unwrap();
        });
        c.warm_build_frame += n;
        assert_eq!(out, bytes, "the same message every time");
        assert_eq!(written, bytes);
    }

    // Reading in place and zero-copy (the aligned copy is made outside).
    let words = words_from_bytes(&bytes).unwrap();
    for _ in 0..=WARM {
        let ((), n) = count(|| {
            check(msg.reader().root().unwrap());
            let r = MessageReader::from_bytes(Word::slice_as_bytes(&words), options).unwrap();
            check(r.root().unwrap());
            let r = MessageReader::from_words(&words, options).unwrap();
            check(r.root().unwrap());
        });
        c.zero_copy += n;
    }
    drop(msg);

    // Reading copies into an arena, from bytes and from a stream.
    let mut into = Message::new(arena());
    let ((), n) = count(|| {
        check(
            into.read_from_bytes(&bytes, options)
                .unwrap()
                .root()
                .unwrap(),
        )
    });
    c.cold_read_bytes = n;
    for _ in 0..WARM {
        let ((), n) = count(|| {
            check(
                into.read_from_bytes(&bytes, options)
                    .unwrap()
                    .root()
                    .unwrap(),
            )
        });
        c.warm_read_bytes += n;
    }
    let mut into = Message::new(arena());
    let ((), n) = count(|| check(into.read_from(&bytes[..], options).unwrap().root().unwrap()));
    c.cold_read_stream = n;
    for _ in 0..WARM {
        let ((), n) = count(|| {
            let mut cursor = std::io::Cursor::new(&bytes[..]);
            check(
                into.read_from(&mut cursor, options)
                    .unwrap()
                    .root()
                    .unwrap(),
            );
        });
        c.warm_read_stream += n;
    }
    c
}

/// Asserts the zero-allocation promise for every warm path, and the
/// cold counts that are the crate's own doing.
fn assert_warm_free(what: &str, c: &Counts) {
    println!("{what}: {c:?}");
    assert_eq!(c.warm_build_frame, 0, "{what}: reset + build + frame");
    assert_eq!(c.warm_read_bytes, 0, "{what}: read_from_bytes, warm");
    assert_eq!(c.warm_read_stream, 0, "{what}: read_from, warm");
    assert_eq!(c.zero_copy, 0, "{what}: zero-copy and in-place reads");
    // append_to reserves the whole serialized size once.
    assert_eq!(c.cold_append, 1, "{what}: append_to into an empty Vec");
}

/// Words of the `FixedArena` buffers: the log message takes about 4,700.
const FIXED_WORDS: usize = 8192;

/// The small message: after warm-up, reset + build + `append_to` /
/// `write_to` into reused Vecs, and every read path, allocate nothing on
/// every built-in arena.
#[test]
fn small_message_allocates_nothing_when_warm() {
    let c = measure(SingleSegmentArena::new, build_small, check_small);
    assert_warm_free("small on SingleSegmentArena", &c);

    let c = measure(MultiSegmentArena::new, build_small, check_small);
    assert_warm_free("small on MultiSegmentArena", &c);
    // The first segment is one reservation; the list of further segments
    // is only allocated when a message needs a second segment.
    assert_eq!(c.cold_build, 1, "small on MultiSegmentArena, cold build");
    assert_eq!(c.cold_read_bytes, 1);
    assert_eq!(c.cold_read_stream, 1);

    let mut bufs = vec![vec![Word::ZERO; FIXED_WORDS]; 3];
    let mut bufs: Vec<&mut [Word]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
    let c = measure(
        || FixedArena::new(bufs.pop().unwrap()),
        build_small,
        check_small,
    );
    assert_warm_free("small on FixedArena", &c);
    // No heap at all, cold or warm, except for the output Vec.
    assert_eq!(
        (c.cold_build, c.cold_read_bytes, c.cold_read_stream),
        (0, 0, 0),
        "small on FixedArena, cold"
    );
}

/// The 300-entry log message (several segments on `MultiSegmentArena`):
/// after warm-up, reset + build + framing and every read path allocate
/// nothing on every built-in arena.
#[test]
fn log_message_allocates_nothing_when_warm() {
    let entries = log_entries();
    let check = |r: StructReader<'_>| check_log(r, &entries);

    let c = measure(
        SingleSegmentArena::new,
        |m| build_log_from(m, &entries),
        check,
    );
    assert_warm_free("log on SingleSegmentArena", &c);
    assert_eq!(c.segments, 1);

    let c = measure(
        MultiSegmentArena::new,
        |m| build_log_from(m, &entries),
        check,
    );
    assert_warm_free("log on MultiSegmentArena", &c);
    assert!(
        c.segments > 1,
        "the log outgrows the first 1,024-word segment"
    );
    // One reservation per segment, and one for the list of segments after
    // the first (which has room for 4 after its first reservation).
    assert!(c.segments <= 4);
    assert_eq!(
        c.cold_build,
        u64::from(c.segments) + 1,
        "log on MultiSegmentArena, cold"
    );

    let mut bufs = vec![vec![Word::ZERO; FIXED_WORDS]; 3];
    let mut bufs: Vec<&mut [Word]> = bufs.iter_mut().map(|b| &mut b[..]).collect();
    let c = measure(
        || FixedArena::new(bufs.pop().unwrap()),
        |m| build_log_from(m, &entries),
        check,
    );
    assert_warm_free("log on FixedArena", &c);
    assert_eq!(
        (c.cold_build, c.cold_read_bytes, c.cold_read_stream),
        (0, 0, 0),
        "log on FixedArena, cold"
    );
}
