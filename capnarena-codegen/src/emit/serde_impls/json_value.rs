//! The serde impls of `capnp/compat/json.capnp`'s `Value`, which the
//! reference's JSON codec (`json.c++`: `JsonValueHandler`, `encodeRaw`)
//! writes as the JSON value it holds, not as a struct, wherever it is
//! (a field, a list element, a union member, the root), and reads from
//! any JSON value. The impls call the runtime's
//! `serde_support::{serialize_json_*, deserialize_json_value}`; its
//! `DeserializeValue::null_value` makes a `null` where a `Value` field
//! is read a `Value` holding null (as the reference reads it), not a
//! null pointer.

use super::*;

/// `Value.Field` and `Value.Call`'s fields as the impls name them, found
/// in the schema, which must be json.capnp's.
struct Parts<'s> {
    /// `Value`'s union members: null, boolean, number, string, array,
    /// object, call (variant names).
    variants: [&'s str; 7],
    /// `Value.Field`: its node, and its `name` and `value` fields (Rust
    /// names; `value` boxed or not).
    field: (u64, String, String, bool),
    /// `Value.Call`: its node, its `function` and `params` fields (Rust
    /// names), and whether `call` is boxed in `Value`.
    call: (u64, String, String, bool),
}

/// Where `Value` has not json.capnp's shape.
fn not_json_capnp(node: &Node, what: &str) -> Error {
    Error::Unsupported {
        what: format!(
            "serde of {} (capnp/compat/json.capnp's Value by its ID): {what}, which json.capnp's has not",
            node.display_name
        ),
    }
}

