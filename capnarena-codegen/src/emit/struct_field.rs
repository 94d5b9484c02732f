//! What is particular to struct fields and fields of a generic
//! parameter's type: their `init_`, which takes no length (a struct's
//! size is its own; a generic value gets a second method, `initn_`, that
//! takes one). Their other accessors are [`super::pointer_field`]'s.

use super::Generator;
use super::doc::doc_attr;
use super::pointer_field::{Init, PointerTypes};
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
        let init = Init {
            name: format!("init_{}", context.stem),
            doc: "Points the field at a new struct, every field at its default.\n\
                  # Errors\n\
                  The arena has no room."
                .to_string(),
            sized: false,
        };
        self.init_method(builder, context, types, offset, &init);
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
        let init = Init {
            name: format!("init_{}", context.stem),
            doc: format!(
                "Points the field at a new value: a struct with every field at its default, or an empty list, text or data (`{initn}` gives a length).\n\
                 # Errors\n\
                 The arena has no room."
            ),
            sized: false,
        };
        self.init_method(builder, context, types, offset, &init);
        doc_attr(builder, context.doc());
        let init = Init {
            name: initn,
            doc: "Points the field at a new value of `len` elements (bytes for text and data; a struct ignores `len`).\n\
                  # Errors\n\
                  The arena has no room, or `len` is too large to encode."
                .to_string(),
            sized: true,
        };
        self.init_method(builder, context, types, offset, &init);
    }

    /// The `init` method `init` describes.
    pub(super) fn init_method(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        types: &PointerTypes,
        offset: usize,
        init: &Init,
    ) {
        let runtime = &self.runtime;
        let (owned, builder_type) = (&types.owned, &types.builder);
        let (parameter, length) = if init.sized {
            (", len: u32", "len")
        } else {
            ("", "0")
        };
        builder.docs(&init.doc);
        self.pointer_method(
            builder,
            context,
            &format!(
                "pub fn {}(&mut self{parameter}) -> {runtime}::Result<{builder_type}>",
                init.name
            ),
            &format!(
                "<{owned} as {runtime}::typed::Owned>::init(self.builder.pointer({offset}), {length})"
            ),
        );
    }
}
