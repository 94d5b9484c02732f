//! An interface (capability) field: capabilities are not implemented, so
//! the field reads and writes the capability's index in the message's
//! capability table.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode, short_fn};

impl Generator<'_> {
    /// A capability field in pointer slot `offset`.
    pub(super) fn capability_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        offset: usize,
    ) {
        let runtime = &self.runtime;
        let (stem, visibility) = (&context.stem, context.visibility);
        doc_attr(&mut code.reader, context.doc());
        code.reader.docs(
            "The capability's index in the message's capability table.\n\
             # Errors\n\
             The pointer is not a capability.",
        );
        short_fn(
            &mut code.reader,
            true,
            &format!("{visibility}fn get_{stem}(&self) -> {runtime}::Result<u32>"),
            &format!("self.reader.pointer({offset}).get_capability()"),
        );
        context.has_method(&mut code.reader, "reader", offset);
        let builder = &mut code.builder;
        doc_attr(builder, context.doc());
        builder.docs("Points the field at capability `index` of the message's capability table.");
        builder.line("#[inline]");
        builder.open_fn(&format!("pub fn set_{stem}(&mut self, index: u32)"));
        context.write_discriminant(builder);
        builder.line(&format!(
            "self.builder.pointer({offset}).set_capability(index);"
        ));
        builder.close();
        context.has_method(builder, "builder", offset);
    }
}
