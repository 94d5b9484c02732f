//! Whole lists at once: a list's elements as a slice, copied from a slice,
//! and lists of primitives, bools, text and data made from their values in
//! one allocation.

use super::{Fill, Keep, ListBuilder, PointerBuilder, WriteObject, alloc_object, too_large};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::cache::Cached;
use crate::layout::pointer;
use crate::layout::pointer::{ElementSize, MAX_LIST_COUNT, MAX_SEGMENT_WORDS};
use crate::layout::primitive::Primitive;
use crate::word::Word;

/// Bulk access to lists of primitives, bools, text and data.
impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    /// The elements as a mutable slice of `T`, when they are stored as
    /// exactly `T`s on a little-endian target; `None` otherwise.
    #[inline]
    pub fn as_slice_mut<T: Primitive>(&mut self) -> Option<&mut [T]> {
        let bits = (T::BYTES * 8) as u64;
        if self.len == 0 {
            return Some(&mut []);
        }
        if cfg!(target_endian = "big")
            || self.step_bits != bits
            || u64::from(self.data_bits) != bits
        {
            return None;
        }
        let start = self.start as usize * 8;
        let end = start.checked_add(self.len as usize * T::BYTES)?;
        let bytes = self.bytes_mut().get_mut(start..end)?;
        bytemuck::try_cast_slice_mut(bytes).ok()
    }

    /// Sets every element from `values` (one memcpy where the layout
    /// allows).
    ///
    /// # Panics
    /// If `values.len() != self.len()`, as `slice::copy_from_slice`.
    #[inline]
    pub fn copy_from_slice<T: Primitive>(&mut self, values: &[T]) {
        assert_eq!(
            values.len(),
            self.len as usize,
            "copy_from_slice: {} values for a list of {}",
            values.len(),
            self.len
        );
        if let Some(dst) = self.as_slice_mut::<T>() {
            dst.copy_from_slice(values);
            return;
        }
        for (i, v) in (0u32..).zip(values) {
            self.set::<T>(i, *v);
        }
    }

    /// Sets every element of a bit list from `values`, 8 at a time.
    ///
    /// # Panics
    /// If `values.len() != self.len()`.
    pub fn copy_bools_from_slice(&mut self, values: &[bool]) {
        assert_eq!(
            values.len(),
            self.len as usize,
            "copy_bools_from_slice: {} values for a list of {}",
            values.len(),
            self.len
        );
        if self.size != ElementSize::Bit {
            for (i, v) in (0u32..).zip(values) {
                self.set_bool(i, *v);
            }
            return;
        }
        let start = self.start as usize * 8;
        let n = values.len().div_ceil(8);
        if let Some(dst) = self.bytes_mut().get_mut(start..start + n) {
            pack_bools(dst, values);
        }
    }
}

/// Writes `values` little-endian into `dst` (exactly their size).
#[inline(always)]
fn write_primitives<T: Primitive>(dst: &mut [u8], values: &[T]) {
    if cfg!(target_endian = "little") {
        dst.copy_from_slice(bytemuck::cast_slice(values));
    } else {
        for (d, v) in dst.chunks_exact_mut(T::BYTES).zip(values) {
            d.copy_from_slice(&v.to_bits().to_le_bytes()[..T::BYTES]);
        }
    }
}

