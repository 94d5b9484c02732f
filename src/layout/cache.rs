//! The one address a builder keeps: a struct's bytes as the arena last
//! handed them out, kept until the next call into the arena.
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
//! again. [`Cached`] keeps them for exactly that long: every builder method
//! that calls into the arena, or hands the arena to another handle, forgets
//! the cache first, and the next field access looks the struct up again.

use core::cell::Cell;
use core::ptr::NonNull;

use super::primitive::Primitive;

/// A struct's data section as found by the last lookup through the arena,
/// or nothing.
///
/// Invariant, upheld by [`keep`](Self::keep) and by the builder that owns
/// the cache: when it holds `(p, len)`, `p` is the start of `len` bytes of a
/// `&mut [Word]` the arena returned from `segment_mut`; no call into the
/// arena has been made since; and the bytes do not lie inside the arena
/// value itself (only the arena's own memory is moved by a move of the
/// `&mut A` that the builder holds, and such words are not kept).
pub(crate) struct Cached(Cell<Option<(NonNull<u8>, usize)>>);

/// Where an arena value lies (its address and size), taken before its
/// words are borrowed.
#[derive(Clone, Copy)]
pub(crate) struct Owner {
    start: usize,
    len: usize,
}

impl Owner {
    /// The span of `arena`'s own value.
    #[inline(always)]
    pub(crate) fn of<A: ?Sized>(arena: &A) -> Self {
        Owner {
            start: core::ptr::from_ref::<A>(arena).addr(),
            len: core::mem::size_of_val::<A>(arena),
        }
    }
}

impl Cached {
    /// Nothing kept.
    #[inline(always)]
    pub(crate) const fn empty() -> Self {
        Cached(Cell::new(None))
    }

    /// Keeps `bytes`, just returned (through `segment_mut`) by the arena
    /// `owner` spans, unless they lie inside the arena value.
    #[inline]
    pub(crate) fn keep(&self, bytes: &mut [u8], owner: Owner) {
        // Words the arena returned from `&mut self` are either part of its
        // own value (an inline array) or memory it points to, which cannot
        // contain the value (that would be two `&mut` to the same bytes):
        // so a start inside the value is the only overlap to look for.
        let inside_owner = bytes.as_ptr().addr().wrapping_sub(owner.start) < owner.len;
        self.0.set(if inside_owner {
            None
        } else {
            let len = bytes.len();
            Some((NonNull::from(bytes).cast::<u8>(), len))
        });
    }

    /// Forgets what is kept: the arena is about to be called.
    #[inline(always)]
    pub(crate) fn forget(&self) {
        self.0.set(None);
    }

    /// Moves what is kept out, leaving nothing.
    #[inline(always)]
    pub(crate) fn take(&self) -> Self {
        Cached(Cell::new(self.0.take()))
    }

    /// Writes `value` at `index` (in units of `T`'s size); `false`
    /// (nothing written) when nothing is kept or the value does not fit.
    #[inline(always)]
    pub(crate) fn write<T: Primitive>(&self, index: usize, value: T) -> bool {
        let Some((p, len)) = self.0.get() else {
            return false;
        };
        if index >= len / T::BYTES {
            return false;
        }
        let bytes = value.to_bits().to_le_bytes();
        // SAFETY: by the type's invariant `p` starts `len` bytes that the
        // arena handed out as `&mut` and has not been asked for (or able to
        // move or free) since, and `index * T::BYTES + T::BYTES <= len`
        // (checked above), so the destination is inside them; `bytes` is a
        // local array of 8 >= `T::BYTES` bytes. Nothing else reads or writes
        // those bytes during the copy: the cache is not `Sync`, and every
        // other handle on them is either the arena, not running, or a
        // borrow of the builder that owns this cache.
        unsafe {
            core::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                p.as_ptr().add(index * T::BYTES),
                T::BYTES,
            );
        }
        true
    }

    /// The value at `index` (in units of `T`'s size); `None` when nothing
    /// is kept or out of range.
    #[inline(always)]
    pub(crate) fn read<T: Primitive>(&self, index: usize) -> Option<T> {
        let (p, len) = self.0.get()?;
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

    /// Sets or clears bit `bit`; `false` (nothing written) when nothing is
    /// kept or the bit is out of range.
    #[inline(always)]
    pub(crate) fn write_bit(&self, bit: usize, value: bool) -> bool {
        let Some(b) = self.read::<u8>(bit / 8) else {
            return false;
        };
        let mask = 1u8 << (bit % 8);
        self.write(bit / 8, if value { b | mask } else { b & !mask })
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
