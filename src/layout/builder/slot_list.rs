//! Lists behind a pointer slot: made ([`PointerBuilder::init_list`],
//! [`PointerBuilder::init_struct_list`]) or opened as the encoding's
//! upgrade rules allow ([`PointerBuilder::get_list`],
//! [`PointerBuilder::get_struct_list`]).

use super::{
    BuilderSegments, Fill, Keep, ListBuilder, PointerBuilder, WriteObject, Zeroed, alloc_object,
    check_in, read_word, resolve_builder, set_over_old, too_large,
};
use crate::arena::Arena;
use crate::error::{Error, PointerKind, Result};
use crate::layout::pointer;
use crate::layout::pointer::{ElementSize, KIND_LIST, KIND_STRUCT, MAX_LIST_COUNT, StructSize};
use crate::word::Word;

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    /// Allocates a zeroed list of `count` elements of `size` (not
    /// [`ElementSize::InlineComposite`]: see
    /// [`init_struct_list`](Self::init_struct_list)) and points the slot
    /// at it.
    ///
    /// # Errors
    /// Too many elements to encode, or the arena has no room.
    #[inline(always)]
    pub fn init_list(self, size: ElementSize, count: u32) -> Result<ListBuilder<'a, A>> {
        self.init_list_as(size, count, Fill::Zeroed)
    }

    /// [`init_list`](Self::init_list), with the list's words as `fill` says
    /// (with [`Fill::Overwritten`], the caller writes every byte of
    /// [`ListBuilder::raw_words_bytes_mut`]).
    #[inline(always)]
    pub(crate) fn init_list_as(
        self,
        size: ElementSize,
        count: u32,
        fill: Fill,
    ) -> Result<ListBuilder<'a, A>> {
        self.init_list_with(size, count, fill, Zeroed)
    }

    /// [`init_list_as`](Self::init_list_as), with `fill_list` writing the
    /// list's words (all of them: its elements and the padding after them)
    /// as they are allocated, before anything else calls the arena.
    #[inline(always)]
    pub(super) fn init_list_with(
        self,
        size: ElementSize,
        count: u32,
        fill: Fill,
        fill_list: impl WriteObject,
    ) -> Result<ListBuilder<'a, A>> {
        if size == ElementSize::InlineComposite {
            return self.init_struct_list(count, StructSize::new(0, 0));
        }
        let bits = u64::from(size.data_bits()) + 64 * u64::from(size.pointers());
        let count64 = u64::from(count);
        if count64 > MAX_LIST_COUNT {
            return Err(too_large(count64, bits));
        }
        let words = (count64 * bits).div_ceil(64) as u32;
        let (segment, start) = if words == 0 {
            // No words: point at the end of the segment, where the next
            // object would go (as the reference and canonical form do).
            // One lookup and one test of the slot; a slot already set goes
            // out of line, where what it pointed to is zeroed first (that
            // changes no segment's length).
            let seg = BuilderSegments::get_mut(self.arena, self.segment);
            let end = seg.len() as u32;
            let offset = i64::from(end) - i64::from(self.pos) - 1;
            let new = pointer::encode_list(offset, size, count64);
            match seg.get_mut(self.pos as usize) {
                Some(slot) if slot.to_u64() == 0 => *slot = Word::from_u64(new),
                _ => set_over_old(self.arena, self.segment, self.pos, new)?,
            }
            (self.segment, end)
        } else {
            let (s, o, _) = alloc_object(
                self.arena,
                self.segment,
                self.pos,
                words,
                fill,
                Keep::Nothing,
                |off| pointer::encode_list(off, size, count64),
                fill_list,
            )?;
            (s, o)
        };
        Ok(ListBuilder {
            arena: self.arena,
            segment,
            start,
            len: count,
            size,
            step_bits: bits,
            data_bits: size.data_bits(),
            ptrs: size.pointers() as u16,
        })
    }

    /// Allocates a list of `count` zeroed structs of `size` (an
    /// inline-composite list) and points the slot at it.
    ///
    /// # Errors
    /// Too many words to encode, or the arena has no room.
    #[inline(always)]
    pub fn init_struct_list(self, count: u32, size: StructSize) -> Result<ListBuilder<'a, A>> {
        let (s, start) = alloc_struct_list(self.arena, self.segment, self.pos, count, size)?;
        Ok(ListBuilder::of_structs(self.arena, s, start, count, size))
    }

    /// The list the slot points to, read as a list of `expected`
    /// elements; an empty list is *not* created when null (the result is
    /// then an error).
    ///
    /// A list whose elements are larger than `expected` is used in place,
    /// as the encoding's upgrade rules allow: a list of structs (written by
    /// a newer version of its schema) as a list of primitives (each
    /// element's first data word) or of pointers (each element's first
    /// pointer), a list of wider primitives as narrower ones. With
    /// [`ElementSize::InlineComposite`], any list of structs is returned as
    /// it is; to open one as structs of at least a given size, upgrading a
    /// list written smaller, use
    /// [`get_struct_list`](Self::get_struct_list).
    ///
    /// # Errors
    /// Null, not a list, or elements that cannot be read as `expected`
    /// (fewer data bits or pointers, or a bit list for anything but bits
    /// and the other way round), or a list of structs whose tag is bad.
    pub fn get_list(self, expected: ElementSize) -> Result<ListBuilder<'a, A>> {
        let (s, start, tag) = self.resolve_list()?;
        let size = pointer::list_element_size(tag);
        let count = pointer::list_count(tag);
        let mismatch = |data_bits: u32, ptrs: u32, bit_note| Error::IncompatibleList {
            expected_data_bits: expected.data_bits(),
            expected_pointers: expected.pointers(),
            found_data_bits: data_bits,
            found_pointers: ptrs,
            bit_note,
        };
        if size == ElementSize::InlineComposite {
            let (at, elements, es) = composite_list(self.arena, s, start, count)?;
            let (data_bits, ptrs) = (u32::from(es.data_words) * 64, u32::from(es.pointers));
            let fits = match expected {
                ElementSize::Void | ElementSize::InlineComposite => true,
                ElementSize::Bit => false,
                _ => data_bits >= expected.data_bits() && ptrs >= expected.pointers(),
            };
            if !fits && elements > 0 {
                return Err(mismatch(data_bits, ptrs, ""));
            }
            return Ok(ListBuilder {
                arena: self.arena,
                segment: s,
                start: at,
                len: elements as u32,
                size,
                step_bits: u64::from(es.total_words()) * 64,
                data_bits,
                ptrs: es.pointers,
            });
        }
        let fits = match expected {
            ElementSize::Void => true,
            ElementSize::Bit => size == ElementSize::Bit,
            ElementSize::InlineComposite => false,
            _ => {
                size != ElementSize::Bit
                    && size.data_bits() >= expected.data_bits()
                    && size.pointers() >= expected.pointers()
            }
        };
        if !fits && count > 0 {
            let note = match (size, expected) {
                (ElementSize::Bit, _) => ", a bit list",
                (_, ElementSize::Bit) => ", expected a bit list",
                _ => "",
            };
            return Err(mismatch(size.data_bits(), size.pointers(), note));
        }
        let bits = u64::from(size.data_bits()) + 64 * u64::from(size.pointers());
        let at = check_in(self.arena, s, start, (count * bits).div_ceil(64))?;
        Ok(ListBuilder {
            arena: self.arena,
            segment: s,
            start: at,
            len: count as u32,
            size,
            step_bits: bits,
            data_bits: size.data_bits(),
            ptrs: size.pointers() as u16,
        })
    }

    /// The list the slot points to as a list of structs of at least `size`,
    /// upgrading one an older version of its schema wrote, as the
    /// reference does: a list of smaller structs, of primitives or of
    /// pointers is moved into a new list of structs large enough for both
    /// (a primitive becomes the start of its struct's data section, at
    /// least one word; a pointer its struct's first pointer), the slot
    /// points at the new list and the old words are zeroed. A list of
    /// `Void` becomes a list of as many zeroed structs. A list of structs
    /// at least as large is used in place, with its own element size. An
    /// empty list is *not* created when null (the result is then an
    /// error).
    ///
    /// # Errors
    /// Null, not a list, a non-empty bit list (the encoding no longer
    /// upgrades those), a list of structs whose tag is bad, a new list too
    /// large to encode, or the arena has no room.
    pub fn get_struct_list(self, size: StructSize) -> Result<ListBuilder<'a, A>> {
        let (s, start, tag) = self.resolve_list()?;
        let element = pointer::list_element_size(tag);
        let count = pointer::list_count(tag);
        match element {
            ElementSize::InlineComposite => {
                let (at, elements, found) = composite_list(self.arena, s, start, count)?;
                if found.data_words >= size.data_words && found.pointers >= size.pointers {
                    return Ok(ListBuilder {
                        arena: self.arena,
                        segment: s,
                        start: at,
                        len: elements as u32,
                        size: element,
                        step_bits: u64::from(found.total_words()) * 64,
                        data_bits: u32::from(found.data_words) * 64,
                        ptrs: found.pointers,
                    });
                }
                self.upgrade_struct_list(s, at, elements, found, size)
            }
            ElementSize::Bit if count > 0 => Err(Error::IncompatibleList {
                expected_data_bits: u32::from(size.data_words) * 64,
                expected_pointers: u32::from(size.pointers),
                found_data_bits: 1,
                found_pointers: 0,
                bit_note: ", a bit list",
            }),
            _ => self.upgrade_list_to_structs(s, start, element, count, size),
        }
    }

    /// Resolves the slot to a list: its segment, first word (before any
    /// bounds check) and list pointer (the landing pad's, behind a far
    /// pointer).
    pub(super) fn resolve_list(&self) -> Result<(u32, i64, u64)> {
        let Some((s, start, tag)) = resolve_builder(self.arena, self.segment, self.pos)? else {
            return Err(Error::UnexpectedPointer {
                expected: PointerKind::List,
                found: PointerKind::Null,
            });
        };
        if pointer::kind(tag) != KIND_LIST {
            return Err(Error::UnexpectedPointer {
                expected: PointerKind::List,
                found: pointer::pointer_kind(tag),
            });
        }
        Ok((s, start, tag))
    }
}

