//! [`Message`]: a message built in, or read into, an arena.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::arena::{Arena, SegmentId};
use crate::error::{Error, Result};
use crate::layout::{
    BuilderSegments, PointerBuilder, SegmentSource, StructBuilder, StructReader, StructSize,
    init_root_slot,
};
use crate::read::{MessageReader, ReaderOptions};
use crate::segment::Segment;
use crate::word::Word;

/// The one segment of a message with no root yet: a null root pointer.
static EMPTY_SEGMENT: [Word; 1] = [Word::ZERO];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No root yet: frames as a single segment with a null root.
    Empty,
    /// Segment 0 word 0 is the reserved table word, word 1 the root pointer.
    Built,
}

/// A Cap'n Proto message in an arena: build it, frame it, read it back, and
/// reset it to build the next one in the same memory.
///
/// ```
/// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// let mut root = msg.init_root_struct(StructSize::new(1, 1))?;
/// root.set::<u32>(0, 7);
/// root.set_text(0, "hello")?;
///
/// let framed = msg.framed_bytes()?; // header and segment, no copy
/// let reader = MessageReader::from_bytes(framed, ReaderOptions::default())?;
/// let root = reader.root()?;
/// assert_eq!((root.get::<u32>(0), root.get_text(0)?), (7, "hello"));
///
/// msg.reset(); // keeps the memory for the next message
/// # Ok::<(), capnarena::Error>(())
/// ```
///
/// # Reading into a message
///
/// `read_from_bytes`, `read_from`, `try_read_from` and the packed readers
/// use the message's arena as a buffer: they reset the message, copy the
/// segments read into the arena (several may share one arena segment) and
/// return a [`MessageReader`] over them. That reader is the only view of
/// what was read: the message itself is empty afterwards, so
/// [`reader`](Self::reader) and the framing methods describe an empty
/// message and the next build starts over in the same memory. To change a
/// message that was read, copy it into a message being built with
/// [`set_root`](Self::set_root).
pub struct Message<A: Arena> {
    arena: A,
    state: State,
}

/// The segment table of a message of one segment of `len_words` words:
/// a count of 0 (`count - 1`), then the size.
#[inline]
fn single_segment_table(len_words: u32) -> [u8; 8] {
    let mut table = [0u8; 8];
    table[4..].copy_from_slice(&len_words.to_le_bytes());
    table
}

impl<A: Arena> Message<A> {
    /// A new, empty message in `arena` (which is reset first).
    pub fn new(mut arena: A) -> Self {
        arena.reset();
        Message {
            arena,
            state: State::Empty,
        }
    }

    /// Forgets the content and keeps the arena's memory.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// for id in 0..3u64 {
    ///     msg.reset(); // the same memory every round
    ///     msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, id);
    ///     assert_eq!(msg.reader().root()?.get::<u64>(0), id);
    /// }
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn reset(&mut self) {
        self.arena.reset();
        self.state = State::Empty;
    }

    /// The arena.
    pub fn arena(&self) -> &A {
        &self.arena
    }

    /// Gives the arena back.
    pub fn into_arena(self) -> A {
        self.arena
    }

    /// Resets the message and hands out its arena for a read to fill.
    pub(crate) fn arena_for_reading(&mut self) -> &mut A {
        // What the last message used is overwritten by the read, not
        // zeroed first.
        self.arena.reset_for_overwrite();
        self.state = State::Empty;
        &mut self.arena
    }

    fn ensure_root(&mut self) -> Result<()> {
        if self.state != State::Built {
            init_root_slot(&mut self.arena)?;
            self.state = State::Built;
        }
        Ok(())
    }

