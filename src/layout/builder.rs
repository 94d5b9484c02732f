//! Builders: struct, list and pointer handles into a message under
//! construction. A handle names a place as (segment, word offset) and
//! resolves it through the arena at each access, so an arena may move a
//! segment when it grows.
//!
//! Word 0 of the arena's segment 0 is reserved for the segment table of a
//! single-segment message; builders see segment 0 from word 1 on, so every
//! offset here is an offset in the message's own segment 0.

use super::cache::{Cached, Owner};
use super::pointer::{
    self, ElementSize, KIND_LIST, KIND_STRUCT, MAX_LIST_COUNT, MAX_SEGMENT_WORDS, StructSize,
};
use super::primitive::{Primitive, load, store};
use super::reader::{Resolved, StructReader, resolve};
use crate::arena::{Arena, SegmentId};
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;

mod upgrade;

/// Words reserved in front of segment 0 for the segment table.
const HEADER_WORDS: usize = 1;

/// Access to a message's segments as the builders see them.
pub(crate) struct BuilderSegments;

impl BuilderSegments {
    /// Segment `id` of the message (segment 0 without its reserved word).
    #[inline]
    pub(crate) fn get<A: Arena + ?Sized>(arena: &A, id: u32) -> &[Word] {
        let s = arena.segment(SegmentId(id));
        if id == 0 {
            s.get(HEADER_WORDS..).unwrap_or(&[])
        } else {
            s
        }
    }

    #[inline]
    pub(crate) fn get_mut<A: Arena + ?Sized>(arena: &mut A, id: u32) -> &mut [Word] {
        let s = arena.segment_mut(SegmentId(id));
        if id == 0 {
            s.get_mut(HEADER_WORDS..).unwrap_or(&mut [])
        } else {
            s
        }
    }
}

/// Allocates `len` words near segment `hint`; returns the message segment
/// and its word offset, checked against what the arena reports (the arena
/// is untrusted: the range must lie inside the segment it reports, past
/// the reserved word of segment 0, and within the encodable offsets).
#[inline(always)]
fn alloc<A: Arena + ?Sized>(arena: &mut A, len: u32, hint: u32) -> Result<(u32, u32)> {
    alloc_as(arena, len, hint, Fill::Zeroed)
}

/// What a new object's words must hold when they are handed out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fill {
    /// Zero: the caller writes only some of them.
    Zeroed,
    /// Anything: the caller writes every one of them before anything reads
    /// them ([`Arena::allocate_overwritten`]).
    Overwritten,
}

/// [`alloc`], asking the arena for words as `fill` says.
#[inline(always)]
fn alloc_as<A: Arena + ?Sized>(
    arena: &mut A,
    len: u32,
    hint: u32,
    fill: Fill,
) -> Result<(u32, u32)> {
    alloc_in(arena, len, hint, fill).map(|(s, o, _)| (s, o))
}

/// [`alloc_as`], also returning the words of the segment the object is in
/// as builders see them (through `segment_mut`, without segment 0's
/// reserved word).
#[inline(always)]
fn alloc_in<A: Arena + ?Sized>(
    arena: &mut A,
    len: u32,
    hint: u32,
    fill: Fill,
) -> Result<(u32, u32, &mut [Word])> {
    let (SegmentId(s), o) = match fill {
        Fill::Zeroed => arena.allocate(len, SegmentId(hint))?,
        Fill::Overwritten => arena.allocate_overwritten(len, SegmentId(hint))?,
    };
    checked_place(arena, s, o, len)
}

/// The `len` words at raw offset `o` of segment `s` that the arena just
/// handed out, checked as [`alloc_in`] describes: the message offset and
/// the segment's words as builders see them.
#[inline(always)]
fn checked_place<A: Arena + ?Sized>(
    arena: &mut A,
    s: u32,
    o: u32,
    len: u32,
) -> Result<(u32, u32, &mut [Word])> {
    let header = if s == 0 { HEADER_WORDS as u32 } else { 0 };
    // Reads go through `segment` and writes through `segment_mut`: the
    // words must lie inside both, whatever each reports.
    let read_len = arena.segment(SegmentId(s)).len();
    let words = arena.segment_mut(SegmentId(s));
    let seg_len = read_len.min(words.len());
    let avail = (seg_len as u64).saturating_sub(u64::from(header));
    if o >= header {
        let rel = o - header;
        let end = u64::from(rel) + u64::from(len);
        if end <= avail && end <= MAX_SEGMENT_WORDS + 1 {
            let words = words.get_mut(header as usize..).unwrap_or(&mut []);
            return Ok((s, rel, words));
        }
    }
    Err(alloc_error(s, o, len, avail))
}

/// The error for an allocation at raw offset `o` of segment `s` that
/// [`alloc`] rejected; `avail` is the segment's length as builders see it.
#[cold]
#[inline(never)]
fn alloc_error(s: u32, o: u32, len: u32, avail: u64) -> Error {
    let o = if s == 0 {
        match o.checked_sub(HEADER_WORDS as u32) {
            Some(o) => o,
            None => {
                return Error::ArenaContract {
                    what: "allocation overlaps the reserved first word of segment 0",
                    segment: s,
                    offset: u64::from(o),
                    len: u64::from(len),
                };
            }
        }
    } else {
        o
    };
    let end = u64::from(o) + u64::from(len);
    if end > avail {
        return Error::ArenaContract {
            what: "allocated words lie outside the segment the arena reports",
            segment: s,
            offset: u64::from(o),
            len: u64::from(len),
        };
    }
    Error::Alloc(crate::arena::AllocError {
        requested: u64::from(len),
        available: (MAX_SEGMENT_WORDS + 1).saturating_sub(u64::from(o)),
    })
}

/// Reserves the segment-table word and the root pointer of a new message.
pub(crate) fn init_root_slot<A: Arena + ?Sized>(arena: &mut A) -> Result<()> {
    arena.reset();
    let (SegmentId(s), o) = arena.allocate(1 + HEADER_WORDS as u32, SegmentId(0))?;
    if s != 0 || o != 0 || arena.segment(SegmentId(0)).len() < 1 + HEADER_WORDS {
        return Err(Error::ArenaContract {
            what: "first allocation after reset must be at word 0 of segment 0",
            segment: s,
            offset: u64::from(o),
            len: 2,
        });
    }
    Ok(())
}

#[inline]
fn read_word<A: Arena + ?Sized>(arena: &A, segment: u32, pos: u32) -> u64 {
    BuilderSegments::get(arena, segment)
        .get(pos as usize)
        .map_or(0, |w| w.to_u64())
}

