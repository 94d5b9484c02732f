//! What is particular to struct fields and fields of a generic
//! parameter's type: their `init_`, which takes no length (a struct's
//! size is its own; a generic value gets a second method, `initn_`, that
//! takes one). Their other accessors are [`super::pointer_field`]'s.

use super::Generator;
use super::doc::doc_attr;
use super::pointer_field::PointerTypes;
use super::struct_module::FieldContext;
use super::writer::Writer;

impl Generator<'_> {
    /// `init_` of a struct field in pointer slot `offset`.
    pub(super) fn struct_init(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
    ) {
        builder.docs(
            "Points the field at a new struct, every field at its default.\n\
             # Errors\n\
             The arena has no room.",
        );
        self.init_method(
            builder,
            context,
            types,
            offset,
            &format!("init_{}", context.stem),
            false,
        );
    }

    /// `init_` and `initn_` of a field of a generic parameter's type.
    pub(super) fn generic_init(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
    ) {
        let initn = self.names_of(context.field).method(("initn_", ""));
        builder.docs(&format!(
            "Points the field at a new value: a struct with every field at its default, or an empty list, text or data (`{initn}` gives a length).\n\
             # Errors\n\
             The arena has no room."
        ));
        self.init_method(
            builder,
            context,
            types,
            offset,
            &format!("init_{}", context.stem),
            false,
        );
        doc_attr(builder, context.doc());
        builder.docs(
            "Points the field at a new value of `len` elements (bytes for text and data; a struct ignores `len`).\n\
             # Errors\n\
             The arena has no room, or `len` is too large to encode.",
        );
        self.init_method(builder, context, types, offset, &initn, true);
    }

    /// An `init` method named `name`, taking a length when `sized`.
    fn init_method(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
        name: &str,
        sized: bool,
    ) {
        let runtime = &self.runtime;
        let (owned, builder_type) = (&types.owned, &types.builder);
        let (parameter, length) = if sized {
            (", len: u32", "len")
        } else {
            ("", "0")
        };
        self.pointer_method(
            builder,
            context,
            &format!("pub fn {name}(&mut self{parameter}) -> {runtime}::Result<{builder_type}>"),
            &format!(
                "<{owned} as {runtime}::typed::Owned>::init(self.builder.pointer({offset}), {length})"
            ),
        );
    }
}
