//! The one address a builder keeps: a struct's data section as the arena
//! last handed it out, kept until the next call into the arena; and
//! [`KeptArena`], the only way from a struct builder to its arena, which
//! forgets that address first.
//!
//! A [`StructBuilder`](super::StructBuilder) names its struct as (segment,
//! offset) and resolves that through the arena, so an arena may move a
//! segment when it grows. Resolving before every field write costs a call
//! into the arena, the segment-0 header skip and a bounds check: on a
//! struct-heavy build that was most of the work (callgrind, the mesh
//! scenario of `benches/peers`: 508 instructions per node against capnp's
//! 389). An arena can only move or free memory while it is running, and a
//! builder holds the arena's only handle (`&mut A`), so the bytes a lookup
//! returned stay where they are until the builder calls into the arena
//! again. [`Cached`] keeps them for exactly that long.
//!
//! # The invariant, and where it is enforced
//!
//! *A kept address is used only while no call into the arena has been made
//! since the arena returned the words it points into, and it never points
//! into the arena value itself.*
//!
//! It is enforced here, by privacy, not by the builders' care:
//!
//! - A struct builder holds its arena only inside a [`KeptArena`], whose
//!   fields are private to this module. Its one way to the arena is
//!   [`KeptArena::arena`] (and [`arena_ref`](KeptArena::arena_ref),
//!   [`into_arena`](KeptArena::into_arena) for `&self` and for giving the
//!   builder up), each of which forgets the kept address first; `&self`
//!   reads forget too, since an arena may free memory behind `&self`
//!   through a `Cell`. [`reborrow`](KeptArena::reborrow) moves the kept
//!   address to the shorter-lived handle, which is the only one that may
//!   call the arena while it lives.
//! - An address is kept only from words an arena call has just returned,
//!   at three places: the lookups here ([`look_up`], through
//!   [`KeptArena::look_up_and`], and [`KeptArena::look_up_with`], whose
//!   function is handed this handle's
//!   arena, after the handle forgot, and returns what [`look_up`] kept
//!   from it); the allocation
//!   of a struct (`alloc_object`, `write_far`, `alloc_with_landing_pad` and `keep_far`
//!   in `builder/allocation.rs`, each from the last words the arena
//!   returned), whose [`Cached`] goes straight into [`KeptArena::with_kept`]
//!   with the arena it came from; and a pointer set through a struct that
//!   returns nothing borrowing the arena (a text, data, a list of them:
//!   [`KeptArena::call_and_keep`], whose [`ArenaCall`] is handed this
//!   handle's arena after it forgot, and whose allocation keeps the
//!   struct's data section, `Keep::Parent`, from the segment words it
//!   returned, after every write into them). Words inside the arena value (which move with
//!   every move of it) are never kept ([`Owner`]).
//!
//! Debug builds also check both rules: a kept address is adopted only by a
//! handle on the arena it came from, and the ways taken to the arena are
//! counted and checked, at every use of a kept address, to be none since
//! it was kept.
//!
//! In release builds a [`KeptArena`] is the `&mut A` and the kept address,
//! as the struct builder held them before: the fast paths compile to the
//! same code.

use core::cell::Cell;
use core::ptr::NonNull;

use super::primitive::Primitive;
use super::segments::BuilderSegments;
use crate::arena::{Arena, SegmentId};
use crate::word::Word;

/// A struct's data section as found by the last lookup through the arena,
/// or nothing.
///
/// Invariant, upheld by [`KeptArena`] (the only code that makes or uses
/// one): when its length is not 0, its pointer `p` is the start of that
/// many (`len`) bytes of a
/// `&mut [Word]` the arena returned from `segment_mut`; no call into the
/// arena has been made since; and the bytes do not lie inside the arena
/// value itself (only the arena's own memory is moved by a move of the
/// `&mut A` that the builder holds, and such words are not kept).
pub(crate) struct Cached {
    /// The kept bytes' start (never used when nothing is kept: dangling,
    /// or words that were not kept) and length (0 when nothing is kept:
    /// one test of an index against it serves both).
    ptr: Cell<NonNull<u8>>,
    len: Cell<usize>,
    /// The [`KeptArena`]'s count of ways taken to the arena when the
    /// address was kept (debug builds): it is used only at the same count.
    #[cfg(debug_assertions)]
    kept_at: Cell<u32>,
    /// Where the arena it was kept from starts (debug builds).
    #[cfg(debug_assertions)]
    owner: usize,
}

