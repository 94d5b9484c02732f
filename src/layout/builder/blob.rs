//! `Text` and `Data` behind a pointer slot: made, copied in, or opened to
//! overwrite in place.

use super::{
    Fill, Keep, ListBuilder, PointerBuilder, WriteObject, alloc_object, check_in, too_large,
};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::cache::Cached;
use crate::layout::pointer;
use crate::layout::pointer::{ElementSize, MAX_LIST_COUNT};
use crate::word::Word;

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    /// Allocates `len` zeroed bytes as a `Data` blob and returns them to be
    /// filled in.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    pub fn init_data(self, len: u32) -> Result<&'a mut [u8]> {
        let list = self.init_list(ElementSize::Byte, len)?;
        list.into_bytes_mut()
    }

    /// The bytes of the `Data` blob the slot points to, to overwrite in
    /// place; a new empty blob when the slot is null.
    ///
    /// # Errors
    /// The slot holds something other than a list of bytes, or the arena
    /// has no room.
    pub fn get_data_mut(self) -> Result<&'a mut [u8]> {
        if self.is_null() {
            return self.init_data(0);
        }
        let (s, start, tag) = self.resolve_list()?;
        let size = pointer::list_element_size(tag);
        let count = pointer::list_count(tag);
        if size != ElementSize::Byte && count > 0 {
            // `Text` and `Data` are never upgraded: only a list of bytes
            // (or an empty list) is one.
            return Err(Error::IncompatibleList {
                expected_data_bits: 8,
                expected_pointers: 0,
                found_data_bits: size.data_bits(),
                found_pointers: size.pointers(),
                bit_note: if size == ElementSize::Bit {
                    ", a bit list"
                } else {
                    ""
                },
            });
        }
        let at = check_in(self.arena, s, start, count.div_ceil(8))?;
        ListBuilder {
            arena: self.arena,
            segment: s,
            start: at,
            len: if size == ElementSize::Byte {
                count as u32
            } else {
                0
            },
            size: ElementSize::Byte,
            step_bits: 8,
            data_bits: 8,
            ptrs: 0,
        }
        .into_bytes_mut()
    }

    /// The bytes of the `Text` the slot points to (without its terminator),
    /// to overwrite in place; a new empty text when the slot is null.
    ///
    /// # Errors
    /// As [`get_data_mut`](Self::get_data_mut); a text with no room for
    /// its terminator is [`Error::TextNotTerminated`].
    pub fn get_text_bytes_mut(self) -> Result<&'a mut [u8]> {
        if self.is_null() {
            return self.init_text(0);
        }
        let bytes = self.get_data_mut()?;
        let len = bytes.len();
        match bytes.split_last_mut() {
            Some((0, text)) => Ok(text),
            _ => Err(Error::TextNotTerminated { len: len as u64 }),
        }
    }

    /// Copies `bytes` into the message as a `Data` blob.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_data(self, bytes: &[u8]) -> Result<()> {
        self.set_data_keeping(bytes, Keep::Nothing)?;
        Ok(())
    }

    /// [`set_data`](Self::set_data), returning what `keep` asks for kept.
    #[inline(always)]
    pub(super) fn set_data_keeping(self, bytes: &[u8], keep: Keep) -> Result<Cached> {
        if bytes.is_empty() {
            // No words: a list of 0 bytes, as `init_data(0)` makes it.
            self.init_data(0)?;
            return Ok(Cached::empty());
        }
        self.set_byte_list_keeping(bytes, bytes.len() as u64, keep)
    }

    /// Allocates a `Text` of `len` bytes plus its NUL terminator and returns
    /// the `len` bytes to be filled in (the terminator is already there).
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    pub fn init_text(self, len: u32) -> Result<&'a mut [u8]> {
        let with_nul = len
            .checked_add(1)
            .ok_or_else(|| too_large(u64::from(len) + 1, 8))?;
        let bytes = self.init_data(with_nul)?;
        let n = bytes.len().saturating_sub(1);
        Ok(&mut bytes[..n])
    }

    /// Copies `text` into the message as a NUL-terminated `Text`.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_text(self, text: &str) -> Result<()> {
        self.set_text_bytes(text.as_bytes())
    }

    /// Copies raw bytes into the message as a NUL-terminated `Text`, with no
    /// UTF-8 check.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline(always)]
    pub fn set_text_bytes(self, bytes: &[u8]) -> Result<()> {
        self.set_byte_list(bytes, bytes.len() as u64 + 1)
    }

    /// [`set_text`](Self::set_text), returning what `keep` asks for kept.
    #[inline(always)]
    pub(super) fn set_text_keeping(self, text: &str, keep: Keep) -> Result<Cached> {
        let bytes = text.as_bytes();
        self.set_byte_list_keeping(bytes, bytes.len() as u64 + 1, keep)
    }

    /// Points the slot at a new list of `count` bytes (more than 0, at
    /// least `bytes.len()`): `bytes`, then zeros (a text's terminator).
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline(always)]
    pub(crate) fn set_byte_list(self, bytes: &[u8], count: u64) -> Result<()> {
        self.set_byte_list_keeping(bytes, count, Keep::Nothing)?;
        Ok(())
    }

    /// [`set_byte_list`](Self::set_byte_list), returning what `keep` asks
    /// for kept (see [`Keep::Parent`]).
    ///
    /// # Errors
    /// As [`set_byte_list`](Self::set_byte_list).
    #[inline(always)]
    pub(super) fn set_byte_list_keeping(
        self,
        bytes: &[u8],
        count: u64,
        keep: Keep,
    ) -> Result<Cached> {
        if count > MAX_LIST_COUNT {
            return Err(too_large(count, 8));
        }
        let words = count.div_ceil(8) as u32;
        let make = move |off| pointer::encode_list(off, ElementSize::Byte, count);
        // Every byte of the words is written as they are allocated: the
        // bytes, then zeros.
        let (_, _, kept) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            words,
            Fill::Overwritten,
            keep,
            make,
            Blob { bytes, count },
        )?;
        Ok(kept)
    }
}

