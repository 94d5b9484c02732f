//! Framing: reading framed messages into an arena (from unaligned bytes,
//! or one after another from an `io::Read` stream), and the packed
//! encoding ([`packed`]). Writing framed messages lives on [`Message`]
//! itself.
//!
//! # Async reads and writes
//!
//! `tokio_io` (feature `tokio`) and `futures_io` (feature
//! `futures-io`) read and write framed and packed messages over each
//! family's `AsyncRead`, `AsyncBufRead` and `AsyncWrite`, by one shared
//! core. The readers work as [`Message::read_from`] does for a blocking
//! reader, by the same code: the segment table is checked against the
//! options before anything is allocated for the segments, exactly the
//! message's bytes are read, a warmed arena allocates nothing, and memory
//! is taken as the bytes arrive (a table declaring 64 MiB followed by 8
//! bytes costs about 64 KiB). They read the table a word at a time, then
//! each segment in pieces of growing size: wrap an unbuffered reader in a
//! buffered one when messages are small. A future is cancel-safe only in
//! that a cancelled read leaves the reader inside a message. The writers
//! use vectored writes (framed) or a buffer of about 4 KiB in the future
//! (packed), and do not flush.

pub mod packed;

#[cfg(any(feature = "tokio", feature = "futures-io"))]
mod async_io;
#[cfg(feature = "bytes")]
mod buf;
#[cfg(feature = "tokio")]
pub mod codec;
#[cfg(any(feature = "bytes", feature = "futures-io"))]
mod frame;
#[cfg(feature = "futures-io")]
pub mod futures_io;
#[cfg(feature = "tokio")]
pub mod tokio_io;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::arena::{Arena, SegmentId};
use crate::error::{Error, Result};
use crate::message::Message;
use crate::read::{
    INLINE_SEGMENTS, MessageReader, ReaderOptions, TableHeader, parse_count, size_at,
};
use crate::word::Word;

/// Where each segment of a message read into an arena lives:
/// (arena segment, word offset, words). Inline for a few segments.
struct Placements {
    inline: [(u32, u32, u32); INLINE_SEGMENTS],
    len: usize,
    #[cfg(feature = "alloc")]
    heap: Vec<(u32, u32, u32)>,
}

impl Placements {
    fn new() -> Self {
        Placements {
            inline: [(0, 0, 0); INLINE_SEGMENTS],
            len: 0,
            #[cfg(feature = "alloc")]
            heap: Vec::new(),
        }
    }

    #[inline(always)]
    fn push(&mut self, p: (u32, u32, u32)) -> Result<()> {
        if self.len < INLINE_SEGMENTS {
            self.inline[self.len] = p;
            self.len += 1;
            return Ok(());
        }
        #[cfg(feature = "alloc")]
        {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(p);
            self.len += 1;
            Ok(())
        }
        #[cfg(not(feature = "alloc"))]
        {
            Err(Error::TooManySegmentsWithoutAlloc {
                count: self.len as u64 + 1,
                inline: INLINE_SEGMENTS,
            })
        }
    }

    fn as_slice(&self) -> &[(u32, u32, u32)] {
        #[cfg(feature = "alloc")]
        if self.len > INLINE_SEGMENTS {
            return &self.heap;
        }
        &self.inline[..self.len]
    }

    /// Allocates a segment of `len` words in `arena`, records it. The
    /// caller fills every word before making a reader of them (a read that
    /// stops short is an error, and its words are never read), so the
    /// words need not be zeroed first.
    #[inline(always)]
    fn allocate<A: Arena>(&mut self, arena: &mut A, len: u32) -> Result<()> {
        if len == 0 {
            return self.push((0, 0, 0));
        }
        let (s, o) = allocate_checked(arena, len, SegmentId(self.len as u32))?;
        self.push((s, o, len))
    }