    /// The root pointer slot, to set as any type.
    ///
    /// # Errors
    /// The arena cannot hold the root pointer.
    #[inline]
    pub fn root_pointer(&mut self) -> Result<PointerBuilder<'_, A>> {
        self.ensure_root()?;
        Ok(PointerBuilder::new(&mut self.arena, 0, 0))
    }

    /// Allocates a new root struct of `size` (replacing any root).
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// // One data word and one pointer, as a compiled schema gives them.
    /// let mut root = msg.init_root_struct(StructSize::new(1, 1))?;
    /// root.set::<u32>(0, 7);
    /// root.set_text(0, "seven")?;
    /// assert_eq!(msg.reader().root()?.get_text(0)?, "seven");
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[inline(always)]
    pub fn init_root_struct(&mut self, size: StructSize) -> Result<StructBuilder<'_, A>> {
        self.root_pointer()?.init_struct(size)
    }

    /// The root struct, created with `size` when there is none; a smaller
    /// one (an older version of its schema) is moved into a struct of at
    /// least `size`, as [`PointerBuilder::get_struct`] describes.
    ///
    /// # Errors
    /// The root is not a struct, or the arena has no room.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u32>(0, 1);
    /// // Open it again, as a newer schema with one more data word.
    /// let mut root = msg.get_root_struct(StructSize::new(2, 0))?;
    /// root.set::<u32>(2, 2);
    /// let reader = msg.reader();
    /// let root = reader.root()?;
    /// assert_eq!((root.get::<u32>(0), root.get::<u32>(2)), (1, 2));
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn get_root_struct(&mut self, size: StructSize) -> Result<StructBuilder<'_, A>> {
        self.root_pointer()?.get_struct(size)
    }

    /// Allocates a new root struct of the generated type `T` (replacing any
    /// root): `msg.init_root::<person::Builder<_>>()`.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[allow(dead_code)]
    /// # #[rustfmt::skip]
    /// # #[path = "../examples/generated/addressbook_capnp.rs"]
    /// # mod addressbook_capnp;
    /// use addressbook_capnp::person;
    /// use capnarena::{Message, SingleSegmentArena};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// let mut alice = msg.init_root::<person::Builder<_>>()?;
    /// alice.set_name("Alice")?;
    /// assert_eq!(msg.reader().get_root::<person::Reader>()?.get_name()?, "Alice");
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[inline(always)]
    pub fn init_root<'s, T: crate::typed::FromStructBuilder<'s, A>>(&'s mut self) -> Result<T> {
        Ok(T::from_struct_builder(
            self.init_root_struct(T::STRUCT_SIZE)?,
        ))
    }

    /// The root as the generated type `T`, allocating it when the message
    /// has none.
    ///
    /// # Errors
    /// The root is not a struct, or the arena has no room.
    #[inline(always)]
    pub fn get_root<'s, T: crate::typed::FromStructBuilder<'s, A>>(&'s mut self) -> Result<T> {
        Ok(T::from_struct_builder(
            self.get_root_struct(T::STRUCT_SIZE)?,
        ))
    }

    /// Allocates a new root struct of type `T`, named by its `Owned`
    /// marker (replacing any root): what code generic over a struct type
    /// calls, `msg.init_root_as::<T>()` for `T: StructOwned`.
    ///
    /// # Errors
    /// The arena has no room.
    #[inline(always)]
    pub fn init_root_as<T: crate::typed::StructOwned>(&mut self) -> Result<T::Builder<'_, A>> {
        Ok(T::wrap_builder(self.init_root_struct(T::STRUCT_SIZE)?))
    }

    /// The root as a `T`, named by its `Owned` marker, allocating it when
    /// the message has none: `msg.get_root_as::<T>()` for `T: StructOwned`.
    ///
    /// # Errors
    /// The root is not a struct, or the arena has no room.
    #[inline(always)]
    pub fn get_root_as<T: crate::typed::StructOwned>(&mut self) -> Result<T::Builder<'_, A>> {
        Ok(T::wrap_builder(self.get_root_struct(T::STRUCT_SIZE)?))
    }

    /// Sets the root to a deep copy of `src`, from any message.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_struct`].
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MultiSegmentArena, SingleSegmentArena, StructSize};
    ///
    /// let mut first = Message::new(SingleSegmentArena::new());
    /// first.init_root_struct(StructSize::new(0, 1))?.set_text(0, "copied")?;
    ///
    /// let mut second = Message::new(MultiSegmentArena::new());
    /// second.set_root(&first.reader().root()?)?;
    /// assert_eq!(second.reader().root()?.get_text(0)?, "copied");
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn set_root(&mut self, src: &StructReader<'_>) -> Result<()> {
        self.root_pointer()?.set_struct(src)
    }

    /// Segments in the message (1 for a message with no root yet).
    ///
    /// A built message has at least one segment: an arena that reports none
    /// (it broke its contract) is taken at one, whose words are then those
    /// the arena gives for segment 0, if any.
    pub fn segment_count(&self) -> u32 {
        match self.state {
            State::Empty => 1,
            State::Built => self.arena.segment_count().max(1),
        }
    }

    /// Segment `id`, as it goes on the wire.
    pub fn segment(&self, id: u32) -> Option<Segment<'_>> {
        SegmentSource::segment(self, id).map(|w| Segment::new(SegmentId(id), w))
    }

    /// The message's segments in order.
    pub fn segments(&self) -> impl ExactSizeIterator<Item = Segment<'_>> + '_ {
        self.segments_of(self.segment_count())
    }

    /// The first `count` segments, for an operation that read the count
    /// once (an arena's answers may change from one call to the next).
    pub(crate) fn segments_of(
        &self,
        count: u32,
    ) -> impl ExactSizeIterator<Item = Segment<'_>> + Clone + '_ {
        (0..count).map(move |id| {
            Segment::new(
                SegmentId(id),
                SegmentSource::segment(self, id).unwrap_or(&[]),
            )
        })
    }

    /// A reader over the message as built so far, with limits that a
    /// message built through this crate's builders never reaches: no
    /// traversal or segment limit, and a nesting limit of one more than the
    /// words in the message (every level of a tree takes a pointer word of
    /// its own). A deep copy out of it (`set_root`, `set_root_canonical`,
    /// `is_canonical`) visits at most as many words as the message holds.
    /// So an arena that broke the message (stale words where new ones
    /// should be zero, overlapping allocations: pointers that loop) makes
    /// reads and copies fail with [`Error::NestingLimitExceeded`] or
    /// [`Error::TraversalLimitExceeded`] instead of running forever. Use
    /// [`reader_with_options`](Self::reader_with_options) to set others.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<i16>(0, -3);
    /// let reader = msg.reader(); // no copy, no framing
    /// assert_eq!(reader.root()?.get::<i16>(0), -3);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn reader(&self) -> MessageReader<'_> {
        let words = crate::layout::source_words(self);
        self.reader_with_options(ReaderOptions {
            traversal_limit_words: u64::MAX,
            nesting_limit: u32::try_from(words.saturating_add(1)).unwrap_or(u32::MAX),
            segment_limit: u32::MAX,
        })
    }

    /// A reader over the message as built so far.
    pub fn reader_with_options(&self, options: ReaderOptions) -> MessageReader<'_> {
        MessageReader::from_source(self, options)
    }

    /// Bytes of the framed message: segment table and every segment.
    pub fn serialized_size(&self) -> usize {
        self.serialized_size_of(self.segment_count())
    }

    /// [`serialized_size`](Self::serialized_size) of the first `count`
    /// segments.
    fn serialized_size_of(&self, count: u32) -> usize {
        let body: usize = self.segments_of(count).map(|s| s.words().len()).sum();
        crate::read::header_bytes(count) + body * 8
    }

    /// Bytes of the segment table that frames this message.
    pub fn segment_table_len(&self) -> usize {
        crate::read::header_bytes(self.segment_count())
    }

    /// Writes the segment table (`count - 1`, then each segment's size in
    /// words, padded to a word) into the front of `out`; returns its length.
    /// With it, a caller without `alloc` or `std` can frame the message
    /// itself: the table, then each segment's bytes.
    ///
    /// # Errors
    /// [`Error::BufferTooSmall`] when `out` is shorter than
    /// [`segment_table_len`](Self::segment_table_len).
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{FixedArena, Message, StructSize, Word};
    ///
    /// let mut words = [Word::ZERO; 8]; // no heap
    /// let mut msg = Message::new(FixedArena::new(&mut words));
    /// msg.init_root_struct(StructSize::new(1, 0))?;
    /// let mut table = [0u8; 8];
    /// let len = msg.write_segment_table(&mut table)?;
    /// // One segment (count - 1 = 0) of two words: the root pointer and the struct.
    /// assert_eq!(&table[..len], &[0, 0, 0, 0, 2, 0, 0, 0]);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn write_segment_table(&self, out: &mut [u8]) -> Result<usize> {
        let count = self.segment_count();
        let len = crate::read::header_bytes(count);
        let available = out.len();
        let out = out.get_mut(..len).ok_or(Error::BufferTooSmall {
            needed: len as u64,
            available: available as u64,
        })?;
        self.write_table(out, count);
        Ok(len)
    }

    /// Writes the table of the first `count` segments (at least 1) into
    /// `out`, which holds `header_bytes(count)` bytes; entries that do not
    /// fit are left out, so a wrong `out` garbles the table, never panics.
    fn write_table(&self, out: &mut [u8], count: u32) {
        out.fill(0);
        if let Some(first) = out.first_chunk_mut::<4>() {
            *first = count.wrapping_sub(1).to_le_bytes();
        }
        let entries = out.get_mut(4..).unwrap_or_default().chunks_exact_mut(4);
        for (slot, seg) in entries.zip(self.segments_of(count)) {
            slot.copy_from_slice(&seg.len_words().to_le_bytes());
        }
    }

    /// The framed message as one contiguous byte slice, with no copy: the
    /// segment table is written into the word reserved in front of
    /// segment 0.
    ///
    /// # Errors
    /// [`Error::NotSingleSegment`] when the message has more than one
    /// segment (frame it with [`append_to`](Self::append_to) or
    /// `write_to` instead).
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 9);
    /// let bytes = msg.framed_bytes()?; // 8-aligned: it can be read in place
    /// assert_eq!(bytes.len(), 8 + 16); // the table, the root pointer, the struct
    /// let reader = MessageReader::from_bytes(bytes, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get::<u64>(0), 9);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn framed_bytes(&mut self) -> Result<&[u8]> {
        self.ensure_root()?;
        let count = self.segment_count();
        if count != 1 {
            return Err(Error::NotSingleSegment { segments: count });
        }
        let len = BuilderSegments::get(&self.arena, 0).len() as u32;
        let seg = self.arena.segment_mut(SegmentId(0));
        let Some(header) = seg.first_mut() else {
            return Err(Error::ArenaContract {
                what: "segment 0 lost its words",
                segment: 0,
                offset: 0,
                len: 1,
            });
        };
        *header = Word(single_segment_table(len));
        Ok(Word::slice_as_bytes(self.arena.segment(SegmentId(0))))
    }

    /// Appends the framed message to `out`. Allocates nothing when `out`
    /// has room for [`serialized_size`](Self::serialized_size) more bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 5);
    /// let mut out = Vec::new();
    /// msg.append_to(&mut out);
    /// msg.append_to(&mut out); // a stream of two messages
    /// assert_eq!(out.len(), 2 * msg.serialized_size());
    ///
    /// let mut copy = Message::new(SingleSegmentArena::new());
    /// let first = &out[..msg.serialized_size()];
    /// let reader = copy.read_from_bytes(first, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get::<u64>(0), 5);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn append_to(&self, out: &mut Vec<u8>) {
        let count = self.segment_count();
        if count == 1 {
            // The common case: the table is one word, built on the stack.
            let seg = SegmentSource::segment(self, 0).unwrap_or(&[]);
            let bytes = Word::slice_as_bytes(seg);
            out.reserve(8 + bytes.len());
            out.extend_from_slice(&single_segment_table(seg.len() as u32));
            out.extend_from_slice(bytes);
            return;
        }
        out.reserve(self.serialized_size_of(count));
        let start = out.len();
        out.resize(start + crate::read::header_bytes(count), 0);
        self.write_table(&mut out[start..], count);
        for seg in self.segments_of(count) {
            out.extend_from_slice(seg.as_bytes());
        }
    }

    /// Writes the framed message to `w` with vectored writes: the segment
    /// data is not copied.
    ///
    /// # Errors
    /// Any error of `w`.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MultiSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(MultiSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(0, 1))?.set_text(0, "to a socket or a file")?;
    /// let mut sink = Vec::new(); // any `io::Write`
    /// msg.write_to(&mut sink)?;
    /// assert_eq!(sink.len(), msg.serialized_size());
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn write_to<W: std::io::Write>(&self, mut w: W) -> Result<()> {
        use std::io::IoSlice;
        const BATCH: usize = 16;
        let count32 = self.segment_count();
        let count = count32 as usize;
        let header_len = crate::read::header_bytes(count32);
        let mut small = [0u8; 8 * BATCH];
        let mut large = Vec::new();
        let header: &[u8] = if header_len <= small.len() {
            self.write_table(&mut small[..header_len], count32);
            &small[..header_len]
        } else {
            large.resize(header_len, 0);
            self.write_table(&mut large, count32);
            &large
        };
        let mut segs = self.segments_of(count32);
        let mut bufs: [IoSlice<'_>; BATCH] = [IoSlice::new(&[]); BATCH];
        bufs[0] = IoSlice::new(header);
        let mut n = 1;
        let mut done = 0;
        loop {
            while n < BATCH && done < count {
                if let Some(s) = segs.next() {
                    bufs[n] = IoSlice::new(s.as_bytes());
                    n += 1;
                }
                done += 1;
            }
            write_all_vectored(&mut w, &mut bufs[..n])?;
            if done >= count {
                return Ok(());
            }
            n = 0;
        }
    }
}

