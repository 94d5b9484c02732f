//! Readers: struct, list and pointer views over segments, with every
//! pointer bounds-checked and every read charged to the traversal limit.

#[cfg(feature = "alloc")]
use alloc::boxed::Box;

use super::pointer::{self, ElementSize, KIND_FAR, KIND_LIST, KIND_OTHER, KIND_STRUCT, StructSize};
use super::primitive::{Primitive, load};
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;
use core::iter::Zip;
use core::ops::Range;
use core::slice::ChunksExact;

/// Anything that can hand out a message's segments by number.
///
/// Implemented by messages under construction so that they can be read
/// back in place; readers of framed input use their own segment table.
pub trait SegmentSource {
    /// Segments in the message.
    fn segment_count(&self) -> u32;
    /// Segment `id`'s words, `None` when there is no such segment.
    fn segment(&self, id: u32) -> Option<&[Word]>;
}

/// Segments held inline before a reader needs the heap.
pub const INLINE_SEGMENTS: usize = 8;

/// Where a reader finds a message's segments. Every variant holds plain
/// word slices, so a context (and every reader borrowing it) is `Send` and
/// `Sync` whatever the segments came from: a message under construction is
/// read through a snapshot of its arena's slices taken when the reader is
/// made ([`SegStore::snapshot`]), never through the arena itself, which
/// need not be `Sync`.
pub enum SegStore<'a> {
    /// One segment (most framed messages), held as the context's first
    /// segment: nothing more to store.
    One,
    /// Up to [`INLINE_SEGMENTS`] segments of a framed message read in
    /// place: the words after the segment table, and where each segment
    /// but the last ends in them (the last ends with `body`).
    Framed {
        body: &'a [Word],
        ends: [u64; INLINE_SEGMENTS - 1],
        count: u32,
    },
    Inline {
        len: u32,
        /// The segments are a message under construction (see
        /// [`ReadContext::copy_bound`]).
        built: bool,
        segs: [&'a [Word]; INLINE_SEGMENTS],
    },
    Slices(&'a [&'a [Word]]),
    // The heap variants last, so that a reader's drop glue finds them with
    // one test of its tag (above `Slices`).
    #[cfg(feature = "alloc")]
    Heap(Box<[&'a [Word]]>),
    /// As `Heap`, for a message under construction (see `Inline`'s
    /// `built`): a variant of its own, so that the framed open, which makes
    /// `Heap` stores, stores no flag.
    #[cfg(feature = "alloc")]
    BuiltHeap(Box<[&'a [Word]]>),
}

impl<'a> SegStore<'a> {
    /// Segments held.
    fn count(&self) -> u32 {
        match self {
            SegStore::One => 1,
            SegStore::Framed { count, .. } => *count,
            SegStore::Inline { len, .. } => *len,
            #[cfg(feature = "alloc")]
            SegStore::Heap(segs) | SegStore::BuiltHeap(segs) => segs.len() as u32,
            SegStore::Slices(s) => s.len() as u32,
        }
    }

    /// Segment `id`'s words, `first` being the context's segment 0 (the
    /// one segment of [`SegStore::One`]).
    #[inline]
    fn segment(&self, first: &'a [Word], id: u32) -> Option<&'a [Word]> {
        match self {
            SegStore::One => (id == 0).then_some(first),
            SegStore::Framed { body, ends, count } => {
                (id < *count).then(|| framed_segment(body, ends, *count, id))
            }
            SegStore::Inline { len, segs, .. } => {
                if id < *len {
                    segs.get(id as usize).copied()
                } else {
                    None
                }
            }
            #[cfg(feature = "alloc")]
            SegStore::Heap(segs) | SegStore::BuiltHeap(segs) => segs.get(id as usize).copied(),
            SegStore::Slices(s) => s.get(id as usize).copied(),
        }
    }

    /// The segments `source` hands out now (its segment count asked once),
    /// marked as a message under construction. Up to [`INLINE_SEGMENTS`]
    /// segments are held inline; more take one allocation. Without the
    /// `alloc` feature only the first [`INLINE_SEGMENTS`] are held, and a
    /// pointer into a later one reads as [`Error::MissingSegment`].
    pub(crate) fn snapshot(source: &'a dyn SegmentSource) -> Self {
        Self::snapshot_of(source.segment_count(), |id| {
            source.segment(id).unwrap_or(&[])
        })
    }

    /// [`snapshot`](Self::snapshot) of `count` segments that `seg` hands
    /// out by number.
    pub(crate) fn snapshot_of(count: u32, seg: impl Fn(u32) -> &'a [Word]) -> Self {
        #[cfg(feature = "alloc")]
        if count as usize > INLINE_SEGMENTS {
            return SegStore::BuiltHeap((0..count).map(seg).collect());
        }
        // Without `alloc`, past INLINE_SEGMENTS the rest read as missing.
        let mut segs: [&'a [Word]; INLINE_SEGMENTS] = [&[]; INLINE_SEGMENTS];
        for (id, slot) in (0..count).zip(segs.iter_mut()) {
            *slot = seg(id);
        }
        SegStore::Inline {
            len: count,
            built: true,
            segs,
        }
    }
}

/// Segment `id` of a [`SegStore::Framed`] store; empty when `id` is not
/// below `count`.
#[inline]
fn framed_segment<'a>(body: &'a [Word], ends: &[u64], count: u32, id: u32) -> &'a [Word] {
    if id >= count {
        return &[];
    }
    let end_of = |i: u32| {
        if i + 1 == count {
            body.len() as u64
        } else {
            ends.get(i as usize).copied().unwrap_or(0)
        }
    };
    let start = if id == 0 { 0 } else { end_of(id - 1) };
    let (start, end) = (start as usize, end_of(id) as usize);
    body.get(start..end).unwrap_or(&[])
}

/// Limits as the layout layer sees them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReaderOptionsCore {
    pub traversal_limit_words: u64,
    pub nesting_limit: u32,
}

/// The segments of a message being read, and what reading it has cost so
/// far. Every reader handle borrows one.
pub struct ReadContext<'a> {
    /// Segment 0's words, whatever the store (empty when the message has
    /// no segment 0): the root is read from here without going through
    /// the store's variants, and a one-segment message needs nothing else.
    first: &'a [Word],
    store: SegStore<'a>,
    remaining: Budget,
    limits: ReaderOptionsCore,
}

/// Words of traversal budget left. Loads and stores are relaxed atomics
/// (plain moves on common targets), so that a context over `'static` words
/// can sit in a `static` (see [`StaticContext`]); a context is not shared
/// between threads otherwise, and a lost update between two threads that
/// do share one could only leave the budget higher than it should be.
#[cfg(target_has_atomic = "64")]
struct Budget(core::sync::atomic::AtomicU64);

#[cfg(target_has_atomic = "64")]
impl Budget {
    const fn new(words: u64) -> Self {
        Budget(core::sync::atomic::AtomicU64::new(words))
    }
    #[inline(always)]
    fn get(&self) -> u64 {
        self.0.load(core::sync::atomic::Ordering::Relaxed)
    }
    #[inline(always)]
    fn set(&self, words: u64) {
        self.0.store(words, core::sync::atomic::Ordering::Relaxed)
    }
}

/// Words of traversal budget left, on targets without 64-bit atomics: the
/// budget is capped at `usize::MAX` words.
#[cfg(not(target_has_atomic = "64"))]
struct Budget(core::sync::atomic::AtomicUsize);

#[cfg(not(target_has_atomic = "64"))]
impl Budget {
    const fn new(words: u64) -> Self {
        let capped = if words > usize::MAX as u64 {
            usize::MAX
        } else {
            words as usize
        };
        Budget(core::sync::atomic::AtomicUsize::new(capped))
    }
    #[inline(always)]
    fn get(&self) -> u64 {
        self.0.load(core::sync::atomic::Ordering::Relaxed) as u64
    }
    #[inline(always)]
    fn set(&self, words: u64) {
        self.0
            .store(words as usize, core::sync::atomic::Ordering::Relaxed)
    }
}

/// A read context over one segment of `'static` words (a schema's default
/// value or constant, compiled into a program), which can be kept in a
/// `static` and hands out readers with the `'static` lifetime.
///
/// Traversal is unlimited (the words are the program's own) but nesting is
/// bounded by the default limit, so a malformed constant is still an `Err`.
pub struct StaticContext(ReadContext<'static>);

impl StaticContext {
    /// A context over `segments` (a message's segments, without a table).
    pub const fn new(segments: &'static [&'static [Word]]) -> Self {
        let first: &'static [Word] = match segments {
            [first, ..] => first,
            [] => &[],
        };
        StaticContext(ReadContext {
            first,
            store: SegStore::Slices(segments),
            remaining: Budget::new(u64::MAX),
            limits: ReaderOptionsCore {
                traversal_limit_words: u64::MAX,
                nesting_limit: 64,
            },
        })
    }

    /// The root pointer (word 0 of segment 0).
    ///
    /// # Errors
    /// There is no segment 0, or it is empty.
    pub fn root(&'static self) -> Result<PointerReader<'static>> {
        self.0.root()
    }
}

impl<'a> ReadContext<'a> {
    /// A context over the segments `store` holds (`store` is not
    /// [`SegStore::One`]: see [`one`](Self::one)).
    #[inline(always)]
    pub(crate) fn new(store: SegStore<'a>, limits: ReaderOptionsCore) -> Self {
        ReadContext {
            first: store.segment(&[], 0).unwrap_or(&[]),
            store,
            remaining: Budget::new(limits.traversal_limit_words),
            limits,
        }
    }

    /// A context over a message of the one segment `seg`: four stores
    /// (the segment, the store's tag, the budget and the limits).
    #[inline(always)]
    pub(crate) fn one(seg: &'a [Word], limits: ReaderOptionsCore) -> Self {
        ReadContext {
            first: seg,
            store: SegStore::One,
            remaining: Budget::new(limits.traversal_limit_words),
            limits,
        }
    }

    /// Words a deep copy out of this message may visit in all: the words
    /// of its segments for a message read in place through a
    /// [`SegmentSource`] (a message being built is a tree, so a copy of it
    /// visits each word once; more means its arena broke the message), and
    /// no bound of its own otherwise (framed input is bounded by the
    /// traversal limit). Found when a copy starts (not kept in the context,
    /// which readers return by value: a larger one was copied with a
    /// `memcpy` call, +29 instructions per `read_from_bytes`).
    #[inline]
    pub(crate) fn copy_bound(&self) -> u64 {
        let built = |segs: &[&[Word]]| segs.iter().map(|s| s.len() as u64).sum();
        match &self.store {
            SegStore::Inline {
                len,
                built: true,
                segs,
            } => built(&segs[..(*len as usize).min(INLINE_SEGMENTS)]),
            #[cfg(feature = "alloc")]
            SegStore::BuiltHeap(segs) => built(segs),
            _ => u64::MAX,
        }
    }

    /// Segments in the message.
    pub fn segment_count(&self) -> u32 {
        self.store.count()
    }

    /// Segment `id`'s words.
    #[inline]
    pub fn segment(&self, id: u32) -> Option<&'a [Word]> {
        self.store.segment(self.first, id)
    }

    /// Words of traversal budget left.
    pub fn traversal_remaining(&self) -> u64 {
        self.remaining.get()
    }

    /// Restores the full traversal budget (for a caller that reads the same
    /// message again on purpose).
    pub fn reset_traversal(&self) {
        self.remaining.set(self.limits.traversal_limit_words);
    }

    #[inline]
    fn charge(&self, words: u64) -> Result<()> {
        match self.remaining.get().checked_sub(words) {
            Some(rest) => {
                self.remaining.set(rest);
                Ok(())
            }
            None => Err(Error::TraversalLimitExceeded {
                limit: self.limits.traversal_limit_words,
                requested: words,
            }),
        }
    }

    /// Charges the memory that decoding `elements` values of
    /// `element_bytes` bytes each into plain Rust values allocates (see
    /// `typed::value`), in words, beyond the `charged` words their read
    /// already took from the traversal budget: so a small message cannot
    /// decode into far more memory than the traversal limit allows (a list
    /// of many empty structs costs its reader a word each, and each can
    /// become a large value).
    ///
    /// # Errors
    /// [`Error::DecodeLimitExceeded`] when the budget left is short.
    #[cfg(feature = "alloc")]
    pub(crate) fn charge_decode(
        &self,
        elements: u64,
        element_bytes: u64,
        charged: u64,
    ) -> Result<()> {
        let words = elements.saturating_mul(element_bytes.div_ceil(8));
        let extra = words.saturating_sub(charged);
        let remaining = self.remaining.get();
        match remaining.checked_sub(extra) {
            Some(rest) => {
                self.remaining.set(rest);
                Ok(())
            }
            None => Err(Error::DecodeLimitExceeded {
                elements,
                element_bytes,
                extra_words: extra,
                remaining,
                limit: self.limits.traversal_limit_words,
            }),
        }
    }

    /// The root struct: what `self.root()?.get_struct()` gives (see
    /// [`PointerReader::get_struct`]).
    #[inline(always)]
    pub(crate) fn root_struct(&'a self) -> Result<StructReader<'a>> {
        let first = self.first;
        if first.is_empty() {
            return Err(self.no_root());
        }
        PointerReader::at(self, first, 0, 0, self.limits.nesting_limit).get_struct()
    }

    /// The root through the general resolution, as it was read before
    /// the inline path: what the unit tests check [`root_struct`](Self::root_struct)
    /// against.
    #[cfg(test)]
    fn root_struct_general(&'a self) -> Result<StructReader<'a>> {
        self.root()?.get_struct_general()
    }

    /// The struct at `t` (a struct pointer resolved to its object), read at
    /// `nesting` levels left: the nesting level, the object's bounds and
    /// the traversal charge checked, in that order, each failure an error
    /// with its numbers (made out of line, so the checks stay a few
    /// instructions where readers are used).
    #[inline(always)]
    fn struct_at(&'a self, t: Target<'a>, nesting: u32) -> Result<StructReader<'a>> {
        let Some(nesting) = nesting.checked_sub(1) else {
            return Err(self.nesting_exceeded());
        };
        let size = pointer::struct_size(t.tag);
        let data_words = usize::from(size.data_words);
        let words = data_words + usize::from(size.pointers);
        let object = usize::try_from(t.start)
            .ok()
            .and_then(|s| t.seg.get(s..s.checked_add(words)?));
        let Some(object) = object else {
            return Err(out_of_bounds(t.seg, t.segment, t.start, words as u64));
        };
        let Some(rest) = self.remaining.get().checked_sub(words as u64) else {
            return Err(self.traversal_exceeded(words as u64));
        };
        self.remaining.set(rest);
        let (data, pointers) = object.split_at_checked(data_words).unwrap_or((&[], &[]));
        Ok(StructReader {
            ctx: self,
            seg: t.seg,
            segment: t.segment,
            data: Word::slice_as_bytes(data),
            pointers: word_arrays(pointers),
            nesting,
        })
    }

    /// The object that pointer word `w` (not null, not a near struct
    /// pointer) reaches, when it is a struct: through a far pointer. Takes
    /// the word, not its reader, so that no reader is stored to memory for
    /// the call.
    ///
    /// # Errors
    /// Not a far pointer, a malformed far pointer, or one that lands on
    /// something other than a struct.
    #[inline(never)]
    fn far_struct_target(&'a self, w: u64) -> Result<Target<'a>> {
        if pointer::kind(w) != KIND_FAR {
            return Err(unexpected(PointerKind::Struct, w));
        }
        let t = resolve_far(w, |id| {
            self.segment(id).ok_or(Error::MissingSegment {
                segment: id,
                count: self.segment_count(),
            })
        })?;
        if pointer::kind(t.tag) != KIND_STRUCT {
            return Err(unexpected(PointerKind::Struct, t.tag));
        }
        Ok(t)
    }

    /// Why the message has no root: no segment 0, or an empty one.
    #[cold]
    #[inline(never)]
    fn no_root(&self) -> Error {
        match self.segment(0) {
            None => Error::MissingSegment {
                segment: 0,
                count: self.segment_count(),
            },
            Some(seg) => Error::OutOfBounds {
                segment: 0,
                start: 0,
                len: 1,
                segment_len: seg.len() as u64,
            },
        }
    }

    #[cold]
    #[inline(never)]
    fn nesting_exceeded(&self) -> Error {
        Error::NestingLimitExceeded {
            limit: self.limits.nesting_limit,
        }
    }

    #[cold]
    #[inline(never)]
    fn traversal_exceeded(&self, words: u64) -> Error {
        Error::TraversalLimitExceeded {
            limit: self.limits.traversal_limit_words,
            requested: words,
        }
    }

    /// The root pointer: word 0 of segment 0.
    #[inline]
    pub(crate) fn root(&'a self) -> Result<PointerReader<'a>> {
        let first = self.first;
        if first.is_empty() {
            return Err(self.no_root());
        }
        Ok(PointerReader::at(
            self,
            first,
            0,
            0,
            self.limits.nesting_limit,
        ))
    }
}

/// The words of all of `source`'s segments (its segment count asked once).
pub(crate) fn source_words(source: &dyn SegmentSource) -> u64 {
    (0..source.segment_count())
        .map(|id| source.segment(id).map_or(0, |s| s.len() as u64))
        .sum()
}

/// Checks that words `[start, start + len)` lie inside `seg`; returns
/// `start` as an index.
#[inline]
pub(crate) fn bounds(seg: &[Word], segment: u32, start: i64, len: u64) -> Result<usize> {
    let ok = start >= 0
        && (start as u64)
            .checked_add(len)
            .is_some_and(|end| end <= seg.len() as u64);
    if ok {
        Ok(start as usize)
    } else {
        Err(Error::OutOfBounds {
            segment,
            start,
            len,
            segment_len: seg.len() as u64,
        })
    }
}

/// The error for words `[start, start + len)` outside `seg` (segment
/// `segment`).
#[cold]
#[inline(never)]
fn out_of_bounds(seg: &[Word], segment: u32, start: i64, len: u64) -> Error {
    Error::OutOfBounds {
        segment,
        start,
        len,
        segment_len: seg.len() as u64,
    }
}

/// The bytes of words `[start, start + words)` of `seg`, a struct's data
/// section whose bounds the caller checked (empty if they were not).
#[inline(always)]
fn data_section(seg: &[Word], start: usize, words: usize) -> &[u8] {
    Word::slice_as_bytes(seg.get(start..start + words).unwrap_or(&[]))
}

/// As [`bounds`], and the words themselves (for the general struct path
/// the unit tests check the inline one against).
#[cfg(test)]
fn bounds_words(seg: &[Word], segment: u32, start: i64, len: u64) -> Result<(usize, &[Word])> {
    let object = usize::try_from(start)
        .ok()
        .and_then(|s| seg.get(s..))
        .zip(usize::try_from(len).ok())
        .and_then(|(rest, n)| rest.get(..n));
    match object {
        Some(o) => Ok((start as usize, o)),
        None => Err(Error::OutOfBounds {
            segment,
            start,
            len,
            segment_len: seg.len() as u64,
        }),
    }
}

#[inline]
pub(crate) fn word_at(seg: &[Word], i: usize) -> u64 {
    seg.get(i).map_or(0, |w| w.to_u64())
}

/// A pointer, resolved through any far pointer to its object.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) seg: &'a [Word],
    pub(crate) segment: u32,
    /// First word of the object (for a list: of its tag, if composite).
    pub(crate) start: i64,
    /// The struct or list pointer describing the object.
    pub(crate) tag: u64,
}

pub(crate) enum Resolved<'a> {
    Null,
    Object(Target<'a>),
    Other(u64),
}

/// Resolves pointer word `w`, found at word `pos` of `seg` (segment
/// `segment`), through any far pointer; `lookup` finds other segments.
#[inline]
pub(crate) fn resolve<'s>(
    w: u64,
    seg: &'s [Word],
    segment: u32,
    pos: u32,
    lookup: impl Fn(u32) -> Result<&'s [Word]>,
) -> Result<Resolved<'s>> {
    if w == 0 {
        return Ok(Resolved::Null);
    }
    match pointer::kind(w) {
        KIND_STRUCT | KIND_LIST => Ok(Resolved::Object(Target {
            seg,
            segment,
            start: i64::from(pos) + 1 + pointer::offset(w),
            tag: w,
        })),
        KIND_FAR => resolve_far(w, lookup).map(Resolved::Object),
        _ => Ok(Resolved::Other(w)),
    }
}