/// Packs `values` into `dst` as a bit list (bit `i` of byte `i / 8`), eight
/// at a time; bytes of `dst` past the last value are left as they are.
#[inline]
fn pack_bools(dst: &mut [u8], values: &[bool]) {
    let whole = values.chunks_exact(8);
    let rest = whole.remainder();
    let full = values.len() / 8;
    for (byte, chunk) in dst.iter_mut().zip(whole) {
        let bytes: [u8; 8] = bytemuck::cast_slice::<bool, u8>(chunk)
            .try_into()
            .unwrap_or([0; 8]);
        // Each `bool` is one byte, 0 or 1: the multiply moves byte `k` to
        // bit 56 + `k` without carries (every partial product lands on a
        // bit of its own).
        *byte = (u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8;
    }
    if let Some(byte) = dst.get_mut(full) {
        if !rest.is_empty() {
            let mut b = 0u8;
            for (k, v) in rest.iter().enumerate() {
                b |= u8::from(*v) << k;
            }
            *byte = b;
        }
    }
}

impl<A: Arena + ?Sized> PointerBuilder<'_, A> {
    /// Points the slot at a new list holding `values` (one allocation, one
    /// memcpy on little-endian targets).
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_primitive_list<T: Primitive>(self, values: &[T]) -> Result<()> {
        let size = match T::BYTES {
            1 => ElementSize::Byte,
            2 => ElementSize::TwoBytes,
            4 => ElementSize::FourBytes,
            _ => ElementSize::EightBytes,
        };
        let len = u32::try_from(values.len())
            .map_err(|_| too_large(values.len() as u64, T::BYTES as u64 * 8))?;
        // Every byte of the list's words is written as they are allocated.
        self.init_list_with(size, len, Fill::Overwritten, Primitives(values))?;
        Ok(())
    }

    /// Points the slot at a new bit list holding `values`.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_bool_list(self, values: &[bool]) -> Result<()> {
        let len = u32::try_from(values.len()).map_err(|_| too_large(values.len() as u64, 1))?;
        self.init_list_with(ElementSize::Bit, len, Fill::Zeroed, Bools(values))?;
        Ok(())
    }

    /// Points the slot at a new list of texts holding `items`, laid out in
    /// one allocation (the pointers, then each text) when the arena has
    /// room for it in one segment, one text at a time otherwise.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    pub fn set_text_list<'s, I>(self, items: I) -> Result<()>
    where
        I: IntoIterator<Item = &'s str>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        self.set_blob_list::<1>(items.into_iter().map(str::as_bytes), Keep::Nothing)?;
        Ok(())
    }

    /// Points the slot at a new list of `Data` holding `items`, laid out as
    /// [`set_text_list`](Self::set_text_list) lays out texts.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    pub fn set_data_list<'s, I>(self, items: I) -> Result<()>
    where
        I: IntoIterator<Item = &'s [u8]>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        self.set_blob_list::<0>(items.into_iter(), Keep::Nothing)?;
        Ok(())
    }

    /// A list of byte blobs, each followed by `TERMINATOR` zero bytes (0 or
    /// 1: a constant, so that each blob's words are a mask and an add);
    /// returns what `keep` asks for kept (when laid out in one allocation).
    pub(super) fn set_blob_list<'s, const TERMINATOR: u64>(
        self,
        items: impl ExactSizeIterator<Item = &'s [u8]> + Clone,
        keep: Keep,
    ) -> Result<Cached> {
        let terminator = TERMINATOR;
        let n = items.len();
        let count = u32::try_from(n)
            .ok()
            .filter(|c| u64::from(*c) <= MAX_LIST_COUNT)
            .ok_or_else(|| too_large(n as u64, 64))?;
        // Words of the pointers and of every blob.
        let mut total = u64::from(count);
        for b in items.clone() {
            let bytes = b.len() as u64 + terminator;
            if bytes > MAX_LIST_COUNT {
                return Err(too_large(bytes, 8));
            }
            total += bytes.div_ceil(8);
        }
        if total > MAX_SEGMENT_WORDS {
            // Too much for one segment: one blob at a time.
            let mut list = self.init_list(ElementSize::Pointer, count)?;
            for (i, b) in (0u32..).zip(items) {
                list.pointer(i)
                    .set_byte_list(b, b.len() as u64 + terminator)?;
            }
            return Ok(Cached::empty());
        }
        let make = move |off| pointer::encode_list(off, ElementSize::Pointer, u64::from(count));
        // Every word is written as the words are handed out (no second
        // lookup): pointers, then each blob's last word zeroed (its padding
        // and terminator) and its bytes copied over the front.
        let mut mismatch = false;
        let (_, _, kept) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            total as u32,
            Fill::Overwritten,
            keep,
            make,
            BlobList::<_, TERMINATOR> {
                count: count as usize,
                items,
                mismatch: &mut mismatch,
            },
        )?;
        if mismatch {
            // `items` yielded other blobs the second time (a `Clone` that
            // does not clone): the list's words are zeroed, not left as
            // they were handed out.
            return Err(Error::ItemsChanged {
                items: u64::from(count),
                words: total,
            });
        }
        Ok(kept)
    }
}

