//! A group field: a getter of the group's reader and builder (over the
//! same struct), and `init_`, which sets every field of the group (and of
//! its groups) back to its default.

use std::fmt::Write as _;

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode};
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
        doc_attr(&mut code.reader, context.doc());
        let _ = writeln!(
            code.reader,
            "#[inline] {visibility}fn get_{stem}(&self) -> {module}::Reader<'a{list}> {{ {module}::Reader {{ reader: self.reader{marker} }} }}"
        );
        if !context.member {
            doc_attr(&mut code.builder, context.doc());
            let _ = writeln!(
                code.builder,
                "#[inline] pub fn get_{stem}(&mut self) -> {module}::Builder<'_, A{list}> {{ {module}::Builder {{ builder: self.builder.reborrow(){marker} }} }}"
            );
        }
        let mut clear = String::new();
        self.clear_group(&mut clear, group)?;
        doc_attr(&mut code.builder, context.doc());
        let _ = writeln!(
            code.builder,
            "/// Sets every field of the group to its default{} and returns it.\n\
             pub fn init_{stem}(&mut self) -> {module}::Builder<'_, A{list}> {{ {}{clear}{module}::Builder {{ builder: self.builder.reborrow(){marker} }} }}",
            if context.member {
                ", makes it the union's member,"
            } else {
                ""
            },
            context.set_discriminant,
        );
        Ok(())
    }

    /// Statements that reset every field of group `id` (and of its groups)
    /// to the zero bits that mean "default".
    fn clear_group(&self, out: &mut String, id: u64) -> Result<(), Error> {
        let NodeKind::Struct(s) = &self.node(id)?.kind else {
            return Ok(());
        };
        if s.discriminant_count > 0 {
            let _ = writeln!(
                out,
                "self.builder.set::<u16>({}, 0);",
                s.discriminant_offset
            );
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
                        _ => format!("self.builder.pointer({offset}).clear();"),
                    };
                    out.push_str(&statement);
                    out.push('\n');
                }
            }
        }
        Ok(())
    }
}
