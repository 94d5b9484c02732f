//! The tokio-util codecs (`FramedCodec`, `PackedCodec`) and the `bytes`
//! interop, driven by hand over byte buffers: frames come out whole and
//! byte-identical however the input is split, limits are enforced from
//! the segment table before anything is reserved, and cut or malformed
//! input gives the error that explains it.

mod common;

use bytes::{Buf, BufMut, BytesMut};
use capnarena::serialize::codec::{Frame, FramedCodec, PackedCodec};
use capnarena::{
    Arena, Error, GrowthPolicy, Message, MessageReader, MultiSegmentArena, PackedFault,
    ReaderOptions, SingleSegmentArena, StructSize,
};
use common::OneWordArena;
use common::build::build_full;
use common::walk::exercise;
use proptest::prelude::*;
use tokio_util::codec::{Decoder, Encoder};

/// A message whose root holds `n` as data and `n` bytes of data (a
/// pattern with zero runs and dense runs, so packing has both).
fn data_message<A: Arena>(msg: &mut Message<A>, n: usize) {
    let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u64>(0, n as u64);
    let data: Vec<u8> = (0..n)
        .map(|i| {
            if (i / 16) % 3 == 0 {
                0
            } else {
                (i * 7 + 1) as u8
            }
        })
        .collect();
    root.set_data(0, &data).unwrap();
}

/// The messages these tests send: one segment small and large, several
/// segments (a multi-segment arena with small segments), and the full
/// test message in an arena that gives every object its own segment.
fn messages() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    // 150,000 bytes: past the 64 KiB the decoder makes room for at once.
    for n in [0, 1, 100, 5000, 150_000] {
        let mut m = Message::new(SingleSegmentArena::new());
        data_message(&mut m, n);
        out.push(framed(&m));
    }
    let arena = MultiSegmentArena::new()
        .with_first_segment_words(3)
        .with_policy(GrowthPolicy::FixedSize(8));
    let mut m = Message::new(arena);
    let mut root = m.init_root_struct(StructSize::new(0, 4)).unwrap();
    for i in 0..4 {
        root.set_text(i, &"segment ".repeat(i + 1)).unwrap();
    }
    assert!(m.segment_count() > 2);
    out.push(framed(&m));
    let mut m = Message::new(OneWordArena::default());
    build_full(&mut m).unwrap();
    assert!(m.segment_count() > 31, "a table past the stack buffer");
    out.push(framed(&m));
    out
}

fn framed<A: Arena>(m: &Message<A>) -> Vec<u8> {
    let mut v = Vec::new();
    m.append_to(&mut v);
    v
}

/// Feeds `input` to `codec` in pieces of `step` bytes (then EOF) and
/// collects the frames; checks that no frame appears before its last byte
/// is in.
fn decode_in_steps<D>(codec: &mut D, input: &[u8], step: usize) -> Result<Vec<Frame>, Error>
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let mut buf = BytesMut::new();
    let mut frames = Vec::new();
    for piece in input.chunks(step) {
        buf.put_slice(piece);
        while let Some(f) = codec.decode(&mut buf)? {
            frames.push(f);
        }
    }
    while let Some(f) = codec.decode_eof(&mut buf)? {
        frames.push(f);
    }
    Ok(frames)
}

