//! A group field: a getter of the group's reader and builder (over the
//! same struct), and `init_`, which sets every field of the group (and of
//! its groups) back to its default.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode, short_fn};
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// The accessors of a group field whose group is node `group`.
    pub(super) fn group_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        group: u64,
    ) -> Result<(), Error> {
        let (stem, visibility) = (&context.stem, context.visibility);
        let (list, marker) = (&context.generics.list, &context.generics.marker);
        let module = self
            .module_name(group)
            .ok_or(Error::MissingNode { id: group })?;
        let builder_value =
            format!("{module}::Builder {{ builder: self.builder.reborrow(){marker} }}");
        doc_attr(&mut code.reader, context.doc());
        short_fn(
            &mut code.reader,
            true,
            &format!("{visibility}fn get_{stem}(&self) -> {module}::Reader<'a{list}>"),
            &format!("{module}::Reader {{ reader: self.reader{marker} }}"),
        );
        let builder = &mut code.builder;
        if !context.member {
            doc_attr(builder, context.doc());
            short_fn(
                builder,
                true,
                &format!("pub fn get_{stem}(&mut self) -> {module}::Builder<'_, A{list}>"),
                &builder_value,
            );
        }
        doc_attr(builder, context.doc());
        builder.docs(&format!(
            "Sets every field of the group to its default{} and returns it.",
            if context.member {
                ", makes it the union's member,"
            } else {
                ""
            },
        ));
        // Inlined like the other accessors: out of line, the group's
        // builder comes back through memory and the call costs more than
        // its few field writes.
        builder.line("#[inline]");
        builder.open_fn(&format!(
            "pub fn init_{stem}(&mut self) -> {module}::Builder<'_, A{list}>"
        ));
        context.write_discriminant(builder);
        self.clear_group(builder, group)?;
        builder.line(&builder_value);
        builder.close();
        Ok(())
    }

    /// Statements that reset every field of group `id` (and of its groups)
    /// to the zero bits that mean "default".
    fn clear_group(&self, out: &mut Writer, id: u64) -> Result<(), Error> {
        let NodeKind::Struct(s) = &self.node(id)?.kind else {
            return Ok(());
        };
        if s.discriminant_count > 0 {
            out.line(&format!(
                "self.builder.set::<u16>({}, 0);",
                s.discriminant_offset
            ));
        }
        for f in &s.fields {
            match &f.kind {
                FieldKind::Group { type_id } => self.clear_group(out, *type_id)?,
                FieldKind::Slot { offset, ty, .. } => {
                    let statement = match ty {
                        Type::Void => continue,
                        Type::Bool => format!("self.builder.set_bool({offset}, false);"),
                        Type::Int8 | Type::UInt8 => format!("self.builder.set::<u8>({offset}, 0);"),
                        Type::Int16 | Type::UInt16 | Type::Enum(_) => {
                            format!("self.builder.set::<u16>({offset}, 0);")
                        }
                        Type::Int32 | Type::UInt32 | Type::Float32 => {
                            format!("self.builder.set::<u32>({offset}, 0);")
                        }
                        Type::Int64 | Type::UInt64 | Type::Float64 => {
                            format!("self.builder.set::<u64>({offset}, 0);")
                        }
                        _ => format!("self.builder.clear_pointer({offset});"),
                    };
                    out.line(&statement);
                }
            }
        }
        Ok(())
    }
}
