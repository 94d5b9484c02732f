//! Reading framed messages: [`MessageReader`] and [`ReaderOptions`].

#[cfg(feature = "alloc")]
use alloc::boxed::Box;
#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::layout::reader_store::SegStore;
use crate::layout::{PointerReader, ReadContext, ReaderOptionsCore, SegmentSource, StructReader};
use crate::word::Word;

/// Segments a reader holds inline, without allocating: a reader of a
/// message of more segments takes one allocation (or, without `alloc`,
/// cannot be made).
pub(crate) use crate::layout::reader_store::INLINE_SEGMENTS;

/// Limits that bound every read of untrusted input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Words a reader may visit in all, counting every struct and list each
    /// time it is reached (so shared or cyclic pointers cannot amplify a
    /// small message); lists of zero-sized elements count one word per
    /// element. Default 8 Mi words (64 MiB), as the reference.
    pub traversal_limit_words: u64,
    /// Depth of pointers a reader may follow. Default 64.
    pub nesting_limit: u32,
    /// Segments a framed message may have (at most this many). Default 512.
    /// The reference's and capnproto-rust's stream readers refuse 512 and
    /// more, so a writer that must reach them keeps below 512.
    pub segment_limit: u32,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            traversal_limit_words: 8 * 1024 * 1024,
            nesting_limit: 64,
            segment_limit: 512,
        }
    }
}

impl ReaderOptions {
    /// The defaults.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(4, 0))?;
    /// // A budget of 2 words cannot visit the root's 4.
    /// let options = ReaderOptions::new().traversal_limit_words(2).nesting_limit(8);
    /// let reader = MessageReader::from_bytes(msg.framed_bytes()?, options)?;
    /// assert!(matches!(reader.root(), Err(capnarena::Error::TraversalLimitExceeded { .. })));
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets [`traversal_limit_words`](Self::traversal_limit_words).
    pub fn traversal_limit_words(mut self, words: u64) -> Self {
        self.traversal_limit_words = words;
        self
    }

    /// Sets [`nesting_limit`](Self::nesting_limit).
    pub fn nesting_limit(mut self, depth: u32) -> Self {
        self.nesting_limit = depth;
        self
    }

    /// Sets [`segment_limit`](Self::segment_limit).
    pub fn segment_limit(mut self, segments: u32) -> Self {
        self.segment_limit = segments;
        self
    }

    pub(crate) fn core(&self) -> ReaderOptionsCore {
        ReaderOptionsCore {
            traversal_limit_words: self.traversal_limit_words,
            nesting_limit: self.nesting_limit,
        }
    }
}

/// A parsed segment table: how many segments, and where the first word of
/// the body is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableHeader {
    pub count: u32,
    /// Bytes of the header, padding included.
    pub header_bytes: usize,
}

/// Reads the first word of a segment table: the segment count, checked
/// against the limit.
pub(crate) fn parse_count(first: [u8; 4], options: &ReaderOptions) -> Result<TableHeader> {
    let count = u64::from(u32::from_le_bytes(first)) + 1;
    if count > u64::from(options.segment_limit) {
        return Err(Error::SegmentLimitExceeded {
            count,
            limit: options.segment_limit,
        });
    }
    let count = count as u32;
    Ok(TableHeader {
        count,
        header_bytes: header_bytes(count),
    })
}

/// Bytes of a segment table for `count` segments, padded to a word.
pub(crate) const fn header_bytes(count: u32) -> usize {
    ((count as usize + 2) / 2) * 8
}

#[inline]
pub(crate) fn size_at(table: &[u8], i: usize) -> u32 {
    let at = 4 + 4 * i;
    match table.get(at..at + 4) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// A message being read: its segments, borrowed with no copy, and the
/// limits that bound reading them.
///
/// ```
/// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
/// let mut msg = Message::new(SingleSegmentArena::new());
/// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 42);
/// let mut bytes = Vec::new();
/// msg.append_to(&mut bytes);
///
/// let words = capnarena::words_from_bytes(&bytes)?;
/// let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
/// assert_eq!(reader.root()?.get::<u64>(0), 42);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct MessageReader<'a> {
    ctx: ReadContext<'a>,
}

