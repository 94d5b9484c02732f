//! Regression tests for issue 12 ("Hold every promise under a buggy arena
//! and a hostile peer"): one test per finding, each spelling the input
//! that broke `main` and the exact outcome now. A broken `Arena`, `Read`
//! or `Write` may garble a message or make an operation fail; it never
//! panics, aborts, or loses a write.

mod common;

use std::io::{self, Read, Write};

use capnarena::serialize::packed::{PackedReader, PackedWriter, unpack_to_vec};
use capnarena::{
    Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize, Word,
    words_from_bytes,
};
use common::hostile::{CountFault, Faults, FlakyWriter, HostileArena, LyingReader};

fn bytes_of(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The frame of finding 1: one segment of four words whose last two are
/// struct pointers to themselves.
fn self_pointing_frame() -> Vec<u8> {
    bytes_of(&[
        0x0000_0004_0000_0000, // table: 1 segment (count - 1 = 0), 4 words
        0x0000_0000_0000_0000, // root pointer: null
        0x0000_0000_0000_0000, // unused
        0x0001_0000_ffff_fffc, // struct, offset -1 (itself), 0 data words, 1 pointer
        0x0001_0000_ffff_fffc, // the same
    ])
}

/// A message whose root's pointers are stale self-pointers left by an
/// arena that does not zero (finding 1): `read_from_bytes` of the frame
/// above, then a new root of two pointers over the same words.
fn stale_self_pointers() -> Message<HostileArena> {
    let faults = Faults {
        no_zero: true,
        ..Faults::default()
    };
    let mut msg = Message::new(HostileArena::new(faults, 64));
    msg.read_from_bytes(&self_pointing_frame(), ReaderOptions::default())
        .expect("the frame is valid: a null root");
    msg.init_root_struct(StructSize::new(0, 2)).unwrap();
    msg
}

fn is_limit(e: &Error) -> bool {
    matches!(
        e,
        Error::NestingLimitExceeded { .. } | Error::TraversalLimitExceeded { .. }
    )
}

/// Finding 1: `Message::reader()` over a message whose arena left
/// self-pointing struct pointers (it does not zero) is bounded: each of
/// `is_canonical`, `set_root` and `set_root_canonical` of its root stops
/// at a limit with an `Err`, where `main` recursed until the stack
/// overflowed and the process aborted.
#[test]
fn stale_self_pointers_stop_at_a_limit() {
    let msg = stale_self_pointers();
    let reader = msg.reader();
    let root = reader.root().unwrap();
    // The scenario holds: the new root's null fields are the stale words.
    assert_eq!(root.pointer(0).raw(), 0x0001_0000_ffff_fffc);
    assert_eq!(root.pointer(1).raw(), 0x0001_0000_ffff_fffc);

    let e = reader.is_canonical().unwrap_err();
    assert!(is_limit(&e), "is_canonical: {e:?}");
    let mut copy = Message::new(SingleSegmentArena::new());
    let e = copy.set_root(&root).unwrap_err();
    assert!(is_limit(&e), "set_root: {e:?}");
    let e = copy.set_root_canonical(&root).unwrap_err();
    assert!(is_limit(&e), "set_root_canonical: {e:?}");
}

/// Finding 1, the other way in: an arena that hands out overlapping words
/// puts the root struct (0 data words, 1 pointer) over the root pointer,
/// which then points at itself (`0x0001_0000_ffff_fffc`). Copying and
/// canonicalising it stop at a limit.
#[test]
fn overlapping_allocation_self_loop_stops_at_a_limit() {
    let faults = Faults {
        overlap: true,
        ..Faults::default()
    };
    let mut msg = Message::new(HostileArena::new(faults, 64));
    msg.init_root_struct(StructSize::new(0, 1)).unwrap();
    let reader = msg.reader();
    assert_eq!(reader.root_pointer().unwrap().raw(), 0x0001_0000_ffff_fffc);
    let root = reader.root().unwrap();
    let e = reader.is_canonical().unwrap_err();
    assert!(is_limit(&e), "is_canonical: {e:?}");
    let mut copy = Message::new(SingleSegmentArena::new());
    let e = copy.set_root(&root).unwrap_err();
    assert!(is_limit(&e), "set_root: {e:?}");
    let e = copy.set_root_canonical(&root).unwrap_err();
    assert!(is_limit(&e), "set_root_canonical: {e:?}");
}

/// Finding 2: `segment_mut` one word shorter than `segment`. Reading a
/// frame into the arena is an `ArenaContract` error (`main` panicked in
/// `copy_from_slice`), and so is building a root and setting `Data` on it
/// (`main` panicked in `set_data`): the words a message writes must lie
/// inside both views.
#[test]
fn short_segment_mut_is_an_arena_contract_error() {
    let faults = Faults {
        short_mut: 1,
        ..Faults::default()
    };
    let frame = bytes_of(&[
        0x0000_0002_0000_0000, // table: 1 segment, 2 words
        0x0001_0000_0000_0000, // root: struct, offset 0, 0 data words, 1 pointer
        0x0000_0000_0000_0000, // its pointer: null
    ]);
    let mut msg = Message::new(HostileArena::new(faults, 64));
    match msg.read_from_bytes(&frame, ReaderOptions::default()) {
        Err(Error::ArenaContract {
            segment: 0,
            offset: 0,
            len: 2,
            ..
        }) => {}
        Err(e) => panic!("read_from_bytes: {e:?}"),
        Ok(_) => panic!("read_from_bytes: Ok"),
    }
    let built = msg
        .init_root_struct(StructSize::new(1, 1))
        .and_then(|mut root| root.set_data(0, b"hello"));
    assert!(
        matches!(built, Err(Error::ArenaContract { segment: 0, .. })),
        "{built:?}"
    );
}

/// Builds a root with one data word `0x2a` in `msg`.
fn build_small(msg: &mut Message<HostileArena>) {
    msg.init_root_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, 0x2a);
}