#[inline(never)]
fn resolve_far<'s>(w: u64, lookup: impl Fn(u32) -> Result<&'s [Word]>) -> Result<Target<'s>> {
    let segment = pointer::far_segment(w);
    let seg = lookup(segment)?;
    let pad = pointer::far_pad_offset(w);
    if !pointer::far_is_double(w) {
        let at = bounds(seg, segment, pad as i64, 1)?;
        let pad_word = word_at(seg, at);
        if pad_word == 0 {
            // A null pad would read as a struct of 0 words at offset 0 that
            // `kind()` reports as null; no writer produces it.
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is a null pointer",
            });
        }
        match pointer::kind(pad_word) {
            KIND_STRUCT | KIND_LIST => Ok(Target {
                seg,
                segment,
                start: pad as i64 + 1 + pointer::offset(pad_word),
                tag: pad_word,
            }),
            KIND_FAR => Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is another far pointer",
            }),
            _ => Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is not a struct or list pointer",
            }),
        }
    } else {
        let at = bounds(seg, segment, pad as i64, 2)?;
        let far = word_at(seg, at);
        let tag = word_at(seg, at + 1);
        if pointer::kind(far) != KIND_FAR || pointer::far_is_double(far) {
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "first word of a double-far landing pad is not a single far pointer",
            });
        }
        if tag == 0 || !matches!(pointer::kind(tag), KIND_STRUCT | KIND_LIST) {
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "second word of a double-far landing pad is not a struct or list pointer",
            });
        }
        let content = pointer::far_segment(far);
        Ok(Target {
            seg: lookup(content)?,
            segment: content,
            start: pointer::far_pad_offset(far) as i64,
            tag,
        })
    }
}