impl<'a> MessageReader<'a> {
    #[inline(always)]
    fn from_store(store: SegStore<'a>, options: &ReaderOptions) -> Self {
        MessageReader {
            ctx: ReadContext::new(store, options.core()),
        }
    }

    /// A reader over a message of the one segment `words`.
    #[inline(always)]
    pub(crate) fn from_single_segment(words: &'a [Word], options: &ReaderOptions) -> Self {
        MessageReader {
            ctx: ReadContext::one(words, options.core()),
        }
    }

    /// A reader over `count` segments, segment `i` being `segment(i)`
    /// (called once for each, in order): how the framing code hands over
    /// the segments it has read into an arena. Up to [`INLINE_SEGMENTS`]
    /// are held inline.
    ///
    /// # Errors
    /// More than [`INLINE_SEGMENTS`] without `alloc`, or the heap refuses
    /// room for them.
    #[inline(always)]
    pub(crate) fn from_segment_fn(
        count: u32,
        segment: impl FnMut(usize) -> &'a [Word],
        options: &ReaderOptions,
    ) -> Result<Self> {
        Ok(Self::from_store(store_of(count, segment)?, options))
    }

    /// A reader over segments given one by one (no segment table).
    ///
    /// # Errors
    /// More segments than [`ReaderOptions::segment_limit`].
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize, Word};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u32>(0, 3);
    /// // Segments that came without a table: from shared memory, say.
    /// let segments: Vec<&[Word]> = msg.segments().map(|s| s.words()).collect();
    /// let reader = MessageReader::from_segments(&segments, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get::<u32>(0), 3);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn from_segments(segments: &'a [&'a [Word]], options: ReaderOptions) -> Result<Self> {
        if segments.len() as u64 > u64::from(options.segment_limit) {
            return Err(Error::SegmentLimitExceeded {
                count: segments.len() as u64,
                limit: options.segment_limit,
            });
        }
        Ok(Self::from_store(SegStore::Slices(segments), &options))
    }

    /// A reader over a message's own segments, as a [`SegmentSource`] gives
    /// them.
    ///
    /// The reader holds the slices `source` hands out when it is made (no
    /// reference to `source` itself), so it is `Send` and `Sync` whatever
    /// `source` is; up to 8 segments are held inline, more take one
    /// allocation.
    pub fn from_source(source: &'a dyn SegmentSource, options: ReaderOptions) -> Self {
        Self::from_store(SegStore::snapshot(source), &options)
    }

    /// A reader over one framed message (segment table, then segments) that
    /// fills `words` exactly.
    ///
    /// # Errors
    /// A bad or truncated segment table, more segments than the limit, or
    /// words left over after the message.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u8>(0, 1);
    /// let mut bytes = Vec::new();
    /// msg.append_to(&mut bytes);
    /// let words = capnarena::words_from_bytes(&bytes)?; // aligned words
    /// let reader = MessageReader::from_words(&words, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get::<u8>(0), 1);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn from_words(words: &'a [Word], options: ReaderOptions) -> Result<Self> {
        let (reader, rest) = Self::from_words_prefix(words, options)?;
        if !rest.is_empty() {
            return Err(Error::TrailingData {
                extra: rest.len() as u64 * 8,
            });
        }
        Ok(reader)
    }

    /// A reader over the framed message at the start of `words`, and the
    /// words after it (the next message of a stream, say).
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// let mut stream = Vec::new();
    /// for n in 0..3u64 {
    ///     msg.reset();
    ///     msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, n);
    ///     msg.append_to(&mut stream);
    /// }
    /// let words = capnarena::words_from_bytes(&stream)?;
    /// let mut rest = &words[..];
    /// let mut seen = Vec::new();
    /// while !rest.is_empty() {
    ///     let (reader, after) = MessageReader::from_words_prefix(rest, ReaderOptions::default())?;
    ///     seen.push(reader.root()?.get::<u64>(0));
    ///     rest = after;
    /// }
    /// assert_eq!(seen, [0, 1, 2]);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    ///
    /// # Errors
    /// A bad or truncated segment table, or more segments than the limit.
    #[inline(always)]
    pub fn from_words_prefix(
        words: &'a [Word],
        options: ReaderOptions,
    ) -> Result<(Self, &'a [Word])> {
        // One segment whose words are all there (most messages): its size
        // is the table's second half. Anything else, errors included, takes
        // the general path, out of line: the reader it returns is written
        // where the caller keeps it, and this path writes only the fields
        // a one-segment reader has.
        if let Some((seg, rest)) = one_segment(words, &options) {
            return Ok((Self::from_single_segment(seg, &options), rest));
        }
        let (store, rest) = framed_store(words, &options)?;
        Ok((Self::from_store(store.into(), &options), rest))
    }

    /// A reader over the framed message in `bytes`, with no copy. `bytes`
    /// must start at an 8-aligned address (see [`crate::words_from_bytes`]
    /// or read into a `Message` for unaligned input).
    ///
    /// # Errors
    /// Unaligned input, or as [`from_words`](Self::from_words).
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(0, 1))?.set_text(0, "in place")?;
    /// let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get_text(0)?, "in place");
    ///
    /// // Bad input is an error with the numbers, never a panic.
    /// let err = MessageReader::from_bytes(&[0u8; 4], ReaderOptions::default()).err().expect("cut");
    /// println!("{err}");
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    // Always inlined, with the general path out of line: a one-segment
    // message that fills `bytes` (most input) is read with a few checks,
    // and its reader is built where the caller keeps it.
    #[inline(always)]
    pub fn from_bytes(bytes: &'a [u8], options: ReaderOptions) -> Result<Self> {
        if let Some(words) = Word::try_slice_from_bytes(bytes) {
            if let Some(seg) = whole_one_segment(words, &options) {
                return Ok(Self::from_single_segment(seg, &options));
            }
        }
        // The store comes back through its own slot, apart from the error:
        // a `Result` of both, returned in one slot that LLVM then reuses
        // for the reader, has the error's byte layout, and the one-segment
        // path's stores into that slot were split to match it.
        let mut store = FramedStore::Table {
            body: &[],
            ends: [0; INLINE_SEGMENTS - 1],
            count: 0,
        };
        bytes_store_into(bytes, options, &mut store)?;
        Ok(Self::from_store(store.into(), &options))
    }

    /// A reader over the framed message in `bytes`, of one segment, with no
    /// copy: [`from_bytes`](Self::from_bytes) for input known to be
    /// written on one segment (by a [`SingleSegmentArena`] or a
    /// [`FixedArena`], say), with the shortest open. The reader holds the
    /// one segment and nothing else, so opening it and reading its root
    /// takes about a dozen instructions fewer than through `from_bytes`,
    /// whose reader must also be able to hold a table of segments.
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 42);
    /// let mut framed = Vec::new();
    /// msg.append_to(&mut framed);
    /// let words = capnarena::words_from_bytes(&framed)?;
    /// let bytes = capnarena::Word::slice_as_bytes(&words);
    /// let reader = MessageReader::from_single_segment_bytes(bytes, ReaderOptions::default())?;
    /// assert_eq!(reader.root()?.get::<u64>(0), 42);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    ///
    /// # Errors
    /// A message of more than one segment
    /// ([`Error::SegmentLimitExceeded`] with a limit of 1, or of 0 when
    /// the options' segment limit is 0), or as [`from_bytes`](Self::from_bytes)
    /// (with the same numbers).
    ///
    /// [`SingleSegmentArena`]: crate::SingleSegmentArena
    /// [`FixedArena`]: crate::FixedArena
    // Always inlined, with the general path (errors only) out of line: it
    // gives back the one segment or an error, never another store, so the
    // reader that the caller keeps is built from the segment alone (its
    // store is `SegStore::One`, a tag).
    #[inline(always)]
    pub fn from_single_segment_bytes(bytes: &'a [u8], options: ReaderOptions) -> Result<Self> {
        let fast = match Word::try_slice_from_bytes(bytes) {
            Some(words) => whole_one_segment(words, &options),
            None => None,
        };
        let seg = match fast {
            Some(seg) => seg,
            None => single_segment_of(bytes, options)?,
        };
        Ok(Self::from_single_segment(seg, &options))
    }

    /// Segments in the message.
    pub fn segment_count(&self) -> u32 {
        self.ctx.segment_count()
    }

    /// Segment `id`'s words.
    pub fn segment(&self, id: u32) -> Option<&'a [Word]> {
        self.ctx.segment(id)
    }

    /// The root pointer, to read as any type.
    ///
    /// # Errors
    /// The message has no first segment, or it is empty.
    #[inline]
    pub fn root_pointer(&self) -> Result<PointerReader<'_>> {
        self.ctx.root()
    }

    /// The root struct.
    ///
    /// # Errors
    /// As [`PointerReader::get_struct`].
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// let mut root = msg.init_root_struct(StructSize::new(1, 0))?;
    /// root.set::<f32>(1, 2.5); // the second f32 of the data section
    /// let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    /// let root = reader.root()?;
    /// assert_eq!((root.get::<f32>(0), root.get::<f32>(1)), (0.0, 2.5));
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    // Always inlined, as the readers it returns through: a reader returned
    // through memory is read back with wider loads than it was stored with,
    // which stalls on store forwarding.
    #[inline(always)]
    pub fn root(&self) -> Result<StructReader<'_>> {
        self.ctx.root_struct()
    }

    /// The root as the generated reader type `T`:
    /// `reader.get_root::<person::Reader>()`.
    ///
    /// # Errors
    /// As [`root`](Self::root).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[allow(dead_code)]
    /// # #[rustfmt::skip]
    /// # #[path = "../examples/generated/addressbook_capnp.rs"]
    /// # mod addressbook_capnp;
    /// use addressbook_capnp::person;
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root::<person::Builder<_>>()?.set_id(12);
    /// let reader = MessageReader::from_bytes(msg.framed_bytes()?, ReaderOptions::default())?;
    /// assert_eq!(reader.get_root::<person::Reader>()?.get_id(), 12);
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    #[inline(always)]
    pub fn get_root<'r, T: crate::typed::FromStructReader<'r>>(&'r self) -> Result<T> {
        Ok(T::from_struct_reader(self.root()?))
    }

    /// The root as a `T`, named by its `Owned` marker:
    /// `reader.get_root_as::<T>()` in code generic over `T: StructOwned`
    /// (the same as `get_root::<T::Reader<'_>>()`).
    ///
    /// # Errors
    /// As [`root`](Self::root).
    #[inline(always)]
    pub fn get_root_as<T: crate::typed::StructOwned>(&self) -> Result<T::Reader<'_>> {
        Ok(T::wrap_reader(self.root()?))
    }

    /// Words of traversal budget left.
    pub fn traversal_remaining(&self) -> u64 {
        self.ctx.traversal_remaining()
    }

    /// Restores the full traversal budget, to read the message again.
    ///
    /// # Examples
    ///
    /// ```
    /// use capnarena::{Message, MessageReader, ReaderOptions, SingleSegmentArena, StructSize};
    ///
    /// let mut msg = Message::new(SingleSegmentArena::new());
    /// msg.init_root_struct(StructSize::new(1, 0))?;
    /// let options = ReaderOptions::new().traversal_limit_words(1);
    /// let reader = MessageReader::from_bytes(msg.framed_bytes()?, options)?;
    /// reader.root()?; // spends the budget
    /// assert!(reader.root().is_err());
    /// reader.reset_traversal();
    /// assert!(reader.root().is_ok());
    /// # Ok::<(), capnarena::Error>(())
    /// ```
    pub fn reset_traversal(&self) {
        self.ctx.reset_traversal()
    }
}

