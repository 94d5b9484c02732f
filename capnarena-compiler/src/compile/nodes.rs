//! Node translation.

use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use super::generics::{BrandedDecl, ImplicitParams, NO_IMPLICIT_PARAMS, nested_scope, subst};
use super::scopes::DeclTarget;
use super::structs::StructTranslator;
use super::values::zero_value;
use super::{Compilation, NodeKindTag, display_prefix_len, expr_string, node_span};
use crate::ast::*;
use crate::ids;
use crate::schema::*;

/// The id of capnp/stream.capnp's `StreamResult`.
pub(super) const STREAM_RESULT_ID: u64 = 0x995f_9a33_77c0_b16e;

/// One node's translation: the node, its groups or param structs, and
/// their source info.
pub struct Translation {
    pub(super) node: Node,
    pub(super) extra_nodes: Vec<Node>,
    pub(super) source_info: Vec<SourceInfo>,
}

pub(super) static NO_PARAMS: ParamList = ParamList::Named(Vec::new(), Span { start: 0, end: 0 });

pub(super) fn alias_target_name(e: &Expr) -> String {
    match &e.kind {
        ExprKind::AbsoluteName(n) | ExprKind::RelativeName(n) => n.value.clone(),
        ExprKind::Application { func, .. } => alias_target_name(func),
        ExprKind::Member { name, .. } => name.value.clone(),
        _ => String::new(),
    }
}

#[derive(Default)]
pub(super) struct OrdinalChecker {
    pub(super) expected: u64,
    pub(super) last: Option<Span>,
    pub(super) last_value: u64,
}

impl OrdinalChecker {
    pub(super) fn check(&mut self, cx: &Compilation<'_>, file: usize, o: &Located<u64>) {
        if o.value < self.expected {
            cx.error(file, o.span, "Duplicate ordinal number.".into());
            if let Some(l) = self.last.take() {
                cx.error(
                    file,
                    l,
                    format!("Ordinal @{} originally used here.", self.last_value),
                );
            }
        } else if o.value > self.expected {
            cx.error(
                file,
                o.span,
                format!(
                    "Skipped ordinal @{}.  Ordinals must be sequential with no holes.",
                    self.expected
                ),
            );
            self.expected = o.value + 1;
        } else {
            self.expected += 1;
            self.last = Some(o.span);
            self.last_value = o.value;
        }
    }
}

impl<'a> Compilation<'a> {
    /// The translation of node `idx` (memoized); None when it failed.
    pub fn translate(&self, idx: usize) -> Option<Rc<Translation>> {
        if let Some(r) = self.translations.borrow().get(&idx) {
            return r.clone();
        }
        let n = &self.nodes[idx];
        if !self.enter(n.file, node_span(n.decl)) {
            return None;
        }
        if !self.translating.borrow_mut().insert(idx) {
            self.leave();
            let n = &self.nodes[idx];
            self.error(
                n.file,
                node_span(n.decl),
                "Declaration recursively depends on itself.".into(),
            );
            return None;
        }
        let r = self.translate_node(idx).map(Rc::new);
        self.translating.borrow_mut().remove(&idx);
        self.leave();
        if let Some(t) = &r {
            let mut all = self.translated_by_id.borrow_mut();
            all.insert(t.node.id, Rc::new(t.node.clone()));
            for a in &t.extra_nodes {
                all.insert(a.id, Rc::new(a.clone()));
            }
        }
        self.translations.borrow_mut().insert(idx, r.clone());
        r
    }

