//! Scopes and declarations: the table of named nodes, and what a name
//! written in a schema refers to.
//!
//! Every file, struct, enum, interface, constant and annotation becomes a
//! [`NodeEntry`] with its id (given, or derived from its parent's id and
//! its name), its display name and its members; `using` declarations are
//! kept as aliases of the node they are declared in. A name is then looked
//! up as the reference's `Compiler::Node::resolve` does (compiler.c++,
//! v0.9.2): the node's members and aliases, then its generic parameters,
//! then the enclosing scopes, the file's, and last the built-in types. An
//! expression naming a declaration (`Foo`, `.Foo`, `import "x"`,
//! `Foo(Bar).Baz`) compiles to a [`BrandedDecl`]: the declaration with
//! the bindings of the generic parameters it is reached through, as
//! `BrandScope::compileDeclExpression` does (generics.c++).

use std::collections::HashMap;
use std::ops::{Index, IndexMut};
use std::rc::Rc;

use super::decls::{AliasId, Builtin, DeclTarget, NodeIndex};
use super::generics::{BrandScope, BrandedDecl, ImplicitParams, NO_IMPLICIT_PARAMS, Resolution};
use super::{Compilation, NodeKindTag, expr_string, node_span};
use crate::ast::*;
use crate::ids;
use crate::limits;

/// The built-ins by the name a schema spells them with.
const BUILTINS: &[(&str, Builtin)] = &[
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

/// The first id given to a node whose id is taken by another: a
/// placeholder (the duplicate is an error), counted up from here so that
/// the compile can go on.
const FIRST_PLACEHOLDER_ID: u64 = 1000;

impl<'a> Index<NodeIndex> for Vec<NodeEntry<'a>> {
    type Output = NodeEntry<'a>;

    fn index(&self, i: NodeIndex) -> &NodeEntry<'a> {
        &self[i.0]
    }
}

impl<'a> IndexMut<NodeIndex> for Vec<NodeEntry<'a>> {
    fn index_mut(&mut self, i: NodeIndex) -> &mut NodeEntry<'a> {
        &mut self[i.0]
    }
}

/// One named node of the table: a file, struct, enum, interface,
/// constant or annotation (groups and parameter structs are made by the
/// translation, not named here).
pub(super) struct NodeEntry<'a> {
    /// Its id: declared with `@0x...`, or derived from the parent's.
    pub(super) id: u64,
    /// The file it is declared in (an index of `Compilation::files`).
    pub(super) file: usize,
    /// The node it is nested in (None for a file).
    pub(super) parent: Option<NodeIndex>,
    /// Its declaration.
    pub(super) decl: &'a Decl,
    /// Its display name: the file's name, `:`, then the nested names
    /// joined by `.` (`foo.capnp:Outer.Inner`).
    pub(super) display: String,
    /// What it declares.
    pub(super) kind: NodeKindTag,
    /// The nodes nested in it, in declaration order.
    pub(super) children: Vec<NodeIndex>,
    /// The first child of each name.
    pub(super) members: HashMap<&'a str, NodeIndex>,
    /// Its `using` declarations, in declaration order.
    pub(super) aliases: Vec<&'a Decl>,
    /// The first alias of each name, an index into `aliases` (lookups
    /// by name stay constant-time however many there are).
    pub(super) alias_by_name: HashMap<&'a str, usize>,
    /// The first generic parameter of each name: its index.
    pub(super) param_by_name: HashMap<&'a str, u16>,
}

