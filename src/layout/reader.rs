//! Readers: struct, list and pointer views over segments, with every
//! pointer bounds-checked and every read charged to the traversal limit.

#[cfg(feature = "alloc")]
use alloc::boxed::Box;

use super::pointer::{self, ElementSize, KIND_FAR, KIND_LIST, KIND_OTHER, KIND_STRUCT, StructSize};
use super::primitive::{Primitive, load};
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;
use core::iter::Zip;
use core::ops::Range;
use core::slice::ChunksExact;

mod context;
mod list;
pub(crate) use context::ReaderOptionsCore;
pub use context::{INLINE_SEGMENTS, ReadContext, SegStore, SegmentSource, StaticContext};
pub use list::{ListReader, StructElements};

/// The words of all of `source`'s segments (its segment count asked once).
pub(crate) fn source_words(source: &dyn SegmentSource) -> u64 {
    (0..source.segment_count())
        .map(|id| source.segment(id).map_or(0, |s| s.len() as u64))
        .sum()
}

/// Checks that words `[start, start + len)` lie inside `seg`; returns
/// `start` as an index.
#[inline]
pub(crate) fn bounds(seg: &[Word], segment: u32, start: i64, len: u64) -> Result<usize> {
    let ok = start >= 0
        && (start as u64)
            .checked_add(len)
            .is_some_and(|end| end <= seg.len() as u64);
    if ok {
        Ok(start as usize)
    } else {
        Err(Error::OutOfBounds {
            segment,
            start,
            len,
            segment_len: seg.len() as u64,
        })
    }
}

/// The error for words `[start, start + len)` outside `seg` (segment
/// `segment`).
#[cold]
#[inline(never)]
fn out_of_bounds(seg: &[Word], segment: u32, start: i64, len: u64) -> Error {
    Error::OutOfBounds {
        segment,
        start,
        len,
        segment_len: seg.len() as u64,
    }
}

/// The bytes of words `[start, start + words)` of `seg`, a struct's data
/// section whose bounds the caller checked (empty if they were not).
#[inline(always)]
fn data_section(seg: &[Word], start: usize, words: usize) -> &[u8] {
    Word::slice_as_bytes(seg.get(start..start + words).unwrap_or(&[]))
}

/// As [`bounds`], and the words themselves (for the general struct path
/// the unit tests check the inline one against).
#[cfg(test)]
fn bounds_words(seg: &[Word], segment: u32, start: i64, len: u64) -> Result<(usize, &[Word])> {
    let object = usize::try_from(start)
        .ok()
        .and_then(|s| seg.get(s..))
        .zip(usize::try_from(len).ok())
        .and_then(|(rest, n)| rest.get(..n));
    match object {
        Some(o) => Ok((start as usize, o)),
        None => Err(Error::OutOfBounds {
            segment,
            start,
            len,
            segment_len: seg.len() as u64,
        }),
    }
}

#[inline]
pub(crate) fn word_at(seg: &[Word], i: usize) -> u64 {
    seg.get(i).map_or(0, |w| w.to_u64())
}

/// A pointer, resolved through any far pointer to its object.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) seg: &'a [Word],
    pub(crate) segment: u32,
    /// First word of the object (for a list: of its tag, if composite).
    pub(crate) start: i64,
    /// The struct or list pointer describing the object.
    pub(crate) tag: u64,
}

pub(crate) enum Resolved<'a> {
    Null,
    Object(Target<'a>),
    Other(u64),
}

/// Resolves pointer word `w`, found at word `pos` of `seg` (segment
/// `segment`), through any far pointer; `lookup` finds other segments.
#[inline]
pub(crate) fn resolve<'s>(
    w: u64,
    seg: &'s [Word],
    segment: u32,
    pos: u32,
    lookup: impl Fn(u32) -> Result<&'s [Word]>,
) -> Result<Resolved<'s>> {
    if w == 0 {
        return Ok(Resolved::Null);
    }
    match pointer::kind(w) {
        KIND_STRUCT | KIND_LIST => Ok(Resolved::Object(Target {
            seg,
            segment,
            start: i64::from(pos) + 1 + pointer::offset(w),
            tag: w,
        })),
        KIND_FAR => resolve_far(w, lookup).map(Resolved::Object),
        _ => Ok(Resolved::Other(w)),
    }
}

