//! A typed pointer field: text, data, a list, a struct, or a generic
//! parameter in scope. They share their accessors (`get_`, `set_`,
//! `init_`, `has_`, all through the field type's `Owned` marker) and
//! defaults; what is particular to a kind is in [`super::text_data`]
//! (text's bytes getter), [`super::list_field`] (bulk setters) and
//! [`super::struct_field`] (`init_` of a struct or a generic value).

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode};
use super::types::{hex_words, text_words};
use super::writer::Writer;
use crate::Error;
use crate::model::*;

/// A pointer field's schema default, as generated code spells it.
pub(super) enum PointerDefault {
    /// No default: a null pointer reads as the type's empty value.
    None,
    /// Text or data: a string or byte-array literal.
    Literal(String),
    /// Any other value (and text that is not UTF-8): a static holding its
    /// words, named here.
    Static(String),
}

/// The types of a pointer field, as generated code spells them.
pub(super) struct PointerTypes {
    /// The `Owned` marker.
    pub(super) owned: String,
    /// The reader type, borrowing for `'a`.
    pub(super) reader: String,
    /// The builder type, borrowing for `'_`.
    pub(super) builder: String,
}

/// An `init` method of a pointer field: its name, doc and whether it
/// takes a length.
pub(super) struct Init {
    pub(super) name: String,
    pub(super) doc: String,
    pub(super) sized: bool,
}

