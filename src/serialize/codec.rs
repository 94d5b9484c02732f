//! tokio-util codecs (feature `tokio`): [`FramedCodec`] for the standard
//! framing, [`PackedCodec`] for packed messages, each a
//! [`Decoder`] and an [`Encoder`] to use with `Framed`, `FramedRead` and
//! `FramedWrite`.
//!
//! Decoding yields a [`Frame`]: the framed bytes of one message, split off
//! the read buffer with no copy. Reading it is zero-copy too when its
//! bytes are 8-aligned (a frame starts at a multiple of 8 bytes into the
//! read buffer, so that is when the buffer is: always with the usual
//! allocators); otherwise [`Frame::reader_or_copy`] copies it once into a
//! message whose arena is reused. The segment table is checked against
//! the [`ReaderOptions`] and the codec's frame limit as soon as its bytes
//! are in, before anything is reserved for the rest of the frame; then
//! room is made as the bytes arrive, by the rule of the blocking readers
//! (64 KiB at first, then as much again as arrived), so a frame that
//! declares more than is sent costs memory in proportion to what is. Once
//! the frames handed out are dropped, the read buffer's memory is reused,
//! so decoding allocates nothing per message after warm-up; neither does
//! encoding into the write buffer.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> capnarena::Result<()> {
//! use capnarena::serialize::codec::FramedCodec;
//! use capnarena::{Message, SingleSegmentArena, StructSize};
//! use futures::{SinkExt, StreamExt};
//! use tokio_util::codec::Framed;
//!
//! let (client, server) = tokio::io::duplex(64 * 1024);
//! let mut client = Framed::new(client, FramedCodec::new());
//! let mut server = Framed::new(server, FramedCodec::new());
//!
//! let mut msg = Message::new(SingleSegmentArena::new());
//! msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 42);
//! client.send(&msg).await?;
//!
//! let frame = server.next().await.expect("a frame")?;
//! assert_eq!(frame.reader()?.root()?.get::<u64>(0), 42);
//! # Ok(())
//! # }
//! ```

use core::marker::PhantomData;

use bytes::{Buf, Bytes, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use crate::arena::{Arena, SingleSegmentArena};
use crate::error::{Error, Result};
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::serialize::buf::{extend_packed, put_framed};
use crate::serialize::frame::{FrameLayout, Prefix, check_frame_limit, parse_prefix};
use crate::serialize::frame::{ReaderSegments, framed_len, packed_end_of_message};
use crate::serialize::packed::Unpacker;
use crate::serialize::{FIRST_CHUNK_BYTES, next_room};

/// The default frame limit of the codecs: 64 MiB (the default traversal
/// limit's worth of words) and 4 KiB for a segment table of up to 512
/// segments (the default segment limit).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 64 * 1024 * 1024 + 4096;

/// The framed bytes of one message (segment table, then segments), as a
/// codec decoded them, with the [`ReaderOptions`] to read them with.
///
/// A frame shares the read buffer's memory: while any frame of it is
/// alive, the codec's next reserve cannot reuse that memory and allocates
/// anew. Drop frames once read (copy out, or into a message with
/// [`Message::set_root`], what must live longer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    bytes: Bytes,
    options: ReaderOptions,
}

impl Frame {
    /// A frame over `bytes`, read with `options`. The bytes are checked
    /// when a reader is made of them.
    pub fn new(bytes: Bytes, options: ReaderOptions) -> Self {
        Frame { bytes, options }
    }

    /// The framed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The framed bytes, to keep or to send on.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// Bytes in the frame.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for a frame of no bytes (never one a codec decoded).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The options a reader of this frame gets.
    pub fn options(&self) -> ReaderOptions {
        self.options
    }

    /// Whether the bytes start at an 8-aligned address, so that
    /// [`reader`](Self::reader) reads them in place.
    pub fn is_aligned(&self) -> bool {
        self.bytes.as_ptr().align_offset(8) == 0
    }

