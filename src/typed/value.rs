//! Plain Rust values of schema types: what the owned (`foo::Value`) and
//! borrowed (`foo::ValueRef<'a>`) structs that `capnarena-codegen` writes
//! with its `owned_values` option are made of, and how each kind of value
//! is read from a pointer and written into one.
//!
//! A pointer field of such a struct is an `Option`: `None` is a null
//! pointer (which the reader's getter would read as the schema default),
//! so a value read from a message and written back gives the same message.
//! Text is `String` (or `&'a str`), data `Vec<u8>` (or `&'a [u8]`), a list
//! a `Vec` of its elements (elements that are pointers are `Option`s too,
//! for the same reason), a struct its value (held inline, read and written
//! by the generated code's helpers) or a `Box` of
//! it (where the generator must break a cycle), and any pointer or
//! capability an [`AnyValue`].
//!
//! # Generic structs
//!
//! A generic struct's values take type parameters: `Box(T) { value :T }`
//! gives `box_::Value<T>` with `value: Option<T>`, and a field of type
//! `Box(Text)` is a `box_::Value<String>` (`box_::ValueRef<'a, &'a str>`
//! borrowed). A parameter's argument is the value of the type bound to it:
//! a struct's `Value` (with its own arguments), `String` for text,
//! `Vec<u8>` for data, a list's `Vec`, and [`AnyValue`] where nothing is
//! bound (`AnyPointer`, a generic named without arguments) or a
//! capability. A value takes only the parameters its fields use (those
//! of its own and of its scopes), so a nested struct or group that uses
//! none has a `Value` without parameters.
//!
//! The bound on a parameter is what each impl needs of it, no more: a
//! value is read where its parameters are [`ReadPointer`] (for the
//! message's lifetime `'a`, so `&'a str` may be an argument), written where
//! they are [`WritePointer`], and it is `Clone`, `Debug`, `PartialEq` (and,
//! with serde, `Serialize` / `Deserialize`) where they are; `Default`
//! needs nothing (pointers start null). Every value type here and every
//! generated value meets both traits, and so does a type of your own that
//! implements them. A value is not tied to the reader's or builder's
//! brand: `TryFrom<foo::Reader<'a, P>>` and `build(foo::Builder<'_, A,
//! P>)` take any `P`, because reading checks each pointer's kind at run
//! time (as reading an `AnyPointer` as a chosen type does), so a
//! `box_::Reader<'_, AnyPointer>` reads into a `box_::Value<String>`, and
//! a pointer of another kind is an error, never a wrong value.
//!
//! Reading goes through the message's reader, so its limits (traversal,
//! nesting) bound what a value can cost: besides the words each read
//! charges, every decoded list element and boxed struct is charged its
//! size in memory (in words, beyond what its read charged) against the
//! same traversal budget (a struct held inline lives in the memory of the
//! value holding it, charged there), so the heap a decode takes stays within eight
//! bytes per word of the traversal limit (text, data and any-pointer
//! copies are no larger than the words their reads charge) and a small
//! message of many empty structs fails with
//! [`Error::DecodeLimitExceeded`](crate::Error::DecodeLimitExceeded)
//! instead of growing into gigabytes. Writing allocates only in the
//! message's arena.

#[cfg(feature = "serde")]
pub mod serde_support;
// What generated values call, re-exported by `crate::__private`.
#[doc(hidden)]
pub(crate) mod codegen_calls;
use codegen_calls::{read_optional, write_optional};

/// The `alloc` types values are made of, named from here by generated
/// code so that a `no_std` crate (with `alloc`) can use it.
pub use alloc::{boxed::Box, string::String, vec::Vec};

use super::{BoolList, Owned, PrimitiveList, VoidList};
use crate::arena::{Arena, SingleSegmentArena};
use crate::error::Result;
use crate::layout::{
    ElementSize, ListReader, PointerBuilder, PointerReader, StructBuilder, StructReader, StructSize,
};
use crate::message::Message;
use crate::read::{MessageReader, ReaderOptions};
use crate::word::Word;

/// A value that a non-null pointer holds, read from a message borrowed
/// for `'a` (an owned value ignores `'a`).
pub trait ReadPointer<'a>: Sized {
    /// The value `p` points to (`p` is not null).
    ///
    /// # Errors
    /// `p` points to something else, or the read is out of bounds or over
    /// a limit.
    fn read_pointer(p: PointerReader<'a>) -> Result<Self>;
}

