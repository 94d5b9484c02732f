//! Allocation: asking the arena for an object's words, checking what it
//! hands out (the arena is untrusted), and writing the pointer to the new
//! object: near when it fits in the pointer's segment, else far, through a
//! landing pad (single far) or a two-word pad (double far).

use super::write_word;
use super::zero::{zero_if_set, zero_pointer, zero_replaced};
use crate::arena::{Arena, SegmentId};
use crate::error::{Error, Result};
use crate::layout::cache::{Cached, Owner};
use crate::layout::pointer;
use crate::layout::pointer::MAX_SEGMENT_WORDS;
use crate::layout::segments::{BuilderSegments, HEADER_WORDS};
use crate::word::Word;

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

/// Writes a new object's words as the arena hands them out, before
/// anything else calls the arena. A trait rather than a closure: every
/// implementation marks [`write`](Self::write) `#[inline(always)]`, which
/// a closure cannot be, so the writes are always inlined into the
/// allocation. (A closure's body is the optimizer's call: a text's
/// copy, grown by a few instructions, was left out of line and cost
/// 1.3 M instructions an iteration of the data-set suite's minecraft
/// serialize, 25% of it.)
pub(super) trait WriteObject {
    /// Writes `object`, the new object's words.
    fn write(self, object: &mut [Word]);
}

/// Writes nothing: the words were asked for zeroed.
pub(super) struct Zeroed;

impl WriteObject for Zeroed {
    #[inline(always)]
    fn write(self, _: &mut [Word]) {}
}

/// What an allocation keeps, for a builder, of the words the arena hands
/// back with it (see [`alloc_object`]).
#[derive(Clone, Copy)]
pub(crate) enum Keep {
    /// Nothing (a text, data or list: no builder is returned).
    Nothing,
    /// The new object's first words (a struct's data section, for its
    /// builder).
    Object(u16),
    /// The `words` words at word `data` of the pointer's own segment: the
    /// data section of the struct that holds the pointer, kept again for
    /// its builder when the allocation returns nothing that borrows the
    /// arena (a text or data set through the struct).
    Parent {
        /// Word offset of the data section.
        data: u32,
        /// Its length in words.
        words: u16,
    },
}