    /// A reader over the frame, in place (no copy).
    ///
    /// # Errors
    /// [`Error::Unaligned`] when the bytes are not 8-aligned (see
    /// [`reader_or_copy`](Self::reader_or_copy)); a bad segment table.
    #[inline]
    pub fn reader(&self) -> Result<MessageReader<'_>> {
        MessageReader::from_bytes(&self.bytes, self.options)
    }

    /// A reader over the frame: in place when its bytes are 8-aligned,
    /// otherwise over a copy made in `scratch`'s arena (reset first; a
    /// warmed arena copies without allocating).
    ///
    /// # Errors
    /// A bad segment table, or `scratch`'s arena has no room.
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::Bytes;
    /// use capnarena::serialize::codec::Frame;
    /// use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u16>(0, 80);
    /// let mut bytes = vec![0u8]; // one byte ahead: the frame is not 8-aligned
    /// msg.append_to(&mut bytes);
    /// let frame = Frame::new(Bytes::from(bytes).slice(1..), ReaderOptions::default());
    ///
    /// let mut scratch = Message::new(SingleSegmentArena::new()); // reused for every frame
    /// let reader = frame.reader_or_copy(&mut scratch)?;
    /// assert_eq!(reader.root()?.get::<u16>(0), 80);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[inline]
    pub fn reader_or_copy<'a, A: Arena>(
        &'a self,
        scratch: &'a mut Message<A>,
    ) -> Result<MessageReader<'a>> {
        if self.is_aligned() {
            self.reader()
        } else {
            scratch.read_from_bytes(&self.bytes, self.options)
        }
    }
}

impl AsRef<[u8]> for Frame {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

/// The error for a stream that ended inside a frame: `needed` bytes of it
/// known to be due, `available` in.
fn cut(needed: usize, available: usize) -> Error {
    Error::Truncated {
        needed: needed as u64,
        available: available as u64,
    }
}

/// A tokio-util codec for framed messages (the standard segment table,
/// then the segments): decodes [`Frame`]s, and encodes what its type
/// parameter `T` names.
///
/// # What it sends
///
/// Each codec type encodes exactly one kind of item, so that a sink's item
/// type is known from the codec alone and `framed.flush().await` or
/// `framed.close().await` need no annotation:
///
/// | `T` | the encoder takes | made with |
/// |---|---|---|
/// | `Message<A>` (default `Message<SingleSegmentArena>`) | `&Message<A>` | [`FramedCodec::new()`], or `.sends::<Message<A>>()` |
/// | `MessageReader<'_>` | `&MessageReader<'_>` of any lifetime (to pass a message on) | `.sends::<MessageReader>()` |
/// | [`Frame`] | a `Frame` by value (to forward decoded frames, e.g. with `StreamExt::forward`) | `.sends::<Frame>()` |
///
/// `sends` keeps the codec's options and limits; the decoder is the same
/// for every `T`.
///
/// The decoder returns `Ok(None)` while a frame is incomplete, and
/// reserves room in the read buffer for more of it (as much as has
/// arrived, at least 64 KiB) once the segment table has passed the
/// limits. A stream that ends inside a frame is [`Error::Truncated`].
///
/// After an error from [`decode`](Decoder::decode) the stream is not in
/// step with frames any more: the codec refuses further input with
/// [`Error::DecoderFailed`] until [`reset`](Self::reset) (drop the
/// connection). [`decode_eof`](Decoder::decode_eof) ends the stream: the
/// codec is clean after it whatever it returns (the bytes of a cut frame
/// are consumed), ready for another stream.
///
/// # Examples
///
/// The codec on its own, as `Framed` drives it:
///
/// ```
/// use bytes::BytesMut;
/// use capnarena::serialize::codec::FramedCodec;
/// use capnarena::{Message, SingleSegmentArena, StructSize};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = FramedCodec::new();
/// let mut msg = Message::new(SingleSegmentArena::new());
/// msg.init_root_struct(StructSize::new(1, 0))?.set::<u32>(0, 8);
///
/// let mut buf = BytesMut::new();
/// codec.encode(&msg, &mut buf)?;
/// let mut half = buf.split_to(12);
/// assert!(codec.decode(&mut half)?.is_none()); // not all there yet
/// half.unsplit(buf);
/// let frame = codec.decode(&mut half)?.expect("a whole frame");
/// assert_eq!(frame.reader()?.root()?.get::<u32>(0), 8);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct FramedCodec<T = Message<SingleSegmentArena>> {
    options: ReaderOptions,
    max_frame_bytes: usize,
    /// Bytes of the frame being decoded, once its table has been read.
    frame_len: Option<usize>,
    /// Whether `decode` failed since the last reset.
    failed: bool,
    /// What the encoder takes; a function pointer so that the codec is
    /// `Send`, `Sync` and `Clone` whatever `T` is.
    sends: PhantomData<fn(&T)>,
}