/// A pointer inside a message being read: a struct field, a list element
/// or the root. Resolve it as the type the schema says it has.
#[derive(Clone, Copy)]
pub struct PointerReader<'a> {
    ctx: &'a ReadContext<'a>,
    seg: &'a [Word],
    segment: u32,
    /// The pointer's word in `seg` (below `seg`'s length, so below 2^61).
    pos: usize,
    word: u64,
    nesting: u32,
}

impl<'a> PointerReader<'a> {
    /// The pointer at word `pos` of `seg` (segment `segment`), read at
    /// `nesting` levels of nesting left.
    #[inline(always)]
    pub(crate) fn at(
        ctx: &'a ReadContext<'a>,
        seg: &'a [Word],
        segment: u32,
        pos: u32,
        nesting: u32,
    ) -> Self {
        PointerReader {
            ctx,
            seg,
            segment,
            pos: pos as usize,
            word: word_at(seg, pos as usize),
            nesting,
        }
    }

    fn null(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
        PointerReader {
            ctx,
            seg: &[],
            segment: 0,
            pos: 0,
            word: 0,
            nesting,
        }
    }

    /// Whether the pointer is null (all zero).
    pub fn is_null(&self) -> bool {
        self.word == 0
    }

    /// The message's read context.
    #[inline(always)]
    pub(crate) fn context(&self) -> &'a ReadContext<'a> {
        self.ctx
    }

    /// The raw pointer word.
    pub fn raw(&self) -> u64 {
        self.word
    }