impl Keep {
    /// The new object's words kept: a struct's, for its builder; 0 for
    /// anything else.
    #[inline(always)]
    fn object_words(self) -> u16 {
        match self {
            Keep::Object(n) => n,
            Keep::Nothing | Keep::Parent { .. } => 0,
        }
    }
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

/// Allocates `words` words for an object referred to by the pointer at
/// (`segment`, `pos`) and writes that pointer, as the reference lays it out:
/// near when the object fits in the pointer's segment (asked first of
/// [`Arena::allocate_in_mut`], which hands back that segment's words with
/// the allocation: the object and the pointer are written into them with
/// no further lookup, and the built-in arenas answer it inline);
/// otherwise the object and its landing pad in one allocation elsewhere,
/// behind a single far pointer: asked of [`Arena::allocate_far_mut`],
/// which hands back both segments' words (written with no further call:
/// [`write_far`]), or, when the arena does not do that but reports the
/// segment's [`room`](Arena::room), of [`Arena::allocate`]. An arena that does neither gets the object from
/// [`Arena::allocate`] and, when it lands elsewhere, a landing pad next to
/// it or, failing that, a double-far one (see [`point_far`]).
/// `make(offset)` encodes the struct or list pointer for an offset.
/// Returns where the object is, and what `keep` asks for kept: a struct's
/// first words for its [`StructBuilder`], near or far (behind a far
/// pointer, looked up again after the pointer is written, so the builder
/// of a far object starts with its data section kept too), or, near only,
/// the data section of the struct holding the pointer ([`Keep::Parent`]). `fill_object` first writes the
/// object's words (all of them).
// Eight arguments: the slot (arena, segment, position), the object (words,
// fill, words to keep) and its two encoders; all inlined into the callers.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn alloc_object<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    words: u32,
    fill: Fill,
    keep: Keep,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    if let Some((raw, seg)) = arena.allocate_in_mut(words, SegmentId(segment), fill == Fill::Zeroed)
    {
        // Near: the object, and the pointer to it, in the words the arena
        // returned with the allocation, indexed by the arena's offsets
        // (segment 0's reserved word included) so that nothing is cut.
        let header = if segment == 0 { HEADER_WORDS as u32 } else { 0 };
        // Two tests: the object inside the words returned, and its end as
        // builders see the segment within the encodable offsets. An offset
        // before the reserved word wraps `o` past every encodable one, so
        // the second test refuses it too.
        let o = raw.wrapping_sub(header);
        // One load and one test: a slot already set goes out of line, with
        // the object allocated and nothing yet written. A slot outside the
        // words goes there too (an error), so the slot's write below needs
        // no test of its own. What the out-of-line path keeps is a struct's
        // words, a constant where this is inlined: the parent's data
        // section, which `Keep::Parent` would have it compute on the hot
        // path, is looked up again when next used.
        let slot_at = pos as usize + header as usize;
        match seg.get(slot_at) {
            Some(w) if w.to_u64() == 0 => {}
            _ => {
                let near = Some((raw, seg.len()));
                return alloc_slow(
                    arena,
                    segment,
                    pos,
                    words,
                    fill,
                    keep.object_words(),
                    near,
                    make,
                    fill_object,
                );
            }
        }
        let start = raw as usize;
        let object = match start
            .checked_add(words as usize)
            .and_then(|end| seg.get_mut(start..end))
        {
            Some(object) if u64::from(o) + u64::from(words) <= MAX_SEGMENT_WORDS + 1 => object,
            _ => {
                let avail = (seg.len() as u64).saturating_sub(u64::from(header));
                return Err(alloc_error(segment, raw, words, avail));
            }
        };
        fill_object.write(object);
        if let Some(slot) = seg.get_mut(slot_at) {
            *slot = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
        }
        // `keep` is a constant where this is inlined: one lookup at most,
        // derived last from the words the arena returned (the object's
        // first words, or the data section of the struct holding the
        // pointer, which lies in the same segment before the object).
        let words_kept = match keep {
            Keep::Nothing => None,
            Keep::Object(n) => (n > 0).then(|| start..start + usize::from(n)),
            Keep::Parent { data, words } => {
                let at = data as usize + header as usize;
                (words > 0).then(|| at..at + usize::from(words))
            }
        };
        let kept = match words_kept.and_then(|range| seg.get_mut(range)) {
            Some(w) => Cached::keep(Word::slice_as_bytes_mut(w), owner),
            None => Cached::empty(),
        };
        return Ok((segment, o, kept));
    }
    match keep {
        // A struct's builder: the rest inline (once a segment is full,
        // every object in a multi-segment build comes here).
        Keep::Object(n) => alloc_elsewhere(arena, segment, pos, words, fill, n, make, fill_object),
        // An object no builder keeps (a text, data, a list): the rest out
        // of line, so that the callers' code is the near path alone. The
        // parent's data section is looked up again when next used.
        _ => alloc_slow(arena, segment, pos, words, fill, 0, None, make, fill_object),
    }
}

/// The error for a slot the arena no longer hands out.
#[cold]
#[inline(never)]
fn lost_slot(segment: u32, pos: u32) -> Error {
    Error::ArenaContract {
        what: "a pointer slot lies outside the segment the arena reports",
        segment,
        offset: u64::from(pos),
        len: 1,
    }
}

