//! Node translation: one named declaration to the schema node the request
//! carries for it, with the extra nodes it brings (a struct's groups, a
//! method's parameter and result structs) and their source info.
//!
//! This reproduces the reference's `NodeTranslator::compileNode` and its
//! per-kind steps (node-translator.c++, v0.9.2): the member name checks
//! (duplicates, capitalization, underscores, declarations where they do
//! not belong), constants, annotation declarations, enums and interfaces
//! with their members in ordinal order and the ordinal checks, method
//! parameter lists (`compileParamList`: a struct of its own named
//! `method$Params`/`method$Results`, a struct type, or `stream`), and
//! annotation applications (`compileAnnotationApplications`) with their
//! target checks. A struct's fields are laid out by `structs`; values
//! are evaluated by `values`.
//!
//! Nodes are translated on first use and memoized by node index
//! ([`Compilation::translate`]); a node that needs itself to be
//! translated is an error, as in the reference.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use super::checks::{AnnotationTarget, OrdinalChecker};
use super::decls::{DeclTarget, NodeIndex};
use super::generics::{
    BrandScope, BrandedDecl, ImplicitParams, NO_IMPLICIT_PARAMS, nested_scope, subst,
};
use super::structs::StructTranslator;
use super::values::zero_value;
use super::{Compilation, NodeKindTag, display_prefix_len, expr_string, node_span};
use crate::ast::*;
use crate::ids;
use crate::schema::*;

/// The id of capnp/stream.capnp's `StreamResult`.
const STREAM_RESULT_ID: u64 = 0x995f_9a33_77c0_b16e;

/// One node's translation: the node, the extra nodes it brings (groups,
/// parameter structs) and their source info.
pub struct Translation {
    /// The node.
    pub(super) node: Node,
    /// Its groups (a struct) or parameter and result structs (an
    /// interface), in the order the reference makes them.
    pub(super) extra_nodes: Vec<Node>,
    /// The node's source info, then each extra node's.
    pub(super) source_info: Vec<SourceInfo>,
}

/// Nodes made while translating another (groups, parameter structs) and
/// their source info, in the order they are made.
#[derive(Default)]
struct ExtraNodes {
    /// The nodes.
    pub(super) nodes: Vec<Node>,
    /// Their source info, one per node.
    pub(super) source_info: Vec<SourceInfo>,
}

impl ExtraNodes {
    /// Adds one node and its source info.
    pub(super) fn push(&mut self, node: Node, source_info: SourceInfo) {
        self.nodes.push(node);
        self.source_info.push(source_info);
    }
}

/// What a method's parameter structs are made from: its name, ordinal
/// and implicit generic parameters.
struct MethodSignature<'a> {
    /// The method's name.
    name: &'a str,
    /// Its ordinal (@N).
    ordinal: u16,
    /// Its implicit generic parameters (`method[T]`).
    implicit_params: &'a [Located<String>],
}

/// A method with no result list (`foo @0 ();`) returns an empty struct.
static NO_PARAMS: ParamList = ParamList::Named(Vec::new(), Span { start: 0, end: 0 });

/// The name an alias's target ends with (`Foo` of `a.b.Foo(T)`), whose
/// case decides whether the alias names a type.
fn alias_target_name(e: &Expr) -> String {
    match &e.kind {
        ExprKind::AbsoluteName(n) | ExprKind::RelativeName(n) => n.value.clone(),
        ExprKind::Application { func, .. } => alias_target_name(func),
        ExprKind::Member { name, .. } => name.value.clone(),
        _ => String::new(),
    }
}

/// The members of `decls` of one kind in ordinal order, each with its
/// code order (its place among them as written). Members without an
/// ordinal count as @0; the sort is stable.
fn in_ordinal_order(decls: &[Decl], is_member: impl Fn(&DeclKind) -> bool) -> Vec<(usize, &Decl)> {
    let mut members: Vec<(u64, usize, &Decl)> = decls
        .iter()
        .filter(|m| is_member(&m.kind))
        .enumerate()
        .map(|(code_order, m)| (m.ordinal().map(|o| o.value).unwrap_or(0), code_order, m))
        .collect();
    members.sort_by_key(|e| e.0);
    members.into_iter().map(|(_, co, m)| (co, m)).collect()
}

