//! Async reads and writes of framed and packed messages, for tokio's
//! `AsyncRead`/`AsyncWrite` ([`tokio_io`], feature `tokio`) and for
//! futures-io's ([`futures_io`], feature `futures-io`).
//!
//! One core serves both trait families: the reader and the writer below
//! work over [`PollSource`] and [`PollSink`], which each family's module
//! implements for thin wrappers around its traits (a macro writes the two
//! modules from one text). A message is read by the same code as the
//! blocking readers' ([`read_streamed!`]).

use alloc::vec::Vec;
use core::future::poll_fn;
use core::task::{Context, Poll};
use std::io::{self, ErrorKind, IoSlice};

use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::SegmentSource;
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::frame::{STACK_TABLE_WORDS, table_words};
use crate::serialize::packed::{MAX_ITEM_LEN, pack_prefix};
use crate::serialize::read_streamed;
use crate::word::Word;

/// Where an async read of a message gets its framed bytes from.
pub(crate) trait PollSource {
    /// Reads some bytes into `dst` (not empty): `Ok(0)` only at the end of
    /// the input.
    fn poll_some(&mut self, cx: &mut Context<'_>, dst: &mut [u8]) -> Poll<io::Result<usize>>;

    /// Whether input was consumed that gave no bytes yet (a packed tag cut
    /// off): then the input did not end cleanly before the message.
    fn consumed_any(&self) -> bool {
        false
    }

    /// Called once all `message_bytes` of the message are in.
    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        let _ = message_bytes;
        Ok(())
    }
}

