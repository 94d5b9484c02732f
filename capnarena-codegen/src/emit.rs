//! Rust source for the model: one module per schema file, a module per
//! struct, group and interface, a Rust enum per schema enum.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use crate::model::*;
use crate::names::{
    Case, FieldMethods, Form, MODULE_RESERVED, assign, convert, field_methods, file_module,
    type_param,
};
use crate::{Error, Options};

/// Where a node's Rust item lives: its file and its path from the file's
/// module.
#[derive(Clone, Debug)]
struct Place {
    file: u64,
    path: Vec<String>,
}

pub(crate) struct Generator<'s> {
    schema: &'s Schema,
    options: &'s Options,
    places: HashMap<u64, Place>,
    /// File id -> file name as the request spells it.
    file_names: HashMap<u64, String>,
    /// Struct nodes generated inside an interface (implicit method
    /// parameter and result structs): id -> (interface id, module name).
    implicit: BTreeMap<u64, (u64, String)>,
    rt: String,
    /// The generic parameters in scope where code is being generated:
    /// (scope id, index, Rust type parameter name), outermost scope first.
    params: std::cell::RefCell<Vec<(u64, u16, String)>>,
    /// The method stems of the fields of the struct being generated, by
    /// schema name (see `names::field_methods`).
    stems: std::cell::RefCell<HashMap<String, FieldMethods>>,
}

/// Writes `doc` (a schema doc comment) as `#[doc]` attributes. The output
/// is formatted by prettyplease, so generation only needs valid tokens;
/// line breaks are for readability of failures.
fn doc_attr(out: &mut String, doc: Option<&str>) {
    if let Some(doc) = doc.filter(|d| !d.trim().is_empty()) {
        // Markdown continues a list item or a quote on the lines after it
        // ("lazily"); clippy's doc_lazy_continuation wants such lines
        // indented to the item's text or marked `>`, so they are.
        let mut open = Open::None;
        for line in doc.trim_end().lines() {
            let indent = line.len() - line.trim_start().len();
            let text = line.trim_start();
            let line = if text.is_empty() {
                open = Open::None;
                String::new()
            } else if let Some(marker) = list_marker(text) {
                open = Open::Item(indent + marker);
                format!(" {line}")
            } else if text.starts_with('>') {
                open = Open::Quote;
                format!(" {line}")
            } else {
                match open {
                    Open::Item(at) if indent < at => format!(" {:at$}{text}", ""),
                    Open::Quote => format!(" > {line}"),
                    _ => format!(" {line}"),
                }
            };
            let _ = writeln!(out, "#[doc = {line:?}]");
        }
        // The generator's own doc lines often follow, and would continue
        // an open item or quote: such a doc ends with an empty line.
        if open != Open::None {
            out.push_str("#[doc = \"\"]\n");
        }
    }
}

/// What a doc line so far leaves open for the next line to continue.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    None,
    /// A list item whose text starts at this column.
    Item(usize),
    /// A block quote.
    Quote,
}

/// The length of the Markdown list marker `text` starts with (`- `,
/// `* `, `+ `, `1. `, `1) `), if it starts with one.
fn list_marker(text: &str) -> Option<usize> {
    if text.starts_with("- ") || text.starts_with("* ") || text.starts_with("+ ") {
        return Some(2);
    }
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &text[digits..];
    (digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))).then_some(digits + 2)
}

/// The reader getter, builder getter and builder setter of a data field:
/// `get` and `set` are the struct handle's calls (with the offset and any
/// default), `disc` writes a union member's discriminant first.
#[allow(clippy::too_many_arguments)]
fn scalar_accessors(
    reader: &mut String,
    builder: &mut String,
    doc: Option<&str>,
    n: &str,
    rust: &str,
    get: &str,
    set: &str,
    disc: &str,
) {
    doc_attr(reader, doc);
    let vis = if disc.is_empty() { "pub " } else { "" };
    let _ = writeln!(
        reader,
        "#[inline] {vis}fn get_{n}(&self) -> {rust} {{ self.reader.{get} }}"
    );
    if disc.is_empty() {
        doc_attr(builder, doc);
        let _ = writeln!(
            builder,
            "#[inline] pub fn get_{n}(&self) -> {rust} {{ self.builder.{get} }}"
        );
    }
    doc_attr(builder, doc);
    let _ = writeln!(
        builder,
        "#[inline] pub fn set_{n}(&mut self, value: {rust}) {{ {disc}self.builder.{set}; }}"
    );
}

fn hex_words(words: &[u64], rt: &str) -> String {
    let mut s = String::from("&[&[");
    for w in words {
        let _ = write!(s, "{rt}::Word::from_u64({w:#018x}),");
    }
    s.push_str("]]");
    s
}

impl<'s> Generator<'s> {
    pub(crate) fn new(schema: &'s Schema, options: &'s Options) -> Result<Self, Error> {
        let mut g = Generator {
            schema,
            options,
            places: HashMap::new(),
            file_names: HashMap::new(),
            implicit: BTreeMap::new(),
            rt: options.runtime_path.clone(),
            params: std::cell::RefCell::new(Vec::new()),
            stems: std::cell::RefCell::new(HashMap::new()),
        };
        for node in schema.nodes.values() {
            if matches!(node.kind, NodeKind::File) {
                g.file_names.insert(node.id, node.display_name.clone());
                g.place_children(node.id, node.id, &[]);
            }
        }
        Ok(g)
    }