/// The segment when `words` is exactly a one-segment framed message (its
/// table, then the whole segment) and the limit allows one segment; `None`
/// for anything else, which the general path reads. One test for the
/// count field and the size: `words.len() - 1` is the size.
#[inline(always)]
fn whole_one_segment<'a>(words: &'a [Word], options: &ReaderOptions) -> Option<&'a [Word]> {
    let (w0, seg) = words.split_first()?;
    let w0 = w0.to_u64();
    if ((w0 >> 32) ^ seg.len() as u64) | (w0 & 0xFFFF_FFFF) == 0 && options.segment_limit >= 1 {
        Some(seg)
    } else {
        None
    }
}

/// The segment and the words after it when `words` starts with the table
/// of a one-segment message whose words are all there and the limit allows
/// one segment; `None` for anything else (more segments, a cut message, an
/// error), which the general path reads.
#[inline(always)]
fn one_segment<'a>(words: &'a [Word], options: &ReaderOptions) -> Option<(&'a [Word], &'a [Word])> {
    let (w0, after) = words.split_first()?;
    let w0 = w0.to_u64();
    let len = w0 >> 32;
    if w0 as u32 == 0 && options.segment_limit >= 1 && len <= after.len() as u64 {
        Some(after.split_at(len as usize))
    } else {
        None
    }
}

