//! Message streams: many framed or packed messages back to back in one
//! `io::Read`, read one after another into one reused arena.
//!
//! - They come out in order, then `Ok(None)` at the clean end.
//! - Cutting the stream anywhere inside the last message gives
//!   `Error::Truncated`, never `Ok(None)`; cutting it exactly at a message
//!   boundary gives `Ok(None)` there.
//! - Once the arena is warm, reading the whole stream again allocates
//!   nothing (counted by a global allocator, on the test's own thread).

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{BufReader, Read};

use capnarena::serialize::packed::PackedReader;
use capnarena::{
    Arena, Error, GrowthPolicy, Message, MessageReader, MultiSegmentArena, ReaderOptions,
    SingleSegmentArena, StructSize, Word,
};
use common::build::build_named;

// ---- allocation counting, per thread ----

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

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; counting touches only const-initialized
// thread-locals, which never allocate.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::note();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        Self::note();
        // SAFETY: as for `alloc`; `ptr` came from this allocator, i.e. `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Runs `f` and returns its result and the heap allocations it made on
/// this thread.
fn count_allocs<T>(f: impl FnOnce() -> T) -> (T, u64) {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, COUNT.with(Cell::get))
}

// ---- the messages ----

/// The messages of the stream, framed, in order: the four built vectors,
/// small messages of several sizes, an empty message, and messages of 3
/// and more segments (four-word segments).
fn messages() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for name in ["full", "scalars", "lists", "log"] {
        let mut msg = Message::new(SingleSegmentArena::new());
        build_named(name, &mut msg).unwrap();
        out.push(framed(&msg));
    }
    for n in [0u32, 1, 7, 300] {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
        root.set::<u32>(0, n);
        let data: Vec<u8> = (0..n).map(|i| (i % 7) as u8).collect();
        root.set_data(0, &data).unwrap();
        out.push(framed(&msg));
    }
    out.push(framed(&Message::new(SingleSegmentArena::new())));
    for name in ["scalars", "full"] {
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(15)
            .with_policy(GrowthPolicy::FixedSize(64));
        let mut msg = Message::new(arena);
        build_named(name, &mut msg).unwrap();
        assert!(msg.segment_count() > 1, "{name}: one segment");
        out.push(framed(&msg));
    }
    out
}

fn framed<A: Arena>(msg: &Message<A>) -> Vec<u8> {
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

fn packed(framed_bytes: &[u8]) -> Vec<u8> {
    let mut msg = Message::new(MultiSegmentArena::new());
    let reader = msg.read_from_bytes(framed_bytes, options()).unwrap();
    let segs: Vec<&[Word]> = (0..reader.segment_count())
        .map(|i| reader.segment(i).unwrap())
        .collect();
    let mut out = Vec::new();
    capnarena::serialize::packed::write_packed_segments(&mut out, &segs).unwrap();
    out
}

/// The framed bytes of a message read (table rebuilt from its segments).
fn reframed(reader: &MessageReader<'_>) -> Vec<u8> {
    let n = reader.segment_count();
    let mut out = Vec::new();
    out.extend_from_slice(&(n - 1).to_le_bytes());
    for i in 0..n {
        out.extend_from_slice(&(reader.segment(i).unwrap().len() as u32).to_le_bytes());
    }
    if out.len() % 8 != 0 {
        out.extend_from_slice(&[0; 4]);
    }
    for i in 0..n {
        out.extend_from_slice(Word::slice_as_bytes(reader.segment(i).unwrap()));
    }
    out
}

fn options() -> ReaderOptions {
    ReaderOptions::default()
}

/// A reader that hands out at most `chunk` bytes per `read`, so messages
/// and table words arrive split at odd places.
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.chunk).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// How a stream is read: one step reads the next message (or `None`).
#[derive(Clone, Copy, Debug)]
enum Way {
    /// `try_read_from` on the framed stream.
    Framed,
    /// `try_read_packed_from` on the packed stream, through a `BufRead`.
    Packed,
    /// `try_read_from` through a `PackedReader` on the packed stream.
    PackedReader,
    /// `try_read_buffered_from` on the framed stream, through a `BufRead`
    /// (its buffer the size of the reads, so that messages start near its
    /// end and are larger than it).
    Buffered,
}

