//! Untrusted bytes as a stream of framed or packed messages (bit 0 of the
//! first control byte) decoded by the tokio-util codecs (`FramedCodec`,
//! `PackedCodec`), fed in pieces of a fuzzer-chosen size, then the end of
//! the stream; checked against the blocking readers over the same bytes.
//!
//! Two control bytes come first, then the stream: the piece size (1 to
//! 128 bytes), and the codec's frame limit (the default, or a small one).
//!
//! Properties:
//! - Each frame decoded reads as the message the blocking reader
//!   (`try_read_from` / `try_read_packed_from` over the whole stream)
//!   reads there: the same segments, word for word. Where the blocking
//!   reader fails, the codec fails at the same message, with the same
//!   error kind (or `FrameTooLarge` under a small frame limit); where it
//!   ends cleanly, the codec ends cleanly.
//! - Memory follows the bytes received: after every `decode`, the framed
//!   codec's read buffer holds at most four times its bytes plus
//!   128 KiB.
//! - After an error from `decode`, every further `decode` is
//!   `DecoderFailed`; after `decode_eof` (whatever it returned), or after
//!   `reset`, the same codec decodes a new stream of two known messages
//!   exactly: never stale state, never a wrong message with `Ok`.
#![no_main]

use bytes::{BufMut, BytesMut};
use capnarena::serialize::codec::{Frame, FramedCodec, PackedCodec};
use capnarena::{Error, Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::Decoder;

/// Messages decoded per execution at most.
const MAX_MESSAGES: usize = 16;

/// Small limits: 8 Ki words per message.
fn options() -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words(1 << 13)
        .nesting_limit(32)
}

/// A message's segments, as words.
fn segments(r: &MessageReader<'_>) -> Vec<Vec<u64>> {
    (0..r.segment_count())
        .map(|i| {
            r.segment(i)
                .unwrap_or(&[])
                .iter()
                .map(|w| w.to_u64())
                .collect()
        })
        .collect()
}

/// The error's variant name, without its numbers.
fn kind(e: &Error) -> String {
    let d = format!("{e:?}");
    d.split([' ', '(', '{']).next().unwrap_or("").to_string()
}

/// What one step of a stream gave: a message's segments, or an error kind.
#[derive(Debug, PartialEq)]
enum Step {
    Message(Vec<Vec<u64>>),
    Failed(String),
}

/// The blocking reader's view of `data`: its messages, then how it ended
/// (`None`: cleanly).
fn blocking(data: &[u8], packed: bool) -> Vec<Step> {
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut input = data;
    let mut steps = Vec::new();
    while steps.len() < MAX_MESSAGES {
        let r = if packed {
            msg.try_read_packed_from(&mut input, options())
        } else {
            msg.try_read_from(&mut input, options())
        };
        match r {
            Ok(Some(reader)) => steps.push(Step::Message(segments(&reader))),
            Ok(None) => break,
            Err(e) => {
                steps.push(Step::Failed(kind(&e)));
                break;
            }
        }
    }
    steps
}

/// A frame's segments (read through a scratch copy when unaligned).
fn frame_segments(frame: &Frame) -> Vec<Vec<u64>> {
    let mut scratch = Message::new(SingleSegmentArena::new());
    let r = frame
        .reader_or_copy(&mut scratch)
        .expect("a decoded frame reads");
    segments(&r)
}

/// Decodes `data` in pieces of `piece` bytes, then its end; returns the
/// steps and whether `decode` (not `decode_eof`) failed.
fn decode<D>(codec: &mut D, data: &[u8], piece: usize, framed: bool) -> (Vec<Step>, bool)
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let mut buf = BytesMut::new();
    let mut steps = Vec::new();
    for chunk in data.chunks(piece) {
        buf.put_slice(chunk);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(f)) => steps.push(Step::Message(frame_segments(&f))),
                Ok(None) => break,
                Err(e) => {
                    steps.push(Step::Failed(kind(&e)));
                    return (steps, true);
                }
            }
            if steps.len() >= MAX_MESSAGES {
                return (steps, false);
            }
        }
        if framed {
            let bound = 4 * buf.len() + (128 << 10);
            assert!(
                buf.capacity() <= bound,
                "read buffer of {} bytes for {} bytes in",
                buf.capacity(),
                buf.len()
            );
        }
    }
    while steps.len() < MAX_MESSAGES {
        match codec.decode_eof(&mut buf) {
            Ok(Some(f)) => steps.push(Step::Message(frame_segments(&f))),
            Ok(None) => break,
            Err(e) => {
                steps.push(Step::Failed(kind(&e)));
                break;
            }
        }
    }
    (steps, false)
}

/// Two known messages, framed or packed, and their segments.
fn known(packed: bool) -> (Vec<u8>, Vec<Step>) {
    let mut stream = Vec::new();
    let mut steps = Vec::new();
    for v in [7u64, 0x0102_0304_0506_0708] {
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
        root.set::<u64>(0, v);
        root.set_text(0, "known message").unwrap();
        if packed {
            msg.append_packed_to(&mut stream);
        } else {
            msg.append_to(&mut stream);
        }
        steps.push(Step::Message(segments(&msg.reader())));
    }
    (stream, steps)
}

/// Runs one codec over `data` and checks it against `want`, then reuses it.
fn check<D>(mut codec: D, data: &[u8], piece: usize, packed: bool, small: bool, want: &[Step])
where
    D: Decoder<Item = Frame, Error = Error> + Reset,
{
    let (got, failed) = decode(&mut codec, data, piece, !packed);
    let n = got.len().min(want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate().take(n) {
        match (g, w) {
            (Step::Failed(k), _) if small && k == "FrameTooLarge" => {
                assert_eq!(i + 1, got.len(), "nothing after an error");
                break;
            }
            _ => assert_eq!(g, w, "step {i}"),
        }
    }
    if !(small && matches!(got.last(), Some(Step::Failed(k)) if k == "FrameTooLarge")) {
        assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    }
    let (stream, known_steps) = known(packed);
    if got.len() >= MAX_MESSAGES && !failed {
        // Stopped early: the codec may be inside a frame.
        codec.reset_codec();
    }
    if failed {
        let mut buf = BytesMut::from(&stream[..]);
        let e = codec.decode(&mut buf).unwrap_err();
        assert!(matches!(e, Error::DecoderFailed), "{e:?}");
        codec.reset_codec();
    }
    let (again, failed) = decode(&mut codec, &stream, piece, !packed);
    assert!(!failed);
    assert_eq!(again, known_steps, "a reused codec decodes a new stream");
}

/// `reset` of either codec.
trait Reset {
    fn reset_codec(&mut self);
}

impl Reset for FramedCodec {
    fn reset_codec(&mut self) {
        self.reset();
    }
}

impl Reset for PackedCodec {
    fn reset_codec(&mut self) {
        self.reset();
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((ctl, data)) = input.split_first_chunk::<2>() else {
        return;
    };
    let packed = ctl[0] & 1 == 1;
    let piece = usize::from(ctl[0] >> 1) + 1;
    let small = ctl[1] & 1 == 1;
    let max = if small {
        64 + 8 * usize::from(ctl[1] >> 1)
    } else {
        capnarena::serialize::codec::DEFAULT_MAX_FRAME_BYTES
    };
    let want = blocking(data, packed);
    if packed {
        let codec = PackedCodec::with_options(options()).max_frame_bytes(max);
        check(codec, data, piece, packed, small, &want);
    } else {
        let codec = FramedCodec::with_options(options()).max_frame_bytes(max);
        check(codec, data, piece, packed, small, &want);
    }
});
