//! The size of an object and everything it points to, as the reference's
//! `totalSize()` counts it (`layout.c++`, `WireHelpers::totalSize`): the
//! words of each struct and list reached (an inline-composite list's tag
//! included, far-pointer landing pads not), and the capabilities.
//!
//! The walk keeps one frame per level of nesting in a work list (no
//! recursion: a reader's nesting limit may be far above what the stack
//! holds). With `alloc` the list grows on the heap; without it, it holds
//! 64 frames and a deeper object gives
//! [`Error::SizeTooDeepWithoutAlloc`](crate::Error::SizeTooDeepWithoutAlloc).

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

use super::pointer::ElementSize;
use super::reader::{ListReader, PointerReader, StructReader};
use crate::error::{PointerKind, Result};

/// Levels of nesting the walk handles without the `alloc` feature.
#[cfg(not(feature = "alloc"))]
const INLINE_FRAMES: usize = 64;

/// Words and capabilities an object and everything it points to take: what
/// a deep copy of it into a new message needs (plus one word for the root
/// pointer). capnproto-rust's and the reference's `total_size()` /
/// `totalSize()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MessageSize {
    /// Words of structs and lists (inline-composite tags included).
    pub word_count: u64,
    /// Capability pointers.
    pub cap_count: u32,
}

/// An object whose pointers are being visited, and the next one.
#[derive(Clone, Copy)]
enum Frame<'a> {
    /// A struct's pointer section, from pointer `next`.
    Struct { r: StructReader<'a>, next: u16 },
    /// A list's elements, from pointer `ptr` of element `elem`.
    List {
        l: ListReader<'a>,
        elem: u32,
        ptr: u16,
    },
}

/// Frames, one per level being visited.
struct Stack<'a> {
    #[cfg(feature = "alloc")]
    frames: Vec<Frame<'a>>,
    #[cfg(not(feature = "alloc"))]
    frames: [Option<Frame<'a>>; INLINE_FRAMES],
    #[cfg(not(feature = "alloc"))]
    len: usize,
}

impl<'a> Stack<'a> {
    fn new() -> Self {
        Stack {
            #[cfg(feature = "alloc")]
            frames: Vec::new(),
            #[cfg(not(feature = "alloc"))]
            frames: [None; INLINE_FRAMES],
            #[cfg(not(feature = "alloc"))]
            len: 0,
        }
    }

    #[cfg(feature = "alloc")]
    fn push(&mut self, frame: Frame<'a>) -> Result<()> {
        self.frames.push(frame);
        Ok(())
    }

    #[cfg(not(feature = "alloc"))]
    fn push(&mut self, frame: Frame<'a>) -> Result<()> {
        let slot = self
            .frames
            .get_mut(self.len)
            .ok_or(crate::Error::SizeTooDeepWithoutAlloc {
                depth: self.len as u64 + 1,
                inline: INLINE_FRAMES,
            })?;
        *slot = Some(frame);
        self.len += 1;
        Ok(())
    }

    #[cfg(feature = "alloc")]
    fn top(&mut self) -> Option<&mut Frame<'a>> {
        self.frames.last_mut()
    }

    #[cfg(not(feature = "alloc"))]
    fn top(&mut self) -> Option<&mut Frame<'a>> {
        let i = self.len.checked_sub(1)?;
        self.frames.get_mut(i)?.as_mut()
    }

    #[cfg(feature = "alloc")]
    fn pop(&mut self) {
        self.frames.pop();
    }

    #[cfg(not(feature = "alloc"))]
    fn pop(&mut self) {
        self.len = self.len.saturating_sub(1);
    }
}

/// Words a list's elements take, its inline-composite tag included.
fn list_words(list: &ListReader<'_>) -> u64 {
    let tag = u64::from(list.element_size() == ElementSize::InlineComposite);
    list.span_words() + tag
}

/// Whether a list's elements hold pointers to visit.
fn has_pointers(list: &ListReader<'_>) -> bool {
    !list.is_empty()
        && matches!(
            list.element_size(),
            ElementSize::Pointer | ElementSize::InlineComposite
        )
        && list.struct_size().pointers > 0
}