/// The segments of the framed message at the start of `words` (one
/// segment or more), and the words after it: the general path under
/// [`MessageReader::from_words_prefix`], with every error. Out of line,
/// and it returns a [`FramedStore`] (small, with no inline table of
/// slices), so a caller that inlines the one-segment path builds its
/// reader in place, with no copy.
#[inline(never)]
fn framed_store<'a>(
    words: &'a [Word],
    options: &ReaderOptions,
) -> Result<(FramedStore<'a>, &'a [Word])> {
    let bytes = Word::slice_as_bytes(words);
    let available = bytes.len() as u64;
    let first = bytes.first_chunk::<4>().copied().ok_or(Error::Truncated {
        needed: 8,
        available,
    })?;
    let header = parse_count(first, options)?;
    let table_words = header.header_bytes / 8;
    if words.len() < table_words {
        return Err(Error::Truncated {
            needed: header.header_bytes as u64,
            available,
        });
    }
    let table = &bytes[..header.header_bytes];
    let mut total: u64 = 0;
    for i in 0..header.count as usize {
        total += u64::from(size_at(table, i));
    }
    let end = table_words as u64 + total;
    if end > words.len() as u64 {
        return Err(Error::Truncated {
            needed: end * 8,
            available,
        });
    }
    let body = &words[table_words..end as usize];
    let rest = &words[end as usize..];
    let store = split_segments(body, table, header.count)?;
    Ok((store, rest))
}