#[inline(never)]
fn resolve_far<'s>(w: u64, lookup: impl Fn(u32) -> Result<&'s [Word]>) -> Result<Target<'s>> {
    let segment = pointer::far_segment(w);
    let seg = lookup(segment)?;
    let pad = pointer::far_pad_offset(w);
    if !pointer::far_is_double(w) {
        let at = bounds(seg, segment, pad as i64, 1)?;
        let pad_word = word_at(seg, at);
        if pad_word == 0 {
            // A null pad would read as a struct of 0 words at offset 0 that
            // `kind()` reports as null; no writer produces it.
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is a null pointer",
            });
        }
        match pointer::kind(pad_word) {
            KIND_STRUCT | KIND_LIST => Ok(Target {
                seg,
                segment,
                start: pad as i64 + 1 + pointer::offset(pad_word),
                tag: pad_word,
            }),
            KIND_FAR => Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is another far pointer",
            }),
            _ => Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "landing pad is not a struct or list pointer",
            }),
        }
    } else {
        let at = bounds(seg, segment, pad as i64, 2)?;
        let far = word_at(seg, at);
        let tag = word_at(seg, at + 1);
        if pointer::kind(far) != KIND_FAR || pointer::far_is_double(far) {
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "first word of a double-far landing pad is not a single far pointer",
            });
        }
        if tag == 0 || !matches!(pointer::kind(tag), KIND_STRUCT | KIND_LIST) {
            return Err(Error::BadLandingPad {
                segment,
                offset: pad,
                what: "second word of a double-far landing pad is not a struct or list pointer",
            });
        }
        let content = pointer::far_segment(far);
        Ok(Target {
            seg: lookup(content)?,
            segment: content,
            start: pointer::far_pad_offset(far) as i64,
            tag,
        })
    }
}

/// A pointer inside a message being read: a struct field, a list element
/// or the root. Resolve it as the type the schema says it has.
#[derive(Clone, Copy)]
pub struct PointerReader<'a> {
    ctx: &'a ReadContext<'a>,
    seg: &'a [Word],
    segment: u32,
    /// The pointer's word in `seg` (below `seg`'s length, so below 2^61).
    pos: usize,
    word: u64,
    nesting: u32,
}

impl<'a> PointerReader<'a> {
    /// The pointer at word `pos` of `seg` (segment `segment`), read at
    /// `nesting` levels of nesting left.
    #[inline(always)]
    pub(crate) fn at(
        ctx: &'a ReadContext<'a>,
        seg: &'a [Word],
        segment: u32,
        pos: u32,
        nesting: u32,
    ) -> Self {
        PointerReader {
            ctx,
            seg,
            segment,
            pos: pos as usize,
            word: word_at(seg, pos as usize),
            nesting,
        }
    }

    fn null(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
        PointerReader {
            ctx,
            seg: &[],
            segment: 0,
            pos: 0,
            word: 0,
            nesting,
        }
    }

    /// Whether the pointer is null (all zero).
    pub fn is_null(&self) -> bool {
        self.word == 0
    }

    /// The message's read context.
    #[inline(always)]
    pub(crate) fn context(&self) -> &'a ReadContext<'a> {
        self.ctx
    }

    /// The raw pointer word.
    pub fn raw(&self) -> u64 {
        self.word
    }

