//! A schema constant: a Rust `const` of a value type, text or data, or a
//! `static` `typed::Constant` holding a pointer value's words.

use super::Generator;
use super::doc::doc_attr;
use super::types::hex_words;
use super::writer::Writer;
use crate::Error;
use crate::model::*;

/// A constant node, with the parts the emitter needs.
pub(super) struct Constant<'a> {
    pub(super) node: &'a Node,
    pub(super) ty: &'a Type,
    pub(super) value: &'a Value,
    /// Its Rust name.
    pub(super) name: &'a str,
}

impl Generator<'_> {
    /// Writes `constant` as a Rust `const` (a `static` for a pointer
    /// value, read through `typed::Constant`), in code at `depth` modules
    /// below file `file`'s module.
    pub(super) fn constant(
        &self,
        out: &mut Writer,
        constant: &Constant<'_>,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let Constant {
            node,
            ty,
            value,
            name,
        } = *constant;
        let rt = &self.runtime;
        let fallback = format!("The `{}` constant.", node.short_name());
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        match (ty, value) {
            (Type::Void, _) => {
                out.line(&format!("pub const {name}: () = ();"));
            }
            (Type::Text, Value::Text(t)) => match std::str::from_utf8(t) {
                Ok(t) => {
                    out.assign(&format!("pub const {name}: &str"), &format!("{t:?}"), ";");
                }
                // Not UTF-8 (the reference accepts it and keeps the
                // bytes): the bytes as they are.
                Err(_) => {
                    out.doc("");
                    out.docs("Not UTF-8: the text's bytes as the schema writes them.");
                    out.assign(&format!("pub const {name}: &[u8]"), &format!("&{t:?}"), ";");
                }
            },
            (Type::Data, Value::Data(d)) => {
                out.assign(&format!("pub const {name}: &[u8]"), &format!("&{d:?}"), ";");
            }
            (Type::Enum(id), Value::Enum(v)) => {
                let path = self.path_to(*id, file, depth)?;
                match self.enumerant_name(*id, *v)? {
                    Some(e) => {
                        out.assign(
                            &format!("pub const {name}: {path}"),
                            &format!("{path}::{e}"),
                            ";",
                        );
                    }
                    None => {
                        out.line(&format!("pub const {name}: u16 = {v};"));
                    }
                }
            }
            (Type::Interface(..), _) => {}
            (ty, Value::Pointer(words)) if ty.is_pointer() => {
                let owned = self.owned_ty(ty, file, depth)?;
                let words = words.clone().unwrap_or_else(|| vec![0]);
                out.assign(
                    &format!("pub static {name}: {rt}::typed::Constant<{owned}>"),
                    &format!("{rt}::typed::Constant::new({})", hex_words(&words, rt)),
                    ";",
                );
            }
            (ty, value) => {
                let (rust, lit) = self.primitive(ty, value)?;
                out.assign(&format!("pub const {name}: {rust}"), &lit, ";");
            }
        }
        Ok(())
    }
}