/// Finding 3: a segment count that grows on every call. `append_to`,
/// `write_to`, `write_segment_table` and the packed writers read it once
/// per operation (`main` indexed past the table it had sized with an
/// earlier answer), so the framing they write is consistent: a table of
/// `n` segments, the extra ones empty, which reads back to the root.
#[test]
fn growing_segment_count_is_read_once_per_operation() {
    let faults = Faults {
        count: CountFault::Grows,
        ..Faults::default()
    };
    let mut msg = Message::new(HostileArena::new(faults, 64));
    build_small(&mut msg);
    let options = ReaderOptions::default();
    let check = |framed: &[u8], what: &str| {
        let words = words_from_bytes(framed).unwrap();
        let r =
            MessageReader::from_words(&words, options).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        assert!(r.segment_count() >= 2, "{what}: the count grew");
        assert_eq!(r.root().unwrap().get::<u64>(0), 0x2a, "{what}");
    };
    let mut appended = Vec::new();
    msg.append_to(&mut appended);
    check(&appended, "append_to");
    let mut written = Vec::new();
    msg.write_to(&mut written).unwrap();
    check(&written, "write_to");
    let mut table = vec![0u8; 4096];
    let n = msg.write_segment_table(&mut table).unwrap();
    let count = u32::from_le_bytes(table[..4].try_into().unwrap()) as usize + 1;
    assert_eq!(n, (count + 2) / 2 * 8, "table length matches its count");
    let mut packed = Vec::new();
    msg.write_packed_to(&mut packed).unwrap();
    let mut unpacked = Vec::new();
    unpack_to_vec(&packed, &mut unpacked, 1 << 20).unwrap();
    check(Word::slice_as_bytes(&unpacked), "write_packed_to");
    let mut appended_packed = Vec::new();
    msg.append_packed_to(&mut appended_packed);
    let mut unpacked = Vec::new();
    unpack_to_vec(&appended_packed, &mut unpacked, 1 << 20).unwrap();
    check(Word::slice_as_bytes(&unpacked), "append_packed_to");
}

/// Finding 3: a segment count of 0 from an arena that holds a built
/// message is taken as 1 (`main` computed `0 - 1`, a panic in debug
/// builds): the message frames as its one segment and reads back.
#[test]
fn zero_segment_count_frames_as_one_segment() {
    let faults = Faults {
        count: CountFault::Zero,
        ..Faults::default()
    };
    let mut msg = Message::new(HostileArena::new(faults, 64));
    build_small(&mut msg);
    assert_eq!(msg.segment_count(), 1);
    let mut table = [0u8; 8];
    assert_eq!(msg.write_segment_table(&mut table).unwrap(), 8);
    assert_eq!(
        table,
        [0, 0, 0, 0, 2, 0, 0, 0],
        "one segment of two words: root pointer and data word"
    );
    let mut framed = Vec::new();
    msg.write_to(&mut framed).unwrap();
    let words = words_from_bytes(&framed).unwrap();
    let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
    assert_eq!(r.root().unwrap().get::<u64>(0), 0x2a);
}

