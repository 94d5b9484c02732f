//! Zeroing what an overwritten pointer reached, as the reference does
//! (layout.c++, `WireHelpers::zeroObject`): the object, everything below
//! it, the landing pads of the far pointers on the way and the tags of
//! struct lists. A message sent on then carries nothing a field held
//! before it was set again, cleared or switched to another union member.
//!
//! A pointer is zeroed before anything else writes its slot, so the
//! common case, a null slot, costs one test. What it reached may have come
//! from a peer (a message read into a [`Message`](crate::Message) and then
//! modified), so the walk trusts none of it:
//! - every object is bounds-checked before a word of it is touched;
//! - each pointer word is zeroed as it is followed, so a cycle ends;
//! - the words zeroed are charged to a budget of the message's size, so
//!   objects that overlap cannot make the walk longer than that;
//! - the walk is a loop over an explicit work list, so no depth of
//!   nesting reaches the thread's stack. An object's last pointer is
//!   followed after its frame is dropped, so a chain takes one frame.
//!
//! A pointer the walk cannot follow (out of bounds, a bad landing pad or
//! list tag) is zeroed and reported; the walk goes on with the others.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::{check_in, read_word, write_word};
use crate::arena::Arena;
use crate::error::{Error, Result};
use crate::layout::budget::Budget;
use crate::layout::cache::{Cached, look_up};
use crate::layout::pointer::{self, ElementSize, KIND_FAR, KIND_LIST, KIND_OTHER, KIND_STRUCT};
use crate::layout::reader::{Resolved, resolve};
use crate::layout::segments::BuilderSegments;
use crate::word::Word;

/// Zeroes the pointer at (`segment`, `pos`) and everything it reached.
/// Cold: only a slot that was already set comes here.
///
/// # Errors
/// The first pointer that could not be followed (the walk zeroed it and
/// went on), or the walk stopped: its budget of the message's words spent
/// (objects that overlap), or, without `alloc`, nesting deeper than its
/// fixed work list.
#[cold]
#[inline(never)]
pub(super) fn zero_pointer<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32) -> Result<()> {
    let w = read_word(arena, segment, pos);
    write_word(arena, segment, pos, 0);
    zero_replaced(arena, (segment, pos, w), (segment, 0, 0))
}

/// Zeroes what the pointer `old`, just replaced at (`segment`, `pos`),
/// reached; the `len` words at `keep_out` (`(segment, offset, len)`: the
/// new object) are never zeroed, and an old object or landing pad that
/// overlaps them (a malformed old pointer) is an error.
///
/// # Errors
/// As [`zero_pointer`].
#[cold]
#[inline(never)]
pub(super) fn zero_replaced<A: Arena + ?Sized>(
    arena: &mut A,
    (segment, pos, old): (u32, u32, u64),
    keep_out: (u32, u32, u32),
) -> Result<()> {
    let mut walk = Walk {
        budget: Budget::new(message_words(arena)),
        stack: Stack::new(),
        first_error: None,
        keep_out,
    };
    walk.follow(arena, segment, pos, old)?;
    while let Some(frame) = walk.stack.top() {
        let (s, at) = frame.pos;
        frame.take();
        if frame.is_done() {
            // The frame's last pointer: followed without the frame, so a
            // chain of objects takes one frame, not one per level.
            walk.stack.pop();
        }
        let w = read_word(arena, s, at);
        if w != 0 {
            write_word(arena, s, at, 0);
            walk.follow(arena, s, at, w)?;
        }
    }
    walk.first_error.map_or(Ok(()), Err)
}

/// [`zero_pointer`] when the slot is set to a struct, list or far
/// pointer. A capability (or another kind) has nothing behind it in the
/// message: it stays, for the caller to overwrite.
#[inline(always)]
pub(super) fn zero_if_set<A: Arena + ?Sized>(arena: &mut A, segment: u32, pos: u32) -> Result<()> {
    let w = read_word(arena, segment, pos);
    if w != 0 && pointer::kind(w) != KIND_OTHER {
        return zero_pointer(arena, segment, pos);
    }
    Ok(())
}