/// Reads every message of `stream` (framed or packed, per `way`) with
/// `chunk`-byte reads, into one message; returns each message's framed
/// bytes, in order, after checking the stream then stays at `Ok(None)`.
fn read_all(way: Way, stream: &[u8], chunk: usize) -> Vec<Vec<u8>> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut got = Vec::new();
    let src = Chunked {
        data: stream,
        chunk,
    };
    match way {
        Way::Framed => {
            let mut r = src;
            while let Some(reader) = msg.try_read_from(&mut r, options()).unwrap() {
                got.push(reframed(&reader));
            }
            assert!(msg.try_read_from(&mut r, options()).unwrap().is_none());
        }
        Way::Packed => {
            let mut r = BufReader::with_capacity(chunk.max(1), src);
            while let Some(reader) = msg.try_read_packed_from(&mut r, options()).unwrap() {
                got.push(reframed(&reader));
            }
            assert!(
                msg.try_read_packed_from(&mut r, options())
                    .unwrap()
                    .is_none()
            );
            assert!(matches!(
                msg.read_packed_from(&mut r, options()),
                Err(Error::EndOfStream)
            ));
        }
        Way::PackedReader => {
            let mut r = PackedReader::with_capacity(chunk, src);
            while let Some(reader) = msg.try_read_from(&mut r, options()).unwrap() {
                got.push(reframed(&reader));
            }
            assert!(msg.try_read_from(&mut r, options()).unwrap().is_none());
        }
        Way::Buffered => {
            let mut r = BufReader::with_capacity(chunk.max(1), src);
            while let Some(reader) = msg.try_read_buffered_from(&mut r, options()).unwrap() {
                got.push(reframed(&reader));
            }
            assert!(
                msg.try_read_buffered_from(&mut r, options())
                    .unwrap()
                    .is_none()
            );
            assert!(matches!(
                msg.read_buffered_from(&mut r, options()),
                Err(Error::EndOfStream)
            ));
        }
    }
    got
}

/// Framed and packed streams of messages of every size and segment count
/// read back in order, whatever the size of the reads, then `Ok(None)`.
#[test]
fn messages_come_back_in_order_then_none() {
    let msgs = messages();
    let framed_stream = msgs.concat();
    let packed_stream: Vec<u8> = msgs.iter().flat_map(|m| packed(m)).collect();
    for chunk in [1, 3, 8, 13, 4096] {
        assert!(
            read_all(Way::Framed, &framed_stream, chunk) == msgs,
            "framed, reads of {chunk}"
        );
        assert!(
            read_all(Way::Packed, &packed_stream, chunk) == msgs,
            "packed, reads of {chunk}"
        );
        let via_reader = read_all(Way::PackedReader, &packed_stream, chunk.max(16));
        assert!(via_reader == msgs, "PackedReader, reads of {chunk}");
        assert!(
            read_all(Way::Buffered, &framed_stream, chunk) == msgs,
            "buffered, a buffer of {chunk}"
        );
    }
    // From a byte slice, whose buffer is the whole stream.
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut rest = &framed_stream[..];
    let mut got = Vec::new();
    while let Some(reader) = msg.try_read_buffered_from(&mut rest, options()).unwrap() {
        got.push(reframed(&reader));
    }
    assert!(got == msgs, "try_read_buffered_from on a byte slice");
    // From a byte slice, message by message.
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut rest = &packed_stream[..];
    let mut got = Vec::new();
    while !rest.is_empty() {
        let (reader, used) = msg.read_packed_from_bytes_prefix(rest, options()).unwrap();
        got.push(reframed(&reader));
        rest = &rest[used..];
    }
    assert!(got == msgs, "read_packed_from_bytes_prefix");
}