/// Framed decoding gives each message's exact bytes, at every split size
/// from 1 byte up; each frame reads back (in place) to its message, and
/// the encoder writes what `append_to` writes, from a `Message`, from a
/// `MessageReader` and from a `Frame`.
#[test]
fn framed_codec_round_trips_at_every_split() {
    let msgs = messages();
    let stream: Vec<u8> = msgs.concat();
    for step in [1, 2, 3, 7, 8, 13, 64, 1000, stream.len()] {
        let frames = decode_in_steps(&mut FramedCodec::new(), &stream, step).unwrap();
        assert_eq!(frames.len(), msgs.len(), "step {step}");
        for (f, m) in frames.iter().zip(&msgs) {
            assert_eq!(f.as_bytes(), &m[..], "step {step}");
        }
    }
    let frames = decode_in_steps(&mut FramedCodec::new(), &stream, 5).unwrap();
    let mut readers = FramedCodec::new().sends::<MessageReader>();
    let mut forwarded = FramedCodec::new().sends::<Frame>();
    for (f, m) in frames.iter().zip(&msgs) {
        let reader = f.reader().unwrap();
        let mut out = BytesMut::new();
        readers.encode(&reader, &mut out).unwrap();
        assert_eq!(&out[..], &m[..]);
        forwarded.encode(f.clone(), &mut out).unwrap();
        assert_eq!(&out[m.len()..], &m[..]);
    }
    let mut m = Message::new(SingleSegmentArena::new());
    data_message(&mut m, 77);
    let mut out = BytesMut::new();
    FramedCodec::new().encode(&m, &mut out).unwrap();
    assert_eq!(&out[..], &framed(&m)[..]);
}

/// A frame whose bytes are not 8-aligned (it starts one byte into the
/// read buffer) is refused by the in-place reader with the address's
/// remainder, and read through one copy into a scratch message.
#[test]
fn unaligned_frame_is_copied_once() {
    let mut m = Message::new(SingleSegmentArena::new());
    data_message(&mut m, 40);
    let bytes = framed(&m);
    let mut buf = BytesMut::with_capacity(bytes.len() + 8);
    buf.put_u8(0xee);
    buf.put_slice(&bytes);
    buf.advance(1);
    let f = FramedCodec::new().decode(&mut buf).unwrap().unwrap();
    assert!(!f.is_aligned());
    let Err(e) = f.reader() else {
        panic!("an unaligned frame read in place")
    };
    assert!(matches!(e, Error::Unaligned { address_mod_8, .. } if address_mod_8 != 0));
    let mut scratch = Message::new(SingleSegmentArena::new());
    let r = f.reader_or_copy(&mut scratch).unwrap();
    assert_eq!(r.root().unwrap().get::<u64>(0), 40);
    assert_eq!(r.root().unwrap().get_data(0).unwrap().len(), 40);
}

/// Limits are enforced from the segment table alone, before the decoder
/// reserves room for the frame: a segment count over the limit from the
/// first 4 bytes, a declared size over the traversal limit or over the
/// frame limit once the table is in. The read buffer does not grow.
#[test]
fn limits_refuse_before_reserving() {
    // 0x10000 segments.
    let mut buf = BytesMut::with_capacity(16);
    buf.put_slice(&[0xff, 0xff, 0, 0]);
    let e = FramedCodec::new().decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            Error::SegmentLimitExceeded {
                count: 0x10000,
                limit: 512
            }
        ),
        "{e:?}"
    );
    assert!(buf.capacity() <= 16);
    // One segment of 0x0100_0000 words (128 MiB): over the traversal limit.
    let mut buf = BytesMut::with_capacity(16);
    buf.put_slice(&[0, 0, 0, 0, 0, 0, 0, 1]);
    let e = FramedCodec::new().decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 0x0100_0000,
                limit: 0x80_0000
            }
        ),
        "{e:?}"
    );
    assert!(buf.capacity() <= 16);
    // 1024 words: under the traversal limit, over a 4 KiB frame limit.
    let mut buf = BytesMut::with_capacity(16);
    buf.put_slice(&[0, 0, 0, 0, 0, 4, 0, 0]);
    let e = FramedCodec::new()
        .max_frame_bytes(4096)
        .decode(&mut buf)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::FrameTooLarge {
                declared: 8200,
                limit: 4096
            }
        ),
        "{e:?}"
    );
    assert!(buf.capacity() <= 16);
    // Under every limit: room for the whole frame is reserved at once.
    let mut buf = BytesMut::with_capacity(16);
    buf.put_slice(&[0, 0, 0, 0, 0, 4, 0, 0]);
    assert!(FramedCodec::new().decode(&mut buf).unwrap().is_none());
    assert!(buf.capacity() >= 8200);
    // A tighter segment limit from the options.
    let codec = FramedCodec::with_options(ReaderOptions::new().segment_limit(2));
    let mut buf = BytesMut::from(&[2u8, 0, 0, 0][..]);
    let e = codec.clone().decode(&mut buf).unwrap_err();
    assert!(
        matches!(e, Error::SegmentLimitExceeded { count: 3, limit: 2 }),
        "{e:?}"
    );
    // The packed codec checks the unpacked table the same way: a count
    // word of 0xffff (tag 0b0011, two bytes).
    let mut buf = BytesMut::from(&[0x03u8, 0xff, 0xff][..]);
    let e = PackedCodec::new().decode(&mut buf).unwrap_err();
    assert!(
        matches!(e, Error::SegmentLimitExceeded { count: 0x10000, .. }),
        "{e:?}"
    );
    // A packed table declaring 0x0100_0000 words: tag 0b1000_0000, byte 1.
    let mut buf = BytesMut::from(&[0x80u8, 0x01][..]);
    let e = PackedCodec::new().decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            Error::MessageTooLarge {
                declared: 0x0100_0000,
                ..
            }
        ),
        "{e:?}"
    );
    let mut buf = BytesMut::from(&[0x20u8, 0x04][..]);
    let e = PackedCodec::new()
        .max_frame_bytes(4096)
        .decode(&mut buf)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::FrameTooLarge {
                declared: 8200,
                limit: 4096
            }
        ),
        "{e:?}"
    );
}