    #[inline]
    fn resolve(&self) -> Result<Resolved<'a>> {
        let ctx = self.ctx;
        resolve(self.word, self.seg, self.segment, self.pos as u32, |id| {
            ctx.segment(id).ok_or(Error::MissingSegment {
                segment: id,
                count: ctx.segment_count(),
            })
        })
    }

    /// What the pointer points to, following far pointers: `Null`, `Struct`,
    /// `List`, `Capability` or `Other`.
    ///
    /// # Errors
    /// A malformed far pointer.
    pub fn kind(&self) -> Result<PointerKind> {
        Ok(match self.resolve()? {
            Resolved::Null => PointerKind::Null,
            Resolved::Object(t) => pointer::pointer_kind(t.tag),
            Resolved::Other(w) => pointer::pointer_kind(w),
        })
    }

    #[inline]
    fn descend(&self) -> Result<u32> {
        self.nesting
            .checked_sub(1)
            .ok_or(Error::NestingLimitExceeded {
                limit: self.ctx.limits.nesting_limit,
            })
    }

    /// The struct this pointer points to; an empty struct (every field at
    /// its default) when null.
    ///
    /// # Errors
    /// Not a struct pointer, out of bounds, or a limit exceeded.
    // A near struct pointer is read inline; far pointers and pointers of
    // other kinds are resolved out of line to the object they reach (or
    // their error), and every error is made out of line: what stays inline
    // is a few checks, and no reader returned through memory meets the
    // inline one (read back with wider loads than it was stored with, it
    // stalls on store forwarding).
    #[inline(always)]
    pub fn get_struct(&self) -> Result<StructReader<'a>> {
        let w = self.word;
        if w == 0 {
            return Ok(StructReader::empty(self.ctx, self.nesting));
        }
        let t = if pointer::kind(w) == KIND_STRUCT {
            Target {
                seg: self.seg,
                segment: self.segment,
                // `pos < 2^61` and the offset is above -2^29: no overflow.
                start: self.pos as i64 + 1 + pointer::offset(w),
                tag: w,
            }
        } else {
            self.ctx.far_struct_target(w)?
        };
        self.ctx.struct_at(t, self.nesting)
    }

    /// [`get_struct`](Self::get_struct) through the general resolution, as
    /// it was read before the inline path: what the unit tests check
    /// `get_struct` against.
    #[cfg(test)]
    fn get_struct_general(&self) -> Result<StructReader<'a>> {
        let t = match self.resolve()? {
            Resolved::Null => return Ok(StructReader::empty(self.ctx, self.nesting)),
            Resolved::Object(t) => t,
            Resolved::Other(w) => return Err(unexpected(PointerKind::Struct, w)),
        };
        if pointer::kind(t.tag) != KIND_STRUCT {
            return Err(unexpected(PointerKind::Struct, t.tag));
        }
        let nesting = self.descend()?;
        let size = pointer::struct_size(t.tag);
        let words = u64::from(size.total_words());
        let (start, object) = bounds_words(t.seg, t.segment, t.start, words)?;
        self.ctx.charge(words)?;
        let data = object.get(..usize::from(size.data_words)).unwrap_or(&[]);
        let ptr = start + usize::from(size.data_words);
        Ok(StructReader {
            ctx: self.ctx,
            seg: t.seg,
            segment: t.segment,
            data: Word::slice_as_bytes(data),
            pointers: words_at(t.seg, ptr, usize::from(size.pointers)),
            nesting,
        })
    }

    /// The list this pointer points to, checked to be readable as elements
    /// of `expected` size (a struct list may be read as a primitive list of
    /// its first field, and the other way round, as the spec allows); an
    /// empty list when null.
    ///
    /// # Errors
    /// Not a list pointer, elements incompatible with `expected`, out of
    /// bounds, a bad inline-composite tag, or a limit exceeded.
    #[inline(always)]
    pub fn get_list(&self, expected: ElementSize) -> Result<ListReader<'a>> {
        let list = self.get_list_any()?;
        list.check_compatible(expected)?;
        Ok(list)
    }

    /// The list this pointer points to, whatever its element size.
    ///
    /// # Errors
    /// As [`get_list`](Self::get_list), less the element size check.
    #[inline(always)]
    pub fn get_list_any(&self) -> Result<ListReader<'a>> {
        let t = match self.resolve()? {
            Resolved::Null => return Ok(ListReader::empty(self.ctx, self.nesting)),
            Resolved::Object(t) => t,
            Resolved::Other(w) => return Err(unexpected(PointerKind::List, w)),
        };
        if pointer::kind(t.tag) != KIND_LIST {
            return Err(unexpected(PointerKind::List, t.tag));
        }
        let nesting = self.descend()?;
        let size = pointer::list_element_size(t.tag);
        let count = pointer::list_count(t.tag);
        if size == ElementSize::InlineComposite {
            let start = bounds(t.seg, t.segment, t.start, count + 1)?;
            let tag = word_at(t.seg, start);
            let bad = |what| Error::BadCompositeTag {
                what,
                elements: pointer::tag_element_count(tag),
                element_words: u64::from(pointer::struct_size(tag).total_words()),
                list_words: count,
            };
            if pointer::kind(tag) != KIND_STRUCT {
                return Err(bad("tag word is not struct-shaped"));
            }
            let elements = pointer::tag_element_count(tag);
            let es = pointer::struct_size(tag);
            let per = u64::from(es.total_words());
            // `elements < 2^30` and `per < 2^17`: the product fits in u64.
            if elements * per > count {
                return Err(bad("elements overrun the list's words"));
            }
            self.ctx.charge(elements * per.max(1))?;
            Ok(ListReader {
                ctx: self.ctx,
                seg: t.seg,
                segment: t.segment,
                start_bit: (start as u64 + 1) * 64,
                len: elements as u32,
                step_bits: per * 64,
                data_bits: u32::from(es.data_words) * 64,
                ptrs: es.pointers,
                size,
                nesting,
            })
        } else {
            let bits = u64::from(size.data_bits()) + 64 * u64::from(size.pointers());
            // `count < 2^29` and `bits <= 64`: no overflow.
            let words = (count * bits).div_ceil(64);
            let start = bounds(t.seg, t.segment, t.start, words)?;
            self.ctx.charge(if bits == 0 { count } else { words })?;
            Ok(ListReader {
                ctx: self.ctx,
                seg: t.seg,
                segment: t.segment,
                start_bit: start as u64 * 64,
                len: count as u32,
                step_bits: bits,
                data_bits: size.data_bits(),
                ptrs: size.pointers() as u16,
                size,
                nesting,
            })
        }
    }

    /// The bytes of a `Data` blob (a list of bytes); empty when null.
    ///
    /// # Errors
    /// Not a list of bytes, out of bounds, or a limit exceeded.
    pub fn get_data(&self) -> Result<&'a [u8]> {
        // Fast path for a list of bytes; everything else takes the generic
        // path.
        if let Some((words, count)) = self.byte_list()? {
            return Ok(Word::slice_as_bytes(words).get(..count).unwrap_or(&[]));
        }
        let list = self.get_list_any()?;
        list.as_bytes()
    }

    /// A list of bytes: the words its bytes lie in (with up to 7 bytes of
    /// padding after them) and its byte count, after the same checks as
    /// `get_list_any` followed by `as_bytes`, in the same order, without
    /// building the generic list. `None` for anything else, null
    /// included.
    #[inline(always)]
    fn byte_list(&self) -> Result<Option<(&'a [Word], usize)>> {
        if let Resolved::Object(t) = self.resolve()? {
            if pointer::kind(t.tag) == KIND_LIST
                && pointer::list_element_size(t.tag) == ElementSize::Byte
            {
                self.descend()?;
                let count = pointer::list_count(t.tag);
                let words = count.div_ceil(8);
                let start = bounds(t.seg, t.segment, t.start, words)?;
                self.ctx.charge(words)?;
                // Inside the segment: `bounds` checked the range.
                let words = t.seg.get(start..start + words as usize).unwrap_or(&[]);
                return Ok(Some((words, count as usize)));
            }
        }
        Ok(None)
    }

    /// The bytes of a `Text`, without its NUL terminator and without a
    /// UTF-8 check; empty when null.
    ///
    /// # Errors
    /// As [`get_data`](Self::get_data), or the text is not NUL-terminated.
    pub fn get_text_bytes(&self) -> Result<&'a [u8]> {
        if self.is_null() {
            return Ok(&[]);
        }
        let bytes = self.get_data()?;
        match bytes.split_last() {
            Some((0, text)) => Ok(text),
            _ => Err(Error::TextNotTerminated {
                len: bytes.len() as u64,
            }),
        }
    }

    /// A `Text` as `&str`; empty when null.
    ///
    /// # Errors
    /// As [`get_text_bytes`](Self::get_text_bytes), or not valid UTF-8.
    pub fn get_text(&self) -> Result<&'a str> {
        // A list of bytes (any text): its terminator checked here, and
        // its words tested for ASCII whole, padding included.
        if let Some((words, count)) = self.byte_list()? {
            return crate::utf8::text_of_byte_list(words, count);
        }
        let bytes = self.get_text_bytes()?;
        crate::utf8::text_str(bytes)
    }

    /// The index of a capability pointer in the message's capability table.
    ///
    /// # Errors
    /// Not a capability pointer.
    pub fn get_capability(&self) -> Result<u32> {
        match self.resolve()? {
            Resolved::Other(w) if (w as u32) == KIND_OTHER as u32 => {
                Ok(pointer::capability_index(w))
            }
            Resolved::Other(w) => Err(unexpected(PointerKind::Capability, w)),
            Resolved::Null => Err(unexpected(PointerKind::Capability, 0)),
            Resolved::Object(t) => Err(unexpected(PointerKind::Capability, t.tag)),
        }
    }
}