/// [`alloc_object`]'s near path when the slot is set: the new object
/// (`words` words at raw offset `raw` of the pointer's segment, allocated
/// but not written, checked against the `returned` words the arena handed
/// back with it) and the pointer to it are written; what the slot
/// pointed to is zeroed (see [`zero_replaced`]), then the object's first
/// `keep_words` words are kept through a lookup of their own.
///
/// # Errors
/// As [`zero_replaced`]; the slot then points to the new object.
fn near_over_set_slot<A: Arena + ?Sized>(
    arena: &mut A,
    (segment, pos, raw, words): (u32, u32, u32, u32),
    returned: usize,
    keep_words: u16,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    let header = BuilderSegments::header_bytes(segment) / 8;
    let o = raw.wrapping_sub(header as u32);
    let seg = arena.segment_mut(SegmentId(segment));
    let start = raw as usize;
    // `alloc_object`'s checks of the object, before anything is written.
    let seg_len = seg.len().min(returned);
    let object = match start
        .checked_add(words as usize)
        .filter(|&end| end <= seg_len)
        .and_then(|end| seg.get_mut(start..end))
    {
        Some(object) if u64::from(o) + u64::from(words) <= MAX_SEGMENT_WORDS + 1 => object,
        _ => {
            let avail = (seg_len as u64).saturating_sub(header as u64);
            return Err(alloc_error(segment, raw, words, avail));
        }
    };
    fill_object.write(object);
    let Some(slot) = seg.get_mut(pos as usize + header) else {
        return Err(lost_slot(segment, pos));
    };
    let new = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
    let old = core::mem::replace(slot, new).to_u64();
    zero_replaced(arena, (segment, pos, old), (segment, o, words))?;
    let kept = (keep_words > 0).then(|| start..start + usize::from(keep_words));
    let seg = arena.segment_mut(SegmentId(segment));
    let kept = match kept.and_then(|range| seg.get_mut(range)) {
        Some(w) => Cached::keep(Word::slice_as_bytes_mut(w), owner),
        None => Cached::empty(),
    };
    Ok((segment, o, kept))
}

/// [`write_far`]'s work when the slot was set: what it pointed to is
/// zeroed (see [`zero_pointer`]), then the pad and the object at `at` and
/// the far pointer to them are written, each through a lookup of its own.
/// On error the new words are zeroed and the slot is null.
#[cold]
#[inline(never)]
fn place_far_over_set_slot<A: Arena + ?Sized>(
    arena: &mut A,
    at: FarPlace,
    far_len: usize,
    keep_words: u16,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let FarPlace {
        segment,
        pos,
        s,
        raw,
        words,
    } = at;
    // `write_far`'s checks, before anything is zeroed.
    let with_pad = words + 1;
    if s == segment {
        return Err(Error::ArenaContract {
            what: "far allocation placed in the segment it was asked to avoid",
            segment: s,
            offset: u64::from(raw),
            len: u64::from(with_pad),
        });
    }
    let header = if s == 0 { HEADER_WORDS as u32 } else { 0 };
    let pad = raw.wrapping_sub(header);
    if u64::from(raw) + u64::from(with_pad) > far_len as u64
        || u64::from(pad) + u64::from(with_pad) > MAX_SEGMENT_WORDS + 1
    {
        let avail = (far_len as u64).saturating_sub(u64::from(header));
        return Err(alloc_error(s, raw, with_pad, avail));
    }
    let zeroed = zero_pointer(arena, segment, pos);
    let start = raw as usize;
    let far = arena.segment_mut(SegmentId(s));
    let Some((pad_word, object)) = far
        .get_mut(start..start + words as usize + 1)
        .and_then(|w| w.split_first_mut())
    else {
        return Err(lost_slot(s, raw));
    };
    if let Err(e) = zeroed {
        *pad_word = Word::ZERO;
        object.fill(Word::ZERO);
        return Err(e);
    }
    fill_object.write(object);
    *pad_word = Word::from_u64(make(0));
    write_word(
        arena,
        segment,
        pos,
        pointer::encode_far(false, u64::from(pad), s),
    );
    let owner = Owner::of(arena);
    Ok((s, pad + 1, keep_far(arena, s, pad + 1, keep_words, owner)))
}