/// Allocates a list of `count` zeroed structs of `size` for the slot at
/// (`segment`, `pos`) and points the slot at it; returns the segment and
/// word of element 0.
///
/// # Errors
/// As [`PointerBuilder::init_struct_list`].
#[inline(always)]
pub(super) fn alloc_struct_list<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    count: u32,
    size: StructSize,
) -> Result<(u32, u32)> {
    let per = u64::from(size.total_words());
    let words = u64::from(count) * per;
    if words > MAX_LIST_COUNT || u64::from(count) > MAX_LIST_COUNT {
        return Err(too_large(u64::from(count), per * 64));
    }
    let (s, o, _) = alloc_object(
        arena,
        segment,
        pos,
        words as u32 + 1,
        Fill::Zeroed,
        Keep::Nothing,
        |off| pointer::encode_list(off, ElementSize::InlineComposite, words),
        Tag(pointer::encode_tag(u64::from(count), size)),
    )?;
    Ok((s, o + 1))
}

impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    /// The list of `count` structs of `size` whose element 0 is at
    /// (`segment`, `start`).
    #[inline(always)]
    pub(super) fn of_structs(
        arena: &'a mut A,
        segment: u32,
        start: u32,
        count: u32,
        size: StructSize,
    ) -> Self {
        ListBuilder {
            arena,
            segment,
            start,
            len: count,
            size: ElementSize::InlineComposite,
            step_bits: u64::from(size.total_words()) * 64,
            data_bits: u32::from(size.data_words) * 64,
            ptrs: size.pointers,
        }
    }
}

