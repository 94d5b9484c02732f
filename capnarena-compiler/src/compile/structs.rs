//! Struct translation: a struct's (or a method's parameter list's)
//! members turned into fields, groups and unions, each field placed in
//! the data or pointer section.
//!
//! This reproduces the reference's `NodeTranslator::StructTranslator`
//! (node-translator.c++, v0.9.2). Members are first collected in
//! declaration order into a tree ([`MemberInfo`]: the root, fields, named
//! unions, groups; an unnamed union's members belong to its parent, which
//! then holds the union); then fields are placed in ordinal order, which
//! is what decides the layout (the placement itself, the reference's
//! `StructLayout`, is [`crate::layout`]); then each group and union
//! becomes a node of its own and every member gets its annotations. A
//! member's field entry in its parent is made on first need, which fixes
//! the field's index and its discriminant value as the reference's do.

use std::collections::BTreeMap;

use std::rc::Rc;

use super::checks::{AnnotationTarget, OrdinalChecker};
use super::decls::NodeIndex;
use super::generics::{BrandScope, ImplicitParams};
use super::values::{Slot, is_pointer_type, slot_of, zero_value};
use super::{Compilation, node_span};
use crate::ast::*;
use crate::ids;
use crate::layout::{Layout, Scope};
use crate::schema::*;

/// Where the members being collected go: a layout scope (the root's or a
/// group's), or a union, whose members each get a layout group.
#[derive(Clone, Copy)]
enum MemberPlace {
    /// Members of the root or a group, placed in this scope.
    Scope(Scope),
    /// Members of the layout union with this index.
    Union(usize),
}

/// What a member of a struct is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum MemberKind {
    /// The struct itself (member 0).
    Root,
    /// A field, or a method parameter.
    Field,
    /// A named union.
    Union,
    /// A group.
    Group,
}

/// One member of the struct being translated (the reference's
/// `StructTranslator::MemberInfo`), an index in
/// [`StructTranslator::members`].
struct MemberInfo<'a> {
    /// The member it is in (None for the root).
    parent: Option<usize>,
    /// Its place among its parent's members as written.
    code_order: u16,
    /// Its place among its parent's fields, fixed when its field is made.
    index: u16,
    /// Members inside (up to 65,536: one per ordinal, so not a `u16`).
    child_count: u32,
    /// How many of the members inside have their field made.
    fields_made: u32,
    /// How many discriminant values of the union it holds have been
    /// given to its members.
    discriminants_given: u32,
    /// Whether it is a member of a union (and so has a discriminant).
    in_union: bool,
    /// Its name.
    name: String,
    /// What it is.
    kind: MemberKind,
    /// Its declaration (None for the root and parameters).
    decl: Option<&'a Decl>,
    /// Its parameter, when it is a method parameter.
    param: Option<&'a MethodParam>,
    /// Where in the layout its data goes.
    field_scope: Scope,
    /// The layout's union it holds (a named union, or a struct or group
    /// holding an unnamed union).
    union_scope: Option<usize>,
    /// Index into `StructTranslator::structs` for groups and the root.
    draft: Option<usize>,
    /// (struct index, field index) once the field exists.
    field_at: Option<(usize, usize)>,
    /// Its doc comment.
    doc: Option<Vec<u8>>,
}

/// A struct node being made: the root or a group (named unions included).
struct StructDraft {
    /// The node (its id, and its fields' list, filled in at the end).
    node: Node,
    /// Its fields, made one by one in the order they are first needed.
    fields: Option<Vec<Option<Field>>>,
    /// Its fields' doc comments, by field index.
    docs: Option<Vec<Option<Vec<u8>>>>,
    /// Its own doc comment.
    doc: Option<Vec<u8>>,
}

/// What [`StructTranslator`] returns for the root: its kind and member docs.
pub(super) struct RootStruct {
    /// The struct's node kind (its fields, sizes, discriminant).
    pub(super) kind: NodeKind,
    /// Its fields' doc comments, by field index.
    pub(super) members: Option<Vec<Option<Vec<u8>>>>,
}

/// Translates one struct or parameter list: its members, their layout
/// and the group nodes (see the module doc).
pub(super) struct StructTranslator<'c, 'a> {
    /// The compilation (for types, values, annotations, errors).
    cx: &'c Compilation<'a>,
    /// The node the members are declared in (the struct, or the
    /// interface of a parameter list): names are looked up there.
    scope: NodeIndex,
    /// The method's implicit parameters (for a parameter list).
    implicit: ImplicitParams<'a>,
    /// The field placement.
    layout: Layout,
    /// Every member, the root first.
    members: Vec<MemberInfo<'a>>,
    /// The root's node and each group's, in the order they are made.
    structs: Vec<StructDraft>,
    /// Members with an ordinal (fields, and unions that declare one), by
    /// ordinal, in declaration order within one ordinal.
    by_ordinal: BTreeMap<u64, Vec<usize>>,
    /// Every member but the root, in declaration order.
    member_order: Vec<usize>,
}

