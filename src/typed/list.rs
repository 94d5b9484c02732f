//! Typed lists: a reader and a builder for every element type a schema can
//! name, each a thin wrapper over [`ListReader`] / [`ListBuilder`] that
//! fixes the element type, and a marker type implementing [`Owned`] so the
//! list can sit in a field, another list or a root.
//!
//! `get(i)` panics when `i >= len()`, as slice indexing does; `try_get(i)`
//! returns `None` instead. Iterators never panic.

use core::marker::PhantomData;

use super::{Enum, NotInSchema, Owned, StructOwned, TextVisitor};
use crate::arena::Arena;
use crate::error::Result;
use crate::layout::{
    ElementSize, ListBuilder, ListReader, PointerBuilder, PointerReader, Primitive, StructElements,
};

/// A typed list reader: its length and element `i`.
pub trait ListRead: Copy {
    /// What an element reads as.
    type Item;
    /// Number of elements.
    fn len(&self) -> u32;
    /// Element `i`, which is less than `len()`.
    fn item(&self, i: u32) -> Self::Item;
}

/// A typed list's marker ([`PrimitiveList`], [`StructList`], ...): how
/// its reader and builder wrap and unwrap the untyped list. What code
/// generic over the list type needs, such as a checked conversion from a
/// dynamic list.
pub trait ListOwned: Owned {
    /// Wraps an untyped list (the caller vouches for its element type).
    fn wrap_list_reader(list: ListReader<'_>) -> Self::Reader<'_>;
    /// Wraps an untyped list builder (the caller vouches for its type).
    fn wrap_list_builder<A: Arena + ?Sized>(list: ListBuilder<'_, A>) -> Self::Builder<'_, A>;
    /// The untyped list under a typed reader.
    fn list_reader<'a>(r: &Self::Reader<'a>) -> ListReader<'a>;
    /// The untyped list under a typed builder.
    fn into_list_builder<'a, A: Arena + ?Sized>(b: Self::Builder<'a, A>) -> ListBuilder<'a, A>;
}

/// An iterator over a typed list's elements.
#[derive(Clone, Copy)]
pub struct ListIter<L> {
    list: L,
    front: u32,
    back: u32,
}

impl<L: ListRead> Iterator for ListIter<L> {
    type Item = L::Item;
    #[inline]
    fn next(&mut self) -> Option<L::Item> {
        if self.front < self.back {
            let i = self.front;
            self.front += 1;
            Some(self.list.item(i))
        } else {
            None
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.back - self.front) as usize;
        (n, Some(n))
    }
}

impl<L: ListRead> DoubleEndedIterator for ListIter<L> {
    #[inline]
    fn next_back(&mut self) -> Option<L::Item> {
        if self.front < self.back {
            self.back -= 1;
            Some(self.list.item(self.back))
        } else {
            None
        }
    }
}

impl<L: ListRead> ExactSizeIterator for ListIter<L> {}

/// The element size a primitive type is stored with.
const fn primitive_size<T: Primitive>() -> ElementSize {
    match T::BYTES {
        1 => ElementSize::Byte,
        2 => ElementSize::TwoBytes,
        4 => ElementSize::FourBytes,
        _ => ElementSize::EightBytes,
    }
}

/// Feeds a primitive list element to `v` as the text format prints its
/// type: floats as floats, signed integers sign-extended, the rest as
/// unsigned. `Primitive` does not say whether a type is signed or a
/// float, so the type is told apart by its `TypeId` (a constant per
/// monomorphized copy; the comparisons fold away).
fn write_primitive<'a, T: Primitive + 'static>(e: T, v: &mut dyn TextVisitor<'a>) {
    use core::any::TypeId;
    let t = TypeId::of::<T>();
    let bits = e.to_bits();
    if t == TypeId::of::<f32>() {
        v.float32(f32::from_bits(bits as u32));
    } else if t == TypeId::of::<f64>() {
        v.float64(f64::from_bits(bits));
    } else if [
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
    ]
    .contains(&t)
    {
        let shift = 64 - 8 * T::BYTES as u32;
        v.int(((bits << shift) as i64) >> shift);
    } else {
        v.uint(bits);
    }
}

