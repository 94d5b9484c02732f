//! Untrusted bytes as a stream of messages, framed or packed (bit 0 of the
//! first control byte), read one after another into ONE reused arena with
//! `try_read_from` or `try_read_packed_from`, until the stream ends
//! (`Ok(None)`) or a read fails.
//!
//! Two control bytes come first, then the stream: the arena
//! (`SingleSegmentArena`, a `MultiSegmentArena` with tiny segments, the
//! tests' one-word-segment arena, or a `FixedArena` with room for the
//! largest message the limits let in), the chunk size and `Interrupted`
//! errors of the underlying reader, and the capacity of the `BufReader`
//! the packed path reads through.
//!
//! Properties:
//! - Each message read into the reused arena reads exactly as the same
//!   bytes read into a fresh arena from a slice
//!   (`read_from_bytes_prefix` / `read_packed_from_bytes_prefix`): the
//!   same traversal, the same length. A read that fails in the stream
//!   fails from the slice too (the packed path with the same error and
//!   numbers, both being the one streamed reader; the framed path with
//!   the same error kind, and with the same numbers from a fresh
//!   `try_read_from` over the slice).
//! - `Ok(None)` comes exactly when the stream is at its end: never with
//!   bytes left, and never an error there.
//! - Every message read consumes input, so the loop ends (it is bounded
//!   anyway, at 16 messages).
//! - Packed: the messages read with `try_read_packed_from` read the same
//!   through one `PackedReader` and `try_read_from`, up to the first
//!   failure (which `PackedReader` need not share: it does not see message
//!   boundaries, so a run may go on past one).
#![no_main]

use std::io::{BufReader, ErrorKind, Read};

use capnarena::serialize::packed::PackedReader;
use capnarena::{
    Arena, FixedArena, GrowthPolicy, Message, MultiSegmentArena, ReaderOptions, SingleSegmentArena,
    Word,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::OneWordArena;
use shared::common::walk::Walked;
use shared::exercise;

/// Messages read per execution at most.
const MAX_MESSAGES: usize = 16;

/// Words a message may declare (the traversal limit).
const LIMIT_WORDS: u64 = 1 << 13;

/// Small limits: 8 Ki words per message and per traversal, nesting 32.
fn options() -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words(LIMIT_WORDS)
        .nesting_limit(32)
}

/// Serves `data` in chunks of at most `chunk` bytes, failing with
/// `Interrupted` on every `interrupt`-th read (0: never; never 1, which
/// would fail every read, and callers rightly retry forever).
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

/// One read from the stream: `None` for a clean end, else what the
/// traversal saw, or the error (`Debug`: kind and numbers).
type Step = Option<Result<Walked, String>>;

fn step(r: capnarena::Result<Option<capnarena::MessageReader<'_>>>) -> Step {
    match r {
        Ok(Some(reader)) => Some(Ok(exercise(&reader, options()))),
        Ok(None) => None,
        Err(e) => Some(Err(format!("{e:?}"))),
    }
}

/// The error's variant name, without its numbers.
fn kind(e: &str) -> &str {
    e.split([' ', '(', '{']).next().unwrap_or(e)
}