#[inline]
fn write_word<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32, w: u64) {
    if let Some(slot) = BuilderSegments::get_mut(arena, segment).get_mut(pos as usize) {
        *slot = Word::from_u64(w);
    }
}

/// Allocates `words` words for an object referred to by the pointer at
/// (`segment`, `pos`) and writes that pointer, as the reference lays it out:
/// near when the object fits in the pointer's segment (asked first of
/// [`Arena::allocate_in`], the fast path of an arena of several segments);
/// otherwise (when the arena reports that segment's [`room`](Arena::room))
/// the object and its landing pad in one allocation elsewhere, behind a
/// single far pointer. An arena that does neither gets the object from
/// [`Arena::allocate`] and, when it lands elsewhere, a landing pad next to
/// it or, failing that, a double-far one (see [`point_far`]).
/// `make(offset)` encodes the struct or list pointer for an offset.
/// Returns where the object is, and its first `keep_words` words kept for
/// a [`StructBuilder`], near or far (behind a far pointer, looked up again
/// after the pointer is written, so the builder of a far object starts
/// with its data section kept too). `fill_object` first writes the
/// object's words (all of them).
// Eight arguments: the slot (arena, segment, position), the object (words,
// fill, words to keep) and its two encoders; all inlined into the callers.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn alloc_object<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    words: u32,
    fill: Fill,
    keep_words: u16,
    make: impl Fn(i64) -> u64,
    fill_object: impl FnOnce(&mut [Word]),
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    let (s, o, seg) = match arena.allocate_in(words, SegmentId(segment)) {
        Some(o) => checked_place(arena, segment, o, words)?,
        None => {
            if arena
                .room(SegmentId(segment))
                .is_some_and(|room| room < words)
            {
                return alloc_with_landing_pad(
                    arena,
                    segment,
                    pos,
                    words,
                    fill,
                    keep_words,
                    make,
                    fill_object,
                );
            }
            alloc_in(arena, words, segment, fill)?
        }
    };
    let start = o as usize;
    if let Some(object) = seg.get_mut(start..start + words as usize) {
        fill_object(object);
    }
    if s == segment {
        if let Some(slot) = seg.get_mut(pos as usize) {
            *slot = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
        }
        let kept = Cached::empty();
        if let Some(object) = seg.get_mut(start..start + usize::from(keep_words)) {
            kept.keep(Word::slice_as_bytes_mut(object), owner);
        }
        return Ok((s, o, kept));
    }
    point_far(arena, segment, pos, s, o, make)?;
    Ok((s, o, keep_far(arena, s, o, keep_words, owner)))
}

/// The first `keep_words` words of the object at (`s`, `o`), looked up
/// again (after the far pointer to it was written) and kept. Out of line:
/// only objects behind far pointers come here.
#[inline(never)]
fn keep_far<A: Arena + ?Sized>(
    arena: &mut A,
    s: u32,
    o: u32,
    keep_words: u16,
    owner: Owner,
) -> Cached {
    let kept = Cached::empty();
    if keep_words > 0 {
        let start = o as usize;
        let seg = BuilderSegments::get_mut(arena, s);
        if let Some(object) = seg.get_mut(start..start + usize::from(keep_words)) {
            kept.keep(Word::slice_as_bytes_mut(object), owner);
        }
    }
    kept
}

/// [`alloc_object`] for an object that does not fit in the segment of its
/// pointer: one allocation of a landing pad and the object after it, in
/// another segment (the reference's `allocate`), and a single far pointer
/// to the pad. Inlined like [`alloc_object`]: once a segment is full,
/// every object whose pointer is in it takes this path (out of line and
/// cold, it cost a multi-segment build of the benches' large address book
/// 14% more instructions).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn alloc_with_landing_pad<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    words: u32,
    fill: Fill,
    keep_words: u16,
    make: impl Fn(i64) -> u64,
    fill_object: impl FnOnce(&mut [Word]),
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    let with_pad = words
        .checked_add(1)
        .ok_or(Error::Alloc(crate::arena::AllocError {
            requested: u64::from(words) + 1,
            available: 0,
        }))?;
    let (s, pad, seg) = alloc_in(arena, with_pad, segment, fill)?;
    let o = pad + 1;
    let start = o as usize;
    if let Some(object) = seg.get_mut(start..start + words as usize) {
        fill_object(object);
    }
    if s == segment {
        // The arena had room after all: a near pointer, and the pad word
        // (which may hold anything when overwritten was asked for) zeroed.
        if let Some(w) = seg.get_mut(pad as usize) {
            *w = Word::ZERO;
        }
        if let Some(slot) = seg.get_mut(pos as usize) {
            *slot = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
        }
        // Rare (an arena whose room was wrong): nothing kept.
        return Ok((s, o, Cached::empty()));
    }
    // The pad points at the object right after it: offset 0.
    if let Some(w) = seg.get_mut(pad as usize) {
        *w = Word::from_u64(make(0));
    }
    write_word(
        arena,
        segment,
        pos,
        pointer::encode_far(false, u64::from(pad), s),
    );
    Ok((s, o, keep_far(arena, s, o, keep_words, owner)))
}

/// Points the pointer at (`segment`, `pos`) at the object at (`s`, `o`) in
/// another segment: single far through a landing pad allocated in the
/// object's segment when it has room, else double far through a two-word
/// pad elsewhere.
#[inline(never)]
fn point_far<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    s: u32,
    o: u32,
    make: impl Fn(i64) -> u64,
) -> Result<()> {
    let (ds, dpos) = if arena.room(SegmentId(s)) == Some(0) {
        // Known to be full: the reference's double-far pad, in one piece.
        alloc(arena, 2, s)?
    } else {
        let (ps, po) = alloc(arena, 1, s)?;
        if ps == s {
            write_word(arena, s, po, make(i64::from(o) - i64::from(po) - 1));
            write_word(
                arena,
                segment,
                pos,
                pointer::encode_far(false, u64::from(po), s),
            );
            return Ok(());
        }
        // The object's segment is full: a double-far landing pad of two
        // words. The pad word just allocated is its first word when the
        // next one follows it; otherwise it is left unused.
        match alloc(arena, 1, ps)? {
            (s2, o2) if s2 == ps && o2 == po + 1 => (ps, po),
            _ => alloc(arena, 2, ps)?,
        }
    };
    write_word(arena, ds, dpos, pointer::encode_far(false, u64::from(o), s));
    write_word(arena, ds, dpos + 1, make(0));
    write_word(
        arena,
        segment,
        pos,
        pointer::encode_far(true, u64::from(dpos), ds),
    );
    Ok(())
}