/// Zeroes what the slot at (`segment`, `pos`) pointed to, when it is set
/// (see [`zero_if_set`]), once the new object's `len` words at (`s`, `o`)
/// are allocated and before they are written: a full arena keeps the old
/// object. On error those words are zeroed (they may hold anything when
/// asked for overwritten) and the slot is null.
#[inline(never)]
fn zero_if_set_after_alloc<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    s: u32,
    o: u32,
    len: u32,
) -> Result<()> {
    zero_if_set(arena, segment, pos).inspect_err(|_| {
        let start = o as usize;
        if let Some(words) = BuilderSegments::get_mut(arena, s).get_mut(start..start + len as usize)
        {
            words.fill(Word::ZERO);
        }
    })
}

/// [`alloc_object`]'s paths out of line: the object allocated at raw
/// offset `near.0` of the pointer's segment (whose words, as the arena
/// returned them, were `near.1` long) over a slot already set
/// ([`near_over_set_slot`]), or placed elsewhere ([`alloc_elsewhere`]).
/// `keep_words` are the new struct's words its builder keeps (0 for
/// anything else); the parent's data section is not kept here: it is
/// looked up again when next used. One function, so that the callers'
/// code holds one call out of line: a second one there kept their result
/// in memory (+14 instructions an allocation on the growth bench).
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn alloc_slow<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    words: u32,
    fill: Fill,
    keep_words: u16,
    near: Option<(u32, usize)>,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    match near {
        Some((raw, returned)) => near_over_set_slot(
            arena,
            (segment, pos, raw, words),
            returned,
            keep_words,
            make,
            fill_object,
        ),
        None => alloc_elsewhere(
            arena,
            segment,
            pos,
            words,
            fill,
            keep_words,
            make,
            fill_object,
        ),
    }
}

/// [`alloc_object`] when the arena did not place the object in the
/// pointer's segment.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn alloc_elsewhere<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    words: u32,
    fill: Fill,
    keep_words: u16,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    if let Some(with_pad) = words.checked_add(1) {
        if let Some((SegmentId(s), raw, near, far)) =
            arena.allocate_far_mut(with_pad, SegmentId(segment), fill == Fill::Zeroed)
        {
            let place = FarPlace {
                segment,
                pos,
                s,
                raw,
                words,
            };
            let near_header = if segment == 0 { HEADER_WORDS } else { 0 };
            if near
                .get(pos as usize + near_header)
                .is_none_or(|slot| slot.to_u64() == 0)
            {
                return write_far(place, near, far, keep_words, owner, make, fill_object);
            }
            // The slot was set: what it pointed to is zeroed first.
            let far_len = far.len();
            return place_far_over_set_slot(arena, place, far_len, keep_words, make, fill_object);
        }
    }
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
    let (s, o) = alloc_as(arena, words, segment, fill)?;
    zero_if_set_after_alloc(arena, segment, pos, s, o, words)?;
    let seg = BuilderSegments::get_mut(arena, s);
    let start = o as usize;
    if let Some(object) = seg.get_mut(start..start + words as usize) {
        fill_object.write(object);
    }
    if s == segment {
        if let Some(slot) = seg.get_mut(pos as usize) {
            *slot = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
        }
        // `keep_words` is a constant where this is inlined: objects that
        // keep nothing (texts, lists) skip the lookup entirely.
        let kept = match seg.get_mut(start..start + usize::from(keep_words)) {
            Some(object) if keep_words > 0 => Cached::keep(Word::slice_as_bytes_mut(object), owner),
            _ => Cached::empty(),
        };
        return Ok((s, o, kept));
    }
    point_far(arena, segment, pos, s, o, make)?;
    Ok((s, o, keep_far(arena, s, o, keep_words, owner)))
}

/// Where [`Arena::allocate_far_mut`] placed an object and its landing pad:
/// the pointer at (`segment`, `pos`), the `words + 1` words at raw offset
/// `raw` of segment `s` (the pad, then the object).
struct FarPlace {
    segment: u32,
    pos: u32,
    s: u32,
    raw: u32,
    words: u32,
}

