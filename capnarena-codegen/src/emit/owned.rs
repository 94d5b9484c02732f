//! Plain Rust values of a struct or group (the `owned_values` option): an
//! owned `Value` (text as `String`, data as `Vec<u8>`) and a borrowed
//! `ValueRef<'a>` (text as `&'a str`, data as `&'a [u8]`; an alias of
//! `Value` when nothing in the struct borrows), a union as `WhichValue` /
//! `WhichRef<'a>`, with `Default` (the schema's defaults), reading
//! (`TryFrom<Reader>`) and writing (`build`, `build_root`).
//!
//! The values stand on the runtime's `typed::value` traits: a pointer
//! field is an `Option` (`None`: a null pointer) read and written by
//! `read_optional` / `write_optional`, so a value read from a message
//! and written back gives the same objects. A struct field's value is
//! held inline (`Option<foo::Value>`) unless the field is on a cycle of
//! values containing values, or the value is large (`owned_boxing`):
//! then it is boxed. A generic struct's values take as type parameters
//! the generic parameters they use (`owned_params`): a field of a
//! parameter's type is `Option<T>`, a use of a generic struct names its
//! value with the values of the brand's arguments (`Box(Text)`:
//! `box_::Value<String>`), and each impl bounds the parameters by what
//! it needs (`ReadPointer<'a>` to read, `WritePointer` to write, the
//! derived traits by themselves); see the runtime's `typed::value`.

use std::collections::HashSet;

use super::Generator;
use super::doc::doc_attr;
use super::struct_module::short_fn;
use super::types::{COMPLEX_SCORE, complexity};
use super::writer::Writer;
use crate::Error;
use crate::model::*;
use crate::names::{Case, KEYWORDS, assign};

/// The names a struct's module holds with the option on, taken among
/// its items (a nested enum `Value` becomes `Value_`).
pub(super) const RESERVED: &[&str] = &["Value", "ValueRef", "WhichValue", "WhichRef"];

/// Which of the two value types is being written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavor {
    Owned,
    Borrowed,
}

impl Flavor {
    /// The struct type as named in its own module.
    fn value(self) -> &'static str {
        match self {
            Flavor::Owned => "Value",
            Flavor::Borrowed => "ValueRef<'a>",
        }
    }

    /// The union's enum as named in its own module.
    pub(super) fn which(self) -> &'static str {
        match self {
            Flavor::Owned => "WhichValue",
            Flavor::Borrowed => "WhichRef<'a>",
        }
    }
}

/// The struct being written: what every part needs.
pub(super) struct ValueContext<'a> {
    /// The struct's (or group's) node id.
    pub(super) id: u64,
    pub(super) s: &'a StructNode,
    /// Non-union fields in code order.
    pub(super) plain: Vec<&'a Field>,
    /// Union members by discriminant, with their variant names.
    pub(super) members: Vec<(&'a Field, String)>,
    /// The Rust field holding the union (`union`, unless a field took it).
    pub(super) union_field: String,
    pub(super) file: u64,
    pub(super) depth: usize,
    pub(super) flavor: Flavor,
    /// The value's type parameters (`owned_params`), in scope order.
    pub(super) params: Vec<String>,
    /// Those of them the union's members use (the union enum's).
    pub(super) which_params: Vec<String>,
}

impl ValueContext<'_> {
    /// The value's type as its impls name it: `Value<T>` or
    /// `ValueRef<'a, T>`.
    pub(super) fn self_ty(&self) -> String {
        with_params(self.flavor.value(), &self.params)
    }

    /// The union enum's type: `WhichValue<T>` or `WhichRef<'a, T>`.
    pub(super) fn which_ty(&self) -> String {
        with_params(self.flavor.which(), &self.which_params)
    }

    /// `<'a, T: bound>`: the generics of an impl for [`Self::self_ty`],
    /// with `lifetimes` first ("" when there is nothing to declare).
    pub(super) fn impl_generics(&self, lifetimes: &[&str], bound: &str) -> String {
        let mut items: Vec<String> = lifetimes.iter().map(|l| l.to_string()).collect();
        if self.flavor == Flavor::Borrowed && !lifetimes.contains(&"'a") {
            items.insert(0, "'a".into());
        }
        for p in &self.params {
            items.push(if bound.is_empty() {
                p.clone()
            } else {
                format!("{p}: {bound}")
            });
        }
        if items.is_empty() {
            String::new()
        } else {
            format!("<{}>", items.join(", "))
        }
    }
}

