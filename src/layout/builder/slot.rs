//! [`PointerBuilder`]: a pointer slot, what it holds (null, a capability)
//! and the structs it points to (made or opened).

use super::{
    BuilderSegments, Fill, Keep, StructBuilder, Zeroed, alloc_object, check_in, read_word,
    set_pointer, write_word, zero_pointer_best_effort,
};
use crate::arena::Arena;
use crate::error::{Error, PointerKind, Result};
use crate::layout::cache::KeptArena;
use crate::layout::pointer;
use crate::layout::pointer::{KIND_STRUCT, StructSize};
use crate::layout::reader::{Resolved, resolve};

/// A pointer slot in a message being built: a struct's pointer field, an
/// element of a pointer list, or the root. Consuming methods hand out a
/// builder for what they create, with the slot's lifetime.
pub struct PointerBuilder<'a, A: Arena + ?Sized> {
    pub(super) arena: &'a mut A,
    pub(super) segment: u32,
    pub(super) pos: u32,
}

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    pub(crate) fn new(arena: &'a mut A, segment: u32, pos: u32) -> Self {
        PointerBuilder {
            arena,
            segment,
            pos,
        }
    }

    /// A shorter-lived handle to the same slot.
    pub fn reborrow(&mut self) -> PointerBuilder<'_, A> {
        PointerBuilder {
            arena: self.arena,
            segment: self.segment,
            pos: self.pos,
        }
    }

    /// Whether the slot is null.
    pub fn is_null(&self) -> bool {
        read_word(self.arena, self.segment, self.pos) == 0
    }

    /// Makes the slot null. The object it pointed to is zeroed, with
    /// everything below it, as the reference does: the message keeps
    /// none of its bytes. Words a malformed pointer leads to (a message
    /// read from a peer) that cannot be followed are left as they are.
    pub fn clear(&mut self) {
        zero_pointer_best_effort(self.arena, self.segment, self.pos);
    }

    /// Points the slot at capability `index` of the message's capability
    /// table. What the slot pointed to is zeroed, as [`clear`](Self::clear)
    /// does.
    pub fn set_capability(&mut self, index: u32) {
        zero_pointer_best_effort(self.arena, self.segment, self.pos);
        write_word(
            self.arena,
            self.segment,
            self.pos,
            pointer::encode_capability(index),
        );
    }

    /// Allocates a zeroed struct of `size` and points the slot at it.
    /// What the slot pointed to before is zeroed first, with everything
    /// below it.
    ///
    /// # Errors
    /// The arena has no room, or what the slot pointed to is malformed (a
    /// message read from a peer; it is zeroed as far as it can be
    /// followed). The slot is then null.
    // Always inlined: a `StructBuilder` returned through memory is read
    // back with wider loads than it was stored with, which stalls on store
    // forwarding (perf: most of the small build's time).
    #[inline(always)]
    pub fn init_struct(self, size: StructSize) -> Result<StructBuilder<'a, A>> {
        let words = size.total_words();
        if words == 0 {
            // An empty struct: offset -1 keeps the pointer non-null.
            set_pointer(
                self.arena,
                self.segment,
                self.pos,
                pointer::encode_struct(-1, size),
            )?;
            return Ok(StructBuilder {
                arena: KeptArena::new(self.arena),
                segment: self.segment,
                data: self.pos,
                size,
            });
        }
        let (s, o, kept) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            words,
            Fill::Zeroed,
            Keep::Object(size.data_words),
            |off| pointer::encode_struct(off, size),
            Zeroed,
        )?;
        Ok(StructBuilder {
            arena: KeptArena::with_kept(self.arena, kept),
            segment: s,
            data: o,
            size,
        })
    }

    /// The struct the slot points to, or a new one of `size` when null.
    ///
    /// A struct smaller than `size` in either section (written by an older
    /// version of its schema) is moved, as the reference does, into a new
    /// struct large enough for both: its data words and pointers are
    /// copied (the objects they point to stay where they are), the slot
    /// points at the copy, and the old words are zeroed. A struct at least
    /// as large is used in place, with its own size (a newer version's
    /// fields stay as they are).
    ///
    /// # Errors
    /// Not a struct, out of bounds, or the arena has no room (for the
    /// struct, or to move a larger one).
    pub fn get_struct(self, size: StructSize) -> Result<StructBuilder<'a, A>> {
        let Some((s, start, tag)) = resolve_builder(self.arena, self.segment, self.pos)? else {
            return self.init_struct(size);
        };
        if pointer::kind(tag) != KIND_STRUCT {
            return Err(Error::UnexpectedPointer {
                expected: PointerKind::Struct,
                found: pointer::pointer_kind(tag),
            });
        }
        let found = pointer::struct_size(tag);
        let data = check_in(self.arena, s, start, u64::from(found.total_words()))?;
        if found.data_words < size.data_words || found.pointers < size.pointers {
            return self.upgrade_struct(s, data, found, size);
        }
        Ok(StructBuilder {
            arena: KeptArena::new(self.arena),
            segment: s,
            data,
            size: found,
        })
    }
}

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    /// The arena, segment and word offset of the slot.
    #[inline(always)]
    pub(crate) fn into_parts(self) -> (&'a mut A, u32, u32) {
        (self.arena, self.segment, self.pos)
    }
}

/// Resolves the pointer at (`segment`, `pos`) of a message being built.
pub(super) fn resolve_builder<A: Arena + ?Sized>(
    arena: &A,
    segment: u32,
    pos: u32,
) -> Result<Option<(u32, i64, u64)>> {
    let seg = BuilderSegments::get(arena, segment);
    let w = read_word(arena, segment, pos);
    let count = arena.segment_count();
    match resolve(w, seg, segment, pos, |id| {
        if id < count {
            Ok(BuilderSegments::get(arena, id))
        } else {
            Err(Error::MissingSegment { segment: id, count })
        }
    })? {
        Resolved::Null => Ok(None),
        Resolved::Object(t) => Ok(Some((t.segment, t.start, t.tag))),
        Resolved::Other(w) => Err(Error::UnexpectedPointer {
            expected: PointerKind::Struct,
            found: pointer::pointer_kind(w),
        }),
    }
}
