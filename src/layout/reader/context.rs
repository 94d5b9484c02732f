//! Where readers find a message: its segments ([`SegStore`],
//! [`SegmentSource`]) and the read context ([`ReadContext`]) with its
//! limits and traversal budget.

use super::*;

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
    pub(super) first: &'a [Word],
    pub(super) store: SegStore<'a>,
    remaining: Budget,
    pub(super) limits: ReaderOptionsCore,
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
    pub(super) fn charge(&self, words: u64) -> Result<()> {
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
    pub(super) fn root_struct_general(&'a self) -> Result<StructReader<'a>> {
        self.root()?.get_struct_general()
    }

    /// The struct at `t` (a struct pointer resolved to its object), read at
    /// `nesting` levels left: the nesting level, the object's bounds and
    /// the traversal charge checked, in that order, each failure an error
    /// with its numbers (made out of line, so the checks stay a few
    /// instructions where readers are used).
    #[inline(always)]
    pub(super) fn struct_at(&'a self, t: Target<'a>, nesting: u32) -> Result<StructReader<'a>> {
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
    pub(super) fn far_struct_target(&'a self, w: u64) -> Result<Target<'a>> {
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
