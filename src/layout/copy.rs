//! Deep copy of a reader's subtree into a message being built, plain or
//! in canonical form.
//!
//! The source is read through its reader, so the copy is bounded by the
//! source's traversal and nesting limits: a cyclic or amplifying source
//! fails with an error instead of looping. A source read in place from a
//! message being built (whose reader has no traversal limit) is bounded by
//! its size: a copy visits at most as many words as its segments hold.
//!
//! Objects are allocated in preorder (a struct, then what its pointers
//! point to in pointer order; a list, then what its elements point to in
//! element order), which is the order canonical form requires.
//!
//! The copy is a loop over an explicit work list, not a recursion: one
//! [`Frame`] per object whose pointers are being copied, as deep as the
//! source nests (each level is one the source's nesting limit allowed), so
//! no nesting limit and no source can exhaust the stack. With `alloc` the
//! list holds 16 frames inline and grows on the heap past that; without
//! it, it holds 64 and a deeper copy fails with
//! [`Error::CopyTooDeepWithoutAlloc`].

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::budget::Budget;
use super::builder::{Fill, PointerBuilder, StructBuilder, copy_bytes};
use super::pointer::{ElementSize, StructSize};
use super::reader::{ListReader, PointerReader, ReadContext, StructReader};
use super::segments::BuilderSegments;
use crate::arena::Arena;
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;

/// How a copy lays out structs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keep each struct's sections as they are.
    Plain,
    /// Trim trailing zero data words and trailing null pointers; give every
    /// element of a struct list the largest trimmed size among them.
    Canonical,
}

/// The canonical size of a struct: without trailing zero data words and
/// trailing null pointers.
fn trimmed_size(src: &StructReader<'_>) -> StructSize {
    let data = src.data_bytes();
    let data_words = data
        .chunks(8)
        .rposition(|w| w.iter().any(|&b| b != 0))
        .map_or(0, |i| i + 1);
    let pointers = (0..usize::from(src.pointer_count()))
        .rev()
        .find(|&i| !src.pointer(i).is_null())
        .map_or(0, |i| i + 1);
    StructSize::new(data_words as u16, pointers as u16)
}

impl<A: Arena + ?Sized> PointerBuilder<'_, A> {
    /// Sets the slot to a deep copy of what `src` points to (struct, list,
    /// text, data, capability or null), from any message.
    ///
    /// # Errors
    /// A malformed source or a source limit exceeded, or the arena has no
    /// room. On error the slot may point to a partial copy.
    pub fn set_from(&mut self, src: &PointerReader<'_>) -> Result<()> {
        self.reborrow().copy_pointer(src, Mode::Plain)
    }

    /// Sets the slot to a deep copy of the struct `src`.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_struct(&mut self, src: &StructReader<'_>) -> Result<()> {
        self.reborrow().copy_struct(src, Mode::Plain)
    }

    /// Sets the slot to a deep copy of the list `src`, keeping its element
    /// encoding.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_list(&mut self, src: &ListReader<'_>) -> Result<()> {
        self.reborrow().copy_list(src, Mode::Plain)
    }

    // The copy functions take the slot by value: passed in registers, not
    // as a pointer to a builder the caller just stored field by field
    // (reading it back whole stalls on store forwarding: text_copy/reuse
    // 68 -> 64 us).
    pub(crate) fn copy_pointer(self, src: &PointerReader<'_>, mode: Mode) -> Result<()> {
        let mut budget = Budget::new(src.context().copy_bound());
        let (arena, segment, pos) = self.into_parts();
        let mut stack = Stack::new();
        copy_object(arena, segment, pos, src, mode, &mut budget, &mut stack)?;
        copy_below(arena, src.context(), &mut stack, mode, &mut budget)
    }

    pub(crate) fn copy_struct(self, src: &StructReader<'_>, mode: Mode) -> Result<()> {
        let mut budget = Budget::new(src.context().copy_bound());
        let (arena, segment, pos) = self.into_parts();
        let mut stack = Stack::new();
        struct_object(arena, segment, pos, src, mode, &mut budget, &mut stack)?;
        copy_below(arena, src.context(), &mut stack, mode, &mut budget)
    }

    fn copy_list(self, src: &ListReader<'_>, mode: Mode) -> Result<()> {
        let mut budget = Budget::new(src.context().copy_bound());
        let (arena, segment, pos) = self.into_parts();
        let mut stack = Stack::new();
        list_object(arena, segment, pos, src, mode, &mut budget, &mut stack)?;
        copy_below(arena, src.context(), &mut stack, mode, &mut budget)
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// Overwrites this struct's fields with a deep copy of `src`'s: data
    /// bytes that fit, and every pointer that fits.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_from`].
    pub fn copy_from(&mut self, src: &StructReader<'_>) -> Result<()> {
        let mut budget = Budget::new(src.context().copy_bound());
        let size = self.size();
        let (arena, segment, data) = self.location();
        let mut stack = Stack::new();
        struct_into(arena, segment, data, size, src, &mut stack)?;
        copy_below(arena, src.context(), &mut stack, Mode::Plain, &mut budget)
    }
}