// By hand, not derived: a derive would ask `T: Clone` and `T: Debug` of the
// marker, which a `Message<A>` need not be.
impl<T> Clone for FramedCodec<T> {
    fn clone(&self) -> Self {
        FramedCodec {
            options: self.options,
            max_frame_bytes: self.max_frame_bytes,
            frame_len: self.frame_len,
            failed: self.failed,
            sends: PhantomData,
        }
    }
}

impl<T> core::fmt::Debug for FramedCodec<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FramedCodec")
            .field("sends", &core::any::type_name::<T>())
            .field("options", &self.options)
            .field("max_frame_bytes", &self.max_frame_bytes)
            .field("frame_len", &self.frame_len)
            .field("failed", &self.failed)
            .finish()
    }
}

impl<T> Default for FramedCodec<T> {
    fn default() -> Self {
        FramedCodec::with_options(ReaderOptions::default()).sends()
    }
}

// `new` and `with_options` make the default codec only (as `HashMap::new`
// fixes its hasher), so that `FramedCodec::new()` needs no annotation;
// `sends` picks another item type.
impl FramedCodec {
    /// A codec with the default [`ReaderOptions`] and a frame limit of
    /// [`DEFAULT_MAX_FRAME_BYTES`], sending `&Message<SingleSegmentArena>`
    /// (see [`sends`](Self::sends) for the others).
    pub fn new() -> Self {
        Self::with_options(ReaderOptions::default())
    }

    /// A codec whose frames are checked against, and read with, `options`,
    /// sending `&Message<SingleSegmentArena>`.
    pub fn with_options(options: ReaderOptions) -> Self {
        FramedCodec {
            options,
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            frame_len: None,
            failed: false,
            sends: PhantomData,
        }
    }
}

impl<T> FramedCodec<T> {
    /// The same codec (options, limit, decoding state) encoding `U`
    /// instead: `Message<A>` for another arena, `MessageReader` or
    /// [`Frame`] (the table on [`FramedCodec`]).
    ///
    /// ```
    /// use capnarena::serialize::codec::{Frame, FramedCodec};
    /// use capnarena::{Message, MultiSegmentArena};
    ///
    /// let _messages = FramedCodec::new().sends::<Message<MultiSegmentArena>>();
    /// let _frames = FramedCodec::new().max_frame_bytes(1 << 20).sends::<Frame>();
    /// ```
    pub fn sends<U>(self) -> FramedCodec<U> {
        FramedCodec {
            options: self.options,
            max_frame_bytes: self.max_frame_bytes,
            frame_len: self.frame_len,
            failed: self.failed,
            sends: PhantomData,
        }
    }

    /// Forgets the frame in progress and any earlier error: the codec
    /// decodes a new stream from its first byte.
    pub fn reset(&mut self) {
        self.frame_len = None;
        self.failed = false;
    }

    /// Sets the largest frame (segment table and segments, in bytes) the
    /// decoder accepts; larger ones are [`Error::FrameTooLarge`].
    ///
    /// # Examples
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use capnarena::serialize::codec::FramedCodec;
    /// use capnarena::{Error, Message, SingleSegmentArena, StructSize};
    /// use tokio_util::codec::{Decoder, Encoder};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(2, 0))?; // 32 bytes framed
    /// let mut buf = BytesMut::new();
    /// FramedCodec::new().encode(&msg, &mut buf)?;
    ///
    /// // Refused from its table alone, before the rest is in.
    /// let mut small = FramedCodec::new().max_frame_bytes(16);
    /// let err = small.decode(&mut buf.split_to(8)).unwrap_err();
    /// assert!(matches!(err, Error::FrameTooLarge { declared: 32, limit: 16 }));
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn max_frame_bytes(mut self, bytes: usize) -> Self {
        self.max_frame_bytes = bytes;
        self
    }