/// Counts `r` and, when it holds pointers, pushes it to visit them.
fn enter_struct<'a>(
    r: StructReader<'a>,
    size: &mut MessageSize,
    stack: &mut Stack<'a>,
) -> Result<()> {
    size.word_count += u64::from(r.size().total_words());
    if r.pointer_count() > 0 {
        stack.push(Frame::Struct { r, next: 0 })?;
    }
    Ok(())
}

/// Counts `l` and, when its elements hold pointers, pushes it to visit
/// them.
fn enter_list<'a>(l: ListReader<'a>, size: &mut MessageSize, stack: &mut Stack<'a>) -> Result<()> {
    size.word_count += list_words(&l);
    if has_pointers(&l) {
        stack.push(Frame::List { l, elem: 0, ptr: 0 })?;
    }
    Ok(())
}

/// Counts what `p` points to and pushes what it holds.
fn enter_pointer<'a>(
    p: PointerReader<'a>,
    size: &mut MessageSize,
    stack: &mut Stack<'a>,
) -> Result<()> {
    match p.kind()? {
        PointerKind::Null => Ok(()),
        PointerKind::Struct => enter_struct(p.get_struct()?, size, stack),
        PointerKind::List => enter_list(p.get_list_any()?, size, stack),
        PointerKind::Capability => {
            size.cap_count = size.cap_count.saturating_add(1);
            Ok(())
        }
        // Neither an object nor a capability: `get_struct` refuses it with
        // the numbers that say what it is.
        PointerKind::Far | PointerKind::Other => p.get_struct().map(|_| ()),
    }
}

/// The next pointer of the top frame (advancing it), or `None` when the
/// frame is done.
fn next_pointer<'a>(frame: &mut Frame<'a>) -> Option<PointerReader<'a>> {
    match frame {
        Frame::Struct { r, next } => {
            if *next >= r.pointer_count() {
                return None;
            }
            let p = r.pointer(usize::from(*next));
            *next += 1;
            Some(p)
        }
        Frame::List { l, elem, ptr } => {
            let per = l.struct_size().pointers;
            if *elem >= l.len() {
                return None;
            }
            let p = if l.element_size() == ElementSize::Pointer {
                l.get_pointer(*elem)
            } else {
                l.get_struct(*elem).pointer(usize::from(*ptr))
            };
            *ptr += 1;
            if *ptr >= per || l.element_size() == ElementSize::Pointer {
                *ptr = 0;
                *elem += 1;
            }
            Some(p)
        }
    }
}

/// Visits everything under the frames on `stack`, adding to `size`.
fn walk<'a>(mut stack: Stack<'a>, mut size: MessageSize) -> Result<MessageSize> {
    while let Some(frame) = stack.top() {
        match next_pointer(frame) {
            Some(p) => enter_pointer(p, &mut size, &mut stack)?,
            None => stack.pop(),
        }
    }
    Ok(size)
}

impl StructReader<'_> {
    /// Words and capabilities this struct and everything it points to
    /// take (see [`MessageSize`]). Each object is read as any read is:
    /// charged to the reader's traversal limit, within its nesting limit.
    ///
    /// # Errors
    /// A pointer under it is malformed, out of bounds, or over a limit;
    /// without the `alloc` feature, objects nested deeper than
    /// 64 levels ([`Error::SizeTooDeepWithoutAlloc`](crate::Error::SizeTooDeepWithoutAlloc)).
    pub fn total_size(&self) -> Result<MessageSize> {
        let mut size = MessageSize::default();
        let mut stack = Stack::new();
        enter_struct(*self, &mut size, &mut stack)?;
        walk(stack, size)
    }
}

impl ListReader<'_> {
    /// Words and capabilities this list and everything it points to take
    /// (see [`MessageSize`]).
    ///
    /// # Errors
    /// As [`StructReader::total_size`].
    pub fn total_size(&self) -> Result<MessageSize> {
        let mut size = MessageSize::default();
        let mut stack = Stack::new();
        enter_list(*self, &mut size, &mut stack)?;
        walk(stack, size)
    }
}

impl PointerReader<'_> {
    /// Words and capabilities of what this pointer points to and
    /// everything under it (see [`MessageSize`]); zero for null.
    ///
    /// # Errors
    /// As [`StructReader::total_size`].
    pub fn total_size(&self) -> Result<MessageSize> {
        let mut size = MessageSize::default();
        let mut stack = Stack::new();
        enter_pointer(*self, &mut size, &mut stack)?;
        walk(stack, size)
    }
}