    #[inline]
    fn resolve(&self) -> Result<Resolved<'a>> {
        let ctx = self.ctx;
        resolve(self.word, self.seg, self.segment, self.pos as u32, |id| {
            ctx.segment(id).ok_or(Error::MissingSegment {
                segment: id,
                count: ctx.segment_count(),
            })
        })
    }

    /// What the pointer points to, following far pointers: `Null`, `Struct`,
    /// `List`, `Capability` or `Other`.
    ///
    /// # Errors
    /// A malformed far pointer.
    pub fn kind(&self) -> Result<PointerKind> {
        Ok(match self.resolve()? {
            Resolved::Null => PointerKind::Null,
            Resolved::Object(t) => pointer::pointer_kind(t.tag),
            Resolved::Other(w) => pointer::pointer_kind(w),
        })
    }

    #[inline]
    fn descend(&self) -> Result<u32> {
        self.nesting
            .checked_sub(1)
            .ok_or(Error::NestingLimitExceeded {
                limit: self.ctx.limits.nesting_limit,
            })
    }

    /// The struct this pointer points to; an empty struct (every field at
    /// its default) when null.
    ///
    /// # Errors
    /// Not a struct pointer, out of bounds, or a limit exceeded.
    // A near struct pointer is read inline; far pointers and pointers of
    // other kinds are resolved out of line to the object they reach (or
    // their error), and every error is made out of line: what stays inline
    // is a few checks, and no reader returned through memory meets the
    // inline one (read back with wider loads than it was stored with, it
    // stalls on store forwarding).
    #[inline(always)]
    pub fn get_struct(&self) -> Result<StructReader<'a>> {
        let w = self.word;
        if w == 0 {
            return Ok(StructReader::empty(self.ctx, self.nesting));
        }
        let t = if pointer::kind(w) == KIND_STRUCT {
            Target {
                seg: self.seg,
                segment: self.segment,
                // `pos < 2^61` and the offset is above -2^29: no overflow.
                start: self.pos as i64 + 1 + pointer::offset(w),
                tag: w,
            }
        } else {
            self.ctx.far_struct_target(w)?
        };
        self.ctx.struct_at(t, self.nesting)
    }

    /// [`get_struct`](Self::get_struct) through the general resolution, as
    /// it was read before the inline path: what the unit tests check
    /// `get_struct` against.
    #[cfg(test)]
    fn get_struct_general(&self) -> Result<StructReader<'a>> {
        let t = match self.resolve()? {
            Resolved::Null => return Ok(StructReader::empty(self.ctx, self.nesting)),
            Resolved::Object(t) => t,
            Resolved::Other(w) => return Err(unexpected(PointerKind::Struct, w)),
        };
        if pointer::kind(t.tag) != KIND_STRUCT {
            return Err(unexpected(PointerKind::Struct, t.tag));
        }
        let nesting = self.descend()?;
        let size = pointer::struct_size(t.tag);
        let words = u64::from(size.total_words());
        let (start, object) = bounds_words(t.seg, t.segment, t.start, words)?;
        self.ctx.charge(words)?;
        let data = object.get(..usize::from(size.data_words)).unwrap_or(&[]);
        let ptr = start + usize::from(size.data_words);
        Ok(StructReader {
            ctx: self.ctx,
            seg: t.seg,
            segment: t.segment,
            data: Word::slice_as_bytes(data),
            pointers: words_at(t.seg, ptr, usize::from(size.pointers)),
            nesting,
        })
    }

    /// The list this pointer points to, checked to be readable as elements
    /// of `expected` size (a struct list may be read as a primitive list of
    /// its first field, and the other way round, as the spec allows); an
    /// empty list when null.
    ///
    /// # Errors
    /// Not a list pointer, elements incompatible with `expected`, out of
    /// bounds, a bad inline-composite tag, or a limit exceeded.
    #[inline(always)]
    pub fn get_list(&self, expected: ElementSize) -> Result<ListReader<'a>> {
        let list = self.get_list_any()?;
        list.check_compatible(expected)?;
        Ok(list)
    }

    /// The list this pointer points to, whatever its element size.
    ///
    /// # Errors
    /// As [`get_list`](Self::get_list), less the element size check.
    #[inline(always)]
    pub fn get_list_any(&self) -> Result<ListReader<'a>> {
        let t = match self.resolve()? {
            Resolved::Null => return Ok(ListReader::empty(self.ctx, self.nesting)),
            Resolved::Object(t) => t,
            Resolved::Other(w) => return Err(unexpected(PointerKind::List, w)),
        };
        if pointer::kind(t.tag) != KIND_LIST {
            return Err(unexpected(PointerKind::List, t.tag));
        }
        let nesting = self.descend()?;
        let size = pointer::list_element_size(t.tag);
        let count = pointer::list_count(t.tag);
        if size == ElementSize::InlineComposite {
            let start = bounds(t.seg, t.segment, t.start, count + 1)?;
            let tag = word_at(t.seg, start);
            let bad = |what| Error::BadCompositeTag {
                what,
                elements: pointer::tag_element_count(tag),
                element_words: u64::from(pointer::struct_size(tag).total_words()),
                list_words: count,
            };
            if pointer::kind(tag) != KIND_STRUCT {
                return Err(bad("tag word is not struct-shaped"));
            }
            let elements = pointer::tag_element_count(tag);
            let es = pointer::struct_size(tag);
            let per = u64::from(es.total_words());
            // `elements < 2^30` and `per < 2^17`: the product fits in u64.
            if elements * per > count {
                return Err(bad("elements overrun the list's words"));
            }
            self.ctx.charge(elements * per.max(1))?;
            Ok(ListReader {
                ctx: self.ctx,
                seg: t.seg,
                segment: t.segment,
                start_bit: (start as u64 + 1) * 64,
                len: elements as u32,
                step_bits: per * 64,
                data_bits: u32::from(es.data_words) * 64,
                ptrs: es.pointers,
                size,
                nesting,
            })
        } else {
            let bits = u64::from(size.data_bits()) + 64 * u64::from(size.pointers());
            // `count < 2^29` and `bits <= 64`: no overflow.
            let words = (count * bits).div_ceil(64);
            let start = bounds(t.seg, t.segment, t.start, words)?;
            self.ctx.charge(if bits == 0 { count } else { words })?;
            Ok(ListReader {
                ctx: self.ctx,
                seg: t.seg,
                segment: t.segment,
                start_bit: start as u64 * 64,
                len: count as u32,
                step_bits: bits,
                data_bits: size.data_bits(),
                ptrs: size.pointers() as u16,
                size,
                nesting,
            })
        }
    }

    /// The bytes of a `Data` blob (a list of bytes); empty when null.
    ///
    /// # Errors
    /// Not a list of bytes, out of bounds, or a limit exceeded.
    pub fn get_data(&self) -> Result<&'a [u8]> {
        // Fast path for a list of bytes: the same checks as
        // `get_list_any` followed by `as_bytes`, in the same order, without
        // building the generic list. Everything else takes that generic path.
        if let Resolved::Object(t) = self.resolve()? {
            if pointer::kind(t.tag) == KIND_LIST
                && pointer::list_element_size(t.tag) == ElementSize::Byte
            {
                self.descend()?;
                let count = pointer::list_count(t.tag);
                let words = count.div_ceil(8);
                let start = bounds(t.seg, t.segment, t.start, words)?;
                self.ctx.charge(words)?;
                let from = start * 8;
                return Word::slice_as_bytes(t.seg)
                    .get(from..from + count as usize)
                    .ok_or(Error::OutOfBounds {
                        segment: t.segment,
                        start: start as i64,
                        len: words,
                        segment_len: t.seg.len() as u64,
                    });
            }
        }
        let list = self.get_list_any()?;
        list.as_bytes()
    }

    /// The bytes of a `Text`, without its NUL terminator and without a
    /// UTF-8 check; empty when null.
    ///
    /// # Errors
    /// As [`get_data`](Self::get_data), or the text is not NUL-terminated.
    pub fn get_text_bytes(&self) -> Result<&'a [u8]> {
        if self.is_null() {
            return Ok(&[]);
        }
        let bytes = self.get_data()?;
        match bytes.split_last() {
            Some((0, text)) => Ok(text),
            _ => Err(Error::TextNotTerminated {
                len: bytes.len() as u64,
            }),
        }
    }

    /// A `Text` as `&str`; empty when null.
    ///
    /// # Errors
    /// As [`get_text_bytes`](Self::get_text_bytes), or not valid UTF-8.
    pub fn get_text(&self) -> Result<&'a str> {
        let bytes = self.get_text_bytes()?;
        core::str::from_utf8(bytes).map_err(|e| Error::Utf8 {
            valid_up_to: e.valid_up_to(),
        })
    }

    /// The index of a capability pointer in the message's capability table.
    ///
    /// # Errors
    /// Not a capability pointer.
    pub fn get_capability(&self) -> Result<u32> {
        match self.resolve()? {
            Resolved::Other(w) if (w as u32) == KIND_OTHER as u32 => {
                Ok(pointer::capability_index(w))
            }
            Resolved::Other(w) => Err(unexpected(PointerKind::Capability, w)),
            Resolved::Null => Err(unexpected(PointerKind::Capability, 0)),
            Resolved::Object(t) => Err(unexpected(PointerKind::Capability, t.tag)),
        }
    }
}