/// Finding 4: an inner reader that reports 100 bytes more than the
/// buffer it was given holds. `PackedReader::read` returns an
/// `InvalidData` error carrying `Error::ReadPastBuffer` (`main` panicked
/// slicing its buffer), and the framed stream reader returns
/// `Error::ReadPastBuffer` itself.
#[test]
fn reader_reporting_past_its_buffer_is_an_error() {
    let packed = [0x00u8, 0x00]; // one zero word
    let mut r = PackedReader::with_capacity(
        16,
        LyingReader {
            data: &packed,
            extra: 100,
            interrupt: true,
            calls: 0,
        },
    );
    let mut out = [0u8; 8];
    let e = r.read(&mut out).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    let inner = e.get_ref().and_then(|e| e.downcast_ref::<Error>());
    assert!(
        matches!(
            inner,
            Some(Error::ReadPastBuffer {
                reported: 102,
                buffer: 16
            })
        ),
        "{inner:?}"
    );

    let frame = bytes_of(&[0x0000_0001_0000_0000, 0]);
    let mut msg = Message::new(SingleSegmentArena::new());
    let lying = LyingReader {
        data: &frame,
        extra: 100,
        interrupt: true,
        calls: 0,
    };
    match msg.read_from(lying, ReaderOptions::default()) {
        Err(Error::ReadPastBuffer {
            reported: 108,
            buffer: 8,
        }) => {}
        Err(e) => panic!("read_from: {e:?}"),
        Ok(_) => panic!("read_from: Ok"),
    }
}

fn one_word_message() -> (Message<SingleSegmentArena>, Vec<u8>, Vec<u8>) {
    let mut msg = Message::new(SingleSegmentArena::new());
    msg.init_root_struct(StructSize::new(1, 0))
        .unwrap()
        .set::<u64>(0, 7);
    let mut framed = Vec::new();
    msg.write_to(&mut framed).unwrap();
    let mut packed = Vec::new();
    msg.write_packed_to(&mut packed).unwrap();
    (msg, framed, packed)
}

/// Finding 6: an inner writer that fails once with `WouldBlock`. The
/// first `flush` of a `PackedWriter` errs, the retry writes the packed
/// bytes it owes, and `finish` hands back a writer holding all of them
/// (`main` had cleared its buffer before the failed write: the retry and
/// `finish` returned `Ok` with nothing written).
#[test]
fn packed_writer_retry_writes_what_is_owed() {
    let (msg, framed, packed) = one_word_message();
    let mut w = PackedWriter::new(FlakyWriter::new(vec![0], io::ErrorKind::WouldBlock));
    w.write_all(&framed).unwrap();
    assert_eq!(w.flush().unwrap_err().kind(), io::ErrorKind::WouldBlock);
    w.flush().unwrap();
    let inner = w.finish().unwrap();
    assert_eq!(inner.out, packed);
    drop(msg);
}

/// Finding 6, more ways: errors of other kinds, an inner writer that
/// takes 3 bytes at a time and fails in the middle of the buffer, and a
/// buffer too small for the message so `write` itself meets the error.
/// Retrying each call that failed gives the bytes `write_packed_to`
/// writes, which unpack to the framed message.
#[test]
fn packed_writer_never_loses_bytes_on_any_error() {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u64>(0, u64::MAX);
    let mut list = root
        .init_list(0, capnarena::ElementSize::EightBytes, 700)
        .unwrap();
    for i in 0..700 {
        list.set::<u64>(i, u64::from(i) * 0x0101_0101);
    }
    let mut framed = Vec::new();
    msg.write_to(&mut framed).unwrap();
    let mut direct = Vec::new();
    msg.write_packed_to(&mut direct).unwrap();
    for kind in [
        io::ErrorKind::WouldBlock,
        io::ErrorKind::Interrupted,
        io::ErrorKind::Other,
    ] {
        for fail_on in [vec![0], vec![1], vec![0, 1, 2], vec![2, 5]] {
            for capacity in [8192, 2570] {
                let mut inner = FlakyWriter::new(fail_on.clone(), kind);
                inner.max_chunk = 3;
                let mut w = PackedWriter::with_capacity(capacity, inner);
                let mut pos = 0;
                let mut errors = 0;
                while pos < framed.len() {
                    match w.write(&framed[pos..]) {
                        Ok(n) => pos += n,
                        Err(_) => errors += 1,
                    }
                    assert!(errors < 100, "no progress");
                }
                while w.flush().is_err() {
                    errors += 1;
                    assert!(errors < 100, "no progress");
                }
                let out = w.finish().unwrap().out;
                let label = format!("{kind:?} on {fail_on:?}, buffer {capacity}");
                // Items end where the input does, never where a call or
                // the buffer did: the same bytes as in one go.
                assert_eq!(out, direct, "{label}");
                let mut back = Vec::new();
                unpack_to_vec(&out, &mut back, 1 << 20).unwrap();
                assert_eq!(Word::slice_as_bytes(&back), &framed[..], "{label}");
            }
        }
    }
}