    /// Makes room for more of a segment of `len` words whose first `have`
    /// words (all that is allocated: `cap == have`) are at (`s`, `o`).
    #[cold]
    #[inline(never)]
    fn grow<A: Arena>(
        arena: &mut A,
        s: &mut u32,
        o: &mut u32,
        cap: &mut u32,
        have: u32,
        len: u32,
    ) -> Result<()> {
        let more = next_room(have.into(), len.into(), FIRST_CHUNK_WORDS.into()) as u32;
        let (s2, o2) = allocate_checked(arena, more, SegmentId(*s))?;
        if s2 == *s && u64::from(o2) == u64::from(*o) + u64::from(have) {
            *cap = have + more;
            return Ok(());
        }
        // Not contiguous: the words just allocated are left unused, and
        // what arrived moves to room for four times as much.
        let total = len.min(have.saturating_mul(4));
        let (s3, o3) = allocate_checked(arena, total, SegmentId(s2))?;
        move_words(arena, (*s, *o), (s3, o3), have)?;
        *s = s3;
        *o = o3;
        *cap = total;
        Ok(())
    }

    /// A reader over the segments placed in `arena`.
    #[inline(always)]
    fn reader<'a, A: Arena>(
        &self,
        arena: &'a A,
        options: &ReaderOptions,
    ) -> Result<MessageReader<'a>> {
        let all = self.as_slice();
        let slice = |i: usize| -> &'a [Word] {
            let (s, o, len) = all[i];
            if len == 0 {
                return &[];
            }
            let seg = arena.segment(SegmentId(s));
            seg.get(o as usize..o as usize + len as usize)
                .unwrap_or(&[])
        };
        MessageReader::from_segment_fn(all.len() as u32, slice, options)
    }

    /// The words of segment `i`, all of them: an arena that no longer
    /// hands out the words it allocated is an error, not a shorter slice.
    fn get_mut<'a, A: Arena>(&self, arena: &'a mut A, i: usize) -> Result<&'a mut [Word]> {
        let (s, o, len) = self.as_slice()[i];
        if len == 0 {
            return Ok(&mut []);
        }
        arena
            .segment_mut(SegmentId(s))
            .get_mut(o as usize..o as usize + len as usize)
            .ok_or_else(|| placed_outside(s, o, len))
    }
}

/// Words of a segment allocated before any of it is read: a segment no
/// longer than this (64 KiB) is allocated whole, a longer one as its words
/// arrive (see [`read_streamed!`]).
const FIRST_CHUNK_WORDS: u32 = 8 * 1024;

/// [`FIRST_CHUNK_WORDS`] in bytes: room made at once for the start of a
/// frame by the codecs.
#[cfg(feature = "tokio")]
pub(crate) const FIRST_CHUNK_BYTES: u64 = FIRST_CHUNK_WORDS as u64 * 8;

/// How much more room to make for a frame or segment of `len` units
/// (words or bytes), `have` of which have arrived and filled the room
/// made so far: all of the rest up to `first` units at the start, then as
/// many as have arrived. So the room made is at most twice what arrived,
/// or `first`: the one growth rule of every stream reader.
#[inline(always)]
pub(crate) fn next_room(have: u64, len: u64, first: u64) -> u64 {
    (len - have).min(have.max(first))
}

/// `arena.allocate_overwritten(len, hint)`, checked to lie inside the
/// segment as both `segment` (reads) and `segment_mut` (writes) report it.
#[inline(always)]
fn allocate_checked<A: Arena>(arena: &mut A, len: u32, hint: SegmentId) -> Result<(u32, u32)> {
    let (SegmentId(s), o) = arena.allocate_overwritten(len, hint)?;
    let end = o as usize + len as usize;
    let have = arena.segment(SegmentId(s)).len();
    if have.min(arena.segment_mut(SegmentId(s)).len()) < end {
        return Err(placed_outside(s, o, len));
    }
    Ok((s, o))
}

/// The error for words `[offset, offset + len)` of arena segment
/// `segment`, allocated but not (or no longer) handed out by the arena.
#[cold]
fn placed_outside(segment: u32, offset: u32, len: u32) -> Error {
    Error::ArenaContract {
        what: "allocated words lie outside the segment the arena reports",
        segment,
        offset: u64::from(offset),
        len: u64::from(len),
    }
}

/// Words `[o, o + len)` of arena segment `s`, all of them, or an error
/// when the arena no longer hands them out.
#[inline(always)]
fn words_mut<A: Arena>(arena: &mut A, s: u32, o: u32, len: u32) -> Result<&mut [Word]> {
    arena
        .segment_mut(SegmentId(s))
        .get_mut(o as usize..o as usize + len as usize)
        .ok_or_else(|| placed_outside(s, o, len))
}

