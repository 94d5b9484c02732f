//! [`ListBuilder`]: a list's elements, one at a time.

use super::{PointerBuilder, StructBuilder};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::cache::KeptArena;
use crate::layout::pointer::{ElementSize, StructSize};
use crate::layout::primitive::{Primitive, load, store};
use crate::layout::segments::BuilderSegments;
use crate::word::Word;

/// A list in a message being built.
pub struct ListBuilder<'a, A: Arena + ?Sized> {
    pub(super) arena: &'a mut A,
    pub(super) segment: u32,
    /// Word offset of element 0 (after the tag of an inline-composite list).
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) size: ElementSize,
    pub(super) step_bits: u64,
    pub(super) data_bits: u32,
    pub(super) ptrs: u16,
}

impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    /// A shorter-lived handle to the same list.
    pub fn reborrow(&mut self) -> ListBuilder<'_, A> {
        ListBuilder {
            arena: self.arena,
            segment: self.segment,
            start: self.start,
            len: self.len,
            size: self.size,
            step_bits: self.step_bits,
            data_bits: self.data_bits,
            ptrs: self.ptrs,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether the list has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element size as encoded.
    pub fn element_size(&self) -> ElementSize {
        self.size
    }

    #[inline]
    fn element_bit(&self, index: u32) -> u64 {
        assert!(
            index < self.len,
            "list index {index} out of range for length {}",
            self.len
        );
        u64::from(self.start) * 64 + u64::from(index) * self.step_bits
    }

    pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
        Word::slice_as_bytes_mut(BuilderSegments::get_mut(self.arena, self.segment))
    }

    /// Sets element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`, or the elements hold fewer bits than `T`.
    #[inline]
    pub fn set<T: Primitive>(&mut self, index: u32, value: T) {
        let bit = self.element_bit(index);
        assert!(
            (T::BYTES as u32) * 8 <= self.data_bits,
            "{}-byte value does not fit list elements of {} data bits",
            T::BYTES,
            self.data_bits
        );
        store(self.bytes_mut(), (bit / 8) as usize, value);
    }

    /// Element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get<T: Primitive>(&self, index: u32) -> T {
        let bit = self.element_bit(index);
        if (T::BYTES as u32) * 8 > self.data_bits {
            return T::from_bits(0);
        }
        let bytes = Word::slice_as_bytes(BuilderSegments::get(self.arena, self.segment));
        load(bytes, (bit / 8) as usize).unwrap_or(T::from_bits(0))
    }

    /// Sets element `index` of a bit list.
    ///
    /// # Panics
    /// If `index >= self.len()` or the elements hold no data bits.
    #[inline]
    pub fn set_bool(&mut self, index: u32, value: bool) {
        let bit = self.element_bit(index);
        assert!(self.data_bits > 0, "list elements hold no data bits");
        if let Some(b) = self.bytes_mut().get_mut((bit / 8) as usize) {
            let mask = 1u8 << (bit % 8);
            *b = if value { *b | mask } else { *b & !mask };
        }
    }

    /// Element `index` of a bit list.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get_bool(&self, index: u32) -> bool {
        let bit = self.element_bit(index);
        let bytes = Word::slice_as_bytes(BuilderSegments::get(self.arena, self.segment));
        self.data_bits > 0
            && bytes
                .get((bit / 8) as usize)
                .is_some_and(|b| b & (1 << (bit % 8)) != 0)
    }

    /// Element `index` of a struct list.
    ///
    /// # Panics
    /// If `index >= self.len()` or this is not a struct list.
    #[inline]
    pub fn get_struct(&mut self, index: u32) -> StructBuilder<'_, A> {
        let bit = self.element_bit(index);
        assert!(
            self.size == ElementSize::InlineComposite,
            "not a struct list"
        );
        let size = StructSize::new((self.data_bits / 64) as u16, self.ptrs);
        let mut element = StructBuilder {
            arena: KeptArena::new(self.arena),
            segment: self.segment,
            data: (bit / 64) as u32,
            size,
        };
        // The element's data section is looked up and kept now, inline (an
        // element is nearly always written right away).
        if size.data_words > 0 {
            element.look_up_and(|_| {});
        }
        element
    }

    /// Element `index` of a pointer list (or the first pointer of a struct
    /// list element).
    ///
    /// # Panics
    /// If `index >= self.len()` or the elements hold no pointer.
    #[inline]
    pub fn pointer(&mut self, index: u32) -> PointerBuilder<'_, A> {
        let bit = self.element_bit(index);
        assert!(self.ptrs > 0, "list elements hold no pointer");
        let pos = ((bit + u64::from(self.data_bits)) / 64) as u32;
        PointerBuilder {
            arena: self.arena,
            segment: self.segment,
            pos,
        }
    }

    /// Sets element `index` of a pointer list to a copy of `text`.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_text`].
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    #[inline]
    pub fn set_text(&mut self, index: u32, text: &str) -> Result<()> {
        self.pointer(index).set_text(text)
    }

    /// Sets element `index` of a pointer list to a copy of `bytes` as `Data`.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_data`].
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    pub fn set_data(&mut self, index: u32, bytes: &[u8]) -> Result<()> {
        self.pointer(index).set_data(bytes)
    }

    /// Allocates a list at element `index` of a pointer list.
    ///
    /// # Errors
    /// As [`PointerBuilder::init_list`].
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    pub fn init_list(
        &mut self,
        index: u32,
        size: ElementSize,
        count: u32,
    ) -> Result<ListBuilder<'_, A>> {
        self.pointer(index).init_list(size, count)
    }

    /// Allocates a struct at element `index` of a pointer list.
    ///
    /// # Errors
    /// As [`PointerBuilder::init_struct`].
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    #[inline]
    pub fn init_struct(&mut self, index: u32, size: StructSize) -> Result<StructBuilder<'_, A>> {
        self.pointer(index).init_struct(size)
    }

    /// The bytes of a list of bytes (for `Data` and `Text`), mutably.
    ///
    /// # Panics
    /// If the elements are not bytes.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        assert!(self.size == ElementSize::Byte, "not a list of bytes");
        let start = self.start as usize * 8;
        let len = self.len as usize;
        self.bytes_mut()
            .get_mut(start..start + len)
            .unwrap_or(&mut [])
    }

    /// The list's bytes, all of them: an arena that no longer hands out
    /// the words it allocated is an error, not a shorter slice.
    pub(super) fn into_bytes_mut(self) -> Result<&'a mut [u8]> {
        let start = self.start as usize * 8;
        let len = self.len as usize * (self.step_bits / 8) as usize;
        let seg = BuilderSegments::get_mut(self.arena, self.segment);
        Word::slice_as_bytes_mut(seg)
            .get_mut(start..start + len)
            .ok_or(Error::ArenaContract {
                what: "allocated words lie outside the segment the arena reports",
                segment: self.segment,
                offset: u64::from(self.start),
                len: (len as u64).div_ceil(8),
            })
    }

    /// Every byte of the list's words: the elements' data and the padding
    /// after it to a whole word.
    pub(crate) fn raw_words_bytes_mut(&mut self) -> &mut [u8] {
        let start = self.start as usize * 8;
        let len = (u64::from(self.len) * self.step_bits).div_ceil(64) as usize * 8;
        self.bytes_mut()
            .get_mut(start..start + len)
            .unwrap_or(&mut [])
    }
}

impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    /// The segment and word offset of element 0.
    #[inline(always)]
    pub(crate) fn place(&self) -> (u32, u32) {
        (self.segment, self.start)
    }

    /// The arena, for the rest of the builder's lifetime.
    #[inline(always)]
    pub(crate) fn into_arena(self) -> &'a mut A {
        self.arena
    }
}
