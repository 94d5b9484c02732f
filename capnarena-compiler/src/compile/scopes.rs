//! Scopes and declarations: name resolution.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::generics::{BrandScope, BrandedDecl, ImplicitParams, NO_IMPLICIT_PARAMS};
use super::{Compilation, NodeKindTag, expr_string, node_span};
use crate::ast::*;
use crate::files::SourceFile;
use crate::ids;
use crate::limits;

/// Built-in declarations of the global scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// `Void` ... `Data`: the primitive types, by their `Type`.
    Void,
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float32,
    Float64,
    Text,
    Data,
    List,
    Object,
    AnyPointer,
    AnyStruct,
    AnyList,
    Capability,
}

pub(super) const BUILTINS: &[(&str, Builtin)] = &[
    ("Void", Builtin::Void),
    ("Bool", Builtin::Bool),
    ("Int8", Builtin::Int8),
    ("Int16", Builtin::Int16),
    ("Int32", Builtin::Int32),
    ("Int64", Builtin::Int64),
    ("UInt8", Builtin::UInt8),
    ("UInt16", Builtin::UInt16),
    ("UInt32", Builtin::UInt32),
    ("UInt64", Builtin::UInt64),
    ("Float32", Builtin::Float32),
    ("Float64", Builtin::Float64),
    ("Text", Builtin::Text),
    ("Data", Builtin::Data),
    ("List", Builtin::List),
    ("Object", Builtin::Object),
    ("AnyPointer", Builtin::AnyPointer),
    ("AnyStruct", Builtin::AnyStruct),
    ("AnyList", Builtin::AnyList),
    ("Capability", Builtin::Capability),
];

/// An alias (`using` declaration): the node it is declared in (an index
/// in `Compilation::nodes`) and its place among that node's aliases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct AliasId {
    /// The node the alias is declared in.
    pub(super) node: usize,
    /// Its index in that node's [`NodeEntry::aliases`].
    pub(super) index: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DeclTarget {
    Node(usize),
    Builtin(Builtin),
}

pub(super) struct NodeEntry<'a> {
    pub(super) id: u64,
    pub(super) file: usize,
    pub(super) parent: Option<usize>,
    pub(super) decl: &'a Decl,
    pub(super) display: String,
    pub(super) kind: NodeKindTag,
    pub(super) children: Vec<usize>,
    pub(super) members: HashMap<&'a str, usize>,
    pub(super) aliases: Vec<&'a Decl>,
    /// The first alias of each name, an index into `aliases` (lookups
    /// by name stay constant-time however many there are).
    pub(super) alias_by_name: HashMap<&'a str, usize>,
    /// The first generic parameter of each name: its index.
    pub(super) param_by_name: HashMap<&'a str, u16>,
}

#[derive(Clone, Debug)]
pub(super) enum Resolution {
    Decl {
        target: DeclTarget,
        params: usize,
        scope_id: u64,
    },
    Param {
        scope: u64,
        index: u16,
    },
    /// An alias that carries its own brand, declared in the node with this
    /// id: its bindings may name that node's parameters, which the brand it
    /// is reached through binds.
    Branded(BrandedDecl, u64),
}