/// The words of the one segment (`len` words) of a message being read
/// into `arena`, and where they are: allocated in the arena's first
/// segment or wherever it puts them, not zeroed (the caller fills every
/// word before a reader is made of them). An empty segment takes no
/// allocation.
#[inline(always)]
fn single_segment_mut<A: Arena>(arena: &mut A, len: u32) -> Result<((u32, u32), &mut [Word])> {
    if len == 0 {
        return Ok(((0, 0), &mut []));
    }
    let (SegmentId(s), o) = arena.allocate_overwritten(len, SegmentId(0))?;
    Ok(((s, o), words_mut(arena, s, o, len)?))
}

/// The reader of a message whose one segment, of `len` words, was read
/// into `arena` at `place` by [`single_segment_mut`]; an error when the
/// arena no longer hands out those words for reading.
#[inline(always)]
fn single_segment_reader<'a, A: Arena>(
    arena: &'a A,
    (s, o): (u32, u32),
    len: u32,
    options: &ReaderOptions,
) -> Result<MessageReader<'a>> {
    if len == 0 {
        return Ok(MessageReader::from_single_segment(&[], options));
    }
    let start = o as usize;
    let words = arena
        .segment(SegmentId(s))
        .get(start..start + len as usize)
        .ok_or_else(|| placed_outside(s, o, len))?;
    Ok(MessageReader::from_single_segment(words, options))
}

/// Copies `len` words from (`from.0`, `from.1`) to (`to.0`, `to.1`) in
/// `arena`, through a small buffer when they are in different segments.
#[cold]
fn move_words<A: Arena>(arena: &mut A, from: (u32, u32), to: (u32, u32), len: u32) -> Result<()> {
    if from.0 == to.0 {
        let seg = arena.segment_mut(SegmentId(from.0));
        let (a, b, n) = (from.1 as usize, to.1 as usize, len as usize);
        if a + n > seg.len() || b + n > seg.len() {
            return Err(placed_outside(from.0, from.1, len));
        }
        seg.copy_within(a..a + n, b);
        return Ok(());
    }
    let mut buf = [Word::ZERO; 64];
    let mut done = 0;
    while done < len {
        let k = (len - done).min(64);
        let n = k as usize;
        buf[..n].copy_from_slice(words_mut(arena, from.0, from.1 + done, k)?);
        words_mut(arena, to.0, to.1 + done, k)?.copy_from_slice(&buf[..n]);
        done += k;
    }
    Ok(())
}

/// Where the framed message at the start of some bytes lies: its segment
/// table checked against the [`ReaderOptions`], and every byte of it inside
/// those bytes.
struct FrameExtent {
    count: u32,
    /// Bytes of the table, padding included.
    header_bytes: usize,
    /// Bytes of the whole message: table and segments.
    end: usize,
}

impl FrameExtent {
    /// The extent of the message at the start of `bytes`.
    ///
    /// # Errors
    /// [`Error::Truncated`] when `bytes` end before the message does (the
    /// bytes the message needs, as far as its table is in, and the bytes
    /// there are); a limit exceeded.
    #[inline(always)]
    fn of(bytes: &[u8], options: &ReaderOptions) -> Result<Self> {
        let available = bytes.len() as u64;
        let first = bytes.first_chunk::<4>().copied().ok_or(Error::Truncated {
            needed: 8,
            available,
        })?;
        let TableHeader {
            count,
            header_bytes,
        } = parse_count(first, options)?;
        let table = bytes.get(..header_bytes).ok_or(Error::Truncated {
            needed: header_bytes as u64,
            available,
        })?;
        let total: u64 = (0..count as usize)
            .map(|i| u64::from(size_at(table, i)))
            .sum();
        check_total(total, options)?;
        let end = header_bytes as u64 + total * 8;
        if end > available {
            return Err(Error::Truncated {
                needed: end,
                available,
            });
        }
        Ok(FrameExtent {
            count,
            header_bytes,
            end: end as usize,
        })
    }
}