/// Defines a typed list: reader, builder and marker, with the shared
/// methods; the element accessors are written per type below.
macro_rules! typed_list {
    (
        $(#[$doc:meta])*
        $marker:ident, $reader:ident, $builder:ident,
        [$($gen:ident $(: $bound:path)?),*],
        size = $size:expr,
        item<$l:lifetime> = $item:ty,
        |$r:ident, $i:ident| $get:expr,
        init = |$p:ident, $len:ident| $init:expr,
        text = |$e:pat_param, $v:ident| $text:expr,
        open = |$op:ident| $open:expr
    ) => {
        typed_list!(
            @core $(#[$doc])* $marker, $reader, $builder, [$($gen $(: $bound)?),*],
            size = $size, item<$l> = $item, |$r, $i| $get, init = |$p, $len| $init,
            text = |$e, $v| $text,
            open = |$op| $open
        );

        impl<'a, $($gen $(: $bound)?),*> $reader<'a, $($gen),*> {
            /// The elements in order.
            #[inline]
            pub fn iter(&self) -> ListIter<Self> {
                ListIter { list: *self, front: 0, back: self.len() }
            }
        }

        impl<'a, $($gen $(: $bound)?),*> IntoIterator for $reader<'a, $($gen),*> {
            type Item = $item;
            type IntoIter = ListIter<Self>;
            fn into_iter(self) -> ListIter<Self> {
                self.iter()
            }
        }
    };
    (
        @core
        $(#[$doc:meta])*
        $marker:ident, $reader:ident, $builder:ident,
        [$($gen:ident $(: $bound:path)?),*],
        size = $size:expr,
        item<$l:lifetime> = $item:ty,
        |$r:ident, $i:ident| $get:expr,
        init = |$p:ident, $len:ident| $init:expr,
        text = |$e:pat_param, $v:ident| $text:expr,
        open = |$op:ident| $open:expr
    ) => {
        $(#[$doc])*
        pub struct $marker<$($gen),*>(PhantomData<fn() -> ($($gen,)*)>);

        #[doc = concat!("Reads a [`", stringify!($marker), "`].")]
        pub struct $reader<'a, $($gen),*> {
            list: ListReader<'a>,
            marker: PhantomData<fn() -> ($($gen,)*)>,
        }

        impl<'a, $($gen),*> Clone for $reader<'a, $($gen),*> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<'a, $($gen),*> Copy for $reader<'a, $($gen),*> {}

        impl<'a, $($gen $(: $bound)?),*> $reader<'a, $($gen),*> {
            /// Wraps an untyped list (the caller vouches for its type).
            #[inline]
            pub fn new(list: ListReader<'a>) -> Self {
                $reader { list, marker: PhantomData }
            }
            /// The untyped list.
            #[inline]
            pub fn as_list_reader(&self) -> ListReader<'a> {
                self.list
            }
            /// Number of elements.
            #[inline]
            pub fn len(&self) -> u32 {
                self.list.len()
            }
            /// Whether the list has no elements.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.list.is_empty()
            }
            /// Element `index`.
            ///
            /// # Panics
            /// If `index >= self.len()`.
            #[inline]
            pub fn get(&self, index: u32) -> $item {
                let $r = &self.list;
                let $i = index;
                $get
            }
            /// Element `index`, or `None` past the end.
            #[inline]
            pub fn try_get(&self, index: u32) -> Option<$item> {
                (index < self.len()).then(|| self.get(index))
            }
        }

        impl<'a, $($gen $(: $bound)?),*> ListRead for $reader<'a, $($gen),*> {
            type Item = $item;
            #[inline]
            fn len(&self) -> u32 {
                self.list.len()
            }
            #[inline]
            fn item(&self, i: u32) -> $item {
                self.get(i)
            }
        }

        #[doc = concat!("Builds a [`", stringify!($marker), "`].")]
        pub struct $builder<'a, A: Arena + ?Sized, $($gen),*> {
            list: ListBuilder<'a, A>,
            marker: PhantomData<fn() -> ($($gen,)*)>,
        }

        impl<'a, A: Arena + ?Sized, $($gen $(: $bound)?),*> $builder<'a, A, $($gen),*> {
            /// Wraps an untyped list (the caller vouches for its type).
            #[inline]
            pub fn new(list: ListBuilder<'a, A>) -> Self {
                $builder { list, marker: PhantomData }
            }
            /// A shorter-lived handle to the same list.
            #[inline]
            pub fn reborrow(&mut self) -> $builder<'_, A, $($gen),*> {
                $builder { list: self.list.reborrow(), marker: PhantomData }
            }
            /// The untyped list.
            #[inline]
            pub fn into_list_builder(self) -> ListBuilder<'a, A> {
                self.list
            }
            /// Number of elements.
            #[inline]
            pub fn len(&self) -> u32 {
                self.list.len()
            }
            /// Whether the list has no elements.
            #[inline]
            pub fn is_empty(&self) -> bool {
                self.list.is_empty()
            }
            /// A read view of the list as built so far, for as long as
            /// this builder is borrowed: `list.reborrow_as_reader().get()`
            /// (see [`ReaderView`](super::ReaderView)).
            pub fn reborrow_as_reader(&self) -> super::ReaderView<'_, $marker<$($gen),*>>
            where
                $($gen: 'static,)*
            {
                super::ReaderView::new(self.list.reader_view())
            }
            /// A read view of the list as built, for the rest of the
            /// builder's lifetime (the builder is given up).
            pub fn into_reader(self) -> super::ReaderView<'a, $marker<$($gen),*>>
            where
                $($gen: 'static,)*
            {
                super::ReaderView::new(self.list.into_reader_view())
            }
            /// Runs `f` on a reader of the list as built so far.
            pub fn with_reader<R>(&self, f: impl for<'r> FnOnce($reader<'r, $($gen),*>) -> R) -> R
            where
                $($gen: 'static,)*
            {
                f(<$marker<$($gen),*> as super::FromView>::from_view(&self.list.reader_view()))
            }
        }

        /// Prints the list in the reference's text format, as a
        /// generated struct reader's `Debug` does.
        impl<'a, $($gen $(: $bound)? + 'static),*> core::fmt::Debug for $reader<'a, $($gen),*> {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                crate::text::visitor::fmt_text(f, |v| <$marker<$($gen),*> as Owned>::write_text(*self, v))
            }
        }

        impl<$($gen $(: $bound)? + 'static),*> super::FromView for $marker<$($gen),*> {
            #[inline]
            fn from_view<'r>(view: &'r crate::layout::BuiltView<'_>) -> $reader<'r, $($gen),*> {
                $reader::new(view.list_reader())
            }
        }

        impl<$($gen $(: $bound)? + 'static),*> ListOwned for $marker<$($gen),*> {
            #[inline]
            fn wrap_list_reader(list: ListReader<'_>) -> Self::Reader<'_> {
                $reader::new(list)
            }
            #[inline]
            fn wrap_list_builder<A: Arena + ?Sized>(list: ListBuilder<'_, A>) -> Self::Builder<'_, A> {
                $builder::new(list)
            }
            #[inline]
            fn list_reader<'a>(r: &Self::Reader<'a>) -> ListReader<'a> {
                r.list
            }
            #[inline]
            fn into_list_builder<'a, A: Arena + ?Sized>(b: Self::Builder<'a, A>) -> ListBuilder<'a, A> {
                b.list
            }
        }

        impl<$($gen $(: $bound)? + 'static),*> Owned for $marker<$($gen),*> {
            type Reader<$l> = $reader<$l, $($gen),*>;
            type Builder<$l, A: Arena + ?Sized + $l> = $builder<$l, A, $($gen),*>;

            // Always inlined, as the untyped calls under them are (see
            // the struct impl of `Owned`).
            #[inline(always)]
            fn read(p: PointerReader<'_>) -> Result<Self::Reader<'_>> {
                Ok($reader::new(p.get_list($size)?))
            }
            #[inline(always)]
            fn init<A: Arena + ?Sized>(p: PointerBuilder<'_, A>, len: u32) -> Result<Self::Builder<'_, A>> {
                let $p = p;
                let $len = len;
                Ok($builder::new($init?))
            }
            #[inline]
            fn get<A: Arena + ?Sized>(p: PointerBuilder<'_, A>) -> Result<Self::Builder<'_, A>> {
                if p.is_null() {
                    return Self::init(p, 0);
                }
                let $op = p;
                Ok($builder::new($open?))
            }
            #[inline]
            fn set<A: Arena + ?Sized>(mut p: PointerBuilder<'_, A>, value: Self::Reader<'_>) -> Result<()> {
                p.set_list(&value.list)
            }
            fn write_text<'a>(value: Self::Reader<'a>, $v: &mut dyn TextVisitor<'a>) {
                $v.begin_list();
                for $e in value.iter() {
                    $text;
                }
                $v.end_list();
            }
        }
    };
}

