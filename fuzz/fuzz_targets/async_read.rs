//! Untrusted bytes as a stream of framed or packed messages (bit 0 of the
//! first control byte) read one after another into one reused arena by
//! the async readers of both trait families (`tokio_io` and `futures_io`:
//! `try_read_message`, `try_read_packed_message`), driven by a poll loop
//! (no runtime) over a reader that hands out fuzzer-sized chunks and
//! returns `Pending` on fuzzer-chosen polls; checked against the blocking
//! readers (`try_read_from`, `try_read_packed_from`) over the same bytes.
//!
//! Two control bytes come first, then the stream: the chunk size (1 to
//! 128 bytes) and which polls are `Pending` (every 2nd to 4th, or none).
//!
//! Properties:
//! - Both families read exactly the messages the blocking reader reads,
//!   segment for segment, and fail where it fails with the same error
//!   and numbers (all use the one streamed reader), or end cleanly where
//!   it does.
//! - A `Pending` poll is followed by progress: the poll loop ends within
//!   a bound set by the input's length.
#![no_main]

use std::future::Future;
use std::io;
use std::pin::{Pin, pin};
use std::task::{Context, Poll, Waker};

use capnarena::serialize::{futures_io, tokio_io};
use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
use libfuzzer_sys::fuzz_target;

/// Messages read per execution at most.
const MAX_MESSAGES: usize = 16;

/// Small limits: 8 Ki words per message.
fn options() -> ReaderOptions {
    ReaderOptions::new()
        .traversal_limit_words(1 << 13)
        .nesting_limit(32)
}

/// Serves `data` in chunks of at most `chunk` bytes; every `pending`-th
/// poll (0: never) returns `Pending`, waking at once.
struct Trickle<'a> {
    data: &'a [u8],
    chunk: usize,
    pending: usize,
    polls: usize,
}

impl Trickle<'_> {
    /// Whether this poll is one that waits.
    fn wait(&mut self, cx: &mut Context<'_>) -> bool {
        self.polls += 1;
        if self.pending != 0 && self.polls % self.pending == 0 {
            cx.waker().wake_by_ref();
            return true;
        }
        false
    }

    /// Copies the next chunk into `dst`.
    fn take(&mut self, dst: &mut [u8]) -> usize {
        let n = dst.len().min(self.chunk).min(self.data.len());
        dst[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        n
    }

    /// The bytes a buffered read sees next.
    fn window(&self) -> &[u8] {
        &self.data[..self.data.len().min(self.chunk)]
    }
}

impl tokio::io::AsyncRead for Trickle<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.wait(cx) {
            return Poll::Pending;
        }
        let n = self.take(buf.initialize_unfilled());
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncBufRead for Trickle<'_> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.get_mut();
        if this.wait(cx) {
            return Poll::Pending;
        }
        Poll::Ready(Ok(this.window()))
    }

    fn consume(mut self: Pin<&mut Self>, amt: usize) {
        self.data = &self.data[amt..];
    }
}

impl ::futures_io::AsyncRead for Trickle<'_> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        if self.wait(cx) {
            return Poll::Pending;
        }
        Poll::Ready(Ok(self.take(buf)))
    }
}

impl ::futures_io::AsyncBufRead for Trickle<'_> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.get_mut();
        if this.wait(cx) {
            return Poll::Pending;
        }
        Poll::Ready(Ok(this.window()))
    }

    fn consume(mut self: Pin<&mut Self>, amt: usize) {
        self.data = &self.data[amt..];
    }
}

/// Polls `f` to completion with a waker that does nothing (the reader
/// wakes at once anyway), at most `max_polls` times.
fn block_on<F: Future>(f: F, max_polls: usize) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..max_polls {
        if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("no progress after {max_polls} polls");
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

/// One read: a message's segments, the end (`None`), or the error.
type Step = Option<Result<Vec<Vec<u64>>, String>>;

fn step(r: capnarena::Result<Option<MessageReader<'_>>>) -> Step {
    match r {
        Ok(Some(reader)) => Some(Ok(segments(&reader))),
        Ok(None) => None,
        Err(e) => Some(Err(format!("{e:?}"))),
    }
}

/// Reads messages with `next` until the end, an error or the bound.
fn steps(mut next: impl FnMut() -> Step) -> Vec<Step> {
    let mut out = Vec::new();
    while out.len() < MAX_MESSAGES {
        let s = next();
        let end = !matches!(s, Some(Ok(_)));
        out.push(s);
        if end {
            break;
        }
    }
    out
}

fuzz_target!(|input: &[u8]| {
    let Some((ctl, data)) = input.split_first_chunk::<2>() else {
        return;
    };
    let packed = ctl[0] & 1 == 1;
    let chunk = usize::from(ctl[0] >> 1) + 1;
    let pending = match ctl[1] & 3 {
        0 => 0,
        n => usize::from(n) + 1,
    };
    // Each poll that is not `Pending` moves at least a byte, or ends a
    // read: a generous bound on the polls of one read.
    let max_polls = 8 * (data.len() + 16) * (pending + 1) + 64;

    let mut msg = Message::new(SingleSegmentArena::new());
    let mut slice = data;
    let want = steps(|| {
        step(if packed {
            msg.try_read_packed_from(&mut slice, options())
        } else {
            msg.try_read_from(&mut slice, options())
        })
    });

    let trickle = || Trickle {
        data,
        chunk,
        pending,
        polls: 0,
    };
    let mut src = trickle();
    let tokio_steps = steps(|| {
        step(block_on(
            async {
                if packed {
                    tokio_io::try_read_packed_message(&mut msg, &mut src, options()).await
                } else {
                    tokio_io::try_read_message(&mut msg, &mut src, options()).await
                }
            },
            max_polls,
        ))
    });
    assert_eq!(tokio_steps, want, "tokio_io");

    let mut src = trickle();
    let futures_steps = steps(|| {
        step(block_on(
            async {
                if packed {
                    futures_io::try_read_packed_message(&mut msg, &mut src, options()).await
                } else {
                    futures_io::try_read_message(&mut msg, &mut src, options()).await
                }
            },
            max_polls,
        ))
    });
    assert_eq!(futures_steps, want, "futures_io");
});