impl<'a> Compilation<'a> {
    /// Builds the node table of every loaded file (ids, display names,
    /// nested scopes), reporting duplicate ids.
    pub fn new(files: &'a [SourceFile]) -> Compilation<'a> {
        let mut cx = Compilation {
            files,
            nodes: Vec::new(),
            index_by_id: HashMap::new(),
            file_roots: Vec::new(),
            errors: RefCell::new(Vec::new()),
            translations: RefCell::new(HashMap::new()),
            translating: RefCell::new(HashSet::new()),
            aliases: RefCell::new(HashMap::new()),
            pending_values: RefCell::new(Vec::new()),
            evaluated_values: RefCell::new(HashMap::new()),
            values_in_progress: RefCell::new(HashSet::new()),
            translated_by_id: RefCell::new(HashMap::new()),
            recursion_depth: std::cell::Cell::new(0),
            copied_words: std::cell::Cell::new(0),
            first_names: RefCell::new(vec![None; files.len()]),
            second_path: RefCell::new(None),
            enumerants: RefCell::new(HashMap::new()),
        };
        let mut bogus = 1000u64;
        for (fi, f) in files.iter().enumerate() {
            let id = match &f.ast.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(0, ""),
            };
            let root = cx.add_node(
                fi,
                None,
                &f.ast,
                id,
                f.name.clone(),
                NodeKindTag::File,
                &mut bogus,
            );
            cx.file_roots.push(root);
            cx.add_nested_nodes(root, &mut bogus);
        }
        cx
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn add_node(
        &mut self,
        file: usize,
        parent: Option<usize>,
        decl: &'a Decl,
        mut id: u64,
        display: String,
        kind: NodeKindTag,
        bogus: &mut u64,
    ) -> usize {
        let idx = self.nodes.len();
        loop {
            if let Some(&other) = self.index_by_id.get(&id) {
                if id & (1 << 63) != 0 {
                    let span = node_span(decl);
                    self.error(file, span, format!("Duplicate ID @0x{id:x}."));
                    let o = &self.nodes[other];
                    let (of, os) = (o.file, node_span(o.decl));
                    self.error(of, os, format!("ID @0x{id:x} originally used here."));
                }
                id = *bogus;
                *bogus += 1;
                continue;
            }
            break;
        }
        self.index_by_id.insert(id, idx);
        self.nodes.push(NodeEntry {
            id,
            file,
            parent,
            decl,
            display,
            kind,
            children: Vec::new(),
            members: HashMap::new(),
            aliases: Vec::new(),
            alias_by_name: HashMap::new(),
            param_by_name: {
                let mut m = HashMap::new();
                for (i, p) in decl.params.iter().enumerate() {
                    m.entry(p.value.as_str()).or_insert(i as u16);
                }
                m
            },
        });
        idx
    }

    pub(super) fn add_nested_nodes(&mut self, idx: usize, bogus: &mut u64) {
        let decl = self.nodes[idx].decl;
        let file = self.nodes[idx].file;
        for nd in &decl.nested {
            let kind = match nd.kind {
                DeclKind::Const { .. } => NodeKindTag::Const,
                DeclKind::Annotation { .. } => NodeKindTag::Annotation,
                DeclKind::Enum => NodeKindTag::Enum,
                DeclKind::Struct => NodeKindTag::Struct,
                DeclKind::Interface { .. } => NodeKindTag::Interface,
                DeclKind::Using(_) => {
                    let n = &mut self.nodes[idx];
                    n.alias_by_name
                        .entry(nd.name.value.as_str())
                        .or_insert(n.aliases.len());
                    n.aliases.push(nd);
                    continue;
                }
                _ => continue,
            };
            let pid = self.nodes[idx].id;
            let id = match &nd.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(pid, &nd.name.value),
            };
            let sep = if self.nodes[idx].parent.is_none() {
                ':'
            } else {
                '.'
            };
            let display = format!("{}{}{}", self.nodes[idx].display, sep, nd.name.value);
            let c = self.add_node(file, Some(idx), nd, id, display, kind, bogus);
            self.nodes[idx].children.push(c);
            self.nodes[idx].members.entry(&nd.name.value).or_insert(c);
            self.add_nested_nodes(c, bogus);
        }
    }

    pub(super) fn param_count(&self, idx: usize) -> usize {
        self.nodes[idx].decl.params.len()
    }

    pub(super) fn resolve_member(&self, idx: usize, name: &str) -> Option<Resolution> {
        let n = &self.nodes[idx];
        if let Some(&c) = n.members.get(name) {
            return Some(Resolution::Decl {
                target: DeclTarget::Node(c),
                params: self.param_count(c),
                scope_id: n.id,
            });
        }
        let index = *n.alias_by_name.get(name)?;
        let bd = self.compile_alias(AliasId { node: idx, index })?;
        match &bd {
            BrandedDecl::Decl { target, brand, .. } if self.brand_levels(brand).is_empty() => {
                Some(Resolution::Decl {
                    target: *target,
                    params: match target {
                        DeclTarget::Node(t) => self.param_count(*t),
                        DeclTarget::Builtin(Builtin::List) => 1,
                        _ => 0,
                    },
                    scope_id: n.id,
                })
            }
            BrandedDecl::Param { scope, index, .. } => Some(Resolution::Param {
                scope: *scope,
                index: *index,
            }),
            _ => Some(Resolution::Branded(bd, n.id)),
        }
    }