fn unexpected(expected: PointerKind, found: u64) -> Error {
    Error::UnexpectedPointer {
        expected,
        found: pointer::pointer_kind(found),
    }
}

/// A struct inside a message being read.
///
/// Fields past the end of the struct's sections read as their defaults, so
/// a reader compiled against a newer schema reads older messages.
#[derive(Clone, Copy)]
pub struct StructReader<'a> {
    ctx: &'a ReadContext<'a>,
    seg: &'a [Word],
    segment: u32,
    /// The data section's bytes, cut out of `seg` when the struct was
    /// reached (its bounds checked then), so a field read checks its offset
    /// against this length only: for the elements of one list that length
    /// is the same every time, and the check leaves the loop.
    data: &'a [u8],
    /// The pointer section's words as byte arrays (so that it can be cut
    /// out of a list's bytes as well as out of its words), cut out of
    /// `seg` when the struct was reached (its bounds checked then), so a
    /// pointer read checks its index against this length only: for the
    /// elements of one list that length is the same every time, and the
    /// check leaves the loop. Its position in `seg` (where a near
    /// pointer's offset counts from) is found from the two slices'
    /// addresses ([`word_index`]).
    pointers: &'a [[u8; 8]],
    nesting: u32,
}

/// The index in `seg` of the word at `at`, the address of a word of
/// `seg`: the distance between their addresses, in words. Safe arithmetic
/// on addresses; every reader that holds a pointer section holds the
/// segment it was cut out of, so the distance is an index into `seg` (and a
/// wrong one could only send a near pointer to a target that its bounds
/// check against `seg` refuses, never read outside `seg`).
#[inline(always)]
fn word_index(seg: &[Word], at: *const [u8; 8]) -> usize {
    let from = seg.as_ptr().addr();
    at.addr().wrapping_sub(from) / core::mem::size_of::<Word>()
}

/// Words `[start, start + len)` of `seg` as byte arrays; empty past its
/// end.
#[inline(always)]
fn words_at(seg: &[Word], start: usize, len: usize) -> &[[u8; 8]] {
    word_arrays(seg.get(start..start.saturating_add(len)).unwrap_or(&[]))
}

/// `words` as byte arrays (the same length: no check).
#[inline(always)]
fn word_arrays(words: &[Word]) -> &[[u8; 8]] {
    bytemuck::cast_slice(words)
}

impl<'a> StructReader<'a> {
    /// A reader over a struct of `size` whose data section starts at word
    /// `data` of segment `segment`, as a builder placed it.
    pub(crate) fn at_builder(
        ctx: &'a ReadContext<'a>,
        segment: u32,
        data: u32,
        size: StructSize,
    ) -> Self {
        let seg = ctx.segment(segment).unwrap_or(&[]);
        let ptr = data as usize + usize::from(size.data_words);
        StructReader {
            ctx,
            seg,
            segment,
            data: data_section(seg, data as usize, usize::from(size.data_words)),
            pointers: words_at(seg, ptr, usize::from(size.pointers)),
            nesting: ctx.limits.nesting_limit,
        }
    }

    fn empty(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
        StructReader {
            ctx,
            seg: &[],
            segment: 0,
            data: &[],
            pointers: &[],
            nesting,
        }
    }

    /// The message's read context.
    #[inline(always)]
    pub(crate) fn context(&self) -> &'a ReadContext<'a> {
        self.ctx
    }

    /// Bits in the data section (a multiple of 64, except for elements of a
    /// primitive list read as structs).
    pub fn data_bits(&self) -> u32 {
        // At most 2^16 words of 64 bits: no overflow.
        (self.data.len() * 8) as u32
    }

    /// Pointers in the pointer section.
    pub fn pointer_count(&self) -> u16 {
        // At most 2^16 - 1 pointers: no truncation.
        self.pointers.len() as u16
    }

    /// The struct's size in words, for a struct read from a struct pointer
    /// or struct list.
    pub fn size(&self) -> StructSize {
        StructSize::new(self.data.len().div_ceil(8) as u16, self.pointer_count())
    }

    /// The data section's bytes.
    #[inline]
    pub fn data_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The value at `index` (in units of `T`'s size); 0 past the data
    /// section.
    #[inline]
    pub fn get<T: Primitive>(&self, index: usize) -> T {
        // The one check is against the data section's length (constant
        // over a list's elements); `load` refuses an offset that overflows.
        match index.checked_mul(T::BYTES) {
            Some(at) => load(self.data, at).unwrap_or(T::from_bits(0)),
            None => T::from_bits(0),
        }
    }

    /// The value at `index` XOR `default`: how a field with a schema
    /// default is stored.
    #[inline]
    pub fn get_or<T: Primitive>(&self, index: usize, default: T) -> T {
        T::from_bits(self.get::<T>(index).to_bits() ^ default.to_bits())
    }

    /// The bit at `bit` of the data section; `false` past it.
    #[inline]
    pub fn get_bool(&self, bit: usize) -> bool {
        self.data
            .get(bit / 8)
            .is_some_and(|b| b & (1 << (bit % 8)) != 0)
    }

    /// The bit at `bit` XOR `default`.
    #[inline]
    pub fn get_bool_or(&self, bit: usize, default: bool) -> bool {
        self.get_bool(bit) ^ default
    }

    /// Pointer `index` of the pointer section; null past it.
    #[inline]
    pub fn pointer(&self, index: usize) -> PointerReader<'a> {
        match self.pointers.get(index) {
            Some(word) => PointerReader {
                ctx: self.ctx,
                seg: self.seg,
                segment: self.segment,
                pos: word_index(self.seg, word),
                word: u64::from_le_bytes(*word),
                nesting: self.nesting,
            },
            None => PointerReader::null(self.ctx, self.nesting),
        }
    }

    /// Where the pointer section is, for a copy: the segment's words, its
    /// number, the word of pointer 0 and the nesting its pointers are read
    /// at (as [`pointer`](Self::pointer) reads them).
    #[inline(always)]
    pub(crate) fn pointer_section(&self) -> (&'a [Word], u32, u32, u32) {
        let first = match self.pointers {
            [] => 0,
            p => word_index(self.seg, p.as_ptr()) as u32,
        };
        (self.seg, self.segment, first, self.nesting)
    }

    /// Whether pointer `index` is non-null.
    pub fn has_pointer(&self, index: usize) -> bool {
        !self.pointer(index).is_null()
    }

    /// The struct at pointer `index`. See [`PointerReader::get_struct`].
    ///
    /// # Errors
    /// As [`PointerReader::get_struct`].
    #[inline]
    pub fn get_struct(&self, index: usize) -> Result<StructReader<'a>> {
        self.pointer(index).get_struct()
    }

    /// The list at pointer `index`. See [`PointerReader::get_list`].
    ///
    /// # Errors
    /// As [`PointerReader::get_list`].
    #[inline]
    pub fn get_list(&self, index: usize, expected: ElementSize) -> Result<ListReader<'a>> {
        self.pointer(index).get_list(expected)
    }

    /// The text at pointer `index`. See [`PointerReader::get_text`].
    ///
    /// # Errors
    /// As [`PointerReader::get_text`].
    pub fn get_text(&self, index: usize) -> Result<&'a str> {
        self.pointer(index).get_text()
    }

    /// The data at pointer `index`. See [`PointerReader::get_data`].
    ///
    /// # Errors
    /// As [`PointerReader::get_data`].
    pub fn get_data(&self, index: usize) -> Result<&'a [u8]> {
        self.pointer(index).get_data()
    }
}

/// A list inside a message being read.
#[derive(Clone, Copy)]
pub struct ListReader<'a> {
    ctx: &'a ReadContext<'a>,
    seg: &'a [Word],
    segment: u32,
    /// Bit offset of element 0 in `seg`.
    start_bit: u64,
    len: u32,
    step_bits: u64,
    data_bits: u32,
    ptrs: u16,
    size: ElementSize,
    nesting: u32,
}