    /// The options frames are checked against.
    pub fn options(&self) -> ReaderOptions {
        self.options
    }
}

/// Learns a frame's length from the prefix in `src`, checking limits;
/// `Ok(None)` when more bytes are needed (room for them is reserved).
#[inline]
fn frame_len_from(
    src: &mut BytesMut,
    options: &ReaderOptions,
    max: usize,
) -> Result<Option<usize>> {
    match parse_prefix(src, options)? {
        Prefix::Need(n) => {
            if n > max {
                return Err(Error::FrameTooLarge {
                    declared: n as u64,
                    limit: max as u64,
                });
            }
            reserve_more(src, n);
            Ok(None)
        }
        Prefix::Table(layout) => {
            check_frame_limit(&layout, max)?;
            Ok(Some(layout.frame_bytes() as usize))
        }
    }
}

/// Makes room in `src` for more of a frame of `len` bytes, as much as has
/// arrived (at least [`FIRST_CHUNK_BYTES`]): the growth rule of the
/// blocking readers, so memory follows the bytes received.
#[inline]
fn reserve_more(src: &mut BytesMut, len: usize) {
    let more = next_room(src.len() as u64, len as u64, FIRST_CHUNK_BYTES);
    src.reserve(more as usize);
}

impl<T> FramedCodec<T> {
    #[inline]
    fn decode_frame(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        let len = match self.frame_len {
            Some(n) => n,
            None => match frame_len_from(src, &self.options, self.max_frame_bytes)? {
                Some(n) => n,
                None => return Ok(None),
            },
        };
        if src.len() < len {
            self.frame_len = Some(len);
            reserve_more(src, len);
            return Ok(None);
        }
        self.frame_len = None;
        Ok(Some(Frame {
            bytes: src.split_to(len).freeze(),
            options: self.options,
        }))
    }

    /// At the end of the input: the next frame, or `Ok(None)` when none
    /// was begun, or why not.
    fn decode_last(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        if src.is_empty() {
            return Ok(None);
        }
        let needed = match self.frame_len {
            Some(n) => n,
            None => match parse_prefix(src, &self.options)? {
                // Cut inside the first word: the blocking and async readers
                // wait for that whole word before they look past it, so
                // the codec names the same 8 bytes, even when the first 4
                // already say how long the table is.
                Prefix::Need(_) if src.len() < 8 => 8,
                Prefix::Need(n) => n,
                Prefix::Table(layout) => layout.frame_bytes() as usize,
            },
        };
        Err(cut(needed, src.len()))
    }
}

impl<T> Decoder for FramedCodec<T> {
    type Item = Frame;
    type Error = Error;

    #[inline]
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        if self.failed {
            return Err(Error::DecoderFailed);
        }
        let r = self.decode_frame(src);
        if r.is_err() {
            self.frame_len = None;
            self.failed = true;
        }
        r
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        let r = self.decode_last(src);
        if r.is_err() {
            // The stream is over: what is left of it was a cut frame.
            src.clear();
        }
        if !matches!(r, Ok(Some(_))) {
            self.reset();
        }
        r
    }
}

impl<A: Arena> Encoder<&Message<A>> for FramedCodec<Message<A>> {
    type Error = Error;

    /// Writes the segment table and the segments into `dst`.
    #[inline]
    fn encode(&mut self, msg: &Message<A>, dst: &mut BytesMut) -> Result<()> {
        dst.reserve(msg.serialized_size());
        put_framed(msg, dst)
    }
}

impl Encoder<&MessageReader<'_>> for FramedCodec<MessageReader<'_>> {
    type Error = Error;

    /// Frames the reader's segments into `dst` (to pass a message on).
    fn encode(&mut self, msg: &MessageReader<'_>, dst: &mut BytesMut) -> Result<()> {
        let segs = ReaderSegments(msg);
        dst.reserve(framed_len(&segs) as usize);
        put_framed(&segs, dst)
    }
}

impl Encoder<Frame> for FramedCodec<Frame> {
    type Error = Error;

    /// Copies the frame's bytes into `dst` as they are.
    fn encode(&mut self, frame: Frame, dst: &mut BytesMut) -> Result<()> {
        dst.extend_from_slice(&frame.bytes);
        Ok(())
    }
}