/// Checks the declared size of a message against the traversal limit.
pub(crate) fn check_total(total: u64, options: &ReaderOptions) -> Result<()> {
    if total > options.traversal_limit_words {
        return Err(Error::MessageTooLarge {
            declared: total,
            limit: options.traversal_limit_words,
        });
    }
    Ok(())
}

impl<A: Arena> Message<A> {
    /// Copies the framed message in `bytes` (any alignment) into this
    /// message's arena and returns a reader over it (the only view of what
    /// was read; see [Reading into a message](Message#reading-into-a-message)).
    /// With a warmed arena and at most 8 segments, nothing is allocated.
    ///
    /// The segment table is checked against `options` (segment count, and
    /// total words against the traversal limit) before anything is
    /// allocated.
    ///
    /// # Errors
    /// A bad or truncated segment table, bytes after the message, a limit
    /// exceeded, or the arena has no room.
    pub fn read_from_bytes(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        let (reader, used) = self.read_from_bytes_prefix(bytes, options)?;
        if used != bytes.len() {
            return Err(Error::TrailingData {
                extra: (bytes.len() - used) as u64,
            });
        }
        Ok(reader)
    }

    /// As [`read_from_bytes`](Self::read_from_bytes) for the message at the
    /// start of `bytes`; also returns the bytes it took.
    ///
    /// # Errors
    /// As [`read_from_bytes`](Self::read_from_bytes), less trailing bytes.
    pub fn read_from_bytes_prefix(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<(MessageReader<'_>, usize)> {
        let arena = self.arena_for_reading();
        let FrameExtent {
            count,
            header_bytes,
            end,
        } = FrameExtent::of(bytes, &options)?;
        let table = &bytes[..header_bytes];
        if count == 1 {
            let len = size_at(table, 0);
            let (place, dst) = single_segment_mut(arena, len)?;
            Word::slice_as_bytes_mut(dst).copy_from_slice(&bytes[header_bytes..end]);
            let reader = single_segment_reader(arena, place, len, &options)?;
            return Ok((reader, end));
        }
        let mut places = Placements::new();
        let mut at = header_bytes;
        for i in 0..count as usize {
            let len = size_at(table, i);
            places.allocate(arena, len)?;
            let dst = places.get_mut(arena, i)?;
            let n = len as usize * 8;
            Word::slice_as_bytes_mut(dst).copy_from_slice(&bytes[at..at + n]);
            at += n;
        }
        Ok((places.reader(arena, &options)?, end))
    }

    /// Reads one framed message from `r` into this message's arena
    /// and returns a reader over it (the only view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). With a warmed
    /// arena and at most 8 segments, nothing is allocated. Reads exactly
    /// the message's bytes from `r`, so the next message stays in it.
    ///
    /// The segment table is checked against `options` before the body is
    /// read or anything is allocated.
    ///
    /// # Errors
    /// [`Error::EndOfStream`] when `r` ends before the first byte;
    /// [`Error::Truncated`] when it ends inside the message; a limit
    /// exceeded; an I/O error; or the arena has no room.
    #[cfg(feature = "std")]
    pub fn read_from<R: std::io::Read>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_from(r, options)?.ok_or(Error::EndOfStream)
    }