impl<'a> Compilation<'a> {
    /// The translation of node `idx` (memoized); None when it failed.
    /// Its nodes are also filed by id for [`node_by_id`](Self::node_by_id).
    pub(super) fn translate(&self, idx: NodeIndex) -> Option<Rc<Translation>> {
        if let Some(r) = self.translations.borrow().get(&idx) {
            return r.clone();
        }
        let n = &self.nodes[idx];
        let r = self
            .without_cycles(n.file, node_span(n.decl), &self.translating, idx, || {
                self.translate_node(idx)
            })?
            .map(Rc::new);
        if let Some(t) = &r {
            let mut by_id = self.translated_by_id.borrow_mut();
            by_id.insert(t.node.id, Rc::new(t.node.clone()));
            for a in &t.extra_nodes {
                by_id.insert(a.id, Rc::new(a.clone()));
            }
        }
        self.translations.borrow_mut().insert(idx, r.clone());
        r
    }

    /// The node with schema id `id`, translating the declaration it
    /// belongs to if need be (a group or parameter struct is found once
    /// its struct or interface is translated).
    pub(super) fn node_by_id(&self, id: u64) -> Option<Rc<Node>> {
        if let Some(n) = self.translated_by_id.borrow().get(&id) {
            return Some(n.clone());
        }
        let idx = *self.index_by_id.get(&id)?;
        self.translate(idx)?;
        self.translated_by_id.borrow().get(&id).cloned()
    }

    /// The name checks of the members `decls` of a declaration of kind
    /// `parent_kind` (the reference's `DuplicateNameDetector` and the
    /// style checks of `compileNode`). `names` holds the names already
    /// taken in the scope: the members of unnamed unions and of fields'
    /// bodies share their parent's.
    fn check_member_names(
        &self,
        file: usize,
        decls: &'a [Decl],
        parent_kind: &DeclKind,
        names: &mut BTreeMap<String, Span>,
    ) {
        for d in decls {
            let name = &d.name.value;
            if let Some(prev) = names.get(name) {
                self.report_duplicate_name(file, d, *prev);
            } else {
                names.insert(name.clone(), d.name.span);
            }
            self.check_name_style(file, d);
            let may_declare = matches!(
                parent_kind,
                DeclKind::File | DeclKind::Struct | DeclKind::Interface { .. }
            );
            match &d.kind {
                DeclKind::Using(_)
                | DeclKind::Const { .. }
                | DeclKind::Enum
                | DeclKind::Struct
                | DeclKind::Interface { .. }
                | DeclKind::Annotation { .. }
                    if !may_declare =>
                {
                    self.error(
                        file,
                        d.span,
                        "This kind of declaration doesn't belong here.".into(),
                    );
                }
                DeclKind::Field { .. } | DeclKind::Union | DeclKind::Group => {
                    if name.is_empty() {
                        self.check_member_names(file, &d.nested, &d.kind, names);
                    } else {
                        self.check_member_names(file, &d.nested, &d.kind, &mut BTreeMap::new());
                    }
                }
                _ => {}
            }
        }
    }

    /// The errors for member `d` whose name was already taken at `prev`.
    fn report_duplicate_name(&self, file: usize, d: &Decl, prev: Span) {
        let name = &d.name.value;
        if name.is_empty() && matches!(d.kind, DeclKind::Union) {
            self.error(
                file,
                d.name.span,
                "An unnamed union is already defined in this scope.".into(),
            );
            self.error(file, prev, "Previously defined here.".into());
        } else {
            self.error(
                file,
                d.name.span,
                format!("'{name}' is already defined in this scope."),
            );
            self.error(file, prev, format!("'{name}' previously defined here."));
        }
    }

    /// The style rules of names: types (and aliases of types) start with
    /// a capital letter, everything else with a lower-case one, and no
    /// name has an underscore.
    fn check_name_style(&self, file: usize, d: &Decl) {
        let name = &d.name.value;
        let is_type = match &d.kind {
            DeclKind::Using(t) => !alias_target_name(t)
                .as_bytes()
                .first()
                .is_some_and(|c| c.is_ascii_lowercase()),
            DeclKind::Enum | DeclKind::Struct | DeclKind::Interface { .. } => true,
            _ => false,
        };
        if let Some(c) = name.as_bytes().first() {
            if is_type && !c.is_ascii_uppercase() {
                self.error(
                    file,
                    d.name.span,
                    "Type names must begin with a capital letter.".into(),
                );
            } else if !is_type && !c.is_ascii_lowercase() {
                self.error(
                    file,
                    d.name.span,
                    "Non-type names must begin with a lower-case letter.".into(),
                );
            }
        }
        if name.contains('_') {
            self.error(file, d.name.span, "Cap'n Proto declaration names should use camelCase and must not contain underscores. (Code generators may convert names to the appropriate style for the target language.)".into());
        }
    }

