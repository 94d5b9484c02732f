//! `serde` impls of the plain Rust values (the `serde` option, which
//! implies `owned_values`): `Serialize` of `Value` and `ValueRef<'a>`,
//! `Deserialize` of `Value`, and both for enums, written out (no derive,
//! so a user crate needs no proc macro) on the runtime's
//! `typed::value::serde_support` helpers, with serde named through the
//! runtime's re-export.
//!
//! The form is the reference's JSON codec's: fields by their schema
//! names, in the order of the schema's field list (ordinal order, which
//! is the reference's), a null pointer field left out, then the union's
//! active member.

use super::Generator;
use super::owned::{Flavor, ValueContext};
use super::writer::Writer;
use crate::Error;
use crate::model::*;

impl Generator<'_> {
    /// `Serialize` (and `Deserialize` for the owned flavor) of the value
    /// described by `c`.
    pub(super) fn value_serde(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        self.value_serialize(out, node, c)?;
        if c.flavor == Flavor::Owned {
            self.value_deserialize(out, node, c)?;
        }
        Ok(())
    }

    fn value_serialize(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let ty = match c.flavor {
            Flavor::Owned => "Value",
            Flavor::Borrowed => "ValueRef<'_>",
        };
        // The schema's order (by ordinal), not the struct's (code order).
        let plain: Vec<&Field> =
            c.s.fields
                .iter()
                .filter(|f| f.discriminant.is_none())
                .collect();
        let mut fixed = usize::from(!c.members.is_empty());
        let mut optional = Vec::new();
        for f in &plain {
            if is_pointer(self, f) {
                optional.push(format!(
                    "usize::from(self.{}.is_some())",
                    self.value_field(f)
                ));
            } else {
                fixed += 1;
            }
        }
        let mut len: Vec<String> = Vec::new();
        if fixed > 0 || optional.is_empty() {
            len.push(fixed.to_string());
        }
        len.extend(optional);
        out.open_impl(&format!("impl {rt}::serde::Serialize for {ty}"));
        out.open_fn(&format!(
            "fn serialize<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        let name = format!("{:?}", node.short_name());
        if plain.is_empty() && c.members.is_empty() {
            out.line(&format!(
                "{rt}::serde::ser::SerializeStruct::end(s.serialize_struct({name}, 0)?)"
            ));
        } else {
            out.line(&format!("use {rt}::serde::ser::SerializeStruct as _;"));
            out.assign("let len", &len.join(" + "), ";");
            out.assign(
                "let mut m",
                &format!("s.serialize_struct({name}, len)?"),
                ";",
            );
            for f in &plain {
                let field = self.value_field(f);
                let key = format!("{:?}", f.name);
                if is_pointer(self, f) {
                    out.open_expression(&format!(
                        "if let ::core::option::Option::Some(v) = &self.{field}"
                    ));
                    out.line(&format!("m.serialize_field({key}, &{support}::Ser(v))?;"));
                    out.close();
                } else {
                    out.line(&format!(
                        "m.serialize_field({key}, &{support}::Ser(&self.{field}))?;"
                    ));
                }
            }
            if !c.members.is_empty() {
                let which = c.flavor.which().trim_end_matches("<'a>");
                out.open_expression(&format!("match &self.{}", c.union_field));
                for (f, variant) in &c.members {
                    let key = format!("{:?}", f.name);
                    if self.field_value_ty(f, c)? == "()" {
                        out.arm(
                            &format!("{which}::{variant}"),
                            &format!("m.serialize_field({key}, &())?"),
                        );
                    } else {
                        let wrap = if is_pointer(self, f) {
                            "OrDefault"
                        } else {
                            "Ser"
                        };
                        out.arm(
                            &format!("{which}::{variant}(v)"),
                            &format!("m.serialize_field({key}, &{support}::{wrap}(v))?"),
                        );
                    }
                }
                out.close();
            }
            out.line("m.end()");
        }
        out.close();
        out.close();
        out.open_impl(&format!("impl {support}::SerializeValue for {ty}"));
        out.open_fn(&format!(
            "fn serialize_value<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        out.line(&format!("{rt}::serde::Serialize::serialize(self, s)"));
        out.close();
        out.close();
        Ok(())
    }

    fn value_deserialize(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let plain: Vec<&Field> =
            c.s.fields
                .iter()
                .filter(|f| f.discriminant.is_none())
                .collect();
        let mut names: Vec<String> = plain.iter().map(|f| format!("{:?}", f.name)).collect();
        names.extend(c.members.iter().map(|(f, _)| format!("{:?}", f.name)));
        out.open_impl(&format!("impl {support}::StructFields for Value"));
        out.line(&format!(
            "const NAME: &'static str = {:?};",
            node.short_name()
        ));
        out.assign(
            "const FIELDS: &'static [&'static str]",
            &format!("&[{}]", names.join(", ")),
            ";",
        );
        let signature = |index: &str| {
            format!(
                "fn set_field<'de, A: {rt}::serde::de::MapAccess<'de>>(&mut self, {index}: usize, map: &mut A) -> ::core::result::Result<(), A::Error>"
            )
        };
        if names.is_empty() {
            out.open_fn(&signature("_index"));
            out.line(&format!("{support}::skip(map)"));
        } else {
            out.open_fn(&signature("index"));
            out.open_expression("match index");
            let mut i = 0usize;
            for f in &plain {
                out.arm(
                    &i.to_string(),
                    &format!("self.{} = {support}::next(map)?", self.value_field(f)),
                );
                i += 1;
            }
            for (f, variant) in &c.members {
                if self.field_value_ty(f, c)? == "()" {
                    out.open(&format!("{i} =>"));
                    out.line(&format!("let () = {support}::next(map)?;"));
                    out.line(&format!("self.{} = WhichValue::{variant};", c.union_field));
                    out.close();
                } else {
                    out.arm(
                        &i.to_string(),
                        &format!(
                            "self.{} = WhichValue::{variant}({support}::next(map)?)",
                            c.union_field
                        ),
                    );
                }
                i += 1;
            }
            out.arm("_", &format!("{support}::skip(map)?"));
            out.close();
            out.line("Ok(())");
        }
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl<'de> {rt}::serde::Deserialize<'de> for Value"
        ));
        out.open_fn(&format!(
            "fn deserialize<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct(d)"));
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl<'de> {support}::DeserializeValue<'de> for Value"
        ));
        out.open_fn(&format!(
            "fn deserialize_value<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct(d)"));
        out.close();
        out.close();
        Ok(())
    }

    /// `Serialize` / `Deserialize` of enum `name` (as its enumerants'
    /// names), and the value traits lists of it need.
    pub(super) fn enum_serde(&self, out: &mut Writer, name: &str) {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let ser = format!(
            "<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        );
        let de = format!(
            "<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        );
        for (header, f, body) in [
            (
                format!("impl {rt}::serde::Serialize for {name}"),
                format!("fn serialize{ser}"),
                format!("{support}::serialize_enum(*self, s)"),
            ),
            (
                format!("impl {support}::SerializeValue for {name}"),
                format!("fn serialize_value{ser}"),
                format!("{support}::serialize_enum(*self, s)"),
            ),
            (
                format!("impl<'de> {rt}::serde::Deserialize<'de> for {name}"),
                format!("fn deserialize{de}"),
                format!("{support}::deserialize_enum(d)"),
            ),
            (
                format!("impl<'de> {support}::DeserializeValue<'de> for {name}"),
                format!("fn deserialize_value{de}"),
                format!("{support}::deserialize_enum(d)"),
            ),
        ] {
            out.open_impl(&header);
            out.open_fn(&f);
            out.line(&body);
            out.close();
            out.close();
        }
    }
}

/// Whether field `f` is a pointer (an `Option` in the value).
fn is_pointer(g: &Generator<'_>, f: &Field) -> bool {
    match &f.kind {
        FieldKind::Group { .. } => false,
        FieldKind::Slot { ty, .. } => g.resolve(ty).is_pointer(),
    }
}