    /// As [`read_from`](Self::read_from), for a stream of messages:
    /// `Ok(None)` when `r` ends cleanly before the next message, so a loop
    /// reads them all into the same arena.
    ///
    /// ```
    /// use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
    /// let mut stream = Vec::new();
    /// for v in 1..=3u64 {
    ///     let mut msg = Message::new(SingleSegmentArena::new());
    ///     msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, v);
    ///     msg.append_to(&mut stream);
    /// }
    /// let mut input = &stream[..];
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// let mut seen = Vec::new();
    /// while let Some(reader) = msg.try_read_from(&mut input, ReaderOptions::default())? {
    ///     seen.push(reader.root()?.get::<u64>(0));
    /// }
    /// assert_eq!(seen, [1, 2, 3]);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`read_from`](Self::read_from), less [`Error::EndOfStream`].
    #[cfg(feature = "std")]
    pub fn try_read_from<R: std::io::Read>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        read_message(self, &mut ReadSource(r), &options)
    }

    /// As [`read_from`](Self::read_from), from a buffered reader: a message
    /// whose bytes are all in `r`'s buffer is copied from there into the
    /// arena as [`read_from_bytes_prefix`](Self::read_from_bytes_prefix)
    /// copies it, with no read call, and consumed; one that is not (it
    /// starts near the buffer's end, or is larger than the buffer) is read
    /// as `read_from` reads it. Reads exactly the message's bytes.
    ///
    /// # Errors
    /// As [`read_from`](Self::read_from). After an error, how much of the
    /// message was consumed is not specified.
    #[cfg(feature = "std")]
    pub fn read_buffered_from<R: std::io::BufRead>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_buffered_from(r, options)?
            .ok_or(Error::EndOfStream)
    }

    /// As [`read_buffered_from`](Self::read_buffered_from), for a stream of
    /// messages: `Ok(None)` when `r` ends cleanly before the next message.
    /// For a `BufRead` (a `BufReader` over a file or a socket, or a byte
    /// slice): a message in the buffer is read with no read call, where
    /// [`try_read_from`](Self::try_read_from) makes two.
    ///
    /// ```
    /// use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
    /// use std::io::BufReader;
    /// let mut stream = Vec::new();
    /// for v in 1..=3u64 {
    ///     let mut msg = Message::new(SingleSegmentArena::new());
    ///     msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, v);
    ///     msg.append_to(&mut stream);
    /// }
    /// // A buffer smaller than the stream: some messages start near its end.
    /// let mut input = BufReader::with_capacity(40, &stream[..]);
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// let mut seen = Vec::new();
    /// while let Some(reader) = msg.try_read_buffered_from(&mut input, ReaderOptions::default())? {
    ///     seen.push(reader.root()?.get::<u64>(0));
    /// }
    /// assert_eq!(seen, [1, 2, 3]);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`read_buffered_from`](Self::read_buffered_from), less
    /// [`Error::EndOfStream`].
    #[cfg(feature = "std")]
    pub fn try_read_buffered_from<R: std::io::BufRead>(
        &mut self,
        mut r: R,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        let buf = loop {
            match r.fill_buf() {
                Ok(buf) => break buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::Io(e)),
            }
        };
        if buf.is_empty() {
            self.arena_for_reading();
            return Ok(None);
        }
        match FrameExtent::of(buf, &options) {
            Ok(extent) => {
                let (reader, used) = self.read_from_bytes_prefix(&buf[..extent.end], options)?;
                r.consume(used);
                return Ok(Some(reader));
            }
            // Not all in the buffer: read through `Read`, from its start.
            Err(Error::Truncated { .. }) => {}
            Err(e) => {
                self.arena_for_reading();
                return Err(e);
            }
        }
        read_message(self, &mut ReadSource(r), &options)
    }
}

/// Where a streamed read of a message gets its bytes (the framed bytes:
/// segment table, then segments), from plain or packed input.
pub(crate) trait Source {
    /// Fills `dst` from the input; fewer bytes only when the input ends.
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize>;

    /// Whether any input was consumed, even if it gave no bytes yet (a
    /// packed tag whose bytes are cut off): then the input did not end
    /// cleanly before the message.
    fn consumed_any(&self) -> bool {
        false
    }

    /// Called once all `message_bytes` of the message are in: checks that
    /// the input is at a clean boundary there.
    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        let _ = message_bytes;
        Ok(())
    }
}

/// Framed input from an `io::Read`.
#[cfg(feature = "std")]
struct ReadSource<R>(R);

#[cfg(feature = "std")]
impl<R: std::io::Read> Source for ReadSource<R> {
    #[inline(always)]
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        read_full(&mut self.0, dst)
    }
}

/// Reads one message from `src` into `msg`'s arena with
/// [`read_streamed!`]. `Ok(None)` when the input ends before its first
/// byte.
#[inline(always)]
pub(crate) fn read_message<'m, A: Arena, S: Source>(
    msg: &'m mut Message<A>,
    src: &mut S,
    options: &ReaderOptions,
) -> Result<Option<MessageReader<'m>>> {
    read_streamed!(msg, src, options, |dst| src.fill(dst)?)
}

