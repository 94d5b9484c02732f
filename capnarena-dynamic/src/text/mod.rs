//! The text format both ways: a dynamic value as the text
//! `capnp convert binary:text` prints ([`TextWriter`], [`write_struct`],
//! or as a value tree, [`to_text_value`]), and text as `capnp convert
//! text:binary` reads it built into a message ([`parse_struct`], feature
//! `compiler`).
//!
//! Printing follows the rules of `capnarena::text` (fields in the
//! schema's order, the active union member only, null pointer fields left
//! out) and lays the text out by the runtime's printer, the one generated
//! `Debug` impls use; so a message prints the same through generated and
//! dynamic readers, and as the reference tool prints it. [`TextWriter`]
//! prints straight from the reader, by plans of the structs it keeps from
//! one message to the next; [`to_text_value`] builds the runtime's
//! [`TextValue`] tree instead.
//!
//! ```
//! use capnarena::{Message, SingleSegmentArena};
//! use capnarena_dynamic::{DynamicStructBuilder, LoadedSchema, text};
//!
//! let loaded = LoadedSchema::compile(&capnarena_compiler::Compiler::new().source(
//!     "/demo.capnp",
//!     "@0xd3bd7ff1e1ed8b6a; struct P { x @0 :Int32; tags @1 :List(Text); }",
//! ).file("/demo.capnp"))?;
//! let schema = loaded.schema();
//! let p = schema.find_struct("demo.capnp:P")?;
//!
//! let mut msg = Message::new(SingleSegmentArena::new());
//! let mut root = DynamicStructBuilder::init_root(&mut msg, p.clone())?;
//! text::parse_struct(b"(x = -3, tags = [\"a\", \"b\"])", &mut root).map_err(|e| e.to_string())?;
//!
//! let reader = msg.reader();
//! let root = capnarena_dynamic::DynamicStructReader::root(&reader, p)?;
//! let mut out = Vec::new();
//! text::write_struct(&root, false, &mut out)?;
//! assert_eq!(out, b"(x = -3, tags = [\"a\", \"b\"])");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "compiler")]
mod lex;
#[cfg(feature = "compiler")]
mod parse;
#[cfg(feature = "compiler")]
mod syntax;
mod write;

#[cfg(feature = "compiler")]
pub use parse::{MAX_TEXT_BYTES, MAX_TEXT_DEPTH, MAX_TEXT_WORDS, TextError, parse_struct};

pub use write::TextWriter;

use capnarena::text::{TextValue, write_pretty_bytes, write_short_bytes};

use crate::error::{Error, Result};
use crate::stack::Meter;
use crate::structs::Field;
use crate::types::Type;
use crate::value::{DynamicListReader, DynamicStructReader, DynamicValue};

/// The struct as the text format's value tree: the fields the reference
/// prints, in its order (see `capnarena::text` for the rules).
///
/// # Errors
/// A read that fails (a malformed pointer, a limit of the reader), where
/// the reference tool fails too.
pub fn to_text_value<'a>(r: &DynamicStructReader<'a>) -> Result<TextValue<'a>> {
    struct_to_text(r, &mut Meter::new())
}

/// [`to_text_value`] a level down (the stack used since `meter` was
/// made is checked against [`STACK_BUDGET`](crate::STACK_BUDGET)).
fn struct_to_text<'a>(r: &DynamicStructReader<'a>, meter: &mut Meter) -> Result<TextValue<'a>> {
    meter.enter()?;
    let done = struct_fields(r, meter);
    meter.leave();
    done
}

fn struct_fields<'a>(r: &DynamicStructReader<'a>, meter: &mut Meter) -> Result<TextValue<'a>> {
    let schema = r.schema();
    // A discriminant that names no member (a newer writer's) prints no
    // member.
    let active = r.which().ok().flatten().map(|f| f.index());
    let mut fields = Vec::new();
    for f in schema.fields() {
        if let Some(d) = f.discriminant() {
            if Some(f.index()) != active {
                continue;
            }
            // The active member: a null pointer prints (as its default)
            // unless it is the discriminant-0 member.
            if !f.is_group() && d == 0 && f.ty()?.is_pointer() && !r.has(&f)? {
                continue;
            }
        } else if !f.is_group() && f.ty()?.is_pointer() && !r.has(&f)? {
            continue;
        }
        fields.push((f.name(), field_value(r, &f, meter)?));
    }
    Ok(TextValue::Struct(fields))
}

