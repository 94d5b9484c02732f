//! Arenas: where a message's words live.
//!
//! An [`Arena`] hands out zeroed words in one or more segments and forgets
//! them on [`Arena::reset`]. It knows nothing of pointers; [`Message`]
//! does all the encoding on top.
//!
//! [`Message`]: crate::Message

mod fixed;
#[cfg(feature = "alloc")]
mod multi;
#[cfg(feature = "alloc")]
mod single;

pub use fixed::FixedArena;
#[cfg(feature = "alloc")]
pub use multi::{GrowthPolicy, MultiSegmentArena};
#[cfg(feature = "alloc")]
pub use single::SingleSegmentArena;

use crate::word::Word;

/// Up to this many words written since the last reset, the built-in arenas
/// that zero on allocation zero them on `reset` instead, in one pass over
/// memory that is still in cache: rebuilding small messages then zeroes
/// nothing per allocation. Past it, `reset` forgets and allocations zero
/// (or, overwritten, skip) their words where they are about to be written.
pub(crate) const EAGER_RESET_WORDS: usize = 4096;

/// Zeroes `words`: short runs (a struct, a pointer, a landing pad) with
/// plain stores, longer ones with `fill`.
#[inline(always)]
pub(crate) fn zero_words(words: &mut [Word]) {
    match words {
        [] => {}
        [a] => *a = Word::ZERO,
        [a, b] => [*a, *b] = [Word::ZERO; 2],
        [a, b, c] => [*a, *b, *c] = [Word::ZERO; 3],
        [a, b, c, d] => [*a, *b, *c, *d] = [Word::ZERO; 4],
        _ => words.fill(Word::ZERO),
    }
}

/// Proof that an arena value holds none of the words it hands out (they
/// are on the heap, or in a buffer it borrows), made only by this crate's
/// arenas ([`SingleSegmentArena`], [`MultiSegmentArena`], [`FixedArena`]),
/// each for itself; see [`Arena::words_outside`].
///
/// It names the value it was made for (its address and size) and is
/// accepted only for that value, so an arena that returns another's proof
/// gains nothing: builders test its words as they test any arena's. It
/// lives no longer than a borrow of that value, so no other value can be
/// at that address while it does (one containing it at the same address
/// is larger, one it contains smaller).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WordsOutside<'a> {
    addr: usize,
    size: usize,
    arena: core::marker::PhantomData<&'a ()>,
}

impl<'a> WordsOutside<'a> {
    /// The proof for `arena`, a built-in arena whose words never lie inside
    /// its own value.
    #[inline(always)]
    fn of<A>(arena: &'a A) -> Self {
        WordsOutside {
            addr: core::ptr::from_ref(arena).addr(),
            size: core::mem::size_of::<A>(),
            arena: core::marker::PhantomData,
        }
    }

    /// Whether this proves it for `arena`, the value it was made for.
    #[inline(always)]
    pub(crate) fn proves<A: ?Sized>(self, arena: &A) -> bool {
        self.addr == core::ptr::from_ref(arena).addr() && self.size == core::mem::size_of_val(arena)
    }
}

/// Names a segment of a message: 0 is the first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SegmentId(pub u32);

impl core::fmt::Display for SegmentId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "segment {}", self.0)
    }
}

/// An arena could not hand out the words asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// Words asked for.
    pub requested: u64,
    /// Words the arena could still hand out contiguously (0 when unknown).
    pub available: u64,
}

impl core::fmt::Display for AllocError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let AllocError {
            requested,
            available,
        } = self;
        write!(
            f,
            "arena cannot allocate {requested} words ({available} words available)"
        )
    }
}

impl core::error::Error for AllocError {}

