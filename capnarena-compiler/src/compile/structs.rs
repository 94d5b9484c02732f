//! Struct layout.

use std::collections::BTreeMap;

use super::generics::ImplicitParams;
use super::nodes::{AnnotationTarget, OrdinalChecker};
use super::values::{is_pointer_type, type_size_log2, zero_value};
use super::{Compilation, node_span};
use crate::ast::*;
use crate::ids;
use crate::layout::{Layout, Scope};
use crate::schema::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum MemberKind {
    Root,
    Field,
    Union,
    Group,
}

pub(super) struct MemberInfo<'a> {
    pub(super) parent: Option<usize>,
    pub(super) code_order: u16,
    pub(super) index: u16,
    /// Members inside (up to 65,536: one per ordinal, so not a `u16`).
    pub(super) child_count: u32,
    pub(super) child_init: u32,
    pub(super) union_disc: u32,
    pub(super) in_union: bool,
    pub(super) name: String,
    pub(super) kind: MemberKind,
    pub(super) decl: Option<&'a Decl>,
    pub(super) param: Option<&'a MethodParam>,
    pub(super) field_scope: Scope,
    pub(super) union_scope: Option<usize>,
    /// Index into `StructTranslator::structs` for groups and the root.
    pub(super) draft: Option<usize>,
    /// (struct index, field index) once the field exists.
    pub(super) schema: Option<(usize, usize)>,
    pub(super) doc: Option<Vec<u8>>,
}

pub(super) struct StructDraft {
    pub(super) node: Node,
    pub(super) fields: Option<Vec<Option<Field>>>,
    pub(super) docs: Option<Vec<Option<Vec<u8>>>>,
    pub(super) doc: Option<Vec<u8>>,
}

/// What [`StructTranslator`] returns for the root: its kind and member docs.
pub(super) struct RootStruct {
    pub(super) kind: NodeKind,
    pub(super) members: Option<Vec<Option<Vec<u8>>>>,
}

pub(super) struct StructTranslator<'c, 'a> {
    pub(super) cx: &'c Compilation<'a>,
    pub(super) scope: usize,
    pub(super) implicit: ImplicitParams<'a>,
    pub(super) layout: Layout,
    pub(super) members: Vec<MemberInfo<'a>>,
    pub(super) structs: Vec<StructDraft>,
    pub(super) by_ordinal: BTreeMap<u64, Vec<usize>>,
    pub(super) member_order: Vec<usize>,
}

impl<'c, 'a> StructTranslator<'c, 'a> {
    pub(super) fn new(cx: &'c Compilation<'a>, scope: usize, implicit: ImplicitParams<'a>) -> Self {
        StructTranslator {
            cx,
            scope,
            implicit,
            layout: Layout::new(),
            members: Vec::new(),
            structs: Vec::new(),
            by_ordinal: BTreeMap::new(),
            member_order: Vec::new(),
        }
    }

    pub(super) fn file(&self) -> usize {
        self.cx.nodes[self.scope].file
    }

    pub(super) fn add_root(&mut self, node: &Node) -> usize {
        let mut node = node.clone();
        node.kind = NodeKind::Struct(StructNode::default());
        self.structs.push(StructDraft {
            node,
            fields: None,
            docs: None,
            doc: None,
        });
        self.members.push(MemberInfo {
            parent: None,
            code_order: 0,
            index: 0,
            child_count: 0,
            child_init: 0,
            union_disc: 0,
            in_union: false,
            name: String::new(),
            kind: MemberKind::Root,
            decl: None,
            param: None,
            field_scope: Scope::Top,
            union_scope: None,
            draft: Some(0),
            schema: None,
            doc: None,
        });
        0
    }

    pub(super) fn new_member(
        &mut self,
        parent: usize,
        code_order: u16,
        kind: MemberKind,
        decl: Option<&'a Decl>,
        in_union: bool,
        scope: Scope,
    ) -> usize {
        self.members[parent].child_count += 1;
        let name = decl.map(|d| d.name.value.clone()).unwrap_or_default();
        let mut st = None;
        if matches!(kind, MemberKind::Union | MemberKind::Group) {
            let pst = self.members[parent].draft.unwrap_or(0);
            let pnode = &self.structs[pst].node;
            let display = format!("{}.{}", pnode.display_name, name);
            let node = Node {
                id: 0,
                display_name: display.clone(),
                display_name_prefix_length: (display.len() - name.len()) as u32,
                scope_id: 0,
                parameters: None,
                is_generic: pnode.is_generic,
                nested_nodes: None,
                annotations: None,
                kind: NodeKind::Struct(StructNode {
                    is_group: true,
                    ..Default::default()
                }),
            };
            self.structs.push(StructDraft {
                node,
                fields: None,
                docs: None,
                doc: decl.and_then(|d| d.doc.clone()),
            });
            st = Some(self.structs.len() - 1);
        }
        self.members.push(MemberInfo {
            parent: Some(parent),
            code_order,
            index: 0,
            child_count: 0,
            child_init: 0,
            union_disc: 0,
            in_union,
            name,
            kind,
            decl,
            param: None,
            field_scope: scope,
            union_scope: None,
            draft: st,
            schema: None,
            doc: decl.and_then(|d| d.doc.clone()),
        });
        let i = self.members.len() - 1;
        self.member_order.push(i);
        i
    }

