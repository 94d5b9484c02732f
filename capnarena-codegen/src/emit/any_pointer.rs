//! An `AnyPointer` field (or one of a generic parameter not in scope):
//! the untyped pointer, read and built as any type with `get_as` /
//! `init_as`.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode, short_fn};

impl Generator<'_> {
    /// An any-pointer field in pointer slot `offset`.
    pub(super) fn any_pointer_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        offset: usize,
    ) {
        let runtime = &self.runtime;
        let (stem, visibility) = (&context.stem, context.visibility);
        doc_attr(&mut code.reader, context.doc());
        if context.field.option {
            code.reader.docs(
                "The untyped pointer, `None` when the field is not set (`$Rust.option`); read it as a type with `get_as::<T>()`.",
            );
            short_fn(
                &mut code.reader,
                true,
                &format!(
                    "{visibility}fn get_{stem}(&self) -> ::core::option::Option<{runtime}::PointerReader<'a>>"
                ),
                &format!("Some(self.reader.pointer({offset})).filter(|p| !p.is_null())"),
            );
        } else {
            code.reader
                .docs("The untyped pointer; read it as a type with `get_as::<T>()`.");
            short_fn(
                &mut code.reader,
                true,
                &format!("{visibility}fn get_{stem}(&self) -> {runtime}::PointerReader<'a>"),
                &format!("self.reader.pointer({offset})"),
            );
        }
        context.has_method(&mut code.reader, "reader", offset);
        let builder = &mut code.builder;
        doc_attr(builder, context.doc());
        if context.field.option {
            // Not a union member (`$Rust.option` is refused there).
            builder.docs(
                "The untyped slot, `None` when the field is not set (`$Rust.option`); `init_` gives the slot to build in.",
            );
            builder.line("#[inline]");
            builder.open_fn(&format!(
                "pub fn get_{stem}(&mut self) -> ::core::option::Option<{runtime}::PointerBuilder<'_, A>>"
            ));
            builder.open_expression(&format!("if !self.builder.has_pointer({offset})"));
            builder.line("return None;");
            builder.close();
            builder.line(&format!("Some(self.builder.pointer({offset}))"));
            builder.close();
            doc_attr(builder, context.doc());
            builder
                .docs("The field's slot, cleared; build a value in it with `init_as::<T>(len)`.");
            builder.line("#[inline]");
            builder.open_fn(&format!(
                "pub fn init_{stem}(&mut self) -> {runtime}::PointerBuilder<'_, A>"
            ));
            builder.line(&format!("let mut p = self.builder.pointer({offset});"));
            builder.line("p.clear();");
            builder.line("p");
            builder.close();
        } else if context.member {
            builder.docs(
                "Makes the member the union's active one and returns its slot, cleared; build a value in it with `init_as::<T>(len)`.",
            );
            builder.line("#[inline]");
            builder.open_fn(&format!(
                "pub fn init_{stem}(&mut self) -> {runtime}::PointerBuilder<'_, A>"
            ));
            context.write_discriminant(builder);
            builder.line(&format!("let mut p = self.builder.pointer({offset});"));
            builder.line("p.clear();");
            builder.line("p");
            builder.close();
        } else {
            builder.docs("The untyped slot; build a value in it with `init_as::<T>(len)`.");
            short_fn(
                builder,
                true,
                &format!("pub fn get_{stem}(&mut self) -> {runtime}::PointerBuilder<'_, A>"),
                &format!("self.builder.pointer({offset})"),
            );
        }
        doc_attr(builder, context.doc());
        builder.docs(
            "Points the field at a deep copy of `value`.\n\
             # Errors\n\
             The source is malformed, or the arena has no room.",
        );
        builder.line("#[inline]");
        builder.open_fn(&format!(
            "pub fn set_{stem}(&mut self, value: {runtime}::PointerReader<'_>) -> {runtime}::Result<()>"
        ));
        context.write_discriminant(builder);
        builder.line(&format!("self.builder.pointer({offset}).set_from(&value)"));
        builder.close();
        context.has_method(builder, "builder", offset);
    }
}