/// The one segment of the framed message that fills `bytes`, read with a
/// segment limit of at most 1: the general path of
/// [`MessageReader::from_single_segment_bytes`], which gives its errors
/// (a message of more segments is over the limit).
#[inline(never)]
fn single_segment_of(bytes: &[u8], options: ReaderOptions) -> Result<&[Word]> {
    let limit = options.segment_limit.min(1);
    let options = options.segment_limit(limit);
    match bytes_store(bytes, &options)? {
        FramedStore::Table { body, count: 1, .. } => Ok(body),
        // Not reached: the table's count is checked against the limit.
        FramedStore::Table { count, .. } => Err(Error::SegmentLimitExceeded {
            count: u64::from(count),
            limit,
        }),
        #[cfg(feature = "alloc")]
        FramedStore::Heap(segs) => Err(Error::SegmentLimitExceeded {
            count: segs.len() as u64,
            limit,
        }),
    }
}

/// [`bytes_store`] into `out`, out of line (for the reason given at
/// [`framed_store`]); `out` is left as it was on an error. `options` by
/// value: the caller's copy for the call is then made on this path only
/// (taken by reference, they were stored on every open).
#[inline(never)]
fn bytes_store_into<'a>(
    bytes: &'a [u8],
    options: ReaderOptions,
    out: &mut FramedStore<'a>,
) -> Result<()> {
    *out = bytes_store(bytes, &options)?;
    Ok(())
}

