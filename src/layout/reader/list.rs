//! List readers: [`ListReader`] and the struct-list iterator
//! [`StructElements`], over the parent module's contexts and struct
//! readers.

use super::*;

/// A list inside a message being read.
#[derive(Clone, Copy)]
pub struct ListReader<'a> {
    pub(super) ctx: &'a ReadContext<'a>,
    pub(super) seg: &'a [Word],
    pub(super) segment: u32,
    /// Bit offset of element 0 in `seg`.
    pub(super) start_bit: u64,
    pub(super) len: u32,
    pub(super) step_bits: u64,
    pub(super) data_bits: u32,
    pub(super) ptrs: u16,
    pub(super) size: ElementSize,
    pub(super) nesting: u32,
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

    pub(super) fn empty(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
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
