//! What is particular to text and data fields: text's bytes getter, which
//! reads what the wire holds without the UTF-8 check (capnp's own readers
//! check on demand too). Their other accessors are
//! [`super::pointer_field`]'s, with a string or byte-array literal as
//! default.

use std::fmt::Write as _;

use super::Generator;
use super::pointer_field::PointerDefault;
use super::struct_module::FieldContext;

impl Generator<'_> {
    /// `get_*_bytes` of a text field in pointer slot `offset`.
    pub(super) fn text_bytes_getter(
        &self,
        reader: &mut String,
        context: &FieldContext<'_>,
        offset: usize,
        default: &PointerDefault,
    ) {
        let runtime = &self.runtime;
        let bytes_name = self.names_of(context.field).method(("", "_bytes"));
        let read = match default {
            PointerDefault::Literal(literal) => format!(
                "let p = self.reader.pointer({offset}); if p.is_null() {{ Ok({literal}.as_bytes()) }} else {{ p.get_text_bytes() }}"
            ),
            PointerDefault::Static(name) => format!(
                "{runtime}::typed::or_default(self.reader.pointer({offset}), &{name})?.get_text_bytes()"
            ),
            PointerDefault::None => format!("self.reader.pointer({offset}).get_text_bytes()"),
        };
        let _ = writeln!(
            reader,
            "/// The `{}` field's bytes as stored (terminator excluded), without the UTF-8 check `get_{}` makes.\n\
             /// # Errors\n/// The pointer holds something else, or is out of bounds or over a limit.\n\
             #[inline] pub fn get_{bytes_name}(&self) -> {runtime}::Result<&'a [u8]> {{ {read} }}",
            context.field.name, context.stem
        );
    }
}