    pub(super) fn translate_decls(
        &mut self,
        members: &'a [Decl],
        node: &Node,
    ) -> (RootStruct, Vec<(Node, SourceInfo)>) {
        let root = self.add_root(node);
        self.traverse_top_or_group(members, root, Scope::Top);
        self.finish(root)
    }

    pub(super) fn translate_params(
        &mut self,
        params: &'a [MethodParam],
        node: &Node,
    ) -> (RootStruct, Vec<(Node, SourceInfo)>) {
        let root = self.add_root(node);
        for (i, p) in params.iter().enumerate() {
            let m = self.new_member(root, i as u16, MemberKind::Field, None, false, Scope::Top);
            self.members[m].name = p.name.value.clone();
            self.members[m].param = Some(p);
            self.by_ordinal.entry(i as u64).or_default().push(m);
        }
        self.finish(root)
    }

    pub(super) fn traverse_union(
        &mut self,
        decl: &'a Decl,
        parent: usize,
        u: usize,
        code_order: &mut u16,
    ) {
        let file = self.file();
        if decl.nested.len() < 2 {
            self.cx.error(
                file,
                decl.span,
                "Union must have at least two members.".into(),
            );
        }
        for m in &decl.nested {
            match &m.kind {
                DeclKind::Field { .. } => {
                    let g = self.layout.new_group(u);
                    let mi =
                        self.new_member(parent, *code_order, MemberKind::Field, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    let o = m.ordinal().map(|o| o.value).unwrap_or(0);
                    self.by_ordinal.entry(o).or_default().push(mi);
                }
                DeclKind::Union => {
                    if m.name.value.is_empty() {
                        self.cx
                            .error(file, m.span, "Unions cannot contain unnamed unions.".into());
                        continue;
                    }
                    let g = self.layout.new_group(u);
                    let inner = self.layout.new_union(g);
                    let mi =
                        self.new_member(parent, *code_order, MemberKind::Union, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    self.members[mi].union_scope = Some(inner);
                    let mut sub = 0;
                    self.traverse_union(m, mi, inner, &mut sub);
                    if let Some(o) = m.ordinal() {
                        self.by_ordinal.entry(o.value).or_default().push(mi);
                    }
                }
                DeclKind::Group => {
                    let g = self.layout.new_group(u);
                    let mi =
                        self.new_member(parent, *code_order, MemberKind::Group, Some(m), true, g);
                    *code_order = code_order.wrapping_add(1);
                    self.traverse_group(m, mi, g);
                }
                _ => {}
            }
        }
    }

    pub(super) fn traverse_group(&mut self, decl: &'a Decl, mi: usize, scope: Scope) {
        if decl.nested.is_empty() {
            self.cx.error(
                self.file(),
                decl.span,
                "Group must have at least one member.".into(),
            );
        }
        self.traverse_top_or_group(&decl.nested, mi, scope);
    }

    pub(super) fn traverse_top_or_group(
        &mut self,
        members: &'a [Decl],
        parent: usize,
        scope: Scope,
    ) {
        let mut code_order = 0u16;
        for m in members {
            match &m.kind {
                DeclKind::Field { .. } => {
                    let mi = self.new_member(
                        parent,
                        code_order,
                        MemberKind::Field,
                        Some(m),
                        false,
                        scope,
                    );
                    code_order = code_order.wrapping_add(1);
                    let o = m.ordinal().map(|o| o.value).unwrap_or(0);
                    self.by_ordinal.entry(o).or_default().push(mi);
                }
                DeclKind::Union => {
                    let u = self.layout.new_union(scope);
                    let mi;
                    if m.name.value.is_empty() {
                        mi = parent;
                        self.members[mi].union_scope = Some(u);
                        self.traverse_union(m, mi, u, &mut code_order);
                    } else {
                        mi = self.new_member(
                            parent,
                            code_order,
                            MemberKind::Union,
                            Some(m),
                            false,
                            scope,
                        );
                        code_order = code_order.wrapping_add(1);
                        self.members[mi].union_scope = Some(u);
                        let mut sub = 0;
                        self.traverse_union(m, mi, u, &mut sub);
                    }
                    if let Some(o) = m.ordinal() {
                        self.by_ordinal.entry(o.value).or_default().push(mi);
                    }
                }
                DeclKind::Group => {
                    let mi = self.new_member(
                        parent,
                        code_order,
                        MemberKind::Group,
                        Some(m),
                        false,
                        scope,
                    );
                    code_order = code_order.wrapping_add(1);
                    self.traverse_group(m, mi, scope);
                }
                _ => {}
            }
        }
    }

    pub(super) fn next_field_slot(&mut self, p: usize) -> (usize, usize) {
        let st = self.members[p].draft.unwrap_or(0);
        if self.structs[st].fields.is_none() {
            if self.members[p].parent.is_some() {
                self.member_field(p);
            }
            let n = self.members[p].child_count as usize;
            self.structs[st].fields = Some(vec![None; n]);
            self.structs[st].docs = Some(vec![None; n]);
        }
        let i = self.members[p].child_init as usize;
        self.members[p].child_init += 1;
        (st, i)
    }

    pub(super) fn member_field(&mut self, m: usize) -> (usize, usize) {
        if let Some(s) = self.members[m].schema {
            return s;
        }
        let parent = self.members[m].parent.unwrap_or(0);
        // An index among at most 65,536 children (each holds a field of
        // its own, and ordinals are 16-bit): below 65,536.
        self.members[m].index = self.members[parent].child_init as u16;
        let (st, i) = self.next_field_slot(parent);
        let disc = if self.members[m].in_union {
            let d = self.members[parent].union_disc;
            self.members[parent].union_disc += 1;
            // Over 65,535 members the union is refused in `finish_group`.
            d as u16
        } else {
            0xffff
        };
        let f = Field {
            name: self.members[m].name.clone(),
            code_order: self.members[m].code_order,
            annotations: None,
            discriminant_value: disc,
            kind: FieldKind::Slot {
                offset: 0,
                ty: Type::Void,
                default: Value::Void,
                explicit_default: false,
            },
            ordinal: None,
        };
        if let Some(fs) = &mut self.structs[st].fields {
            fs[i] = Some(f);
        }
        if let Some(ds) = &mut self.structs[st].docs {
            ds[i] = self.members[m].doc.clone();
        }
        self.members[m].schema = Some((st, i));
        (st, i)
    }

    pub(super) fn field_mut(&mut self, at: (usize, usize)) -> Option<&mut Field> {
        self.structs[at.0].fields.as_mut()?.get_mut(at.1)?.as_mut()
    }

    pub(super) fn finish_group(&mut self, m: usize) {
        let st = self.members[m].draft.unwrap_or(0);
        if let Some(u) = self.members[m].union_scope {
            self.layout.add_discriminant(u);
            let count = self.members[m].union_disc;
            // Discriminants are 16-bit and 0xffff means "not in a union".
            let count = match u16::try_from(count) {
                Ok(c) if c < u16::MAX => c,
                _ => {
                    let span = self.members[m].decl.map(|d| d.span).unwrap_or_default();
                    self.cx.error(
                        self.file(),
                        span,
                        format!("A union has {count} members; at most 65535 fit its 16-bit discriminant."),
                    );
                    u16::MAX
                }
            };
            let off = self.layout.discriminant(u).unwrap_or(0);
            if let NodeKind::Struct(s) = &mut self.structs[st].node.kind {
                s.discriminant_count = count;
                s.discriminant_offset = off;
            }
        }
        if let Some(p) = self.members[m].parent {
            let pst = self.members[p].draft.unwrap_or(0);
            let pid = self.structs[pst].node.id;
            let gid = ids::group_id(pid, self.members[m].index);
            self.structs[st].node.id = gid;
            self.structs[st].node.scope_id = pid;
            let at = self.member_field(m);
            if let Some(f) = self.field_mut(at) {
                f.kind = FieldKind::Group(gid);
            }
        }
    }

    pub(super) fn finish(&mut self, root: usize) -> (RootStruct, Vec<(Node, SourceInfo)>) {
        let cx = self.cx;
        let file = self.file();
        let brand = cx.local_brand(self.scope);
        let mut dup = OrdinalChecker::default();
        let entries: Vec<(u64, usize)> = self
            .by_ordinal
            .iter()
            .flat_map(|(o, v)| v.iter().map(move |m| (*o, *m)))
            .collect();
        for (ord, m) in entries {
            if let Some(d) = self.members[m].decl {
                if let Some(o) = d.ordinal() {
                    dup.check(cx, file, o);
                }
            }
            let at = self.member_field(m);
            if let Some(f) = self.field_mut(at) {
                f.ordinal = Some(ord as u16);
            }
            match self.members[m].kind {
                MemberKind::Field => {
                    let (ty_e, def_e): (&'a Expr, Option<&'a Expr>) =
                        match (self.members[m].decl, self.members[m].param) {
                            (
                                Some(Decl {
                                    kind: DeclKind::Field { ty, default },
                                    ..
                                }),
                                _,
                            ) => (ty, default.as_ref()),
                            (_, Some(p)) => (&p.ty, p.default.as_ref()),
                            _ => continue,
                        };
                    let is_param = self.members[m].param.is_some();
                    let imp = self.implicit.clone();
                    let ty = cx.compile_type(self.scope, &brand, ty_e, &imp);
                    let (ty, default, explicit) = match ty {
                        Some(t) => match def_e {
                            Some(d) => {
                                let v = if is_param
                                    && matches!(&d.kind, ExprKind::RelativeName(n) if n.value == "null")
                                {
                                    if !is_pointer_type(&t) {
                                        cx.error(file, d.span, "Only pointer parameters can declare their default as 'null'.".into());
                                    }
                                    zero_value(&t)
                                } else {
                                    cx.bootstrap_value(self.scope, d, &t)
                                };
                                (t, v, true)
                            }
                            None => {
                                let v = zero_value(&t);
                                (t, v, false)
                            }
                        },
                        None => (Type::Void, Value::Void, false),
                    };
                    let scope = self.members[m].field_scope;
                    let offset = match type_size_log2(&ty) {
                        -2 => self.layout.add_pointer(scope),
                        -1 => {
                            self.layout.add_void(scope);
                            0
                        }
                        lg => self.layout.add_data(scope, lg as u32),
                    };
                    if let Some(f) = self.field_mut(at) {
                        f.kind = FieldKind::Slot {
                            offset,
                            ty,
                            default,
                            explicit_default: explicit,
                        };
                    }
                }
                MemberKind::Union => {
                    if let Some(u) = self.members[m].union_scope {
                        if !self.layout.add_discriminant(u) {
                            let span = self.members[m]
                                .decl
                                .and_then(|d| d.ordinal())
                                .map(|o| o.span)
                                .unwrap_or_default();
                            cx.error(file, span, "Union ordinal, if specified, must be greater than no more than one of its member ordinals (i.e. there can only be one field retroactively unionized).".into());
                        }
                    }
                }
                _ => {}
            }
        }
        self.finish_group(root);
        for m in self.member_order.clone() {
            let target = if self.members[m].param.is_some() {
                AnnotationTarget::Param
            } else {
                match self.members[m].kind {
                    MemberKind::Field => AnnotationTarget::Field,
                    MemberKind::Union => {
                        self.finish_group(m);
                        AnnotationTarget::Union
                    }
                    _ => {
                        self.finish_group(m);
                        AnnotationTarget::Group
                    }
                }
            };
            let anns: &'a [AnnotationApp] = match (self.members[m].decl, self.members[m].param) {
                (Some(d), _) => &d.annotations,
                (_, Some(p)) => &p.annotations,
                _ => &[],
            };
            let compiled = cx.annotations(self.scope, anns, target);
            let at = self.member_field(m);
            if let Some(f) = self.field_mut(at) {
                f.annotations = compiled;
            }
        }
        if self.layout.refused {
            let n = &cx.nodes[self.scope];
            cx.error(file, node_span(n.decl), "Bad news: Cap'n Proto 0.5.x and previous contained a bug which would cause this schema to be compiled incorrectly. Please see: https://github.com/sandstorm-io/capnproto/issues/344".into());
        }
        let dw = self.layout.data_words as u16;
        let pc = self.layout.pointers as u16;
        let mut out_groups = Vec::new();
        let mut root_out = None;
        for (i, so) in std::mem::take(&mut self.structs).into_iter().enumerate() {
            let mut node = so.node;
            let fields = so
                .fields
                .map(|v| v.into_iter().flatten().collect::<Vec<_>>());
            if let NodeKind::Struct(s) = &mut node.kind {
                s.data_words = dw;
                s.pointers = pc;
                s.fields = fields;
            }
            if i == 0 {
                root_out = Some(RootStruct {
                    kind: node.kind,
                    members: so.docs,
                });
            } else {
                let si = SourceInfo {
                    id: node.id,
                    doc: so.doc,
                    members: so.docs,
                };
                out_groups.push((node, si));
            }
        }
        let root_out = root_out.unwrap_or(RootStruct {
            kind: NodeKind::Struct(StructNode::default()),
            members: None,
        });
        (root_out, out_groups)
    }
}