impl<'a> ListReader<'a> {
    /// A reader over a list under construction: `len` elements of `size`
    /// (each `step_bits` long, `data_bits` of data then `ptrs` pointers)
    /// from word `start` of segment `segment`, read at the context's
    /// nesting limit.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn at_builder(
        ctx: &'a ReadContext<'a>,
        segment: u32,
        start: u32,
        len: u32,
        size: ElementSize,
        step_bits: u64,
        data_bits: u32,
        ptrs: u16,
    ) -> Self {
        let seg = ctx.segment(segment).unwrap_or(&[]);
        ListReader {
            ctx,
            seg,
            segment,
            start_bit: u64::from(start) * 64,
            len,
            step_bits,
            data_bits,
            ptrs,
            size,
            nesting: ctx.limits.nesting_limit,
        }
    }

    fn empty(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
        ListReader {
            ctx,
            seg: &[],
            segment: 0,
            start_bit: 0,
            len: 0,
            step_bits: 0,
            data_bits: 0,
            ptrs: 0,
            size: ElementSize::Void,
            nesting,
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// The message's read context.
    #[inline(always)]
    pub(crate) fn context(&self) -> &'a ReadContext<'a> {
        self.ctx
    }

    /// Words the list's elements span (the tag of a struct list not
    /// included).
    #[inline(always)]
    pub(crate) fn span_words(&self) -> u64 {
        (u64::from(self.len) * self.step_bits).div_ceil(64)
    }

    /// Words reading the list took from the traversal budget: its span,
    /// or a word per element when its elements take no space.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn charged_words(&self) -> u64 {
        match self.span_words() {
            0 => u64::from(self.len),
            span => span,
        }
    }

    /// Whether the list has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element size as encoded on the wire.
    pub fn element_size(&self) -> ElementSize {
        self.size
    }

    /// For a struct list, the size of each element.
    pub fn struct_size(&self) -> StructSize {
        StructSize::new(self.data_bits.div_ceil(64) as u16, self.ptrs)
    }

    pub(crate) fn check_compatible(&self, expected: ElementSize) -> Result<()> {
        let found_bits = self.data_bits;
        let found_ptrs = u32::from(self.ptrs);
        let mismatch = |note| Error::IncompatibleList {
            expected_data_bits: expected.data_bits(),
            expected_pointers: expected.pointers(),
            found_data_bits: found_bits,
            found_pointers: found_ptrs,
            bit_note: note,
        };
        if self.len == 0 {
            return Ok(()); // an empty list (or a null pointer) reads as any list
        }
        match expected {
            ElementSize::Void => Ok(()),
            ElementSize::Bit => {
                if self.size == ElementSize::Bit {
                    Ok(())
                } else {
                    Err(mismatch(", expected a bit list"))
                }
            }
            ElementSize::InlineComposite => {
                if self.size == ElementSize::Bit {
                    Err(mismatch(", a bit list"))
                } else {
                    Ok(())
                }
            }
            _ => {
                if self.size == ElementSize::Bit {
                    Err(mismatch(", a bit list"))
                } else if found_bits >= expected.data_bits() && found_ptrs >= expected.pointers() {
                    Ok(())
                } else {
                    Err(mismatch(""))
                }
            }
        }
    }

    #[inline]
    fn element_bit(&self, index: u32) -> u64 {
        assert!(
            index < self.len,
            "list index {index} out of range for length {}",
            self.len
        );
        self.start_bit + u64::from(index) * self.step_bits
    }

    /// Element `index` as a `T`; 0 when the elements hold fewer bits.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get<T: Primitive>(&self, index: u32) -> T {
        let bit = self.element_bit(index);
        if (T::BYTES as u32) * 8 > self.data_bits {
            return T::from_bits(0);
        }
        load(Word::slice_as_bytes(self.seg), (bit / 8) as usize).unwrap_or(T::from_bits(0))
    }

    /// Element `index` of a bit list (or bit 0 of each element of a wider
    /// list).
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get_bool(&self, index: u32) -> bool {
        let bit = self.element_bit(index);
        if self.data_bits == 0 {
            return false;
        }
        let bytes = Word::slice_as_bytes(self.seg);
        bytes
            .get((bit / 8) as usize)
            .is_some_and(|b| b & (1 << (bit % 8)) != 0)
    }

    /// Element `index` as a struct.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get_struct(&self, index: u32) -> StructReader<'a> {
        let bit = self.element_bit(index);
        if self.size == ElementSize::Bit {
            return StructReader::empty(self.ctx, self.nesting);
        }
        let from = (bit / 8) as usize;
        let data = Word::slice_as_bytes(self.seg)
            .get(from..from + (self.data_bits / 8) as usize)
            .unwrap_or(&[]);
        StructReader {
            ctx: self.ctx,
            seg: self.seg,
            segment: self.segment,
            data,
            pointers: words_at(
                self.seg,
                ((bit + u64::from(self.data_bits)) / 64) as usize,
                usize::from(self.ptrs),
            ),
            nesting: self.nesting,
        }
    }

    /// Element `index` as a pointer (the first pointer of a struct element);
    /// null when the elements hold no pointer.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get_pointer(&self, index: u32) -> PointerReader<'a> {
        let bit = self.element_bit(index);
        if self.ptrs == 0 {
            return PointerReader::null(self.ctx, self.nesting);
        }
        let pos = ((bit + u64::from(self.data_bits)) / 64) as u32;
        PointerReader::at(self.ctx, self.seg, self.segment, pos, self.nesting)
    }

    /// Where element 0's pointers are, for a copy: the segment's words, its
    /// number, the word of element 0's first pointer and the nesting its
    /// pointers are read at (as [`get_pointer`](Self::get_pointer) reads
    /// them). Element `i`'s pointers start `i` element steps further.
    #[inline(always)]
    pub(crate) fn pointer_section(&self) -> (&'a [Word], u32, u32, u32) {
        let first = ((self.start_bit + u64::from(self.data_bits)) / 64) as u32;
        (self.seg, self.segment, first, self.nesting)
    }

    /// Element `index` as a text. See [`PointerReader::get_text`].
    ///
    /// # Errors
    /// As [`PointerReader::get_text`].
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get_text(&self, index: u32) -> Result<&'a str> {
        self.get_pointer(index).get_text()
    }

    /// Element `index` as data. See [`PointerReader::get_data`].
    ///
    /// # Errors
    /// As [`PointerReader::get_data`].
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get_data(&self, index: u32) -> Result<&'a [u8]> {
        self.get_pointer(index).get_data()
    }

    /// Element `index` as a list. See [`PointerReader::get_list`].
    ///
    /// # Errors
    /// As [`PointerReader::get_list`].
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get_list(&self, index: u32, expected: ElementSize) -> Result<ListReader<'a>> {
        self.get_pointer(index).get_list(expected)
    }

    /// The bytes of a list of bytes, with no copy.
    ///
    /// # Errors
    /// The elements are not single bytes.
    pub fn as_bytes(&self) -> Result<&'a [u8]> {
        if self.len == 0 {
            return Ok(&[]);
        }
        if self.size != ElementSize::Byte {
            return Err(Error::IncompatibleList {
                expected_data_bits: 8,
                expected_pointers: 0,
                found_data_bits: self.data_bits,
                found_pointers: u32::from(self.ptrs),
                bit_note: if self.size == ElementSize::Bit {
                    ", a bit list"
                } else {
                    ""
                },
            });
        }
        let start = (self.start_bit / 8) as usize;
        Word::slice_as_bytes(self.seg)
            .get(start..start + self.len as usize)
            .ok_or(Error::OutOfBounds {
                segment: self.segment,
                start: (self.start_bit / 64) as i64,
                len: u64::from(self.len).div_ceil(8),
                segment_len: self.seg.len() as u64,
            })
    }

    /// The raw bytes spanned by the elements of a list of data (not
    /// pointers or structs), for copying.
    #[inline]
    pub(crate) fn raw_data_bytes(&self) -> &'a [u8] {
        let start = (self.start_bit / 8) as usize;
        let len = (u64::from(self.len) * self.step_bits).div_ceil(8) as usize;
        Word::slice_as_bytes(self.seg)
            .get(start..start + len)
            .unwrap_or(&[])
    }

    /// The bytes of the whole words spanned by the elements of a list of
    /// data (not pointers or structs), for copying: the elements, then the
    /// padding to the end of the last word.
    #[inline]
    pub(crate) fn raw_words_bytes(&self) -> &'a [u8] {
        let start = (self.start_bit / 8) as usize;
        let len = self.span_words() as usize * 8;
        Word::slice_as_bytes(self.seg)
            .get(start..start + len)
            .unwrap_or(&[])
    }
}