impl Generator<'_> {
    /// A pointer field of type `ty` (resolved) in pointer slot `offset`.
    pub(super) fn pointer_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        ty: &Type,
        offset: usize,
        default: &Value,
    ) -> Result<(), Error> {
        let (file, depth) = (context.file, context.depth);
        let types = PointerTypes {
            owned: self.owned_ty(ty, file, depth)?,
            reader: self.reader_ty(ty, file, depth)?,
            builder: self.builder_ty(ty, file, depth)?.replace("'b", "'_"),
        };
        let default = self.pointer_default(&mut code.statics, context, ty, default);
        self.pointer_getter(&mut code.reader, context, &types, offset, &default);
        if matches!(ty, Type::Text) && !context.member {
            self.text_bytes_getter(&mut code.reader, context, offset, &default);
        }
        context.has_method(&mut code.reader, "reader", offset);
        self.pointer_setter(&mut code.builder, context, ty, &types, offset);
        if let Type::List(element) = ty {
            self.list_bulk_setter(&mut code.builder, context, element, offset)?;
        }
        doc_attr(&mut code.builder, context.doc());
        match ty {
            Type::Struct(..) => self.struct_init(&mut code.builder, context, &types, offset),
            Type::Param { .. } => self.generic_init(&mut code.builder, context, &types, offset),
            _ => self.sized_init(&mut code.builder, context, &types, offset),
        }
        self.pointer_builder_getter(&mut code.builder, context, &types, offset, &default);
        context.has_method(&mut code.builder, "builder", offset);
        Ok(())
    }

    /// The field's default; a static holding its words is written to
    /// `statics` when it needs one. A text default that is not UTF-8 is
    /// kept as its words, read as any pointer default: the getter gives
    /// the runtime's UTF-8 error, the bytes getter and the builder the
    /// bytes as they are.
    fn pointer_default(
        &self,
        statics: &mut Writer,
        context: &FieldContext<'_>,
        ty: &Type,
        default: &Value,
    ) -> PointerDefault {
        let runtime = &self.runtime;
        let words = match (ty, default) {
            (Type::Text, Value::Text(t)) if std::str::from_utf8(t).is_err() => text_words(t),
            (Type::Text, Value::Text(t)) if !t.is_empty() => {
                return PointerDefault::Literal(format!("{:?}", String::from_utf8_lossy(t)));
            }
            (Type::Data, Value::Data(b)) if !b.is_empty() => {
                return PointerDefault::Literal(format!("&{b:?}"));
            }
            (_, Value::Pointer(Some(words))) => words.clone(),
            _ => return PointerDefault::None,
        };
        let name = default_static(&context.stem);
        statics.assign(
            &format!("static {name}: {runtime}::layout::StaticContext"),
            &format!(
                "{runtime}::layout::StaticContext::new({})",
                hex_words(&words, runtime)
            ),
            ";",
        );
        PointerDefault::Static(name)
    }

    /// Statements reading the field (through `owned`) as the reader's
    /// getter gives it, its default when the pointer is null.
    pub(super) fn read_pointer(
        &self,
        out: &mut Writer,
        owned: &str,
        offset: usize,
        default: &PointerDefault,
    ) {
        let runtime = &self.runtime;
        let read = format!("<{owned} as {runtime}::typed::Owned>::read");
        match default {
            PointerDefault::Literal(literal) => {
                out.line(&format!("let p = self.reader.pointer({offset});"));
                out.open_expression("if p.is_null()");
                out.line(&format!("Ok({literal})"));
                out.else_branch();
                out.line(&format!("{read}(p)"));
                out.close();
            }
            PointerDefault::Static(name) => out.line(&format!(
                "{read}({runtime}::__private::or_default(self.reader.pointer({offset}), &{name})?)"
            )),
            PointerDefault::None => out.line(&format!("{read}(self.reader.pointer({offset}))")),
        }
    }

    /// The reader's getter (an `Option` under `$Rust.option`).
    fn pointer_getter(
        &self,
        reader: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
        default: &PointerDefault,
    ) {
        let runtime = &self.runtime;
        let (stem, visibility) = (&context.stem, context.visibility);
        let reader_type = &types.reader;
        doc_attr(reader, context.doc());
        if context.field.option {
            reader.docs(
                "`None` when the field is not set (`$Rust.option`).\n\
                 # Errors\n\
                 The pointer holds something else, or is out of bounds or over a limit.",
            );
            reader.line("#[inline]");
            reader.open_fn(&format!(
                "{visibility}fn get_{stem}(&self) -> {runtime}::Result<::core::option::Option<{reader_type}>>"
            ));
            reader.open_expression(&format!("if self.reader.pointer({offset}).is_null()"));
            reader.line("Ok(None)");
            reader.else_branch();
            reader.open(&format!("let value: {runtime}::Result<{reader_type}> ="));
            self.read_pointer(reader, &types.owned, offset, default);
            reader.close_with(";");
            reader.line("value.map(Some)");
            reader.close();
        } else {
            reader.docs(
                "# Errors\n\
                 The pointer holds something else, or is out of bounds or over a limit.",
            );
            reader.line("#[inline]");
            reader.open_fn(&format!(
                "{visibility}fn get_{stem}(&self) -> {runtime}::Result<{reader_type}>"
            ));
            self.read_pointer(reader, &types.owned, offset, default);
        }
        reader.close();
    }

    /// The builder's setter: a copy of a reader's value.
    fn pointer_setter(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        ty: &Type,
        types: &PointerTypes,
        offset: usize,
    ) {
        let runtime = &self.runtime;
        let owned = &types.owned;
        let argument = match ty {
            Type::Text => "&str".to_string(),
            Type::Data => "&[u8]".to_string(),
            _ => types.reader.replace("'a", "'_"),
        };
        doc_attr(builder, context.doc());
        builder.docs(
            "Points the field at a copy of `value`.\n\
             # Errors\n\
             The source is malformed, or the arena has no room.",
        );
        // Text and data through the struct builder, which keeps its data
        // section across the call (the next field set needs no lookup).
        let body = match ty {
            Type::Text => format!("self.builder.set_text({offset}, value)"),
            Type::Data => format!("self.builder.set_data({offset}, value)"),
            _ => format!(
                "<{owned} as {runtime}::typed::Owned>::set(self.builder.pointer({offset}), value)"
            ),
        };
        self.pointer_method(
            builder,
            context,
            &format!(
                "pub fn set_{}(&mut self, value: {argument}) -> {runtime}::Result<()>",
                context.stem
            ),
            &body,
        );
    }

    /// An inline builder method whose body is a union member's
    /// discriminant, then `value`.
    pub(super) fn pointer_method(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        signature: &str,
        value: &str,
    ) {
        builder.line("#[inline]");
        builder.open_fn(signature);
        context.write_discriminant(builder);
        builder.line(value);
        builder.close();
    }

    /// `init_` of a list, text or data: a new value of `len` elements.
    fn sized_init(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
    ) {
        let init = Init {
            name: format!("init_{}", context.stem),
            doc: "Points the field at a new value of `len` elements (bytes for text and data).\n\
                  # Errors\n\
                  The arena has no room, or `len` is too large to encode."
                .to_string(),
            sized: true,
        };
        self.init_method(builder, context, types, offset, &init);
    }

    /// The builder's getter: the value as a builder, with the default
    /// copied in when the pointer is null (`None` under `$Rust.option`);
    /// none for a union member (`which()` gives it).
    fn pointer_builder_getter(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
        default: &PointerDefault,
    ) {
        let runtime = &self.runtime;
        let stem = &context.stem;
        let (owned, builder_type) = (&types.owned, &types.builder);
        let get =
            format!("<{owned} as {runtime}::typed::Owned>::get(self.builder.pointer({offset}))");
        if context.field.option {
            doc_attr(builder, context.doc());
            builder.docs(
                "The field's value as a builder; `None` when it is not set (`$Rust.option`).\n\
                 # Errors\n\
                 The pointer holds something else.",
            );
            builder.line("#[inline]");
            builder.open_fn(&format!(
                "pub fn get_{stem}(&mut self) -> {runtime}::Result<::core::option::Option<{builder_type}>>"
            ));
            builder.open_expression(&format!("if !self.builder.has_pointer({offset})"));
            builder.line("return Ok(None);");
            builder.close();
            builder.line(&format!("{get}.map(Some)"));
            builder.close();
        } else if !context.member {
            doc_attr(builder, context.doc());
            builder.docs(
                "The field's value as a builder (its default, copied in, when unset).\n\
                 # Errors\n\
                 The pointer holds something else, or the arena has no room.",
            );
            builder.line("#[inline]");
            builder.open_fn(&format!(
                "pub fn get_{stem}(&mut self) -> {runtime}::Result<{builder_type}>"
            ));
            match default {
                PointerDefault::Literal(literal) => {
                    builder.open_expression(&format!("if !self.builder.has_pointer({offset})"));
                    builder.line(&format!(
                        "<{owned} as {runtime}::typed::Owned>::set(self.builder.pointer({offset}), {literal})?;"
                    ));
                    builder.close();
                }
                PointerDefault::Static(name) => builder.line(&format!(
                    "{runtime}::__private::fill_default(&mut self.builder.pointer({offset}), &{name})?;"
                )),
                PointerDefault::None => {}
            }
            builder.line(&get);
            builder.close();
        }
    }
}

/// The name of the static holding the default of the field whose method
/// stem is `stem`.
pub(super) fn default_static(stem: &str) -> String {
    format!("{}__DEFAULT", stem.to_ascii_uppercase())
}