/// Sets the slot at (`segment`, `pos`) to `new`: one lookup and one test
/// of the slot inline, [`set_over_old`] when it is set.
///
/// # Errors
/// As [`set_over_old`].
#[inline(always)]
pub(super) fn set_pointer<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    new: u64,
) -> Result<()> {
    match BuilderSegments::get_mut(arena, segment).get_mut(pos as usize) {
        Some(slot) if slot.to_u64() == 0 => {
            *slot = Word::from_u64(new);
            Ok(())
        }
        _ => set_over_old(arena, segment, pos, new),
    }
}

/// Sets the slot at (`segment`, `pos`), found set (or outside the words
/// the arena hands out), to `new`, once what it pointed to is zeroed (see
/// [`zero_if_set`]). Out of line: the callers' hot path is the one test
/// of the slot that sends them here.
///
/// # Errors
/// As [`zero_pointer`]; the slot is then left null.
#[cold]
#[inline(never)]
pub(super) fn set_over_old<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
    new: u64,
) -> Result<()> {
    zero_if_set(arena, segment, pos)?;
    write_word(arena, segment, pos, new);
    Ok(())
}

/// [`zero_if_set`] for an operation that reports no error (clearing a
/// slot, setting a capability): what the walk can follow is zeroed and
/// the slot is null after it; what it cannot follow stays where it is,
/// unreachable.
#[inline(always)]
pub(in crate::layout) fn zero_pointer_best_effort<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    pos: u32,
) {
    if read_word(arena, segment, pos) != 0 {
        // Nothing to report it to; the slot is null whatever the result.
        let _ = zero_pointer(arena, segment, pos);
    }
}

/// One walk's state.
struct Walk {
    budget: Budget,
    stack: Stack,
    first_error: Option<Error>,
    /// Words never zeroed: (segment, offset, length).
    keep_out: (u32, u32, u32),
}

impl Walk {
    /// Zeroes what the pointer `w`, found (and zeroed) at (`segment`,
    /// `pos`), reached: its landing pad and its object's words but for its
    /// pointers, whose run is pushed.
    ///
    /// # Errors
    /// The walk must stop (see [`zero_pointer`]). A pointer that cannot be
    /// followed is recorded instead.
    fn follow<A: Arena + ?Sized>(
        &mut self,
        arena: &mut A,
        segment: u32,
        pos: u32,
        w: u64,
    ) -> Result<()> {
        match self.object(arena, segment, pos, w) {
            Ok(()) => Ok(()),
            Err(
                e @ (Error::TraversalLimitExceeded { .. }
                | Error::Alloc(_)
                | Error::ZeroTooDeepWithoutAlloc { .. }),
            ) => Err(e),
            Err(e) => {
                self.first_error.get_or_insert(e);
                Ok(())
            }
        }
    }

    /// The words at (`s`, `at`, `len` of them) may be zeroed: they miss
    /// the words kept out.
    fn check_clear(&self, s: u32, at: u64, len: u64) -> Result<()> {
        let (ks, ko, kl) = self.keep_out;
        let (ko, kl) = (u64::from(ko), u64::from(kl));
        if s == ks && kl > 0 && at < ko + kl && ko < at + len {
            return Err(Error::OldObjectOverlapsNew {
                segment: s,
                offset: at,
                len,
            });
        }
        Ok(())
    }

    fn object<A: Arena + ?Sized>(
        &mut self,
        arena: &mut A,
        segment: u32,
        pos: u32,
        w: u64,
    ) -> Result<()> {
        if w == 0 {
            return Ok(());
        }
        let count = arena.segment_count();
        let (s, start, tag) = {
            let seg = BuilderSegments::get(arena, segment);
            match resolve(w, seg, segment, pos, |id| {
                if id < count {
                    Ok(BuilderSegments::get(arena, id))
                } else {
                    Err(Error::MissingSegment { segment: id, count })
                }
            })? {
                Resolved::Object(t) => (t.segment, t.start, t.tag),
                // A capability (or another kind): nothing behind it in the
                // message.
                Resolved::Null | Resolved::Other(_) => return Ok(()),
            }
        };
        if pointer::kind(w) == KIND_FAR {
            let pad_len = if pointer::far_is_double(w) { 2 } else { 1 };
            self.check_clear(pointer::far_segment(w), pointer::far_pad_offset(w), pad_len)?;
            zero_landing_pad(arena, w);
        }
        match pointer::kind(tag) {
            KIND_STRUCT => {
                let size = pointer::struct_size(tag);
                let words = size.total_words();
                let at = check_in(arena, s, start, u64::from(words))?;
                self.check_clear(s, u64::from(at), u64::from(words))?;
                self.budget.charge(u64::from(words))?;
                zero_words(arena, s, at, u32::from(size.data_words));
                self.stack.push(Frame {
                    pos: (s, at + u32::from(size.data_words)),
                    left: u32::from(size.pointers),
                    runs: 0,
                    per: u32::from(size.pointers),
                    gap: 0,
                })
            }
            KIND_LIST => self.list(arena, s, start, tag),
            _ => Ok(()),
        }
    }