/// [`alloc_elsewhere`] with the words [`Arena::allocate_far_mut`] returned:
/// `near`, the pointer's segment, and `far`, the object's, both as
/// [`Arena::segment_mut`] returns them (segment 0's reserved word
/// included). Checked as [`checked_place`] checks an allocation (inside
/// `far`, past the reserved word, within the encodable offsets) and in
/// another segment than the pointer's; then the object, its pad (a
/// pointer to the object right after it) and the single far pointer to
/// the pad are written, as the reference lays them out, and the object's
/// first `keep_words` words kept, derived last from `far`.
// Inlined into the allocation in optimised builds; out of line in debug
// builds, where every inlined local takes its own stack slot and the deep
// copies of `tests/deep.rs` run on a 64 KiB stack.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline(never))]
fn write_far(
    at: FarPlace,
    near: &mut [Word],
    far: &mut [Word],
    keep_words: u16,
    owner: Owner,
    make: impl Fn(i64) -> u64,
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let FarPlace {
        segment,
        pos,
        s,
        raw,
        words,
    } = at;
    let with_pad = words + 1;
    if s == segment {
        return Err(Error::ArenaContract {
            what: "far allocation placed in the segment it was asked to avoid",
            segment: s,
            offset: u64::from(raw),
            len: u64::from(with_pad),
        });
    }
    let header = if s == 0 { HEADER_WORDS as u32 } else { 0 };
    // As in `alloc_object`'s near path: an offset before the reserved word
    // wraps `pad` past every encodable one.
    let pad = raw.wrapping_sub(header);
    let start = raw as usize;
    let placed = match start
        .checked_add(with_pad as usize)
        .and_then(|end| far.get_mut(start..end))
    {
        Some(placed) if u64::from(pad) + u64::from(with_pad) <= MAX_SEGMENT_WORDS + 1 => placed,
        _ => {
            let avail = (far.len() as u64).saturating_sub(u64::from(header));
            return Err(alloc_error(s, raw, with_pad, avail));
        }
    };
    let Some((pad_word, object)) = placed.split_first_mut() else {
        return Err(alloc_error(s, raw, with_pad, 0));
    };
    fill_object.write(object);
    // The pad points at the object right after it: offset 0.
    *pad_word = Word::from_u64(make(0));
    let near_header = if segment == 0 { HEADER_WORDS } else { 0 };
    if let Some(slot) = near.get_mut(pos as usize + near_header) {
        *slot = Word::from_u64(pointer::encode_far(false, u64::from(pad), s));
    }
    let o = pad + 1;
    let kept = match far.get_mut(start + 1..start + 1 + usize::from(keep_words)) {
        Some(object) if keep_words > 0 => Cached::keep(Word::slice_as_bytes_mut(object), owner),
        _ => Cached::empty(),
    };
    Ok((s, o, kept))
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
    if keep_words > 0 {
        let start = o as usize;
        let seg = BuilderSegments::get_mut(arena, s);
        if let Some(object) = seg.get_mut(start..start + usize::from(keep_words)) {
            return Cached::keep(Word::slice_as_bytes_mut(object), owner);
        }
    }
    Cached::empty()
}

