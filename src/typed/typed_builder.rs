//! [`TypedBuilder`]: a message under construction and the type of its
//! root, in one value a function can return or a struct can keep.

use core::marker::PhantomData;

use super::StructOwned;
use crate::arena::Arena;
use crate::error::Result;
use crate::message::Message;
use crate::read::MessageReader;

/// A [`Message`] whose root is a `T` (a generated struct's `Owned`): the
/// message and its root's type travel together, so a function can build
/// one and return it, and a struct can keep one, without naming the root
/// type again at each use.
///
/// ```
/// # #[allow(dead_code)]
/// # #[rustfmt::skip]
/// # #[path = "../../examples/generated/addressbook_capnp.rs"]
/// # mod addressbook_capnp;
/// use addressbook_capnp::person;
/// use capnarena::{SingleSegmentArena, typed::TypedBuilder};
///
/// fn alice() -> capnarena::Result<TypedBuilder<person::Owned, SingleSegmentArena>> {
///     let mut msg = TypedBuilder::<person::Owned, _>::new(SingleSegmentArena::new());
///     msg.init_root()?.set_name("Alice")?;
///     Ok(msg)
/// }
///
/// let msg = alice()?;
/// assert_eq!(msg.get(|p| p.get_name().map(str::len))??, 5);
/// # Ok::<(), capnarena::Error>(())
/// ```
pub struct TypedBuilder<T: StructOwned, A: Arena> {
    message: Message<A>,
    marker: PhantomData<fn() -> T>,
}

impl<T: StructOwned, A: Arena> TypedBuilder<T, A> {
    /// An empty message over `arena`.
    pub fn new(arena: A) -> Self {
        Self::from_message(Message::new(arena))
    }

    /// Takes `message` (its root, if any, is read as a `T`).
    pub fn from_message(message: Message<A>) -> Self {
        TypedBuilder {
            message,
            marker: PhantomData,
        }
    }

    /// Allocates a new root `T` (replacing any root).
    ///
    /// # Errors
    /// The arena has no room.
    pub fn init_root(&mut self) -> Result<T::Builder<'_, A>> {
        self.message.init_root_as::<T>()
    }

    /// The root, allocated when the message has none.
    ///
    /// # Errors
    /// The root is not a struct, or the arena has no room.
    pub fn get_root(&mut self) -> Result<T::Builder<'_, A>> {
        self.message.get_root_as::<T>()
    }

    /// Runs `f` on a reader of the root as built so far; a message with no
    /// root yet reads as a `T` with every field at its default.
    ///
    /// # Errors
    /// The root is not a struct (or is out of bounds).
    pub fn get<R>(&self, f: impl for<'r> FnOnce(T::Reader<'r>) -> R) -> Result<R> {
        let reader = self.message.reader();
        Ok(f(reader.get_root_as::<T>()?))
    }

    /// A reader over the whole message as built so far (see
    /// [`Message::reader`]), to read the root with
    /// `reader.get_root_as::<T>()` for as long as the reader lives.
    pub fn reader(&self) -> MessageReader<'_> {
        self.message.reader()
    }

    /// The message, to frame or inspect it.
    pub fn message(&self) -> &Message<A> {
        &self.message
    }

    /// The message, to frame it (`framed_bytes`), reset it or build with it
    /// untyped.
    pub fn message_mut(&mut self) -> &mut Message<A> {
        &mut self.message
    }

    /// Gives the message back.
    pub fn into_message(self) -> Message<A> {
        self.message
    }
}

impl<T: StructOwned, A: Arena + Default> Default for TypedBuilder<T, A> {
    fn default() -> Self {
        Self::new(A::default())
    }
}

impl<A: Arena> Message<A> {
    /// This message as a [`TypedBuilder`] whose root is a `T`.
    pub fn into_typed<T: StructOwned>(self) -> TypedBuilder<T, A> {
        TypedBuilder::from_message(self)
    }
}