    /// The list of pointer `tag` whose words start at (`s`, `start`).
    fn list<A: Arena + ?Sized>(
        &mut self,
        arena: &mut A,
        s: u32,
        start: i64,
        tag: u64,
    ) -> Result<()> {
        let element = pointer::list_element_size(tag);
        let count = pointer::list_count(tag);
        match element {
            ElementSize::InlineComposite => {
                // `count` is the words after the tag.
                let at = check_in(arena, s, start, count + 1)?;
                self.check_clear(s, u64::from(at), count + 1)?;
                let list_tag = read_word(arena, s, at);
                let elements = pointer::tag_element_count(list_tag);
                let size = pointer::struct_size(list_tag);
                let per = u64::from(size.total_words());
                if pointer::kind(list_tag) != KIND_STRUCT || elements * per > count {
                    // The tag is not one: the words are zeroed, nothing
                    // below them followed.
                    self.budget.charge(count + 1)?;
                    zero_words(arena, s, at, count as u32 + 1);
                    return Err(Error::BadCompositeTag {
                        what: if pointer::kind(list_tag) != KIND_STRUCT {
                            "tag word is not struct-shaped"
                        } else {
                            "elements overrun the list's words"
                        },
                        elements,
                        element_words: per,
                        list_words: count,
                    });
                }
                self.budget.charge(count + 1)?;
                // `count < 2^29`: the words fit in u32.
                let (first, data) = (at + 1, u32::from(size.data_words));
                if size.pointers == 0 || elements == 0 {
                    zero_words(arena, s, at, count as u32 + 1);
                    return Ok(());
                }
                // The tag, each element's data section and the words past
                // the last element now; the pointers as they are followed.
                write_word(arena, s, at, 0);
                let per = per as u32;
                for i in 0..elements as u32 {
                    zero_words(arena, s, first + i * per, data);
                }
                let end = first + elements as u32 * per;
                zero_words(arena, s, end, count as u32 - elements as u32 * per);
                self.stack.push(Frame {
                    pos: (s, first + data),
                    left: u32::from(size.pointers),
                    runs: elements as u32 - 1,
                    per: u32::from(size.pointers),
                    gap: data,
                })
            }
            ElementSize::Pointer => {
                let at = check_in(arena, s, start, count)?;
                self.check_clear(s, u64::from(at), count)?;
                self.budget.charge(count)?;
                self.stack.push(Frame {
                    pos: (s, at),
                    left: count as u32,
                    runs: 0,
                    per: count as u32,
                    gap: 0,
                })
            }
            _ => {
                let words = (count * u64::from(element.data_bits())).div_ceil(64);
                let at = check_in(arena, s, start, words)?;
                self.check_clear(s, u64::from(at), words)?;
                self.budget.charge(words)?;
                zero_words(arena, s, at, words as u32);
                Ok(())
            }
        }
    }
}

/// Zeroes the landing pad (one word, or two for a double far) that the
/// far pointer `far` leads through, when the arena has it; any other
/// pointer has none.
pub(super) fn zero_landing_pad<A: Arena + ?Sized>(arena: &mut A, far: u64) {
    if pointer::kind(far) != KIND_FAR {
        return;
    }
    let pad = pointer::far_pad_offset(far) as usize;
    let len = if pointer::far_is_double(far) { 2 } else { 1 };
    let segment = pointer::far_segment(far);
    if segment < arena.segment_count() {
        if let Some(words) = BuilderSegments::get_mut(arena, segment).get_mut(pad..pad + len) {
            words.fill(Word::ZERO);
        }
    }
}

/// Zeroes `len` words at (`segment`, `at`), a range the caller checked.
#[inline]
fn zero_words<A: Arena + ?Sized>(arena: &mut A, segment: u32, at: u32, len: u32) {
    let start = at as usize;
    if let Some(words) =
        BuilderSegments::get_mut(arena, segment).get_mut(start..start + len as usize)
    {
        words.fill(Word::ZERO);
    }
}