/// A tokio-util codec for packed messages: decodes each into a [`Frame`]
/// of its unpacked framed bytes, encodes a [`Message`] or a
/// [`MessageReader`]'s segments packed (the reference's bytes).
///
/// As with [`FramedCodec`], the type parameter names the one item the
/// encoder takes: `&Message<A>` (default `Message<SingleSegmentArena>`,
/// [`PackedCodec::new()`]) or `&MessageReader<'_>`
/// (`.sends::<MessageReader>()`), so a sink's `flush` infers.
///
/// The decoder unpacks as the input arrives, with the resumable
/// [`Unpacker`], into a buffer of its own that frames are split off (so
/// their memory is reused once they are dropped). The unpacked segment
/// table is checked against the limits as soon as it is in; then the
/// buffer grows as the unpacked bytes come (64 KiB at first, then as much
/// again as came), not to the size the table declares. No zero or literal
/// run may go on past a message's end. A stream that ends inside a message
/// is [`Error::Truncated`] (counting unpacked bytes).
///
/// After an error, as for [`FramedCodec`]: `decode` refuses further input
/// with [`Error::DecoderFailed`] until [`reset`](Self::reset), and
/// `decode_eof` leaves the codec clean for another stream.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use capnarena::serialize::codec::PackedCodec;
/// use capnarena::{Message, SingleSegmentArena, StructSize};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// let mut codec = PackedCodec::new();
/// let mut msg = Message::new(SingleSegmentArena::new());
/// msg.init_root_struct(StructSize::new(4, 0))?.set::<u64>(3, 1); // mostly zeros
///
/// let mut buf = BytesMut::new();
/// codec.encode(&msg, &mut buf)?;
/// assert!(buf.len() < msg.serialized_size()); // packed
/// let frame = codec.decode(&mut buf)?.expect("a whole frame");
/// assert_eq!(frame.reader()?.root()?.get::<u64>(3), 1);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct PackedCodec<T = Message<SingleSegmentArena>> {
    options: ReaderOptions,
    max_frame_bytes: usize,
    unpacker: Unpacker,
    /// The unpacked frame being decoded: `out[..filled]` are its bytes so
    /// far; `out.len()` is the room made for it (at most its size, as far
    /// as it is known).
    out: BytesMut,
    filled: usize,
    /// The frame's layout, once its table is in.
    layout: Option<FrameLayout>,
    /// Whether `decode` failed since the last reset.
    failed: bool,
    /// What the encoder takes (see [`FramedCodec`]'s field).
    sends: PhantomData<fn(&T)>,
}

impl<T> core::fmt::Debug for PackedCodec<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedCodec")
            .field("sends", &core::any::type_name::<T>())
            .field("options", &self.options)
            .field("max_frame_bytes", &self.max_frame_bytes)
            .field("unpacker", &self.unpacker)
            .field("filled", &self.filled)
            .field("layout", &self.layout)
            .field("failed", &self.failed)
            .finish_non_exhaustive()
    }
}

impl<T> Default for PackedCodec<T> {
    fn default() -> Self {
        PackedCodec::with_options(ReaderOptions::default()).sends()
    }
}

// As for `FramedCodec`: the constructors make the default codec, so
// `PackedCodec::new()` needs no annotation.
impl PackedCodec {
    /// A codec with the default [`ReaderOptions`] and a frame limit of
    /// [`DEFAULT_MAX_FRAME_BYTES`] (unpacked).
    pub fn new() -> Self {
        Self::with_options(ReaderOptions::default())
    }

    /// A codec whose frames are checked against, and read with, `options`.
    pub fn with_options(options: ReaderOptions) -> Self {
        PackedCodec {
            options,
            max_frame_bytes: DEFAULT_MAX_FRAME_BYTES,
            unpacker: Unpacker::new(),
            out: BytesMut::new(),
            filled: 0,
            layout: None,
            failed: false,
            sends: PhantomData,
        }
    }
}

impl<T> PackedCodec<T> {
    /// The same codec (options, limit, decoding state) encoding `U`
    /// instead: `Message<A>` for another arena, or `MessageReader`.
    pub fn sends<U>(self) -> PackedCodec<U> {
        PackedCodec {
            options: self.options,
            max_frame_bytes: self.max_frame_bytes,
            unpacker: self.unpacker,
            out: self.out,
            filled: self.filled,
            layout: self.layout,
            failed: self.failed,
            sends: PhantomData,
        }
    }