/// Where an arena value lies (its address and size), taken before its
/// words are borrowed.
#[derive(Clone, Copy)]
pub(crate) struct Owner {
    start: usize,
    len: usize,
}

impl Owner {
    /// The span of `arena`'s own value; empty (nothing lies inside it)
    /// when the arena proves that it holds none of its words
    /// ([`Arena::words_outside`], which only the built-in arenas can
    /// prove, each for its own value): the test then folds away.
    #[inline(always)]
    pub(crate) fn of<A: Arena + ?Sized>(arena: &A) -> Self {
        let len = if arena.words_outside().is_some_and(|p| p.proves(arena)) {
            0
        } else {
            core::mem::size_of_val::<A>(arena)
        };
        Owner {
            start: core::ptr::from_ref::<A>(arena).addr(),
            len,
        }
    }

    /// Whether `bytes` start inside the value. Words the arena returned
    /// from `&mut self` are either part of its own value (an inline array)
    /// or memory it points to, which cannot contain the value (that would
    /// be two `&mut` to the same bytes): so a start inside the value is the
    /// only overlap to look for.
    #[inline(always)]
    fn holds(self, bytes: &[u8]) -> bool {
        bytes.as_ptr().addr().wrapping_sub(self.start) < self.len
    }
}

impl Cached {
    /// Nothing kept.
    #[inline(always)]
    pub(crate) const fn empty() -> Self {
        Cached {
            ptr: Cell::new(NonNull::dangling()),
            len: Cell::new(0),
            #[cfg(debug_assertions)]
            kept_at: Cell::new(0),
            #[cfg(debug_assertions)]
            owner: 0,
        }
    }

    /// `bytes`, just returned (through `segment_mut`) by the arena `owner`
    /// spans, kept unless they lie inside the arena value. The caller hands
    /// the result to [`KeptArena::with_kept`] with that arena before
    /// anything else calls it.
    #[inline(always)]
    pub(crate) fn keep(bytes: &mut [u8], owner: Owner) -> Self {
        // Words inside the arena value are kept as a length of 0: nothing
        // is kept, and the start (the words' own) is never used.
        let len = if owner.holds(bytes) { 0 } else { bytes.len() };
        // Derived last, from the slice itself: nothing uses the slice
        // after this.
        let ptr = NonNull::from(bytes).cast::<u8>();
        Cached {
            ptr: Cell::new(ptr),
            len: Cell::new(len),
            #[cfg(debug_assertions)]
            kept_at: Cell::new(0),
            #[cfg(debug_assertions)]
            owner: owner.start,
        }
    }

    /// Forgets what is kept: the arena is about to be called.
    #[inline(always)]
    fn forget(&self) {
        self.len.set(0);
    }

    /// Moves what is kept out, leaving nothing.
    #[inline(always)]
    fn take(&self) -> Self {
        Cached {
            ptr: Cell::new(self.ptr.get()),
            len: Cell::new(self.len.replace(0)),
            #[cfg(debug_assertions)]
            kept_at: self.kept_at.clone(),
            #[cfg(debug_assertions)]
            owner: self.owner,
        }
    }

