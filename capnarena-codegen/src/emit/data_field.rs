//! Fields in the data section: void, bool, numbers and enums. Each has a
//! getter on the reader and the builder (none for a union member: see
//! `which()`) and a setter on the builder; a default is XORed in by the
//! runtime's `get_or` / `set_or`.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode, short_fn};
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// A `Void` field: a getter that returns nothing, a setter that only
    /// writes a union member's discriminant.
    pub(super) fn void_field(&self, code: &mut StructCode, context: &FieldContext<'_>) {
        let stem = &context.stem;
        if !context.member {
            doc_attr(&mut code.reader, context.doc());
            code.reader.line("#[inline]");
            code.reader.line(&format!("pub fn get_{stem}(&self) {{}}"));
        }
        doc_attr(&mut code.builder, context.doc());
        code.builder.line("#[inline]");
        match &context.set_discriminant {
            Some(statement) => short_fn(
                &mut code.builder,
                false,
                &format!("pub fn set_{stem}(&mut self)"),
                statement,
            ),
            None => code
                .builder
                .line(&format!("pub fn set_{stem}(&mut self) {{}}")),
        }
    }

    /// A `Bool` field, at bit `offset`.
    pub(super) fn bool_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        offset: usize,
        default: &Value,
    ) {
        let (get, set) = if matches!(default, Value::Bool(true)) {
            (
                format!("get_bool_or({offset}, true)"),
                format!("set_bool_or({offset}, value, true)"),
            )
        } else {
            (
                format!("get_bool({offset})"),
                format!("set_bool({offset}, value)"),
            )
        };
        scalar_accessors(code, context, "bool", &get, &set);
    }

    /// A number field of type `ty`, at element `offset` of its size.
    pub(super) fn number_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        ty: &Type,
        offset: usize,
        default: &Value,
    ) -> Result<(), Error> {
        let (rust, literal) = self.primitive(ty, default)?;
        let (get, set) = if is_zero(default) {
            (
                format!("get::<{rust}>({offset})"),
                format!("set::<{rust}>({offset}, value)"),
            )
        } else {
            (
                format!("get_or::<{rust}>({offset}, {literal})"),
                format!("set_or::<{rust}>({offset}, value, {literal})"),
            )
        };
        scalar_accessors(code, context, rust, &get, &set);
        Ok(())
    }

    /// A field of enum `id`, at 16-bit element `offset`: the getters give
    /// `Err(NotInSchema)` for a value the schema does not have.
    pub(super) fn enum_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        id: u64,
        offset: usize,
        default: &Value,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let (stem, visibility) = (&context.stem, context.visibility);
        let path = self.path_to(id, context.file, context.depth)?;
        let default = match default {
            Value::Enum(v) => *v,
            _ => 0,
        };
        let result = format!("::core::result::Result<{path}, {runtime}::typed::NotInSchema>");
        let convert = format!("<{path} as ::core::convert::TryFrom<u16>>::try_from");
        doc_attr(&mut code.reader, context.doc());
        code.reader
            .docs("# Errors\nThe value on the wire is not in the schema.");
        short_fn(
            &mut code.reader,
            true,
            &format!("{visibility}fn get_{stem}(&self) -> {result}"),
            &format!("{convert}(self.reader.get_or::<u16>({offset}, {default}))"),
        );
        if !context.member {
            doc_attr(&mut code.builder, context.doc());
            code.builder
                .docs("# Errors\nThe value in the message is not in the schema.");
            short_fn(
                &mut code.builder,
                true,
                &format!("pub fn get_{stem}(&self) -> {result}"),
                &format!("{convert}(self.builder.get_or::<u16>({offset}, {default}))"),
            );
        }
        doc_attr(&mut code.builder, context.doc());
        setter(
            &mut code.builder,
            context,
            &path,
            &format!("self.builder.set_or::<u16>({offset}, u16::from(value), {default});"),
        );
        Ok(())
    }
}

/// Whether a number field's default is zero (read and written plainly).
pub(super) fn is_zero(default: &Value) -> bool {
    match default {
        Value::Int(v) | Value::Float64(v) => *v == 0,
        Value::Float32(v) => *v == 0,
        _ => true,
    }
}

/// A data field's setter taking a `rust` value: the discriminant of a
/// union member, then `statement`.
fn setter(out: &mut Writer, context: &FieldContext<'_>, rust: &str, statement: &str) {
    out.line("#[inline]");
    out.open_fn(&format!(
        "pub fn set_{}(&mut self, value: {rust})",
        context.stem
    ));
    context.write_discriminant(out);
    out.line(statement);
    out.close();
}

/// The reader getter, builder getter and builder setter of a data field
/// of Rust type `rust`: `get` and `set` are the struct handle's calls
/// (with the offset and any default).
fn scalar_accessors(
    code: &mut StructCode,
    context: &FieldContext<'_>,
    rust: &str,
    get: &str,
    set: &str,
) {
    let (stem, visibility) = (&context.stem, context.visibility);
    doc_attr(&mut code.reader, context.doc());
    short_fn(
        &mut code.reader,
        true,
        &format!("{visibility}fn get_{stem}(&self) -> {rust}"),
        &format!("self.reader.{get}"),
    );
    if !context.member {
        doc_attr(&mut code.builder, context.doc());
        short_fn(
            &mut code.builder,
            true,
            &format!("pub fn get_{stem}(&self) -> {rust}"),
            &format!("self.builder.{get}"),
        );
    }
    doc_attr(&mut code.builder, context.doc());
    setter(
        &mut code.builder,
        context,
        rust,
        &format!("self.builder.{set};"),
    );
}
