//! Schema evolution on the builder side: a struct or a list that an older
//! version of a schema wrote smaller is moved into a larger allocation
//! when a newer builder opens it, so that the newer fields have room. This
//! follows the reference (layout.c++, 0.9.2): `getWritableStructPointer`
//! and `getWritableStructListPointer` for when to move and to what size,
//! `transferPointer` for moving a pointer without copying what it points
//! to, and `zeroPointerAndFars` for the landing pads the old pointer used.
//!
//! The words left behind are zeroed: they read as nothing if reached some
//! other way, keep nothing the caller may mean to drop, and pack to
//! almost nothing. They stay allocated until the message is reset.
//!
//! These are cold paths: a builder opening what its own schema version
//! wrote never comes here.

use super::allocation::point_far;
use super::slot_list::alloc_struct_list;
use super::zero::zero_landing_pad;
use super::{
    BuilderSegments, Fill, Keep, ListBuilder, PointerBuilder, StructBuilder, Zeroed, alloc_object,
    check_in, read_word, write_word,
};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::cache::KeptArena;
use crate::layout::pointer::{self, ElementSize, KIND_LIST, KIND_STRUCT, StructSize};
use crate::word::Word;

/// The struct size with each section the larger of the two.
fn union_size(a: StructSize, b: StructSize) -> StructSize {
    StructSize::new(a.data_words.max(b.data_words), a.pointers.max(b.pointers))
}

/// The error for words the arena handed out (or holds for an object
/// already checked) that it no longer reports.
fn lost_words(segment: u32, offset: u32, len: u64) -> Error {
    Error::ArenaContract {
        what: "allocated words lie outside the segment the arena reports",
        segment,
        offset: u64::from(offset),
        len,
    }
}

/// Zeroes `len` words at (`segment`, `at`).
fn zero_old<A: Arena + ?Sized>(arena: &mut A, segment: u32, at: u32, len: u64) -> Result<()> {
    let start = at as usize;
    BuilderSegments::get_mut(arena, segment)
        .get_mut(start..start + len as usize)
        .ok_or_else(|| lost_words(segment, at, len))?
        .fill(Word::ZERO);
    Ok(())
}

/// Copies `len` words from (`from_segment`, `from`) to (`to_segment`,
/// `to`); the ranges do not overlap.
fn copy_words<A: Arena + ?Sized>(
    arena: &mut A,
    (from_segment, from): (u32, u32),
    (to_segment, to): (u32, u32),
    len: u32,
) -> Result<()> {
    let n = len as usize;
    if from_segment == to_segment {
        let seg = BuilderSegments::get_mut(arena, to_segment);
        let (f, t) = (from as usize, to as usize);
        if f + n > seg.len() || t + n > seg.len() {
            return Err(lost_words(to_segment, to, u64::from(len)));
        }
        seg.copy_within(f..f + n, t);
        return Ok(());
    }
    // Two segments of one arena cannot be borrowed at once: through a
    // small buffer.
    let mut buf = [Word::ZERO; 16];
    let mut done = 0;
    while done < n {
        let k = (n - done).min(buf.len());
        let src = from as usize + done;
        let chunk = BuilderSegments::get(arena, from_segment)
            .get(src..src + k)
            .ok_or_else(|| lost_words(from_segment, from, u64::from(len)))?;
        buf[..k].copy_from_slice(chunk);
        let dst = to as usize + done;
        BuilderSegments::get_mut(arena, to_segment)
            .get_mut(dst..dst + k)
            .ok_or_else(|| lost_words(to_segment, to, u64::from(len)))?
            .copy_from_slice(&buf[..k]);
        done += k;
    }
    Ok(())
}

/// Makes the null pointer at (`dst_segment`, `dst`) point where the
/// pointer at (`src_segment`, `src`) points, without copying the object:
/// a near pointer when both are in the object's segment, else a far
/// pointer through a landing pad in the object's segment (double far when
/// that segment is full). Far pointers and capabilities are copied as they
/// are. The source pointer itself is left for the caller to zero.
///
/// # Errors
/// A near pointer whose object lies outside its segment, or the arena has
/// no room for a landing pad.
fn transfer_pointer<A: Arena + ?Sized>(
    arena: &mut A,
    (dst_segment, dst): (u32, u32),
    (src_segment, src): (u32, u32),
) -> Result<()> {
    let w = read_word(arena, src_segment, src);
    if w == 0 {
        return Ok(());
    }
    let kind = pointer::kind(w);
    if kind != KIND_STRUCT && kind != KIND_LIST {
        write_word(arena, dst_segment, dst, w);
        return Ok(());
    }
    let target = check_in(
        arena,
        src_segment,
        i64::from(src) + 1 + pointer::offset(w),
        0,
    )?;
    // The kind and the upper half (sizes, counts) stay; the offset is new.
    let upper = w & 0xffff_ffff_0000_0003;
    let make = move |offset: i64| match pointer::encode_offset(offset) | upper {
        // A struct of no words at offset 0 would be the null pointer: the
        // offset of an empty struct is free, -1 keeps it non-null.
        0 => pointer::encode_struct(-1, StructSize::new(0, 0)),
        p => p,
    };
    if dst_segment == src_segment {
        write_word(
            arena,
            dst_segment,
            dst,
            make(i64::from(target) - i64::from(dst) - 1),
        );
        return Ok(());
    }
    point_far(arena, dst_segment, dst, src_segment, target, make)
}