/// An object of the copy whose pointers are being copied, one at a time,
/// from the source to the copy's slots: a struct, a list of pointers, or a
/// struct list (one run of pointers per element).
///
/// Only positions are kept (the read context is the copy's, shared by every
/// reader of the source): the frame is pushed and popped whole, and small
/// frames of plain integers stay in registers in the loop.
#[derive(Clone, Copy)]
struct Frame<'r> {
    /// The source segment's words.
    seg: &'r [Word],
    /// The source segment's number.
    segment: u32,
    /// Nesting left for what the source pointers point to (as the source
    /// reader would read them).
    nesting: u32,
    /// Word of the next source pointer.
    src: u32,
    /// The copy's segment.
    dst_segment: u32,
    /// Word of the copy's slot for the next pointer.
    dst: u32,
    /// Pointers left in the current run.
    left: u32,
    /// Runs after the current one (struct list elements).
    runs: u32,
    /// Pointers in each run.
    per: u32,
    /// Words from the end of one run to the start of the next, in the
    /// source and in the copy (an element's data section).
    src_gap: u32,
    dst_gap: u32,
}

impl<'r> Frame<'r> {
    /// One run of `count` pointers: a struct's, or a list of pointers'.
    #[inline(always)]
    fn run(src: (&'r [Word], u32, u32, u32), dst_segment: u32, dst: u32, count: u32) -> Self {
        let (seg, segment, first, nesting) = src;
        Frame {
            seg,
            segment,
            nesting,
            src: first,
            dst_segment,
            dst,
            left: count,
            runs: 0,
            per: count,
            src_gap: 0,
            dst_gap: 0,
        }
    }
}

/// Frames held inline by the work list past the first: past them it grows
/// on the heap (with `alloc`) or the copy fails (without).
const INLINE_FRAMES: usize = if cfg!(feature = "alloc") { 16 } else { 64 };

/// The work list: the frames of the objects whose pointers are being
/// copied, innermost (the one being worked on) last.
///
/// Frames stay where they were pushed until they are popped: the loop works
/// on the last one in place and a new one is written straight into its
/// slot, so no frame is ever moved (a frame returned or moved whole is
/// read back with wider loads than it was stored with, which stalls on
/// store forwarding).
struct Stack<'r> {
    inline: [Option<Frame<'r>>; INLINE_FRAMES + 1],
    len: usize,
    #[cfg(feature = "alloc")]
    heap: Vec<Option<Frame<'r>>>,
}

impl<'r> Stack<'r> {
    #[inline(always)]
    fn new() -> Self {
        Stack {
            inline: [None; INLINE_FRAMES + 1],
            len: 0,
            #[cfg(feature = "alloc")]
            heap: Vec::new(),
        }
    }

    /// The innermost frame.
    #[inline(always)]
    fn top(&mut self) -> Option<&mut Frame<'r>> {
        #[cfg(feature = "alloc")]
        if let Some(frame) = self.heap.last_mut() {
            return frame.as_mut();
        }
        self.inline.get_mut(self.len.wrapping_sub(1))?.as_mut()
    }

    /// Pushes `frame`. It is written straight into its slot (taking the
    /// frame by value made it on the stack first and copied it with wide
    /// loads of narrow stores: a store-forwarding stall).
    #[inline(always)]
    fn push(&mut self, frame: Frame<'r>) -> Result<()> {
        *self.new_slot()? = Some(frame);
        Ok(())
    }

    /// A new innermost slot (`None`, to be written).
    #[inline(always)]
    fn new_slot(&mut self) -> Result<&mut Option<Frame<'r>>> {
        let i = self.len;
        if i < self.inline.len() {
            self.len = i + 1;
            return Ok(&mut self.inline[i]);
        }
        self.heap_slot()
    }

    #[inline(never)]
    fn heap_slot(&mut self) -> Result<&mut Option<Frame<'r>>> {
        #[cfg(feature = "alloc")]
        {
            self.heap.try_reserve(1).map_err(|_| {
                Error::Alloc(crate::arena::AllocError {
                    requested: (self.heap.len() as u64 + 1)
                        * core::mem::size_of::<Frame<'r>>() as u64,
                    available: 0,
                })
            })?;
            let i = self.heap.len();
            self.heap.push(None);
            Ok(&mut self.heap[i])
        }
        #[cfg(not(feature = "alloc"))]
        {
            Err(Error::CopyTooDeepWithoutAlloc {
                depth: self.len as u64 + 1,
                inline: INLINE_FRAMES + 1,
            })
        }
    }

    /// Drops the innermost frame.
    #[inline(always)]
    fn pop(&mut self) {
        #[cfg(feature = "alloc")]
        if self.heap.pop().is_some() {
            return;
        }
        self.len = self.len.saturating_sub(1);
    }
}