fn unexpected(expected: PointerKind, found: u64) -> Error {
    Error::UnexpectedPointer {
        expected,
        found: pointer::pointer_kind(found),
    }
}

/// A struct inside a message being read.
///
/// Fields past the end of the struct's sections read as their defaults, so
/// a reader compiled against a newer schema reads older messages.
#[derive(Clone, Copy)]
pub struct StructReader<'a> {
    ctx: &'a ReadContext<'a>,
    seg: &'a [Word],
    segment: u32,
    /// The data section's bytes, cut out of `seg` when the struct was
    /// reached (its bounds checked then), so a field read checks its offset
    /// against this length only: for the elements of one list that length
    /// is the same every time, and the check leaves the loop.
    data: &'a [u8],
    /// The pointer section's words as byte arrays (so that it can be cut
    /// out of a list's bytes as well as out of its words), cut out of
    /// `seg` when the struct was reached (its bounds checked then), so a
    /// pointer read checks its index against this length only: for the
    /// elements of one list that length is the same every time, and the
    /// check leaves the loop. Its position in `seg` (where a near
    /// pointer's offset counts from) is found from the two slices'
    /// addresses ([`word_index`]).
    pointers: &'a [[u8; 8]],
    nesting: u32,
}

/// The index in `seg` of the word at `at`, the address of a word of
/// `seg`: the distance between their addresses, in words. Safe arithmetic
/// on addresses; every reader that holds a pointer section holds the
/// segment it was cut out of, so the distance is an index into `seg` (and a
/// wrong one could only send a near pointer to a target that its bounds
/// check against `seg` refuses, never read outside `seg`).
#[inline(always)]
fn word_index(seg: &[Word], at: *const [u8; 8]) -> usize {
    let from = seg.as_ptr().addr();
    at.addr().wrapping_sub(from) / core::mem::size_of::<Word>()
}