/// Moves the sections of the struct `from` (segment, offset, size) into
/// the zeroed struct `to`, at least as large in both sections: data words
/// copied, pointers transferred.
fn move_struct<A: Arena + ?Sized>(
    arena: &mut A,
    (from_segment, from, from_size): (u32, u32, StructSize),
    (to_segment, to, to_size): (u32, u32, StructSize),
) -> Result<()> {
    let data = u32::from(from_size.data_words);
    copy_words(arena, (from_segment, from), (to_segment, to), data)?;
    for i in 0..u32::from(from_size.pointers) {
        transfer_pointer(
            arena,
            (to_segment, to + u32::from(to_size.data_words) + i),
            (from_segment, from + data + i),
        )?;
    }
    Ok(())
}

/// The word of the slot at (`segment`, `pos`), which is left null.
fn take_slot<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32) -> u64 {
    let old = read_word(arena, segment, pos);
    write_word(arena, segment, pos, 0);
    old
}

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    /// Points the slot at a new list of `count` zeroed structs of `size`,
    /// leaving the object it pointed to as it is for the caller to move
    /// (the landing pad on the way is zeroed). On error the slot keeps its
    /// old pointer.
    fn replace_with_struct_list(self, count: u32, size: StructSize) -> Result<ListBuilder<'a, A>> {
        let old = take_slot(self.arena, self.segment, self.pos);
        let (s, start) = alloc_struct_list(self.arena, self.segment, self.pos, count, size)
            .inspect_err(|_| write_word(self.arena, self.segment, self.pos, old))?;
        zero_landing_pad(self.arena, old);
        Ok(ListBuilder::of_structs(self.arena, s, start, count, size))
    }

    /// Moves the struct of size `found` at (`segment`, `at`), the slot's
    /// target, into a new struct large enough for it and `want`.
    #[cold]
    #[inline(never)]
    pub(super) fn upgrade_struct(
        self,
        segment: u32,
        at: u32,
        found: StructSize,
        want: StructSize,
    ) -> Result<StructBuilder<'a, A>> {
        let size = union_size(found, want);
        // The slot is null while the new struct is allocated (so that the
        // old one is not zeroed as an overwritten object) and gets its old
        // pointer back when that fails.
        let old = take_slot(self.arena, self.segment, self.pos);
        let (s, o, _) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            size.total_words(),
            Fill::Zeroed,
            Keep::Nothing,
            |offset| pointer::encode_struct(offset, size),
            Zeroed,
        )
        .inspect_err(|_| write_word(self.arena, self.segment, self.pos, old))?;
        zero_landing_pad(self.arena, old);
        move_struct(self.arena, (segment, at, found), (s, o, size))?;
        zero_old(self.arena, segment, at, u64::from(found.total_words()))?;
        Ok(StructBuilder {
            arena: KeptArena::new(self.arena),
            segment: s,
            data: o,
            size,
        })
    }

    /// Moves the inline-composite list of `elements` structs of size
    /// `found` whose element 0 is at (`segment`, `at`) into a new list of
    /// structs large enough for them and `want`.
    #[cold]
    #[inline(never)]
    pub(super) fn upgrade_struct_list(
        self,
        segment: u32,
        at: u32,
        elements: u64,
        found: StructSize,
        want: StructSize,
    ) -> Result<ListBuilder<'a, A>> {
        let size = union_size(found, want);
        let count = u32::try_from(elements).unwrap_or(u32::MAX);
        let (old_per, new_per) = (found.total_words(), size.total_words());
        let list = self.replace_with_struct_list(count, size)?;
        for i in 0..count {
            move_struct(
                list.arena,
                (segment, at + i * old_per, found),
                (list.segment, list.start + i * new_per, size),
            )?;
        }
        // The tag word too.
        let words = u64::from(count) * u64::from(old_per) + 1;
        zero_old(list.arena, segment, at - 1, words)?;
        Ok(list)
    }

    /// Moves the list of `count` elements of `element` size (not inline
    /// composite, not bits unless empty) at (`segment`, `start`) into a new
    /// list of structs of at least `want`.
    #[cold]
    #[inline(never)]
    pub(super) fn upgrade_list_to_structs(
        self,
        segment: u32,
        start: i64,
        element: ElementSize,
        count: u64,
        want: StructSize,
    ) -> Result<ListBuilder<'a, A>> {
        let size = match element {
            ElementSize::Void | ElementSize::Bit => want,
            ElementSize::Pointer => StructSize::new(want.data_words, want.pointers.max(1)),
            _ => StructSize::new(want.data_words.max(1), want.pointers),
        };
        let bits = u64::from(element.data_bits()) + 64 * u64::from(element.pointers());
        let old_words = (count * bits).div_ceil(64);
        let at = check_in(self.arena, segment, start, old_words)?;
        // `count < 2^29`.
        let count = count as u32;
        let per = size.total_words();
        let mut list = self.replace_with_struct_list(count, size)?;
        if element == ElementSize::Pointer {
            for i in 0..count {
                let to = list.start + i * per + u32::from(size.data_words);
                transfer_pointer(list.arena, (list.segment, to), (segment, at + i))?;
            }
        } else if bits >= 8 {
            let n = (bits / 8) as usize;
            for i in 0..count {
                let mut value = [0u8; 8];
                let from = at as usize * 8 + i as usize * n;
                let bytes = Word::slice_as_bytes(BuilderSegments::get(list.arena, segment));
                value[..n].copy_from_slice(
                    bytes
                        .get(from..from + n)
                        .ok_or_else(|| lost_words(segment, at, old_words))?,
                );
                let to = (list.start + i * per) as usize * 8;
                let (list_segment, list_start) = (list.segment, list.start);
                list.bytes_mut()
                    .get_mut(to..to + n)
                    .ok_or_else(|| lost_words(list_segment, list_start, u64::from(per)))?
                    .copy_from_slice(&value[..n]);
            }
        }
        zero_old(list.arena, segment, at, old_words)?;
        Ok(list)
    }
}