/// Copies `src` into `dst` (same length); copies of up to 32 bytes (most
/// data sections, small lists and short texts) are done with fixed-size
/// moves instead of a call to `memcpy`.
#[inline(always)]
pub(super) fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n > 32 || dst.len() != n {
        dst.copy_from_slice(src);
    } else if n >= 16 {
        dst[..16].copy_from_slice(&src[..16]);
        dst[n - 16..].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..].copy_from_slice(&src[n - 4..]);
    } else {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = *s;
        }
    }
}

/// Resolves the pointer at (`segment`, `pos`) of a message being built.
fn resolve_builder<A: Arena + ?Sized>(
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

fn check_in<A: Arena + ?Sized>(arena: &A, segment: u32, start: i64, len: u64) -> Result<u32> {
    super::reader::bounds(BuilderSegments::get(arena, segment), segment, start, len)
        .map(|s| s as u32)
}

fn too_large(count: u64, bits_per_element: u64) -> Error {
    let max_count = (MAX_LIST_COUNT * 64)
        .checked_div(bits_per_element)
        .map_or(MAX_LIST_COUNT, |n| n.min(MAX_LIST_COUNT));
    Error::TooLarge {
        count,
        bits_per_element,
        max_count,
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

/// A pointer slot in a message being built: a struct's pointer field, an
/// element of a pointer list, or the root. Consuming methods hand out a
/// builder for what they create, with the slot's lifetime.
pub struct PointerBuilder<'a, A: Arena + ?Sized> {
    arena: &'a mut A,
    segment: u32,
    pos: u32,
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

    /// Makes the slot null. The object it pointed to stays in the message,
    /// unreachable, until the message is reset.
    pub fn clear(&mut self) {
        write_word(self.arena, self.segment, self.pos, 0);
    }

    /// Points the slot at capability `index` of the message's capability
    /// table.
    pub fn set_capability(&mut self, index: u32) {
        write_word(
            self.arena,
            self.segment,
            self.pos,
            pointer::encode_capability(index),
        );
    }

    /// Allocates a zeroed struct of `size` and points the slot at it.
    ///
    /// # Errors
    /// The arena has no room.
    // Always inlined: a `StructBuilder` returned through memory is read
    // back with wider loads than it was stored with, which stalls on store
    // forwarding (perf: most of the small build's time).
    #[inline(always)]
    pub fn init_struct(self, size: StructSize) -> Result<StructBuilder<'a, A>> {
        let words = size.total_words();
        if words == 0 {
            // An empty struct: offset -1 keeps the pointer non-null.
            write_word(
                self.arena,
                self.segment,
                self.pos,
                pointer::encode_struct(-1, size),
            );
            return Ok(StructBuilder {
                arena: self.arena,
                segment: self.segment,
                data: self.pos,
                size,
                words: Cached::empty(),
            });
        }
        let (s, o, kept) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            words,
            Fill::Zeroed,
            size.data_words,
            |off| pointer::encode_struct(off, size),
            |_| {},
        )?;
        Ok(StructBuilder {
            arena: self.arena,
            segment: s,
            data: o,
            size,
            words: kept,
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
            arena: self.arena,
            segment: s,
            data,
            size: found,
            words: Cached::empty(),
        })
    }

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
        self.init_list_with(size, count, fill, |_| {})
    }

    /// [`init_list_as`](Self::init_list_as), with `fill_list` writing the
    /// list's words (all of them: its elements and the padding after them)
    /// as they are allocated, before anything else calls the arena.
    #[inline(always)]
    pub(crate) fn init_list_with(
        self,
        size: ElementSize,
        count: u32,
        fill: Fill,
        fill_list: impl FnOnce(&mut [Word]),
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
            let end = BuilderSegments::get(self.arena, self.segment).len() as u32;
            let offset = i64::from(end) - i64::from(self.pos) - 1;
            write_word(
                self.arena,
                self.segment,
                self.pos,
                pointer::encode_list(offset, size, count64),
            );
            (self.segment, end)
        } else {
            let (s, o, _) = alloc_object(
                self.arena,
                self.segment,
                self.pos,
                words,
                fill,
                0,
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
        let per = u64::from(size.total_words());
        let words = u64::from(count) * per;
        if words > MAX_LIST_COUNT || u64::from(count) > MAX_LIST_COUNT {
            return Err(too_large(u64::from(count), per * 64));
        }
        let (s, o, _) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            words as u32 + 1,
            Fill::Zeroed,
            0,
            |off| pointer::encode_list(off, ElementSize::InlineComposite, words),
            |object| {
                if let Some(tag) = object.first_mut() {
                    *tag = Word::from_u64(pointer::encode_tag(u64::from(count), size));
                }
            },
        )?;
        Ok(ListBuilder {
            arena: self.arena,
            segment: s,
            start: o + 1,
            len: count,
            size: ElementSize::InlineComposite,
            step_bits: per * 64,
            data_bits: u32::from(size.data_words) * 64,
            ptrs: size.pointers,
        })
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
    fn resolve_list(&self) -> Result<(u32, i64, u64)> {
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
    pub fn set_data(self, bytes: &[u8]) -> Result<()> {
        let len = u32::try_from(bytes.len()).map_err(|_| too_large(bytes.len() as u64, 8))?;
        self.init_data(len)?.copy_from_slice(bytes);
        Ok(())
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

    /// Points the slot at a new list of `count` bytes (more than 0, at
    /// least `bytes.len()`): `bytes`, then zeros (a text's terminator).
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline(always)]
    pub(crate) fn set_byte_list(self, bytes: &[u8], count: u64) -> Result<()> {
        if count > MAX_LIST_COUNT {
            return Err(too_large(count, 8));
        }
        let words = count.div_ceil(8) as u32;
        let make = |off| pointer::encode_list(off, ElementSize::Byte, count);
        // Every byte of the words is written as they are allocated: the
        // bytes, then zeros.
        alloc_object(
            self.arena,
            self.segment,
            self.pos,
            words,
            Fill::Overwritten,
            0,
            make,
            |object| {
                let dst = Word::slice_as_bytes_mut(object);
                let n = bytes.len().min(dst.len());
                // The zeros after the bytes: the last word zeroed whole (the
                // bytes may overwrite its front); the words before it are
                // all bytes, unless `count` is more than a word past them.
                if let Some((rest, last)) = dst.split_last_chunk_mut::<8>() {
                    *last = [0; 8];
                    if n < rest.len() {
                        rest[n..].fill(0);
                    }
                }
                copy_bytes(&mut dst[..n], &bytes[..n]);
            },
        )?;
        Ok(())
    }
}

/// A struct in a message being built.
///
/// Field indexes are in units of the value's size, as in compiled schemas
/// (see [`Primitive`]); bool fields are addressed by bit.
pub struct StructBuilder<'a, A: Arena + ?Sized> {
    arena: &'a mut A,
    segment: u32,
    /// Word offset of the data section.
    data: u32,
    size: StructSize,
    /// The struct's bytes while no call into the arena has been made since
    /// they were looked up (see [`Cached`]): every method below that calls
    /// the arena or lends it to another handle forgets them first.
    words: Cached,
}