/// A value that can be written into a pointer slot.
pub trait WritePointer {
    /// Points `p` at a new copy of this value.
    ///
    /// # Errors
    /// The arena has no room, or a length cannot be encoded.
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()>;
}

/// A list element's value: how a whole list of them is read.
pub trait ReadElement<'a>: Sized {
    /// The elements of the list `p` points to (`p` is not null).
    ///
    /// # Errors
    /// As [`ReadPointer::read_pointer`].
    fn read_list(p: PointerReader<'a>) -> Result<Vec<Self>>;
}

/// A list element's value: how a whole list of them is written.
pub trait WriteElement: Sized {
    /// Points `p` at a new list of `items`.
    ///
    /// # Errors
    /// As [`WritePointer::write_pointer`].
    fn write_list<A: Arena + ?Sized>(items: &[Self], p: PointerBuilder<'_, A>) -> Result<()>;
}

/// A struct's (or group's) value read from the struct itself.
pub trait ReadStruct<'a>: Sized {
    /// The value of the struct `r`.
    ///
    /// # Errors
    /// A pointer under it is malformed or over a limit, an enum or union
    /// discriminant is not in the schema, or a text is not UTF-8.
    fn read_struct(r: StructReader<'a>) -> Result<Self>;
}

/// A struct's (or group's) value written into a struct.
pub trait WriteStruct {
    /// Writes every field into `b`, a struct fresh from its `init`
    /// (zeroed): a `None` pointer field is left as it is.
    ///
    /// # Errors
    /// The arena has no room, or a length cannot be encoded.
    fn write_struct<A: Arena + ?Sized>(&self, b: StructBuilder<'_, A>) -> Result<()>;
}

/// A struct type's value (not a group's): its size, for lists and boxes.
pub trait StructValue: WriteStruct {
    /// The struct's data words and pointers.
    const STRUCT_SIZE: StructSize;
}

impl ReadPointer<'_> for String {
    #[inline]
    fn read_pointer(p: PointerReader<'_>) -> Result<Self> {
        p.get_text().map(String::from)
    }
}

impl WritePointer for String {
    #[inline]
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()> {
        p.set_text(self)
    }
}

impl<'a> ReadPointer<'a> for &'a str {
    #[inline]
    fn read_pointer(p: PointerReader<'a>) -> Result<Self> {
        p.get_text()
    }
}

impl WritePointer for &str {
    #[inline]
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()> {
        p.set_text(self)
    }
}

impl<'a> ReadPointer<'a> for &'a [u8] {
    #[inline]
    fn read_pointer(p: PointerReader<'a>) -> Result<Self> {
        p.get_data()
    }
}

impl WritePointer for &[u8] {
    #[inline]
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()> {
        p.set_data(self)
    }
}

/// `Vec<u8>` is both `Data` and `List(UInt8)`: the two are encoded alike.
impl<'a, T: ReadElement<'a>> ReadPointer<'a> for Vec<T> {
    #[inline]
    fn read_pointer(p: PointerReader<'a>) -> Result<Self> {
        T::read_list(p)
    }
}

impl<T: WriteElement> WritePointer for Vec<T> {
    #[inline]
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()> {
        T::write_list(self, p)
    }
}

impl<'a, V: ReadStruct<'a>> ReadPointer<'a> for Box<V> {
    #[inline]
    fn read_pointer(p: PointerReader<'a>) -> Result<Self> {
        let r = p.get_struct()?;
        let charged = u64::from(r.size().total_words());
        r.context()
            .charge_decode(1, core::mem::size_of::<V>() as u64, charged)?;
        V::read_struct(r).map(Box::new)
    }
}

/// Charges the memory of a `Vec` of `list`'s elements as `T`s (see the
/// module's notes) before it is allocated.
#[inline]
fn charge_list<T>(list: &ListReader<'_>) -> Result<()> {
    list.context().charge_decode(
        u64::from(list.len()),
        core::mem::size_of::<T>() as u64,
        list.charged_words(),
    )
}

impl<V: StructValue> WritePointer for Box<V> {
    #[inline]
    fn write_pointer<A: Arena + ?Sized>(&self, p: PointerBuilder<'_, A>) -> Result<()> {
        V::write_struct(self, p.init_struct(V::STRUCT_SIZE)?)
    }
}

/// A length as a list's element count (elements of `bits` bits); the
/// list's `init` checks the count against what a pointer can encode.
fn count(len: usize, bits: u64) -> Result<u32> {
    u32::try_from(len).map_err(|_| crate::Error::TooLarge {
        count: len as u64,
        bits_per_element: bits,
        max_count: (1 << 29) - 1,
    })
}