/// The one reader of streamed segment tables: the body of every function
/// that reads a framed message from a stream into an arena, for every
/// source (`io::Read`; `BufRead` and byte slices, packed; `Buf`; and, with
/// `.await` in `$fill`, the async readers). Written once as a macro so
/// that the blocking readers run it as straight-line code, as fast as
/// before the async readers shared it, and the async ones run the same
/// text. `$fill` fills `$dst` (a `&mut [u8]`) from `$src` and gives the
/// bytes it got, fewer only where the input ended; `$src` also has
/// `consumed_any()` and `end_of_message(bytes)`. The expansion returns
/// from the function it is in.
///
/// The segment table is checked against the [`ReaderOptions`] as its
/// bytes come in (the count as soon as the first 4 bytes are in, even
/// when the input ends next, as the slice readers do; the total once the
/// table is), before anything is allocated for the segments. Then memory
/// is taken as the words arrive, not as the table declares them, so that
/// a table declaring more than the input holds costs memory in proportion
/// to the input: the first [`FIRST_CHUNK_WORDS`] words of a segment are
/// allocated before anything is read into it, then each time the words
/// allocated have arrived, as many again ([`next_room`]). Where the arena
/// puts the next words elsewhere than right after the last (a new
/// segment), what arrived moves to a place with room for four times as
/// much. A message of one segment no longer than the first chunk (most
/// messages) takes a short path: its segment is allocated whole, filled
/// with one call and read straight from the arena, with no size or
/// placement table.
macro_rules! read_streamed {
    ($msg:expr, $src:ident, $options:expr, |$dst:ident| $fill:expr) => {{
        let msg = $msg;
        let options: &$crate::read::ReaderOptions = $options;
        let arena = msg.arena_for_reading();
        let mut first = [0u8; 8];
        let got: usize = {
            let $dst: &mut [u8] = &mut first;
            $fill
        };
        if got == 0 && !$src.consumed_any() {
            return Ok(None);
        }
        let header = (got >= 4)
            .then(|| $crate::read::parse_count([first[0], first[1], first[2], first[3]], options));
        let $crate::read::TableHeader {
            count,
            header_bytes,
        } = match header {
            Some(Ok(h)) if got == 8 => h,
            Some(Err(e)) => return Err(e),
            _ => {
                return Err($crate::error::Error::Truncated {
                    needed: 8,
                    available: got as u64,
                });
            }
        };
        let first_size = u32::from_le_bytes([first[4], first[5], first[6], first[7]]);
        if count == 1 && first_size <= $crate::serialize::FIRST_CHUNK_WORDS {
            // One segment, allocated whole: the table is in, and the
            // segment is one fill away.
            $crate::serialize::check_total(first_size.into(), options)?;
            let needed = 8 + u64::from(first_size) * 8;
            let (place, dst) = $crate::serialize::single_segment_mut(arena, first_size)?;
            let dst = $crate::word::Word::slice_as_bytes_mut(dst);
            let want = dst.len();
            // An empty segment asks nothing of the input, as below.
            let got: usize = if want == 0 {
                0
            } else {
                let $dst: &mut [u8] = dst;
                $fill
            };
            if got < want {
                return Err($crate::error::Error::Truncated {
                    needed,
                    available: 8 + got as u64,
                });
            }
            $src.end_of_message(needed)?;
            return $crate::serialize::single_segment_reader(arena, place, first_size, options)
                .map(Some);
        }
        // Sizes: the first is in `first`, the rest follow (then padding).
        let mut sizes = $crate::serialize::SizeTable::new(count)?;
        sizes.set(0, first_size);
        let mut consumed = 8u64;
        let mut i = 1usize;
        while i < count as usize {
            // Each further table word holds two sizes (or one and padding).
            let mut buf = [0u8; 8];
            let got: usize = {
                let $dst: &mut [u8] = &mut buf;
                $fill
            };
            consumed += got as u64;
            if got < buf.len() {
                return Err($crate::error::Error::Truncated {
                    needed: header_bytes as u64,
                    available: consumed,
                });
            }
            sizes.set(i, u32::from_le_bytes([buf[0], buf[1], buf[2], buf[3]]));
            if i + 1 < count as usize {
                sizes.set(i + 1, u32::from_le_bytes([buf[4], buf[5], buf[6], buf[7]]));
            }
            i += 2;
        }
        let total: u64 = (0..count as usize).map(|i| u64::from(sizes.get(i))).sum();
        $crate::serialize::check_total(total, options)?;
        let needed = header_bytes as u64 + total * 8;
        let mut places = $crate::serialize::Placements::new();
        for i in 0..count as usize {
            let len = sizes.get(i);
            if len == 0 {
                places.push((0, 0, 0))?;
                continue;
            }
            let first = $crate::serialize::next_room(
                0,
                len.into(),
                $crate::serialize::FIRST_CHUNK_WORDS.into(),
            ) as u32;
            let (mut s, mut o) = $crate::serialize::allocate_checked(
                arena,
                first,
                $crate::arena::SegmentId(places.len as u32),
            )?;
            let mut cap = first;
            let mut have = 0u32;
            loop {
                let dst = $crate::word::Word::slice_as_bytes_mut($crate::serialize::words_mut(
                    arena,
                    s,
                    o + have,
                    cap - have,
                )?);
                let want = dst.len();
                let got: usize = {
                    let $dst: &mut [u8] = dst;
                    $fill
                };
                consumed += got as u64;
                if got < want {
                    return Err($crate::error::Error::Truncated {
                        needed,
                        available: consumed,
                    });
                }
                have = cap;
                if have == len {
                    break;
                }
                $crate::serialize::Placements::grow(arena, &mut s, &mut o, &mut cap, have, len)?;
            }
            places.push((s, o, len))?;
        }
        $src.end_of_message(needed)?;
        places.reader(arena, options).map(Some)
    }};
}
pub(crate) use read_streamed;