// SAFETY: the only field that is not `Send` is `words`, a pointer to bytes
// of a segment of `*arena`, valid only while the arena is not called; the
// `&mut A` that moves with it (sendable when `A: Send`) is the only way to
// reach those bytes or the arena, so sending the builder sends exclusive
// access to both, as sending the `&mut A` alone would.
unsafe impl<A: Arena + ?Sized + Send> Send for StructBuilder<'_, A> {}

/// The panic for a field past the data section: out of line, so that the
/// callers' fast path carries no formatting arguments.
#[cold]
#[inline(never)]
#[track_caller]
fn field_past_data(index: usize, unit_bits: usize, words: u16) -> ! {
    panic!("field {index} of {unit_bits} bits is past the data section of {words} words")
}

impl<'a, A: Arena + ?Sized> StructBuilder<'a, A> {
    /// A shorter-lived handle to the same struct.
    #[inline]
    pub fn reborrow(&mut self) -> StructBuilder<'_, A> {
        StructBuilder {
            arena: self.arena,
            segment: self.segment,
            data: self.data,
            size: self.size,
            // The handle may call the arena: this one looks up again after.
            words: self.words.take(),
        }
    }

    /// The struct's size.
    pub fn size(&self) -> StructSize {
        self.size
    }

    /// Looks the struct up through the arena, runs `write` on its data
    /// section, then keeps the data section; nothing is written when the
    /// arena no longer hands it out.
    #[inline(always)]
    fn look_up_and(&mut self, write: impl FnOnce(&mut [u8])) {
        self.words.forget();
        let owner = Owner::of(self.arena);
        let start = self.data as usize * 8;
        let len = usize::from(self.size.data_words) * 8;
        let bytes = Word::slice_as_bytes_mut(BuilderSegments::get_mut(self.arena, self.segment));
        if let Some(b) = bytes.get_mut(start..start + len) {
            // Written before it is kept: the kept address is derived last.
            write(&mut *b);
            self.words.keep(b, owner);
        }
    }

    /// The data section looked up through the arena (for a builder that
    /// keeps nothing, or a read behind `&self`).
    #[inline(never)]
    fn data_looked_up(&self) -> &[u8] {
        // Calling the arena: nothing may stay kept past it.
        self.words.forget();
        let start = self.data as usize * 8;
        let len = usize::from(self.size.data_words) * 8;
        let bytes = Word::slice_as_bytes(BuilderSegments::get(self.arena, self.segment));
        bytes.get(start..start + len).unwrap_or(&[])
    }

    /// Panics unless unit `index` of `unit_bits`-bit fields lies inside the
    /// data section (no arithmetic on `index` that could overflow).
    #[inline(always)]
    #[track_caller]
    fn check_field(&self, index: usize, unit_bits: usize) {
        let fits = usize::from(self.size.data_words) * 64 / unit_bits;
        if index >= fits {
            field_past_data(index, unit_bits, self.size.data_words);
        }
    }

    /// Sets the value at `index` (in units of `T`'s size).
    ///
    /// # Panics
    /// If the field lies past the struct's data section (a schema error in
    /// the caller).
    #[inline]
    #[track_caller]
    pub fn set<T: Primitive>(&mut self, index: usize, value: T) {
        // The kept data section is exactly the struct's: a write that fits
        // it needs no other check.
        if !self.words.write(index, value) {
            self.set_looked_up(index, value);
        }
    }

    /// [`set`](Self::set) when the data section is not kept.
    #[inline(never)]
    #[track_caller]
    fn set_looked_up<T: Primitive>(&mut self, index: usize, value: T) {
        self.check_field(index, T::BYTES * 8);
        self.look_up_and(|data| {
            store(data, index * T::BYTES, value);
        });
    }

    /// Sets the value at `index` to `value` XOR `default`: how a field with a
    /// schema default is stored.
    ///
    /// # Panics
    /// As [`set`](Self::set).
    #[inline]
    #[track_caller]
    pub fn set_or<T: Primitive>(&mut self, index: usize, value: T, default: T) {
        self.set(index, T::from_bits(value.to_bits() ^ default.to_bits()));
    }

    /// The value at `index` read as the schema default `default` says
    /// (stored XOR default), as [`StructReader::get_or`](crate::StructReader::get_or).
    #[inline]
    pub fn get_or<T: Primitive>(&self, index: usize, default: T) -> T {
        T::from_bits(self.get::<T>(index).to_bits() ^ default.to_bits())
    }

    /// The bit at `bit` read against the schema default `default`.
    #[inline]
    pub fn get_bool_or(&self, bit: usize, default: bool) -> bool {
        self.get_bool(bit) ^ default
    }

    /// The value at `index`; 0 past the data section.
    #[inline]
    pub fn get<T: Primitive>(&self, index: usize) -> T {
        if let Some(v) = self.words.read(index) {
            return v;
        }
        index
            .checked_mul(T::BYTES)
            .and_then(|at| load(self.data_looked_up(), at))
            .unwrap_or(T::from_bits(0))
    }

    /// Sets the bit at `bit` of the data section.
    ///
    /// # Panics
    /// If the bit lies past the struct's data section.
    #[inline]
    #[track_caller]
    pub fn set_bool(&mut self, bit: usize, value: bool) {
        if !self.words.write_bit(bit, value) {
            self.set_bool_looked_up(bit, value);
        }
    }

    /// [`set_bool`](Self::set_bool) when the data section is not kept.
    #[inline(never)]
    #[track_caller]
    fn set_bool_looked_up(&mut self, bit: usize, value: bool) {
        self.check_field(bit, 1);
        self.look_up_and(|data| {
            if let Some(b) = data.get_mut(bit / 8) {
                let mask = 1u8 << (bit % 8);
                *b = if value { *b | mask } else { *b & !mask };
            }
        });
    }

    /// Sets the bit at `bit` to `value` XOR `default`.
    ///
    /// # Panics
    /// As [`set_bool`](Self::set_bool).
    #[inline]
    #[track_caller]
    pub fn set_bool_or(&mut self, bit: usize, value: bool, default: bool) {
        self.set_bool(bit, value ^ default);
    }

    /// The bit at `bit`; `false` past the data section.
    #[inline]
    pub fn get_bool(&self, bit: usize) -> bool {
        let b = match self.words.read::<u8>(bit / 8) {
            Some(b) => b,
            None => self.data_looked_up().get(bit / 8).copied().unwrap_or(0),
        };
        b & (1 << (bit % 8)) != 0
    }

    /// Pointer `index` of the pointer section.
    ///
    /// # Panics
    /// If `index` is not below the struct's pointer count.
    #[inline]
    pub fn pointer(&mut self, index: usize) -> PointerBuilder<'_, A> {
        assert!(
            index < usize::from(self.size.pointers),
            "pointer {index} is past the pointer section of {} pointers",
            self.size.pointers
        );
        let pos = self.data + u32::from(self.size.data_words) + index as u32;
        // The slot's handle may call the arena.
        self.words.forget();
        PointerBuilder {
            arena: self.arena,
            segment: self.segment,
            pos,
        }
    }

    /// Turns this handle into a handle on pointer `index`, keeping its
    /// lifetime.
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    #[inline]
    pub fn into_pointer(self, index: usize) -> PointerBuilder<'a, A> {
        assert!(
            index < usize::from(self.size.pointers),
            "pointer {index} is past the pointer section of {} pointers",
            self.size.pointers
        );
        let pos = self.data + u32::from(self.size.data_words) + index as u32;
        PointerBuilder {
            arena: self.arena,
            segment: self.segment,
            pos,
        }
    }

    /// Whether pointer `index` is non-null.
    pub fn has_pointer(&self, index: usize) -> bool {
        if index >= usize::from(self.size.pointers) {
            return false;
        }
        let at = usize::from(self.size.data_words) + index;
        // Calling the arena: nothing may stay kept past it.
        self.words.forget();
        read_word(self.arena, self.segment, at as u32 + self.data) != 0
    }

    /// Allocates a struct at pointer `index`. See [`PointerBuilder::init_struct`].
    ///
    /// # Errors
    /// The arena has no room.
    #[inline]
    pub fn init_struct(&mut self, index: usize, size: StructSize) -> Result<StructBuilder<'_, A>> {
        self.pointer(index).init_struct(size)
    }

    /// The struct at pointer `index`, created when null. See
    /// [`PointerBuilder::get_struct`].
    ///
    /// # Errors
    /// As [`PointerBuilder::get_struct`].
    pub fn get_struct(&mut self, index: usize, size: StructSize) -> Result<StructBuilder<'_, A>> {
        self.pointer(index).get_struct(size)
    }

    /// Allocates a list at pointer `index`. See [`PointerBuilder::init_list`].
    ///
    /// # Errors
    /// As [`PointerBuilder::init_list`].
    pub fn init_list(
        &mut self,
        index: usize,
        size: ElementSize,
        count: u32,
    ) -> Result<ListBuilder<'_, A>> {
        self.pointer(index).init_list(size, count)
    }

    /// Allocates a struct list at pointer `index`. See
    /// [`PointerBuilder::init_struct_list`].
    ///
    /// # Errors
    /// As [`PointerBuilder::init_struct_list`].
    pub fn init_struct_list(
        &mut self,
        index: usize,
        count: u32,
        size: StructSize,
    ) -> Result<ListBuilder<'_, A>> {
        self.pointer(index).init_struct_list(count, size)
    }

    /// The list at pointer `index`. See [`PointerBuilder::get_list`].
    ///
    /// # Errors
    /// As [`PointerBuilder::get_list`].
    pub fn get_list(&mut self, index: usize, expected: ElementSize) -> Result<ListBuilder<'_, A>> {
        self.pointer(index).get_list(expected)
    }

    /// The list at pointer `index` as structs of at least `size`. See
    /// [`PointerBuilder::get_struct_list`].
    ///
    /// # Errors
    /// As [`PointerBuilder::get_struct_list`].
    pub fn get_struct_list(
        &mut self,
        index: usize,
        size: StructSize,
    ) -> Result<ListBuilder<'_, A>> {
        self.pointer(index).get_struct_list(size)
    }

    /// Sets pointer `index` to a copy of `text`.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_text`].
    #[inline]
    pub fn set_text(&mut self, index: usize, text: &str) -> Result<()> {
        self.pointer(index).set_text(text)
    }

    /// Sets pointer `index` to a copy of `bytes` as `Data`.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_data`].
    pub fn set_data(&mut self, index: usize, bytes: &[u8]) -> Result<()> {
        self.pointer(index).set_data(bytes)
    }
}