/// `Name<P1, P2>` (`Name<'a>` gets `Name<'a, P1, P2>`), or `name` without
/// parameters.
fn with_params(name: &str, params: &[String]) -> String {
    if params.is_empty() {
        return name.to_string();
    }
    match name.strip_suffix('>') {
        Some(open) => format!("{open}, {}>", params.join(", ")),
        None => format!("{name}<{}>", params.join(", ")),
    }
}

impl Generator<'_> {
    /// Writes `Value` and `ValueRef<'a>` of struct or group `node` into
    /// its module (`depth`: modules below the file's, the struct's own
    /// counted), with their impls.
    pub(super) fn owned_values(
        &self,
        out: &mut Writer,
        node: &Node,
        s: &StructNode,
        depth: usize,
        file: u64,
    ) -> Result<(), Error> {
        // An erased value (owned_params) sees no parameter in scope.
        let saved = self.value_erased(node.id).then(|| self.params.take());
        let written = self.owned_value_types(out, node, s, depth, file);
        if let Some(saved) = saved {
            self.params.replace(saved);
        }
        written
    }

    fn owned_value_types(
        &self,
        out: &mut Writer,
        node: &Node,
        s: &StructNode,
        depth: usize,
        file: u64,
    ) -> Result<(), Error> {
        let mut context = self.value_context(node.id, s, file, depth);
        self.value_type(out, node, &context)?;
        if self.struct_borrows(node.id, &mut HashSet::new()) {
            context.flavor = Flavor::Borrowed;
            self.value_type(out, node, &context)?;
        } else {
            out.docs("The borrowed value: nothing in this struct borrows, so it is [`Value`].");
            out.line(&format!(
                "pub type {} = {};",
                with_params("ValueRef<'a>", &context.params),
                context.self_ty()
            ));
            if !context.members.is_empty() {
                out.docs("The union's borrowed value: [`WhichValue`].");
                out.line(&format!(
                    "pub type {} = {};",
                    with_params("WhichRef<'a>", &context.which_params),
                    context.which_ty()
                ));
            }
        }
        Ok(())
    }

    pub(super) fn value_context<'a>(
        &self,
        id: u64,
        s: &'a StructNode,
        file: u64,
        depth: usize,
    ) -> ValueContext<'a> {
        let mut plain: Vec<&Field> = s
            .fields
            .iter()
            .filter(|f| f.discriminant.is_none())
            .collect();
        plain.sort_by_key(|f| f.code_order);
        let mut members: Vec<&Field> = s
            .fields
            .iter()
            .filter(|f| f.discriminant.is_some())
            .collect();
        members.sort_by_key(|f| f.discriminant);
        let spelled: Vec<(&str, Case)> = members
            .iter()
            .map(|f| (f.spelling(), Case::Pascal))
            .collect();
        let names = assign(&spelled, &[]);
        let mut union_field = "union".to_string();
        while plain.iter().any(|f| self.value_field(f) == union_field) {
            union_field.push('_');
        }
        let value_params = self.value_params(id);
        let mut member_uses = std::collections::BTreeSet::new();
        for f in &members {
            match &f.kind {
                FieldKind::Group { type_id } => member_uses.extend(self.used_params(*type_id)),
                FieldKind::Slot { ty, .. } => member_uses.extend(self.type_uses(&self.resolve(ty))),
            }
        }
        let which_params = value_params
            .iter()
            .filter(|(s, i, _)| member_uses.contains(&(*s, *i)))
            .map(|(_, _, n)| n.clone())
            .collect();
        ValueContext {
            params: value_params.into_iter().map(|(_, _, n)| n).collect(),
            which_params,
            id,
            s,
            plain,
            members: members.into_iter().zip(names).collect(),
            union_field,
            file,
            depth,
            flavor: Flavor::Owned,
        }
    }

    /// Whether struct `id`'s value holds text or data (so its borrowed
    /// value differs from its owned one), through its fields, groups and
    /// the structs it holds; `seen` cuts cycles.
    fn struct_borrows(&self, id: u64, seen: &mut HashSet<u64>) -> bool {
        if !seen.insert(id) {
            return false;
        }
        let Some(NodeKind::Struct(s)) = self.schema.nodes.get(&id).map(|n| &n.kind) else {
            return false;
        };
        s.fields.iter().any(|f| match &f.kind {
            FieldKind::Group { type_id } => self.struct_borrows(*type_id, seen),
            FieldKind::Slot { ty, .. } => self.type_borrows(ty, seen),
        })
    }

    /// Whether a union member's value borrows.
    fn members_borrow(&self, c: &ValueContext<'_>) -> bool {
        c.members.iter().any(|(f, _)| match &f.kind {
            FieldKind::Group { type_id } => self.struct_borrows(*type_id, &mut HashSet::new()),
            FieldKind::Slot { ty, .. } => self.type_borrows(ty, &mut HashSet::new()),
        })
    }

    fn type_borrows(&self, ty: &Type, seen: &mut HashSet<u64>) -> bool {
        match ty {
            Type::Text | Type::Data => true,
            Type::List(e) => self.type_borrows(e, seen),
            // A bound argument borrows inside the struct's value; one that
            // is a parameter carries its own lifetime.
            Type::Struct(id, brand) => {
                self.struct_borrows(*id, seen)
                    || self.used_params(*id).iter().any(|(scope, index)| {
                        match brand.0.iter().find(|(s, _)| s == scope) {
                            Some((_, Some(bindings))) => match bindings.get(usize::from(*index)) {
                                Some(Some(bound)) => self.type_borrows(bound, &mut seen.clone()),
                                _ => false,
                            },
                            _ => false,
                        }
                    })
            }
            _ => false,
        }
    }

    /// The Rust field of `f` in the value: its method stem, a keyword
    /// made raw.
    pub(super) fn value_field(&self, f: &Field) -> String {
        let stem = self.stem(f);
        match stem.as_str() {
            "self" | "Self" | "super" | "crate" => format!("{stem}_"),
            s if KEYWORDS.contains(&s) => format!("r#{stem}"),
            _ => stem,
        }
    }

    /// The struct (and union enum) declarations and every impl.
    fn value_type(&self, out: &mut Writer, node: &Node, c: &ValueContext<'_>) -> Result<(), Error> {
        self.value_declaration(out, node, c)?;
        if !c.members.is_empty() {
            if c.flavor == Flavor::Owned || self.members_borrow(c) {
                self.which_declaration(out, c)?;
            } else {
                out.docs(
                    "The union's borrowed value: nothing in it borrows, so it is [`WhichValue`].",
                );
                out.line(&format!(
                    "pub type {} = {};",
                    c.which_ty(),
                    with_params("WhichValue", &c.which_params)
                ));
            }
        }
        self.value_default(out, c)?;
        self.value_read(out, c)?;
        self.value_write(out, c)?;
        self.value_conversions(out, c);
        if self.options.serde {
            self.value_serde(out, node, c)?;
        }
        Ok(())
    }

    fn value_declaration(
        &self,
        out: &mut Writer,
        node: &Node,
        c: &ValueContext<'_>,
    ) -> Result<(), Error> {
        let what = match c.flavor {
            Flavor::Owned => "owned",
            Flavor::Borrowed => "borrowed (text and data borrow the message)",
        };
        out.docs(&format!(
            "A `{}` as a plain Rust value, {what}; a pointer field is `None` when its pointer is null.",
            node.short_name()
        ));
        out.line("#[derive(Clone, Debug, PartialEq)]");
        let mut types = Vec::new();
        for f in &c.plain {
            types.push(self.field_value_ty(f, c)?);
        }
        allow_complex(out, &types);
        out.open(&format!("pub struct {}", c.self_ty()));
        for (f, ty) in c.plain.iter().zip(&types) {
            let fallback = format!("The `{}` field.", f.name);
            doc_attr(out, Some(f.doc.as_deref().unwrap_or(&fallback)));
            out.type_line(&format!("pub {}: {ty},", self.value_field(f)));
        }
        if !c.members.is_empty() {
            out.docs("The union's member that is set, with its value.");
            out.type_line(&format!("pub {}: {},", c.union_field, c.which_ty()));
        }
        out.close();
        Ok(())
    }

    fn which_declaration(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        out.docs("The union's members, with the value of the one that is set.");
        out.line("#[derive(Clone, Debug, PartialEq)]");
        let mut types = Vec::new();
        for (f, _) in &c.members {
            types.push(self.field_value_ty(f, c)?);
        }
        allow_complex(out, &types);
        // Members hold struct values inline (as prost's `oneof`s do):
        // sizes differ by design.
        out.line("#[allow(clippy::large_enum_variant)]");
        out.open(&format!("pub enum {}", c.which_ty()));
        for ((f, name), ty) in c.members.iter().zip(&types) {
            let fallback = format!("`{}` is set.", f.name);
            doc_attr(out, Some(f.doc.as_deref().unwrap_or(&fallback)));
            match ty.as_str() {
                "()" => out.type_line(&format!("{name},")),
                ty => out.type_line(&format!("{name}({ty}),")),
            }
        }
        out.close();
        Ok(())
    }

    /// The Rust type of field `f`'s value.
    pub(super) fn field_value_ty(&self, f: &Field, c: &ValueContext<'_>) -> Result<String, Error> {
        match &f.kind {
            FieldKind::Group { type_id } => {
                let args: Vec<String> = self
                    .value_params(*type_id)
                    .iter()
                    .map(|(s, i, _)| self.param(*s, *i).unwrap_or_else(|| self.any_value()))
                    .collect();
                Ok(format!(
                    "{}::{}",
                    self.path_to(*type_id, c.file, c.depth)?,
                    with_params(c.flavor.value(), &args)
                ))
            }
            FieldKind::Slot { ty, .. } => {
                let ty = self.resolve(ty);
                if matches!(ty, Type::Struct(..)) && !self.struct_field_boxed(c.id, &ty) {
                    Ok(format!(
                        "::core::option::Option<{}>",
                        self.arg_value_ty(&ty, c)?
                    ))
                } else if ty.is_pointer() {
                    Ok(format!(
                        "::core::option::Option<{}>",
                        self.pointer_value_ty(&ty, c)?
                    ))
                } else {
                    self.data_value_ty(&ty, c)
                }
            }
        }
    }

    /// The Rust type of a value in the data section (or a list element
    /// that is not a pointer).
    fn data_value_ty(&self, ty: &Type, c: &ValueContext<'_>) -> Result<String, Error> {
        Ok(match ty {
            Type::Void => "()".into(),
            Type::Enum(id) => self.path_to(*id, c.file, c.depth)?,
            ty => self.primitive(ty, &Value::Void)?.0.into(),
        })
    }

    /// The Rust type of a non-null pointer's value (a struct boxed).
    fn pointer_value_ty(&self, ty: &Type, c: &ValueContext<'_>) -> Result<String, Error> {
        let borrowed = c.flavor == Flavor::Borrowed;
        Ok(match ty {
            Type::Text if borrowed => "&'a str".into(),
            Type::Text => format!("{}::typed::value::String", self.runtime),
            Type::Data if borrowed => "&'a [u8]".into(),
            Type::Data => format!("{}::typed::value::Vec<u8>", self.runtime),
            Type::Struct(..) => format!(
                "{}::typed::value::Box<{}>",
                self.runtime,
                self.arg_value_ty(ty, c)?
            ),
            Type::List(e) => format!(
                "{}::typed::value::Vec<{}>",
                self.runtime,
                self.element_value_ty(e, c)?
            ),
            Type::Param { scope, index } => self
                .param(*scope, *index)
                .unwrap_or_else(|| self.any_value()),
            _ => self.any_value(),
        })
    }

    /// `AnyValue`, the value of an any pointer or capability.
    fn any_value(&self) -> String {
        format!("{}::typed::value::AnyValue", self.runtime)
    }

    /// The value of pointer type `ty` as a generic argument or list
    /// element: a struct's value unboxed (`foo::Value<Args>`, its
    /// arguments the values of what its brand binds), otherwise as
    /// [`Self::pointer_value_ty`].
    fn arg_value_ty(&self, ty: &Type, c: &ValueContext<'_>) -> Result<String, Error> {
        let ty = self.resolve(ty);
        let Type::Struct(id, brand) = &ty else {
            return self.pointer_value_ty(&ty, c);
        };
        let mut args = Vec::new();
        for (scope, index, _) in self.value_params(*id) {
            let arg = match brand.0.iter().find(|(s, _)| *s == scope) {
                Some((_, Some(bindings))) => match bindings.get(usize::from(index)) {
                    Some(Some(bound)) => self.arg_value_ty(bound, c)?,
                    _ => self.any_value(),
                },
                Some((_, None)) => self.param(scope, index).unwrap_or_else(|| self.any_value()),
                None => self.any_value(),
            };
            args.push(arg);
        }
        Ok(format!(
            "{}::{}",
            self.path_to(*id, c.file, c.depth)?,
            with_params(c.flavor.value(), &args)
        ))
    }

    /// The Rust type of a list element's value.
    fn element_value_ty(&self, e: &Type, c: &ValueContext<'_>) -> Result<String, Error> {
        let e = self.resolve(e);
        Ok(match &e {
            Type::Struct(..) => self.arg_value_ty(&e, c)?,
            e if e.is_pointer() => {
                format!("::core::option::Option<{}>", self.pointer_value_ty(e, c)?)
            }
            e => self.data_value_ty(e, c)?,
        })
    }

    /// `Default`: every data field at its schema default, every pointer
    /// null, the union at its first member.
    fn value_default(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        let self_ty = match c.flavor {
            Flavor::Owned => "Value",
            Flavor::Borrowed => "ValueRef",
        };
        out.open_impl(&format!(
            "impl{} ::core::default::Default for {}",
            c.impl_generics(&[], ""),
            c.self_ty()
        ));
        out.docs("The schema's defaults; pointers null.");
        out.open_fn("fn default() -> Self");
        let mut fields = Vec::new();
        for f in &c.plain {
            let value = self.default_expression(f, c)?;
            fields.push(format!("{}: {value}", self.value_field(f)));
        }
        if let Some((f, name)) = c.members.first() {
            let which = c.flavor.which().trim_end_matches("<'a>");
            let value = match self.field_value_ty(f, c)?.as_str() {
                "()" => format!("{which}::{name}"),
                _ => format!("{which}::{name}({})", self.default_expression(f, c)?),
            };
            fields.push(format!("{}: {value}", c.union_field));
        }
        out.line(&struct_literal(self_ty, &fields));
        out.close();
        out.close();
        Ok(())
    }

    fn default_expression(&self, f: &Field, c: &ValueContext<'_>) -> Result<String, Error> {
        let (ty, default) = match &f.kind {
            FieldKind::Group { .. } => return Ok("::core::default::Default::default()".into()),
            FieldKind::Slot { ty, default, .. } => (self.resolve(ty), default),
        };
        Ok(match &ty {
            Type::Void => "()".into(),
            ty if ty.is_pointer() => "::core::option::Option::None".into(),
            Type::Enum(id) => {
                let value = match default {
                    Value::Enum(v) => *v,
                    _ => 0,
                };
                let name = self
                    .enumerant_name(*id, value)?
                    .ok_or_else(|| Error::Unsupported {
                        what: format!("default {value} of field `{}`: not an enumerant", f.name),
                    })?;
                format!("{}::{name}", self.path_to(*id, c.file, c.depth)?)
            }
            ty => self.primitive(ty, default)?.1,
        })
    }

    /// The expression reading field `f` from the struct reader `r`.
    fn read_expression(&self, f: &Field, c: &ValueContext<'_>) -> Result<String, Error> {
        let rt = &self.runtime;
        let (offset, ty, default) = match &f.kind {
            FieldKind::Group { .. } => {
                return Ok(format!("{rt}::typed::value::ReadStruct::read_struct(r)?"));
            }
            FieldKind::Slot {
                offset,
                ty,
                default,
            } => (*offset, self.resolve(ty), default),
        };
        Ok(match &ty {
            Type::Void => "()".into(),
            Type::Bool if matches!(default, Value::Bool(true)) => {
                format!("r.get_bool_or({offset}, true)")
            }
            Type::Bool => format!("r.get_bool({offset})"),
            Type::Enum(id) => format!(
                "<{} as ::core::convert::TryFrom<u16>>::try_from(r.get_or::<u16>({offset}, {}))?",
                self.path_to(*id, c.file, c.depth)?,
                enum_default(default)
            ),
            ty if ty.is_pointer() => {
                format!("{rt}::__private::read_optional(r.pointer({offset}))?")
            }
            ty => {
                let (rust, literal) = self.primitive(ty, default)?;
                if super::data_field::is_zero(default) {
                    format!("r.get::<{rust}>({offset})")
                } else {
                    format!("r.get_or::<{rust}>({offset}, {literal})")
                }
            }
        })
    }

    /// The statement writing the value `v` of field `f` into the struct
    /// builder `b`; `by_ref`: `v` is a reference (a union payload).
    fn write_statement(&self, f: &Field, v: &str, by_ref: bool) -> Result<Option<String>, Error> {
        let rt = &self.runtime;
        let (offset, ty, default) = match &f.kind {
            FieldKind::Group { .. } => {
                let v = if by_ref {
                    v.to_string()
                } else {
                    format!("&{v}")
                };
                return Ok(Some(format!(
                    "{rt}::typed::value::WriteStruct::write_struct({v}, b.reborrow())?;"
                )));
            }
            FieldKind::Slot {
                offset,
                ty,
                default,
            } => (*offset, self.resolve(ty), default),
        };
        let copy = if by_ref {
            format!("*{v}")
        } else {
            v.to_string()
        };
        Ok(Some(match &ty {
            Type::Void => return Ok(None),
            Type::Bool if matches!(default, Value::Bool(true)) => {
                format!("b.set_bool_or({offset}, {copy}, true);")
            }
            Type::Bool => format!("b.set_bool({offset}, {copy});"),
            Type::Enum(_) => format!(
                "b.set_or::<u16>({offset}, u16::from({copy}), {});",
                enum_default(default)
            ),
            ty if ty.is_pointer() => {
                let v = if by_ref {
                    v.to_string()
                } else {
                    format!("&{v}")
                };
                format!("{rt}::__private::write_optional({v}, b.pointer({offset}))?;")
            }
            ty => {
                let (rust, literal) = self.primitive(ty, default)?;
                if super::data_field::is_zero(default) {
                    format!("b.set::<{rust}>({offset}, {copy});")
                } else {
                    format!("b.set_or::<{rust}>({offset}, {copy}, {literal});")
                }
            }
        }))
    }

    /// `ReadStruct`: each field read from the struct reader.
    fn value_read(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        let rt = &self.runtime;
        let self_ty = match c.flavor {
            Flavor::Owned => "Value",
            Flavor::Borrowed => "ValueRef",
        };
        out.open_impl(&format!(
            "impl{} {rt}::typed::value::ReadStruct<'a> for {}",
            c.impl_generics(&["'a"], &read_bound(rt)),
            c.self_ty()
        ));
        let reads = !c.members.is_empty()
            || c.plain
                .iter()
                .any(|f| !matches!(&f.kind, FieldKind::Slot { ty: Type::Void, .. }));
        let r = if reads { "r" } else { "_r" };
        out.open_fn(&format!(
            "fn read_struct({r}: {rt}::StructReader<'a>) -> {rt}::Result<Self>"
        ));
        if !c.members.is_empty() {
            self.union_read(out, c)?;
        }
        let mut fields = Vec::new();
        for f in &c.plain {
            let value = self.read_expression(f, c)?;
            fields.push(format!("{}: {value}", self.value_field(f)));
        }
        if !c.members.is_empty() {
            fields.push(match c.union_field.as_str() {
                "union" => "union".to_string(),
                field => format!("{field}: union"),
            });
        }
        out.line(&format!("Ok({})", struct_literal(self_ty, &fields)));
        out.close();
        out.close();
        Ok(())
    }

    /// `let union = match discriminant { .. };`
    fn union_read(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        let which = c.flavor.which().trim_end_matches("<'a>");
        out.open(&format!(
            "let union = match r.get::<u16>({})",
            c.s.discriminant_offset
        ));
        for (f, name) in &c.members {
            let k = f.discriminant.unwrap_or(0);
            let value = match self.field_value_ty(f, c)?.as_str() {
                "()" => format!("{which}::{name}"),
                _ => format!("{which}::{name}({})", self.read_expression(f, c)?),
            };
            out.arm(&k.to_string(), &value);
        }
        out.arm(
            "v",
            &format!("return Err({}::typed::NotInSchema(v).into())", self.runtime),
        );
        out.close_with(";");
        Ok(())
    }

    /// `WriteStruct`: each field written into a fresh struct builder.
    fn value_write(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        let rt = &self.runtime;
        let mut statements = Vec::new();
        for f in &c.plain {
            let value = format!("self.{}", self.value_field(f));
            statements.extend(self.write_statement(f, &value, false)?);
        }
        let b = if statements.is_empty() && c.members.is_empty() {
            "_b"
        } else {
            "mut b"
        };
        out.open_impl(&format!(
            "impl{} {rt}::typed::value::WriteStruct for {}",
            c.impl_generics(&[], &write_bound(rt)),
            c.self_ty()
        ));
        out.open_fn(&format!(
            "fn write_struct<A: {rt}::Arena + ?Sized>(&self, {b}: {rt}::StructBuilder<'_, A>) -> {rt}::Result<()>"
        ));
        for statement in &statements {
            out.line(statement);
        }
        if !c.members.is_empty() {
            self.union_write(out, c)?;
        }
        out.line("Ok(())");
        out.close();
        out.close();
        Ok(())
    }

    /// The union's discriminant, then its member's value.
    fn union_write(&self, out: &mut Writer, c: &ValueContext<'_>) -> Result<(), Error> {
        let which = c.flavor.which().trim_end_matches("<'a>");
        let offset = c.s.discriminant_offset;
        out.open(&format!("match &self.{}", c.union_field));
        for (f, name) in &c.members {
            let k = f.discriminant.unwrap_or(0);
            let set = format!("b.set::<u16>({offset}, {k});");
            match self.field_value_ty(f, c)?.as_str() {
                "()" => out.line(&format!(
                    "{which}::{name} => {},",
                    set.trim_end_matches(';')
                )),
                _ => {
                    out.open(&format!("{which}::{name}(v) =>"));
                    out.line(&set);
                    if let Some(statement) = self.write_statement(f, "v", true)? {
                        out.line(&statement);
                    }
                    out.close();
                }
            }
        }
        out.close();
        Ok(())
    }

    /// `StructValue`, list elements and pointers (structs only),
    /// `TryFrom<Reader>`, and `build` / `build_root`. The reader and
    /// builder may have any brand: a value's parameters are not tied to
    /// the handle's (see the runtime's `typed::value`).
    fn value_conversions(&self, out: &mut Writer, c: &ValueContext<'_>) {
        let rt = &self.runtime;
        let ty = c.self_ty();
        let (read, write) = (read_bound(rt), write_bound(rt));
        let read_impl = c.impl_generics(&["'a"], &read);
        let write_impl = c.impl_generics(&[], &write);
        // The handles' own parameters, named apart from the value's.
        let handle_params = self.handle_params(c);
        let handle_list: String = handle_params.iter().map(|p| format!(", {p}")).collect();
        let handle_bounds: String = handle_params
            .iter()
            .map(|p| format!(", {p}: {rt}::typed::Owned"))
            .collect();
        let is_struct = !c.s.is_group;
        if is_struct {
            out.open_impl(&format!(
                "impl{write_impl} {rt}::typed::value::StructValue for {ty}"
            ));
            out.line(&format!(
                "const STRUCT_SIZE: {rt}::StructSize = STRUCT_SIZE;"
            ));
            out.close();
            out.open_impl(&format!(
                "impl{read_impl} {rt}::typed::value::ReadElement<'a> for {ty}"
            ));
            short_fn(
                out,
                false,
                &format!(
                    "fn read_list(p: {rt}::PointerReader<'a>) -> {rt}::Result<{rt}::typed::value::Vec<Self>>"
                ),
                &format!("{rt}::__private::read_struct_list(p)"),
            );
            out.close();
            out.open_impl(&format!(
                "impl{write_impl} {rt}::typed::value::WriteElement for {ty}"
            ));
            short_fn(
                out,
                false,
                &format!(
                    "fn write_list<A: {rt}::Arena + ?Sized>(items: &[Self], p: {rt}::PointerBuilder<'_, A>) -> {rt}::Result<()>"
                ),
                &format!("{rt}::__private::write_struct_list(items, p)"),
            );
            out.close();
            out.open_impl(&format!(
                "impl{read_impl} {rt}::typed::value::ReadPointer<'a> for {ty}"
            ));
            short_fn(
                out,
                false,
                &format!("fn read_pointer(p: {rt}::PointerReader<'a>) -> {rt}::Result<Self>"),
                &format!("{rt}::__private::read_struct_pointer(p)"),
            );
            out.close();
            out.open_impl(&format!(
                "impl{write_impl} {rt}::typed::value::WritePointer for {ty}"
            ));
            short_fn(
                out,
                false,
                &format!(
                    "fn write_pointer<A: {rt}::Arena + ?Sized>(&self, p: {rt}::PointerBuilder<'_, A>) -> {rt}::Result<()>"
                ),
                &format!("{rt}::__private::write_struct_pointer(self, p)"),
            );
            out.close();
        }
        let try_from_generics = {
            let inner = read_impl
                .strip_prefix("<'a")
                .and_then(|g| g.strip_suffix('>'))
                .unwrap_or_default();
            format!("<'a{handle_bounds}{inner}>")
        };
        out.open_impl(&format!(
            "impl{try_from_generics} ::core::convert::TryFrom<Reader<'a{handle_list}>> for self::{ty}"
        ));
        out.line(&format!("type Error = {rt}::Error;"));
        out.docs("Reads every field, with the reader's limits.");
        short_fn(
            out,
            false,
            &format!("fn try_from(r: Reader<'a{handle_list}>) -> {rt}::Result<Self>"),
            &format!("{rt}::typed::value::ReadStruct::read_struct(r.reader)"),
        );
        out.close();
        out.open_impl(&format!("impl{write_impl} {ty}"));
        out.docs(
            "Writes the value into `b`, a struct fresh from its `init` (zeroed).\n# Errors\nThe arena has no room, or a list is too long to encode.",
        );
        short_fn(
            out,
            false,
            &format!(
                "pub fn build<A: {rt}::Arena + ?Sized{handle_bounds}>(&self, b: Builder<'_, A{handle_list}>) -> {rt}::Result<()>"
            ),
            &format!("{rt}::typed::value::WriteStruct::write_struct(self, b.builder)"),
        );
        if is_struct {
            out.docs(
                "Writes the value as the root of `message`, replacing its root (reset the message first to reuse its memory).\n# Errors\nThe arena has no room, or a list is too long to encode.",
            );
            short_fn(
                out,
                false,
                &format!(
                    "pub fn build_root<A: {rt}::Arena>(&self, message: &mut {rt}::Message<A>) -> {rt}::Result<()>"
                ),
                &format!(
                    "{rt}::typed::value::WriteStruct::write_struct(self, message.init_root_struct(STRUCT_SIZE)?)"
                ),
            );
        }
        out.close();
    }

    /// Names for the reader's and builder's parameters in the impls of
    /// the value `c` (one per parameter in scope), apart from the value's
    /// own: `P0`, `P1`, ... (with `_` appended on a clash).
    fn handle_params(&self, c: &ValueContext<'_>) -> Vec<String> {
        let taken: Vec<String> = self
            .scope_params(c.id)
            .into_iter()
            .map(|(_, _, n)| n)
            .collect();
        (0..taken.len())
            .map(|i| {
                let mut name = format!("P{i}");
                while taken.contains(&name) || c.params.contains(&name) {
                    name.push('_');
                }
                name
            })
            .collect()
    }

    /// `ReadElement` and `WriteElement` of enum `name`, for lists of it.
    pub(super) fn enum_value_impls(&self, out: &mut Writer, name: &str) {
        let rt = &self.runtime;
        out.open_impl(&format!(
            "impl {rt}::typed::value::ReadElement<'_> for {name}"
        ));
        short_fn(
            out,
            false,
            &format!(
                "fn read_list(p: {rt}::PointerReader<'_>) -> {rt}::Result<{rt}::typed::value::Vec<Self>>"
            ),
            &format!("{rt}::__private::read_enum_list(p)"),
        );
        out.close();
        out.open_impl(&format!("impl {rt}::typed::value::WriteElement for {name}"));
        short_fn(
            out,
            false,
            &format!(
                "fn write_list<A: {rt}::Arena + ?Sized>(items: &[Self], p: {rt}::PointerBuilder<'_, A>) -> {rt}::Result<()>"
            ),
            &format!("{rt}::__private::write_enum_list(items, p)"),
        );
        out.close();
    }
}

/// The bound of a value's type parameters where it is read from a
/// message borrowed for `'a`.
fn read_bound(rt: &str) -> String {
    format!("{rt}::typed::value::ReadPointer<'a>")
}

/// The bound of a value's type parameters where it is written.
fn write_bound(rt: &str) -> String {
    format!("{rt}::typed::value::WritePointer")
}

/// Allows clippy's `type_complexity` on an item whose field `types` are
/// nested deep enough for it (lists of lists of text).
fn allow_complex(out: &mut Writer, types: &[String]) {
    if types.iter().any(|t| complexity(t) > COMPLEX_SCORE) {
        out.line("#[allow(clippy::type_complexity)]");
    }
}

/// `name { a: x, b: y }` (`name {}` without fields).
fn struct_literal(name: &str, fields: &[String]) -> String {
    if fields.is_empty() {
        format!("{name} {{}}")
    } else {
        format!("{name} {{ {} }}", fields.join(", "))
    }
}

/// An enum field's default, as its `u16`.
fn enum_default(default: &Value) -> u16 {
    match default {
        Value::Enum(v) => *v,
        _ => 0,
    }
}