/// Reads `stream` cut to `cut` bytes: the messages before the cut, then
/// what the next read gave (`Ok(None)` or the error).
fn read_cut(way: Way, stream: &[u8], cut: usize) -> (usize, Result<(), Error>) {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut r = &stream[..cut];
    let mut n = 0;
    loop {
        let next = match way {
            Way::Framed => msg.try_read_from(&mut r, options()).map(|m| m.is_some()),
            Way::Packed => msg
                .try_read_packed_from(&mut r, options())
                .map(|m| m.is_some()),
            Way::Buffered => msg
                .try_read_buffered_from(&mut r, options())
                .map(|m| m.is_some()),
            Way::PackedReader => unreachable!("not cut"),
        };
        match next {
            Ok(true) => n += 1,
            Ok(false) => return (n, Ok(())),
            Err(e) => return (n, Err(e)),
        }
    }
}

/// Cutting a stream at every byte of its last message: `Truncated` (with
/// the bytes the message needs, and fewer available) at every cut inside
/// it, `Ok(None)` after the other messages when cut exactly before it, and
/// all messages then `Ok(None)` when not cut. The last message has three
/// segments, so cuts fall inside its segment table too.
#[test]
fn truncation_inside_the_last_message_is_an_error() {
    let all = messages();
    // Two small messages, then a multi-segment one last.
    let msgs = [all[5].clone(), all[0].clone(), all[all.len() - 2].clone()];
    for way in [Way::Framed, Way::Packed, Way::Buffered] {
        let encoded: Vec<Vec<u8>> = match way {
            Way::Framed | Way::Buffered => msgs.to_vec(),
            _ => msgs.iter().map(|m| packed(m)).collect(),
        };
        let stream = encoded.concat();
        let last_start = stream.len() - encoded[2].len();
        let last_framed_len = msgs[2].len() as u64;
        for cut in last_start..=stream.len() {
            let (n, end) = read_cut(way, &stream, cut);
            if cut == last_start {
                assert!(n == 2 && end.is_ok(), "{way:?} cut {cut}: {n} then {end:?}");
            } else if cut == stream.len() {
                assert!(n == 3 && end.is_ok(), "{way:?} cut {cut}: {n} then {end:?}");
            } else {
                assert_eq!(n, 2, "{way:?} cut {cut}");
                match end {
                    Err(Error::Truncated { needed, available }) => {
                        assert!(
                            available < needed,
                            "{way:?} cut {cut}: {available} >= {needed}"
                        );
                        assert!(needed <= last_framed_len, "{way:?} cut {cut}");
                        if matches!(way, Way::Framed | Way::Buffered) {
                            assert_eq!(available, (cut - last_start) as u64, "{way:?} cut {cut}");
                        }
                    }
                    other => panic!("{way:?} cut {cut} of {}: {other:?}", stream.len()),
                }
            }
        }
    }
}

