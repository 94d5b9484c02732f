//! A schema enum: a `#[repr(u16)]` Rust enum, its names, and the
//! conversions from and to `u16`.

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::short_fn;
use super::types::enumerant_names;
use super::writer::Writer;
use crate::model::*;

impl Generator<'_> {
    /// Writes enum `node` (named `name`) with its enumerants, and its
    /// impls: names, `TryFrom<u16>`, `From<Self> for u16`, `typed::Enum`.
    pub(super) fn enum_item(
        &self,
        out: &mut Writer,
        node: &Node,
        enumerants: &[Enumerant],
        name: &str,
    ) {
        let variants = enumerant_names(enumerants);
        let runtime = &self.runtime;
        let fallback = format!("The `{}` enum.", node.short_name());
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        out.line("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]");
        out.line("#[repr(u16)]");
        out.open(&format!("pub enum {name}"));
        for (i, (e, v)) in enumerants.iter().zip(&variants).enumerate() {
            let fallback = format!("`{}`", e.name);
            doc_attr(out, Some(e.doc.as_deref().unwrap_or(&fallback)));
            out.line(&format!("{v} = {i},"));
        }
        out.close();
        out.open_impl(&format!("impl {name}"));
        out.docs("Id of the enum.");
        out.line(&format!("pub const TYPE_ID: u64 = {:#x};", node.id));
        out.docs("The enumerant's name as the schema spells it.");
        out.open_fn("pub fn name(self) -> &'static str");
        out.open_expression("match self");
        for (e, v) in enumerants.iter().zip(&variants) {
            out.arm(&format!("{name}::{v}"), &format!("{:?}", e.name));
        }
        out.close();
        out.close();
        let names: Vec<String> = enumerants.iter().map(|e| format!("{:?}", e.name)).collect();
        out.docs("The enumerants' names as the schema spells them, by value.");
        out.assign(
            "pub const NAMES: &'static [&'static str]",
            &format!("&[{}]", names.join(", ")),
            ";",
        );
        out.close();
        let not_in_schema = format!("{runtime}::typed::NotInSchema");
        out.open_impl(&format!("impl ::core::convert::TryFrom<u16> for {name}"));
        out.line(&format!("type Error = {not_in_schema};"));
        out.open_fn(&format!(
            "fn try_from(value: u16) -> ::core::result::Result<Self, {not_in_schema}>"
        ));
        out.open_expression("match value");
        for (i, v) in variants.iter().enumerate() {
            out.arm(&i.to_string(), &format!("Ok({name}::{v})"));
        }
        out.arm("v", &format!("Err({not_in_schema}(v))"));
        out.close();
        out.close();
        out.close();
        out.open_impl(&format!("impl ::core::convert::From<{name}> for u16"));
        short_fn(
            out,
            false,
            &format!("fn from(value: {name}) -> u16"),
            "value as u16",
        );
        out.close();
        out.open_impl(&format!("impl {runtime}::typed::Enum for {name}"));
        out.line(&format!(
            "const NAMES: &'static [&'static str] = {name}::NAMES;"
        ));
        out.close();
    }
}