/// Memory for messages: one or more segments of zeroed [`Word`]s.
///
/// `Arena` is a safe trait. A message resolves every place it names as
/// (segment, word offset) through the arena and checks it against the
/// segment's length (a struct builder keeps the result only until its next
/// call into the arena, since an arena can move or free words only while
/// it runs), so an arena that breaks the rules below can garble its own
/// message or make an operation fail, never cause undefined behaviour.
///
/// # Implementer notes
///
/// An implementation must:
/// - make [`segment`](Arena::segment) and [`segment_mut`](Arena::segment_mut)
///   return the *allocated* part of each segment: words `[0, used)`, where
///   every word handed out by `allocate` lies below `used`;
/// - make [`allocate`](Arena::allocate) return `len` contiguous words that
///   are all zero, in segment `hint` when it has room and elsewhere (another
///   existing segment, or a new one numbered `segment_count()`) otherwise,
///   or `Err(AllocError)` when it cannot; never panic for lack of room;
/// - after [`reset`](Arena::reset), report `segment_count() == 0` until the
///   next allocation, and make the first allocation after a reset (or on a
///   new arena) return segment 0 at offset 0, holding the requested words;
/// - never change words it has handed out, except on `reset`.
///
/// An implementation may choose:
/// - how segments grow: reallocate and copy a single segment (handles are
///   offsets, so moved words stay valid), or add new segments;
/// - when to zero: on `reset` (zero what was used) or on `allocate`
///   (then [`allocate_overwritten`](Arena::allocate_overwritten) can skip
///   it);
/// - to keep or release memory on `reset` (keeping it is what makes reuse
///   free of allocation);
/// - to report each segment's [`room`](Arena::room), so that objects
///   behind far pointers get their landing pads in the same allocation
///   (an arena with more than one segment should: see that method), to
///   [`allocate_in`](Arena::allocate_in) a given segment, which makes
///   that cost nothing on the common path, and to
///   [`allocate_far_mut`](Arena::allocate_far_mut), which places an object
///   behind a far pointer with one call.
///
/// An implementation must never assume:
/// - anything about what the words mean, or that allocations are ever
///   freed one by one: only `reset` forgets them.
///
/// # Examples
///
/// A minimal arena: one segment in a `Vec`, capped at a number of words.
/// It zeroes on `allocate` and keeps its memory on `reset`.
///
/// ```
/// use capnarena::{AllocError, Arena, Message, SegmentId, StructSize, Word};
///
/// struct CappedArena {
///     words: Vec<Word>,
///     cap: usize,
///     segments: u32, // 0 after a reset, 1 once something is allocated
/// }
///
/// impl Arena for CappedArena {
///     fn segment_count(&self) -> u32 {
///         self.segments
///     }
///     fn segment(&self, id: SegmentId) -> &[Word] {
///         if id.0 < self.segments { &self.words } else { &[] }
///     }
///     fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
///         if id.0 < self.segments { &mut self.words } else { &mut [] }
///     }
///     fn allocate(&mut self, len: u32, _hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
///         let start = self.words.len();
///         let available = self.cap - start;
///         if len as usize > available {
///             return Err(AllocError { requested: len.into(), available: available as u64 });
///         }
///         self.words.resize(start + len as usize, Word::ZERO); // zeroed words
///         self.segments = 1;
///         Ok((SegmentId(0), start as u32))
///     }
///     fn reset(&mut self) {
///         self.words.clear(); // keeps the capacity
///         self.segments = 0;
///     }
/// }
///
/// let arena = CappedArena { words: Vec::with_capacity(4), cap: 4, segments: 0 };
/// let mut msg = Message::new(arena);
/// msg.init_root_struct(StructSize::new(1, 0))?.set::<u64>(0, 42);
/// assert_eq!(msg.reader().root()?.get::<u64>(0), 42);
///
/// // Past the cap, building fails with the numbers; nothing panics.
/// msg.reset();
/// let err = msg.init_root_struct(StructSize::new(8, 0)).err().expect("past the cap");
/// assert!(matches!(err, capnarena::Error::Alloc(AllocError { requested: 8, .. })));
/// # Ok::<(), capnarena::Error>(())
/// ```
pub trait Arena {
    /// Segments allocated since the last reset.
    fn segment_count(&self) -> u32;

    /// The allocated words of segment `id` (its used part only); empty for
    /// a segment that does not exist.
    fn segment(&self, id: SegmentId) -> &[Word];

