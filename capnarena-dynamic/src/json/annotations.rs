//! The `/capnp/compat/json.capnp` annotations, read into a plan of how
//! each struct and enum reachable from the root type is written and read.
//!
//! The plan follows the reference codec's rules (what `capnp convert`
//! applies since it registers its handlers by annotation):
//! - `$name("x")` on a field, group, union or enumerant: the JSON name.
//! - `$flatten(prefix = "p_")` on a struct field or group: its members
//!   become members of the parent object, named with the prefix.
//! - `$discriminator(name = "tag", valueName = "v")` on a struct (for its
//!   unnamed union) or on a union field: the active member is named by a
//!   string member `tag` (by default the union's name, when the union is
//!   flattened), and its value goes under `v` (by default its own name;
//!   a `Void` member writes no value).
//! - `$base64` / `$hex` on a `Data` field: the bytes as one string.
//!
//! A member of a discriminated union may be flattened; its members are
//! then read once the tag is known (in any order in the object).
//! Annotations that the reference refuses are refused here too: flatten
//! on a field that is not a struct, discriminator on a field that is not
//! a group, base64/hex on a field that is not `Data`, flattening cycles,
//! and two members with the same JSON name (unless both come from
//! flattened members of one union).

use std::collections::HashMap;
use std::sync::Arc;

use super::error::{Context, JsonError, JsonResult};
use crate::nodes::EnumSchema;
use crate::structs::{Field, StructSchema};
use crate::types::Type;
use crate::value::DynamicValue;

/// `json.name`.
pub const NAME: u64 = 0xfa5b1fd61c2e7c3d;
/// `json.flatten`.
pub const FLATTEN: u64 = 0x82d3e852af0336bf;
/// `json.discriminator`.
pub const DISCRIMINATOR: u64 = 0xcfa794e8d19a0162;
/// `json.base64`.
pub const BASE64: u64 = 0xd7d879450a253e4b;
/// `json.hex`.
pub const HEX: u64 = 0xf061e22f0ae5c7b5;

/// `json.Value`: a struct that holds a JSON value, written as that value.
pub const JSON_VALUE: u64 = 0xa3fa7845f919dd83;

/// How a `Data` field's bytes are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DataForm {
    /// An array of numbers 0-255.
    Array,
    /// One base64 string (`$base64`).
    Base64,
    /// One hex string (`$hex`).
    Hex,
}

/// A field's plan.
#[derive(Debug)]
pub(crate) struct FieldPlan {
    /// The name its value is written under.
    pub name: String,
    /// The name the union tag gives it (its `$name`, or its own).
    pub tag: String,
    /// Flattened: the prefix and the plan of its struct or group.
    pub flatten: Option<(String, u64)>,
    pub data: DataForm,
}

/// What a JSON member name means in a struct's object.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NameKind {
    /// The field of this index.
    Normal(u32),
    /// A member of the flattened (non-union) field of this index, named
    /// with a prefix this long.
    Flattened(u32, usize),
    /// The union's tag.
    UnionTag,
    /// A member of a flattened union member (the tag says which), named
    /// with a prefix this long.
    FlattenedFromUnion(usize),
    /// The value of the active union member (`valueName`).
    UnionValue,
}

/// A struct's (or group's) plan.
#[derive(Debug)]
pub(crate) struct StructPlan {
    pub display_name: String,
    /// By field index.
    pub fields: Vec<FieldPlan>,
    pub by_name: HashMap<String, NameKind>,
    /// The union member each tag names (field index).
    pub tags: HashMap<String, u32>,
    /// The name of the union's tag member, when it has one.
    pub tag_name: Option<String>,
}

/// An enum's plan: each enumerant's JSON name, and back.
#[derive(Debug)]
pub(crate) struct EnumPlan {
    pub display_name: String,
    pub names: Vec<String>,
    pub by_name: HashMap<String, u16>,
}

/// The plans of every struct and enum reachable from a root type.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub structs: HashMap<u64, Arc<StructPlan>>,
    pub enums: HashMap<u64, Arc<EnumPlan>>,
}

/// Discriminator options: name and valueName, when set.
#[derive(Clone, Debug, Default)]
struct Discriminator {
    name: Option<String>,
    value_name: Option<String>,
}

fn annotation_error(node: impl Into<String>, message: impl Into<String>) -> JsonError {
    JsonError::Annotation {
        node: node.into(),
        message: message.into(),
    }
}

fn field_node(field: &Field<'_>) -> String {
    format!("{}.{}", field.parent().display_name(), field.name())
}

/// A `Text` annotation value.
fn text_value(v: DynamicValue<'_>, node: &str) -> JsonResult<String> {
    match v {
        DynamicValue::Text(t) => Ok(t.to_string()),
        other => Err(annotation_error(
            node,
            format!("expected a Text annotation value, found {}", other.kind()),
        )),
    }
}

