//! Untrusted input never panics. Arbitrary bytes, arbitrary words (biased
//! towards plausible pointers), and mutations of the reference-written
//! vectors go through every read path: `MessageReader::from_bytes`,
//! `from_words`, `from_words_prefix`, `from_segments` (bare segments, no
//! table), `Message::read_from_bytes`, and `Message::read_from` a stream
//! into every arena. Every message that opens is then traversed in full,
//! each pointer read as every kind, checked for canonical form and
//! deep-copied into builders (`tests/common/walk.rs`, shared with the fuzz
//! targets). Any panic fails the property; so do the cross-checks below.

mod common;

use std::io::Cursor;

use capnarena::{
    Arena, Error, FixedArena, GrowthPolicy, Message, MessageReader, MultiSegmentArena,
    ReaderOptions, SingleSegmentArena, Word, words_from_bytes,
};
use common::OneWordArena;
use common::walk::{Walked, error_code, exercise};
use proptest::prelude::*;

/// Small limits keep each case fast; the properties do not depend on them.
fn options() -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words(1 << 12)
        .segment_limit(64)
}

/// A read's outcome, comparable across paths: the traversal, or the kind
/// of error.
fn outcome(r: capnarena::Result<MessageReader<'_>>) -> Result<Walked, u64> {
    match r {
        Ok(reader) => Ok(exercise(&reader, options())),
        Err(e) => Err(error_code(&e)),
    }
}

/// Reads `bytes` as a stream into `arena`; `None` when a `FixedArena`
/// runs out of room.
fn stream_into<A: Arena>(arena: A, bytes: &[u8]) -> Option<Result<Walked, u64>> {
    let mut m = Message::new(arena);
    match m.read_from(Cursor::new(bytes), options()) {
        Err(Error::Alloc(_)) => None,
        r => Some(outcome(r)),
    }
}

/// Every read path over framed `bytes`, with the cross-checks:
/// - the zero-copy and copying readers accept the same messages (the
///   copying ones also refuse a declared size over the traversal limit,
///   before allocating) and traverse them identically;
/// - a stream's first message reads as `read_from_bytes_prefix` reads it;
/// - reading a stream gives the same result on every arena.
fn read_framed_everywhere(bytes: &[u8]) {
    let words = common::padded_words(bytes);
    let aligned = &Word::slice_as_bytes(&words)[..bytes.len()];
    let zero_copy = outcome(MessageReader::from_bytes(aligned, options()));
    if bytes.len() % 8 == 0 {
        let from_words = outcome(MessageReader::from_words(&words, options()));
        assert_eq!(from_words, zero_copy, "from_words vs from_bytes");
    }
    if let Ok((r, _rest)) = MessageReader::from_words_prefix(&words, options()) {
        exercise(&r, options());
    }

    let mut m = Message::new(SingleSegmentArena::new());
    let copied = outcome(m.read_from_bytes(bytes, options()));
    let too_large = error_code(&Error::MessageTooLarge {
        declared: 0,
        limit: 0,
    });
    match (&zero_copy, &copied) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "read_from_bytes vs from_bytes"),
        (Ok(_), Err(code)) => assert_eq!(
            *code, too_large,
            "read_from_bytes refused what from_bytes read"
        ),
        (Err(code), Ok(_)) => panic!("read_from_bytes read what from_bytes refused ({code})"),
        (Err(_), Err(_)) => {}
    }

    // A stream holds messages one after another: `read_from` reads the
    // first, as `read_from_bytes_prefix` does.
    let streamed = stream_into(SingleSegmentArena::new(), bytes).expect("grows");
    let mut m = Message::new(SingleSegmentArena::new());
    let prefix = outcome(m.read_from_bytes_prefix(bytes, options()).map(|(r, _)| r));
    if let Ok(walked) = &streamed {
        assert_eq!(
            prefix.as_ref(),
            Ok(walked),
            "read_from vs read_from_bytes_prefix"
        );
    }
    let multi = MultiSegmentArena::new()
        .with_first_segment_words(1)
        .with_policy(GrowthPolicy::FixedSize(3));
    assert_eq!(stream_into(multi, bytes), Some(streamed), "multi");
    assert_eq!(
        stream_into(OneWordArena::default(), bytes),
        Some(streamed),
        "one-word arena"
    );
    let mut buf = vec![Word::from_u64(u64::MAX); 256];
    if let Some(fixed) = stream_into(FixedArena::new(&mut buf), bytes) {
        assert_eq!(fixed, streamed, "fixed arena");
    }
}

/// `words` as bare segments (no table), split at `cuts`: the fuzzer-style
/// path where every pointer word is under the input's control.
fn read_bare(words: &[u64], cuts: &[usize]) {
    let words: Vec<Word> = words.iter().map(|&w| Word::from_u64(w)).collect();
    let mut segs: Vec<&[Word]> = Vec::new();
    let mut at = 0;
    for &c in cuts {
        let c = c.min(words.len()).max(at);
        segs.push(&words[at..c]);
        at = c;
    }
    segs.push(&words[at..]);
    let r = MessageReader::from_segments(&segs, options()).expect("few segments");
    exercise(&r, options());
}