/// A stream that ends inside a frame is `Truncated` with the frame's
/// length (or the table's, while the table is cut) and the bytes in; one
/// that ends between frames ends cleanly.
#[test]
fn cut_stream_is_truncated() {
    let msgs = messages();
    let m = &msgs[2];
    for cut in [1, 4, 7, 8, 9, m.len() - 1] {
        let mut buf = BytesMut::from(&m[..cut]);
        let mut codec = FramedCodec::new();
        assert!(codec.decode(&mut buf).unwrap().is_none());
        let e = codec.decode_eof(&mut buf).unwrap_err();
        let needed = if cut < 8 { 8 } else { m.len() as u64 };
        assert!(
            matches!(e, Error::Truncated { needed: n, available } if n == needed && available == cut as u64),
            "cut {cut}: {e:?}"
        );
    }
    let mut buf = BytesMut::from(&m[..]);
    let mut codec = FramedCodec::new();
    assert!(codec.decode_eof(&mut buf).unwrap().is_some());
    assert!(codec.decode_eof(&mut buf).unwrap().is_none());
}

/// Packed decoding gives each message's unpacked framed bytes at every
/// split size, consuming exactly each message's packed bytes; the packed
/// encoder writes what `append_packed_to` writes.
#[test]
fn packed_codec_round_trips_at_every_split() {
    let mut msgs = Vec::new();
    let mut packed = Vec::new();
    // 150,000 bytes: past the 64 KiB the decoder makes room for at once.
    for n in [0, 1, 100, 5000, 20000, 150_000] {
        let mut m = Message::new(SingleSegmentArena::new());
        data_message(&mut m, n);
        msgs.push(framed(&m));
        let mut want = Vec::new();
        m.append_packed_to(&mut want);
        let mut out = BytesMut::new();
        PackedCodec::new().encode(&m, &mut out).unwrap();
        assert_eq!(&out[..], &want[..]);
        let mut out = BytesMut::new();
        PackedCodec::new()
            .sends::<MessageReader>()
            .encode(&m.reader(), &mut out)
            .unwrap();
        assert_eq!(&out[..], &want[..]);
        packed.extend_from_slice(&want);
    }
    let mut m = Message::new(OneWordArena::default());
    build_full(&mut m).unwrap();
    msgs.push(framed(&m));
    m.append_packed_to(&mut packed);
    for step in [1, 2, 3, 9, 10, 11, 64, 4096, packed.len()] {
        let frames = decode_in_steps(&mut PackedCodec::new(), &packed, step).unwrap();
        assert_eq!(frames.len(), msgs.len(), "step {step}");
        for (f, m) in frames.iter().zip(&msgs) {
            assert_eq!(f.as_bytes(), &m[..], "step {step}");
            f.reader().unwrap().root().unwrap();
        }
    }
}