    /// The allocated words of segment `id`, mutably; empty for a segment
    /// that does not exist.
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word];

    /// Allocates `len` contiguous zeroed words, in segment `hint` when it has
    /// room, elsewhere otherwise. Returns the segment and the word offset of
    /// the first word.
    ///
    /// # Errors
    /// [`AllocError`] when the arena cannot provide the words.
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError>;

    /// Allocates as [`allocate`](Arena::allocate) does, for words the
    /// caller overwrites in full before anything reads them (text and data
    /// it copies in, segments it reads in): they need not be zero, so an
    /// arena that zeroes on allocation can skip zeroing them. The default
    /// calls `allocate`.
    ///
    /// # Errors
    /// [`AllocError`] when the arena cannot provide the words.
    #[inline]
    fn allocate_overwritten(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        self.allocate(len, hint)
    }

    /// Allocates `len` contiguous zeroed words in segment `id` itself:
    /// `Some(offset)`, or `None` when that segment lacks the room (or the
    /// arena does not do this: the default).
    ///
    /// The message asks this first for every object, in the segment of the
    /// pointer to it; an arena of several segments that implements it (and
    /// [`room`](Arena::room)) gets objects laid out as the reference lays
    /// them out at the cost of one check. Without it, the message asks
    /// `room` before each [`allocate`](Arena::allocate).
    #[inline]
    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        let _ = (len, id);
        None
    }

    /// [`allocate_in`](Arena::allocate_in), also returning segment `id`'s
    /// allocated words after the allocation, as
    /// [`segment_mut`](Arena::segment_mut) would: the message writes the
    /// new object, and the pointer to it, into them without asking again.
    /// `zeroed` is `false` when the caller overwrites every one of the new
    /// words before anything reads them (as for
    /// [`allocate_overwritten`](Arena::allocate_overwritten)).
    ///
    /// The default calls `allocate_in`, then returns `segment_mut`'s words
    /// cut to the length `segment` reports (so that what a reader sees
    /// holds every word written). An override must return the same words
    /// those two would; the message checks that the allocation lies
    /// inside them, as it checks every answer.
    #[inline]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        let _ = zeroed;
        let o = self.allocate_in(len, id)?;
        let read_len = self.segment(id).len();
        let words = self.segment_mut(id);
        let n = read_len.min(words.len());
        Some((o, words.get_mut(..n).unwrap_or(&mut [])))
    }

    /// Allocates `len` contiguous zeroed words in a segment other than
    /// `from`, where [`allocate`](Arena::allocate) would put what does not
    /// fit in `from` (the newest segment, or a new one), and returns that
    /// segment, the words' offset in it, and the allocated words of both
    /// segments after the allocation, as [`segment_mut`](Arena::segment_mut)
    /// would return them: `from`'s first, then the new words' segment's.
    /// `None` when the arena cannot place the words outside `from`, or
    /// does not do this (the default). `zeroed` is as for
    /// [`allocate_in_mut`](Arena::allocate_in_mut).
    ///
    /// The message asks this when an object does not fit in the segment of
    /// the pointer to it (after [`allocate_in_mut`](Arena::allocate_in_mut)
    /// said so), for the object and its landing pad in one piece: it then
    /// writes the far pointer, the pad and the object into the two
    /// segments' words with no further call, as cheaply as a near object.
    /// Without it, the message asks [`room`](Arena::room),
    /// [`allocate`](Arena::allocate) and both segments in turn. Returning
    /// `from` itself as the segment is refused with an error; the message
    /// checks every offset against the words returned, as it checks every
    /// answer.
    #[inline]
    #[allow(clippy::type_complexity)]
    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        let _ = (len, from, zeroed);
        None
    }

    /// How many words [`allocate`](Arena::allocate) would still place in
    /// segment `id` itself, one after the other, or `None` when the arena
    /// does not say (the default).
    ///
    /// An object that does not fit in the segment of the pointer to it
    /// goes elsewhere behind a far pointer, and that pointer needs a
    /// landing pad in the object's segment. Knowing the room, the message
    /// lays this out as the reference implementation does: when `id` lacks
    /// room for an object, it asks `allocate` for the object and its
    /// landing pad in one piece (one more word), which then lands in
    /// another segment. Without it, the message asks for the object alone
    /// and then for a landing pad next to it, which may need a segment of
    /// its own and two more words (a double-far pointer).
    ///
    /// An answer that turns out wrong costs layout, never correctness: the
    /// message checks where every allocation actually lands.
    #[inline]
    fn room(&self, id: SegmentId) -> Option<u32> {
        let _ = id;
        None
    }

    /// Forgets every allocation and keeps the memory. Later allocations
    /// must again return zeroed words.
    fn reset(&mut self);

    /// Forgets every allocation, as [`reset`](Arena::reset) does, before
    /// the message reads a message into the arena: every word it then
    /// allocates, it allocates with
    /// [`allocate_overwritten`](Arena::allocate_overwritten) and overwrites
    /// in full. An arena that zeroes what was used on `reset` can leave
    /// those words as they are here and zero them when
    /// [`allocate`](Arena::allocate) hands them out again: reading a stream
    /// into one message then zeroes nothing. Later allocations must again
    /// return zeroed words. The default calls `reset`.
    #[inline]
    fn reset_for_overwrite(&mut self) {
        self.reset();
    }

    /// A proof that this arena value holds none of the words it hands
    /// out, or `None` (the default, and the only answer an arena outside
    /// this crate can give: only the built-in arenas can make one).
    /// Builders keep a struct's data section between calls into the arena
    /// unless it lies inside the arena value (which moves with it); with
    /// the proof they skip that test.
    #[inline]
    fn words_outside(&self) -> Option<WordsOutside<'_>> {
        None
    }
}

