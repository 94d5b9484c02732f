//! What a generated struct value's `ReadPointer`, `WritePointer`,
//! `ReadElement` and field code call: re-exported, hidden, by
//! `crate::__private`, not part of the documented API.

use alloc::vec::Vec;

use super::{ReadPointer, ReadStruct, StructValue, WritePointer, charge_list, count};
use crate::typed::Enum;
use crate::{Arena, ElementSize, PointerBuilder, PointerReader, Result};

/// The value `p` points to, `None` when `p` is null.
///
/// # Errors
/// As `ReadPointer::read_pointer`.
#[inline]
pub fn read_optional<'a, T: ReadPointer<'a>>(p: PointerReader<'a>) -> Result<Option<T>> {
    if p.is_null() {
        Ok(None)
    } else {
        T::read_pointer(p).map(Some)
    }
}

/// Writes `value` into `p` when it is `Some`; leaves `p` alone otherwise.
///
/// # Errors
/// As `WritePointer::write_pointer`.
#[inline]
pub fn write_optional<T: WritePointer, A: Arena + ?Sized>(
    value: &Option<T>,
    p: PointerBuilder<'_, A>,
) -> Result<()> {
    match value {
        Some(v) => v.write_pointer(p),
        None => Ok(()),
    }
}

/// The value of the struct `p` points to (`p` is not null), held inline
/// in the value that reads it (what a generated struct value's
/// `ReadPointer` calls). Nothing is charged beyond the read: the
/// value's memory is part of its holder's, which was charged (or is on
/// the stack).
///
/// # Errors
/// As `ReadPointer::read_pointer`.
#[inline]
pub fn read_struct_pointer<'a, V: ReadStruct<'a>>(p: PointerReader<'a>) -> Result<V> {
    V::read_struct(p.get_struct()?)
}

/// Points `p` at a new struct holding `value` (what a generated struct
/// value's `WritePointer` calls).
///
/// # Errors
/// As `WritePointer::write_pointer`.
#[inline]
pub fn write_struct_pointer<V: StructValue, A: Arena + ?Sized>(
    value: &V,
    p: PointerBuilder<'_, A>,
) -> Result<()> {
    value.write_struct(p.init_struct(V::STRUCT_SIZE)?)
}

/// The elements of a list of enum `E` (what a generated enum's
/// `ReadElement` calls).
///
/// # Errors
/// As `ReadPointer::read_pointer`; an element the schema does not list
/// is `NotInSchema`.
pub fn read_enum_list<E: Enum>(p: PointerReader<'_>) -> Result<Vec<E>> {
    let list = p.get_list(ElementSize::TwoBytes)?;
    charge_list::<E>(&list)?;
    let mut out = Vec::with_capacity(list.len() as usize);
    for i in 0..list.len() {
        out.push(E::try_from(list.get::<u16>(i))?);
    }
    Ok(out)
}

/// Points `p` at a new list of the enum values `items`.
///
/// # Errors
/// As `WritePointer::write_pointer`.
pub fn write_enum_list<E: Enum, A: Arena + ?Sized>(
    items: &[E],
    p: PointerBuilder<'_, A>,
) -> Result<()> {
    let mut list = p.init_list(ElementSize::TwoBytes, count(items.len(), 16)?)?;
    for (i, item) in items.iter().enumerate() {
        list.set::<u16>(i as u32, (*item).into());
    }
    Ok(())
}

/// The elements of a list of structs (what a generated struct value's
/// `ReadElement` calls).
///
/// # Errors
/// As `ReadStruct::read_struct`.
pub fn read_struct_list<'a, V: ReadStruct<'a>>(p: PointerReader<'a>) -> Result<Vec<V>> {
    let list = p.get_list(ElementSize::InlineComposite)?;
    charge_list::<V>(&list)?;
    let mut out = Vec::with_capacity(list.len() as usize);
    for i in 0..list.len() {
        out.push(V::read_struct(list.get_struct(i))?);
    }
    Ok(out)
}

/// Points `p` at a new list of the struct values `items`.
///
/// # Errors
/// As `WriteStruct::write_struct`.
pub fn write_struct_list<V: StructValue, A: Arena + ?Sized>(
    items: &[V],
    p: PointerBuilder<'_, A>,
) -> Result<()> {
    let mut list = p.init_struct_list(
        count(items.len(), 64 * u64::from(V::STRUCT_SIZE.total_words()))?,
        V::STRUCT_SIZE,
    )?;
    for (i, item) in items.iter().enumerate() {
        item.write_struct(list.get_struct(i as u32))?;
    }
    Ok(())
}