/// Where an async write of a message puts its bytes.
pub(crate) trait PollSink {
    /// Writes some of `bufs`, in order.
    fn poll_write_vectored(
        &mut self,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>>;
}

/// Reads until `dst` is full or the input ends; returns the bytes read.
async fn fill<S: PollSource>(src: &mut S, dst: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < dst.len() {
        match poll_fn(|cx| src.poll_some(cx, &mut dst[n..])).await {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
    Ok(n)
}

/// Reads one message from `src` into `msg`'s arena with
/// [`read_streamed!`], the blocking readers' code: the same checks, and
/// memory taken as the bytes arrive. `Ok(None)` when the input ends
/// before the message's first byte.
pub(crate) async fn read_message<'m, A: Arena, S: PollSource>(
    msg: &'m mut Message<A>,
    src: &mut S,
    options: &ReaderOptions,
) -> Result<Option<MessageReader<'m>>> {
    read_streamed!(msg, src, options, |dst| fill(src, dst).await?)
}

/// Writes all of `bufs`, advancing through them.
async fn write_all_vectored<W: PollSink>(w: &mut W, mut bufs: &mut [IoSlice<'_>]) -> Result<()> {
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match poll_fn(|cx| w.poll_write_vectored(cx, bufs)).await {
            Ok(0) => return Err(Error::Io(ErrorKind::WriteZero.into())),
            Ok(n) => IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
    Ok(())
}

/// Writes the framed message made of `src`'s segments with vectored
/// writes: the segment table from the stack (up to 31 segments), then the
/// segments' own bytes, up to 16 slices per write.
pub(crate) async fn write_message<W: PollSink, S: SegmentSource>(w: &mut W, src: &S) -> Result<()> {
    const BATCH: usize = 16;
    let mut small = [Word::ZERO; STACK_TABLE_WORDS];
    let mut large = Vec::new();
    let table = table_words(src, &mut small, &mut large);
    let count = src.segment_count();
    let mut bufs = [IoSlice::new(&[]); BATCH];
    bufs[0] = IoSlice::new(Word::slice_as_bytes(table));
    let mut n = 1;
    let mut next = 0;
    loop {
        while n < BATCH && next < count {
            let seg = src.segment(next).unwrap_or(&[]);
            bufs[n] = IoSlice::new(Word::slice_as_bytes(seg));
            n += 1;
            next += 1;
        }
        write_all_vectored(w, &mut bufs[..n]).await?;
        if next >= count {
            return Ok(());
        }
        n = 0;
    }
}

/// Packs the framed message made of `src`'s segments into `w` through a
/// buffer in the future (about 4 KiB): the table and each segment packed
/// on their own, the reference's bytes.
pub(crate) async fn write_packed<W: PollSink, S: SegmentSource>(w: &mut W, src: &S) -> Result<()> {
    let mut small = [Word::ZERO; STACK_TABLE_WORDS];
    let mut large = Vec::new();
    let table = table_words(src, &mut small, &mut large);
    let mut buf = [0u8; 2 * MAX_ITEM_LEN];
    let mut filled = 0;
    for part in 0..=src.segment_count() {
        let mut words = match part {
            0 => table,
            i => src.segment(i - 1).unwrap_or(&[]),
        };
        while !words.is_empty() {
            let p = pack_prefix(words, &mut buf[filled..]);
            words = &words[p.words..];
            filled += p.bytes;
            if !words.is_empty() {
                write_all_vectored(w, &mut [IoSlice::new(&buf[..filled])]).await?;
                filled = 0;
            }
        }
    }
    write_all_vectored(w, &mut [IoSlice::new(&buf[..filled])]).await
}

/// Writes the public module of one trait family: wrappers implementing
/// [`PollSource`] and [`PollSink`] over its traits, and the functions.
macro_rules! async_family {
    (
        $(#[$doc:meta])*
        mod $family:ident;
        read = $AsyncRead:path, buf_read = $AsyncBufRead:path, write = $AsyncWrite:path;
        poll_read($reader:ident, $cx:ident, $dst:ident) = $poll_read:expr;
        example = $example:literal;
    ) => {
        $(#[$doc])*
        pub mod $family {
            use core::pin::Pin;
            use core::task::{Context, Poll, ready};
            use std::io::{self, IoSlice};

            use $AsyncBufRead as AsyncBufRead;
            use $AsyncRead as AsyncRead;
            use $AsyncWrite as AsyncWrite;

            use crate::arena::Arena;
            use crate::error::{Error, Result};
            use crate::message::Message;
            use crate::read::{MessageReader, ReaderOptions};
            use crate::serialize::frame::packed_end_of_message;
            use crate::serialize::packed::Unpacker;

            use super::{PollSink, PollSource};

            /// Framed input.
            struct Plain<R>(R);

            impl<R: AsyncRead + Unpin> PollSource for Plain<R> {
                fn poll_some(
                    &mut self,
                    $cx: &mut Context<'_>,
                    $dst: &mut [u8],
                ) -> Poll<io::Result<usize>> {
                    let $reader = Pin::new(&mut self.0);
                    $poll_read
                }
            }

            /// Packed input, consuming exactly the message's bytes.
            struct Packed<R> {
                inner: R,
                unpacker: Unpacker,
            }

            impl<R: AsyncBufRead + Unpin> PollSource for Packed<R> {
                fn poll_some(
                    &mut self,
                    cx: &mut Context<'_>,
                    dst: &mut [u8],
                ) -> Poll<io::Result<usize>> {
                    loop {
                        // Output owed by an item already read needs no
                        // input: hand it out before asking for more, which
                        // could wait or find the end.
                        if self.unpacker.pending_output() > 0 {
                            return Poll::Ready(Ok(self.unpacker.unpack(&[], dst).written));
                        }
                        let input = ready!(Pin::new(&mut self.inner).poll_fill_buf(cx))?;
                        if input.is_empty() {
                            return Poll::Ready(Ok(0));
                        }
                        let p = self.unpacker.unpack(input, dst);
                        Pin::new(&mut self.inner).consume(p.consumed);
                        if p.written > 0 {
                            return Poll::Ready(Ok(p.written));
                        }
                    }
                }

                fn consumed_any(&self) -> bool {
                    self.unpacker.consumed() > 0
                }

                fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
                    packed_end_of_message(&self.unpacker, message_bytes)
                }
            }

            /// Output.
            struct Sink<W>(W);

            impl<W: AsyncWrite + Unpin> PollSink for Sink<W> {
                fn poll_write_vectored(
                    &mut self,
                    cx: &mut Context<'_>,
                    bufs: &[IoSlice<'_>],
                ) -> Poll<io::Result<usize>> {
                    Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
                }
            }

            /// Reads one framed message from `r` into `msg`'s arena and
            /// returns a reader over it, as
            /// [`Message::read_from`](crate::Message::read_from) does for
            /// a blocking reader: the segment table is checked against
            /// `options` before anything is allocated for the segments,
            /// exactly the message's bytes are read, a warmed arena
            /// allocates nothing, and memory is taken as the bytes arrive
            /// (a table declaring 64 MiB followed by 8 bytes costs about
            /// 64 KiB), by the same code.
            ///
            /// It reads the table a word at a time, then each segment in
            /// pieces of growing size: wrap an unbuffered `r` in a buffered reader
            /// when messages are small. The future is cancel-safe only in
            /// that a cancelled read leaves `r` inside a message.
            ///
            #[doc = $example]
            ///
            /// # Errors
            /// [`Error::EndOfStream`] when `r` ends before the first byte;
            /// [`Error::Truncated`] when it ends inside the message; a limit
            /// exceeded; an I/O error; or the arena has no room.
            pub async fn read_message<'m, A: Arena, R: AsyncRead + Unpin>(
                msg: &'m mut Message<A>,
                r: R,
                options: ReaderOptions,
            ) -> Result<MessageReader<'m>> {
                try_read_message(msg, r, options)
                    .await?
                    .ok_or(Error::EndOfStream)
            }

            /// As [`read_message`], for a stream of messages: `Ok(None)`
            /// when `r` ends cleanly before the next message.
            ///
            /// # Errors
            /// As [`read_message`], less [`Error::EndOfStream`].
            pub async fn try_read_message<'m, A: Arena, R: AsyncRead + Unpin>(
                msg: &'m mut Message<A>,
                r: R,
                options: ReaderOptions,
            ) -> Result<Option<MessageReader<'m>>> {
                super::read_message(msg, &mut Plain(r), &options).await
            }

            /// Writes `msg` framed to `w` with vectored writes (the
            /// segments are not copied; the table is built on the stack
            /// for up to 31 segments). Does not flush `w`.
            ///
            /// # Errors
            /// Any error of `w`.
            pub async fn write_message<A: Arena, W: AsyncWrite + Unpin>(
                w: W,
                msg: &Message<A>,
            ) -> Result<()> {
                super::write_message(&mut Sink(w), msg).await
            }

            /// Reads one packed message from `r` into `msg`'s arena, as
            /// [`Message::read_packed_from`](crate::Message::read_packed_from)
            /// does for a blocking reader: `r` is buffered so that exactly
            /// the message's packed bytes are consumed.
            ///
            /// # Errors
            /// As [`read_message`]; [`Error::Packed`] when a run goes on
            /// past the message's end.
            pub async fn read_packed_message<'m, A: Arena, R: AsyncBufRead + Unpin>(
                msg: &'m mut Message<A>,
                r: R,
                options: ReaderOptions,
            ) -> Result<MessageReader<'m>> {
                try_read_packed_message(msg, r, options)
                    .await?
                    .ok_or(Error::EndOfStream)
            }

            /// As [`read_packed_message`], for a stream of messages:
            /// `Ok(None)` when `r` ends cleanly before the next message.
            ///
            /// # Errors
            /// As [`read_packed_message`], less [`Error::EndOfStream`].
            pub async fn try_read_packed_message<'m, A: Arena, R: AsyncBufRead + Unpin>(
                msg: &'m mut Message<A>,
                r: R,
                options: ReaderOptions,
            ) -> Result<Option<MessageReader<'m>>> {
                let mut src = Packed {
                    inner: r,
                    unpacker: Unpacker::new(),
                };
                super::read_message(msg, &mut src, &options).await
            }

            /// Writes `msg` packed to `w`: the bytes of
            /// [`Message::write_packed_to`](crate::Message::write_packed_to),
            /// through a buffer of about 4 KiB in the future. Does not flush
            /// `w`.
            ///
            /// # Errors
            /// Any error of `w`.
            pub async fn write_packed_message<A: Arena, W: AsyncWrite + Unpin>(
                w: W,
                msg: &Message<A>,
            ) -> Result<()> {
                super::write_packed(&mut Sink(w), msg).await
            }
        }
    };
}

