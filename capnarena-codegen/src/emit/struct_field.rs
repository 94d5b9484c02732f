//! What is particular to struct fields and fields of a generic
//! parameter's type: their `init_`, which takes no length (a struct's
//! size is its own; a generic value gets a second method, `initn_`, that
//! takes one). Their other accessors are [`super::pointer_field`]'s.

use std::fmt::Write as _;

use super::Generator;
use super::doc::doc_attr;
use super::pointer_field::PointerTypes;
use super::struct_module::FieldContext;

impl Generator<'_> {
    /// `init_` of a struct field in pointer slot `offset`.
    pub(super) fn struct_init(
        &self,
        builder: &mut String,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
    ) {
        let runtime = &self.runtime;
        let (owned, builder_type) = (&types.owned, &types.builder);
        let _ = writeln!(
            builder,
            "/// Points the field at a new struct, every field at its default.\n/// # Errors\n/// The arena has no room.\n\
             #[inline] pub fn init_{}(&mut self) -> {runtime}::Result<{builder_type}> {{ {}<{owned} as {runtime}::typed::Owned>::init(self.builder.pointer({offset}), 0) }}",
            context.stem, context.set_discriminant
        );
    }

    /// `init_` and `initn_` of a field of a generic parameter's type.
    pub(super) fn generic_init(
        &self,
        builder: &mut String,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
    ) {
        let runtime = &self.runtime;
        let (stem, set_discriminant) = (&context.stem, &context.set_discriminant);
        let (owned, builder_type) = (&types.owned, &types.builder);
        let initn = self.names_of(context.field).method(("initn_", ""));
        let _ = writeln!(
            builder,
            "/// Points the field at a new value: a struct with every field at its default, or an empty list, text or data (`{initn}` gives a length).\n/// # Errors\n/// The arena has no room.\n\
             #[inline] pub fn init_{stem}(&mut self) -> {runtime}::Result<{builder_type}> {{ {set_discriminant}<{owned} as {runtime}::typed::Owned>::init(self.builder.pointer({offset}), 0) }}"
        );
        doc_attr(builder, context.doc());
        let _ = writeln!(
            builder,
            "/// Points the field at a new value of `len` elements (bytes for text and data; a struct ignores `len`).\n/// # Errors\n/// The arena has no room, or `len` is too large to encode.\n\
             #[inline] pub fn {initn}(&mut self, len: u32) -> {runtime}::Result<{builder_type}> {{ {set_discriminant}<{owned} as {runtime}::typed::Owned>::init(self.builder.pointer({offset}), len) }}"
        );
    }
}
