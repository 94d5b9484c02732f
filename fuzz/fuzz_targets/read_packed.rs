//! Untrusted bytes as one packed message, read on both packed read paths
//! (`read_packed_from_bytes[_prefix]` from a slice, `read_packed_from`
//! from a `BufReader` of fuzzer-chosen capacity around a reader that
//! returns short chunks and `Interrupted` errors) into a fuzzer-chosen
//! arena (`SingleSegmentArena`, a `MultiSegmentArena` with tiny segments,
//! or a `FixedArena` of fuzzer-chosen room), with small limits.
//!
//! Three control bytes come first, then the packed bytes. Properties:
//! - Both paths read the same way: the same traversal digest and the same
//!   packed length, or the same error with the same numbers (the stream
//!   path says `EndOfStream` for empty input, the slice path
//!   `Truncated`). `read_packed_from_bytes` adds only `TrailingData` for
//!   bytes after the message. The stream path leaves exactly the bytes
//!   after the message in the `BufReader`.
//! - Every arena reads like `SingleSegmentArena`, except that a
//!   `FixedArena` may run out of room.
//! - A packed read agrees with unpacking and then reading framed words
//!   (zero-copy): what the packed read accepts unpacks, at the item
//!   boundary where it stopped, to a framed message that reads the same;
//!   an unpacked message that fills the unpacked words and is within the
//!   limits reads the same packed. With words after it, a packed read may
//!   refuse a run that goes on past the message's end.
//! - Re-packing what was read (`write_packed_segments`) gives the table
//!   and each segment packed on their own, and reads back the same. A deep
//!   copy built in a message packs the same with `write_packed_to` and
//!   `append_packed_to`, and reads back as its source read.
#![no_main]

use std::io::{BufReader, ErrorKind, Read};

use capnarena::serialize::packed::{pack_to_vec, unpack_to_vec, write_packed_segments};
use capnarena::{
    Arena, Error, FixedArena, GrowthPolicy, Message, MessageReader, MultiSegmentArena,
    ReaderOptions, SingleSegmentArena, Word,
};
use libfuzzer_sys::fuzz_target;

mod shared;
use shared::common::walk::{Walked, walk_message};
use shared::exercise;

/// Small limits: 8 Ki words per message and per traversal, nesting 32.
fn options() -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words(1 << 13)
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

/// The outcome of one read: what the traversal saw and the packed bytes
/// taken, or the error (its `Debug` form: kind and numbers).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Read { walked: Walked, used: usize },
    Failed(String),
}

impl Outcome {
    fn failed(e: &Error) -> Self {
        Outcome::Failed(format!("{e:?}"))
    }

    fn is_alloc(&self) -> bool {
        matches!(self, Outcome::Failed(s) if s.starts_with("Alloc("))
    }
}

/// Reads `packed` into `m` on every path and checks that they agree;
/// returns the outcome of the prefix read.
fn read_paths<A: Arena>(m: &mut Message<A>, packed: &[u8], ctl: [u8; 3]) -> Outcome {
    let options = options();
    let prefix = match m.read_packed_from_bytes_prefix(packed, options) {
        Ok((r, used)) => Outcome::Read {
            walked: exercise(&r, options),
            used,
        },
        Err(e) => Outcome::failed(&e),
    };

    let whole = match m.read_packed_from_bytes(packed, options) {
        Ok(r) => Outcome::Read {
            walked: exercise(&r, options),
            used: packed.len(),
        },
        Err(e) => Outcome::failed(&e),
    };
    let want = match &prefix {
        Outcome::Read { used, .. } if *used < packed.len() => {
            Outcome::failed(&Error::TrailingData {
                extra: (packed.len() - used) as u64,
            })
        }
        other => other.clone(),
    };
    assert_eq!(whole, want, "read_packed_from_bytes vs its prefix read");

    let mut stream = BufReader::with_capacity(
        usize::from(ctl[0] & 0x3f) + 1,
        Chunked {
            data: packed,
            chunk: usize::from(ctl[1] & 0x1f) + 1,
            interrupt: match ctl[0] >> 6 {
                0 => 0,
                n => usize::from(n) + 1,
            },
            reads: 0,
        },
    );
    let streamed = match m.read_packed_from(&mut stream, options) {
        Ok(r) => {
            let walked = exercise(&r, options);
            let mut rest = Vec::new();
            stream.read_to_end(&mut rest).expect("Chunked never fails");
            Outcome::Read {
                walked,
                used: packed.len() - rest.len(),
            }
        }
        Err(e) => Outcome::failed(&e),
    };
    let want = if packed.is_empty() {
        Outcome::failed(&Error::EndOfStream)
    } else {
        prefix.clone()
    };
    assert_eq!(
        streamed, want,
        "read_packed_from vs read_packed_from_bytes_prefix"
    );
    prefix
}