    /// What alias `key` names (memoized, compiled once).
    pub(super) fn compile_alias(&self, key: AliasId) -> Option<BrandedDecl> {
        if let Some(r) = self.aliases.borrow().get(&key) {
            return r.clone();
        }
        self.aliases.borrow_mut().insert(key, None);
        let parent = key.node;
        let alias = self.nodes[parent].aliases[key.index];
        let DeclKind::Using(target) = &alias.kind else {
            return None;
        };
        let brand = self.local_brand(parent);
        let file = self.nodes[parent].file;
        if !self.enter(file, target.span) {
            return None;
        }
        let r = self.compile_decl_expr(parent, &brand, target, &NO_IMPLICIT_PARAMS);
        self.leave();
        self.aliases.borrow_mut().insert(key, r.clone());
        r
    }

    pub(super) fn resolve(&self, idx: usize, name: &str) -> Option<Resolution> {
        if let Some(r) = self.resolve_member(idx, name) {
            return Some(r);
        }
        let n = &self.nodes[idx];
        if let Some(&index) = n.param_by_name.get(name) {
            return Some(Resolution::Param { scope: n.id, index });
        }
        match n.parent {
            Some(p) => self.resolve(p, name),
            None => BUILTINS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| Resolution::Decl {
                    target: DeclTarget::Builtin(*b),
                    params: if *b == Builtin::List { 1 } else { 0 },
                    scope_id: 0,
                }),
        }
    }

    /// The declaration (with its brand) that expression `e` names, in
    /// `scope_node` reached through `brand`. A result larger than
    /// [`limits::MAX_TYPE_SIZE`] or deeper than [`limits::MAX_TYPE_DEPTH`]
    /// is an error: every part was checked when made, so no brand grows
    /// past a few times the limits before it is refused.
    pub(super) fn compile_decl_expr(
        &self,
        scope_node: usize,
        brand: &Rc<BrandScope>,
        e: &Expr,
        implicit: &ImplicitParams<'_>,
    ) -> Option<BrandedDecl> {
        let file = self.nodes[scope_node].file;
        if !self.enter(file, e.span) {
            return None;
        }
        let d = self.compile_decl_expr_unchecked(scope_node, brand, e, implicit);
        self.leave();
        let d = d?;
        if d.size() > limits::MAX_TYPE_SIZE || d.depth() > limits::MAX_TYPE_DEPTH {
            self.error(
                file,
                e.span,
                format!(
                    "This type, with its generic parameters written out, is {} scopes and parameters large and {} deep; the limits are {} and {} (limits::MAX_TYPE_SIZE, limits::MAX_TYPE_DEPTH).",
                    d.size(),
                    d.depth(),
                    limits::MAX_TYPE_SIZE,
                    limits::MAX_TYPE_DEPTH
                ),
            );
            return None;
        }
        Some(d)
    }

    pub(super) fn compile_decl_expr_unchecked(
        &self,
        scope_node: usize,
        brand: &Rc<BrandScope>,
        e: &Expr,
        implicit: &ImplicitParams<'_>,
    ) -> Option<BrandedDecl> {
        let file = self.nodes[scope_node].file;
        match &e.kind {
            ExprKind::RelativeName(n) => {
                if let Some(i) = implicit.names.iter().position(|p| p.value == n.value) {
                    return Some(BrandedDecl::Param {
                        scope: implicit.scope_id,
                        index: i as u16,
                        span: e.span,
                        text: n.value.clone(),
                    });
                }
                match self.resolve(scope_node, &n.value) {
                    Some(r) => Some(self.interpret_resolution(brand, r, e)),
                    None => {
                        self.error(file, n.span, format!("Not defined: {}", n.value));
                        None
                    }
                }
            }
            ExprKind::AbsoluteName(n) => {
                let root = self.file_roots[file];
                match self.resolve_member(root, &n.value) {
                    Some(r) => Some(self.interpret_resolution(brand, r, e)),
                    None => {
                        self.error(file, n.span, format!("Not defined: {}", n.value));
                        None
                    }
                }
            }
            ExprKind::Import(f) => {
                let target = self.files[file].imports.get(&f.value);
                match target {
                    Some(Ok(fi)) => {
                        if let Some(name) = self.files[file].reached_as.get(&f.value) {
                            self.note_file_path(*fi, name);
                        }
                        let root = self.file_roots[*fi];
                        Some(BrandedDecl::Decl {
                            target: DeclTarget::Node(root),
                            brand: BrandScope::new(self.nodes[root].id, 0, true, Vec::new(), None),
                            span: e.span,
                            text: expr_string(e),
                        })
                    }
                    other => {
                        let e = other
                            .and_then(|r| r.as_ref().err())
                            .unwrap_or(&crate::files::LoadError::NotFound);
                        self.error(file, f.span, e.message("Import failed", &f.value));
                        None
                    }
                }
            }
            ExprKind::Application { func, params } => {
                let decl = self.compile_decl_expr(scope_node, brand, func, implicit)?;
                let mut compiled = Vec::new();
                let mut failed = false;
                for p in params {
                    if let Some(n) = &p.name {
                        self.error(file, n.span, "Named parameter not allowed here.".into());
                    }
                    match self.compile_decl_expr(scope_node, brand, &p.value, implicit) {
                        Some(d) => compiled.push(d),
                        None => failed = true,
                    }
                }
                if failed {
                    return Some(decl);
                }
                match decl {
                    BrandedDecl::Param { .. } => Some(decl),
                    BrandedDecl::Decl {
                        target, brand: b, ..
                    } => {
                        if !b.params.is_empty() {
                            self.error(
                                file,
                                e.span,
                                "Double-application of generic parameters.".into(),
                            );
                        } else if compiled.len() > b.leaf_params {
                            let msg = if b.leaf_params == 0 {
                                "Declaration does not accept generic parameters."
                            } else {
                                "Too many generic parameters."
                            };
                            self.error(file, e.span, msg.into());
                        } else if compiled.len() < b.leaf_params {
                            self.error(file, e.span, "Not enough generic parameters.".into());
                        } else {
                            if target != DeclTarget::Builtin(Builtin::List) {
                                for p in &compiled {
                                    if let BrandedDecl::Decl { target, .. } = p {
                                        let ok = match target {
                                            DeclTarget::Builtin(b) => matches!(
                                                b,
                                                Builtin::List
                                                    | Builtin::Text
                                                    | Builtin::Data
                                                    | Builtin::AnyPointer
                                            ),
                                            DeclTarget::Node(n) => matches!(
                                                self.nodes[*n].kind,
                                                NodeKindTag::Struct | NodeKindTag::Interface
                                            ),
                                        };
                                        if !ok {
                                            self.error(
                                                file,
                                                p.span(),
                                                "Sorry, only pointer types can be used as generic parameters.".into(),
                                            );
                                        }
                                    }
                                }
                            }
                            let nb = BrandScope::new(
                                b.leaf_id,
                                b.leaf_params,
                                false,
                                compiled,
                                b.parent.clone(),
                            );
                            return Some(BrandedDecl::Decl {
                                target,
                                brand: nb,
                                span: e.span,
                                text: expr_string(e),
                            });
                        }
                        Some(BrandedDecl::Decl {
                            target,
                            brand: b,
                            span: e.span,
                            text: expr_string(e),
                        })
                    }
                }
            }
            ExprKind::Member { parent, name } => {
                let decl = self.compile_decl_expr(scope_node, brand, parent, implicit)?;
                let found = match &decl {
                    BrandedDecl::Decl {
                        target: DeclTarget::Node(t),
                        brand: b,
                        ..
                    } => self
                        .resolve_member(*t, &name.value)
                        .map(|r| self.interpret_resolution(b, r, e)),
                    _ => None,
                };
                if found.is_none() {
                    self.error(
                        file,
                        name.span,
                        format!(
                            "'{}' has no member named '{}'",
                            expr_string(parent),
                            name.value
                        ),
                    );
                }
                found
            }
            _ => {
                self.error(file, e.span, "Expected name.".into());
                None
            }
        }
    }
}
