//! [`ReaderView`]: a typed read view of a struct or list under
//! construction, what capnproto-rust's `into_reader` and
//! `reborrow_as_reader` give.

use core::marker::PhantomData;

use super::{Owned, StructOwned};
use crate::layout::BuiltView;

/// A type whose reader can be taken from a [`BuiltView`]: generated
/// structs (their `Owned`) and the typed lists of this module.
pub trait FromView: Owned {
    /// The reader of the object `view` was made of.
    fn from_view<'r>(view: &'r BuiltView<'_>) -> Self::Reader<'r>;
}

impl<T: StructOwned> FromView for T {
    #[inline]
    fn from_view<'r>(view: &'r BuiltView<'_>) -> T::Reader<'r> {
        T::wrap_reader(view.struct_reader())
    }
}

/// A read view of a struct or list under construction: generated
/// builders' and typed list builders' `reborrow_as_reader()` (for as long
/// as the builder is borrowed) and `into_reader()` (for the rest of its
/// lifetime). [`get`](Self::get) gives the typed reader, which borrows the
/// view:
///
/// ```
/// # #[allow(dead_code)]
/// # #[rustfmt::skip]
/// # #[path = "../../examples/generated/addressbook_capnp.rs"]
/// # mod addressbook_capnp;
/// use addressbook_capnp::person;
/// use capnarena::{Message, SingleSegmentArena};
///
/// let mut msg = Message::new(SingleSegmentArena::new());
/// let mut alice = msg.init_root::<person::Builder<_>>()?;
/// alice.set_name("Alice")?;
/// assert_eq!(alice.reborrow_as_reader().get().get_name()?, "Alice");
/// alice.set_id(7); // the builder is free again
///
/// let view = alice.into_reader(); // the builder is given up
/// let alice = view.get();
/// assert_eq!((alice.get_id(), alice.get_name()?), (7, "Alice"));
/// # Ok::<(), capnarena::Error>(())
/// ```
///
/// The view holds the message's segments as the arena handed them out
/// when it was made (no reference to the arena), so, like every reader, it
/// is `Send` and `Sync` whatever the arena is. Its reads are bounded as
/// `with_reader`'s are (the default nesting and traversal limits).
pub struct ReaderView<'a, T: FromView> {
    view: BuiltView<'a>,
    marker: PhantomData<fn() -> T>,
}

impl<'a, T: FromView> ReaderView<'a, T> {
    /// A view of the object `view` was made of, read as a `T` (the caller
    /// vouches for the type, as for [`StructBuilder`](crate::StructBuilder)'s
    /// untyped reads).
    #[inline]
    pub fn new(view: BuiltView<'a>) -> Self {
        ReaderView {
            view,
            marker: PhantomData,
        }
    }

    /// The typed reader.
    #[inline]
    pub fn get(&self) -> T::Reader<'_> {
        T::from_view(&self.view)
    }

    /// The untyped view.
    pub fn untyped(&self) -> &BuiltView<'a> {
        &self.view
    }
}
