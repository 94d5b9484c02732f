//! Deep copy of a reader's subtree into a message being built, plain or
//! in canonical form.
//!
//! The source is read through its reader, so the copy is bounded by the
//! source's traversal and nesting limits: a cyclic or amplifying source
//! fails with an error instead of looping.
//!
//! Objects are allocated in preorder (a struct, then what its pointers
//! point to in pointer order; a list, then what its elements point to in
//! element order), which is the order canonical form requires.

use super::builder::{BuilderSegments, Fill, PointerBuilder, StructBuilder};
use super::pointer::{ElementSize, StructSize};
use super::reader::{ListReader, PointerReader, StructReader};
use crate::arena::Arena;
use crate::error::{Error, PointerKind, Result};
use crate::word::Word;

/// How a copy lays out structs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Keep each struct's sections as they are.
    Plain,
    /// Trim trailing zero data words and trailing null pointers; give every
    /// element of a struct list the largest trimmed size among them.
    Canonical,
}

/// The canonical size of a struct: without trailing zero data words and
/// trailing null pointers.
fn trimmed_size(src: &StructReader<'_>) -> StructSize {
    let data = src.data_bytes();
    let data_words = data
        .chunks(8)
        .rposition(|w| w.iter().any(|&b| b != 0))
        .map_or(0, |i| i + 1);
    let pointers = (0..usize::from(src.pointer_count()))
        .rev()
        .find(|&i| !src.pointer(i).is_null())
        .map_or(0, |i| i + 1);
    StructSize::new(data_words as u16, pointers as u16)
}

impl<A: Arena + ?Sized> PointerBuilder<'_, A> {
    /// Sets the slot to a deep copy of what `src` points to (struct, list,
    /// text, data, capability or null), from any message.
    ///
    /// # Errors
    /// A malformed source or a source limit exceeded, or the arena has no
    /// room. On error the slot may point to a partial copy.
    pub fn set_from(&mut self, src: &PointerReader<'_>) -> Result<()> {
        self.reborrow().copy_pointer(src, Mode::Plain)
    }

    /// Sets the slot to a deep copy of the struct `src`.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_struct(&mut self, src: &StructReader<'_>) -> Result<()> {
        self.reborrow().copy_struct(src, Mode::Plain)
    }

    /// Sets the slot to a deep copy of the list `src`, keeping its element
    /// encoding.
    ///
    /// # Errors
    /// As [`set_from`](Self::set_from).
    pub fn set_list(&mut self, src: &ListReader<'_>) -> Result<()> {
        self.reborrow().copy_list(src, Mode::Plain)
    }

    // The copy functions take the slot by value: passed in registers, not
    // as a pointer to a builder the caller just stored field by field
    // (reading it back whole stalls on store forwarding: text_copy/reuse
    // 68 -> 64 us).
    pub(crate) fn copy_pointer(mut self, src: &PointerReader<'_>, mode: Mode) -> Result<()> {
        match src.kind()? {
            PointerKind::Null => {
                self.clear();
                Ok(())
            }
            PointerKind::Struct => self.copy_struct(&src.get_struct()?, mode),
            PointerKind::List => self.copy_list(&src.get_list_any()?, mode),
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

    pub(crate) fn copy_struct(self, src: &StructReader<'_>, mode: Mode) -> Result<()> {
        let size = match mode {
            Mode::Plain => src.size(),
            Mode::Canonical => trimmed_size(src),
        };
        let dst = self.init_struct(size)?;
        copy_struct_into(dst, src, mode)
    }

    fn copy_list(self, src: &ListReader<'_>, mode: Mode) -> Result<()> {
        let len = src.len();
        match src.element_size() {
            ElementSize::InlineComposite => {
                let size = match mode {
                    Mode::Plain => src.struct_size(),
                    Mode::Canonical => (0..len).map(|i| trimmed_size(&src.get_struct(i))).fold(
                        StructSize::new(0, 0),
                        |a, b| {
                            StructSize::new(
                                a.data_words.max(b.data_words),
                                a.pointers.max(b.pointers),
                            )
                        },
                    ),
                };
                let mut dst = self.init_struct_list(len, size)?;
                for i in 0..len {
                    copy_struct_into(dst.get_struct(i), &src.get_struct(i), mode)?;
                }
            }
            ElementSize::Pointer => {
                let mut dst = self.init_list(ElementSize::Pointer, len)?;
                for i in 0..len {
                    dst.pointer(i).copy_pointer(&src.get_pointer(i), mode)?;
                }
            }
            ElementSize::Byte if len > 0 => {
                // Text and data: the direct path for a list of bytes.
                self.set_byte_list(src.raw_data_bytes(), u64::from(len))?;
            }
            size => {
                // Every byte of the list's words is written here: the
                // elements, then zeros.
                let mut dst = self.init_list_as(size, len, Fill::Overwritten)?;
                let from = src.raw_data_bytes();
                let to = dst.raw_words_bytes_mut();
                let used_bits = u64::from(len) * u64::from(size.data_bits());
                let n = from.len().min(used_bits.div_ceil(8) as usize).min(to.len());
                to[..n].copy_from_slice(&from[..n]);
                to[n..].fill(0);
                // Bits past the last element of a bit list are zero.
                if used_bits % 8 != 0 {
                    if let Some(last) = to.get_mut(n.wrapping_sub(1)) {
                        *last &= (1u8 << (used_bits % 8)) - 1;
                    }
                }
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
        copy_struct_into(self.reborrow(), src, Mode::Plain)
    }
}

fn copy_struct_into<A: Arena + ?Sized>(
    mut dst: StructBuilder<'_, A>,
    src: &StructReader<'_>,
    mode: Mode,
) -> Result<()> {
    let size: StructSize = dst.size();
    {
        let (arena, segment, data) = dst.location();
        let from = src.data_bytes();
        let seg = BuilderSegments::get_mut(arena, segment);
        let bytes = Word::slice_as_bytes_mut(seg);
        let start = data as usize * 8;
        let n = from.len().min(usize::from(size.data_words) * 8);
        if let Some(to) = bytes.get_mut(start..start + n) {
            to.copy_from_slice(&from[..n]);
        }
    }
    let ptrs = usize::from(size.pointers.min(src.pointer_count()));
    for i in 0..ptrs {
        dst.pointer(i).copy_pointer(&src.pointer(i), mode)?;
    }
    Ok(())
}