/// Segment sizes of a table being read from a stream: inline for a few
/// segments, on the heap (with `alloc`) for more.
struct SizeTable {
    inline: [u32; INLINE_SEGMENTS],
    #[cfg(feature = "alloc")]
    heap: Vec<u32>,
}

impl SizeTable {
    // Inlined into the stream reader, with the heap case out of line: a
    // `Result<SizeTable>` returned through memory and copied out with wide
    // loads stalled on store forwarding (perf: packed_stream).
    #[inline(always)]
    fn new(count: u32) -> Result<Self> {
        #[cfg(feature = "alloc")]
        let heap = if count as usize > INLINE_SEGMENTS {
            Self::heap_sizes(count)?
        } else {
            Vec::new()
        };
        #[cfg(not(feature = "alloc"))]
        if count as usize > INLINE_SEGMENTS {
            return Err(Error::TooManySegmentsWithoutAlloc {
                count: u64::from(count),
                inline: INLINE_SEGMENTS,
            });
        }
        Ok(SizeTable {
            inline: [0; INLINE_SEGMENTS],
            #[cfg(feature = "alloc")]
            heap,
        })
    }

    /// Room for `count` sizes on the heap, zeroed.
    #[cfg(feature = "alloc")]
    #[inline(never)]
    fn heap_sizes(count: u32) -> Result<Vec<u32>> {
        let mut heap = crate::read::vec_for_segments(count)?;
        heap.resize(count as usize, 0);
        Ok(heap)
    }

    fn slots(&self) -> &[u32] {
        #[cfg(feature = "alloc")]
        if !self.heap.is_empty() {
            return &self.heap;
        }
        &self.inline
    }

    fn set(&mut self, i: usize, v: u32) {
        #[cfg(feature = "alloc")]
        if !self.heap.is_empty() {
            self.heap[i] = v;
            return;
        }
        self.inline[i] = v;
    }

    fn get(&self, i: usize) -> u32 {
        self.slots()[i]
    }
}

/// Reads until `buf` is full or the stream ends; returns the bytes read.
#[cfg(feature = "std")]
#[inline(always)]
fn read_full<R: std::io::Read>(r: &mut R, buf: &mut [u8]) -> Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) if k > buf.len() - n => {
                return Err(Error::ReadPastBuffer {
                    reported: k as u64,
                    buffer: (buf.len() - n) as u64,
                });
            }
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
    Ok(n)
}
