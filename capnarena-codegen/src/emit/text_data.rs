//! What is particular to text and data fields: text's bytes getter, which
//! reads what the wire holds without the UTF-8 check (capnp's own readers
//! check on demand too). Their other accessors are
//! [`super::pointer_field`]'s, with a string or byte-array literal as
//! default.

use super::Generator;
use super::pointer_field::PointerDefault;
use super::struct_module::FieldContext;
use super::writer::Writer;

impl Generator<'_> {
    /// `get_*_bytes` of a text field in pointer slot `offset`.
    pub(super) fn text_bytes_getter(
        &self,
        reader: &mut Writer,
        context: &FieldContext<'_>,
        offset: usize,
        default: &PointerDefault,
    ) {
        let runtime = &self.runtime;
        let bytes_name = self.names_of(context.field).method(("", "_bytes"));
        reader.docs(&format!(
            "The `{}` field's bytes as stored (terminator excluded), without the UTF-8 check `get_{}` makes.\n\
             # Errors\n\
             The pointer holds something else, or is out of bounds or over a limit.",
            context.field.name, context.stem
        ));
        reader.line("#[inline]");
        reader.open_fn(&format!(
            "pub fn get_{bytes_name}(&self) -> {runtime}::Result<&'a [u8]>"
        ));
        match default {
            PointerDefault::Literal(literal) => {
                reader.line(&format!("let p = self.reader.pointer({offset});"));
                reader.open_expression("if p.is_null()");
                reader.line(&format!("Ok({literal}.as_bytes())"));
                reader.else_branch();
                reader.line("p.get_text_bytes()");
                reader.close();
            }
            PointerDefault::Static(name) => reader.line(&format!(
                "{runtime}::__private::or_default(self.reader.pointer({offset}), &{name})?.get_text_bytes()"
            )),
            PointerDefault::None => {
                reader.line(&format!("self.reader.pointer({offset}).get_text_bytes()"))
            }
        }
        reader.close();
    }
}