/// [`alloc_object`] for an object that does not fit in the segment of its
/// pointer: one allocation of a landing pad and the object after it, in
/// another segment (the reference's `allocate`), and a single far pointer
/// to the pad. Inlined like [`alloc_object`]: once a segment is full,
/// every object whose pointer is in it takes this path (out of line and
/// cold, it cost a multi-segment build of the benches' large address book
/// 14% more instructions).
///
/// The far pointer is written before the object's segment is looked up, so
/// that the object's words, looked up last, are kept for its builder with
/// no further call into the arena. The pointer's old word is put back when
/// the arena's words turn out not to hold the allocation.
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
    fill_object: impl WriteObject,
) -> Result<(u32, u32, Cached)> {
    let owner = Owner::of(arena);
    let with_pad = words
        .checked_add(1)
        .ok_or(Error::Alloc(crate::arena::AllocError {
            requested: u64::from(words) + 1,
            available: 0,
        }))?;
    // Hinted at the newest segment, where the reference allocates what
    // does not fit beside its pointer (the pointer's own segment lacks the
    // room: the arena said so).
    let newest = SegmentId(arena.segment_count().saturating_sub(1));
    let (SegmentId(s), raw) = match fill {
        Fill::Zeroed => arena.allocate(with_pad, newest)?,
        Fill::Overwritten => arena.allocate_overwritten(with_pad, newest)?,
    };
    let header = if s == 0 { HEADER_WORDS as u32 } else { 0 };
    if let Some(o) = raw.checked_sub(header) {
        zero_if_set_after_alloc(arena, segment, pos, s, o, with_pad)?;
    }
    if s == segment {
        // The arena had room after all (its room was wrong): a near
        // pointer, and the pad word (which may hold anything when
        // overwritten was asked for) zeroed; nothing kept.
        let (s, pad, seg) = checked_place(arena, s, raw, with_pad)?;
        let o = pad + 1;
        let start = o as usize;
        if let Some(object) = seg.get_mut(start..start + words as usize) {
            fill_object.write(object);
        }
        if let Some(w) = seg.get_mut(pad as usize) {
            *w = Word::ZERO;
        }
        if let Some(slot) = seg.get_mut(pos as usize) {
            *slot = Word::from_u64(make(i64::from(o) - i64::from(pos) - 1));
        }
        return Ok((s, o, Cached::empty()));
    }
    // The pad's offset as builders see segment `s`, checked as
    // `checked_place` checks it (so that it fits a far pointer) before the
    // pointer is written; the segment's length is checked after.
    let header = if s == 0 { HEADER_WORDS as u32 } else { 0 };
    let pad = match raw.checked_sub(header) {
        Some(pad) if u64::from(pad) + u64::from(with_pad) <= MAX_SEGMENT_WORDS + 1 => pad,
        _ => return Err(placement_error(arena, s, raw, with_pad)),
    };
    let old = replace_word(
        arena,
        segment,
        pos,
        pointer::encode_far(false, u64::from(pad), s),
    );
    let seg = match checked_place(arena, s, raw, with_pad) {
        Ok((_, _, seg)) => seg,
        Err(e) => {
            if let Some(old) = old {
                write_word(arena, segment, pos, old);
            }
            return Err(e);
        }
    };
    let o = pad + 1;
    let start = o as usize;
    if let Some(object) = seg.get_mut(start..start + words as usize) {
        fill_object.write(object);
    }
    // The pad points at the object right after it: offset 0.
    if let Some(w) = seg.get_mut(pad as usize) {
        *w = Word::from_u64(make(0));
    }
    let kept = match seg.get_mut(start..start + usize::from(keep_words)) {
        Some(object) if keep_words > 0 => Cached::keep(Word::slice_as_bytes_mut(object), owner),
        _ => Cached::empty(),
    };
    Ok((s, o, kept))
}

/// Replaces the word at (`segment`, `pos`) with `w`, returning the word it
/// held (`None`, and nothing written, when the arena no longer has it).
#[inline(always)]
fn replace_word<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32, w: u64) -> Option<u64> {
    BuilderSegments::get_mut(arena, segment)
        .get_mut(pos as usize)
        .map(|slot| core::mem::replace(slot, Word::from_u64(w)).to_u64())
}

/// The error for `len` words at raw offset `o` of segment `s` that the
/// arena handed out but that fail [`checked_place`]'s checks.
#[cold]
#[inline(never)]
fn placement_error<A: Arena + ?Sized>(arena: &mut A, s: u32, o: u32, len: u32) -> Error {
    match checked_place(arena, s, o, len) {
        Err(e) => e,
        // Not reached by the caller's checks (an offset past the encodable
        // ones); should the arena's answer change, the same error.
        Ok(_) => alloc_error(s, o, len, 0),
    }
}

/// Points the pointer at (`segment`, `pos`) at the object at (`s`, `o`) in
/// another segment: single far through a landing pad allocated in the
/// object's segment when it has room, else double far through a two-word
/// pad elsewhere.
#[inline(never)]
pub(super) fn point_far<A: Arena + ?Sized>(
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