impl<'a> Compilation<'a> {
    /// Adds every file's nodes to the table: the file's root, then its
    /// nested declarations depth first. A node whose id is taken gets a
    /// placeholder id (and, when the id was declared, an error).
    pub(super) fn add_files(&mut self) {
        let mut placeholder = FIRST_PLACEHOLDER_ID;
        let n = self.files.len();
        // Files known to be reached first (all files, in load order, when
        // that is not known), then the others.
        let reached = |fi: usize| self.reached.get(fi).copied().unwrap_or(true);
        let order: Vec<usize> = (0..n)
            .filter(|&fi| reached(fi))
            .chain((0..n).filter(|&fi| !reached(fi)))
            .collect();
        self.file_roots = vec![NodeIndex(usize::MAX); n];
        for fi in order {
            let f = &self.files[fi];
            let id = match &f.ast.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(0, ""),
            };
            let root = self.add_node(
                fi,
                None,
                &f.ast,
                id,
                f.name.clone(),
                NodeKindTag::File,
                &mut placeholder,
            );
            self.file_roots[fi] = root;
            self.add_nested_nodes(root, &mut placeholder);
        }
    }

    /// Adds one node to the table and returns its index. `id` is the id
    /// it asks for; when another node has it, the node takes the next
    /// `placeholder` id instead.
    #[allow(clippy::too_many_arguments)]
    fn add_node(
        &mut self,
        file: usize,
        parent: Option<NodeIndex>,
        decl: &'a Decl,
        mut id: u64,
        display: String,
        kind: NodeKindTag,
        placeholder: &mut u64,
    ) -> NodeIndex {
        let idx = NodeIndex(self.nodes.len());
        loop {
            if let Some(&other) = self.index_by_id.get(&id) {
                self.id_collision = true;
                // Real ids have the top bit set; a placeholder taken twice
                // is no error of the schema's. Nor is a collision with a
                // file the compile never resolves (the reference would
                // not load it).
                let first_file = self.nodes[other].file;
                let both_reached = [file, first_file]
                    .iter()
                    .all(|&f| self.reached.get(f).copied().unwrap_or(true));
                if id & (1 << 63) != 0 && both_reached {
                    let span = node_span(decl);
                    let first = &self.nodes[other];
                    let (first_file, first_span) = (first.file, node_span(first.decl));
                    self.error_with(
                        file,
                        span,
                        format!("Duplicate ID @0x{id:x}."),
                        (
                            first_file,
                            first_span,
                            format!("ID @0x{id:x} originally used here."),
                        ),
                    );
                }
                id = *placeholder;
                *placeholder += 1;
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

    /// Adds the declarations nested in node `idx` (recursively) and notes
    /// its aliases.
    fn add_nested_nodes(&mut self, idx: NodeIndex, placeholder: &mut u64) {
        let decl = self.nodes[idx].decl;
        let file = self.nodes[idx].file;
        for nested in &decl.nested {
            let kind = match nested.kind {
                DeclKind::Const { .. } => NodeKindTag::Const,
                DeclKind::Annotation { .. } => NodeKindTag::Annotation,
                DeclKind::Enum => NodeKindTag::Enum,
                DeclKind::Struct => NodeKindTag::Struct,
                DeclKind::Interface { .. } => NodeKindTag::Interface,
                DeclKind::Using(_) => {
                    let n = &mut self.nodes[idx];
                    n.alias_by_name
                        .entry(nested.name.value.as_str())
                        .or_insert(n.aliases.len());
                    n.aliases.push(nested);
                    continue;
                }
                _ => continue,
            };
            let parent_id = self.nodes[idx].id;
            let id = match &nested.id {
                DeclId::Uid(u) => u.value,
                _ => ids::child_id(parent_id, &nested.name.value),
            };
            let sep = if self.nodes[idx].parent.is_none() {
                ':'
            } else {
                '.'
            };
            let display = format!("{}{}{}", self.nodes[idx].display, sep, nested.name.value);
            let child = self.add_node(file, Some(idx), nested, id, display, kind, placeholder);
            self.nodes[idx].children.push(child);
            self.nodes[idx]
                .members
                .entry(&nested.name.value)
                .or_insert(child);
            self.add_nested_nodes(child, placeholder);
        }
    }

    /// How many generic parameters node `idx` declares.
    pub(super) fn param_count(&self, idx: NodeIndex) -> usize {
        self.nodes[idx].decl.params.len()
    }

    /// `name` as a member of node `idx`: a nested declaration, else an
    /// alias (compiled on first use). An alias to a plain declaration or a
    /// parameter resolves to what it names; one that binds generic
    /// parameters stays [`Resolution::Branded`].
    fn resolve_member(&self, idx: NodeIndex, name: &str) -> Option<Resolution> {
        let n = &self.nodes[idx];
        if let Some(&c) = n.members.get(name) {
            return Some(Resolution::Decl {
                target: DeclTarget::Node(c),
                params: self.param_count(c),
                scope_id: n.id,
            });
        }
        let index = *n.alias_by_name.get(name)?;
        let aliased = self.compile_alias(AliasId { node: idx, index })?;
        match &aliased {
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
            _ => Some(Resolution::Branded(aliased, n.id)),
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

    /// `name` as written inside node `idx`: its members, its generic
    /// parameters, then the enclosing scopes', and last the built-ins.
    pub(super) fn resolve(&self, idx: NodeIndex, name: &str) -> Option<Resolution> {
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
        scope_node: NodeIndex,
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

    /// [`compile_decl_expr`](Self::compile_decl_expr) without the depth
    /// and size checks: one step per kind of expression.
    fn compile_decl_expr_unchecked(
        &self,
        scope_node: NodeIndex,
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
                let found = self.resolve(scope_node, &n.value);
                self.interpret_or_not_defined(file, brand, found, e, n)
            }
            ExprKind::AbsoluteName(n) => {
                let found = self.resolve_member(self.file_roots[file], &n.value);
                self.interpret_or_not_defined(file, brand, found, e, n)
            }
            ExprKind::Import(f) => self.compile_import(file, e, f),
            ExprKind::Application { func, params } => {
                self.compile_application(scope_node, brand, e, func, params, implicit)
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

    /// The declaration a name resolved to, seen through `brand`; an
    /// error when the name was not found.
    fn interpret_or_not_defined(
        &self,
        file: usize,
        brand: &Rc<BrandScope>,
        found: Option<Resolution>,
        e: &Expr,
        name: &Located<String>,
    ) -> Option<BrandedDecl> {
        match found {
            Some(r) => Some(self.interpret_resolution(brand, r, e)),
            None => {
                self.error(file, name.span, format!("Not defined: {}", name.value));
                None
            }
        }
    }

    /// `import "path"`: the imported file's root node, or the loader's
    /// error. Notes the path the file was reached through (see
    /// [`note_file_path`](Self::note_file_path)).
    fn compile_import(&self, file: usize, e: &Expr, path: &Located<String>) -> Option<BrandedDecl> {
        match self.files[file].imports.get(&path.value) {
            Some(Ok(fi)) => {
                if let Some(name) = self.files[file].reached_as.get(&path.value) {
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
                let error = other
                    .and_then(|r| r.as_ref().err())
                    .unwrap_or(&crate::files::LoadError::NotFound);
                self.error(file, path.span, error.message("Import failed", &path.value));
                None
            }
        }
    }

    /// `Func(Param, ...)`: the declaration `func` names with its generic
    /// parameters bound to the compiled `params` (when any of them fails
    /// to compile: the declaration unbound).
    fn compile_application(
        &self,
        scope_node: NodeIndex,
        brand: &Rc<BrandScope>,
        e: &Expr,
        func: &Expr,
        params: &[Param],
        implicit: &ImplicitParams<'_>,
    ) -> Option<BrandedDecl> {
        let file = self.nodes[scope_node].file;
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
            } => Some(self.apply_generic_params(file, e, target, b, compiled)),
        }
    }
}