/// Packed input whose zero run goes on past the end of the message is
/// refused at the run's tag (the reference refuses it too); packed input
/// cut inside a message is `Truncated` in unpacked bytes.
#[test]
fn packed_codec_rejects_runs_past_the_end_and_cuts() {
    // Table: one segment of 1 word (tag 0x10, byte 1); the segment: a zero
    // word followed by a run of 1 more zero word, past the end.
    let mut buf = BytesMut::from(&[0x10u8, 0x01, 0x00, 0x01][..]);
    let e = PackedCodec::new().decode(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Packed {
                offset: 2,
                fault: PackedFault::OutputFull { capacity_bytes: 16 }
            }
        ),
        "{e:?}"
    );
    let mut m = Message::new(SingleSegmentArena::new());
    data_message(&mut m, 300);
    let mut packed = Vec::new();
    m.append_packed_to(&mut packed);
    let mut buf = BytesMut::from(&packed[..packed.len() - 1]);
    let mut codec = PackedCodec::new();
    assert!(codec.decode(&mut buf).unwrap().is_none());
    let e = codec.decode_eof(&mut buf).unwrap_err();
    let size = m.serialized_size() as u64;
    assert!(
        matches!(e, Error::Truncated { needed, available } if needed == size && available < size),
        "{e:?}"
    );
    let mut buf = BytesMut::from(&packed[..1]);
    let mut codec = PackedCodec::new();
    assert!(codec.decode(&mut buf).unwrap().is_none());
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert!(
        matches!(
            e,
            Error::Truncated {
                needed: 8,
                available: 0
            }
        ),
        "{e:?}"
    );
}

/// Feeds `input` to a fresh `codec` in the pieces `cuts` gives, then
/// EOF; reads every frame that comes out. Returns the frames' total
/// length, and the error that stopped the stream if one did.
fn decode_any<D>(codec: D, input: &[u8], cuts: &[usize]) -> (usize, Result<(), Error>)
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let mut total = 0;
    let r = decode_counting(codec, input, cuts, &mut total);
    (total, r)
}

fn decode_counting<D>(
    mut codec: D,
    input: &[u8],
    cuts: &[usize],
    total: &mut usize,
) -> Result<(), Error>
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let mut buf = BytesMut::new();
    let mut scratch = Message::new(SingleSegmentArena::new());
    let mut at = 0;
    let mut take = |f: Frame| {
        // Every frame has whole words and a table that passed the limits;
        // reading it may still fail on its content, never panic.
        assert_eq!(f.len() % 8, 0);
        if let Ok(r) = f.reader_or_copy(&mut scratch) {
            let _ = r.root().map(|root| root.get::<u64>(0));
        }
        *total += f.len();
    };
    for &cut in cuts.iter().chain([&input.len()]) {
        let cut = cut.min(input.len()).max(at);
        buf.put_slice(&input[at..cut]);
        at = cut;
        while let Some(f) = codec.decode(&mut buf)? {
            take(f);
        }
    }
    while let Some(f) = codec.decode_eof(&mut buf)? {
        take(f);
    }
    Ok(())
}

