//! [`StructBuilder`]: a struct's data fields (kept data section, see
//! [`KeptArena`]) and its pointer fields.

use super::zero::zero_word_and_look_up;
use super::{Keep, ListBuilder, PointerBuilder, read_word};
use crate::arena::Arena;
use crate::error::Result;
use crate::layout::cache::{ArenaCall, Cached, KeptArena, look_up};
use crate::layout::pointer::{ElementSize, StructSize};
use crate::layout::primitive::{Primitive, load, store};
use crate::layout::segments::BuilderSegments;
use crate::word::Word;

/// A struct in a message being built.
///
/// Field indexes are in units of the value's size, as in compiled schemas
/// (see [`Primitive`]); bool fields are addressed by bit. Generated code
/// wraps this type; use it directly for layouts known only at run time.
///
/// # Examples
///
/// A struct laid out as a compiled schema would lay it out: a `UInt32` at
/// data index 0, a `Bool` at bit 32, a `Text` in pointer 0, a nested
/// struct in pointer 1 and a `List(UInt32)` in pointer 2.
///
/// ```
/// use capnarena::{ElementSize, Message, SingleSegmentArena, StructSize};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// let mut person = msg.init_root_struct(StructSize::new(1, 3))?;
/// person.set::<u32>(0, 42);
/// person.set_bool(32, true);
/// person.set_text(0, "Alice")?;
/// // A nested builder borrows its parent until it is dropped.
/// person.init_struct(1, StructSize::new(1, 0))?.set::<u64>(0, 7);
/// let mut scores = person.init_list(2, ElementSize::FourBytes, 3)?;
/// for i in 0..3 {
///     scores.set::<u32>(i, i * 10);
/// }
///
/// let reader = msg.reader();
/// let root = reader.root()?;
/// assert_eq!(root.get::<u32>(0), 42);
/// assert!(root.get_bool(32));
/// assert_eq!(root.get_text(0)?, "Alice");
/// assert_eq!(root.get_struct(1)?.get::<u64>(0), 7);
/// assert_eq!(root.get_list(2, ElementSize::FourBytes)?.get::<u32>(2), 20);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct StructBuilder<'a, A: Arena + ?Sized> {
    /// The arena and the struct's data section while no call into the
    /// arena has been made since it was looked up: the only way to the
    /// arena is through it, and that forgets the data section first (see
    /// [`KeptArena`]).
    pub(super) arena: KeptArena<'a, A>,
    pub(super) segment: u32,
    /// Word offset of the data section.
    pub(super) data: u32,
    pub(super) size: StructSize,
}

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
            // The handle may call the arena: it takes the kept data section,
            // and this one looks up again after.
            arena: self.arena.reborrow(),
            segment: self.segment,
            data: self.data,
            size: self.size,
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
    pub(super) fn look_up_and(&mut self, write: impl FnOnce(&mut [u8])) {
        let start = self.data as usize * 8;
        let len = usize::from(self.size.data_words) * 8;
        self.arena.look_up_and(self.segment, start, len, write);
    }

    /// The data section looked up through the arena (for a builder that
    /// keeps nothing, or a read behind `&self`); out of line, taking the
    /// arena and not the builder (see [`KeptArena::look_up_with`]).
    #[inline(always)]
    fn data_looked_up(&self) -> &[u8] {
        data_section(
            self.arena.arena_ref(),
            self.segment,
            self.data as usize * 8,
            usize::from(self.size.data_words) * 8,
        )
    }

    /// Sets the value at `index` (in units of `T`'s size).
    ///
    /// # Panics
    /// If the field lies past the struct's data section (a schema error in
    /// the caller).
    #[inline(always)]
    #[track_caller]
    pub fn set<T: Primitive>(&mut self, index: usize, value: T) {
        // The kept data section is exactly the struct's: a write that fits
        // it needs no other check.
        if !self.arena.write(index, value) {
            self.set_looked_up(index, value);
        }
    }

    /// [`set`](Self::set) when the data section is not kept: the lookup out
    /// of line, taking the arena and not the builder (see
    /// [`KeptArena::look_up_with`]).
    #[inline(always)]
    #[track_caller]
    fn set_looked_up<T: Primitive>(&mut self, index: usize, value: T) {
        let (segment, data, size) = (self.segment, self.data, self.size);
        self.arena
            .look_up_with(|arena| set_cold(arena, segment, data, size, index, value));
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
        if let Some(v) = self.arena.read(index) {
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
    #[inline(always)]
    #[track_caller]
    pub fn set_bool(&mut self, bit: usize, value: bool) {
        if !self.arena.write_bit(bit, value) {
            self.set_bool_looked_up(bit, value);
        }
    }

    /// [`set_bool`](Self::set_bool) when the data section is not kept, as
    /// [`set_looked_up`](Self::set_looked_up).
    #[inline(always)]
    #[track_caller]
    fn set_bool_looked_up(&mut self, bit: usize, value: bool) {
        let (segment, data, size) = (self.segment, self.data, self.size);
        self.arena
            .look_up_with(|arena| set_bool_cold(arena, segment, data, size, bit, value));
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
        let b = match self.arena.read::<u8>(bit / 8) {
            Some(b) => b,
            None => self.data_looked_up().get(bit / 8).copied().unwrap_or(0),
        };
        b & (1 << (bit % 8)) != 0
    }

    /// Pointer `index` of the pointer section.
    ///
    /// # Panics
    /// If `index` is not below the struct's pointer count.
    #[inline(always)]
    pub fn pointer(&mut self, index: usize) -> PointerBuilder<'_, A> {
        let pos = self.pointer_pos(index);
        PointerBuilder {
            // The slot's handle may call the arena: the data section is
            // forgotten.
            arena: self.arena.arena(),
            segment: self.segment,
            pos,
        }
    }

    /// The word offset of pointer `index`.
    ///
    /// # Panics
    /// If `index` is not below the struct's pointer count.
    #[inline(always)]
    #[track_caller]
    fn pointer_pos(&self, index: usize) -> u32 {
        assert!(
            index < usize::from(self.size.pointers),
            "pointer {index} is past the pointer section of {} pointers",
            self.size.pointers
        );
        self.data + u32::from(self.size.data_words) + index as u32
    }

    /// Turns this handle into a handle on pointer `index`, keeping its
    /// lifetime.
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    #[inline]
    pub fn into_pointer(self, index: usize) -> PointerBuilder<'a, A> {
        let pos = self.pointer_pos(index);
        PointerBuilder {
            arena: self.arena.into_arena(),
            segment: self.segment,
            pos,
        }
    }

    /// Sets pointer `index` to null, as `pointer(index).clear()` does,
    /// with the data section kept after it: the one lookup through the
    /// arena that writes the pointer keeps the data section too, so the
    /// field writes that follow (a group's, set to their defaults) need no
    /// lookup of their own.
    ///
    /// # Panics
    /// As [`pointer`](Self::pointer).
    #[inline]
    pub fn clear_pointer(&mut self, index: usize) {
        assert!(
            index < usize::from(self.size.pointers),
            "pointer {index} is past the pointer section of {} pointers",
            self.size.pointers
        );
        let start = self.data as usize * 8;
        let len = usize::from(self.size.data_words) * 8;
        let (segment, word) = (self.segment, start + len + index * 8);
        self.arena
            .look_up_with(|arena| zero_word_and_look_up(arena, segment, word, start, len));
    }

    /// Whether pointer `index` is non-null.
    pub fn has_pointer(&self, index: usize) -> bool {
        if index >= usize::from(self.size.pointers) {
            return false;
        }
        let at = usize::from(self.size.data_words) + index;
        // Calling the arena: nothing stays kept past it.
        read_word(self.arena.arena_ref(), self.segment, at as u32 + self.data) != 0
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

    /// Sets pointer `index` to a copy of `text`. The struct's data section
    /// stays kept: the next field set needs no lookup (as through
    /// [`pointer`](Self::pointer) it would).
    ///
    /// # Errors
    /// As [`PointerBuilder::set_text`].
    #[inline]
    pub fn set_text(&mut self, index: usize, text: &str) -> Result<()> {
        self.set_keeping(index, Text(text))
    }

    /// Sets pointer `index` to a copy of `bytes` as `Data`, keeping the data
    /// section as [`set_text`](Self::set_text) does.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_data`].
    #[inline]
    pub fn set_data(&mut self, index: usize, bytes: &[u8]) -> Result<()> {
        self.set_keeping(index, Data(bytes))
    }

    /// Sets pointer `index` to a list of texts holding `items`, keeping the
    /// data section as [`set_text`](Self::set_text) does.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_text_list`].
    #[inline]
    pub fn set_text_list<'s, I>(&mut self, index: usize, items: I) -> Result<()>
    where
        I: IntoIterator<Item = &'s str>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        self.set_keeping(index, Blobs::<_, 1>(items.into_iter().map(str::as_bytes)))
    }

    /// Sets pointer `index` to a list of `Data` holding `items`, keeping the
    /// data section as [`set_text`](Self::set_text) does.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_data_list`].
    #[inline]
    pub fn set_data_list<'s, I>(&mut self, index: usize, items: I) -> Result<()>
    where
        I: IntoIterator<Item = &'s [u8]>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        self.set_keeping(index, Blobs::<_, 0>(items.into_iter()))
    }

    /// Sets pointer `index` to `value` and keeps this struct's data section
    /// from the words the allocation returns: `value` is written with
    /// nothing returned that borrows the arena, so that no other call into
    /// it can come before this builder's next use.
    #[inline(always)]
    fn set_keeping(&mut self, index: usize, value: impl PointerValue) -> Result<()> {
        let pos = self.pointer_pos(index);
        self.arena.call_and_keep(SetPointer {
            segment: self.segment,
            pos,
            keep: Keep::Parent {
                data: self.data,
                words: self.size.data_words,
            },
            value,
        })
    }
}