/// The framing table of segments of `sizes` words: count - 1, each size,
/// zero padding to a word.
fn table(sizes: &[u32]) -> Vec<Word> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(sizes.len() as u32 - 1).to_le_bytes());
    for s in sizes {
        bytes.extend_from_slice(&s.to_le_bytes());
    }
    bytes.resize(bytes.len().div_ceil(8) * 8, 0);
    bytes
        .chunks_exact(8)
        .map(|c| Word(c.try_into().expect("8 bytes")))
        .collect()
}

/// Re-packs what `r` read and checks the bytes and what they read back as.
fn repack(r: &MessageReader<'_>, walked: Walked) {
    let options = options();
    let segs: Vec<&[Word]> = (0..r.segment_count())
        .map(|i| r.segment(i).expect("i < segment_count"))
        .collect();
    let mut packed = Vec::new();
    write_packed_segments(&mut packed, &segs).expect("writing to a Vec");
    let sizes: Vec<u32> = segs.iter().map(|s| s.len() as u32).collect();
    let mut want = Vec::new();
    pack_to_vec(&table(&sizes), &mut want);
    for s in &segs {
        pack_to_vec(s, &mut want);
    }
    assert!(
        packed == want,
        "write_packed_segments: not table and segments packed on their own"
    );
    let mut m = Message::new(SingleSegmentArena::new());
    let back = m
        .read_packed_from_bytes(&packed, options)
        .expect("a re-packed message reads back");
    assert_eq!(
        exercise(&back, options),
        walked,
        "re-packed message reads differently"
    );

    // A deep copy, built in a message, packed and read back.
    r.reset_traversal();
    let mut copy = Message::new(SingleSegmentArena::new());
    let copied = match (copy.root_pointer(), r.root_pointer()) {
        (Ok(mut dst), Ok(src)) => dst.set_from(&src).is_ok(),
        _ => false,
    };
    r.reset_traversal();
    if !copied || walked.limit_errors != 0 {
        return;
    }
    let mut written = Vec::new();
    copy.write_packed_to(&mut written)
        .expect("writing to a Vec");
    let mut appended = vec![0xee];
    copy.append_packed_to(&mut appended);
    assert!(
        appended[0] == 0xee && appended[1..] == written,
        "append_packed_to vs write_packed_to"
    );
    // A copy may be larger than its source read as (list tags, and what
    // several pointers share is copied for each): read it with room.
    let roomy = options.traversal_limit_words(1 << 20);
    let mut m = Message::new(SingleSegmentArena::new());
    let back = m
        .read_packed_from_bytes(&written, roomy)
        .expect("a packed copy reads back");
    let again = walk_message(&back, options.nesting_limit);
    assert_eq!(
        again, walked,
        "a packed deep copy reads differently from its source"
    );
}

fuzz_target!(|input: &[u8]| {
    let Some((&ctl, packed)) = input.split_first_chunk::<3>() else {
        return;
    };
    let options = options();

    let mut reference = Message::new(SingleSegmentArena::new());
    let outcome = read_paths(&mut reference, packed, ctl);

    let got = match (ctl[1] >> 5) % 3 {
        0 => outcome.clone(),
        1 => {
            let arena = MultiSegmentArena::new()
                .with_first_segment_words(u32::from(ctl[2] & 7))
                .with_policy(GrowthPolicy::FixedSize(u32::from(ctl[2] >> 3) + 1));
            read_paths(&mut Message::new(arena), packed, ctl)
        }
        _ => {
            let mut buf = vec![Word::from_u64(0xdead_beef_dead_beef); 64 * usize::from(ctl[2])];
            read_paths(&mut Message::new(FixedArena::new(&mut buf)), packed, ctl)
        }
    };
    assert!(
        got == outcome || got.is_alloc(),
        "arena reads differently from SingleSegmentArena: {got:?} vs {outcome:?}"
    );

    // The packed read against unpacking, then reading framed words.
    if let Outcome::Read { walked, used } = &outcome {
        let mut words = Vec::new();
        unpack_to_vec(&packed[..*used], &mut words, u64::MAX)
            .expect("the packed bytes of a message read unpack");
        let r = MessageReader::from_words(&words, options)
            .expect("a message read packed reads unpacked");
        assert_eq!(
            exercise(&r, options),
            *walked,
            "packed and unpacked reads differ"
        );
        let (r, _) = reference
            .read_packed_from_bytes_prefix(packed, options)
            .expect("read before");
        repack(&r, *walked);
    }
    let mut words = Vec::new();
    if unpack_to_vec(packed, &mut words, 1 << 16).is_ok() {
        if let Ok((r, rest)) = MessageReader::from_words_prefix(&words, options) {
            let total: usize = (0..r.segment_count())
                .map(|i| r.segment(i).map_or(0, <[Word]>::len))
                .sum();
            if total as u64 <= options.traversal_limit_words {
                let walked = exercise(&r, options);
                match &outcome {
                    Outcome::Read { walked: w, .. } => assert_eq!(*w, walked),
                    Outcome::Failed(e) => assert!(
                        !rest.is_empty() && e.starts_with("Packed {") && e.contains("OutputFull"),
                        "unpacked words read, packed read failed: {e}"
                    ),
                }
            }
        }
    }
});