proptest! {
    /// Arbitrary bytes in arbitrary pieces never make either decoder
    /// panic or loop, frames or not; a framed decoder that accepts the
    /// whole input took all of it (a stream is frames, nothing else), and
    /// tight limits hold.
    #[test]
    fn arbitrary_bytes_never_panic(
        input in proptest::collection::vec(any::<u8>(), 0..600),
        mut cuts in proptest::collection::vec(0usize..600, 0..8),
    ) {
        cuts.sort_unstable();
        let small = ReaderOptions::new().segment_limit(4).traversal_limit_words(64);
        if let (n, Ok(())) = decode_any(FramedCodec::with_options(small), &input, &cuts) {
            prop_assert_eq!(n, input.len());
        }
        let _ = decode_any(FramedCodec::new().max_frame_bytes(256), &input, &cuts);
        let _ = decode_any(PackedCodec::with_options(small), &input, &cuts);
        let _ = decode_any(PackedCodec::new().max_frame_bytes(256), &input, &cuts);
    }

    /// Valid streams with arbitrary cuts (and bytes of garbage after them)
    /// give back every message before any error.
    #[test]
    fn valid_prefix_survives_any_cuts(
        sizes in proptest::collection::vec(0usize..3000, 1..5),
        mut cuts in proptest::collection::vec(0usize..20_000, 0..10),
        tail in proptest::collection::vec(any::<u8>(), 0..20),
    ) {
        cuts.sort_unstable();
        let mut stream = Vec::new();
        let mut packed = Vec::new();
        let mut lens = 0;
        for &n in &sizes {
            let mut m = Message::new(SingleSegmentArena::new());
            data_message(&mut m, n);
            m.append_to(&mut stream);
            m.append_packed_to(&mut packed);
            lens += m.serialized_size();
        }
        let (n, r) = decode_any(FramedCodec::new(), &stream, &cuts);
        prop_assert!(r.is_ok());
        prop_assert_eq!(n, lens);
        let (n, r) = decode_any(PackedCodec::new(), &packed, &cuts);
        prop_assert!(r.is_ok());
        prop_assert_eq!(n, lens);
        stream.extend_from_slice(&tail);
        packed.extend_from_slice(&tail);
        for (n, r) in [
            decode_any(FramedCodec::new(), &stream, &cuts),
            decode_any(PackedCodec::new(), &packed, &cuts),
        ] {
            prop_assert!(n >= lens, "{} of {} bytes of messages before {:?}", n, lens, r);
            prop_assert!(r.is_ok() || !tail.is_empty());
        }
    }
}

/// What a reader of a stream saw: each message's traversal digest, then
/// the error that stopped it (`Debug`, numbers included), if any.
type Outcomes = Vec<Result<u64, String>>;

/// At most this many messages are read from one stream.
const MAX_MESSAGES: usize = 16;

fn limits() -> ReaderOptions {
    ReaderOptions::new().traversal_limit_words(1 << 14)
}

/// The blocking readers over `input`: `try_read_from`, or
/// `try_read_packed_from` over the bytes (a `BufRead`).
fn blocking_outcomes(input: &[u8], packed: bool) -> Outcomes {
    let mut out = Vec::new();
    let mut rest = input;
    let mut msg = Message::new(SingleSegmentArena::new());
    while out.len() < MAX_MESSAGES {
        let r = if packed {
            msg.try_read_packed_from(&mut rest, limits())
        } else {
            msg.try_read_from(&mut rest, limits())
        };
        match r {
            Ok(Some(reader)) => out.push(Ok(exercise(&reader, limits()).digest)),
            Ok(None) => break,
            Err(e) => {
                out.push(Err(format!("{e:?}")));
                break;
            }
        }
    }
    out
}

/// A codec over `input` fed in pieces of `step` bytes, then EOF.
fn codec_outcomes<D>(mut codec: D, input: &[u8], step: usize) -> Outcomes
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let mut out = Vec::new();
    let mut scratch = Message::new(SingleSegmentArena::new());
    let mut buf = BytesMut::new();
    let mut pieces = input.chunks(step.max(1));
    loop {
        let piece = pieces.next();
        if let Some(p) = piece {
            buf.put_slice(p);
        }
        loop {
            if out.len() >= MAX_MESSAGES {
                return out;
            }
            let r = match piece {
                Some(_) => codec.decode(&mut buf),
                None => codec.decode_eof(&mut buf),
            };
            match r {
                Ok(Some(f)) => {
                    let reader = f.reader_or_copy(&mut scratch).unwrap();
                    out.push(Ok(exercise(&reader, limits()).digest));
                }
                Ok(None) => break,
                Err(e) => {
                    out.push(Err(format!("{e:?}")));
                    return out;
                }
            }
        }
        if piece.is_none() {
            return out;
        }
    }
}