    pub(super) fn check_member_names(
        &self,
        file: usize,
        decls: &'a [Decl],
        parent_kind: &DeclKind,
        names: &mut BTreeMap<String, Span>,
    ) {
        for d in decls {
            let name = &d.name.value;
            if let Some(prev) = names.get(name) {
                if name.is_empty() && matches!(d.kind, DeclKind::Union) {
                    self.error(
                        file,
                        d.name.span,
                        "An unnamed union is already defined in this scope.".into(),
                    );
                    self.error(file, *prev, "Previously defined here.".into());
                } else {
                    self.error(
                        file,
                        d.name.span,
                        format!("'{name}' is already defined in this scope."),
                    );
                    self.error(file, *prev, format!("'{name}' previously defined here."));
                }
            } else {
                names.insert(name.clone(), d.name.span);
            }
            let first = name.as_bytes().first().copied();
            let upper = |s: &Self| {
                if let Some(c) = first {
                    if !c.is_ascii_uppercase() {
                        s.error(
                            file,
                            d.name.span,
                            "Type names must begin with a capital letter.".into(),
                        );
                    }
                }
            };
            let lower = |s: &Self| {
                if let Some(c) = first {
                    if !c.is_ascii_lowercase() {
                        s.error(
                            file,
                            d.name.span,
                            "Non-type names must begin with a lower-case letter.".into(),
                        );
                    }
                }
            };
            match &d.kind {
                DeclKind::Using(t) => {
                    let tn = alias_target_name(t);
                    if tn
                        .as_bytes()
                        .first()
                        .is_some_and(|c| c.is_ascii_lowercase())
                    {
                        lower(self)
                    } else {
                        upper(self)
                    }
                }
                DeclKind::Enum | DeclKind::Struct | DeclKind::Interface { .. } => upper(self),
                _ => lower(self),
            }
            if name.contains('_') {
                self.error(file, d.name.span, "Cap'n Proto declaration names should use camelCase and must not contain underscores. (Code generators may convert names to the appropriate style for the target language.)".into());
            }
            let pk_ok_generic = matches!(
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
                    if !pk_ok_generic =>
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

    pub(super) fn translate_node(&self, idx: usize) -> Option<Translation> {
        let n = &self.nodes[idx];
        let decl = n.decl;
        let file = n.file;
        self.check_member_names(file, &decl.nested, &decl.kind, &mut BTreeMap::new());
        let is_generic = self.is_generic(idx);
        let parameters = if decl.params.is_empty() {
            None
        } else {
            Some(decl.params.iter().map(|p| p.value.clone()).collect())
        };
        let mut node = Node {
            id: n.id,
            display_name: n.display.clone(),
            display_name_prefix_length: display_prefix_len(&n.display),
            scope_id: n.parent.map(|p| self.nodes[p].id).unwrap_or(0),
            parameters,
            is_generic,
            nested_nodes: Some(
                n.children
                    .iter()
                    .map(|&c| (self.nodes[c].decl.name.value.clone(), self.nodes[c].id))
                    .collect(),
            ),
            annotations: None,
            kind: NodeKind::File,
        };
        let mut si = SourceInfo {
            id: n.id,
            doc: decl.doc.clone(),
            members: None,
        };
        let mut aux = Vec::new();
        let mut aux_si = Vec::new();
        let brand = self.local_brand(idx);
        let targets_flag;
        match &decl.kind {
            DeclKind::File => targets_flag = 0,
            DeclKind::Const { ty, value } => {
                targets_flag = 1;
                match self.compile_type(idx, &brand, ty, &NO_IMPLICIT_PARAMS) {
                    Some(t) => {
                        let v = self.bootstrap_value(idx, value, &t);
                        node.kind = NodeKind::Const { ty: t, value: v };
                    }
                    None => {
                        node.kind = NodeKind::Const {
                            ty: Type::Void,
                            value: Value::Void,
                        }
                    }
                }
            }
            DeclKind::Annotation { ty, targets } => {
                targets_flag = 11;
                let t = self
                    .compile_type(idx, &brand, ty, &NO_IMPLICIT_PARAMS)
                    .unwrap_or(Type::Void);
                node.kind = NodeKind::Annotation {
                    ty: t,
                    targets: *targets,
                };
            }
            DeclKind::Enum => {
                targets_flag = 2;
                let mut ens: Vec<(u64, usize, &Decl)> = Vec::new();
                for (co, m) in decl
                    .nested
                    .iter()
                    .filter(|m| matches!(m.kind, DeclKind::Enumerant))
                    .enumerate()
                {
                    ens.push((m.ordinal().map(|o| o.value).unwrap_or(0), co, m));
                }
                ens.sort_by_key(|e| e.0);
                let mut dup = OrdinalChecker::default();
                let mut out = Vec::new();
                let mut docs = Vec::new();
                for (_, co, m) in ens {
                    if let Some(o) = m.ordinal() {
                        dup.check(self, file, o);
                    }
                    docs.push(m.doc.clone());
                    out.push(Enumerant {
                        name: m.name.value.clone(),
                        code_order: co as u16,
                        annotations: self.annotations(idx, &m.annotations, 3),
                    });
                }
                node.kind = NodeKind::Enum(out);
                si.members = Some(docs);
            }
            DeclKind::Struct => {
                targets_flag = 4;
                let mut st = StructTranslator::new(
                    self,
                    idx,
                    ImplicitParams {
                        scope_id: 0,
                        names: &[],
                    },
                );
                let (snode, groups) = st.translate_decls(&decl.nested, &node);
                node.kind = snode.kind;
                si.members = snode.members;
                for (g, gsi) in groups {
                    aux.push(g);
                    aux_si.push(gsi);
                }
            }
            DeclKind::Interface { superclasses } => {
                targets_flag = 8;
                let mut supers = Vec::new();
                for s in superclasses {
                    let mut entry = (0u64, None);
                    if let Some(d) = self.compile_decl_expr(idx, &brand, s, &NO_IMPLICIT_PARAMS) {
                        match &d {
                            BrandedDecl::Decl {
                                target: DeclTarget::Node(t),
                                brand: b,
                                ..
                            } if self.nodes[*t].kind == NodeKindTag::Interface => {
                                entry = (self.nodes[*t].id, self.compile_brand(file, b));
                            }
                            BrandedDecl::Decl { .. } => {
                                self.error(file, d.span(), format!("'{}' is not an interface.", d.text()))
                            }
                            BrandedDecl::Param { .. } => self.error(
                                file,
                                d.span(),
                                format!("'{}' is an unbound generic parameter. Currently we don't support extending these.", d.text()),
                            ),
                        }
                    }
                    supers.push(entry);
                }
                let mut ms: Vec<(u64, usize, &Decl)> = Vec::new();
                for (co, m) in decl
                    .nested
                    .iter()
                    .filter(|m| matches!(m.kind, DeclKind::Method { .. }))
                    .enumerate()
                {
                    ms.push((m.ordinal().map(|o| o.value).unwrap_or(0), co, m));
                }
                ms.sort_by_key(|e| e.0);
                let mut dup = OrdinalChecker::default();
                let mut methods = Vec::new();
                let mut docs = Vec::new();
                for (_, co, m) in ms {
                    let DeclKind::Method {
                        implicit_params,
                        params,
                        results,
                    } = &m.kind
                    else {
                        continue;
                    };
                    let ord = m.ordinal().map(|o| o.value).unwrap_or(0);
                    if let Some(o) = m.ordinal() {
                        dup.check(self, file, o);
                    }
                    docs.push(m.doc.clone());
                    if let ParamList::Stream(s) = params {
                        self.error(
                            file,
                            *s,
                            "'stream' can only appear after '->', not before.".into(),
                        );
                    }
                    let (pid, pbrand) = self.method_param_struct(
                        idx,
                        &node,
                        &m.name.value,
                        ord as u16,
                        false,
                        params,
                        implicit_params,
                        &mut aux,
                        &mut aux_si,
                    );
                    let rl = results.as_ref().unwrap_or(&NO_PARAMS);
                    let (rid, rbrand) = self.method_param_struct(
                        idx,
                        &node,
                        &m.name.value,
                        ord as u16,
                        true,
                        rl,
                        implicit_params,
                        &mut aux,
                        &mut aux_si,
                    );
                    methods.push(Method {
                        name: m.name.value.clone(),
                        code_order: co as u16,
                        implicit_parameters: implicit_params
                            .iter()
                            .map(|p| p.value.clone())
                            .collect(),
                        param_struct_type: pid,
                        param_brand: pbrand,
                        result_struct_type: rid,
                        result_brand: rbrand,
                        annotations: self.annotations(idx, &m.annotations, 9),
                    });
                }
                node.kind = NodeKind::Interface {
                    methods,
                    superclasses: supers,
                };
                si.members = Some(docs);
            }
            _ => return None,
        }
        node.annotations = self.annotations(idx, &decl.annotations, targets_flag);
        let mut source_info = vec![si];
        source_info.extend(aux_si);
        Some(Translation {
            node,
            extra_nodes: aux,
            source_info,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn method_param_struct(
        &self,
        idx: usize,
        iface: &Node,
        method: &str,
        ordinal: u16,
        results: bool,
        pl: &'a ParamList,
        implicit: &'a [Located<String>],
        aux: &mut Vec<Node>,
        aux_si: &mut Vec<SourceInfo>,
    ) -> (u64, Option<Brand>) {
        let file = self.nodes[idx].file;
        match pl {
            ParamList::Named(params, _) => {
                // The reference has no name check for parameters; its schema
                // validation refuses the duplicate instead (reported as a
                // failed validation of the interface). Name it plainly.
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
                let id = ids::method_params_id(iface.id, ordinal, results);
                let type_name = format!("{method}{}", if results { "$Results" } else { "$Params" });
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
                let mut st = StructTranslator::new(
                    self,
                    idx,
                    ImplicitParams {
                        scope_id: id,
                        names: implicit,
                    },
                );
                let (snode, groups) = st.translate_params(params, &node);
                node.kind = snode.kind;
                let si = SourceInfo {
                    id: 0,
                    doc: None,
                    members: snode.members,
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
                aux.push(node);
                aux_si.push(si);
                for (g, gsi) in groups {
                    aux.push(g);
                    aux_si.push(gsi);
                }
                (id, brand)
            }
            ParamList::Type(t) => {
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
            ParamList::Stream(s) => {
                let ok = self.files[file]
                    .imports
                    .get("/capnp/stream.capnp")
                    .and_then(|r| r.as_ref().ok().copied())
                    .map(|fi| {
                        self.nodes[self.file_roots[fi]]
                            .members
                            .contains_key("StreamResult")
                    });
                match ok {
                    Some(true) => {}
                    Some(false) => self.error(file, *s, "The version of '/capnp/stream.capnp' found in your import path does not appear to be the official one; it is missing the declaration of StreamResult.".into()),
                    None => self.error(file, *s, "A method declaration uses streaming, but '/capnp/stream.capnp' is not found in the import path. This is a standard file that should always be installed with the Cap'n Proto compiler.".into()),
                }
                (STREAM_RESULT_ID, None)
            }
        }
    }

    /// Compiles annotation applications; `flag` indexes [`TARGET_NAMES`].
    pub(super) fn annotations(
        &self,
        idx: usize,
        apps: &'a [AnnotationApp],
        flag: usize,
    ) -> Option<Vec<Annotation>> {
        if apps.is_empty() {
            return None;
        }
        let file = self.nodes[idx].file;
        let brand = self.local_brand(idx);
        let mut out = Vec::new();
        for a in apps {
            let mut ann = Annotation {
                id: 0,
                brand: Brand { scopes: Vec::new() },
                value: Value::Void,
            };
            let name = expr_string(&a.name);
            if let Some(d) = self.compile_decl_expr(idx, &brand, &a.name, &NO_IMPLICIT_PARAMS) {
                match &d {
                    BrandedDecl::Decl {
                        target: DeclTarget::Node(t),
                        brand: b,
                        ..
                    } if self.nodes[*t].kind == NodeKindTag::Annotation => {
                        ann.id = self.nodes[*t].id;
                        if let Some(br) = self.compile_brand(file, b) {
                            ann.brand = br;
                        }
                        if let Some(tr) = self.translate(*t) {
                            if let NodeKind::Annotation { ty, targets } = &tr.node.kind {
                                if !targets[flag] {
                                    self.error(file, a.name.span, format!("'{name}' cannot be applied to this kind of declaration."));
                                }
                                match &a.value {
                                    None => {
                                        if *ty != Type::Void {
                                            self.error(
                                                file,
                                                a.name.span,
                                                format!("'{name}' requires a value."),
                                            );
                                            ann.value = zero_value(ty);
                                        }
                                    }
                                    Some(v) => {
                                        let ty = subst(ty, &Some(ann.brand.clone()));
                                        ann.value = self.bootstrap_value(idx, v, &ty);
                                    }
                                }
                            }
                        }
                    }
                    _ => self.error(file, a.name.span, format!("'{name}' is not an annotation.")),
                }
            }
            out.push(ann);
        }
        Some(out)
    }

    // Values

    pub(super) fn node_by_id(&self, id: u64) -> Option<Rc<Node>> {
        if let Some(n) = self.translated_by_id.borrow().get(&id) {
            return Some(n.clone());
        }
        let idx = *self.index_by_id.get(&id)?;
        self.translate(idx)?;
        self.translated_by_id.borrow().get(&id).cloned()
    }
}