    /// Translates node `idx` (the reference's `compileNode`): the common
    /// part of the node, then the part of its kind, then its annotations.
    fn translate_node(&self, idx: NodeIndex) -> Option<Translation> {
        let n = &self.nodes[idx];
        let decl = n.decl;
        self.check_member_names(n.file, &decl.nested, &decl.kind, &mut BTreeMap::new());
        let mut node = self.node_header(idx);
        let mut source_info = SourceInfo {
            id: n.id,
            doc: decl.doc.clone(),
            members: None,
        };
        let mut extra = ExtraNodes::default();
        let brand = self.local_brand(idx);
        let target = match &decl.kind {
            DeclKind::File => AnnotationTarget::File,
            DeclKind::Const { ty, value } => {
                node.kind = self.translate_const(idx, &brand, ty, value);
                AnnotationTarget::Const
            }
            DeclKind::Annotation { ty, targets } => {
                let ty = self
                    .compile_type(idx, &brand, ty, &NO_IMPLICIT_PARAMS)
                    .unwrap_or(Type::Void);
                node.kind = NodeKind::Annotation {
                    ty,
                    targets: *targets,
                };
                AnnotationTarget::Annotation
            }
            DeclKind::Enum => {
                let (enumerants, docs) = self.translate_enumerants(idx);
                node.kind = NodeKind::Enum(enumerants);
                source_info.members = Some(docs);
                AnnotationTarget::Enum
            }
            DeclKind::Struct => {
                let mut translator = StructTranslator::new(self, idx, NO_IMPLICIT_PARAMS);
                let (root, groups) = translator.translate_decls(&decl.nested, &node);
                node.kind = root.kind;
                source_info.members = root.members;
                for (group, group_info) in groups {
                    extra.push(group, group_info);
                }
                AnnotationTarget::Struct
            }
            DeclKind::Interface { superclasses } => {
                let superclasses = self.compile_superclasses(idx, &brand, superclasses);
                let (methods, docs) = self.translate_methods(idx, &node, &mut extra);
                node.kind = NodeKind::Interface {
                    methods,
                    superclasses,
                };
                source_info.members = Some(docs);
                AnnotationTarget::Interface
            }
            _ => return None,
        };
        node.annotations = self.annotations(idx, &decl.annotations, target);
        let mut all_source_info = vec![source_info];
        all_source_info.extend(extra.source_info);
        Some(Translation {
            node,
            extra_nodes: extra.nodes,
            source_info: all_source_info,
        })
    }

    /// The part of node `idx` every kind shares: id, names, scope,
    /// generic parameters, nested nodes (its kind still a file's).
    fn node_header(&self, idx: NodeIndex) -> Node {
        let n = &self.nodes[idx];
        let decl = n.decl;
        let parameters = if decl.params.is_empty() {
            None
        } else {
            Some(decl.params.iter().map(|p| p.value.clone()).collect())
        };
        Node {
            id: n.id,
            display_name: n.display.clone(),
            display_name_prefix_length: display_prefix_len(&n.display),
            scope_id: n.parent.map(|p| self.nodes[p].id).unwrap_or(0),
            parameters,
            is_generic: self.is_generic(idx),
            nested_nodes: Some(
                n.children
                    .iter()
                    .map(|&c| (self.nodes[c].decl.name.value.clone(), self.nodes[c].id))
                    .collect(),
            ),
            annotations: None,
            kind: NodeKind::File,
        }
    }