/// A translated struct: the root's kind and member docs, and the group
/// nodes with their source info.
type TranslatedStruct = (RootStruct, Vec<(Node, SourceInfo)>);

impl<'c, 'a> StructTranslator<'c, 'a> {
    /// A translator for members declared in node `scope`.
    pub(super) fn new(
        cx: &'c Compilation<'a>,
        scope: NodeIndex,
        implicit: ImplicitParams<'a>,
    ) -> Self {
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

    /// The file the members are written in.
    fn file(&self) -> usize {
        self.cx.nodes[self.scope].file
    }

    /// Adds the root member, a struct shaped like `node`.
    fn add_root(&mut self, node: &Node) -> usize {
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
            fields_made: 0,
            discriminants_given: 0,
            in_union: false,
            name: String::new(),
            kind: MemberKind::Root,
            decl: None,
            param: None,
            field_scope: Scope::Top,
            union_scope: None,
            draft: Some(0),
            field_at: None,
            doc: None,
        });
        0
    }

    /// Adds a member inside `parent` (a group or union also gets its
    /// node) and returns its index.
    fn new_member(
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
            fields_made: 0,
            discriminants_given: 0,
            in_union,
            name,
            kind,
            decl,
            param: None,
            field_scope: scope,
            union_scope: None,
            draft: st,
            field_at: None,
            doc: decl.and_then(|d| d.doc.clone()),
        });
        let i = self.members.len() - 1;
        self.member_order.push(i);
        i
    }

    /// Translates a struct's members.
    pub(super) fn translate_decls(&mut self, members: &'a [Decl], node: &Node) -> TranslatedStruct {
        let root = self.add_root(node);
        self.traverse_top_or_group(members, root, Scope::Top);
        self.finish(root)
    }

    /// Translates a method's named parameters (one field each, ordinal
    /// the position).
    pub(super) fn translate_params(
        &mut self,
        params: &'a [MethodParam],
        node: &Node,
    ) -> TranslatedStruct {
        let root = self.add_root(node);
        for (i, p) in params.iter().enumerate() {
            let m = self.new_member(root, i as u16, MemberKind::Field, None, false, Scope::Top);
            self.members[m].name = p.name.value.clone();
            self.members[m].param = Some(p);
            self.by_ordinal.entry(i as u64).or_default().push(m);
        }
        self.finish(root)
    }

    /// Collects the members of union `decl` (held by member `parent`,
    /// layout union `u`), each in a layout group of its own.
    /// `code_order` counts on from the parent's for an unnamed union.
    fn traverse_union(&mut self, decl: &'a Decl, parent: usize, u: usize, code_order: &mut u16) {
        if decl.nested.len() < 2 {
            self.cx.error(
                self.file(),
                decl.span,
                "Union must have at least two members.".into(),
            );
        }
        self.add_members(&decl.nested, parent, MemberPlace::Union(u), code_order);
    }

    /// Collects the members of group `decl` (member `mi`).
    fn traverse_group(&mut self, decl: &'a Decl, mi: usize, scope: Scope) {
        if decl.nested.is_empty() {
            self.cx.error(
                self.file(),
                decl.span,
                "Group must have at least one member.".into(),
            );
        }
        self.traverse_top_or_group(&decl.nested, mi, scope);
    }

    /// Collects `members` of the root or a group (member `parent`), placed
    /// in layout scope `scope`.
    fn traverse_top_or_group(&mut self, members: &'a [Decl], parent: usize, scope: Scope) {
        let mut code_order = 0u16;
        self.add_members(members, parent, MemberPlace::Scope(scope), &mut code_order);
    }

    /// Adds the fields, unions and groups among `members` to `parent`,
    /// each numbered from `code_order` on. In a union each member gets a
    /// layout group of its own; an unnamed union's members are added to
    /// `parent` itself, which then holds the union (only outside a union:
    /// inside one it is an error).
    fn add_members(
        &mut self,
        members: &'a [Decl],
        parent: usize,
        place: MemberPlace,
        code_order: &mut u16,
    ) {
        let file = self.file();
        for m in members {
            let kind = match m.kind {
                DeclKind::Field { .. } => MemberKind::Field,
                DeclKind::Union => MemberKind::Union,
                DeclKind::Group => MemberKind::Group,
                _ => continue,
            };
            if kind == MemberKind::Union && m.name.value.is_empty() {
                match place {
                    MemberPlace::Union(_) => {
                        self.cx
                            .error(file, m.span, "Unions cannot contain unnamed unions.".into());
                    }
                    MemberPlace::Scope(scope) => {
                        let u = self.layout.new_union(scope);
                        self.members[parent].union_scope = Some(u);
                        self.traverse_union(m, parent, u, code_order);
                        if let Some(o) = m.ordinal() {
                            self.by_ordinal.entry(o.value).or_default().push(parent);
                        }
                    }
                }
                continue;
            }
            let (scope, in_union) = match place {
                MemberPlace::Scope(scope) => (scope, false),
                MemberPlace::Union(u) => (self.layout.new_group(u), true),
            };
            let inner_union = (kind == MemberKind::Union).then(|| self.layout.new_union(scope));
            let mi = self.new_member(parent, *code_order, kind, Some(m), in_union, scope);
            *code_order = code_order.wrapping_add(1);
            match kind {
                MemberKind::Field => {
                    let o = m.ordinal().map(|o| o.value).unwrap_or(0);
                    self.by_ordinal.entry(o).or_default().push(mi);
                }
                MemberKind::Union => {
                    self.members[mi].union_scope = inner_union;
                    if let Some(u) = inner_union {
                        self.traverse_union(m, mi, u, &mut 0);
                    }
                    if let Some(o) = m.ordinal() {
                        self.by_ordinal.entry(o.value).or_default().push(mi);
                    }
                }
                _ => self.traverse_group(m, mi, scope),
            }
        }
    }

    /// The next free field slot of member `p`'s struct: (struct index,
    /// field index). The struct's field list is made on first use, and
    /// `p`'s own field in its parent before it.
    fn next_field_slot(&mut self, p: usize) -> (usize, usize) {
        let st = self.members[p].draft.unwrap_or(0);
        if self.structs[st].fields.is_none() {
            if self.members[p].parent.is_some() {
                self.member_field(p);
            }
            let n = self.members[p].child_count as usize;
            self.structs[st].fields = Some(vec![None; n]);
            self.structs[st].docs = Some(vec![None; n]);
        }
        let i = self.members[p].fields_made as usize;
        self.members[p].fields_made += 1;
        (st, i)
    }

    /// Where member `m`'s field is, made on first need with its index
    /// among its parent's fields and its discriminant value (the
    /// reference's `MemberInfo::getSchema`).
    fn member_field(&mut self, m: usize) -> (usize, usize) {
        if let Some(s) = self.members[m].field_at {
            return s;
        }
        let parent = self.members[m].parent.unwrap_or(0);
        // An index among at most 65,536 children (each holds a field of
        // its own, and ordinals are 16-bit): below 65,536.
        self.members[m].index = self.members[parent].fields_made as u16;
        let (st, i) = self.next_field_slot(parent);
        let disc = if self.members[m].in_union {
            let d = self.members[parent].discriminants_given;
            self.members[parent].discriminants_given += 1;
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
        self.members[m].field_at = Some((st, i));
        (st, i)
    }

    /// The field at `at` (struct index, field index).
    fn field_mut(&mut self, at: (usize, usize)) -> Option<&mut Field> {
        self.structs[at.0].fields.as_mut()?.get_mut(at.1)?.as_mut()
    }

    /// Completes group or union `m` (or the root): its discriminant's
    /// place and count, and for a group its id and its field in the
    /// parent.
    fn finish_group(&mut self, m: usize) {
        let st = self.members[m].draft.unwrap_or(0);
        if let Some(u) = self.members[m].union_scope {
            self.layout.add_discriminant(u);
            let count = self.members[m].discriminants_given;
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

    /// Lays the members out and makes the nodes: fields placed in ordinal
    /// order, then the groups and unions completed and every member's
    /// annotations compiled, in declaration order.
    fn finish(&mut self, root: usize) -> TranslatedStruct {
        self.place_in_ordinal_order();
        self.finish_group(root);
        self.finish_members();
        if self.layout.refused {
            let n = &self.cx.nodes[self.scope];
            self.cx.error(self.file(), node_span(n.decl), "Bad news: Cap'n Proto 0.5.x and previous contained a bug which would cause this schema to be compiled incorrectly. Please see: https://github.com/sandstorm-io/capnproto/issues/344".into());
        }
        self.take_nodes()
    }

    /// Checks the ordinals and places each field (and each union's
    /// discriminant, when the union declares an ordinal) in ordinal order,
    /// as the reference does: the order decides the offsets.
    fn place_in_ordinal_order(&mut self) {
        let file = self.file();
        let brand = self.cx.local_brand(self.scope);
        let mut ordinals = OrdinalChecker::default();
        let entries: Vec<(u64, usize)> = self
            .by_ordinal
            .iter()
            .flat_map(|(o, v)| v.iter().map(move |m| (*o, *m)))
            .collect();
        for (ordinal, m) in entries {
            if let Some(o) = self.members[m].decl.and_then(|d| d.ordinal()) {
                ordinals.check(self.cx, file, o);
            }
            let at = self.member_field(m);
            if let Some(f) = self.field_mut(at) {
                f.ordinal = Some(ordinal as u16);
            }
            match self.members[m].kind {
                MemberKind::Field => self.place_field(m, at, &brand),
                MemberKind::Union => self.place_union_discriminant(m),
                _ => {}
            }
        }
    }

    /// Gives field `m` (whose entry is at `at`) its type, default and
    /// offset.
    fn place_field(&mut self, m: usize, at: (usize, usize), brand: &Rc<BrandScope>) {
        let Some((ty, default, explicit_default)) = self.field_type_and_default(m, brand) else {
            return;
        };
        let scope = self.members[m].field_scope;
        let offset = match slot_of(&ty) {
            Slot::Pointer => self.layout.add_pointer(scope),
            Slot::Nothing => {
                self.layout.add_void(scope);
                0
            }
            Slot::Data { log2_bits } => self.layout.add_data(scope, log2_bits),
        };
        if let Some(f) = self.field_mut(at) {
            f.kind = FieldKind::Slot {
                offset,
                ty,
                default,
                explicit_default,
            };
        }
    }

    /// Field `m`'s type (Void when it does not compile), its default, and
    /// whether the default was written. A parameter may declare `null`
    /// as its default when it is a pointer.
    fn field_type_and_default(
        &self,
        m: usize,
        brand: &Rc<BrandScope>,
    ) -> Option<(Type, Value, bool)> {
        let cx = self.cx;
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
                _ => return None,
            };
        let is_param = self.members[m].param.is_some();
        let Some(t) = cx.compile_type(self.scope, brand, ty_e, &self.implicit) else {
            return Some((Type::Void, Value::Void, false));
        };
        let Some(d) = def_e else {
            let v = zero_value(&t);
            return Some((t, v, false));
        };
        let v = if is_param && matches!(&d.kind, ExprKind::RelativeName(n) if n.value == "null") {
            if !is_pointer_type(&t) {
                cx.error(
                    self.file(),
                    d.span,
                    "Only pointer parameters can declare their default as 'null'.".into(),
                );
            }
            zero_value(&t)
        } else {
            cx.bootstrap_value(self.scope, d, &t)
        };
        Some((t, v, true))
    }

    /// Places named union `m`'s discriminant when its ordinal comes up;
    /// an error when two of its members were already placed (only one
    /// field may be made part of a union after the fact).
    fn place_union_discriminant(&mut self, m: usize) {
        let Some(u) = self.members[m].union_scope else {
            return;
        };
        if !self.layout.add_discriminant(u) {
            let span = self.members[m]
                .decl
                .and_then(|d| d.ordinal())
                .map(|o| o.span)
                .unwrap_or_default();
            self.cx.error(self.file(), span, "Union ordinal, if specified, must be greater than no more than one of its member ordinals (i.e. there can only be one field retroactively unionized).".into());
        }
    }

    /// Completes each group and union and compiles each member's
    /// annotations, in declaration order.
    fn finish_members(&mut self) {
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
            let compiled = self.cx.annotations(self.scope, anns, target);
            let at = self.member_field(m);
            if let Some(f) = self.field_mut(at) {
                f.annotations = compiled;
            }
        }
    }

    /// The finished nodes: every struct draft gets the layout's sizes and
    /// its fields; the root's kind and the groups with their source info.
    fn take_nodes(&mut self) -> TranslatedStruct {
        let data_words = self.layout.data_words as u16;
        let pointers = self.layout.pointers as u16;
        let mut groups = Vec::new();
        let mut root = None;
        for (i, draft) in std::mem::take(&mut self.structs).into_iter().enumerate() {
            let mut node = draft.node;
            let fields = draft
                .fields
                .map(|v| v.into_iter().flatten().collect::<Vec<_>>());
            if let NodeKind::Struct(s) = &mut node.kind {
                s.data_words = data_words;
                s.pointers = pointers;
                s.fields = fields;
            }
            if i == 0 {
                root = Some(RootStruct {
                    kind: node.kind,
                    members: draft.docs,
                });
            } else {
                let source_info = SourceInfo {
                    id: node.id,
                    doc: draft.doc,
                    members: draft.docs,
                };
                groups.push((node, source_info));
            }
        }
        let root = root.unwrap_or(RootStruct {
            kind: NodeKind::Struct(StructNode::default()),
            members: None,
        });
        (root, groups)
    }
}
