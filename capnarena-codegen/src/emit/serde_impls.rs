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
//! change the reference's:
//! - `$Json.name` renames a field, group, union or enumerant.
//! - `$Json.discriminator` writes the union's tag (the member's name)
//!   under its `name` before the member's value (none for `Void`), that
//!   value under `valueName` if given. A union flattened with no `name`
//!   takes its own field's name for the tag; one that is not flattened
//!   has no tag then, and its value is written under `valueName` alone
//!   (which the reference cannot read back: it drops that value, and so
//!   do these impls).
//! - `$Json.flatten(prefix)` writes the members of a struct field or a
//!   group (a union too, tag included) into the enclosing object, their
//!   names prefixed; prefixes of nested flattenings add up. A null
//!   flattened struct field writes nothing and reads back null; a null
//!   flattened union member writes its struct's defaults.
//! - `$Json.base64` / `$Json.hex` write `Data` as one string.
//! - A field of type `Json.Value` (json.capnp's `Value`) is the JSON
//!   value it holds: that struct's impls are written apart
//!   (`serde_impls/json_value.rs`).
//!
//! Everything is expanded at generation time: a struct's impls name the
//! fields of what it flattens, so the JSON names and their meaning are
//! fixed (`StructFields::FIELDS`). A member whose meaning depends on a
//! union's tag (a `valueName` value, a member of a flattened union
//! member) may come before the tag: it is not `ready` until then, and
//! the runtime keeps its value and reads it after the object's other
//! keys, as the reference retries such members. Annotations the
//! reference refuses are generation errors naming the field: flatten of
//! a field that is not a struct, base64 or hex on a field that is not
//! `Data`, a discriminator on a field that is not a union, two members
//! with one JSON name (after flattening too, unless both come from
//! members of one union), and flattening cycles.

use std::collections::HashMap;

use super::Generator;
use super::owned::{Flavor, ValueContext};
use super::writer::Writer;
use crate::Error;
use crate::model::*;

mod de;
mod json_value;

/// JSON member names a struct may have after flattening, at most: a guard
/// against schemas whose flattenings multiply (the generated code holds
/// one match arm a name).
const MAX_JSON_NAMES: usize = 4096;

/// Levels of flattening (a struct flattened into one flattened into
/// ...) at most: a guard for the generator's stack.
const MAX_FLATTEN_DEPTH: usize = 64;

/// What a JSON member name means in a struct's object (the reference's
/// kinds of names).
#[derive(Clone, Copy)]
enum Kind {
    /// Field `.0` (an index into the struct's field list).
    Normal(usize),
    /// A member of flattened field `.0` (not a union member), named with
    /// a prefix `.1` bytes long.
    Flattened(usize, usize),
    /// The union's tag.
    Tag,
    /// A member of the flattened union member the tag names, named with
    /// a prefix `.0` bytes long (that of the first member having it).
    FromUnion(usize),
    /// The active union member's value (`valueName`).
    Value,
}

/// A struct or group as its members appear in a JSON object.
struct Flat<'a> {
    c: ValueContext<'a>,
    /// Its union's enum as named where the impls are (`WhichValue`,
    /// `super::foo::WhichRef`).
    which: String,
    tag: Option<String>,
    value_name: Option<String>,
    /// Its union's entry in `seen`, when the union has a tag.
    slot: Option<usize>,
    /// By field (index into the field list): the prefix and plan of a
    /// flattened field.
    flat: Vec<Option<(String, Flat<'a>)>>,
    /// The member names, in the order the reference registers them.
    names: Vec<(String, Kind)>,
    index: HashMap<String, usize>,
}