/// The segments of the framed message that fills `bytes`: the general
/// path under [`MessageReader::from_bytes`], with every error.
#[inline]
fn bytes_store<'a>(bytes: &'a [u8], options: &ReaderOptions) -> Result<FramedStore<'a>> {
    let whole = bytes.len() / 8 * 8;
    let words = Word::try_slice_from_bytes(&bytes[..whole]).ok_or(Error::Unaligned {
        address_mod_8: bytes.as_ptr() as usize % 8,
        len: bytes.len(),
    })?;
    if let (0, Some(&first)) = (whole, bytes.first_chunk::<4>()) {
        // Less than a word, but the count is in: checked as every other
        // reader checks it, before the missing sizes are reported.
        parse_count(first, options)?;
    }
    let (store, rest) = match one_segment(words, options) {
        Some((seg, rest)) => (
            FramedStore::Table {
                body: seg,
                ends: [0; INLINE_SEGMENTS - 1],
                count: 1,
            },
            rest,
        ),
        None => match framed_store(words, options) {
            Ok(found) => found,
            Err(Error::Truncated { needed, .. }) => {
                return Err(Error::Truncated {
                    needed,
                    available: bytes.len() as u64,
                });
            }
            Err(e) => return Err(e),
        },
    };
    let extra = rest.len() * 8 + (bytes.len() - whole);
    if extra == 0 {
        Ok(store)
    } else {
        Err(Error::TrailingData {
            extra: extra as u64,
        })
    }
}

/// The segments of a framed message as [`framed_store`] finds them.
pub(crate) enum FramedStore<'a> {
    /// Up to [`INLINE_SEGMENTS`] segments: the words after the table and
    /// where each segment but the last ends in them
    /// ([`SegStore::Framed`]).
    Table {
        body: &'a [Word],
        ends: [u64; INLINE_SEGMENTS - 1],
        count: u32,
    },
    #[cfg(feature = "alloc")]
    Heap(Box<[&'a [Word]]>),
}

impl<'a> From<FramedStore<'a>> for SegStore<'a> {
    #[inline(always)]
    fn from(f: FramedStore<'a>) -> Self {
        match f {
            FramedStore::Table { body, ends, count } => SegStore::Framed { body, ends, count },
            #[cfg(feature = "alloc")]
            FramedStore::Heap(segs) => SegStore::Heap(segs),
        }
    }
}

/// Splits `body` into segments by the sizes in `table` (whose sizes must
/// sum to `body.len()`).
#[inline(always)]
fn split_segments<'a>(body: &'a [Word], table: &'a [u8], count: u32) -> Result<FramedStore<'a>> {
    let mut at = 0usize;
    let segment = move |i: usize| {
        let len = size_at(table, i) as usize;
        let seg = body.get(at..at + len).unwrap_or(&[]);
        at += len;
        seg
    };
    hold(count, segment, |_| {
        let mut ends = [0u64; INLINE_SEGMENTS - 1];
        let mut end = 0u64;
        for (i, slot) in ends.iter_mut().enumerate().take(count as usize) {
            end += u64::from(size_at(table, i));
            *slot = end;
        }
        FramedStore::Table { body, ends, count }
    })
}

/// The store of `count` segments, segment `i` being `segment(i)` (called
/// once for each, in order): up to [`INLINE_SEGMENTS`] inline, more on
/// the heap.
#[inline(always)]
fn store_of<'a>(count: u32, segment: impl FnMut(usize) -> &'a [Word]) -> Result<SegStore<'a>> {
    hold(count, segment, |segment| {
        let mut segs: [&[Word]; INLINE_SEGMENTS] = [&[]; INLINE_SEGMENTS];
        for (i, slot) in segs.iter_mut().enumerate().take(count as usize) {
            *slot = segment(i);
        }
        SegStore::Inline {
            len: count,
            built: false,
            segs,
        }
    })
}

/// A store of a message's segments that can hold them on the heap, past
/// [`INLINE_SEGMENTS`] (see [`hold`]).
trait HeldSegments<'a> {
    /// The store over `segs`, every segment of the message in order.
    #[cfg(feature = "alloc")]
    fn on_heap(segs: Vec<&'a [Word]>) -> Self;
}

impl<'a> HeldSegments<'a> for FramedStore<'a> {
    #[cfg(feature = "alloc")]
    fn on_heap(segs: Vec<&'a [Word]>) -> Self {
        FramedStore::Heap(segs.into_boxed_slice())
    }
}

impl<'a> HeldSegments<'a> for SegStore<'a> {
    #[cfg(feature = "alloc")]
    fn on_heap(segs: Vec<&'a [Word]>) -> Self {
        SegStore::Heap(segs.into_boxed_slice())
    }
}