/// Copies everything below the objects of `stack` (objects already copied,
/// whose pointers are still to do), depth first: each object's pointers in
/// order, each pointer's object and everything below it before the next
/// pointer. `ctx` is the source's read context.
#[inline]
fn copy_below<'r, A: Arena + ?Sized>(
    arena: &mut A,
    ctx: &'r ReadContext<'r>,
    stack: &mut Stack<'r>,
    mode: Mode,
    budget: &mut Budget,
) -> Result<()> {
    while let Some(cur) = stack.top() {
        if cur.left == 0 {
            if cur.runs > 0 {
                // The next element of a struct list. The positions stay
                // inside the lists the reader and the builder checked.
                cur.runs -= 1;
                cur.left = cur.per;
                cur.src = cur.src.wrapping_add(cur.src_gap);
                cur.dst = cur.dst.wrapping_add(cur.dst_gap);
            } else {
                stack.pop();
            }
            continue;
        }
        cur.left -= 1;
        let (pos, slot) = (cur.src, cur.dst);
        cur.src = pos.wrapping_add(1);
        cur.dst = slot.wrapping_add(1);
        let src = PointerReader::at(ctx, cur.seg, cur.segment, pos, cur.nesting);
        copy_object(arena, cur.dst_segment, slot, &src, mode, budget, stack)?;
    }
    Ok(())
}

/// Copies the object `src` points to (not what it points to in turn) into
/// the slot at (`segment`, `pos`); pushes its frame when it has pointers.
#[inline(always)]
fn copy_object<'r, A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    src: &PointerReader<'r>,
    mode: Mode,
    budget: &mut Budget,
    stack: &mut Stack<'r>,
) -> Result<()> {
    // Near struct and list pointers (the common case) are resolved once,
    // by the getter; `kind()` would resolve them first.
    match src.raw() {
        0 => {}
        w if w & 3 == 0 => {
            return struct_object(arena, segment, pos, &src.get_struct()?, mode, budget, stack);
        }
        w if w & 3 == 1 => {
            let list = src.get_list_any()?;
            if list.element_size() == ElementSize::Byte && !list.is_empty() {
                // Text and data, inline in the copy loop: the direct
                // path for a list of bytes.
                budget.charge(list.span_words())?;
                return PointerBuilder::new(arena, segment, pos)
                    .set_byte_list(list.raw_data_bytes(), u64::from(list.len()));
            }
            return list_object(arena, segment, pos, &list, mode, budget, stack);
        }
        _ => {}
    }
    match src.kind()? {
        PointerKind::Null => {
            PointerBuilder::new(arena, segment, pos).clear();
            Ok(())
        }
        PointerKind::Struct => {
            struct_object(arena, segment, pos, &src.get_struct()?, mode, budget, stack)
        }
        PointerKind::List => list_object(
            arena,
            segment,
            pos,
            &src.get_list_any()?,
            mode,
            budget,
            stack,
        ),
        PointerKind::Capability => {
            PointerBuilder::new(arena, segment, pos).set_capability(src.get_capability()?);
            Ok(())
        }
        found => Err(Error::UnexpectedPointer {
            expected: PointerKind::Struct,
            found,
        }),
    }
}

/// Copies the struct `src` into a new struct at the slot (`segment`,
/// `pos`); pushes its frame when it has pointers.
#[inline]
fn struct_object<'r, A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    src: &StructReader<'r>,
    mode: Mode,
    budget: &mut Budget,
    stack: &mut Stack<'r>,
) -> Result<()> {
    budget.charge(u64::from(src.size().total_words()))?;
    let size = match mode {
        Mode::Plain => src.size(),
        Mode::Canonical => trimmed_size(src),
    };
    let mut dst = PointerBuilder::new(arena, segment, pos).init_struct(size)?;
    let (arena, segment, data) = dst.location();
    struct_into(arena, segment, data, size, src, stack)
}

/// Copies `src`'s data section into the struct of `size` whose data section
/// is at (`segment`, `data`) (as much as fits); pushes the frame for its
/// pointers, when it has some both sides.
#[inline(always)]
fn struct_into<'r, A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    data: u32,
    size: StructSize,
    src: &StructReader<'r>,
    stack: &mut Stack<'r>,
) -> Result<()> {
    copy_data(arena, segment, data, size, src);
    let count = size.pointers.min(src.pointer_count());
    if count == 0 {
        return Ok(());
    }
    stack.push(Frame::run(
        src.pointer_section(),
        segment,
        data + u32::from(size.data_words),
        u32::from(count),
    ))
}

