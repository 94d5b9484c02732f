//! Heap allocations of the codecs and the async and `bytes` paths,
//! counted by a `#[global_allocator]` that wraps `std::alloc::System` (the
//! pattern of `tests/alloc.rs`: per-thread counting around a closure).
//!
//! The promise: after warm-up, encoding a message through a codec into
//! the write buffer, decoding it from the read buffer, reading the frame
//! and dropping it makes 0 heap allocations per message, framed and
//! packed, for one segment and for several (up to the 8 a reader holds
//! inline); so do the async free functions over an in-memory reader and
//! writer, and `append_to_buf` / `read_from_buf`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bytes::{Buf, BytesMut};
use capnarena::serialize::codec::{FramedCodec, PackedCodec};
use capnarena::{
    Arena, GrowthPolicy, Message, MultiSegmentArena, ReaderOptions, SingleSegmentArena, StructSize,
};
use tokio_util::codec::{Decoder, Encoder};

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

struct CountingAlloc;

impl CountingAlloc {
    fn note() {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees hold; `note` only touches
// const-initialised thread-locals without destructors, which allocate
// nothing.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the
        // caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note();
        // SAFETY: `ptr` was allocated by `System` with `layout`, and
        // `new_size` is valid, as the caller guarantees.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Runs `f` and returns the heap allocations it made on this thread.
fn count(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    f();
    COUNTING.with(|c| c.set(false));
    COUNT.with(Cell::get)
}

/// The counter sees a growing `Vec`, so a 0 below is no allocation, not
/// a blind counter.
#[test]
fn the_counter_sees_allocations() {
    let n = count(|| {
        let mut v: Vec<u64> = Vec::with_capacity(1);
        v.extend_from_slice(&[1, 2, 3]);
        std::hint::black_box(v);
    });
    assert_eq!(n, 2);
}

/// Builds message `i` of a run: a root with `i` and a data blob whose
/// length varies with `i` (up to about 3 KiB), so buffers see different
/// sizes.
fn build<A: Arena>(msg: &mut Message<A>, i: u64, blob: &[u8]) {
    msg.reset();
    let mut root = msg.init_root_struct(StructSize::new(1, 2)).unwrap();
    root.set::<u64>(0, i);
    let len = (i as usize * 37) % blob.len();
    root.set_data(0, &blob[..len]).unwrap();
    root.set_text(1, "telemetry sample").unwrap();
}

/// Checks a read message against what `build` wrote for `i`.
fn check(root: capnarena::StructReader<'_>, i: u64, blob: &[u8]) {
    assert_eq!(root.get::<u64>(0), i);
    let len = (i as usize * 37) % blob.len();
    assert_eq!(root.get_data(0).unwrap(), &blob[..len]);
    assert_eq!(root.get_text(1).unwrap(), "telemetry sample");
}

fn blob() -> Vec<u8> {
    (0..3000u32)
        .map(|i| (i % 251) as u8 * (i % 3 != 0) as u8)
        .collect()
}

/// Sends messages `range` from `msg` through an encoder into `wire`, then
/// through a decoder out of a read buffer, and reads each frame back.
fn pump<A, E, D>(
    msg: &mut Message<A>,
    enc: &mut E,
    dec: &mut D,
    wire: &mut BytesMut,
    read_buf: &mut BytesMut,
    range: std::ops::Range<u64>,
    blob: &[u8],
) where
    A: Arena,
    E: for<'m> Encoder<&'m Message<A>, Error = capnarena::Error>,
    D: Decoder<Item = capnarena::serialize::codec::Frame, Error = capnarena::Error>,
{
    for i in range {
        build(msg, i, blob);
        enc.encode(msg, wire).unwrap();
        // The "socket": what the write buffer holds arrives in the read
        // buffer (in two pieces, so the decoder sees a partial frame).
        let half = wire.len() / 2;
        read_buf.extend_from_slice(&wire[..half]);
        assert!(dec.decode(read_buf).unwrap().is_none());
        read_buf.extend_from_slice(&wire[half..]);
        wire.clear();
        let frame = dec.decode(read_buf).unwrap().expect("a whole frame");
        check(frame.reader().unwrap().root().unwrap(), i, blob);
    }
}

/// Framed and packed codecs, one segment and several: 0 allocations per
/// message after warm-up, over 200 messages of varying size.
#[test]
fn codecs_allocate_nothing_per_message() {
    let blob = blob();
    fn run<A: Arena>(mut msg: Message<A>, blob: &[u8], what: &str) {
        let (mut wire, mut rd) = (BytesMut::new(), BytesMut::new());
        let (mut enc, mut dec) = (FramedCodec::new().sends::<Message<A>>(), FramedCodec::new());
        pump(
            &mut msg,
            &mut enc,
            &mut dec,
            &mut wire,
            &mut rd,
            0..100,
            blob,
        );
        let n = count(|| {
            pump(
                &mut msg,
                &mut enc,
                &mut dec,
                &mut wire,
                &mut rd,
                100..300,
                blob,
            )
        });
        assert_eq!(n, 0, "framed, {what}: {n} allocations in 200 messages");

        let (mut wire, mut rd) = (BytesMut::new(), BytesMut::new());
        let (mut enc, mut dec) = (PackedCodec::new().sends::<Message<A>>(), PackedCodec::new());
        pump(
            &mut msg,
            &mut enc,
            &mut dec,
            &mut wire,
            &mut rd,
            0..100,
            blob,
        );
        let n = count(|| {
            pump(
                &mut msg,
                &mut enc,
                &mut dec,
                &mut wire,
                &mut rd,
                100..300,
                blob,
            )
        });
        assert_eq!(n, 0, "packed, {what}: {n} allocations in 200 messages");
    }
    run(
        Message::new(SingleSegmentArena::new()),
        &blob,
        "one segment",
    );
    let multi = || {
        MultiSegmentArena::new()
            .with_first_segment_words(63)
            .with_policy(GrowthPolicy::FixedSize(128))
    };
    let mut probe = Message::new(multi());
    build(&mut probe, 299, &blob);
    assert!(
        (2..=8).contains(&probe.segment_count()),
        "{}",
        probe.segment_count()
    );
    run(Message::new(multi()), &blob, "several segments");
}

/// `append_to_buf` then `read_from_buf` (plain and packed), and the
/// futures-io free functions over an in-memory stream, allocate nothing
/// per message after warm-up.
#[test]
fn buf_and_async_paths_allocate_nothing_per_message() {
    use capnarena::serialize::futures_io;
    let blob = blob();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut back = Message::new(SingleSegmentArena::new());
    let mut buf = BytesMut::new();
    let options = ReaderOptions::default();
    let mut round = |i: u64, msg: &mut Message<SingleSegmentArena>| {
        build(msg, i, &blob);
        msg.append_to_buf(&mut buf).unwrap();
        msg.append_packed_to_buf(&mut buf).unwrap();
        let mut input = &buf[..];
        let r = back.read_from_buf(&mut input, options).unwrap();
        check(r.root().unwrap(), i, &blob);
        let r = back.read_packed_from_buf(&mut input, options).unwrap();
        check(r.root().unwrap(), i, &blob);
        assert!(!input.has_remaining());
        buf.clear();
    };
    // Warm-up takes in the largest message (i = 81: 2,997 bytes of data).
    for i in 0..100 {
        round(i, &mut msg);
    }
    let n = count(|| (100..300).for_each(|i| round(i, &mut msg)));
    assert_eq!(n, 0, "bytes: {n} allocations in 200 messages");

    let mut stream: Vec<u8> = Vec::new();
    let mut async_round = |i: u64, msg: &mut Message<SingleSegmentArena>| {
        build(msg, i, &blob);
        stream.clear();
        futures::executor::block_on(async {
            futures_io::write_message(&mut stream, msg).await.unwrap();
            futures_io::write_packed_message(&mut stream, msg)
                .await
                .unwrap();
            let mut input = &stream[..];
            let r = futures_io::read_message(&mut back, &mut input, options)
                .await
                .unwrap();
            check(r.root().unwrap(), i, &blob);
            let r = futures_io::read_packed_message(&mut back, &mut input, options)
                .await
                .unwrap();
            check(r.root().unwrap(), i, &blob);
            assert!(input.is_empty());
        });
    };
    for i in 0..100 {
        async_round(i, &mut msg);
    }
    let n = count(|| (100..300).for_each(|i| async_round(i, &mut msg)));
    assert_eq!(n, 0, "futures-io: {n} allocations in 200 messages");
}
