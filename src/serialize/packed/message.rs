//! Whole messages, packed: writing a message's segment table and segments,
//! and reading one into an arena from a byte slice or a `BufRead`.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::Unpacker;
#[cfg(feature = "std")]
use super::algorithm::{MAX_ITEM_LEN, pack_words};
#[cfg(feature = "alloc")]
use super::algorithm::{max_packed_len, pack_chunks_to_vec, pack_to_vec};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::{Source, read_message};
#[cfg(feature = "std")]
use crate::word::Word;

/// A [`Source`] that unpacks from a byte slice.
struct SliceSource<'b> {
    input: &'b [u8],
    unpacker: Unpacker,
}

impl Source for SliceSource<'_> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let p = self.unpacker.unpack(self.input, dst);
        self.input = &self.input[p.consumed..];
        Ok(p.written)
    }

    fn consumed_any(&self) -> bool {
        self.unpacker.consumed() > 0
    }

    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        end_of_message(&self.unpacker, message_bytes)
    }
}

/// At the end of a message: no run may go on into the next one (the
/// reference rejects that too).
fn end_of_message(u: &Unpacker, message_bytes: u64) -> Result<()> {
    if u.is_at_item_boundary() {
        Ok(())
    } else {
        Err(u.output_full(message_bytes))
    }
}

/// A [`Source`] that unpacks from a `BufRead`, consuming exactly the
/// packed bytes of the message.
#[cfg(feature = "std")]
struct BufReadSource<R> {
    inner: R,
    unpacker: Unpacker,
}

#[cfg(feature = "std")]
impl<R: std::io::BufRead> Source for BufReadSource<R> {
    fn fill(&mut self, dst: &mut [u8]) -> Result<usize> {
        let mut done = 0;
        while done < dst.len() {
            // Output owed by an item already read (a zero run, or a word cut
            // by the last `dst`) needs no input: write it before asking the
            // reader for more, which could block or find the end.
            if self.unpacker.pending_output() > 0 {
                done += self.unpacker.unpack(&[], &mut dst[done..]).written;
                continue;
            }
            let input = match self.inner.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::Io(e)),
            };
            if input.is_empty() {
                break;
            }
            let p = self.unpacker.unpack(input, &mut dst[done..]);
            self.inner.consume(p.consumed);
            done += p.written;
        }
        Ok(done)
    }

    fn consumed_any(&self) -> bool {
        self.unpacker.consumed() > 0
    }

    fn end_of_message(&mut self, message_bytes: u64) -> Result<()> {
        end_of_message(&self.unpacker, message_bytes)
    }
}

/// Room for this many table words on the stack when writing; a larger
/// table (more than 31 segments) is put on the heap.
#[cfg(feature = "alloc")]
const STACK_TABLE_WORDS: usize = 16;

/// Packs the framed message whose segment table is `table` and whose
/// segments are `segments` into `w`, through a stack buffer: the table and
/// each segment are packed on their own, as the reference does.
#[cfg(feature = "std")]
fn write_packed_parts<'s, W: std::io::Write>(
    mut w: W,
    table: &[u8],
    segments: impl Iterator<Item = &'s [Word]>,
) -> Result<()> {
    let mut out = ChunkedOut {
        buf: [0u8; 2 * MAX_ITEM_LEN],
        filled: 0,
    };
    out.pack(&mut w, bytemuck::cast_slice(table))?;
    for seg in segments {
        out.pack(&mut w, bytemuck::cast_slice(seg))?;
    }
    w.write_all(&out.buf[..out.filled])?;
    Ok(())
}

/// A stack buffer of packed bytes on their way to a writer.
#[cfg(feature = "std")]
struct ChunkedOut {
    buf: [u8; 2 * MAX_ITEM_LEN],
    filled: usize,
}

#[cfg(feature = "std")]
impl ChunkedOut {
    /// Packs `part` on its own (its runs end with it), writing the buffer
    /// out whenever the next item does not fit.
    fn pack<W: std::io::Write>(&mut self, w: &mut W, mut part: &[[u8; 8]]) -> Result<()> {
        while !part.is_empty() {
            let (words, bytes) = pack_words(part, &mut self.buf[self.filled..]);
            part = &part[words..];
            self.filled += bytes;
            if !part.is_empty() {
                w.write_all(&self.buf[..self.filled])?;
                self.filled = 0;
            }
        }
        Ok(())
    }
}

/// Calls `f` with the segment table for segments of `sizes` words (at
/// least one, at most `u32::MAX`), on the stack for up to 31 segments.
#[cfg(feature = "alloc")]
fn with_table<T>(sizes: impl ExactSizeIterator<Item = u32>, f: impl FnOnce(&[u8]) -> T) -> T {
    let count = sizes.len() as u32;
    let len = crate::read::header_bytes(count);
    let mut small = [0u8; 8 * STACK_TABLE_WORDS];
    let mut large = Vec::new();
    let table: &mut [u8] = if len <= small.len() {
        &mut small[..len]
    } else {
        large.resize(len, 0);
        &mut large
    };
    table[..4].copy_from_slice(&count.wrapping_sub(1).to_le_bytes());
    for (i, size) in sizes.enumerate() {
        table[4 + 4 * i..8 + 4 * i].copy_from_slice(&size.to_le_bytes());
    }
    f(table)
}