/// Copies `src`'s data bytes into the data section of `size` words at
/// (`segment`, `data`), as many as fit.
#[inline(always)]
fn copy_data<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    data: u32,
    size: StructSize,
    src: &StructReader<'_>,
) {
    let from = src.data_bytes();
    let seg = BuilderSegments::get_mut(arena, segment);
    let bytes = Word::slice_as_bytes_mut(seg);
    let start = data as usize * 8;
    let n = from.len().min(usize::from(size.data_words) * 8);
    if let Some(to) = bytes.get_mut(start..start + n) {
        copy_bytes(to, &from[..n]);
    }
}

/// Copies the list `src` into a new list at the slot (`segment`, `pos`):
/// its data, and for a list of pointers or of structs with pointers, the
/// frame that copies what they point to.
#[inline]
fn list_object<'r, A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    src: &ListReader<'r>,
    mode: Mode,
    budget: &mut Budget,
    stack: &mut Stack<'r>,
) -> Result<()> {
    let len = src.len();
    let slot = PointerBuilder::new(arena, segment, pos);
    match src.element_size() {
        ElementSize::InlineComposite => {
            budget.charge(src.span_words() + 1)?;
            let size = match mode {
                Mode::Plain => src.struct_size(),
                Mode::Canonical => (0..len).map(|i| trimmed_size(&src.get_struct(i))).fold(
                    StructSize::new(0, 0),
                    |a, b| {
                        StructSize::new(a.data_words.max(b.data_words), a.pointers.max(b.pointers))
                    },
                ),
            };
            let dst = slot.init_struct_list(len, size)?;
            let (segment, start) = dst.place();
            let step = size.total_words();
            let arena = dst.into_arena();
            for i in 0..len {
                let data = start + i * step;
                copy_data(arena, segment, data, size, &src.get_struct(i));
            }
            let src_size = src.struct_size();
            let count = u32::from(size.pointers.min(src_size.pointers));
            if count == 0 || len == 0 {
                return Ok(());
            }
            stack.push(Frame {
                runs: len - 1,
                src_gap: src_size.total_words() - count,
                dst_gap: step - count,
                ..Frame::run(
                    src.pointer_section(),
                    segment,
                    start + u32::from(size.data_words),
                    count,
                )
            })
        }
        ElementSize::Pointer => {
            budget.charge(src.span_words())?;
            let dst = slot.init_list(ElementSize::Pointer, len)?;
            let (segment, start) = dst.place();
            if len == 0 {
                return Ok(());
            }
            stack.push(Frame::run(src.pointer_section(), segment, start, len))
        }
        ElementSize::Byte if len > 0 => {
            budget.charge(src.span_words())?;
            // Text and data: the direct path for a list of bytes.
            slot.set_byte_list(src.raw_data_bytes(), u64::from(len))
        }
        size => {
            budget.charge(src.span_words())?;
            // Every byte of the list's words is written here: the
            // elements, then zeros.
            let mut dst = slot.init_list_as(size, len, Fill::Overwritten)?;
            let used_bits = u64::from(len) * u64::from(size.data_bits());
            copy_list_words(dst.raw_words_bytes_mut(), src, used_bits);
            Ok(())
        }
    }
}

/// Writes every byte of `to`, the words of a copy of the list of data
/// `src` whose elements take `used_bits`: the elements, then zeros (the
/// rest of the last word, and the bits past the last element of a bit
/// list).
#[inline(always)]
fn copy_list_words(to: &mut [u8], src: &ListReader<'_>, used_bits: u64) {
    let keep = match used_bits % 64 {
        0 => u64::MAX,
        bits => (1u64 << bits) - 1,
    };
    let from = src.raw_words_bytes();
    if let (Some((to_body, to_last)), Some((from_body, from_last))) =
        (to.split_last_chunk_mut::<8>(), from.split_last_chunk::<8>())
    {
        if to_body.len() == from_body.len() {
            // The last word masked in a register and stored once: not
            // stored, then read back and masked in memory (a load wider
            // than the stores before it, which stalls).
            copy_bytes(to_body, from_body);
            *to_last = (u64::from_le_bytes(*from_last) & keep).to_le_bytes();
            return;
        }
    }
    // Not a list a reader hands out with a list the builder made for it:
    // as much as both hold, then zeros.
    let need = used_bits.div_ceil(8) as usize;
    let from = src.raw_data_bytes();
    let n = from.len().min(need).min(to.len());
    to[..n].copy_from_slice(&from[..n]);
    to[n..].fill(0);
    if used_bits % 8 != 0 {
        if let Some(last) = to.get_mut(n.wrapping_sub(1)) {
            *last &= (1u8 << (used_bits % 8)) - 1;
        }
    }
}