/// Writes a list of primitives, `values`, then zero padding to the end of
/// its last word.
struct Primitives<'v, T>(&'v [T]);

impl<T: Primitive> WriteObject for Primitives<'_, T> {
    #[inline(always)]
    fn write(self, object: &mut [Word]) {
        let bytes = Word::slice_as_bytes_mut(object);
        let (elements, padding) = bytes.split_at_mut(self.0.len() * T::BYTES);
        write_primitives(elements, self.0);
        padding.fill(0);
    }
}

/// Writes a bit list of `values` into words asked for zeroed.
struct Bools<'v>(&'v [bool]);

impl WriteObject for Bools<'_> {
    #[inline(always)]
    fn write(self, object: &mut [Word]) {
        pack_bools(Word::slice_as_bytes_mut(object), self.0);
    }
}

/// Writes a list of blob pointers and the blobs after them, as
/// [`fill_blob_list`] does; `mismatch` is set when `items` did not fit.
struct BlobList<'m, I, const TERMINATOR: u64> {
    count: usize,
    items: I,
    mismatch: &'m mut bool,
}

impl<'s, I, const TERMINATOR: u64> WriteObject for BlobList<'_, I, TERMINATOR>
where
    I: Iterator<Item = &'s [u8]>,
{
    #[inline(always)]
    fn write(self, object: &mut [Word]) {
        *self.mismatch = !fill_blob_list::<TERMINATOR>(object, self.count, self.items);
    }
}

/// Writes a list of `count` blob pointers and the blobs after them into
/// `region` (exactly the pointers' and blobs' words, as counted from
/// `items`), each blob followed by `TERMINATOR` (0 or 1) zero bytes and
/// zero padding to its last word. `false`, and `region` all zero, when
/// `items` does not fit `region` exactly (an iterator whose clone yields
/// other items than the first pass counted).
#[inline(always)]
fn fill_blob_list<'s, const TERMINATOR: u64>(
    region: &mut [Word],
    count: usize,
    items: impl Iterator<Item = &'s [u8]>,
) -> bool {
    let Some((ptrs, blobs)) = region.split_at_mut_checked(count) else {
        crate::arena::zero_words(region);
        return false;
    };
    // Pointers by index, not by iterator: LLVM kept the iterator's
    // has-next flag on the stack, a store and reload on every blob's path
    // (a sixth of the data-set suite's text-list time, sampled).
    let mut i = 0usize;
    let mut rest = Word::slice_as_bytes_mut(blobs);
    // The offset (in words, from the word after it) from the next pointer
    // to its blob: from pointer i (word i) to the blob at word `count`
    // plus the blobs' words before it. An empty Data blob is a list of 0
    // bytes there, as `set_data(&[])`.
    let mut off = count as i64 - 1;
    for b in items {
        let bytes = b.len() as u64 + TERMINATOR;
        // The blob's words, in bytes (a slice is at most `isize::MAX`
        // bytes long: no overflow).
        let len = (b.len() + TERMINATOR as usize + 7) & !7;
        // A blob the sizing pass did not see may be too long to encode
        // (its count would not fit the pointer), even if it fits here.
        let (Some(ptr), Some((dst, tail)), true) = (
            ptrs.get_mut(i),
            core::mem::take(&mut rest).split_at_mut_checked(len),
            bytes <= MAX_LIST_COUNT,
        ) else {
            crate::arena::zero_words(region);
            return false;
        };
        *ptr = Word::from_u64(pointer::encode_list(off, ElementSize::Byte, bytes));
        // The blob's words round the bytes and a terminator of at most
        // one byte up to a word: the bytes, then zeros.
        super::write_blob(dst, b);
        rest = tail;
        off += (len / 8) as i64 - 1;
        i += 1;
    }
    // Every pointer written and every blob word: a clone that yielded
    // fewer items, or shorter or longer ones, than the sizing pass counted
    // is refused (more items than pointers, above).
    if i != ptrs.len() || !rest.is_empty() {
        crate::arena::zero_words(region);
        return false;
    }
    true
}