    /// A constant: its type, and its value (a pointer value deferred, see
    /// [`bootstrap_value`](Self::bootstrap_value)); Void when the type
    /// does not compile.
    fn translate_const(
        &self,
        idx: NodeIndex,
        brand: &Rc<BrandScope>,
        ty: &'a Expr,
        value: &'a Expr,
    ) -> NodeKind {
        match self.compile_type(idx, brand, ty, &NO_IMPLICIT_PARAMS) {
            Some(ty) => {
                let value = self.bootstrap_value(idx, value, &ty);
                NodeKind::Const { ty, value }
            }
            None => NodeKind::Const {
                ty: Type::Void,
                value: Value::Void,
            },
        }
    }

    /// Enum `idx`'s enumerants in ordinal order (each with its code
    /// order and annotations) and their doc comments.
    fn translate_enumerants(&self, idx: NodeIndex) -> (Vec<Enumerant>, Vec<Option<Vec<u8>>>) {
        let file = self.nodes[idx].file;
        let decls = &self.nodes[idx].decl.nested;
        let mut ordinals = OrdinalChecker::default();
        let mut enumerants = Vec::new();
        let mut docs = Vec::new();
        for (code_order, m) in in_ordinal_order(decls, |k| matches!(k, DeclKind::Enumerant)) {
            if let Some(o) = m.ordinal() {
                ordinals.check(self, file, o);
            }
            docs.push(m.doc.clone());
            enumerants.push(Enumerant {
                name: m.name.value.clone(),
                code_order: code_order as u16,
                annotations: self.annotations(idx, &m.annotations, AnnotationTarget::Enumerant),
            });
        }
        (enumerants, docs)
    }

    /// An interface's superclasses: each one's id and brand, or (0, None)
    /// when it is not an interface (an error).
    fn compile_superclasses(
        &self,
        idx: NodeIndex,
        brand: &Rc<BrandScope>,
        superclasses: &'a [Expr],
    ) -> Vec<(u64, Option<Brand>)> {
        let file = self.nodes[idx].file;
        let mut out = Vec::new();
        for s in superclasses {
            let mut entry = (0u64, None);
            if let Some(d) = self.compile_decl_expr(idx, brand, s, &NO_IMPLICIT_PARAMS) {
                match &d {
                    BrandedDecl::Decl {
                        target: DeclTarget::Node(t),
                        brand: b,
                        ..
                    } if self.nodes[*t].kind == NodeKindTag::Interface => {
                        entry = (self.nodes[*t].id, self.compile_brand(file, b));
                    }
                    BrandedDecl::Decl { .. } => self.error(
                        file,
                        d.span(),
                        format!("'{}' is not an interface.", d.text()),
                    ),
                    BrandedDecl::Param { .. } => self.error(
                        file,
                        d.span(),
                        format!("'{}' is an unbound generic parameter. Currently we don't support extending these.", d.text()),
                    ),
                }
            }
            out.push(entry);
        }
        out
    }

    /// Interface `idx`'s methods in ordinal order and their doc comments;
    /// their parameter and result structs go to `extra`.
    fn translate_methods(
        &self,
        idx: NodeIndex,
        iface: &Node,
        extra: &mut ExtraNodes,
    ) -> (Vec<Method>, Vec<Option<Vec<u8>>>) {
        let file = self.nodes[idx].file;
        let decls = &self.nodes[idx].decl.nested;
        let mut ordinals = OrdinalChecker::default();
        let mut methods = Vec::new();
        let mut docs = Vec::new();
        for (code_order, m) in in_ordinal_order(decls, |k| matches!(k, DeclKind::Method { .. })) {
            let DeclKind::Method {
                implicit_params,
                params,
                results,
            } = &m.kind
            else {
                continue;
            };
            let ordinal = m.ordinal().map(|o| o.value).unwrap_or(0) as u16;
            if let Some(o) = m.ordinal() {
                ordinals.check(self, file, o);
            }
            docs.push(m.doc.clone());
            if let ParamList::Stream(s) = params {
                self.error(
                    file,
                    *s,
                    "'stream' can only appear after '->', not before.".into(),
                );
            }
            let method = MethodSignature {
                name: &m.name.value,
                ordinal,
                implicit_params,
            };
            let (param_id, param_brand) =
                self.method_param_struct(idx, iface, &method, false, params, extra);
            let results = results.as_ref().unwrap_or(&NO_PARAMS);
            let (result_id, result_brand) =
                self.method_param_struct(idx, iface, &method, true, results, extra);
            methods.push(Method {
                name: m.name.value.clone(),
                code_order: code_order as u16,
                implicit_parameters: implicit_params.iter().map(|p| p.value.clone()).collect(),
                param_struct_type: param_id,
                param_brand,
                result_struct_type: result_id,
                result_brand,
                annotations: self.annotations(idx, &m.annotations, AnnotationTarget::Method),
            });
        }
        (methods, docs)
    }