/// The store of `count` segments: `inline(&mut segment)` for up to
/// [`INLINE_SEGMENTS`], else every `segment(i)` (called once for each, in
/// order) in one allocation.
///
/// # Errors
/// More than [`INLINE_SEGMENTS`] without `alloc`, or the heap refuses
/// room for them.
#[inline(always)]
fn hold<'a, S: HeldSegments<'a>, F: FnMut(usize) -> &'a [Word]>(
    count: u32,
    mut segment: F,
    inline: impl FnOnce(&mut F) -> S,
) -> Result<S> {
    if count as usize <= INLINE_SEGMENTS {
        return Ok(inline(&mut segment));
    }
    #[cfg(feature = "alloc")]
    {
        let mut v = vec_for_segments(count)?;
        v.extend((0..count as usize).map(segment));
        Ok(S::on_heap(v))
    }
    #[cfg(not(feature = "alloc"))]
    {
        let _ = segment;
        Err(Error::TooManySegmentsWithoutAlloc {
            count: u64::from(count),
            inline: INLINE_SEGMENTS,
        })
    }
}

/// Copies `bytes` into a `Vec<Word>` so that they are 8-aligned, for
/// [`MessageReader::from_words`]. (To read unaligned input without
/// allocating, read it into a [`Message`](crate::Message) instead.)
///
/// # Errors
/// [`Error::Truncated`] when `bytes` does not end on a word boundary: a
/// framed message is whole words, so the input was cut (padding the last
/// word with zeros could turn a cut message into one that reads).
///
/// ```
/// use capnarena::{Error, MessageReader, ReaderOptions};
/// // One segment of one word: a null root.
/// let framed = [0u8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// let words = capnarena::words_from_bytes(&framed)?;
/// assert!(MessageReader::from_words(&words, ReaderOptions::default()).is_ok());
/// assert!(matches!(
///     capnarena::words_from_bytes(&framed[..15]),
///     Err(Error::Truncated { needed: 16, available: 15 })
/// ));
/// # Ok::<(), capnarena::Error>(())
/// ```
#[cfg(feature = "alloc")]
pub fn words_from_bytes(bytes: &[u8]) -> Result<Vec<Word>> {
    let whole = bytes.len().div_ceil(8);
    if bytes.len() % 8 != 0 {
        return Err(Error::Truncated {
            needed: whole as u64 * 8,
            available: bytes.len() as u64,
        });
    }
    let mut words = alloc::vec![Word::ZERO; whole];
    Word::slice_as_bytes_mut(&mut words).copy_from_slice(bytes);
    Ok(words)
}