    /// The kept bytes' start and length (0 when nothing is kept: the
    /// start is then never used, and no index is below the length); `calls`
    /// is the arena handle's count now (debug builds), which must be the
    /// count when the bytes were kept.
    #[inline(always)]
    fn get(&self, #[cfg(debug_assertions)] calls: u32) -> (NonNull<u8>, usize) {
        let at = (self.ptr.get(), self.len.get());
        #[cfg(debug_assertions)]
        debug_assert!(
            at.1 == 0 || self.kept_at.get() == calls,
            "a kept data section used after a call into the arena \
             (kept at call {}, now at call {calls})",
            self.kept_at.get()
        );
        at
    }
}

/// A struct builder's arena and the data section it keeps: the only way
/// from a struct builder to its arena (see the [module](self) docs for the
/// invariant this upholds). Every method that reaches the arena forgets the
/// kept data section first.
pub(crate) struct KeptArena<'a, A: ?Sized> {
    arena: &'a mut A,
    words: Cached,
    /// Ways taken to the arena through this handle so far (debug builds).
    #[cfg(debug_assertions)]
    calls: Cell<u32>,
}

// SAFETY: the only field that is not `Send` is `words`, a pointer to bytes
// of a segment of `*arena`, valid only while the arena is not called; the
// `&mut A` that moves with it (sendable when `A: Send`) is the only way to
// reach those bytes or the arena, so sending the handle sends exclusive
// access to both, as sending the `&mut A` alone would.
unsafe impl<A: ?Sized + Send> Send for KeptArena<'_, A> {}

impl<'a, A: Arena + ?Sized> KeptArena<'a, A> {
    /// `arena`, with nothing kept.
    #[inline(always)]
    pub(crate) fn new(arena: &'a mut A) -> Self {
        KeptArena {
            arena,
            words: Cached::empty(),
            #[cfg(debug_assertions)]
            calls: Cell::new(0),
        }
    }

    /// `arena`, keeping `kept`, which was kept (by [`Cached::keep`]) from
    /// words this arena has just returned, with no call into it since.
    #[inline(always)]
    pub(crate) fn with_kept(arena: &'a mut A, kept: Cached) -> Self {
        #[cfg(debug_assertions)]
        debug_assert!(
            kept.len.get() == 0 || kept.owner == Owner::of(&*arena).start,
            "a data section kept from another arena"
        );
        KeptArena {
            arena,
            words: kept,
            #[cfg(debug_assertions)]
            calls: Cell::new(0),
        }
    }

    /// Counts a way taken to the arena and forgets the kept data section.
    #[inline(always)]
    fn forget(&self) {
        self.words.forget();
        #[cfg(debug_assertions)]
        self.calls.set(self.calls.get().wrapping_add(1));
    }

    /// The arena, mutably; the kept data section forgotten.
    #[inline(always)]
    pub(crate) fn arena(&mut self) -> &mut A {
        self.forget();
        self.arena
    }

    /// The arena; the kept data section forgotten (an arena may free memory
    /// behind `&self`).
    #[inline(always)]
    pub(crate) fn arena_ref(&self) -> &A {
        self.forget();
        self.arena
    }

