//! Deep copy of a reader's subtree into a message being built.
//!
//! The source is read through its reader, so the copy is bounded by the
//! source's traversal and nesting limits: a cyclic or amplifying source
//! fails with an error instead of looping.

use super::builder::{PointerBuilder, StructBuilder};
use super::pointer::{ElementSize, StructSize};
use super::reader::{ListReader, PointerReader, StructReader};
use crate::arena::Arena;
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;

impl<A: Arena + ?Sized> PointerBuilder<'_, A> {
    /// Sets the slot to a deep copy of what `src` points to (struct, list,
    /// text, data, capability or null), from any message.
    ///
    /// # Errors
    /// A malformed source or a source limit exceeded, or the arena has no
    /// room. On error the slot may point to a partial copy.
    pub fn set_from(&mut self, src: &PointerReader<'_>) -> Result<()> {
        match src.kind()? {
            PointerKind::Null => {
                self.clear();
                Ok(())
            }
            PointerKind::Struct => self.set_struct(&src.get_struct()?),
            PointerKind::List => self.set_list(&src.get_list_any()?),
            PointerKind::Capability => {
                self.set_capability(src.get_capability()?);
                Ok(())
            }
            found => Err(Error::UnexpectedPointer {
                expected: PointerKind::Struct,
                found,
            }),
        }
    }

    /// Sets the slot to a deep copy of the struct `src`.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_struct(&mut self, src: &StructReader<'_>) -> Result<()> {
        let dst = self.reborrow().init_struct(src.size())?;
        copy_struct_into(dst, src)
    }

    /// Sets the slot to a deep copy of the list `src`, keeping its element
    /// encoding.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_list(&mut self, src: &ListReader<'_>) -> Result<()> {
        let len = src.len();
        match src.element_size() {
            ElementSize::InlineComposite => {
                let mut dst = self.reborrow().init_struct_list(len, src.struct_size())?;
                for i in 0..len {
                    copy_struct_into(dst.get_struct(i), &src.get_struct(i))?;
                }
            }
            ElementSize::Pointer => {
                let mut dst = self.reborrow().init_list(ElementSize::Pointer, len)?;
                for i in 0..len {
                    dst.pointer(i).set_from(&src.get_pointer(i))?;
                }
            }
            size => {
                let mut dst = self.reborrow().init_list(size, len)?;
                let from = src.raw_data_bytes();
                let to = dst.raw_data_bytes_mut();
                let n = from.len().min(to.len());
                to[..n].copy_from_slice(&from[..n]);
            }
        }
        Ok(())
    }
}

impl<A: Arena + ?Sized> StructBuilder<'_, A> {
    /// Overwrites this struct's fields with a deep copy of `src`'s: data
    /// bytes that fit, and every pointer that fits.
    ///
    /// # Errors
    /// As [`PointerBuilder::set_from`].
    pub fn copy_from(&mut self, src: &StructReader<'_>) -> Result<()> {
        copy_struct_into(self.reborrow(), src)
    }
}

fn copy_struct_into<A: Arena + ?Sized>(
    mut dst: StructBuilder<'_, A>,
    src: &StructReader<'_>,
) -> Result<()> {
    let size: StructSize = dst.size();
    {
        let (arena, segment, data, _) = dst.parts();
        let from = src.data_bytes();
        let seg = super::builder::BuilderSegments::get_mut(arena, segment);
        let bytes = Word::slice_as_bytes_mut(seg);
        let start = data as usize * 8;
        let n = from.len().min(usize::from(size.data_words) * 8);
        if let Some(to) = bytes.get_mut(start..start + n) {
            to.copy_from_slice(&from[..n]);
        }
    }
    let ptrs = usize::from(size.pointers.min(src.pointer_count()));
    for i in 0..ptrs {
        dst.pointer(i).set_from(&src.pointer(i))?;
    }
    Ok(())
}