/// Words the zeroing walk may visit: the message's words when it started.
/// An object is charged its words; a tree of objects fits, objects that
/// overlap (which no builder writes) run out.
fn message_words<A: Arena + ?Sized>(arena: &A) -> u64 {
    (0..arena.segment_count())
        .map(|id| BuilderSegments::get(arena, id).len() as u64)
        .sum()
}

/// The pointers of an object still to follow: one run of `per` pointers
/// (a struct's, a list of pointers'), or `runs` more after it, `gap` words
/// apart (a struct list's elements, past each one's data section).
#[derive(Clone, Copy)]
struct Frame {
    /// Segment and word of the next pointer.
    pos: (u32, u32),
    /// Pointers left in the current run.
    left: u32,
    runs: u32,
    per: u32,
    gap: u32,
}

impl Frame {
    /// Moves past the pointer at `pos` (and to the next run after the last
    /// of one).
    #[inline]
    fn take(&mut self) {
        self.left -= 1;
        self.pos.1 = self.pos.1.wrapping_add(1);
        if self.left == 0 && self.runs > 0 {
            self.runs -= 1;
            self.left = self.per;
            self.pos.1 = self.pos.1.wrapping_add(self.gap);
        }
    }

    fn is_done(&self) -> bool {
        self.left == 0
    }
}

/// Frames held inline: past them the work list grows on the heap (with
/// `alloc`) or the walk stops (without).
const INLINE_FRAMES: usize = if cfg!(feature = "alloc") { 16 } else { 64 };

/// The work list, innermost frame last. A frame with no pointers is never
/// pushed.
struct Stack {
    inline: [Frame; INLINE_FRAMES],
    len: usize,
    #[cfg(feature = "alloc")]
    heap: Vec<Frame>,
}

impl Stack {
    fn new() -> Self {
        let empty = Frame {
            pos: (0, 0),
            left: 0,
            runs: 0,
            per: 0,
            gap: 0,
        };
        Stack {
            inline: [empty; INLINE_FRAMES],
            len: 0,
            #[cfg(feature = "alloc")]
            heap: Vec::new(),
        }
    }

    fn top(&mut self) -> Option<&mut Frame> {
        #[cfg(feature = "alloc")]
        if let Some(frame) = self.heap.last_mut() {
            return Some(frame);
        }
        self.inline.get_mut(self.len.checked_sub(1)?)
    }

    fn push(&mut self, frame: Frame) -> Result<()> {
        if frame.left == 0 {
            return Ok(());
        }
        if let Some(slot) = self.inline.get_mut(self.len) {
            *slot = frame;
            self.len += 1;
            return Ok(());
        }
        #[cfg(feature = "alloc")]
        {
            self.heap.try_reserve(1).map_err(|_| {
                Error::Alloc(crate::arena::AllocError {
                    requested: (self.heap.len() as u64 + 1) * core::mem::size_of::<Frame>() as u64,
                    available: 0,
                })
            })?;
            self.heap.push(frame);
            Ok(())
        }
        #[cfg(not(feature = "alloc"))]
        {
            Err(Error::ZeroTooDeepWithoutAlloc {
                depth: self.len as u64 + 1,
                inline: INLINE_FRAMES,
            })
        }
    }

    fn pop(&mut self) {
        #[cfg(feature = "alloc")]
        if self.heap.pop().is_some() {
            return;
        }
        self.len = self.len.saturating_sub(1);
    }
}

/// Zeroes the word at byte `word` of segment `segment` (a pointer of a
/// struct) with what it reached, then looks the segment up once more and
/// keeps the `len` bytes at byte `start` (the struct's data section): the
/// lookup `KeptArena::look_up_with` runs for `StructBuilder::clear_pointer`.
/// Out of line, as `look_up_with` describes.
#[inline(never)]
pub(super) fn zero_word_and_look_up<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    word: usize,
    start: usize,
    len: usize,
) -> Cached {
    // What the pointer pointed to is zeroed first, before anything is
    // kept.
    zero_pointer_best_effort(arena, segment, (word / 8) as u32);
    look_up(arena, segment, Some(word), start, len, |_| {})
}