typed_list!(
    /// `List(Void)`: only a length.
    VoidList, VoidListReader, VoidListBuilder, [],
    size = ElementSize::Void,
    item<'b> = (),
    |_r, _i| (),
    init = |p, len| p.init_list(ElementSize::Void, len),
    text = |_, v| v.void(),
    open = |p| p.get_list(ElementSize::Void)
);

typed_list!(
    /// A list of a primitive type (`List(UInt32)`, `List(Float64)`, ...).
    PrimitiveList, PrimitiveListReader, PrimitiveListBuilder, [T: Primitive],
    size = primitive_size::<T>(),
    item<'b> = T,
    |r, i| r.get::<T>(i),
    init = |p, len| p.init_list(primitive_size::<T>(), len),
    text = |e, v| write_primitive(e, v),
    open = |p| p.get_list(primitive_size::<T>())
);

typed_list!(
    /// `List(Bool)`: one bit per element.
    BoolList, BoolListReader, BoolListBuilder, [],
    size = ElementSize::Bit,
    item<'b> = bool,
    |r, i| r.get_bool(i),
    init = |p, len| p.init_list(ElementSize::Bit, len),
    text = |e, v| v.bool(e),
    open = |p| p.get_list(ElementSize::Bit)
);

typed_list!(
    /// A list of a schema enum; an element the schema does not list reads
    /// as `Err(NotInSchema(value))`.
    EnumList, EnumListReader, EnumListBuilder, [E: Enum],
    size = ElementSize::TwoBytes,
    item<'b> = core::result::Result<E, NotInSchema>,
    |r, i| E::try_from(r.get::<u16>(i)),
    init = |p, len| p.init_list(ElementSize::TwoBytes, len),
    text = |e, v| v.enumerant(match e { Ok(e) => e.into(), Err(e) => e.0 }, E::NAMES),
    open = |p| p.get_list(ElementSize::TwoBytes)
);