    /// The arena, for the rest of the handle's lifetime (the kept data
    /// section goes with the handle).
    #[inline(always)]
    pub(crate) fn into_arena(self) -> &'a mut A {
        self.arena
    }

    /// A shorter-lived handle on the same arena, which takes the kept data
    /// section with it (it may call the arena: this one looks up again
    /// after).
    #[inline(always)]
    pub(crate) fn reborrow(&mut self) -> KeptArena<'_, A> {
        KeptArena {
            words: self.words.take(),
            #[cfg(debug_assertions)]
            calls: self.calls.clone(),
            arena: self.arena,
        }
    }

    /// The kept data section, checked (debug builds) against the count of
    /// ways taken to the arena.
    #[inline(always)]
    fn kept(&self) -> (NonNull<u8>, usize) {
        self.words.get(
            #[cfg(debug_assertions)]
            self.calls.get(),
        )
    }

    /// Writes `value` at `index` (in units of `T`'s size) of the kept data
    /// section; `false` (nothing written) when nothing is kept or the value
    /// does not fit.
    #[inline(always)]
    pub(crate) fn write<T: Primitive>(&self, index: usize, value: T) -> bool {
        // Nothing kept is a length of 0: one test serves both.
        let (p, len) = self.kept();
        if index >= len / T::BYTES {
            return false;
        }
        let bytes = value.to_bits().to_le_bytes();
        // SAFETY: by `Cached`'s invariant (upheld by this type: see the
        // module docs) `p` starts `len` bytes (`len` is not 0: the index is
        // below `len / T::BYTES`) that the arena handed out as
        // `&mut` and has not been asked for (or able to move or free) since,
        // and `index * T::BYTES + T::BYTES <= len` (checked above), so the
        // destination is inside them; `bytes` is a local array of
        // 8 >= `T::BYTES` bytes. Nothing else reads or writes those bytes
        // during the copy: the handle is not `Sync`, and every other handle
        // on them is either the arena, not running, or a borrow of the
        // builder that owns this handle.
        unsafe {
            core::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                p.as_ptr().add(index * T::BYTES),
                T::BYTES,
            );
        }
        true
    }

    /// The value at `index` (in units of `T`'s size) of the kept data
    /// section; `None` when nothing is kept or out of range.
    #[inline(always)]
    pub(crate) fn read<T: Primitive>(&self, index: usize) -> Option<T> {
        let (p, len) = self.kept();
        if index >= len / T::BYTES {
            return None;
        }
        let mut bytes = [0u8; 8];
        // SAFETY: as in `write`: the source lies inside the kept bytes, the
        // destination is a local array, and no write to the kept bytes can
        // happen during the copy.
        unsafe {
            core::ptr::copy_nonoverlapping(
                p.as_ptr().add(index * T::BYTES),
                bytes.as_mut_ptr(),
                T::BYTES,
            );
        }
        Some(T::from_bits(u64::from_le_bytes(bytes)))
    }

    /// Sets or clears bit `bit` of the kept data section; `false` (nothing
    /// written) when nothing is kept or the bit is out of range.
    #[inline(always)]
    pub(crate) fn write_bit(&self, bit: usize, value: bool) -> bool {
        let Some(b) = self.read::<u8>(bit / 8) else {
            return false;
        };
        let mask = 1u8 << (bit % 8);
        self.write(bit / 8, if value { b | mask } else { b & !mask })
    }

    /// Looks up the `len` bytes at byte `start` of segment `segment` through
    /// the arena, runs `write` on them, then keeps them; nothing is written
    /// (or kept) when the arena no longer hands them out.
    #[inline(always)]
    pub(crate) fn look_up_and(
        &mut self,
        segment: u32,
        start: usize,
        len: usize,
        write: impl FnOnce(&mut [u8]),
    ) {
        self.look_up_with(|arena| look_up(arena, segment, None, start, len, write));
    }

    /// Keeps what `look` returns, which it keeps (with [`look_up`]) from
    /// the arena it is given, this handle's, with no other call into it.
    /// For lookups out of line: `look` calls a function that takes the
    /// arena and the numbers, never this handle's address, so that a
    /// builder on the fast path stays in registers. (A builder whose
    /// address went to an out-of-line lookup lived on the stack, and each
    /// copy of it, such as a group's builder, loaded two fields stored
    /// apart with one wide load that no store could forward: 30% of the
    /// build time of the data-set suite's mk48 set, sampled by time.)
    #[inline(always)]
    pub(crate) fn look_up_with(&mut self, look: impl FnOnce(&mut A) -> Cached) {
        self.forget();
        let kept = look(&mut *self.arena);
        self.adopt(kept);
    }

    /// Runs `call` on the arena and keeps the data section it returns,
    /// which `call` keeps (through an allocation's
    /// [`Keep::Parent`](super::builder::Keep)) from the last words the
    /// arena it is given, this handle's, returned; nothing is kept when it
    /// fails. For a pointer set through the struct (a text, data, a list
    /// of them) that returns nothing borrowing the arena: the struct's
    /// next field needs no lookup.
    #[inline(always)]
    pub(crate) fn call_and_keep(&mut self, call: impl ArenaCall<A>) -> crate::Result<()> {
        self.forget();
        let kept = call.call(&mut *self.arena)?;
        self.adopt(kept);
        Ok(())
    }

    /// Keeps `kept`, just kept from this handle's arena by [`look_up`].
    #[inline(always)]
    fn adopt(&mut self, kept: Cached) {
        self.words = kept;
        #[cfg(debug_assertions)]
        self.words.kept_at.set(self.calls.get());
    }
}

