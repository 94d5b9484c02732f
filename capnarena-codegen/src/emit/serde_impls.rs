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
            if let FieldKind::Slot { ty, .. } = &f.kind {
                if names_json_value(&self.resolve(ty)) {
                    return Err(unsupported(
                        f,
                        "a Json.Value (which the reference writes as the JSON it holds) is not supported yet",
                    ));
                }
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

    /// The code reading member `name` of `flat` (at `access`, a place)
    /// from `d`; `key` is the member's whole JSON name.
    #[allow(clippy::too_many_arguments)]
    fn set_code(
        &self,
        flat: &Flat<'_>,
        name: &str,
        key: &str,
        access: &str,
        depth: usize,
        support: &str,
        code: &mut Vec<Code>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let error = |message: String| {
            format!(
                "return ::core::result::Result::Err(<D::Error as {rt}::serde::de::Error>::custom({message:?}))"
            )
        };
        let c = &flat.c;
        let union = format!("{access}.{}", c.union_field);
        let Some(kind) = flat.kind(name) else {
            code.push(Code::Line(format!("{support}::skip(d)?;")));
            return Ok(());
        };
        match kind {
            Kind::Normal(i) => {
                let f = &c.s.fields[i];
                let value = self.read_value(f, support);
                match flat.variant(i) {
                    Some(variant) if self.field_value_ty(f, c)? == "()" => {
                        code.push(Code::Line(format!("let () = {support}::next(d)?;")));
                        code.push(Code::Line(format!("{union} = {}::{variant};", flat.which)));
                    }
                    Some(variant) => code.push(Code::Line(format!(
                        "{union} = {}::{variant}({value});",
                        flat.which
                    ))),
                    None => code.push(Code::Line(format!(
                        "{access}.{} = {value};",
                        self.value_field(f)
                    ))),
                }
            }
            Kind::Flattened(i, len) => {
                let f = &c.s.fields[i];
                let Some((_, child)) = &flat.flat[i] else {
                    return Ok(());
                };
                let place = format!("{access}.{}", self.value_field(f));
                if matches!(f.kind, FieldKind::Group { .. }) {
                    self.set_code(child, &name[len..], key, &place, depth, support, code)?;
                } else {
                    let v = format!("v{depth}");
                    code.push(Code::Line(format!(
                        "let {v} = {place}.get_or_insert_with(::core::default::Default::default);"
                    )));
                    self.set_code(child, &name[len..], key, &v, depth + 1, support, code)?;
                }
            }
            Kind::Tag => {
                let tags: Vec<String> = c
                    .members
                    .iter()
                    .map(|(f, _)| format!("{:?}", json_key(f)))
                    .collect();
                code.push(Code::Open(format!(
                    "if let ::core::option::Option::Some(k) = {support}::next_tag(d, &[{}])?",
                    tags.join(", ")
                )));
                code.push(Code::Open(format!(
                    "if !{support}::first_tag(seen, {})",
                    flat.slot.unwrap_or(0)
                )));
                code.push(Code::Line(format!(
                    "{};",
                    error(format!("the union's tag {key:?} is given twice"))
                )));
                code.push(Code::Close);
                // As the reference, the tag activates its member afresh.
                code.push(Code::Open(format!("{union} = match k")));
                let last = c.members.len() - 1;
                for (k, (f, variant)) in c.members.iter().enumerate() {
                    let pattern = if k == last {
                        "_".to_string()
                    } else {
                        k.to_string()
                    };
                    let fresh = if self.field_value_ty(f, c)? == "()" {
                        format!("{}::{variant}", flat.which)
                    } else {
                        format!(
                            "{}::{variant}(::core::default::Default::default())",
                            flat.which
                        )
                    };
                    code.push(Code::Arm(pattern, fresh));
                }
                code.push(Code::CloseWith(";".into()));
                code.push(Code::Close);
            }
            Kind::FromUnion(len) => {
                let suffix = &name[len..];
                let v = format!("v{depth}");
                code.push(Code::Open(format!("match &mut {union}")));
                for (f, variant) in &c.members {
                    let i = flat.field_index(f);
                    let void = self.field_value_ty(f, c)? == "()";
                    let bare = if void {
                        format!("{}::{variant}", flat.which)
                    } else {
                        format!("{}::{variant}(..)", flat.which)
                    };
                    match flat.flat.get(i).and_then(Option::as_ref) {
                        Some((_, child)) if child.kind(suffix).is_some() => {
                            code.push(Code::Open(format!("{}::{variant}({v}) =>", flat.which)));
                            if matches!(f.kind, FieldKind::Group { .. }) {
                                self.set_code(child, suffix, key, &v, depth + 1, support, code)?;
                            } else {
                                let inner = format!("v{}", depth + 1);
                                code.push(Code::Line(format!(
                                    "let {inner} = {v}.get_or_insert_with(::core::default::Default::default);"
                                )));
                                self.set_code(
                                    child,
                                    suffix,
                                    key,
                                    &inner,
                                    depth + 2,
                                    support,
                                    code,
                                )?;
                            }
                            code.push(Code::Close);
                        }
                        Some(_) => code.push(Code::Arm(bare, format!("{support}::skip(d)?"))),
                        None => code.push(Code::Arm(
                            bare,
                            error(format!(
                                "{key:?} is a member of a flattened union member, and the active member {:?} is not flattened",
                                f.name
                            )),
                        )),
                    }
                }
                code.push(Code::Close);
            }
            Kind::Value => {
                let v = format!("v{depth}");
                code.push(Code::Open(format!("match &mut {union}")));
                for (f, variant) in &c.members {
                    if self.field_value_ty(f, c)? == "()" {
                        code.push(Code::Arm(
                            format!("{}::{variant}", flat.which),
                            format!("{support}::skip(d)?"),
                        ));
                    } else {
                        code.push(Code::Arm(
                            format!("{}::{variant}({v})", flat.which),
                            format!("*{v} = {}", self.read_value(f, support)),
                        ));
                    }
                }
                code.push(Code::Close);
            }
        }
        Ok(())
    }

    /// The code of `ready` for member `name` of `flat` (at `access`):
    /// statements returning `false` while a tag it needs has not come, or
    /// `None` when it can never be read (its union has no tag).
    fn ready_code(
        &self,
        flat: &Flat<'_>,
        name: &str,
        access: &str,
        depth: usize,
        support: &str,
    ) -> Result<Option<Vec<Code>>, Error> {
        let c = &flat.c;
        let union = format!("{access}.{}", c.union_field);
        let mut code = Vec::new();
        match flat.kind(name) {
            None | Some(Kind::Normal(_) | Kind::Tag) => {}
            Some(Kind::Flattened(i, len)) => {
                let f = &c.s.fields[i];
                let Some((_, child)) = &flat.flat[i] else {
                    return Ok(Some(code));
                };
                let place = format!("{access}.{}", self.value_field(f));
                if matches!(f.kind, FieldKind::Group { .. }) {
                    return self.ready_code(child, &name[len..], &place, depth, support);
                }
                let v = format!("v{depth}");
                let Some(inner) = self.ready_code(child, &name[len..], &v, depth + 1, support)?
                else {
                    return Ok(None);
                };
                if inner.is_empty() {
                    return Ok(Some(code));
                }
                // A null struct has had no tag.
                if codes_mention(&inner, &v) {
                    code.push(Code::Open(format!(
                        "let ::core::option::Option::Some({v}) = &{place} else"
                    )));
                    code.push(Code::Line("return false;".into()));
                    code.push(Code::CloseWith(";".into()));
                } else {
                    code.push(Code::Open(format!("if {place}.is_none()")));
                    code.push(Code::Line("return false;".into()));
                    code.push(Code::Close);
                }
                code.extend(inner);
            }
            Some(Kind::Value) => {
                let Some(slot) = flat.slot else {
                    return Ok(None);
                };
                code.push(Code::Open(format!("if !{support}::tag_seen(seen, {slot})")));
                code.push(Code::Line("return false;".into()));
                code.push(Code::Close);
            }
            Some(Kind::FromUnion(len)) => {
                let Some(slot) = flat.slot else {
                    return Ok(None);
                };
                code.push(Code::Open(format!("if !{support}::tag_seen(seen, {slot})")));
                code.push(Code::Line("return false;".into()));
                code.push(Code::Close);
                let suffix = &name[len..];
                let v = format!("v{depth}");
                for (f, variant) in &c.members {
                    let i = flat.field_index(f);
                    let Some((_, child)) = flat.flat.get(i).and_then(Option::as_ref) else {
                        continue;
                    };
                    if !child.waits(suffix) {
                        continue;
                    }
                    let group = matches!(f.kind, FieldKind::Group { .. });
                    let inner_var = if group {
                        v.clone()
                    } else {
                        format!("v{}", depth + 1)
                    };
                    let inner = self.ready_code(child, suffix, &inner_var, depth + 2, support)?;
                    let mut body = Vec::new();
                    let uses = match &inner {
                        None => {
                            body.push(Code::Line("return false;".into()));
                            false
                        }
                        Some(lines) if group => {
                            body.extend(lines.iter().cloned());
                            codes_mention(lines, &v)
                        }
                        Some(lines) => {
                            let mut inner_body = Vec::new();
                            if codes_mention(lines, &inner_var) {
                                inner_body.push(Code::Open(format!(
                                    "let ::core::option::Option::Some({inner_var}) = {v} else"
                                )));
                                inner_body.push(Code::Line("return false;".into()));
                                inner_body.push(Code::CloseWith(";".into()));
                            } else {
                                inner_body.push(Code::Open(format!("if {v}.is_none()")));
                                inner_body.push(Code::Line("return false;".into()));
                                inner_body.push(Code::Close);
                            }
                            inner_body.extend(lines.iter().cloned());
                            body.extend(inner_body);
                            true
                        }
                    };
                    let pattern = if uses {
                        format!("{}::{variant}({v})", flat.which)
                    } else {
                        format!("{}::{variant}(..)", flat.which)
                    };
                    code.push(Code::Open(format!("if let {pattern} = &{union}")));
                    code.extend(body);
                    code.push(Code::Close);
                }
            }
        }
        Ok(Some(code))
    }

    fn value_deserialize(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
        flat: &Flat<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let mut slots = 0;
        count_slots(flat, &mut slots);
        let names: Vec<String> = flat.names.iter().map(|(k, _)| format!("{k:?}")).collect();
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
        if slots > 0 {
            out.line(&format!("const UNIONS: usize = {slots};"));
        }
        // `ready` of the members that wait for a tag.
        let mut ready = Vec::new();
        for (i, (name, _)) in flat.names.iter().enumerate() {
            if flat.waits(name) {
                match self.ready_code(flat, name, "self", 1, &support)? {
                    None => ready.push((i, vec![Code::Line("false".into())])),
                    Some(mut lines) => {
                        lines.push(Code::Line("true".into()));
                        ready.push((i, lines));
                    }
                }
            }
        }
        if !ready.is_empty() {
            let seen = if ready.iter().any(|(_, lines)| codes_mention(lines, "seen")) {
                "seen"
            } else {
                "_seen"
            };
            let never = ready
                .iter()
                .all(|(_, lines)| matches!(lines.as_slice(), [Code::Line(l)] if l == "false"));
            if never {
                // Only members that can never be read (their union has no
                // tag): `matches!`, as clippy has it.
                let mut runs: Vec<(usize, usize)> = Vec::new();
                for (i, _) in &ready {
                    match runs.last_mut() {
                        Some((_, end)) if *end + 1 == *i => *end = *i,
                        _ => runs.push((*i, *i)),
                    }
                }
                let indexes: Vec<String> = runs
                    .iter()
                    .map(|&(a, b)| match a == b {
                        true => a.to_string(),
                        false => format!("{a}..={b}"),
                    })
                    .collect();
                out.open_fn("fn ready(&self, _seen: &[bool], index: usize) -> bool");
                out.line(&format!(
                    "!::core::matches!(index, {})",
                    indexes.join(" | ")
                ));
            } else {
                out.open_fn(&format!(
                    "fn ready(&self, {seen}: &[bool], index: usize) -> bool"
                ));
                out.open_expression("match index");
                for (i, lines) in &ready {
                    write_arm(out, &i.to_string(), lines);
                }
                out.arm("_", "true");
                out.close();
            }
            out.close();
        }
        let mut arms = Vec::new();
        for (name, _) in &flat.names {
            let mut code = Vec::new();
            self.set_code(flat, name, name, "self", 1, &support, &mut code)?;
            arms.push(code);
        }
        let uses_seen = arms.iter().any(|a| codes_mention(a, "seen"));
        let signature = |index: &str| {
            let seen = if uses_seen { "seen" } else { "_seen" };
            format!(
                "fn set_field<'de, D: {rt}::serde::Deserializer<'de>>(&mut self, {seen}: &mut [bool], {index}: usize, d: D) -> ::core::result::Result<(), D::Error>"
            )
        };
        if arms.is_empty() {
            out.open_fn(&signature("_index"));
            out.line(&format!("{support}::skip(d)"));
        } else {
            out.open_fn(&signature("index"));
            out.open_expression("match index");
            for (i, lines) in arms.iter().enumerate() {
                write_arm(out, &i.to_string(), lines);
            }
            out.arm("_", &format!("{support}::skip(d)?"));
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
}

/// The unions with a tag in `flat` and what it flattens.
fn count_slots(flat: &Flat<'_>, slots: &mut usize) {
    if flat.slot.is_some() {
        *slots += 1;
    }
    for (_, child) in flat.flat.iter().flatten() {
        count_slots(child, slots);
    }
}

/// Writes `pattern => { code }` (or on one line, when it is one line).
fn write_arm(out: &mut Writer, pattern: &str, code: &[Code]) {
    if let [Code::Line(line)] = code {
        out.arm(pattern, line.trim_end_matches(';'));
        return;
    }
    out.open(&format!("{pattern} =>"));
    for line in code {
        match line {
            Code::Line(l) => out.line(l),
            Code::Open(h) => out.open_expression(h),
            Code::Close => out.close(),
            Code::CloseWith(t) => out.close_with(t),
            Code::Arm(p, v) => out.arm(p, v),
        }
    }
    out.close();
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
/// as the JSON value it describes, not as a struct.
const JSON_VALUE_ID: u64 = 0xa3fa_7845_f919_dd83;

/// Whether `ty` is a `Json.Value`, or a list of them at any depth.
fn names_json_value(ty: &Type) -> bool {
    match ty {
        Type::Struct(id, _) => *id == JSON_VALUE_ID,
        Type::List(e) => names_json_value(e),
        _ => false,
    }
}