    fn node(&self, id: u64) -> Result<&'s Node, Error> {
        self.schema.nodes.get(&id).ok_or(Error::MissingNode { id })
    }

    /// Records where every node under `scope` goes: its nested types and
    /// constants, its groups and (for an interface) its methods' implicit
    /// parameter and result structs share the scope module's namespace,
    /// named together by the naming rule (`names`).
    fn place_children(&mut self, file: u64, scope: u64, prefix: &[String]) {
        let Some(node) = self.schema.nodes.get(&scope) else {
            return;
        };
        // (id, schema spelling, case, implicit method struct)
        let mut items: Vec<(u64, String, Case, bool)> = Vec::new();
        for (name, id) in &node.nested {
            let Some(child) = self.schema.nodes.get(id) else {
                continue;
            };
            let case = match child.kind {
                NodeKind::Struct(_) | NodeKind::Interface(_) => Case::Snake,
                NodeKind::Enum(_) => Case::Pascal,
                NodeKind::Const { .. } => Case::Screaming,
                NodeKind::File | NodeKind::Annotation => continue,
            };
            let spelling = child.rust_name.clone().unwrap_or_else(|| name.clone());
            items.push((*id, spelling, case, false));
        }
        match &node.kind {
            NodeKind::Struct(s) => {
                for f in &s.fields {
                    if let FieldKind::Group { type_id } = f.kind {
                        let group_name = self
                            .schema
                            .nodes
                            .get(&type_id)
                            .and_then(|n| n.rust_name.clone());
                        let spelling = f
                            .rust_name
                            .clone()
                            .or(group_name)
                            .unwrap_or_else(|| f.name.clone());
                        items.push((type_id, spelling, Case::Snake, false));
                    }
                }
            }
            NodeKind::Interface(methods) => {
                for m in methods {
                    for (id, suffix) in [(m.param_struct, "Params"), (m.result_struct, "Results")] {
                        let Some(n) = self.schema.nodes.get(&id) else {
                            continue;
                        };
                        // Only the structs the compiler made for the
                        // method live here; a named struct is placed by
                        // its own scope.
                        if n.scope_id != 0 || items.iter().any(|(i, ..)| *i == id) {
                            continue;
                        }
                        items.push((id, format!("{}{suffix}", m.name), Case::Snake, true));
                    }
                }
            }
            _ => {}
        }
        let spelled: Vec<(&str, Case)> =
            items.iter().map(|(_, n, c, _)| (n.as_str(), *c)).collect();
        let names = assign(&spelled, MODULE_RESERVED);
        for ((id, _, _, implicit), item) in items.iter().zip(names) {
            if *implicit && self.places.contains_key(id) {
                continue;
            }
            let mut path = prefix.to_vec();
            path.push(item.clone());
            self.places.insert(
                *id,
                Place {
                    file,
                    path: path.clone(),
                },
            );
            if *implicit {
                self.implicit.insert(*id, (scope, item));
            }
            self.place_children(file, *id, &path);
        }
    }

    /// The Rust path to node `id`'s item from code at `depth` modules
    /// below the root module of file `from`.
    fn path_to(&self, id: u64, from: u64, depth: usize) -> Result<String, Error> {
        let place = self.places.get(&id).ok_or(Error::MissingNode { id })?;
        let mut s = String::new();
        if place.file == from {
            for _ in 0..depth {
                s.push_str("super::");
            }
        } else {
            let name = self
                .file_names
                .get(&place.file)
                .ok_or(Error::MissingNode { id: place.file })?;
            let parent = self
                .schema
                .nodes
                .get(&place.file)
                .and_then(|n| n.parent_module.as_deref());
            match (self.options.module_paths.get(name.as_str()), parent) {
                (Some(p), _) => s.push_str(p),
                // `$Rust.parentModule`: the file's module sits under this
                // path from the crate root, as capnpc takes it.
                (None, Some(parent)) => {
                    s.push_str("crate::");
                    for part in parent.split("::").filter(|p| !p.is_empty()) {
                        s.push_str(part);
                        s.push_str("::");
                    }
                    s.push_str(&file_module(name));
                }
                (None, None) => {
                    for _ in 0..=depth {
                        s.push_str("super::");
                    }
                    s.push_str(&file_module(name));
                }
            }
            s.push_str("::");
        }
        s.push_str(&place.path.join("::"));
        Ok(s)
    }

    /// Generates the code of every requested file.
    pub(crate) fn files(&self) -> Result<Vec<crate::GeneratedFile>, Error> {
        let mut out = Vec::new();
        for file in &self.schema.requested {
            let node = self.node(file.id)?;
            // A comment survives only as a doc attribute through the
            // formatter; the header line above is re-added after it.
            let mut body = String::new();
            let _ = writeln!(
                body,
                "/// Id of the schema file.\npub const FILE_ID: u64 = {:#x};",
                node.id
            );
            self.scope_items(&mut body, node, file.id, 0)?;
            let formatted = match format_rust(&body) {
                Ok(f) => f,
                Err(e) => return Err(self.format_error(file, node, &body, &e)),
            };
            let mut text = String::new();
            let _ = writeln!(
                text,
                "// Generated by capnarena-codegen from {}. Do not edit.\n",
                file.filename
            );
            text.push_str(&formatted);
            out.push(crate::GeneratedFile {
                name: format!("{}.rs", file_module(&file.filename)),
                contents: text,
            });
        }
        Ok(out)
    }

    /// The items nested in `scope`: types, constants, groups and implicit
    /// method structs.
    fn scope_items(
        &self,
        out: &mut String,
        scope: &Node,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        for (_, id) in &scope.nested {
            let Some(child) = self.schema.nodes.get(id) else {
                continue;
            };
            self.item(out, child, file, depth)?;
        }
        if let NodeKind::Struct(s) = &scope.kind {
            for f in &s.fields {
                if let FieldKind::Group { type_id } = f.kind {
                    let group = self.node(type_id)?;
                    self.item(out, group, file, depth)?;
                }
            }
        }
        for (id, (iface, _)) in &self.implicit {
            if *iface == scope.id {
                self.item(out, self.node(*id)?, file, depth)?;
            }
        }
        Ok(())
    }

    fn item(&self, out: &mut String, node: &Node, file: u64, depth: usize) -> Result<(), Error> {
        let Some(place) = self.places.get(&node.id) else {
            return Ok(());
        };
        let name = place.path.last().cloned().unwrap_or_default();
        match &node.kind {
            NodeKind::Struct(s) => self.struct_module(out, node, s, &name, file, depth),
            NodeKind::Enum(e) => {
                self.enum_item(out, node, e, &name);
                Ok(())
            }
            NodeKind::Interface(_) => {
                let fallback = format!(
                    "The `{}` interface (its method parameter and result structs).",
                    node.short_name()
                );
                doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
                let _ = writeln!(out, "pub mod {name} {{");
                let _ = writeln!(
                    out,
                    "/// Id of the interface.\npub const TYPE_ID: u64 = {:#x};",
                    node.id
                );
                self.scope_items(out, node, file, depth + 1)?;
                out.push_str("}\n");
                Ok(())
            }
            NodeKind::Const { ty, value } => {
                self.const_item(out, node, ty, value, &name, file, depth)
            }
            NodeKind::File | NodeKind::Annotation => Ok(()),
        }
    }

    fn enum_item(&self, out: &mut String, node: &Node, enumerants: &[Enumerant], name: &str) {
        let variants = enumerant_names(enumerants);
        let rt = &self.rt;
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

    #[allow(clippy::too_many_arguments)]
    fn const_item(
        &self,
        out: &mut String,
        node: &Node,
        ty: &Type,
        value: &Value,
        name: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let rt = &self.rt;
        let fallback = format!("The `{}` constant.", node.short_name());
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        match (ty, value) {
            (Type::Void, _) => {
                let _ = writeln!(out, "pub const {name}: () = ();");
            }
            (Type::Text, Value::Text(t)) => match std::str::from_utf8(t) {
                Ok(t) => {
                    let _ = writeln!(out, "pub const {name}: &str = {t:?};");
                }
                // Not UTF-8 (the reference accepts it and keeps the
                // bytes): the bytes as they are.
                Err(_) => {
                    let _ = writeln!(
                        out,
                        "#[doc = \"\"]\n#[doc = \" Not UTF-8: the text's bytes as the schema writes them.\"]\npub const {name}: &[u8] = &{t:?};"
                    );
                }
            },
            (Type::Data, Value::Data(d)) => {
                let _ = writeln!(out, "pub const {name}: &[u8] = &{d:?};");
            }
            (Type::Enum(id), Value::Enum(v)) => {
                let path = self.path_to(*id, file, depth)?;
                match self.enumerant_name(*id, *v)? {
                    Some(e) => {
                        let _ = writeln!(out, "pub const {name}: {path} = {path}::{e};");
                    }
                    None => {
                        let _ = writeln!(out, "pub const {name}: u16 = {v};");
                    }
                }
            }
            (Type::Interface(_), _) => {}
            (ty, Value::Pointer(words)) if ty.is_pointer() => {
                let owned = self.owned_ty(ty, file, depth)?;
                let words = words.clone().unwrap_or_else(|| vec![0]);
                let _ = writeln!(
                    out,
                    "pub static {name}: {rt}::typed::Constant<{owned}> = {rt}::typed::Constant::new({});",
                    hex_words(&words, rt)
                );
            }
            (ty, value) => {
                let (rust, lit) = self.primitive(ty, value)?;
                let _ = writeln!(out, "pub const {name}: {rust} = {lit};");
            }
        }
        Ok(())
    }

    fn enumerant_name(&self, enum_id: u64, value: u16) -> Result<Option<String>, Error> {
        match &self.node(enum_id)?.kind {
            NodeKind::Enum(e) => Ok(enumerant_names(e).get(value as usize).cloned()),
            _ => Err(Error::MissingNode { id: enum_id }),
        }
    }

    /// The Rust type and literal of a primitive value.
    fn primitive(&self, ty: &Type, value: &Value) -> Result<(&'static str, String), Error> {
        let bits = match value {
            Value::Int(v) => *v,
            Value::Float32(v) => u64::from(*v),
            Value::Float64(v) => *v,
            Value::Bool(b) => u64::from(*b),
            Value::Enum(v) => u64::from(*v),
            _ => 0,
        };
        Ok(match ty {
            Type::Bool => ("bool", format!("{}", bits != 0)),
            Type::Int8 => ("i8", format!("{}", bits as i8)),
            Type::Int16 => ("i16", format!("{}", bits as i16)),
            Type::Int32 => ("i32", format!("{}", bits as i32)),
            Type::Int64 => ("i64", format!("{}", bits as i64)),
            Type::UInt8 => ("u8", format!("{}", bits as u8)),
            Type::UInt16 => ("u16", format!("{}", bits as u16)),
            Type::UInt32 => ("u32", format!("{}", bits as u32)),
            Type::UInt64 => ("u64", format!("{bits}")),
            Type::Float32 => ("f32", format!("f32::from_bits({:#x})", bits as u32)),
            Type::Float64 => ("f64", format!("f64::from_bits({bits:#x})")),
            Type::Enum(_) => ("u16", format!("{}", bits as u16)),
            _ => {
                return Err(Error::Unsupported {
                    what: format!("a primitive of type {ty:?}"),
                });
            }
        })
    }

    /// The generic parameters of node `id` and of the scopes around it,
    /// outermost first: (scope id, index, Rust type parameter name).
    fn scope_params(&self, id: u64) -> Vec<(u64, u16, String)> {
        let mut chain = Vec::new();
        let mut cur = id;
        let mut guard = 0;
        while let Some(node) = self.schema.nodes.get(&cur) {
            if matches!(node.kind, NodeKind::File) || guard > 256 {
                break;
            }
            guard += 1;
            chain.push(node);
            cur = match self.implicit.get(&cur) {
                Some((iface, _)) if node.scope_id == 0 => *iface,
                _ => node.scope_id,
            };
        }
        let mut out: Vec<(u64, u16, String)> = Vec::new();
        for node in chain.iter().rev() {
            for (i, name) in node.parameters.iter().enumerate() {
                let taken: Vec<&str> = out.iter().map(|(_, _, n)| n.as_str()).collect();
                out.push((node.id, i as u16, type_param(name, &taken)));
            }
        }
        out
    }

    /// The Rust name of generic parameter (`scope`, `index`) where code is
    /// being generated, if it is in scope.
    fn param(&self, scope: u64, index: u16) -> Option<String> {
        self.params
            .borrow()
            .iter()
            .find(|(s, i, _)| *s == scope && *i == index)
            .map(|(_, _, n)| n.clone())
    }

    /// The generic arguments of a use of struct `id` with `brand`, one
    /// per parameter of the struct and of its scopes (none for a struct
    /// that is not generic). As schema.capnp says: a scope the brand binds
    /// gives its bindings (an unbound one is `AnyPointer`), a scope it
    /// inherits gives the parameters in scope where the use is, and a
    /// scope it does not name is all `AnyPointer` (`Foo` named without
    /// parameters).
    fn brand_arg_list(
        &self,
        id: u64,
        brand: &Brand,
        file: u64,
        depth: usize,
    ) -> Result<Vec<String>, Error> {
        let target = self.scope_params(id);
        let any = format!("{}::typed::AnyPointer", self.rt);
        let mut args = Vec::new();
        for (scope, index, _) in &target {
            let bound = brand.0.iter().find(|(s, _)| s == scope);
            let arg = match bound {
                Some((_, Some(bindings))) => match bindings.get(usize::from(*index)) {
                    Some(Some(ty)) => self.owned_ty(ty, file, depth)?,
                    _ => any.clone(),
                },
                Some((_, None)) => self.param(*scope, *index).unwrap_or_else(|| any.clone()),
                None => any.clone(),
            };
            args.push(arg);
        }
        Ok(args)
    }

    /// `<A1, A2>`: [`Self::brand_arg_list`] as a generic argument list, or
    /// "" for a struct that is not generic.
    fn brand_args(&self, id: u64, brand: &Brand, file: u64, depth: usize) -> Result<String, Error> {
        let args = self.brand_arg_list(id, brand, file, depth)?;
        Ok(if args.is_empty() {
            String::new()
        } else {
            format!("<{}>", args.join(", "))
        })
    }

    /// `ty` with generic parameters that are not in scope (a method's
    /// implicit parameters, or where generics are erased) made `AnyPointer`.
    fn resolve(&self, ty: &Type) -> Type {
        match ty {
            Type::Param { scope, index } if self.param(*scope, *index).is_none() => {
                Type::AnyPointer
            }
            Type::List(e) => Type::List(Box::new(self.resolve(e))),
            other => other.clone(),
        }
    }

    /// A list type's marker name in `typed` and its element parameter.
    fn list_parts(
        &self,
        elem: &Type,
        file: u64,
        depth: usize,
    ) -> Result<(&'static str, Option<String>), Error> {
        Ok(match elem {
            Type::Void => ("VoidList", None),
            Type::Bool => ("BoolList", None),
            Type::Enum(id) => ("EnumList", Some(self.path_to(*id, file, depth)?)),
            Type::Text => ("TextList", None),
            Type::Data => ("DataList", None),
            Type::Struct(..) => ("StructList", Some(self.owned_ty(elem, file, depth)?)),
            Type::Param { .. } if self.resolve(elem) != Type::AnyPointer => {
                ("ListList", Some(self.owned_ty(elem, file, depth)?))
            }
            Type::AnyPointer | Type::Interface(_) | Type::Param { .. } => ("AnyPointerList", None),
            Type::List(_) => ("ListList", Some(self.owned_ty(elem, file, depth)?)),
            prim => (
                "PrimitiveList",
                Some(self.primitive(prim, &Value::Void)?.0.to_string()),
            ),
        })
    }

    /// The [`Owned`] marker naming a pointer type.
    fn owned_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.rt;
        Ok(match ty {
            Type::Text => format!("{rt}::typed::Text"),
            Type::Data => format!("{rt}::typed::Data"),
            Type::Struct(id, brand) => format!(
                "{}::Owned{}",
                self.path_to(*id, file, depth)?,
                self.brand_args(*id, brand, file, depth)?
            ),
            Type::Param { scope, index } => self
                .param(*scope, *index)
                .unwrap_or_else(|| format!("{rt}::typed::AnyPointer")),
            Type::AnyPointer | Type::Interface(_) => format!("{rt}::typed::AnyPointer"),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}<{arg}>"),
                (base, None) => format!("{rt}::typed::{base}"),
            },
            other => {
                return Err(Error::Unsupported {
                    what: format!("a pointer of type {other:?}"),
                });
            }
        })
    }

    /// The reader type of a pointer type, borrowing for `'a`.
    fn reader_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.rt;
        Ok(match ty {
            Type::Text => "&'a str".into(),
            Type::Data => "&'a [u8]".into(),
            Type::Struct(id, brand) => {
                let args: String = self
                    .brand_arg_list(*id, brand, file, depth)?
                    .iter()
                    .map(|a| format!(", {a}"))
                    .collect();
                format!("{}::Reader<'a{args}>", self.path_to(*id, file, depth)?)
            }
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!("<{p} as {rt}::typed::Owned>::Reader<'a>"),
                None => format!("{rt}::PointerReader<'a>"),
            },
            Type::AnyPointer => format!("{rt}::PointerReader<'a>"),
            Type::Interface(_) => "u32".into(),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}Reader<'a, {arg}>"),
                (base, None) => format!("{rt}::typed::{base}Reader<'a>"),
            },
            other => {
                return Err(Error::Unsupported {
                    what: format!("a pointer of type {other:?}"),
                });
            }
        })
    }

    /// The builder type of a pointer type, borrowing for `'b`.
    fn builder_ty(&self, ty: &Type, file: u64, depth: usize) -> Result<String, Error> {
        let rt = &self.rt;
        Ok(match ty {
            Type::Text => format!("{rt}::typed::TextBuilder<'b>"),
            Type::Data => "&'b mut [u8]".into(),
            Type::Struct(id, brand) => {
                let args: String = self
                    .brand_arg_list(*id, brand, file, depth)?
                    .iter()
                    .map(|a| format!(", {a}"))
                    .collect();
                format!("{}::Builder<'b, A{args}>", self.path_to(*id, file, depth)?)
            }
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!("<{p} as {rt}::typed::Owned>::Builder<'b, A>"),
                None => format!("{rt}::PointerBuilder<'b, A>"),
            },
            Type::AnyPointer | Type::Interface(_) => format!("{rt}::PointerBuilder<'b, A>"),
            Type::List(e) => match self.list_parts(e, file, depth)? {
                (base, Some(arg)) => format!("{rt}::typed::{base}Builder<'b, A, {arg}>"),
                (base, None) => format!("{rt}::typed::{base}Builder<'b, A>"),
            },
            other => {
                return Err(Error::Unsupported {
                    what: format!("a pointer of type {other:?}"),
                });
            }
        })
    }

    fn struct_module(
        &self,
        out: &mut String,
        node: &Node,
        s: &StructNode,
        name: &str,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        let rt = &self.rt;
        let d = depth + 1; // code inside the module
        let fallback = format!(
            "The `{}` {}.",
            node.short_name(),
            if s.is_group { "group" } else { "struct" }
        );
        doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
        let _ = writeln!(out, "pub mod {name} {{");
        let _ = writeln!(
            out,
            "/// Id of the {}.\npub const TYPE_ID: u64 = {:#x};",
            if s.is_group { "group" } else { "struct" },
            node.id
        );
        // Generic parameters (the node's and its scopes'): type parameters
        // of the reader, the builder and `Owned`, defaulting to AnyPointer.
        let params = self.scope_params(node.id);
        let saved = self.params.replace(params.clone());
        let claims: Vec<(&str, Vec<Form>)> = s
            .fields
            .iter()
            .map(|f| (f.spelling(), self.field_forms(f)))
            .collect();
        let stems = field_methods(&claims);
        self.stems.replace(
            s.fields
                .iter()
                .zip(stems)
                .map(|(f, stem)| (f.name.clone(), stem))
                .collect(),
        );
        let g = Generics::new(&params, rt);
        let (tl, tb, td, mk) = (&g.list, &g.bounds, &g.defaults, &g.marker);
        if params.is_empty() {
            let _ = writeln!(
                out,
                "/// Reads a `{0}`.\n#[derive(Clone, Copy)]\npub struct Reader<'a> {{ pub(super) reader: {rt}::StructReader<'a> }}\n\
                 /// Builds a `{0}`.\npub struct Builder<'a, A: {rt}::Arena + ?Sized> {{ pub(super) builder: {rt}::StructBuilder<'a, A> }}",
                node.short_name()
            );
        } else {
            let _ = writeln!(
                out,
                "/// The generic parameters, as the type of a handle's marker field.\ntype Params<{tl_bare}> = ::core::marker::PhantomData<fn() -> ({tl_tuple})>;\n\
                 /// Reads a `{0}`.\npub struct Reader<'a{td}> {{ pub(super) reader: {rt}::StructReader<'a>, pub(super) marker: Params<{tl_bare}> }}\n\
                 impl<{tb_bare}> Clone for Reader<'_{tl}> {{ fn clone(&self) -> Self {{ *self }} }}\n\
                 impl<{tb_bare}> Copy for Reader<'_{tl}> {{}}\n\
                 /// Builds a `{0}`.\npub struct Builder<'a, A: {rt}::Arena + ?Sized{td}> {{ pub(super) builder: {rt}::StructBuilder<'a, A>, pub(super) marker: Params<{tl_bare}> }}",
                node.short_name(),
                tl_tuple = g.tuple,
                tl_bare = tl.trim_start_matches(", "),
                tb_bare = g.bounds.trim_start_matches(", "),
            );
        }
        if !s.is_group {
            let owned_decl = if params.is_empty() {
                "pub struct Owned;".to_string()
            } else {
                format!(
                    "pub struct Owned<{}>(Params<{}>);",
                    td.trim_start_matches(", "),
                    tl.trim_start_matches(", ")
                )
            };
            let owned_impl = if params.is_empty() {
                "impl".to_string()
            } else {
                format!("impl<{}>", tb.trim_start_matches(", "))
            };
            let owned_use = if params.is_empty() {
                "Owned".to_string()
            } else {
                format!("Owned<{}>", tl.trim_start_matches(", "))
            };
            let _ = writeln!(
                out,
                "/// Names the struct's reader and builder in generic code (lists, roots).\n{owned_decl}\n\
                 /// Data words and pointers of the struct.\npub const STRUCT_SIZE: {rt}::StructSize = {rt}::StructSize::new({}, {});\n\
                 {owned_impl} {rt}::typed::StructOwned for {owned_use} {{\n\
                   const STRUCT_SIZE: {rt}::StructSize = STRUCT_SIZE;\n\
                   type Reader<'a> = Reader<'a{tl}>;\n\
                   type Builder<'a, A: {rt}::Arena + ?Sized + 'a> = Builder<'a, A{tl}>;\n\
                   #[inline] fn wrap_reader(reader: {rt}::StructReader<'_>) -> Reader<'_{tl}> {{ Reader {{ reader{mk} }} }}\n\
                   #[inline] fn wrap_builder<A: {rt}::Arena + ?Sized>(builder: {rt}::StructBuilder<'_, A>) -> Builder<'_, A{tl}> {{ Builder {{ builder{mk} }} }}\n\
                   #[inline] fn struct_reader<'a>(r: &Self::Reader<'a>) -> {rt}::StructReader<'a> {{ r.reader }}\n\
                   fn write_text<'a>(r: &Self::Reader<'a>, v: &mut dyn {rt}::typed::TextVisitor<'a>) {{ r.write_text(v) }}\n\
                 }}\n\
                 impl<'a{tb}> {rt}::typed::FromStructReader<'a> for Reader<'a{tl}> {{\n\
                   #[inline] fn from_struct_reader(reader: {rt}::StructReader<'a>) -> Self {{ Reader {{ reader{mk} }} }}\n\
                 }}\n\
                 impl<'a, A: {rt}::Arena + ?Sized{tb}> {rt}::typed::FromStructBuilder<'a, A> for Builder<'a, A{tl}> {{\n\
                   const STRUCT_SIZE: {rt}::StructSize = STRUCT_SIZE;\n\
                   #[inline] fn from_struct_builder(builder: {rt}::StructBuilder<'a, A>) -> Self {{ Builder {{ builder{mk} }} }}\n\
                 }}",
                s.data_words, s.pointers
            );
        }

        // Fields in code order.
        let mut fields: Vec<&Field> = s.fields.iter().collect();
        fields.sort_by_key(|f| f.code_order);

        let mut reader = String::new();
        let mut builder = String::new();
        let mut statics = String::new();
        let kind = if s.is_group { "group" } else { "struct" };
        let _ = writeln!(
            reader,
            "/// The untyped reader under this one.\n#[inline] pub fn as_struct_reader(&self) -> {rt}::StructReader<'a> {{ self.reader }}"
        );
        let _ = writeln!(
            builder,
            "/// A shorter-lived handle to the same {kind}.\n#[inline] pub fn reborrow(&mut self) -> Builder<'_, A{tl}> {{ Builder {{ builder: self.builder.reborrow(){mk} }} }}\n\
             /// The untyped builder under this one.\n#[inline] pub fn into_struct_builder(self) -> {rt}::StructBuilder<'a, A> {{ self.builder }}\n\
             /// The untyped builder under this one, reborrowed.\n#[inline] pub fn as_struct_builder(&mut self) -> {rt}::StructBuilder<'_, A> {{ self.builder.reborrow() }}"
        );
        if !s.is_group {
            let owned_use = if params.is_empty() {
                "Owned".to_string()
            } else {
                format!("Owned<{}>", tl.trim_start_matches(", "))
            };
            let _ = writeln!(
                reader,
                "/// Words and capabilities the struct and everything it points to take.\n\
                 /// # Errors\n/// A pointer under it is malformed, out of bounds or over a limit.\n\
                 pub fn total_size(&self) -> {rt}::Result<{rt}::MessageSize> {{ self.reader.total_size() }}"
            );
            let _ = writeln!(
                builder,
                "/// A read view of the struct as built so far, while this builder is borrowed: `b.reborrow_as_reader().get()`.\n\
                 pub fn reborrow_as_reader(&self) -> {rt}::typed::ReaderView<'_, {owned_use}> {{ {rt}::typed::ReaderView::new(self.builder.reader_view()) }}\n\
                 /// A read view of the struct as built, for the rest of the builder's lifetime (the builder is given up).\n\
                 pub fn into_reader(self) -> {rt}::typed::ReaderView<'a, {owned_use}> {{ {rt}::typed::ReaderView::new(self.builder.into_reader_view()) }}"
            );
            let _ = writeln!(
                builder,
                "/// Overwrites this struct with a copy of `value` (fields it has no room for are dropped).\n\
                 /// # Errors\n/// The source is malformed or over a limit, or the arena has no room.\n\
                 #[inline] pub fn set_from(&mut self, value: Reader<'_{tl}>) -> {rt}::Result<()> {{ self.builder.copy_from(&value.reader) }}"
            );
        }

        for f in &fields {
            let (r0, b0) = (reader.len(), builder.len());
            self.field(&mut reader, &mut builder, &mut statics, s, f, file, d, &g)?;
            // A deeply nested type (lists of lists of generic structs)
            // spells out too long for clippy's `type_complexity`; a type
            // alias per field would add names that could collide, so the
            // field's accessors allow it instead.
            if let FieldKind::Slot { ty, .. } = &f.kind {
                if self.too_complex(ty, file, d)? {
                    for (text, start) in [(&mut reader, r0), (&mut builder, b0)] {
                        let tail = text.split_off(start);
                        text.push_str(
                            &tail.replace(
                                "#[inline] ",
                                "#[allow(clippy::type_complexity)] #[inline] ",
                            ),
                        );
                    }
                }
            }
        }

        if s.discriminant_count > 0 {
            self.which(&mut reader, &mut builder, out, s, &fields, file, d)?;
        }
        self.write_text(&mut reader, s, file, d)?;
        let _ = writeln!(
            builder,
            "/// Runs `f` on a reader of the {kind} as built so far.\n\
             #[inline] pub fn with_reader<R>(&self, f: impl for<'r> FnOnce(Reader<'r{tl}>) -> R) -> R {{ self.builder.with_reader(|reader| f(Reader {{ reader{mk} }})) }}"
        );
        let tb_bare = tb.trim_start_matches(", ");
        let _ = writeln!(
            out,
            "impl<{tb_bare}> ::core::fmt::Debug for Reader<'_{tl}> {{\n\
               /// The reference's text format: `{{:?}}` as `capnp convert binary:text --short`, `{{:#?}}` as `capnp convert binary:text`.\n\
               fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ {rt}::typed::fmt_text(f, |v| self.write_text(v)) }}\n\
             }}\n\
             impl<A: {rt}::Arena + ?Sized{tb}> ::core::fmt::Debug for Builder<'_, A{tl}> {{\n\
               /// As the reader's `Debug`, of the {kind} as built so far.\n\
               fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ self.with_reader(|r| ::core::fmt::Debug::fmt(&r, f)) }}\n\
             }}"
        );

        let _ = writeln!(out, "impl<'a{tb}> Reader<'a{tl}> {{\n{reader}}}");
        let _ = writeln!(
            out,
            "impl<'a, A: {rt}::Arena + ?Sized{tb}> Builder<'a, A{tl}> {{\n{builder}}}"
        );
        out.push_str(&statics);
        let nested = self.scope_items(out, node, file, d);
        self.params.replace(saved);
        nested?;
        out.push_str("}\n");
        Ok(())
    }

    /// Whether an accessor of a field of type `ty` may have a type over
    /// clippy's `type_complexity` threshold: its reader or builder type
    /// in a `Result`, as getters return them.
    fn too_complex(&self, ty: &Type, file: u64, d: usize) -> Result<bool, Error> {
        let ty = self.resolve(ty);
        if !ty.is_pointer() {
            return Ok(false);
        }
        let rt = &self.rt;
        let reader = format!("{rt}::Result<{}>", self.reader_ty(&ty, file, d)?);
        let builder = format!("{rt}::Result<{}>", self.builder_ty(&ty, file, d)?);
        Ok(complexity(&reader).max(complexity(&builder)) > COMPLEX_SCORE)
    }

    /// The method names of field `f` of the struct being generated.
    fn names_of(&self, f: &Field) -> FieldMethods {
        self.stems
            .borrow()
            .get(&f.name)
            .cloned()
            .unwrap_or_else(|| FieldMethods {
                stem: convert(f.spelling(), Case::Snake),
                bump: String::new(),
            })
    }

    /// The part of field `f`'s method names after `get_`, `set_`, `has_`
    /// and `init_`: its stem and any trailing underscores.
    fn stem(&self, f: &Field) -> String {
        let names = self.names_of(f);
        names.stem + &names.bump
    }

    /// The forms of the methods field `f` gets (rule 3 of `names`): every
    /// field claims `get_`, `set_`, `has_` and `init_`, text its
    /// `get_*_bytes`, lists their bulk setters.
    fn field_forms(&self, f: &Field) -> Vec<Form> {
        let mut forms = vec![("get_", ""), ("set_", ""), ("has_", ""), ("init_", "")];
        if let FieldKind::Slot { ty, .. } = &f.kind {
            match ty {
                Type::Text => forms.push(("get_", "_bytes")),
                Type::Param { .. } => forms.push(("initn_", "")),
                Type::List(elem) => match **elem {
                    Type::Text | Type::Data => forms.push(("set_", "_from_iter")),
                    ref e if !e.is_pointer() && !matches!(e, Type::Void | Type::Enum(_)) => {
                        forms.push(("set_", "_from_slice"))
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        forms
    }

    /// Writes the discriminant before a union member is set.
    fn set_disc(&self, s: &StructNode, f: &Field) -> String {
        match f.discriminant {
            Some(v) => format!("self.builder.set::<u16>({}, {v});\n", s.discriminant_offset),
            None => String::new(),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn field(
        &self,
        reader: &mut String,
        builder: &mut String,
        statics: &mut String,
        s: &StructNode,
        f: &Field,
        file: u64,
        d: usize,
        g: &Generics,
    ) -> Result<(), Error> {
        let rt = &self.rt;
        let (tl, mk) = (&g.list, &g.marker);
        let n = self.stem(f);
        let fallback = format!("The `{}` field.", f.name);
        let doc = Some(f.doc.as_deref().unwrap_or(&fallback));
        let disc = self.set_disc(s, f);
        // Union members: the reader's getter is private (`which()` and
        // `write_text` use it), the builder has none, and `has_` is false
        // unless the member is the active one. See the module docs.
        let member = f.discriminant.is_some();
        let vis = if member { "" } else { "pub " };
        if f.option {
            let supported = !member
                && matches!(&f.kind, FieldKind::Slot { ty, .. }
                    if matches!(ty, Type::Text | Type::Data | Type::List(_) | Type::Struct(..) | Type::Param { .. }));
            if !supported {
                return Err(Error::Unsupported {
                    what: format!(
                        "$Rust.option on field `{}`: only on a text, data, list, struct or generic field outside a union",
                        f.name
                    ),
                });
            }
        }
        let active = match f.discriminant {
            Some(k) => format!(
                "self.reader.get::<u16>({}) == {k} && ",
                s.discriminant_offset
            ),
            None => String::new(),
        };
        let active_b = active.replace("self.reader", "self.builder");
        let (offset, ty, default) = match &f.kind {
            FieldKind::Group { type_id } => {
                let module = self
                    .places
                    .get(type_id)
                    .and_then(|p| p.path.last().cloned())
                    .ok_or(Error::MissingNode { id: *type_id })?;
                doc_attr(reader, doc);
                let _ = writeln!(
                    reader,
                    "#[inline] {vis}fn get_{n}(&self) -> {module}::Reader<'a{tl}> {{ {module}::Reader {{ reader: self.reader{mk} }} }}"
                );
                if !member {
                    doc_attr(builder, doc);
                    let _ = writeln!(
                        builder,
                        "#[inline] pub fn get_{n}(&mut self) -> {module}::Builder<'_, A{tl}> {{ {module}::Builder {{ builder: self.builder.reborrow(){mk} }} }}"
                    );
                }
                let mut clear = String::new();
                self.clear_group(&mut clear, *type_id)?;
                doc_attr(builder, doc);
                let _ = writeln!(
                    builder,
                    "/// Sets every field of the group to its default{} and returns it.\n\
                     pub fn init_{n}(&mut self) -> {module}::Builder<'_, A{tl}> {{ {disc}{clear}{module}::Builder {{ builder: self.builder.reborrow(){mk} }} }}",
                    if f.discriminant.is_some() {
                        ", makes it the union's member,"
                    } else {
                        ""
                    }
                );
                return Ok(());
            }
            FieldKind::Slot {
                offset,
                ty,
                default,
            } => (*offset as usize, self.resolve(ty), default),
        };
        match &ty {
            Type::Void => {
                if !member {
                    doc_attr(reader, doc);
                    let _ = writeln!(reader, "#[inline] pub fn get_{n}(&self) {{}}");
                }
                doc_attr(builder, doc);
                let _ = writeln!(builder, "#[inline] pub fn set_{n}(&mut self) {{ {disc} }}");
            }
            Type::Bool => {
                let dv = matches!(default, Value::Bool(true));
                let (get, set) = if dv {
                    (
                        format!("get_bool_or({offset}, true)"),
                        format!("set_bool_or({offset}, value, true)"),
                    )
                } else {
                    (
                        format!("get_bool({offset})"),
                        format!("set_bool({offset}, value)"),
                    )
                };
                scalar_accessors(reader, builder, doc, &n, "bool", &get, &set, &disc);
            }
            Type::Enum(id) => {
                let path = self.path_to(*id, file, d)?;
                let dv = match default {
                    Value::Enum(v) => *v,
                    _ => 0,
                };
                doc_attr(reader, doc);
                let _ = writeln!(
                    reader,
                    "/// # Errors\n/// The value on the wire is not in the schema.\n\
                     #[inline] {vis}fn get_{n}(&self) -> ::core::result::Result<{path}, {rt}::typed::NotInSchema> {{ <{path} as ::core::convert::TryFrom<u16>>::try_from(self.reader.get_or::<u16>({offset}, {dv})) }}"
                );
                if !member {
                    doc_attr(builder, doc);
                    let _ = writeln!(
                        builder,
                        "/// # Errors\n/// The value in the message is not in the schema.\n\
                         #[inline] pub fn get_{n}(&self) -> ::core::result::Result<{path}, {rt}::typed::NotInSchema> {{ <{path} as ::core::convert::TryFrom<u16>>::try_from(self.builder.get_or::<u16>({offset}, {dv})) }}"
                    );
                }
                doc_attr(builder, doc);
                let _ = writeln!(
                    builder,
                    "#[inline] pub fn set_{n}(&mut self, value: {path}) {{ {disc}self.builder.set_or::<u16>({offset}, u16::from(value), {dv}); }}"
                );
            }
            ty if !ty.is_pointer() => {
                let (rust, lit) = self.primitive(ty, default)?;
                let zero = match default {
                    Value::Int(v) | Value::Float64(v) => *v == 0,
                    Value::Float32(v) => *v == 0,
                    _ => true,
                };
                let (get, set) = if zero {
                    (
                        format!("get::<{rust}>({offset})"),
                        format!("set::<{rust}>({offset}, value)"),
                    )
                } else {
                    (
                        format!("get_or::<{rust}>({offset}, {lit})"),
                        format!("set_or::<{rust}>({offset}, value, {lit})"),
                    )
                };
                scalar_accessors(reader, builder, doc, &n, rust, &get, &set, &disc);
            }
            Type::Interface(_) => {
                doc_attr(reader, doc);
                let _ = writeln!(
                    reader,
                    "/// The capability's index in the message's capability table.\n/// # Errors\n/// The pointer is not a capability.\n\
                     #[inline] {vis}fn get_{n}(&self) -> {rt}::Result<u32> {{ self.reader.pointer({offset}).get_capability() }}"
                );
                let _ = writeln!(
                    reader,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active}self.reader.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
                doc_attr(builder, doc);
                let _ = writeln!(
                    builder,
                    "/// Points the field at capability `index` of the message's capability table.\n\
                     #[inline] pub fn set_{n}(&mut self, index: u32) {{ {disc}self.builder.pointer({offset}).set_capability(index); }}"
                );
                let _ = writeln!(
                    builder,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active_b}self.builder.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
            }
            Type::AnyPointer => {
                doc_attr(reader, doc);
                let _ = writeln!(
                    reader,
                    "/// The untyped pointer; read it as a type with `get_as::<T>()`.\n\
                     #[inline] {vis}fn get_{n}(&self) -> {rt}::PointerReader<'a> {{ self.reader.pointer({offset}) }}"
                );
                let _ = writeln!(
                    reader,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active}self.reader.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
                doc_attr(builder, doc);
                if member {
                    let _ = writeln!(
                        builder,
                        "/// Makes the member the union's active one and returns its slot, cleared; build a value in it with `init_as::<T>(len)`.\n\
                         #[inline] pub fn init_{n}(&mut self) -> {rt}::PointerBuilder<'_, A> {{ {disc}let mut p = self.builder.pointer({offset}); p.clear(); p }}"
                    );
                } else {
                    let _ = writeln!(
                        builder,
                        "/// The untyped slot; build a value in it with `init_as::<T>(len)`.\n\
                         #[inline] pub fn get_{n}(&mut self) -> {rt}::PointerBuilder<'_, A> {{ self.builder.pointer({offset}) }}"
                    );
                }
                doc_attr(builder, doc);
                let _ = writeln!(
                    builder,
                    "/// Points the field at a deep copy of `value`.\n/// # Errors\n/// The source is malformed, or the arena has no room.\n\
                     #[inline] pub fn set_{n}(&mut self, value: {rt}::PointerReader<'_>) -> {rt}::Result<()> {{ {disc}self.builder.pointer({offset}).set_from(&value) }}"
                );
                let _ = writeln!(
                    builder,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active_b}self.builder.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
            }
            ty => {
                let owned = self.owned_ty(ty, file, d)?;
                let rty = self.reader_ty(ty, file, d)?;
                let bty = self.builder_ty(ty, file, d)?;
                // A text default that is not UTF-8 is kept as its words,
                // read as any pointer default: the getter gives the
                // runtime's UTF-8 error, the bytes getter and the builder
                // the bytes as they are.
                let as_words;
                let default = match (ty, default) {
                    (Type::Text, Value::Text(t)) if std::str::from_utf8(t).is_err() => {
                        as_words = Value::Pointer(Some(text_words(t)));
                        &as_words
                    }
                    _ => default,
                };
                // A schema default for the pointer, as text, data, or words.
                let default_words = match (ty, default) {
                    (Type::Text, Value::Text(t)) if !t.is_empty() => {
                        Some(format!("{:?}", String::from_utf8_lossy(t)))
                    }
                    (Type::Data, Value::Data(b)) if !b.is_empty() => Some(format!("&{b:?}")),
                    (_, Value::Pointer(Some(words))) => {
                        let st = format!("{}__DEFAULT", n.to_ascii_uppercase());
                        let _ = writeln!(
                            statics,
                            "static {st}: {rt}::layout::StaticContext = {rt}::layout::StaticContext::new({});",
                            hex_words(words, rt)
                        );
                        Some(st)
                    }
                    _ => None,
                };
                let is_blob = matches!(ty, Type::Text | Type::Data)
                    && !matches!(default, Value::Pointer(Some(_)));
                // Reader.
                let read = match (&default_words, is_blob) {
                    (Some(lit), true) => format!(
                        "let p = self.reader.pointer({offset}); if p.is_null() {{ Ok({lit}) }} else {{ <{owned} as {rt}::typed::Owned>::read(p) }}"
                    ),
                    (Some(st), false) => format!(
                        "<{owned} as {rt}::typed::Owned>::read({rt}::typed::or_default(self.reader.pointer({offset}), &{st})?)"
                    ),
                    (None, _) => format!(
                        "<{owned} as {rt}::typed::Owned>::read(self.reader.pointer({offset}))"
                    ),
                };
                doc_attr(reader, doc);
                if f.option {
                    let _ = writeln!(
                        reader,
                        "/// `None` when the field is not set (`$Rust.option`).\n/// # Errors\n/// The pointer holds something else, or is out of bounds or over a limit.\n\
                         #[inline] {vis}fn get_{n}(&self) -> {rt}::Result<::core::option::Option<{rty}>> {{ if self.reader.pointer({offset}).is_null() {{ Ok(None) }} else {{ let value: {rt}::Result<{rty}> = {{ {read} }}; value.map(Some) }} }}"
                    );
                } else {
                    let _ = writeln!(
                        reader,
                        "/// # Errors\n/// The pointer holds something else, or is out of bounds or over a limit.\n\
                         #[inline] {vis}fn get_{n}(&self) -> {rt}::Result<{rty}> {{ {read} }}"
                    );
                }
                // Text: its bytes as well, without the UTF-8 check (what
                // the wire holds; capnp's own readers check on demand too).
                // Left out when another field would take the name.
                let bytes_name = self.names_of(f).method(("", "_bytes"));
                if matches!(ty, Type::Text) && !member {
                    let read = match (&default_words, is_blob) {
                        (Some(lit), true) => format!(
                            "let p = self.reader.pointer({offset}); if p.is_null() {{ Ok({lit}.as_bytes()) }} else {{ p.get_text_bytes() }}"
                        ),
                        (Some(st), false) => format!(
                            "{rt}::typed::or_default(self.reader.pointer({offset}), &{st})?.get_text_bytes()"
                        ),
                        (None, _) => format!("self.reader.pointer({offset}).get_text_bytes()"),
                    };
                    let _ = writeln!(
                        reader,
                        "/// The `{}` field's bytes as stored (terminator excluded), without the UTF-8 check `get_{n}` makes.\n\
                         /// # Errors\n/// The pointer holds something else, or is out of bounds or over a limit.\n\
                         #[inline] pub fn get_{bytes_name}(&self) -> {rt}::Result<&'a [u8]> {{ {read} }}",
                        f.name
                    );
                }
                let _ = writeln!(
                    reader,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active}self.reader.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
                // Builder: set, init, get, has.
                let set_arg = match ty {
                    Type::Text => "&str".to_string(),
                    Type::Data => "&[u8]".to_string(),
                    _ => rty.replace("'a", "'_"),
                };
                doc_attr(builder, doc);
                let _ = writeln!(
                    builder,
                    "/// Points the field at a copy of `value`.\n/// # Errors\n/// The source is malformed, or the arena has no room.\n\
                     #[inline] pub fn set_{n}(&mut self, value: {set_arg}) -> {rt}::Result<()> {{ {disc}<{owned} as {rt}::typed::Owned>::set(self.builder.pointer({offset}), value) }}"
                );
                // Bulk setters for lists of primitives, bools, text and data.
                if let Type::List(elem) = &ty {
                    let bulk = match &**elem {
                        Type::Bool => {
                            Some(("&[bool]".to_string(), "BoolList", "set_slice", "from_slice"))
                        }
                        Type::Text => Some((String::new(), "TextList", "set_iter", "from_iter")),
                        Type::Data => Some((String::new(), "DataList", "set_iter", "from_iter")),
                        Type::Int8
                        | Type::Int16
                        | Type::Int32
                        | Type::Int64
                        | Type::UInt8
                        | Type::UInt16
                        | Type::UInt32
                        | Type::UInt64
                        | Type::Float32
                        | Type::Float64 => {
                            let prim = self.primitive(elem, &Value::Void)?.0;
                            Some((
                                format!("&[{prim}]"),
                                "PrimitiveList",
                                "set_slice",
                                "from_slice",
                            ))
                        }
                        _ => None,
                    };
                    if let Some((arg, marker, func, suffix)) = bulk {
                        let bulk_name = self.names_of(f).method((
                            "set_",
                            if suffix == "from_slice" {
                                "_from_slice"
                            } else {
                                "_from_iter"
                            },
                        ));
                        let marker_ty = if marker == "PrimitiveList" {
                            format!(
                                "{rt}::typed::PrimitiveList::<{}>",
                                self.primitive(elem, &Value::Void)?.0
                            )
                        } else {
                            format!("{rt}::typed::{marker}")
                        };
                        doc_attr(builder, doc);
                        if suffix == "from_slice" {
                            let _ = writeln!(
                                builder,
                                "/// Points the field at a new list holding `values` (one allocation and copy).\n/// # Errors\n/// Too long to encode, or the arena has no room.\n\
                                 #[inline] pub fn {bulk_name}(&mut self, values: {arg}) -> {rt}::Result<()> {{ {disc}{marker_ty}::{func}(self.builder.pointer({offset}), values) }}"
                            );
                        } else {
                            let item = if marker == "TextList" {
                                "&'s str"
                            } else {
                                "&'s [u8]"
                            };
                            let _ = writeln!(
                                builder,
                                "/// Points the field at a new list of `items`, laid out in one allocation.\n/// # Errors\n/// Too long to encode, or the arena has no room.\n\
                                 #[inline] pub fn {bulk_name}<'s, I>(&mut self, items: I) -> {rt}::Result<()> where I: IntoIterator<Item = {item}>, I::IntoIter: ExactSizeIterator + Clone {{ {disc}{marker_ty}::{func}(self.builder.pointer({offset}), items) }}"
                            );
                        }
                    }
                }
                let bty_ = bty.replace("'b", "'_");
                doc_attr(builder, doc);
                if matches!(ty, Type::Struct(..)) {
                    let _ = writeln!(
                        builder,
                        "/// Points the field at a new struct, every field at its default.\n/// # Errors\n/// The arena has no room.\n\
                         #[inline] pub fn init_{n}(&mut self) -> {rt}::Result<{bty_}> {{ {disc}<{owned} as {rt}::typed::Owned>::init(self.builder.pointer({offset}), 0) }}"
                    );
                } else if matches!(ty, Type::Param { .. }) {
                    let initn = self.names_of(f).method(("initn_", ""));
                    let _ = writeln!(
                        builder,
                        "/// Points the field at a new value: a struct with every field at its default, or an empty list, text or data (`{initn}` gives a length).\n/// # Errors\n/// The arena has no room.\n\
                         #[inline] pub fn init_{n}(&mut self) -> {rt}::Result<{bty_}> {{ {disc}<{owned} as {rt}::typed::Owned>::init(self.builder.pointer({offset}), 0) }}"
                    );
                    doc_attr(builder, doc);
                    let _ = writeln!(
                        builder,
                        "/// Points the field at a new value of `len` elements (bytes for text and data; a struct ignores `len`).\n/// # Errors\n/// The arena has no room, or `len` is too large to encode.\n\
                         #[inline] pub fn {initn}(&mut self, len: u32) -> {rt}::Result<{bty_}> {{ {disc}<{owned} as {rt}::typed::Owned>::init(self.builder.pointer({offset}), len) }}"
                    );
                } else {
                    let _ = writeln!(
                        builder,
                        "/// Points the field at a new value of `len` elements (bytes for text and data).\n/// # Errors\n/// The arena has no room, or `len` is too large to encode.\n\
                         #[inline] pub fn init_{n}(&mut self, len: u32) -> {rt}::Result<{bty_}> {{ {disc}<{owned} as {rt}::typed::Owned>::init(self.builder.pointer({offset}), len) }}"
                    );
                }
                let fill = match (&default_words, is_blob) {
                    (Some(lit), true) => format!(
                        "if !self.builder.has_pointer({offset}) {{ <{owned} as {rt}::typed::Owned>::set(self.builder.pointer({offset}), {lit})?; }}"
                    ),
                    (Some(st), false) => format!(
                        "{rt}::typed::fill_default(&mut self.builder.pointer({offset}), &{st})?;"
                    ),
                    (None, _) => String::new(),
                };
                if f.option {
                    doc_attr(builder, doc);
                    let _ = writeln!(
                        builder,
                        "/// The field's value as a builder; `None` when it is not set (`$Rust.option`).\n/// # Errors\n/// The pointer holds something else.\n\
                         #[inline] pub fn get_{n}(&mut self) -> {rt}::Result<::core::option::Option<{bty_}>> {{ if !self.builder.has_pointer({offset}) {{ return Ok(None); }} <{owned} as {rt}::typed::Owned>::get(self.builder.pointer({offset})).map(Some) }}"
                    );
                } else if !member {
                    doc_attr(builder, doc);
                    let _ = writeln!(
                        builder,
                        "/// The field's value as a builder (its default, copied in, when unset).\n/// # Errors\n/// The pointer holds something else, or the arena has no room.\n\
                         #[inline] pub fn get_{n}(&mut self) -> {rt}::Result<{bty_}> {{ {fill}<{owned} as {rt}::typed::Owned>::get(self.builder.pointer({offset})) }}"
                    );
                }
                let _ = writeln!(
                    builder,
                    "/// Whether the `{}` field is set (its pointer is not null{}).\n#[inline] pub fn has_{n}(&self) -> bool {{ {active_b}self.builder.has_pointer({offset}) }}",
                    f.name,
                    if member {
                        " and the member is the union's active one"
                    } else {
                        ""
                    }
                );
            }
        }
        Ok(())
    }

    /// The reader's `write_text`: the struct's fields in the order and
    /// with the inclusion rules of the reference's text format (see the
    /// runtime's `text` module).
    fn write_text(
        &self,
        reader: &mut String,
        s: &StructNode,
        file: u64,
        d: usize,
    ) -> Result<(), Error> {
        let rt = &self.rt;
        let mut body = String::new();
        if s.discriminant_count > 0 {
            let _ = writeln!(
                body,
                "let which = self.reader.get::<u16>({});",
                s.discriminant_offset
            );
        }
        for f in &s.fields {
            let name = &f.name;
            let n = self.stem(f);
            // The conditions under which the field prints, and the code.
            let mut conds: Vec<String> = Vec::new();
            if let Some(k) = f.discriminant {
                conds.push(format!("which == {k}"));
            }
            let code = match &f.kind {
                FieldKind::Group { .. } => {
                    format!("v.field({name:?}); self.get_{n}().write_text(v);")
                }
                FieldKind::Slot {
                    offset,
                    ty,
                    default,
                } => {
                    // A null pointer prints only as the active member of a
                    // union whose discriminant is not 0.
                    if ty.is_pointer() && !matches!(f.discriminant, Some(k) if k != 0) {
                        conds.push(format!("self.reader.has_pointer({offset})"));
                    }
                    let mut value = match (ty, default) {
                        // A default that is not UTF-8 prints as its bytes.
                        (Type::Text, Value::Text(t)) if std::str::from_utf8(t).is_err() => format!(
                            "match {rt}::typed::or_default(self.reader.pointer({offset}), &{}__DEFAULT).and_then(|p| p.get_text_bytes()) {{ Ok(b) => v.text(b), Err(e) => v.error(e) }}",
                            n.to_ascii_uppercase()
                        ),
                        _ => self.text_slot(ty, *offset, &n, file, d)?,
                    };
                    if f.option {
                        // The getter gives an `Option`; the text reads the
                        // pointer itself (printed only when it is set).
                        let raw = format!(
                            "<{} as {rt}::typed::Owned>::read(self.reader.pointer({offset}))",
                            self.owned_ty(ty, file, d)?
                        );
                        value = value.replace(&format!("self.get_{n}()"), &raw);
                    }
                    format!("v.field({name:?}); {value}")
                }
            };
            if conds.is_empty() {
                let _ = writeln!(body, "{code}");
            } else {
                let _ = writeln!(body, "if {} {{ {code} }}", conds.join(" && "));
            }
        }
        let _ = writeln!(
            reader,
            "/// Feeds the value to `v` as the reference's text format prints it (what `Debug` prints).\n\
             pub fn write_text(&self, v: &mut dyn {rt}::typed::TextVisitor<'a>) {{ v.begin_struct(); {body} v.end_struct(); }}"
        );
        Ok(())
    }

    /// Code that feeds a slot's value to `v`.
    fn text_slot(
        &self,
        ty: &Type,
        offset: u32,
        n: &str,
        file: u64,
        d: usize,
    ) -> Result<String, Error> {
        Ok(match ty {
            Type::Void => "v.void();".into(),
            Type::Bool => format!("v.bool(self.get_{n}());"),
            Type::Int8 | Type::Int16 | Type::Int32 => format!("v.int(i64::from(self.get_{n}()));"),
            Type::Int64 => format!("v.int(self.get_{n}());"),
            Type::UInt8 | Type::UInt16 | Type::UInt32 => {
                format!("v.uint(u64::from(self.get_{n}()));")
            }
            Type::UInt64 => format!("v.uint(self.get_{n}());"),
            Type::Float32 => format!("v.float32(self.get_{n}());"),
            Type::Float64 => format!("v.float64(self.get_{n}());"),
            Type::Enum(id) => {
                let path = self.path_to(*id, file, d)?;
                format!(
                    "v.enumerant(match self.get_{n}() {{ Ok(e) => u16::from(e), Err(e) => e.0 }}, {path}::NAMES);"
                )
            }
            Type::Text => format!(
                "if self.reader.has_pointer({offset}) {{ match self.reader.pointer({offset}).get_text_bytes() {{ Ok(b) => v.text(b), Err(e) => v.error(e) }} }} else {{ match self.get_{n}() {{ Ok(t) => v.text(t.as_bytes()), Err(e) => v.error(e) }} }}"
            ),
            Type::Data => {
                format!("match self.get_{n}() {{ Ok(b) => v.data(b), Err(e) => v.error(e) }}")
            }
            Type::Struct(..) => {
                format!("match self.get_{n}() {{ Ok(s) => s.write_text(v), Err(e) => v.error(e) }}")
            }
            Type::Param { scope, index } => match self.param(*scope, *index) {
                // A parameter in scope prints as the type it is bound to.
                Some(p) => format!(
                    "match self.get_{n}() {{ Ok(x) => <{p} as {}::typed::Owned>::write_text(x, v), Err(e) => v.error(e) }}",
                    self.rt
                ),
                None => "v.any_pointer();".into(),
            },
            Type::AnyPointer => "v.any_pointer();".into(),
            Type::Interface(_) => "v.capability();".into(),
            Type::List(elem) => self.text_list(elem, &format!("self.get_{n}()"), file, d)?,
        })
    }

    /// Code that feeds the list `expr` (a `Result` of a typed list) to `v`.
    fn text_list(&self, elem: &Type, expr: &str, file: u64, d: usize) -> Result<String, Error> {
        let item = match elem {
            Type::Void => "v.void();".to_string(),
            Type::Bool => "v.bool(e);".into(),
            Type::Int8 | Type::Int16 | Type::Int32 => "v.int(i64::from(e));".into(),
            Type::Int64 => "v.int(e);".into(),
            Type::UInt8 | Type::UInt16 | Type::UInt32 => "v.uint(u64::from(e));".into(),
            Type::UInt64 => "v.uint(e);".into(),
            Type::Float32 => "v.float32(e);".into(),
            Type::Float64 => "v.float64(e);".into(),
            Type::Enum(id) => format!(
                "v.enumerant(match e {{ Ok(e) => u16::from(e), Err(e) => e.0 }}, {}::NAMES);",
                self.path_to(*id, file, d)?
            ),
            Type::Text => "match e { Ok(t) => v.text(t.as_bytes()), Err(e) => v.error(e) }".into(),
            Type::Data => "match e { Ok(b) => v.data(b), Err(e) => v.error(e) }".into(),
            Type::Struct(..) => "e.write_text(v);".into(),
            Type::Param { scope, index } => match self.param(*scope, *index) {
                Some(p) => format!(
                    "match e {{ Ok(x) => <{p} as {}::typed::Owned>::write_text(x, v), Err(e) => v.error(e) }}",
                    self.rt
                ),
                None => "v.any_pointer();".into(),
            },
            Type::AnyPointer => "v.any_pointer();".into(),
            Type::Interface(_) => "v.capability();".into(),
            Type::List(inner) => self.text_list(inner, "e", file, d)?,
        };
        // Elements whose value does not print are not bound.
        let binding = if matches!(
            self.resolve(elem),
            Type::Void | Type::AnyPointer | Type::Interface(_)
        ) {
            "_"
        } else {
            "e"
        };
        Ok(format!(
            "match {expr} {{ Ok(l) => {{ v.begin_list(); for {binding} in l.iter() {{ {item} }} v.end_list(); }} Err(e) => v.error(e), }}"
        ))
    }

    /// Statements that reset every field of group `id` (and of its groups)
    /// to the zero bits that mean "default".
    fn clear_group(&self, out: &mut String, id: u64) -> Result<(), Error> {
        let NodeKind::Struct(s) = &self.node(id)?.kind else {
            return Ok(());
        };
        if s.discriminant_count > 0 {
            let _ = writeln!(
                out,
                "self.builder.set::<u16>({}, 0);",
                s.discriminant_offset
            );
        }
        for f in &s.fields {
            match &f.kind {
                FieldKind::Group { type_id } => self.clear_group(out, *type_id)?,
                FieldKind::Slot { offset, ty, .. } => {
                    let stmt = match ty {
                        Type::Void => continue,
                        Type::Bool => format!("self.builder.set_bool({offset}, false);"),
                        Type::Int8 | Type::UInt8 => format!("self.builder.set::<u8>({offset}, 0);"),
                        Type::Int16 | Type::UInt16 | Type::Enum(_) => {
                            format!("self.builder.set::<u16>({offset}, 0);")
                        }
                        Type::Int32 | Type::UInt32 | Type::Float32 => {
                            format!("self.builder.set::<u32>({offset}, 0);")
                        }
                        Type::Int64 | Type::UInt64 | Type::Float64 => {
                            format!("self.builder.set::<u64>({offset}, 0);")
                        }
                        _ => format!("self.builder.pointer({offset}).clear();"),
                    };
                    out.push_str(&stmt);
                    out.push('\n');
                }
            }
        }
        Ok(())
    }

    /// The union's `Which` enum and the reader's `which()`; the builder's
    /// `which()` and, when a member's value is a builder, its
    /// `WhichBuilder`.
    #[allow(clippy::too_many_arguments)]
    fn which(
        &self,
        reader: &mut String,
        builder: &mut String,
        out: &mut String,
        s: &StructNode,
        fields: &[&Field],
        file: u64,
        d: usize,
    ) -> Result<(), Error> {
        let rt = &self.rt;
        let mut members: Vec<&&Field> =
            fields.iter().filter(|f| f.discriminant.is_some()).collect();
        members.sort_by_key(|f| f.discriminant);
        let mut variants = String::new();
        let mut arms = String::new();
        let mut b_variants = String::new();
        let mut b_arms = String::new();
        let mut needs_lifetime = false;
        // The builder's payloads borrow for 'b (pointers) and name the
        // arena type A (struct, list, group and any-pointer builders).
        let (mut b_lifetime, mut b_arena) = (false, false);
        // Whether a payload type may be over clippy's type_complexity.
        let mut complex = false;
        // `Which` takes no type parameters: members whose type uses the
        // struct's generic parameters are given with those erased to
        // AnyPointer.
        let nparams = self.params.borrow().len();
        let any = format!("{rt}::typed::AnyPointer");
        let spelled: Vec<(&str, Case)> = members
            .iter()
            .map(|f| (f.spelling(), Case::Pascal))
            .collect();
        let variant_names = assign(&spelled, &[]);
        for (f, v) in members.iter().zip(variant_names) {
            let n = self.stem(f);
            let disc = f.discriminant.unwrap_or(0);
            // (payload type, the expression that makes it), for the reader
            // and for the builder.
            let (payload, b_payload): (Option<Payload>, Option<Payload>) = match &f.kind {
                FieldKind::Group { type_id } => {
                    needs_lifetime = true;
                    b_lifetime = true;
                    b_arena = true;
                    let module = self
                        .places
                        .get(type_id)
                        .and_then(|p| p.path.last().cloned())
                        .unwrap_or_default();
                    let args: String = (0..nparams).map(|_| format!(", {any}")).collect();
                    let mk = if nparams == 0 {
                        ""
                    } else {
                        ", marker: ::core::marker::PhantomData"
                    };
                    let b = Some((
                        format!("{module}::Builder<'b, A{args}>"),
                        format!("{module}::Builder {{ builder: self.builder.reborrow(){mk} }}"),
                    ));
                    if nparams == 0 {
                        (
                            Some((format!("{module}::Reader<'a>"), format!("self.get_{n}()"))),
                            b,
                        )
                    } else {
                        (
                            Some((
                                format!("{module}::Reader<'a{args}>"),
                                format!("{module}::Reader {{ reader: self.reader{mk} }}"),
                            )),
                            b,
                        )
                    }
                }
                FieldKind::Slot {
                    ty,
                    offset,
                    default,
                } => {
                    let ty = self.resolve(ty);
                    let get = format!("self.get_{n}()");
                    match &ty {
                        Type::Void => (None, None),
                        Type::Bool => {
                            let get_b = match default {
                                Value::Bool(true) => {
                                    format!("self.builder.get_bool_or({offset}, true)")
                                }
                                _ => format!("self.builder.get_bool({offset})"),
                            };
                            (Some(("bool".into(), get)), Some(("bool".into(), get_b)))
                        }
                        Type::Enum(id) => {
                            let path = self.path_to(*id, file, d)?;
                            let dv = match default {
                                Value::Enum(v) => *v,
                                _ => 0,
                            };
                            let t =
                                format!("::core::result::Result<{path}, {rt}::typed::NotInSchema>");
                            (
                                Some((t.clone(), get)),
                                Some((
                                    t,
                                    format!(
                                        "<{path} as ::core::convert::TryFrom<u16>>::try_from(self.builder.get_or::<u16>({offset}, {dv}))"
                                    ),
                                )),
                            )
                        }
                        Type::AnyPointer => {
                            needs_lifetime = true;
                            b_lifetime = true;
                            b_arena = true;
                            (
                                Some((format!("{rt}::PointerReader<'a>"), get)),
                                Some((
                                    format!("{rt}::PointerBuilder<'b, A>"),
                                    format!("self.builder.pointer({offset})"),
                                )),
                            )
                        }
                        Type::Interface(_) => (
                            Some((format!("{rt}::Result<u32>"), get)),
                            Some((
                                format!("{rt}::Result<u32>"),
                                format!(
                                    "self.builder.with_reader(|r| r.pointer({offset}).get_capability())"
                                ),
                            )),
                        ),
                        ty if ty.is_pointer() => {
                            needs_lifetime = true;
                            b_lifetime = true;
                            b_arena |= !matches!(ty, Type::Text | Type::Data);
                            let typed = self.reader_ty(ty, file, d)?;
                            let saved = self.params.replace(Vec::new());
                            let erased = self.resolve(ty);
                            let erased_ty = self.reader_ty(&erased, file, d);
                            let erased_bty = self.builder_ty(&erased, file, d);
                            let erased_owned = self.owned_ty(&erased, file, d);
                            self.params.replace(saved);
                            let (erased_ty, erased_bty, erased_owned) =
                                (erased_ty?, erased_bty?, erased_owned?);
                            let fill = self.builder_fill(f, ty, *offset, default, &erased_owned);
                            let b = if erased == Type::AnyPointer {
                                (
                                    format!("{rt}::Result<{rt}::PointerBuilder<'b, A>>"),
                                    format!("Ok(self.builder.pointer({offset}))"),
                                )
                            } else {
                                (
                                    format!("{rt}::Result<{erased_bty}>"),
                                    match fill {
                                        Some(fill) => format!(
                                            "{fill}.and_then(|()| <{erased_owned} as {rt}::typed::Owned>::get(self.builder.pointer({offset})))"
                                        ),
                                        None => format!(
                                            "<{erased_owned} as {rt}::typed::Owned>::get(self.builder.pointer({offset}))"
                                        ),
                                    },
                                )
                            };
                            if erased == Type::AnyPointer {
                                b_arena = true;
                            }
                            let r = if erased_ty == typed {
                                (format!("{rt}::Result<{typed}>"), get)
                            } else if erased == Type::AnyPointer {
                                (
                                    format!("{rt}::Result<{erased_ty}>"),
                                    format!("Ok(self.reader.pointer({offset}))"),
                                )
                            } else {
                                (
                                    format!("{rt}::Result<{erased_ty}>"),
                                    format!(
                                        "<{erased_owned} as {rt}::typed::Owned>::read(self.reader.pointer({offset}))"
                                    ),
                                )
                            };
                            (Some(r), Some(b))
                        }
                        ty => {
                            let (rust, lit) = self.primitive(ty, default)?;
                            let zero = match default {
                                Value::Int(v) | Value::Float64(v) => *v == 0,
                                Value::Float32(v) => *v == 0,
                                _ => true,
                            };
                            let get_b = if zero {
                                format!("self.builder.get::<{rust}>({offset})")
                            } else {
                                format!("self.builder.get_or::<{rust}>({offset}, {lit})")
                            };
                            (
                                Some((rust.to_string(), get)),
                                Some((rust.to_string(), get_b)),
                            )
                        }
                    }
                }
            };
            let fallback = format!("`{}` is set.", f.name);
            doc_attr(&mut variants, Some(f.doc.as_deref().unwrap_or(&fallback)));
            doc_attr(&mut b_variants, Some(f.doc.as_deref().unwrap_or(&fallback)));
            for (p, _) in payload.iter().chain(&b_payload) {
                complex |= complexity(p) > COMPLEX_SCORE;
            }
            match payload {
                Some((p, make)) => {
                    let _ = writeln!(variants, "{v}({p}),");
                    let _ = writeln!(arms, "{disc} => Ok(Which::{v}({make})),");
                }
                None => {
                    let _ = writeln!(variants, "{v},");
                    let _ = writeln!(arms, "{disc} => Ok(Which::{v}),");
                }
            }
            match b_payload {
                Some((p, make)) => {
                    let _ = writeln!(b_variants, "{v}({p}),");
                    let _ = writeln!(b_arms, "{disc} => Ok(WhichBuilder::{v}({make})),");
                }
                None => {
                    let _ = writeln!(b_variants, "{v},");
                    let _ = writeln!(b_arms, "{disc} => Ok(WhichBuilder::{v}),");
                }
            }
        }
        let lt = if needs_lifetime { "<'a>" } else { "" };
        let allow = if complex {
            "#[allow(clippy::type_complexity)]\n"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "/// The union's members, with the value of the one that is set.\n{allow}pub enum Which{lt} {{\n{variants}}}"
        );
        let _ = writeln!(
            reader,
            "/// Which member of the union is set, with its value.\n/// # Errors\n/// The discriminant names a member the schema does not have.\n\
             #[inline] pub fn which(&self) -> ::core::result::Result<Which{lt}, {rt}::typed::NotInSchema> {{ match self.reader.get::<u16>({}) {{ {arms} v => Err({rt}::typed::NotInSchema(v)) }} }}",
            s.discriminant_offset
        );
        if !b_lifetime {
            // Every member's value is a plain value: the builder's
            // `which()` gives the reader's `Which`.
            let b_arms = b_arms.replace("WhichBuilder::", "Which::");
            let _ = writeln!(
                builder,
                "/// Which member of the union is set, with its value.\n/// # Errors\n/// The discriminant names a member the schema does not have.\n\
                 #[inline] pub fn which(&self) -> ::core::result::Result<Which, {rt}::typed::NotInSchema> {{ match self.builder.get::<u16>({}) {{ {b_arms} v => Err({rt}::typed::NotInSchema(v)) }} }}",
                s.discriminant_offset
            );
        } else {
            let (decl, args) = if b_arena {
                (format!("<'b, A: {rt}::Arena + ?Sized + 'b>"), "<'_, A>")
            } else {
                ("<'b>".to_string(), "<'_>")
            };
            let _ = writeln!(
                out,
                "/// The union's members, with a builder of the one that is set (a builder's `which()`).\n{allow}pub enum WhichBuilder{decl} {{\n{b_variants}}}"
            );
            let _ = writeln!(
                builder,
                "/// Which member of the union is set, with a builder of its value (pointer members as their getters would give them: a default is copied in, an unset text or data is allocated empty).\n/// # Errors\n/// The discriminant names a member the schema does not have.\n\
                 #[inline] pub fn which(&mut self) -> ::core::result::Result<WhichBuilder{args}, {rt}::typed::NotInSchema> {{ match self.builder.get::<u16>({}) {{ {b_arms} v => Err({rt}::typed::NotInSchema(v)) }} }}",
                s.discriminant_offset
            );
        }
        Ok(())
    }

    /// An expression (a `Result<()>`) that copies pointer field `f`'s
    /// schema default into its slot when the slot is null, or `None` when
    /// the field has no default.
    fn builder_fill(
        &self,
        f: &Field,
        ty: &Type,
        offset: u32,
        default: &Value,
        owned: &str,
    ) -> Option<String> {
        let rt = &self.rt;
        match (ty, default) {
            (Type::Text, Value::Text(t)) if !t.is_empty() && std::str::from_utf8(t).is_ok() => {
                Some(format!(
                    "(if self.builder.has_pointer({offset}) {{ Ok(()) }} else {{ <{owned} as {rt}::typed::Owned>::set(self.builder.pointer({offset}), {:?}) }})",
                    String::from_utf8_lossy(t)
                ))
            }
            // Not UTF-8: kept as words by `field`, as pointer defaults are.
            (Type::Text, Value::Text(t)) if !t.is_empty() => Some(format!(
                "{rt}::typed::fill_default(&mut self.builder.pointer({offset}), &{}__DEFAULT)",
                self.stem(f).to_ascii_uppercase()
            )),
            (Type::Data, Value::Data(b)) if !b.is_empty() => Some(format!(
                "(if self.builder.has_pointer({offset}) {{ Ok(()) }} else {{ <{owned} as {rt}::typed::Owned>::set(self.builder.pointer({offset}), &{b:?}) }})"
            )),
            (_, Value::Pointer(Some(_))) => Some(format!(
                "{rt}::typed::fill_default(&mut self.builder.pointer({offset}), &{}__DEFAULT)",
                self.stem(f).to_ascii_uppercase()
            )),
            _ => None,
        }
    }
}

/// The Rust variant names of an enum's enumerants, by the naming rule.
fn enumerant_names(enumerants: &[Enumerant]) -> Vec<String> {
    let spelled: Vec<(&str, Case)> = enumerants
        .iter()
        .map(|e| (e.spelling(), Case::Pascal))
        .collect();
    assign(&spelled, &[])
}

/// An upper bound of clippy's `type_complexity` score of the Rust type
/// `ty` (as generated code spells it): clippy adds 10 times the nesting
/// level for each path, slice, tuple or array, one nesting level per
/// generic argument list. Every identifier of a path, a qualified path's
/// parts and `as` count here too, so the score is never below clippy's.
fn complexity(ty: &str) -> usize {
    let bytes = ty.as_bytes();
    let (mut score, mut nest, mut in_path) = (0usize, 1usize, false);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\'' {
            // A lifetime: skip its name.
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            if !in_path {
                score += 10 * nest;
                in_path = true;
            }
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if bytes.get(i..i + 2) != Some(b"::") {
                in_path = false;
            }
            continue;
        }
        match c {
            b'<' => nest += 1,
            b'>' => nest = nest.saturating_sub(1).max(1),
            b'[' | b'(' => {
                score += 10 * nest;
                nest += 1;
            }
            b']' | b')' => nest = nest.saturating_sub(1).max(1),
            b':' => {}
            _ => in_path = false,
        }
        i += 1;
    }
    score
}

/// clippy's `type_complexity` threshold is 250; an accessor whose type
/// may score above this allows the lint (the bound has a margin).
const COMPLEX_SCORE: usize = 200;

/// A `Which` variant's payload: its type and the expression that makes it.
type Payload = (String, String);

/// The pieces of generated code that carry a struct's generic parameters;
/// all empty for a struct that is not generic.
struct Generics {
    /// `, P1, P2`: the parameters, to follow `'a` or `A`.
    list: String,
    /// `, P1: Owned, P2: Owned`.
    bounds: String,
    /// `, P1: Owned = AnyPointer, ...`.
    defaults: String,
    /// `P1, P2,`: the tuple inside the phantom marker.
    tuple: String,
    /// `, marker: PhantomData`: the field that goes with the handle.
    marker: String,
}

impl Generics {
    fn new(params: &[(u64, u16, String)], rt: &str) -> Self {
        let mut g = Generics {
            list: String::new(),
            bounds: String::new(),
            defaults: String::new(),
            tuple: String::new(),
            marker: String::new(),
        };
        for (_, _, p) in params {
            let _ = write!(g.list, ", {p}");
            let _ = write!(g.bounds, ", {p}: {rt}::typed::Owned");
            let _ = write!(
                g.defaults,
                ", {p}: {rt}::typed::Owned = {rt}::typed::AnyPointer"
            );
            let _ = write!(g.tuple, "{p},");
        }
        if !params.is_empty() {
            g.marker = ", marker: ::core::marker::PhantomData".into();
        }
        g
    }
}

/// The words of a one-segment message whose root is the text `bytes`:
/// a list pointer to byte elements (the bytes and the NUL terminator),
/// then the bytes padded to a word.
fn text_words(bytes: &[u8]) -> Vec<u64> {
    let len = bytes.len() as u64 + 1;
    // Offset 0, element size 2 (one byte), count `len`.
    let mut words = vec![1 | (2 << 32) | (len << 35)];
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        words.push(u64::from_le_bytes(w));
    }
    if bytes.len() % 8 == 0 {
        words.push(0);
    }
    words
}

/// Formats generated Rust like rustfmt would (parse, then print).
fn format_rust(code: &str) -> Result<String, ParseFailure> {
    on_parser_stack(|| {
        let file = parse_generated(code).map_err(|e| ParseFailure::new(&e))?;
        Ok(prettyplease::unparse(&file))
    })
    .unwrap_or_else(|e| {
        Err(ParseFailure {
            message: format!("cannot start a thread to format the generated code: {e}"),
            line: 0,
            column: 0,
        })
    })
}

/// Why generated code did not parse, and where (1-based line, 0-based
/// column; line 0 when unknown). Made on the thread that parsed: a span's
/// place is kept in a per-thread table, so it cannot be asked elsewhere.
#[derive(Debug)]
struct ParseFailure {
    message: String,
    line: usize,
    column: usize,
}

impl ParseFailure {
    fn new(err: &syn::Error) -> Self {
        let at = err.span().start();
        ParseFailure {
            message: err.to_string(),
            line: at.line,
            column: at.column,
        }
    }
}

/// Parses generated code as a file. Tokens are read first with
/// proc-macro2, whose lexing error carries the place it stopped (syn's
/// own `parse_file` reports a lexing error at the start of the file).
fn parse_generated(code: &str) -> syn::Result<syn::File> {
    let tokens: proc_macro2::TokenStream = code
        .parse()
        .map_err(|e: proc_macro2::LexError| syn::Error::new(e.span(), e))?;
    syn::parse2(tokens)
}

/// Stack for parsing and printing generated code: syn and prettyplease
/// recurse once per level of nesting (tens of KiB a level in a debug
/// build, more in some syn versions than in others), and the deepest
/// nesting the generator accepts (`limits.rs`) must not depend on the
/// stack of the thread that calls it (a build script's main thread).
const PARSER_STACK_BYTES: usize = 64 << 20;

/// Runs `f` on a thread of its own with [`PARSER_STACK_BYTES`] of stack
/// (reserved address space; only what is touched takes memory).
///
/// # Errors
/// The thread could not be started.
fn on_parser_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("capnarena-codegen format".into())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, f)?;
        match handle.join() {
            Ok(value) => Ok(value),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Finding what made a file's code unparsable (a generator bug): the
/// innermost node whose code does not parse on its own and, in a struct,
/// the field without which it does. Runs only after a failure.
impl Generator<'_> {
    /// The error for a file whose `code` does not parse: the schema file,
    /// node and field, the parser's message and the generated line it
    /// points at (never the whole code, which may be megabytes).
    fn format_error(
        &self,
        file: &RequestedFile,
        file_node: &Node,
        code: &str,
        err: &ParseFailure,
    ) -> Error {
        let mut culprit = None;
        let mut scope = file_node;
        while let Some((child, child_err, child_code)) = self
            .children(scope)
            .into_iter()
            .find_map(|c| self.unparsable(c, file.id).map(|(e, t)| (c, e, t)))
        {
            culprit = Some((child, child_err, child_code));
            scope = child;
        }
        let (node, field, message, near) = match &culprit {
            Some((node, e, text)) => (
                Some(node.display_name.clone()),
                self.culprit_field(node, file.id),
                e.message.clone(),
                excerpt(text, e),
            ),
            None => (None, None, err.message.clone(), excerpt(code, err)),
        };
        Error::Format {
            file: file.filename.clone(),
            node,
            field,
            message,
            near,
        }
    }

    /// The nodes whose items sit in `scope`'s module (as `scope_items`
    /// writes them).
    fn children(&self, scope: &Node) -> Vec<&'_ Node> {
        let mut ids: Vec<u64> = scope.nested.iter().map(|(_, id)| *id).collect();
        if let NodeKind::Struct(s) = &scope.kind {
            ids.extend(s.fields.iter().filter_map(|f| match f.kind {
                FieldKind::Group { type_id } => Some(type_id),
                FieldKind::Slot { .. } => None,
            }));
        }
        ids.extend(
            self.implicit
                .iter()
                .filter(|(_, (iface, _))| *iface == scope.id)
                .map(|(id, _)| *id),
        );
        ids.iter()
            .filter_map(|id| self.schema.nodes.get(id))
            .collect()
    }

    /// `node`'s item on its own, with the parser's error, when it does
    /// not parse.
    fn unparsable(&self, node: &Node, file: u64) -> Option<(ParseFailure, String)> {
        let mut text = String::new();
        self.item(&mut text, node, file, 0).ok()?;
        on_parser_stack(|| parse_generated(&text).err().map(|e| ParseFailure::new(&e)))
            .ok()
            .flatten()
            .map(|e| (e, text))
    }

    /// The field of struct `node` without which its item parses.
    fn culprit_field(&self, node: &Node, file: u64) -> Option<String> {
        let NodeKind::Struct(s) = &node.kind else {
            return None;
        };
        s.fields.iter().enumerate().find_map(|(i, f)| {
            let mut without = s.clone();
            without.fields.remove(i);
            let trial = Node {
                kind: NodeKind::Struct(without),
                ..node.clone()
            };
            self.unparsable(&trial, file)
                .is_none()
                .then(|| f.name.clone())
        })
    }
}

/// The line of `code` that `err` points at, trimmed and cut to at most
/// 160 characters around the error's column.
fn excerpt(code: &str, err: &ParseFailure) -> String {
    const WIDTH: usize = 160;
    if err.line == 0 {
        return String::new();
    }
    let Some(line) = code.lines().nth(err.line - 1) else {
        return String::new();
    };
    let chars: Vec<char> = line.chars().collect();
    let start = err.column.saturating_sub(WIDTH / 2).min(chars.len());
    let end = (start + WIDTH).min(chars.len());
    let cut: String = chars[start..end].iter().collect();
    let cut = cut.trim();
    match (start > 0, end < chars.len()) {
        (false, false) => cut.to_string(),
        (true, false) => format!("...{cut}"),
        (false, true) => format!("{cut}..."),
        (true, true) => format!("...{cut}..."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A schema doc whose list item or quote continues on unindented
    /// lines is written with those lines indented (or marked `>`), and a
    /// doc that ends inside one gets an empty line, so that the
    /// generator's own doc lines after it start a new paragraph: clippy's
    /// doc_lazy_continuation warned on generated code for go-capnp's
    /// rpc.capnp and blackrock's cluster-rpc.capnp (issue 20).
    #[test]
    fn docs_close_lists_and_quotes() {
        let mut out = String::new();
        doc_attr(
            &mut out,
            Some("Intro.\n- item\nlazy\n\n> quote\nlazy\n\n12. twelve\nlazy"),
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                r#"#[doc = " Intro."]"#,
                r#"#[doc = " - item"]"#,
                r#"#[doc = "   lazy"]"#,
                r#"#[doc = ""]"#,
                r#"#[doc = " > quote"]"#,
                r#"#[doc = " > lazy"]"#,
                r#"#[doc = ""]"#,
                r#"#[doc = " 12. twelve"]"#,
                r#"#[doc = "     lazy"]"#,
                r#"#[doc = ""]"#,
            ]
        );
        let mut plain = String::new();
        doc_attr(&mut plain, Some("Just text.\nMore."));
        assert_eq!(plain.lines().count(), 2);
    }

    /// Code that does not parse (a generator bug, here a field name with a
    /// line break, which a doc comment line takes as is) is reported with its schema file, node and
    /// field and the generated line at fault, in a short error
    /// (regression, issue 23: the error named no node or field and its
    /// Debug carried the whole generated file).
    #[test]
    fn unparsable_code_names_node_and_field() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/requests/addressbook.bin"
        ))
        .expect("request");
        let words = capnarena::words_from_bytes(&bytes).expect("words");
        let reader = capnarena::MessageReader::from_words(&words, capnarena::ReaderOptions::new())
            .expect("request");
        let mut schema = crate::load::load(&reader).expect("load");
        let person = schema
            .nodes
            .values_mut()
            .find(|n| n.display_name.ends_with(":Person"))
            .expect("Person");
        let NodeKind::Struct(s) = &mut person.kind else {
            panic!("Person is a struct");
        };
        let email = s
            .fields
            .iter_mut()
            .find(|f| f.name == "email")
            .expect("email");
        email.name = "e\nmail".into();
        let options = Options::default();
        let err = Generator::new(&schema, &options)
            .expect("generator")
            .files()
            .expect_err("unparsable code");
        let text = err.to_string();
        for want in [
            "addressbook.capnp does not parse",
            "addressbook.capnp:Person",
            "field e\\nmail",
            "near `mail` field",
        ] {
            assert!(text.contains(want), "{want:?} missing from {text}");
        }
        let debug = format!("{err:?}");
        assert!(debug.len() < 1000, "{} bytes: {debug}", debug.len());
    }

    /// The complexity bound passes the allow threshold for a type clippy
    /// flagged (a getter of `List(List(List(Entry(K, V))))` in
    /// capnproto-java's test.capnp) and stays low for plain types.
    #[test]
    fn complexity_bounds_clippys_score() {
        let flagged = "::capnarena::Result<::capnarena::typed::ListListReader<'a, \
            ::capnarena::typed::ListList<::capnarena::typed::StructList<\
            super::generic_map::entry::Owned<K, V>>>>>";
        assert!(
            complexity(flagged) > COMPLEX_SCORE,
            "{}",
            complexity(flagged)
        );
        assert_eq!(complexity("::capnarena::Result<&'a str>"), 10 + 20);
        assert!(complexity("::capnarena::Result<super::point::Reader<'a>>") < COMPLEX_SCORE);
    }
}