/// A list in a message being built.
pub struct ListBuilder<'a, A: Arena + ?Sized> {
    arena: &'a mut A,
    segment: u32,
    /// Word offset of element 0 (after the tag of an inline-composite list).
    start: u32,
    len: u32,
    size: ElementSize,
    step_bits: u64,
    data_bits: u32,
    ptrs: u16,
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

    fn bytes_mut(&mut self) -> &mut [u8] {
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
            arena: self.arena,
            segment: self.segment,
            data: (bit / 64) as u32,
            size,
            words: Cached::empty(),
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
    fn into_bytes_mut(self) -> Result<&'a mut [u8]> {
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

/// A message under construction seen as segments to read.
struct ArenaSource<'x, A: Arena + ?Sized>(&'x A);

impl<A: Arena + ?Sized> super::reader::SegmentSource for ArenaSource<'_, A> {
    fn segment_count(&self) -> u32 {
        self.0.segment_count()
    }
    fn segment(&self, id: u32) -> Option<&[Word]> {
        (id < self.0.segment_count()).then(|| BuilderSegments::get(self.0, id))
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// Runs `f` on a reader of this struct as built so far (to read back
    /// pointer fields, print it, or copy it). The reader is bounded like an
    /// untrusted one (default nesting limit, and a traversal limit of the
    /// default 8 Mi words), since the arena's words are not checked.
    pub fn with_reader<R>(&self, f: impl for<'r> FnOnce(StructReader<'r>) -> R) -> R {
        // The reader calls the arena: nothing may stay kept past it.
        self.words.forget();
        let source = ArenaSource(&*self.arena);
        let defaults = crate::ReaderOptions::default();
        let ctx = super::reader::ReadContext::new(
            super::reader::SegStore::snapshot(&source),
            super::reader::ReaderOptionsCore {
                traversal_limit_words: defaults.traversal_limit_words,
                nesting_limit: defaults.nesting_limit,
            },
        );
        f(StructReader::at_builder(
            &ctx,
            self.segment,
            self.data,
            self.size,
        ))
    }
}

