//! What is particular to list fields: the bulk setters of lists of
//! numbers and bools (`set_*_from_slice`, one allocation and copy) and of
//! text and data (`set_*_from_iter`). Their other accessors are
//! [`super::pointer_field`]'s.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::FieldContext;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// The bulk setter of a list field of `element`s in pointer slot
    /// `offset`, for the element types that have one.
    pub(super) fn list_bulk_setter(
        &self,
        builder: &mut Writer,
        context: &FieldContext<'_>,
        element: &Type,
        offset: usize,
    ) -> Result<(), Error> {
        let runtime = &self.runtime;
        let names = self.names_of(context.field);
        match element {
            Type::Text | Type::Data => {
                // Through the struct builder, which keeps its data section
                // across the call (the next field set needs no lookup).
                let (method, item) = if matches!(element, Type::Text) {
                    ("set_text_list", "&'s str")
                } else {
                    ("set_data_list", "&'s [u8]")
                };
                let name = names.method(("set_", "_from_iter"));
                doc_attr(builder, context.doc());
                builder.docs(
                    "Points the field at a new list of `items`, laid out in one allocation.\n\
                     # Errors\n\
                     Too long to encode, or the arena has no room.",
                );
                builder.line("#[inline]");
                builder.open_fn_where(
                    &format!("pub fn {name}<'s, I>(&mut self, items: I) -> {runtime}::Result<()>"),
                    &[
                        &format!("I: IntoIterator<Item = {item}>"),
                        "I::IntoIter: ExactSizeIterator + Clone",
                    ],
                );
                context.write_discriminant(builder);
                builder.line(&format!("self.builder.{method}({offset}, items)"));
                builder.close();
            }
            Type::Bool
            | Type::Int8
            | Type::Int16
            | Type::Int32
            | Type::Int64
            | Type::UInt8
            | Type::UInt16
            | Type::UInt32
            | Type::UInt64
            | Type::Float32
            | Type::Float64 => {
                let (argument, marker) = if matches!(element, Type::Bool) {
                    ("&[bool]".to_string(), format!("{runtime}::typed::BoolList"))
                } else {
                    let rust = self.primitive(element, &Value::Void)?.0;
                    (
                        format!("&[{rust}]"),
                        format!("{runtime}::typed::PrimitiveList::<{rust}>"),
                    )
                };
                let name = names.method(("set_", "_from_slice"));
                doc_attr(builder, context.doc());
                builder.docs(
                    "Points the field at a new list holding `values` (one allocation and copy).\n\
                     # Errors\n\
                     Too long to encode, or the arena has no room.",
                );
                self.pointer_method(
                    builder,
                    context,
                    &format!(
                        "pub fn {name}(&mut self, values: {argument}) -> {runtime}::Result<()>"
                    ),
                    &format!("{marker}::set_slice(self.builder.pointer({offset}), values)"),
                );
            }
            _ => {}
        }
        Ok(())
    }
}