/// `DiscriminatorOptions` from an annotation value.
fn discriminator_value(v: DynamicValue<'_>, node: &str) -> JsonResult<Discriminator> {
    let DynamicValue::Struct(s) = v else {
        return Err(annotation_error(
            node,
            "discriminator options are not a struct",
        ));
    };
    let get = |name: &str| -> JsonResult<Option<String>> {
        if !s.has_by_name(name).ctx(|| node.to_string())? {
            return Ok(None);
        }
        let v = s.get_by_name(name).ctx(|| node.to_string())?;
        text_value(v, node).map(Some)
    };
    Ok(Discriminator {
        name: get("name")?,
        value_name: get("valueName")?,
    })
}

/// The plan builder: plans are made once per node (the first context
/// wins, as the reference caches its handlers by type).
struct Builder<'s> {
    plan: Plan,
    /// Structs whose plan is being made (a flattening cycle if met again).
    making: Vec<u64>,
    /// Types met in fields, to plan after.
    pending: Vec<Pending<'s>>,
}

enum Pending<'s> {
    Struct(StructSchema<'s>),
    Enum(EnumSchema<'s>),
}

/// The plan of `root` and of every struct and enum its fields reach.
pub(crate) fn plan_for(root: &StructSchema<'_>) -> JsonResult<Plan> {
    let mut b = Builder {
        plan: Plan::default(),
        making: Vec::new(),
        pending: vec![Pending::Struct(root.clone())],
    };
    while let Some(next) = b.pending.pop() {
        match next {
            Pending::Struct(s) => {
                if s.id() != JSON_VALUE && !b.plan.structs.contains_key(&s.id()) {
                    b.load_struct(&s, None, None)?;
                }
            }
            Pending::Enum(e) => {
                if let std::collections::hash_map::Entry::Vacant(slot) = b.plan.enums.entry(e.id())
                {
                    slot.insert(Arc::new(enum_plan(&e)?));
                }
            }
        }
    }
    Ok(b.plan)
}

fn enum_plan(e: &EnumSchema<'_>) -> JsonResult<EnumPlan> {
    let mut names = Vec::new();
    let mut by_name = HashMap::new();
    for en in e.enumerants() {
        let node = format!("{}.{}", e.display_name(), en.name());
        let mut name = en.name().to_string();
        for a in en.annotations().iter() {
            if a.id() == NAME {
                name = text_value(a.value().ctx(|| node.clone())?, &node)?;
            }
        }
        if by_name.insert(name.clone(), en.value()).is_some() {
            return Err(annotation_error(
                node,
                format!("two enumerants are named {name:?} in JSON"),
            ));
        }
        names.push(name);
    }
    Ok(EnumPlan {
        display_name: e.display_name().to_string(),
        names,
        by_name,
    })
}

impl<'s> Builder<'s> {
    fn load_struct(
        &mut self,
        schema: &StructSchema<'s>,
        discriminator: Option<Discriminator>,
        union_decl_name: Option<&str>,
    ) -> JsonResult<u64> {
        let id = schema.id();
        if self.plan.structs.contains_key(&id) {
            return Ok(id);
        }
        if self.making.contains(&id) {
            return Err(annotation_error(
                schema.display_name(),
                "cyclic JSON flattening",
            ));
        }
        self.making.push(id);
        let plan = self.make_struct(schema, discriminator, union_decl_name)?;
        self.making.pop();
        self.plan.structs.insert(id, Arc::new(plan));
        Ok(id)
    }

    fn make_struct(
        &mut self,
        schema: &StructSchema<'s>,
        mut discriminator: Option<Discriminator>,
        union_decl_name: Option<&str>,
    ) -> JsonResult<StructPlan> {
        let display = schema.display_name();
        if discriminator.is_none() {
            for a in schema.annotations().iter() {
                if a.id() == DISCRIMINATOR {
                    let v = a.value().ctx(|| display.to_string())?;
                    discriminator = Some(discriminator_value(v, display)?);
                }
            }
        }
        let mut by_name: HashMap<String, NameKind> = HashMap::new();
        let mut tags: HashMap<String, u32> = HashMap::new();
        let mut tag_name = None;
        let insert = |by_name: &mut HashMap<String, NameKind>,
                      name: String,
                      kind: NameKind,
                      node: &str|
         -> JsonResult<()> {
            if by_name.insert(name.clone(), kind).is_some() {
                return Err(annotation_error(
                    node,
                    format!("two members are named {name:?} in JSON"),
                ));
            }
            Ok(())
        };
        if let Some(d) = &discriminator {
            tag_name = d
                .name
                .clone()
                .or_else(|| union_decl_name.map(str::to_string));
            if let Some(t) = &tag_name {
                insert(&mut by_name, t.clone(), NameKind::UnionTag, display)?;
            }
            if let Some(v) = &d.value_name {
                insert(&mut by_name, v.clone(), NameKind::UnionValue, display)?;
            }
        }
        let mut fields = Vec::new();
        let all: Vec<Field<'s>> = schema.fields().collect();
        for field in &all {
            let node = field_node(field);
            let mut ty = field.ty().ctx(|| node.clone())?;
            let mut name = field.name().to_string();
            let mut prefix = None;
            let mut sub_discriminator = None;
            let mut data = DataForm::Array;
            for a in field.annotations().iter() {
                match a.id() {
                    NAME => name = text_value(a.value().ctx(|| node.clone())?, &node)?,
                    FLATTEN => {
                        if !matches!(ty, Type::Struct(_)) && !field.is_group() {
                            return Err(annotation_error(
                                node,
                                "only struct types can be flattened",
                            ));
                        }
                        let DynamicValue::Struct(opts) = a.value().ctx(|| node.clone())? else {
                            return Err(annotation_error(node, "flatten options are not a struct"));
                        };
                        let p = opts.get_by_name("prefix").ctx(|| node.clone())?;
                        prefix = Some(text_value(p, &node)?);
                    }
                    DISCRIMINATOR => {
                        if !field.is_group() {
                            return Err(annotation_error(
                                node,
                                "only unions can have a discriminator",
                            ));
                        }
                        let v = a.value().ctx(|| node.clone())?;
                        sub_discriminator = Some(discriminator_value(v, &node)?);
                    }
                    BASE64 | HEX => {
                        if !matches!(ty, Type::Data) {
                            return Err(annotation_error(
                                node,
                                "only Data can be marked for base64 or hex encoding",
                            ));
                        }
                        data = if a.id() == BASE64 {
                            DataForm::Base64
                        } else {
                            DataForm::Hex
                        };
                    }
                    _ => {}
                }
            }
            let mut flatten = None;
            if field.is_group() {
                let group = field.group().ctx(|| node.clone())?;
                let decl = prefix.as_ref().map(|_| field.name());
                let child = self.load_struct(&group, sub_discriminator, decl)?;
                if let Some(p) = &prefix {
                    flatten = Some((p.clone(), child));
                }
            } else if let (Some(p), Type::Struct(st)) = (&prefix, &ty) {
                let s = schema.schema().struct_of(st).ctx(|| node.clone())?;
                let child = self.load_struct(&s, None, None)?;
                flatten = Some((p.clone(), child));
            }
            let is_member = field.discriminant().is_some();
            if let Some((p, child)) = &flatten {
                let child_plan = self.plan.structs[child].clone();
                let mut names: Vec<&String> = child_plan.by_name.keys().collect();
                names.sort();
                for n in names {
                    let full = format!("{p}{n}");
                    let kind = if is_member {
                        NameKind::FlattenedFromUnion(p.len())
                    } else {
                        NameKind::Flattened(field.index(), p.len())
                    };
                    match by_name.get(&full) {
                        None => {
                            by_name.insert(full, kind);
                        }
                        Some(NameKind::FlattenedFromUnion(_))
                            if matches!(kind, NameKind::FlattenedFromUnion(_)) => {}
                        Some(_) => {
                            return Err(annotation_error(
                                node,
                                format!(
                                    "flattened members named {full:?} are not mutually exclusive"
                                ),
                            ));
                        }
                    }
                }
            }
            let tag = name.clone();
            if flatten.is_none() {
                let value_name = if is_member {
                    discriminator.as_ref().and_then(|d| d.value_name.clone())
                } else {
                    None
                };
                match value_name {
                    Some(v) => name = v,
                    None => insert(
                        &mut by_name,
                        name.clone(),
                        NameKind::Normal(field.index()),
                        &node,
                    )?,
                }
            }
            if is_member && tags.insert(tag.clone(), field.index()).is_some() {
                return Err(annotation_error(
                    node,
                    format!("two union members are tagged {tag:?}"),
                ));
            }
            // Types to plan after this struct: structs and enums, under
            // any number of lists.
            while let Type::List(e) = ty {
                ty = (*e).clone();
            }
            match &ty {
                Type::Struct(st) if !field.is_group() => {
                    let s = schema.schema().struct_of(st).ctx(|| node.clone())?;
                    self.pending.push(Pending::Struct(s));
                }
                Type::Enum(id) => {
                    let e = schema.schema().enum_schema(*id).ctx(|| node.clone())?;
                    self.pending.push(Pending::Enum(e));
                }
                _ => {}
            }
            fields.push(FieldPlan {
                name,
                tag,
                flatten,
                data,
            });
        }
        Ok(StructPlan {
            display_name: display.to_string(),
            fields,
            by_name,
            tags,
            tag_name,
        })
    }
}
