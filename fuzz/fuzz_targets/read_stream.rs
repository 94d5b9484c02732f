//! Untrusted bytes as an `io::Read` stream, read with `Message::read_from`
//! into every arena (fresh, and reused after a first message), in chunks
//! of fuzzer-chosen size with interruptions, then traversed.
//!
//! Properties: every arena reads the same message the same way (same
//! error kind, or the same traversal digest), except that a `FixedArena`
//! may run out of room; and a message read into an arena that held
//! another message reads exactly as in a fresh arena.
#![no_main]

use std::io::{Cursor, ErrorKind, Read};

use capnarena::{
    Arena, FixedArena, GrowthPolicy, Message, MultiSegmentArena, ReaderOptions, SingleSegmentArena,
    Word,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::OneWordArena;
use shared::common::walk::error_code;
use shared::{exercise, limits};

/// Serves `data` in chunks of at most `chunk` bytes, failing with
/// `Interrupted` on every `interrupt`-th read (0: never; never 1, which
/// would interrupt every read and, as `io::Read` callers retry an
/// interrupted read, never end).
struct Chunked<'a> {
    data: &'a [u8],
    chunk: usize,
    interrupt: usize,
    reads: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reads += 1;
        if self.interrupt != 0 && self.reads % self.interrupt == 0 {
            return Err(ErrorKind::Interrupted.into());
        }
        let n = buf.len().min(self.chunk).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The outcome of one read: the digest of the traversal, or an error code.
fn read_into<A: Arena>(
    m: &mut Message<A>,
    r: impl Read,
    options: ReaderOptions,
) -> Result<u64, u64> {
    match m.read_from(r, options) {
        Ok(reader) => Ok(exercise(&reader, options).digest),
        Err(capnarena::Error::Alloc(_)) => Err(1000),
        Err(e) => Err(error_code(&e)),
    }
}

fuzz_target!(|input: &[u8]| {
    let (&ctl, data) = match input.split_first() {
        Some(x) => x,
        None => return,
    };
    let options = limits();
    let stream = || Chunked {
        data,
        chunk: usize::from(ctl & 0x1F) + 1,
        interrupt: match ctl >> 5 {
            0 => 0,
            n => usize::from(n) + 1,
        },
        reads: 0,
    };

    let reference = read_into(
        &mut Message::new(SingleSegmentArena::new()),
        stream(),
        options,
    );

    let multi = MultiSegmentArena::new()
        .with_first_segment_words(u32::from(ctl & 7))
        .with_policy(GrowthPolicy::FixedSize(u32::from(ctl >> 3) + 1));
    let got = read_into(&mut Message::new(multi), stream(), options);
    assert_eq!(
        got, reference,
        "MultiSegmentArena differs from SingleSegmentArena"
    );

    let got = read_into(
        &mut Message::new(OneWordArena::default()),
        stream(),
        options,
    );
    assert_eq!(
        got, reference,
        "OneWordArena differs from SingleSegmentArena"
    );

    let mut buf = vec![Word::from_u64(0xDEAD_BEEF_DEAD_BEEF); 1 << 12];
    let got = read_into(
        &mut Message::new(FixedArena::new(&mut buf)),
        stream(),
        options,
    );
    assert!(
        got == reference || got == Err(1000),
        "FixedArena differs from SingleSegmentArena: {got:?} vs {reference:?}"
    );

    // Two messages from one stream into one arena: the second reads as it
    // does in a fresh arena, though the arena held the first.
    let mut cursor = Cursor::new(data);
    let mut reused = Message::new(MultiSegmentArena::new().with_first_segment_words(3));
    if read_into(&mut reused, &mut cursor, options).is_ok() {
        let rest = &data[cursor.position() as usize..];
        let fresh = read_into(&mut Message::new(SingleSegmentArena::new()), rest, options);
        let again = read_into(&mut reused, rest, options);
        assert_eq!(
            again, fresh,
            "a reused arena reads differently from a fresh one"
        );
    }
});
