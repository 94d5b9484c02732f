//! Rust source for the model: one module per schema file, a module per
//! struct, group and interface, a Rust enum per schema enum.
//!
//! The emitters, one file each:
//! - this module: the [`Generator`], where every node's item is placed
//!   (its module path) and the walk over a file's nodes;
//! - [`struct_module`]: a struct's or group's module (handles, `Owned`,
//!   the trait impls, `Debug`) and the dispatch of its fields to
//! - [`data_field`] (void, bool, numbers, enums), [`pointer_field`]
//!   (text, data, lists, structs and generic parameters, with
//!   [`text_data`], [`list_field`] and [`struct_field`] for what is
//!   particular to each), [`any_pointer`], [`capability`], [`group`] and
//!   [`union`] (a union's `Which` and `which()`);
//! - [`text_format`]: each struct's `write_text`, what `Debug` prints;
//! - [`owned`]: with the `owned_values` option, each struct's plain Rust
//!   values (`Value`, `ValueRef<'a>`) and their conversions, with
//!   [`owned_boxing`] (which struct fields are boxed) and
//!   [`owned_params`] (which generic parameters a value takes);
//! - [`rpc_pipeline`]: with RPC code, each struct's `Pipeline` (its
//!   capabilities before a call's results arrive);
//! - [`schema_node`]: with the `schema_nodes` option, each node's
//!   encoded schema and the `HasSchema` impls that hand it out;
//! - [`enum_item`], [`constant`] and [`interface`] for the other nodes;
//! - [`types`]: how a schema type is spelled in Rust;
//! - [`doc`]: schema doc comments as doc comments;
//! - [`writer`] and [`layout`]: the code is written already formatted,
//!   line by line, each line laid out to the width as rustfmt would.

use std::collections::{BTreeMap, HashMap};

use crate::model::*;
use crate::names::{Case, FieldMethods, MODULE_RESERVED, assign, file_module};
use crate::{Error, Options};

mod any_pointer;
mod capability;
mod constant;
mod data_field;
mod doc;
mod enum_item;
mod group;
mod interface;
mod layout;
mod list_field;
mod owned;
mod owned_boxing;
mod owned_params;
mod pointer_field;
mod rpc;
mod rpc_client;
mod rpc_pipeline;
mod rpc_server;
mod schema_node;
mod serde_impls;
mod struct_field;
mod struct_module;
mod text_data;
mod text_format;
mod types;
mod union;
mod writer;

use doc::doc_attr;
use rpc::interface_reserved;
use writer::Writer;

/// Where a node's Rust item lives: its file and its path from the file's
/// module.
#[derive(Clone, Debug)]
struct Place {
    file: u64,
    path: Vec<String>,
}

/// Generates the code of a loaded request: holds where every node goes
/// and, while a struct is generated, its generic parameters and the
/// method names of its fields.
pub(crate) struct Generator<'s> {
    schema: &'s Schema,
    options: &'s Options,
    places: HashMap<u64, Place>,
    /// File id -> file name as the request spells it.
    file_names: HashMap<u64, String>,
    /// Struct nodes generated inside an interface (implicit method
    /// parameter and result structs): id -> (interface id, module name).
    implicit: BTreeMap<u64, (u64, String)>,
    /// The runtime crate's path (`::capnarena`).
    runtime: String,
    /// The generic parameters in scope where code is being generated:
    /// (scope id, index, Rust type parameter name), outermost scope first.
    params: std::cell::RefCell<Vec<(u64, u16, String)>>,
    /// The method stems of the fields of the struct being generated, by
    /// schema name (see `names::field_methods`).
    stems: std::cell::RefCell<HashMap<String, FieldMethods>>,
    /// Which struct fields of plain values are boxed (`owned_boxing`).
    boxing: std::cell::RefCell<owned_boxing::BoxingCache>,
    /// The generic parameters each struct's plain value takes
    /// (`owned_params`), found once.
    value_params: std::cell::RefCell<Option<owned_params::ValueParams>>,
}