/// A call into the arena for [`KeptArena::call_and_keep`], which returns
/// what it keeps from the last words the arena returned to it. A trait
/// rather than a closure: implementations mark [`call`](Self::call)
/// `#[inline(always)]`, so that a text's whole near path is inlined into
/// its setter (as a closure, LLVM left it out of line: +19% instructions
/// on the data-set suite's minecraft serialize).
pub(crate) trait ArenaCall<A: ?Sized> {
    /// Calls `arena`; returns what it keeps from the words it returned
    /// last.
    fn call(self, arena: &mut A) -> crate::Result<Cached>;
}

/// The lookup of [`KeptArena::look_up_and`]: segment `segment` through the
/// arena; the word at byte `zero` of it zeroed, if any; the `len` bytes at
/// byte `start` written by `write` and kept (nothing kept when the arena
/// no longer hands them out).
#[inline(always)]
pub(crate) fn look_up<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    zero: Option<usize>,
    start: usize,
    len: usize,
    write: impl FnOnce(&mut [u8]),
) -> Cached {
    let owner = Owner::of(&*arena);
    // The segment as the arena hands it out, segment 0's reserved word
    // included: offsets moved past that word instead of the segment cut
    // (one bounds test covers both).
    let header = BuilderSegments::header_bytes(segment);
    let bytes = Word::slice_as_bytes_mut(arena.segment_mut(SegmentId(segment)));
    if let Some(word) = zero {
        let word = word + header;
        if let Some(w) = bytes.get_mut(word..word + 8) {
            w.fill(0);
        }
    }
    let start = start + header;
    match bytes.get_mut(start..start + len) {
        Some(b) => {
            // Written before it is kept: the kept address is derived last.
            write(&mut *b);
            Cached::keep(b, owner)
        }
        None => Cached::empty(),
    }
}

#[cfg(test)]
mod tests {
    //! Builders keep a struct's data section between calls into the arena;
    //! these arenas move or free their words at every call they can, so a
    //! kept address used after such a call loses the write (and Miri,
    //! which runs these tests in CI, reports the use).
    use crate::arena::{AllocError, Arena, SegmentId};
    use crate::{Message, StructSize, Word};
    use alloc::vec;
    use alloc::vec::Vec;
    use core::cell::Cell;

    /// One segment that moves to a new heap buffer at every allocation
    /// (the old one is freed), as a growing arena may.
    struct Moving {
        words: Vec<Word>,
    }

    impl Arena for Moving {
        fn segment_count(&self) -> u32 {
            1
        }
        fn segment(&self, _: SegmentId) -> &[Word] {
            &self.words
        }
        fn segment_mut(&mut self, _: SegmentId) -> &mut [Word] {
            &mut self.words
        }
        fn allocate(&mut self, len: u32, _: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            let at = self.words.len() as u32;
            let mut moved = Vec::with_capacity(self.words.len() + len as usize);
            moved.extend_from_slice(&self.words);
            moved.resize(self.words.len() + len as usize, Word::ZERO);
            self.words = moved;
            Ok((SegmentId(0), at))
        }
        fn reset(&mut self) {
            self.words.clear();
        }
    }

    /// Its words inside the arena value itself, which moves with every move
    /// of the arena; builders must not keep an address into it.
    struct Inline {
        words: [Word; 32],
        used: usize,
    }