/// Checks the inline-composite list of `words` words (after its tag) at
/// (`segment`, `start`): the tag word in bounds and struct-shaped, the
/// elements within the words. Returns the offset of element 0, the element
/// count and the element size.
fn composite_list<A: Arena + ?Sized>(
    arena: &A,
    segment: u32,
    start: i64,
    words: u64,
) -> Result<(u32, u64, StructSize)> {
    let at = check_in(arena, segment, start, words + 1)?;
    let tag = read_word(arena, segment, at);
    let elements = pointer::tag_element_count(tag);
    let size = pointer::struct_size(tag);
    let per = u64::from(size.total_words());
    let bad = |what| Error::BadCompositeTag {
        what,
        elements,
        element_words: per,
        list_words: words,
    };
    if pointer::kind(tag) != KIND_STRUCT {
        return Err(bad("tag word is not struct-shaped"));
    }
    // `elements < 2^30` and `per < 2^17`: the product fits in u64.
    if elements * per > words {
        return Err(bad("elements overrun the list's words"));
    }
    Ok((at + 1, elements, size))
}

/// Writes an inline-composite list's tag word, the first of its words
/// (the elements after it were asked for zeroed).
struct Tag(u64);

impl WriteObject for Tag {
    #[inline(always)]
    fn write(self, object: &mut [Word]) {
        if let Some(tag) = object.first_mut() {
            *tag = Word::from_u64(self.0);
        }
    }
}
