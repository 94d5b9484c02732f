//! An `AnyPointer` field (or one of a generic parameter not in scope):
//! the untyped pointer, read and built as any type with `get_as` /
//! `init_as`.

use std::fmt::Write as _;

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode};

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
        let set_discriminant = &context.set_discriminant;
        doc_attr(&mut code.reader, context.doc());
        let _ = writeln!(
            code.reader,
            "/// The untyped pointer; read it as a type with `get_as::<T>()`.\n\
             #[inline] {visibility}fn get_{stem}(&self) -> {runtime}::PointerReader<'a> {{ self.reader.pointer({offset}) }}"
        );
        context.has_method(&mut code.reader, "reader", offset);
        doc_attr(&mut code.builder, context.doc());
        if context.member {
            let _ = writeln!(
                code.builder,
                "/// Makes the member the union's active one and returns its slot, cleared; build a value in it with `init_as::<T>(len)`.\n\
                 #[inline] pub fn init_{stem}(&mut self) -> {runtime}::PointerBuilder<'_, A> {{ {set_discriminant}let mut p = self.builder.pointer({offset}); p.clear(); p }}"
            );
        } else {
            let _ = writeln!(
                code.builder,
                "/// The untyped slot; build a value in it with `init_as::<T>(len)`.\n\
                 #[inline] pub fn get_{stem}(&mut self) -> {runtime}::PointerBuilder<'_, A> {{ self.builder.pointer({offset}) }}"
            );
        }
        doc_attr(&mut code.builder, context.doc());
        let _ = writeln!(
            code.builder,
            "/// Points the field at a deep copy of `value`.\n/// # Errors\n/// The source is malformed, or the arena has no room.\n\
             #[inline] pub fn set_{stem}(&mut self, value: {runtime}::PointerReader<'_>) -> {runtime}::Result<()> {{ {set_discriminant}self.builder.pointer({offset}).set_from(&value) }}"
        );
        context.has_method(&mut code.builder, "builder", offset);
    }
}