/// Frames `words` as one segment, for the framed read paths.
fn framed(words: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + words.len() * 8);
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&(words.len() as u32).to_le_bytes());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Words that are often pointers a reader must follow: struct, list, far
/// and other pointers with small offsets, sizes and segment numbers, so
/// that they land inside a small message; plus arbitrary and zero words.
fn word() -> impl Strategy<Value = u64> {
    let offset = -8i64..8;
    prop_oneof![
        2 => Just(0u64),
        2 => any::<u64>(),
        3 => (offset.clone(), 0u64..4, 0u64..4).prop_map(|(o, d, p)| {
            ((o as u32 as u64) << 2 & 0xFFFF_FFFC) | d << 32 | p << 48
        }),
        3 => (offset, 0u64..8, 0u64..20).prop_map(|(o, size, count)| {
            ((o as u32 as u64) << 2 & 0xFFFF_FFFC) | 1 | size << 32 | count << 35
        }),
        2 => (0u64..16, any::<bool>(), 0u64..3).prop_map(|(pad, double, seg)| {
            2 | u64::from(double) << 2 | pad << 3 | seg << 32
        }),
        1 => (0u64..4).prop_map(|i| 3 | i << 32),
        1 => (0u64..8, 0u64..4, 0u64..4).prop_map(|(n, d, p)| n << 2 | d << 32 | p << 48),
    ]
}

/// The vectors whose bytes are mutated.
const VECTORS: [&str; 8] = [
    "full.bin",
    "lists.bin",
    "scalars.bin",
    "empty.bin",
    "full.seg3.bin",
    "lists.seg1.bin",
    "lists.seg16.bin",
    "scalars.seg3.bin",
];

/// One change to a vector's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    /// Set the byte at (position mod length).
    Byte(usize, u8),
    /// Flip a bit.
    Bit(usize, u8),
    /// Overwrite the 8-aligned word at (position mod words) with a word
    /// from [`word`].
    Word(usize, u64),
    /// Cut the input at (position mod length).
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Byte(p, b)),
        3 => (any::<usize>(), 0u8..8).prop_map(|(p, b)| Mutation::Bit(p, b)),
        4 => (any::<usize>(), word()).prop_map(|(p, w)| Mutation::Word(p, w)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        if bytes.is_empty() {
            break;
        }
        let len = bytes.len();
        match *m {
            Mutation::Byte(p, b) => bytes[p % len] = b,
            Mutation::Bit(p, b) => bytes[p % len] ^= 1 << b,
            Mutation::Word(p, w) => {
                let at = p % len.div_ceil(8) * 8;
                let end = (at + 8).min(len);
                bytes[at..end].copy_from_slice(&w.to_le_bytes()[..end - at]);
            }
            Mutation::Truncate(p) => bytes.truncate(p % len),
        }
    }
    bytes
}

proptest! {
    // Under Miri (bounded run in CI: every read path checked for UB and
    // out-of-input reads) a few cases each; natively 1,024.
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 6 } else { 1024 },
        failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence },
        ..ProptestConfig::default()
    })]

    /// Arbitrary bytes, framed or not, on every read path: no panic, and
    /// the paths agree.
    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        read_framed_everywhere(&bytes);
    }

    /// Arbitrary bytes behind a valid one-segment table, so the pointers
    /// are reached more often than with a random table.
    #[test]
    fn arbitrary_bytes_framed(words in proptest::collection::vec(any::<u64>(), 1..48)) {
        read_framed_everywhere(&framed(&words));
    }

    /// Pointer-like words as one to three bare segments and, framed, on
    /// every read path.
    #[test]
    fn arbitrary_words(
        words in proptest::collection::vec(word(), 1..40),
        cuts in proptest::collection::vec(0usize..40, 0..3),
    ) {
        let mut cuts = cuts;
        cuts.sort_unstable();
        read_bare(&words, &cuts);
        read_framed_everywhere(&framed(&words));
    }

    /// The reference's messages with a few bytes, bits or words changed,
    /// or cut short.
    #[test]
    fn mutated_vectors(
        which in 0..VECTORS.len(),
        mutations in proptest::collection::vec(mutation(), 1..6),
    ) {
        let bytes = mutate(common::vector(VECTORS[which]), &mutations);
        read_framed_everywhere(&bytes);
    }
}

/// Control for the properties above: each unmutated vector reads on every
/// path, and its traversal finds objects and no errors from a limit.
#[test]
fn vectors_unmutated_read_everywhere() {
    for name in VECTORS {
        let bytes = common::vector(name);
        let words = words_from_bytes(&bytes).unwrap();
        let r = MessageReader::from_words(&words, ReaderOptions::default()).unwrap();
        let walked = exercise(&r, ReaderOptions::default());
        assert!(walked.structs > 0, "{name}: {walked:?}");
        assert_eq!(walked.limit_errors, 0, "{name}: {walked:?}");
        read_framed_everywhere(&bytes);
    }
}