typed_list!(
    /// `List(Text)`.
    TextList, TextListReader, TextListBuilder, [],
    size = ElementSize::Pointer,
    item<'a> = Result<&'a str>,
    |r, i| r.get_text(i),
    init = |p, len| p.init_list(ElementSize::Pointer, len),
    text = |e, v| match e { Ok(t) => v.text(t.as_bytes()), Err(e) => v.error(e) },
    open = |p| p.get_list(ElementSize::Pointer)
);

typed_list!(
    /// `List(Data)`.
    DataList, DataListReader, DataListBuilder, [],
    size = ElementSize::Pointer,
    item<'a> = Result<&'a [u8]>,
    |r, i| r.get_data(i),
    init = |p, len| p.init_list(ElementSize::Pointer, len),
    text = |e, v| match e { Ok(b) => v.data(b), Err(e) => v.error(e) },
    open = |p| p.get_list(ElementSize::Pointer)
);

typed_list!(
    /// `List(AnyPointer)`.
    AnyPointerList, AnyPointerListReader, AnyPointerListBuilder, [],
    size = ElementSize::Pointer,
    item<'a> = PointerReader<'a>,
    |r, i| r.get_pointer(i),
    init = |p, len| p.init_list(ElementSize::Pointer, len),
    text = |_, v| v.any_pointer(),
    open = |p| p.get_list(ElementSize::Pointer)
);

