//! The async free functions (`serialize::tokio_io`, `serialize::futures_io`)
//! over in-memory streams: messages come back whole however the reader
//! hands out bytes (down to one byte per poll, with `Pending` between),
//! framed and packed, one segment and many; a clean end is `Ok(None)`, a
//! cut message `Truncated`, limits and packed faults are the errors the
//! blocking readers give.

mod common;

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use capnarena::serialize::{futures_io, tokio_io};
use capnarena::{
    Arena, Error, Message, PackedFault, ReaderOptions, SingleSegmentArena, StructSize,
};
use common::OneWordArena;
use common::build::build_full;
use tokio::io::{AsyncRead, AsyncWriteExt, BufReader, ReadBuf};

/// A reader that hands out at most `step` bytes per poll, and answers
/// `Pending` (after waking itself) before every read, so every read of
/// the functions under test is resumed.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    ready: bool,
}

impl<'a> Trickle<'a> {
    fn new(data: &'a [u8], step: usize) -> Self {
        Trickle {
            data,
            step,
            ready: false,
        }
    }

    fn take(&mut self, cx: &mut Context<'_>, max: usize) -> Poll<&'a [u8]> {
        if !self.ready {
            self.ready = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.ready = false;
        let n = max.min(self.step).min(self.data.len());
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        Poll::Ready(head)
    }
}

impl AsyncRead for Trickle<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let bytes = std::task::ready!(self.take(cx, buf.remaining()));
        buf.put_slice(bytes);
        Poll::Ready(Ok(()))
    }
}

impl futures::io::AsyncRead for Trickle<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        let bytes = std::task::ready!(self.take(cx, buf.len()));
        buf[..bytes.len()].copy_from_slice(bytes);
        Poll::Ready(Ok(bytes.len()))
    }
}

fn data_message(n: usize) -> Message<SingleSegmentArena> {
    let mut m = Message::new(SingleSegmentArena::new());
    let mut root = m.init_root_struct(StructSize::new(1, 1)).unwrap();
    root.set::<u64>(0, n as u64);
    let data: Vec<u8> = (0..n)
        .map(|i| if i % 40 < 20 { 0 } else { i as u8 | 1 })
        .collect();
    root.set_data(0, &data).unwrap();
    m
}

/// The framed bytes of `m`.
fn framed<A: Arena>(m: &Message<A>) -> Vec<u8> {
    let mut v = Vec::new();
    m.append_to(&mut v);
    v
}

/// Framed bytes of the segments of a reader, to compare what was read.
fn reread(r: &capnarena::MessageReader<'_>) -> Vec<u8> {
    let mut copy = Message::new(SingleSegmentArena::new());
    copy.set_root(&r.root().unwrap()).unwrap();
    framed(&copy)
}

/// tokio: written with `write_message` / `write_packed_message` into a
/// small duplex pipe (so writes block and resume), read back with one
/// byte per poll and with larger steps: every message equal to what was
/// written (one segment and more than 31, past the stack table and the
/// 16-slice batch), then `Ok(None)`.
#[tokio::test]
async fn tokio_round_trip_every_step() {
    let mut full = Message::new(OneWordArena::default());
    build_full(&mut full).unwrap();
    assert!(full.segment_count() > 31);
    let small = data_message(100);
    let big = data_message(20_000);
    let want: Vec<Vec<u8>> = vec![
        reread(&small.reader()),
        reread(&full.reader()),
        reread(&big.reader()),
    ];

    let (mut a, mut b) = tokio::io::duplex(64);
    let writer = tokio::spawn(async move {
        let mut full = Message::new(OneWordArena::default());
        build_full(&mut full).unwrap();
        for packed in [false, true] {
            let small = data_message(100);
            let big = data_message(20_000);
            if packed {
                tokio_io::write_packed_message(&mut a, &small)
                    .await
                    .unwrap();
                tokio_io::write_packed_message(&mut a, &full).await.unwrap();
                tokio_io::write_packed_message(&mut a, &big).await.unwrap();
            } else {
                tokio_io::write_message(&mut a, &small).await.unwrap();
                tokio_io::write_message(&mut a, &full).await.unwrap();
                tokio_io::write_message(&mut a, &big).await.unwrap();
            }
        }
        a.shutdown().await.unwrap();
    });
    let mut stream = Vec::new();
    tokio::io::AsyncReadExt::read_to_end(&mut b, &mut stream)
        .await
        .unwrap();
    writer.await.unwrap();
    let mut plain = Vec::new();
    for m in [framed(&small), framed(&full), framed(&big)] {
        plain.extend_from_slice(&m);
    }
    assert_eq!(
        &stream[..plain.len()],
        &plain[..],
        "write_message wrote the framed bytes"
    );
    let mut packed = Vec::new();
    small.write_packed_to(&mut packed).unwrap();
    full.write_packed_to(&mut packed).unwrap();
    big.write_packed_to(&mut packed).unwrap();
    assert_eq!(
        &stream[plain.len()..],
        &packed[..],
        "write_packed_message wrote the packed bytes"
    );

    let options = ReaderOptions::default();
    let mut msg = Message::new(SingleSegmentArena::new());
    for step in [1, 3, 8, 1000] {
        let mut r = Trickle::new(&plain, step);
        for w in &want {
            let got = tokio_io::read_message(&mut msg, &mut r, options)
                .await
                .unwrap();
            assert_eq!(&reread(&got), w, "step {step}");
        }
        assert!(
            tokio_io::try_read_message(&mut msg, &mut r, options)
                .await
                .unwrap()
                .is_none()
        );
        let mut r = BufReader::with_capacity(step.max(1), Trickle::new(&packed, step));
        for w in &want {
            let got = tokio_io::read_packed_message(&mut msg, &mut r, options)
                .await
                .unwrap();
            assert_eq!(&reread(&got), w, "packed, step {step}");
        }
        assert!(
            tokio_io::try_read_packed_message(&mut msg, &mut r, options)
                .await
                .unwrap()
                .is_none()
        );
    }
}