impl<A: Arena + ?Sized> Arena for &mut A {
    #[inline]
    fn segment_count(&self) -> u32 {
        (**self).segment_count()
    }
    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        (**self).segment(id)
    }
    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        (**self).segment_mut(id)
    }
    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        (**self).allocate(len, hint)
    }
    #[inline]
    fn allocate_overwritten(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        (**self).allocate_overwritten(len, hint)
    }
    #[inline]
    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        (**self).allocate_in(len, id)
    }
    #[inline]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        (**self).allocate_in_mut(len, id, zeroed)
    }
    #[inline]
    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        (**self).allocate_far_mut(len, from, zeroed)
    }
    #[inline]
    fn room(&self, id: SegmentId) -> Option<u32> {
        (**self).room(id)
    }
    #[inline]
    fn reset(&mut self) {
        (**self).reset()
    }
    #[inline]
    fn reset_for_overwrite(&mut self) {
        (**self).reset_for_overwrite()
    }
}

#[cfg(feature = "alloc")]
impl<A: Arena + ?Sized> Arena for alloc::boxed::Box<A> {
    #[inline]
    fn segment_count(&self) -> u32 {
        (**self).segment_count()
    }
    #[inline]
    fn segment(&self, id: SegmentId) -> &[Word] {
        (**self).segment(id)
    }
    #[inline]
    fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
        (**self).segment_mut(id)
    }
    #[inline]
    fn allocate(&mut self, len: u32, hint: SegmentId) -> Result<(SegmentId, u32), AllocError> {
        (**self).allocate(len, hint)
    }
    #[inline]
    fn allocate_overwritten(
        &mut self,
        len: u32,
        hint: SegmentId,
    ) -> Result<(SegmentId, u32), AllocError> {
        (**self).allocate_overwritten(len, hint)
    }
    #[inline]
    fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
        (**self).allocate_in(len, id)
    }
    #[inline]
    fn allocate_in_mut(
        &mut self,
        len: u32,
        id: SegmentId,
        zeroed: bool,
    ) -> Option<(u32, &mut [Word])> {
        (**self).allocate_in_mut(len, id, zeroed)
    }
    #[inline]
    fn allocate_far_mut(
        &mut self,
        len: u32,
        from: SegmentId,
        zeroed: bool,
    ) -> Option<(SegmentId, u32, &mut [Word], &mut [Word])> {
        (**self).allocate_far_mut(len, from, zeroed)
    }
    #[inline]
    fn room(&self, id: SegmentId) -> Option<u32> {
        (**self).room(id)
    }
    #[inline]
    fn reset(&mut self) {
        (**self).reset()
    }
    #[inline]
    fn reset_for_overwrite(&mut self) {
        (**self).reset_for_overwrite()
    }
}