/// An empty `Vec` with room for `count` per-segment entries (a segment
/// table past the inline size), or [`Error::Alloc`] when the heap refuses.
#[cfg(feature = "alloc")]
pub(crate) fn vec_for_segments<T>(count: u32) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(count as usize).map_err(|_| {
        Error::Alloc(crate::arena::AllocError {
            requested: u64::from(count),
            available: 0,
        })
    })?;
    Ok(v)
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    /// A reader's segments as addresses and lengths, or the error with its
    /// numbers.
    type Seen = core::result::Result<Vec<(usize, usize)>, String>;

    fn seen(r: Result<MessageReader<'_>>) -> Seen {
        match r {
            Ok(m) => Ok((0..m.segment_count())
                .map(|id| {
                    m.segment(id)
                        .map_or((0, 0), |s| (s.as_ptr() as usize, s.len()))
                })
                .collect()),
            Err(e) => Err(format!("{e:?}")),
        }
    }

    /// Framed messages: one segment of 0 to 3 words, two segments, and
    /// nine (past the inline table), as words.
    fn frames() -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for k in 0..4u64 {
            let mut f = alloc::vec![k << 32];
            f.extend((0..k).map(|i| 0x1111 * (i + 1)));
            out.push(f);
        }
        out.push(alloc::vec![1 | 2 << 32, 1, 5, 6, 7]);
        // Nine segments of one word: the count and size 0, then four words
        // of two sizes each, then the nine words.
        let mut nine = alloc::vec![8 | 1 << 32];
        nine.extend([1 | 1 << 32; 4]);
        nine.extend(0x90..0x99u64);
        out.push(nine);
        out
    }

    /// `from_bytes` (its inline one-segment path, else the general one)
    /// gives what the general path alone gives: the same segments or the
    /// same error with its numbers, for every frame above cut at every
    /// byte, with 1 to 9 bytes after it, at every address alignment, and
    /// under segment limits 0, 1, 2 and the default. And
    /// `from_single_segment_bytes` gives what `from_bytes` gives under a
    /// segment limit of at most 1: the one segment, or the same error (a
    /// message of two or nine segments is over that limit).
    #[test]
    fn inline_open_matches_the_general_path() {
        let mut checked = 0;
        for frame in frames() {
            let bytes: Vec<u8> = frame.iter().flat_map(|w| w.to_le_bytes()).collect();
            let mut inputs: Vec<Vec<u8>> = (0..=bytes.len()).map(|n| bytes[..n].to_vec()).collect();
            for extra in 1..=9 {
                let mut b = bytes.clone();
                b.resize(bytes.len() + extra, 0);
                inputs.push(b);
            }
            // Under Miri (which runs this for the unsafe code beneath
            // `from_bytes`), every seventh cut and three alignments: the
            // same kinds of input, a thirtieth of the interpreted work.
            let (cut_step, shifts): (usize, &[usize]) = if cfg!(miri) {
                (7, &[0, 3, 4])
            } else {
                (1, &[0, 1, 2, 3, 4, 5, 6, 7])
            };
            for input in inputs.iter().step_by(cut_step) {
                for &shift in shifts {
                    let mut buf = alloc::vec![Word::ZERO; input.len().div_ceil(8) + 1];
                    let all = Word::slice_as_bytes_mut(&mut buf);
                    all[shift..shift + input.len()].copy_from_slice(input);
                    let b = &Word::slice_as_bytes(&buf)[shift..shift + input.len()];
                    for limit in [0, 1, 2, 512] {
                        let opts = ReaderOptions::default().segment_limit(limit);
                        let fast = seen(MessageReader::from_bytes(b, opts));
                        let general = seen(
                            bytes_store(b, &opts)
                                .map(|s| MessageReader::from_store(s.into(), &opts)),
                        );
                        assert_eq!(fast, general, "{input:02x?} at +{shift}, limit {limit}");
                        // (Under Miri at one alignment: this path has no
                        // unsafe code of its own.)
                        if !cfg!(miri) || shift == 0 {
                            let single = seen(MessageReader::from_single_segment_bytes(b, opts));
                            let at_most_one = opts.segment_limit(limit.min(1));
                            let general_one = seen(MessageReader::from_bytes(b, at_most_one));
                            assert_eq!(
                                single, general_one,
                                "{input:02x?} at +{shift}, limit {limit}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > if cfg!(miri) { 100 } else { 1000 });
    }

    /// `from_words_prefix` (inline one-segment path, else the general one)
    /// gives what the general path alone gives, segments and the words
    /// after the message, or the same error, for every frame above cut at
    /// every word and followed by 0 to 2 more words.
    #[test]
    fn inline_prefix_open_matches_the_general_path() {
        for frame in frames() {
            for cut in 0..=frame.len() + 2 {
                let mut f = frame.clone();
                f.resize(cut, 0x77);
                let words: Vec<Word> = f.iter().map(|&w| Word::from_u64(w)).collect();
                for limit in [0, 1, 2, 512] {
                    let opts = ReaderOptions::default().segment_limit(limit);
                    let rest = |r: &[Word]| (r.as_ptr() as usize, r.len());
                    let fast = MessageReader::from_words_prefix(&words, opts)
                        .map(|(m, r)| (seen(Ok(m)), rest(r)));
                    let general = framed_store(&words, &opts).map(|(s, r)| {
                        (
                            seen(Ok(MessageReader::from_store(s.into(), &opts))),
                            rest(r),
                        )
                    });
                    assert_eq!(
                        fast.map_err(|e| format!("{e:?}")),
                        general.map_err(|e| format!("{e:?}")),
                        "{f:x?}, limit {limit}"
                    );
                }
            }
        }
    }
}