    /// Sets the largest unpacked frame (in bytes) the decoder accepts;
    /// larger ones are [`Error::FrameTooLarge`].
    pub fn max_frame_bytes(mut self, bytes: usize) -> Self {
        self.max_frame_bytes = bytes;
        self
    }

    /// The options frames are checked against.
    pub fn options(&self) -> ReaderOptions {
        self.options
    }

    /// Forgets the frame in progress (what was unpacked of it, and where
    /// the unpacker was in an item) and any earlier error: the codec
    /// decodes a new stream from its first byte.
    pub fn reset(&mut self) {
        self.unpacker = Unpacker::new();
        self.out.clear();
        self.filled = 0;
        self.layout = None;
        self.failed = false;
    }

    /// Bytes of the unpacked frame wanted next: from the table once it is
    /// in, else from the prefix unpacked so far. Checks the limits.
    fn target(&mut self) -> Result<usize> {
        if let Some(layout) = self.layout {
            return Ok(layout.frame_bytes() as usize);
        }
        match parse_prefix(&self.out[..self.filled], &self.options)? {
            Prefix::Need(n) => {
                if n > self.max_frame_bytes {
                    return Err(Error::FrameTooLarge {
                        declared: n as u64,
                        limit: self.max_frame_bytes as u64,
                    });
                }
                Ok(n)
            }
            Prefix::Table(layout) => {
                check_frame_limit(&layout, self.max_frame_bytes)?;
                self.layout = Some(layout);
                Ok(layout.frame_bytes() as usize)
            }
        }
    }

    fn decode_frame(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        loop {
            let target = self.target()?;
            if self.filled == target && self.layout.is_some() {
                packed_end_of_message(&self.unpacker, target as u64)?;
                self.unpacker = Unpacker::new();
                self.layout = None;
                self.filled = 0;
                let bytes = self.out.split_to(target).freeze();
                return Ok(Some(Frame {
                    bytes,
                    options: self.options,
                }));
            }
            if self.out.len() == self.filled {
                // Room for more, zeroed, then unpacked into.
                let more = next_room(self.filled as u64, target as u64, FIRST_CHUNK_BYTES);
                self.out.resize(self.filled + more as usize, 0);
            }
            let end = self.out.len().min(target);
            let p = self.unpacker.unpack(src, &mut self.out[self.filled..end]);
            src.advance(p.consumed);
            self.filled += p.written;
            if p.written == 0 && (src.is_empty() || p.consumed == 0) {
                return Ok(None);
            }
        }
    }

    /// At the end of the input: the next frame, or `Ok(None)` when none
    /// was begun, or why not.
    fn decode_last(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        if self.filled == 0 && self.unpacker.consumed() == 0 {
            return Ok(None);
        }
        let needed = self.target()?.max(8);
        Err(cut(needed, self.filled))
    }
}

impl<T> Decoder for PackedCodec<T> {
    type Item = Frame;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        if self.failed {
            return Err(Error::DecoderFailed);
        }
        let r = self.decode_frame(src);
        if r.is_err() {
            self.reset();
            self.failed = true;
        }
        r
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Frame>> {
        let r = self.decode_last(src);
        if r.is_err() {
            // The stream is over: what is left of it was a cut frame.
            src.clear();
        }
        if !matches!(r, Ok(Some(_))) {
            self.reset();
        }
        r
    }
}

impl<A: Arena> Encoder<&Message<A>> for PackedCodec<Message<A>> {
    type Error = Error;

    /// Packs the segment table and the segments straight into `dst`.
    fn encode(&mut self, msg: &Message<A>, dst: &mut BytesMut) -> Result<()> {
        extend_packed(msg, dst)
    }
}

impl Encoder<&MessageReader<'_>> for PackedCodec<MessageReader<'_>> {
    type Error = Error;

    /// Packs the reader's segments, framed, straight into `dst`.
    fn encode(&mut self, msg: &MessageReader<'_>, dst: &mut BytesMut) -> Result<()> {
        extend_packed(&ReaderSegments(msg), dst)
    }
}