/// A value a pointer is set to, with what the allocation keeps (see
/// [`StructBuilder::set_keeping`]).
trait PointerValue {
    /// Points `p` at a new copy of the value; returns what `keep` asks for
    /// kept.
    fn set<A: Arena + ?Sized>(self, p: PointerBuilder<'_, A>, keep: Keep) -> Result<Cached>;
}

/// A text.
struct Text<'v>(&'v str);

impl PointerValue for Text<'_> {
    #[inline(always)]
    fn set<A: Arena + ?Sized>(self, p: PointerBuilder<'_, A>, keep: Keep) -> Result<Cached> {
        p.set_text_keeping(self.0, keep)
    }
}

/// A `Data` blob.
struct Data<'v>(&'v [u8]);

impl PointerValue for Data<'_> {
    #[inline(always)]
    fn set<A: Arena + ?Sized>(self, p: PointerBuilder<'_, A>, keep: Keep) -> Result<Cached> {
        p.set_data_keeping(self.0, keep)
    }
}

/// A list of texts (`TERMINATOR` 1) or `Data` (0).
struct Blobs<I, const TERMINATOR: u64>(I);

impl<'s, I, const TERMINATOR: u64> PointerValue for Blobs<I, TERMINATOR>
where
    I: ExactSizeIterator<Item = &'s [u8]> + Clone,
{
    #[inline(always)]
    fn set<A: Arena + ?Sized>(self, p: PointerBuilder<'_, A>, keep: Keep) -> Result<Cached> {
        p.set_blob_list::<TERMINATOR>(self.0, keep)
    }
}