/// The elements of a list read as structs, front to back (or back to
/// front), each as [`ListReader::get_struct`] reads it.
///
/// The list's words were bounds-checked when the list was read, so when
/// its elements are whole bytes the iterator cuts them out of those bytes
/// with `chunks_exact`, paired with their indices: element `i` is the
/// list's bytes from `i` steps on, with no bounds check of its own, and the
/// loop is counted by index, so LLVM knows its trip count (and may unroll
/// it). Each element's data and pointer sections are cut from its bytes at
/// the same offset every time, and the field and pointer reads on an
/// element check their offsets against those sections' lengths, the same
/// for every element, so those checks leave the loop: a pointer field read
/// in the loop loads its word from the element's own bytes.
#[derive(Clone)]
pub struct StructElements<'a> {
    list: ListReader<'a>,
    /// The elements' bytes, one chunk each, with their indices, when they
    /// are whole bytes; empty otherwise.
    chunks: Zip<ChunksExact<'a, u8>, Range<u32>>,
    /// The indices of the elements not yet yielded, when they are not
    /// whole bytes (bits, or zero-sized): those yield empty structs.
    empty: Range<u32>,
    /// Whether the elements are whole bytes (`chunks` is used, not
    /// `empty`). The same on every call, so LLVM splits the loop into one
    /// per mode.
    whole: bool,
    /// Bytes of each element's data section (when `whole`), at most the
    /// step.
    data_bytes: usize,
}

impl<'a> ListReader<'a> {
    /// The elements read as structs, in order.
    #[inline]
    pub fn struct_elements(&self) -> StructElements<'a> {
        // `step_bits <= 2^23`: the byte step fits a `u32`, and a product
        // of two `u32`s cannot overflow a 64-bit `usize` (so LLVM can fold
        // `chunks_exact`'s division by the step away).
        let step = (self.step_bits / 8) as u32;
        let whole = self.step_bits % 8 == 0 && step > 0 && self.size != ElementSize::Bit;
        let from = (self.start_bit / 8) as usize;
        let len = self.len as usize * step as usize;
        // The list's words were checked when it was read, so the slice is
        // there.
        let bytes = Word::slice_as_bytes(self.seg).get(from..from + len);
        let (bytes, step, whole) = match bytes {
            Some(b) if whole => (b, step as usize, true),
            _ => (&[][..], 1, false),
        };
        StructElements {
            list: *self,
            chunks: bytes.chunks_exact(step).zip(0..self.len),
            empty: if whole { 0..0 } else { 0..self.len },
            whole,
            // Never past the step (one element's bytes), which lets LLVM
            // drop the check that cuts each element there.
            data_bytes: ((self.data_bits / 8) as usize).min(step),
        }
    }
}

impl<'a> StructElements<'a> {
    /// The struct over one element, whose bytes are `elem`: its data
    /// section, then its pointers (none when the elements are narrower
    /// than a word: those lists hold no pointers).
    #[inline(always)]
    fn element(&self, elem: &'a [u8]) -> StructReader<'a> {
        let l = &self.list;
        let (data, rest) = elem.split_at_checked(self.data_bytes).unwrap_or((&[], &[]));
        // Whole words past the data (all of them: a list with pointers has
        // a step of whole words); cut to a multiple of 8 so that the
        // conversion folds to a shift.
        let whole_words = rest.get(..rest.len() & !7).unwrap_or(&[]);
        let pointers = bytemuck::try_cast_slice(whole_words).unwrap_or(&[]);
        StructReader {
            ctx: l.ctx,
            seg: l.seg,
            segment: l.segment,
            data,
            pointers,
            nesting: l.nesting,
        }
    }

    /// An element of a bit or void list: no data, no pointers.
    #[inline]
    fn empty_element(&self) -> StructReader<'a> {
        StructReader::empty(self.list.ctx, self.list.nesting)
    }
}

impl<'a> Iterator for StructElements<'a> {
    type Item = StructReader<'a>;
    #[inline]
    fn next(&mut self) -> Option<StructReader<'a>> {
        if self.whole {
            let (elem, _) = self.chunks.next()?;
            return Some(self.element(elem));
        }
        self.empty.next()?;
        Some(self.empty_element())
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.whole {
            self.chunks.size_hint()
        } else {
            self.empty.size_hint()
        }
    }
}

impl DoubleEndedIterator for StructElements<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.whole {
            let (elem, _) = self.chunks.next_back()?;
            return Some(self.element(elem));
        }
        self.empty.next_back()?;
        Some(self.empty_element())
    }
}

impl ExactSizeIterator for StructElements<'_> {}