typed_list!(
    @core
    /// A list of a generated struct type `S` (its `Owned` marker).
    StructList, StructListReader, StructListBuilder, [S: StructOwned],
    size = ElementSize::InlineComposite,
    item<'a> = S::Reader<'a>,
    |r, i| S::wrap_reader(r.get_struct(i)),
    init = |p, len| p.init_struct_list(len, S::STRUCT_SIZE),
    text = |e, v| S::write_text(&e, v),
    open = |p| p.get_struct_list(S::STRUCT_SIZE)
);

impl<'a, S: StructOwned> StructListReader<'a, S> {
    /// The elements in order. An element costs no bounds check of its own
    /// (see [`StructElements`]).
    #[inline]
    pub fn iter(&self) -> StructListIter<'a, S> {
        StructListIter {
            elems: self.list.struct_elements(),
            marker: PhantomData,
        }
    }
}

impl<'a, S: StructOwned> IntoIterator for StructListReader<'a, S> {
    type Item = S::Reader<'a>;
    type IntoIter = StructListIter<'a, S>;
    #[inline]
    fn into_iter(self) -> StructListIter<'a, S> {
        self.iter()
    }
}

/// An iterator over a [`StructListReader`]'s elements.
pub struct StructListIter<'a, S> {
    elems: StructElements<'a>,
    marker: PhantomData<fn() -> S>,
}

impl<S> Clone for StructListIter<'_, S> {
    fn clone(&self) -> Self {
        StructListIter {
            elems: self.elems.clone(),
            marker: PhantomData,
        }
    }
}

impl<'a, S: StructOwned> Iterator for StructListIter<'a, S> {
    type Item = S::Reader<'a>;
    #[inline]
    fn next(&mut self) -> Option<S::Reader<'a>> {
        self.elems.next().map(S::wrap_reader)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.elems.size_hint()
    }
}

impl<S: StructOwned> DoubleEndedIterator for StructListIter<'_, S> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.elems.next_back().map(S::wrap_reader)
    }
}

impl<S: StructOwned> ExactSizeIterator for StructListIter<'_, S> {}

typed_list!(
    /// A list of lists (or of any pointer type `L` naming an [`Owned`]).
    ListList, ListListReader, ListListBuilder, [L: Owned],
    size = ElementSize::Pointer,
    item<'a> = Result<L::Reader<'a>>,
    |r, i| L::read(r.get_pointer(i)),
    init = |p, len| p.init_list(ElementSize::Pointer, len),
    text = |e, v| match e { Ok(l) => L::write_text(l, v), Err(e) => v.error(e) },
    open = |p| p.get_list(ElementSize::Pointer)
);

impl<A: Arena + ?Sized, T: Primitive> PrimitiveListBuilder<'_, A, T> {
    /// Sets element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, value: T) {
        self.list.set::<T>(index, value);
    }
    /// Element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&self, index: u32) -> T {
        self.list.get::<T>(index)
    }
}

impl<A: Arena + ?Sized> BoolListBuilder<'_, A> {
    /// Sets element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, value: bool) {
        self.list.set_bool(index, value);
    }
    /// Element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&self, index: u32) -> bool {
        self.list.get_bool(index)
    }
}

impl<A: Arena + ?Sized, E: Enum> EnumListBuilder<'_, A, E> {
    /// Sets element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, value: E) {
        self.list.set::<u16>(index, value.into());
    }
    /// Element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&self, index: u32) -> core::result::Result<E, NotInSchema> {
        E::try_from(self.list.get::<u16>(index))
    }
}

impl<'a> TextListReader<'a> {
    /// The bytes of element `index` as stored (terminator excluded),
    /// without the UTF-8 check [`get`](Self::get) makes.
    ///
    /// # Errors
    /// The element is not a text, or is out of bounds or over a limit.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get_bytes(&self, index: u32) -> Result<&'a [u8]> {
        self.list.get_pointer(index).get_text_bytes()
    }
}