    /// The struct a method's parameter list (or, when `results`, its
    /// result list) compiles to, and its brand (the reference's
    /// `compileParamList`): a list of named parameters makes a struct of
    /// its own (added to `extra`), a type names an existing struct,
    /// `stream` is `StreamResult`.
    fn method_param_struct(
        &self,
        idx: NodeIndex,
        iface: &Node,
        method: &MethodSignature<'a>,
        results: bool,
        list: &'a ParamList,
        extra: &mut ExtraNodes,
    ) -> (u64, Option<Brand>) {
        let file = self.nodes[idx].file;
        match list {
            ParamList::Named(params, _) => {
                self.check_param_names(file, params);
                self.named_param_struct(idx, iface, method, results, params, extra)
            }
            ParamList::Type(t) => self.param_struct_type(idx, t, method.implicit_params),
            ParamList::Stream(s) => {
                self.check_stream_import(file, *s);
                (STREAM_RESULT_ID, None)
            }
        }
    }

    /// An error for each parameter name used twice in one list. The
    /// reference has no name check for parameters; its schema validation
    /// refuses the duplicate instead (reported as a failed validation of
    /// the interface). Name it plainly.
    fn check_param_names(&self, file: usize, params: &[MethodParam]) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for p in params {
            if let Some(prev) = seen.insert(&p.name.value, p.name.span) {
                self.error(
                    file,
                    p.name.span,
                    format!(
                        "'{}' is already defined in this parameter list.",
                        p.name.value
                    ),
                );
                self.error(
                    file,
                    prev,
                    format!("'{}' previously defined here.", p.name.value),
                );
            }
        }
    }

    /// The struct made for a list of named parameters: its id derives
    /// from the interface's and the method's ordinal, its name is
    /// `method$Params` or `method$Results`; it and its groups go to
    /// `extra`.
    fn named_param_struct(
        &self,
        idx: NodeIndex,
        iface: &Node,
        method: &MethodSignature<'a>,
        results: bool,
        params: &'a [MethodParam],
        extra: &mut ExtraNodes,
    ) -> (u64, Option<Brand>) {
        let file = self.nodes[idx].file;
        let implicit = method.implicit_params;
        let id = ids::method_params_id(iface.id, method.ordinal, results);
        let suffix = if results { "$Results" } else { "$Params" };
        let type_name = format!("{}{suffix}", method.name);
        let display = format!("{}.{}", iface.display_name, type_name);
        let mut node = Node {
            id,
            display_name: display.clone(),
            display_name_prefix_length: (display.len() - type_name.len()) as u32,
            scope_id: 0,
            parameters: None,
            is_generic: iface.is_generic || !implicit.is_empty(),
            nested_nodes: None,
            annotations: None,
            kind: NodeKind::Struct(StructNode::default()),
        };
        let implicit_params = ImplicitParams {
            scope_id: id,
            names: implicit,
        };
        let mut translator = StructTranslator::new(self, idx, implicit_params);
        let (root, groups) = translator.translate_params(params, &node);
        node.kind = root.kind;
        let source_info = SourceInfo {
            id: 0,
            doc: None,
            members: root.members,
        };
        if !implicit.is_empty() {
            node.parameters = Some(implicit.iter().map(|p| p.value.clone()).collect());
        }
        let local = self.local_brand(idx);
        // The reference builds a brand binding the implicit
        // parameters but drops it (setParams' result is unused), so
        // the brand is the bare push: only enclosing generics show.
        let b = nested_scope(&local, id, implicit.len());
        let brand = self.compile_brand(file, &b);
        extra.push(node, source_info);
        for (group, group_info) in groups {
            extra.push(group, group_info);
        }
        (id, brand)
    }

    /// A parameter or result list given as a struct type: its id and
    /// brand; (0, None) and an error when it is not a struct.
    fn param_struct_type(
        &self,
        idx: NodeIndex,
        t: &Expr,
        implicit: &'a [Located<String>],
    ) -> (u64, Option<Brand>) {
        let file = self.nodes[idx].file;
        let local = self.local_brand(idx);
        let imp = ImplicitParams {
            scope_id: 0,
            names: implicit,
        };
        match self.compile_decl_expr(idx, &local, t, &imp) {
            Some(BrandedDecl::Decl {
                target: DeclTarget::Node(n),
                brand,
                ..
            }) if self.nodes[n].kind == NodeKindTag::Struct => {
                (self.nodes[n].id, self.compile_brand(file, &brand))
            }
            Some(BrandedDecl::Param { span, .. }) => {
                self.error(file, span, "Cannot use generic parameter as whole input or output of a method. Instead, use a parameter/result list containing a field with this type.".into());
                (0, None)
            }
            Some(_) => {
                self.error(
                    file,
                    t.span,
                    format!("'{}' is not a struct type.", expr_string(t)),
                );
                (0, None)
            }
            None => (0, None),
        }
    }

    /// `-> stream` needs the official `/capnp/stream.capnp` in the
    /// import path: an error when it is missing or lacks `StreamResult`.
    fn check_stream_import(&self, file: usize, span: Span) {
        let found = self.files[file]
            .imports
            .get("/capnp/stream.capnp")
            .and_then(|r| r.as_ref().ok().copied())
            .map(|fi| {
                self.nodes[self.file_roots[fi]]
                    .members
                    .contains_key("StreamResult")
            });
        match found {
            Some(true) => {}
            Some(false) => self.error(file, span, "The version of '/capnp/stream.capnp' found in your import path does not appear to be the official one; it is missing the declaration of StreamResult.".into()),
            None => self.error(file, span, "A method declaration uses streaming, but '/capnp/stream.capnp' is not found in the import path. This is a standard file that should always be installed with the Cap'n Proto compiler.".into()),
        }
    }

    /// The annotation applications `apps` written in node `idx` on a
    /// declaration of kind `target` (None when there are none).
    pub(super) fn annotations(
        &self,
        idx: NodeIndex,
        apps: &'a [AnnotationApp],
        target: AnnotationTarget,
    ) -> Option<Vec<Annotation>> {
        if apps.is_empty() {
            return None;
        }
        let brand = self.local_brand(idx);
        Some(
            apps.iter()
                .map(|a| self.annotation(idx, &brand, a, target))
                .collect(),
        )
    }

    /// One annotation application: the annotation's id and brand, and its
    /// value checked against the annotation's type (the reference's
    /// `compileAnnotationApplications`). What cannot be compiled is left
    /// zero, with an error.
    fn annotation(
        &self,
        idx: NodeIndex,
        brand: &Rc<BrandScope>,
        a: &'a AnnotationApp,
        target: AnnotationTarget,
    ) -> Annotation {
        let file = self.nodes[idx].file;
        let mut ann = Annotation {
            id: 0,
            brand: Brand { scopes: Vec::new() },
            value: Value::Void,
        };
        let name = expr_string(&a.name);
        let Some(d) = self.compile_decl_expr(idx, brand, &a.name, &NO_IMPLICIT_PARAMS) else {
            return ann;
        };
        let annotation = match &d {
            BrandedDecl::Decl {
                target: DeclTarget::Node(t),
                brand: b,
                ..
            } if self.nodes[*t].kind == NodeKindTag::Annotation => (*t, b),
            _ => {
                self.error(file, a.name.span, format!("'{name}' is not an annotation."));
                return ann;
            }
        };
        let (t, b) = annotation;
        ann.id = self.nodes[t].id;
        if let Some(br) = self.compile_brand(file, b) {
            ann.brand = br;
        }
        let Some(tr) = self.translate(t) else {
            return ann;
        };
        let NodeKind::Annotation { ty, targets } = &tr.node.kind else {
            return ann;
        };
        if !targets[target as usize] {
            self.error(
                file,
                a.name.span,
                format!("'{name}' cannot be applied to this kind of declaration."),
            );
        }
        match &a.value {
            None => {
                if *ty != Type::Void {
                    self.error(file, a.name.span, format!("'{name}' requires a value."));
                    ann.value = zero_value(ty);
                }
            }
            Some(v) => {
                let ty = subst(ty, &Some(ann.brand.clone()));
                ann.value = self.bootstrap_value(idx, v, &ty);
            }
        }
        ann
    }
}
