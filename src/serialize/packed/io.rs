//! The `io` adapters: [`PackedWriter`] packs what is written to it,
//! [`PackedReader`] unpacks what it reads.

use alloc::vec::Vec;

use super::Unpacker;
use super::algorithm::{MAX_ITEM_LEN, pack_words};
use crate::error::{Error, Result};

/// Capacity of the buffers of [`PackedWriter::new`] and
/// [`PackedReader::new`].
const DEFAULT_BUF_LEN: usize = 8 * 1024;

/// An `io::Write` adapter that packs the bytes written to it.
///
/// The bytes of each `write` call are packed on their own, as the
/// reference implementation does: runs never span two calls (a word split
/// between two calls is packed alone). So `Message::write_to` through a
/// `PackedWriter` gives the same bytes as
/// [`Message::write_packed_to`](crate::Message::write_packed_to). Packed bytes are buffered; the buffer is
/// allocated once, at construction.
///
/// Call [`finish`](Self::finish) at the end: it writes out the buffer and
/// reports bytes that do not make a whole word. Dropping the writer writes
/// the buffer out too, ignoring errors (as `BufWriter` does), and cannot
/// report an unfinished word.
///
/// ```
/// use capnarena::serialize::packed::PackedWriter;
/// use capnarena::{Message, SingleSegmentArena, StructSize};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 7);
/// let mut w = PackedWriter::new(Vec::new());
/// msg.write_to(&mut w)?;
/// let packed = w.finish()?;
/// let mut direct = Vec::new();
/// msg.write_packed_to(&mut direct)?;
/// assert_eq!(packed, direct);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct PackedWriter<W: std::io::Write> {
    /// `Some` until `finish` takes it (an `Option` because `Drop` forbids
    /// moving out of the writer otherwise).
    inner: Option<W>,
    /// Packed bytes not yet written; `buf.len() >= MAX_ITEM_LEN`.
    buf: Vec<u8>,
    filled: usize,
    /// The start of a word whose other bytes have not been written yet.
    partial: [u8; 8],
    partial_len: usize,
}

impl<W: std::io::Write> PackedWriter<W> {
    /// A writer with an 8 KiB buffer.
    pub fn new(inner: W) -> Self {
        Self::with_capacity(DEFAULT_BUF_LEN, inner)
    }

    /// A writer with a buffer of `capacity` bytes (at least
    /// [`MAX_ITEM_LEN`]).
    pub fn with_capacity(capacity: usize, inner: W) -> Self {
        PackedWriter {
            inner: Some(inner),
            buf: alloc::vec![0; capacity.max(MAX_ITEM_LEN)],
            filled: 0,
            partial: [0; 8],
            partial_len: 0,
        }
    }

    /// Writes out the buffer and returns the underlying writer.
    ///
    /// # Errors
    /// [`Error::PartialWord`] when the bytes written do not end on a word
    /// boundary (the buffer is written out first); any error of the
    /// underlying writer.
    pub fn finish(mut self) -> Result<W> {
        self.write_buffer()?;
        if self.partial_len > 0 {
            return Err(Error::PartialWord {
                bytes: self.partial_len as u8,
            });
        }
        self.inner
            .take()
            .ok_or_else(|| Error::Io(std::io::ErrorKind::NotConnected.into()))
    }

    fn inner(&mut self) -> std::io::Result<&mut W> {
        self.inner
            .as_mut()
            .ok_or_else(|| std::io::ErrorKind::NotConnected.into())
    }

