//! An interface (capability) field: capabilities are not implemented, so
//! the field reads and writes the capability's index in the message's
//! capability table.

use std::fmt::Write as _;

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode};

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
        let _ = writeln!(
            code.reader,
            "/// The capability's index in the message's capability table.\n/// # Errors\n/// The pointer is not a capability.\n\
             #[inline] {visibility}fn get_{stem}(&self) -> {runtime}::Result<u32> {{ self.reader.pointer({offset}).get_capability() }}"
        );
        context.has_method(&mut code.reader, "reader", offset);
        doc_attr(&mut code.builder, context.doc());
        let _ = writeln!(
            code.builder,
            "/// Points the field at capability `index` of the message's capability table.\n\
             #[inline] pub fn set_{stem}(&mut self, index: u32) {{ {}self.builder.pointer({offset}).set_capability(index); }}",
            context.set_discriminant
        );
        context.has_method(&mut code.builder, "builder", offset);
    }
}