/// `words_from_bytes` refuses a cut last word (`main` zero-padded it, so
/// `from_words(&words_from_bytes(b))` read a message that `from_bytes`
/// reports as truncated): here a message whose last word is `7`, cut by
/// 1 to 7 of its zero bytes.
#[test]
fn words_from_bytes_refuses_a_cut_word() {
    let (_msg, framed, _) = one_word_message();
    assert_eq!(
        framed,
        bytes_of(&[
            0x0000_0002_0000_0000, // table: 1 segment, 2 words
            0x0000_0001_0000_0000, // root: struct, offset 0, 1 data word
            0x0000_0000_0000_0007, // the data word
        ])
    );
    let words = words_from_bytes(&framed).unwrap();
    assert!(MessageReader::from_words(&words, ReaderOptions::default()).is_ok());
    for cut in 1..8 {
        let bytes = &framed[..framed.len() - cut];
        match words_from_bytes(bytes) {
            Err(Error::Truncated { needed, available }) => {
                assert_eq!((needed, available), (24, 24 - cut as u64));
            }
            other => panic!("cut {cut}: {other:?}"),
        }
    }
}

/// A framed message of three segments of 100,000, 8,192 and 20,001 words
/// (words `i * 0x0101_0101_0101_0101 + seed`), written by hand: the
/// segment table does not have to make a message that reads, only one
/// that frames.
fn large_frame() -> (Vec<u8>, Vec<Vec<u64>>) {
    let sizes = [100_000u32, 8_192, 20_001];
    let segments: Vec<Vec<u64>> = sizes
        .iter()
        .enumerate()
        .map(|(s, &n)| {
            (0..u64::from(n))
                .map(|i| i.wrapping_mul(0x0101_0101_0101_0101) ^ (s as u64) << 60)
                .collect()
        })
        .collect();
    let mut framed = 2u32.to_le_bytes().to_vec();
    for n in sizes {
        framed.extend_from_slice(&n.to_le_bytes());
    }
    for seg in &segments {
        framed.extend(seg.iter().flat_map(|w| w.to_le_bytes()));
    }
    (framed, segments)
}

/// Stream reads take a long segment's memory as its words arrive (issue
/// 12, finding 5) and still give back every word: segments past the
/// first 64 KiB chunk, read framed and packed, into arenas that keep the
/// next chunk contiguous (single, fixed), that start new segments (multi
/// with the default policy or 1,000-word segments) and that never do
/// (one word per segment: every chunk moves).
#[test]
fn long_segments_read_back_whole_when_read_in_chunks() {
    use capnarena::{FixedArena, GrowthPolicy, MultiSegmentArena};
    let (framed, segments) = large_frame();
    let mut packed = Vec::new();
    capnarena::serialize::packed::pack_to_vec(&words_from_bytes(&framed).unwrap(), &mut packed);
    let options = ReaderOptions::default();
    let check = |what: &str, r: capnarena::Result<MessageReader<'_>>| {
        let r = r.unwrap_or_else(|e| panic!("{what}: {e:?}"));
        assert_eq!(r.segment_count(), 3, "{what}");
        for (i, want) in segments.iter().enumerate() {
            let got: Vec<u64> = r
                .segment(i as u32)
                .unwrap()
                .iter()
                .map(|w| w.to_u64())
                .collect();
            assert!(got == *want, "{what}: segment {i} differs");
        }
    };
    let mut fixed_words = vec![Word::ZERO; 200_000];
    for packed_input in [false, true] {
        let input: &[u8] = if packed_input { &packed } else { &framed };
        let how = if packed_input { "packed" } else { "framed" };
        let mut single = Message::new(SingleSegmentArena::new());
        check(
            &format!("{how}, single"),
            read(&mut single, input, packed_input, options),
        );
        let mut multi = Message::new(MultiSegmentArena::new());
        check(
            &format!("{how}, multi"),
            read(&mut multi, input, packed_input, options),
        );
        let mut small = Message::new(
            MultiSegmentArena::new()
                .with_first_segment_words(999)
                .with_policy(GrowthPolicy::FixedSize(1_000)),
        );
        check(
            &format!("{how}, multi of 1,000"),
            read(&mut small, input, packed_input, options),
        );
        let mut one = Message::new(common::OneWordArena::default());
        check(
            &format!("{how}, one word"),
            read(&mut one, input, packed_input, options),
        );
        let mut fixed = Message::new(FixedArena::new(&mut fixed_words));
        check(
            &format!("{how}, fixed"),
            read(&mut fixed, input, packed_input, options),
        );
    }
}

fn read<'m, A: capnarena::Arena>(
    msg: &'m mut Message<A>,
    input: &[u8],
    packed: bool,
    options: ReaderOptions,
) -> capnarena::Result<MessageReader<'m>> {
    if packed {
        msg.read_packed_from(input, options)
    } else {
        msg.read_from(input, options)
    }
}