macro_rules! primitive_elements {
    ($($t:ty),*) => {$(
        impl ReadElement<'_> for $t {
            #[inline]
            fn read_list(p: PointerReader<'_>) -> Result<Vec<Self>> {
                Ok(<PrimitiveList<$t> as Owned>::read(p)?.to_vec())
            }
        }
        impl WriteElement for $t {
            #[inline]
            fn write_list<A: Arena + ?Sized>(items: &[Self], p: PointerBuilder<'_, A>) -> Result<()> {
                PrimitiveList::<$t>::set_slice(p, items)
            }
        }
    )*};
}

primitive_elements!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

impl ReadElement<'_> for bool {
    fn read_list(p: PointerReader<'_>) -> Result<Vec<Self>> {
        let list = p.get_list(ElementSize::Bit)?;
        charge_list::<bool>(&list)?;
        let mut out = alloc::vec![false; list.len() as usize];
        list.copy_bools_to_slice(&mut out);
        Ok(out)
    }
}

impl WriteElement for bool {
    fn write_list<A: Arena + ?Sized>(items: &[Self], p: PointerBuilder<'_, A>) -> Result<()> {
        BoolList::set_slice(p, items)
    }
}

impl ReadElement<'_> for () {
    fn read_list(p: PointerReader<'_>) -> Result<Vec<Self>> {
        let len = <VoidList as Owned>::read(p)?.len();
        Ok(alloc::vec![(); len as usize])
    }
}

impl WriteElement for () {
    fn write_list<A: Arena + ?Sized>(items: &[Self], p: PointerBuilder<'_, A>) -> Result<()> {
        p.init_list(ElementSize::Void, count(items.len(), 0)?)?;
        Ok(())
    }
}

/// Elements that are pointers (text, data, lists, any pointers): a null
/// element is `None`.
impl<'a, T: ReadPointer<'a>> ReadElement<'a> for Option<T> {
    fn read_list(p: PointerReader<'a>) -> Result<Vec<Self>> {
        let list = p.get_list(ElementSize::Pointer)?;
        charge_list::<Self>(&list)?;
        let mut out = Vec::with_capacity(list.len() as usize);
        for i in 0..list.len() {
            out.push(read_optional(list.get_pointer(i))?);
        }
        Ok(out)
    }
}

impl<T: WritePointer> WriteElement for Option<T> {
    fn write_list<A: Arena + ?Sized>(items: &[Self], p: PointerBuilder<'_, A>) -> Result<()> {
        let mut list = p.init_list(ElementSize::Pointer, count(items.len(), 64)?)?;
        for (i, item) in items.iter().enumerate() {
            write_optional(item, list.pointer(i as u32))?;
        }
        Ok(())
    }
}

/// An any pointer's or capability's value, kept as a copy: the words of a
/// one-segment message whose root pointer (word 0) points to a deep copy
/// of what the pointer pointed to (a capability pointer keeps its index
/// into the message's capability table). Written back, it gives the same
/// object.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AnyValue {
    words: Vec<Word>,
}

impl AnyValue {
    /// A copy of what `p` points to.
    ///
    /// # Errors
    /// As [`ReadPointer::read_pointer`].
    pub fn from_pointer(p: &PointerReader<'_>) -> Result<Self> {
        let mut message = Message::new(SingleSegmentArena::new());
        message.root_pointer()?.set_from(p)?;
        let words = message
            .segments()
            .next()
            .map_or_else(Vec::new, |s| s.words().to_vec());
        Ok(AnyValue { words })
    }

    /// The copy's words: a root pointer, then what it points to.
    pub fn words(&self) -> &[Word] {
        &self.words
    }

    /// Runs `f` on a reader of the copy's root pointer.
    ///
    /// # Errors
    /// The words hold no root pointer (an `AnyValue::default()`).
    pub fn with_pointer<R>(&self, f: impl FnOnce(PointerReader<'_>) -> Result<R>) -> Result<R> {
        let segments = [self.words.as_slice()];
        let options = ReaderOptions::default();
        let reader = MessageReader::from_segments(&segments, options)?;
        f(reader.root_pointer()?)
    }
}

impl ReadPointer<'_> for AnyValue {
    fn read_pointer(p: PointerReader<'_>) -> Result<Self> {
        AnyValue::from_pointer(&p)
    }
}

impl WritePointer for AnyValue {
    fn write_pointer<A: Arena + ?Sized>(&self, mut p: PointerBuilder<'_, A>) -> Result<()> {
        self.with_pointer(|src| p.set_from(&src))
    }
}