impl Flat<'_> {
    fn kind(&self, name: &str) -> Option<Kind> {
        self.index.get(name).map(|&i| self.names[i].1)
    }

    /// Whether reading member `name` waits for a union's tag.
    fn waits(&self, name: &str) -> bool {
        match self.kind(name) {
            Some(Kind::Value | Kind::FromUnion(_)) => true,
            Some(Kind::Flattened(i, len)) => match &self.flat[i] {
                Some((_, child)) => child.waits(&name[len..]),
                None => false,
            },
            _ => false,
        }
    }

    /// Whether any field is flattened.
    fn flattens(&self) -> bool {
        self.flat.iter().any(Option::is_some)
    }

    /// The variant name of union member `field` (an index).
    fn variant(&self, field: usize) -> Option<&str> {
        let f = &self.c.s.fields[field];
        self.c
            .members
            .iter()
            .find(|(m, _)| std::ptr::eq(*m, f))
            .map(|(_, v)| v.as_str())
    }

    fn field_index(&self, f: &Field) -> usize {
        self.c
            .s
            .fields
            .iter()
            .position(|g| std::ptr::eq(g, f))
            .unwrap_or(usize::MAX)
    }
}

/// Whether `code` names the variable `var` (not a longer name).
fn mentions(code: &str, var: &str) -> bool {
    code.match_indices(var).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + var.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

fn codes_mention(codes: &[Code], var: &str) -> bool {
    codes.iter().any(|c| match c {
        Code::Line(l) | Code::Open(l) | Code::CloseWith(l) => mentions(l, var),
        Code::Arm(p, v) => mentions(p, var) || mentions(v, var),
        Code::Close => false,
    })
}

impl<'g> Generator<'g> {
    /// `Serialize` (and `Deserialize` for the owned flavor) of the value
    /// described by `c`.
    pub(super) fn value_serde(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        if node.id == JSON_VALUE_ID {
            return self.json_value_serde(out, node, c);
        }
        let flat = self.top_flat(node, c)?;
        self.value_serialize(out, node, c, &flat)?;
        if c.flavor == Flavor::Owned {
            self.value_deserialize(out, node, c, &flat)?;
        }
        Ok(())
    }

    /// The plan of the struct or group `node` itself.
    fn top_flat<'s>(&'s self, node: &'s Node, c: &ValueContext<'s>) -> Result<Flat<'s>, Error> {
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
        let mut slots = 0;
        let mut names = 0;
        self.flat(
            node,
            c,
            String::new(),
            discriminator,
            None,
            &mut slots,
            &mut vec![node.id],
            &mut names,
        )
    }

    /// The plan of `node` (a struct or group flattened into the struct of
    /// `top`, or that struct itself), checked as the reference checks it:
    /// `which` is its union's enum, `decl` the name its tag takes by
    /// default (its field's, when a union is flattened).
    #[allow(clippy::too_many_arguments)]
    fn flat<'s>(
        &'s self,
        node: &'s Node,
        top: &ValueContext<'s>,
        which: String,
        discriminator: Option<JsonDiscriminator>,
        decl: Option<&str>,
        slots: &mut usize,
        making: &mut Vec<u64>,
        total: &mut usize,
    ) -> Result<Flat<'s>, Error> {
        let NodeKind::Struct(s) = &node.kind else {
            return Err(Error::Unsupported {
                what: format!(
                    "serde of {}: flattened, and not a struct",
                    node.display_name
                ),
            });
        };
        let mut c = self.value_context(node.id, s, top.file, top.depth);
        c.flavor = top.flavor;
        let which = format!("{which}{}", top.flavor.which().trim_end_matches("<'a>"));
        let unsupported = |f: &Field, what: &str| Error::Unsupported {
            what: format!("serde of {}.{}: {what}", node.display_name, f.name),
        };
        let (tag, value_name) = match discriminator {
            Some(d) if !c.members.is_empty() => (d.name.or(decl.map(str::to_string)), d.value_name),
            _ => (None, None),
        };
        let slot = tag.as_ref().map(|_| {
            *slots += 1;
            *slots - 1
        });
        let mut flat = Flat {
            c,
            which,
            tag: tag.clone(),
            value_name: value_name.clone(),
            slot,
            flat: Vec::new(),
            names: Vec::new(),
            index: HashMap::new(),
        };
        let twice = |name: &str| Error::Unsupported {
            what: format!(
                "serde of {}: two members are named {name:?} in JSON",
                node.display_name
            ),
        };
        let add = |flat: &mut Flat<'s>,
                   total: &mut usize,
                   name: String,
                   kind: Kind|
         -> Result<(), Error> {
            if flat.index.contains_key(&name) {
                return Err(twice(&name));
            }
            *total += 1;
            if *total > MAX_JSON_NAMES {
                return Err(Error::Unsupported {
                    what: format!(
                        "serde of {}: flattening gives over {MAX_JSON_NAMES} JSON member names",
                        node.display_name
                    ),
                });
            }
            flat.index.insert(name.clone(), flat.names.len());
            flat.names.push((name, kind));
            Ok(())
        };
        if let Some(t) = tag {
            add(&mut flat, total, t, Kind::Tag)?;
        }
        if let Some(v) = value_name.clone() {
            add(&mut flat, total, v, Kind::Value)?;
        }
        let mut tags: Vec<&str> = Vec::new();
        for (i, f) in s.fields.iter().enumerate() {
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
            let member = f.discriminant.is_some();
            let mut child = None;
            if let Some(prefix) = &f.json.flatten {
                let target = match &f.kind {
                    FieldKind::Group { type_id } => Some((*type_id, f.json.discriminator.clone())),
                    FieldKind::Slot { ty, .. } => match self.resolve(ty) {
                        Type::Struct(id, _) => Some((id, None)),
                        _ => None,
                    },
                };
                let Some((id, sub)) = target else {
                    return Err(unsupported(f, "only struct types can be flattened"));
                };
                if making.contains(&id) {
                    return Err(unsupported(f, "cyclic JSON flattening"));
                }
                if making.len() >= MAX_FLATTEN_DEPTH {
                    return Err(Error::Limit {
                        what: "levels of JSON flattening",
                        node: id,
                        found: making.len() as u64 + 1,
                        limit: MAX_FLATTEN_DEPTH as u64,
                    });
                }
                let target = self
                    .schema
                    .nodes
                    .get(&id)
                    .ok_or(Error::MissingNode { id })?;
                let sub = sub.or_else(|| target.json_discriminator.clone());
                let decl = matches!(f.kind, FieldKind::Group { .. }).then_some(f.name.as_str());
                let path = format!("{}::", self.path_to(id, top.file, top.depth)?);
                making.push(id);
                let plan = self.flat(target, top, path, sub, decl, slots, making, total)?;
                making.pop();
                for (n, _) in &plan.names {
                    let full = format!("{prefix}{n}");
                    let kind = if member {
                        Kind::FromUnion(prefix.len())
                    } else {
                        Kind::Flattened(i, prefix.len())
                    };
                    match flat.kind(&full) {
                        None => add(&mut flat, total, full, kind)?,
                        Some(Kind::FromUnion(_)) if member => {}
                        Some(_) => {
                            return Err(unsupported(
                                f,
                                &format!(
                                    "flattened members named {full:?} are not mutually exclusive"
                                ),
                            ));
                        }
                    }
                }
                child = Some((prefix.clone(), plan));
            } else if !(member && value_name.is_some()) {
                if flat.index.contains_key(json_key(f)) {
                    return Err(unsupported(
                        f,
                        &format!("two members are named {:?} in JSON", json_key(f)),
                    ));
                }
                add(&mut flat, total, json_key(f).to_string(), Kind::Normal(i))?;
            }
            if member {
                if tags.contains(&json_key(f)) {
                    return Err(unsupported(f, "two union members have this JSON name"));
                }
                tags.push(json_key(f));
            }
            flat.flat.push(child);
        }
        Ok(flat)
    }

    fn value_serialize(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
        flat: &Flat<'_>,
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
        // A tagged union's members, and flattened members, vary in
        // number: a map of no set length.
        let map = flat.tag.is_some() || flat.flattens();
        out.open_impl(&format!(
            "impl{ser_generics} {rt}::serde::Serialize for {ty}"
        ));
        out.open_fn(&format!(
            "fn serialize<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        let name = format!("{:?}", node.short_name());
        if plain.is_empty() && c.members.is_empty() {
            out.line(&format!(
                "{rt}::serde::ser::SerializeStruct::end(s.serialize_struct({name}, 0)?)"
            ));
        } else {
            if map {
                out.line(&format!("use {rt}::serde::ser::SerializeMap as _;"));
                out.assign(
                    "let mut m",
                    "s.serialize_map(::core::option::Option::None)?",
                    ";",
                );
            } else {
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
                out.line(&format!("use {rt}::serde::ser::SerializeStruct as _;"));
                out.assign("let len", &len.join(" + "), ";");
                out.assign(
                    "let mut m",
                    &format!("s.serialize_struct({name}, len)?"),
                    ";",
                );
            }
            self.serialize_members(out, flat, "self", "", 1, map, &support)?;
            out.line("m.end()");
        }
        out.close();
        out.close();
        self.serialize_value_by_serialize(out, &ser_generics, &ty);
        Ok(())
    }

    /// `SerializeValue` for `ty` (with `generics`), which writes what its
    /// `Serialize` impl writes: how a struct is written as a field or a
    /// list element.
    fn serialize_value_by_serialize(&self, out: &mut Writer, generics: &str, ty: &str) {
        let rt = &self.runtime;
        out.open_impl(&format!(
            "impl{generics} {rt}::typed::value::serde_support::SerializeValue for {ty}"
        ));
        out.open_fn(&format!(
            "fn serialize_value<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        out.line(&format!("{rt}::serde::Serialize::serialize(self, s)"));
        out.close();
        out.close();
    }

    /// Writes the members of `flat`'s value at `access` (a place), named
    /// with `prefix`; `depth` numbers the bindings of flattened values.
    #[allow(clippy::too_many_arguments)]
    fn serialize_members(
        &self,
        out: &mut Writer,
        flat: &Flat<'_>,
        access: &str,
        prefix: &str,
        depth: usize,
        map: bool,
        support: &str,
    ) -> Result<(), Error> {
        let entry = |key: &str, value: &str| match map {
            true => format!("m.serialize_entry({key:?}, {value})?"),
            false => format!("m.serialize_field({key:?}, {value})?"),
        };
        let c = &flat.c;
        for (i, f) in c.s.fields.iter().enumerate() {
            if f.discriminant.is_some() {
                continue;
            }
            let field = self.value_field(f);
            if let Some((more, child)) = &flat.flat[i] {
                let prefix = format!("{prefix}{more}");
                if matches!(f.kind, FieldKind::Group { .. }) {
                    let place = format!("{access}.{field}");
                    self.serialize_members(out, child, &place, &prefix, depth, map, support)?;
                } else {
                    let v = format!("v{depth}");
                    out.open_expression(&format!(
                        "if let ::core::option::Option::Some({v}) = &{access}.{field}"
                    ));
                    self.serialize_members(out, child, &v, &prefix, depth + 1, map, support)?;
                    out.close();
                }
                continue;
            }
            let key = format!("{prefix}{}", json_key(f));
            if is_pointer(self, f) {
                out.open_expression(&format!(
                    "if let ::core::option::Option::Some(v) = &{access}.{field}"
                ));
                let value = match f.json.data {
                    JsonData::Array => format!("&{support}::Ser(v)"),
                    JsonData::Base64 => format!("&{support}::Base64(v)"),
                    JsonData::Hex => format!("&{support}::Hex(v)"),
                };
                out.line(&format!("{};", entry(&key, &value)));
                out.close();
            } else {
                out.line(&format!(
                    "{};",
                    entry(&key, &format!("&{support}::Ser(&{access}.{field})"))
                ));
            }
        }
        if c.members.is_empty() {
            return Ok(());
        }
        out.open_expression(&format!("match &{access}.{}", c.union_field));
        for (f, variant) in &c.members {
            let i = flat.field_index(f);
            let void = self.field_value_ty(f, c)? == "()";
            let v = format!("v{depth}");
            let pattern = if void {
                format!("{}::{variant}", flat.which)
            } else {
                format!("{}::{variant}({v})", flat.which)
            };
            let mut lines = Vec::new();
            if let Some(tag) = &flat.tag {
                lines.push(entry(
                    &format!("{prefix}{tag}"),
                    &format!("{:?}", json_key(f)),
                ));
            }
            if let Some((more, child)) = flat.flat.get(i).and_then(Option::as_ref) {
                let prefix = format!("{prefix}{more}");
                out.open(&format!("{pattern} =>"));
                for line in &lines {
                    out.line(&format!("{line};"));
                }
                if matches!(f.kind, FieldKind::Group { .. }) {
                    self.serialize_members(out, child, &v, &prefix, depth + 1, map, support)?;
                } else {
                    // A null member is written as its struct's defaults.
                    let inner = format!("v{}", depth + 1);
                    let fallback = format!("default{depth}");
                    out.assign(
                        &format!("let {fallback}"),
                        "::core::default::Default::default()",
                        ";",
                    );
                    let unwrap = if self.pointer_boxed(f, c) {
                        "as_deref"
                    } else {
                        "as_ref"
                    };
                    out.assign(
                        &format!("let {inner}"),
                        &format!("{v}.{unwrap}().unwrap_or(&{fallback})"),
                        ";",
                    );
                    self.serialize_members(out, child, &inner, &prefix, depth + 2, map, support)?;
                }
                out.close();
                continue;
            }
            let key = format!(
                "{prefix}{}",
                flat.value_name.as_deref().unwrap_or(json_key(f))
            );
            if void {
                if flat.tag.is_none() {
                    lines.push(entry(&key, "&()"));
                }
            } else if is_pointer(self, f) {
                lines.push(entry(
                    &key,
                    &match f.json.data {
                        JsonData::Array => format!("&{support}::OrDefault({v})"),
                        JsonData::Base64 => {
                            format!("&{support}::Base64({v}.as_deref().unwrap_or_default())")
                        }
                        JsonData::Hex => {
                            format!("&{support}::Hex({v}.as_deref().unwrap_or_default())")
                        }
                    },
                ));
            } else {
                lines.push(entry(&key, &format!("&{support}::Ser({v})")));
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
        Ok(())
    }

    /// Whether struct field `f` of `c`'s struct holds its value boxed.
    fn pointer_boxed(&self, f: &Field, c: &ValueContext<'_>) -> bool {
        match &f.kind {
            FieldKind::Slot { ty, .. } => {
                let ty = self.resolve(ty);
                matches!(ty, Type::Struct(..)) && self.struct_field_boxed(c.id, &ty)
            }
            FieldKind::Group { .. } => false,
        }
    }

    /// A field's value read from `d`.
    fn read_value(&self, f: &Field, support: &str) -> String {
        match f.json.data {
            JsonData::Array => format!("{support}::next(d)?"),
            JsonData::Base64 => format!(
                "::core::option::Option::Some({support}::next_bytes(d, {support}::BytesForm::Base64)?)"
            ),
            JsonData::Hex => format!(
                "::core::option::Option::Some({support}::next_bytes(d, {support}::BytesForm::Hex)?)"
            ),
        }
    }
}

impl Generator<'_> {
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

/// A piece of generated code, for the writer.
#[derive(Clone)]
enum Code {
    Line(String),
    /// `head {`
    Open(String),
    /// `}`
    Close,
    /// `}` and a tail (`;`)
    CloseWith(String),
    /// `pattern => value,`
    Arm(String, String),
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

/// `capnp/compat/json.capnp`'s `Value`: the reference's codec writes one
/// as the JSON value it describes, not as a struct
/// (`serde_impls/json_value.rs`).
const JSON_VALUE_ID: u64 = 0xa3fa_7845_f919_dd83;
