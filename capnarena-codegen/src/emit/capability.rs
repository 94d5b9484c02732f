//! An interface (capability) field: the capability's index in the
//! message's capability table, read and written as is; with RPC code
//! (`Options::rpc`), also as the interface's typed client, taken from and
//! added to the capabilities that travel with the message.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::{FieldContext, StructCode, short_fn};
use crate::Error;
use crate::model::Brand;

impl Generator<'_> {
    /// A capability field in pointer slot `offset`, of interface `id` with
    /// generic arguments `brand`.
    pub(super) fn capability_field(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        offset: usize,
        id: u64,
        brand: &Brand,
    ) -> Result<(), Error> {
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
        let clear = self.names_of(context.field).method(("clear_", ""));
        doc_attr(builder, context.doc());
        builder.docs("Sets the field to null: it holds no capability.");
        builder.line("#[inline]");
        builder.open_fn(&format!("pub fn {clear}(&mut self)"));
        context.write_discriminant(builder);
        builder.line(&format!("self.builder.pointer({offset}).clear();"));
        builder.close();
        context.has_method(builder, "builder", offset);
        self.typed_capability(code, context, offset, id, brand)
    }

    /// With RPC code: `get_*_client` (the capability as a typed client,
    /// from the capabilities of the message read) and `set_*_client` (a
    /// typed client added to the capabilities of the message built, the
    /// field pointed at it).
    fn typed_capability(
        &self,
        code: &mut StructCode,
        context: &FieldContext<'_>,
        offset: usize,
        id: u64,
        brand: &Brand,
    ) -> Result<(), Error> {
        let Some(rpc) = &self.options.rpc_path else {
            return Ok(());
        };
        let (file, depth) = (context.file, context.depth);
        let client = format!(
            "{}::Client{}",
            self.path_to(id, file, depth)?,
            self.brand_args(id, brand, file, depth)?
        );
        let (stem, name) = (&context.stem, &context.field.name);
        let names = self.names_of(context.field);
        let (getter, setter) = (
            names.method(("get_", "_client")),
            names.method(("set_", "_client")),
        );
        let reader = &mut code.reader;
        reader.docs(&format!(
            "The capability of `{name}` as a typed client, from `caps`: the capabilities \
             that came with the message this was read from (the `TypedParams` or \
             `TypedResponse`, or its `reader()`).\n\
             # Errors\n\
             The pointer is not a capability, or names none of `caps`{}.",
            if context.member {
                ", or the union holds another member"
            } else {
                ""
            }
        ));
        reader.line("#[inline]");
        reader.open_fn(&format!(
            "pub fn {getter}(&self, caps: &impl {rpc}::CapTable) -> {rpc}::Result<{client}>"
        ));
        if context.member {
            // `active_reader` is `self.reader.get::<u16>(o) == k && `.
            let inactive = context
                .active_reader
                .trim_end_matches(" && ")
                .replace(" == ", " != ");
            reader.open(&format!("if {inactive}"));
            reader.line(&format!(
                "return Err({rpc}::Error::failed(\"`{name}` is not the union member set\"));"
            ));
            reader.close();
        }
        reader.line(&format!(
            "let index = self.reader.pointer({offset}).get_capability()?;"
        ));
        reader.line("let client = caps.cap_client(index)?;");
        reader.line(&format!("Ok({rpc}::FromClient::from_client(client))"));
        reader.close();
        let builder = &mut code.builder;
        builder.docs(&format!(
            "Sets `{name}` to `client`, added to `caps`: the capabilities of the message \
             being built (from `get_with_caps()` of the `TypedRequest` or `TypedResults`)."
        ));
        builder.line("#[inline]");
        builder.open_fn(&format!(
            "pub fn {setter}(&mut self, caps: &mut {rpc}::Caps<'_>, client: {client})"
        ));
        builder.line("let index = caps.add(client);");
        builder.line(&format!("self.set_{stem}(index);"));
        builder.close();
        Ok(())
    }
}