/// futures-io: the same functions from the same core, over a reader that
/// gives one byte per poll.
#[test]
fn futures_io_round_trip_one_byte_at_a_time() {
    futures::executor::block_on(async {
        let mut full = Message::new(OneWordArena::default());
        build_full(&mut full).unwrap();
        let mut stream = Vec::new();
        futures_io::write_message(&mut stream, &full).await.unwrap();
        futures_io::write_packed_message(&mut stream, &full)
            .await
            .unwrap();
        let mut packed = Vec::new();
        full.write_packed_to(&mut packed).unwrap();
        assert_eq!(stream, [framed(&full), packed].concat());
        let want = reread(&full.reader());
        let mut msg = Message::new(SingleSegmentArena::new());
        let mut r = futures::io::BufReader::with_capacity(1, Trickle::new(&stream, 1));
        let got = futures_io::read_message(&mut msg, &mut r, ReaderOptions::new())
            .await
            .unwrap();
        assert_eq!(reread(&got), want);
        let got = futures_io::read_packed_message(&mut msg, &mut r, ReaderOptions::new())
            .await
            .unwrap();
        assert_eq!(reread(&got), want);
        let Err(e) = futures_io::read_message(&mut msg, &mut r, ReaderOptions::new()).await else {
            panic!("a message read past the end");
        };
        assert!(matches!(e, Error::EndOfStream), "{e:?}");
    });
}

/// A stream cut inside a message is `Truncated` with the bytes the
/// framing needs and the bytes that came, at every cut; a segment count
/// over the limit is that error even when the stream ends right after
/// it; a packed zero run past the message's end is refused at its tag.
#[tokio::test]
async fn cuts_limits_and_packed_faults() {
    let m = data_message(50);
    let bytes = framed(&m);
    let options = ReaderOptions::default();
    let mut msg = Message::new(SingleSegmentArena::new());
    for cut in 1..bytes.len() {
        let Err(e) = tokio_io::read_message(&mut msg, &bytes[..cut], options).await else {
            panic!("cut {cut} read whole");
        };
        let needed = if cut < 8 { 8 } else { bytes.len() as u64 };
        assert!(
            matches!(e, Error::Truncated { needed: n, available } if n == needed && available == cut as u64),
            "cut {cut}: {e:?}"
        );
    }
    let Err(e) = tokio_io::read_message(&mut msg, &[0xff, 0xff, 0, 0][..], options).await else {
        panic!("a count over the limit was read");
    };
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
    let Err(e) = tokio_io::read_message(&mut msg, &[0, 0, 0, 0, 0, 0, 0, 1][..], options).await
    else {
        panic!("a size over the traversal limit was read");
    };
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
    // Table: one segment of one word; then a zero word and a run of one more.
    let packed = [0x10u8, 0x01, 0x00, 0x01];
    let Err(e) = tokio_io::read_packed_message(&mut msg, &packed[..], options).await else {
        panic!("a run past the end was read");
    };
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
}