#[cfg(feature = "tokio")]
async_family! {
    /// Async framed and packed reads and writes over tokio's `AsyncRead`,
    /// `AsyncBufRead` and `AsyncWrite` (feature `tokio`).
    mod tokio_io;
    read = tokio::io::AsyncRead, buf_read = tokio::io::AsyncBufRead,
    write = tokio::io::AsyncWrite;
    poll_read(reader, cx, dst) = {
        let mut buf = tokio::io::ReadBuf::new(dst);
        ready!(reader.poll_read(cx, &mut buf))?;
        Poll::Ready(Ok(buf.filled().len()))
    };
    example = "```
# #[tokio::main(flavor = \"current_thread\")]
# async fn main() -> capnarena::Result<()> {
use capnarena::serialize::tokio_io::{try_read_message, write_message};
use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};

let (mut a, mut b) = tokio::io::duplex(4096);
let mut msg = Message::new(SingleSegmentArena::new());
for v in 1..=3u64 {
    msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, v);
    write_message(&mut a, &msg).await?;
}
drop(a);
let mut seen = Vec::new();
while let Some(r) = try_read_message(&mut msg, &mut b, ReaderOptions::new()).await? {
    seen.push(r.root()?.get::<u64>(0));
}
assert_eq!(seen, [1, 2, 3]);
# Ok(())
# }
```";
}

#[cfg(feature = "futures-io")]
async_family! {
    /// Async framed and packed reads and writes over futures-io's
    /// `AsyncRead`, `AsyncBufRead` and `AsyncWrite` (feature
    /// `futures-io`): for async-std, smol and `futures::io`.
    mod futures_io;
    read = ::futures_io::AsyncRead, buf_read = ::futures_io::AsyncBufRead,
    write = ::futures_io::AsyncWrite;
    poll_read(reader, cx, dst) = reader.poll_read(cx, dst);
    example = "```
# futures::executor::block_on(async {
use capnarena::serialize::futures_io::{try_read_message, write_message};
use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};

let mut stream = Vec::new();
let mut msg = Message::new(SingleSegmentArena::new());
for v in 1..=3u64 {
    msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, v);
    write_message(&mut stream, &msg).await?;
}
let mut input = futures::io::Cursor::new(stream);
let mut seen = Vec::new();
while let Some(r) = try_read_message(&mut msg, &mut input, ReaderOptions::new()).await? {
    seen.push(r.root()?.get::<u64>(0));
}
assert_eq!(seen, [1, 2, 3]);
# Ok::<(), capnarena::Error>(())
# }).unwrap();
```";
}