/// Writes a list of `count` bytes: `bytes` (at most `count` of them), then
/// zeros.
struct Blob<'b> {
    bytes: &'b [u8],
    count: u64,
}

impl WriteObject for Blob<'_> {
    #[inline(always)]
    fn write(self, object: &mut [Word]) {
        let dst = Word::slice_as_bytes_mut(object);
        if self.count > self.bytes.len() as u64 + 1 {
            // More than one zero after the bytes (`count - len` is a
            // constant where this is inlined for a text): the words zeroed
            // whole, then the bytes copied over their front.
            dst.fill(0);
            if let Some(front) = dst.get_mut(..self.bytes.len()) {
                copy_bytes(front, self.bytes);
            }
        } else {
            write_blob(dst, self.bytes);
        }
    }
}

/// Writes `src` over the front of `dst` and zeros over the rest: a blob's
/// words (`dst`, whole words) with its padding and a text's terminator.
/// `dst` must be `src` plus at most one byte (a terminator) rounded up to
/// whole words, so that every zero lies in the last word: that word is
/// zeroed whole and the bytes copied over its front (a longer `dst` would
/// keep what it held between the two). (Gathering a short blob's
/// bytes into its word with no branch on its length was tried: 33 more
/// instructions a text, slower than the length branches it saved on the
/// data-set suite's mixed short texts.)
#[inline(always)]
pub(in crate::layout) fn write_blob(dst: &mut [u8], src: &[u8]) {
    if let Some((_, last)) = dst.split_last_chunk_mut::<8>() {
        *last = [0; 8];
    }
    if let Some(front) = dst.get_mut(..src.len()) {
        copy_bytes(front, src);
    }
}

/// Copies `src` into `dst` (same length); copies of up to 32 bytes (most
/// data sections, small lists and short texts) are done with fixed-size
/// moves instead of a call to `memcpy`. Under 8 bytes is tested first: a
/// text of 4 to 7 bytes is two tests from its moves, a copy of over 32
/// bytes two tests from `memcpy`.
#[inline(always)]
pub(in crate::layout) fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if dst.len() != n {
        dst.copy_from_slice(src);
    } else if n < 8 {
        if n >= 4 {
            dst[..4].copy_from_slice(&src[..4]);
            dst[n - 4..].copy_from_slice(&src[n - 4..]);
        } else if let ([d0, .., dn], [s0, .., sn]) = (&mut *dst, src) {
            // 2 or 3 bytes: the first, the last and the middle one (which
            // is one of the others for 2), with no loop for LLVM to make a
            // call.
            *d0 = *s0;
            *dn = *sn;
            let mid = n / 2;
            if let (Some(d), Some(s)) = (dst.get_mut(mid), src.get(mid)) {
                *d = *s;
            }
        } else if let ([d], [s]) = (dst, src) {
            *d = *s;
        }
    } else if n > 32 {
        dst.copy_from_slice(src);
    } else if n < 16 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else {
        dst[..16].copy_from_slice(&src[..16]);
        dst[n - 16..].copy_from_slice(&src[n - 16..]);
    }
}
