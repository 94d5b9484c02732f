//! A schema enum: a `#[repr(u16)]` Rust enum, its names, and the
//! conversions from and to `u16`.

use std::fmt::Write as _;

use super::Generator;
use super::doc::doc_attr;
use super::types::enumerant_names;
use crate::model::*;

impl Generator<'_> {
    /// Writes enum `node` (named `name`) with its enumerants.
    pub(super) fn enum_item(
        &self,
        out: &mut String,
        node: &Node,
        enumerants: &[Enumerant],
        name: &str,
    ) {
        let variants = enumerant_names(enumerants);
        let rt = &self.runtime;
        let fallback = format!("The `{}` enum.", node.short_name());
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        let _ = writeln!(
            out,
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]\n#[repr(u16)]\npub enum {name} {{"
        );
        for (i, (e, v)) in enumerants.iter().zip(&variants).enumerate() {
            let fallback = format!("`{}`", e.name);
            doc_attr(out, Some(e.doc.as_deref().unwrap_or(&fallback)));
            let _ = writeln!(out, "{v} = {i},");
        }
        out.push_str("}\n");
        let _ = writeln!(
            out,
            "impl {name} {{\n/// Id of the enum.\npub const TYPE_ID: u64 = {:#x};\n/// The enumerant's name as the schema spells it.\npub fn name(self) -> &'static str {{ match self {{",
            node.id
        );
        for (e, v) in enumerants.iter().zip(&variants) {
            let _ = writeln!(out, "{name}::{v} => {:?},", e.name);
        }
        out.push_str("} }\n");
        let names: Vec<String> = enumerants.iter().map(|e| format!("{:?}", e.name)).collect();
        let _ = writeln!(
            out,
            "/// The enumerants' names as the schema spells them, by value.\npub const NAMES: &'static [&'static str] = &[{}];\n}}",
            names.join(", ")
        );
        let _ = writeln!(
            out,
            "impl ::core::convert::TryFrom<u16> for {name} {{ type Error = {rt}::typed::NotInSchema; fn try_from(value: u16) -> ::core::result::Result<Self, {rt}::typed::NotInSchema> {{ match value {{"
        );
        for (i, v) in variants.iter().enumerate() {
            let _ = writeln!(out, "{i} => Ok({name}::{v}),");
        }
        let _ = writeln!(out, "v => Err({rt}::typed::NotInSchema(v)), }} }} }}");
        let _ = writeln!(
            out,
            "impl ::core::convert::From<{name}> for u16 {{ fn from(value: {name}) -> u16 {{ value as u16 }} }}\nimpl {rt}::typed::Enum for {name} {{ const NAMES: &'static [&'static str] = {name}::NAMES; }}"
        );
    }
}