/// Words `[start, start + len)` of `seg` as byte arrays; empty past its
/// end.
#[inline(always)]
fn words_at(seg: &[Word], start: usize, len: usize) -> &[[u8; 8]] {
    word_arrays(seg.get(start..start.saturating_add(len)).unwrap_or(&[]))
}

/// `words` as byte arrays (the same length: no check).
#[inline(always)]
fn word_arrays(words: &[Word]) -> &[[u8; 8]] {
    bytemuck::cast_slice(words)
}

impl<'a> StructReader<'a> {
    /// A reader over a struct of `size` whose data section starts at word
    /// `data` of segment `segment`, as a builder placed it.
    pub(crate) fn at_builder(
        ctx: &'a ReadContext<'a>,
        segment: u32,
        data: u32,
        size: StructSize,
    ) -> Self {
        let seg = ctx.segment(segment).unwrap_or(&[]);
        let ptr = data as usize + usize::from(size.data_words);
        StructReader {
            ctx,
            seg,
            segment,
            data: data_section(seg, data as usize, usize::from(size.data_words)),
            pointers: words_at(seg, ptr, usize::from(size.pointers)),
            nesting: ctx.limits.nesting_limit,
        }
    }

    fn empty(ctx: &'a ReadContext<'a>, nesting: u32) -> Self {
        StructReader {
            ctx,
            seg: &[],
            segment: 0,
            data: &[],
            pointers: &[],
            nesting,
        }
    }

    /// The message's read context.
    #[inline(always)]
    pub(crate) fn context(&self) -> &'a ReadContext<'a> {
        self.ctx
    }

    /// Bits in the data section (a multiple of 64, except for elements of a
    /// primitive list read as structs).
    pub fn data_bits(&self) -> u32 {
        // At most 2^16 words of 64 bits: no overflow.
        (self.data.len() * 8) as u32
    }

    /// Pointers in the pointer section.
    pub fn pointer_count(&self) -> u16 {
        // At most 2^16 - 1 pointers: no truncation.
        self.pointers.len() as u16
    }