impl<A: Arena + ?Sized> TextListBuilder<'_, A> {
    /// Sets element `index` to a copy of `text`.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, text: &str) -> Result<()> {
        self.list.set_text(index, text)
    }
    /// Sets element `index` to a new text of `len` bytes, to fill in.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn init(&mut self, index: u32, len: u32) -> Result<super::TextBuilder<'_>> {
        Ok(super::TextBuilder::new(
            self.list.pointer(index).init_text(len)?,
            0,
        ))
    }
    /// Element `index` as it stands (an empty text, written into the
    /// slot, when it is null).
    ///
    /// # Errors
    /// The element is not a text (or has no terminator), is not UTF-8
    /// ([`Error::Utf8`](crate::Error::Utf8)), or the arena has no room for
    /// the empty text.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get(&mut self, index: u32) -> Result<&str> {
        let bytes = self.list.pointer(index).get_text_bytes_mut()?;
        crate::utf8::text_str(bytes)
    }
    /// The bytes of element `index` (terminator excluded), to read or
    /// overwrite in place, without the UTF-8 check [`get`](Self::get)
    /// makes; an empty text, written into the slot, when it is null.
    ///
    /// # Errors
    /// The element is not a text (or has no terminator), or the arena has
    /// no room for the empty text.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get_bytes_mut(&mut self, index: u32) -> Result<&mut [u8]> {
        self.list.pointer(index).get_text_bytes_mut()
    }
}

impl<A: Arena + ?Sized> DataListBuilder<'_, A> {
    /// Sets element `index` to a copy of `bytes`.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, bytes: &[u8]) -> Result<()> {
        self.list.set_data(index, bytes)
    }
    /// Sets element `index` to new zeroed data of `len` bytes, to fill in.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn init(&mut self, index: u32, len: u32) -> Result<&mut [u8]> {
        self.list.pointer(index).init_data(len)
    }
    /// Element `index`'s bytes, to read or overwrite in place (empty data,
    /// written into the slot, when it is null).
    ///
    /// # Errors
    /// The element is not data, or the arena has no room for the empty
    /// data.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    pub fn get(&mut self, index: u32) -> Result<&mut [u8]> {
        self.list.pointer(index).get_data_mut()
    }
}

impl<A: Arena + ?Sized> AnyPointerListBuilder<'_, A> {
    /// The pointer slot of element `index`.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&mut self, index: u32) -> PointerBuilder<'_, A> {
        self.list.pointer(index)
    }
}

impl<A: Arena + ?Sized, S: StructOwned> StructListBuilder<'_, A, S> {
    /// Element `index`, to fill in.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&mut self, index: u32) -> S::Builder<'_, A> {
        S::wrap_builder(self.list.get_struct(index))
    }
    /// Sets element `index` to a copy of `value` (fields the element has no
    /// room for are dropped, as the encoding's upgrade rules allow).
    ///
    /// # Errors
    /// The source is malformed, or the arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, value: S::Reader<'_>) -> Result<()> {
        self.list
            .get_struct(index)
            .copy_from(&S::struct_reader(&value))
    }
}

impl<A: Arena + ?Sized, L: Owned> ListListBuilder<'_, A, L> {
    /// Points element `index` at a new value of `len` elements.
    ///
    /// # Errors
    /// The arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn init(&mut self, index: u32, len: u32) -> Result<L::Builder<'_, A>> {
        L::init(self.list.pointer(index), len)
    }
    /// Element `index`, as a builder (a new empty value when null).
    ///
    /// # Errors
    /// The element holds something else, or the arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn get(&mut self, index: u32) -> Result<L::Builder<'_, A>> {
        L::get(self.list.pointer(index))
    }
    /// Sets element `index` to a deep copy of `value`.
    ///
    /// # Errors
    /// The source is malformed, or the arena has no room.
    ///
    /// # Panics
    /// If `index >= self.len()`.
    #[inline]
    pub fn set(&mut self, index: u32, value: L::Reader<'_>) -> Result<()> {
        L::set(self.list.pointer(index), value)
    }
}

