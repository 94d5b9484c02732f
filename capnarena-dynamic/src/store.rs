//! How a dynamic value is stored, for the struct and list builders
//! alike: its bits as a scalar of a type, the check that it fits a
//! pointer of a type, and its copy into a pointer. A leaf: it knows the
//! values and types, not the builders.

use capnarena::{Arena, ElementSize, PointerBuilder, StructBuilder};

use crate::error::{Error, Result};
use crate::schema::Schema;
use crate::structs::Field;
use crate::types::Type;
use crate::value::DynamicValue;

pub(crate) fn field_context(field: &Field<'_>) -> String {
    format!(
        "field {} of {}",
        field.name(),
        field.parent().display_name()
    )
}

pub(crate) fn mismatch(field: &Field<'_>, expected: &str, value: &DynamicValue<'_>) -> Error {
    Error::TypeMismatch {
        context: field_context(field),
        expected: expected.into(),
        found: value.kind().into(),
    }
}

/// The bits of `value` as a scalar of type `ty` (unmasked).
pub(crate) fn scalar_bits(
    schema: &Schema<'_>,
    ty: &Type,
    value: &DynamicValue<'_>,
    context: impl Fn() -> String,
) -> Result<u64> {
    let mismatch = || Error::TypeMismatch {
        context: context(),
        expected: ty.to_string(),
        found: value.kind().into(),
    };
    let int = |min: i128, max: i128, name: &'static str| -> Result<u64> {
        let v = value.as_integer().ok_or_else(mismatch)?;
        if v < min || v > max {
            return Err(Error::ValueOutOfRange {
                context: context(),
                expected: name,
                value: v.to_string(),
            });
        }
        Ok(v as u64)
    };
    let float = || -> Result<f64> {
        match *value {
            DynamicValue::Float32(v) => Ok(f64::from(v)),
            DynamicValue::Float64(v) => Ok(v),
            _ => value.as_integer().map(|v| v as f64).ok_or_else(mismatch),
        }
    };
    Ok(match ty {
        Type::Void => match value {
            DynamicValue::Void => 0,
            _ => return Err(mismatch()),
        },
        Type::Bool => match value {
            DynamicValue::Bool(b) => u64::from(*b),
            _ => return Err(mismatch()),
        },
        Type::Int8 => int(i8::MIN.into(), i8::MAX.into(), "Int8")? & 0xff,
        Type::Int16 => int(i16::MIN.into(), i16::MAX.into(), "Int16")? & 0xffff,
        Type::Int32 => int(i32::MIN.into(), i32::MAX.into(), "Int32")? & 0xffff_ffff,
        Type::Int64 => int(i64::MIN.into(), i64::MAX.into(), "Int64")?,
        Type::UInt8 => int(0, u8::MAX.into(), "UInt8")?,
        Type::UInt16 => int(0, u16::MAX.into(), "UInt16")?,
        Type::UInt32 => int(0, u32::MAX.into(), "UInt32")?,
        Type::UInt64 => int(0, u64::MAX.into(), "UInt64")?,
        // A float of the field's own width keeps its bits (a NaN's
        // payload too); others convert.
        Type::Float32 => match *value {
            DynamicValue::Float32(v) => u64::from(v.to_bits()),
            _ => u64::from((float()? as f32).to_bits()),
        },
        Type::Float64 => match *value {
            DynamicValue::Float64(v) => v.to_bits(),
            _ => float()?.to_bits(),
        },
        Type::Enum(id) => match value {
            DynamicValue::Enum(e) if e.schema().id() == *id => u64::from(e.value()),
            DynamicValue::Enum(_) => return Err(mismatch()),
            DynamicValue::Text(name) => {
                u64::from(schema.enum_schema(*id)?.value_by_name(name)?.value())
            }
            _ => int(0, u16::MAX.into(), "enum")?,
        },
        _ => return Err(mismatch()),
    })
}

/// Stores the (masked) bits of a scalar of type `ty` at `offset`.
pub(crate) fn store_scalar<A: Arena + ?Sized>(
    b: &mut StructBuilder<'_, A>,
    ty: &Type,
    offset: usize,
    bits: u64,
) {
    match ty.element_size() {
        ElementSize::Bit => b.set_bool(offset, bits != 0),
        ElementSize::Byte => b.set::<u8>(offset, bits as u8),
        ElementSize::TwoBytes => b.set::<u16>(offset, bits as u16),
        ElementSize::FourBytes => b.set::<u32>(offset, bits as u32),
        ElementSize::EightBytes => b.set::<u64>(offset, bits),
        // Void: nothing to store; pointers are not scalars.
        _ => {}
    }
}

/// `value` can be stored in a pointer of type `ty`.
pub(crate) fn check_pointer_value(
    ty: &Type,
    value: &DynamicValue<'_>,
    context: impl Fn() -> String,
) -> Result<()> {
    let fits = match (ty, value) {
        (Type::Text, DynamicValue::Text(_))
        | (Type::Data, DynamicValue::Data(_))
        | (Type::Interface(_), DynamicValue::Capability(_))
        | (
            Type::AnyPointer,
            DynamicValue::AnyPointer(_)
            | DynamicValue::Struct(_)
            | DynamicValue::List(_)
            | DynamicValue::Text(_)
            | DynamicValue::Data(_)
            | DynamicValue::Capability(_),
        ) => true,
        (Type::Struct(st), DynamicValue::Struct(s)) => s.schema().id() == st.id(),
        (Type::List(e), DynamicValue::List(l)) => l.element_type().same_as(e),
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        let found = match value {
            DynamicValue::Struct(s) => format!("struct {:#018x}", s.schema().id()),
            DynamicValue::List(l) => format!("List({})", l.element_type()),
            other => other.kind().into(),
        };
        Err(Error::TypeMismatch {
            context: context(),
            expected: ty.to_string(),
            found,
        })
    }
}

/// Points `p` at a copy of `value` (checked by [`check_pointer_value`]).
pub(crate) fn set_pointer<A: Arena + ?Sized>(
    ty: &Type,
    mut p: PointerBuilder<'_, A>,
    value: &DynamicValue<'_>,
) -> Result<()> {
    let _ = ty;
    match value {
        DynamicValue::Text(t) => p.set_text(t)?,
        DynamicValue::Data(d) => p.set_data(d)?,
        DynamicValue::Struct(s) => p.set_struct(&s.as_struct_reader())?,
        DynamicValue::List(l) => p.set_list(&l.as_list_reader())?,
        DynamicValue::AnyPointer(src) => p.set_from(src)?,
        DynamicValue::Capability(Some(index)) => p.set_capability(*index),
        DynamicValue::Capability(None) => p.clear(),
        _ => {}
    }
    Ok(())
}