    /// The struct's size in words, for a struct read from a struct pointer
    /// or struct list.
    pub fn size(&self) -> StructSize {
        StructSize::new(self.data.len().div_ceil(8) as u16, self.pointer_count())
    }

    /// The data section's bytes.
    #[inline]
    pub fn data_bytes(&self) -> &'a [u8] {
        self.data
    }

    /// The value at `index` (in units of `T`'s size); 0 past the data
    /// section.
    #[inline]
    pub fn get<T: Primitive>(&self, index: usize) -> T {
        // The one check is against the data section's length (constant
        // over a list's elements); `load` refuses an offset that overflows.
        match index.checked_mul(T::BYTES) {
            Some(at) => load(self.data, at).unwrap_or(T::from_bits(0)),
            None => T::from_bits(0),
        }
    }

    /// The value at `index` XOR `default`: how a field with a schema
    /// default is stored.
    #[inline]
    pub fn get_or<T: Primitive>(&self, index: usize, default: T) -> T {
        T::from_bits(self.get::<T>(index).to_bits() ^ default.to_bits())
    }

    /// The bit at `bit` of the data section; `false` past it.
    #[inline]
    pub fn get_bool(&self, bit: usize) -> bool {
        self.data
            .get(bit / 8)
            .is_some_and(|b| b & (1 << (bit % 8)) != 0)
    }

    /// The bit at `bit` XOR `default`.
    #[inline]
    pub fn get_bool_or(&self, bit: usize, default: bool) -> bool {
        self.get_bool(bit) ^ default
    }

    /// Pointer `index` of the pointer section; null past it.
    #[inline]
    pub fn pointer(&self, index: usize) -> PointerReader<'a> {
        match self.pointers.get(index) {
            Some(word) => PointerReader {
                ctx: self.ctx,
                seg: self.seg,
                segment: self.segment,
                pos: word_index(self.seg, word),
                word: u64::from_le_bytes(*word),
                nesting: self.nesting,
            },
            None => PointerReader::null(self.ctx, self.nesting),
        }
    }

    /// Where the pointer section is, for a copy: the segment's words, its
    /// number, the word of pointer 0 and the nesting its pointers are read
    /// at (as [`pointer`](Self::pointer) reads them).
    #[inline(always)]
    pub(crate) fn pointer_section(&self) -> (&'a [Word], u32, u32, u32) {
        let first = match self.pointers {
            [] => 0,
            p => word_index(self.seg, p.as_ptr()) as u32,
        };
        (self.seg, self.segment, first, self.nesting)
    }

    /// Whether pointer `index` is non-null.
    pub fn has_pointer(&self, index: usize) -> bool {
        !self.pointer(index).is_null()
    }

    /// The struct at pointer `index`. See [`PointerReader::get_struct`].
    ///
    /// # Errors
    /// As [`PointerReader::get_struct`].
    #[inline]
    pub fn get_struct(&self, index: usize) -> Result<StructReader<'a>> {
        self.pointer(index).get_struct()
    }

    /// The list at pointer `index`. See [`PointerReader::get_list`].
    ///
    /// # Errors
    /// As [`PointerReader::get_list`].
    #[inline]
    pub fn get_list(&self, index: usize, expected: ElementSize) -> Result<ListReader<'a>> {
        self.pointer(index).get_list(expected)
    }

    /// The text at pointer `index`. See [`PointerReader::get_text`].
    ///
    /// # Errors
    /// As [`PointerReader::get_text`].
    pub fn get_text(&self, index: usize) -> Result<&'a str> {
        self.pointer(index).get_text()
    }

    /// The data at pointer `index`. See [`PointerReader::get_data`].
    ///
    /// # Errors
    /// As [`PointerReader::get_data`].
    pub fn get_data(&self, index: usize) -> Result<&'a [u8]> {
        self.pointer(index).get_data()
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// A struct reader's fields: data address and length, segment, pointer
    /// section, pointers, nesting, segment address.
    type Fields = (usize, usize, u32, usize, usize, u32, usize);

    /// What a struct read gave, comparable: the reader's every field, or
    /// the error with its numbers.
    fn seen(r: Result<StructReader<'_>>) -> Result<Fields, String> {
        match r {
            Ok(s) => Ok((
                s.data.as_ptr() as usize,
                s.data.len(),
                s.segment,
                s.pointers.as_ptr() as usize,
                s.pointers.len(),
                s.nesting,
                s.seg.as_ptr() as usize,
            )),
            Err(e) => Err(format!("{e:?}")),
        }
    }

    fn struct_ptr(offset: i32, data: u16, ptrs: u16) -> u64 {
        u64::from((offset << 2) as u32) | u64::from(data) << 32 | u64::from(ptrs) << 48
    }

    fn far_ptr(double: bool, pad: u32, segment: u32) -> u64 {
        2 | u64::from(double) << 2 | u64::from(pad) << 3 | u64::from(segment) << 32
    }

    /// Pointer words of every kind: near struct pointers with offsets and
    /// sizes at and past every edge, null, lists, far and double-far
    /// pointers, capabilities.
    fn words() -> Vec<u64> {
        let offsets: &[i32] = if cfg!(miri) {
            &[-2, -1, 0, 1, 3]
        } else {
            &[-(1 << 29), -3, -2, -1, 0, 1, 2, 3, 5, (1 << 29) - 1]
        };
        let sizes: &[u16] = if cfg!(miri) {
            &[0, 1, 2]
        } else {
            &[0, 1, 2, 3, 0xFFFF]
        };
        let mut out = Vec::new();
        for &o in offsets {
            for &d in sizes {
                for &p in sizes {
                    out.push(struct_ptr(o, d, p));
                }
            }
        }
        out.extend([
            0,
            1 | 5 << 32 | 3 << 35,
            far_ptr(false, 0, 0),
            far_ptr(false, 1, 1),
            far_ptr(true, 0, 1),
            far_ptr(false, 2, 7),
            3,
        ]);
        out
    }

    fn core(traversal: u64, nesting: u32) -> ReaderOptionsCore {
        ReaderOptionsCore {
            traversal_limit_words: traversal,
            nesting_limit: nesting,
        }
    }

    const TRAVERSALS: [u64; 5] = [0, 1, 2, 4, 1 << 23];
    const NESTINGS: [u32; 3] = [0, 1, 64];

    /// Under Miri (which runs these tests for the unsafe code beneath the
    /// reader), the edges of each range only: every third pointer word,
    /// the extreme and middle limits. Natively, all of them.
    fn sample<T: Copy>(all: &[T]) -> Vec<T> {
        if cfg!(miri) {
            all.iter().copied().step_by(2).collect()
        } else {
            all.to_vec()
        }
    }

    fn sampled_words() -> Vec<u64> {
        let all = words();
        if cfg!(miri) {
            all.into_iter().step_by(3).collect()
        } else {
            all
        }
    }

    /// The inline root read (`root_struct`) gives what the general path
    /// gives, the same reader or the same error with its numbers, and
    /// leaves the same traversal budget, for root words of every kind in
    /// segments of every length up to 6 words, alone or with a second
    /// segment that far pointers can land in, at every traversal and
    /// nesting limit around the object's size.
    #[test]
    fn inline_root_read_matches_the_general_path() {
        let other: Vec<Word> = [struct_ptr(0, 1, 0), 7, struct_ptr(-1, 1, 0), 0]
            .map(Word::from_u64)
            .to_vec();
        let mut checked = 0;
        for w in sampled_words() {
            for len in sample(&[0, 1, 2, 3, 4, 5, 6usize]) {
                let mut seg = alloc::vec![Word::from_u64(0x0101_0101_0101_0101); len];
                if let Some(first) = seg.first_mut() {
                    *first = Word::from_u64(w);
                }
                let two = [&seg[..], &other[..]];
                for t in sample(&TRAVERSALS) {
                    for n in sample(&NESTINGS) {
                        for store in [0, 1] {
                            let make = || match store {
                                0 => ReadContext::one(&seg, core(t, n)),
                                _ => ReadContext::new(SegStore::Slices(&two), core(t, n)),
                            };
                            let (fast, general) = (make(), make());
                            let a = seen(fast.root_struct());
                            let b = seen(general.root_struct_general());
                            assert_eq!(a, b, "root {w:#x}, {len} words, limits {t}/{n}");
                            assert_eq!(
                                fast.traversal_remaining(),
                                general.traversal_remaining(),
                                "root {w:#x}, {len} words, limits {t}/{n}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > if cfg!(miri) { 100 } else { 1000 });
    }

    /// A struct pointer read inside a segment (`get_struct`, inline for
    /// near struct pointers) gives what the general path gives, with the
    /// same budget left, for pointers of every kind at every word of a
    /// 6-word segment.
    #[test]
    fn inline_struct_read_matches_the_general_path() {
        for w in sampled_words() {
            for pos in sample(&[0, 1, 2, 3, 4, 5u32]) {
                let mut seg = alloc::vec![Word::from_u64(0x0202_0202_0202_0202); 6];
                seg[pos as usize] = Word::from_u64(w);
                for t in sample(&TRAVERSALS) {
                    for n in sample(&NESTINGS) {
                        let fast = ReadContext::one(&seg, core(t, 64));
                        let general = ReadContext::one(&seg, core(t, 64));
                        let a = PointerReader::at(&fast, &seg, 0, pos, n).get_struct();
                        let b = PointerReader::at(&general, &seg, 0, pos, n).get_struct_general();
                        let ctx = format!("pointer {w:#x} at {pos}, limits {t}/{n}");
                        assert_eq!(seen(a), seen(b), "{ctx}");
                        assert_eq!(
                            fast.traversal_remaining(),
                            general.traversal_remaining(),
                            "{ctx}"
                        );
                    }
                }
            }
        }
    }

    /// A framed message of several segments read in place
    /// (`SegStore::Framed`) finds its segments where the store says they
    /// end: every segment is the words between, no other id is one, and
    /// the root's segment is the first.
    #[test]
    fn framed_store_finds_each_segment_by_its_end() {
        let body: Vec<Word> = (0..10u64).map(Word::from_u64).collect();
        // Three segments of 2, 0 and 8 words.
        // Three segments of 2, 0 and 8 words.
        let ctx = ReadContext::new(
            SegStore::Framed {
                body: &body,
                ends: [2, 2, 0, 0, 0, 0, 0],
                count: 3,
            },
            core(100, 64),
        );
        assert_eq!(ctx.segment_count(), 3);
        assert_eq!(ctx.segment(0), Some(&body[..2]));
        assert_eq!(ctx.segment(1), Some(&body[2..2]));
        assert_eq!(ctx.segment(2), Some(&body[2..]));
        assert_eq!(ctx.segment(3), None);
    }

    /// The context keeps segment 0 apart from its store (the root is read
    /// from there): for every kind of store, it is the store's segment 0,
    /// the root read from it is the one written there, and a store with
    /// no segment gives the missing-segment error, not a root.
    #[test]
    fn root_comes_from_segment_zero_of_every_store() {
        let a: Vec<Word> = [struct_ptr(0, 1, 0), 42].map(Word::from_u64).to_vec();
        let b = alloc::vec![Word::from_u64(7); 3];
        let both: Vec<Word> = a.iter().chain(&b).copied().collect();
        let two = [&a[..], &b[..]];
        let stores = [
            SegStore::Slices(&two),
            SegStore::snapshot_of(2, |id| two[id as usize]),
            SegStore::Framed {
                body: &both,
                ends: [2, 0, 0, 0, 0, 0, 0],
                count: 2,
            },
            SegStore::Heap(two.to_vec().into_boxed_slice()),
            SegStore::BuiltHeap(two.to_vec().into_boxed_slice()),
        ];
        for (i, store) in stores.into_iter().enumerate() {
            let ctx = ReadContext::new(store, core(100, 64));
            assert_eq!(ctx.segment(0), Some(&a[..]), "store {i}");
            assert_eq!(ctx.segment(1), Some(&b[..]), "store {i}");
            let root = ctx.root_struct().expect("a root");
            assert_eq!(root.get::<u64>(0), 42, "store {i}");
        }
        let one = ReadContext::one(&a, core(100, 64));
        assert_eq!(one.segment(0), Some(&a[..]));
        assert_eq!(one.segment(1), None);
        assert_eq!(one.root_struct().expect("a root").get::<u64>(0), 42);
        let none = ReadContext::new(SegStore::Slices(&[]), core(100, 64));
        assert!(matches!(
            none.root_struct(),
            Err(Error::MissingSegment {
                segment: 0,
                count: 0
            })
        ));
    }
}
