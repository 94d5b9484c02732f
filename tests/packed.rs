//! Packed encoding against the reference implementation's vectors and
//! tool, property tests of the codec, and packed message reading errors.
//!
//! The reference tests need `capnp` on PATH (see tests/common/peer.rs:
//! SKIP without it, unless `CAPNARENA_REQUIRE_PEER=1`).

mod common;
#[path = "common/peer.rs"]
mod peer;

use std::io::{Read, Write};

use capnarena::serialize::packed::{
    PackedReader, PackedWriter, Unpacker, max_packed_len, pack, packed_len, unpack, unpack_to_vec,
    unpacked_len, write_packed_segments,
};
use capnarena::{
    Arena, Error, Message, MessageReader, MultiSegmentArena, PackedFault, ReaderOptions,
    SingleSegmentArena, Word, words_from_bytes,
};
use common::OneWordArena;
use common::build::build_named;
use peer::{diff, peer, reference_text, root_type};
use proptest::prelude::*;

/// Every vector with a `.packed` file.
const VECTORS: [&str; 5] = ["empty", "full", "scalars", "lists", "log"];

/// Vectors built by tests/common/build.rs.
const BUILT: [&str; 4] = ["full", "scalars", "lists", "log"];

/// Segment limit high enough for every vector (log.seg1.bin has 1,186).
fn options() -> ReaderOptions {
    ReaderOptions::default().segment_limit(u32::MAX)
}

/// The reference's stream reader rejects this many segments and more.
const REFERENCE_SEGMENT_LIMIT: u32 = 512;

fn segments<'a>(reader: &MessageReader<'a>) -> Vec<&'a [Word]> {
    (0..reader.segment_count())
        .map(|i| reader.segment(i).expect("segment"))
        .collect()
}

fn framed(segs: &[&[Word]]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(segs.len() as u32 - 1).to_le_bytes());
    for s in segs {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    }
    if out.len() % 8 != 0 {
        out.extend_from_slice(&[0; 4]);
    }
    for s in segs {
        out.extend_from_slice(Word::slice_as_bytes(s));
    }
    out
}

/// Every `.packed` vector unpacks to exactly the words of its `.bin`, by
/// every unpacking path: `unpack`, `unpack_to_vec`, the `Unpacker` fed one
/// byte at a time, `PackedReader`, and `read_packed_from_bytes` (whose
/// segments, framed again, are the `.bin`).
#[test]
fn vectors_unpack_to_their_bin() {
    for name in VECTORS {
        let bin = common::vector(&format!("{name}.bin"));
        let packed = common::vector(&format!("{name}.packed"));
        let want = words_from_bytes(&bin).unwrap();

        assert_eq!(unpacked_len(&packed).unwrap(), want.len() as u64, "{name}");
        let mut out = vec![Word(*b"garbage!"); want.len()];
        assert_eq!(unpack(&packed, &mut out).unwrap(), want.len(), "{name}");
        assert!(out == want, "{name}: unpack");

        let mut v = Vec::new();
        unpack_to_vec(&packed, &mut v, want.len() as u64).unwrap();
        assert!(v == want, "{name}: unpack_to_vec");

        let mut u = Unpacker::new();
        let mut bytes = vec![0u8; bin.len()];
        let mut o = 0;
        for b in packed.chunks(1) {
            let p = u.unpack(b, &mut bytes[o..]);
            assert_eq!(p.consumed, 1);
            o += p.written;
        }
        u.finish().unwrap();
        assert!(bytes == bin, "{name}: Unpacker byte by byte");

        let mut r = PackedReader::with_capacity(7, &packed[..]);
        let mut bytes = Vec::new();
        r.read_to_end(&mut bytes).unwrap();
        assert!(bytes == bin, "{name}: PackedReader");

        let mut msg = Message::new(SingleSegmentArena::new());
        let reader = msg.read_packed_from_bytes(&packed, options()).unwrap();
        assert!(
            framed(&segments(&reader)) == bin,
            "{name}: read_packed_from_bytes"
        );
    }
}

