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
//!
//! The `/capnp/compat/json.capnp` annotations change the form as they
//! change the reference's: `$Json.name` renames a field or enumerant,
//! `$Json.discriminator` writes the union's tag (the member's name) under
//! its `name` before the member's value (none for `Void`), that value
//! under `valueName` if given, and `$Json.base64` / `$Json.hex` write
//! `Data` as one string. `$Json.flatten` is refused (an error) until it
//! is written.

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
        let ty = c.self_ty();
        // A parameter's value is serialized as itself, or (a union member
        // left null) as its default.
        let ser_generics = c.impl_generics(
            &[],
            &format!("{support}::SerializeValue + ::core::default::Default"),
        );
        // The schema's order (by ordinal), not the struct's (code order).
        let plain: Vec<&Field> =
            c.s.fields
                .iter()
                .filter(|f| f.discriminant.is_none())
                .collect();
        let json = self.json_plan(node, c)?;
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
        out.open_impl(&format!(
            "impl{ser_generics} {rt}::serde::Serialize for {ty}"
        ));
        out.open_fn(&format!(
            "fn serialize<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        let name = format!("{:?}", node.short_name());
        // A tagged union's members vary in number: a map of no set length.
        let entry = |key: &str, value: &str| match json.tag {
            Some(_) => format!("m.serialize_entry({key:?}, {value})?"),
            None => format!("m.serialize_field({key:?}, {value})?"),
        };
        if plain.is_empty() && c.members.is_empty() {
            out.line(&format!(
                "{rt}::serde::ser::SerializeStruct::end(s.serialize_struct({name}, 0)?)"
            ));
        } else {
            if json.tag.is_some() {
                out.line(&format!("use {rt}::serde::ser::SerializeMap as _;"));
                out.assign(
                    "let mut m",
                    "s.serialize_map(::core::option::Option::None)?",
                    ";",
                );
            } else {
                out.line(&format!("use {rt}::serde::ser::SerializeStruct as _;"));
                out.assign("let len", &len.join(" + "), ";");
                out.assign(
                    "let mut m",
                    &format!("s.serialize_struct({name}, len)?"),
                    ";",
                );
            }
            for f in &plain {
                let field = self.value_field(f);
                let key = json_key(f);
                if is_pointer(self, f) {
                    out.open_expression(&format!(
                        "if let ::core::option::Option::Some(v) = &self.{field}"
                    ));
                    let value = match f.json.data {
                        JsonData::Array => format!("&{support}::Ser(v)"),
                        JsonData::Base64 => format!("&{support}::Base64(v)"),
                        JsonData::Hex => format!("&{support}::Hex(v)"),
                    };
                    out.line(&format!("{};", entry(key, &value)));
                    out.close();
                } else {
                    out.line(&format!(
                        "{};",
                        entry(key, &format!("&{support}::Ser(&self.{field})"))
                    ));
                }
            }
            if !c.members.is_empty() {
                let which = c.flavor.which().trim_end_matches("<'a>");
                out.open_expression(&format!("match &self.{}", c.union_field));
                for (f, variant) in &c.members {
                    let key = json.value_name.as_deref().unwrap_or(json_key(f));
                    let mut lines = Vec::new();
                    if let Some(tag) = &json.tag {
                        lines.push(entry(tag, &format!("{:?}", json_key(f))));
                    }
                    let void = self.field_value_ty(f, c)? == "()";
                    let pattern = if void {
                        format!("{which}::{variant}")
                    } else {
                        format!("{which}::{variant}(v)")
                    };
                    if void {
                        if json.tag.is_none() {
                            lines.push(entry(key, "&()"));
                        }
                    } else if is_pointer(self, f) {
                        lines.push(entry(
                            key,
                            &match f.json.data {
                                JsonData::Array => format!("&{support}::OrDefault(v)"),
                                JsonData::Base64 => {
                                    format!("&{support}::Base64(v.as_deref().unwrap_or_default())")
                                }
                                JsonData::Hex => {
                                    format!("&{support}::Hex(v.as_deref().unwrap_or_default())")
                                }
                            },
                        ));
                    } else {
                        lines.push(entry(key, &format!("&{support}::Ser(v)")));
                    }
                    match lines.as_slice() {
                        [] => out.arm(&pattern, "{}"),
                        [line] => out.arm(&pattern, line),
                        lines => {
                            out.open(&format!("{pattern} =>"));
                            for line in lines {
                                out.line(&format!("{line};"));
                            }
                            out.close();
                        }
                    }
                }
                out.close();
            }
            out.line("m.end()");
        }
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl{ser_generics} {support}::SerializeValue for {ty}"
        ));
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
        let json = self.json_plan(node, c)?;
        let plain: Vec<&Field> =
            c.s.fields
                .iter()
                .filter(|f| f.discriminant.is_none())
                .collect();
        let which = "WhichValue";
        let error = |message: String| {
            Code::Line(format!(
                "return ::core::result::Result::Err(<A::Error as {rt}::serde::de::Error>::custom({message:?}));"
            ))
        };
        let bytes = |f: &Field| match f.json.data {
            JsonData::Array => None,
            JsonData::Base64 => Some(format!(
                "{support}::next_bytes(map, {support}::BytesForm::Base64)?"
            )),
            JsonData::Hex => Some(format!(
                "{support}::next_bytes(map, {support}::BytesForm::Hex)?"
            )),
        };
        // (key, arm body)
        let mut arms: Vec<(String, Vec<Code>)> = Vec::new();
        for f in &plain {
            let value = match bytes(f) {
                Some(b) => format!("::core::option::Option::Some({b})"),
                None => format!("{support}::next(map)?"),
            };
            arms.push((
                json_key(f).to_string(),
                vec![Code::Line(format!(
                    "self.{} = {value};",
                    self.value_field(f)
                ))],
            ));
        }
        let union = format!("self.{}", c.union_field);
        let is_void = |f: &Field| -> Result<bool, Error> { Ok(self.field_value_ty(f, c)? == "()") };
        let mut member_values = Vec::new();
        for (f, variant) in &c.members {
            let value = match bytes(f) {
                Some(b) => format!("::core::option::Option::Some({b})"),
                None => format!("{support}::next(map)?"),
            };
            member_values.push(value.clone());
            if json.value_name.is_some() {
                continue;
            }
            let mut lines = Vec::new();
            if json.tag.is_some() {
                let pattern = if is_void(f)? {
                    format!("{which}::{variant}")
                } else {
                    format!("{which}::{variant}(..)")
                };
                lines.push(Code::Open(format!(
                    "if *seen & 1 != 0 && !::core::matches!({union}, {pattern})"
                )));
                lines.push(error(format!(
                    "union member {:?} given, its tag names another",
                    json_key(f)
                )));
                lines.push(Code::Close);
                lines.push(Code::Line("*seen |= 2;".into()));
            }
            if is_void(f)? {
                lines.push(Code::Line(format!("let () = {support}::next(map)?;")));
                lines.push(Code::Line(format!("{union} = {which}::{variant};")));
            } else {
                lines.push(Code::Line(format!(
                    "{union} = {which}::{variant}({value});"
                )));
            }
            arms.push((json_key(f).to_string(), lines));
        }
        if let Some(tag) = &json.tag {
            let tags: Vec<String> = c
                .members
                .iter()
                .map(|(f, _)| format!("{:?}", json_key(f)))
                .collect();
            let mut lines = vec![
                Code::Open("if *seen & 1 != 0".into()),
                error(format!("the union's tag {tag:?} given twice")),
                Code::Close,
                Code::Line("*seen |= 1;".into()),
                Code::Open(format!(
                    "match {support}::next_tag(map, &[{}])?",
                    tags.join(", ")
                )),
            ];
            for (k, (f, variant)) in c.members.iter().enumerate() {
                let (pattern, fresh) = if is_void(f)? {
                    (format!("{which}::{variant}"), format!("{which}::{variant}"))
                } else {
                    (
                        format!("{which}::{variant}(..)"),
                        format!("{which}::{variant}(::core::default::Default::default())"),
                    )
                };
                lines.push(Code::Open(format!(
                    "{k} if !::core::matches!({union}, {pattern}) =>"
                )));
                lines.push(Code::Open("if *seen & 2 != 0".into()));
                lines.push(error(format!(
                    "the union's tag {tag:?} names {:?}, another member was given",
                    json_key(f)
                )));
                lines.push(Code::Close);
                lines.push(Code::Line(format!("{union} = {fresh};")));
                lines.push(Code::Close);
            }
            lines.push(Code::Arm("_".into(), "{}".into()));
            lines.push(Code::Close);
            arms.push((tag.clone(), lines));
        }
        if let (Some(value_name), Some(tag)) = (&json.value_name, &json.tag) {
            let mut lines = vec![
                Code::Open("if *seen & 1 == 0".into()),
                error(format!(
                    "{value_name:?} given before the union's tag {tag:?}"
                )),
                Code::Close,
                Code::Line("*seen |= 2;".into()),
                Code::Open(format!("match &mut {union}")),
            ];
            for ((f, variant), value) in c.members.iter().zip(&member_values) {
                if is_void(f)? {
                    lines.push(Code::Arm(
                        format!("{which}::{variant}"),
                        format!("{support}::skip(map)?"),
                    ));
                } else {
                    lines.push(Code::Arm(
                        format!("{which}::{variant}(v)"),
                        format!("*v = {value}"),
                    ));
                }
            }
            lines.push(Code::Close);
            arms.push((value_name.clone(), lines));
        }
        let names: Vec<String> = arms.iter().map(|(k, _)| format!("{k:?}")).collect();
        // A parameter's value is read from any deserializer.
        let bound = format!("for<'v> {support}::DeserializeValue<'v>");
        let ty = c.self_ty();
        out.open_impl(&format!(
            "impl{} {support}::StructFields for {ty}",
            c.impl_generics(&[], &bound)
        ));
        out.line(&format!(
            "const NAME: &'static str = {:?};",
            node.short_name()
        ));
        out.assign(
            "const FIELDS: &'static [&'static str]",
            &format!("&[{}]", names.join(", ")),
            ";",
        );
        let uses_seen = json.tag.is_some();
        let signature = |index: &str| {
            let seen = if uses_seen { "seen" } else { "_seen" };
            format!(
                "fn set_field<'de, A: {rt}::serde::de::MapAccess<'de>>(&mut self, {seen}: &mut u64, {index}: usize, map: &mut A) -> ::core::result::Result<(), A::Error>"
            )
        };
        if names.is_empty() {
            out.open_fn(&signature("_index"));
            out.line(&format!("{support}::skip(map)"));
        } else {
            out.open_fn(&signature("index"));
            out.open_expression("match index");
            for (i, (_, lines)) in arms.iter().enumerate() {
                if let [Code::Line(line)] = lines.as_slice() {
                    out.arm(&i.to_string(), line.trim_end_matches(';'));
                } else {
                    out.open(&format!("{i} =>"));
                    for line in lines {
                        match line {
                            Code::Line(l) => out.line(l),
                            Code::Open(h) => out.open(h),
                            Code::Close => out.close(),
                            Code::Arm(p, v) => out.arm(p, v),
                        }
                    }
                    out.close();
                }
            }
            out.arm("_", &format!("{support}::skip(map)?"));
            out.close();
            out.line("Ok(())");
        }
        out.close();
        out.close();
        let de_generics = c.impl_generics(&["'de"], &bound);
        out.open_impl(&format!(
            "impl{de_generics} {rt}::serde::Deserialize<'de> for {ty}"
        ));
        out.open_fn(&format!(
            "fn deserialize<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        ));
        out.line(&format!("{support}::deserialize_struct(d)"));
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl{de_generics} {support}::DeserializeValue<'de> for {ty}"
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
    pub(super) fn enum_serde(&self, out: &mut Writer, name: &str, enumerants: &[Enumerant]) {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        // `$Json.name`s of the enumerants, when any has one.
        let (ser_call, de_call) = if enumerants.iter().any(|e| e.json_name.is_some()) {
            let names: Vec<String> = enumerants
                .iter()
                .map(|e| format!("{:?}", e.json_name.as_deref().unwrap_or(&e.name)))
                .collect();
            let names = names.join(", ");
            (
                format!("{support}::serialize_enum_named(*self, &[{names}], s)"),
                format!("{support}::deserialize_enum_named(&[{names}], d)"),
            )
        } else {
            (
                format!("{support}::serialize_enum(*self, s)"),
                format!("{support}::deserialize_enum(d)"),
            )
        };
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
                ser_call.clone(),
            ),
            (
                format!("impl {support}::SerializeValue for {name}"),
                format!("fn serialize_value{ser}"),
                ser_call.clone(),
            ),
            (
                format!("impl<'de> {rt}::serde::Deserialize<'de> for {name}"),
                format!("fn deserialize{de}"),
                de_call.clone(),
            ),
            (
                format!("impl<'de> {support}::DeserializeValue<'de> for {name}"),
                format!("fn deserialize_value{de}"),
                de_call.clone(),
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

/// A piece of an arm of `set_field`, for the writer.
enum Code {
    Line(String),
    /// `head {`
    Open(String),
    /// `}`
    Close,
    /// `pattern => value,`
    Arm(String, String),
}

/// A struct's `$Json.discriminator`, as the serde impls apply it.
pub(super) struct JsonPlan {
    /// The member naming the union's active member.
    tag: Option<String>,
    /// The member holding the active member's value (`valueName`).
    value_name: Option<String>,
}

impl Generator<'_> {
    /// The `/capnp/compat/json.capnp` annotations of the struct or group
    /// `node` that its serde impls follow, checked as the reference's
    /// codec checks them.
    fn json_plan(&self, node: &Node, c: &ValueContext<'_>) -> Result<JsonPlan, Error> {
        let unsupported = |f: &Field, what: &str| Error::Unsupported {
            what: format!("serde of {}.{}: {what}", node.display_name, f.name),
        };
        for f in &c.s.fields {
            if f.json.flatten.is_some() {
                return Err(unsupported(f, "$Json.flatten is not supported yet"));
            }
            let is_data = matches!(&f.kind, FieldKind::Slot { ty: Type::Data, .. });
            if f.json.data != JsonData::Array && !is_data {
                return Err(unsupported(
                    f,
                    "only Data can be marked for base64 or hex encoding",
                ));
            }
            if f.json.discriminator.is_some() && !matches!(f.kind, FieldKind::Group { .. }) {
                return Err(unsupported(f, "only unions can have a discriminator"));
            }
        }
        let discriminator = if c.s.is_group {
            match self.schema.nodes.get(&node.scope_id).map(|n| &n.kind) {
                Some(NodeKind::Struct(parent)) => parent
                    .fields
                    .iter()
                    .find(|f| matches!(f.kind, FieldKind::Group { type_id } if type_id == node.id))
                    .and_then(|f| f.json.discriminator.clone()),
                _ => None,
            }
        } else {
            node.json_discriminator.clone()
        };
        let (tag, value_name) = match discriminator {
            Some(d) if !c.members.is_empty() => (d.name, d.value_name),
            _ => (None, None),
        };
        if value_name.is_some() && tag.is_none() {
            return Err(Error::Unsupported {
                what: format!(
                    "serde of {}: a discriminator's valueName without its name",
                    node.display_name
                ),
            });
        }
        let mut keys: Vec<&str> =
            c.s.fields
                .iter()
                .filter(|f| f.discriminant.is_none() || value_name.is_none())
                .map(json_key)
                .collect();
        keys.extend(tag.as_deref());
        keys.extend(value_name.as_deref());
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Unsupported {
                what: format!(
                    "serde of {}: two members are named {:?} in JSON",
                    node.display_name, w[0]
                ),
            });
        }
        Ok(JsonPlan { tag, value_name })
    }
}

/// Field `f`'s JSON member name: its `$Json.name`, or its own.
fn json_key(f: &Field) -> &str {
    f.json.name.as_deref().unwrap_or(&f.name)
}

/// Whether field `f` is a pointer (an `Option` in the value).
fn is_pointer(g: &Generator<'_>, f: &Field) -> bool {
    match &f.kind {
        FieldKind::Group { .. } => false,
        FieldKind::Slot { ty, .. } => g.resolve(ty).is_pointer(),
    }
}