/// A read view of a struct or list under construction, made by
/// [`StructBuilder::reader_view`] or [`ListBuilder::reader_view`] (or their
/// `into_` forms): it holds the message's segments as the arena handed them
/// out when it was made, and the object's place, so a reader of the object
/// can be taken from it for as long as the view lives. The reader is
/// bounded as [`StructBuilder::with_reader`]'s is. Like every reader it is
/// `Send` and `Sync` whatever the arena is.
pub struct BuiltView<'a> {
    ctx: super::reader::ReadContext<'a>,
    place: ViewPlace,
}

#[derive(Clone, Copy)]
enum ViewPlace {
    Struct {
        segment: u32,
        data: u32,
        size: StructSize,
    },
    List {
        segment: u32,
        start: u32,
        len: u32,
        size: ElementSize,
        step_bits: u64,
        data_bits: u32,
        ptrs: u16,
    },
}

impl<'a> BuiltView<'a> {
    /// A view over `arena`'s segments, taken now.
    fn new<A: Arena + ?Sized>(arena: &'a A, place: ViewPlace) -> Self {
        let defaults = crate::ReaderOptions::default();
        let count = arena.segment_count();
        BuiltView {
            ctx: super::reader::ReadContext::new(
                super::reader::SegStore::snapshot_of(count, |id| BuilderSegments::get(arena, id)),
                super::reader::ReaderOptionsCore {
                    traversal_limit_words: defaults.traversal_limit_words,
                    nesting_limit: defaults.nesting_limit,
                },
            ),
            place,
        }
    }

    /// The struct, when the view is of a struct builder (an empty struct
    /// otherwise).
    pub fn struct_reader(&self) -> StructReader<'_> {
        match self.place {
            ViewPlace::Struct {
                segment,
                data,
                size,
            } => StructReader::at_builder(&self.ctx, segment, data, size),
            ViewPlace::List { .. } => {
                StructReader::at_builder(&self.ctx, 0, 0, StructSize::new(0, 0))
            }
        }
    }

    /// The list, when the view is of a list builder (an empty list
    /// otherwise).
    pub fn list_reader(&self) -> super::reader::ListReader<'_> {
        match self.place {
            ViewPlace::List {
                segment,
                start,
                len,
                size,
                step_bits,
                data_bits,
                ptrs,
            } => super::reader::ListReader::at_builder(
                &self.ctx, segment, start, len, size, step_bits, data_bits, ptrs,
            ),
            ViewPlace::Struct { segment, .. } => super::reader::ListReader::at_builder(
                &self.ctx,
                segment,
                0,
                0,
                ElementSize::Void,
                0,
                0,
                0,
            ),
        }
    }
}

impl<'a, A: Arena + ?Sized> StructBuilder<'a, A> {
    fn view_place(&self) -> ViewPlace {
        ViewPlace::Struct {
            segment: self.segment,
            data: self.data,
            size: self.size,
        }
    }

    /// A read view of this struct as built so far, for as long as the
    /// builder is borrowed (see [`BuiltView`]).
    pub fn reader_view(&self) -> BuiltView<'_> {
        // The view calls the arena: nothing may stay kept past it.
        self.words.forget();
        BuiltView::new(&*self.arena, self.view_place())
    }

    /// A read view of this struct as built, for the rest of the builder's
    /// lifetime (the builder is given up).
    pub fn into_reader_view(self) -> BuiltView<'a> {
        self.words.forget();
        let place = self.view_place();
        BuiltView::new(self.arena, place)
    }
}

impl<'a, A: Arena + ?Sized> ListBuilder<'a, A> {
    fn view_place(&self) -> ViewPlace {
        ViewPlace::List {
            segment: self.segment,
            start: self.start,
            len: self.len,
            size: self.size,
            step_bits: self.step_bits,
            data_bits: self.data_bits,
            ptrs: self.ptrs,
        }
    }

    /// A read view of this list as built so far, for as long as the
    /// builder is borrowed (see [`BuiltView`]).
    pub fn reader_view(&self) -> BuiltView<'_> {
        BuiltView::new(&*self.arena, self.view_place())
    }

    /// A read view of this list as built, for the rest of the builder's
    /// lifetime (the builder is given up).
    pub fn into_reader_view(self) -> BuiltView<'a> {
        let place = self.view_place();
        BuiltView::new(self.arena, place)
    }

    /// Runs `f` on a reader of this list as built so far.
    pub fn with_reader<R>(&self, f: impl for<'r> FnOnce(super::reader::ListReader<'r>) -> R) -> R {
        f(self.reader_view().list_reader())
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// The arena, segment and data-section word offset.
    #[inline(always)]
    pub(crate) fn location(&mut self) -> (&mut A, u32, u32) {
        self.words.forget();
        (self.arena, self.segment, self.data)
    }
}

impl<'a, A: Arena + ?Sized> PointerBuilder<'a, A> {
    /// The arena, segment and word offset of the slot.
    #[inline(always)]
    pub(crate) fn into_parts(self) -> (&'a mut A, u32, u32) {
        (self.arena, self.segment, self.pos)
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
        self.init_list_with(size, len, Fill::Overwritten, |words| {
            let bytes = Word::slice_as_bytes_mut(words);
            let (elements, padding) = bytes.split_at_mut(values.len() * T::BYTES);
            write_primitives(elements, values);
            padding.fill(0);
        })?;
        Ok(())
    }