/// The tokio free functions over `input` as a reader giving `step` bytes
/// per poll (and `Pending` before each), driven by a no-op waker.
fn async_outcomes(input: &[u8], step: usize, packed: bool) -> Outcomes {
    use capnarena::serialize::tokio_io;
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};
    let mut out = Vec::new();
    let mut msg = Message::new(SingleSegmentArena::new());
    let mut r = tokio::io::BufReader::with_capacity(step.max(1), Chunks(input, step.max(1), false));
    let mut cx = Context::from_waker(Waker::noop());
    while out.len() < MAX_MESSAGES {
        let mut fut = pin!(async {
            let got = if packed {
                tokio_io::try_read_packed_message(&mut msg, &mut r, limits()).await
            } else {
                tokio_io::try_read_message(&mut msg, &mut r, limits()).await
            };
            got.map(|o| o.map(|reader| exercise(&reader, limits()).digest))
        });
        let got = loop {
            if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
                break v;
            }
        };
        match got {
            Ok(Some(d)) => out.push(Ok(d)),
            Ok(None) => break,
            Err(e) => {
                out.push(Err(format!("{e:?}")));
                break;
            }
        }
    }
    out
}

/// A reader of a slice giving `.1` bytes per read, `Pending` before each.
struct Chunks<'a>(&'a [u8], usize, bool);

impl tokio::io::AsyncRead for Chunks<'_> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        if !self.2 {
            self.2 = true;
            return std::task::Poll::Pending;
        }
        self.2 = false;
        let n = self.1.min(self.0.len()).min(buf.remaining());
        buf.put_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        std::task::Poll::Ready(Ok(()))
    }
}

/// A stream to read: messages framed (or packed) back to back, with
/// `flips` bytes overwritten, cut after `cut` bytes (modulo its length).
fn mangled_stream(
    sizes: &[usize],
    packed: bool,
    flips: &[(usize, u8)],
    cut: Option<usize>,
) -> Vec<u8> {
    let mut stream = Vec::new();
    for &n in sizes {
        let mut m = Message::new(SingleSegmentArena::new());
        data_message(&mut m, n);
        if packed {
            m.append_packed_to(&mut stream);
        } else {
            m.append_to(&mut stream);
        }
    }
    for &(at, b) in flips {
        if !stream.is_empty() {
            let at = at % stream.len();
            stream[at] = b;
        }
    }
    if let Some(cut) = cut {
        stream.truncate(cut % (stream.len() + 1));
    }
    stream
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The codecs and the async functions read any stream (valid, with
    /// bytes overwritten, cut anywhere) exactly as the blocking readers
    /// do: the same messages, then the same error with the same numbers,
    /// or the same clean end; whatever the piece size.
    #[test]
    fn codecs_and_async_agree_with_blocking_readers(
        sizes in proptest::collection::vec(0usize..400, 1..4),
        packed in any::<bool>(),
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..3),
        cut in proptest::option::of(any::<usize>()),
        step in 1usize..300,
    ) {
        let input = mangled_stream(&sizes, packed, &flips, cut);
        let want = blocking_outcomes(&input, packed);
        let got = if packed {
            codec_outcomes(PackedCodec::with_options(limits()), &input, step)
        } else {
            codec_outcomes(FramedCodec::with_options(limits()), &input, step)
        };
        prop_assert_eq!(&got, &want, "codec, step {}", step);
        let got = async_outcomes(&input, step, packed);
        prop_assert_eq!(&got, &want, "async, step {}", step);
    }
}