impl<'a, T: Primitive> PrimitiveListReader<'a, T> {
    /// The elements as a slice, with no copy, where the layout allows it
    /// (a list of exactly `T`s on a little-endian target); `None` otherwise.
    #[inline]
    pub fn as_slice(&self) -> Option<&'a [T]> {
        self.list.as_slice::<T>()
    }

    /// Copies the first `out.len()` elements (at most `len()`) into `out`;
    /// returns how many. One memcpy where [`as_slice`](Self::as_slice)
    /// works.
    #[inline]
    pub fn copy_to_slice(&self, out: &mut [T]) -> usize {
        self.list.copy_to_slice(out)
    }

    /// The elements in a `Vec`.
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> alloc::vec::Vec<T> {
        match self.as_slice() {
            Some(s) => s.to_vec(),
            None => self.iter().collect(),
        }
    }
}

impl<A: Arena + ?Sized, T: Primitive> PrimitiveListBuilder<'_, A, T> {
    /// The elements as a mutable slice, where the layout allows it.
    #[inline]
    pub fn as_slice_mut(&mut self) -> Option<&mut [T]> {
        self.list.as_slice_mut::<T>()
    }

    /// Sets every element from `values`.
    ///
    /// # Panics
    /// If `values.len() != self.len()`.
    #[inline]
    pub fn copy_from_slice(&mut self, values: &[T]) {
        self.list.copy_from_slice(values);
    }

    /// Sets elements 0, 1, ... from `values` (at most `len()` of them);
    /// returns how many were set.
    pub fn set_from_iter(&mut self, values: impl IntoIterator<Item = T>) -> u32 {
        let mut n = 0;
        for v in values.into_iter().take(self.len() as usize) {
            self.list.set::<T>(n, v);
            n += 1;
        }
        n
    }
}

impl BoolListReader<'_> {
    /// Copies the first `out.len()` elements (at most `len()`) into `out`,
    /// 64 at a time; returns how many.
    #[inline]
    pub fn copy_to_slice(&self, out: &mut [bool]) -> usize {
        self.list.copy_bools_to_slice(out)
    }

    /// The elements in a `Vec`.
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> alloc::vec::Vec<bool> {
        let mut v = alloc::vec![false; self.len() as usize];
        self.copy_to_slice(&mut v);
        v
    }
}

impl<A: Arena + ?Sized> BoolListBuilder<'_, A> {
    /// Sets every element from `values`, 8 at a time.
    ///
    /// # Panics
    /// If `values.len() != self.len()`.
    #[inline]
    pub fn copy_from_slice(&mut self, values: &[bool]) {
        self.list.copy_bools_from_slice(values);
    }
}

impl<T: Primitive + 'static> PrimitiveList<T> {
    /// Points `p` at a new list holding `values`.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_slice<A: Arena + ?Sized>(p: PointerBuilder<'_, A>, values: &[T]) -> Result<()> {
        p.set_primitive_list(values)
    }
}

impl BoolList {
    /// Points `p` at a new bit list holding `values`.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_slice<A: Arena + ?Sized>(p: PointerBuilder<'_, A>, values: &[bool]) -> Result<()> {
        p.set_bool_list(values)
    }
}

impl TextList {
    /// Points `p` at a new list of the texts `items`, in one allocation.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_iter<'s, A, I>(p: PointerBuilder<'_, A>, items: I) -> Result<()>
    where
        A: Arena + ?Sized,
        I: IntoIterator<Item = &'s str>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        p.set_text_list(items)
    }
}

impl DataList {
    /// Points `p` at a new list of the blobs `items`, in one allocation.
    ///
    /// # Errors
    /// Too long to encode, or the arena has no room.
    #[inline]
    pub fn set_iter<'s, A, I>(p: PointerBuilder<'_, A>, items: I) -> Result<()>
    where
        A: Arena + ?Sized,
        I: IntoIterator<Item = &'s [u8]>,
        I::IntoIter: ExactSizeIterator + Clone,
    {
        p.set_data_list(items)
    }
}