/// Bulk access to lists of primitives and bools.
impl<'a> ListReader<'a> {
    /// The elements as a slice of `T`, with no copy, when they are stored
    /// as exactly `T`s (a list of `T`, or of one-field structs of a `T`
    /// with nothing else) on a little-endian target; `None` otherwise (use
    /// [`copy_to_slice`](Self::copy_to_slice)).
    ///
    /// # Errors
    /// None: a malformed list was refused when it was read.
    #[inline]
    pub fn as_slice<T: Primitive>(&self) -> Option<&'a [T]> {
        if self.len == 0 {
            return Some(&[]);
        }
        let bits = (T::BYTES * 8) as u64;
        if cfg!(target_endian = "big")
            || self.step_bits != bits
            || u64::from(self.data_bits) != bits
        {
            return None;
        }
        let start = usize::try_from(self.start_bit / 8).ok()?;
        let end = start.checked_add(self.len as usize * T::BYTES)?;
        let bytes = Word::slice_as_bytes(self.seg).get(start..end)?;
        bytemuck::try_cast_slice(bytes).ok()
    }

    /// Copies the first `out.len()` elements (at most `self.len()`) into
    /// `out`, as `T`s (0 where the elements hold fewer bits), and returns
    /// how many it copied.
    #[inline]
    pub fn copy_to_slice<T: Primitive>(&self, out: &mut [T]) -> usize {
        let n = out.len().min(self.len as usize);
        if let Some(src) = self.as_slice::<T>() {
            out[..n].copy_from_slice(&src[..n]);
            return n;
        }
        for (i, slot) in out[..n].iter_mut().enumerate() {
            *slot = self.get::<T>(i as u32);
        }
        n
    }

    /// Copies the first `out.len()` elements (at most `self.len()`) of a
    /// bit list into `out`, 64 at a time, and returns how many it copied.
    /// Elements of a wider list read as their bit 0.
    pub fn copy_bools_to_slice(&self, out: &mut [bool]) -> usize {
        let n = out.len().min(self.len as usize);
        if self.size != ElementSize::Bit {
            for (i, slot) in out[..n].iter_mut().enumerate() {
                *slot = self.get_bool(i as u32);
            }
            return n;
        }
        let start = (self.start_bit / 8) as usize;
        let bytes = Word::slice_as_bytes(self.seg)
            .get(start..start + n.div_ceil(8))
            .unwrap_or(&[]);
        for (chunk, src) in out[..n].chunks_mut(64).zip(bytes.chunks(8)) {
            let mut word = [0u8; 8];
            word[..src.len()].copy_from_slice(src);
            let bits = u64::from_le_bytes(word);
            for (k, slot) in chunk.iter_mut().enumerate() {
                *slot = (bits >> k) & 1 != 0;
            }
        }
        n
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A struct reader's fields: data address and length, segment, pointer
    /// section, pointers, nesting, segment address.
    type Fields = (usize, usize, u32, usize, usize, u32, usize);

    /// What a struct read gave, comparable: the reader's every field, or
    /// the error with its numbers.
    fn seen(r: Result<StructReader<'_>>) -> Result<Fields, String> {
        match r {
            Ok(s) => Ok((
                s.data.as_ptr() as usize,
                s.data.len(),
                s.segment,
                s.pointers.as_ptr() as usize,
                s.pointers.len(),
                s.nesting,
                s.seg.as_ptr() as usize,
            )),
            Err(e) => Err(format!("{e:?}")),
        }
    }

    fn struct_ptr(offset: i32, data: u16, ptrs: u16) -> u64 {
        u64::from((offset << 2) as u32) | u64::from(data) << 32 | u64::from(ptrs) << 48
    }

    fn far_ptr(double: bool, pad: u32, segment: u32) -> u64 {
        2 | u64::from(double) << 2 | u64::from(pad) << 3 | u64::from(segment) << 32
    }

    /// Pointer words of every kind: near struct pointers with offsets and
    /// sizes at and past every edge, null, lists, far and double-far
    /// pointers, capabilities.
    fn words() -> Vec<u64> {
        let offsets: &[i32] = if cfg!(miri) {
            &[-2, -1, 0, 1, 3]
        } else {
            &[-(1 << 29), -3, -2, -1, 0, 1, 2, 3, 5, (1 << 29) - 1]
        };
        let sizes: &[u16] = if cfg!(miri) {
            &[0, 1, 2]
        } else {
            &[0, 1, 2, 3, 0xFFFF]
        };
        let mut out = Vec::new();
        for &o in offsets {
            for &d in sizes {
                for &p in sizes {
                    out.push(struct_ptr(o, d, p));
                }
            }
        }
        out.extend([
            0,
            1 | 5 << 32 | 3 << 35,
            far_ptr(false, 0, 0),
            far_ptr(false, 1, 1),
            far_ptr(true, 0, 1),
            far_ptr(false, 2, 7),
            3,
        ]);
        out
    }

    fn core(traversal: u64, nesting: u32) -> ReaderOptionsCore {
        ReaderOptionsCore {
            traversal_limit_words: traversal,
            nesting_limit: nesting,
        }
    }

    const TRAVERSALS: [u64; 5] = [0, 1, 2, 4, 1 << 23];
    const NESTINGS: [u32; 3] = [0, 1, 64];

    /// Under Miri (which runs these tests for the unsafe code beneath the
    /// reader), the edges of each range only: every third pointer word,
    /// the extreme and middle limits. Natively, all of them.
    fn sample<T: Copy>(all: &[T]) -> Vec<T> {
        if cfg!(miri) {
            all.iter().copied().step_by(2).collect()
        } else {
            all.to_vec()
        }
    }

    fn sampled_words() -> Vec<u64> {
        let all = words();
        if cfg!(miri) {
            all.into_iter().step_by(3).collect()
        } else {
            all
        }
    }

    /// The inline root read (`root_struct`) gives what the general path
    /// gives, the same reader or the same error with its numbers, and
    /// leaves the same traversal budget, for root words of every kind in
    /// segments of every length up to 6 words, alone or with a second
    /// segment that far pointers can land in, at every traversal and
    /// nesting limit around the object's size.
    #[test]
    fn inline_root_read_matches_the_general_path() {
        let other: Vec<Word> = [struct_ptr(0, 1, 0), 7, struct_ptr(-1, 1, 0), 0]
            .map(Word::from_u64)
            .to_vec();
        let mut checked = 0;
        for w in sampled_words() {
            for len in sample(&[0, 1, 2, 3, 4, 5, 6usize]) {
                let mut seg = alloc::vec![Word::from_u64(0x0101_0101_0101_0101); len];
                if let Some(first) = seg.first_mut() {
                    *first = Word::from_u64(w);
                }
                let two = [&seg[..], &other[..]];
                for t in sample(&TRAVERSALS) {
                    for n in sample(&NESTINGS) {
                        for store in [0, 1] {
                            let make = || match store {
                                0 => ReadContext::one(&seg, core(t, n)),
                                _ => ReadContext::new(SegStore::Slices(&two), core(t, n)),
                            };
                            let (fast, general) = (make(), make());
                            let a = seen(fast.root_struct());
                            let b = seen(general.root_struct_general());
                            assert_eq!(a, b, "root {w:#x}, {len} words, limits {t}/{n}");
                            assert_eq!(
                                fast.traversal_remaining(),
                                general.traversal_remaining(),
                                "root {w:#x}, {len} words, limits {t}/{n}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > if cfg!(miri) { 100 } else { 1000 });
    }

    /// A struct pointer read inside a segment (`get_struct`, inline for
    /// near struct pointers) gives what the general path gives, with the
    /// same budget left, for pointers of every kind at every word of a
    /// 6-word segment.
    #[test]
    fn inline_struct_read_matches_the_general_path() {
        for w in sampled_words() {
            for pos in sample(&[0, 1, 2, 3, 4, 5u32]) {
                let mut seg = alloc::vec![Word::from_u64(0x0202_0202_0202_0202); 6];
                seg[pos as usize] = Word::from_u64(w);
                for t in sample(&TRAVERSALS) {
                    for n in sample(&NESTINGS) {
                        let fast = ReadContext::one(&seg, core(t, 64));
                        let general = ReadContext::one(&seg, core(t, 64));
                        let a = PointerReader::at(&fast, &seg, 0, pos, n).get_struct();
                        let b = PointerReader::at(&general, &seg, 0, pos, n).get_struct_general();
                        let ctx = format!("pointer {w:#x} at {pos}, limits {t}/{n}");
                        assert_eq!(seen(a), seen(b), "{ctx}");
                        assert_eq!(
                            fast.traversal_remaining(),
                            general.traversal_remaining(),
                            "{ctx}"
                        );
                    }
                }
            }
        }
    }

    /// A framed message of several segments read in place
    /// (`SegStore::Framed`) finds its segments where the store says they
    /// end: every segment is the words between, no other id is one, and
    /// the root's segment is the first.
    #[test]
    fn framed_store_finds_each_segment_by_its_end() {
        let body: Vec<Word> = (0..10u64).map(Word::from_u64).collect();
        // Three segments of 2, 0 and 8 words.
        // Three segments of 2, 0 and 8 words.
        let ctx = ReadContext::new(
            SegStore::Framed {
                body: &body,
                ends: [2, 2, 0, 0, 0, 0, 0],
                count: 3,
            },
            core(100, 64),
        );
        assert_eq!(ctx.segment_count(), 3);
        assert_eq!(ctx.segment(0), Some(&body[..2]));
        assert_eq!(ctx.segment(1), Some(&body[2..2]));
        assert_eq!(ctx.segment(2), Some(&body[2..]));
        assert_eq!(ctx.segment(3), None);
    }

    /// The context keeps segment 0 apart from its store (the root is read
    /// from there): for every kind of store, it is the store's segment 0,
    /// the root read from it is the one written there, and a store with
    /// no segment gives the missing-segment error, not a root.
    #[test]
    fn root_comes_from_segment_zero_of_every_store() {
        let a: Vec<Word> = [struct_ptr(0, 1, 0), 42].map(Word::from_u64).to_vec();
        let b = alloc::vec![Word::from_u64(7); 3];
        let both: Vec<Word> = a.iter().chain(&b).copied().collect();
        let two = [&a[..], &b[..]];
        let stores = [
            SegStore::Slices(&two),
            SegStore::snapshot_of(2, |id| two[id as usize]),
            SegStore::Framed {
                body: &both,
                ends: [2, 0, 0, 0, 0, 0, 0],
                count: 2,
            },
            SegStore::Heap(two.to_vec().into_boxed_slice()),
            SegStore::BuiltHeap(two.to_vec().into_boxed_slice()),
        ];
        for (i, store) in stores.into_iter().enumerate() {
            let ctx = ReadContext::new(store, core(100, 64));
            assert_eq!(ctx.segment(0), Some(&a[..]), "store {i}");
            assert_eq!(ctx.segment(1), Some(&b[..]), "store {i}");
            let root = ctx.root_struct().expect("a root");
            assert_eq!(root.get::<u64>(0), 42, "store {i}");
        }
        let one = ReadContext::one(&a, core(100, 64));
        assert_eq!(one.segment(0), Some(&a[..]));
        assert_eq!(one.segment(1), None);
        assert_eq!(one.root_struct().expect("a root").get::<u64>(0), 42);
        let none = ReadContext::new(SegStore::Slices(&[]), core(100, 64));
        assert!(matches!(
            none.root_struct(),
            Err(Error::MissingSegment {
                segment: 0,
                count: 0
            })
        ));
    }
}