/// Reads the stream in `data` into `reused` until it ends or fails, checking
/// each message against a fresh read of the same bytes. Returns the steps.
fn read_stream<A: Arena>(reused: &mut Message<A>, data: &[u8], ctl: [u8; 2]) -> Vec<Step> {
    let options = options();
    let packed = ctl[0] & 1 == 1;
    let chunked = Chunked {
        data,
        chunk: usize::from(ctl[0] >> 3) + 1,
        interrupt: match ctl[1] >> 6 {
            0 => 0,
            n => usize::from(n) + 1,
        },
        reads: 0,
    };
    let mut framed_src = chunked;
    let mut packed_src = BufReader::with_capacity(
        usize::from(ctl[1] & 0x3f) + 1,
        Chunked { data, ..framed_src },
    );
    let mut steps = Vec::new();
    let mut pos = 0;
    while steps.len() < MAX_MESSAGES {
        let before = pos;
        let got = if packed {
            let got = step(reused.try_read_packed_from(&mut packed_src, options));
            pos = data.len() - packed_src.get_ref().data.len() - packed_src.buffer().len();
            got
        } else {
            let got = step(reused.try_read_from(&mut framed_src, options));
            pos = data.len() - framed_src.data.len();
            got
        };
        let rest = &data[before..];
        let mut fresh = Message::new(SingleSegmentArena::new());
        match &got {
            None => {
                assert_eq!(
                    before,
                    data.len(),
                    "Ok(None) with {} bytes left",
                    rest.len()
                );
                assert_eq!(pos, data.len());
            }
            Some(Ok(walked)) => {
                assert!(pos > before, "a message read consumed nothing");
                let (r, used) = if packed {
                    fresh.read_packed_from_bytes_prefix(rest, options)
                } else {
                    fresh.read_from_bytes_prefix(rest, options)
                }
                .unwrap_or_else(|e| panic!("read in the stream, not from a slice: {e:?}"));
                assert_eq!(
                    used,
                    pos - before,
                    "stream and slice reads take different lengths"
                );
                assert_eq!(
                    exercise(&r, options),
                    *walked,
                    "a reused arena reads differently"
                );
            }
            Some(Err(e)) => {
                assert!(
                    before < data.len(),
                    "an error, not Ok(None), at the end: {e}"
                );
                if packed {
                    let slice = fresh
                        .read_packed_from_bytes_prefix(rest, options)
                        .map(|_| ())
                        .map_err(|e| format!("{e:?}"));
                    assert_eq!(
                        slice,
                        Err(e.clone()),
                        "stream and slice packed reads differ"
                    );
                } else {
                    let slice = fresh
                        .read_from_bytes_prefix(rest, options)
                        .map(|_| ())
                        .map_err(|e| format!("{e:?}"));
                    match slice {
                        Err(s) => assert_eq!(kind(&s), kind(e), "{s} vs {e}"),
                        Ok(()) => panic!("read from a slice, not in the stream: {e}"),
                    }
                    let again = step(fresh.try_read_from(rest, options));
                    assert_eq!(again, got, "reused arena vs fresh try_read_from");
                }
            }
        }
        let end = !matches!(got, Some(Ok(_)));
        steps.push(got);
        if end {
            break;
        }
    }
    steps
}

fuzz_target!(|input: &[u8]| {
    let Some((&ctl, data)) = input.split_first_chunk::<2>() else {
        return;
    };
    let steps = match (ctl[0] >> 1) & 3 {
        0 => read_stream(&mut Message::new(SingleSegmentArena::new()), data, ctl),
        1 => {
            let arena = MultiSegmentArena::new()
                .with_first_segment_words(u32::from(ctl[1] & 7))
                .with_policy(GrowthPolicy::FixedSize(u32::from(ctl[1] >> 3 & 7) + 1));
            read_stream(&mut Message::new(arena), data, ctl)
        }
        2 => read_stream(&mut Message::new(OneWordArena::default()), data, ctl),
        _ => {
            // Room for the largest message the limits let in: never full.
            let mut buf = vec![Word::from_u64(0xdead_beef_dead_beef); LIMIT_WORDS as usize];
            read_stream(&mut Message::new(FixedArena::new(&mut buf)), data, ctl)
        }
    };

    if ctl[0] & 1 == 1 {
        // The same messages through one PackedReader, framed.
        let mut r = PackedReader::with_capacity(16 + usize::from(ctl[1]), data);
        let mut m = Message::new(SingleSegmentArena::new());
        for s in &steps {
            match s {
                Some(Ok(_)) | None => {
                    let got = step(m.try_read_from(&mut r, options()));
                    assert_eq!(&got, s, "PackedReader then try_read_from differs");
                }
                Some(Err(_)) => break,
            }
        }
    }
});
