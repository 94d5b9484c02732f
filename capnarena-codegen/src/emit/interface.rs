//! A schema interface: a module holding its id and the parameter and
//! result structs of its methods (capabilities are not implemented; a
//! capability field is an index in the message's capability table).

use super::Generator;
use super::doc::doc_attr;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// Writes interface `node`'s module, named `name`.
    pub(super) fn interface(
        &self,
        out: &mut Writer,
        node: &Node,
        name: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let fallback = format!(
            "The `{}` interface (its method parameter and result structs).",
            node.short_name()
        );
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        out.open(&format!("pub mod {name}"));
        out.docs("Id of the interface.");
        out.line(&format!("pub const TYPE_ID: u64 = {:#x};", node.id));
        if self.options.schema_nodes {
            self.interface_schema(out, node, file, depth + 1)?;
        }
        self.scope_items(out, node, file, depth + 1)?;
        if let NodeKind::Interface(methods) = &node.kind {
            self.rpc_items(out, node, methods, file, depth + 1)?;
        }
        out.close();
        Ok(())
    }
}