/// `message`'s frames decoded by `codec` from a stream of its own (a new
/// buffer), fed whole, then its end.
fn decode_stream<D>(codec: &mut D, stream: &[u8]) -> Result<Vec<Vec<u8>>, Error>
where
    D: Decoder<Item = Frame, Error = Error>,
{
    let frames = decode_in_steps(codec, stream, stream.len().max(1))?;
    Ok(frames.iter().map(|f| f.as_bytes().to_vec()).collect())
}

/// Issue 21: once `decode_eof` has reported a stream cut inside a frame
/// (at any byte of it), the codec is clean: a new stream's messages come
/// out whole and byte-identical. `main` kept the cut frame's state, so
/// `FramedCodec` cut the next stream's first message at the stale length
/// and `PackedCodec` returned other bytes than the message, both with
/// `Ok`.
#[test]
fn codec_is_clean_after_a_cut_stream() {
    let msgs = messages();
    // A short message cut, then a longer one (and another) in a new stream.
    let (first, next) = (&msgs[2], [&msgs[3], &msgs[1]]);
    let next_stream: Vec<u8> = next.iter().flat_map(|m| m.iter().copied()).collect();
    for cut in 1..first.len() {
        let mut codec = FramedCodec::new();
        let mut buf = BytesMut::from(&first[..cut]);
        assert!(codec.decode(&mut buf).unwrap().is_none());
        let e = codec.decode_eof(&mut buf).unwrap_err();
        assert!(matches!(e, Error::Truncated { .. }), "cut {cut}: {e:?}");
        let frames = decode_stream(&mut codec, &next_stream).unwrap();
        assert_eq!(frames, next.map(|m| m.to_vec()), "framed, cut {cut}");
    }
    let pack = |framed: &[u8]| {
        let mut m = Message::new(SingleSegmentArena::new());
        let r = m.read_from_bytes(framed, ReaderOptions::default()).unwrap();
        let mut out = BytesMut::new();
        PackedCodec::new()
            .sends::<MessageReader>()
            .encode(&r, &mut out)
            .unwrap();
        out.to_vec()
    };
    let first_packed = pack(first);
    let next_packed: Vec<u8> = next.iter().flat_map(|m| pack(m)).collect();
    for cut in 1..first_packed.len() {
        let mut codec = PackedCodec::new();
        let mut buf = BytesMut::from(&first_packed[..cut]);
        assert!(codec.decode(&mut buf).unwrap().is_none());
        let e = codec.decode_eof(&mut buf).unwrap_err();
        assert!(matches!(e, Error::Truncated { .. }), "cut {cut}: {e:?}");
        let frames = decode_stream(&mut codec, &next_packed).unwrap();
        assert_eq!(frames, next.map(|m| m.to_vec()), "packed, cut {cut}");
    }
}

/// Issue 21: after `decode` fails (a limit, a packed run past the end),
/// the stream is out of step with frames, so the codec refuses further
/// input with `DecoderFailed`, even a well-formed message, and never
/// returns one with `Ok`; `reset` makes it decode a new stream again.
/// `main` went on decoding from wherever the failed frame left it.
#[test]
fn codec_refuses_input_after_an_error_until_reset() {
    let msgs = messages();
    let good = &msgs[3];
    let mut codec = FramedCodec::new();
    let mut buf = BytesMut::from(&[0xffu8, 0xff, 0, 0][..]);
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, Error::SegmentLimitExceeded { .. }), "{e:?}");
    let mut buf = BytesMut::from(&good[..]);
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, Error::DecoderFailed), "{e:?}");
    codec.reset();
    assert_eq!(decode_stream(&mut codec, good).unwrap(), [good.to_vec()]);

    // Packed: a zero run past the end of a 1-word message, then a good
    // message in the same stream.
    let mut m = Message::new(SingleSegmentArena::new());
    data_message(&mut m, 300);
    let mut packed = vec![0x10u8, 0x01, 0x00, 0x01];
    m.append_packed_to(&mut packed);
    let mut codec = PackedCodec::new();
    let mut buf = BytesMut::from(&packed[..]);
    let e = codec.decode(&mut buf).unwrap_err();
    assert!(matches!(e, Error::Packed { .. }), "{e:?}");
    for _ in 0..2 {
        let e = codec.decode(&mut buf).unwrap_err();
        assert!(matches!(e, Error::DecoderFailed), "{e:?}");
    }
    codec.reset();
    let mut alone = Vec::new();
    m.append_packed_to(&mut alone);
    assert_eq!(decode_stream(&mut codec, &alone).unwrap(), [framed(&m)]);
}