/// capnarena packs each vector's message, read from its `.bin`, to exactly
/// the reference's `.packed` bytes (the reference packs the segment table
/// and each segment on their own, as capnarena does), by
/// `write_packed_segments`, `pack` of the framed words and a
/// `PackedWriter`; and the reference tool reads capnarena's packed bytes
/// back as `NAME.expected`.
#[test]
fn vectors_pack_to_the_reference_bytes() {
    let capnp = peer();
    for name in VECTORS {
        let bin = common::vector(&format!("{name}.bin"));
        let want = common::vector(&format!("{name}.packed"));
        let mut msg = Message::new(SingleSegmentArena::new());
        let reader = msg.read_from_bytes(&bin, options()).unwrap();
        let mut got = Vec::new();
        write_packed_segments(&mut got, &segments(&reader)).unwrap();
        assert!(
            got == want,
            "{name}: write_packed_segments differs from {name}.packed"
        );

        // Table and segment packed as two pieces, as the reference does.
        let words = words_from_bytes(&bin).unwrap();
        let mut out = vec![0u8; max_packed_len(words.len())];
        let n = pack(&words[..1], &mut out).unwrap();
        let m = pack(&words[1..], &mut out[n..]).unwrap();
        assert!(out[..n + m] == want[..], "{name}: pack");

        let mut w = PackedWriter::new(Vec::new());
        w.write_all(&bin[..8]).unwrap();
        w.write_all(&bin[8..]).unwrap();
        assert!(w.finish().unwrap() == want, "{name}: PackedWriter");

        if let Some(capnp) = &capnp {
            let expected = String::from_utf8(common::vector(&format!("{name}.expected"))).unwrap();
            match reference_text(capnp, "packed", root_type(name), &got) {
                Ok(text) => assert!(text == expected, "{name}:\n{}", diff(&expected, &text)),
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
}

/// The many-segment vectors (`.segN.bin`: far and double-far pointers),
/// packed by capnarena, read back to the same segments, and the reference
/// renders them as `NAME.expected` (those under its segment limit).
#[test]
fn multi_segment_vectors_pack_and_the_reference_reads_them() {
    let capnp = peer();
    for name in VECTORS {
        for n in [1, 3, 16] {
            let file = format!("{name}.seg{n}.bin");
            let bin = common::vector(&file);
            let mut msg = Message::new(MultiSegmentArena::new());
            let reader = msg.read_from_bytes(&bin, options()).unwrap();
            let count = reader.segment_count();
            let mut packed = Vec::new();
            write_packed_segments(&mut packed, &segments(&reader)).unwrap();
            drop(msg);

            let mut back = Message::new(MultiSegmentArena::new());
            let reader = back.read_packed_from_bytes(&packed, options()).unwrap();
            assert!(framed(&segments(&reader)) == bin, "{file}: read back");

            let Some(capnp) = &capnp else { continue };
            if count >= REFERENCE_SEGMENT_LIMIT {
                println!("{file}: {count} segments, over the reference's limit; read back only");
                continue;
            }
            let expected = String::from_utf8(common::vector(&format!("{name}.expected"))).unwrap();
            match reference_text(capnp, "packed", root_type(name), &packed) {
                Ok(text) => assert!(text == expected, "{file}:\n{}", diff(&expected, &text)),
                Err(e) => panic!("{file}: {e}"),
            }
        }
    }
}

/// Packs `msg` by all three message-level writers, checks they agree, and
/// returns the bytes.
fn packed_three_ways<A: Arena>(label: &str, msg: &Message<A>) -> Vec<u8> {
    let mut written = Vec::new();
    msg.write_packed_to(&mut written).unwrap();
    let mut appended = vec![0xee; 3]; // appends after what is there
    msg.append_packed_to(&mut appended);
    assert!(
        appended[3..] == written[..],
        "{label}: append_packed_to differs"
    );
    let mut w = PackedWriter::with_capacity(64, Vec::new());
    msg.write_to(&mut w).unwrap();
    assert!(
        w.finish().unwrap() == written,
        "{label}: write_to(PackedWriter) differs"
    );
    written
}

/// Messages built by capnarena (one segment; four-word segments; a segment
/// per object) are packed the same by `write_packed_to`,
/// `append_packed_to` and `write_to` through a `PackedWriter`; the
/// reference renders them as `NAME.expected`; where the framed message is
/// byte-equal to the reference's `.bin`, the packed one is byte-equal to
/// its `.packed`; and they read back to the same segments.
#[test]
fn built_messages_pack_for_the_reference() {
    let capnp = peer();
    for name in BUILT {
        let expected = String::from_utf8(common::vector(&format!("{name}.expected"))).unwrap();
        let mut single = Message::new(SingleSegmentArena::new());
        build_named(name, &mut single).unwrap();
        let mut small = Message::new(
            MultiSegmentArena::new()
                .with_first_segment_words(3)
                .with_policy(capnarena::GrowthPolicy::FixedSize(4)),
        );
        build_named(name, &mut small).unwrap();
        let mut one_word = Message::new(OneWordArena::default());
        build_named(name, &mut one_word).unwrap();

        let cases: [(&str, Vec<u8>, Vec<u8>, u32); 3] = [
            (
                "single",
                packed_three_ways(name, &single),
                framed_of(&single),
                single.segment_count(),
            ),
            (
                "small segments",
                packed_three_ways(name, &small),
                framed_of(&small),
                small.segment_count(),
            ),
            (
                "one-word",
                packed_three_ways(name, &one_word),
                framed_of(&one_word),
                one_word.segment_count(),
            ),
        ];
        for (label, packed, framed_bytes, count) in cases {
            let mut back = Message::new(MultiSegmentArena::new());
            let reader = back.read_packed_from_bytes(&packed, options()).unwrap();
            assert!(
                framed(&segments(&reader)) == framed_bytes,
                "{name} {label}: read back"
            );
            if framed_bytes == common::vector(&format!("{name}.bin")) {
                assert!(
                    packed == common::vector(&format!("{name}.packed")),
                    "{name} {label}: framed equals {name}.bin but packed differs from {name}.packed"
                );
                println!("{name} {label}: byte-equal to {name}.bin and {name}.packed");
            }
            let Some(capnp) = &capnp else { continue };
            if count >= REFERENCE_SEGMENT_LIMIT {
                println!("{name} {label}: {count} segments, over the reference's limit");
                continue;
            }
            match reference_text(capnp, "packed", root_type(name), &packed) {
                Ok(text) => assert!(
                    text == expected,
                    "{name} {label}:\n{}",
                    diff(&expected, &text)
                ),
                Err(e) => panic!("{name} {label}: {e}"),
            }
        }
    }
}

fn framed_of<A: Arena>(msg: &Message<A>) -> Vec<u8> {
    let mut out = Vec::new();
    msg.append_to(&mut out);
    out
}

// ---- packed message reading errors ----

fn packed_error(bytes: &[u8], options: ReaderOptions) -> Error {
    let mut msg = Message::new(SingleSegmentArena::new());
    match msg.read_packed_from_bytes(bytes, options) {
        Ok(_) => panic!("{bytes:02x?}: read"),
        Err(e) => e,
    }
}

/// The segment table of a packed message is checked against the limits
/// before its body is read: a table alone, with no body at all, is
/// rejected for the limit, not as truncated.
#[test]
fn packed_table_is_checked_before_the_body() {
    // Table word: 1000 segments (count - 1 = 999 = 0x3e7), first size 1.
    let table = pack_words(&[Word([0xe7, 0x03, 0, 0, 1, 0, 0, 0])]);
    match packed_error(&table, ReaderOptions::default()) {
        Error::SegmentLimitExceeded { count, limit } => assert_eq!((count, limit), (1000, 512)),
        e => panic!("{e:?}"),
    }
    // One segment of 0x0100_0000 words, more than the 8 Mi word default.
    let table = pack_words(&[Word([0, 0, 0, 0, 0, 0, 0, 1])]);
    match packed_error(&table, ReaderOptions::default()) {
        Error::MessageTooLarge { declared, limit } => {
            assert_eq!((declared, limit), (1 << 24, 8 << 20))
        }
        e => panic!("{e:?}"),
    }
    // Within the limits, the missing body is a truncation (in unpacked bytes).
    let table = pack_words(&[Word([0, 0, 0, 0, 2, 0, 0, 0])]);
    match packed_error(&table, ReaderOptions::default()) {
        Error::Truncated { needed, available } => assert_eq!((needed, available), (24, 8)),
        e => panic!("{e:?}"),
    }
}

fn pack_words(words: &[Word]) -> Vec<u8> {
    let mut out = vec![0; max_packed_len(words.len())];
    let n = pack(words, &mut out).unwrap();
    out.truncate(n);
    out
}

/// A zero run or literal run that goes on past the end of the message (as
/// the segment table gives it) is an error at the run's tag, not data
/// silently dropped or handed to the next message.
#[test]
fn run_past_the_message_end_is_an_error() {
    // Table: one segment of 1 word; then a zero word and 1 more.
    let bytes = [0x10, 0x01, 0x00, 0x01];
    match packed_error(&bytes, ReaderOptions::default()) {
        Error::Packed { offset, fault } => {
            assert_eq!(
                (offset, fault),
                (2, PackedFault::OutputFull { capacity_bytes: 16 })
            )
        }
        e => panic!("{e:?}"),
    }
    // A dense word, then a literal run of one word past the end.
    let mut bytes = vec![0x10, 0x01, 0xff];
    bytes.extend_from_slice(&[7; 8]);
    bytes.push(1);
    bytes.extend_from_slice(&[7; 8]);
    match packed_error(&bytes, ReaderOptions::default()) {
        Error::Packed { offset, fault } => {
            assert_eq!(
                (offset, fault),
                (2, PackedFault::OutputFull { capacity_bytes: 16 })
            )
        }
        e => panic!("{e:?}"),
    }
    // Exactly one message, then a byte more: trailing data.
    let bytes = [0x10, 0x01, 0x00, 0x00, 0x00];
    match packed_error(&bytes, ReaderOptions::default()) {
        Error::TrailingData { extra } => assert_eq!(extra, 1),
        e => panic!("{e:?}"),
    }
    // Empty input.
    assert!(matches!(
        packed_error(&[], ReaderOptions::default()),
        Error::Truncated {
            needed: 8,
            available: 0
        }
    ));
}

/// A zero run that spans the segment table and the body, and is the last
/// item of the input, reads from a `BufRead` as it does from a slice: the
/// run's rest is owed output, written without asking the reader for more
/// (a fuzz find: the stream path asked first, saw the end and reported a
/// truncated message).
#[test]
fn zero_run_across_table_and_body_at_end_of_stream() {
    // Two segments of 1 and 0 words: table word 0 is [1, 0, 0, 0, 1, 0, 0,
    // 0] (tag 0x11), table word 1 (size 0 and padding) and the body (a null
    // root) are one zero run: a zero word and 1 more.
    let bytes = [0x11, 0x01, 0x01, 0x00, 0x01];
    let mut m = Message::new(SingleSegmentArena::new());
    let (r, used) = m.read_packed_from_bytes_prefix(&bytes, options()).unwrap();
    assert_eq!((used, r.segment_count()), (bytes.len(), 2));
    for capacity in 1..=bytes.len() {
        let mut src = std::io::BufReader::with_capacity(capacity, &bytes[..]);
        let r = m.read_packed_from(&mut src, options()).unwrap();
        assert_eq!(r.segment_count(), 2, "BufReader capacity {capacity}");
        assert_eq!(r.segment(0).unwrap(), &[Word::ZERO]);
        assert!(r.segment(1).unwrap().is_empty());
        assert!(
            m.try_read_packed_from(&mut src, options())
                .unwrap()
                .is_none(),
            "clean end after the message, capacity {capacity}"
        );
    }
}

/// `PackedReader` reports input that ends inside an item as an
/// `UnexpectedEof` I/O error carrying the packed fault.
#[test]
fn packed_reader_reports_a_cut_item() {
    let mut r = PackedReader::new(&[0x01, 0x07, 0xff, 1, 2][..]);
    let mut out = Vec::new();
    let e = r.read_to_end(&mut out).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
    let inner = e.get_ref().and_then(|e| e.downcast_ref::<Error>());
    match inner {
        Some(Error::Packed { offset: 2, fault }) => assert_eq!(
            *fault,
            PackedFault::TagPastEnd {
                tag: 0xff,
                needed: 9,
                available: 2
            }
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(out, [7, 0, 0, 0, 0, 0, 0, 0]);
}

/// `PackedWriter::finish` reports bytes that do not make a whole word;
/// bytes written in odd pieces still pack and unpack to themselves.
#[test]
fn packed_writer_pieces_and_partial_words() {
    let plain: Vec<u8> = (0..800u32)
        .map(|i| if i % 3 == 0 { 0 } else { i as u8 })
        .collect();
    for piece in [1, 3, 7, 8, 13, 800] {
        let mut w = PackedWriter::with_capacity(0, Vec::new());
        for chunk in plain.chunks(piece) {
            w.write_all(chunk).unwrap();
        }
        let packed = w.finish().unwrap();
        let mut back = Vec::new();
        PackedReader::new(&packed[..])
            .read_to_end(&mut back)
            .unwrap();
        assert!(back == plain, "pieces of {piece}");
    }
    let mut w = PackedWriter::new(Vec::new());
    w.write_all(&[1; 11]).unwrap();
    assert!(matches!(w.finish(), Err(Error::PartialWord { bytes: 3 })));
}

// ---- property tests ----

fn is_packed(e: &Error, offset: u64, fault: PackedFault) -> bool {
    matches!(*e, Error::Packed { offset: o, fault: f } if o == offset && f == fault)
}

/// Words made of runs that exercise every packing path: zero runs, dense
/// runs, words with one zero byte (which extend a dense run) and with two
/// (which end it), runs of words under one sparse tag (a list of one
/// shape, which the unpacker steps through without looking the length up
/// again), and arbitrary words; run lengths cluster around the 255-word
/// count limit.
fn words_strategy() -> impl Strategy<Value = Vec<Word>> {
    let len = prop_oneof![0..4usize, 250..262usize, 505..515usize];
    let chunk = (0..6u8, len, any::<u64>()).prop_map(|(kind, len, seed)| {
        // For kind 4: the bytes that are not zero, the same in every word;
        // never all eight or none, so the tag is sparse.
        let shape = match (seed >> 56) as u8 {
            0x00 | 0xff => 0x35,
            t => t,
        };
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        (0..len)
            .map(|_| {
                let r = next();
                let mut b = r.to_le_bytes();
                match kind {
                    0 => b = [0; 8],
                    1 => b.iter_mut().for_each(|c| *c |= 1),
                    2 => {
                        b.iter_mut().for_each(|c| *c |= 1);
                        b[(r >> 60) as usize & 7] = 0;
                    }
                    3 => {
                        b.iter_mut().for_each(|c| *c |= 1);
                        b[(r >> 58) as usize & 3] = 0;
                        b[4 + ((r >> 61) as usize & 3)] = 0;
                    }
                    4 => {
                        for (i, c) in b.iter_mut().enumerate() {
                            *c = if shape & (1 << i) != 0 { *c | 1 } else { 0 };
                        }
                    }
                    _ => {}
                }
                Word(b)
            })
            .collect::<Vec<Word>>()
    });
    prop::collection::vec(chunk, 0..6).prop_map(|chunks| chunks.concat())
}

/// Bytes that look like packed input: many `0x00` and `0xff` tags, small
/// and large counts.
fn packed_like_strategy() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => any::<u8>(),
        2 => Just(0x00u8),
        2 => Just(0xffu8),
        1 => Just(0x01u8),
    ];
    prop::collection::vec(byte, 0..400)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Pack then unpack is the identity; the packed length is what
    /// `packed_len` says and within `max_packed_len`; `unpacked_len` of
    /// the packed bytes is the word count.
    #[test]
    fn pack_unpack_is_identity(words in words_strategy()) {
        let packed = pack_words(&words);
        prop_assert_eq!(packed.len(), packed_len(&words));
        prop_assert!(packed.len() <= max_packed_len(words.len()));
        prop_assert_eq!(unpacked_len(&packed).unwrap(), words.len() as u64);
        let mut out = vec![Word(*b"garbage!"); words.len()];
        prop_assert_eq!(unpack(&packed, &mut out).unwrap(), words.len());
        prop_assert!(out == words);
    }

    /// Unpacking in pieces gives the words back wherever the input and the
    /// output are cut, in particular inside a run of words under one tag:
    /// the `Unpacker` fed `step` bytes at a time into an output of `cap`
    /// bytes.
    #[test]
    fn unpack_in_pieces_is_identity(words in words_strategy(), step in 1usize..40, cap in 1usize..80) {
        let packed = pack_words(&words);
        let mut u = Unpacker::new();
        let mut back = Vec::new();
        let mut buf = vec![0u8; cap];
        for chunk in packed.chunks(step) {
            let mut rest = chunk;
            loop {
                let p = u.unpack(rest, &mut buf);
                back.extend_from_slice(&buf[..p.written]);
                rest = &rest[p.consumed..];
                if rest.is_empty() && u.pending_output() == 0 {
                    break;
                }
            }
        }
        u.finish().unwrap();
        prop_assert!(back == Word::slice_as_bytes(&words));
    }

    /// Packing through a `PackedWriter` in one write gives `pack`'s bytes,
    /// and `PackedReader` through a small buffer gives the words back.
    #[test]
    fn writer_and_reader_round_trip(words in words_strategy(), cap in 16usize..64) {
        let plain = Word::slice_as_bytes(&words);
        let mut w = PackedWriter::new(Vec::new());
        w.write_all(plain).unwrap();
        let packed = w.finish().unwrap();
        prop_assert!(packed == pack_words(&words));
        let mut back = Vec::new();
        PackedReader::with_capacity(cap, &packed[..]).read_to_end(&mut back).unwrap();
        prop_assert!(back == plain);
    }

    /// Unpacking arbitrary bytes never panics, and every path agrees:
    /// `unpacked_len`, `unpack` into exactly that many words, into one word
    /// fewer (output full), the `Unpacker` fed 3 bytes at a time, and
    /// reading the bytes as a packed message.
    #[test]
    fn unpack_arbitrary_bytes(bytes in prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        packed_like_strategy(),
    ]) {
        let len = unpacked_len(&bytes);
        let mut u = Unpacker::new();
        let mut piecewise = Vec::new();
        let mut buf = [0u8; 5];
        for chunk in bytes.chunks(3) {
            let mut rest = chunk;
            loop {
                let p = u.unpack(rest, &mut buf);
                piecewise.extend_from_slice(&buf[..p.written]);
                rest = &rest[p.consumed..];
                if rest.is_empty() && u.pending_output() == 0 {
                    break;
                }
            }
        }
        match len {
            Ok(n) => {
                u.finish().unwrap();
                let n = n as usize;
                let mut out = vec![Word::ZERO; n];
                prop_assert_eq!(unpack(&bytes, &mut out).unwrap(), n);
                prop_assert!(Word::slice_as_bytes(&out) == &piecewise[..]);
                if n > 0 {
                    let short = unpack(&bytes, &mut out[..n - 1]);
                    prop_assert!(matches!(
                        short,
                        Err(Error::Packed { fault: PackedFault::OutputFull { .. }, .. })
                    ), "{:?}", short);
                }
            }
            Err(Error::Packed { offset, fault }) => {
                let e = u.finish().unwrap_err();
                prop_assert!(is_packed(&e, offset, fault), "{:?}", e);
                let mut out = vec![Word::ZERO; bytes.len() * 256];
                let e = unpack(&bytes, &mut out).unwrap_err();
                prop_assert!(is_packed(&e, offset, fault), "{:?}", e);
            }
            Err(e) => prop_assert!(false, "unexpected {:?}", e),
        }
        // As a message: any result, no panic.
        let mut msg = Message::new(SingleSegmentArena::new());
        let _ = msg.read_packed_from_bytes(&bytes, ReaderOptions::default().traversal_limit_words(1 << 16));
        let _ = msg.try_read_packed_from(&bytes[..], ReaderOptions::default().traversal_limit_words(1 << 16));
    }
}