/// Once the arena and the stream's readers are warm, reading the whole
/// stream again (every message of at most 8 segments) allocates nothing:
/// framed from a reader, packed from a `BufRead`, packed from a byte
/// slice, framed through a `PackedReader`, and framed from a `BufRead`
/// (`try_read_buffered_from`); on a single-segment arena
/// and a multi-segment one.
#[test]
fn warm_stream_reads_allocate_nothing() {
    let msgs = messages();
    assert!(msgs.len() >= 8);
    let framed_stream = msgs.concat();
    let packed_stream: Vec<u8> = msgs.iter().flat_map(|m| packed(m)).collect();

    fn pass<A: Arena>(msg: &mut Message<A>, framed: &[u8], packed: &[u8]) -> [u64; 5] {
        let (n, framed_allocs) = count_allocs(|| {
            let mut r = Chunked {
                data: framed,
                chunk: 1000,
            };
            let mut n = 0;
            while let Some(reader) = msg.try_read_from(&mut r, options()).unwrap() {
                n += reader.segment_count() as usize;
            }
            n
        });
        assert!(n > 0);
        let mut buffered = BufReader::with_capacity(
            512,
            Chunked {
                data: packed,
                chunk: 700,
            },
        );
        let (_, bufread_allocs) = count_allocs(|| {
            while msg
                .try_read_packed_from(&mut buffered, options())
                .unwrap()
                .is_some()
            {}
        });
        let (_, slice_allocs) = count_allocs(|| {
            let mut rest = packed;
            while !rest.is_empty() {
                rest = &rest[msg
                    .read_packed_from_bytes_prefix(rest, options())
                    .unwrap()
                    .1..];
            }
        });
        let mut unpacking = PackedReader::new(packed);
        let (_, reader_allocs) = count_allocs(|| {
            while msg
                .try_read_from(&mut unpacking, options())
                .unwrap()
                .is_some()
            {}
        });
        let mut framed_buffered = BufReader::with_capacity(
            512,
            Chunked {
                data: framed,
                chunk: 700,
            },
        );
        let (_, framed_bufread_allocs) = count_allocs(|| {
            while msg
                .try_read_buffered_from(&mut framed_buffered, options())
                .unwrap()
                .is_some()
            {}
        });
        [
            framed_allocs,
            bufread_allocs,
            slice_allocs,
            reader_allocs,
            framed_bufread_allocs,
        ]
    }

    let mut single = Message::new(SingleSegmentArena::new());
    let cold = pass(&mut single, &framed_stream, &packed_stream);
    let warm = pass(&mut single, &framed_stream, &packed_stream);
    println!("SingleSegmentArena: cold {cold:?}, warm {warm:?}");
    assert_eq!(warm, [0; 5], "SingleSegmentArena, warm");

    let mut multi = Message::new(MultiSegmentArena::new());
    let cold = pass(&mut multi, &framed_stream, &packed_stream);
    let warm = pass(&mut multi, &framed_stream, &packed_stream);
    println!("MultiSegmentArena: cold {cold:?}, warm {warm:?}");
    assert_eq!(warm, [0; 5], "MultiSegmentArena, warm");
}

/// A message whose table breaks a limit (more segments than allowed, or
/// more words than the traversal limit) gets the same error from
/// `try_read_buffered_from` as from `try_read_from`, whether the whole
/// message is in the buffer (read in place) or not (read through `Read`).
#[test]
fn buffered_reads_refuse_bad_tables_as_plain_reads_do() {
    let msgs = messages();
    let one = msgs[0].clone();
    let multi = msgs[msgs.len() - 1].clone();
    let limits = [
        ReaderOptions {
            segment_limit: 2,
            ..options()
        },
        ReaderOptions {
            traversal_limit_words: 10,
            ..options()
        },
    ];
    for (i, opts) in limits.into_iter().enumerate() {
        for bytes in [&one, &multi] {
            let mut msg = Message::new(SingleSegmentArena::new());
            let plain = msg
                .try_read_from(&mut &bytes[..], opts)
                .map(|r| r.is_some());
            // Only one segment passes the segment limit.
            assert_eq!(plain.is_ok(), i == 0 && bytes == &one, "limits {i}");
            for capacity in [bytes.len() + 8, 8, 5] {
                let mut r = BufReader::with_capacity(capacity, &bytes[..]);
                let buffered = msg
                    .try_read_buffered_from(&mut r, opts)
                    .map(|r| r.is_some());
                assert_eq!(
                    format!("{buffered:?}"),
                    format!("{plain:?}"),
                    "limits {i}, {} bytes, buffer {capacity}",
                    bytes.len()
                );
            }
        }
    }
}