impl<'s> Generator<'s> {
    pub(crate) fn new(schema: &'s Schema, options: &'s Options) -> Result<Self, Error> {
        let mut generator = Generator {
            schema,
            options,
            places: HashMap::new(),
            file_names: HashMap::new(),
            implicit: BTreeMap::new(),
            runtime: options.runtime_path.clone(),
            params: std::cell::RefCell::new(Vec::new()),
            stems: std::cell::RefCell::new(HashMap::new()),
            boxing: std::cell::RefCell::default(),
            value_params: std::cell::RefCell::default(),
        };
        for node in schema.nodes.values() {
            if matches!(node.kind, NodeKind::File) {
                generator
                    .file_names
                    .insert(node.id, node.display_name.clone());
                generator.place_children(node.id, node.id, &[]);
            }
        }
        Ok(generator)
    }

    fn node(&self, id: u64) -> Result<&'s Node, Error> {
        self.schema.nodes.get(&id).ok_or(Error::MissingNode { id })
    }

    /// The module name of node `id` (the last part of its path).
    fn module_name(&self, id: u64) -> Option<String> {
        self.places.get(&id).and_then(|p| p.path.last().cloned())
    }

    /// Records where every node under `scope` goes: its nested types and
    /// constants, its groups and (for an interface) its methods' implicit
    /// parameter and result structs share the scope module's namespace,
    /// named together by the naming rule (`names`).
    fn place_children(&mut self, file: u64, scope: u64, prefix: &[String]) {
        let Some(node) = self.schema.nodes.get(&scope) else {
            return;
        };
        let items = self.scope_members(node);
        let spelled: Vec<(&str, Case)> = items
            .iter()
            .map(|item| (item.spelling.as_str(), item.case))
            .collect();
        let mut reserved: Vec<String> = MODULE_RESERVED.iter().map(|s| s.to_string()).collect();
        if self.options.owned_values {
            reserved.extend(owned::RESERVED.iter().map(|s| s.to_string()));
        }
        if self.options.schema_nodes {
            reserved.extend(schema_node::RESERVED.iter().map(|s| s.to_string()));
        }
        if let NodeKind::Interface(methods) = &node.kind {
            reserved.extend(interface_reserved(methods));
        }
        // A struct's or group's `Pipeline` (rpc_pipeline), with RPC code.
        if matches!(node.kind, NodeKind::Struct(_)) && self.options.rpc_path.is_some() {
            reserved.push("Pipeline".to_string());
        }
        let reserved: Vec<&str> = reserved.iter().map(String::as_str).collect();
        let names = assign(&spelled, &reserved);
        for (member, name) in items.iter().zip(names) {
            if member.implicit && self.places.contains_key(&member.id) {
                continue;
            }
            let mut path = prefix.to_vec();
            path.push(name.clone());
            self.places.insert(
                member.id,
                Place {
                    file,
                    path: path.clone(),
                },
            );
            if member.implicit {
                self.implicit.insert(member.id, (scope, name));
            }
            self.place_children(file, member.id, &path);
        }
    }

    /// The items that share `node`'s module namespace, as the schema
    /// spells them: nested nodes, groups, and an interface's implicit
    /// method structs (`fooParams`, `fooResults`).
    fn scope_members(&self, node: &Node) -> Vec<ScopeMember> {
        let mut items = Vec::new();
        for (name, id) in &node.nested {
            let Some(child) = self.schema.nodes.get(id) else {
                continue;
            };
            let case = match child.kind {
                NodeKind::Struct(_) | NodeKind::Interface(_) => Case::Snake,
                NodeKind::Enum(_) => Case::Pascal,
                NodeKind::Const { .. } | NodeKind::Annotation => Case::Screaming,
                NodeKind::File => continue,
            };
            let mut spelling = child.rust_name.clone().unwrap_or_else(|| name.clone());
            if matches!(child.kind, NodeKind::Annotation) {
                // An annotation's item is the constant of its id:
                // `label` gives `LABEL_ANNOTATION_ID`.
                spelling.push_str("AnnotationId");
            }
            items.push(ScopeMember::new(*id, spelling, case, false));
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
                        items.push(ScopeMember::new(type_id, spelling, Case::Snake, false));
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
                        if n.scope_id != 0 || items.iter().any(|item| item.id == id) {
                            continue;
                        }
                        let spelling = format!("{}{suffix}", m.name);
                        items.push(ScopeMember::new(id, spelling, Case::Snake, true));
                    }
                }
            }
            _ => {}
        }
        items
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
            let default_parent = self.options.default_parent_module.as_deref();
            match (self.options.module_paths.get(name.as_str()), parent) {
                (Some(p), _) => s.push_str(p),
                // `default_parent_module`: every file's module under one
                // path from the crate root, as capnpc takes it.
                (None, None) if default_parent.is_some() => {
                    s.push_str("crate::");
                    for part in default_parent.into_iter().flatten() {
                        s.push_str(part);
                        s.push_str("::");
                    }
                    s.push_str(&file_module(name));
                }
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
            let mut code = Writer::new(0);
            code.docs("Id of the schema file.");
            code.line(&format!("pub const FILE_ID: u64 = {:#x};", node.id));
            if self.options.schema_nodes {
                self.file_schema_nodes(&mut code, node)?;
            }
            self.scope_items(&mut code, node, file.id, 0)?;
            let contents = format!(
                "// Generated by capnarena-codegen from {}. Do not edit.\n\n{}",
                file.filename,
                code.into_text()
            );
            out.push(crate::GeneratedFile {
                name: format!("{}.rs", file_module(&file.filename)),
                contents,
            });
        }
        Ok(out)
    }

    /// The items nested in `scope`: types, constants, groups and implicit
    /// method structs.
    fn scope_items(
        &self,
        out: &mut Writer,
        scope: &Node,
        file: u64,
        depth: usize,
    ) -> Result<(), Error> {
        for child in self.children(scope) {
            self.item(out, child, file, depth)?;
        }
        Ok(())
    }

    /// The nodes whose items sit in `scope`'s module, in the order they
    /// are written: nested nodes, groups, implicit method structs.
    fn children(&self, scope: &Node) -> Vec<&'s Node> {
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

    /// The item of one node, by its kind.
    fn item(&self, out: &mut Writer, node: &Node, file: u64, depth: usize) -> Result<(), Error> {
        let Some(name) = self.module_name(node.id) else {
            return Ok(());
        };
        match &node.kind {
            NodeKind::Struct(s) => self.struct_module(out, node, s, &name, file, depth),
            NodeKind::Enum(enumerants) => {
                self.enum_item(out, node, enumerants, &name);
                if self.options.owned_values {
                    self.enum_value_impls(out, &name);
                }
                if self.options.serde {
                    self.enum_serde(out, &name, enumerants);
                }
                if self.options.schema_nodes {
                    self.has_schema_impl(out, node, &[], &name, file, depth)?;
                }
                Ok(())
            }
            NodeKind::Interface(_) => self.interface(out, node, &name, file, depth),
            NodeKind::Const { ty, value } => {
                let constant = constant::Constant {
                    node,
                    ty,
                    value,
                    name: &name,
                };
                self.constant(out, &constant, file, depth)
            }
            NodeKind::Annotation => {
                let fallback = format!(
                    "Id of the `{}` annotation: what a reflected annotation's id is compared with.",
                    node.short_name()
                );
                doc_attr(out, Some(node.doc.as_deref().unwrap_or(&fallback)));
                out.line(&format!("pub const {name}: u64 = {:#x};", node.id));
                Ok(())
            }
            NodeKind::File => Ok(()),
        }
    }
}

/// One item of a scope module's namespace, before names are assigned.
struct ScopeMember {
    id: u64,
    /// The name as the schema (or `$Rust.name`) spells it.
    spelling: String,
    case: Case,
    /// An implicit method parameter or result struct.
    implicit: bool,
}

impl ScopeMember {
    fn new(id: u64, spelling: String, case: Case, implicit: bool) -> Self {
        ScopeMember {
            id,
            spelling,
            case,
            implicit,
        }
    }
}