/// Issue 21: a frame whose table declares 64 MiB (one segment of 8 Mi
/// words) makes room in the read buffer as its bytes arrive, not for the
/// declaration: after each decode the buffer's capacity is at most four
/// times the bytes in plus 128 KiB. `main` reserved the whole 64 MiB as
/// soon as the 8-byte table was in.
#[test]
fn framed_codec_reserves_by_bytes_received() {
    let mut codec = FramedCodec::new();
    let mut buf = BytesMut::new();
    buf.put_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0]);
    for piece in [0, 1024, 64 * 1024, 1 << 20, 3 << 20] {
        buf.put_bytes(0x5a, piece);
        assert!(codec.decode(&mut buf).unwrap().is_none());
        let received = buf.len();
        assert!(
            buf.capacity() <= 4 * received + (128 << 10),
            "capacity {} for {received} bytes received",
            buf.capacity()
        );
    }
    let e = codec.decode_eof(&mut buf).unwrap_err();
    assert!(
        matches!(e, Error::Truncated { needed, available }
            if needed == 8 + (64 << 20) && available == 8 + 1024 + (64 << 10) + (4 << 20)),
        "{e:?}"
    );
}

/// Each codec type encodes one item, so a sink's `flush` and `close` infer
/// their item type with no annotation (issue: `framed.flush()` was E0283
/// when one codec encoded four item types), for the default codecs, a
/// codec for another arena, and frame forwarding with `StreamExt::forward`.
/// The bytes that arrive are the messages' framed and packed bytes.
#[test]
fn sinks_flush_without_annotation() {
    use futures::{SinkExt, StreamExt};
    use tokio::io::AsyncReadExt;
    use tokio_util::codec::{Framed, FramedRead, FramedWrite};

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut one = Message::new(SingleSegmentArena::new());
        data_message(&mut one, 40);
        let mut multi = Message::new(MultiSegmentArena::new());
        data_message(&mut multi, 90);

        // Framed, default codec: feed, then flush and close.
        let (a, mut b) = tokio::io::duplex(1 << 16);
        let mut sink = FramedWrite::new(a, FramedCodec::new());
        sink.feed(&one).await.unwrap();
        sink.flush().await.unwrap();
        sink.close().await.unwrap();
        let mut got = Vec::new();
        b.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, framed(&one));

        // Packed, for a multi-segment arena.
        let (a, mut b) = tokio::io::duplex(1 << 16);
        let mut sink =
            FramedWrite::new(a, PackedCodec::new().sends::<Message<MultiSegmentArena>>());
        sink.feed(&multi).await.unwrap();
        sink.flush().await.unwrap();
        sink.close().await.unwrap();
        let mut got = Vec::new();
        b.read_to_end(&mut got).await.unwrap();
        let mut want = Vec::new();
        multi.append_packed_to(&mut want);
        assert_eq!(got, want);

        // Frames forwarded from one stream to another as they decode.
        let (a, b) = tokio::io::duplex(1 << 16);
        let (c, mut d) = tokio::io::duplex(1 << 16);
        let mut source = Framed::new(a, FramedCodec::new());
        source.send(&one).await.unwrap();
        source.send(&one).await.unwrap();
        source.close().await.unwrap();
        let frames = FramedRead::new(b, FramedCodec::new());
        let out = FramedWrite::new(c, FramedCodec::new().sends::<Frame>());
        frames.forward(out).await.unwrap();
        let mut got = Vec::new();
        d.read_to_end(&mut got).await.unwrap();
        assert_eq!(got, [framed(&one), framed(&one)].concat());
    });
}