/// Packs the framed message made of `segments` (segment table, then each
/// segment) into `w`: for a message read with [`MessageReader`] (its
/// `segment(i)` for each `i`), or segments from anywhere else.
///
/// Allocates nothing for up to 31 segments.
///
/// # Errors
/// [`Error::TooLarge`] when there are no segments, more than `u32::MAX`,
/// or a segment of more than `u32::MAX` words; any error of `w`.
#[cfg(feature = "std")]
pub fn write_packed_segments<W: std::io::Write>(w: W, segments: &[&[Word]]) -> Result<()> {
    let too_large = |count: u64| Error::TooLarge {
        count,
        bits_per_element: 64,
        max_count: u64::from(u32::MAX),
    };
    if segments.is_empty() || segments.len() > u32::MAX as usize {
        return Err(too_large(segments.len() as u64));
    }
    if let Some(s) = segments.iter().find(|s| s.len() > u32::MAX as usize) {
        return Err(too_large(s.len() as u64));
    }
    let sizes = segments.iter().map(|s| s.len() as u32);
    with_table(sizes, |table| {
        write_packed_parts(w, table, segments.iter().copied())
    })
}

impl<A: Arena> Message<A> {
    /// Writes the message packed (segment table and segments, the standard
    /// framing, then packed) to `w`. Allocates nothing for up to 31
    /// segments; writes in pieces of at most about 4 KiB.
    ///
    /// The bytes are the reference implementation's for the same segments:
    /// the table and each segment are packed on their own.
    ///
    /// # Errors
    /// Any error of `w`.
    #[cfg(feature = "std")]
    pub fn write_packed_to<W: std::io::Write>(&self, w: W) -> Result<()> {
        let segments = self.segments_of(self.segment_count());
        let sizes = segments.clone().map(|s| s.len_words());
        with_table(sizes, |table| {
            write_packed_parts(w, table, segments.map(|s| s.words()))
        })
    }

    /// Appends the message, packed, to `out`; the same bytes as
    /// [`write_packed_to`](Self::write_packed_to). Allocates nothing when
    /// `out` has room for [`max_packed_len`] of the framed size in words
    /// (and the message has at most 31 segments).
    #[cfg(feature = "alloc")]
    pub fn append_packed_to(&self, out: &mut Vec<u8>) {
        // The segments are looked up once: the table and the bytes packed
        // agree even when the arena's answers change from call to call.
        let segments = self.segments_of(self.segment_count());
        let words: usize = segments.clone().map(|s| s.words().len()).sum();
        out.reserve(max_packed_len(words + segments.len() / 2 + 1));
        with_table(segments.clone().map(|s| s.len_words()), |table| {
            // The table is bytes on the stack, not 8-aligned: packed as
            // 8-byte chunks (a cast to words would panic where it is not
            // aligned).
            pack_chunks_to_vec(bytemuck::cast_slice(table), out)
        });
        for seg in segments {
            pack_to_vec(seg.words(), out);
        }
    }

    /// Reads one packed message from `r` into this message's arena
    /// and returns a reader over it (the only view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). With a warmed
    /// arena and at most 8 segments, nothing is allocated.
    ///
    /// Takes a `BufRead` so that exactly the message's packed bytes are
    /// consumed and the next message stays in `r`: the packed length of a
    /// message is only known once it is unpacked. The segment table is
    /// checked against `options` before the body is read or anything is
    /// allocated. No zero or literal run may go on past the message's end.
    ///
    /// # Errors
    /// [`Error::EndOfStream`] when `r` ends before the first byte;
    /// [`Error::Truncated`] when it ends inside the message (the numbers
    /// count unpacked bytes); [`Error::Packed`] when a run goes on past the
    /// message's end; a limit exceeded; an I/O error; or the arena has no
    /// room.
    #[cfg(feature = "std")]
    pub fn read_packed_from<R: std::io::BufRead>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        self.try_read_packed_from(r, options)?
            .ok_or(Error::EndOfStream)
    }

    /// As [`read_packed_from`](Self::read_packed_from), for a stream of
    /// messages: `Ok(None)` when `r` ends cleanly before the next message.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from), less
    /// [`Error::EndOfStream`].
    #[cfg(feature = "std")]
    pub fn try_read_packed_from<R: std::io::BufRead>(
        &mut self,
        r: R,
        options: ReaderOptions,
    ) -> Result<Option<MessageReader<'_>>> {
        let mut src = BufReadSource {
            inner: r,
            unpacker: Unpacker::new(),
        };
        read_message(self, &mut src, &options)
    }

    /// Reads the packed message that is all of `bytes` into this message's
    /// arena and returns a reader over it (the only view of what was read; see
    /// [Reading into a message](Message#reading-into-a-message)). With a
    /// warmed arena and at most 8 segments, nothing is allocated.
    ///
    /// # Errors
    /// As [`read_packed_from`](Self::read_packed_from) (empty input is
    /// [`Error::Truncated`]), and [`Error::TrailingData`] when bytes are
    /// left after the message.
    pub fn read_packed_from_bytes(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<MessageReader<'_>> {
        let (reader, used) = self.read_packed_from_bytes_prefix(bytes, options)?;
        if used != bytes.len() {
            return Err(Error::TrailingData {
                extra: (bytes.len() - used) as u64,
            });
        }
        Ok(reader)
    }

    /// As [`read_packed_from_bytes`](Self::read_packed_from_bytes) for the
    /// packed message at the start of `bytes`; also returns the packed
    /// bytes it took, where the next message starts.
    ///
    /// # Errors
    /// As [`read_packed_from_bytes`](Self::read_packed_from_bytes), less
    /// trailing bytes.
    #[inline]
    pub fn read_packed_from_bytes_prefix(
        &mut self,
        bytes: &[u8],
        options: ReaderOptions,
    ) -> Result<(MessageReader<'_>, usize)> {
        let mut src = SliceSource {
            input: bytes,
            unpacker: Unpacker::new(),
        };
        let reader = read_message(self, &mut src, &options)?.ok_or(Error::Truncated {
            needed: 8,
            available: 0,
        })?;
        Ok((reader, bytes.len() - src.input.len()))
    }
}
