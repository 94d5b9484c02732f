//! Async reads and writes of framed and packed messages, for tokio's
//! `AsyncRead`/`AsyncWrite` ([`tokio_io`], feature `tokio`) and for
//! futures-io's ([`futures_io`], feature `futures-io`).
//!
//! One core serves both trait families: the readers and writers below
//! work over [`PollSource`], [`PollBufInput`] and [`PollSink`], which each
//! family's module (`tokio_io.rs`, `futures_io.rs`) implements for a thin
//! wrapper around its traits; its public functions are one call into this
//! core each. A message is read by the same code as the blocking readers'
//! ([`read_streamed!`]), packed input through one [`PackedSource`].

use alloc::vec::Vec;
use core::future::poll_fn;
use core::task::{Context, Poll, ready};
use std::io::{self, ErrorKind, IoSlice};

use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::SegmentSource;
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::frame::packed_end_of_message;
use crate::serialize::frame::{STACK_TABLE_WORDS, table_words};
use crate::serialize::packed::{MAX_ITEM_LEN, Unpacker, pack_prefix};
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

/// A buffered async input that lends the bytes it holds: what tokio's and
/// futures-io's `AsyncBufRead` both are.
pub(crate) trait PollBufInput {
    /// The buffered bytes, read from the input when there are none: empty
    /// only at the end of the input.
    fn poll_fill_buf(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>>;

    /// Marks the first `n` buffered bytes as used.
    fn consume(&mut self, n: usize);
}

/// Packed input over a buffered one, consuming exactly the message's
/// packed bytes.
pub(crate) struct PackedSource<R> {
    inner: R,
    unpacker: Unpacker,
}

impl<R> PackedSource<R> {
    /// Packed input read from `inner`, at the start of a message.
    pub(crate) fn new(inner: R) -> Self {
        PackedSource {
            inner,
            unpacker: Unpacker::new(),
        }
    }
}

impl<R: PollBufInput> PollSource for PackedSource<R> {
    fn poll_some(&mut self, cx: &mut Context<'_>, dst: &mut [u8]) -> Poll<io::Result<usize>> {
        loop {
            // Output owed by an item already read needs no input: hand it
            // out before asking for more, which could wait or find the end.
            if self.unpacker.pending_output() > 0 {
                return Poll::Ready(Ok(self.unpacker.unpack(&[], dst).written));
            }
            let input = ready!(self.inner.poll_fill_buf(cx))?;
            if input.is_empty() {
                return Poll::Ready(Ok(0));
            }
            let p = self.unpacker.unpack(input, dst);
            self.inner.consume(p.consumed);
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

/// As [`read_message`], where the input ending before the message is
/// [`Error::EndOfStream`]: what each family's `read_message` and
/// `read_packed_message` are.
pub(crate) async fn read_required<'m, A: Arena, S: PollSource>(
    msg: &'m mut Message<A>,
    src: &mut S,
    options: &ReaderOptions,
) -> Result<MessageReader<'m>> {
    read_message(msg, src, options)
        .await?
        .ok_or(Error::EndOfStream)
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