fn field_value<'a>(
    r: &DynamicStructReader<'a>,
    f: &Field<'_>,
    meter: &mut Meter,
) -> Result<TextValue<'a>> {
    if !f.is_group() && matches!(f.ty()?, Type::Text) {
        // Text that is not UTF-8 prints as its bytes, as the reference's.
        return Ok(TextValue::Text(r.get_text_bytes(f)?));
    }
    to_text(r.get(f)?, meter)
}

/// Any value as the text format's value tree (a struct by
/// [`to_text_value`]'s rules, a list element by element).
///
/// # Errors
/// As [`to_text_value`].
pub fn value_to_text(v: DynamicValue<'_>) -> Result<TextValue<'_>> {
    to_text(v, &mut Meter::new())
}

fn to_text<'a>(v: DynamicValue<'a>, meter: &mut Meter) -> Result<TextValue<'a>> {
    Ok(match v {
        DynamicValue::Void => TextValue::Void,
        DynamicValue::Bool(b) => TextValue::Bool(b),
        DynamicValue::Int8(x) => TextValue::Int(x.into()),
        DynamicValue::Int16(x) => TextValue::Int(x.into()),
        DynamicValue::Int32(x) => TextValue::Int(x.into()),
        DynamicValue::Int64(x) => TextValue::Int(x),
        DynamicValue::UInt8(x) => TextValue::UInt(x.into()),
        DynamicValue::UInt16(x) => TextValue::UInt(x.into()),
        DynamicValue::UInt32(x) => TextValue::UInt(x.into()),
        DynamicValue::UInt64(x) => TextValue::UInt(x),
        DynamicValue::Float32(x) => TextValue::Float32(x),
        DynamicValue::Float64(x) => TextValue::Float64(x),
        DynamicValue::Enum(e) => match e.name() {
            Some(name) => TextValue::Enum(name),
            None => TextValue::EnumNumber(e.value()),
        },
        DynamicValue::Text(t) => TextValue::Text(t.as_bytes()),
        DynamicValue::Data(d) => TextValue::Data(d),
        DynamicValue::Struct(s) => struct_to_text(&s, meter)?,
        DynamicValue::List(l) => list_to_text(&l, meter)?,
        DynamicValue::AnyPointer(_) => TextValue::AnyPointer,
        DynamicValue::Capability(_) => TextValue::Capability,
    })
}

fn list_to_text<'a>(l: &DynamicListReader<'a>, meter: &mut Meter) -> Result<TextValue<'a>> {
    meter.enter()?;
    let done = list_items(l, meter);
    meter.leave();
    done
}

fn list_items<'a>(l: &DynamicListReader<'a>, meter: &mut Meter) -> Result<TextValue<'a>> {
    let text = matches!(l.element_type(), Type::Text);
    let mut out = Vec::with_capacity(l.len() as usize);
    for i in 0..l.len() {
        out.push(if text {
            TextValue::Text(l.get_text_bytes(i)?)
        } else {
            to_text(l.get(i)?, meter)?
        });
    }
    Ok(TextValue::List(out))
}

/// Appends the struct's text to `out`, byte for byte as `capnp convert
/// binary:text` prints it (without its final newline): the pretty form,
/// or the one-line form of `--short` when `pretty` is false.
///
/// # Errors
/// As [`to_text_value`].
pub fn write_struct(r: &DynamicStructReader<'_>, pretty: bool, out: &mut Vec<u8>) -> Result<()> {
    let mut writer = TextWriter::new(r.schema().clone());
    out.extend_from_slice(writer.write(r.as_struct_reader(), pretty)?);
    Ok(())
}

/// Appends a value tree's text to `out` (pretty or one-line).
///
/// # Errors
/// None in practice: appending to a `Vec` does not fail; a formatter
/// error is reported as [`Error::Wire`].
pub fn write_value(v: &TextValue<'_>, pretty: bool, out: &mut Vec<u8>) -> Result<()> {
    let written = if pretty {
        write_pretty_bytes(v, out)
    } else {
        write_short_bytes(v, out)
    };
    written.map_err(|_| Error::Wire(capnarena::Error::Io(std::io::Error::other("text format"))))
}