    impl Arena for Inline {
        fn segment_count(&self) -> u32 {
            1
        }
        fn segment(&self, _: SegmentId) -> &[Word] {
            &self.words[..self.used]
        }
        fn segment_mut(&mut self, _: SegmentId) -> &mut [Word] {
            &mut self.words[..self.used]
        }
        fn allocate(&mut self, len: u32, _: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            let at = self.used;
            if at + len as usize > self.words.len() {
                return Err(AllocError {
                    requested: u64::from(len),
                    available: (self.words.len() - at) as u64,
                });
            }
            self.used += len as usize;
            Ok((SegmentId(0), at as u32))
        }
        fn reset(&mut self) {
            self.words = [Word::ZERO; 32];
            self.used = 0;
        }
    }

    /// `Inline`, with a built-in arena at its start (the same address)
    /// whose proof that its words lie outside it claims for itself.
    #[repr(C)]
    struct ClaimsAProof {
        donor: crate::SingleSegmentArena,
        inline: Inline,
    }

    impl Arena for ClaimsAProof {
        fn segment_count(&self) -> u32 {
            self.inline.segment_count()
        }
        fn segment(&self, id: SegmentId) -> &[Word] {
            self.inline.segment(id)
        }
        fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
            self.inline.segment_mut(id)
        }
        fn allocate(&mut self, len: u32, id: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            self.inline.allocate(len, id)
        }
        fn reset(&mut self) {
            self.inline.reset();
        }
        fn words_outside(&self) -> Option<crate::WordsOutside<'_>> {
            self.donor.words_outside()
        }
    }

    /// Hands out words from a box it frees when asked for them behind `&self`
    /// (possible in safe code through a `Cell`), then answers with nothing;
    /// armed once it has handed the words out mutably, disarmed by an
    /// allocation (so that building the root works).
    struct FreesOnRead {
        words: Cell<Option<alloc::boxed::Box<[Word]>>>,
        used: usize,
        armed: bool,
    }

    impl Arena for FreesOnRead {
        fn segment_count(&self) -> u32 {
            1
        }
        fn segment(&self, _: SegmentId) -> &[Word] {
            if self.armed {
                drop(self.words.take());
                return &[];
            }
            // Not freeing: hand out a copy of the length only.
            let used = self.used;
            if self.words.take().map(|w| self.words.set(Some(w))).is_some() {
                LEN_ONLY.get(..used).unwrap_or(&[])
            } else {
                &[]
            }
        }
        fn segment_mut(&mut self, _: SegmentId) -> &mut [Word] {
            self.armed = true;
            match self.words.get_mut() {
                Some(w) => &mut w[..self.used],
                None => &mut [],
            }
        }
        fn allocate(&mut self, len: u32, _: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            let at = self.used;
            let room = self.words.get_mut().as_ref().map_or(0, |w| w.len());
            if at + len as usize > room {
                return Err(AllocError {
                    requested: u64::from(len),
                    available: room.saturating_sub(at) as u64,
                });
            }
            self.used += len as usize;
            self.armed = false;
            Ok((SegmentId(0), at as u32))
        }
        fn reset(&mut self) {
            self.words
                .set(Some(vec![Word::ZERO; 64].into_boxed_slice()));
            self.used = 0;
            self.armed = false;
        }
    }

    /// What `FreesOnRead` shows behind `&self` while disarmed: zeros of
    /// the right length (reads through it see nothing written).
    static LEN_ONLY: [Word; 64] = [Word::ZERO; 64];

    const ROOT: StructSize = StructSize::new(2, 2);
    const CHILD: StructSize = StructSize::new(1, 0);

    /// Writes to a struct before and after each child allocation, through
    /// reborrows and children, and returns what a reader then sees.
    fn build_and_read<A: Arena>(msg: &mut Message<A>) -> [u64; 6] {
        let mut root = msg.init_root_struct(ROOT).unwrap();
        root.set::<u64>(0, 1);
        {
            let mut child = root.init_struct(0, CHILD).unwrap();
            child.set::<u64>(0, 2);
        }
        // The child's allocation moved the segment: this write must land.
        root.set::<u32>(2, 3);
        {
            let mut again = root.reborrow();
            again.set::<u32>(3, 4);
            let mut child = again.init_struct(1, CHILD).unwrap();
            child.set::<u64>(0, 5);
            child.set_bool(63, true);
        }
        root.set_bool(0, true);
        assert_eq!(root.get::<u32>(2), 3);
        assert!(root.has_pointer(1));
        let reader = msg.reader();
        let r = reader.root().unwrap();
        let c0 = r.get_struct(0).unwrap();
        let c1 = r.get_struct(1).unwrap();
        [
            r.get::<u64>(0),
            c0.get::<u64>(0),
            u64::from(r.get::<u32>(2)),
            u64::from(r.get::<u32>(3)),
            c1.get::<u64>(0),
            u64::from(r.get_bool(0) && c1.get_bool(63)),
        ]
    }

    /// Debug builds check the invariant at every use of a kept address: a
    /// way taken to the arena since the address was kept (counted here by
    /// hand, without forgetting, which no code outside this module can do)
    /// makes the next fast-path write panic instead of writing through a
    /// possibly stale address.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "a kept data section used after a call into the arena")]
    fn debug_builds_catch_a_kept_address_used_after_an_arena_call() {
        let mut arena = crate::SingleSegmentArena::new();
        crate::layout::init_root_slot(&mut arena).unwrap();
        let mut kept = super::KeptArena::new(&mut arena);
        // The root pointer's word, kept as an 8-byte data section.
        kept.look_up_and(0, 0, 8, |_| ());
        assert!(kept.write::<u64>(0, 1), "the kept word takes the write");
        kept.calls.set(kept.calls.get() + 1);
        kept.write::<u64>(0, 2);
    }

    #[test]
    fn writes_land_when_the_arena_moves_its_segment() {
        let mut msg = Message::new(Moving { words: Vec::new() });
        assert_eq!(build_and_read(&mut msg), [1 | 1, 2, 3, 4, 5 | (1 << 63), 1]);
    }

    #[test]
    fn writes_land_when_the_segment_lies_inside_the_arena() {
        let mut msg = Message::new(Inline {
            words: [Word::ZERO; 32],
            used: 0,
        });
        assert_eq!(build_and_read(&mut msg), [1 | 1, 2, 3, 4, 5 | (1 << 63), 1]);
    }

    /// One segment that moves to a new heap buffer at every allocation, as
    /// `Moving` does, and answers [`Arena::allocate_in`] (so that objects
    /// take the near path, which hands the moved words back with the
    /// allocation); counts the calls of `segment_mut` (lookups).
    struct MovingNear {
        words: Vec<Word>,
        lookups: usize,
    }

    impl MovingNear {
        fn moved(&mut self, len: u32) -> u32 {
            let at = self.words.len() as u32;
            let mut moved = Vec::with_capacity(self.words.len() + len as usize);
            moved.extend_from_slice(&self.words);
            moved.resize(self.words.len() + len as usize, Word::ZERO);
            self.words = moved;
            at
        }
    }

    impl Arena for MovingNear {
        fn segment_count(&self) -> u32 {
            1
        }
        fn segment(&self, _: SegmentId) -> &[Word] {
            &self.words
        }
        fn segment_mut(&mut self, _: SegmentId) -> &mut [Word] {
            self.lookups += 1;
            &mut self.words
        }
        fn allocate(&mut self, len: u32, _: SegmentId) -> Result<(SegmentId, u32), AllocError> {
            Ok((SegmentId(0), self.moved(len)))
        }
        fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
            (id.0 == 0).then(|| self.moved(len))
        }
        fn reset(&mut self) {
            self.words.clear();
        }
    }

    /// Builds a struct with pointer sets through it (a text, data, a list
    /// of texts), each followed by a scalar write when `scalars`; returns
    /// the lookups (`segment_mut` calls) the build took.
    fn pointer_sets(scalars: bool) -> (Message<MovingNear>, usize) {
        let mut msg = Message::new(MovingNear {
            words: Vec::new(),
            lookups: 0,
        });
        let mut root = msg.init_root_struct(StructSize::new(1, 3)).unwrap();
        root.set::<u8>(0, 1);
        root.set_text(0, "abc").unwrap();
        if scalars {
            root.set::<u8>(1, 2);
        }
        root.set_data(1, &[7, 8, 9]).unwrap();
        if scalars {
            root.set::<u8>(2, 3);
        }
        root.set_text_list(2, ["x", "yz"]).unwrap();
        if scalars {
            root.set::<u8>(3, 4);
            root.set_bool(63, true);
        }
        let lookups = msg.arena().lookups;
        (msg, lookups)
    }

    /// A text, data or list of texts set through the struct keeps its data
    /// section from the words the allocation returned (which the arena has
    /// just moved): the scalar writes after each set take no lookup, and
    /// they land (Miri, over this test, reports a write through the old
    /// words).
    #[test]
    fn pointer_sets_through_the_struct_keep_the_data_section() {
        let (msg, with_scalars) = pointer_sets(true);
        let (_, without) = pointer_sets(false);
        assert_eq!(with_scalars, without, "scalar writes took lookups");
        let reader = msg.reader();
        let r = reader.root().unwrap();
        assert_eq!(
            [
                r.get::<u8>(0),
                r.get::<u8>(1),
                r.get::<u8>(2),
                r.get::<u8>(3)
            ],
            [1, 2, 3, 4]
        );
        assert!(r.get_bool(63));
        assert_eq!(r.get_text(0).unwrap(), "abc");
        assert_eq!(r.get_data(1).unwrap(), &[7, 8, 9]);
        let list = r.get_list(2, crate::ElementSize::Pointer).unwrap();
        assert_eq!(list.get_text(1).unwrap(), "yz");
    }

    /// A proof names the value it was made for: another arena at the same
    /// address but larger (words inside it) is refused, so its words are
    /// tested and never kept (Miri, over this test, reports a kept address
    /// into the arena value used after the value was reborrowed); the
    /// built-in arenas' own proofs are accepted.
    #[test]
    fn a_proof_of_words_outside_holds_only_for_its_own_arena() {
        let claims = ClaimsAProof {
            donor: crate::SingleSegmentArena::new(),
            inline: Inline {
                words: [Word::ZERO; 32],
                used: 0,
            },
        };
        let proof = claims.words_outside().unwrap();
        assert!(!proof.proves(&claims), "a proof made for the donor");
        assert!(proof.proves(&claims.donor));
        let mut fixed = [Word::ZERO; 4];
        let fixed = crate::FixedArena::new(&mut fixed);
        assert!(fixed.words_outside().unwrap().proves(&fixed));
        let multi = crate::MultiSegmentArena::new();
        assert!(multi.words_outside().unwrap().proves(&multi));
        let mut msg = Message::new(claims);
        assert_eq!(build_and_read(&mut msg), [1 | 1, 2, 3, 4, 5 | (1 << 63), 1]);
    }

    /// An arena that frees its words on a `&self` call: a builder's
    /// `has_pointer`, `get` and `with_reader` forget what they kept, so the
    /// writes after them look the (now missing) words up again and are
    /// dropped instead of touching freed memory.
    #[test]
    fn reads_behind_shared_borrows_forget_kept_words() {
        let mut msg = Message::new(FreesOnRead {
            words: Cell::new(None),
            used: 0,
            armed: false,
        });
        let mut root = msg.init_root_struct(ROOT).unwrap();
        root.set::<u64>(0, 7);
        assert!(!root.has_pointer(0));
        root.set::<u64>(1, 8);
        root.with_reader(|_| ());
        root.set::<u64>(1, 9);
        assert_eq!(root.get::<u64>(1), 0);
        root.set::<u64>(0, 10);
    }
}