    /// Writes out the buffered packed bytes. On an error (any kind, after
    /// retrying `Interrupted`) the bytes not yet written stay buffered, at
    /// the front, for the next call: nothing is reported written that was
    /// not.
    fn write_buffer(&mut self) -> std::io::Result<()> {
        let Some(inner) = self.inner.as_mut() else {
            return Err(std::io::ErrorKind::NotConnected.into());
        };
        let mut done = 0;
        let result = loop {
            let rest = &self.buf[done..self.filled];
            if rest.is_empty() {
                break Ok(());
            }
            match inner.write(rest) {
                Ok(0) => break Err(std::io::ErrorKind::WriteZero.into()),
                // A writer that reports more than it was given is wrong;
                // counting it as all of `rest` keeps `done <= filled`.
                Ok(n) => done += n.min(rest.len()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => break Err(e),
            }
        };
        self.buf.copy_within(done..self.filled, 0);
        self.filled -= done;
        result
    }
}

impl<W: std::io::Write> std::io::Write for PackedWriter<W> {
    /// Packs `data` into the buffer. Returns how many bytes of `data` it
    /// took: all of them, unless the buffer had to be written out and the
    /// underlying writer failed after some were taken (then fewer, and the
    /// error comes on the next call). An error means none were taken.
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if data.is_empty() {
            return Ok(0);
        }
        // Room for the next item, or nothing taken.
        if self.buf.len() - self.filled < MAX_ITEM_LEN {
            self.write_buffer()?;
        }
        let mut taken = 0;
        if self.partial_len > 0 {
            let k = (8 - self.partial_len).min(data.len());
            self.partial[self.partial_len..self.partial_len + k].copy_from_slice(&data[..k]);
            self.partial_len += k;
            taken = k;
            if self.partial_len < 8 {
                return Ok(taken);
            }
            // The word fits: there is room for the largest item.
            let (_, bytes) = pack_words(&[self.partial], &mut self.buf[self.filled..]);
            self.filled += bytes;
            self.partial_len = 0;
        }
        let rest = &data[taken..];
        let (whole, tail) = rest.split_at(rest.len() / 8 * 8);
        let mut words: &[[u8; 8]] = bytemuck::try_cast_slice(whole)
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))?;
        while !words.is_empty() {
            let (n, bytes) = pack_words(words, &mut self.buf[self.filled..]);
            words = &words[n..];
            self.filled += bytes;
            taken += 8 * n;
            if !words.is_empty() {
                if let Err(e) = self.write_buffer() {
                    // What was taken is in the buffer: report it, and the
                    // error on the next call (which finds the buffer full).
                    return if taken > 0 { Ok(taken) } else { Err(e) };
                }
            }
        }
        self.partial[..tail.len()].copy_from_slice(tail);
        self.partial_len = tail.len();
        Ok(taken + tail.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.write_buffer()?;
        self.inner()?.flush()
    }
}

impl<W: std::io::Write> Drop for PackedWriter<W> {
    fn drop(&mut self) {
        // As `BufWriter`: errors cannot be reported here; `finish` reports them.
        let _ = self.write_buffer();
    }
}

impl<W: std::io::Write> core::fmt::Debug for PackedWriter<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedWriter")
            .field("buffered", &self.filled)
            .field("partial_word_bytes", &self.partial_len)
            .finish_non_exhaustive()
    }
}

/// An `io::Read` adapter that unpacks the packed bytes read from the
/// underlying reader.
///
/// It reads ahead into its buffer (allocated once, at construction), so the
/// underlying reader is left past the point the unpacked bytes reached. To
/// read a stream of packed messages, either keep one `PackedReader` for the
/// whole stream and read framed messages from it
/// ([`Message::try_read_from`](crate::Message::try_read_from)), or hand a `BufRead` to
/// [`Message::try_read_packed_from`](crate::Message::try_read_packed_from) (which also rejects runs that go on
/// past a message's end).
///
/// When the underlying reader ends inside a packed item, `read` returns an
/// `io::Error` of kind `UnexpectedEof` that wraps the [`Error::Packed`].
///
/// ```
/// use std::io::Read;
/// use capnarena::serialize::packed::PackedReader;
///
/// let mut r = PackedReader::new(&[0x00u8, 0x01, 0x01, 0x07][..]);
/// let mut out = Vec::new();
/// r.read_to_end(&mut out)?;
/// assert_eq!(out, [[0u8; 16].as_slice(), &[7, 0, 0, 0, 0, 0, 0, 0]].concat());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct PackedReader<R: std::io::Read> {
    inner: R,
    /// Packed bytes read ahead; `buf[start..end]` are not consumed yet.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    unpacker: Unpacker,
    eof: bool,
}

impl<R: std::io::Read> PackedReader<R> {
    /// A reader with an 8 KiB buffer.
    pub fn new(inner: R) -> Self {
        Self::with_capacity(DEFAULT_BUF_LEN, inner)
    }

    /// A reader with a buffer of `capacity` bytes (at least 16).
    pub fn with_capacity(capacity: usize, inner: R) -> Self {
        PackedReader {
            inner,
            buf: alloc::vec![0; capacity.max(16)],
            start: 0,
            end: 0,
            unpacker: Unpacker::new(),
            eof: false,
        }
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Gives back the underlying reader; packed bytes read ahead are lost.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: std::io::Read> std::io::Read for PackedReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            let p = self.unpacker.unpack(&self.buf[self.start..self.end], out);
            self.start += p.consumed;
            if p.written > 0 {
                return Ok(p.written);
            }
            if self.eof {
                return match self.unpacker.finish() {
                    Ok(()) => Ok(0),
                    Err(e) => Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, e)),
                };
            }
            // Nothing written with room in `out`: all input was consumed.
            debug_assert_eq!(self.start, self.end);
            self.start = 0;
            self.end = 0;
            let n = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            if n > self.buf.len() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    Error::ReadPastBuffer {
                        reported: n as u64,
                        buffer: self.buf.len() as u64,
                    },
                ));
            }
            self.end = n;
            self.eof = n == 0;
        }
    }
}

impl<R: std::io::Read> core::fmt::Debug for PackedReader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedReader")
            .field("buffered", &(self.end - self.start))
            .field("unpacker", &self.unpacker)
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}