#[cfg(feature = "std")]
fn write_all_vectored<W: std::io::Write>(
    w: &mut W,
    mut bufs: &mut [std::io::IoSlice<'_>],
) -> Result<()> {
    use std::io::{ErrorKind, IoSlice};
    IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match w.write_vectored(bufs) {
            Ok(0) => return Err(Error::Io(ErrorKind::WriteZero.into())),
            Ok(n) => IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::Io(e)),
        }
    }
    Ok(())
}

impl<A: Arena> SegmentSource for Message<A> {
    fn segment_count(&self) -> u32 {
        Message::segment_count(self)
    }

    fn segment(&self, id: u32) -> Option<&[Word]> {
        match self.state {
            State::Empty => (id == 0).then_some(&EMPTY_SEGMENT[..]),
            State::Built => {
                (id < Message::segment_count(self)).then(|| BuilderSegments::get(&self.arena, id))
            }
        }
    }
}

impl<A: Arena + Default> Default for Message<A> {
    fn default() -> Self {
        Message::new(A::default())
    }
}

impl<A: Arena> core::fmt::Debug for Message<A> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Message")
            .field("segments", &self.segment_count())
            .field(
                "words",
                &self.segments().map(|s| s.words().len()).sum::<usize>(),
            )
            .finish()
    }
}