    /// Points the slot at a new bit list holding `values`.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    pub fn set_bool_list(self, values: &[bool]) -> Result<()> {
        let len = u32::try_from(values.len()).map_err(|_| too_large(values.len() as u64, 1))?;
        self.init_list_with(ElementSize::Bit, len, Fill::Zeroed, |words| {
            pack_bools(Word::slice_as_bytes_mut(words), values);
        })?;
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
        self.set_blob_list(items.into_iter().map(str::as_bytes), 1)
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
        self.set_blob_list(items.into_iter(), 0)
    }

    /// A list of byte blobs, each followed by `terminator` zero bytes.
    fn set_blob_list<'s>(
        self,
        items: impl ExactSizeIterator<Item = &'s [u8]> + Clone,
        terminator: u64,
    ) -> Result<()> {
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
            return Ok(());
        }
        let make = |off| pointer::encode_list(off, ElementSize::Pointer, u64::from(count));
        // Every word is written below: pointers, bytes, zero padding.
        let (s, o, _) = alloc_object(
            self.arena,
            self.segment,
            self.pos,
            total as u32,
            Fill::Overwritten,
            0,
            make,
            |_| {},
        )?;
        let seg = BuilderSegments::get_mut(self.arena, s);
        let region =
            seg.get_mut(o as usize..o as usize + total as usize)
                .ok_or(Error::ArenaContract {
                    what: "allocated words lie outside the segment the arena reports",
                    segment: s,
                    offset: u64::from(o),
                    len: total,
                })?;
        let (ptrs, blobs) = region.split_at_mut(count as usize);
        let blob_bytes = Word::slice_as_bytes_mut(blobs);
        let mut at = 0usize; // word offset of the next blob in `blobs`
        for (i, b) in items.enumerate() {
            let bytes = b.len() as u64 + terminator;
            let words = bytes.div_ceil(8) as usize;
            // From pointer i (word i) to blob (word count + at); an empty
            // Data blob is a list of 0 bytes there, as `set_data(&[])`.
            let off = (count as usize - i - 1 + at) as i64;
            ptrs[i] = Word::from_u64(pointer::encode_list(off, ElementSize::Byte, bytes));
            let dst = &mut blob_bytes[at * 8..(at + words) * 8];
            dst[..b.len()].copy_from_slice(b);
            dst[b.len()..].fill(0);
            at += words;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::FixedArena;
    use crate::message::Message;

    fn words(msg: &Message<impl Arena>, seg: u32) -> alloc::vec::Vec<u64> {
        msg.segment(seg)
            .unwrap()
            .words()
            .iter()
            .map(|w| w.to_u64())
            .collect()
    }

    /// Field indices from a (wrong) schema as large as `usize` allows read
    /// as 0 in builders and readers, and a set past the section is the
    /// documented panic, not an arithmetic overflow.
    #[test]
    fn huge_field_indices_read_zero_without_overflow() {
        let mut buf = [Word::ZERO; 8];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let mut root = msg.init_root_struct(StructSize::new(1, 0)).unwrap();
        root.set::<u64>(0, u64::MAX);
        assert_eq!(root.get::<u64>(usize::MAX / 8), 0);
        assert_eq!(root.get::<u8>(usize::MAX), 0);
        assert_eq!(root.get::<u8>(7), 0xFF);
        assert!(!root.get_bool(usize::MAX));
        let set_past = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            root.reborrow().set::<u64>(usize::MAX / 8, 1);
        }));
        let message = set_past.unwrap_err();
        let text = message.downcast_ref::<alloc::string::String>().unwrap();
        assert!(text.contains("past the data section of 1 words"), "{text}");
        let reader = msg.reader();
        let root = reader.root().unwrap();
        assert_eq!(root.get::<u64>(usize::MAX / 8), 0);
        assert_eq!(root.get::<u8>(usize::MAX), 0);
        assert_eq!(root.get::<u32>(1), u32::MAX);
        assert_eq!(root.get::<u32>(2), 0);
        assert!(!root.get_bool(usize::MAX));
    }

    // Expected words are spelled from the encoding spec, field by field.
    #[test]
    fn struct_with_text_is_laid_out_in_preorder() {
        let mut buf = [Word::ZERO; 16];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let mut root = msg.init_root_struct(StructSize::new(1, 1)).unwrap();
        root.set::<u32>(0, 0x1234_5678);
        root.set_text(0, "hi").unwrap();
        assert_eq!(
            words(&msg, 0),
            [
                0x0001_0001_0000_0000, // root: struct, offset 0, 1 data word, 1 pointer
                0x0000_0000_1234_5678, // data word
                0x0000_001a_0000_0001, // list, offset 0, bytes (2), 3 elements
                0x0000_0000_0000_6968, // "hi\0"
            ]
        );
    }

    #[test]
    fn empty_struct_pointer_is_not_null() {
        let mut buf = [Word::ZERO; 4];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        msg.init_root_struct(StructSize::new(0, 0)).unwrap();
        // offset -1, no sections: 0xffff_fffc
        assert_eq!(words(&msg, 0), [0x0000_0000_ffff_fffc]);
    }

    #[test]
    fn struct_list_has_a_tag_word() {
        let mut buf = [Word::ZERO; 16];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        let mut list = root.init_struct_list(0, 2, StructSize::new(1, 0)).unwrap();
        list.get_struct(1).set::<u64>(0, 7);
        assert_eq!(
            words(&msg, 0),
            [
                0x0001_0000_0000_0000, // root: struct, offset 0, 0 data, 1 pointer
                0x0000_0017_0000_0001, // list, offset 0, inline composite (7), 2 words
                0x0000_0001_0000_0008, // tag: 2 elements, 1 data word, 0 pointers
                0,                     // element 0
                7,                     // element 1
            ]
        );
    }

    #[test]
    fn bit_list_packs_bits_from_the_low_end() {
        let mut buf = [Word::ZERO; 8];
        let mut msg = Message::new(FixedArena::new(&mut buf));
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        let mut bits = root.init_list(0, ElementSize::Bit, 10).unwrap();
        bits.set_bool(0, true);
        bits.set_bool(9, true);
        assert_eq!(
            words(&msg, 0),
            [
                0x0001_0000_0000_0000, // root
                0x0000_0051_0000_0001, // list, offset 0, bits (1), 10 elements
                0x0000_0000_0000_0201, // bits 0 and 9
            ]
        );
    }

    /// An object that does not fit in its pointer's segment goes, with its
    /// landing pad in front of it, to another segment in one allocation
    /// (the reference's layout), when the arena reports its room.
    #[test]
    fn object_in_another_segment_gets_a_single_far_pointer() {
        use crate::arena::{GrowthPolicy, MultiSegmentArena};
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(3) // reserved word, root pointer, root struct
            .with_policy(GrowthPolicy::FixedSize(8));
        let mut msg = Message::new(arena);
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        let mut child = root.init_struct(0, StructSize::new(1, 0)).unwrap();
        child.set::<u64>(0, 0xabcd);
        assert_eq!(
            words(&msg, 0),
            [
                0x0001_0000_0000_0000, // root: 0 data, 1 pointer
                0x0000_0001_0000_0002, // far, single, landing pad at word 0 of segment 1
            ]
        );
        assert_eq!(
            words(&msg, 1),
            [
                0x0000_0001_0000_0000, // landing pad: struct, offset 0, 1 data word
                0xabcd,                // the child's data word
            ]
        );
        let reader = msg.reader();
        assert_eq!(
            reader.root().unwrap().get_struct(0).unwrap().get::<u64>(0),
            0xabcd
        );
    }

    /// An arena that does not report room (`Arena::room`'s default) gets
    /// the object alone, then a landing pad allocated after it.
    #[test]
    fn without_room_the_landing_pad_follows_the_object() {
        use crate::arena::{AllocError, GrowthPolicy, MultiSegmentArena};
        struct NoRoom(MultiSegmentArena);
        impl Arena for NoRoom {
            fn segment_count(&self) -> u32 {
                self.0.segment_count()
            }
            fn segment(&self, id: SegmentId) -> &[Word] {
                self.0.segment(id)
            }
            fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
                self.0.segment_mut(id)
            }
            fn allocate(
                &mut self,
                len: u32,
                hint: SegmentId,
            ) -> Result<(SegmentId, u32), AllocError> {
                self.0.allocate(len, hint)
            }
            fn reset(&mut self) {
                self.0.reset()
            }
        }
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(8));
        let mut msg = Message::new(NoRoom(arena));
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        let mut child = root.init_struct(0, StructSize::new(1, 0)).unwrap();
        child.set::<u64>(0, 0xabcd);
        assert_eq!(
            words(&msg, 0),
            [
                0x0001_0000_0000_0000, // root: 0 data, 1 pointer
                0x0000_0001_0000_000a, // far, single, landing pad at word 1 of segment 1
            ]
        );
        assert_eq!(
            words(&msg, 1),
            [
                0xabcd,                // the child's data word
                0x0000_0001_ffff_fff8, // landing pad: struct, offset -2, 1 data word
            ]
        );
    }

    /// Objects that do not fit beside their pointer go, each with its
    /// landing pad, to the newest segment (the reference's layout: a
    /// one-word far pointer, the pad right before the object), and on to a
    /// new segment when that one is full.
    #[test]
    fn overflowing_objects_fill_the_newest_segment_in_order() {
        use crate::arena::{GrowthPolicy, MultiSegmentArena};
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(8)
            .with_policy(GrowthPolicy::FixedSize(6));
        let mut msg = Message::new(arena);
        let mut root = msg.init_root_struct(StructSize::new(0, 1)).unwrap();
        // Segment 0: reserved word, root pointer, root, the list: tag + 4
        // one-pointer elements (8 words in all).
        let mut list = root.init_struct_list(0, 4, StructSize::new(0, 1)).unwrap();
        for i in 0..4u32 {
            let mut e = list.get_struct(i);
            e.init_struct(0, StructSize::new(1, 0))
                .unwrap()
                .set::<u64>(0, 0x10 + u64::from(i));
        }
        assert_eq!(msg.segment_count(), 3);
        let far = |pad: u64, seg: u64| (seg << 32) | (pad << 3) | 2;
        let seg0 = words(&msg, 0);
        assert_eq!(
            &seg0[3..],
            [far(0, 1), far(2, 1), far(4, 1), far(0, 2)],
            "element pointers"
        );
        let pad = 0x0000_0001_0000_0000; // struct, offset 0, 1 data word
        assert_eq!(words(&msg, 1), [pad, 0x10, pad, 0x11, pad, 0x12]);
        assert_eq!(words(&msg, 2), [pad, 0x13]);
    }

    /// The builder of a struct behind a far pointer starts with its data
    /// section kept: its field writes make no call into the arena (they
    /// looked the struct up again before, once per far struct).
    #[test]
    fn a_far_struct_is_written_without_calling_the_arena() {
        use crate::arena::{AllocError, GrowthPolicy, MultiSegmentArena};
        use core::cell::Cell;
        struct Counting {
            arena: MultiSegmentArena,
            lookups: Cell<u32>,
        }
        impl Arena for Counting {
            fn segment_count(&self) -> u32 {
                self.arena.segment_count()
            }
            fn segment(&self, id: SegmentId) -> &[Word] {
                self.lookups.set(self.lookups.get() + 1);
                self.arena.segment(id)
            }
            fn segment_mut(&mut self, id: SegmentId) -> &mut [Word] {
                self.lookups.set(self.lookups.get() + 1);
                self.arena.segment_mut(id)
            }
            fn allocate(
                &mut self,
                len: u32,
                hint: SegmentId,
            ) -> Result<(SegmentId, u32), AllocError> {
                self.arena.allocate(len, hint)
            }
            fn allocate_in(&mut self, len: u32, id: SegmentId) -> Option<u32> {
                self.arena.allocate_in(len, id)
            }
            fn room(&self, id: SegmentId) -> Option<u32> {
                self.arena.room(id)
            }
            fn reset(&mut self) {
                self.arena.reset()
            }
        }
        // Segments of 3 words: the root behind a far pointer in segment
        // 1, each child (2 words and its pad) in a segment of its own.
        let arena = MultiSegmentArena::new()
            .with_first_segment_words(3)
            .with_policy(GrowthPolicy::FixedSize(3));
        let mut msg = Message::new(Counting {
            arena,
            lookups: Cell::new(0),
        });
        let mut root = msg.init_root_struct(StructSize::new(0, 2)).unwrap();
        for i in 0..2 {
            let mut child = root.init_struct(i, StructSize::new(2, 0)).unwrap();
            let before = child.arena.lookups.get();
            child.set::<u64>(0, 0xabcd);
            child.set::<u32>(2, 7);
            child.set_bool(127, true);
            assert_eq!(child.arena.lookups.get(), before, "child {i}");
        }
        assert_eq!(msg.segment_count(), 4);
        let reader = msg.reader();
        let child = reader.root().unwrap().get_struct(1).unwrap();
        assert_eq!(child.get::<u64>(0), 0xabcd);
        assert_eq!(child.get::<u32>(2), 7);
        assert!(child.get_bool(127));
    }
}