impl Generator<'_> {
    /// `Serialize` (and, owned, `Deserialize`) of `Json.Value`, as the
    /// JSON value it holds.
    pub(super) fn json_value_serde(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        let parts = self.json_value_parts(node, c)?;
        self.json_value_serialize(out, c, &parts)?;
        if c.flavor == Flavor::Owned {
            self.json_value_deserialize(out, c, &parts)?;
        }
        Ok(())
    }

    /// The fields of `Value`, `Value.Field` and `Value.Call`, checked
    /// against json.capnp's.
    fn json_value_parts<'s>(
        &self,
        node: &Node,
        c: &'s ValueContext<'s>,
    ) -> Result<Parts<'s>, Error> {
        if !c.plain.is_empty() || c.members.len() != 7 || !c.params.is_empty() {
            return Err(not_json_capnp(node, "fields besides its union's seven"));
        }
        let is_value = |ty: &Type| matches!(ty, Type::Struct(id, _) if *id == JSON_VALUE_ID);
        let slot = |f: &Field| match &f.kind {
            FieldKind::Slot { ty, .. } => Some(self.resolve(ty)),
            FieldKind::Group { .. } => None,
        };
        let mut variants = [""; 7];
        let (mut field_id, mut call_id, mut call_boxed) = (None, None, false);
        for (i, want) in [
            "null", "boolean", "number", "string", "array", "object", "call",
        ]
        .into_iter()
        .enumerate()
        {
            let Some((f, variant)) = c.members.iter().find(|(f, _)| f.name == want) else {
                return Err(not_json_capnp(node, &format!("no union member {want:?}")));
            };
            let ty = slot(f);
            let fits = match (want, &ty) {
                ("null", Some(Type::Void))
                | ("boolean", Some(Type::Bool))
                | ("number", Some(Type::Float64))
                | ("string", Some(Type::Text)) => true,
                ("array", Some(Type::List(e))) => is_value(e),
                ("object", Some(Type::List(e))) => match &**e {
                    Type::Struct(id, _) => {
                        field_id = Some(*id);
                        true
                    }
                    _ => false,
                },
                ("call", Some(t @ Type::Struct(id, _))) => {
                    call_id = Some(*id);
                    call_boxed = self.struct_field_boxed(c.id, t);
                    true
                }
                _ => false,
            };
            if !fits {
                return Err(not_json_capnp(
                    node,
                    &format!("member {want:?} of another type"),
                ));
            }
            variants[i] = variant;
        }
        let two_fields =
            |id: Option<u64>, names: [&str; 2]| -> Result<(u64, String, String, bool), Error> {
                let id = id.ok_or_else(|| not_json_capnp(node, "no Field or Call struct"))?;
                let s = match self.schema.nodes.get(&id).map(|n| &n.kind) {
                    Some(NodeKind::Struct(s)) => s,
                    _ => return Err(Error::MissingNode { id }),
                };
                let [first, second] = names;
                match s.fields.as_slice() {
                    [a, b]
                        if a.name == first
                            && b.name == second
                            && a.discriminant.is_none()
                            && b.discriminant.is_none()
                            && matches!(slot(a), Some(Type::Text)) =>
                    {
                        let boxed = match slot(b) {
                            Some(t) if is_value(&t) => self.struct_field_boxed(id, &t),
                            Some(Type::List(e)) if is_value(&e) => false,
                            _ => {
                                return Err(not_json_capnp(
                                    node,
                                    &format!("a {second:?} of another type"),
                                ));
                            }
                        };
                        Ok((id, self.value_field(a), self.value_field(b), boxed))
                    }
                    _ => Err(not_json_capnp(
                        node,
                        &format!("a struct not of {first:?} and {second:?}"),
                    )),
                }
            };
        let field = two_fields(field_id, ["name", "value"])?;
        let (id, function, params, _) = two_fields(call_id, ["function", "params"])?;
        Ok(Parts {
            variants,
            field,
            call: (id, function, params, call_boxed),
        })
    }

    fn json_value_serialize(
        &self,
        out: &mut Writer,
        c: &ValueContext<'_>,
        parts: &Parts<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let ty = c.self_ty();
        let generics = c.impl_generics(&[], "");
        let which = c.flavor.which().trim_end_matches("<'a>");
        let [null, boolean, number, string, array, object, call] = parts.variants;
        let (_, name, value, _) = &parts.field;
        let (call_id, function, params, call_boxed) = &parts.call;
        let call_ty = match c.flavor {
            Flavor::Owned => "Value",
            Flavor::Borrowed => "ValueRef<'_>",
        };
        let call_path = format!("{}::{call_ty}", self.path_to(*call_id, c.file, c.depth)?);
        let unwrap = if *call_boxed { "as_deref" } else { "as_ref" };
        // Text as `&str`: owned text derefs to it, borrowed text is it.
        let text = match c.flavor {
            Flavor::Owned => ".as_deref()",
            Flavor::Borrowed => "",
        };
        out.open_impl(&format!("impl{generics} {rt}::serde::Serialize for {ty}"));
        out.docs("The JSON value held, as the reference writes it.");
        out.open_fn(&format!(
            "fn serialize<S: {rt}::serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error>"
        ));
        out.open_expression(&format!("match &self.{}", c.union_field));
        out.arm(&format!("{which}::{null}"), "s.serialize_unit()");
        out.arm(&format!("{which}::{boolean}(v)"), "s.serialize_bool(*v)");
        out.arm(
            &format!("{which}::{number}(v)"),
            &format!("{support}::serialize_json_number(*v, s)"),
        );
        out.arm(
            &format!("{which}::{string}(v)"),
            "s.serialize_str(v.as_deref().unwrap_or_default())",
        );
        out.arm(
            &format!("{which}::{array}(v)"),
            &format!("{support}::serialize_json_array(v.as_deref().unwrap_or_default(), s)"),
        );
        out.open(&format!("{which}::{object}(v) =>"));
        out.assign(
            "let members",
            &format!(
                "v.as_deref().unwrap_or_default().iter().map(|m| (m.{name}{text}.unwrap_or_default(), &m.{value}))"
            ),
            ";",
        );
        out.line(&format!("{support}::serialize_json_object(members, s)"));
        out.close();
        // A null call is written as the default one, `()`.
        out.open(&format!("{which}::{call}(v) =>"));
        out.assign(
            &format!("let fallback: {call_path}"),
            "::core::default::Default::default()",
            ";",
        );
        out.assign(
            "let call",
            &format!("v.{unwrap}().unwrap_or(&fallback)"),
            ";",
        );
        out.line(&format!(
            "{support}::serialize_json_call(call.{function}{text}.unwrap_or_default(), call.{params}.as_deref().unwrap_or_default(), s)"
        ));
        out.close();
        out.close();
        out.close();
        out.close();
        self.serialize_value_by_serialize(out, &generics, &ty);
        Ok(())
    }

    fn json_value_deserialize(
        &self,
        out: &mut Writer,
        c: &ValueContext<'_>,
        parts: &Parts<'_>,
    ) -> Result<(), Error> {
        let rt = &self.runtime;
        let support = format!("{rt}::typed::value::serde_support");
        let which = c.flavor.which();
        let union = &c.union_field;
        let [null, boolean, number, string, array, object, _] = parts.variants;
        let (field_id, name, value, value_boxed) = &parts.field;
        let field_path = format!("{}::Value", self.path_to(*field_id, c.file, c.depth)?);
        let held = if *value_boxed {
            format!("{rt}::typed::value::Box::new(value)")
        } else {
            "value".to_string()
        };
        let some = "::core::option::Option::Some";
        out.open_impl(&format!("impl {support}::JsonValueParts for Value"));
        for (f, arg, built) in [
            ("null", String::new(), format!("{which}::{null}")),
            (
                "boolean",
                "v: bool".into(),
                format!("{which}::{boolean}(v)"),
            ),
            ("number", "v: f64".into(), format!("{which}::{number}(v)")),
            (
                "string",
                format!("v: {rt}::typed::value::String"),
                format!("{which}::{string}({some}(v))"),
            ),
            (
                "array",
                format!("items: {rt}::typed::value::Vec<Self>"),
                format!("{which}::{array}({some}(items))"),
            ),
            (
                "object",
                format!("members: {rt}::typed::value::Vec<{field_path}>"),
                format!("{which}::{object}({some}(members))"),
            ),
        ] {
            out.open_fn(&format!("fn {f}({arg}) -> Self"));
            out.line(&format!("Value {{ {union}: {built} }}"));
            out.close();
        }
        out.line(&format!("type Member = {field_path};"));
        out.open_fn(&format!(
            "fn member(name: {rt}::typed::value::String, value: Self) -> {field_path}"
        ));
        out.line(&format!(
            "{field_path} {{ {name}: {some}(name), {value}: {some}({held}) }}"
        ));
        out.close();
        out.close();
        let de = format!(
            "<D: {rt}::serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error>"
        );
        out.open_impl(&format!(
            "impl<'de> {rt}::serde::Deserialize<'de> for Value"
        ));
        out.docs("Any JSON value, as the reference reads it.");
        out.open_fn(&format!("fn deserialize{de}"));
        out.line(&format!("{support}::deserialize_json_value(d)"));
        out.close();
        out.close();
        out.open_impl(&format!(
            "impl<'de> {support}::DeserializeValue<'de> for Value"
        ));
        out.open_fn(&format!("fn deserialize_value{de}"));
        out.line(&format!("{support}::deserialize_json_value(d)"));
        out.close();
        out.docs("A `null` field holds a `Value` of null, as in the reference.");
        out.open_fn("fn null_value() -> ::core::option::Option<Self>");
        out.line(&format!(
            "{some}(<Self as {support}::JsonValueParts>::null())"
        ));
        out.close();
        out.close();
        Ok(())
    }
}
