//! Async framed and packed reads and writes over futures-io's
//! `AsyncRead`, `AsyncBufRead` and `AsyncWrite` (feature `futures-io`):
//! for async-std, smol and `futures::io`.
//!
//! How they read and what they promise: [Async reads and
//! writes](super#async-reads-and-writes).
//!
//! ```
//! # futures::executor::block_on(async {
//! use capnarena::serialize::futures_io::{try_read_message, write_message};
//! use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
//!
//! let mut stream = Vec::new();
//! let mut msg = Message::new(SingleSegmentArena::new());
//! for v in 1..=3u64 {
//!     msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, v);
//!     write_message(&mut stream, &msg).await?;
//! }
//! let mut input = futures::io::Cursor::new(stream);
//! let mut seen = Vec::new();
//! while let Some(r) = try_read_message(&mut msg, &mut input, ReaderOptions::new()).await? {
//!     seen.push(r.root()?.get::<u64>(0));
//! }
//! assert_eq!(seen, [1, 2, 3]);
//! # Ok::<(), capnarena::Error>(())
//! # }).unwrap();
//! ```

use core::pin::Pin;
use core::task::{Context, Poll};
use std::io::{self, IoSlice};

use futures_io::{AsyncBufRead, AsyncRead, AsyncWrite};

use super::async_io::{self, PackedSource, PollBufInput, PollSink, PollSource};
use crate::arena::Arena;
use crate::error::Result;
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};

/// A futures-io reader or writer, as the shared async core sees it.
struct FuturesIo<T>(T);

impl<R: AsyncRead + Unpin> PollSource for FuturesIo<R> {
    fn poll_some(&mut self, cx: &mut Context<'_>, dst: &mut [u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_read(cx, dst)
    }
}

impl<R: AsyncBufRead + Unpin> PollBufInput for FuturesIo<R> {
    fn poll_fill_buf(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        Pin::new(&mut self.0).poll_fill_buf(cx)
    }

    fn consume(&mut self, n: usize) {
        Pin::new(&mut self.0).consume(n);
    }
}

impl<W: AsyncWrite + Unpin> PollSink for FuturesIo<W> {
    fn poll_write_vectored(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }
}

/// Reads one framed message from `r` into `msg`'s arena and returns a
/// reader over it (see [Async reads and
/// writes](super#async-reads-and-writes) for how).
///
/// # Errors
/// [`Error::EndOfStream`](crate::Error::EndOfStream) when `r` ends before the first byte;
/// [`Error::Truncated`](crate::Error::Truncated) when it ends inside the message; a limit exceeded;
/// an I/O error; or the arena has no room.
pub async fn read_message<'m, A: Arena, R: AsyncRead + Unpin>(
    msg: &'m mut Message<A>,
    r: R,
    options: ReaderOptions,
) -> Result<MessageReader<'m>> {
    async_io::read_required(msg, &mut FuturesIo(r), &options).await
}

/// As [`read_message`], for a stream of messages: `Ok(None)` when `r`
/// ends cleanly before the next message.
///
/// # Errors
/// As [`read_message`], less [`Error::EndOfStream`](crate::Error::EndOfStream).
pub async fn try_read_message<'m, A: Arena, R: AsyncRead + Unpin>(
    msg: &'m mut Message<A>,
    r: R,
    options: ReaderOptions,
) -> Result<Option<MessageReader<'m>>> {
    async_io::read_message(msg, &mut FuturesIo(r), &options).await
}

/// Writes `msg` framed to `w` with vectored writes (the segments are not
/// copied; the table is built on the stack for up to 31 segments). Does
/// not flush `w`.
///
/// # Errors
/// Any error of `w`.
pub async fn write_message<A: Arena, W: AsyncWrite + Unpin>(w: W, msg: &Message<A>) -> Result<()> {
    async_io::write_message(&mut FuturesIo(w), msg).await
}

/// Reads one packed message from `r` into `msg`'s arena, as
/// [`Message::read_packed_from`](crate::Message::read_packed_from) does
/// for a blocking reader: `r` is buffered so that exactly the message's
/// packed bytes are consumed.
///
/// # Errors
/// As [`read_message`]; [`Error::Packed`](crate::Error::Packed) when a run goes on past the
/// message's end.
pub async fn read_packed_message<'m, A: Arena, R: AsyncBufRead + Unpin>(
    msg: &'m mut Message<A>,
    r: R,
    options: ReaderOptions,
) -> Result<MessageReader<'m>> {
    async_io::read_required(msg, &mut PackedSource::new(FuturesIo(r)), &options).await
}

/// As [`read_packed_message`], for a stream of messages: `Ok(None)` when
/// `r` ends cleanly before the next message.
///
/// # Errors
/// As [`read_packed_message`], less [`Error::EndOfStream`](crate::Error::EndOfStream).
pub async fn try_read_packed_message<'m, A: Arena, R: AsyncBufRead + Unpin>(
    msg: &'m mut Message<A>,
    r: R,
    options: ReaderOptions,
) -> Result<Option<MessageReader<'m>>> {
    async_io::read_message(msg, &mut PackedSource::new(FuturesIo(r)), &options).await
}

/// Writes `msg` packed to `w`: the bytes of
/// [`Message::write_packed_to`](crate::Message::write_packed_to), through
/// a buffer of about 4 KiB in the future. Does not flush `w`.
///
/// # Errors
/// Any error of `w`.
pub async fn write_packed_message<A: Arena, W: AsyncWrite + Unpin>(
    w: W,
    msg: &Message<A>,
) -> Result<()> {
    async_io::write_packed(&mut FuturesIo(w), msg).await
}