/// Pointer `pos` of the struct at segment `segment` set to `value`, for
/// [`KeptArena::call_and_keep`].
struct SetPointer<V> {
    segment: u32,
    pos: u32,
    keep: Keep,
    value: V,
}

impl<A: Arena + ?Sized, V: PointerValue> ArenaCall<A> for SetPointer<V> {
    #[inline(always)]
    fn call(self, arena: &mut A) -> Result<Cached> {
        self.value.set(
            PointerBuilder::new(arena, self.segment, self.pos),
            self.keep,
        )
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// The arena, segment and data-section word offset.
    #[inline(always)]
    pub(crate) fn location(&mut self) -> (&mut A, u32, u32) {
        (self.arena.arena(), self.segment, self.data)
    }
}

/// The `len` bytes at byte `start` of segment `segment` as builders see it,
/// or none; out of line (see [`KeptArena::look_up_with`]).
#[inline(never)]
fn data_section<A: Arena + ?Sized>(arena: &A, segment: u32, start: usize, len: usize) -> &[u8] {
    let bytes = Word::slice_as_bytes(BuilderSegments::get(arena, segment));
    bytes.get(start..start + len).unwrap_or(&[])
}

/// Panics unless unit `index` of `unit_bits`-bit fields lies inside the
/// data section of a struct of `size` (no arithmetic on `index` that could
/// overflow).
#[inline(always)]
#[track_caller]
fn check_field(size: StructSize, index: usize, unit_bits: usize) {
    let fits = usize::from(size.data_words) * 64 / unit_bits;
    if index >= fits {
        field_past_data(index, unit_bits, size.data_words);
    }
}

/// [`StructBuilder::set`] through the arena, for a builder that keeps
/// nothing: writes `value` at unit `index` of the data section of the
/// struct of `size` at word `data` of segment `segment`, and returns the
/// data section to keep. Out of line, taking the arena and the numbers
/// (see [`KeptArena::look_up_with`]).
#[inline(never)]
#[track_caller]
fn set_cold<A: Arena + ?Sized, T: Primitive>(
    arena: &mut A,
    segment: u32,
    data: u32,
    size: StructSize,
    index: usize,
    value: T,
) -> Cached {
    check_field(size, index, T::BYTES * 8);
    let len = usize::from(size.data_words) * 8;
    look_up(arena, segment, None, data as usize * 8, len, |d| {
        store(d, index * T::BYTES, value);
    })
}

/// [`StructBuilder::set_bool`] through the arena, as [`set_cold`].
#[inline(never)]
#[track_caller]
fn set_bool_cold<A: Arena + ?Sized>(
    arena: &mut A,
    segment: u32,
    data: u32,
    size: StructSize,
    bit: usize,
    value: bool,
) -> Cached {
    check_field(size, bit, 1);
    let len = usize::from(size.data_words) * 8;
    look_up(arena, segment, None, data as usize * 8, len, |d| {
        if let Some(b) = d.get_mut(bit / 8) {
            let mask = 1u8 << (bit % 8);
            *b = if value { *b | mask } else { *b & !mask };
        }
    })
}
